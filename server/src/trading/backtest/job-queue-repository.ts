import type { Queryable } from '../../lib/database/database';

/** What the job queue needs of a row */
export interface JobRow {
  id: string;
  user_id: string;
}

/** The queue's SQL over one jobs table: claims with a lease, renewals, take-backs and hand-backs */
export interface JobQueue<Row extends JobRow> {
  claim(db: Queryable, owner: string, now: Date, leaseUntil: Date): Promise<Row | undefined>;
  renew(db: Queryable, owner: string, ids: readonly string[], leaseUntil: Date): Promise<Set<string>>;
  reclaimExpired(
    db: Queryable,
    now: Date,
    maxAttempts: number,
    error: string,
  ): Promise<{ requeued: Row[]; failed: Row[] }>;
  release(db: Queryable, owner: string, ids: readonly string[]): Promise<Row[]>;
}

/**
 * The queue SQL of a jobs table with the backtests' queue columns (`seq`, `user_id`, `status`, `progress`,
 * `started_at`, `finished_at`, `error`, `lease_owner`, `lease_expires_at`, `attempts`): backtests and optimisation
 * jobs share it. `table` and `columns` are constants of the caller, never user input.
 */
export function jobQueueSql<Row extends JobRow>(
  table: string,
  columns: string,
  toRow: (r: Record<string, unknown>) => Row,
): JobQueue<Row> {
  return {
    /**
     * Claims the next queued job for `owner` with a lease until `leaseUntil`: the oldest job of a user with nothing
     * running, else the oldest job (one user's batch does not hold everybody else up). Both walk the queue index in
     * order and stop at the first fit; COALESCE only tries the second when the first finds none. `SKIP LOCKED` lets
     * instances claim side by side without waiting on (or taking) each other's rows
     */
    async claim(db, owner, now, leaseUntil) {
      const rows = await db.query(
        `UPDATE ${table} SET status = 'running', started_at = $2, progress = 0, lease_owner = $1,
            lease_expires_at = $3, attempts = attempts + 1
          WHERE id = COALESCE(
            (SELECT q.id FROM ${table} q
              WHERE q.status = 'queued'
                AND NOT EXISTS (SELECT 1 FROM ${table} r WHERE r.user_id = q.user_id AND r.status = 'running')
              ORDER BY q.seq LIMIT 1 FOR UPDATE SKIP LOCKED),
            (SELECT q.id FROM ${table} q WHERE q.status = 'queued' ORDER BY q.seq LIMIT 1 FOR UPDATE SKIP LOCKED))
            AND status = 'queued'
          RETURNING ${columns}`,
        [owner, now, leaseUntil],
      );
      return rows[0] ? toRow(rows[0]) : undefined;
    },

    /**
     * Extends `owner`'s leases on `ids`; returns the ids it still holds. A missing id was canceled, or its lease ran
     * out and another instance took the job back: its worker must stop
     */
    async renew(db, owner, ids, leaseUntil) {
      if (ids.length === 0) return new Set();
      const rows = await db.query<{ id: string }>(
        `UPDATE ${table} SET lease_expires_at = $3
          WHERE id = ANY($2::uuid[]) AND status = 'running' AND lease_owner = $1 RETURNING id`,
        [owner, ids, leaseUntil],
      );
      return new Set(rows.map((r) => r.id));
    },

    /**
     * Jobs whose lease expired before `now` (their instance died or lost the database): back to the queue, or
     * failed with `error` once they have been claimed `maxAttempts` times. A row is taken by one caller only (the
     * UPDATE re-checks the lease after waiting on a concurrent renewal)
     */
    async reclaimExpired(db, now, maxAttempts, error) {
      const expired = `status = 'running' AND (lease_expires_at IS NULL OR lease_expires_at < $1)`;
      const failed = await db.query(
        `UPDATE ${table} SET status = 'failed', error = $3, finished_at = $1, lease_expires_at = NULL
          WHERE ${expired} AND attempts >= $2 RETURNING ${columns}`,
        [now, maxAttempts, error],
      );
      const requeued = await db.query(
        `UPDATE ${table} SET status = 'queued', progress = 0, started_at = NULL, lease_owner = NULL,
            lease_expires_at = NULL
          WHERE ${expired} AND attempts < $2 RETURNING ${columns}`,
        [now, maxAttempts],
      );
      return { requeued: requeued.map(toRow), failed: failed.map(toRow) };
    },

    /**
     * A stopping instance hands its jobs back to the queue at once (not counted as an attempt), so another
     * instance goes on without waiting for the lease to run out
     */
    async release(db, owner, ids) {
      if (ids.length === 0) return [];
      const rows = await db.query(
        `UPDATE ${table} SET status = 'queued', progress = 0, started_at = NULL, lease_owner = NULL,
            lease_expires_at = NULL, attempts = GREATEST(attempts - 1, 0)
          WHERE id = ANY($2::uuid[]) AND status = 'running' AND lease_owner = $1 RETURNING ${columns}`,
        [owner, ids],
      );
      return rows.map(toRow);
    },
  };
}
