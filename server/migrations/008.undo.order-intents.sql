DROP TABLE IF EXISTS order_events;
DROP TABLE IF EXISTS order_intents;
