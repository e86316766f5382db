-- Placeholder: version 008 is reserved for the bots runtime's migration (being built on another branch). Migrations
-- must be contiguous, so this empty one keeps 009 runnable until then; delete this pair when the real 008 lands
SELECT 1;
