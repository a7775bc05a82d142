-- PostgreSQL's version of migrations/0009_reviews.sql: post-game reviews, one row per finished
-- hosted game, written `pending` in the transaction that ends the game (see the SQLite file for
-- the meaning of each column). `game_id` is not an identity: it is the reviewed game's id.
CREATE TABLE reviews (
    game_id      BIGINT PRIMARY KEY REFERENCES games (id),
    state        TEXT   NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'done', 'failed')),
    attempts     BIGINT NOT NULL DEFAULT 0,
    -- JSON array of integers: the evaluation of each position, attackers' view, 100 per attacker.
    evaluation   TEXT,
    turning_ply  BIGINT,
    swing        BIGINT,
    played       TEXT,
    better       TEXT,
    last_error   TEXT,
    created_at   BIGINT NOT NULL,
    finished_at  BIGINT
);

CREATE INDEX reviews_pending ON reviews (game_id) WHERE state = 'pending';
