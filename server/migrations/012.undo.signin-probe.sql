ALTER TABLE signin_failures DROP COLUMN IF EXISTS probe;
