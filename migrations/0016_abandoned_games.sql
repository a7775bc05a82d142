-- no-transaction
-- Abandoned games: in a game without a clock, the player who waits may claim the win once the
-- other has not moved for two weeks (`/tafl claim`). Such a game ends with the reason
-- `abandoned`, which the CHECK constraint of `games` (0003) does not allow. SQLite cannot change
-- a CHECK constraint in place, so `games` is rebuilt as 0003 rebuilt it (SQLite's 12-step
-- procedure; the migrator turns foreign keys off around its one transaction and checks them
-- before it commits), with every column, default and index it has since 0008.
--
-- Every turn now records when it began, untimed ones too (`turn_started_at`, NULL before for
-- games without a clock): the claim is measured from it. Ongoing games get the moment of the
-- upgrade, and untimed ones the moment they may be claimed (`next_due_at`).

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
    reason         TEXT CHECK (reason IN ('king_captured', 'king_escaped', 'exit_fort', 'encirclement',
                                          'repetition', 'no_moves', 'resignation', 'agreement', 'time',
                                          'aborted', 'abandoned')),
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

-- Games in progress without a turn's start (untimed ones, and the bot's turns) begin it at the
-- upgrade: nobody knew of claims before, so no game may be claimed, by a person or by the bot,
-- sooner than two weeks after it. (A migration has no host to tell it the time, as the rest of
-- the schema's conventions ask, so the database's own clock gives it.)
UPDATE games SET turn_started_at = CAST(strftime('%s', 'now') AS INTEGER)
WHERE status = 'ongoing' AND turn_started_at IS NULL;

-- An untimed turn comes due once, two weeks (1,209,600 s) after it began: the scheduler then
-- tells the person waiting that they may claim, or the bot, when it is the one waiting, claims.
-- (A turn of the bot's is never due; the scheduler drops such a moment when it comes.)
UPDATE games SET next_due_at = turn_started_at + 1209600 WHERE status = 'ongoing' AND clock_seconds IS NULL;

COMMIT;

PRAGMA foreign_keys = ON;
