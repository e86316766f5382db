-- A paper bot walks the bar in progress on live prices (the kline stream's forming candles). Where its book changed
-- on that walk (a fill, an order taken, a trailing stop's new extreme, a watched band met) the point is kept, with
-- the range the walk had reached then, so a resumed bot walks the same points again and stands where it stood
-- (between two points nothing happened, so the prices in between need no keeping). One row per bar of a session
CREATE TABLE bot_paper_paths (
  bot_id uuid NOT NULL REFERENCES bots (id) ON DELETE CASCADE,
  started_at timestamptz NOT NULL,
  bar_time bigint NOT NULL,
  open double precision NOT NULL,
  points double precision[] NOT NULL,
  low double precision NOT NULL,
  high double precision NOT NULL,
  PRIMARY KEY (bot_id, started_at, bar_time)
);
