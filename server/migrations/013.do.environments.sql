-- Trading environments per user (issue 23): the testnet / mainnet switch chooses the exchange the server talks to
-- for this user, so the screen and the orders can never disagree about where the money is.

-- The user's current environment and the last switches (spec: default testnet, the last 10 entries kept).
-- A user without a row is on testnet.
CREATE TABLE user_environments (
  user_id uuid PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
  environment text NOT NULL CHECK (environment IN ('testnet', 'mainnet')),
  -- [{ environment, timestamp (ms), exchangeId }], oldest first, at most 10
  history jsonb NOT NULL DEFAULT '[]'::jsonb,
  updated_at timestamptz NOT NULL
);

-- Keys belong to an environment: a testnet key and a mainnet key side by side. Existing keys were used against
-- the default environment, testnet.
ALTER TABLE exchange_credentials ADD COLUMN environment text NOT NULL DEFAULT 'testnet'
  CHECK (environment IN ('testnet', 'mainnet'));
ALTER TABLE exchange_credentials DROP CONSTRAINT exchange_credentials_pkey;
ALTER TABLE exchange_credentials ADD PRIMARY KEY (user_id, exchange, environment);

-- A bot trades in the environment it was created in, whatever its owner switches to later
ALTER TABLE bots ADD COLUMN environment text NOT NULL DEFAULT 'testnet'
  CHECK (environment IN ('testnet', 'mainnet'));

-- An order is sent, looked up and canceled in the environment it was placed in
ALTER TABLE order_intents ADD COLUMN environment text NOT NULL DEFAULT 'testnet'
  CHECK (environment IN ('testnet', 'mainnet'));
