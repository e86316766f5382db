import type { Queryable } from '../../lib/database/database';
import type { PaperPath } from './paper-account';

/**
 * What a running session keeps of its own so a restart resumes it where it stood: the start price, a paper bot's
 * walk through the bar in progress, and what its log already says (the last bar logged, the fills logged). The
 * bot's row and lifecycle are `botRepository`'s
 */
export const botSessionStore = {
  /** Keeps a paper session's path through one bar (the whole path so far: it replaces the last one kept) */
  async keepPaperPath(
    db: Queryable,
    botId: string,
    startedAt: Date,
    barTime: number,
    path: PaperPath,
  ): Promise<void> {
    await db.query(
      `INSERT INTO bot_paper_paths (bot_id, started_at, bar_time, open, points, low, high)
         VALUES ($1, $2, $3, $4, $5, $6, $7)
       ON CONFLICT (bot_id, started_at, bar_time)
         DO UPDATE SET open = EXCLUDED.open, points = EXCLUDED.points, low = EXCLUDED.low, high = EXCLUDED.high`,
      [botId, startedAt, barTime, path.open, path.points, path.low, path.high],
    );
  },

  /** A paper session's kept paths, per bar open time */
  async paperPaths(db: Queryable, botId: string, startedAt: Date): Promise<Map<number, PaperPath>> {
    const rows = await db.query<{
      bar_time: string | number;
      open: number;
      points: number[];
      low: number;
      high: number;
    }>(
      `SELECT bar_time, open, points, low, high FROM bot_paper_paths WHERE bot_id = $1 AND started_at = $2`,
      [botId, startedAt],
    );
    return new Map(
      rows.map((r) => [
        Number(r.bar_time),
        { open: Number(r.open), points: r.points.map(Number), low: Number(r.low), high: Number(r.high) },
      ]),
    );
  },

  /**
   * The price the session started at (`start_price`), kept the first time it is read: a later reader (a resumed
   * session) gets the stored one. Undefined when the bot has started another session since
   */
  async keepStartPrice(
    db: Queryable,
    id: string,
    startedAt: Date,
    price: number,
  ): Promise<number | undefined> {
    const rows = await db.query<{ start_price: number }>(
      `UPDATE bots SET start_price = COALESCE(start_price, $3) WHERE id = $1 AND started_at = $2
        RETURNING start_price`,
      [id, startedAt, price],
    );
    const stored = rows[0]?.start_price;
    return stored === undefined || stored === null ? undefined : Number(stored);
  },

  /**
   * The newest bar a session of the bot already handled with something to log (`data.barTime` of its events): a
   * resumed bot replays its bars without logging those again. Lines of a paper walk inside a bar (`pathPoint`) are
   * not counted: they say nothing of the bar's close, whose lines may not be logged yet
   */
  async lastLoggedBar(db: Queryable, botId: string): Promise<number | undefined> {
    const rows = await db.query<{ t: string | number | null }>(
      `SELECT max((data->>'barTime')::float8) AS t FROM bot_events
        WHERE bot_id = $1 AND data ? 'barTime' AND NOT data ? 'pathPoint'`,
      [botId],
    );
    const t = rows[0]?.t;
    return t === null || t === undefined ? undefined : Number(t);
  },

  /** Per client order id, the filled quantity the bot's logged fills since `since` reach (`data.filledTotal`) */
  async loggedFills(db: Queryable, botId: string, since: Date): Promise<Map<string, number>> {
    const rows = await db.query<{ id: string; total: string | number }>(
      `SELECT data->>'clientOrderId' AS id, max((data->>'filledTotal')::float8) AS total FROM bot_events
        WHERE bot_id = $1 AND kind = 'order_filled' AND created_at >= $2 AND data ? 'filledTotal'
        GROUP BY data->>'clientOrderId'`,
      [botId, since],
    );
    return new Map(rows.map((r) => [r.id, Number(r.total)]));
  },
};
