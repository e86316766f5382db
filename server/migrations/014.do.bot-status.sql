-- A bot being stopped is `stopping` (its orders being canceled) before it is `stopped` or `error`: which of the two
-- it ends in is kept here, so an instance that takes over a half-done stop (its owner died) finishes it the same way
ALTER TABLE bots ADD COLUMN stop_state text CHECK (stop_state IN ('stopped', 'error'));

-- The figures of a bot's running session (PnL, position, open orders), written by the instance running it as they
-- change (throttled), so every instance answers a bot's status and the dashboard's summary, not only its owner.
-- `session_started_at` ties the row to one session: a row of an earlier session is ignored
CREATE TABLE bot_status (
  bot_id uuid PRIMARY KEY REFERENCES bots (id) ON DELETE CASCADE,
  session_started_at timestamptz NOT NULL,
  figures jsonb NOT NULL,
  updated_at timestamptz NOT NULL
);
