import {
  axisValues,
  type OptimisationDetail,
  type OptimisationObjective,
  type OptimisationRequest,
  type OptimisationRow as OptimisationResultRowView,
  type OptimisationSummary,
} from '@kestrel/contracts/backtest';
import { expandGrid, type ParamSpace } from '@kestrel/engine';
import type { FastifyBaseLogger } from 'fastify';
import type { TradingAccount } from '../../core/environment/trading-account';
import type { LiveEvent, PushTarget } from '../../core/socket/socket-bus';
import type { Clock } from '../../lib/clock';
import type { Database } from '../../lib/database/database';
import { HttpError } from '../../lib/http-error';
import type { JobQuota } from '../jobs/job-quota';
import { JobService, UserJobService } from '../jobs/job-service';
import type { BacktestInputs } from './backtest-inputs';
import type { BacktestService } from './backtest-service';
import { type OptimisationSettings, optimisationJob, optimisationNotFound } from './optimisation-job';
import { type OptimisationRow, optimisationRepository } from './optimisation-repository';
import { jobProgress, jobSubject, queuedRunJob } from './run-job-row';

const LIST_LIMIT = 200;

export interface OptimisationServiceDeps {
  db: Database;
  /** Request checks and market inputs shared with single backtests */
  backtests: Pick<BacktestService, 'resolveRun' | 'venueOf'> & {
    inputs: Pick<BacktestInputs, 'loadRunInputs'>;
  };

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
export class OptimisationService extends UserJobService<OptimisationRow, OptimisationSummary> {
  constructor(private readonly deps: OptimisationServiceDeps) {
    const jobs = new JobService({
      db: deps.db,
      clock: deps.clock,
      log: deps.log,
      kind: optimisationJob({
        db: deps.db,
        inputs: deps.backtests.inputs,
        workers: deps.workers,
        clock: deps.clock,
      }),
      publish: deps.publish,
      channel: deps.channel,
      // One job at a time per instance, on all of its backtest worker threads
      concurrency: 1,
      quota: deps.quota,
      ...(deps.monotonicNow ? { monotonicNow: deps.monotonicNow } : {}),
    });
    super(jobs, toSummary);
  }

  async create(account: TradingAccount, request: OptimisationRequest): Promise<OptimisationSummary> {
    const { userId } = account;
    // The owner's current environment's market (the account the request resolved), like a backtest's
    const venue = this.deps.backtests.venueOf(account);
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
    const row = await this.jobs.create(userId, (tx) =>
      optimisationRepository.insert(tx, {
        ...queuedRunJob(userId, type, request, venue.exchangeEnv, this.deps.clock.now()),
        objective: request.objective,
        combinations: combos.length,
        parameters,
        request: request as unknown as Record<string, unknown>,
        settings: settings as unknown as Record<string, unknown>,
      }),
    );
    return toSummary(row);
  }

  async list(userId: string): Promise<OptimisationSummary[]> {
    return (await optimisationRepository.list(this.deps.db, userId, LIST_LIMIT)).map(toSummary);
  }

  async get(userId: string, id: string): Promise<OptimisationDetail> {
    const row = await optimisationRepository.findWithWalkForward(this.deps.db, userId, id);
    if (!row) throw optimisationNotFound();
    return {
      ...toSummary(row),
      request: row.request,
      parameters: row.parameters,
      walkForwardResult: row.walk_forward,
    };
  }

  async results(userId: string, id: string): Promise<OptimisationResultRowView[]> {
    const row = await optimisationRepository.find(this.deps.db, userId, id);
    if (!row) throw optimisationNotFound();
    return (await optimisationRepository.results(this.deps.db, id)).map((r) => ({
      index: r.idx,
      params: r.params,
      metrics: r.metrics,
      error: r.error,
    }));
  }
}

function toSummary(row: OptimisationRow): OptimisationSummary {
  return {
    ...jobSubject(row),
    objective: row.objective as OptimisationObjective,
    combinations: row.combinations,
    walkForward: (row.request as { walkForward?: unknown }).walkForward !== undefined,
    ...jobProgress(row),
    stats: row.stats,
    best: row.best,
  };
}

function badRequest(message: string): HttpError {
  return new HttpError(400, 'INVALID_OPTIMISATION', `Invalid optimisation: ${message}`);
}
