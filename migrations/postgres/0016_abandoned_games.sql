-- PostgreSQL's version of migrations/0016_abandoned_games.sql: the reason `abandoned` (an
-- untimed game won by claim after the loser left it unplayed for two weeks), the start of every
-- turn, untimed ones too, and when an untimed one may be claimed. PostgreSQL changes the CHECK
-- constraint in place.

ALTER TABLE games DROP CONSTRAINT games_reason_check;
ALTER TABLE games ADD CONSTRAINT games_reason_check
    CHECK (reason IN ('king_captured', 'king_escaped', 'exit_fort', 'encirclement', 'repetition', 'no_moves',
                      'resignation', 'agreement', 'time', 'aborted', 'abandoned'));

-- Games in progress without a turn's start (untimed ones, and the bot's turns) begin it at the
-- upgrade: nobody knew of claims before, so no game may be claimed, by a person or by the bot,
-- sooner than two weeks after it. (A migration has no host to tell it the time, as the rest of
-- the schema's conventions ask, so the database's own clock gives it.)
UPDATE games SET turn_started_at = CAST(EXTRACT(EPOCH FROM now()) AS BIGINT)
WHERE status = 'ongoing' AND turn_started_at IS NULL;

-- An untimed turn comes due once, two weeks (1,209,600 s) after it began: the scheduler then
-- tells the person waiting that they may claim, or the bot, when it is the one waiting, claims.
-- (A turn of the bot's is never due; the scheduler drops such a moment when it comes.)
UPDATE games SET next_due_at = turn_started_at + 1209600 WHERE status = 'ongoing' AND clock_seconds IS NULL;
