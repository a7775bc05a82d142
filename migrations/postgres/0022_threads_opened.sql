-- games.thread_opened: TRUE when the game's thread is one the bot opened under its board (servers
-- with a thread per game), FALSE when the game was challenged in a thread people opened (or has
-- none). Only a thread the bot opened hands its game to the channel when the bot may no longer
-- post in it: a game of a private thread must not go on before people who could not see it.
-- Games from before are judged as the bot judged them until now: their thread is the bot's when
-- their board lives outside it.
ALTER TABLE games ADD COLUMN thread_opened BOOLEAN NOT NULL DEFAULT FALSE;
UPDATE games SET thread_opened = TRUE WHERE thread_id IS NOT NULL
    AND EXISTS (SELECT 1 FROM board_messages b WHERE b.game_id = games.id AND b.channel_id <> games.thread_id);
