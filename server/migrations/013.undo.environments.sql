ALTER TABLE order_intents DROP COLUMN environment;
ALTER TABLE bots DROP COLUMN environment;
-- Mainnet keys have no place in the one-environment table
DELETE FROM exchange_credentials WHERE environment <> 'testnet';
ALTER TABLE exchange_credentials DROP CONSTRAINT exchange_credentials_pkey;
ALTER TABLE exchange_credentials DROP COLUMN environment;
ALTER TABLE exchange_credentials ADD PRIMARY KEY (user_id, exchange);
DROP TABLE user_environments;
