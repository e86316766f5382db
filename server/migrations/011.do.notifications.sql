-- Notifications: webhooks (signing secret sealed by the vault), their deliveries with the retry schedule, and the
-- in-app list

CREATE TABLE webhooks (
  id uuid PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  url text NOT NULL,
  -- Chosen events (contracts' WEBHOOK_EVENTS)
  events text[] NOT NULL,
  -- The signing secret, sealed as exchange credentials are (lib/crypto/envelope.ts; AAD = user + webhook id)
  master_key_id text NOT NULL,
  wrapped_data_key bytea NOT NULL,
  ciphertext bytea NOT NULL,
  created_at timestamptz NOT NULL
);
CREATE INDEX webhooks_user_idx ON webhooks (user_id, created_at);

-- One event to one webhook. The schedule lives here so a restart continues it: a pending row is tried once
-- next_attempt_at has passed (an instance sending it pushes next_attempt_at out first, as a lease)
CREATE TABLE webhook_deliveries (
  id uuid PRIMARY KEY,
  seq bigint GENERATED ALWAYS AS IDENTITY,
  webhook_id uuid NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
  event text NOT NULL,
  -- The exact JSON sent (the signature covers it byte for byte on every try)
  body text NOT NULL,
  status text NOT NULL CHECK (status IN ('pending', 'delivered', 'failed')),
  attempts integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz,
  last_attempt_at timestamptz,
  status_code integer,
  duration_ms integer,
  error text,
  -- At most a few hundred characters of the receiver's answer
  response_excerpt text,
  created_at timestamptz NOT NULL
);
CREATE INDEX webhook_deliveries_due_idx ON webhook_deliveries (next_attempt_at) WHERE status = 'pending';
CREATE INDEX webhook_deliveries_webhook_idx ON webhook_deliveries (webhook_id, seq DESC);

CREATE TABLE notifications (
  id uuid PRIMARY KEY,
  seq bigint GENERATED ALWAYS AS IDENTITY,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  event text NOT NULL,
  title text NOT NULL,
  message text NOT NULL,
  read_at timestamptz,
  created_at timestamptz NOT NULL
);
CREATE INDEX notifications_user_seq_idx ON notifications (user_id, seq DESC);
