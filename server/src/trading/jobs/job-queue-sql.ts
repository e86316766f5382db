import type { Queryable } from '../../lib/database/database';

/** A job's status, the same words for every kind (the contracts' BacktestStatus) */
export type JobStatus = 'queued' | 'running' | 'completed' | 'failed' | 'canceled';

/** What the job queue needs of a row */
export interface JobRow {
  id: string;
  user_id: string;
  status: JobStatus;
  progress: number;
}

/**
 * The queue's SQL over one jobs table: claims with a lease, renewals, take-backs and hand-backs, and the owner's
 * writes every kind makes (progress, failure, cancel, delete). A kind's completion stays its own (its results)
 */
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
  /** Progress of a job `owner` still holds; false when it no longer does (canceled, or taken back) */
  setProgress(db: Queryable, id: string, owner: string, progress: number): Promise<boolean>;
  /** running → failed by the instance running it; undefined when it was canceled or taken back meanwhile */
  fail(db: Queryable, id: string, owner: string, error: string, now: Date): Promise<Row | undefined>;
  /** queued/running → canceled; undefined when the job had already finished */
  cancel(db: Queryable, id: string, error: string, now: Date): Promise<Row | undefined>;
  /** Deletes a finished job of `userId`; false when it is queued, running or not theirs */
  delete(db: Queryable, userId: string, id: string): Promise<boolean>;
}

/**
 * The queue SQL of a jobs table with the shared queue columns (`seq`, `user_id`, `status`, `progress`,
 * `started_at`, `finished_at`, `error`, `lease_owner`, `lease_expires_at`, `attempts`): backtests, optimisations
 * and agent trainings share it. `table` and `columns` are constants of the caller, never user input.
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

    async setProgress(db, id, owner, progress) {
      const rows = await db.query(
        `UPDATE ${table} SET progress = $3 WHERE id = $1 AND status = 'running' AND lease_owner = $2 RETURNING id`,
        [id, owner, progress],
      );
      return rows.length > 0;
    },

    async fail(db, id, owner, error, now) {
      const rows = await db.query(
        `UPDATE ${table} SET status = 'failed', error = $3, finished_at = $4, lease_expires_at = NULL
          WHERE id = $1 AND status = 'running' AND lease_owner = $2 RETURNING ${columns}`,
        [id, owner, error, now],
      );
      return rows[0] ? toRow(rows[0]) : undefined;
    },

    async cancel(db, id, error, now) {
      const rows = await db.query(
        `UPDATE ${table} SET status = 'canceled', error = $2, finished_at = $3, lease_expires_at = NULL
          WHERE id = $1 AND status IN ('queued', 'running') RETURNING ${columns}`,
        [id, error, now],
      );
      return rows[0] ? toRow(rows[0]) : undefined;
    },

    async delete(db, userId, id) {
      const rows = await db.query(
        `DELETE FROM ${table} WHERE user_id = $1 AND id = $2 AND status NOT IN ('queued', 'running') RETURNING id`,
        [userId, id],
      );
      return rows.length > 0;
    },
  };
}

/** The owner's reads of a jobs table (its pages'): always addressed by the user, never by the id alone */
export interface OwnedJobReads<Row extends JobRow> {
  /** The user's jobs, newest first */
  list(db: Queryable, userId: string, limit: number): Promise<Row[]>;
  /** A job of `userId` by id, without the columns `columns` leaves out */
  find(db: Queryable, userId: string, id: string): Promise<Row | undefined>;
  /** `find` that also reads the large columns `extra` (a result the list leaves out) */
  findWith<Extra extends object>(
    extra: string,
  ): (db: Queryable, userId: string, id: string) => Promise<(Row & Extra) | undefined>;
}

/**
 * The owner's reads of a jobs table with a `seq` column. `table`, `columns` and `extra` are constants of the
 * caller, never user input; `toRow` keeps the columns it does not convert
 */
export function ownedJobReads<Row extends JobRow>(
  table: string,
  columns: string,
  toRow: (r: Record<string, unknown>) => Row,
): OwnedJobReads<Row> {
  const one = async (db: Queryable, userId: string, id: string, extra: string) => {
    const rows = await db.query(`SELECT ${columns}${extra} FROM ${table} WHERE user_id = $1 AND id = $2`, [
      userId,
      id,
    ]);
    return rows[0] ? toRow(rows[0]) : undefined;
  };
  return {
    async list(db, userId, limit) {
      const rows = await db.query(
        `SELECT ${columns} FROM ${table} WHERE user_id = $1 ORDER BY seq DESC LIMIT $2`,
        [userId, limit],
      );
      return rows.map(toRow);
    },
    find: (db, userId, id) => one(db, userId, id, ''),
    findWith:
      <Extra extends object>(extra: string) =>
      async (db: Queryable, userId: string, id: string) =>
        (await one(db, userId, id, `, ${extra}`)) as (Row & Extra) | undefined,
  };
}
