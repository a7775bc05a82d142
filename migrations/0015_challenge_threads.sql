-- The thread a challenge was made in, when it was made in one (a thread people opened
-- themselves, a forum post, another game's thread); NULL in a channel. Its game is played in that
-- thread, and the server's allow-list judges the thread's parent channel (`channel_id`), as it
-- judges a game with a thread of its own.
ALTER TABLE challenges ADD COLUMN thread_id INTEGER;
