-- Account limits checked before every order the server places, and the audit of what the risk guard and the kill
-- switch did

-- One row per user; a null column is "no limit"
CREATE TABLE risk_limits (
  user_id uuid PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
  max_leverage numeric,
  daily_loss_limit numeric,
  max_drawdown_percent numeric,
  max_position_notional numeric,
  updated_at timestamptz NOT NULL
);

-- Refused orders, limit changes and kill switches, newest first per user
CREATE TABLE risk_events (
  id uuid PRIMARY KEY,
  -- Insertion order: events of the same millisecond still list newest first
  seq bigint GENERATED ALWAYS AS IDENTITY,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  kind text NOT NULL CHECK (kind IN ('refusal', 'limits', 'kill_switch')),
  message text NOT NULL,
  detail jsonb NOT NULL,
  created_at timestamptz NOT NULL
);
CREATE INDEX risk_events_user_time_idx ON risk_events (user_id, created_at DESC);
