-- An agent's optional LLM reviewer (issue 18): its settings per agent, the API key sealed like exchange keys
-- (lib/crypto/envelope.ts; AAD = user + agent), and every exchange with the model kept whole (prompt and reply).

CREATE TABLE agent_llm_settings (
  bot_id uuid PRIMARY KEY REFERENCES bots (id) ON DELETE CASCADE,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  base_url text NOT NULL,
  model text NOT NULL,
  -- The sealed key; all three null when none is stored (Ollama needs none)
  api_key_masked text,
  master_key_id text,
  wrapped_data_key bytea,
  ciphertext bytea,
  daily_call_cap integer NOT NULL CHECK (daily_call_cap > 0),
  daily_token_cap integer NOT NULL CHECK (daily_token_cap > 0),
  timeout_ms integer NOT NULL CHECK (timeout_ms > 0),
  prompt_price_per_million double precision NOT NULL DEFAULT 0,
  completion_price_per_million double precision NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  CHECK ((master_key_id IS NULL) = (ciphertext IS NULL) AND (ciphertext IS NULL) = (wrapped_data_key IS NULL))
);

CREATE TABLE agent_llm_exchanges (
  id uuid PRIMARY KEY,
  -- Insertion order: exchanges of the same millisecond still list newest first
  seq bigint GENERATED ALWAYS AS IDENTITY,
  bot_id uuid NOT NULL REFERENCES bots (id) ON DELETE CASCADE,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  bar_time bigint,
  model text NOT NULL,
  -- false: nothing was sent (a cap was reached, the key could not be read); such rows count in `capped`, not calls
  called boolean NOT NULL,
  capped boolean NOT NULL DEFAULT false,
  request jsonb NOT NULL,
  response jsonb,
  verdict text NOT NULL CHECK (verdict IN ('approve', 'reduce', 'veto')),
  size_multiplier double precision NOT NULL CHECK (size_multiplier BETWEEN 0 AND 1),
  rationale text NOT NULL,
  cited_features text[] NOT NULL,
  error text,
  latency_ms integer NOT NULL,
  prompt_tokens integer NOT NULL,
  completion_tokens integer NOT NULL,
  created_at timestamptz NOT NULL
);
CREATE INDEX agent_llm_exchanges_bot_idx ON agent_llm_exchanges (bot_id, seq DESC);
-- Today's usage per agent (the caps)
CREATE INDEX agent_llm_exchanges_day_idx ON agent_llm_exchanges (bot_id, created_at);
