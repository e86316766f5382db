-- The account recorder per trading environment (issue 23): a user with a testnet key and a mainnet key has two
-- accounts, and /history, /analytics, the dashboard's equity curve and the CSV exports show only the account of the
-- user's current environment. Every recorded row names the environment its account belongs to, and the import
-- marks (income, orders and fills) are kept per environment, so switching never mixes or skips either account.
--
-- Existing rows belong to testnet, the server's default environment: before migration 013 there was one account
-- per user, and 013 made every stored key a testnet key, so these rows were recorded with what are now testnet
-- keys. No default is kept afterwards: every write names its environment.

ALTER TABLE equity_snapshots ADD COLUMN environment text NOT NULL DEFAULT 'testnet'
  CHECK (environment IN ('testnet', 'mainnet'));
ALTER TABLE equity_snapshots ALTER COLUMN environment DROP DEFAULT;
ALTER TABLE equity_snapshots DROP CONSTRAINT equity_snapshots_pkey;
ALTER TABLE equity_snapshots ADD PRIMARY KEY (user_id, environment, minute);

ALTER TABLE income_entries ADD COLUMN environment text NOT NULL DEFAULT 'testnet'
  CHECK (environment IN ('testnet', 'mainnet'));
ALTER TABLE income_entries ALTER COLUMN environment DROP DEFAULT;
ALTER TABLE income_entries DROP CONSTRAINT income_entries_pkey;
ALTER TABLE income_entries ADD PRIMARY KEY (user_id, environment, income_type, tran_id);
DROP INDEX income_entries_user_time_idx;
CREATE INDEX income_entries_user_time_idx ON income_entries (user_id, environment, time DESC);

ALTER TABLE income_sync ADD COLUMN environment text NOT NULL DEFAULT 'testnet'
  CHECK (environment IN ('testnet', 'mainnet'));
ALTER TABLE income_sync ALTER COLUMN environment DROP DEFAULT;
ALTER TABLE income_sync DROP CONSTRAINT income_sync_pkey;
ALTER TABLE income_sync ADD PRIMARY KEY (user_id, environment);

ALTER TABLE trade_history ADD COLUMN environment text NOT NULL DEFAULT 'testnet'
  CHECK (environment IN ('testnet', 'mainnet'));
ALTER TABLE trade_history ALTER COLUMN environment DROP DEFAULT;
ALTER TABLE trade_history DROP CONSTRAINT trade_history_pkey;
ALTER TABLE trade_history ADD PRIMARY KEY (user_id, environment, symbol, trade_id);
DROP INDEX trade_history_user_time_idx;
CREATE INDEX trade_history_user_time_idx ON trade_history (user_id, environment, time DESC);

ALTER TABLE order_history ADD COLUMN environment text NOT NULL DEFAULT 'testnet'
  CHECK (environment IN ('testnet', 'mainnet'));
ALTER TABLE order_history ALTER COLUMN environment DROP DEFAULT;
ALTER TABLE order_history DROP CONSTRAINT order_history_pkey;
ALTER TABLE order_history ADD PRIMARY KEY (user_id, environment, symbol, order_id);
DROP INDEX order_history_user_time_idx;
CREATE INDEX order_history_user_time_idx ON order_history (user_id, environment, time DESC);

ALTER TABLE history_sync ADD COLUMN environment text NOT NULL DEFAULT 'testnet'
  CHECK (environment IN ('testnet', 'mainnet'));
ALTER TABLE history_sync ALTER COLUMN environment DROP DEFAULT;
ALTER TABLE history_sync DROP CONSTRAINT history_sync_pkey;
ALTER TABLE history_sync ADD PRIMARY KEY (user_id, environment, symbol, kind);

ALTER TABLE history_import ADD COLUMN environment text NOT NULL DEFAULT 'testnet'
  CHECK (environment IN ('testnet', 'mainnet'));
ALTER TABLE history_import ALTER COLUMN environment DROP DEFAULT;
ALTER TABLE history_import DROP CONSTRAINT history_import_pkey;
ALTER TABLE history_import ADD PRIMARY KEY (user_id, environment);
