-- games.thread_opened: 1 when the game's thread is one the bot opened under its board (servers
-- with a thread per game), 0 when the game was challenged in a thread people opened (or has
-- none). Only a thread the bot opened hands its game to the channel when the bot may no longer
-- post in it: a game of a private thread must not go on before people who could not see it.
-- Games from before are judged as the bot judged them until now: their thread is the bot's when
-- their board lives outside it.
ALTER TABLE games ADD COLUMN thread_opened INTEGER NOT NULL DEFAULT 0;
UPDATE games SET thread_opened = 1 WHERE thread_id IS NOT NULL
    AND EXISTS (SELECT 1 FROM board_messages b WHERE b.game_id = games.id AND b.channel_id <> games.thread_id);
