-- Placeholder: version 010 is reserved for the order manager's migration (being built on another branch).
-- Migrations must be contiguous, so this empty one keeps 011 runnable until then; delete this pair when the real
-- 010 lands
SELECT 1;
