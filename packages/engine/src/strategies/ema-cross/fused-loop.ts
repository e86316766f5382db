import type { EquityCurve } from '../../backtest/equity-curve';
import type { BarSeries } from '../../bars/bars';
import type { SimBroker } from '../../broker/sim-broker';
import { emaCrossSeeds } from './seeds';

// What the loop carries from bar to bar, in one Float64Array so `quietBars` can take and give it back without
// allocating: both EMAs, the previous fast − slow difference, the equity peak and the max drawdown
const FAST = 0;
const SLOW = 1;
const PREV = 2;
const PEAK = 3;
const MAX_DRAWDOWN = 4;
/** Set by `quietBars` when it stopped on a crossing (the bar before the index it returned) */
const CROSSED = 5;

/**
 * The fused backtest loop of a crossing strategy without stops: per bar exactly what the generic loop does (the
 * broker's bar, the strategy's reaction to a crossing, the equity record) with the EMAs of `findCrossings`
 * (strategy.ts) computed in the same pass, so there is no separate pass over the closes.
 *
 * Bars where something may happen in the account (an order to fill, a funding time, a bar reaching the liquidation
 * price) go through `broker.processBar`; the quiet bars between them run on locals in `quietBars` (V8 inlines
 * it; keeping it apart keeps the per-bar loop readable beside the event-bar code). Equality with the generic loop
 * (every bar's equity, the account's totals) is tested in fused-loop.test.ts.
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
  const values = curve.values;
  const kf = 2 / (fp + 1);
  const ks = 2 / (sp + 1);
  const s = new Float64Array(6);
  s[PEAK] = curve.peak;
  s[MAX_DRAWDOWN] = curve.maxDrawdown;
  // Warm-up: the bars before the slow EMA exists; the strategy's first bar sets its leverage
  const warm = Math.min(sp, n);
  let i = 0;
  for (; i < warm; i++) {
    broker.processBar(i);
    if (i === 0 && broker.leverage !== leverage) broker.setLeverage(leverage);
    const v = close[i] as number;
    recordEquity(s, values, i, broker.walletBalance + broker.positionQty * (v - broker.entryPrice));
  }
  if (n >= sp) {
    const seeds = emaCrossSeeds(close, fp, sp);
    s[FAST] = seeds.fast;
    s[SLOW] = seeds.slow;
    s[PREV] = seeds.fast - seeds.slow;
  }
  while (i < n) {
    // A bar where something may happen: the broker runs it in full, then the strategy sees its close
    broker.processBar(i);
    const v = close[i] as number;
    const fast = s[FAST] as number;
    const slow = s[SLOW] as number;
    const f = (v - fast) * kf + fast;
    const sl = (v - slow) * ks + slow;
    const diff = f - sl;
    const prev = s[PREV] as number;
    s[FAST] = f;
    s[SLOW] = sl;
    s[PREV] = diff;
    if ((prev <= 0 && diff > 0) || (prev >= 0 && diff < 0)) act(v, diff > 0, diff < 0);
    recordEquity(s, values, i, broker.walletBalance + broker.positionQty * (v - broker.entryPrice));
    i++;
    // Quiet bars up to the next event: the account is constant, only the EMAs and the equity move
    const end = broker.quietEnd(i, n);
    const last = s[PREV] as number;
    const side = last > 0 ? 1 : last < 0 ? -1 : 0;
    const down = broker.quietDown;
    const up = broker.quietUp;
    // The quiet loop runs on one side of a crossing (the sign of the last difference) and one range column (the
    // account's one bound: a long's liquidation below, a short's above, or none when flat); a difference of exactly
    // zero and bounds on both sides (never, with market orders only) go bar by bar through processBar
    if (end <= i || side === 0 || (down !== Number.NEGATIVE_INFINITY && up !== Number.POSITIVE_INFINITY))
      continue;
    const short = up !== Number.POSITIVE_INFINITY;
    const j = quietBars(
      s,
      close,
      short ? bars.high : bars.low,
      values,
      i,
      end,
      short ? -1 : 1,
      short ? -up : down,
      side,
      kf,
      ks,
      broker,
    );
    broker.creditQuietBars(j - i);
    i = j;
    if (s[CROSSED] === 1) {
      // The crossing bar's order goes out with it; the next bar is an event bar
      const diff = s[PREV] as number;
      act(close[i - 1] as number, diff > 0, diff < 0);
    }
  }
  curve.peak = s[PEAK] as number;
  curve.maxDrawdown = s[MAX_DRAWDOWN] as number;
}

/** Equity of bar i with the drawdown step of EquityCurve.record */
function recordEquity(s: Float64Array, values: Float64Array, i: number, e: number): void {
  values[i] = e;
  const peak = Math.max(s[PEAK] as number, e);
  s[PEAK] = peak;
  s[MAX_DRAWDOWN] = Math.max(s[MAX_DRAWDOWN] as number, (peak - e) / peak);
}

/**
 * Quiet bars from `from` up to `end`: stops at the first bar whose range reaches the bound (returns its index) or
 * after the first bar where the difference leaves the side `dir` it started on (returns the index after it;
 * `s[CROSSED]` = 1 when it crossed to the other side, 0 when it only touched zero). A bar is quiet while
 * `sign × range[j] > bound`: `low > liquidation` for a long (sign 1), `−high > −liquidation` for a short (sign −1),
 * `low > −∞` when flat (negating is exact, so the comparisons are the generic loop's). Staying on the side
 * (`(fast − slow)·dir > 0`) is one test where the generic crossing test takes two. Its running state stays in locals.
 */
function quietBars(
  s: Float64Array,
  close: Float64Array,
  range: Float64Array,
  values: Float64Array,
  from: number,
  end: number,
  sign: number,
  bound: number,
  dir: number,
  kf: number,
  ks: number,
  broker: SimBroker,
): number {
  const wallet = broker.walletBalance;
  const qty = broker.positionQty;
  const entry = broker.entryPrice;
  let fe = s[FAST] as number;
  let se = s[SLOW] as number;
  let peak = s[PEAK] as number;
  let maxDrawdown = s[MAX_DRAWDOWN] as number;
  let diff = s[PREV] as number;
  let j = from;
  while (j < end && sign * (range[j] as number) > bound) {
    const v = close[j] as number;
    fe = (v - fe) * kf + fe;
    se = (v - se) * ks + se;
    const e = wallet + qty * (v - entry);
    values[j] = e;
    peak = Math.max(peak, e);
    maxDrawdown = Math.max(maxDrawdown, (peak - e) / peak);
    j++;
    diff = fe - se;
    if (!(diff * dir > 0)) break;
  }
  s[FAST] = fe;
  s[SLOW] = se;
  s[PREV] = diff;
  s[PEAK] = peak;
  s[MAX_DRAWDOWN] = maxDrawdown;
  s[CROSSED] = diff * dir < 0 ? 1 : 0;
  return j;
}
