import type { SignalAction, SignalOutcome, SignalRecord } from '@kestrel/contracts/bots';
import type { Queryable } from '../../../lib/database/database';
import type { ActedSignal } from './signal-words';

/** `bot_signal_hooks`: a bot's webhook, its secret sealed (`lib/crypto/envelope.ts`) */
export interface SignalHookRow {
  bot_id: string;
  user_id: string;
  hook_id: string;
  master_key_id: string;
  wrapped_data_key: Buffer;
  ciphertext: Buffer;
  created_at: Date;
}

/** `bot_signals`: one signal as received and what it caused */
export interface SignalRow {
  id: string;
  bot_id: string;
  signal_id: string | null;
  action: SignalAction | null;
  symbol: string | null;
  quantity: number | null;
  price: number | null;
  received_at: Date;
  outcome: SignalOutcome;
  message: string;
  orders: string[];
  session_started_at: Date | null;
  bar_time: Date | null;
  acted_price: number | null;
  taken_at: Date | null;
}

export type NewSignal = Pick<
  SignalRow,
  | 'id'
  | 'bot_id'
  | 'signal_id'
  | 'action'
  | 'symbol'
  | 'quantity'
  | 'price'
  | 'received_at'
  | 'outcome'
  | 'message'
>;

/** What a signal caused, written once it is known */
export interface SignalResult {
  outcome: SignalOutcome;
  message: string;
  orders: string[];
  session?: { startedAt: number; barTime: number; price: number };
}

type Row<T> = T & Record<string, unknown>;
const toHook = (r: SignalHookRow): SignalHookRow => ({
  ...r,
  wrapped_data_key: Buffer.from(r.wrapped_data_key),
  ciphertext: Buffer.from(r.ciphertext),
});
const num = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));
const toSignal = (r: Row<SignalRow>): SignalRow => ({
  ...r,
  quantity: num(r.quantity),
  price: num(r.price),
  acted_price: num(r.acted_price),
  orders: Array.isArray(r.orders) ? r.orders : JSON.parse(String(r.orders ?? '[]')),
});

export function toSignalRecord(r: SignalRow): SignalRecord {
  return {
    id: r.id,
    signalId: r.signal_id,
    action: r.action,
    symbol: r.symbol,
    quantity: r.quantity,
    price: r.price,
    receivedAt: r.received_at.getTime(),
    outcome: r.outcome,
    message: r.message,
    orders: r.orders,
  };
}

/** Thin SQL for bots' signal hooks and the signals they received */
export const signalRepository = {
  /** The bot's hook, replaced when it has one (a new secret: the old URL stops working in the same statement) */
  async putHook(db: Queryable, h: SignalHookRow): Promise<void> {
    await db.query(
      `INSERT INTO bot_signal_hooks (bot_id, user_id, hook_id, master_key_id, wrapped_data_key, ciphertext, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7)
       ON CONFLICT (bot_id) DO UPDATE SET hook_id = EXCLUDED.hook_id, master_key_id = EXCLUDED.master_key_id,
         wrapped_data_key = EXCLUDED.wrapped_data_key, ciphertext = EXCLUDED.ciphertext,
         created_at = EXCLUDED.created_at`,
      [h.bot_id, h.user_id, h.hook_id, h.master_key_id, h.wrapped_data_key, h.ciphertext, h.created_at],
    );
  },

  async hookOfBot(db: Queryable, botId: string): Promise<SignalHookRow | undefined> {
    const rows = await db.query<Row<SignalHookRow>>('SELECT * FROM bot_signal_hooks WHERE bot_id = $1', [
      botId,
    ]);
    return rows[0] && toHook(rows[0]);
  },

  async hookById(db: Queryable, hookId: string): Promise<SignalHookRow | undefined> {
    const rows = await db.query<Row<SignalHookRow>>('SELECT * FROM bot_signal_hooks WHERE hook_id = $1', [
      hookId,
    ]);
    return rows[0] && toHook(rows[0]);
  },

  async deleteHook(db: Queryable, botId: string): Promise<boolean> {
    const rows = await db.query('DELETE FROM bot_signal_hooks WHERE bot_id = $1 RETURNING bot_id', [botId]);
    return rows.length > 0;
  },

  async lockAllHooks(db: Queryable): Promise<SignalHookRow[]> {
    const rows = await db.query<Row<SignalHookRow>>(
      'SELECT * FROM bot_signal_hooks ORDER BY bot_id FOR UPDATE',
    );
    return rows.map(toHook);
  },

  async updateWrapping(
    db: Queryable,
    botId: string,
    masterKeyId: string,
    wrappedDataKey: Buffer,
  ): Promise<void> {
    await db.query(
      'UPDATE bot_signal_hooks SET master_key_id = $2, wrapped_data_key = $3 WHERE bot_id = $1',
      [botId, masterKeyId, wrappedDataKey],
    );
  },

  /**
   * Records a signal; undefined when the bot already has one with this sender's id (nothing written: the first
   * one's record answers)
   */
  async insert(db: Queryable, s: NewSignal): Promise<SignalRow | undefined> {
    const rows = await db.query<Row<SignalRow>>(
      `INSERT INTO bot_signals (id, bot_id, signal_id, action, symbol, quantity, price, received_at, outcome, message)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
       ON CONFLICT (bot_id, signal_id) WHERE signal_id IS NOT NULL DO NOTHING
       RETURNING *`,
      [
        s.id,
        s.bot_id,
        s.signal_id,
        s.action,
        s.symbol,
        s.quantity,
        s.price,
        s.received_at,
        s.outcome,
        s.message,
      ],
    );
    return rows[0] && toSignal(rows[0]);
  },

  async bySignalId(db: Queryable, botId: string, signalId: string): Promise<SignalRow | undefined> {
    const rows = await db.query<Row<SignalRow>>(
      'SELECT * FROM bot_signals WHERE bot_id = $1 AND signal_id = $2',
      [botId, signalId],
    );
    return rows[0] && toSignal(rows[0]);
  },

  /** What the signal caused; only a pending one changes (two instances never both settle it) */
  async settle(db: Queryable, id: string, r: SignalResult): Promise<SignalRow | undefined> {
    const rows = await db.query<Row<SignalRow>>(
      `UPDATE bot_signals SET outcome = $2, message = $3, orders = $4::jsonb, session_started_at = $5,
         bar_time = $6, acted_price = $7
       WHERE id = $1 AND outcome = 'pending' RETURNING *`,
      [
        id,
        r.outcome,
        r.message,
        JSON.stringify(r.orders),
        r.session ? new Date(r.session.startedAt) : null,
        r.session ? new Date(r.session.barTime) : null,
        r.session?.price ?? null,
      ],
    );
    return rows[0] && toSignal(rows[0]);
  },

  /** Signals the bot received since `since` (refused ones too): what the rate limit counts */
  async countSince(db: Queryable, botId: string, since: Date): Promise<number> {
    const rows = await db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM bot_signals WHERE bot_id = $1 AND received_at > $2',
      [botId, since],
    );
    return rows[0]?.n ?? 0;
  },

  async latest(db: Queryable, botId: string, limit: number): Promise<SignalRow[]> {
    const rows = await db.query<Row<SignalRow>>(
      'SELECT * FROM bot_signals WHERE bot_id = $1 ORDER BY seq DESC LIMIT $2',
      [botId, limit],
    );
    return rows.map(toSignal);
  },

  /**
   * Takes a pending signal to act on it: false when another caller holds it (taken less than `staleBefore`, else it
   * is taken again: its taker died)
   */
  async take(db: Queryable, id: string, now: Date, staleBefore: Date): Promise<boolean> {
    const rows = await db.query(
      `UPDATE bot_signals SET taken_at = $2
       WHERE id = $1 AND outcome = 'pending' AND (taken_at IS NULL OR taken_at < $3) RETURNING id`,
      [id, now, staleBefore],
    );
    return rows.length > 0;
  },

  /** Signals waiting for the instance that runs their bot (none holds them, or its holder died), oldest first */
  async pendingOf(db: Queryable, botIds: readonly string[], staleBefore: Date): Promise<SignalRow[]> {
    if (botIds.length === 0) return [];
    const rows = await db.query<Row<SignalRow>>(
      `SELECT * FROM bot_signals WHERE outcome = 'pending' AND bot_id = ANY($1::uuid[])
         AND (taken_at IS NULL OR taken_at < $2)
       ORDER BY seq`,
      [botIds, staleBefore],
    );
    return rows.map(toSignal);
  },

  /** The trade signals a session acted on, oldest first: a resumed session hands them to its strategy again */
  async actedInSession(db: Queryable, botId: string, startedAt: Date): Promise<ActedSignal[]> {
    const rows = await db.query<Row<SignalRow>>(
      `SELECT * FROM bot_signals WHERE bot_id = $1 AND session_started_at = $2 AND outcome IN ('acted', 'nothing')
         AND action IN ('buy', 'sell', 'close')
       ORDER BY seq`,
      [botId, startedAt],
    );
    return rows.map(toSignal).map((r) => ({
      key: signalKey(r.id),
      signal: {
        action: r.action as 'buy' | 'sell' | 'close',
        ...(r.quantity === null ? {} : { quantity: r.quantity }),
        ...(r.price === null ? {} : { price: r.price }),
      },
      price: r.acted_price ?? 0,
      receivedAt: r.received_at.getTime(),
      barTime: r.bar_time?.getTime() ?? 0,
    }));
  },
};

/** What a signal's orders are keyed by: its record's id */
export const signalKey = (recordId: string) => `s${recordId}`;
