import type { BotEventKind, BotState } from '@kestrel/contracts/bots';
import type { Queryable } from '../../lib/database/database';
import { OPEN_SESSION_STATES } from './bot-states';

export interface BotEventRow {
  id: string;
  bot_id: string;
  user_id: string;
  kind: BotEventKind;
  message: string;
  data: Record<string, unknown>;
  created_at: Date;
}

/** Thin SQL for a bot's log (`bot_events`): its lines, its fills and the PnL its finished sessions logged */
export const botEventRepository = {
  async insertEvent(db: Queryable, event: BotEventRow): Promise<void> {
    await db.query(
      `INSERT INTO bot_events (id, bot_id, user_id, kind, message, data, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [
        event.id,
        event.bot_id,
        event.user_id,
        event.kind,
        event.message,
        JSON.stringify(event.data),
        event.created_at,
      ],
    );
  },

  /** The bot's fill lines, oldest first, the newest `limit` of them (a bot's chart and PnL curve) */
  async fillEvents(db: Queryable, botId: string, limit: number): Promise<BotEventRow[]> {
    const rows = await db.query<BotEventRow & Record<string, unknown>>(
      `SELECT id, bot_id, user_id, kind, message, data, created_at FROM bot_events
        WHERE bot_id = $1 AND kind = 'order_filled' ORDER BY seq DESC LIMIT $2`,
      [botId, limit],
    );
    return rows.reverse();
  },

  /** The bot's log, newest first; `before` (ms) pages back */
  async events(db: Queryable, botId: string, limit: number, before?: number): Promise<BotEventRow[]> {
    return db.query<BotEventRow & Record<string, unknown>>(
      `SELECT id, bot_id, user_id, kind, message, data, created_at FROM bot_events
        WHERE bot_id = $1 AND ($3::timestamptz IS NULL OR created_at < $3)
        ORDER BY seq DESC LIMIT $2`,
      [botId, limit, before === undefined ? null : new Date(before)],
    );
  },

  /**
   * PnL of the bot's finished sessions (each session's end is logged with `data.sessionPnl` and
   * `data.sessionStartedAt`): in total, and those that ended since `dayStart`. An open session's end (a bot still
   * `stopping`, its figures still read as the open session's) is left out: its PnL counts once, as open figures,
   * until the bot is stopped
   */
  async pastPnl(
    db: Queryable,
    bots: ReadonlyArray<{ id: string; state: BotState; started_at: Date | null }>,
    dayStart: Date,
  ): Promise<Map<string, { total: number; today: number }>> {
    const out = new Map<string, { total: number; today: number }>();
    if (bots.length === 0) return out;
    const openSessions = bots
      .filter((b) => OPEN_SESSION_STATES.has(b.state) && b.started_at)
      .map((b) => `${b.id}:${b.started_at?.getTime()}`);
    const rows = await db.query<{ bot_id: string; total: string | number; today: string | number }>(
      `SELECT bot_id, coalesce(sum((data->>'sessionPnl')::float8), 0) AS total,
              coalesce(sum((data->>'sessionPnl')::float8) FILTER (WHERE created_at >= $2), 0) AS today
         FROM bot_events
        WHERE bot_id = ANY($1::uuid[]) AND data ? 'sessionPnl'
          AND NOT (data ? 'sessionStartedAt'
                   AND bot_id::text || ':' || (data->>'sessionStartedAt') = ANY($3::text[]))
        GROUP BY bot_id`,
      [bots.map((b) => b.id), dayStart, openSessions],
    );
    for (const r of rows) out.set(r.bot_id, { total: Number(r.total), today: Number(r.today) });
    return out;
  },
};
