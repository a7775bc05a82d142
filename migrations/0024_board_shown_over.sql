-- board_messages.shown_over: 1 when the board message shows its game over (its result, no
-- controls), 0 when it shows the game going on. A game can end without a move (resignation,
-- time, agreement, a claim), keeping its ply: the ply alone could not tell that a board drawn
-- before the end is behind its game, and a final board whose edit Discord refused was never
-- repaired. Boards from before are taken as showing what their game is now: the sweep would
-- otherwise edit every recently finished game's board once at the upgrade.
ALTER TABLE board_messages ADD COLUMN shown_over INTEGER NOT NULL DEFAULT 0;
UPDATE board_messages SET shown_over = 1
    WHERE EXISTS (SELECT 1 FROM games g WHERE g.id = board_messages.game_id AND g.status <> 'ongoing');
