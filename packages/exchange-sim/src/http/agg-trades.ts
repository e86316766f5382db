import { errors } from '../common/errors';
import type { Market } from '../matching/market';
import { type AggTrade, aggTradeAt, aggTradeId } from '../matching/tape';
import { marketParam, type Route } from './route';

const HOUR_MS = 3_600_000;

/** Id of the first trade at or after `ms` (trades print at the start of each second since the history began) */
function firstIdFrom(market: Market, ms: number): number {
  return Math.max(0, Math.ceil((ms - market.feed.firstOpenTime) / 1000));
}

/** Id of the last trade at or before `ms`; -1 before the first */
function lastIdUntil(market: Market, ms: number): number {
  return Math.floor((ms - market.feed.firstOpenTime) / 1000);
}

/** Binance's row: one-letter names, decimals as strings */
function row(market: Market, t: AggTrade) {
  return {
    a: t.id,
    p: t.price.toFixed(market.spec.pricePrecision),
    q: t.qty,
    f: t.firstTradeId,
    l: t.lastTradeId,
    T: t.time,
    m: t.buyerMaker,
  };
}

/**
 * `GET /fapi/v1/aggTrades`: the synthetic trades the aggTrade stream pushes (one a second, `matching/tape.ts`),
 * oldest first. `fromId`, `startTime` and `endTime` are inclusive and may be combined; with none of `fromId` and
 * `startTime` the most recent trades (up to `endTime`) come back, as Binance answers without a lower bound
 */
export const aggTradesRoute: Route = {
  method: 'GET',
  path: '/fapi/v1/aggTrades',
  security: 'NONE',
  weight: 20,
  handler: (ctx) => {
    const market = marketParam(ctx);
    const limit = ctx.params.limit(500, 1000);
    const fromId = ctx.params.int('fromId');
    const startTime = ctx.params.int('startTime');
    const endTime = ctx.params.int('endTime');
    if (startTime !== undefined && endTime !== undefined) {
      if (startTime > endTime) throw errors.invalidParam('startTime must be before endTime.');
      if (endTime - startTime > HOUR_MS) throw errors.moreThanHours(1);
    }
    let lo = Math.max(0, fromId ?? 0);
    if (startTime !== undefined) lo = Math.max(lo, firstIdFrom(market, startTime));
    // The trade of the current second has printed (at its start); later ones have not
    let hi = aggTradeId(market, ctx.now);
    if (endTime !== undefined) hi = Math.min(hi, lastIdUntil(market, endTime));
    if (hi < lo) return [];
    const from = fromId === undefined && startTime === undefined ? Math.max(lo, hi - limit + 1) : lo;
    const to = Math.min(hi, from + limit - 1);
    return Array.from({ length: to - from + 1 }, (_, i) => row(market, aggTradeAt(market, from + i)));
  },
};
