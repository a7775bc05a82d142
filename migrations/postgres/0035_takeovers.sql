-- PostgreSQL's version of migrations/0035_takeovers.sql: who took over the bot's turn in a game
-- of another process's shards, or the review of such a game, and until when (unix seconds);
-- see the SQLite file for why these are columns and when they are cleared.
ALTER TABLE games ADD COLUMN bot_turn_taken_by TEXT;
ALTER TABLE games ADD COLUMN bot_turn_taken_until BIGINT;
ALTER TABLE reviews ADD COLUMN taken_by TEXT;
ALTER TABLE reviews ADD COLUMN taken_until BIGINT;
