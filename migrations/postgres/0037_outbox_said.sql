-- What the channel message of an item's try said, and when it was first tried; see the SQLite
-- file for why.
ALTER TABLE outbox ADD COLUMN tried_said TEXT;
ALTER TABLE outbox ADD COLUMN tried_at_ms BIGINT;
CREATE INDEX outbox_messages ON outbox (message_id) WHERE message_id IS NOT NULL;
