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
 * A ticker's row, overlaid with the symbol's latest push when that push is newer (a slow REST answer must not take a
 * price back). Pushes carry price, change, high, low; the quote volume stays the ticker's unless a push sends one
 */
function watchRow(t: Ticker, push: TickerNotice | undefined): WatchRow {
  const row: WatchRow = {
    symbol: t.symbol,
    lastPrice: Number(t.lastPrice),
    changePercent: Number(t.priceChangePercent),
    high: Number(t.highPrice),
    low: Number(t.lowPrice),
    quoteVolume: Number(t.quoteVolume),
    time: t.closeTime,
  };
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
}

interface Seen {
  ticker: Ticker;
  push: TickerNotice | undefined;
  row: WatchRow;
}

/**
 * The rows (each ticker with its symbol's latest push applied), with a memory: a symbol whose ticker and push are the
 * objects it saw last time keeps its row object. A push moves one symbol; the table then re-renders that row alone
 * (its rows are memoised on their item), not 50
 */
export function keepWatchRows(): (
  tickers: readonly Ticker[],
  live: ReadonlyMap<string, TickerNotice>,
) => WatchRow[] {
  let seen = new Map<string, Seen>();
  return (tickers, live) => {
    const next = new Map<string, Seen>();
    const rows = tickers.map((ticker) => {
      const push = live.get(ticker.symbol);
      const last = seen.get(ticker.symbol);
      const row = last && last.ticker === ticker && last.push === push ? last.row : watchRow(ticker, push);
      next.set(ticker.symbol, { ticker, push, row });
      return row;
    });
    seen = next;
    return rows;
  };
}
