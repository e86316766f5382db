-- Agent trainings as jobs (issue 30): one row per training, queued and leased by the shared job runner like
-- backtests and optimisations (the same queue columns, the same claim SQL), so a training whose instance died is
-- found by its expired lease instead of staying `training` for ever. agent_state keeps the state the agent's page
-- shows (training_state and its times); this table is the queue behind it. No existing row changes

CREATE TABLE agent_trainings (
  id uuid PRIMARY KEY,
  seq bigint GENERATED ALWAYS AS IDENTITY,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  bot_id uuid NOT NULL REFERENCES bots (id) ON DELETE CASCADE,
  -- queued | running | completed | failed | canceled
  status text NOT NULL,
  progress double precision NOT NULL DEFAULT 0,
  error text,
  created_at timestamptz NOT NULL,
  started_at timestamptz,
  finished_at timestamptz,
  lease_owner text,
  lease_expires_at timestamptz,
  attempts integer NOT NULL DEFAULT 0
);
CREATE INDEX agent_trainings_bot_idx ON agent_trainings (bot_id, seq DESC);
CREATE INDEX agent_trainings_queue_idx ON agent_trainings (seq) WHERE status = 'queued';
CREATE INDEX agent_trainings_running_idx ON agent_trainings (user_id, lease_expires_at) WHERE status = 'running';
