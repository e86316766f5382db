import type { TradingEnvironment } from '@kestrel/contracts';
import type { Queryable } from '../../lib/database/database';

export interface CredentialRow {
  user_id: string;
  exchange: string;
  /** Keys belong to an environment (migration 013): a testnet key and a mainnet key side by side */
  environment: TradingEnvironment;
  region: string;
  api_key_masked: string;
  master_key_id: string;
  wrapped_data_key: Buffer;
  ciphertext: Buffer;
  created_at: Date;
  updated_at: Date;
  /** The last permission check (save or scheduled re-check); null: stored before checks were kept */
  checked_at: Date | null;
  check_ok: boolean | null;
  /** Why the last check refused the key, in the words shown to the user */
  check_reason: string | null;
}

type DbRow = Omit<CredentialRow, 'wrapped_data_key' | 'ciphertext'> & {
  wrapped_data_key: Uint8Array;
  ciphertext: Uint8Array;
};

// PGlite returns bytea as Uint8Array, node-postgres as Buffer: normalise to Buffer
const toRow = (r: DbRow): CredentialRow => ({
  ...r,
  wrapped_data_key: Buffer.from(r.wrapped_data_key),
  ciphertext: Buffer.from(r.ciphertext),
});

/** Thin SQL for the credential vault; rows are always addressed by their owner */
export const credentialsRepository = {
  async upsert(db: Queryable, row: CredentialRow): Promise<CredentialRow> {
    const rows = await db.query<DbRow & Record<string, unknown>>(
      `INSERT INTO exchange_credentials
         (user_id, exchange, region, api_key_masked, master_key_id, wrapped_data_key, ciphertext, created_at, updated_at,
          environment, checked_at, check_ok, check_reason)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)
       ON CONFLICT (user_id, exchange, environment) DO UPDATE SET
         region = EXCLUDED.region, api_key_masked = EXCLUDED.api_key_masked,
         master_key_id = EXCLUDED.master_key_id, wrapped_data_key = EXCLUDED.wrapped_data_key,
         ciphertext = EXCLUDED.ciphertext, updated_at = EXCLUDED.updated_at,
         checked_at = EXCLUDED.checked_at, check_ok = EXCLUDED.check_ok, check_reason = EXCLUDED.check_reason
       RETURNING *`,
      [
        row.user_id,
        row.exchange,
        row.region,
        row.api_key_masked,
        row.master_key_id,
        row.wrapped_data_key,
        row.ciphertext,
        row.created_at,
        row.updated_at,
        row.environment,
        row.checked_at,
        row.check_ok,
        row.check_reason,
      ],
    );
    const saved = rows[0];
    if (!saved) throw new Error('upsert returned no row');
    return toRow(saved);
  },

  async find(
    db: Queryable,
    userId: string,
    exchange: string,
    environment: TradingEnvironment,
  ): Promise<CredentialRow | undefined> {
    const rows = await db.query<DbRow & Record<string, unknown>>(
      'SELECT * FROM exchange_credentials WHERE user_id = $1 AND exchange = $2 AND environment = $3',
      [userId, exchange, environment],
    );
    return rows[0] && toRow(rows[0]);
  },

  async remove(
    db: Queryable,
    userId: string,
    exchange: string,
    environment: TradingEnvironment,
  ): Promise<boolean> {
    const rows = await db.query(
      'DELETE FROM exchange_credentials WHERE user_id = $1 AND exchange = $2 AND environment = $3 RETURNING user_id',
      [userId, exchange, environment],
    );
    return rows.length > 0;
  },

  /** Ids of the users with keys stored for `exchange` (the scheduled key re-check) */
  async userIds(db: Queryable, exchange: string): Promise<string[]> {
    const rows = await db.query<{ user_id: string }>(
      'SELECT DISTINCT user_id FROM exchange_credentials WHERE exchange = $1 ORDER BY user_id',
      [exchange],
    );
    return rows.map((r) => r.user_id);
  },

  /** Every (user, environment) with keys stored for `exchange` (the account recorder's round) */
  async accounts(
    db: Queryable,
    exchange: string,
  ): Promise<{ userId: string; environment: TradingEnvironment }[]> {
    const rows = await db.query<{ user_id: string; environment: TradingEnvironment }>(
      'SELECT user_id, environment FROM exchange_credentials WHERE exchange = $1 ORDER BY user_id, environment',
      [exchange],
    );
    return rows.map((r) => ({ userId: r.user_id, environment: r.environment }));
  },

  /**
   * Records a re-check's verdict, only if the row still holds the key that was checked (`updated_at` unchanged): a
   * key replaced while the check ran keeps its own save-time verdict
   */
  async recordCheck(
    db: Queryable,
    check: {
      user_id: string;
      exchange: string;
      environment: TradingEnvironment;
      updated_at: Date;
      checked_at: Date;
      ok: boolean;
      reason: string | null;
    },
  ): Promise<boolean> {
    const rows = await db.query(
      `UPDATE exchange_credentials SET checked_at = $4, check_ok = $5, check_reason = $6
       WHERE user_id = $1 AND exchange = $2 AND updated_at = $3 AND environment = $7 RETURNING user_id`,
      [
        check.user_id,
        check.exchange,
        check.updated_at,
        check.checked_at,
        check.ok,
        check.reason,
        check.environment,
      ],
    );
    return rows.length > 0;
  },

  /** Every row, locked, for master-key rotation inside one transaction */
  async lockAll(db: Queryable): Promise<CredentialRow[]> {
    const rows = await db.query<DbRow & Record<string, unknown>>(
      'SELECT * FROM exchange_credentials ORDER BY user_id, exchange, environment FOR UPDATE',
    );
    return rows.map(toRow);
  },

  async updateWrapping(
    db: Queryable,
    row: Pick<CredentialRow, 'user_id' | 'exchange' | 'environment' | 'master_key_id' | 'wrapped_data_key'>,
  ) {
    await db.query(
      `UPDATE exchange_credentials SET master_key_id = $3, wrapped_data_key = $4
       WHERE user_id = $1 AND exchange = $2 AND environment = $5`,
      [row.user_id, row.exchange, row.master_key_id, row.wrapped_data_key, row.environment],
    );
  },
};
export type CredentialsRepository = typeof credentialsRepository;
