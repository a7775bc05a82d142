-- When the scheduler last ticked for each Discord shard, for a bot run as several processes
-- with shard ranges (`DISCORD_SHARDS`). A process's scheduler handles the games of its own
-- shards' servers only, so that while a process is down its players' clocks wait with it (they
-- cannot click: Discord sends a server's interactions on its shard's connection only), and a
-- shard whose last tick is older than the downtime limit gets the grace after downtime when
-- its process returns, as the whole bot does after an outage (`scheduler.last_tick_at`). Keyed
-- by the shard count too: shard numbers mean other servers under another count.
CREATE TABLE shard_ticks (
    shard_count  BIGINT  NOT NULL,
    shard        BIGINT  NOT NULL,
    last_tick_at BIGINT  NOT NULL,
    PRIMARY KEY (shard_count, shard)
);
