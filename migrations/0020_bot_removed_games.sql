-- no-transaction
-- Games of a server that removed the bot are paused while it is away (0017), and a deleted
-- server never takes it back; once the bot has been away for two weeks, either player may end
-- such a game without a result (`/tafl claim`). It ends with the status `aborted` and the reason
-- `bot_removed`, which the CHECK constraint of `games` (0016) does not allow. SQLite cannot
-- change a CHECK constraint in place, so `games` is rebuilt as 0016 rebuilt it (SQLite's 12-step
-- procedure; the migrator turns foreign keys off around its one transaction and checks them
-- before it commits), with every column, default and index it has since 0019.

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
    -- `abandoned`: won by claim after the loser left an untimed game unplayed for two weeks.
    -- `bot_removed` (with the status `aborted`): ended without a result by a player's claim once
    -- the bot had been away for two weeks from the server it was removed from.
    reason         TEXT CHECK (reason IN ('king_captured', 'king_escaped', 'exit_fort', 'encirclement',
                                          'repetition', 'no_moves', 'resignation', 'agreement', 'time',
                                          'aborted', 'abandoned', 'bot_removed')),
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
    -- When the turn of the player to move began (every turn, timed or not), and when it runs out
    -- (NULL when untimed or finished), in unix seconds.
    turn_started_at   INTEGER,
    deadline_at       INTEGER,
    -- Reminders sent in this turn: 0 none, 1 the halfway one, 2 the last warning too.
    reminders_sent    INTEGER NOT NULL DEFAULT 0 CHECK (reminders_sent BETWEEN 0 AND 2),
    -- The next moment the scheduler has something to do for this game (a reminder or the
    -- deadline), so that each tick reads only the games that are due.
    next_due_at       INTEGER,
    -- From 0008: 0 for a game against the bot its player chose not to rate; when the bot's turn
    -- began (NULL when it is not the bot's turn).
    rated             INTEGER NOT NULL DEFAULT 1,
    bot_turn_at       INTEGER,
    CHECK (status = 'ongoing' OR (deadline_at IS NULL AND next_due_at IS NULL))
);

INSERT INTO games_new (id, guild_id, channel_id, thread_id, variant, options, rules, start_position, start_to_move,
                       attacker_id, defender_id, status, reason, loser_id, ply, clock_seconds, imported, created_at,
                       updated_at, finished_at, movetext, reserve_cap, attacker_reserve, defender_reserve,
                       turn_started_at, deadline_at, reminders_sent, next_due_at, rated, bot_turn_at)
SELECT id, guild_id, channel_id, thread_id, variant, options, rules, start_position, start_to_move,
       attacker_id, defender_id, status, reason, loser_id, ply, clock_seconds, imported, created_at,
       updated_at, finished_at, movetext, reserve_cap, attacker_reserve, defender_reserve,
       turn_started_at, deadline_at, reminders_sent, next_due_at, rated, bot_turn_at
FROM games;

DROP TABLE games;

ALTER TABLE games_new RENAME TO games;

CREATE INDEX games_by_attacker ON games (attacker_id, status);
CREATE INDEX games_by_defender ON games (defender_id, status);
CREATE INDEX games_by_channel ON games (channel_id, status);
CREATE INDEX games_due ON games (next_due_at) WHERE next_due_at IS NOT NULL;
CREATE INDEX games_bot_turns ON games (bot_turn_at) WHERE bot_turn_at IS NOT NULL;
CREATE INDEX games_ongoing ON games (id) WHERE status = 'ongoing';
CREATE INDEX games_finished ON games (finished_at) WHERE finished_at IS NOT NULL;
CREATE INDEX games_by_guild ON games (guild_id, status);

COMMIT;

PRAGMA foreign_keys = ON;
