-- A paused bot's standing orders are no longer followed: it reads as stopped (the order manager's reconcile still
-- knows its orders, and a kill switch cancels them)
UPDATE bots SET state = 'stopped' WHERE state = 'paused';
UPDATE bots SET stop_state = 'stopped' WHERE stop_state = 'paused';
ALTER TABLE bots DROP CONSTRAINT bots_stop_state_check;
ALTER TABLE bots ADD CONSTRAINT bots_stop_state_check CHECK (stop_state IN ('stopped', 'error'));
ALTER TABLE bots DROP CONSTRAINT bots_state_check;
ALTER TABLE bots ADD CONSTRAINT bots_state_check
  CHECK (state IN ('stopped', 'starting', 'running', 'stopping', 'error'));
