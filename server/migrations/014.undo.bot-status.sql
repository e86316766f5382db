DROP TABLE IF EXISTS bot_status;
UPDATE bots SET state = coalesce(stop_state, 'stopped') WHERE state = 'stopping';
ALTER TABLE bots DROP COLUMN IF EXISTS stop_state;
