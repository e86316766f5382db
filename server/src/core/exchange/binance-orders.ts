import { randomBytes } from 'node:crypto';
import { systemClock } from '../../lib/clock';
import type { BinanceClient } from './binance-client';
import {
  AlgoOrderSchema,
  AlgoOrdersSchema,
  CanceledAlgoOrderSchema,
  CountdownCancelAllSchema,
  OrderSchema,
  OrdersSchema,
  type WireAlgoOrder,
  type WireOrder,
} from './binance-schemas';
import {
  ExchangeApiError,
  type ExchangeKeys,
  ExchangeResponseError,
  ExchangeUnavailableError,
  isConditionalType,
  LostOrderNotFoundError,
  type NewOrder,
  type Order,
  type OrderKind,
  type OrderRef,
  OrderStatusUnknownError,
} from './exchange-adapter';

// Orders on Binance USDⓈ-M futures: plain ones on /fapi/v1/order, conditional ones on /fapi/v1/algoOrder, each
// sent once and looked up by its client order id when the answer is lost (`placeOrder`), and the dead-man switch.
// The adapter (`binance-adapter.ts`) delegates here

const CLIENT_ID = /^[.A-Za-z0-9:/_-]{1,36}$/;

/** Binance: "Order does not exist." */
const ORDER_DOES_NOT_EXIST = -2013;

/** Binance: "Unknown order sent." (cancel of an order it does not have, or one already closed) */
const UNKNOWN_ORDER = -2011;

const isNotFound = (err: unknown): boolean =>
  err instanceof ExchangeApiError && (err.code === ORDER_DOES_NOT_EXIST || err.code === UNKNOWN_ORDER);

/** Binance writes "" (algo orders) or a zero for a field that does not apply: null to us */
const unlessZero = (v: string | undefined): string | null =>
  v === undefined || v === '' || Number(v) === 0 ? null : v;

/** Binance writes 0 for "no goodTillDate" */
const unlessZeroTime = (v: number | undefined): number | null => (v ? v : null);

/** A client order id of our own: prefix + time + randomness, well inside Binance's 36 characters */
export function newClientOrderId(now = systemClock.now().getTime()): string {
  return `kst-${now.toString(36)}-${randomBytes(6).toString('hex')}`;
}

export function toOrder(r: WireOrder): Order {
  return {
    orderId: r.orderId,
    clientOrderId: r.clientOrderId,
    kind: 'order',
    symbol: r.symbol,
    side: r.side,
    type: r.type,
    status: r.status,
    price: r.price,
    // Absent only while nothing was executed (the schema checks it)
    averagePrice: r.avgPrice ?? '0',
    quantity: r.origQty,
    executedQuantity: r.executedQty,
    timeInForce: r.timeInForce,
    reduceOnly: r.reduceOnly,
    positionSide: r.positionSide,
    triggerPrice: r.stopPrice,
    workingType: null,
    closePosition: false,
    activationPrice: null,
    callbackRate: null,
    triggeredOrderId: null,
    goodTillDate: unlessZeroTime(r.goodTillDate),
    updatedAt: r.updateTime,
  };
}

/** A conditional order as /fapi/v1/algoOrder writes it. Its fills belong to the order it placed when it fired */
export function toConditionalOrder(r: WireAlgoOrder): Order {
  return {
    orderId: r.algoId,
    clientOrderId: r.clientAlgoId,
    kind: 'conditional',
    symbol: r.symbol,
    side: r.side,
    type: r.orderType,
    status: r.algoStatus,
    price: r.price,
    // The fill price of the order it placed; nothing filled (or not fired yet, then absent) is 0
    averagePrice: unlessZero(r.actualPrice) ?? '0',
    quantity: r.quantity,
    executedQuantity: '0',
    timeInForce: r.timeInForce,
    reduceOnly: r.reduceOnly,
    positionSide: r.positionSide,
    triggerPrice: r.triggerPrice,
    workingType: r.workingType,
    closePosition: r.closePosition,
    activationPrice: unlessZero(r.activatePrice),
    callbackRate: unlessZero(r.callbackRate),
    triggeredOrderId: unlessZero(r.actualOrderId),
    goodTillDate: unlessZeroTime(r.goodTillDate),
    updatedAt: r.updateTime,
  };
}

/** What Binance would refuse anyway, said in our terms before a request is spent on it */
function checkNewOrder(order: NewOrder): void {
  const bad = (message: string) => new ExchangeApiError(400, -1102, message);
  const limitPriced = order.type === 'LIMIT' || order.type === 'STOP' || order.type === 'TAKE_PROFIT';
  if (limitPriced && order.price === undefined) throw bad(`A ${order.type} order needs a price`);
  if (!limitPriced && order.price !== undefined) throw bad(`A ${order.type} order takes no price`);
  if (order.closePosition && order.type !== 'STOP_MARKET' && order.type !== 'TAKE_PROFIT_MARKET') {
    throw bad('closePosition is only for STOP_MARKET and TAKE_PROFIT_MARKET orders');
  }
  if (order.closePosition && order.quantity !== undefined) throw bad('closePosition takes no quantity');
  if (!order.closePosition && order.quantity === undefined) throw bad('quantity is required');
  const triggered = isConditionalType(order.type) && order.type !== 'TRAILING_STOP_MARKET';
  if (triggered && order.triggerPrice === undefined) throw bad(`A ${order.type} order needs a triggerPrice`);
  if (!triggered && order.triggerPrice !== undefined)
    throw bad(`A ${order.type} order takes no triggerPrice`);
  if (order.timeInForce === 'GTD' && (order.type !== 'LIMIT' || order.goodTillDate === undefined)) {
    throw bad('timeInForce GTD is for LIMIT orders, with a goodTillDate');
  }
  if (order.timeInForce !== 'GTD' && order.goodTillDate !== undefined) {
    throw bad('goodTillDate is only for timeInForce GTD');
  }
  if (order.type === 'TRAILING_STOP_MARKET' && order.callbackRate === undefined) {
    throw bad('A TRAILING_STOP_MARKET order needs a callbackRate');
  }
}

/** Parameters of POST /fapi/v1/algoOrder for a conditional order (its client id is added by the caller) */
function conditionalParams(order: NewOrder) {
  const limitPriced = order.type === 'STOP' || order.type === 'TAKE_PROFIT';
  return {
    algoType: 'CONDITIONAL',
    symbol: order.symbol,
    side: order.side,
    type: order.type,
    positionSide: order.positionSide,
    quantity: order.quantity,
    price: limitPriced ? order.price : undefined,
    timeInForce: limitPriced ? (order.timeInForce ?? 'GTC') : undefined,
    triggerPrice: order.triggerPrice,
    workingType: order.workingType,
    closePosition: order.closePosition ? 'true' : undefined,
    reduceOnly: order.reduceOnly ? 'true' : undefined,
    priceProtect: order.priceProtect ? 'true' : undefined,
    activatePrice: order.activationPrice,
    callbackRate: order.callbackRate,
  };
}

export async function openOrders(
  client: BinanceClient,
  keys: ExchangeKeys,
  symbol?: string,
): Promise<Order[]> {
  const [orders, conditional] = await Promise.all([
    client.signed('GET', '/fapi/v1/openOrders', keys, OrdersSchema, { symbol }),
    client.signed('GET', '/fapi/v1/openAlgoOrders', keys, AlgoOrdersSchema, { symbol }),
  ]);
  return [...orders.map(toOrder), ...conditional.map(toConditionalOrder)];
}

export async function findOrder(
  client: BinanceClient,
  keys: ExchangeKeys,
  symbol: string,
  clientOrderId: string,
  kind: OrderKind = 'order',
): Promise<Order | undefined> {
  try {
    if (kind === 'conditional') {
      const r = await client.signed('GET', '/fapi/v1/algoOrder', keys, AlgoOrderSchema, {
        clientAlgoId: clientOrderId,
      });
      return toConditionalOrder(r);
    }
    const r = await client.signed('GET', '/fapi/v1/order', keys, OrderSchema, {
      symbol,
      origClientOrderId: clientOrderId,
    });
    return toOrder(r);
  } catch (err) {
    if (err instanceof ExchangeApiError && err.code === ORDER_DOES_NOT_EXIST) return undefined;
    throw err;
  }
}

/**
 * Sends the order once: plain types to /fapi/v1/order, conditional types to /fapi/v1/algoOrder (Binance refuses
 * them on /fapi/v1/order since 2025-12-09). When the answer is lost (5xx, timeout, reset) the order may exist:
 * it is looked up by its client order id before anything else, and the caller gets the order, a clear "not
 * placed" error, or OrderStatusUnknownError when even the lookup fails. An accepted order whose answer cannot
 * be read is looked up the same way. Nothing here re-sends the POST.
 */
export async function placeOrder(
  client: BinanceClient,
  keys: ExchangeKeys,
  order: NewOrder,
  /** The adapter's own lookup (`findOrder`), so a wrapper of the adapter sees the lookups a lost answer makes */
  find: (symbol: string, clientOrderId: string, kind: OrderKind) => Promise<Order | undefined>,
): Promise<Order> {
  const clientOrderId = order.clientOrderId ?? newClientOrderId(client.now());
  if (!CLIENT_ID.test(clientOrderId)) {
    throw new ExchangeApiError(400, -1100, 'clientOrderId must be 1-36 characters of A-Z a-z 0-9 . : / _ -');
  }
  checkNewOrder(order);
  const conditional = isConditionalType(order.type);
  const kind: OrderKind = conditional ? 'conditional' : 'order';
  const send = conditional
    ? async () =>
        toConditionalOrder(
          await client.signed('POST', '/fapi/v1/algoOrder', keys, AlgoOrderSchema, {
            ...conditionalParams(order),
            clientAlgoId: clientOrderId,
          }),
        )
    : async () =>
        toOrder(
          await client.signed('POST', '/fapi/v1/order', keys, OrderSchema, {
            symbol: order.symbol,
            side: order.side,
            type: order.type,
            quantity: order.quantity,
            price: order.type === 'LIMIT' ? order.price : undefined,
            timeInForce: order.type === 'LIMIT' ? (order.timeInForce ?? 'GTC') : undefined,
            reduceOnly: order.reduceOnly ? 'true' : undefined,
            positionSide: order.positionSide,
            goodTillDate: order.timeInForce === 'GTD' ? order.goodTillDate : undefined,
            newClientOrderId: clientOrderId,
            newOrderRespType: 'RESULT',
          }),
        );
  try {
    return await send();
  } catch (err) {
    // Accepted (HTTP 200) but unreadable: the order exists, only its state is unknown
    const unreadable = err instanceof ExchangeResponseError;
    const lost = err instanceof ExchangeUnavailableError && err.maybeExecuted;
    if (!unreadable && !lost) throw err;
    let found: Order | undefined;
    try {
      found = await find(order.symbol, clientOrderId, kind);
    } catch (lookupError) {
      throw new OrderStatusUnknownError(
        clientOrderId,
        lookupError instanceof Error ? lookupError : new Error(String(lookupError)),
      );
    }
    if (found) return found;
    if (unreadable) throw new OrderStatusUnknownError(clientOrderId, err);
    throw new LostOrderNotFoundError(
      clientOrderId,
      `${err.message}; order ${clientOrderId} was not placed (the exchange has no order with that id)`,
    );
  }
}

export async function cancelOrder(
  client: BinanceClient,
  keys: ExchangeKeys,
  symbol: string,
  ref: OrderRef,
): Promise<Order> {
  if (!ref.orderId && !ref.clientOrderId) {
    throw new ExchangeApiError(400, -1102, 'Either an order id or a client order id is needed to cancel');
  }
  if (ref.kind === 'conditional') return cancelConditional(client, keys, ref);
  try {
    const r = await client.signed('DELETE', '/fapi/v1/order', keys, OrderSchema, {
      symbol,
      orderId: ref.orderId,
      origClientOrderId: ref.orderId ? undefined : ref.clientOrderId,
    });
    return toOrder(r);
  } catch (err) {
    // Kind unknown: an id the order book does not know may be a conditional order's
    if (ref.kind === undefined && isNotFound(err)) {
      return cancelConditional(client, keys, ref).catch((second: unknown) => {
        throw isNotFound(second) ? err : second;
      });
    }
    throw err;
  }
}

/** Binance answers a conditional cancel with ids only: the order is read back for the caller */
async function cancelConditional(client: BinanceClient, keys: ExchangeKeys, ref: OrderRef): Promise<Order> {
  const id = ref.orderId ? { algoId: ref.orderId } : { clientAlgoId: ref.clientOrderId };
  const r = await client.signed('DELETE', '/fapi/v1/algoOrder', keys, CanceledAlgoOrderSchema, id);
  const after = await client.signed('GET', '/fapi/v1/algoOrder', keys, AlgoOrderSchema, {
    algoId: r.algoId,
  });
  return toConditionalOrder(after);
}

export async function countdownCancelAll(
  client: BinanceClient,
  keys: ExchangeKeys,
  symbol: string,
  countdownTimeMs: number,
): Promise<void> {
  await client.signed('POST', '/fapi/v1/countdownCancelAll', keys, CountdownCancelAllSchema, {
    symbol,
    countdownTime: countdownTimeMs,
  });
}
