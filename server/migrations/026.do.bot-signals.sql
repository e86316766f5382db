-- Signals in: each bot may have one webhook that charting tools' alerts post to (its id in the URL, its secret
-- sealed by the vault as webhook secrets are: AAD = user + bot + hook id). A new secret replaces the row
CREATE TABLE bot_signal_hooks (
  bot_id uuid PRIMARY KEY REFERENCES bots (id) ON DELETE CASCADE,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  -- What the URL carries: random, unguessable, and not the bot's id (which the owner's pages show)
  hook_id text NOT NULL UNIQUE,
  master_key_id text NOT NULL,
  wrapped_data_key bytea NOT NULL,
  ciphertext bytea NOT NULL,
  created_at timestamptz NOT NULL
);

-- Every signal a bot's hook received, trusted or not, with what it caused. signal_id is the sender's id: one
-- authenticated signal per (bot, id) is acted on, a second one answers the first's outcome. Refused ones that
-- could not be trusted (a bad secret, a bad body) keep signal_id NULL and stay out of that rule
CREATE TABLE bot_signals (
  id uuid PRIMARY KEY,
  -- The order they arrived in (two in one millisecond included)
  seq bigint GENERATED ALWAYS AS IDENTITY,
  bot_id uuid NOT NULL REFERENCES bots (id) ON DELETE CASCADE,
  signal_id text,
  action text,
  symbol text,
  quantity double precision,
  price double precision,
  received_at timestamptz NOT NULL,
  -- acted, nothing (taken: nothing to do), refused (message says why), pending (waiting for the instance
  -- running the bot)
  outcome text NOT NULL CHECK (outcome IN ('acted', 'nothing', 'refused', 'pending')),
  message text NOT NULL,
  -- Client order ids of the orders it placed
  orders jsonb NOT NULL DEFAULT '[]',
  -- A trade signal handed to a live session: the session (its started_at), the open of the bar in progress then
  -- and the price it acted at, so a resumed session hands it to the strategy again at the same point and price
  -- (its orders are then found, not sent again)
  session_started_at timestamptz,
  bar_time timestamptz,
  acted_price double precision,
  -- When an instance took the signal to hand it to the bot's session: one takes it; one that died holding it
  -- leaves it to be taken again a minute later (its orders are keyed by the signal, so none is sent twice)
  taken_at timestamptz
);
CREATE UNIQUE INDEX bot_signals_once_idx ON bot_signals (bot_id, signal_id) WHERE signal_id IS NOT NULL;
CREATE INDEX bot_signals_bot_idx ON bot_signals (bot_id, seq DESC);
CREATE INDEX bot_signals_pending_idx ON bot_signals (bot_id, seq) WHERE outcome = 'pending';
