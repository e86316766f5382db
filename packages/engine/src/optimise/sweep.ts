import { OPTIMISATION_OBJECTIVES, type OptimisationObjective } from '@kestrel/contracts/backtest';
import type { Metrics } from '../backtest/metrics';
import { type RunSettings, runBacktest } from '../backtest/runner';
import type { BarSeries } from '../bars/bars';
import { EngineInputError } from '../errors';
import type { StrategyType } from '../strategy/registry';
import type { PrepareCache } from '../strategy/strategy';
import { periodReturns } from './overfitting';

/** Values to try per parameter; parameters not listed keep their base value */
export type ParamSpace = Readonly<Record<string, readonly (number | string | boolean)[]>>;

/**
 * Metrics a sweep can rank by (higher is better; maxDrawdown is ranked lowest first). The names are on the wire
 * (an optimisation request's `objective`), so contracts holds the list and the engine ranks by it
 */
export type Objective = OptimisationObjective;

export const OBJECTIVES: readonly Objective[] = OPTIMISATION_OBJECTIVES;

/** One combination's outcome: metrics, or why the parameters were refused */
export interface SweepResult {
  params: Record<string, unknown>;
  metrics: Metrics | null;
  error: string | null;
  /**
   * Returns of each period of `periodBars` bars (equity sampled at the period's last bar), when the sweep was asked
   * for them: the overfitting statistics (PSR, DSR, PBO) work on them
   */
  returns?: Float64Array;
}

const MAX_COMBINATIONS = 100_000;

/** Cartesian product of the space over the base parameters, in a stable order */
export function expandGrid(base: Record<string, unknown>, space: ParamSpace): Record<string, unknown>[] {
  const keys = Object.keys(space);
  let total = 1;
  for (const k of keys) {
    const values = space[k] ?? [];
    if (values.length === 0) throw new EngineInputError(`parameter space: ${k} has no values`);
    total *= values.length;
  }
  if (total > MAX_COMBINATIONS) {
    throw new EngineInputError(
      `parameter space has ${total} combinations, at most ${MAX_COMBINATIONS} are allowed`,
    );
  }
  const out: Record<string, unknown>[] = [];
  const idx = new Array<number>(keys.length).fill(0);
  for (let c = 0; c < total; c++) {
    const combo: Record<string, unknown> = { ...base };
    keys.forEach((k, j) => {
      combo[k] = (space[k] as readonly unknown[])[idx[j] as number];
    });
    out.push(combo);
    for (let j = keys.length - 1; j >= 0; j--) {
      idx[j] = (idx[j] as number) + 1;
      if ((idx[j] as number) < (space[keys[j] as string] as readonly unknown[]).length) break;
      idx[j] = 0;
    }
  }
  return out;
}

/** Score for ranking; refused combinations and undefined figures rank last */
export function score(result: SweepResult, objective: Objective): number {
  const m = result.metrics;
  if (m === null) return Number.NEGATIVE_INFINITY;
  if (objective === 'maxDrawdown') return -m.maxDrawdown;
  const v = objective === 'profitFactor' ? (m.profitFactor ?? Number.POSITIVE_INFINITY) : m[objective];
  return Number.isNaN(v) ? Number.NEGATIVE_INFINITY : v;
}

/** Best first; ties keep the grid order so the ranking is deterministic */
export function rankResults(results: readonly SweepResult[], objective: Objective): SweepResult[] {
  return results
    .map((r, i) => ({ r, i, s: score(r, objective) }))
    .sort((a, b) => (b.s === a.s ? a.i - b.i : b.s > a.s ? 1 : -1))
    .map((x) => x.r);
}

/**
 * What the runs of a sweep over one bar series share: the equity buffer and the batch columns. A worker keeps one
 * across its batches, so each indicator column is computed once per worker, not once per batch.
 */
export interface SweepScratch {
  readonly equity: Float64Array;
  readonly prepareCache: PrepareCache;
}

const MAX_CACHED_COLUMNS = 64;

/** Scratch space for sweep runs over `bars` (the bars must not change while it is in use) */
export function sweepScratch(bars: BarSeries): SweepScratch {
  return { equity: new Float64Array(bars.length), prepareCache: new Map() };
}

/** Runs every combination on this thread (the node runner spreads the same work over worker threads) */
export function runCombos(
  type: StrategyType,
  combos: readonly Record<string, unknown>[],
  bars: BarSeries,
  settings: RunSettings = {},
  scratch: SweepScratch = sweepScratch(bars),
  /** Keep each run's returns per period of this many bars (`SweepResult.returns`) */
  periodBars?: number,
): SweepResult[] {
  // Bounded: a worker's cache lives for its whole share of the sweep, and a column can be as long as the bars
  if (scratch.prepareCache.size > MAX_CACHED_COLUMNS) scratch.prepareCache.clear();
  return combos.map((params) => {
    let parsed: Record<string, unknown>;
    try {
      parsed = type.parseParams(params);
    } catch (error) {
      return { params, metrics: null, error: error instanceof Error ? error.message : String(error) };
    }
    // Combinations that share indicator settings share their batch columns
    const { metrics, equity } = runBacktest(type, parsed, bars, settings, {
      equityBuffer: scratch.equity,
      keepDetails: false,
      prepareCache: scratch.prepareCache,
    });
    if (periodBars === undefined) return { params, metrics, error: null };
    const returns = periodReturns(equity, bars.length, periodBars, metrics.initialBalance);
    return { params, metrics, error: null, returns };
  });
}

/** A parameter sweep on one thread, best first */
export function runSweep(
  type: StrategyType,
  base: Record<string, unknown>,
  space: ParamSpace,
  bars: BarSeries,
  settings: RunSettings = {},
  objective: Objective = 'sharpe',
): SweepResult[] {
  return rankResults(runCombos(type, expandGrid(base, space), bars, settings), objective);
}
