-- PostgreSQL's version of migrations/0020_bot_removed_games.sql: the reason `bot_removed` (with
-- the status `aborted`), a game ended without a result by a player's claim once the bot had been
-- away for two weeks from the server it was removed from. PostgreSQL changes the CHECK
-- constraint in place.

ALTER TABLE games DROP CONSTRAINT games_reason_check;
ALTER TABLE games ADD CONSTRAINT games_reason_check
    CHECK (reason IN ('king_captured', 'king_escaped', 'exit_fort', 'encirclement', 'repetition', 'no_moves',
                      'resignation', 'agreement', 'time', 'aborted', 'abandoned', 'bot_removed'));
