-- The pre-trade pipeline's verdicts on an intent (trading/risk/pre-trade): which checks ran for its origin and what
-- each answered, so a refused or passed order shows why. NULL on intents recorded before the pipeline
ALTER TABLE order_intents ADD COLUMN pre_trade jsonb;
