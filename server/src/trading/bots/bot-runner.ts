import { randomUUID } from 'node:crypto';
import type { KlineInterval } from '@kestrel/contracts';
import type { TradeSignal } from '@kestrel/engine';
import type { Timer } from '../../lib/clock';
import { botLeaseRepository } from './bot-lease-repository';
import { type BotEndState, type BotRow, botRepository, type HedgeSide } from './bot-repository';
import type { PaperFigures } from './bot-step';
import { firstTradedBar } from './session-bars';
import { SessionSupervisor, type SessionSupervisorDeps } from './session-supervisor';
import type { SignalTaken } from './signals/signal-words';

/**
 * How long a bot's lease holds without renewal. With a renewal every BOT_LEASE_RENEW_MS, a dead instance's bots are
 * claimed by another at most BOT_LEASE_MS + BOT_LEASE_RENEW_MS after its last renewal (15 s), leaving the other half
 * of the 30 s promised for opening the session and replaying its bars on a loaded machine (`bots-processes.test.ts`
 * measured 12.6–17.4 s from a kill -9 to the bot trading elsewhere at a load of ~18 on 2 cores; the 20 s + 5 s of
 * the first version measured 27.8 s). Shorter still would lose bots to an instance that merely stalls: this one
 * survives three missed renewals in a row (a 9 s stall: GC, a busy event loop, a slow database)
 */
export const BOT_LEASE_MS = 12_000;
/** Four renewals fit in a lease, so a slow database round trip or a little clock skew costs no bot */
export const BOT_LEASE_RENEW_MS = 3_000;

/** Messages on the bots channel: a bot to stop (or pause) on whichever instance runs it */
const STOP_PREFIX = 'stop|';
/** …and a bot with a signal waiting for it (received by another instance) */
const SIGNAL_PREFIX = 'signal|';

/** The state a `stopping` bot ends in, as its stop asked */
const endOf = (row: BotRow | undefined): BotEndState => row?.stop_state ?? 'stopped';

export interface BotRunnerDeps extends SessionSupervisorDeps {
  /** NOTIFY channel shared by the instances on this database schema */
  channel: string;
  /** Period of the lease round (tests make it long and call `tick` themselves) */
  renewMs?: number;
  /**
   * Hands the signals waiting for these bots (all run here) to their sessions: at each lease round, and when the
   * instance that received one wakes this one
   */
  deliverSignals(running: readonly BotRow[]): Promise<void>;
}

/**
 * Which instance runs which bot, kept in the database like the job queue's leases (`trading/jobs/job-runner.ts`):
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
  /** The sessions of the bots this instance holds: opened, run, ended as their stops ask */
  private readonly sessions: SessionSupervisor;
  private timer: Timer | undefined;
  private unlisten: (() => Promise<void>) | undefined;
  private closed = false;
  /** The lease round in progress (one at a time) */
  private round: Promise<void> | undefined;

  constructor(private readonly deps: BotRunnerDeps) {
    this.sessions = new SessionSupervisor(deps, this.owner);
  }

  /** Ids of the bots running on this instance */
  get runningIds(): string[] {
    return this.sessions.runningIds;
  }

  figures(id: string): PaperFigures | undefined {
    return this.sessions.figures(id);
  }

  runsHere(botId: string): boolean {
    return this.sessions.runs(botId);
  }

  /** Hands a trade signal to the bot's session here; undefined when no session runs it on this instance */
  signal(botId: string, key: string, signal: TradeSignal): Promise<SignalTaken> | undefined {
    return this.sessions.session(botId)?.signal(key, signal);
  }

  /** Wakes the instance running the bot: a signal waits for it in the record */
  async wake(botId: string): Promise<void> {
    await this.deps.db.query('SELECT pg_notify($1, $2)', [this.deps.channel, `${SIGNAL_PREFIX}${botId}`]);
  }

  async start(): Promise<void> {
    this.unlisten = await this.deps.db.listen(this.deps.channel, (payload) => this.receive(payload));
    this.timer = this.deps.clock.every(this.deps.renewMs ?? BOT_LEASE_RENEW_MS, () => void this.tick(), {
      unref: true,
    });
    await this.tick();
  }

  /**
   * Starts a stopped (or paused) bot here: lease taken, session opened, `started` recorded. A paused bot's orders
   * left standing are canceled first: its strategy lays its orders anew from the price now, and two sets would
   * stand should an instance take the new session over before it did. Undefined when it is active
   */
  async startBot(
    row: BotRow,
    options: { sharesSymbol?: boolean; positionSide?: HedgeSide } = {},
  ): Promise<BotRow | undefined> {
    if (row.state === 'paused') await this.sessions.cancelLeftByPause(row);
    const now = this.deps.clock.now();
    const started = await botLeaseRepository.start(
      this.deps.db,
      row.user_id,
      row.id,
      this.owner,
      now,
      this.leaseUntil(),
      new Date(firstTradedBar(row.interval as KlineInterval, now.getTime())),
      options,
    );
    if (!started) return undefined;
    await this.sessions.launch(started, 'started');
    return (await botRepository.find(this.deps.db, row.user_id, row.id)) ?? started;
  }

  /**
   * Stops an active (or paused) bot wherever it runs (`state`: stopped, error with the reason, or paused: its
   * orders left standing). It is `stopping` while the instance running it cancels its orders (or keeps them), then
   * `state`. Answers the bot as it then stands (`stopping` while another instance is at it), or undefined when it
   * was not active
   */
  async stopBot(row: BotRow, state: BotEndState, reason: string): Promise<BotRow | undefined> {
    const stopping = await botRepository.beginStop(
      this.deps.db,
      row.id,
      state,
      reason,
      this.deps.clock.now(),
    );
    if (!stopping) return undefined;
    // Asked by a caller (the owner, the kill switch): its line says stopped, whatever state it ends in, or paused
    const kind = state === 'paused' ? 'paused' : 'stopped';
    if (this.sessions.runs(row.id)) return (await this.sessions.stopHere(row.id, kind, reason)) ?? stopping;
    if (stopping.lease_owner && stopping.lease_owner !== this.owner) {
      await this.deps.db.query('SELECT pg_notify($1, $2)', [this.deps.channel, `${STOP_PREFIX}${row.id}`]);
    }
    // Nobody runs it (its instance died, the lease not yet taken over): the stop is finished here
    const taken = await botLeaseRepository.takeStop(
      this.deps.db,
      row.id,
      this.owner,
      this.deps.clock.now(),
      this.leaseUntil(),
    );
    if (!taken) return stopping;
    return (await this.sessions.settle(taken)) ?? stopping;
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
  idle(): Promise<void> {
    return this.sessions.idle();
  }

  /** Stops the bots running here without stopping them for their owners: they are handed back for another instance */
  async close(): Promise<void> {
    this.closed = true;
    this.timer?.cancel();
    await this.round;
    await this.idle();
    const ids = this.runningIds;
    // The bots go on elsewhere: nothing is canceled (a live bot's dead-man switch covers a server that never returns)
    this.sessions.letAllGo();
    await this.unlisten?.().catch(() => {});
    try {
      await botLeaseRepository.release(this.deps.db, this.owner, ids);
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
      const held = await botLeaseRepository.renew(this.deps.db, this.owner, ids, this.leaseUntil());
      for (const id of ids) {
        const running = this.sessions.sessionRow(id);
        if (!running) continue;
        const state = held.get(id);
        if (state === 'stopping') {
          // Stopped from another instance and the notification was lost: this instance holds it, it stops it
          const row = await botRepository.find(this.deps.db, running.user_id, id);
          void this.sessions.stopHere(id, endOf(row), row?.stop_reason ?? 'Stopped');
        } else if (state === undefined) {
          // Taken over by another instance (this one stalled past its lease): it trades the bot now, not us
          this.deps.logger.warn({ botId: id }, 'bot no longer held by this instance: stopping it here');
          this.sessions.letGo(id);
        }
      }
      while (!this.closed) {
        const row = await botLeaseRepository.claim(
          this.deps.db,
          this.owner,
          this.deps.clock.now(),
          this.leaseUntil(),
        );
        if (!row) break;
        if (row.state === 'stopping') await this.sessions.settle(row);
        else await this.sessions.launch(row, 'resumed');
      }
      // Not waited for: a signal waits behind its session's work (a replay), the leases must not
      this.sessions.track(this.deliverSignals(this.runningIds));
    } catch (err) {
      this.deps.logger.warn({ err }, 'bot lease round failed');
    }
  }

  private async deliverSignals(ids: readonly string[]): Promise<void> {
    const rows = ids.map((id) => this.sessions.sessionRow(id)).filter((row) => row !== undefined);
    if (rows.length === 0) return;
    try {
      await this.deps.deliverSignals(rows);
    } catch (err) {
      this.deps.logger.error({ err }, 'signal delivery failed');
    }
  }

  private receive(payload: string): void {
    if (payload.startsWith(SIGNAL_PREFIX)) {
      const id = payload.slice(SIGNAL_PREFIX.length);
      if (!this.sessions.runs(id)) return;
      this.sessions.track(this.deliverSignals([id]));
      return;
    }
    if (!payload.startsWith(STOP_PREFIX)) return;
    const id = payload.slice(STOP_PREFIX.length);
    const running = this.sessions.sessionRow(id);
    if (!running) return;
    const work = (async () => {
      const row = await botRepository.find(this.deps.db, running.user_id, id);
      if (row?.state !== 'stopping') return;
      await this.sessions.stopHere(id, endOf(row), row.stop_reason ?? 'Stopped');
    })().catch((err: unknown) => this.deps.logger.error({ err, botId: id }, 'bot stop failed'));
    this.sessions.track(work);
  }
}
