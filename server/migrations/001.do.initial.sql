-- Users, sessions (refresh-token families), sign-in throttling and the exchange credential vault

CREATE TABLE users (
  id uuid PRIMARY KEY,
  -- As typed (for display); lookups use the normalised form
  email text NOT NULL,
  email_normalized text NOT NULL UNIQUE,
  name text,
  password_hash text NOT NULL,
  created_at timestamptz NOT NULL
);

-- A session is one sign-in on one device: a family of refresh tokens with an absolute expiry
CREATE TABLE sessions (
  id uuid PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL,
  last_used_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  revoked_at timestamptz,
  revoked_reason text,
  user_agent text,
  ip text
);
CREATE INDEX sessions_user_id_idx ON sessions (user_id);

-- Only SHA-256 hashes of refresh tokens are kept; a used one stays to detect replay
CREATE TABLE refresh_tokens (
  token_hash bytea PRIMARY KEY,
  session_id uuid NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL,
  used_at timestamptz
);
CREATE INDEX refresh_tokens_session_id_idx ON refresh_tokens (session_id);

-- Failed sign-ins per key ('ip:<ip>' or 'email-ip:<email>|<ip>') in the current window
CREATE TABLE signin_failures (
  throttle_key text PRIMARY KEY,
  failures integer NOT NULL,
  window_started_at timestamptz NOT NULL,
  blocked_until timestamptz
);

-- Envelope encryption: the secret payload is sealed with a per-row data key, itself sealed with the master key
CREATE TABLE exchange_credentials (
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  exchange text NOT NULL,
  region text NOT NULL,
  api_key_masked text NOT NULL,
  master_key_id text NOT NULL,
  wrapped_data_key bytea NOT NULL,
  ciphertext bytea NOT NULL,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  PRIMARY KEY (user_id, exchange)
);
