-- A bot session acts at its start: its strategy's first step is the last bar closed when it started (trades_from,
-- that bar's open), at the exchange's last price then (start_price), so a grid is laid around where the price is,
-- not where it closed a bar ago; kept so a resumed session replays the same step. NULL on sessions started
-- before: they first traded the bar opening at started_at, at its close
ALTER TABLE bots ADD COLUMN trades_from timestamptz;
ALTER TABLE bots ADD COLUMN start_price double precision;
-- The trader started the live bot on a symbol its account already traded (one position per symbol in one-way
-- mode): its position is not compared with the exchange's
ALTER TABLE bots ADD COLUMN shares_symbol boolean NOT NULL DEFAULT false;
