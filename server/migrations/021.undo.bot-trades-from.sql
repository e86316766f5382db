ALTER TABLE bots DROP COLUMN shares_symbol;
ALTER TABLE bots DROP COLUMN start_price;
ALTER TABLE bots DROP COLUMN trades_from;
