import { randomUUID } from 'node:crypto';
import type { EntryProtectionRecord, EntryProtectionState, TradingEnvironment } from '@kestrel/contracts';
import type { OrderSide, PositionSide } from '../../core/exchange/exchange-types';
import type { Queryable, Row } from '../../lib/database/database';

/** A TP/SL attached to an entry (migration 025), as the follower reads it */
export interface StoredProtection extends EntryProtectionRecord {
  userId: string;
  environment: TradingEnvironment;
  closingSide: OrderSide;
  positionSide: PositionSide;
  attempts: number;
}

export interface NewProtection {
  userId: string;
  environment: TradingEnvironment;
  symbol: string;
  entryClientOrderId: string;
  closingSide: OrderSide;
  positionSide: PositionSide;
  takeProfit: string | undefined;
  stopLoss: string | undefined;
  at: number;
}

const COLUMNS = `id, user_id, environment, symbol, entry_client_order_id, closing_side, position_side, take_profit,
  stop_loss, state, detail, attempts, created_at, updated_at`;

const text = (v: unknown): string | null => (v === null || v === undefined ? null : String(v));
const time = (v: unknown): number => (v instanceof Date ? v.getTime() : new Date(String(v)).getTime());

function toProtection(r: Row): StoredProtection {
  return {
    id: String(r.id),
    userId: String(r.user_id),
    environment: r.environment === 'mainnet' ? 'mainnet' : 'testnet',
    symbol: String(r.symbol),
    entryClientOrderId: String(r.entry_client_order_id),
    closingSide: r.closing_side === 'BUY' ? 'BUY' : 'SELL',
    positionSide: r.position_side === 'LONG' || r.position_side === 'SHORT' ? r.position_side : 'BOTH',
    takeProfit: text(r.take_profit),
    stopLoss: text(r.stop_loss),
    state: String(r.state) as EntryProtectionState,
    detail: text(r.detail),
    attempts: Number(r.attempts),
    createdAt: time(r.created_at),
    updatedAt: time(r.updated_at),
  };
}

export const entryProtectionRepository = {
  /**
   * Records the TP/SL of an entry before the entry is sent, or finds the one already recorded for it (the same
   * entry asked again): one row per (user, entry client order id)
   */
  async claim(db: Queryable, p: NewProtection): Promise<StoredProtection> {
    const [inserted] = await db.query(
      `INSERT INTO entry_protections (id, user_id, environment, symbol, entry_client_order_id, closing_side,
         position_side, take_profit, stop_loss, state, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, 'waiting', $10, $10)
       ON CONFLICT (user_id, entry_client_order_id) DO NOTHING
       RETURNING ${COLUMNS}`,
      [
        randomUUID(),
        p.userId,
        p.environment,
        p.symbol,
        p.entryClientOrderId,
        p.closingSide,
        p.positionSide,
        p.takeProfit ?? null,
        p.stopLoss ?? null,
        new Date(p.at),
      ],
    );
    if (inserted) return toProtection(inserted);
    const [existing] = await db.query(
      `SELECT ${COLUMNS} FROM entry_protections WHERE user_id = $1 AND entry_client_order_id = $2`,
      [p.userId, p.entryClientOrderId],
    );
    if (!existing)
      throw new Error(`entry protection of ${p.entryClientOrderId} vanished while being claimed`);
    return toProtection(existing);
  },

  /** Every waiting one (all users), oldest first: what the follower looks at */
  async waiting(db: Queryable, limit: number): Promise<StoredProtection[]> {
    const rows = await db.query(
      `SELECT ${COLUMNS} FROM entry_protections WHERE state = 'waiting' ORDER BY created_at LIMIT $1`,
      [limit],
    );
    return rows.map(toProtection);
  },

  /** The user's waiting ones and their latest others on one environment, newest first */
  async list(
    db: Queryable,
    account: { userId: string; environment: TradingEnvironment },
    limit: number,
  ): Promise<StoredProtection[]> {
    const rows = await db.query(
      `SELECT ${COLUMNS} FROM entry_protections WHERE user_id = $1 AND environment = $2
        ORDER BY (state = 'waiting') DESC, created_at DESC LIMIT $3`,
      [account.userId, account.environment, limit],
    );
    return rows.map(toProtection);
  },

  /**
   * Ends a waiting one (placed, failed, canceled) or counts an attempt on it; guarded by `waiting`, so two
   * followers racing on one entry cannot both conclude. Answers the row as it now stands, or undefined if refused
   */
  async settle(
    db: Queryable,
    id: string,
    change: { state: EntryProtectionState; detail?: string | null; attempts?: number; at: number },
  ): Promise<StoredProtection | undefined> {
    const [row] = await db.query(
      `UPDATE entry_protections SET state = $2, detail = $3, attempts = COALESCE($4, attempts), updated_at = $5
        WHERE id = $1 AND state = 'waiting' RETURNING ${COLUMNS}`,
      [id, change.state, change.detail ?? null, change.attempts ?? null, new Date(change.at)],
    );
    return row ? toProtection(row) : undefined;
  },
};
export type EntryProtectionRepository = typeof entryProtectionRepository;
