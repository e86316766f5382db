import type { AlgoOrder } from './types';

/**
 * Binance's trigger rules for conditional orders, evaluated on the working price (mark or contract):
 * STOP/STOP_MARKET: BUY when price ≥ trigger, SELL when price ≤ trigger.
 * TAKE_PROFIT/TAKE_PROFIT_MARKET: BUY when price ≤ trigger, SELL when price ≥ trigger.
 * TRAILING_STOP_MARKET: once the price has reached activatePrice, SELL when it falls callbackRate% from the highest
 * price since, BUY when it rises callbackRate% from the lowest. Updates the trailing state as it goes.
 */
export function reachesTrigger(a: AlgoOrder, price: number): boolean {
  const buy = a.side === 'BUY';
  if (a.orderType === 'TRAILING_STOP_MARKET') {
    const activate = a.activatePrice?.toNumber() ?? price;
    if (!a.activated) {
      if (buy ? price > activate : price < activate) return false;
      a.activated = true;
      a.extreme = price;
    }
    const extreme = buy ? Math.min(a.extreme ?? price, price) : Math.max(a.extreme ?? price, price);
    a.extreme = extreme;
    const rate = (a.callbackRate?.toNumber() ?? 1) / 100;
    return buy ? price >= extreme * (1 + rate) : price <= extreme * (1 - rate);
  }
  const trigger = a.triggerPrice.toNumber();
  const stop = a.orderType === 'STOP' || a.orderType === 'STOP_MARKET';
  if (stop) return buy ? price >= trigger : price <= trigger;
  return buy ? price <= trigger : price >= trigger;
}
