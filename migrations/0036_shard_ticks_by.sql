-- Which process last ticked each shard (`shard_ticks`, migration 0018). Shard ranges
-- (`DISCORD_SHARDS`) must not overlap: a shard served by two processes has its bot turns searched
-- and its finished games reviewed by both (a process's own shards' work takes no claim, migration
-- 0035), and nothing said so. Each tick now writes its process id here, and a process that finds
-- another's id at its next tick knows another process ticked its shard meanwhile. A rolling
-- deployment overlaps for a moment; only an overlap that lasts is logged (`host::scheduler`).
--
-- shard_ticks.ticked_by: the process id (`Host::process_id`) of the last tick; NULL for ticks
--   recorded before this migration.
ALTER TABLE shard_ticks ADD COLUMN ticked_by TEXT;
