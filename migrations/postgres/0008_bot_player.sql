-- PostgreSQL's version of migrations/0008_bot_player.sql: the bot as a player, five users with
-- the ids -1 (level 1) to -5 (level 5), whether a game is rated (a bool in the store, so BOOLEAN
-- here, see 0001), and when the bot's current turn began.
INSERT INTO users (id, name, created_at, updated_at) VALUES
    (-1, 'Tafl bot (level 1)', 0, 0),
    (-2, 'Tafl bot (level 2)', 0, 0),
    (-3, 'Tafl bot (level 3)', 0, 0),
    (-4, 'Tafl bot (level 4)', 0, 0),
    (-5, 'Tafl bot (level 5)', 0, 0);

ALTER TABLE games ADD COLUMN rated BOOLEAN NOT NULL DEFAULT TRUE;
ALTER TABLE games ADD COLUMN bot_turn_at BIGINT;

CREATE INDEX games_bot_turns ON games (bot_turn_at) WHERE bot_turn_at IS NOT NULL;
