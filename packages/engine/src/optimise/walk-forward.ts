import type { Metrics } from '../backtest/metrics';
import { type RunSettings, runBacktest } from '../backtest/runner';
import type { BarSeries } from '../bars/bars';
import { EngineInputError } from '../errors';
import type { StrategyType } from '../strategy/registry';
import {
  expandGrid,
  type Objective,
  type ParamSpace,
  rankResults,
  runCombos,
  type SweepResult,
  score,
} from './sweep';

export interface WalkForwardOptions {
  inSampleBars: number;
  outSampleBars: number;
  /** Bars the windows move by each step (default: one test window, so the test windows tile the bars) */
  stepBars?: number;
  objective?: Objective;
}

/** Bar ranges of one walk-forward step: optimise on [isStart, isEnd), test on [isEnd, oosEnd) */
export interface WalkForwardWindow {
  isStart: number;
  isEnd: number;
  oosEnd: number;
}

export interface WalkForwardStep extends WalkForwardWindow {
  bestParams: Record<string, unknown>;
  inSample: Metrics;
  outOfSample: Metrics;
  /** Equity over the test bars [isEnd, oosEnd) as a multiple of the equity at the test window's start */
  outOfSampleGrowth: Float64Array;
}

export interface WalkForwardReport {
  steps: WalkForwardStep[];
  /** Out-of-sample returns compounded over all steps */
  outOfSampleReturn: number;
  /** Mean in-sample vs out-of-sample objective: a large gap means the optimisation overfits */
  meanInSampleScore: number;
  meanOutOfSampleScore: number;
  /**
   * The out-of-sample pieces stitched: growth of 1 over bars [stitchedStart, stitchedStart + length), each step's
   * test bars up to where the next step's begin (steps shorter than the test window would count bars twice)
   */
  stitchedGrowth: Float64Array;
  stitchedStart: number;
}

/** Rolling windows: each test period follows its optimisation period, then everything moves by one test period */
export function walkForwardWindows(
  total: number,
  inSampleBars: number,
  outSampleBars: number,
  stepBars = outSampleBars,
): WalkForwardWindow[] {
  if (
    !(
      Number.isInteger(inSampleBars) &&
      inSampleBars > 0 &&
      Number.isInteger(outSampleBars) &&
      outSampleBars > 0
    )
  ) {
    throw new EngineInputError('walk-forward: inSampleBars and outSampleBars must be positive integers');
  }
  if (!(Number.isInteger(stepBars) && stepBars > 0))
    throw new EngineInputError('walk-forward: stepBars must be a positive integer');
  const windows: WalkForwardWindow[] = [];
  for (let start = 0; start + inSampleBars + outSampleBars <= total; start += stepBars) {
    windows.push({
      isStart: start,
      isEnd: start + inSampleBars,
      oosEnd: start + inSampleBars + outSampleBars,
    });
  }
  if (windows.length === 0) {
    throw new EngineInputError(
      `walk-forward: ${total} bars are fewer than one in-sample plus one out-of-sample window`,
    );
  }
  return windows;
}

/** The in-sample bars of one step, and where they sit in the whole series */
export interface SweepWindow {
  bars: BarSeries;
  start: number;
  end: number;
}

/** Sweeps a window's combinations; the node runner passes a worker-thread version */
export type SweepFn = (
  combos: readonly Record<string, unknown>[],
  window: SweepWindow,
) => SweepResult[] | Promise<SweepResult[]>;

/**
 * Walk-forward analysis: per window, optimise on the in-sample bars, then run the winner on the following
 * out-of-sample bars. The test run starts `warmupBars` earlier so indicators are ready at the window start.
 */
export async function walkForward(
  type: StrategyType,
  base: Record<string, unknown>,
  space: ParamSpace,
  bars: BarSeries,
  settings: RunSettings,
  options: WalkForwardOptions,
  sweep: SweepFn = (combos, window) => runCombos(type, combos, window.bars, settings),
): Promise<WalkForwardReport> {
  const objective = options.objective ?? 'sharpe';
  const combos = expandGrid(base, space);
  const steps: WalkForwardStep[] = [];
  const windows = walkForwardWindows(
    bars.length,
    options.inSampleBars,
    options.outSampleBars,
    options.stepBars,
  );
  for (const w of windows) {
    const window = { bars: bars.slice(w.isStart, w.isEnd), start: w.isStart, end: w.isEnd };
    const ranked = rankResults(await sweep(combos, window), objective);
    const best = ranked[0];
    if (!best || best.metrics === null)
      throw new EngineInputError(`walk-forward: no valid combination (${best?.error})`);
    const warmup = Math.min(type.warmupBars(best.params), w.isEnd - w.isStart);
    const oos = runBacktest(type, best.params, bars.slice(w.isEnd - warmup, w.oosEnd), settings, {
      keepDetails: false,
    });
    const base = warmup > 0 ? (oos.equity[warmup - 1] as number) : oos.metrics.initialBalance;
    const growth = new Float64Array(w.oosEnd - w.isEnd);
    for (let i = 0; i < growth.length; i++)
      growth[i] = base > 0 ? (oos.equity[warmup + i] as number) / base : 0;
    steps.push({
      ...w,
      bestParams: best.params,
      inSample: best.metrics,
      outOfSample: oos.metrics,
      outOfSampleGrowth: growth,
    });
  }
  const pick = (m: Metrics) => score({ params: {}, metrics: m, error: null }, objective);
  return {
    ...stitch(steps),
    steps,
    outOfSampleReturn: steps.reduce((acc, s) => acc * (1 + s.outOfSample.totalReturn), 1) - 1,
    meanInSampleScore: steps.reduce((a, s) => a + pick(s.inSample), 0) / steps.length,
    meanOutOfSampleScore: steps.reduce((a, s) => a + pick(s.outOfSample), 0) / steps.length,
  };
}

/** Compounds the steps' test pieces into one curve; each piece runs until the next step's test bars begin */
function stitch(steps: readonly WalkForwardStep[]): { stitchedGrowth: Float64Array; stitchedStart: number } {
  const first = steps[0];
  if (!first) return { stitchedGrowth: new Float64Array(0), stitchedStart: 0 };
  const last = steps[steps.length - 1] as WalkForwardStep;
  const out = new Float64Array(last.oosEnd - first.isEnd);
  let level = 1;
  let at = 0;
  steps.forEach((step, k) => {
    const until = Math.min(step.oosEnd, steps[k + 1]?.isEnd ?? step.oosEnd);
    // A step longer than the test window leaves bars untested: the curve stays flat over them
    const from = step.isEnd - first.isEnd;
    for (; at < from; at++) out[at] = level;
    const count = until - step.isEnd;
    for (let i = 0; i < count; i++) out[at++] = level * (step.outOfSampleGrowth[i] as number);
    level = at > 0 ? (out[at - 1] as number) : level;
  });
  return { stitchedGrowth: out.subarray(0, at), stitchedStart: first.isEnd };
}
