-- The first schema of the tafl bot: people, servers, challenges, games, their moves, and the
-- draw / takeback offers between the two players of a game.
--
-- Conventions, kept so that PostgreSQL can take over later with the same statements:
-- * ids of people, servers, channels and threads are Discord snowflakes (64-bit integers); the
--   local console uses small fake ids from the same space;
-- * times are unix seconds (INTEGER), set by the host from its clock, never by SQL defaults;
-- * enumerations are lower-case TEXT guarded by CHECK constraints;
-- * the move list is the source of truth: `games.ply`, `status`, `winner` and `reason` are derived
--   caches written in the same transaction as the moves.
-- Migrations are append-only: change the schema with a new file, never by editing this one.

-- People who have used the bot, with the display name last seen (for summaries and exports).
CREATE TABLE users (
    id         INTEGER PRIMARY KEY,
    name       TEXT    NOT NULL,
    -- JSON object of personal settings (DM notifications, board orientation, theme).
    settings   TEXT    NOT NULL DEFAULT '{}',
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
);

-- Discord servers (guilds) and their settings (threads per game, default clock, channels).
CREATE TABLE servers (
    id         INTEGER PRIMARY KEY,
    settings   TEXT    NOT NULL DEFAULT '{}',
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
);

-- Games. The rules are stored as an OTN rules string, so a game keeps its rules even if a preset
-- changes later, and imported games with rules of no preset can be replayed too.
CREATE TABLE games (
    id             INTEGER PRIMARY KEY,
    guild_id       INTEGER NOT NULL,
    channel_id     INTEGER NOT NULL,
    thread_id      INTEGER,
    -- Preset id (`copenhagen`) or `custom`; with its options as `key=value key=value`.
    variant        TEXT    NOT NULL,
    options        TEXT    NOT NULL DEFAULT '',
    rules          TEXT    NOT NULL,
    -- A start other than the rules' own: OTN position and side to move; NULL for the usual start.
    start_position TEXT,
    start_to_move  TEXT CHECK (start_to_move IN ('attackers', 'defenders')),
    attacker_id    INTEGER NOT NULL REFERENCES users (id),
    defender_id    INTEGER NOT NULL REFERENCES users (id),
    status         TEXT    NOT NULL DEFAULT 'ongoing'
                   CHECK (status IN ('ongoing', 'attackers_win', 'defenders_win', 'draw')),
    -- NULL while ongoing; a rules reason or resignation / agreement / time.
    reason         TEXT CHECK (reason IN ('king_captured', 'king_escaped', 'exit_fort', 'encirclement',
                                          'repetition', 'no_moves', 'resignation', 'agreement', 'time')),
    -- Who resigned or ran out of time, for summaries and the OTN record.
    loser_id       INTEGER REFERENCES users (id),
    ply            INTEGER NOT NULL DEFAULT 0,
    -- Seconds per move for correspondence clocks; NULL for untimed games.
    clock_seconds  INTEGER,
    -- 1 for games imported from an OTN record (finished on arrival, never rated).
    imported       INTEGER NOT NULL DEFAULT 0,
    created_at     INTEGER NOT NULL,
    updated_at     INTEGER NOT NULL,
    finished_at    INTEGER
);

CREATE INDEX games_by_attacker ON games (attacker_id, status);
CREATE INDEX games_by_defender ON games (defender_id, status);
CREATE INDEX games_by_channel ON games (channel_id, status);

-- The moves of each game, ply 1 first, in canonical notation with captures (`e1-e3xe2`).
CREATE TABLE moves (
    game_id   INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    ply       INTEGER NOT NULL CHECK (ply >= 1),
    notation  TEXT    NOT NULL,
    user_id   INTEGER REFERENCES users (id),
    played_at INTEGER NOT NULL,
    PRIMARY KEY (game_id, ply)
);

-- Challenges: from a challenger to one opponent, or open to anyone when opponent_id is NULL.
CREATE TABLE challenges (
    id            INTEGER PRIMARY KEY,
    guild_id      INTEGER NOT NULL,
    channel_id    INTEGER NOT NULL,
    challenger_id INTEGER NOT NULL REFERENCES users (id),
    opponent_id   INTEGER REFERENCES users (id),
    variant       TEXT    NOT NULL,
    options       TEXT    NOT NULL DEFAULT '',
    -- The side the challenger asked for.
    side          TEXT    NOT NULL CHECK (side IN ('attackers', 'defenders', 'random')),
    clock_seconds INTEGER,
    state         TEXT    NOT NULL DEFAULT 'open'
                  CHECK (state IN ('open', 'accepted', 'declined', 'cancelled', 'expired')),
    -- The game an accepted challenge started.
    game_id       INTEGER REFERENCES games (id),
    created_at    INTEGER NOT NULL,
    expires_at    INTEGER NOT NULL,
    closed_at     INTEGER
);

CREATE INDEX challenges_open ON challenges (state, expires_at);

-- Draw offers and takeback requests. At most one is open per game and kind; a move lapses the
-- other player's open offers, and a takeback request always.
CREATE TABLE offers (
    id          INTEGER PRIMARY KEY,
    game_id     INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    kind        TEXT    NOT NULL CHECK (kind IN ('draw', 'takeback')),
    by_user     INTEGER NOT NULL REFERENCES users (id),
    -- The ply of the game when the offer was made.
    at_ply      INTEGER NOT NULL,
    state       TEXT    NOT NULL DEFAULT 'open'
                CHECK (state IN ('open', 'accepted', 'declined', 'withdrawn', 'lapsed')),
    created_at  INTEGER NOT NULL,
    resolved_at INTEGER
);

CREATE INDEX offers_open ON offers (game_id, state);
