import { Decimal } from '../common/format';
import { fill, finish } from './execution';
import type { BookLevel, Market } from './market';
import { closableBy, type ExchangeState, isOpen, marketOf, positionAmt } from './state';
import type { Account, Order, Side } from './types';

/** Our orders against the synthetic book: takers walk it level by level, resting orders fill as makers */

/** Best price of the side an order of `side` takes from (the ask for a buy, the bid for a sell) */
export function bestOpposite(market: Market, side: Side, now: number): Decimal {
  const book = market.book(now);
  return new Decimal((side === 'BUY' ? book.ask : book.bid).toFixed(market.spec.pricePrecision));
}

/** Whether a price is within an order's limit: at or below it for a buy, at or above for a sell; any for MARKET */
export function withinLimit(side: Side, limit: Decimal, isMarket: boolean): (price: Decimal) => boolean {
  return (p) => isMarket || (side === 'BUY' ? p.lte(limit) : p.gte(limit));
}

/** FOK: whether the levels within the limit price hold the whole quantity */
export function bookHolds(
  levels: Iterable<BookLevel>,
  qty: Decimal,
  within: (price: Decimal) => boolean,
): boolean {
  let left = qty;
  for (const level of levels) {
    if (!within(level.price)) return false;
    left = left.minus(level.qty);
    if (left.lte(0)) return true;
  }
  return false;
}

/**
 * Takes up to `want` from the other side of the book as taker, level by level within the order's limit price: one
 * trade (and one ORDER_TRADE_UPDATE) per level. A market order larger than the whole shown book has the rest
 * filled at its deepest price (the book refills)
 */
export function takeFromBook(
  s: ExchangeState,
  account: Account,
  order: Order,
  want: Decimal,
  now: number,
): void {
  const market = marketOf(s, order.symbol);
  const isMarket = order.type === 'MARKET';
  const within = withinLimit(order.side, order.price, isMarket);
  let left = want;
  let deepest: Decimal | undefined;
  for (const level of market.levels(now, order.side === 'BUY' ? 'ASK' : 'BID')) {
    if (left.isZero() || !isOpen(order) || !within(level.price)) break;
    const take = Decimal.min(left, level.qty);
    fill(s, account, order, take, level.price, false, now);
    left = left.minus(take);
    deepest = level.price;
  }
  if (isMarket && left.gt(0) && deepest && isOpen(order)) fill(s, account, order, left, deepest, false, now);
}

/**
 * A resting order's fill in one second the last price is at or through its price: as maker at its price, at most
 * what the best level of the other side holds; a reduce-only order with nothing left to reduce expires
 */
export function executeResting(s: ExchangeState, account: Account, order: Order, t: number): void {
  let qty = order.origQty.minus(order.executedQty);
  if (order.reduceOnly) {
    const amt = positionAmt(account, order.symbol, order.positionSide);
    const reducible = closableBy(order.side, amt);
    // Binance expires a reduce-only order that no longer has anything to reduce
    if (reducible.isZero()) {
      finish(s, account, order, 'EXPIRED', t);
      return;
    }
    qty = Decimal.min(qty, reducible);
  }
  // A second of trading at the order's price takes at most what the best level of the other side holds
  const counterparty = marketOf(s, order.symbol).levelQty(t, order.side === 'BUY' ? 'ASK' : 'BID', 0);
  fill(s, account, order, Decimal.min(qty, counterparty), order.price, true, t);
}
