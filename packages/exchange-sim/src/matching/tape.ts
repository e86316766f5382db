import { Decimal } from '../common/format';
import { hash32 } from '../common/rng';
import type { Market } from './market';

/**
 * The market's public record: its synthetic aggregate trades and the update ids of its book. Both are pure functions
 * of the market and a time (or id), so the REST endpoints and the streams, which read them at different moments,
 * can never disagree about a trade or a book state.
 */

/** One synthetic aggregate trade, as GET /fapi/v1/aggTrades and the aggTrade stream publish it */
export interface AggTrade {
  /** Aggregate trade id: one per second since the feed's history began */
  id: number;
  price: number;
  /** Decimal string at the symbol's quantity precision */
  qty: string;
  firstTradeId: number;
  lastTradeId: number;
  time: number;
  /** True when the buyer was the maker (a taker sell) */
  buyerMaker: boolean;
}

/** Plain trades per aggregate trade: `f`/`l` of an aggregate, the kline and ticker trade ids count in them */
export const TRADES_PER_AGG_TRADE = 3;

/** Id of the aggregate trade of the second of `ms`: one per second since the feed's history began */
export function aggTradeId(market: Market, ms: number): number {
  return Math.max(0, Math.floor((ms - market.feed.firstOpenTime) / 1000));
}

/**
 * The aggregate trade `id`: at the start of its second, at the price the second opened at (before any price command
 * of that second), with a size and aggressor side hashed from its time so every reader gets the same trade
 */
export function aggTradeAt(market: Market, id: number): AggTrade {
  const spec = market.spec;
  const time = market.feed.firstOpenTime + id * 1000;
  return {
    id,
    price: market.tradePrice(time),
    qty: new Decimal(spec.minQty).mul(1 + (hash32(time, 11) % 200)).toFixed(spec.quantityPrecision),
    firstTradeId: id * TRADES_PER_AGG_TRADE,
    lastTradeId: id * TRADES_PER_AGG_TRADE + TRADES_PER_AGG_TRADE - 1,
    time,
    buyerMaker: hash32(time, 12) % 2 === 0,
  };
}

/**
 * The book's update id at `ms` (REST depth `lastUpdateId`, bookTicker `u`, depth streams `U`/`u`/`pu`). The
 * synthetic book changes once a second, and again whenever a price command moves the current second's price, so the
 * id counts both: one per second plus one per such command up to then. Strictly increasing along time, and one id
 * names one book, so a client following Binance's snapshot-and-diff procedure always finds where it stands
 */
export function bookUpdateId(market: Market, ms: number): number {
  return aggTradeId(market, ms) + market.bookRevisions(ms);
}
