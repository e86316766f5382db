-- The last permission check of a stored key (on save and on the scheduled re-check): trading refuses a key whose
-- last check failed. NULL check_ok: stored before checks were kept, not yet re-checked
ALTER TABLE exchange_credentials
  ADD COLUMN checked_at timestamptz,
  ADD COLUMN check_ok boolean,
  ADD COLUMN check_reason text;
