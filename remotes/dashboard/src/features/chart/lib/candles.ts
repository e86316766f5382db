import type { Kline } from '@kestrel/contracts';

/** One bar as the chart draws it: times in ms since epoch, prices as numbers (display only, never sent back) */
export interface Candle {
  openTime: number;
  closeTime: number;
  open: number;
  high: number;
  low: number;
  close: number;
  volume: number;
}

export function toCandles(klines: readonly Kline[]): Candle[] {
  return klines.map((k) => ({
    openTime: k.openTime,
    closeTime: k.closeTime,
    open: Number(k.open),
    high: Number(k.high),
    low: Number(k.low),
    close: Number(k.close),
    volume: Number(k.volume),
  }));
}

/** What a price push does to the bars */
export type PriceApplied =
  /** It fell inside the forming bar, which now closes at it (high and low stretched to it) */
  | { kind: 'updated'; candles: Candle[] }
  /** It is past the forming bar's close: a new bar began, which only the exchange can give whole */
  | { kind: 'rolled' }
  /** Older than the forming bar, or nothing to apply it to */
  | { kind: 'ignored' };

/** Moves the forming (last) bar to a traded price at `time` */
export function applyPrice(candles: readonly Candle[], price: number, time: number): PriceApplied {
  const last = candles[candles.length - 1];
  if (!last || !Number.isFinite(price) || time < last.openTime) return { kind: 'ignored' };
  if (time > last.closeTime) return { kind: 'rolled' };
  const next: Candle = {
    ...last,
    close: price,
    high: Math.max(last.high, price),
    low: Math.min(last.low, price),
  };
  return { kind: 'updated', candles: [...candles.slice(0, -1), next] };
}
