-- The Discord server (guild) an outbox item belongs to, copied from its game or challenge when
-- the item is recorded; NULL for a person's digests and for items recorded before this column.
-- With several processes serving shard ranges, a process delivers the lanes of its own shards'
-- servers (Discord sends a server's interactions on shard `(guild_id >> 22) % count`), so that a
-- board is drawn by the process that also answers the clicks on it, one writer at a time; any
-- process takes an item nobody took within a grace period (see `claimable` in
-- bot/src/store/outbox.rs).
ALTER TABLE outbox ADD COLUMN guild_id INTEGER;
