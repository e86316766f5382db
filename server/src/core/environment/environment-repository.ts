import type { EnvironmentHistoryEntry, TradingEnvironment } from '@kestrel/contracts';
import type { Queryable } from '../../lib/database/database';

export interface EnvironmentRow {
  environment: TradingEnvironment;
  history: EnvironmentHistoryEntry[];
}

/** Thin SQL for `user_environments` (migration 013); no row = the default, testnet */
export const environmentRepository = {
  async find(db: Queryable, userId: string): Promise<EnvironmentRow | undefined> {
    const rows = await db.query<{ environment: TradingEnvironment; history: EnvironmentHistoryEntry[] }>(
      'SELECT environment, history FROM user_environments WHERE user_id = $1',
      [userId],
    );
    return rows[0];
  },

  async save(db: Queryable, userId: string, row: EnvironmentRow, at: Date): Promise<void> {
    await db.query(
      `INSERT INTO user_environments (user_id, environment, history, updated_at) VALUES ($1, $2, $3, $4)
       ON CONFLICT (user_id) DO UPDATE SET
         environment = EXCLUDED.environment, history = EXCLUDED.history, updated_at = EXCLUDED.updated_at`,
      [userId, row.environment, JSON.stringify(row.history), at],
    );
  },
};
export type EnvironmentRepository = typeof environmentRepository;
