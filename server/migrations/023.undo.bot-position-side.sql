ALTER TABLE bots DROP COLUMN position_side;
