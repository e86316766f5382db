import type {
  BacktestMetrics,
  OptimisationStats,
  OptimisationSummary,
  WalkForwardResult,
} from '@kestrel/contracts/backtest';
import type { Database, Queryable } from '../../lib/database/database';
import { jobQueueSql, ownedJobReads } from '../jobs/job-queue-sql';
import { insertRunJob, type NewRunJob, type RunJobRow, runJobNumbers } from './run-job-row';

/** An optimisations row as the service uses it (bigints as numbers, jsonb parsed) */
export interface OptimisationRow extends RunJobRow {
  objective: string;
  combinations: number;
  parameters: string[];
  stats: OptimisationStats | null;
  best: OptimisationSummary['best'];
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

const toRow = (r: Record<string, unknown>): OptimisationRow =>
  ({ ...r, ...runJobNumbers(r), combinations: Number(r.combinations) }) as OptimisationRow;
const reads = ownedJobReads<OptimisationRow>('optimisations', COLUMNS, toRow);

/** Rows per INSERT of results: 20,000 combinations go in 20 statements */
const RESULT_CHUNK = 1_000;

/** Thin SQL for optimisation jobs; reads and deletes are always addressed by the owner */
export const optimisationRepository = {
  async insert(
    db: Queryable,
    row: NewRunJob & Pick<OptimisationRow, 'objective' | 'combinations' | 'parameters'>,
  ): Promise<OptimisationRow> {
    const own = {
      objective: row.objective,
      combinations: row.combinations,
      parameters: JSON.stringify(row.parameters),
    };
    return toRow(await insertRunJob(db, 'optimisations', COLUMNS, row, own));
  },

  list: reads.list,
  find: reads.find,
  findWithWalkForward: reads.findWith<Pick<OptimisationRowWithWalkForward, 'walk_forward'>>('walk_forward'),

  async results(db: Queryable, id: string): Promise<OptimisationResultRow[]> {
    const rows = await db.query<OptimisationResultRow>(
      'SELECT idx, params, metrics, error FROM optimisation_results WHERE optimisation_id = $1 ORDER BY idx',
      [id],
    );
    return rows.map((r) => ({ ...r, idx: Number(r.idx) }));
  },

  ...jobQueueSql<OptimisationRow>('optimisations', COLUMNS, toRow),

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
