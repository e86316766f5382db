-- A paused bot: its session ended with its orders left standing (a live bot's on the exchange, where they may fill),
-- nothing new placed until it is started again. A bot rests in `paused` as it does in `stopped`, and a stop may end
-- in it (`stop_state`): an instance taking over a half-done pause finishes it the same way, its orders kept
ALTER TABLE bots DROP CONSTRAINT bots_state_check;
ALTER TABLE bots ADD CONSTRAINT bots_state_check
  CHECK (state IN ('stopped', 'starting', 'running', 'stopping', 'paused', 'error'));
ALTER TABLE bots DROP CONSTRAINT bots_stop_state_check;
ALTER TABLE bots ADD CONSTRAINT bots_stop_state_check CHECK (stop_state IN ('stopped', 'error', 'paused'));
