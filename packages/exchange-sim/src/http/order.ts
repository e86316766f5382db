import { errors } from '../common/errors';
import { fixed, plain } from '../common/format';
import type { Order, OrderType, PositionSide, Side, TimeInForce } from '../matching/types';
import type { Route, RouteContext } from './route';
import { requireAccount } from './route';
import { orderView } from './views';

const ALGO_TYPES = ['STOP', 'STOP_MARKET', 'TAKE_PROFIT', 'TAKE_PROFIT_MARKET', 'TRAILING_STOP_MARKET'];
const WEEK_MS = 7 * 86_400_000;

function newOrder(ctx: RouteContext) {
  const account = requireAccount(ctx);
  const p = ctx.params;
  const market = ctx.exchange.market(p.get('symbol'));
  const side = p.oneOf<Side>('side', ['BUY', 'SELL'], errors.invalidSide);
  if (!side) throw errors.mandatory('side');
  const rawType = p.required('type');
  if (ALGO_TYPES.includes(rawType)) throw errors.switchToAlgo();
  if (rawType !== 'LIMIT' && rawType !== 'MARKET') throw errors.invalidOrderType();
  const type = rawType as OrderType;
  const quantity = p.decimal('quantity');
  if (!quantity) throw errors.mandatory('quantity');
  const respType = p.oneOf('newOrderRespType', ['ACK', 'RESULT'], () =>
    errors.invalidParam('Invalid newOrderRespType.'),
  );
  const { ack, result } = ctx.exchange.placeOrder(account, {
    symbol: market.spec.symbol,
    side,
    type,
    positionSide: p.oneOf<PositionSide>(
      'positionSide',
      ['BOTH', 'LONG', 'SHORT'],
      errors.invalidPositionSide,
    ),
    timeInForce:
      type === 'LIMIT'
        ? p.oneOf<TimeInForce>('timeInForce', ['GTC', 'IOC', 'FOK', 'GTX'], errors.invalidTif)
        : undefined,
    quantity,
    price: p.decimal('price'),
    reduceOnly: p.bool('reduceOnly'),
    newClientOrderId: p.get('newClientOrderId'),
  });
  return orderView(respType === 'RESULT' ? result : ack, market.spec, { withCumQty: true });
}

function lookup(ctx: RouteContext): { order: Order | undefined; symbol: string } {
  const account = requireAccount(ctx);
  const symbol = ctx.exchange.market(ctx.params.get('symbol')).spec.symbol;
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
  {
    method: 'DELETE',
    path: '/fapi/v1/allOpenOrders',
    security: 'SIGNED',
    weight: 1,
    handler: (ctx) => {
      const symbol = ctx.exchange.market(ctx.params.get('symbol')).spec.symbol;
      ctx.exchange.cancelAll(requireAccount(ctx), symbol);
      return { code: 200, msg: 'The operation of cancel all open order is done.' };
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
  {
    method: 'GET',
    path: '/fapi/v1/openOrders',
    security: 'SIGNED',
    weight: (p) => (p.has('symbol') ? 1 : 40),
    handler: (ctx) => {
      const symbol = ctx.params.get('symbol');
      if (symbol) ctx.exchange.market(symbol);
      return ctx.exchange
        .openOrders(requireAccount(ctx), symbol)
        .map((o) => orderView(o, ctx.exchange.market(o.symbol).spec, { withTime: true }));
    },
  },
  {
    method: 'GET',
    path: '/fapi/v1/allOrders',
    security: 'SIGNED',
    weight: 5,
    handler: (ctx) => {
      const account = requireAccount(ctx);
      const symbol = ctx.exchange.market(ctx.params.get('symbol')).spec.symbol;
      const fromId = ctx.params.bigint('orderId');
      const n = ctx.params.limit(500, 1000);
      const hasWindow = ctx.params.has('startTime') || ctx.params.has('endTime');
      const { from, to } = timeWindow(ctx);
      const list = [...account.orders.values()].filter(
        (o) =>
          o.symbol === symbol &&
          (fromId === undefined || o.orderId >= fromId) &&
          (!hasWindow || (o.time >= from && o.time <= to)),
      );
      // With orderId the oldest from there; otherwise the most recent
      const picked = fromId !== undefined || ctx.params.has('startTime') ? list.slice(0, n) : list.slice(-n);
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
      const symbol = ctx.exchange.market(ctx.params.get('symbol')).spec.symbol;
      const spec = ctx.exchange.market(symbol).spec;
      const n = ctx.params.limit(500, 1000);
      const fromId = ctx.params.int('fromId');
      const orderId = ctx.params.bigint('orderId');
      const hasWindow = ctx.params.has('startTime') || ctx.params.has('endTime');
      const { from, to } = timeWindow(ctx);
      const list = account.trades.filter(
        (t) =>
          t.symbol === symbol &&
          (orderId === undefined || t.orderId === orderId) &&
          (fromId === undefined || t.id >= fromId) &&
          (!hasWindow || (t.time >= from && t.time <= to)),
      );
      const picked = fromId !== undefined || ctx.params.has('startTime') ? list.slice(0, n) : list.slice(-n);
      return picked.map((t) => ({
        buyer: t.side === 'BUY',
        commission: fixed(t.commission, 8),
        commissionAsset: 'USDT',
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
