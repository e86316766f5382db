-- A take-profit and/or stop-loss the trader attached to an entry order: placed on the exchange (as close-position
-- conditional orders at the mark price) once the entry has filled, at all or in part. Kept here, not in memory, so
-- a server that restarts between the entry and its fill still places them, one row per entry (its client order id).
CREATE TABLE entry_protections (
  id uuid PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  environment text NOT NULL CHECK (environment IN ('testnet', 'mainnet')),
  symbol text NOT NULL,
  -- The entry's client order id (its order intent's): what the follower looks the entry up by
  entry_client_order_id text NOT NULL,
  -- The side that closes the position the entry opens, and its position side (BOTH in one-way mode)
  closing_side text NOT NULL CHECK (closing_side IN ('BUY', 'SELL')),
  position_side text NOT NULL CHECK (position_side IN ('BOTH', 'LONG', 'SHORT')),
  take_profit text,
  stop_loss text,
  -- waiting: the entry has not filled yet, placed: both asked orders were sent (their outcome is on their intents),
  -- failed: the entry filled but an order was refused (detail says why: the position is not protected),
  -- canceled: the entry ended without a fill (nothing placed)
  state text NOT NULL CHECK (state IN ('waiting', 'placed', 'failed', 'canceled')),
  -- Sends of the TP/SL proven never to have reached the exchange (a refused connection, a rate limit): each
  -- new attempt carries new client order ids, so an order is never sent twice under one
  attempts integer NOT NULL DEFAULT 0,
  detail text,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  CHECK (take_profit IS NOT NULL OR stop_loss IS NOT NULL),
  UNIQUE (user_id, entry_client_order_id)
);
CREATE INDEX entry_protections_waiting_idx ON entry_protections (created_at) WHERE state = 'waiting';
CREATE INDEX entry_protections_user_idx ON entry_protections (user_id, created_at DESC);
