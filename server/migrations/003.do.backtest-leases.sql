-- Backtest jobs shared by every server instance on the database: a run is claimed with a lease that its instance
-- renews; a lease that expires (the instance died) lets any instance take the run back. And which leverage
-- brackets a run's liquidations used.

-- The instance running the run (random per process start) and until when its claim holds
ALTER TABLE backtests ADD COLUMN lease_owner text;
ALTER TABLE backtests ADD COLUMN lease_expires_at timestamptz;
-- How many times the run was claimed: an instance dying mid-run puts it back in the queue, a run that keeps
-- taking its instance down is failed instead of being retried forever
ALTER TABLE backtests ADD COLUMN attempts integer NOT NULL DEFAULT 0;
-- 'exchange' (the symbol's table read with the owner's keys) or 'default' (the engine's BTCUSDT table); null until
-- the run completes
ALTER TABLE backtests ADD COLUMN brackets_source text;
-- Every run completed before this column existed used the default table
UPDATE backtests SET brackets_source = 'default' WHERE status = 'completed';
-- Runs left running by a server of the previous version hold no lease: they count as expired at once

-- The queue, oldest first, and the leases to check
CREATE INDEX backtests_queue_idx ON backtests (seq) WHERE status = 'queued';
CREATE INDEX backtests_running_idx ON backtests (user_id, lease_expires_at) WHERE status = 'running';
