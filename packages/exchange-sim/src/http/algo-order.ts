import { errors } from '../common/errors';
import type { SymbolSpec } from '../common/symbols';
import type { AlgoOrder, AlgoOrderType, TimeInForce } from '../matching/types';
import { positionSideParam, sideParam } from './order-params';
import {
  cancelAllRoute,
  marketParam,
  openOrdersRoute,
  type Route,
  type RouteContext,
  requireAccount,
} from './route';

const TYPES: readonly AlgoOrderType[] = [
  'STOP_MARKET',
  'TAKE_PROFIT_MARKET',
  'STOP',
  'TAKE_PROFIT',
  'TRAILING_STOP_MARKET',
];

/** The algo order as `POST /fapi/v1/algoOrder` answers it; `query` adds the fields of `GET` */
export function algoView(a: AlgoOrder, spec: SymbolSpec, query = false) {
  const px = (d: { toFixed(n: number): string }) => d.toFixed(spec.pricePrecision);
  const view: Record<string, string | number | boolean | null> = {
    algoId: a.algoId,
    clientAlgoId: a.clientAlgoId,
    algoType: 'CONDITIONAL',
    orderType: a.orderType,
    symbol: a.symbol,
    side: a.side,
    positionSide: a.positionSide,
    timeInForce: a.timeInForce,
    quantity: a.quantity ? a.quantity.toFixed(spec.quantityPrecision) : '0',
    algoStatus: a.status,
  };
  if (query) {
    view.actualOrderId = a.actualOrderId;
    view.actualPrice = '0.00000';
  }
  Object.assign(view, {
    triggerPrice: px(a.triggerPrice),
    price: px(a.price),
    icebergQuantity: null,
  });
  if (query) {
    Object.assign(view, {
      tpTriggerPrice: '0.000',
      tpPrice: '0.000',
      slTriggerPrice: '0.000',
      slPrice: '0.000',
      tpOrderType: '',
    });
  }
  Object.assign(view, {
    selfTradePreventionMode: 'EXPIRE_MAKER',
    workingType: a.workingType,
    priceMatch: 'NONE',
    closePosition: a.closePosition,
    priceProtect: a.priceProtect,
    reduceOnly: a.reduceOnly,
  });
  if (!query) {
    view.activatePrice = a.activatePrice ? px(a.activatePrice) : '';
    view.callbackRate = a.callbackRate ? a.callbackRate.toFixed() : '';
  }
  Object.assign(view, {
    createTime: a.createTime,
    updateTime: a.updateTime,
    triggerTime: a.triggerTime,
    goodTillDate: 0,
  });
  return view;
}

function newAlgo(ctx: RouteContext) {
  const p = ctx.params;
  const algoType = p.required('algoType');
  if (algoType !== 'CONDITIONAL') throw errors.invalidParam('Invalid algoType.');
  const market = ctx.exchange.market(p.get('symbol'));
  const side = sideParam(p);
  const type = p.oneOf<AlgoOrderType>('type', TYPES, errors.invalidOrderType);
  if (!type) throw errors.mandatory('type');
  const algo = ctx.exchange.placeAlgo(requireAccount(ctx), {
    symbol: market.spec.symbol,
    side,
    type,
    positionSide: positionSideParam(p),
    timeInForce: p.oneOf<TimeInForce>('timeInForce', ['GTC', 'IOC', 'FOK', 'GTX'], errors.invalidTif),
    quantity: p.decimal('quantity'),
    price: p.decimal('price'),
    triggerPrice: p.decimal('triggerPrice'),
    workingType: p.oneOf('workingType', ['MARK_PRICE', 'CONTRACT_PRICE'] as const, () =>
      errors.invalidParam('Invalid workingType.'),
    ),
    closePosition: p.bool('closePosition'),
    reduceOnly: p.bool('reduceOnly'),
    priceProtect: p.bool('priceProtect'),
    activatePrice: p.decimal('activatePrice'),
    callbackRate: p.decimal('callbackRate'),
    clientAlgoId: p.get('clientAlgoId'),
  });
  return algoView(algo, market.spec);
}

function ids(ctx: RouteContext): { algoId?: number; clientAlgoId?: string } {
  const algoId = ctx.params.int('algoId');
  const clientAlgoId = ctx.params.get('clientAlgoId');
  if (algoId === undefined && clientAlgoId === undefined) throw errors.mandatory('algoId');
  return { algoId, clientAlgoId };
}

export const algoOrderRoutes: Route[] = [
  {
    method: 'POST',
    path: '/fapi/v1/algoOrder',
    security: 'SIGNED',
    weight: 0,
    countsAsOrder: true,
    handler: newAlgo,
  },
  {
    method: 'DELETE',
    path: '/fapi/v1/algoOrder',
    security: 'SIGNED',
    weight: 1,
    handler: (ctx) => {
      const { algoId, clientAlgoId } = ids(ctx);
      const a = ctx.exchange.cancelAlgo(requireAccount(ctx), algoId, clientAlgoId);
      return { algoId: a.algoId, clientAlgoId: a.clientAlgoId, code: '200', msg: 'success' };
    },
  },
  {
    method: 'GET',
    path: '/fapi/v1/algoOrder',
    security: 'SIGNED',
    weight: 1,
    handler: (ctx) => {
      const { algoId, clientAlgoId } = ids(ctx);
      const a = ctx.exchange.findAlgo(requireAccount(ctx), algoId, clientAlgoId);
      if (!a) throw errors.noSuchOrder();
      return algoView(a, ctx.exchange.market(a.symbol).spec, true);
    },
  },
  openOrdersRoute(
    '/fapi/v1/openAlgoOrders',
    (exchange, account, symbol) => exchange.openAlgoOrders(account, symbol),
    (a, spec) => algoView(a, spec, true),
  ),
  {
    method: 'GET',
    path: '/fapi/v1/allAlgoOrders',
    security: 'SIGNED',
    weight: 5,
    handler: (ctx) => {
      const symbol = marketParam(ctx).spec.symbol;
      const limit = ctx.params.limit(500, 1000);
      return [...requireAccount(ctx).algoOrders.values()]
        .filter((a) => a.symbol === symbol)
        .slice(-limit)
        .map((a) => algoView(a, ctx.exchange.market(a.symbol).spec, true));
    },
  },
  cancelAllRoute('/fapi/v1/algoOpenOrders', (exchange, account, symbol) =>
    exchange.cancelAllAlgo(account, symbol),
  ),
];
