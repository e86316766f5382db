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

/** A candle push as the chart needs it (the contract's `CandleNotice` fields) */
export interface CandlePush {
  openTime: number;
  closeTime: number;
  open: string;
  high: string;
  low: string;
  close: string;
  volume: string;
}

/**
 * The bars after a candle push: the forming bar replaced, or a new bar appended (the oldest dropped, so the chart
 * keeps its length); a push older than the last bar changes nothing (returns the same array). A gap (a push more
 * than one bar ahead) is appended too: the exchange's bars in between come with the next REST answer.
 */
export function applyCandle(candles: readonly Candle[], push: CandlePush): readonly Candle[] {
  const last = candles[candles.length - 1];
  const bar: Candle = {
    openTime: push.openTime,
    closeTime: push.closeTime,
    open: Number(push.open),
    high: Number(push.high),
    low: Number(push.low),
    close: Number(push.close),
    volume: Number(push.volume),
  };
  if (!last || push.openTime < last.openTime) return candles;
  if (push.openTime === last.openTime) return [...candles.slice(0, -1), bar];
  return [...candles.slice(1), bar];
}
