import type { BotRiskLimits } from '@kestrel/contracts/bots';
import type { Queryable } from '../../lib/database/database';

export interface AccountEventRow {
  id: string;
  user_id: string;
  kind: string;
  message: string;
  ip: string | null;
  user_agent: string | null;
  created_at: Date;
}

export interface SettingsRow {
  default_bot_risk_limits: unknown;
  updated_at: Date;
}

/** Thin SQL for the account audit, settings and account-wide changes; every method takes the db or a transaction */
export const accountRepository = {
  async insertEvent(db: Queryable, e: AccountEventRow): Promise<void> {
    await db.query(
      `INSERT INTO account_events (id, user_id, kind, message, ip, user_agent, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [e.id, e.user_id, e.kind, e.message, e.ip, e.user_agent, e.created_at],
    );
  },

  async listEvents(db: Queryable, userId: string, limit: number): Promise<AccountEventRow[]> {
    return db.query<AccountEventRow & Record<string, unknown>>(
      `SELECT id, user_id, kind, message, ip, user_agent, created_at FROM account_events
       WHERE user_id = $1 ORDER BY seq DESC LIMIT $2`,
      [userId, limit],
    );
  },

  /** Whether the user signed up or in before with this user agent */
  async hasSignedInFrom(db: Queryable, userId: string, userAgent: string | null): Promise<boolean> {
    const rows = await db.query(
      `SELECT 1 FROM account_events WHERE user_id = $1 AND kind IN ('signup', 'signin')
       AND user_agent IS NOT DISTINCT FROM $2 LIMIT 1`,
      [userId, userAgent],
    );
    return rows.length > 0;
  },

  async updateName(db: Queryable, userId: string, name: string | null): Promise<boolean> {
    const rows = await db.query('UPDATE users SET name = $2 WHERE id = $1 RETURNING id', [userId, name]);
    return rows.length > 0;
  },

  async updatePasswordHash(db: Queryable, userId: string, passwordHash: string): Promise<void> {
    await db.query('UPDATE users SET password_hash = $2 WHERE id = $1', [userId, passwordHash]);
  },

  /** Ends every live session of the user except `keep`; returns how many were ended */
  async revokeOtherSessions(
    db: Queryable,
    userId: string,
    keep: string,
    reason: string,
    at: Date,
  ): Promise<number> {
    const rows = await db.query(
      `UPDATE sessions SET revoked_at = $4, revoked_reason = $3
       WHERE user_id = $1 AND id <> $2 AND revoked_at IS NULL AND expires_at > $4 RETURNING id`,
      [userId, keep, reason, at],
    );
    return rows.length;
  },

  async setStepUp(db: Queryable, sessionId: string, at: Date): Promise<void> {
    await db.query('UPDATE sessions SET step_up_at = $2 WHERE id = $1', [sessionId, at]);
  },

  async stepUpAt(db: Queryable, sessionId: string): Promise<Date | null> {
    const rows = await db.query<{ step_up_at: Date | null }>(
      'SELECT step_up_at FROM sessions WHERE id = $1',
      [sessionId],
    );
    return rows[0]?.step_up_at ?? null;
  },

  async findSettings(db: Queryable, userId: string): Promise<SettingsRow | undefined> {
    const rows = await db.query<SettingsRow & Record<string, unknown>>(
      'SELECT default_bot_risk_limits, updated_at FROM user_settings WHERE user_id = $1',
      [userId],
    );
    return rows[0];
  },

  async upsertSettings(db: Queryable, userId: string, limits: BotRiskLimits, at: Date): Promise<void> {
    await db.query(
      `INSERT INTO user_settings (user_id, default_bot_risk_limits, updated_at) VALUES ($1, $2, $3)
       ON CONFLICT (user_id) DO UPDATE SET default_bot_risk_limits = $2, updated_at = $3`,
      [userId, JSON.stringify(limits), at],
    );
  },

  /** Deletes the user; every row of theirs (sessions, keys, bots, history, audit…) goes by ON DELETE CASCADE */
  async deleteUser(db: Queryable, userId: string): Promise<boolean> {
    const rows = await db.query('DELETE FROM users WHERE id = $1 RETURNING id', [userId]);
    return rows.length > 0;
  },
};
export type AccountRepository = typeof accountRepository;
