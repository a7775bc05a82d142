-- The check for boards left behind their games (`stale_boards` in bot/src/store/outbox.rs),
-- which runs at start-up and on every scheduler tick, looks at ongoing games and at games
-- finished in the last hour, not at every game ever played: joined over all of them it took
-- 20 ms at 20,000 games, inside a write transaction that every move waits for.
CREATE INDEX games_ongoing ON games (id) WHERE status = 'ongoing';
CREATE INDEX games_finished ON games (finished_at) WHERE finished_at IS NOT NULL;
