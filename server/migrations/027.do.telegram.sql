-- Telegram: the operator's bot links a user's private chat by a one-time code, tells the chat the events the user
-- chose and takes commands from it. The bot token is configuration (KESTREL_TELEGRAM_BOT_TOKEN), never stored

-- One-time link codes: valid 10 minutes, used once (the row goes when it links a chat), one live code per user
CREATE TABLE telegram_link_codes (
  code text PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  expires_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL
);
CREATE INDEX telegram_link_codes_user_idx ON telegram_link_codes (user_id);

-- A user's linked chat: one per user, and a chat belongs to one user (linking it again moves it)
CREATE TABLE telegram_chats (
  user_id uuid PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
  chat_id bigint NOT NULL UNIQUE,
  -- The Telegram user name when the link was made (without @), if the user has one
  username text,
  -- Chosen events (contracts' TELEGRAM_EVENTS)
  events text[] NOT NULL,
  linked_at timestamptz NOT NULL
);

-- Every command a linked chat sent and the answer it got (a link code is not kept)
CREATE TABLE telegram_commands (
  seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  chat_id bigint NOT NULL,
  update_id bigint NOT NULL,
  command text NOT NULL,
  answer text NOT NULL,
  at timestamptz NOT NULL
);
CREATE INDEX telegram_commands_user_idx ON telegram_commands (user_id, seq DESC);

-- Where the getUpdates poll of each bot (by the bot id, the token's number) has reached, and which instance polls
-- it now: next_offset moves past an update before it is handled, so a restart neither answers it twice nor skips
-- one it never took. The lease keeps a second instance from polling the same bot (Telegram answers it 409)
CREATE TABLE telegram_polls (
  bot_id bigint PRIMARY KEY,
  next_offset bigint NOT NULL DEFAULT 0,
  owner text,
  lease_until timestamptz
);
