DROP TABLE IF EXISTS income_sync;
DROP TABLE IF EXISTS income_entries;
DROP TABLE IF EXISTS equity_snapshots;
