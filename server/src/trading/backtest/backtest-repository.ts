import type { BacktestBracketsSource, BacktestMetrics } from '@kestrel/contracts/backtest';
import type { Queryable } from '../../lib/database/database';
import { jobQueueSql, ownedJobReads } from '../jobs/job-queue-sql';
import type { BacktestOutcome } from './backtest-protocol';
import { insertRunJob, type NewRunJob, type RunJobRow, runJobNumbers } from './run-job-row';

/** A backtests row as the service uses it (bigints as numbers, jsonb parsed) */
export interface BacktestRow extends RunJobRow {
  metrics: BacktestMetrics | null;
  brackets_source: BacktestBracketsSource | null;
}

export type BacktestRowWithResult = BacktestRow & { result: Omit<BacktestOutcome, 'metrics'> | null };

/** Everything but the (large) result */
const COLUMNS = `id, user_id, strategy, strategy_name, symbol, interval, start_time, end_time, exchange_env, request,
  settings, status, progress, error, metrics, created_at, started_at, finished_at, lease_owner, attempts,
  brackets_source`;

const toRow = (r: Record<string, unknown>): BacktestRow => ({ ...r, ...runJobNumbers(r) }) as BacktestRow;
const reads = ownedJobReads<BacktestRow>('backtests', COLUMNS, toRow);

/** Thin SQL for backtest jobs; reads and deletes are always addressed by the owner */
export const backtestRepository = {
  async insert(db: Queryable, row: NewRunJob): Promise<BacktestRow> {
    return toRow(await insertRunJob(db, 'backtests', COLUMNS, row, {}));
  },

  list: reads.list,
  find: reads.find,
  findWithResult: reads.findWith<Pick<BacktestRowWithResult, 'result'>>('result'),

  ...jobQueueSql<BacktestRow>('backtests', COLUMNS, toRow),

  /** running → completed with the result; false when the run was canceled or taken back meanwhile */
  async complete(
    db: Queryable,
    id: string,
    owner: string,
    outcome: BacktestOutcome,
    bracketsSource: BacktestBracketsSource,
    now: Date,
  ): Promise<boolean> {
    const { metrics, ...result } = outcome;
    const rows = await db.query(
      `UPDATE backtests SET status = 'completed', progress = 1, metrics = $3, result = $4, brackets_source = $5,
          finished_at = $6, lease_expires_at = NULL
        WHERE id = $1 AND status = 'running' AND lease_owner = $2 RETURNING id`,
      [id, owner, JSON.stringify(metrics), JSON.stringify(result), bracketsSource, now],
    );
    return rows.length > 0;
  },
};
