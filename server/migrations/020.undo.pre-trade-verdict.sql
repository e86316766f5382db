ALTER TABLE order_intents DROP COLUMN pre_trade;
