import type { Queryable } from '../../lib/database/database';

export interface UserRow {
  id: string;
  email: string;
  email_normalized: string;
  name: string | null;
  password_hash: string;
  created_at: Date;
}

export interface SessionRow {
  id: string;
  user_id: string;
  created_at: Date;
  last_used_at: Date;
  expires_at: Date;
  revoked_at: Date | null;
  revoked_reason: string | null;
  user_agent: string | null;
  ip: string | null;
  /** When the session last gave its password (migration 009) */
  step_up_at: Date | null;
}

export interface ThrottleRow {
  failures: number;
  window_started_at: Date;
  blocked_until: Date | null;
}

/** Thin SQL for users, sessions, refresh tokens and sign-in throttling; every method takes the db or a transaction */
export const authRepository = {
  /** Returns false when the normalised email is taken (no error, so an open transaction stays usable) */
  async insertUser(db: Queryable, user: UserRow): Promise<boolean> {
    const rows = await db.query(
      `INSERT INTO users (id, email, email_normalized, name, password_hash, created_at)
       VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (email_normalized) DO NOTHING RETURNING id`,
      [user.id, user.email, user.email_normalized, user.name, user.password_hash, user.created_at],
    );
    return rows.length > 0;
  },

  async findUserByEmail(db: Queryable, emailNormalized: string): Promise<UserRow | undefined> {
    const rows = await db.query<UserRow & Record<string, unknown>>(
      'SELECT * FROM users WHERE email_normalized = $1',
      [emailNormalized],
    );
    return rows[0];
  },

  /** Remembers that the browser holding `deviceKey` (its DPoP key thumbprint) signed in to the account */
  async rememberDevice(db: Queryable, userId: string, deviceKey: string, now: Date): Promise<void> {
    await db.query(
      `INSERT INTO known_devices (user_id, device_key, first_seen_at, last_seen_at) VALUES ($1, $2, $3, $3)
       ON CONFLICT (user_id, device_key) DO UPDATE SET last_seen_at = EXCLUDED.last_seen_at`,
      [userId, deviceKey, now],
    );
  },

  async isKnownDevice(db: Queryable, userId: string, deviceKey: string): Promise<boolean> {
    const rows = await db.query('SELECT 1 FROM known_devices WHERE user_id = $1 AND device_key = $2', [
      userId,
      deviceKey,
    ]);
    return rows.length > 0;
  },

  async findUserById(db: Queryable, id: string): Promise<UserRow | undefined> {
    const rows = await db.query<UserRow & Record<string, unknown>>('SELECT * FROM users WHERE id = $1', [id]);
    return rows[0];
  },

  /** A new session and its first refresh token, in one statement (atomic without a transaction) */
  async insertSessionWithToken(
    db: Queryable,
    s: Omit<SessionRow, 'revoked_at' | 'revoked_reason'>,
    tokenHash: Buffer,
  ): Promise<void> {
    await db.query(
      `WITH session AS (
         INSERT INTO sessions (id, user_id, created_at, last_used_at, expires_at, user_agent, ip, step_up_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $9) RETURNING id, created_at
       )
       INSERT INTO refresh_tokens (token_hash, session_id, created_at) SELECT $8, id, created_at FROM session`,
      [
        s.id,
        s.user_id,
        s.created_at,
        s.last_used_at,
        s.expires_at,
        s.user_agent,
        s.ip,
        tokenHash,
        s.step_up_at,
      ],
    );
  },

  async findSession(db: Queryable, id: string): Promise<SessionRow | undefined> {
    const rows = await db.query<SessionRow & Record<string, unknown>>(
      'SELECT * FROM sessions WHERE id = $1',
      [id],
    );
    return rows[0];
  },

  async touchSession(db: Queryable, id: string, at: Date): Promise<void> {
    await db.query('UPDATE sessions SET last_used_at = $2 WHERE id = $1', [id, at]);
  },

  /** Revokes one session of one user; returns false when that user has no such live session */
  async revokeSession(db: Queryable, id: string, userId: string, reason: string, at: Date): Promise<boolean> {
    const rows = await db.query(
      `UPDATE sessions SET revoked_at = $4, revoked_reason = $3
       WHERE id = $1 AND user_id = $2 AND revoked_at IS NULL RETURNING id`,
      [id, userId, reason, at],
    );
    return rows.length > 0;
  },

  async listLiveSessions(db: Queryable, userId: string, now: Date): Promise<SessionRow[]> {
    return db.query<SessionRow & Record<string, unknown>>(
      `SELECT * FROM sessions WHERE user_id = $1 AND revoked_at IS NULL AND expires_at > $2
       ORDER BY last_used_at DESC`,
      [userId, now],
    );
  },

  /** Those of `ids` whose session is neither revoked nor expired at `now` */
  async liveSessionIds(db: Queryable, ids: readonly string[], now: Date): Promise<string[]> {
    const rows = await db.query<{ id: string }>(
      'SELECT id FROM sessions WHERE id = ANY($1::uuid[]) AND revoked_at IS NULL AND expires_at > $2',
      [ids, now],
    );
    return rows.map((r) => r.id);
  },

  async insertRefreshToken(db: Queryable, tokenHash: Buffer, sessionId: string, at: Date): Promise<void> {
    await db.query('INSERT INTO refresh_tokens (token_hash, session_id, created_at) VALUES ($1, $2, $3)', [
      tokenHash,
      sessionId,
      at,
    ]);
  },

  /**
   * Marks an unused token used in one statement, so two concurrent refreshes cannot both win. Returns its
   * session, or undefined when the token is unknown or was already used.
   */
  async consumeRefreshToken(db: Queryable, tokenHash: Buffer, at: Date): Promise<string | undefined> {
    const rows = await db.query<{ session_id: string }>(
      'UPDATE refresh_tokens SET used_at = $2 WHERE token_hash = $1 AND used_at IS NULL RETURNING session_id',
      [tokenHash, at],
    );
    return rows[0]?.session_id;
  },

  async findRefreshToken(
    db: Queryable,
    tokenHash: Buffer,
  ): Promise<{ session_id: string; used_at: Date | null } | undefined> {
    const rows = await db.query<{ session_id: string; used_at: Date | null }>(
      'SELECT session_id, used_at FROM refresh_tokens WHERE token_hash = $1',
      [tokenHash],
    );
    return rows[0];
  },

  /**
   * The sweep: deletes sessions that ended (expired or revoked) before `endedBefore`, with their refresh tokens
   * (ON DELETE CASCADE), and used refresh tokens of live sessions used before `usedBefore`
   */
  async deleteSpent(
    db: Queryable,
    cut: { endedBefore: Date; usedBefore: Date },
  ): Promise<{ sessions: number; refreshTokens: number }> {
    const [sessions] = await db.query<{ n: number }>(
      `WITH gone AS (DELETE FROM sessions WHERE expires_at <= $1 OR revoked_at <= $1 RETURNING 1)
       SELECT count(*)::int AS n FROM gone`,
      [cut.endedBefore],
    );
    const [tokens] = await db.query<{ n: number }>(
      `WITH gone AS (DELETE FROM refresh_tokens WHERE used_at <= $1 RETURNING 1)
       SELECT count(*)::int AS n FROM gone`,
      [cut.usedBefore],
    );
    return { sessions: sessions?.n ?? 0, refreshTokens: tokens?.n ?? 0 };
  },

  /**
   * Counts one attempt on `key` in a single statement, so parallel attempts each get their own number (the check
   * and the count cannot interleave), starting a new window when the last one began before `windowStart`. While the
   * key is blocked nothing is counted. An attempt past `limit` blocks the key at once for `blockMs(over)`; when a
   * block had expired before it, that attempt is the probe (it gets `probe` back and is checked), otherwise (a
   * burst) it is refused like the rest.
   */
  async countAttempt(
    db: Queryable,
    attempt: { key: string; limit: number; probe: string; now: Date; windowStart: Date },
    block: { firstMs: number; maxMs: number },
  ): Promise<ThrottleRow & { probe: string | null }> {
    const rows = await db.query<ThrottleRow & { probe: string | null } & Record<string, unknown>>(
      `INSERT INTO signin_failures AS f (throttle_key, failures, window_started_at) VALUES ($1, 1, $2::timestamptz)
       ON CONFLICT (throttle_key) DO UPDATE SET
         failures = CASE
           WHEN f.blocked_until > $2::timestamptz THEN f.failures
           WHEN f.window_started_at <= $3::timestamptz THEN 1
           ELSE f.failures + 1 END,
         window_started_at = CASE
           WHEN f.blocked_until > $2::timestamptz THEN f.window_started_at
           WHEN f.window_started_at <= $3::timestamptz THEN $2::timestamptz
           ELSE f.window_started_at END,
         blocked_until = CASE
           WHEN f.blocked_until > $2::timestamptz THEN f.blocked_until
           WHEN f.window_started_at <= $3::timestamptz THEN NULL
           WHEN f.failures + 1 > $4::int THEN
             $2::timestamptz + LEAST($6::float8 * power(2, f.failures + 1 - $4::int), $7::float8) * interval '1 millisecond'
           ELSE f.blocked_until END,
         probe = CASE
           WHEN f.blocked_until > $2::timestamptz THEN f.probe
           WHEN f.window_started_at > $3::timestamptz AND f.failures + 1 > $4::int AND f.blocked_until IS NOT NULL THEN $5::uuid
           ELSE NULL END
       RETURNING failures, window_started_at, blocked_until, probe`,
      [
        attempt.key,
        attempt.now,
        attempt.windowStart,
        attempt.limit,
        attempt.probe,
        block.firstMs,
        block.maxMs,
      ],
    );
    const row = rows[0];
    if (!row) throw new Error('countAttempt returned no row');
    return row;
  },

  /** Takes back one counted attempt (it turned out to be the right password) */
  async uncountAttempt(db: Queryable, key: string): Promise<void> {
    await db.query(
      'UPDATE signin_failures SET failures = GREATEST(failures - 1, 0) WHERE throttle_key = $1',
      [key],
    );
  },

  /** Blocks `key` until `until`, unless it is already blocked longer */
  async setBlockedUntil(db: Queryable, key: string, until: Date): Promise<void> {
    await db.query(
      'UPDATE signin_failures SET blocked_until = GREATEST(blocked_until, $2) WHERE throttle_key = $1',
      [key, until],
    );
  },

  async clearFailures(db: Queryable, key: string): Promise<void> {
    await db.query('DELETE FROM signin_failures WHERE throttle_key = $1', [key]);
  },
};
export type AuthRepository = typeof authRepository;
