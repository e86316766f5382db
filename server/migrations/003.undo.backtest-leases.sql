DROP INDEX IF EXISTS backtests_running_idx;
DROP INDEX IF EXISTS backtests_queue_idx;
ALTER TABLE backtests DROP COLUMN IF EXISTS brackets_source;
ALTER TABLE backtests DROP COLUMN IF EXISTS attempts;
ALTER TABLE backtests DROP COLUMN IF EXISTS lease_expires_at;
ALTER TABLE backtests DROP COLUMN IF EXISTS lease_owner;
