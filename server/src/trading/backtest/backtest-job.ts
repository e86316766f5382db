import { BACKTEST_MAX_EQUITY_POINTS, BACKTEST_MAX_TRADES } from '@kestrel/contracts/backtest';
import type { FastifyBaseLogger } from 'fastify';
import { exchangeCallsAs, userCaller } from '../../core/exchange/weight-budget';
import type { Clock } from '../../lib/clock';
import type { Database } from '../../lib/database/database';
import { HttpError } from '../../lib/http-error';
import type { JobKind, RunningJob } from '../jobs/job-kind';
import { type BacktestInputs, jobRunInputs, runSettingsWith, type StoredSettings } from './backtest-inputs';
import type { BacktestTask } from './backtest-protocol';
import { type BacktestRow, backtestRepository } from './backtest-repository';
import { BacktestCanceledError, type BacktestWorkers } from './backtest-workers';

/** Share of the progress bar the kline download takes; the engine run and storing take the rest */
const FETCH_SHARE = 0.9;

export const backtestNotFound = (): HttpError => new HttpError(404, 'BACKTEST_NOT_FOUND', 'No such backtest');

export interface BacktestJobDeps {
  db: Database;
  inputs: Pick<BacktestInputs, 'loadRunInputs'>;
  workers: BacktestWorkers;
  clock: Clock;
  log: FastifyBaseLogger;
}

/**
 * A backtest as a job kind: klines from the cache (the missing spans from the exchange), funding and the symbol's
 * leverage brackets, the engine in a worker thread, the result stored with the run. Notices go out as
 * `notifications/backtest`
 */
export function backtestJob(deps: BacktestJobDeps): JobKind<BacktestRow> {
  const execute = async (row: BacktestRow, job: RunningJob<BacktestRow>): Promise<void> => {
    const settings = row.settings as unknown as StoredSettings;
    const params = (row.request as { params: Record<string, unknown> }).params;
    try {
      const inputs = await jobRunInputs(deps.inputs, row, settings, job, FETCH_SHARE);
      if (!inputs) return;
      await job.progressNow(FETCH_SHARE);
      const task: BacktestTask = {
        strategy: row.strategy,
        params,
        settings: runSettingsWith(settings.run, inputs),
        intervalMs: settings.intervalMs,
        ...inputs.bars,
        maxEquityPoints: BACKTEST_MAX_EQUITY_POINTS,
        maxTrades: BACKTEST_MAX_TRADES,
      };
      const reply = await deps.workers.run(task, job.signal);
      if (!reply.ok) {
        if (reply.kind === 'internal')
          deps.log.error({ backtestId: row.id, reason: reply.message }, 'backtest failed');
        await job.fail(reply.kind === 'internal' ? `The backtest failed: ${reply.message}` : reply.message);
        return;
      }
      const now = deps.clock.now();
      if (
        await backtestRepository.complete(
          deps.db,
          row.id,
          job.owner,
          reply.outcome,
          inputs.brackets.source,
          now,
        )
      ) {
        await job.completed();
      }
    } catch (err) {
      if (err instanceof BacktestCanceledError) return;
      throw err;
    }
  };
  return {
    label: 'backtest',
    code: 'BACKTEST',
    queue: backtestRepository,
    find: backtestRepository.find,
    notFound: backtestNotFound,
    notice: ({ jobId, ...change }) => ({ kind: 'backtest', data: { backtestId: jobId, ...change } }),
    // A run's exchange calls (candle pages, funding, brackets) go in the budget's background lane: they use what
    // interactive callers leave and wait for the next minute instead of failing; a cancel ends the wait
    execute: (row, job) =>
      exchangeCallsAs({ caller: userCaller(row.user_id), lane: 'background', signal: job.signal }, () =>
        execute(row, job),
      ),
  };
}
