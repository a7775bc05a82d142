-- PostgreSQL's version of migrations/0003_clocks.sql: correspondence clocks, the scheduler's
-- row, the daily digest and the aborted outcome. SQLite had to rebuild `games` to change its
-- CHECK constraints; PostgreSQL changes them in place, and its DDL is transactional, so this
-- file runs in the migrator's one transaction like every other.

ALTER TABLE games DROP CONSTRAINT games_status_check;
ALTER TABLE games ADD CONSTRAINT games_status_check
    CHECK (status IN ('ongoing', 'attackers_win', 'defenders_win', 'draw', 'aborted'));
ALTER TABLE games DROP CONSTRAINT games_reason_check;
ALTER TABLE games ADD CONSTRAINT games_reason_check
    CHECK (reason IN ('king_captured', 'king_escaped', 'exit_fort', 'encirclement', 'repetition', 'no_moves',
                      'resignation', 'agreement', 'time', 'aborted'));

-- The most a reserve may hold (clocks like `3d+7d`); each player's saved time; when the turn of
-- the player to move began and when it runs out; reminders sent in this turn; the next moment
-- the scheduler has something to do for this game.
ALTER TABLE games ADD COLUMN reserve_cap      BIGINT;
ALTER TABLE games ADD COLUMN attacker_reserve BIGINT NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN defender_reserve BIGINT NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN turn_started_at  BIGINT;
ALTER TABLE games ADD COLUMN deadline_at      BIGINT;
ALTER TABLE games ADD COLUMN reminders_sent   BIGINT NOT NULL DEFAULT 0 CHECK (reminders_sent BETWEEN 0 AND 2);
ALTER TABLE games ADD COLUMN next_due_at      BIGINT;
ALTER TABLE games ADD CHECK (status = 'ongoing' OR (deadline_at IS NULL AND next_due_at IS NULL));

CREATE INDEX games_due ON games (next_due_at) WHERE next_due_at IS NOT NULL;

-- Games with a clock that were running before clocks were enforced (as in SQLite's 0003).
UPDATE games
SET turn_started_at = coalesce((SELECT max(m.played_at) FROM moves m WHERE m.game_id = games.id), created_at),
    deadline_at = coalesce((SELECT max(m.played_at) FROM moves m WHERE m.game_id = games.id), created_at)
                  + clock_seconds,
    next_due_at = coalesce((SELECT max(m.played_at) FROM moves m WHERE m.game_id = games.id), created_at)
WHERE status = 'ongoing' AND clock_seconds IS NOT NULL;

ALTER TABLE challenges ADD COLUMN reserve_cap BIGINT;

ALTER TABLE users ADD COLUMN digest_due_at BIGINT;
CREATE INDEX users_digest_due ON users (digest_due_at) WHERE digest_due_at IS NOT NULL;

CREATE TABLE scheduler (
    id           BIGINT PRIMARY KEY CHECK (id = 1),
    last_tick_at BIGINT NOT NULL
);
