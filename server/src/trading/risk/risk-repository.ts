import { randomUUID } from 'node:crypto';
import type { RiskEvent, RiskLimits, StoredRiskLimits } from '@kestrel/contracts';
import type { TradingAccount } from '../../core/environment/trading-account';
import type { Queryable } from '../../lib/database/database';

export type RiskEventKind = RiskEvent['kind'];

const ms = (column: string) => `(extract(epoch FROM ${column}) * 1000)::float8`;
// node-postgres returns numeric as a string, PGlite too; null stays null
const numOrNull = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));

/** Thin SQL of the risk limits and the risk audit */
export const riskRepository = {
  /** The user's limits, or undefined when none were ever set */
  async limits(db: Queryable, userId: string): Promise<StoredRiskLimits | undefined> {
    const [row] = await db.query(
      `SELECT max_leverage::text, daily_loss_limit::text, max_drawdown_percent::text,
              max_position_notional::text, ${ms('updated_at')} AS updated_at
         FROM risk_limits WHERE user_id = $1`,
      [userId],
    );
    if (!row) return undefined;
    return {
      maxLeverage: numOrNull(row.max_leverage),
      dailyLossLimit: numOrNull(row.daily_loss_limit),
      maxDrawdownPercent: numOrNull(row.max_drawdown_percent),
      maxPositionNotional: numOrNull(row.max_position_notional),
      updatedAt: Number(row.updated_at),
    };
  },

  async saveLimits(db: Queryable, userId: string, limits: RiskLimits, at: number): Promise<void> {
    await db.query(
      `INSERT INTO risk_limits
         (user_id, max_leverage, daily_loss_limit, max_drawdown_percent, max_position_notional, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (user_id) DO UPDATE SET
         max_leverage = EXCLUDED.max_leverage, daily_loss_limit = EXCLUDED.daily_loss_limit,
         max_drawdown_percent = EXCLUDED.max_drawdown_percent,
         max_position_notional = EXCLUDED.max_position_notional, updated_at = EXCLUDED.updated_at`,
      [
        userId,
        limits.maxLeverage,
        limits.dailyLossLimit,
        limits.maxDrawdownPercent,
        limits.maxPositionNotional,
        new Date(at),
      ],
    );
  },

  /**
   * Highest margin balance the account recorder has stored for the account (the user's key of one environment),
   * undefined before the first snapshot
   */
  async equityPeak(db: Queryable, account: TradingAccount): Promise<number | undefined> {
    const [row] = await db.query(
      'SELECT max(margin_balance)::text AS peak FROM equity_snapshots WHERE user_id = $1 AND environment = $2',
      [account.userId, account.environment],
    );
    return numOrNull(row?.peak) ?? undefined;
  },

  async insertEvent(
    db: Queryable,
    event: { userId: string; kind: RiskEventKind; message: string; detail: object; at: number },
  ): Promise<RiskEvent> {
    const id = randomUUID();
    await db.query(
      'INSERT INTO risk_events (id, user_id, kind, message, detail, created_at) VALUES ($1, $2, $3, $4, $5, $6)',
      [id, event.userId, event.kind, event.message, JSON.stringify(event.detail), new Date(event.at)],
    );
    return {
      id,
      kind: event.kind,
      message: event.message,
      detail: event.detail as Record<string, unknown>,
      createdAt: event.at,
    };
  },

  /** Newest first */
  async events(db: Queryable, userId: string, limit: number): Promise<RiskEvent[]> {
    const rows = await db.query(
      `SELECT id, kind, message, detail, ${ms('created_at')} AS created_at
         FROM risk_events WHERE user_id = $1 ORDER BY created_at DESC, seq DESC LIMIT $2`,
      [userId, limit],
    );
    return rows.map((r) => ({
      id: String(r.id),
      kind: r.kind as RiskEventKind,
      message: String(r.message),
      detail: (typeof r.detail === 'string' ? JSON.parse(r.detail) : r.detail) as Record<string, unknown>,
      createdAt: Number(r.created_at),
    }));
  },
};

export type RiskRepository = typeof riskRepository;
