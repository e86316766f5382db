import type { Queryable } from '../../lib/database/database';
import type { BotLog } from './bot-log';
import type { BotRow } from './bot-repository';
import { botSessionStore } from './bot-session-store';
import type { BarOutcome } from './bot-step';

/**
 * What a session writes to its bot's log, and what the log already says from before a restart: a resumed bot
 * replays its bars and fills without logging them twice (the bars by `data.barTime`, the fills by `filledTotal`)
 */
export class SessionLog {
  /** Live: per client order id, the quantity its logged fills reach (a replay does not log them again) */
  private loggedFills = new Map<string, number>();
  /** The newest bar the bot's log has lines of (a replay does not log those bars again) */
  lastLoggedBar = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly row: BotRow,
    private readonly deps: { db: Queryable; log: BotLog },
  ) {}

  /** Live: the fills the bot's log already has of this session */
  async readLoggedFills(): Promise<void> {
    const { row, deps } = this;
    this.loggedFills = await botSessionStore.loggedFills(deps.db, row.id, row.started_at ?? new Date(0));
  }

  async readLastLoggedBar(): Promise<void> {
    this.lastLoggedBar =
      (await botSessionStore.lastLoggedBar(this.deps.db, this.row.id)) ?? Number.NEGATIVE_INFINITY;
  }

  async write(outcome: BarOutcome | undefined): Promise<void> {
    for (const entry of outcome?.log ?? []) {
      const id = entry.data.clientOrderId;
      const total = Number(entry.data.filledTotal);
      if (entry.kind === 'order_filled' && typeof id === 'string' && Number.isFinite(total)) {
        // A fill logged before the restart (from the stream, or by the session before) is not logged again: replayed,
        // or taken at the first bar after the restart when it came in during the bar the restart cut
        if (total <= (this.loggedFills.get(id) ?? 0) + 1e-12) continue;
        this.loggedFills.set(id, Math.max(total, this.loggedFills.get(id) ?? 0));
      }
      await this.deps.log.record(this.row, entry.kind, entry.message, entry.data);
    }
  }
}
