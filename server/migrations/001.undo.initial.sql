DROP TABLE IF EXISTS exchange_credentials;
DROP TABLE IF EXISTS signin_failures;
DROP TABLE IF EXISTS refresh_tokens;
DROP TABLE IF EXISTS sessions;
DROP TABLE IF EXISTS users;
