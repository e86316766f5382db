ALTER TABLE exchange_credentials
  DROP COLUMN checked_at,
  DROP COLUMN check_ok,
  DROP COLUMN check_reason;
