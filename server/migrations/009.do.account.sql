-- Account: the audit of every account change the user can read, password step-up on sessions, and per-user settings

-- When this session last gave its password (sign-in, sign-up or a step-up): guarded actions need it within 5 minutes
ALTER TABLE sessions ADD COLUMN step_up_at timestamptz;

-- Every change to an account (profile, password, sessions, keys, settings, step-ups, sign-ins), newest first
CREATE TABLE account_events (
  id uuid PRIMARY KEY,
  -- Insertion order: events of the same millisecond still list newest first
  seq bigint GENERATED ALWAYS AS IDENTITY,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  kind text NOT NULL,
  message text NOT NULL,
  ip text,
  user_agent text,
  created_at timestamptz NOT NULL
);
CREATE INDEX account_events_user_seq_idx ON account_events (user_id, seq DESC);

-- One row per user once changed; no row = the defaults
CREATE TABLE user_settings (
  user_id uuid PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
  -- The bot risk limits a new bot starts with (contracts' BotRiskLimitsSchema)
  default_bot_risk_limits jsonb NOT NULL,
  updated_at timestamptz NOT NULL
);
