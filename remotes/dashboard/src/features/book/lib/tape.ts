/** One aggregate trade of the tape; `buyerMaker` true is a taker sell (the buyer's order rested on the book) */
export interface TapeTrade {
  id: number;
  price: string;
  quantity: string;
  buyerMaker: boolean;
  time: number;
}

/**
 * The latest `rows` trades, newest first. By id, then time: aggregate trade ids rise with every trade of a symbol,
 * and many trades share a millisecond, so time alone would shuffle them
 */
export function latestTrades<T extends TapeTrade>(trades: readonly T[], rows: number): T[] {
  return [...trades].sort((a, b) => b.id - a.id || b.time - a.time).slice(0, Math.max(0, rows));
}

/** A trade's time of day in UTC, like every time on a trading screen: "14:05:09" */
export function formatTradeTime(ms: number): string {
  return new Date(ms).toISOString().slice(11, 19);
}

/** The taker's side: what crossed the spread ("Sell" when the buyer was the maker) */
export function takerSide(trade: Pick<TapeTrade, 'buyerMaker'>): 'Buy' | 'Sell' {
  return trade.buyerMaker ? 'Sell' : 'Buy';
}
