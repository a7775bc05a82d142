-- What the channel message of an item's try said, and when it was first tried. Discord
-- remembers a message's nonce for "a few minutes" only, and an item fails for hours while
-- Discord is down. A notice that no longer applies when it is tried again (the game moved on)
-- used to be looked for by posting a "…" probe under its nonce: past that window the probe found
-- nothing, and the message the earlier try made stayed. Its words are not those of anything the
-- item would render now, so they are kept here, and the channel's messages are searched for
-- them instead.
--
-- outbox.tried_said: every distinct wording the item's tries sent (`Tried` in the Discord front
--   end, as JSON: words can change between tries); NULL before any try, and for items tried
--   before this migration.
-- outbox.tried_at_ms: unix milliseconds of the first try; no message of the item is older.
-- outbox_messages: which item a message is recorded for. A message found by its words may be
--   an earlier item's that said the same (a second takeback's notice says what the first one's
--   did): one recorded for another item is not this item's.
ALTER TABLE outbox ADD COLUMN tried_said TEXT;
ALTER TABLE outbox ADD COLUMN tried_at_ms INTEGER;
CREATE INDEX outbox_messages ON outbox (message_id) WHERE message_id IS NOT NULL;
