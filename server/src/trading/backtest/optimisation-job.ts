import {
  BACKTEST_MAX_EQUITY_POINTS,
  type BacktestMetrics,
  type OptimisationObjective,
  type OptimisationStats,
  type WalkForwardResult,
} from '@kestrel/contracts/backtest';
import {
  BarSeries,
  EngineInputError,
  expandGrid,
  getBuiltInStrategy,
  type Metrics,
  OVERFITTING_GATES,
  type OverfittingReport,
  overfittingReport,
  type ParamSpace,
  StrategyError,
  type SweepResult,
  statsPeriodBars,
  type WalkForwardReport,
  walkForward,
} from '@kestrel/engine';
import { SweepAbortedError, SweepPool } from '@kestrel/engine/node';
import type { Clock } from '../../lib/clock';
import type { Database } from '../../lib/database/database';
import { HttpError } from '../../lib/http-error';
import type { JobKind, RunningJob } from '../jobs/job-kind';
import { type BacktestInputs, jobRunInputs, runSettingsWith, type StoredSettings } from './backtest-inputs';
import { finiteMetrics } from './backtest-result';
import {
  type OptimisationResultRow,
  type OptimisationRow,
  optimisationRepository,
} from './optimisation-repository';

/** Progress shares: the kline download, the sweep, the walk-forward (when asked for); storing takes the rest */
const FETCH_SHARE = 0.2;
const SWEEP_END = 0.95;
const SWEEP_END_WITH_WALK_FORWARD = 0.6;

/** What a job keeps beside its request: the backtest settings plus the walk-forward windows in bars */
export interface OptimisationSettings extends StoredSettings {
  base: Record<string, unknown>;
  space: ParamSpace;
  walkForward: { inSampleBars: number; outSampleBars: number; stepBars: number } | null;
  /** Taker fee twice plus slippage both ways: the random-entry baseline pays it per round trip */
  roundTripCost: number;
}

export const optimisationNotFound = (): HttpError =>
  new HttpError(404, 'OPTIMISATION_NOT_FOUND', 'No such optimisation');

export interface OptimisationJobDeps {
  db: Database;
  /** Market inputs shared with single backtests */
  inputs: Pick<BacktestInputs, 'loadRunInputs'>;
  /** Worker threads of one job (KESTREL_BACKTEST_CONCURRENCY) */
  workers: number;
  clock: Clock;
}

/**
 * An optimisation as a job kind: a grid of parameter combinations backtested on the engine's sweep pool (worker
 * threads), every combination's metrics stored, the overfitting statistics computed (engine `overfittingReport`),
 * optionally a walk-forward analysis of the same grid. Notices go out as `notifications/optimisation`
 */
export function optimisationJob(deps: OptimisationJobDeps): JobKind<OptimisationRow> {
  const execute = async (row: OptimisationRow, job: RunningJob<OptimisationRow>): Promise<void> => {
    const { signal } = job;
    const settings = row.settings as unknown as OptimisationSettings;
    const objective = row.objective as OptimisationObjective;
    const fail = (message: string) => job.fail(message);
    const report = (progress: number) => job.progress(progress);
    let pool: SweepPool | undefined;
    try {
      const inputs = await jobRunInputs(deps.inputs, row, settings, job, FETCH_SHARE);
      if (!inputs) return;
      const bars = BarSeries.fromColumns(settings.intervalMs, inputs.bars);
      const walk = settings.walkForward;
      if (walk && walk.inSampleBars + walk.outSampleBars > bars.length) {
        await fail(
          `walkForward.trainMs: a train window of ${walk.inSampleBars} bars plus a test window of ` +
            `${walk.outSampleBars} bars is longer than the data the exchange has for the range (${bars.length} bars)`,
        );
        return;
      }
      const run = runSettingsWith(settings.run, inputs);
      const combos = expandGrid(settings.base, settings.space);
      const periodBars = statsPeriodBars(bars.length, settings.intervalMs);
      pool = new SweepPool(row.strategy, bars, run, { workers: deps.workers });
      const sweepEnd = walk ? SWEEP_END_WITH_WALK_FORWARD : SWEEP_END;
      const results = await pool.run(combos, {
        periodBars,
        signal,
        onProgress: (done, total) => report(FETCH_SHARE + ((sweepEnd - FETCH_SHARE) * done) / total),
      });
      if (!results.some((r) => r.metrics !== null)) {
        await fail(`The strategy refused every combination: ${results[0]?.error ?? 'no combination'}`);
        return;
      }
      const stats = overfittingReport(results, objective, {
        periodBars,
        close: bars.close,
        roundTripCost: settings.roundTripCost,
      });
      let walkForwardResult: WalkForwardResult | null = null;
      if (walk) {
        const type = getBuiltInStrategy(row.strategy);
        const windows =
          Math.floor((bars.length - walk.inSampleBars - walk.outSampleBars) / walk.stepBars) + 1;
        let fold = 0;
        const wf = await walkForward(
          type,
          settings.base,
          settings.space,
          bars,
          run,
          { ...walk, objective },
          async (windowCombos, window) => {
            const out = await (pool as SweepPool).run(windowCombos, {
              start: window.start,
              end: window.end,
              signal,
            });
            fold++;
            report(sweepEnd + ((SWEEP_END - sweepEnd) * fold) / windows);
            return out;
          },
        );
        walkForwardResult = walkForwardSummary(wf, bars);
      }
      await job.settled();
      const best = results[stats.bestIndex] as SweepResult;
      const stored = await optimisationRepository.complete(
        deps.db,
        row.id,
        job.owner,
        {
          results: results.map((r, idx) => toResultRow(r, idx)),
          stats: toStats(stats, settings.intervalMs),
          best: {
            index: stats.bestIndex,
            params: best.params,
            metrics: finiteMetrics(best.metrics as Metrics),
          },
          walkForward: walkForwardResult,
        },
        deps.clock.now(),
      );
      if (stored) await job.completed();
    } catch (err) {
      if (err instanceof SweepAbortedError || signal.aborted) return;
      if (err instanceof EngineInputError || err instanceof StrategyError) {
        await fail(err.message);
        return;
      }
      throw err;
    } finally {
      await pool?.close();
    }
  };
  return {
    label: 'optimisation',
    code: 'OPTIMISATION',
    queue: optimisationRepository,
    find: optimisationRepository.find,
    notFound: optimisationNotFound,
    notice: ({ jobId, ...change }) => ({ kind: 'optimisation', data: { optimisationId: jobId, ...change } }),
    execute,
  };
}

/** JSON has no NaN or infinities: an undefined statistic is null, an infinite one the largest double */
function finite(x: number): number {
  return Number.isFinite(x) ? x : Number.isNaN(x) ? 0 : Math.sign(x) * Number.MAX_VALUE;
}
const orNull = (x: number): number | null => (Number.isNaN(x) ? null : finite(x));

function toStats(r: OverfittingReport, intervalMs: number): OptimisationStats {
  return {
    trials: r.trials,
    refused: r.refused,
    periodMs: r.periodBars * intervalMs,
    periods: r.periods,
    bestIndex: r.bestIndex,
    bestSharpe: finite(r.bestSharpe),
    bestSkewness: finite(r.bestSkewness),
    bestKurtosis: finite(r.bestKurtosis),
    sharpeVariance: finite(r.deflated.sharpeVariance),
    expectedMaxSharpe: finite(r.deflated.expectedMaxSharpe),
    psr: orNull(r.deflated.psr),
    dsr: orNull(r.deflated.dsr),
    pbo: r.pbo && {
      pbo: r.pbo.pbo,
      partitions: r.pbo.partitions,
      splits: r.pbo.splits,
      medianLogit: finite(r.pbo.medianLogit),
      probabilityOfOosLoss: r.pbo.probabilityOfOosLoss,
    },
    randomEntry: {
      samples: r.randomEntry.samples,
      meanSharpe: finite(r.randomEntry.meanSharpe),
      p95Sharpe: finite(r.randomEntry.p95Sharpe),
      pValue: r.randomEntry.pValue,
    },
    gates: { ...OVERFITTING_GATES },
    passes: r.passes,
  };
}

function toResultRow(r: SweepResult, idx: number): OptimisationResultRow {
  return {
    idx,
    params: r.params,
    metrics: r.metrics ? (finiteMetrics(r.metrics) as BacktestMetrics) : null,
    error: r.error,
  };
}

/** Folds with their times, and the stitched test curve against buy-and-hold, downsampled for the page */
function walkForwardSummary(wf: WalkForwardReport, bars: BarSeries): WalkForwardResult {
  const time = (i: number) =>
    i < bars.length
      ? (bars.openTime[i] as number)
      : (bars.openTime[bars.length - 1] as number) + bars.intervalMs;
  const start = wf.stitchedStart;
  const n = wf.stitchedGrowth.length;
  const before = bars.close[start - 1] as number;
  const stride = Math.max(1, Math.ceil(n / BACKTEST_MAX_EQUITY_POINTS));
  const stitched: WalkForwardResult['stitched'] = [];
  for (let i = 0; i < n; i += stride) {
    const at = i + stride >= n ? n - 1 : i;
    stitched.push({
      // Equity after the bar's close
      time: time(start + at + 1),
      equity: finite(wf.stitchedGrowth[at] as number),
      buyAndHold: (bars.close[start + at] as number) / before,
    });
  }
  return {
    folds: wf.steps.map((s) => ({
      trainStart: time(s.isStart),
      testStart: time(s.isEnd),
      testEnd: time(s.oosEnd),
      params: s.bestParams,
      inSample: finiteMetrics(s.inSample) as BacktestMetrics,
      outOfSample: finiteMetrics(s.outOfSample) as BacktestMetrics,
    })),
    stitched,
    outOfSampleReturn: n > 0 ? finite((wf.stitchedGrowth[n - 1] as number) - 1) : 0,
    buyAndHoldReturn: n > 0 ? (bars.close[start + n - 1] as number) / before - 1 : 0,
    meanInSampleScore: finite(wf.meanInSampleScore),
    meanOutOfSampleScore: finite(wf.meanOutOfSampleScore),
  };
}
