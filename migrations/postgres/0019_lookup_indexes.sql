-- Two lookups that walked whole tables:
-- - a server's games, when the bot returns to a server it was removed from (every ongoing
--   turn is shifted by the time away, and summaries that could not be shown are posted);
-- - a finished game's summary message, which the review of every game edits when its search
--   is done, and the return looks for: delivered summaries are kept for good, so the outbox
--   grows with every game ever played.
CREATE INDEX games_by_guild ON games (guild_id, status);
CREATE INDEX outbox_summaries ON outbox (lane) WHERE kind = 'summary' AND state = 'done';
