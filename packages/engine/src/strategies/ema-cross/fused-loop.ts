import type { EquityCurve } from '../../backtest/equity-curve';
import type { BarSeries } from '../../bars/bars';
import type { SimBroker } from '../../broker/sim-broker';
import { emaCrossSeeds } from './seeds';

// What the quiet loop and the event bars hand each other, in one Float64Array (no allocation per event): both
// EMAs, the last fast − slow difference, the equity peak and the max drawdown; then what `eventBars` sets for the
// quiet run it opens: where it must end, the range column and bound it checks, and the side of the crossing
const FAST = 0;
const SLOW = 1;
const PREV = 2;
const PEAK = 3;
const MAX_DRAWDOWN = 4;
const END = 5;
/** 1: the run checks `low > bound`; −1: `−high > bound` */
const SIGN = 6;
const BOUND = 7;
/** The sign of the difference the run started on: it stops after the first bar that leaves it */
const DIR = 8;
const STATE_SIZE = 9;

/**
 * The fused backtest loop of a crossing strategy without stops: per bar exactly what the generic loop does (the
 * broker's bar, the strategy's reaction to a crossing, the equity record) with the EMAs of `findCrossings`
 * (strategy.ts) computed in the same pass, so there is no separate pass over the closes.
 *
 * Bars where something may happen in the account (an order to fill, a funding time, a bar reaching the liquidation
 * price) go through `broker.processBar` in `eventBars`; the quiet bars between them run in the inner loop here, on
 * locals. Equality with the generic loop (every bar's equity, the account's totals) is tested in
 * fused-loop.test.ts.
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
  const open = bars.open;
  const low = bars.low;
  const high = bars.high;
  const values = curve.values;
  const kf = 2 / (fp + 1);
  const ks = 2 / (sp + 1);
  const s = new Float64Array(STATE_SIZE);
  s[PEAK] = curve.peak;
  s[MAX_DRAWDOWN] = curve.maxDrawdown;
  // Warm-up: the bars before the slow EMA exists; the strategy's first bar sets its leverage
  const warm = Math.min(sp, n);
  for (let i = 0; i < warm; i++) {
    broker.processBar(i);
    if (i === 0 && broker.leverage !== leverage) broker.setLeverage(leverage);
    const v = close[i] as number;
    recordEquity(s, values, i, broker.walletBalance + broker.positionQty * (v - broker.entryPrice));
  }
  if (n < sp) {
    finish(s, curve);
    return;
  }
  const seeds = emaCrossSeeds(close, fp, sp);
  s[FAST] = seeds.fast;
  s[SLOW] = seeds.slow;
  s[PREV] = seeds.fast - seeds.slow;
  let i = warm;
  let crossed = false;
  while (i < n) {
    i = eventBars(s, broker, bars, values, i, n, kf, ks, crossed, act);
    if (i >= n) break;
    // Quiet bars up to the next event: the account is constant, only the EMAs and the equity move. A bar is quiet
    // while `sign × range[j] > bound`: `low > liquidation` for a long, `−high > −liquidation` for a short, `low > −∞`
    // when flat (negating is exact, so the comparisons are the generic loop's). The run stops after the first bar
    // whose difference leaves the side `dir` it started on: one test where the generic crossing test takes two.
    // Signs multiply rather than select: a flag compiled to a branch inside the loop and cost more than the product.
    const end = (s[END] as number) | 0;
    const sign = s[SIGN] as number;
    const bound = s[BOUND] as number;
    const dir = s[DIR] as number;
    const range = sign > 0 ? low : high;
    const wallet = broker.walletBalance;
    const qty = broker.positionQty;
    const entry = broker.entryPrice;
    let fe = s[FAST] as number;
    let se = s[SLOW] as number;
    let peak = s[PEAK] as number;
    let maxDrawdown = s[MAX_DRAWDOWN] as number;
    let diff = s[PREV] as number;
    let j = i;
    // `open > 0` always holds (a BarSeries refuses a low ≤ 0 and an open below the low): the test is there to read
    // the open column along with the others, so the fill at the next event bar finds its price in cache (it missed
    // on every fill: ~10 % of the run). A bar failing it would merely go through processBar like any event bar.
    while (j < end && sign * (range[j] as number) > bound && (open[j] as number) > 0) {
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
    // Crossed to the other side (not when the difference only touched zero): the strategy acts on that bar
    crossed = diff * dir < 0;
    broker.creditQuietBars(j - i);
    i = j;
  }
  finish(s, curve);
}

function finish(s: Float64Array, curve: EquityCurve): void {
  curve.peak = s[PEAK] as number;
  curve.maxDrawdown = s[MAX_DRAWDOWN] as number;
}

/**
 * The bars from `i` where something may happen, each in full: the crossing that ended the last quiet run sends its
 * order first (`crossed`), then the broker's bar, the EMAs with the generic crossing test, the equity. Returns the
 * first bar of the next quiet run, with its end, range column, bound and side in `s`, or `n`.
 */
function eventBars(
  s: Float64Array,
  broker: SimBroker,
  bars: BarSeries,
  values: Float64Array,
  from: number,
  n: number,
  kf: number,
  ks: number,
  crossed: boolean,
  act: (c: number, up: boolean, down: boolean) => void,
): number {
  const close = bars.close;
  if (crossed) {
    const diff = s[PREV] as number;
    act(close[from - 1] as number, diff > 0, diff < 0);
  }
  let i = from;
  while (i < n) {
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
    const end = broker.quietEnd(i, n);
    const down = broker.quietDown;
    const up = broker.quietUp;
    // A quiet run needs a side (a difference of exactly zero goes bar by bar) and at most one bound: the account's
    // liquidation price, below a long or above a short (never two, with market orders only)
    if (end <= i || !(diff > 0 || diff < 0)) continue;
    if (down !== Number.NEGATIVE_INFINITY && up !== Number.POSITIVE_INFINITY) continue;
    const short = up !== Number.POSITIVE_INFINITY;
    s[END] = end;
    s[SIGN] = short ? -1 : 1;
    s[BOUND] = short ? -up : down;
    s[DIR] = diff > 0 ? 1 : -1;
    return i;
  }
  return n;
}

/** Equity of bar i with the drawdown step of EquityCurve.record */
function recordEquity(s: Float64Array, values: Float64Array, i: number, e: number): void {
  values[i] = e;
  const peak = Math.max(s[PEAK] as number, e);
  s[PEAK] = peak;
  s[MAX_DRAWDOWN] = Math.max(s[MAX_DRAWDOWN] as number, (peak - e) / peak);
}
