-- The outbox: what Discord must show, recorded in the same transaction that changes a game or a
-- challenge, so that a crash between the commit and the Discord request loses nothing. A
-- delivery task in the Discord front end applies the pending items, in order within each lane
-- (one game, one challenge), never two at once in one lane, and records what it created.
-- The local console never delivers; its rows simply stay pending (nothing reads them there).
CREATE TABLE outbox (
    id              INTEGER PRIMARY KEY,
    -- Whose items are applied in order: `game:12`, `challenge:4`.
    lane            TEXT    NOT NULL,
    -- The item's kind, also inside `item`; a column so that boards coalesce by index.
    kind            TEXT    NOT NULL,
    -- The typed item as JSON (bot/src/host/outbox.rs `Show`).
    item            TEXT    NOT NULL,
    -- `pending` until applied (`done`), or `given_up` after too many failed tries: kept, and
    -- logged once, never dropped silently.
    state           TEXT    NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'done', 'given_up')),
    attempts        INTEGER NOT NULL DEFAULT 0,
    -- 1 once a create of a notice or reminder has been sent: should the game move on before it
    -- is recorded as done, its nonce finds the message that try may have made, to delete it.
    tried           INTEGER NOT NULL DEFAULT 0,
    -- Unix milliseconds before which a retry is not tried (backoff, Discord's Retry-After).
    not_before_ms   INTEGER NOT NULL DEFAULT 0,
    last_error      TEXT,
    -- The message a create made, as Discord answered (the nonce makes a retry answer the same).
    message_id      INTEGER,
    created_at      INTEGER NOT NULL,
    finished_at     INTEGER
);

CREATE INDEX outbox_pending ON outbox (lane, id) WHERE state = 'pending';

-- The ply the stored board message shows, so that a board left behind (a crash, a race with
-- /tafl board) is found and redrawn; NULL when unknown.
ALTER TABLE board_messages ADD COLUMN shown_ply INTEGER;
-- Boards posted before this migration were brought up to date after every move.
UPDATE board_messages SET shown_ply = (SELECT ply FROM games WHERE games.id = board_messages.game_id);

-- At most one open offer per game and kind: two clicks at once cannot both open one. Should an
-- older database hold two (nothing enforced it before), the newest stays open.
UPDATE offers SET state = 'lapsed', resolved_at = created_at
WHERE state = 'open'
  AND id NOT IN (SELECT max(id) FROM offers WHERE state = 'open' GROUP BY game_id, kind);
CREATE UNIQUE INDEX offers_one_open ON offers (game_id, kind) WHERE state = 'open';
