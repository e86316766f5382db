import { Decimal } from '../common/format';
import { accountUpdate } from './account-figures';
import { type Execution, orderTradeUpdate } from './events';
import { commissionOf } from './fees';
import { addUsdt, income } from './ledger';
import { config, type ExchangeState, emit, marketOf, positionKey } from './state';
import type { Account, Order, Position, PositionSide } from './types';

/**
 * What executions do to an account: a fill moves the order, the position (entry price, realized PnL, isolated
 * margin) and the wallet (PnL, commission) and books the trade and income; an order that ends is closed with its
 * ORDER_TRADE_UPDATE
 */

/**
 * Executes `qty` of an order at `price` (maker or taker fee); a reduce-only order that has closed the position is
 * FILLED. Pushes ORDER_TRADE_UPDATE and ACCOUNT_UPDATE
 */
export function fill(
  s: ExchangeState,
  account: Account,
  order: Order,
  qty: Decimal,
  price: Decimal,
  maker: boolean,
  t: number,
): void {
  const spec = marketOf(s, order.symbol).spec;
  const p = positionFor(account, order.symbol, order.positionSide, t);
  const signed = order.side === 'BUY' ? qty : qty.neg();
  const realized = applyToPosition(account, p, signed, price, t);
  const fee = commissionOf(s, account, qty.mul(price), maker ? account.makerRate : account.takerRate, t);
  const commission = fee.amount;
  if (fee.asset === 'USDT') addUsdt(s, account, realized.minus(commission));
  else {
    addUsdt(s, account, realized);
    account.balances.set(fee.asset, (account.balances.get(fee.asset) ?? new Decimal(0)).minus(commission));
  }

  order.executedQty = order.executedQty.plus(qty);
  order.cumQuote = order.cumQuote.plus(qty.mul(price));
  // A reduce-only order that has closed the position is done: the rest could only open a new one
  const nothingToReduce = order.side === 'BUY' ? !p.amt.isNeg() : !p.amt.gt(0);
  order.status =
    order.executedQty.gte(order.origQty) || (order.reduceOnly && nothingToReduce)
      ? 'FILLED'
      : 'PARTIALLY_FILLED';
  if (order.status === 'FILLED') account.openOrders.delete(order.orderId);
  order.updateTime = t;
  const tradeId = s.nextTradeId++;
  account.trades.push({
    id: tradeId,
    orderId: order.orderId,
    symbol: order.symbol,
    side: order.side,
    positionSide: order.positionSide,
    price,
    qty,
    quoteQty: qty.mul(price),
    commission,
    commissionAsset: fee.asset,
    realizedPnl: realized,
    maker,
    time: t,
  });
  income(s, account, order.symbol, 'REALIZED_PNL', realized, '', 'USDT', String(tradeId), t);
  income(s, account, order.symbol, 'COMMISSION', commission.neg(), '', fee.asset, String(tradeId), t);
  account.updateTime = t;
  const exec: Execution = {
    x: order.type === 'LIQUIDATION' ? 'CALCULATED' : 'TRADE',
    lastQty: qty,
    lastPrice: price,
    commission,
    commissionAsset: fee.asset,
    tradeId,
    maker,
    realizedPnl: realized,
  };
  emit(s, account, () => orderTradeUpdate(order, spec, exec, t));
  emit(s, account, () => accountUpdate(s, account, 'ORDER', [p], t, fee.asset === 'USDT' ? [] : [fee.asset]));
  if (p.amt.isZero()) dropIfFlat(account, p);
}

/** The account's position of a symbol and side, created flat on first use */
function positionFor(account: Account, symbol: string, side: PositionSide, t: number): Position {
  const key = positionKey(symbol, side);
  let p = account.positions.get(key);
  if (!p) {
    p = {
      symbol,
      positionSide: side,
      amt: new Decimal(0),
      entryPrice: new Decimal(0),
      isolatedWallet: new Decimal(0),
      accumulatedRealized: new Decimal(0),
      updateTime: t,
    };
    account.positions.set(key, p);
  }
  return p;
}

/** Moves a position by a fill; returns the realized PnL. Isolated margin follows the position size. */
function applyToPosition(
  account: Account,
  p: Position,
  signedQty: Decimal,
  price: Decimal,
  t: number,
): Decimal {
  const cfg = config(account, p.symbol);
  const isolated = cfg.marginType === 'ISOLATED';
  let realized = new Decimal(0);
  const amt = p.amt;
  if (amt.isZero() || amt.isNeg() === signedQty.isNeg()) {
    const newAmt = amt.plus(signedQty);
    p.entryPrice = amt.abs().mul(p.entryPrice).plus(signedQty.abs().mul(price)).div(newAmt.abs());
    p.amt = newAmt;
    if (isolated) p.isolatedWallet = p.isolatedWallet.plus(signedQty.abs().mul(price).div(cfg.leverage));
  } else {
    const closeQty = Decimal.min(signedQty.abs(), amt.abs());
    realized = closeQty.mul(price.minus(p.entryPrice)).mul(amt.isNeg() ? -1 : 1);
    if (isolated) p.isolatedWallet = p.isolatedWallet.minus(p.isolatedWallet.mul(closeQty).div(amt.abs()));
    const rest = signedQty.abs().minus(closeQty);
    p.amt = amt.plus(signedQty.isNeg() ? closeQty.neg() : closeQty);
    if (p.amt.isZero()) p.entryPrice = new Decimal(0);
    if (rest.gt(0)) {
      p.amt = signedQty.isNeg() ? rest.neg() : rest;
      p.entryPrice = price;
      if (isolated) p.isolatedWallet = p.isolatedWallet.plus(rest.mul(price).div(cfg.leverage));
    }
    p.accumulatedRealized = p.accumulatedRealized.plus(realized);
  }
  p.updateTime = t;
  return realized;
}

function dropIfFlat(account: Account, p: Position): void {
  if (p.amt.isZero() && p.isolatedWallet.isZero())
    account.positions.delete(positionKey(p.symbol, p.positionSide));
}

/** Ends an open order (CANCELED or EXPIRED) and pushes its ORDER_TRADE_UPDATE */
export function finish(
  s: ExchangeState,
  account: Account,
  order: Order,
  status: 'CANCELED' | 'EXPIRED',
  t: number,
): void {
  order.status = status;
  account.openOrders.delete(order.orderId);
  order.updateTime = t;
  const spec = marketOf(s, order.symbol).spec;
  emit(s, account, () => orderTradeUpdate(order, spec, { x: status }, t));
}
