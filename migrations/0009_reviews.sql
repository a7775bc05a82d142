-- Post-game reviews: after a hosted game ends, the engine evaluates every ply in the background
-- and names the turning point (the ply where the evaluation swung most against the side that
-- moved, with the engine's better move there); the summary is then edited to show it.
--
-- A row is written `pending` in the transaction that ends the game, so a crash or restart never
-- forgets a review: the next process finds the pending rows at start-up and on its ticks. The
-- result is written together with the outbox item that edits the summary, in one transaction.
-- Games that ended before this migration, and imported games, have no row and no review.
CREATE TABLE reviews (
    game_id      INTEGER PRIMARY KEY REFERENCES games (id),
    -- `pending` until reviewed (`done`), or `failed` after repeated failures (kept, logged once).
    state        TEXT    NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'done', 'failed')),
    attempts     INTEGER NOT NULL DEFAULT 0,
    -- The engine's evaluation of each position from the start (index 0) to the final one, in
    -- points from the attackers' view (one attacker = 100), as a JSON array of integers.
    evaluation   TEXT,
    -- The turning point: the ply (from 1) whose move lost the most, by how much (points, from
    -- the mover's view), the move played and the engine's better move, in OTN (`e1-e3`). NULL
    -- when no move lost ground the engine could have kept (a short game, or best play).
    turning_ply  INTEGER,
    swing        INTEGER,
    played       TEXT,
    better       TEXT,
    last_error   TEXT,
    created_at   INTEGER NOT NULL,
    finished_at  INTEGER
);

CREATE INDEX reviews_pending ON reviews (game_id) WHERE state = 'pending';
