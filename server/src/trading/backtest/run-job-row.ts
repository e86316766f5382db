import { randomUUID } from 'node:crypto';
import type { BacktestStatus, BacktestSummary } from '@kestrel/contracts/backtest';
import type { Queryable } from '../../lib/database/database';

/**
 * What a backtests and an optimisations row both hold (bigints as numbers, jsonb parsed): the run they test (one
 * strategy over one symbol's bars of a range, on one exchange) and its place in the job queue
 */
export interface RunJobRow {
  id: string;
  user_id: string;
  strategy: string;
  strategy_name: string;
  symbol: string;
  interval: string;
  start_time: number;
  end_time: number;
  exchange_env: string;
  request: Record<string, unknown>;
  settings: Record<string, unknown>;
  status: BacktestStatus;
  progress: number;
  error: string | null;
  created_at: Date;
  started_at: Date | null;
  finished_at: Date | null;
  /** The instance that holds (or last held) the job */
  lease_owner: string | null;
  /** Times the job was claimed */
  attempts: number;
}

/** A new run job as its service stores it: queued, with its subject, request and settings */
export type NewRunJob = Pick<
  RunJobRow,
  | 'id'
  | 'user_id'
  | 'strategy'
  | 'strategy_name'
  | 'symbol'
  | 'interval'
  | 'start_time'
  | 'end_time'
  | 'exchange_env'
  | 'request'
  | 'settings'
  | 'status'
  | 'created_at'
>;

/** What a run job runs on, queued now for `userId`: `type` over the request's symbol, interval and range */
export function queuedRunJob(
  userId: string,
  type: { id: string; name: string },
  request: { symbol: string; interval: string; startTime: number; endTime: number },
  exchangeEnv: string,
  now: Date,
): Omit<NewRunJob, 'request' | 'settings'> {
  return {
    id: randomUUID(),
    user_id: userId,
    strategy: type.id,
    strategy_name: type.name,
    symbol: request.symbol,
    interval: request.interval,
    start_time: request.startTime,
    end_time: request.endTime,
    exchange_env: exchangeEnv,
    status: 'queued',
    created_at: now,
  };
}

/**
 * Inserts a run job into `table` with the kind's `own` columns (name → value, jsonb already a string), returning
 * `columns` of the new row. `table`, `columns` and the names of `own` are constants of the caller
 */
export async function insertRunJob(
  db: Queryable,
  table: string,
  columns: string,
  row: NewRunJob,
  own: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const values: Record<string, unknown> = {
    id: row.id,
    user_id: row.user_id,
    strategy: row.strategy,
    strategy_name: row.strategy_name,
    symbol: row.symbol,
    interval: row.interval,
    start_time: row.start_time,
    end_time: row.end_time,
    exchange_env: row.exchange_env,
    ...own,
    request: JSON.stringify(row.request),
    settings: JSON.stringify(row.settings),
    status: row.status,
    created_at: row.created_at,
  };
  const names = Object.keys(values);
  const rows = await db.query(
    `INSERT INTO ${table} (${names.join(', ')})
     VALUES (${names.map((_, i) => `$${i + 1}`).join(', ')})
     RETURNING ${columns}`,
    Object.values(values),
  );
  return rows[0] as Record<string, unknown>;
}

/** A run job's numbers as numbers: node-postgres returns bigint as a string, PGlite as a number or bigint */
export const runJobNumbers = (r: Record<string, unknown>) => ({
  start_time: Number(r.start_time),
  end_time: Number(r.end_time),
  progress: Number(r.progress),
  attempts: Number(r.attempts),
});

/** The contracts' `jobSubjectFields` of a row: what the job runs on */
export const jobSubject = (row: RunJobRow) => ({
  id: row.id,
  strategy: row.strategy,
  strategyName: row.strategy_name,
  symbol: row.symbol,
  interval: row.interval as BacktestSummary['interval'],
  startTime: row.start_time,
  endTime: row.end_time,
});

/** The contracts' `jobProgressFields` of a row: where the job is */
export const jobProgress = (row: RunJobRow) => ({
  status: row.status,
  progress: row.progress,
  createdAt: row.created_at.getTime(),
  finishedAt: row.finished_at ? row.finished_at.getTime() : null,
  error: row.error,
});
