-- Order intents: every order Kestrel sends (manual, bot, kill switch) is written here BEFORE it is sent, under the
-- client order id it carries to the exchange. The id is deterministic (a bot's intent key, the browser's
-- idempotency key), so a second request for the same intent finds this row and answers its outcome instead of
-- sending again. A send whose answer was lost leaves the row 'unknown' until the exchange is asked about it.

CREATE TABLE order_intents (
  id uuid PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  -- Bots of migration 007, a deleted bot keeps its orders' record
  bot_id uuid REFERENCES bots (id) ON DELETE SET NULL,
  source text NOT NULL CHECK (source IN ('manual', 'bot', 'kill_switch')),
  -- The newClientOrderId (clientAlgoId for conditional orders) sent to the exchange
  client_order_id text NOT NULL CHECK (client_order_id ~ '^[.A-Za-z0-9:/_-]{1,36}$'),
  symbol text NOT NULL,
  kind text NOT NULL CHECK (kind IN ('order', 'conditional')),
  -- The order as asked (contracts' CreateOrderRequest)
  request jsonb NOT NULL,
  -- pending: recorded, not sent (a stop here sent nothing), sending: the request may be on its way,
  -- unknown: sent, answer lost, being resolved by lookups, placed: the exchange has it, rejected: refused by the
  -- exchange or by the risk guard, not_placed: proved absent (never sent, or not found after the answer window)
  state text NOT NULL CHECK (state IN ('pending', 'sending', 'unknown', 'placed', 'rejected', 'not_placed')),
  -- The exchange's own view once placed (NEW, FILLED, CANCELED, …) and its order id
  exchange_status text,
  exchange_order_id text,
  "order" jsonb,
  -- Why it was rejected or not placed (the exchange's or the guard's sentence) and how the HTTP answer said it
  reason text,
  error_status integer,
  error_code text,
  -- Resolution of an unknown outcome: lookups made, the last lookup's failure, when to look next
  attempts integer NOT NULL DEFAULT 0,
  last_error text,
  next_check_at timestamptz,
  created_at timestamptz NOT NULL,
  sent_at timestamptz,
  updated_at timestamptz NOT NULL,
  UNIQUE (user_id, client_order_id)
);
CREATE INDEX order_intents_user_idx ON order_intents (user_id, created_at DESC);
CREATE INDEX order_intents_bot_idx ON order_intents (bot_id) WHERE bot_id IS NOT NULL;
-- What the sweep and the start-up reconciliation scan
CREATE INDEX order_intents_unresolved_idx ON order_intents (next_check_at)
  WHERE state IN ('pending', 'sending', 'unknown');

-- What the order manager did or found on its own (an unknown order resolved, an order or position on the account
-- that no intent owns), for the user to read. dedupe_key keeps a finding reported once.
CREATE TABLE order_events (
  id uuid PRIMARY KEY,
  seq bigint GENERATED ALWAYS AS IDENTITY,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  intent_id uuid REFERENCES order_intents (id) ON DELETE CASCADE,
  kind text NOT NULL,
  message text NOT NULL,
  data jsonb NOT NULL,
  dedupe_key text,
  created_at timestamptz NOT NULL,
  UNIQUE (user_id, dedupe_key)
);
CREATE INDEX order_events_user_idx ON order_events (user_id, seq DESC);
