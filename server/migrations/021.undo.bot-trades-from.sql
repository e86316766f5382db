ALTER TABLE bots DROP COLUMN start_price;
ALTER TABLE bots DROP COLUMN trades_from;
