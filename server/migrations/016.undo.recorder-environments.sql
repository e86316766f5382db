-- Back to one recorded account per user: mainnet's rows have no place in it
DELETE FROM equity_snapshots WHERE environment <> 'testnet';
ALTER TABLE equity_snapshots DROP CONSTRAINT equity_snapshots_pkey;
ALTER TABLE equity_snapshots DROP COLUMN environment;
ALTER TABLE equity_snapshots ADD PRIMARY KEY (user_id, minute);

DELETE FROM income_entries WHERE environment <> 'testnet';
DROP INDEX income_entries_user_time_idx;
ALTER TABLE income_entries DROP CONSTRAINT income_entries_pkey;
ALTER TABLE income_entries DROP COLUMN environment;
ALTER TABLE income_entries ADD PRIMARY KEY (user_id, income_type, tran_id);
CREATE INDEX income_entries_user_time_idx ON income_entries (user_id, time DESC);

DELETE FROM income_sync WHERE environment <> 'testnet';
ALTER TABLE income_sync DROP CONSTRAINT income_sync_pkey;
ALTER TABLE income_sync DROP COLUMN environment;
ALTER TABLE income_sync ADD PRIMARY KEY (user_id);

DELETE FROM trade_history WHERE environment <> 'testnet';
DROP INDEX trade_history_user_time_idx;
ALTER TABLE trade_history DROP CONSTRAINT trade_history_pkey;
ALTER TABLE trade_history DROP COLUMN environment;
ALTER TABLE trade_history ADD PRIMARY KEY (user_id, symbol, trade_id);
CREATE INDEX trade_history_user_time_idx ON trade_history (user_id, time DESC);

DELETE FROM order_history WHERE environment <> 'testnet';
DROP INDEX order_history_user_time_idx;
ALTER TABLE order_history DROP CONSTRAINT order_history_pkey;
ALTER TABLE order_history DROP COLUMN environment;
ALTER TABLE order_history ADD PRIMARY KEY (user_id, symbol, order_id);
CREATE INDEX order_history_user_time_idx ON order_history (user_id, time DESC);

DELETE FROM history_sync WHERE environment <> 'testnet';
ALTER TABLE history_sync DROP CONSTRAINT history_sync_pkey;
ALTER TABLE history_sync DROP COLUMN environment;
ALTER TABLE history_sync ADD PRIMARY KEY (user_id, symbol, kind);

DELETE FROM history_import WHERE environment <> 'testnet';
ALTER TABLE history_import DROP CONSTRAINT history_import_pkey;
ALTER TABLE history_import DROP COLUMN environment;
ALTER TABLE history_import ADD PRIMARY KEY (user_id);
