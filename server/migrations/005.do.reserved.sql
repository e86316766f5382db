-- Placeholder: version 005 belongs to another branch of the same issue. The migrator refuses a gap, so this branch
-- carries an empty 005 until that one lands; drop this file (and its undo) when merging the real 005
SELECT 1;
