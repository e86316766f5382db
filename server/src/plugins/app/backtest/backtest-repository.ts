import type { BacktestMetrics, BacktestStatus } from '@kestrel/contracts';
import type { Queryable } from '../../../lib/database/database';
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
}

export type BacktestRowWithResult = BacktestRow & { result: Omit<BacktestOutcome, 'metrics'> | null };

/** Everything but the (large) result */
const COLUMNS = `id, user_id, strategy, strategy_name, symbol, interval, start_time, end_time, exchange_env, request,
  settings, status, progress, error, metrics, created_at, started_at, finished_at`;

// node-postgres returns bigint as a string, PGlite as a number or bigint
const toRow = <T extends BacktestRow>(r: Record<string, unknown>): T =>
  ({
    ...r,
    start_time: Number(r.start_time),
    end_time: Number(r.end_time),
    progress: Number(r.progress),
  }) as T;

/** Thin SQL for backtest jobs; reads and deletes are always addressed by the owner */
export const backtestRepository = {
  async insert(
    db: Queryable,
    row: Omit<BacktestRow, 'progress' | 'error' | 'metrics' | 'started_at' | 'finished_at'>,
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

  /** A run by id alone: for the job runner, which got the id from its own queue */
  async findForRun(db: Queryable, id: string): Promise<BacktestRow | undefined> {
    const rows = await db.query(`SELECT ${COLUMNS} FROM backtests WHERE id = $1`, [id]);
    return rows[0] ? toRow<BacktestRow>(rows[0]) : undefined;
  },

  /** queued → running; false when the run is no longer queued (canceled or deleted meanwhile) */
  async markRunning(db: Queryable, id: string, now: Date): Promise<boolean> {
    const rows = await db.query(
      `UPDATE backtests SET status = 'running', started_at = $2, progress = 0
        WHERE id = $1 AND status = 'queued' RETURNING id`,
      [id, now],
    );
    return rows.length > 0;
  },

  async setProgress(db: Queryable, id: string, progress: number): Promise<void> {
    await db.query(`UPDATE backtests SET progress = $2 WHERE id = $1 AND status = 'running'`, [id, progress]);
  },

  /** running → completed with the result; false when the run was canceled meanwhile */
  async complete(db: Queryable, id: string, outcome: BacktestOutcome, now: Date): Promise<boolean> {
    const { metrics, ...result } = outcome;
    const rows = await db.query(
      `UPDATE backtests SET status = 'completed', progress = 1, metrics = $2, result = $3, finished_at = $4
        WHERE id = $1 AND status = 'running' RETURNING id`,
      [id, JSON.stringify(metrics), JSON.stringify(result), now],
    );
    return rows.length > 0;
  },

  /** queued/running → failed or canceled; false when the run had already finished */
  async finish(
    db: Queryable,
    id: string,
    status: 'failed' | 'canceled',
    error: string,
    now: Date,
  ): Promise<BacktestRow | undefined> {
    const rows = await db.query(
      `UPDATE backtests SET status = $2, error = $3, finished_at = $4
        WHERE id = $1 AND status IN ('queued', 'running') RETURNING ${COLUMNS}`,
      [id, status, error, now],
    );
    return rows[0] ? toRow<BacktestRow>(rows[0]) : undefined;
  },

  async delete(db: Queryable, userId: string, id: string): Promise<boolean> {
    const rows = await db.query(
      `DELETE FROM backtests WHERE user_id = $1 AND id = $2 AND status NOT IN ('queued', 'running') RETURNING id`,
      [userId, id],
    );
    return rows.length > 0;
  },

  /** At start: runs left 'running' by a stopped server fail; queued ones are returned to be queued again */
  async recover(
    db: Queryable,
    error: string,
    now: Date,
  ): Promise<{ failed: BacktestRow[]; queued: BacktestRow[] }> {
    const failed = await db.query(
      `UPDATE backtests SET status = 'failed', error = $1, finished_at = $2 WHERE status = 'running'
        RETURNING ${COLUMNS}`,
      [error, now],
    );
    const queued = await db.query(`SELECT ${COLUMNS} FROM backtests WHERE status = 'queued' ORDER BY seq`);
    return {
      failed: failed.map((r) => toRow<BacktestRow>(r)),
      queued: queued.map((r) => toRow<BacktestRow>(r)),
    };
  },
};
