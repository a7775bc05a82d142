-- interactions.token: a number drawn for each try to take an interaction on, kept with the row it
-- inserted. A try whose connection broke may have inserted it without hearing so; tried again,
-- the insert finds the row, and the token tells the process's own earlier try (take it on) from
-- a copy taken on elsewhere (drop it). Before, such a process answered the interaction anyway,
-- and during a rolling deploy another process did too: one `/tafl challenge` made two challenges,
-- the second recorded on the first's card, whose expiry then closed the game it had become.
-- NULL for rows from before: a copy of those is a copy.
ALTER TABLE interactions ADD COLUMN token BIGINT;
