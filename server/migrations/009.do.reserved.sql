-- Placeholder: version 009 is reserved for the account migration (being built on another branch). Migrations
-- must be contiguous, so this empty one keeps 010 runnable until then; delete this pair when the real 009 lands
SELECT 1;
