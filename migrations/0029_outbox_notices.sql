-- The "your move" notices, by game (lane) and age. The sweep that catches up what Discord
-- refused looks, for every game going on, at its newest notice: when that one was given up
-- (the bot's Send Messages taken away for a while, say), the player to move was never told,
-- and it is recorded again once the bot may post. Through the other indexes the newest notice
-- of any state could only be found by walking every item of the outbox.
CREATE INDEX outbox_notices ON outbox (lane, id) WHERE kind = 'your_move';
