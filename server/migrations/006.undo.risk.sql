DROP TABLE IF EXISTS risk_events;
DROP TABLE IF EXISTS risk_limits;
