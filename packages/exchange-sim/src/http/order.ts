import { BinanceError, errors } from '../common/errors';
import { fixed, plain } from '../common/format';
import type { Order, OrderType, TimeInForce } from '../matching/types';
import { positionSideParam, sideParam } from './order-params';
import { Params } from './params';
import {
  cancelAllRoute,
  marketParam,
  openOrdersRoute,
  type Route,
  type RouteContext,
  requireAccount,
} from './route';
import { orderView } from './views';

const ALGO_TYPES = ['STOP', 'STOP_MARKET', 'TAKE_PROFIT', 'TAKE_PROFIT_MARKET', 'TRAILING_STOP_MARKET'];
const TIME_IN_FORCE: readonly TimeInForce[] = ['GTC', 'IOC', 'FOK', 'GTX', 'GTD'];
const WEEK_MS = 7 * 86_400_000;
/** Binance: at most 5 orders in one batchOrders placement or modification, 10 ids in one batch cancel */
const MAX_BATCH_ORDERS = 5;
const MAX_BATCH_CANCELS = 10;
/** Binance: a batch placement or modification costs 5 in the 10 s ORDERS window and 1 in the minute one */
const BATCH_ORDER_COST = { tenSeconds: 5, minute: 1 };

function newOrder(ctx: RouteContext) {
  const account = requireAccount(ctx);
  const p = ctx.params;
  const market = ctx.exchange.market(p.get('symbol'));
  const side = sideParam(p);
  const rawType = p.required('type');
  if (ALGO_TYPES.includes(rawType)) throw errors.switchToAlgo();
  if (rawType !== 'LIMIT' && rawType !== 'MARKET') throw errors.invalidOrderType();
  const type = rawType as OrderType;
  const quantity = p.requiredDecimal('quantity');
  const respType = p.oneOf('newOrderRespType', ['ACK', 'RESULT'], () =>
    errors.invalidParam('Invalid newOrderRespType.'),
  );
  const { ack, result } = ctx.exchange.placeOrder(account, {
    symbol: market.spec.symbol,
    side,
    type,
    positionSide: positionSideParam(p),
    timeInForce:
      type === 'LIMIT' ? p.oneOf<TimeInForce>('timeInForce', TIME_IN_FORCE, errors.invalidTif) : undefined,
    quantity,
    price: p.decimal('price'),
    reduceOnly: p.bool('reduceOnly'),
    newClientOrderId: p.get('newClientOrderId'),
    goodTillDate: p.int('goodTillDate'),
  });
  return orderView(respType === 'RESULT' ? result : ack, market.spec, { withCumQty: true });
}

function modifyOrder(ctx: RouteContext) {
  const p = ctx.params;
  const market = ctx.exchange.market(p.get('symbol'));
  const side = sideParam(p);
  const orderId = p.bigint('orderId');
  const clientOrderId = p.get('origClientOrderId');
  if (orderId === undefined && clientOrderId === undefined) throw errors.mandatory('orderId');
  const quantity = p.requiredDecimal('quantity');
  const price = p.requiredDecimal('price');
  const order = ctx.exchange.modifyOrder(requireAccount(ctx), {
    symbol: market.spec.symbol,
    // orderId wins when both are sent
    orderId,
    clientOrderId: orderId === undefined ? clientOrderId : undefined,
    side,
    quantity,
    price,
  });
  return orderView(order, market.spec, { withCumQty: true });
}

/**
 * The JSON list of a batch parameter (`batchOrders`: objects of string values). Long integers stay exact: ids in
 * these lists exceed 2^53
 */
function batchItems(ctx: RouteContext, name: string, max: number): Params[] {
  const raw = ctx.params.required(name);
  let list: unknown;
  try {
    list = JSON.parse(raw.replace(/:\s*(\d{16,})/g, ':"$1"'));
  } catch {
    throw errors.mandatory(name);
  }
  if (!Array.isArray(list) || list.length === 0) throw errors.mandatory(name);
  if (list.length > max) throw errors.invalidParam(`Invalid ${name}: at most ${max} orders in one batch.`);
  return list.map((item) => {
    if (typeof item !== 'object' || item === null || Array.isArray(item)) throw errors.mandatory(name);
    const values = new Map<string, string>();
    for (const [k, v] of Object.entries(item)) if (v !== null && v !== undefined) values.set(k, String(v));
    return new Params(values);
  });
}

/** Binance runs each item of a batch on its own: the answer lists, in order, the order or the item's error */
function perItem(items: Params[], ctx: RouteContext, handler: (ctx: RouteContext) => unknown): unknown[] {
  return items.map((params) => {
    try {
      return handler({ ...ctx, params });
    } catch (e) {
      if (e instanceof BinanceError) return e.toBody();
      throw e;
    }
  });
}

/** An id list of a batch cancel: `[1,2]` for orderIdList (exact beyond 2^53), `["a","b"]` for client ids */
function idList(ctx: RouteContext): Array<{ orderId?: bigint; clientOrderId?: string }> {
  const ids = ctx.params.get('orderIdList');
  const clientIds = ctx.params.get('origClientOrderIdList');
  let list: Array<{ orderId?: bigint; clientOrderId?: string }>;
  if (ids !== undefined) {
    if (!/^\[\s*\d+(\s*,\s*\d+)*\s*\]$/.test(ids)) throw errors.mandatory('orderIdList');
    list = (ids.match(/\d+/g) ?? []).map((d) => ({ orderId: BigInt(d) }));
  } else if (clientIds !== undefined) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(clientIds);
    } catch {
      throw errors.mandatory('origClientOrderIdList');
    }
    if (!Array.isArray(parsed) || !parsed.every((x) => typeof x === 'string')) {
      throw errors.mandatory('origClientOrderIdList');
    }
    list = parsed.map((clientOrderId: string) => ({ clientOrderId }));
  } else {
    throw errors.mandatory('orderIdList');
  }
  if (list.length === 0) throw errors.mandatory('orderIdList');
  if (list.length > MAX_BATCH_CANCELS) {
    throw errors.invalidParam(`Invalid orderIdList: at most ${MAX_BATCH_CANCELS} orders in one batch.`);
  }
  return list;
}

function lookup(ctx: RouteContext): { order: Order | undefined; symbol: string } {
  const account = requireAccount(ctx);
  const symbol = marketParam(ctx).spec.symbol;
  const orderId = ctx.params.bigint('orderId');
  const clientId = ctx.params.get('origClientOrderId');
  if (orderId === undefined && clientId === undefined) {
    throw errors.mandatory('orderId');
  }
  return { order: ctx.exchange.findOrder(account, symbol, orderId, clientId), symbol };
}

function timeWindow(ctx: RouteContext): { from: number; to: number } {
  const start = ctx.params.int('startTime');
  const end = ctx.params.int('endTime');
  if (start !== undefined && end !== undefined && end - start > WEEK_MS) {
    throw errors.invalidParam('The time between startTime and endTime can not be longer than 7 days.');
  }
  const to = end ?? (start !== undefined ? start + WEEK_MS : ctx.now);
  const from = start ?? to - WEEK_MS;
  return { from, to };
}

/**
 * Binance's history paging: with startTime/endTime only that (≤ 7 day) window; from a cursor (an id or startTime)
 * the oldest `limit` items onwards, otherwise the newest `limit`
 */
function page<T>(ctx: RouteContext, items: T[], timeOf: (item: T) => number, fromCursor: boolean): T[] {
  const n = ctx.params.limit(500, 1000);
  const { from, to } = timeWindow(ctx);
  const windowed =
    ctx.params.has('startTime') || ctx.params.has('endTime')
      ? items.filter((x) => timeOf(x) >= from && timeOf(x) <= to)
      : items;
  return fromCursor || ctx.params.has('startTime') ? windowed.slice(0, n) : windowed.slice(-n);
}

export const orderRoutes: Route[] = [
  {
    method: 'POST',
    path: '/fapi/v1/order',
    security: 'SIGNED',
    weight: 0,
    countsAsOrder: true,
    handler: newOrder,
  },
  {
    method: 'PUT',
    path: '/fapi/v1/order',
    security: 'SIGNED',
    weight: 1,
    countsAsOrder: true,
    handler: modifyOrder,
  },
  {
    method: 'POST',
    path: '/fapi/v1/batchOrders',
    security: 'SIGNED',
    weight: 5,
    countsAsOrder: BATCH_ORDER_COST,
    handler: (ctx) => perItem(batchItems(ctx, 'batchOrders', MAX_BATCH_ORDERS), ctx, newOrder),
  },
  {
    method: 'PUT',
    path: '/fapi/v1/batchOrders',
    security: 'SIGNED',
    weight: 5,
    countsAsOrder: BATCH_ORDER_COST,
    handler: (ctx) => perItem(batchItems(ctx, 'batchOrders', MAX_BATCH_ORDERS), ctx, modifyOrder),
  },
  {
    method: 'DELETE',
    path: '/fapi/v1/batchOrders',
    security: 'SIGNED',
    weight: 1,
    handler: (ctx) => {
      const account = requireAccount(ctx);
      const spec = marketParam(ctx).spec;
      return idList(ctx).map(({ orderId, clientOrderId }) => {
        try {
          const order = ctx.exchange.cancelOrder(account, spec.symbol, orderId, clientOrderId);
          return orderView(order, spec, { withCumQty: true });
        } catch (e) {
          if (e instanceof BinanceError) return e.toBody();
          throw e;
        }
      });
    },
  },
  {
    method: 'GET',
    path: '/fapi/v1/order',
    security: 'SIGNED',
    weight: 1,
    handler: (ctx) => {
      const { order } = lookup(ctx);
      if (!order) throw errors.noSuchOrder();
      return orderView(order, ctx.exchange.market(order.symbol).spec, { withTime: true });
    },
  },
  {
    method: 'DELETE',
    path: '/fapi/v1/order',
    security: 'SIGNED',
    weight: 1,
    handler: (ctx) => {
      const { symbol } = lookup(ctx);
      const order = ctx.exchange.cancelOrder(
        requireAccount(ctx),
        symbol,
        ctx.params.bigint('orderId'),
        ctx.params.get('origClientOrderId'),
      );
      return orderView(order, ctx.exchange.market(symbol).spec, { withCumQty: true });
    },
  },
  cancelAllRoute('/fapi/v1/allOpenOrders', (exchange, account, symbol) =>
    exchange.cancelAll(account, symbol),
  ),
  {
    method: 'POST',
    path: '/fapi/v1/countdownCancelAll',
    security: 'SIGNED',
    weight: 10,
    handler: (ctx) => {
      const symbol = marketParam(ctx).spec.symbol;
      const raw = ctx.params.required('countdownTime');
      if (!/^\d{1,12}$/.test(raw)) throw errors.mandatory('countdownTime');
      ctx.exchange.countdownCancelAll(requireAccount(ctx), symbol, Number(raw));
      return { symbol, countdownTime: raw };
    },
  },
  {
    method: 'GET',
    path: '/fapi/v1/openOrder',
    security: 'SIGNED',
    weight: 1,
    handler: (ctx) => {
      const { order } = lookup(ctx);
      if (!order || (order.status !== 'NEW' && order.status !== 'PARTIALLY_FILLED')) {
        throw errors.invalidParam('Order does not exist.');
      }
      return orderView(order, ctx.exchange.market(order.symbol).spec, { withTime: true });
    },
  },
  openOrdersRoute(
    '/fapi/v1/openOrders',
    (exchange, account, symbol) => exchange.openOrders(account, symbol),
    (o, spec) => orderView(o, spec, { withTime: true }),
  ),
  {
    method: 'GET',
    path: '/fapi/v1/allOrders',
    security: 'SIGNED',
    weight: 5,
    handler: (ctx) => {
      const account = requireAccount(ctx);
      const symbol = marketParam(ctx).spec.symbol;
      const fromId = ctx.params.bigint('orderId');
      const list = [...account.orders.values()].filter(
        (o) => o.symbol === symbol && (fromId === undefined || o.orderId >= fromId),
      );
      const picked = page(ctx, list, (o) => o.time, fromId !== undefined);
      return picked.map((o) => orderView(o, ctx.exchange.market(o.symbol).spec, { withTime: true }));
    },
  },
  {
    method: 'GET',
    path: '/fapi/v1/userTrades',
    security: 'SIGNED',
    weight: 5,
    handler: (ctx) => {
      const account = requireAccount(ctx);
      const spec = marketParam(ctx).spec;
      const symbol = spec.symbol;
      const fromId = ctx.params.int('fromId');
      const orderId = ctx.params.bigint('orderId');
      const list = account.trades.filter(
        (t) =>
          t.symbol === symbol &&
          (orderId === undefined || t.orderId === orderId) &&
          (fromId === undefined || t.id >= fromId),
      );
      const picked = page(ctx, list, (t) => t.time, fromId !== undefined);
      return picked.map((t) => ({
        buyer: t.side === 'BUY',
        commission: fixed(t.commission, 8),
        commissionAsset: t.commissionAsset,
        id: t.id,
        maker: t.maker,
        orderId: t.orderId,
        price: fixed(t.price, spec.pricePrecision),
        qty: fixed(t.qty, spec.quantityPrecision),
        quoteQty: plain(t.quoteQty),
        realizedPnl: fixed(t.realizedPnl, 8),
        side: t.side,
        positionSide: t.positionSide,
        symbol: t.symbol,
        time: t.time,
      }));
    },
  },
];
