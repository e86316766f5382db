import type { Queryable } from '../../../lib/database/database';

/** One agent's LLM settings (migration 018); the key sealed by the vault, or all three sealed columns null */
export interface LlmSettingsRow {
  bot_id: string;
  user_id: string;
  base_url: string;
  model: string;
  api_key_masked: string | null;
  master_key_id: string | null;
  wrapped_data_key: Buffer | null;
  ciphertext: Buffer | null;
  daily_call_cap: number;
  daily_token_cap: number;
  timeout_ms: number;
  prompt_price_per_million: number;
  completion_price_per_million: number;
  created_at: Date;
  updated_at: Date;
}

/** One review as stored: the request sent and the answer received, whole */
export interface LlmExchangeRow {
  id: string;
  bot_id: string;
  user_id: string;
  bar_time: number | null;
  model: string;
  called: boolean;
  capped: boolean;
  request: unknown;
  response: unknown;
  verdict: 'approve' | 'reduce' | 'veto';
  size_multiplier: number;
  rationale: string;
  cited_features: string[];
  error: string | null;
  latency_ms: number;
  prompt_tokens: number;
  completion_tokens: number;
  created_at: Date;
}

/** Calls, tokens and cap refusals since a moment (the start of the UTC day) */
export interface LlmUsageRow {
  calls: number;
  prompt_tokens: number;
  completion_tokens: number;
  capped: number;
}

type Db<T> = T & Record<string, unknown>;

// PGlite returns bytea as Uint8Array, node-postgres as Buffer: normalise to Buffer
const bytes = (value: unknown): Buffer | null =>
  value === null || value === undefined ? null : Buffer.from(value as Uint8Array);
const toSettings = (r: Db<LlmSettingsRow>): LlmSettingsRow => ({
  ...r,
  wrapped_data_key: bytes(r.wrapped_data_key),
  ciphertext: bytes(r.ciphertext),
  prompt_price_per_million: Number(r.prompt_price_per_million),
  completion_price_per_million: Number(r.completion_price_per_million),
});
const toExchange = (r: Db<LlmExchangeRow>): LlmExchangeRow => ({
  ...r,
  bar_time: r.bar_time === null ? null : Number(r.bar_time),
  size_multiplier: Number(r.size_multiplier),
});
const EXCHANGE_COLUMNS = `id, bot_id, user_id, bar_time, model, called, capped, request, response, verdict,
  size_multiplier, rationale, cited_features, error, latency_ms, prompt_tokens, completion_tokens, created_at`;

/** Thin SQL for the agents' LLM settings and exchanges; rows are always addressed by their owner */
export const llmRepository = {
  async findSettings(db: Queryable, userId: string, botId: string): Promise<LlmSettingsRow | undefined> {
    const rows = await db.query<Db<LlmSettingsRow>>(
      'SELECT * FROM agent_llm_settings WHERE bot_id = $1 AND user_id = $2',
      [botId, userId],
    );
    return rows[0] && toSettings(rows[0]);
  },

  async upsertSettings(db: Queryable, row: LlmSettingsRow): Promise<LlmSettingsRow> {
    const rows = await db.query<Db<LlmSettingsRow>>(
      `INSERT INTO agent_llm_settings
         (bot_id, user_id, base_url, model, api_key_masked, master_key_id, wrapped_data_key, ciphertext,
          daily_call_cap, daily_token_cap, timeout_ms, prompt_price_per_million, completion_price_per_million,
          created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)
       ON CONFLICT (bot_id) DO UPDATE SET
         base_url = EXCLUDED.base_url, model = EXCLUDED.model, api_key_masked = EXCLUDED.api_key_masked,
         master_key_id = EXCLUDED.master_key_id, wrapped_data_key = EXCLUDED.wrapped_data_key,
         ciphertext = EXCLUDED.ciphertext, daily_call_cap = EXCLUDED.daily_call_cap,
         daily_token_cap = EXCLUDED.daily_token_cap, timeout_ms = EXCLUDED.timeout_ms,
         prompt_price_per_million = EXCLUDED.prompt_price_per_million,
         completion_price_per_million = EXCLUDED.completion_price_per_million, updated_at = EXCLUDED.updated_at
       WHERE agent_llm_settings.user_id = EXCLUDED.user_id
       RETURNING *`,
      [
        row.bot_id,
        row.user_id,
        row.base_url,
        row.model,
        row.api_key_masked,
        row.master_key_id,
        row.wrapped_data_key,
        row.ciphertext,
        row.daily_call_cap,
        row.daily_token_cap,
        row.timeout_ms,
        row.prompt_price_per_million,
        row.completion_price_per_million,
        row.created_at,
        row.updated_at,
      ],
    );
    const saved = rows[0];
    if (!saved) throw new Error('agent_llm_settings upsert returned no row');
    return toSettings(saved);
  },

  async removeSettings(db: Queryable, userId: string, botId: string): Promise<boolean> {
    const rows = await db.query(
      'DELETE FROM agent_llm_settings WHERE bot_id = $1 AND user_id = $2 RETURNING bot_id',
      [botId, userId],
    );
    return rows.length > 0;
  },

  async insertExchange(db: Queryable, row: LlmExchangeRow): Promise<void> {
    await db.query(
      `INSERT INTO agent_llm_exchanges (${EXCHANGE_COLUMNS})
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18)`,
      [
        row.id,
        row.bot_id,
        row.user_id,
        row.bar_time,
        row.model,
        row.called,
        row.capped,
        JSON.stringify(row.request),
        row.response === null || row.response === undefined ? null : JSON.stringify(row.response),
        row.verdict,
        row.size_multiplier,
        row.rationale,
        row.cited_features,
        row.error,
        row.latency_ms,
        row.prompt_tokens,
        row.completion_tokens,
        row.created_at,
      ],
    );
  },

  /** Newest first; `before`: only exchanges created before that moment */
  async listExchanges(
    db: Queryable,
    userId: string,
    botId: string,
    limit: number,
    before?: Date,
  ): Promise<LlmExchangeRow[]> {
    const rows = await db.query<Db<LlmExchangeRow>>(
      `SELECT ${EXCHANGE_COLUMNS} FROM agent_llm_exchanges
       WHERE bot_id = $1 AND user_id = $2 AND ($3::timestamptz IS NULL OR created_at < $3)
       ORDER BY seq DESC LIMIT $4`,
      [botId, userId, before ?? null, limit],
    );
    return rows.map(toExchange);
  },

  async usageSince(db: Queryable, botId: string, since: Date): Promise<LlmUsageRow> {
    const rows = await db.query<Db<LlmUsageRow>>(
      `SELECT count(*) FILTER (WHERE called)::int AS calls,
              coalesce(sum(prompt_tokens), 0)::int AS prompt_tokens,
              coalesce(sum(completion_tokens), 0)::int AS completion_tokens,
              count(*) FILTER (WHERE capped)::int AS capped
       FROM agent_llm_exchanges WHERE bot_id = $1 AND created_at >= $2`,
      [botId, since],
    );
    return rows[0] ?? { calls: 0, prompt_tokens: 0, completion_tokens: 0, capped: 0 };
  },

  /** Every stored key, locked for the vault-key rotation */
  async lockAllKeys(tx: Queryable): Promise<LlmSettingsRow[]> {
    const rows = await tx.query<Db<LlmSettingsRow>>(
      'SELECT * FROM agent_llm_settings WHERE ciphertext IS NOT NULL ORDER BY bot_id FOR UPDATE',
    );
    return rows.map(toSettings);
  },

  async updateWrapping(
    tx: Queryable,
    botId: string,
    masterKeyId: string,
    wrappedDataKey: Buffer,
  ): Promise<void> {
    await tx.query(
      'UPDATE agent_llm_settings SET master_key_id = $2, wrapped_data_key = $3 WHERE bot_id = $1',
      [botId, masterKeyId, wrappedDataKey],
    );
  },
};
