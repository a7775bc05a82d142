-- The interactions (slash commands and clicks) the bot has taken on, by Discord's id, so that
-- one delivered twice is carried out once. Discord may dispatch an event again after a resumed
-- gateway session, and during a rolling deploy on PostgreSQL two processes may serve the same
-- shard: a challenge made twice (the second invisible, recorded on the first one's card, whose
-- expiry a day later closed the game's board), two games against the bot, a refusal answering
-- an accept that had started the game. Each interaction is recorded with one
-- `INSERT … ON CONFLICT DO NOTHING` before it is handled; a copy whose insert finds its id is
-- dropped, the first copy answers. An interaction's token lives 15 minutes, so rows older than
-- an hour are deleted (hourly, through `interactions_taken`).
CREATE TABLE interactions (
    id       BIGINT  PRIMARY KEY,
    taken_at BIGINT  NOT NULL
);
CREATE INDEX interactions_taken ON interactions (taken_at);
