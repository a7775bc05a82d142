-- PostgreSQL's version of migrations/0016_abandoned_games.sql: the reason `abandoned` (an
-- untimed game won by claim after the loser left it unplayed for two weeks), and the start of
-- every turn, untimed ones too. PostgreSQL changes the CHECK constraint in place.

ALTER TABLE games DROP CONSTRAINT games_reason_check;
ALTER TABLE games ADD CONSTRAINT games_reason_check
    CHECK (reason IN ('king_captured', 'king_escaped', 'exit_fort', 'encirclement', 'repetition', 'no_moves',
                      'resignation', 'agreement', 'time', 'aborted', 'abandoned'));

UPDATE games
SET turn_started_at = coalesce((SELECT max(m.played_at) FROM moves m WHERE m.game_id = games.id), created_at)
WHERE status = 'ongoing' AND turn_started_at IS NULL;
