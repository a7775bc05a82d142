-- Where the Discord front end shows each game and challenge, so that it can edit them in place
-- after a restart: the board message of a game (edited after every move), the latest "your move"
-- notice (deleted when the next one is posted, so a channel holds one per game), and the message
-- that carries a challenge card (edited when the challenge is answered or expires).
-- The local console has no messages and leaves these tables empty.

CREATE TABLE board_messages (
    game_id    INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    -- The channel or thread the message is in.
    channel_id INTEGER NOT NULL,
    message_id INTEGER NOT NULL,
    notice_id  INTEGER,
    updated_at INTEGER NOT NULL
);

CREATE TABLE challenge_messages (
    challenge_id INTEGER PRIMARY KEY REFERENCES challenges (id) ON DELETE CASCADE,
    channel_id   INTEGER NOT NULL,
    message_id   INTEGER NOT NULL
);
