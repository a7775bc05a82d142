-- The moves of each game as one space-separated string (`d1-d3 e5-e2 g3-e3xe2`): a cache of the
-- `moves` table, written in the same transaction as each move, so that loading a game for a move
-- is one row instead of one row per ply. `moves` stays the source of truth; where the two
-- disagree (games written before this migration have an empty string), the host reads `moves`.
ALTER TABLE games ADD COLUMN movetext TEXT NOT NULL DEFAULT '';
