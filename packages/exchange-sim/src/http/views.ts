import { fixed, plain } from '../common/format';
import type { SymbolSpec } from '../common/symbols';
import { avgPrice } from '../matching/events';
import type { Order } from '../matching/types';

/** The order as Binance's REST endpoints write it; `withCumQty` for new/cancel replies, `withTime` for queries */
export function orderView(
  order: Order,
  spec: SymbolSpec,
  opts: { withCumQty?: boolean; withTime?: boolean } = {},
) {
  const q = spec.quantityPrecision;
  const view: Record<string, string | number | boolean | bigint> = {
    orderId: order.orderId,
    symbol: order.symbol,
    status: order.status,
    clientOrderId: order.clientOrderId,
    price: fixed(order.price, spec.pricePrecision),
    avgPrice: fixed(avgPrice(order), Math.max(spec.pricePrecision, 5)),
    origQty: fixed(order.origQty, q),
    executedQty: fixed(order.executedQty, q),
  };
  if (opts.withCumQty) view.cumQty = fixed(order.executedQty, q);
  Object.assign(view, {
    cumQuote: fixed(order.cumQuote, Math.max(spec.pricePrecision + q, 5)),
    timeInForce: order.timeInForce,
    type: order.type,
    reduceOnly: order.reduceOnly,
    closePosition: false,
    side: order.side,
    positionSide: order.positionSide,
    stopPrice: '0',
    workingType: 'CONTRACT_PRICE',
    priceProtect: false,
    origType: order.type,
    priceMatch: 'NONE',
    selfTradePreventionMode: 'EXPIRE_MAKER',
    goodTillDate: order.goodTillDate,
  });
  if (opts.withTime) view.time = order.time;
  view.updateTime = order.updateTime;
  return view;
}

export { plain };
