import type {
  BacktestMetrics,
  BacktestStatus,
  OptimisationStats,
  OptimisationSummary,
  WalkForwardResult,
} from '@kestrel/contracts/backtest';
import type { Database, Queryable } from '../../lib/database/database';
import { jobQueueSql } from '../jobs/job-queue-sql';

/** An optimisations row as the service uses it (bigints as numbers, jsonb parsed) */
export interface OptimisationRow {
  id: string;
  user_id: string;
  strategy: string;
  strategy_name: string;
  symbol: string;
  interval: string;
  start_time: number;
  end_time: number;
  exchange_env: string;
  objective: string;
  combinations: number;
  parameters: string[];
  request: Record<string, unknown>;
  settings: Record<string, unknown>;
  status: BacktestStatus;
  progress: number;
  error: string | null;
  stats: OptimisationStats | null;
  best: OptimisationSummary['best'];
  created_at: Date;
  started_at: Date | null;
  finished_at: Date | null;
  lease_owner: string | null;
  attempts: number;
}

export type OptimisationRowWithWalkForward = OptimisationRow & { walk_forward: WalkForwardResult | null };

/** One combination's outcome as stored */
export type OptimisationResultRow = {
  idx: number;
  params: Record<string, unknown>;
  metrics: BacktestMetrics | null;
  error: string | null;
};

/** Everything but the walk-forward result */
const COLUMNS = `id, user_id, strategy, strategy_name, symbol, interval, start_time, end_time, exchange_env, objective,
  combinations, parameters, request, settings, status, progress, error, stats, best, created_at, started_at,
  finished_at, lease_owner, attempts`;

const toRow = <T extends OptimisationRow>(r: Record<string, unknown>): T =>
  ({
    ...r,
    start_time: Number(r.start_time),
    end_time: Number(r.end_time),
    progress: Number(r.progress),
    attempts: Number(r.attempts),
    combinations: Number(r.combinations),
  }) as T;

/** Rows per INSERT of results: 20,000 combinations go in 20 statements */
const RESULT_CHUNK = 1_000;

/** Thin SQL for optimisation jobs; reads and deletes are always addressed by the owner */
export const optimisationRepository = {
  async insert(
    db: Queryable,
    row: Omit<
      OptimisationRow,
      'progress' | 'error' | 'stats' | 'best' | 'started_at' | 'finished_at' | 'lease_owner' | 'attempts'
    >,
  ): Promise<OptimisationRow> {
    const rows = await db.query(
      `INSERT INTO optimisations (id, user_id, strategy, strategy_name, symbol, interval, start_time, end_time,
         exchange_env, objective, combinations, parameters, request, settings, status, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16)
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
        row.objective,
        row.combinations,
        JSON.stringify(row.parameters),
        JSON.stringify(row.request),
        JSON.stringify(row.settings),
        row.status,
        row.created_at,
      ],
    );
    return toRow<OptimisationRow>(rows[0] as Record<string, unknown>);
  },

  async list(db: Queryable, userId: string, limit: number): Promise<OptimisationRow[]> {
    const rows = await db.query(
      `SELECT ${COLUMNS} FROM optimisations WHERE user_id = $1 ORDER BY seq DESC LIMIT $2`,
      [userId, limit],
    );
    return rows.map((r) => toRow<OptimisationRow>(r));
  },

  async find(db: Queryable, userId: string, id: string): Promise<OptimisationRow | undefined> {
    const rows = await db.query(`SELECT ${COLUMNS} FROM optimisations WHERE user_id = $1 AND id = $2`, [
      userId,
      id,
    ]);
    return rows[0] ? toRow<OptimisationRow>(rows[0]) : undefined;
  },

  async findWithWalkForward(
    db: Queryable,
    userId: string,
    id: string,
  ): Promise<OptimisationRowWithWalkForward | undefined> {
    const rows = await db.query(
      `SELECT ${COLUMNS}, walk_forward FROM optimisations WHERE user_id = $1 AND id = $2`,
      [userId, id],
    );
    return rows[0] ? toRow<OptimisationRowWithWalkForward>(rows[0]) : undefined;
  },

  async results(db: Queryable, id: string): Promise<OptimisationResultRow[]> {
    const rows = await db.query<OptimisationResultRow>(
      'SELECT idx, params, metrics, error FROM optimisation_results WHERE optimisation_id = $1 ORDER BY idx',
      [id],
    );
    return rows.map((r) => ({ ...r, idx: Number(r.idx) }));
  },

  ...jobQueueSql<OptimisationRow>('optimisations', COLUMNS, (r) => toRow<OptimisationRow>(r)),

  /**
   * running → completed with every combination's result, the statistics, the best one and the walk-forward, in
   * one transaction; false (nothing written) when the job was canceled or taken back meanwhile
   */
  async complete(
    db: Pick<Database, 'transaction'>,
    id: string,
    owner: string,
    outcome: {
      results: readonly OptimisationResultRow[];
      stats: OptimisationStats;
      best: NonNullable<OptimisationSummary['best']>;
      walkForward: WalkForwardResult | null;
    },
    now: Date,
  ): Promise<boolean> {
    return db.transaction(async (tx) => {
      // Lock the row first: a cancel arriving meanwhile waits, then finds it completed
      const held = await tx.query(
        `SELECT id FROM optimisations WHERE id = $1 AND status = 'running' AND lease_owner = $2 FOR UPDATE`,
        [id, owner],
      );
      if (held.length === 0) return false;
      for (let from = 0; from < outcome.results.length; from += RESULT_CHUNK) {
        const chunk = outcome.results.slice(from, from + RESULT_CHUNK);
        await tx.query(
          `INSERT INTO optimisation_results (optimisation_id, idx, params, metrics, error)
           SELECT $1, r.idx, r.params, r.metrics, r.error
             FROM jsonb_to_recordset($2::jsonb) AS r(idx integer, params jsonb, metrics jsonb, error text)`,
          [id, JSON.stringify(chunk)],
        );
      }
      await tx.query(
        `UPDATE optimisations SET status = 'completed', progress = 1, stats = $2, best = $3, walk_forward = $4,
            finished_at = $5, lease_expires_at = NULL
          WHERE id = $1`,
        [
          id,
          JSON.stringify(outcome.stats),
          JSON.stringify(outcome.best),
          outcome.walkForward === null ? null : JSON.stringify(outcome.walkForward),
          now,
        ],
      );
      return true;
    });
  },
};
