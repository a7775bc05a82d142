-- PostgreSQL's version of migrations/0002_games_movetext.sql: the move list as one string, a
-- cache of `moves`.
ALTER TABLE games ADD COLUMN movetext TEXT NOT NULL DEFAULT '';
