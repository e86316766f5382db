-- Bots: a strategy run by the server on paper or live, owned by one user. A running bot is held by exactly one
-- server process through a lease it renews (like backtests' leases); a process that dies lets another take the
-- bot over once the lease expires. Every bot event goes to bot_events, the log the owner reads.

CREATE TABLE bots (
  id uuid PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  kind text NOT NULL CHECK (kind IN ('bot', 'agent')),
  name text NOT NULL,
  strategy text NOT NULL,
  -- As the strategy's schema filled them (defaults included)
  params jsonb NOT NULL,
  symbol text NOT NULL,
  interval text NOT NULL,
  leverage integer NOT NULL CHECK (leverage BETWEEN 1 AND 125),
  budget numeric NOT NULL CHECK (budget > 0),
  mode text NOT NULL CHECK (mode IN ('paper', 'live')),
  -- { maxNotional, dailyLossLimit, maxDrawdownPercent }, each a number or null
  risk_limits jsonb NOT NULL,
  -- What the owner asked for: 'running' bots are resumed after a restart; 'stopped' ones stay stopped
  state text NOT NULL CHECK (state IN ('stopped', 'starting', 'running', 'stopping', 'error')),
  stop_reason text,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  started_at timestamptz,
  stopped_at timestamptz,
  -- The process running the bot (random per process start) and until when its claim holds
  lease_owner text,
  lease_expires_at timestamptz
);
CREATE INDEX bots_user_idx ON bots (user_id, created_at);
-- What a process scans for bots to run or take over
CREATE INDEX bots_active_idx ON bots (lease_expires_at) WHERE state IN ('starting', 'running', 'stopping');

CREATE TABLE bot_events (
  id uuid PRIMARY KEY,
  -- Insertion order: events of the same millisecond still list newest first
  seq bigint GENERATED ALWAYS AS IDENTITY,
  bot_id uuid NOT NULL REFERENCES bots (id) ON DELETE CASCADE,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  kind text NOT NULL,
  message text NOT NULL,
  data jsonb NOT NULL,
  created_at timestamptz NOT NULL
);
CREATE INDEX bot_events_bot_idx ON bot_events (bot_id, seq DESC);
