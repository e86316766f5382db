-- Backtest jobs (per user) and the kline cache they read

CREATE TABLE backtests (
  id uuid PRIMARY KEY,
  -- Creation order (created_at can tie within a millisecond): lists are newest first
  seq bigint GENERATED ALWAYS AS IDENTITY,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  strategy text NOT NULL,
  strategy_name text NOT NULL,
  symbol text NOT NULL,
  interval text NOT NULL,
  start_time bigint NOT NULL,
  end_time bigint NOT NULL,
  -- Which exchange environment the bars came from (the kline cache key)
  exchange_env text NOT NULL,
  -- The request with defaults filled (what the detail shows) and the engine settings derived from it
  request jsonb NOT NULL,
  settings jsonb NOT NULL,
  -- queued | running | completed | failed | canceled
  status text NOT NULL,
  progress double precision NOT NULL DEFAULT 0,
  error text,
  metrics jsonb,
  -- { equity, trades, markers } once completed
  result jsonb,
  created_at timestamptz NOT NULL,
  started_at timestamptz,
  finished_at timestamptz
);
CREATE INDEX backtests_user_seq_idx ON backtests (user_id, seq DESC);
CREATE INDEX backtests_status_idx ON backtests (status) WHERE status IN ('queued', 'running');

-- Closed candles of the configured exchange, shared by every user's runs (market data is public)
CREATE TABLE klines (
  exchange_env text NOT NULL,
  symbol text NOT NULL,
  interval text NOT NULL,
  open_time bigint NOT NULL,
  open double precision NOT NULL,
  high double precision NOT NULL,
  low double precision NOT NULL,
  close double precision NOT NULL,
  volume double precision NOT NULL,
  PRIMARY KEY (exchange_env, symbol, interval, open_time)
);

-- Spans [start_time, end_time) already asked of the exchange: bars missing inside one do not exist there
-- (before the symbol listed, maintenance), so they are not fetched again
CREATE TABLE kline_coverage (
  exchange_env text NOT NULL,
  symbol text NOT NULL,
  interval text NOT NULL,
  start_time bigint NOT NULL,
  end_time bigint NOT NULL,
  PRIMARY KEY (exchange_env, symbol, interval, start_time)
);
