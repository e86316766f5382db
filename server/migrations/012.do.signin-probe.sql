-- Sign-in attempts are counted before the password is checked. Past the limit, an attempt made after a block
-- expired is the one let through to be checked (the "probe", named by a token only it knows); every other attempt
-- made while it is checked is refused
ALTER TABLE signin_failures ADD COLUMN probe uuid;
