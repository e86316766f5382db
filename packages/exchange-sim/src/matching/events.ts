import { Decimal, fixed, plain } from '../common/format';
import type { SymbolSpec } from '../common/symbols';
import type { Order, Position } from './types';

/** Execution details of one ORDER_TRADE_UPDATE */
export interface Execution {
  x: 'NEW' | 'TRADE' | 'CANCELED' | 'EXPIRED' | 'CALCULATED' | 'AMENDMENT';
  lastQty?: Decimal;
  lastPrice?: Decimal;
  commission?: Decimal;
  /** Asset of `commission` (USDT unless paid in BNB) */
  commissionAsset?: string;
  tradeId?: number;
  maker?: boolean;
  realizedPnl?: Decimal;
}

export interface OrderTradeUpdate {
  e: 'ORDER_TRADE_UPDATE';
  E: number;
  T: number;
  o: Record<string, string | number | boolean | bigint>;
}

export interface AccountUpdate {
  e: 'ACCOUNT_UPDATE';
  E: number;
  T: number;
  a: {
    m: string;
    B: Array<{ a: string; wb: string; cw: string; bc: string }>;
    P: Array<Record<string, string>>;
  };
}

export interface AccountConfigUpdate {
  e: 'ACCOUNT_CONFIG_UPDATE';
  E: number;
  T: number;
  ac: { s: string; l: number };
}

export interface ListenKeyExpired {
  e: 'listenKeyExpired';
  E: number;
  listenKey: string;
}

export interface AlgoUpdate {
  e: 'ALGO_UPDATE';
  T: number;
  E: number;
  o: Record<string, string | number | boolean>;
}

export type UserEvent =
  | OrderTradeUpdate
  | AccountUpdate
  | AccountConfigUpdate
  | ListenKeyExpired
  | AlgoUpdate;

export function avgPrice(order: Order): Decimal {
  return order.executedQty.isZero() ? new Decimal(0) : order.cumQuote.div(order.executedQty);
}

/** ORDER_TRADE_UPDATE with Binance's one-letter fields */
export function orderTradeUpdate(
  order: Order,
  spec: SymbolSpec,
  exec: Execution,
  now: number,
): OrderTradeUpdate {
  const pp = spec.pricePrecision;
  return {
    e: 'ORDER_TRADE_UPDATE',
    E: now,
    T: now,
    o: {
      s: order.symbol,
      c: order.clientOrderId,
      S: order.side,
      o: order.type,
      f: order.timeInForce,
      q: fixed(order.origQty, spec.quantityPrecision),
      p: fixed(order.price, pp),
      ap: plain(avgPrice(order)),
      sp: '0',
      x: exec.x,
      X: order.status,
      i: order.orderId,
      l: fixed(exec.lastQty ?? 0, spec.quantityPrecision),
      z: fixed(order.executedQty, spec.quantityPrecision),
      L: fixed(exec.lastPrice ?? 0, pp),
      N: exec.commissionAsset ?? 'USDT',
      n: plain(exec.commission ?? 0),
      T: now,
      t: exec.tradeId ?? 0,
      b: '0',
      a: '0',
      m: exec.maker ?? false,
      R: order.reduceOnly,
      wt: 'CONTRACT_PRICE',
      ot: order.type,
      ps: order.positionSide,
      cp: false,
      rp: plain(exec.realizedPnl ?? 0),
      pP: false,
      si: 0,
      ss: 0,
      V: 'EXPIRE_MAKER',
      pm: 'NONE',
      gtd: order.goodTillDate,
      er: '0',
    },
  };
}

/** One position in ACCOUNT_UPDATE's `P` list */
export function accountUpdatePosition(
  p: Position,
  upnl: Decimal,
  marginType: 'CROSSED' | 'ISOLATED',
  breakEven: Decimal,
  spec: SymbolSpec,
): Record<string, string> {
  return {
    s: p.symbol,
    pa: plain(p.amt),
    ep: plain(p.entryPrice),
    bep: plain(breakEven.toDecimalPlaces(spec.pricePrecision + 6)),
    cr: plain(p.accumulatedRealized),
    up: fixed(upnl, 8),
    mt: marginType === 'CROSSED' ? 'cross' : 'isolated',
    iw: fixed(p.isolatedWallet, 8),
    ps: p.positionSide,
  };
}
