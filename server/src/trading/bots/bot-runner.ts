import { randomUUID } from 'node:crypto';
import type { KlineInterval } from '@kestrel/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock, Timer } from '../../lib/clock';
import type { Database } from '../../lib/database/database';
import { BotFault, reasonOf } from './bot-fault';
import type { BotLog } from './bot-log';
import { type BotEndState, type BotRow, botRepository, type HedgeSide } from './bot-repository';
import type { BotSession } from './bot-session';
import type { PaperFigures } from './bot-step';
import { firstTradedBar } from './session-bars';

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

/**
 * Names the session a `sessionPnl` belongs to (its `started_at`): until the bot leaves `stopping`, status and summary
 * count that session from its open figures and leave this line out, so its PnL is never counted twice
 */
function sessionOf(row: BotRow): { sessionStartedAt?: number } {
  return row.started_at ? { sessionStartedAt: row.started_at.getTime() } : {};
}

/** Messages on the bots channel: a bot to stop (or pause) on whichever instance runs it */
const STOP_PREFIX = 'stop|';

/** The state a `stopping` bot ends in, as its stop asked */
const endOf = (row: BotRow | undefined): BotEndState => row?.stop_state ?? 'stopped';

const orders = (n: number) => `${n} order${n === 1 ? '' : 's'}`;

export interface BotRunnerDeps {
  db: Database;
  clock: Clock;
  logger: FastifyBaseLogger;
  log: BotLog;
  /** NOTIFY channel shared by the instances on this database schema */
  channel: string;
  /** A session for the bot; `onFault` stops it, `onFigures` says its figures changed (they get written) */
  createSession(
    row: BotRow,
    hooks: { onFault: (fault: BotFault) => void; onFigures: () => void },
  ): BotSession;
  /** Period of the lease round (tests make it long and call `tick` themselves) */
  renewMs?: number;
  /**
   * Finishes the stop of a bot no session runs here (its instance died or was closed while stopping it, or nobody
   * ran it): its orders canceled on the exchange (live; `keep` leaves them standing, to pause it) and its hold on
   * the dead-man switch let go
   */
  settle(row: BotRow, orders: 'cancel' | 'keep'): Promise<{ canceled: number; filled: number }>;
  /** Least time between two writes of one bot's figures (`bot_status`); default STATUS_WRITE_MS */
  statusWriteMs?: number;
}

/** A running bot's figures are written at most this often (a burst of fills costs one write, the last one kept) */
export const STATUS_WRITE_MS = 1_000;

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
  private readonly sessions = new Map<string, BotSession>();
  private timer: Timer | undefined;
  private unlisten: (() => Promise<void>) | undefined;
  private closed = false;
  /** The lease round in progress (one at a time) */
  private round: Promise<void> | undefined;
  private readonly active = new Set<Promise<unknown>>();
  /** Stops in progress here, by bot: a second asker waits for the first instead of canceling twice */
  private readonly stopping = new Map<string, Promise<BotRow | undefined>>();
  /** Figure writes: when each bot's last went out, and the trailing one waiting */
  private readonly writes = new Map<string, { lastAt: number; timer?: Timer }>();

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
    if (row.state === 'paused') {
      const { canceled, filled } = await this.deps.settle(row, 'cancel');
      if (canceled + filled > 0) {
        const fills =
          filled > 0
            ? `; ${orders(filled)} filled while it was paused (on /history, not in this bot's figures)`
            : '';
        await this.deps.log.record(
          row,
          'order_canceled',
          `Starting again: the ${orders(canceled)} left standing while it was paused canceled${fills}; it lays its orders anew from the price now`,
          { canceled, filled },
        );
      }
    }
    const now = this.deps.clock.now();
    const started = await botRepository.start(
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
    await this.launch(started, 'started');
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
    if (this.sessions.has(row.id)) return (await this.stopHere(row.id, kind, reason)) ?? stopping;
    if (stopping.lease_owner && stopping.lease_owner !== this.owner) {
      await this.deps.db.query('SELECT pg_notify($1, $2)', [this.deps.channel, `${STOP_PREFIX}${row.id}`]);
    }
    // Nobody runs it (its instance died, the lease not yet taken over): the stop is finished here
    const taken = await botRepository.takeStop(
      this.deps.db,
      row.id,
      this.owner,
      this.deps.clock.now(),
      this.leaseUntil(),
    );
    if (!taken) return stopping;
    return (await this.settle(taken)) ?? stopping;
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
    this.timer?.cancel();
    await this.round;
    await this.idle();
    const ids = this.runningIds;
    // The bots go on elsewhere: nothing is canceled (a live bot's dead-man switch covers a server that never returns)
    for (const session of this.sessions.values()) session.detach();
    this.sessions.clear();
    for (const w of this.writes.values()) w.timer?.cancel();
    this.writes.clear();
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
        const session = this.sessions.get(id);
        if (!session) continue;
        const state = held.get(id);
        if (state === 'stopping') {
          // Stopped from another instance and the notification was lost: this instance holds it, it stops it
          const row = await botRepository.find(this.deps.db, session.row.user_id, id);
          this.track(this.stopHere(id, endOf(row), row?.stop_reason ?? 'Stopped'));
        } else if (state === undefined) {
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
        if (row.state === 'stopping') await this.settle(row);
        else await this.launch(row, 'resumed');
      }
    } catch (err) {
      this.deps.logger.warn({ err }, 'bot lease round failed');
    }
  }

  /** Opens the bot's session here; it is `running` once history is loaded and replayed */
  private async launch(row: BotRow, how: 'started' | 'resumed'): Promise<void> {
    const session = this.deps.createSession(row, {
      onFault: (fault) => void this.fault(row, fault),
      onFigures: () => this.noteFigures(row.id),
    });
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
      const leverage =
        session.leverageSet === undefined ? '' : `, leverage ${session.leverageSet}× set on the exchange`;
      const record = (message: string) =>
        this.deps.log.record(row, how, `${message}${leverage}`, {
          owner: this.owner,
          replayedBars: session.replayed,
          ...(session.leverageSet === undefined ? {} : { leverage: session.leverageSet }),
        });
      const run = async (): Promise<boolean> => {
        try {
          await session.run();
          return true;
        } catch (err) {
          if (this.sessions.get(row.id) === session) {
            await this.fault(
              row,
              err instanceof BotFault ? err : new BotFault(`The bot failed: ${reasonOf(err)}`),
            );
          }
          return false;
        }
      };
      // A resumption is logged once its replay says how far it went: the instance taking the bot answers for it
      // standing where it stood
      if (how === 'resumed') {
        if (await run())
          await record(`Resumed on this server: ${session.replayed} bars since the start replayed`);
        return;
      }
      // A start is logged before the bot's first orders, and answers once the bot runs: its orders follow as
      // they are sent (a grid of 100 levels is 100 round trips to the exchange)
      const side = row.position_side
        ? ` (its ${row.position_side === 'LONG' ? 'long' : 'short'} side: the account is in hedge mode)`
        : '';
      await record(
        `Started: ${row.mode} trading on ${row.symbol}${side}, acting now, then on its fills and each ${row.interval} close`,
      );
      this.track(run());
    })();
    this.track(work);
    await work;
  }

  /** A limit broke or the bot failed: stopped with state error (if this instance still holds it), and recorded */
  private async fault(row: BotRow, fault: BotFault): Promise<void> {
    const work = (async () => {
      const stopping = await botRepository.beginStop(
        this.deps.db,
        row.id,
        'error',
        fault.message,
        this.deps.clock.now(),
        this.owner,
      );
      if (stopping) {
        await this.stopHere(row.id, fault.kind, fault.message, fault.data);
        return;
      }
      const now = await botRepository.find(this.deps.db, row.user_id, row.id);
      // Already being stopped here (the owner's stop raced the fault): that stop finishes it
      if (now?.state === 'stopping' && now.lease_owner === this.owner) return;
      // No longer ours (stopped or taken over meanwhile): whoever holds it now decides about its orders
      this.sessions.get(row.id)?.detach();
      this.sessions.delete(row.id);
    })().catch((err: unknown) => this.deps.logger.error({ err, botId: row.id }, 'bot stop failed'));
    this.track(work);
    await work;
  }

  /**
   * Stops a `stopping` bot whose session runs here: the session closed (orders canceled), the end recorded, the
   * bot put in its final state. One stop per bot at a time: a second caller gets the first one's answer
   */
  private stopHere(
    id: string,
    kind: 'stopped' | 'paused' | 'risk_stop' | 'error',
    reason: string,
    data: Record<string, unknown> = {},
  ): Promise<BotRow | undefined> {
    const running = this.stopping.get(id);
    if (running) return running;
    const work = (async () => {
      await this.end(id, kind, reason, data);
      return this.finish(id);
    })().finally(() => this.stopping.delete(id));
    this.stopping.set(id, work);
    this.track(work);
    return work;
  }

  /**
   * Finishes the stop of a `stopping` bot this instance holds without a session (its instance died mid-stop):
   * its orders canceled, the end recorded with the session's PnL as last written, its final state set
   */
  private async settle(row: BotRow): Promise<BotRow | undefined> {
    const running = this.stopping.get(row.id);
    if (running) return running;
    const pausing = row.stop_state === 'paused';
    const work = (async () => {
      let canceled = 0;
      try {
        ({ canceled } = await this.deps.settle(row, pausing ? 'keep' : 'cancel'));
      } catch (err) {
        await this.deps.log.record(
          row,
          'error',
          `Stopping: its orders could not be canceled: ${reasonOf(err)}`,
        );
      }
      const figures = (await botRepository.statusOf(this.deps.db, [row])).get(row.id)?.figures as
        | Partial<PaperFigures>
        | undefined;
      const sessionPnl = (figures?.realizedPnl ?? 0) + (figures?.unrealizedPnl ?? 0);
      const reason = row.stop_reason ?? 'Stopped';
      const words = pausing
        ? `: ${pauseWords(row, undefined)}`
        : canceled > 0
          ? ` (${orders(canceled)} canceled)`
          : '';
      const kind = pausing ? 'paused' : row.stop_state === 'error' ? 'error' : 'stopped';
      await this.deps.log.record(row, kind, `${reason}${words}`, {
        sessionPnl,
        ...sessionOf(row),
        canceled,
        finishedBy: this.owner,
      });
      return this.finish(row.id);
    })().finally(() => this.stopping.delete(row.id));
    this.stopping.set(row.id, work);
    this.track(work);
    return work;
  }

  /**
   * The `stopping` bot put in the state its stop asked for. A paused one's figures are dropped with its session:
   * its PnL is the line that paused it, and a later stop (its kept orders canceled) adds none
   */
  private async finish(id: string): Promise<BotRow | undefined> {
    const done = await botRepository.finishStop(this.deps.db, id, this.deps.clock.now(), this.owner);
    if (done?.state === 'paused') await botRepository.dropStatus(this.deps.db, id);
    return done;
  }

  /**
   * Closes the session here (orders canceled; kept, to pause) and records how it ended, with the session's PnL
   */
  private async end(
    id: string,
    kind: 'stopped' | 'paused' | 'risk_stop' | 'error',
    reason: string,
    data: Record<string, unknown> = {},
  ): Promise<void> {
    const session = this.sessions.get(id);
    if (!session) return;
    this.sessions.delete(id);
    this.writes.get(id)?.timer?.cancel();
    this.writes.delete(id);
    if (kind === 'paused') {
      let paused: { sessionPnl: number; standing: number; canceled: number };
      try {
        paused = await session.pause();
      } catch (err) {
        await this.deps.log.record(session.row, 'error', `Pausing: ${reasonOf(err)}`, {});
        paused = { sessionPnl: 0, standing: 0, canceled: 0 };
      }
      await this.writeFigures(id, session);
      await this.deps.log.record(session.row, 'paused', `${reason}: ${pauseWords(session.row, paused)}`, {
        ...data,
        sessionPnl: paused.sessionPnl,
        ...sessionOf(session.row),
        standing: paused.standing,
        canceled: paused.canceled,
      });
      return;
    }
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
    await this.writeFigures(id, session);
    const { sessionPnl, canceled } = closed;
    const words = canceled > 0 ? ` (${orders(canceled)} canceled)` : '';
    await this.deps.log.record(session.row, kind, `${reason}${words}`, {
      ...data,
      sessionPnl,
      ...sessionOf(session.row),
      canceled,
    });
  }

  /** The bot's figures changed: written now, or once the throttle allows (the latest figures then) */
  private noteFigures(id: string): void {
    const every = this.deps.statusWriteMs ?? STATUS_WRITE_MS;
    const w = this.writes.get(id) ?? { lastAt: Number.NEGATIVE_INFINITY };
    this.writes.set(id, w);
    if (w.timer) return;
    const wait = Math.max(0, w.lastAt + every - this.deps.clock.now().getTime());
    const write = () => {
      w.timer = undefined;
      w.lastAt = this.deps.clock.now().getTime();
      const session = this.sessions.get(id);
      if (session) this.track(this.writeFigures(id, session));
    };
    if (wait === 0) write();
    else w.timer = this.deps.clock.after(wait, write, { unref: true });
  }

  private async writeFigures(id: string, session: BotSession): Promise<void> {
    const figures = session.figures();
    const startedAt = session.row.started_at;
    if (!figures || !startedAt) return;
    try {
      await botRepository.saveStatus(
        this.deps.db,
        id,
        startedAt,
        figures as unknown as Record<string, unknown>,
        this.deps.clock.now(),
      );
    } catch (err) {
      // The next change writes them again; until then other instances show slightly older figures
      this.deps.logger.warn({ err, botId: id }, 'bot figures not written');
    }
  }

  private receive(payload: string): void {
    if (!payload.startsWith(STOP_PREFIX)) return;
    const id = payload.slice(STOP_PREFIX.length);
    const session = this.sessions.get(id);
    if (!session) return;
    const work = (async () => {
      const row = await botRepository.find(this.deps.db, session.row.user_id, id);
      if (row?.state !== 'stopping') return;
      await this.stopHere(id, endOf(row), row.stop_reason ?? 'Stopped');
    })().catch((err: unknown) => this.deps.logger.error({ err, botId: id }, 'bot stop failed'));
    this.track(work);
  }

  private track(work: Promise<unknown>): void {
    this.active.add(work);
    void work.finally(() => this.active.delete(work));
  }
}

/**
 * What a pause left: a live bot's orders standing on the exchange (`paused` given: how many), a paper bot's withdrawn
 * with its session; then that it places nothing until started again
 */
function pauseWords(
  row: Pick<BotRow, 'mode'>,
  paused: { standing: number; canceled: number } | undefined,
): string {
  const again =
    'it places no new order until you start it again, which lays its orders anew from the price then';
  if (row.mode === 'paper') {
    const n = paused?.canceled ?? 0;
    return `a paper bot's orders live in its session, so its ${orders(n)} went with it; ${again}`;
  }
  const standing =
    paused === undefined
      ? 'its orders stand on the exchange and may fill'
      : paused.standing === 0
        ? 'it had no order standing'
        : `its ${orders(paused.standing)} stand on the exchange and may fill`;
  return `${standing}; ${again}`;
}
