import type { Queryable } from '../../lib/database/database';

/** What a session's figures are stored with: the figures, and when its instance wrote them */
export interface StoredFigures {
  figures: Record<string, unknown>;
  updatedAt: Date;
}

/**
 * Thin SQL for the figures of running sessions (`bot_status`, migration 014): the instance running a bot writes
 * them, the others read them for status and summary
 */
export const botStatusRepository = {
  /** The running session's figures, as its instance last wrote them (one row per bot, replaced) */
  async saveStatus(
    db: Queryable,
    botId: string,
    sessionStartedAt: Date,
    figures: Record<string, unknown>,
    now: Date,
  ): Promise<void> {
    await db.query(
      `INSERT INTO bot_status (bot_id, session_started_at, figures, updated_at) VALUES ($1, $2, $3, $4)
       ON CONFLICT (bot_id) DO UPDATE SET session_started_at = $2, figures = $3, updated_at = $4`,
      [botId, sessionStartedAt, JSON.stringify(figures), now],
    );
  },

  /** Figures of the bots' current sessions (rows of an earlier session than the bot's `started_at` left out) */
  async statusOf(
    db: Queryable,
    bots: ReadonlyArray<{ id: string; started_at: Date | null }>,
  ): Promise<Map<string, StoredFigures>> {
    const out = new Map<string, StoredFigures>();
    const current = bots.filter((b) => b.started_at);
    if (current.length === 0) return out;
    const rows = await db.query<{
      bot_id: string;
      session_started_at: Date;
      figures: Record<string, unknown>;
      updated_at: Date;
    }>(
      `SELECT bot_id, session_started_at, figures, updated_at FROM bot_status WHERE bot_id = ANY($1::uuid[])`,
      [current.map((b) => b.id)],
    );
    const startedAt = new Map(current.map((b) => [b.id, b.started_at?.getTime()]));
    for (const r of rows) {
      if (new Date(r.session_started_at).getTime() !== startedAt.get(r.bot_id)) continue;
      out.set(r.bot_id, { figures: r.figures, updatedAt: new Date(r.updated_at) });
    }
    return out;
  },

  /** A paused session's figures go with it: its PnL is in the line that paused it, counted from there */
  async dropStatus(db: Queryable, botId: string): Promise<void> {
    await db.query('DELETE FROM bot_status WHERE bot_id = $1', [botId]);
  },
};
