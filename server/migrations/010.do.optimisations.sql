-- Optimisation jobs (issue 20): a parameter sweep of one strategy over one symbol and range, queued and leased like
-- backtests (the same queue columns, the same claim SQL), with every combination's metrics kept in
-- optimisation_results and the overfitting statistics, the best combination and the walk-forward analysis on the job

CREATE TABLE optimisations (
  id uuid PRIMARY KEY,
  seq bigint GENERATED ALWAYS AS IDENTITY,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  strategy text NOT NULL,
  strategy_name text NOT NULL,
  symbol text NOT NULL,
  interval text NOT NULL,
  start_time bigint NOT NULL,
  end_time bigint NOT NULL,
  exchange_env text NOT NULL,
  objective text NOT NULL,
  -- Grid size and the swept parameters in grid order
  combinations integer NOT NULL,
  parameters jsonb NOT NULL,
  -- The request with defaults filled, and the engine settings derived from it
  request jsonb NOT NULL,
  settings jsonb NOT NULL,
  -- queued | running | completed | failed | canceled
  status text NOT NULL,
  progress double precision NOT NULL DEFAULT 0,
  error text,
  -- Engine overfittingReport (DSR, PBO, random entry), the best combination, the walk-forward folds and curve
  stats jsonb,
  best jsonb,
  walk_forward jsonb,
  created_at timestamptz NOT NULL,
  started_at timestamptz,
  finished_at timestamptz,
  lease_owner text,
  lease_expires_at timestamptz,
  attempts integer NOT NULL DEFAULT 0
);
CREATE INDEX optimisations_user_seq_idx ON optimisations (user_id, seq DESC);
CREATE INDEX optimisations_queue_idx ON optimisations (seq) WHERE status = 'queued';
CREATE INDEX optimisations_running_idx ON optimisations (user_id, lease_expires_at) WHERE status = 'running';

-- Every combination of a completed job, in grid order (metrics null when the strategy refused it)
CREATE TABLE optimisation_results (
  optimisation_id uuid NOT NULL REFERENCES optimisations (id) ON DELETE CASCADE,
  idx integer NOT NULL,
  params jsonb NOT NULL,
  metrics jsonb,
  error text,
  PRIMARY KEY (optimisation_id, idx)
);
