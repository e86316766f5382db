import type { RunSettings } from '../backtest/runner';
import { BarSeries } from '../bars/bars';

/** The first bar's open time of the strategy tests' one-minute bars */
export const T0 = Date.UTC(2025, 0, 1, 1, 0);

/** A broker without fees, slippage or funding: the tests' fills are at the prices they name */
export const frictionless: RunSettings = {
  broker: {
    initialBalance: 10_000,
    slippageBps: 0,
    minNotional: 5,
    fundingRate: 0,
    makerFee: 0,
    takerFee: 0,
  },
};

/** Bars from [open, high, low, close] rows, one minute apart from `T0` */
export function bars(rows: readonly (readonly [number, number, number, number])[]): BarSeries {
  const s = new BarSeries(60_000, rows.length);
  rows.forEach(([o, h, l, c], i) => {
    s.append(T0 + i * 60_000, o, h, l, c, 1_000);
  });
  return s;
}
