-- PostgreSQL's version of migrations/0005_messages.sql: where the Discord front end shows each
-- game (board message, latest notice) and each challenge card.
CREATE TABLE board_messages (
    game_id    BIGINT PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    channel_id BIGINT NOT NULL,
    message_id BIGINT NOT NULL,
    notice_id  BIGINT,
    updated_at BIGINT NOT NULL
);

CREATE TABLE challenge_messages (
    challenge_id BIGINT PRIMARY KEY REFERENCES challenges (id) ON DELETE CASCADE,
    channel_id   BIGINT NOT NULL,
    message_id   BIGINT NOT NULL
);
