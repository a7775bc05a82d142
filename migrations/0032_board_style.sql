-- board_messages.orientation and .theme: how the game's board message is drawn, the style of
-- the player who posted it (`/tafl settings orientation theme`, e.g. high contrast for someone
-- who needs it). Every later edit draws it so; before, the first move's edit went back to the
-- default style. A card turned into a board, and boards from before, are drawn in the default.
ALTER TABLE board_messages ADD COLUMN orientation TEXT NOT NULL DEFAULT 'standard';
ALTER TABLE board_messages ADD COLUMN theme TEXT NOT NULL DEFAULT 'classic';
