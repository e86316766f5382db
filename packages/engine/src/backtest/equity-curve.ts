import type { BarSeries } from '../bars/bars';

/**
 * A backtest's equity after each bar's close, with its maximum drawdown tracked while the values are written.
 *
 * Writing and scanning the curve are both memory-bound passes over the whole run; tracking the drawdown in the
 * writing pass costs almost nothing (the loop waits on memory anyway), where a second pass in the metrics cost as
 * much as the reference loop of the benchmark. The arithmetic is exactly `maxDrawdownOf`'s in metrics.ts, in the
 * same bar order, so the figure is the same double. The peak starts at the (positive) initial balance.
 */
export class EquityCurve {
  // Numeric initialisers, not bare declarations: a declared class field starts out undefined, V8 then keeps it as a
  // tagged value, and the quiet loop seeded from it boxed its running peak and drawdown into a heap number per bar
  /** Highest equity so far (starts at the initial balance) */
  peak = 0;
  /** Largest peak-to-trough fall so far, as a fraction of the peak */
  maxDrawdown = 0;

  constructor(
    readonly values: Float64Array,
    initialBalance: number,
  ) {
    this.peak = initialBalance;
  }

  /** Equity of bar i */
  record(i: number, equity: number): void {
    this.values[i] = equity;
    const peak = Math.max(this.peak, equity);
    this.peak = peak;
    this.maxDrawdown = Math.max(this.maxDrawdown, (peak - equity) / peak);
  }

  /** The same equity for bars [from, to) (flat account, nothing pending): one drawdown step covers them all */
  recordConstant(from: number, to: number, equity: number): void {
    if (to <= from) return;
    this.values.fill(equity, from, to);
    this.record(from, equity);
  }

  /**
   * Quiet bars from `from` up to `to`: the account holds `qty` from `entry` on `wallet` and nothing can fire while
   * every bar's low stays above `down` and its high below `up`. Writes their equity and returns the first bar whose
   * range reaches a bound (or `to`).
   */
  recordQuiet(
    bars: BarSeries,
    from: number,
    to: number,
    down: number,
    up: number,
    wallet: number,
    qty: number,
    entry: number,
  ): number {
    // One-sided bounds read one range column: the loop is memory-bound, a second compare on it costs nothing
    const lowOrHigh = down === Number.NEGATIVE_INFINITY ? bars.high : bars.low;
    const highOrLow = up === Number.POSITIVE_INFINITY ? lowOrHigh : bars.high;
    return quietRun(this, lowOrHigh, highOrLow, bars.close, from, to, down, up, wallet, qty, entry);
  }
}

/**
 * The quiet-bar loop. A leaf function with the drawdown state in locals, so V8 keeps one optimised version of it
 * across runs; `below[j] <= down || above[j] >= up` with both columns the same array when only one side is bounded.
 */
function quietRun(
  curve: EquityCurve,
  below: Float64Array,
  above: Float64Array,
  close: Float64Array,
  from: number,
  to: number,
  down: number,
  up: number,
  wallet: number,
  qty: number,
  entry: number,
): number {
  const values = curve.values;
  let peak = curve.peak;
  let maxDrawdown = curve.maxDrawdown;
  let j = from;
  for (; j < to; j++) {
    if ((below[j] as number) <= down || (above[j] as number) >= up) break;
    const e = wallet + qty * ((close[j] as number) - entry);
    values[j] = e;
    peak = Math.max(peak, e);
    maxDrawdown = Math.max(maxDrawdown, (peak - e) / peak);
  }
  curve.peak = peak;
  curve.maxDrawdown = maxDrawdown;
  return j;
}
