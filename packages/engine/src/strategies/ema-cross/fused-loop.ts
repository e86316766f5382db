import type { EquityCurve } from '../../backtest/equity-curve';
import type { BarSeries } from '../../bars/bars';
import type { SimBroker } from '../../broker/sim-broker';

/**
 * The fused backtest loop of a crossing strategy without stops: per bar exactly what the generic loop does (the
 * broker's bar, the strategy's reaction to a crossing, the equity record) with the EMAs of `findCrossings` (strategy.ts) computed
 * in the same pass. Between events (a pending order, a funding time, a bar reaching the liquidation price) bars
 * run in an inner loop on locals, like the broker's quiet loop. The EMA chain is latency-bound and the equity
 * write and range check are not, so together they cost little more than the EMAs alone. Equality with the generic
 * loop (every bar's equity, the account's totals) is tested.
 */
export function emaCrossLoop(
  broker: SimBroker,
  curve: EquityCurve,
  bars: BarSeries,
  n: number,
  fp: number,
  sp: number,
  leverage: number,
  act: (c: number, up: boolean, down: boolean) => void,
): void {
  const close = bars.close;
  const low = bars.low;
  const high = bars.high;
  const values = curve.values;
  let peak = curve.peak;
  let maxDrawdown = curve.maxDrawdown;
  const kf = 2 / (fp + 1);
  const ks = 2 / (sp + 1);
  let fe = 0;
  let fs = 0;
  let ss = 0;
  // Warm-up, bar by bar: the seeds as findCrossings computes them; the strategy's first bar sets its leverage
  const warm = Math.min(sp, n);
  let i = 0;
  for (; i < warm; i++) {
    broker.processBar(i);
    if (i === 0 && broker.leverage !== leverage) broker.setLeverage(leverage);
    const v = close[i] as number;
    if (i < fp - 1) fs += v;
    else if (i === fp - 1) {
      fs += v;
      fe = fs / fp;
    } else fe = (v - fe) * kf + fe;
    ss += v;
    const e = broker.walletBalance + broker.positionQty * (v - broker.entryPrice);
    values[i] = e;
    peak = Math.max(peak, e);
    maxDrawdown = Math.max(maxDrawdown, (peak - e) / peak);
  }
  let se = ss / sp;
  let prev = fe - se;
  while (i < n) {
    // An event bar: whatever is pending, due or in range happens in the broker
    broker.processBar(i);
    let v = close[i] as number;
    fe = (v - fe) * kf + fe;
    se = (v - se) * ks + se;
    let diff = fe - se;
    if ((prev <= 0 && diff > 0) || (prev >= 0 && diff < 0)) act(v, diff > 0, diff < 0);
    prev = diff;
    let e = broker.walletBalance + broker.positionQty * (v - broker.entryPrice);
    values[i] = e;
    peak = Math.max(peak, e);
    maxDrawdown = Math.max(maxDrawdown, (peak - e) / peak);
    i++;
    // Quiet bars up to the next event: the account is constant, only the EMAs and the equity move
    const end = broker.quietEnd(i, n);
    if (end <= i) continue;
    const down = broker.quietDown;
    const up = broker.quietUp;
    const wallet = broker.walletBalance;
    const qty = broker.positionQty;
    const entry = broker.entryPrice;
    let j = i;
    while (j < end && (low[j] as number) > down && (high[j] as number) < up) {
      v = close[j] as number;
      fe = (v - fe) * kf + fe;
      se = (v - se) * ks + se;
      diff = fe - se;
      e = wallet + qty * (v - entry);
      values[j] = e;
      peak = Math.max(peak, e);
      maxDrawdown = Math.max(maxDrawdown, (peak - e) / peak);
      j++;
      if ((prev <= 0 && diff > 0) || (prev >= 0 && diff < 0)) {
        // The order goes out with this bar; the next bar is an event bar
        prev = diff;
        act(v, diff > 0, diff < 0);
        break;
      }
      prev = diff;
    }
    broker.creditQuietBars(j - i);
    i = j;
  }
  curve.peak = peak;
  curve.maxDrawdown = maxDrawdown;
}
