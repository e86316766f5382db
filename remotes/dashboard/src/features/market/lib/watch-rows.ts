import type { Ticker, TickerNotice } from '@kestrel/contracts';

/** One row of the market watch: the 24 h ticker with the latest live push applied */
export interface WatchRow {
  symbol: string;
  lastPrice: number;
  /** Percent, e.g. 2.5 for +2.5% */
  changePercent: number;
  high: number;
  low: number;
  /** 24 h volume in the quote asset (USDT) */
  quoteVolume: number;
  /** Time of the figures, ms since epoch */
  time: number;
}

/** A number from a decimal string, or undefined when the push left it out or sent something unreadable */
function figure(value: unknown): number | undefined {
  if (typeof value !== 'string' && typeof value !== 'number') return undefined;
  const n = Number(value);
  return Number.isFinite(n) ? n : undefined;
}

/**
 * The rows: each ticker, overlaid with the symbol's latest push when that push is newer than the ticker (a slow
 * REST answer must not take a price back). Pushes carry price, change, high, low; the quote volume stays the
 * ticker's unless a push sends one.
 */
export function watchRows(tickers: readonly Ticker[], live: ReadonlyMap<string, TickerNotice>): WatchRow[] {
  return tickers.map((t) => {
    const row: WatchRow = {
      symbol: t.symbol,
      lastPrice: Number(t.lastPrice),
      changePercent: Number(t.priceChangePercent),
      high: Number(t.highPrice),
      low: Number(t.lowPrice),
      quoteVolume: Number(t.quoteVolume),
      time: t.closeTime,
    };
    const push = live.get(t.symbol);
    if (!push || push.time < row.time) return row;
    return {
      ...row,
      lastPrice: figure(push.lastPrice) ?? row.lastPrice,
      changePercent: figure(push.priceChangePercent) ?? row.changePercent,
      high: figure(push.highPrice) ?? row.high,
      low: figure(push.lowPrice) ?? row.low,
      quoteVolume: figure(push.quoteVolume) ?? row.quoteVolume,
      time: push.time,
    };
  });
}
