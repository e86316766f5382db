import type { BacktestBracketsSource, BacktestMetrics, BacktestStatus } from '@kestrel/contracts/backtest';
import type { Queryable } from '../../lib/database/database';
import { jobQueueSql } from '../jobs/job-queue-sql';
import type { BacktestOutcome } from './backtest-protocol';

/** A backtests row as the service uses it (bigints as numbers, jsonb parsed) */
export interface BacktestRow {
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
  metrics: BacktestMetrics | null;
  created_at: Date;
  started_at: Date | null;
  finished_at: Date | null;
  /** The instance that holds (or last held) the run */
  lease_owner: string | null;
  /** Times the run was claimed */
  attempts: number;
  brackets_source: BacktestBracketsSource | null;
}

export type BacktestRowWithResult = BacktestRow & { result: Omit<BacktestOutcome, 'metrics'> | null };

/** Everything but the (large) result */
const COLUMNS = `id, user_id, strategy, strategy_name, symbol, interval, start_time, end_time, exchange_env, request,
  settings, status, progress, error, metrics, created_at, started_at, finished_at, lease_owner, attempts,
  brackets_source`;

// node-postgres returns bigint as a string, PGlite as a number or bigint
const toRow = <T extends BacktestRow>(r: Record<string, unknown>): T =>
  ({
    ...r,
    start_time: Number(r.start_time),
    end_time: Number(r.end_time),
    progress: Number(r.progress),
    attempts: Number(r.attempts),
  }) as T;

/** Thin SQL for backtest jobs; reads and deletes are always addressed by the owner */
export const backtestRepository = {
  async insert(
    db: Queryable,
    row: Omit<
      BacktestRow,
      | 'progress'
      | 'error'
      | 'metrics'
      | 'started_at'
      | 'finished_at'
      | 'lease_owner'
      | 'attempts'
      | 'brackets_source'
    >,
  ) {
    const rows = await db.query(
      `INSERT INTO backtests (id, user_id, strategy, strategy_name, symbol, interval, start_time, end_time,
         exchange_env, request, settings, status, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)
       RETURNING ${COLUMNS}`,
      [
        row.id,
        row.user_id,
        row.strategy,
        row.strategy_name,
        row.symbol,
        row.interval,
        row.start_time,
        row.end_time,
        row.exchange_env,
        JSON.stringify(row.request),
        JSON.stringify(row.settings),
        row.status,
        row.created_at,
      ],
    );
    return toRow<BacktestRow>(rows[0] as Record<string, unknown>);
  },

  async list(db: Queryable, userId: string, limit: number): Promise<BacktestRow[]> {
    const rows = await db.query(
      `SELECT ${COLUMNS} FROM backtests WHERE user_id = $1 ORDER BY seq DESC LIMIT $2`,
      [userId, limit],
    );
    return rows.map((r) => toRow<BacktestRow>(r));
  },

  async find(db: Queryable, userId: string, id: string): Promise<BacktestRow | undefined> {
    const rows = await db.query(`SELECT ${COLUMNS} FROM backtests WHERE user_id = $1 AND id = $2`, [
      userId,
      id,
    ]);
    return rows[0] ? toRow<BacktestRow>(rows[0]) : undefined;
  },

  async findWithResult(
    db: Queryable,
    userId: string,
    id: string,
  ): Promise<BacktestRowWithResult | undefined> {
    const rows = await db.query(`SELECT ${COLUMNS}, result FROM backtests WHERE user_id = $1 AND id = $2`, [
      userId,
      id,
    ]);
    return rows[0] ? toRow<BacktestRowWithResult>(rows[0]) : undefined;
  },

  ...jobQueueSql<BacktestRow>('backtests', COLUMNS, (r) => toRow<BacktestRow>(r)),

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
