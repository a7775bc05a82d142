-- PostgreSQL's version of migrations/0004_ratings.sql: Glicko-2 ratings per person, variant
-- family and scope (0 global, else the guild), and what each rated game did to them.
CREATE TABLE ratings (
    user_id    BIGINT           NOT NULL REFERENCES users (id),
    family     TEXT             NOT NULL,
    scope      BIGINT           NOT NULL,
    rating     DOUBLE PRECISION NOT NULL,
    deviation  DOUBLE PRECISION NOT NULL,
    volatility DOUBLE PRECISION NOT NULL,
    games      BIGINT           NOT NULL DEFAULT 0,
    updated_at BIGINT           NOT NULL,
    PRIMARY KEY (user_id, family, scope)
);

CREATE INDEX ratings_leaderboard ON ratings (family, scope, rating DESC);

CREATE TABLE rating_changes (
    game_id          BIGINT           NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    user_id          BIGINT           NOT NULL REFERENCES users (id),
    family           TEXT             NOT NULL,
    scope            BIGINT           NOT NULL,
    rating_before    DOUBLE PRECISION NOT NULL,
    deviation_before DOUBLE PRECISION NOT NULL,
    rating_after     DOUBLE PRECISION NOT NULL,
    deviation_after  DOUBLE PRECISION NOT NULL,
    created_at       BIGINT           NOT NULL,
    PRIMARY KEY (game_id, user_id, scope)
);

CREATE INDEX rating_changes_by_user ON rating_changes (user_id, scope, created_at);
