-- AI agents (issue 18): an agent is a bot (kind 'agent', strategy 'ml-agent'); these tables hold what only an agent
-- has. Every table is keyed by the bot and goes with it (ON DELETE CASCADE).

-- The agent's stage, its latch and its training state. The latch (kill or risk breach) is kept here, not in memory,
-- so a restart does not clear it: the agent may not start again until a person resets it
CREATE TABLE agent_state (
  bot_id uuid PRIMARY KEY REFERENCES bots (id) ON DELETE CASCADE,
  stage text NOT NULL DEFAULT 'paper' CHECK (stage IN ('backtest', 'paper', 'live_approval', 'live_auto')),
  latch_cause text CHECK (latch_cause IN ('kill', 'risk_breach', 'guard')),
  latch_reason text,
  latched_at timestamptz,
  latch_from_stage text,
  training_state text NOT NULL DEFAULT 'idle' CHECK (training_state IN ('idle', 'training', 'failed')),
  training_error text,
  training_started_at timestamptz,
  training_finished_at timestamptz,
  -- The last walk-forward evidence report (the engine's agentEvidence) and when it was computed
  evidence jsonb,
  evidence_at timestamptz,
  -- Why no evidence could be computed at the last training (too little history for walk-forward folds…)
  evidence_error text,
  updated_at timestamptz NOT NULL
);

-- Trained models, newest is current. `model` is the engine's AgentModel as JSON (replayed exactly)
CREATE TABLE agent_models (
  id text NOT NULL,
  bot_id uuid NOT NULL REFERENCES bots (id) ON DELETE CASCADE,
  trained_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL,
  model jsonb NOT NULL,
  PRIMARY KEY (bot_id, id)
);
CREATE INDEX agent_models_newest ON agent_models (bot_id, created_at DESC);

-- One record per closed bar of a running agent (holds included): the decision, the reviewer's answer, the guard's
-- checklist, the orders and fills. (bot, bar) is unique: a replayed bar is never recorded twice
CREATE TABLE agent_decisions (
  id bigserial PRIMARY KEY,
  bot_id uuid NOT NULL REFERENCES bots (id) ON DELETE CASCADE,
  user_id uuid NOT NULL,
  bar_time bigint NOT NULL,
  created_at timestamptz NOT NULL,
  stage text NOT NULL,
  action text NOT NULL,
  outcome text NOT NULL,
  note text NOT NULL,
  -- What the account executed on this bar (replayed after a restart): null when nothing
  executed jsonb,
  record jsonb NOT NULL,
  UNIQUE (bot_id, bar_time)
);

-- Proposals of stage live_approval: pending until the owner approves or rejects, or they expire
CREATE TABLE agent_approvals (
  id bigserial PRIMARY KEY,
  bot_id uuid NOT NULL REFERENCES bots (id) ON DELETE CASCADE,
  decision_id bigint NOT NULL REFERENCES agent_decisions (id) ON DELETE CASCADE,
  action text NOT NULL,
  size_fraction double precision NOT NULL,
  stop_pct double precision,
  state text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'approved', 'rejected', 'expired', 'failed')),
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  decided_at timestamptz,
  -- The bar at whose close an approved proposal was executed (replayed after a restart)
  executed_bar bigint,
  note text
);
CREATE INDEX agent_approvals_by_bot ON agent_approvals (bot_id, state, created_at DESC);

-- Every configuration trained or evaluated, per owner, symbol and interval: N of the deflated Sharpe ratio
CREATE TABLE agent_trials (
  user_id uuid NOT NULL,
  symbol text NOT NULL,
  interval text NOT NULL,
  config_hash text NOT NULL,
  config jsonb NOT NULL,
  bot_id uuid,
  first_at timestamptz NOT NULL,
  last_at timestamptz NOT NULL,
  runs integer NOT NULL DEFAULT 1,
  -- The out-of-sample Sharpe of its last evaluation, when there was one (variance across trials for the DSR)
  sharpe double precision,
  PRIMARY KEY (user_id, symbol, interval, config_hash)
);
