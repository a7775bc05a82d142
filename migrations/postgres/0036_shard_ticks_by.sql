-- Which process last ticked each shard; see the SQLite file for why.
ALTER TABLE shard_ticks ADD COLUMN ticked_by TEXT;
