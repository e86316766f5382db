-- The account recorder: equity snapshots and the exchange's income history per user, kept beyond Binance's
-- short windows. Every server instance records; the keys below make a second instance's writes no-ops.

-- One row per user per minute: whichever instance writes the minute first keeps it
CREATE TABLE equity_snapshots (
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  -- The minute (floored) the snapshot stands for
  minute timestamptz NOT NULL,
  -- When the exchange was read (server clock)
  taken_at timestamptz NOT NULL,
  wallet_balance numeric NOT NULL,
  unrealized_pnl numeric NOT NULL,
  margin_balance numeric NOT NULL,
  maintenance_margin numeric NOT NULL,
  PRIMARY KEY (user_id, minute)
);

-- Binance's income entries; tranId is unique per income type and account
CREATE TABLE income_entries (
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  income_type text NOT NULL,
  tran_id text NOT NULL,
  symbol text NOT NULL,
  income numeric NOT NULL,
  asset text NOT NULL,
  info text NOT NULL,
  trade_id text NOT NULL,
  time timestamptz NOT NULL,
  PRIMARY KEY (user_id, income_type, tran_id)
);
CREATE INDEX income_entries_user_time_idx ON income_entries (user_id, time DESC);

-- How far each user's income has been imported, and the backoff of a user whose keys or exchange failed
CREATE TABLE income_sync (
  user_id uuid PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
  -- Every entry up to this time has been imported (null: the first import has not finished)
  synced_to timestamptz,
  failures integer NOT NULL DEFAULT 0,
  retry_at timestamptz,
  last_error text,
  updated_at timestamptz NOT NULL
);
