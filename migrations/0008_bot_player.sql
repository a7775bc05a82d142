-- The bot as a player (issue 14): games against the engine at levels 1 to 5.
--
-- The engine plays as five users, one per level, with the ids -1 (level 1) to -5 (level 5).
-- Discord snowflakes and the console's fake ids are positive, so these can never clash with a
-- person, and a level is a player like any other: games, moves, offers and ratings refer to it
-- by id, and each level has its own rating. Their names here are only a fallback: the front
-- ends name them from their own words, in the reader's language.
--
-- games.rated: 0 for a game its players chose not to rate (only games against the bot can be;
--   such games allow hints and takebacks). Games between people stay rated as before.
-- games.bot_turn_at: when the bot's current turn began (unix seconds); NULL when it is not the
--   bot's move or the game is over. Written in the transaction of the move, takeback or start
--   that gave the bot the move, so a restart finds every game where the bot must move, and the
--   searches are served in the order their turns began.
--
-- Ratings of games against the bot live in their own pool: their `ratings.family` is the
-- family prefixed with `bot:` (`bot:copenhagen`), so leaderboards of people never list a
-- level and a person's rating among people is untouched by games against the engine.

INSERT INTO users (id, name, created_at, updated_at) VALUES
    (-1, 'Tafl bot (level 1)', 0, 0),
    (-2, 'Tafl bot (level 2)', 0, 0),
    (-3, 'Tafl bot (level 3)', 0, 0),
    (-4, 'Tafl bot (level 4)', 0, 0),
    (-5, 'Tafl bot (level 5)', 0, 0);

ALTER TABLE games ADD COLUMN rated INTEGER NOT NULL DEFAULT 1;
ALTER TABLE games ADD COLUMN bot_turn_at INTEGER;

CREATE INDEX games_bot_turns ON games (bot_turn_at) WHERE bot_turn_at IS NOT NULL;
