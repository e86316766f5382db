-- A live bot on an account in hedge mode (a long and a short position per symbol) holds one side of its symbol:
-- every order it sends names that side. NULL in one-way mode (and for paper bots). Set at each start, from the
-- account's mode then and the side the bot's strategy takes
ALTER TABLE bots ADD COLUMN position_side text CHECK (position_side IN ('LONG', 'SHORT'));
