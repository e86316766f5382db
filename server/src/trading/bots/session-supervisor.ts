import { type BotFault, faultOf, reasonOf } from './bot-fault';
import { botLeaseRepository } from './bot-lease-repository';
import type { BotLog } from './bot-log';
import { type BotRow, botRepository } from './bot-repository';
import type { BotSession } from './bot-session';
import { botStatusRepository } from './bot-status-repository';
import { BotStatusWriter, type BotStatusWriterDeps } from './bot-status-writer';
import type { PaperFigures } from './bot-step';

/** How a session ended, as the line that records it says */
type SessionEnd = 'stopped' | 'paused' | 'risk_stop' | 'error';

/**
 * Names the session a `sessionPnl` belongs to (its `started_at`): until the bot leaves `stopping`, status and summary
 * count that session from its open figures and leave this line out, so its PnL is never counted twice
 */
function sessionOf(row: BotRow): { sessionStartedAt?: number } {
  return row.started_at ? { sessionStartedAt: row.started_at.getTime() } : {};
}

const orders = (n: number) => `${n} order${n === 1 ? '' : 's'}`;
/** " (3 orders canceled)" after a stop's reason, nothing when none was */
const canceledWords = (canceled: number) => (canceled > 0 ? ` (${orders(canceled)} canceled)` : '');
const CANCEL_FAILED = 'Stopping: its orders could not be canceled';

export interface SessionSupervisorDeps extends BotStatusWriterDeps {
  log: BotLog;
  /** A session for the bot; `onFault` stops it, `onFigures` says its figures changed (they get written) */
  createSession(
    row: BotRow,
    hooks: { onFault: (fault: BotFault) => void; onFigures: () => void },
  ): BotSession;
  /**
   * Finishes the stop of a bot no session runs here (its instance died or was closed while stopping it, or nobody
   * ran it): its orders canceled on the exchange (live; `keep` leaves them standing, to pause it) and its hold on
   * the dead-man switch let go
   */
  settle(row: BotRow, orders: 'cancel' | 'keep'): Promise<{ canceled: number; filled: number }>;
}

/**
 * The sessions of the bots this instance holds (`BotRunner` decides which): each opened, run, and ended the way its
 * stop asks (orders canceled, or kept to pause), its end recorded with the session's PnL; a fault stops it with
 * state error. A stop this instance finishes without a session (the bot's instance died mid-stop) is settled here
 * too. Every piece of work is tracked, so a shutdown waits for it
 */
export class SessionSupervisor {
  private readonly sessions = new Map<string, BotSession>();
  private readonly active = new Set<Promise<unknown>>();
  /** Stops in progress here, by bot: a second asker waits for the first instead of canceling twice */
  private readonly stopping = new Map<string, Promise<BotRow | undefined>>();
  private readonly statusWriter: BotStatusWriter;

  constructor(
    private readonly deps: SessionSupervisorDeps,
    /** This process's identity in `lease_owner` */
    private readonly owner: string,
  ) {
    this.statusWriter = new BotStatusWriter(
      deps,
      (id) => this.sessions.get(id),
      (work) => this.track(work),
    );
  }

  /** Ids of the bots running on this instance */
  get runningIds(): string[] {
    return [...this.sessions.keys()];
  }

  runs(id: string): boolean {
    return this.sessions.has(id);
  }

  /** The row the bot's session here was opened with; undefined when no session runs it here */
  sessionRow(id: string): BotRow | undefined {
    return this.sessions.get(id)?.row;
  }

  figures(id: string): PaperFigures | undefined {
    return this.sessions.get(id)?.figures();
  }

  /** The bot's session here, if one runs it */
  session(id: string): BotSession | undefined {
    return this.sessions.get(id);
  }

  /** Opens the bot's session here; it is `running` once history is loaded and replayed */
  async launch(row: BotRow, how: 'started' | 'resumed'): Promise<void> {
    const session = this.deps.createSession(row, {
      onFault: (fault) => void this.fault(row, fault),
      onFigures: () => this.statusWriter.changed(row.id),
    });
    this.sessions.set(row.id, session);
    const work = (async () => {
      try {
        await session.open();
      } catch (err) {
        await this.fault(row, faultOf(err, 'The bot failed to start'));
        return;
      }
      if (this.sessions.get(row.id) !== session) return;
      if (!(await botLeaseRepository.markRunning(this.deps.db, row.id, this.owner, this.deps.clock.now()))) {
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
          if (this.sessions.get(row.id) === session) await this.fault(row, faultOf(err, 'The bot failed'));
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

  /**
   * A paused bot's orders left standing are canceled before it starts again: its strategy lays its orders anew from
   * the price now, and two sets would stand should an instance take the new session over before it did
   */
  async cancelLeftByPause(row: BotRow): Promise<void> {
    const { canceled, filled } = await this.deps.settle(row, 'cancel');
    if (canceled + filled === 0) return;
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

  /**
   * Stops a `stopping` bot whose session runs here: the session closed (orders canceled), the end recorded, the
   * bot put in its final state. One stop per bot at a time: a second caller gets the first one's answer
   */
  stopHere(
    id: string,
    kind: SessionEnd,
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
  async settle(row: BotRow): Promise<BotRow | undefined> {
    const running = this.stopping.get(row.id);
    if (running) return running;
    const pausing = row.stop_state === 'paused';
    const work = (async () => {
      let canceled = 0;
      try {
        ({ canceled } = await this.deps.settle(row, pausing ? 'keep' : 'cancel'));
      } catch (err) {
        await this.deps.log.record(row, 'error', `${CANCEL_FAILED}: ${reasonOf(err)}`);
      }
      const figures = (await botStatusRepository.statusOf(this.deps.db, [row])).get(row.id)?.figures as
        | Partial<PaperFigures>
        | undefined;
      const sessionPnl = (figures?.realizedPnl ?? 0) + (figures?.unrealizedPnl ?? 0);
      const reason = row.stop_reason ?? 'Stopped';
      const words = pausing ? `: ${pauseWords(row, undefined)}` : canceledWords(canceled);
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

  /** Lets the bot's session here go without touching its orders: another instance trades it now */
  letGo(id: string): void {
    this.sessions.get(id)?.detach();
    this.sessions.delete(id);
  }

  /** Lets every session here go, for another instance to resume (a shutdown) */
  letAllGo(): void {
    for (const session of this.sessions.values()) session.detach();
    this.sessions.clear();
    this.statusWriter.forgetAll();
  }

  /** Work `idle` waits for */
  track(work: Promise<unknown>): void {
    this.active.add(work);
    void work.finally(() => this.active.delete(work));
  }

  /** Resolves when no bot is being opened or stopped here */
  async idle(): Promise<void> {
    while (this.active.size > 0) await Promise.allSettled([...this.active]);
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
      this.letGo(row.id);
    })().catch((err: unknown) => this.deps.logger.error({ err, botId: row.id }, 'bot stop failed'));
    this.track(work);
    await work;
  }

  /**
   * The `stopping` bot put in the state its stop asked for. A paused one's figures are dropped with its session:
   * its PnL is the line that paused it, and a later stop (its kept orders canceled) adds none
   */
  private async finish(id: string): Promise<BotRow | undefined> {
    const done = await botLeaseRepository.finishStop(this.deps.db, id, this.deps.clock.now(), this.owner);
    if (done?.state === 'paused') await botStatusRepository.dropStatus(this.deps.db, id);
    return done;
  }

  /**
   * Closes the session here (orders canceled; kept, to pause) and records how it ended, with the session's PnL
   */
  private async end(
    id: string,
    kind: SessionEnd,
    reason: string,
    data: Record<string, unknown> = {},
  ): Promise<void> {
    const session = this.sessions.get(id);
    if (!session) return;
    this.sessions.delete(id);
    this.statusWriter.forget(id);
    if (kind === 'paused') {
      let paused: { sessionPnl: number; standing: number; canceled: number };
      try {
        paused = await session.pause();
      } catch (err) {
        await this.deps.log.record(session.row, 'error', `Pausing: ${reasonOf(err)}`, {});
        paused = { sessionPnl: 0, standing: 0, canceled: 0 };
      }
      await this.statusWriter.write(id, session);
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
      await this.deps.log.record(session.row, 'error', `${CANCEL_FAILED}: ${reasonOf(err)}`, {});
      closed = { sessionPnl: 0, canceled: 0 };
    }
    await this.statusWriter.write(id, session);
    const { sessionPnl, canceled } = closed;
    await this.deps.log.record(session.row, kind, `${reason}${canceledWords(canceled)}`, {
      ...data,
      sessionPnl,
      ...sessionOf(session.row),
      canceled,
    });
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
