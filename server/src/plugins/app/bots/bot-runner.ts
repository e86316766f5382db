import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../../lib/clock';
import type { Database } from '../../../lib/database/database';
import { type BotRow, botRepository } from './bot-repository';
import type { BotLog } from './bot-service';
import { BotFault, type BotSession, reasonOf } from './bot-session';
import type { PaperFigures } from './paper-account';

/**
 * How long a bot's lease holds without renewal. With a renewal every BOT_LEASE_RENEW_MS, a dead instance's bots are
 * taken over at most BOT_LEASE_MS + BOT_LEASE_RENEW_MS after its last renewal: 25 s, inside the 30 s promised
 */
export const BOT_LEASE_MS = 20_000;
/** Four renewals fit in a lease, so a slow database round trip or a little clock skew costs no bot */
export const BOT_LEASE_RENEW_MS = 5_000;

/** Messages on the bots channel: a bot to stop on whichever instance runs it */
const STOP_PREFIX = 'stop|';

export interface BotRunnerDeps {
  db: Database;
  clock: Clock;
  logger: FastifyBaseLogger;
  log: BotLog;
  /** NOTIFY channel shared by the instances on this database schema */
  channel: string;
  /** A session for the bot; `onFault` stops it */
  createSession(row: BotRow, onFault: (fault: BotFault) => void): BotSession;
  /** Period of the lease round (tests make it long and call `tick` themselves) */
  renewMs?: number;
}

/**
 * Which instance runs which bot, kept in the database like the backtest queue's leases (`backtest-runner.ts`):
 * an instance starting a bot takes its lease and renews it every BOT_LEASE_RENEW_MS while the bot runs; a bot the
 * owner wants running (`starting`/`running`) whose lease is free (its instance stopped and handed it back) or ran
 * out (its instance died) is claimed by the first instance whose lease round sees it, and resumed there. A bot
 * whose lease this instance no longer holds (stopped by its owner elsewhere, or taken over after a stall) is
 * stopped here at once, so at most one instance trades it. Stops travel on a LISTEN/NOTIFY channel; the lease round
 * covers a lost notification.
 */
export class BotRunner {
  /** This process's identity in `lease_owner` */
  readonly owner = randomUUID();
  private readonly sessions = new Map<string, BotSession>();
  private timer: ReturnType<typeof setInterval> | undefined;
  private unlisten: (() => Promise<void>) | undefined;
  private closed = false;
  /** The lease round in progress (one at a time) */
  private round: Promise<void> | undefined;
  private readonly active = new Set<Promise<unknown>>();

  constructor(private readonly deps: BotRunnerDeps) {}

  /** Ids of the bots running on this instance */
  get runningIds(): string[] {
    return [...this.sessions.keys()];
  }

  figures(id: string): PaperFigures | undefined {
    return this.sessions.get(id)?.figures();
  }

  async start(): Promise<void> {
    this.unlisten = await this.deps.db.listen(this.deps.channel, (payload) => this.receive(payload));
    this.timer = setInterval(() => void this.tick(), this.deps.renewMs ?? BOT_LEASE_RENEW_MS);
    this.timer.unref?.();
    await this.tick();
  }

  /** Starts a stopped bot here: lease taken, session opened, `started` recorded. Undefined when it is active */
  async startBot(row: BotRow): Promise<BotRow | undefined> {
    const now = this.deps.clock.now();
    const started = await botRepository.start(
      this.deps.db,
      row.user_id,
      row.id,
      this.owner,
      now,
      this.leaseUntil(),
    );
    if (!started) return undefined;
    await this.launch(started, 'started');
    return (await botRepository.find(this.deps.db, row.user_id, row.id)) ?? started;
  }

  /**
   * Stops an active bot wherever it runs (`state`: stopped, or error with the reason); the instance running it
   * cancels its orders and records the stop. Undefined when it was not active
   */
  async stopBot(row: BotRow, state: 'stopped' | 'error', reason: string): Promise<BotRow | undefined> {
    const stopped = await botRepository.stop(this.deps.db, row.id, state, reason, this.deps.clock.now());
    if (!stopped) return undefined;
    if (this.sessions.has(row.id)) {
      await this.end(row.id, 'stopped', reason);
    } else if (row.lease_owner && row.lease_owner !== this.owner) {
      await this.deps.db.query('SELECT pg_notify($1, $2)', [this.deps.channel, `${STOP_PREFIX}${row.id}`]);
    } else {
      // Nobody runs it (its instance died, the lease not yet taken over): the stop is recorded here
      await this.deps.log.record(row, 'stopped', reason, { sessionPnl: 0 });
    }
    return stopped;
  }

  /**
   * One lease round: renew this instance's leases (stopping the bots it no longer holds), then claim and resume
   * every free bot. Public for tests, which move the clock and call it instead of waiting for the timer
   */
  tick(): Promise<void> {
    if (this.closed) return Promise.resolve();
    this.round ??= this.leaseRound().finally(() => {
      this.round = undefined;
    });
    return this.round;
  }

  /** Resolves when no bot is being opened or stopped here */
  async idle(): Promise<void> {
    while (this.active.size > 0) await Promise.allSettled([...this.active]);
  }

  /** Stops the bots running here without stopping them for their owners: they are handed back for another instance */
  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    await this.round;
    await this.idle();
    const ids = this.runningIds;
    // The bots go on elsewhere: nothing is canceled (a live bot's dead-man switch covers a server that never returns)
    for (const session of this.sessions.values()) session.detach();
    this.sessions.clear();
    await this.unlisten?.().catch(() => {});
    try {
      await botRepository.release(this.deps.db, this.owner, ids);
    } catch (err) {
      // The database may be gone: the leases then run out and another instance takes the bots over
      this.deps.logger.warn({ err }, 'bots not handed back at shutdown; their leases will expire');
    }
  }

  private leaseUntil(): Date {
    return new Date(this.deps.clock.now().getTime() + BOT_LEASE_MS);
  }

  private async leaseRound(): Promise<void> {
    try {
      const ids = this.runningIds;
      const held = await botRepository.renew(this.deps.db, this.owner, ids, this.leaseUntil());
      for (const id of ids) {
        if (held.has(id)) continue;
        const session = this.sessions.get(id);
        if (!session) continue;
        const now = await botRepository.find(this.deps.db, session.row.user_id, id);
        if (now && (now.state === 'stopped' || now.state === 'error')) {
          // Stopped elsewhere and the notification was lost: stop and record it here
          await this.end(id, 'stopped', now.stop_reason ?? 'Stopped');
        } else {
          // Taken over by another instance (this one stalled past its lease): it trades the bot now, not us
          this.deps.logger.warn({ botId: id }, 'bot no longer held by this instance: stopping it here');
          this.sessions.get(id)?.detach();
          this.sessions.delete(id);
        }
      }
      while (!this.closed) {
        const row = await botRepository.claim(
          this.deps.db,
          this.owner,
          this.deps.clock.now(),
          this.leaseUntil(),
        );
        if (!row) break;
        await this.launch(row, 'resumed');
      }
    } catch (err) {
      this.deps.logger.warn({ err }, 'bot lease round failed');
    }
  }

  /** Opens the bot's session here; it is `running` once history is loaded and replayed */
  private async launch(row: BotRow, how: 'started' | 'resumed'): Promise<void> {
    const session = this.deps.createSession(row, (fault) => void this.fault(row, fault));
    this.sessions.set(row.id, session);
    const work = (async () => {
      try {
        await session.open();
      } catch (err) {
        await this.fault(
          row,
          err instanceof BotFault ? err : new BotFault(`The bot failed to start: ${reasonOf(err)}`),
        );
        return;
      }
      if (this.sessions.get(row.id) !== session) return;
      if (!(await botRepository.markRunning(this.deps.db, row.id, this.owner, this.deps.clock.now()))) {
        // Stopped while it was starting
        this.sessions.delete(row.id);
        await session.close();
        return;
      }
      const message =
        how === 'started'
          ? `Started: ${row.mode} trading on ${row.symbol} ${row.interval} closed candles`
          : `Resumed on this server: ${session.replayed} bars since the start replayed`;
      await this.deps.log.record(row, how, message, { owner: this.owner, replayedBars: session.replayed });
    })();
    this.track(work);
    await work;
  }

  /** A limit broke or the bot failed: stopped with state error (if this instance still holds it), and recorded */
  private async fault(row: BotRow, fault: BotFault): Promise<void> {
    const work = (async () => {
      const stopped = await botRepository.stop(
        this.deps.db,
        row.id,
        'error',
        fault.message,
        this.deps.clock.now(),
        this.owner,
      );
      if (!stopped) {
        // No longer ours (stopped or taken over meanwhile): whoever holds it now decides about its orders
        this.sessions.get(row.id)?.detach();
        this.sessions.delete(row.id);
        return;
      }
      await this.end(row.id, fault.kind, fault.message, fault.data);
    })().catch((err: unknown) => this.deps.logger.error({ err, botId: row.id }, 'bot stop failed'));
    this.track(work);
    await work;
  }

  /** Closes the session here (orders canceled) and records how it ended, with the session's PnL */
  private async end(
    id: string,
    kind: 'stopped' | 'risk_stop' | 'error',
    reason: string,
    data: Record<string, unknown> = {},
  ): Promise<void> {
    const session = this.sessions.get(id);
    if (!session) return;
    this.sessions.delete(id);
    let closed: { sessionPnl: number; canceled: number };
    try {
      closed = await session.close();
    } catch (err) {
      // The bot is stopped (its row says so); its orders could not all be canceled: say so, the owner must look
      await this.deps.log.record(
        session.row,
        'error',
        `Stopping: its orders could not be canceled: ${reasonOf(err)}`,
        {},
      );
      closed = { sessionPnl: 0, canceled: 0 };
    }
    const { sessionPnl, canceled } = closed;
    const words = canceled > 0 ? ` (${canceled} order${canceled === 1 ? '' : 's'} canceled)` : '';
    await this.deps.log.record(session.row, kind, `${reason}${words}`, { ...data, sessionPnl, canceled });
  }

  private receive(payload: string): void {
    if (!payload.startsWith(STOP_PREFIX)) return;
    const id = payload.slice(STOP_PREFIX.length);
    const session = this.sessions.get(id);
    if (!session) return;
    const work = (async () => {
      const row = await botRepository.find(this.deps.db, session.row.user_id, id);
      await this.end(id, 'stopped', row?.stop_reason ?? 'Stopped');
    })().catch((err: unknown) => this.deps.logger.error({ err, botId: id }, 'bot stop failed'));
    this.track(work);
  }

  private track(work: Promise<unknown>): void {
    this.active.add(work);
    void work.finally(() => this.active.delete(work));
  }
}
