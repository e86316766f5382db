import { errors } from '../common/errors';
import { Decimal } from '../common/format';
import { checkMargin } from './account-figures';
import { bestOpposite, bookHolds, takeFromBook, withinLimit } from './book';
import { orderTradeUpdate } from './events';
import { finish } from './execution';
import { checkNotional, checkPrice, checkQuantity } from './filters';
import { checkClientId, positionSideFor } from './order-rules';
import {
  config,
  type ExchangeState,
  emit,
  isOpen,
  marketOf,
  newClientOrderId,
  openOrders,
  positionAmt,
} from './state';
import type { Account, Order, OrderType, PositionSide, Side, TimeInForce } from './types';

/** Orders on `/fapi/v1/order`: placement with Binance's checks and immediate matching, amendment, cancellation */

export interface PlaceOrderInput {
  symbol: string;
  side: Side;
  positionSide?: PositionSide;
  type: OrderType;
  timeInForce?: TimeInForce;
  quantity: Decimal;
  price?: Decimal;
  reduceOnly?: boolean;
  newClientOrderId?: string;
  /** GTD: expiry in ms (Binance keeps whole seconds) */
  goodTillDate?: number;
}

/** PUT /fapi/v1/order: a new price and quantity for a resting LIMIT order */
export interface ModifyOrderInput {
  symbol: string;
  orderId?: bigint;
  clientOrderId?: string;
  side: Side;
  quantity: Decimal;
  price: Decimal;
}

/** GTD orders must live at least this long (Binance: more than 600 s) */
const GTD_MIN_MS = 600_000;
/** Binance's upper bound for goodTillDate (9999-12-31T23:59:59Z) */
const GTD_MAX_MS = 253_402_300_799_000;

/** An order by id, or by client id (the open one, else the newest) */
export function findOrder(
  account: Account,
  symbol: string,
  orderId?: bigint,
  clientOrderId?: string,
): Order | undefined {
  if (orderId !== undefined) {
    const o = account.orders.get(orderId);
    return o && o.symbol === symbol ? o : undefined;
  }
  // A client id is unique among open orders; the newest order wins among closed ones
  const matches = [...account.orders.values()].filter(
    (o) => o.symbol === symbol && o.clientOrderId === clientOrderId,
  );
  return matches.find(isOpen) ?? matches[matches.length - 1];
}

/**
 * Places an order the way Binance's matching engine accepts it, at simulated time `now` (the caller syncs first; a
 * conditional order that triggers mid-step places at its second). Returns the order as it stood on acceptance
 * (`ack`, what newOrderRespType=ACK answers) and after immediate matching (`result`)
 */
export function placeOrder(
  s: ExchangeState,
  account: Account,
  input: PlaceOrderInput,
  now: number,
): { ack: Order; result: Order } {
  const market = marketOf(s, input.symbol);
  const spec = market.spec;
  const cfg = config(account, spec.symbol);

  const positionSide = positionSideFor(account, input.positionSide, input.reduceOnly);

  checkClientId('newClientOrderId', input.newClientOrderId, (id) =>
    openOrders(account).some((o) => o.clientOrderId === id),
  );

  const mark = new Decimal(market.markPrice(now));
  const isMarket = input.type === 'MARKET';
  let tif: TimeInForce = 'GTC';
  let price = new Decimal(0);
  let goodTillDate = 0;
  if (input.type === 'LIMIT') {
    if (!input.timeInForce) throw errors.mandatory('timeInForce');
    if (!input.price) throw errors.mandatory('price');
    tif = input.timeInForce;
    if (tif === 'GTD') {
      if (input.goodTillDate === undefined) throw errors.mandatory('goodTillDate');
      // Binance keeps whole seconds of the expiry
      goodTillDate = Math.floor(input.goodTillDate / 1000) * 1000;
      if (goodTillDate <= now + GTD_MIN_MS || goodTillDate >= GTD_MAX_MS) throw errors.invalidGoodTillDate();
    } else if (input.goodTillDate !== undefined) {
      throw errors.notRequired('goodTillDate');
    }
    checkQuantity(spec, input.quantity, false);
    checkPrice(spec, input.price, input.side, mark);
    price = input.price;
  } else {
    if (input.price) throw errors.notRequired('price');
    checkQuantity(spec, input.quantity, true);
  }

  // Reduce-only: one-way orders flagged so, and hedge-mode orders that close a side
  const closing =
    account.dualSidePosition &&
    ((positionSide === 'LONG' && input.side === 'SELL') ||
      (positionSide === 'SHORT' && input.side === 'BUY'));
  const reduceOnly = input.reduceOnly === true || closing;
  const posAmt = positionAmt(account, spec.symbol, positionSide);
  if (reduceOnly) {
    const reduces = input.side === 'BUY' ? posAmt.lt(0) : posAmt.gt(0);
    if (!reduces) throw errors.reduceOnlyReject();
    if (closing && input.quantity.gt(posAmt.abs())) throw errors.reduceOnlyReject();
  }

  // The side of the book this order takes from: sellers for a buy, buyers for a sell
  const takeSide = input.side === 'BUY' ? 'ASK' : 'BID';
  const best = bestOpposite(market, input.side, now);
  checkNotional(spec, isMarket ? mark : price, input.quantity, input.reduceOnly === true);

  const within = withinLimit(input.side, price, isMarket);
  const marketable = within(best);
  if (tif === 'GTX' && marketable) throw errors.postOnlyReject();

  if (!reduceOnly)
    checkMargin(s, account, spec, cfg.leverage, input, isMarket ? best : price, mark, posAmt, now);

  const order: Order = {
    orderId: s.nextOrderId++,
    clientOrderId: input.newClientOrderId ?? newClientOrderId(),
    symbol: spec.symbol,
    side: input.side,
    positionSide,
    type: input.type,
    timeInForce: tif,
    price,
    origQty: input.quantity,
    executedQty: new Decimal(0),
    cumQuote: new Decimal(0),
    reduceOnly,
    status: 'NEW',
    goodTillDate,
    time: now,
    updateTime: now,
  };
  account.orders.set(order.orderId, order);
  account.openOrders.set(order.orderId, order);
  const ack = { ...order };
  emit(s, account, () => orderTradeUpdate(order, spec, { x: 'NEW' }, now));

  if (marketable) {
    // A reduce-only order never trades past the position: the rest would open the other side
    const want = reduceOnly ? Decimal.min(order.origQty, posAmt.abs()) : order.origQty;
    if (tif === 'FOK' && !bookHolds(market.levels(now, takeSide), want, within)) {
      finish(s, account, order, 'EXPIRED', now);
      return { ack, result: { ...order } };
    }
    takeFromBook(s, account, order, want, now);
    // What a LIMIT GTC/GTD order could not take rests in the book; IOC (and market) remainders expire
    if (isOpen(order) && (isMarket || tif === 'IOC')) finish(s, account, order, 'EXPIRED', now);
  } else if (tif === 'IOC' || tif === 'FOK') {
    finish(s, account, order, 'EXPIRED', now);
  }
  return { ack, result: { ...order } };
}

/**
 * Binance's in-place amendment of a resting LIMIT order. Filters are checked first (a refusal leaves the order as
 * it was); a quantity at or below what has filled, or a GTX price that would take, cancels the order instead; a
 * price that now crosses the book trades at once as taker. Pushes ORDER_TRADE_UPDATE with x=AMENDMENT.
 */
export function modifyOrder(s: ExchangeState, account: Account, input: ModifyOrderInput): Order {
  const now = s.clock.now();
  const market = marketOf(s, input.symbol);
  const spec = market.spec;
  const order = findOrder(account, spec.symbol, input.orderId, input.clientOrderId);
  if (!order) throw errors.noSuchOrder();
  if (!isOpen(order)) throw errors.cancelRejected();
  if (order.type !== 'LIMIT') throw errors.invalidOrderType();
  if (input.side !== order.side) throw errors.invalidSide();
  const mark = new Decimal(market.markPrice(now));
  checkQuantity(spec, input.quantity, false);
  checkPrice(spec, input.price, input.side, mark);
  if (input.quantity.eq(order.origQty) && input.price.eq(order.price)) throw errors.noNeedToModify();
  checkNotional(spec, input.price, input.quantity, order.reduceOnly);

  const marketable = withinLimit(order.side, input.price, false)(bestOpposite(market, order.side, now));
  if (input.quantity.lte(order.executedQty) || (order.timeInForce === 'GTX' && marketable)) {
    finish(s, account, order, 'CANCELED', now);
    return { ...order };
  }
  if (!order.reduceOnly) {
    const posAmt = positionAmt(account, spec.symbol, order.positionSide);
    const remaining = input.quantity.minus(order.executedQty);
    // The order's margin is re-checked at its new size, as if it were not in the book yet
    account.openOrders.delete(order.orderId);
    try {
      checkMargin(
        s,
        account,
        spec,
        config(account, spec.symbol).leverage,
        { side: order.side, quantity: remaining },
        input.price,
        mark,
        posAmt,
        now,
      );
    } finally {
      account.openOrders.set(order.orderId, order);
    }
  }
  order.price = input.price;
  order.origQty = input.quantity;
  order.updateTime = now;
  emit(s, account, () => orderTradeUpdate(order, spec, { x: 'AMENDMENT' }, now));
  if (marketable) takeFromBook(s, account, order, order.origQty.minus(order.executedQty), now);
  return { ...order };
}

/** Cancels an open order; -2011 when it is unknown or no longer open */
export function cancelOrder(
  s: ExchangeState,
  account: Account,
  symbol: string,
  orderId?: bigint,
  clientOrderId?: string,
): Order {
  marketOf(s, symbol);
  const order = findOrder(account, symbol, orderId, clientOrderId);
  if (!order || !isOpen(order)) throw errors.cancelRejected();
  finish(s, account, order, 'CANCELED', s.clock.now());
  return { ...order };
}

/** Cancels every open order of a symbol */
export function cancelAll(s: ExchangeState, account: Account, symbol: string): void {
  marketOf(s, symbol);
  for (const o of openOrders(account, symbol)) finish(s, account, o, 'CANCELED', s.clock.now());
}
