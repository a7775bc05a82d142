-- When the process holding an outbox lane gave it back, in unix milliseconds; NULL while it
-- holds it. A claim given back now keeps its row (its lease over) instead of being deleted, until
-- the hourly prune: a process serving Discord shard ranges takes a lane of another shard's
-- server only once the grace (`FOREIGN_GRACE`, 15 s) has passed both since its first item came
-- due and since the lane was last given back (bot/src/store/outbox.rs, `claimable`). The process
-- of the lane's own shard gives it back while a click holds the board, and an item that waited
-- behind a slow one came due long before: counted from the items alone, another process took the
-- lane of a live shard and drew the board under the click.
ALTER TABLE outbox_claims ADD COLUMN released_at_ms INTEGER;
