-- Browsers that signed in to an account before, by the thumbprint of the key their sessions are bound to (DPoP
-- jkt). A sign-in proving one of them is counted apart from everyone else's failures: strangers guessing the
-- password from elsewhere cannot lock the owner's own devices out
CREATE TABLE known_devices (
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  device_key text NOT NULL,
  first_seen_at timestamptz NOT NULL,
  last_seen_at timestamptz NOT NULL,
  PRIMARY KEY (user_id, device_key)
);
