import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock, Timer } from '../../lib/clock';
import type { Database } from '../../lib/database/database';
import type { JobQueue, JobRow } from './job-queue-sql';

/** How long a claim holds without renewal: an instance silent for this long is taken for dead */
export const LEASE_MS = 30_000;
/**
 * How often an instance renews its leases, takes back expired ones and looks for queued runs (the last only as a
 * fallback: a new run wakes the instances through NOTIFY). Three renewals fit in a lease, so one slow database
 * round trip or a few seconds of clock skew between instances does not cost a run
 */
export const LEASE_RENEW_MS = 10_000;
/**
 * Claims a run gets before it is failed rather than queued again (the default; a kind may allow fewer). An instance dying mid-run (deploy, crash, lost
 * machine) says nothing about the run, which is deterministic and safe to repeat, so the user expects it to simply
 * finish elsewhere; but a run that itself takes its instance down (out of memory) would otherwise go round the
 * cluster for ever
 */
export const MAX_ATTEMPTS = 3;

export const INTERRUPTED_ERROR = 'The server stopped while this run was in progress; start it again';

/** Messages on the job channel: a new run to claim, or a run to stop on whichever instance runs it */
const WAKE = 'wake';
const CANCEL_PREFIX = 'cancel|';

export interface JobRunnerDeps<Row extends JobRow> {
  db: Database;
  clock: Clock;
  log: FastifyBaseLogger;
  /** NOTIFY channel shared by the instances on this database schema */
  channel: string;
  /** Runs at most this many at once on this instance */
  concurrency: number;
  /** Runs one claimed run; `signal` aborts when the run is canceled, taken back or the instance stops */
  execute(row: Row, signal: AbortSignal): Promise<void>;
  /** Tells the owner of a run whose status changed here without running (taken back: queued again or failed) */
  notify(row: Row, status: 'queued' | 'failed', error?: string): Promise<void>;
  /** The jobs table's queue SQL */
  queue: JobQueue<Row>;
  /** What the log calls a job ("backtest") */
  label: string;
  /** Claims before a job whose instance died is failed instead of queued again (default MAX_ATTEMPTS) */
  maxAttempts?: number;
  /** The message such a job fails with (default INTERRUPTED_ERROR) */
  interruptedError?: string;
  /**
   * At close, hand the jobs running here back to the queue for another instance (default true). False for a kind
   * whose `execute` records the stop itself when `stopping` is set (a training says the server stopped)
   */
  handBackOnClose?: boolean;
}

/**
 * The job queue of one kind, kept in the database and shared by every server instance on it. Each instance claims queued
 * runs (at most `concurrency` at once) with a lease it renews every LEASE_RENEW_MS; a run whose lease ran out (its
 * instance died) is queued again by whichever instance notices first, or failed after MAX_ATTEMPTS claims. New
 * runs and cancels travel on a LISTEN/NOTIFY channel: an idle instance claims at once, and the instance running a
 * canceled run stops its worker. The periodic tick covers a lost notification.
 */
export class JobRunner<Row extends JobRow> {
  /** This process's identity in `lease_owner` */
  readonly owner = randomUUID();
  private readonly running = new Map<string, AbortController>();
  /** Claims and runs in flight (for `idle`) */
  private readonly active = new Set<Promise<unknown>>();
  /** The claim loop in progress; resolves true when it stopped for lack of room (runs may be left queued) */
  private claiming: Promise<boolean> | undefined;
  private claimAgain = false;
  private closed = false;
  private timer: Timer | undefined;
  private unlisten: (() => Promise<void>) | undefined;

  private readonly queue: JobQueue<Row>;
  private readonly label: string;

  constructor(private readonly deps: JobRunnerDeps<Row>) {
    this.queue = deps.queue;
    this.label = deps.label;
  }

  /** True once `close` began: a job stopped now was stopped by the server, not by its owner */
  get stopping(): boolean {
    return this.closed;
  }

  /** Ids of the runs executing on this instance */
  get runningIds(): string[] {
    return [...this.running.keys()];
  }

  async start(): Promise<void> {
    this.unlisten = await this.deps.db.listen(this.deps.channel, (payload) => this.receive(payload));
    this.timer = this.deps.clock.every(LEASE_RENEW_MS, () => void this.tick(), { unref: true });
    await this.tick();
  }

  /**
   * A run was queued: this instance claims what it has room for, and wakes the others only when runs are left
   * over (so a run created on an idle instance starts there, without a race between instances)
   */
  async announce(): Promise<void> {
    if (await this.pump()) await this.deps.db.query('SELECT pg_notify($1, $2)', [this.deps.channel, WAKE]);
  }

  /** Stops a run wherever it runs (its row is already canceled: this only stops the work early) */
  async stop(id: string): Promise<void> {
    if (this.running.has(id)) {
      this.running.get(id)?.abort();
      return;
    }
    await this.deps.db.query('SELECT pg_notify($1, $2)', [this.deps.channel, `${CANCEL_PREFIX}${id}`]);
  }

  /**
   * One round of the periodic work: renew this instance's leases, take back expired ones, claim what fits. Public
   * for tests, which move the clock and call it instead of waiting for the timer
   */
  async tick(): Promise<void> {
    if (this.closed) return;
    try {
      await this.heartbeat();
      await this.reclaimExpired();
    } catch (err) {
      this.deps.log.warn({ err }, `${this.label} lease round failed`);
    }
    void this.pump();
  }

  /** Renews the leases of the runs executing here; a run no longer held (canceled, taken back) is stopped */
  async heartbeat(): Promise<void> {
    const ids = this.runningIds;
    if (ids.length === 0) return;
    const held = await this.queue.renew(this.deps.db, this.owner, ids, this.leaseUntil());
    for (const id of ids) {
      if (held.has(id)) continue;
      this.deps.log.info({ jobId: id }, `${this.label} no longer held by this instance: stopping it`);
      this.running.get(id)?.abort();
    }
  }

  /** Resolves when nothing is being claimed or executed here (queued runs may remain for other instances) */
  async idle(): Promise<void> {
    while (this.active.size > 0) await Promise.allSettled([...this.active]);
  }

  /** Stops claiming, stops the runs executing here and hands them back to the queue for another instance */
  async close(): Promise<void> {
    this.closed = true;
    this.timer?.cancel();
    // A claim already sent still lands (and registers its run): let it, so that run is stopped and handed back too
    await this.claiming;
    const ids = this.runningIds;
    for (const controller of this.running.values()) controller.abort();
    await this.idle();
    const stop = this.unlisten;
    this.unlisten = undefined;
    await stop?.().catch(() => {});
    if (this.deps.handBackOnClose === false) return;
    try {
      const released = await this.queue.release(this.deps.db, this.owner, ids);
      for (const row of released) await this.deps.notify(row, 'queued');
      if (released.length > 0) {
        await this.deps.db.query('SELECT pg_notify($1, $2)', [this.deps.channel, WAKE]);
      }
    } catch (err) {
      // The database may be gone already: the leases then run out and another instance takes the runs back
      this.deps.log.warn({ err }, `${this.label}s not handed back at shutdown; their leases will expire`);
    }
  }

  private get interruptedError(): string {
    return this.deps.interruptedError ?? INTERRUPTED_ERROR;
  }

  private leaseUntil(): Date {
    return new Date(this.deps.clock.now().getTime() + LEASE_MS);
  }

  private async reclaimExpired(): Promise<void> {
    const { requeued, failed } = await this.queue.reclaimExpired(
      this.deps.db,
      this.deps.clock.now(),
      this.deps.maxAttempts ?? MAX_ATTEMPTS,
      this.interruptedError,
    );
    for (const row of failed) await this.deps.notify(row, 'failed', this.interruptedError);
    for (const row of requeued) await this.deps.notify(row, 'queued');
    if (failed.length + requeued.length > 0) {
      this.deps.log.warn(
        { requeued: requeued.length, failed: failed.length },
        `${this.label}s of a stopped instance taken back`,
      );
    }
  }

  private receive(payload: string): void {
    if (payload === WAKE) {
      void this.pump();
      return;
    }
    if (payload.startsWith(CANCEL_PREFIX)) this.running.get(payload.slice(CANCEL_PREFIX.length))?.abort();
  }

  /**
   * Claims queued runs while this instance has room. One claim loop at a time: a wake arriving during it makes it
   * go round once more rather than start a second loop. Resolves true when it stopped for lack of room
   */
  private pump(): Promise<boolean> {
    if (this.closed) return Promise.resolve(false);
    if (this.claiming) {
      this.claimAgain = true;
      return this.claiming;
    }
    const loop: Promise<boolean> = this.claimLoop()
      .catch((err: unknown) => {
        this.deps.log.warn({ err }, `${this.label} claim failed`);
        return false;
      })
      .finally(() => {
        this.claiming = undefined;
        // A wake that came after the loop's last look: go round again (added before this loop leaves `active`)
        if (this.claimAgain) void this.pump();
        this.active.delete(loop);
      });
    this.claiming = loop;
    this.active.add(loop);
    return loop;
  }

  private async claimLoop(): Promise<boolean> {
    let full = false;
    do {
      this.claimAgain = false;
      full = false;
      while (!this.closed) {
        if (this.running.size >= this.deps.concurrency) {
          full = true;
          break;
        }
        const row = await this.queue.claim(
          this.deps.db,
          this.owner,
          this.deps.clock.now(),
          this.leaseUntil(),
        );
        if (!row) break;
        this.run(row);
      }
    } while (this.claimAgain && !this.closed);
    return full;
  }

  private run(row: Row): void {
    const controller = new AbortController();
    this.running.set(row.id, controller);
    const done = this.deps
      .execute(row, controller.signal)
      .catch((err: unknown) =>
        this.deps.log.error({ err, jobId: row.id }, `${this.label} bookkeeping failed`),
      )
      .finally(() => {
        this.running.delete(row.id);
        this.active.delete(done);
        // Room again: the next queued run, if any
        void this.pump();
      });
    this.active.add(done);
  }
}
