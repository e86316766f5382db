DROP TABLE IF EXISTS history_import;
DROP TABLE IF EXISTS history_sync;
DROP TABLE IF EXISTS order_history;
DROP TABLE IF EXISTS trade_history;
