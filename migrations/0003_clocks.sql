-- no-transaction
-- Correspondence clocks: deadlines stored with each game, reminders and time-outs found by a
-- scheduler that polls the database, the daily digest, and the aborted outcome.
--
-- A game where fewer than two plies were played when time ran out is aborted: no winner, no
-- draw, never rated. The CHECK constraints of `games` (0001) cannot say that, and SQLite cannot
-- change a CHECK constraint in place, so `games` is rebuilt with SQLite's documented 12-step
-- procedure (https://www.sqlite.org/lang_altertable.html#otheralter): foreign keys off (with them
-- on, DROP TABLE games would cascade and delete every move and offer), one transaction that
-- copies every row into the new table, drops the old one, renames the new one and recreates the
-- indexes, then foreign keys on again. That is why this file runs outside sqlx's transaction
-- (`PRAGMA foreign_keys` does nothing inside one).

PRAGMA foreign_keys = OFF;

BEGIN IMMEDIATE;

CREATE TABLE games_new (
    id             INTEGER PRIMARY KEY,
    guild_id       INTEGER NOT NULL,
    channel_id     INTEGER NOT NULL,
    thread_id      INTEGER,
    variant        TEXT    NOT NULL,
    options        TEXT    NOT NULL DEFAULT '',
    rules          TEXT    NOT NULL,
    start_position TEXT,
    start_to_move  TEXT CHECK (start_to_move IN ('attackers', 'defenders')),
    attacker_id    INTEGER NOT NULL REFERENCES users (id),
    defender_id    INTEGER NOT NULL REFERENCES users (id),
    -- `aborted`: ended before both sides had moved; no result, never rated.
    status         TEXT    NOT NULL DEFAULT 'ongoing'
                   CHECK (status IN ('ongoing', 'attackers_win', 'defenders_win', 'draw', 'aborted')),
    reason         TEXT CHECK (reason IN ('king_captured', 'king_escaped', 'exit_fort', 'encirclement',
                                          'repetition', 'no_moves', 'resignation', 'agreement', 'time',
                                          'aborted')),
    loser_id       INTEGER REFERENCES users (id),
    ply            INTEGER NOT NULL DEFAULT 0,
    -- Seconds per move for correspondence clocks; NULL for untimed games.
    clock_seconds  INTEGER,
    imported       INTEGER NOT NULL DEFAULT 0,
    created_at     INTEGER NOT NULL,
    updated_at     INTEGER NOT NULL,
    finished_at    INTEGER,
    -- From 0002: the move list as one string, a cache of `moves`.
    movetext       TEXT    NOT NULL DEFAULT '',
    -- The most a reserve may hold (clocks like `3d+7d`); NULL for clocks without a reserve.
    reserve_cap       INTEGER,
    -- Each player's saved time, in seconds (reserve clocks only).
    attacker_reserve  INTEGER NOT NULL DEFAULT 0,
    defender_reserve  INTEGER NOT NULL DEFAULT 0,
    -- When the turn of the player to move began, and when it runs out (unix seconds); NULL when
    -- untimed or finished.
    turn_started_at   INTEGER,
    deadline_at       INTEGER,
    -- Reminders sent in this turn: 0 none, 1 the halfway one, 2 the last warning too.
    reminders_sent    INTEGER NOT NULL DEFAULT 0 CHECK (reminders_sent BETWEEN 0 AND 2),
    -- The next moment the scheduler has something to do for this game (a reminder or the
    -- deadline), so that each tick reads only the games that are due.
    next_due_at       INTEGER,
    CHECK (status = 'ongoing' OR (deadline_at IS NULL AND next_due_at IS NULL))
);

INSERT INTO games_new (id, guild_id, channel_id, thread_id, variant, options, rules, start_position, start_to_move,
                       attacker_id, defender_id, status, reason, loser_id, ply, clock_seconds, imported, created_at,
                       updated_at, finished_at, movetext)
SELECT id, guild_id, channel_id, thread_id, variant, options, rules, start_position, start_to_move,
       attacker_id, defender_id, status, reason, loser_id, ply, clock_seconds, imported, created_at,
       updated_at, finished_at, movetext
FROM games;

DROP TABLE games;

ALTER TABLE games_new RENAME TO games;

CREATE INDEX games_by_attacker ON games (attacker_id, status);
CREATE INDEX games_by_defender ON games (defender_id, status);
CREATE INDEX games_by_channel ON games (channel_id, status);
CREATE INDEX games_due ON games (next_due_at) WHERE next_due_at IS NOT NULL;

-- Games with a clock that were running before clocks were enforced: their turn began with the
-- last move (or the start), and the scheduler looks at them at once. Their first tick finds no
-- earlier tick, which counts as downtime, so a deadline already past moves to the grace period
-- instead of losing the game.
UPDATE games
SET turn_started_at = coalesce((SELECT max(m.played_at) FROM moves m WHERE m.game_id = games.id), created_at),
    deadline_at = coalesce((SELECT max(m.played_at) FROM moves m WHERE m.game_id = games.id), created_at)
                  + clock_seconds,
    next_due_at = coalesce((SELECT max(m.played_at) FROM moves m WHERE m.game_id = games.id), created_at)
WHERE status = 'ongoing' AND clock_seconds IS NOT NULL;

-- The reserve part of a challenge's clock (`3d+7d`); NULL for clocks without a reserve.
ALTER TABLE challenges ADD COLUMN reserve_cap INTEGER;

-- When a user's next daily digest is due; NULL for users who did not ask for one. Mirrors the
-- `digest` key of `users.settings`, so the scheduler finds due digests by index, not by JSON.
ALTER TABLE users ADD COLUMN digest_due_at INTEGER;
CREATE INDEX users_digest_due ON users (digest_due_at) WHERE digest_due_at IS NOT NULL;

-- The scheduler's one row: when it last ticked, so that a tick after downtime can tell.
CREATE TABLE scheduler (
    id           INTEGER PRIMARY KEY CHECK (id = 1),
    last_tick_at INTEGER NOT NULL
);

COMMIT;

PRAGMA foreign_keys = ON;
