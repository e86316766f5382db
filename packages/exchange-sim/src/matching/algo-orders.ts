import { BinanceError, errors } from '../common/errors';
import { Decimal } from '../common/format';
import { reachesTrigger } from './algo';
import { checkPrice, checkPriceFilter, checkQuantity } from './filters';
import { checkClientId, positionSideFor } from './order-rules';
import { placeOrder } from './orders';
import { type ExchangeState, emit, marketOf, newClientOrderId, openAlgoOrders, positionAmt } from './state';
import type { Account, AlgoOrder, AlgoOrderType, PositionSide, Side, TimeInForce } from './types';

/**
 * Conditional orders on `/fapi/v1/algoOrder` (stop, take-profit, trailing stop, closePosition): acceptance,
 * cancellation, ALGO_UPDATE, and the order a trigger sends to matching. The trigger rules are in `algo.ts`
 */

export interface PlaceAlgoInput {
  symbol: string;
  side: Side;
  positionSide?: PositionSide;
  type: AlgoOrderType;
  timeInForce?: TimeInForce;
  quantity?: Decimal;
  price?: Decimal;
  triggerPrice?: Decimal;
  workingType?: 'MARK_PRICE' | 'CONTRACT_PRICE';
  closePosition?: boolean;
  reduceOnly?: boolean;
  priceProtect?: boolean;
  activatePrice?: Decimal;
  callbackRate?: Decimal;
  clientAlgoId?: string;
}

/** A conditional order by id, or by client id (the untriggered one, else the newest) */
export function findAlgo(account: Account, algoId?: number, clientAlgoId?: string): AlgoOrder | undefined {
  if (algoId !== undefined) return account.algoOrders.get(algoId);
  const matches = [...account.algoOrders.values()].filter((a) => a.clientAlgoId === clientAlgoId);
  return matches.find((a) => a.status === 'NEW') ?? matches[matches.length - 1];
}

/**
 * Accepts a conditional order as Binance's algo service does: parameters and filters are checked, margin is not
 * (untriggered algo orders hold none); one that would fire at once is refused with -2021
 */
export function placeAlgo(s: ExchangeState, account: Account, input: PlaceAlgoInput): AlgoOrder {
  const now = s.clock.now();
  const market = marketOf(s, input.symbol);
  const spec = market.spec;
  const closePosition = input.closePosition === true;
  const marketType = input.type.endsWith('_MARKET');
  if (closePosition && input.type !== 'STOP_MARKET' && input.type !== 'TAKE_PROFIT_MARKET') {
    throw errors.notRequired('closePosition');
  }
  if (closePosition && input.quantity) throw errors.notRequired('quantity');
  if (closePosition && input.reduceOnly !== undefined) throw errors.notRequired('reduceOnly');
  if (!closePosition && !input.quantity) throw errors.mandatory('quantity');
  const positionSide = positionSideFor(account, input.positionSide, input.reduceOnly);
  if (input.quantity) checkQuantity(spec, input.quantity, marketType);
  const mark = market.markPrice(now);
  const working = input.workingType === 'MARK_PRICE' ? mark : market.lastPrice(now);
  let price = new Decimal(0);
  if (!marketType) {
    if (!input.price) throw errors.mandatory('price');
    checkPrice(spec, input.price, input.side, mark);
    price = input.price;
  }
  let triggerPrice = new Decimal(0);
  if (input.type === 'TRAILING_STOP_MARKET') {
    const rate = input.callbackRate;
    if (!rate) throw errors.mandatory('callbackRate');
    if (rate.lt('0.1') || rate.gt(10)) throw errors.invalidParam('Invalid callBackRate.');
    const activate = input.activatePrice;
    if (activate && (input.side === 'BUY' ? activate.gte(working) : activate.lte(working))) {
      throw errors.wouldTrigger();
    }
  } else {
    if (!input.triggerPrice) throw errors.mandatory('triggerPrice');
    triggerPrice = input.triggerPrice;
    checkPriceFilter(spec, triggerPrice);
  }
  checkClientId('clientAlgoId', input.clientAlgoId, (id) =>
    openAlgoOrders(account).some((a) => a.clientAlgoId === id),
  );
  const algo: AlgoOrder = {
    algoId: s.nextAlgoId++,
    clientAlgoId: input.clientAlgoId ?? newClientOrderId(),
    symbol: spec.symbol,
    side: input.side,
    positionSide,
    orderType: input.type,
    timeInForce: input.timeInForce ?? 'GTC',
    quantity: input.quantity,
    closePosition,
    price,
    triggerPrice,
    workingType: input.workingType ?? 'CONTRACT_PRICE',
    priceProtect: input.priceProtect ?? false,
    reduceOnly: input.reduceOnly ?? false,
    activatePrice: input.activatePrice,
    callbackRate: input.callbackRate,
    activated: false,
    status: 'NEW',
    actualOrderId: '',
    rejectReason: '',
    createTime: now,
    updateTime: now,
    triggerTime: 0,
  };
  if (algo.orderType !== 'TRAILING_STOP_MARKET' && reachesTrigger(algo, working)) throw errors.wouldTrigger();
  if (algo.orderType === 'TRAILING_STOP_MARKET') reachesTrigger(algo, working);
  account.algoOrders.set(algo.algoId, algo);
  emitAlgo(s, account, algo, now);
  return { ...algo };
}

/** Cancels an untriggered conditional order; -2011 otherwise */
export function cancelAlgo(
  s: ExchangeState,
  account: Account,
  algoId?: number,
  clientAlgoId?: string,
): AlgoOrder {
  const algo = findAlgo(account, algoId, clientAlgoId);
  if (algo?.status !== 'NEW') throw errors.cancelRejected();
  algo.status = 'CANCELED';
  algo.updateTime = s.clock.now();
  emitAlgo(s, account, algo, algo.updateTime);
  return { ...algo };
}

/** Cancels every untriggered conditional order of a symbol */
export function cancelAllAlgo(s: ExchangeState, account: Account, symbol: string): void {
  marketOf(s, symbol);
  for (const a of openAlgoOrders(account, symbol)) {
    a.status = 'CANCELED';
    a.updateTime = s.clock.now();
    emitAlgo(s, account, a, a.updateTime);
  }
}

/** Pushes ALGO_UPDATE with the conditional order as it stands (and what its triggered order has filled) */
function emitAlgo(s: ExchangeState, account: Account, a: AlgoOrder, t: number): void {
  const spec = marketOf(s, a.symbol).spec;
  const order = a.actualOrderId ? account.orders.get(BigInt(a.actualOrderId)) : undefined;
  emit(s, account, () => ({
    e: 'ALGO_UPDATE',
    T: t,
    E: t,
    o: {
      caid: a.clientAlgoId,
      aid: a.algoId,
      at: 'CONDITIONAL',
      o: a.orderType,
      s: a.symbol,
      S: a.side,
      ps: a.positionSide,
      f: a.timeInForce,
      q: a.quantity ? a.quantity.toFixed(spec.quantityPrecision) : '0',
      X: a.status,
      ai: a.actualOrderId,
      ap: order && !order.executedQty.isZero() ? order.cumQuote.div(order.executedQty).toFixed(5) : '0.00000',
      aq: order ? order.executedQty.toFixed(5) : '0.00000',
      act: '0',
      tp: a.triggerPrice.toFixed(),
      p: a.price.toFixed(),
      V: 'EXPIRE_MAKER',
      wt: a.workingType,
      pm: 'NONE',
      cp: a.closePosition,
      pP: a.priceProtect,
      R: a.reduceOnly,
      tt: a.triggerTime,
      gtd: 0,
      rm: a.rejectReason,
    },
  }));
}

/** Sends a triggered conditional order to matching; a refusal there marks it REJECTED with Binance's reason */
export function triggerAlgo(s: ExchangeState, account: Account, a: AlgoOrder, t: number): void {
  a.status = 'TRIGGERED';
  a.triggerTime = t;
  a.updateTime = t;
  let quantity = a.quantity;
  if (a.closePosition) {
    const amt = positionAmt(account, a.symbol, a.positionSide);
    const closes = a.side === 'BUY' ? amt.lt(0) : amt.gt(0);
    quantity = closes ? amt.abs() : undefined;
  }
  if (!quantity) {
    a.status = 'EXPIRED';
    a.rejectReason = 'No position to close';
    emitAlgo(s, account, a, t);
    return;
  }
  try {
    const closing = a.closePosition || a.reduceOnly;
    const { result } = placeOrder(
      s,
      account,
      {
        symbol: a.symbol,
        side: a.side,
        positionSide: a.positionSide,
        type: a.orderType.endsWith('_MARKET') ? 'MARKET' : 'LIMIT',
        timeInForce: a.orderType.endsWith('_MARKET') ? undefined : a.timeInForce,
        quantity,
        price: a.orderType.endsWith('_MARKET') ? undefined : a.price,
        reduceOnly: account.dualSidePosition ? undefined : closing || undefined,
      },
      t,
    );
    a.actualOrderId = result.orderId.toString();
    if (result.status !== 'NEW' && result.status !== 'PARTIALLY_FILLED') a.status = 'FINISHED';
  } catch (e) {
    if (!(e instanceof BinanceError)) throw e;
    a.status = 'REJECTED';
    a.rejectReason = e.message;
  }
  emitAlgo(s, account, a, t);
}
