import type { Queryable } from '../../../lib/database/database';

export interface TelegramChatRow {
  user_id: string;
  chat_id: number;
  username: string | null;
  events: string[];
  linked_at: Date;
}

export interface TelegramCommandRow {
  command: string;
  answer: string;
  at: Date;
}

type Row<T> = T & Record<string, unknown>;

/** bigint columns come back as text (PGlite and node-postgres differ otherwise); chat ids stay below 2^53 */
const CHAT_COLUMNS = 'user_id, chat_id::text AS chat_id, username, events, linked_at';
const toChat = (r: Row<Omit<TelegramChatRow, 'chat_id'> & { chat_id: string }>): TelegramChatRow => ({
  ...r,
  chat_id: Number(r.chat_id),
});

/** Thin SQL of the Telegram channel: link codes, linked chats, the command record and the poll's offset and lease */
export const telegramRepository = {
  /** The user's new code; their earlier ones go (one live code per user). False when the code is taken */
  async replaceCode(
    db: Queryable,
    userId: string,
    code: string,
    expiresAt: Date,
    now: Date,
  ): Promise<boolean> {
    await db.query('DELETE FROM telegram_link_codes WHERE user_id = $1 OR expires_at < $2', [userId, now]);
    const rows = await db.query(
      `INSERT INTO telegram_link_codes (code, user_id, expires_at, created_at) VALUES ($1, $2, $3, $4)
       ON CONFLICT (code) DO NOTHING RETURNING code`,
      [code, userId, expiresAt, now],
    );
    return rows.length > 0;
  },

  /** Takes the code (it is gone afterwards, used or expired): whose it was and until when it was valid */
  async takeCode(db: Queryable, code: string): Promise<{ user_id: string; expires_at: Date } | undefined> {
    const rows = await db.query<Row<{ user_id: string; expires_at: Date }>>(
      'DELETE FROM telegram_link_codes WHERE code = $1 RETURNING user_id, expires_at',
      [code],
    );
    return rows[0];
  },

  async chatOfUser(db: Queryable, userId: string): Promise<TelegramChatRow | undefined> {
    const rows = await db.query<Row<Omit<TelegramChatRow, 'chat_id'> & { chat_id: string }>>(
      `SELECT ${CHAT_COLUMNS} FROM telegram_chats WHERE user_id = $1`,
      [userId],
    );
    return rows[0] && toChat(rows[0]);
  },

  async chatById(db: Queryable, chatId: number): Promise<TelegramChatRow | undefined> {
    const rows = await db.query<Row<Omit<TelegramChatRow, 'chat_id'> & { chat_id: string }>>(
      `SELECT ${CHAT_COLUMNS} FROM telegram_chats WHERE chat_id = $1`,
      [chatId],
    );
    return rows[0] && toChat(rows[0]);
  },

  /** Links the chat to the user: the user's earlier chat and the chat's earlier user are unlinked (in `tx`) */
  async link(tx: Queryable, row: TelegramChatRow): Promise<void> {
    await tx.query('DELETE FROM telegram_chats WHERE user_id = $1 OR chat_id = $2', [
      row.user_id,
      row.chat_id,
    ]);
    await tx.query(
      `INSERT INTO telegram_chats (user_id, chat_id, username, events, linked_at) VALUES ($1, $2, $3, $4, $5)`,
      [row.user_id, row.chat_id, row.username, row.events, row.linked_at],
    );
  },

  async setEvents(
    db: Queryable,
    userId: string,
    events: readonly string[],
  ): Promise<TelegramChatRow | undefined> {
    const rows = await db.query<Row<Omit<TelegramChatRow, 'chat_id'> & { chat_id: string }>>(
      `UPDATE telegram_chats SET events = $2 WHERE user_id = $1 RETURNING ${CHAT_COLUMNS}`,
      [userId, events],
    );
    return rows[0] && toChat(rows[0]);
  },

  async unlink(db: Queryable, userId: string): Promise<boolean> {
    const rows = await db.query('DELETE FROM telegram_chats WHERE user_id = $1 RETURNING user_id', [userId]);
    return rows.length > 0;
  },

  async recordCommand(
    db: Queryable,
    r: { userId: string; chatId: number; updateId: number; command: string; answer: string; at: Date },
  ): Promise<void> {
    await db.query(
      `INSERT INTO telegram_commands (user_id, chat_id, update_id, command, answer, at)
       VALUES ($1, $2, $3, $4, $5, $6)`,
      [r.userId, r.chatId, r.updateId, r.command, r.answer, r.at],
    );
  },

  async commands(db: Queryable, userId: string, limit: number): Promise<TelegramCommandRow[]> {
    return db.query<Row<TelegramCommandRow>>(
      'SELECT command, answer, at FROM telegram_commands WHERE user_id = $1 ORDER BY seq DESC LIMIT $2',
      [userId, limit],
    );
  },

  /**
   * Takes (or keeps) the lease of the bot's poll until `until`, when nobody else holds it now; answers the offset to
   * poll from, or undefined while another instance polls
   */
  async leasePoll(
    db: Queryable,
    botId: number,
    owner: string,
    now: Date,
    until: Date,
  ): Promise<number | undefined> {
    const rows = await db.query<{ next_offset: string }>(
      `INSERT INTO telegram_polls (bot_id, next_offset, owner, lease_until) VALUES ($1, 0, $2, $3)
       ON CONFLICT (bot_id) DO UPDATE SET owner = EXCLUDED.owner, lease_until = EXCLUDED.lease_until
       WHERE telegram_polls.owner IS NULL OR telegram_polls.owner = EXCLUDED.owner
          OR telegram_polls.lease_until < $4
       RETURNING next_offset::text AS next_offset`,
      [botId, owner, until, now],
    );
    return rows[0] ? Number(rows[0].next_offset) : undefined;
  },

  /** Moves the offset past an update before it is handled; false when the lease was lost meanwhile */
  async claimOffset(db: Queryable, botId: number, owner: string, offset: number): Promise<boolean> {
    const rows = await db.query(
      `UPDATE telegram_polls SET next_offset = GREATEST(next_offset, $3)
       WHERE bot_id = $1 AND owner = $2 RETURNING bot_id`,
      [botId, owner, offset],
    );
    return rows.length > 0;
  },

  async releasePoll(db: Queryable, botId: number, owner: string): Promise<void> {
    await db.query(
      'UPDATE telegram_polls SET owner = NULL, lease_until = NULL WHERE bot_id = $1 AND owner = $2',
      [botId, owner],
    );
  },
};
export type TelegramRepository = typeof telegramRepository;
