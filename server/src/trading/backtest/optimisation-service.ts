import { randomUUID } from 'node:crypto';
import {
  axisValues,
  BACKTEST_MAX_EQUITY_POINTS,
  type BacktestMetrics,
  type BacktestStatus,
  type OptimisationDetail,
  type OptimisationNotice,
  type OptimisationObjective,
  type OptimisationRequest,
  type OptimisationRow as OptimisationResultRowView,
  type OptimisationStats,
  type OptimisationSummary,
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
  type RunSettings,
  StrategyError,
  type SweepResult,
  statsPeriodBars,
  type WalkForwardReport,
  walkForward,
} from '@kestrel/engine';
import { SweepAbortedError, SweepPool } from '@kestrel/engine/node';
import type { FastifyBaseLogger } from 'fastify';
import type { FetchProgress } from '../../core/market-data/kline-cache';
import type { LiveEvent, PushTarget } from '../../core/socket/socket-bus';
import type { Clock } from '../../lib/clock';
import type { Database } from '../../lib/database/database';
import { HttpError } from '../../lib/http-error';
import { finiteMetrics } from './backtest-result';
import { BacktestRunner } from './backtest-runner';
import { type BacktestService, PROGRESS_PUSH_INTERVAL_MS, type StoredSettings } from './backtest-service';
import type { JobQuota } from './job-quota';
import {
  type OptimisationResultRow,
  type OptimisationRow,
  optimisationRepository,
} from './optimisation-repository';
import { Throttle } from './throttle';

const LIST_LIMIT = 200;
/** Progress shares: the kline download, the sweep, the walk-forward (when asked for); storing takes the rest */
const FETCH_SHARE = 0.2;
const SWEEP_END = 0.95;
const SWEEP_END_WITH_WALK_FORWARD = 0.6;

export const OPTIMISATION_CANCELED_ERROR = 'Canceled by the user';

/** What a job keeps beside its request: the backtest settings plus the walk-forward windows in bars */
interface OptimisationSettings extends StoredSettings {
  base: Record<string, unknown>;
  space: ParamSpace;
  walkForward: { inSampleBars: number; outSampleBars: number; stepBars: number } | null;
  /** Taker fee twice plus slippage both ways: the random-entry baseline pays it per round trip */
  roundTripCost: number;
}

export interface OptimisationServiceDeps {
  db: Database;
  /** Request checks and market inputs shared with single backtests */
  backtests: Pick<BacktestService, 'resolveRun' | 'loadRunInputs' | 'venueOf'>;

  publish(target: PushTarget, event: LiveEvent): Promise<void>;
  clock: Clock;
  log: FastifyBaseLogger;
  /** Worker threads of one job (KESTREL_BACKTEST_CONCURRENCY) */
  workers: number;
  channel: string;
  monotonicNow?: () => number;
  /** The per-user cap on created and waiting jobs, shared with backtests */
  quota: JobQuota;
}

/**
 * Optimisation jobs: a grid of parameter combinations backtested on the engine's sweep pool (worker threads), every
 * combination's metrics stored, the overfitting statistics computed (engine `overfittingReport`), optionally a
 * walk-forward analysis of the same grid. Queued and leased through the same queue code as backtests (its own
 * table and channel); one job at a time per instance, on all of its backtest worker threads.
 */
export class OptimisationService {
  readonly runner: BacktestRunner<OptimisationRow>;
  private readonly monotonicNow: () => number;

  constructor(private readonly deps: OptimisationServiceDeps) {
    this.monotonicNow = deps.monotonicNow ?? (() => performance.now());
    this.runner = new BacktestRunner<OptimisationRow>({
      db: deps.db,
      clock: deps.clock,
      log: deps.log,
      channel: deps.channel,
      concurrency: 1,
      queue: optimisationRepository,
      label: 'optimisation',
      execute: (row, signal) => this.execute(row, signal),
      notify: (row, status, error) => this.notify(row.user_id, row.id, status, row.progress, error),
    });
  }

  async create(userId: string, request: OptimisationRequest): Promise<OptimisationSummary> {
    // The owner's current environment's market, like a backtest's
    const venue = await this.deps.backtests.venueOf(userId);
    let resolved: Awaited<ReturnType<BacktestService['resolveRun']>>;
    try {
      resolved = await this.deps.backtests.resolveRun(request, false, venue.environment);
    } catch (err) {
      // The same checks as a backtest; the answer says which job it refused
      if (err instanceof HttpError && err.code === 'INVALID_BACKTEST')
        throw badRequest(err.message.replace(/^Invalid backtest: /, ''));
      throw err;
    }
    const { type, params: base, intervalMs, span, bars, run } = resolved;
    const known = Object.keys(type.paramsSchema.shape);
    const parameters = Object.keys(request.space);
    for (const name of parameters) {
      if (!known.includes(name))
        throw badRequest(`space.${name}: ${type.name} has no parameter ${name}; it has ${known.join(', ')}`);
    }
    const space: ParamSpace = Object.fromEntries(
      Object.entries(request.space).map(([k, axis]) => [k, axisValues(axis)]),
    );
    const combos = expandGrid(base, space);
    let firstRefusal: string | undefined;
    const valid = combos.filter((c) => {
      try {
        type.parseParams(c);
        return true;
      } catch (err) {
        firstRefusal ??= err instanceof Error ? err.message : String(err);
        return false;
      }
    }).length;
    if (valid === 0) throw badRequest(`space: the strategy refuses every combination (${firstRefusal})`);

    let walk: OptimisationSettings['walkForward'] = null;
    if (request.walkForward) {
      const toBars = (ms: number) => Math.max(1, Math.round(ms / intervalMs));
      const { trainMs, testMs, stepMs } = request.walkForward;
      walk = {
        inSampleBars: toBars(trainMs),
        outSampleBars: toBars(testMs),
        stepBars: toBars(stepMs ?? testMs),
      };
      if (walk.inSampleBars + walk.outSampleBars > bars) {
        throw badRequest(
          `walkForward.trainMs: a train window of ${walk.inSampleBars} bars plus a test window of ` +
            `${walk.outSampleBars} bars is longer than the range (${bars} ${request.interval} bars)`,
        );
      }
    }
    const slippage = (run.broker?.slippageBps ?? 0) / 10_000;
    const settings: OptimisationSettings = {
      run,
      intervalMs,
      span,
      base,
      space,
      walkForward: walk,
      roundTripCost: 2 * (request.costs.takerFeeRate + slippage),
    };
    const row = await this.deps.quota.create(userId, (tx) =>
      optimisationRepository.insert(tx, {
        id: randomUUID(),
        user_id: userId,
        strategy: type.id,
        strategy_name: type.name,
        symbol: request.symbol,
        interval: request.interval,
        start_time: request.startTime,
        end_time: request.endTime,
        exchange_env: venue.exchangeEnv,
        objective: request.objective,
        combinations: combos.length,
        parameters,
        request: request as unknown as Record<string, unknown>,
        settings: settings as unknown as Record<string, unknown>,
        status: 'queued',
        created_at: this.deps.clock.now(),
      }),
    );
    await this.notify(userId, row.id, 'queued', 0);
    await this.runner
      .announce()
      .catch((err: unknown) =>
        this.deps.log.warn({ err, optimisationId: row.id }, 'optimisation wake-up failed'),
      );
    return toSummary(row);
  }

  async list(userId: string): Promise<OptimisationSummary[]> {
    return (await optimisationRepository.list(this.deps.db, userId, LIST_LIMIT)).map(toSummary);
  }

  async get(userId: string, id: string): Promise<OptimisationDetail> {
    const row = await optimisationRepository.findWithWalkForward(this.deps.db, userId, id);
    if (!row) throw notFound();
    return {
      ...toSummary(row),
      request: row.request,
      parameters: row.parameters,
      walkForwardResult: row.walk_forward,
    };
  }

  async results(userId: string, id: string): Promise<OptimisationResultRowView[]> {
    const row = await optimisationRepository.find(this.deps.db, userId, id);
    if (!row) throw notFound();
    return (await optimisationRepository.results(this.deps.db, id)).map((r) => ({
      index: r.idx,
      params: r.params,
      metrics: r.metrics,
      error: r.error,
    }));
  }

  async cancel(userId: string, id: string): Promise<OptimisationSummary> {
    const row = await optimisationRepository.find(this.deps.db, userId, id);
    if (!row) throw notFound();
    const canceled = await optimisationRepository.cancel(
      this.deps.db,
      id,
      OPTIMISATION_CANCELED_ERROR,
      this.deps.clock.now(),
    );
    if (!canceled) {
      throw new HttpError(
        409,
        'OPTIMISATION_FINISHED',
        `This optimisation has already ${row.status === 'canceled' ? 'been canceled' : row.status}; nothing to cancel`,
      );
    }
    await this.runner
      .stop(id)
      .catch((err: unknown) => this.deps.log.warn({ err, optimisationId: id }, 'optimisation stop not sent'));
    await this.notify(userId, id, 'canceled', canceled.progress, OPTIMISATION_CANCELED_ERROR);
    return toSummary(canceled);
  }

  async delete(userId: string, id: string): Promise<void> {
    if (await optimisationRepository.delete(this.deps.db, userId, id)) return;
    const row = await optimisationRepository.find(this.deps.db, userId, id);
    if (!row) throw notFound();
    throw new HttpError(
      409,
      'OPTIMISATION_ACTIVE',
      `This optimisation is ${row.status}: cancel it before deleting it`,
    );
  }

  async start(): Promise<void> {
    await this.runner.start();
  }

  async idle(): Promise<void> {
    await this.runner.idle();
  }

  async close(): Promise<void> {
    await this.runner.close();
  }

  /** Runs one claimed job; every write is conditional on this instance still holding it */
  private async execute(row: OptimisationRow, signal: AbortSignal): Promise<void> {
    const { db, clock } = this.deps;
    const { id, user_id: userId } = row;
    const owner = this.runner.owner;
    const settings = row.settings as unknown as OptimisationSettings;
    const objective = row.objective as OptimisationObjective;
    await this.notify(userId, id, 'running', 0);
    const fail = async (message: string) => {
      const failed = await optimisationRepository.fail(db, id, owner, message, clock.now());
      if (failed) await this.notify(userId, id, 'failed', failed.progress, message);
    };
    const throttle = new Throttle(PROGRESS_PUSH_INTERVAL_MS, this.monotonicNow);
    let pending = Promise.resolve();
    const report = (progress: number) => {
      if (!throttle.ready()) return;
      pending = pending.then(() => this.progress(userId, id, progress));
    };
    let pool: SweepPool | undefined;
    try {
      const inputs = await this.deps.backtests.loadRunInputs(row, settings, signal, (p: FetchProgress) =>
        report(p.missing > 0 ? (FETCH_SHARE * p.fetched) / p.missing : FETCH_SHARE),
      );
      if (inputs === null) return;
      if (!inputs.ok) {
        await fail(inputs.message);
        return;
      }
      const bars = BarSeries.fromColumns(settings.intervalMs, inputs.bars);
      const walk = settings.walkForward;
      if (walk && walk.inSampleBars + walk.outSampleBars > bars.length) {
        await fail(
          `walkForward.trainMs: a train window of ${walk.inSampleBars} bars plus a test window of ` +
            `${walk.outSampleBars} bars is longer than the data the exchange has for the range (${bars.length} bars)`,
        );
        return;
      }
      const run: RunSettings = {
        ...settings.run,
        ...(inputs.fundingRates ? { fundingRates: inputs.fundingRates } : {}),
        ...(inputs.brackets.brackets ? { brackets: inputs.brackets.brackets } : {}),
      };
      const combos = expandGrid(settings.base, settings.space);
      const periodBars = statsPeriodBars(bars.length, settings.intervalMs);
      pool = new SweepPool(row.strategy, bars, run, { workers: this.deps.workers });
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
      await pending;
      const best = results[stats.bestIndex] as SweepResult;
      const stored = await optimisationRepository.complete(
        db,
        id,
        owner,
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
        clock.now(),
      );
      if (stored) await this.notify(userId, id, 'completed', 1);
    } catch (err) {
      if (err instanceof SweepAbortedError || signal.aborted) return;
      if (err instanceof EngineInputError || err instanceof StrategyError) {
        await fail(err.message);
        return;
      }
      this.deps.log.error({ err, optimisationId: id }, 'optimisation failed');
      await fail('The optimisation failed on the server; the error was logged');
    } finally {
      await pool?.close();
    }
  }

  private async progress(userId: string, id: string, progress: number): Promise<void> {
    const value = Math.min(1, Math.max(0, progress));
    try {
      if (await optimisationRepository.setProgress(this.deps.db, id, this.runner.owner, value)) {
        await this.notify(userId, id, 'running', value);
      }
    } catch (err) {
      this.deps.log.warn({ err, optimisationId: id }, 'optimisation progress not recorded');
    }
  }

  private async notify(
    userId: string,
    optimisationId: string,
    status: BacktestStatus,
    progress: number,
    error?: string,
  ): Promise<void> {
    const data: OptimisationNotice = {
      optimisationId,
      status,
      progress: Math.min(1, Math.max(0, progress)),
      time: this.deps.clock.now().getTime(),
      ...(error === undefined ? {} : { error }),
    };
    try {
      await this.deps.publish(userId, { kind: 'optimisation', data });
    } catch (err) {
      this.deps.log.warn({ err, optimisationId }, 'optimisation push failed');
    }
  }
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

function toSummary(row: OptimisationRow): OptimisationSummary {
  return {
    id: row.id,
    strategy: row.strategy,
    strategyName: row.strategy_name,
    symbol: row.symbol,
    interval: row.interval as OptimisationSummary['interval'],
    startTime: row.start_time,
    endTime: row.end_time,
    objective: row.objective as OptimisationObjective,
    combinations: row.combinations,
    walkForward: (row.request as { walkForward?: unknown }).walkForward !== undefined,
    status: row.status,
    progress: row.progress,
    createdAt: row.created_at.getTime(),
    finishedAt: row.finished_at ? row.finished_at.getTime() : null,
    error: row.error,
    stats: row.stats,
    best: row.best,
  };
}

function badRequest(message: string): HttpError {
  return new HttpError(400, 'INVALID_OPTIMISATION', `Invalid optimisation: ${message}`);
}

function notFound(): HttpError {
  return new HttpError(404, 'OPTIMISATION_NOT_FOUND', 'No such optimisation');
}
