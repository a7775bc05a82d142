-- games.channel_gone_at: when the game's channel was deleted (Discord's CHANNEL_DELETE, or a post
-- there refused as "Unknown Channel", for a deletion the bot missed while it was down), until a
-- player moves the game to another channel with /tafl board; NULL while its channel exists. A
-- thread goes with its channel, so the games of threads under it are marked too. Without this a
-- game went on unseen: every board, notice and summary posted there was refused and given up,
-- and /tafl board answered that a board was posted while posting it in the deleted channel.
-- Games from before keep their channel: the first post refused there marks them.
ALTER TABLE games ADD COLUMN channel_gone_at BIGINT;
