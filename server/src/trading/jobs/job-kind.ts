import type { LiveEvent } from '../../core/socket/socket-bus';
import type { Queryable } from '../../lib/database/database';
import type { HttpError } from '../../lib/http-error';
import type { JobQueue, JobRow, JobStatus } from './job-queue-sql';

/**
 * One kind of job (backtest, optimisation, agent training): its table, its socket notice and its work. The shared
 * `JobService` and `JobRunner` do the rest of the lifecycle (quota, queue, lease, cancel, progress, recovery), so
 * a kind is a small file that says only what is its own.
 */
export interface JobKind<Row extends JobRow> {
  /** What logs and answers call one job: "backtest" */
  readonly label: string;
  /** Prefix of the kind's error codes: "BACKTEST" gives BACKTEST_FINISHED (409 on cancel), BACKTEST_ACTIVE */
  readonly code: string;
  /** The table's queue SQL (`jobQueueSql`) */
  readonly queue: JobQueue<Row>;
  /** A job of `userId` by id (reads are always addressed by the owner) */
  find(db: Queryable, userId: string, id: string): Promise<Row | undefined>;
  /** The 404 of an unknown job */
  notFound(): HttpError;
  /**
   * The owner's socket notice of a status or progress change; undefined for a kind with no notice (a training's
   * state is read with the agent's status)
   */
  notice(change: JobChange): LiveEvent | undefined;
  /**
   * Runs one claimed job. A throw fails the job with a generic message (logged), unless `job.signal` aborted;
   * every write of the kind's own is conditional on `job.owner` still holding the job
   */
  execute(row: Row, job: RunningJob<Row>): Promise<void>;
  /**
   * A status the queue gave a job without the kind's `execute` (its instance died: queued again, or failed after
   * the last attempt), for a kind that mirrors its status elsewhere
   */
  takenBack?(row: Row, status: 'queued' | 'failed', error: string | undefined): Promise<void>;
}

/** A status or progress change of one job, as the owner's page hears it */
export interface JobChange {
  jobId: string;
  status: JobStatus;
  /** 0..1 */
  progress: number;
  /** Epoch milliseconds of the change (the service's clock) */
  time: number;
  error?: string;
}

/** What a kind's `execute` gets besides its row: the stop signal and the shared writes */
export interface RunningJob<Row extends JobRow> {
  /** Aborts when the job is canceled, taken back by another instance, or this instance closes */
  readonly signal: AbortSignal;
  /** This instance's `lease_owner`: the kind's completion write is conditional on it */
  readonly owner: string;
  /** True once the server is closing (the abort was the server's, not the owner's) */
  readonly stopping: boolean;
  /**
   * Progress (0..1) written and pushed at most every PROGRESS_PUSH_INTERVAL_MS; the writes go one after the other,
   * so a late one never overtakes the final status
   */
  progress(value: number): void;
  /** Progress now, after the pending ones, whatever the throttle says */
  progressNow(value: number): Promise<void>;
  /** Resolves when the pending progress writes are done (call before the completion write) */
  settled(): Promise<void>;
  /** running → failed with `message` (shown to the owner); nothing when the job is no longer held */
  fail(message: string): Promise<Row | undefined>;
  /** After the kind's own completion write held: the owner hears `completed` */
  completed(): Promise<void>;
}
