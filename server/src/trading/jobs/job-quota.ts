import type { Clock } from '../../lib/clock';
import type { Database, Queryable } from '../../lib/database/database';
import { HttpError } from '../../lib/http-error';

/** A user's limits on backtests and optimisation jobs, counted together (both use the same workers) */
export interface JobQuotaLimits {
  /** Jobs created in any rolling hour (`KESTREL_JOBS_PER_HOUR`) */
  perHour: number;
  /** Jobs queued or running at once (`KESTREL_JOBS_QUEUED`) */
  waiting: number;
}

/** The job tables the quota counts together: the kinds a user creates by hand (a training is the agent's own) */
export const QUOTA_TABLES = ['backtests', 'optimisations'] as const;

const HOUR_MS = 3_600_000;
/** When only the waiting cap is reached nobody knows when a job ends: ask again after about one claim round */
const WAITING_RETRY_S = 15;

/**
 * The per-user cap on job creation. Without it one user made 100 backtests in 2 s, each a worker's minutes, ahead
 * of everyone else's. `create` runs the check and the insert in one transaction under a per-user advisory lock, so
 * parallel requests are counted one after the other; the answer past a cap is 429 with Retry-After
 */
export class JobQuota {
  /** Every counted table's (status, created_at) rows of one user ($1); the table names are the constants above */
  private readonly jobsOfUser = QUOTA_TABLES.map(
    (table) => `SELECT status, created_at FROM ${table} WHERE user_id = $1`,
  ).join('\n                 UNION ALL\n                 ');

  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly limits: JobQuotaLimits,
  ) {}

  async create<T>(userId: string, insert: (tx: Queryable) => Promise<T>): Promise<T> {
    return this.db.transaction(async (tx) => {
      await tx.query("SELECT pg_advisory_xact_lock(hashtext('kestrel-jobs:' || $1))", [userId]);
      const now = this.clock.now();
      const since = new Date(now.getTime() - HOUR_MS);
      const [row] = await tx.query<{ waiting: number; recent: number; oldest: Date | null }>(
        `SELECT count(*) FILTER (WHERE status IN ('queued', 'running'))::int AS waiting,
                count(*) FILTER (WHERE created_at > $2)::int AS recent,
                min(created_at) FILTER (WHERE created_at > $2) AS oldest
           FROM (${this.jobsOfUser}) AS jobs`,
        [userId, since],
      );
      const recent = row?.recent ?? 0;
      if (recent >= this.limits.perHour) {
        const oldest = row?.oldest ? new Date(row.oldest).getTime() : now.getTime();
        const retryS = Math.max(1, Math.ceil((oldest + HOUR_MS - now.getTime()) / 1000));
        throw new HttpError(
          429,
          'JOB_QUOTA_EXCEEDED',
          `Too many backtests and optimisations: ${this.limits.perHour} an hour is the limit per user. The next one can start in ${retryS} seconds.`,
          { 'retry-after': String(retryS) },
        );
      }
      if ((row?.waiting ?? 0) >= this.limits.waiting) {
        throw new HttpError(
          429,
          'JOB_QUOTA_EXCEEDED',
          `Too many backtests and optimisations waiting: at most ${this.limits.waiting} may be queued or running at once per user. Wait for one to finish, or cancel one.`,
          { 'retry-after': String(WAITING_RETRY_S) },
        );
      }
      return insert(tx);
    });
  }
}
