import type { FastifyBaseLogger } from 'fastify';
import type { LiveEvent, PushTarget } from '../../core/socket/socket-bus';
import type { Clock } from '../../lib/clock';
import type { Database, Queryable } from '../../lib/database/database';
import { HttpError } from '../../lib/http-error';
import type { JobKind, RunningJob } from './job-kind';
import type { JobRow, JobStatus } from './job-queue-sql';
import type { JobQuota } from './job-quota';
import { JobRunner } from './job-runner';
import { Throttle } from './throttle';

/** Progress pushes (and their database writes) at most this often per job; status changes always go out */
export const PROGRESS_PUSH_INTERVAL_MS = 250;

export const CANCELED_ERROR = 'Canceled by the user';

export interface JobServiceDeps<Row extends JobRow> {
  db: Database;
  clock: Clock;
  log: FastifyBaseLogger;
  kind: JobKind<Row>;
  publish(target: PushTarget, event: LiveEvent): Promise<void>;
  /** NOTIFY channel of the kind's queue, shared by the instances on the database schema */
  channel: string;
  /** Jobs of this kind running at once on this instance (the rest wait queued, for this or another instance) */
  concurrency: number;
  /** The per-user cap on created and waiting jobs; none for a kind the user does not create by hand */
  quota?: JobQuota;
  /** See `JobRunnerDeps`: claims before a job of a dead instance is failed, its message, hand-back at close */
  maxAttempts?: number;
  interruptedError?: string;
  handBackOnClose?: boolean;
  /** Monotonic milliseconds for throttling progress pushes */
  monotonicNow?: () => number;
}

/**
 * The lifecycle every job kind shares: create (under the quota) → queued → claimed by the runner (leases,
 * worker room, wake-ups across instances) → running with throttled progress → completed, failed or canceled, each
 * change pushed to the owner's sockets as the kind's notice. The kind's own service keeps its request checks and
 * reads; its `execute` does the work.
 */
export class JobService<Row extends JobRow> {
  readonly runner: JobRunner<Row>;
  private readonly kind: JobKind<Row>;
  private readonly monotonicNow: () => number;

  constructor(private readonly deps: JobServiceDeps<Row>) {
    this.kind = deps.kind;
    this.monotonicNow = deps.monotonicNow ?? (() => performance.now());
    this.runner = new JobRunner<Row>({
      db: deps.db,
      clock: deps.clock,
      log: deps.log,
      channel: deps.channel,
      concurrency: deps.concurrency,
      queue: deps.kind.queue,
      label: deps.kind.label,
      ...(deps.maxAttempts === undefined ? {} : { maxAttempts: deps.maxAttempts }),
      ...(deps.interruptedError === undefined ? {} : { interruptedError: deps.interruptedError }),
      ...(deps.handBackOnClose === undefined ? {} : { handBackOnClose: deps.handBackOnClose }),
      execute: (row, signal) => this.execute(row, signal),
      notify: async (row, status, error) => {
        await this.kind.takenBack?.(row, status, error);
        await this.notify(row.user_id, row.id, status, row.progress, error);
      },
    });
  }

  /**
   * Stores a job queued (`insert` runs in the quota's transaction, when the kind has a quota), tells the owner and
   * wakes the runner
   */
  async create(userId: string, insert: (tx: Queryable) => Promise<Row>): Promise<Row> {
    const row = this.deps.quota
      ? await this.deps.quota.create(userId, insert)
      : await this.deps.db.transaction(insert);
    await this.notify(row.user_id, row.id, 'queued', 0);
    // The job is stored: should the wake-up fail, the instances' periodic claim still finds it
    await this.runner
      .announce()
      .catch((err: unknown) =>
        this.deps.log.warn({ err, jobId: row.id }, `${this.kind.label} wake-up failed`),
      );
    return row;
  }

  /** queued/running → canceled by its owner; 404 for another user's job, 409 once it has finished */
  async cancel(userId: string, id: string): Promise<Row> {
    const row = await this.kind.find(this.deps.db, userId, id);
    if (!row) throw this.kind.notFound();
    const canceled = await this.kind.queue.cancel(this.deps.db, id, CANCELED_ERROR, this.deps.clock.now());
    if (!canceled) {
      throw new HttpError(
        409,
        `${this.kind.code}_FINISHED`,
        `This ${this.kind.label} has already ${row.status === 'canceled' ? 'been canceled' : row.status}; nothing to cancel`,
      );
    }
    // The row says canceled already (a claim skips it, its runner's writes miss it); this stops the work early
    // (sent even for a job read as queued: an instance may have claimed it between that read and the cancel)
    await this.runner
      .stop(id)
      .catch((err: unknown) => this.deps.log.warn({ err, jobId: id }, `${this.kind.label} stop not sent`));
    await this.notify(userId, id, 'canceled', canceled.progress, CANCELED_ERROR);
    return canceled;
  }

  /** Deletes a finished job; 409 while it is queued or running */
  async delete(userId: string, id: string): Promise<void> {
    if (await this.kind.queue.delete(this.deps.db, userId, id)) return;
    const row = await this.kind.find(this.deps.db, userId, id);
    if (!row) throw this.kind.notFound();
    throw new HttpError(
      409,
      `${this.kind.code}_ACTIVE`,
      `This ${this.kind.label} is ${row.status}: cancel it before deleting it`,
    );
  }

  /** Starts taking jobs from the queue (and taking back the jobs of instances that stopped) */
  async start(): Promise<void> {
    await this.runner.start();
  }

  /** Resolves when nothing is being claimed or executed on this instance (queued jobs may remain) */
  async idle(): Promise<void> {
    await this.runner.idle();
  }

  /** Stops taking jobs; the running ones are stopped (and handed back to the queue unless the kind says not) */
  async close(): Promise<void> {
    await this.runner.close();
  }

  /** Runs one claimed job through its kind; every shared write is conditional on this instance still holding it */
  private async execute(row: Row, signal: AbortSignal): Promise<void> {
    const { db, clock, log } = this.deps;
    const { id, user_id: userId } = row;
    const owner = this.runner.owner;
    const runner = this.runner;
    await this.notify(userId, id, 'running', 0);
    const throttle = new Throttle(PROGRESS_PUSH_INTERVAL_MS, this.monotonicNow);
    let pending = Promise.resolve();
    const job: RunningJob<Row> = {
      signal,
      owner,
      get stopping() {
        return runner.stopping;
      },
      progress: (value) => {
        if (!throttle.ready()) return;
        pending = pending.then(() => this.progress(userId, id, value));
      },
      progressNow: (value) => {
        pending = pending.then(() => this.progress(userId, id, value));
        return pending;
      },
      settled: () => pending,
      fail: async (message) => {
        const failed = await this.kind.queue.fail(db, id, owner, message, clock.now());
        if (failed) await this.notify(userId, id, 'failed', failed.progress, message);
        return failed;
      },
      completed: () => this.notify(userId, id, 'completed', 1),
    };
    try {
      await this.kind.execute(row, job);
    } catch (err) {
      if (signal.aborted) return;
      log.error({ err, jobId: id }, `${this.kind.label} failed`);
      await job.fail(`The ${this.kind.label} failed on the server; the error was logged`);
    }
  }

  private async progress(userId: string, id: string, progress: number): Promise<void> {
    const value = Math.min(1, Math.max(0, progress));
    try {
      // A job canceled (or taken back) meanwhile gets no late "running" push that would revive it on the page
      if (await this.kind.queue.setProgress(this.deps.db, id, this.runner.owner, value)) {
        await this.notify(userId, id, 'running', value);
      }
    } catch (err) {
      this.deps.log.warn({ err, jobId: id }, `${this.kind.label} progress not recorded`);
    }
  }

  private async notify(
    userId: string,
    jobId: string,
    status: JobStatus,
    progress: number,
    error?: string,
  ): Promise<void> {
    const event = this.kind.notice({
      jobId,
      status,
      progress: Math.min(1, Math.max(0, progress)),
      time: this.deps.clock.now().getTime(),
      ...(error === undefined ? {} : { error }),
    });
    if (!event) return;
    try {
      await this.deps.publish(userId, event);
    } catch (err) {
      // A lost push only delays the page (it also polls the job); the job itself goes on
      this.deps.log.warn({ err, jobId }, `${this.kind.label} push failed`);
    }
  }
}

/**
 * What a kind's service answers through its `JobService` as it is, for a kind the user starts by hand (backtests,
 * optimisations): the owner's cancel (with the kind's summary) and delete, and the instance's start, idle and
 * close. The kind's own service adds its request checks and reads
 */
export abstract class UserJobService<Row extends JobRow, Summary> {
  protected constructor(
    /** The shared job lifecycle of the kind's table */
    readonly jobs: JobService<Row>,
    private readonly summaryOf: (row: Row) => Summary,
  ) {}

  /** The database queue: claims, leases, wake-ups and cancels across instances */
  get runner(): JobRunner<Row> {
    return this.jobs.runner;
  }

  async cancel(userId: string, id: string): Promise<Summary> {
    return this.summaryOf(await this.jobs.cancel(userId, id));
  }

  async delete(userId: string, id: string): Promise<void> {
    await this.jobs.delete(userId, id);
  }

  /** Starts taking jobs from the queue (and taking back the jobs of instances that stopped) */
  async start(): Promise<void> {
    await this.jobs.start();
  }

  /** Resolves when nothing is being claimed or executed on this instance (queued jobs may remain) */
  async idle(): Promise<void> {
    await this.jobs.idle();
  }

  /** Stops taking jobs; the running ones are stopped and handed back to the queue for another instance */
  async close(): Promise<void> {
    await this.jobs.close();
  }
}
