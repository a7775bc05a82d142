-- The boards posted anew at a player's request, by game (lane) and time: a repeated /tafl board
-- looks for its player's board of the last minute here, under the write lock. Through
-- outbox_done (by time alone) it walked every item delivered in that minute, of every game.
-- Only this kind is indexed, so that no other delivery pays for it.
CREATE INDEX outbox_new_boards_done ON outbox (lane, finished_at) WHERE state = 'done' AND kind = 'new_board';
