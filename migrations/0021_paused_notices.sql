-- When the players of a server's paused games are told by DM that those games may now be ended
-- without a result (`/tafl claim`): two weeks (the host's CLAIM_AFTER, 1209600 seconds) after
-- the bot was removed from the server. NULL while the bot is a member, and once they were told.
-- Servers the bot had already left are told at the first tick after their two weeks.
ALTER TABLE servers ADD COLUMN paused_notice_at INTEGER;
UPDATE servers SET paused_notice_at = left_at + 1209600 WHERE left_at IS NOT NULL;
CREATE INDEX servers_paused_notice ON servers (paused_notice_at) WHERE paused_notice_at IS NOT NULL;
