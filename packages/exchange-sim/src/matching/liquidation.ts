import { Decimal } from '../common/format';
import { accountUpdate, figures } from './account-figures';
import { orderTradeUpdate } from './events';
import { fill, finish } from './execution';
import { addUsdt, income, usdt } from './ledger';
import { screen } from './screen';
import { config, type ExchangeState, emit, marketOf, openOrders } from './state';
import type { Account, Order, Position } from './types';

/** Liquidation: the per-second maintenance check at the mark price and the close of what fails it */

/** Liquidates what the marks of second `t` put below maintenance margin: each isolated position, or all cross ones */
export function checkLiquidation(
  s: ExchangeState,
  account: Account,
  t: number,
  markOf: (symbol: string) => number,
): void {
  // Decided in doubles (a liquidation a hair early or late is within any real exchange's tolerance); the
  // liquidation itself is booked in exact decimals
  const view = screen(s, account);
  let crossBalance = view.usdt;
  let crossMaint = 0;
  const cross: Position[] = [];
  for (const leg of view.legs) {
    const mark = markOf(leg.position.symbol);
    const upnl = leg.amt * (mark - leg.entry);
    const n = Math.abs(leg.amt * mark);
    const b = marketOf(s, leg.position.symbol).spec.brackets.find((x) => n <= x.notionalCap);
    const mm = b ? n * b.maintMarginRatio - b.cum : n;
    if (leg.isolatedWallet !== undefined) {
      crossBalance -= leg.isolatedWallet;
      if (leg.isolatedWallet + upnl <= mm) liquidate(s, account, [leg.position], t, markOf);
    } else {
      crossBalance += upnl;
      crossMaint += mm;
      cross.push(leg.position);
    }
  }
  if (cross.length > 0 && crossBalance <= crossMaint) liquidate(s, account, cross, t, markOf);
}

/**
 * Closes positions at the mark price with LIQUIDATION orders ("autoclose-…"). Isolated: the position's whole
 * margin is lost (what the close leaves goes to the insurance fund). Cross: the clearance fee (notional ×
 * liquidationFee) is taken from what is left, and a negative wallet is reset to 0 by the insurance fund.
 */
function liquidate(
  s: ExchangeState,
  account: Account,
  positions: Position[],
  t: number,
  markOf: (symbol: string) => number,
): void {
  for (const p of positions) {
    for (const o of openOrders(account, p.symbol)) finish(s, account, o, 'CANCELED', t);
  }
  for (const p of positions) {
    if (p.amt.isZero()) continue;
    const spec = marketOf(s, p.symbol).spec;
    const mark = new Decimal(markOf(p.symbol)).toDecimalPlaces(spec.pricePrecision);
    const isolated = config(account, p.symbol).marginType === 'ISOLATED';
    const margin = p.isolatedWallet;
    const qty = p.amt.abs();
    const order: Order = {
      orderId: s.nextOrderId++,
      clientOrderId: `autoclose-${t}`,
      symbol: p.symbol,
      side: p.amt.isNeg() ? 'BUY' : 'SELL',
      positionSide: p.positionSide,
      type: 'LIQUIDATION',
      timeInForce: 'IOC',
      price: mark,
      origQty: qty,
      executedQty: new Decimal(0),
      cumQuote: new Decimal(0),
      reduceOnly: true,
      status: 'NEW',
      goodTillDate: 0,
      time: t,
      updateTime: t,
    };
    account.orders.set(order.orderId, order);
    emit(s, account, () => orderTradeUpdate(order, spec, { x: 'NEW' }, t));
    const walletBefore = usdt(account);
    fill(s, account, order, qty, mark, false, t);
    let clearance: Decimal;
    if (isolated) {
      // Whatever the isolated margin still held after the close goes to the insurance fund
      const closeResult = usdt(account).minus(walletBefore);
      clearance = margin.plus(closeResult);
    } else {
      const crossLeft = figures(s, account, t).crossWalletBalance;
      clearance = Decimal.min(qty.mul(mark).mul(spec.liquidationFee), Decimal.max(0, crossLeft));
    }
    addUsdt(s, account, clearance.neg());
    income(s, account, p.symbol, 'INSURANCE_CLEAR', clearance.neg(), 'LIQUIDATION', 'USDT', '', t);
    const cross = figures(s, account, t).crossWalletBalance;
    if (cross.isNeg()) addUsdt(s, account, cross.neg());
    emit(s, account, () => accountUpdate(s, account, 'ORDER', [p], t));
  }
}
