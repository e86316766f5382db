DROP TABLE IF EXISTS user_settings;
DROP TABLE IF EXISTS account_events;
ALTER TABLE sessions DROP COLUMN IF EXISTS step_up_at;
