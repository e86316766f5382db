-- The account's orders and fills, imported per symbol from the exchange (Binance answers them one symbol and a
-- short window at a time) so the history page can filter, sort and page across all of them. Ids are Binance's,
-- unique per symbol: a second instance's or a re-read's copy is a no-op (orders: an update of the status)

CREATE TABLE trade_history (
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  symbol text NOT NULL,
  trade_id numeric(20) NOT NULL,
  order_id numeric(20) NOT NULL,
  side text NOT NULL,
  position_side text NOT NULL,
  price numeric NOT NULL,
  quantity numeric NOT NULL,
  quote_quantity numeric NOT NULL,
  realized_pnl numeric NOT NULL,
  commission numeric NOT NULL,
  commission_asset text NOT NULL,
  maker boolean NOT NULL,
  time timestamptz NOT NULL,
  PRIMARY KEY (user_id, symbol, trade_id)
);
CREATE INDEX trade_history_user_time_idx ON trade_history (user_id, time DESC);

CREATE TABLE order_history (
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  symbol text NOT NULL,
  order_id numeric(20) NOT NULL,
  client_order_id text NOT NULL,
  side text NOT NULL,
  type text NOT NULL,
  status text NOT NULL,
  price numeric NOT NULL,
  average_price numeric NOT NULL,
  quantity numeric NOT NULL,
  executed_quantity numeric NOT NULL,
  time_in_force text NOT NULL,
  reduce_only boolean NOT NULL,
  position_side text NOT NULL,
  trigger_price numeric NOT NULL,
  -- When it was placed, and its last change
  time timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  PRIMARY KEY (user_id, symbol, order_id)
);
CREATE INDEX order_history_user_time_idx ON order_history (user_id, time DESC);

-- Where each symbol's import goes on: the next trade id, the next order id (orders still open are re-read)
CREATE TABLE history_sync (
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  symbol text NOT NULL,
  kind text NOT NULL CHECK (kind IN ('trades', 'orders')),
  next_id numeric(20) NOT NULL,
  updated_at timestamptz NOT NULL,
  PRIMARY KEY (user_id, symbol, kind)
);

-- When each user's orders and fills were last read from the exchange: another instance skips its read until then
CREATE TABLE history_import (
  user_id uuid PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
  imported_at timestamptz NOT NULL
);
