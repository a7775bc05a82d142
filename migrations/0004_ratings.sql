-- Glicko-2 ratings (see bot/src/host/glicko2.rs) and the change each rated game made to them.
--
-- A rating belongs to a person, a variant family and a scope. Families are the rules crate's
-- `Variant::family()` (sea-battle, seed-001, historical, copenhagen, fetlar): presets of one
-- family share their capture, throne and escape rules and differ mainly in board size, so skill
-- carries over between them, while different families play like different games. Options
-- (king_armed, escape) stay within their preset's family.
-- Scope 0 is the global rating; any other scope is the Discord server (guild) the game was
-- played in. Snowflakes are never 0, and games outside a server (the local console uses
-- guild 0) are rated globally only.
-- Only games between two different people that reached ply 2 are rated; imported games never.
CREATE TABLE ratings (
    user_id    INTEGER NOT NULL REFERENCES users (id),
    family     TEXT    NOT NULL,
    scope      INTEGER NOT NULL,
    rating     REAL    NOT NULL,
    deviation  REAL    NOT NULL,
    volatility REAL    NOT NULL,
    -- Rated games played in this family and scope.
    games      INTEGER NOT NULL DEFAULT 0,
    updated_at INTEGER NOT NULL,
    PRIMARY KEY (user_id, family, scope)
);

-- The leaderboard of a family in a scope, best first.
CREATE INDEX ratings_leaderboard ON ratings (family, scope, rating DESC);

-- What each rated game did to each player's rating in each scope, written in the transaction
-- that finished the game, for summaries and profiles. A game has a row here exactly when it
-- was rated: two per scope.
CREATE TABLE rating_changes (
    game_id          INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    user_id          INTEGER NOT NULL REFERENCES users (id),
    family           TEXT    NOT NULL,
    scope            INTEGER NOT NULL,
    rating_before    REAL    NOT NULL,
    deviation_before REAL    NOT NULL,
    rating_after     REAL    NOT NULL,
    deviation_after  REAL    NOT NULL,
    created_at       INTEGER NOT NULL,
    PRIMARY KEY (game_id, user_id, scope)
);

-- A person's rated games, newest first, for profiles and streaks.
CREATE INDEX rating_changes_by_user ON rating_changes (user_id, scope, created_at);
