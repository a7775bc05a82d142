//! `scheduler`: one row saying when the scheduler last ticked, so that a tick after downtime
//! can tell and give players a grace period.

use sqlx::AnyConnection;

use super::Backend;

/// The key of the transaction-scoped advisory lock that [`lock`] takes ("tafl" in ASCII).
const TICK_LOCK: i64 = 0x7461_666c;

/// Makes this transaction the only start of a tick in progress until it ends (`PostgreSQL`: an
/// advisory lock, since the `scheduler` row may not exist yet; on `SQLite` the write transaction
/// already is the only writer). Held only by the short transaction that records a tick and gives
/// the downtime grace, so that the grace is given once; the due items themselves are shared
/// between processes batch by batch (`FOR UPDATE SKIP LOCKED`, see `host::scheduler`).
pub async fn lock(conn: &mut AnyConnection) -> Result<(), sqlx::Error> {
    if Backend::of(conn) == Backend::Postgres {
        // pg_advisory_xact_lock returns void, which sqlx's Any driver cannot decode: select a 1.
        sqlx::query("SELECT 1 FROM (SELECT pg_advisory_xact_lock($1)) AS locked").bind(TICK_LOCK).execute(conn).await?;
    }
    Ok(())
}

/// When the scheduler last ticked; `None` before the first tick.
pub async fn last_tick(conn: &mut AnyConnection) -> Result<Option<i64>, sqlx::Error> {
    sqlx::query_scalar("SELECT last_tick_at FROM scheduler WHERE id = 1").fetch_optional(conn).await
}

/// The first moment after `after` when a tick finds something due: the earliest of the
/// ongoing games' next moments (in servers the bot has not left), the open challenges' expiries,
/// the digests' schedules and the notices of paused games that may be ended.
pub async fn next_due_after(conn: &mut AnyConnection, after: i64) -> Result<Option<i64>, sqlx::Error> {
    sqlx::query_scalar(
        "SELECT MIN(at) FROM ( \
           SELECT MIN(g.next_due_at) AS at FROM games g LEFT JOIN servers s ON s.id = g.guild_id \
            WHERE g.status = 'ongoing' AND g.next_due_at > $1 AND s.left_at IS NULL \
           UNION ALL SELECT MIN(expires_at) FROM challenges WHERE state = 'open' AND expires_at > $2 \
           UNION ALL SELECT MIN(digest_due_at) FROM users WHERE digest_due_at > $3 \
           UNION ALL SELECT MIN(paused_notice_at) FROM servers WHERE paused_notice_at > $4 AND left_at IS NOT NULL \
         ) AS due",
    )
    .bind(after)
    .bind(after)
    .bind(after)
    .bind(after)
    .fetch_one(conn)
    .await
}

/// Records a tick at `now`.
pub async fn set_last_tick(conn: &mut AnyConnection, now: i64) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO scheduler (id, last_tick_at) VALUES (1, $1) \
         ON CONFLICT (id) DO UPDATE SET last_tick_at = excluded.last_tick_at",
    )
    .bind(now)
    .execute(conn)
    .await?;
    Ok(())
}

/// A shard's last tick as recorded (migration 0018).
#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow)]
pub struct ShardTick {
    pub shard: i64,
    /// Unix seconds.
    pub last_tick_at: i64,
    /// The process that recorded it (migration 0036); `None` before that migration.
    pub ticked_by: Option<String>,
}

/// When the scheduler last ticked for each of the shards `first..=last` of `count` that has
/// ticked, and which process recorded it, in shard order.
pub async fn shard_ticks(
    conn: &mut AnyConnection,
    count: u32,
    first: u32,
    last: u32,
) -> Result<Vec<ShardTick>, sqlx::Error> {
    sqlx::query_as(
        "SELECT shard, last_tick_at, ticked_by FROM shard_ticks \
         WHERE shard_count = $1 AND shard BETWEEN $2 AND $3 ORDER BY shard",
    )
    .bind(i64::from(count))
    .bind(i64::from(first))
    .bind(i64::from(last))
    .fetch_all(conn)
    .await
}

/// The shard counts other than `count` under which some shard ticked at or after `since`, in
/// order: another process running with another `DISCORD_SHARD_COUNT`.
pub async fn other_shard_counts(conn: &mut AnyConnection, count: u32, since: i64) -> Result<Vec<i64>, sqlx::Error> {
    sqlx::query_scalar(
        "SELECT DISTINCT shard_count FROM shard_ticks WHERE shard_count <> $1 AND last_tick_at >= $2 ORDER BY shard_count",
    )
    .bind(i64::from(count))
    .bind(since)
    .fetch_all(conn)
    .await
}

/// Records a tick at `now` by process `by` for the shards `first..=last` of `count`, never
/// moving one back (a process whose clock runs behind another's must not make the other see a
/// gap), but always naming `by` as the last to tick, so that a process finding another's name at
/// its next tick knows the shard was ticked by another meanwhile, whichever clock runs ahead.
/// One statement for the shards that ticked before; one insert for each that did not.
pub async fn set_shard_ticks(
    conn: &mut AnyConnection,
    (count, first, last): (u32, u32, u32),
    known: &[ShardTick],
    by: &str,
    now: i64,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "UPDATE shard_ticks SET last_tick_at = CASE WHEN last_tick_at < $1 THEN $2 ELSE last_tick_at END, \
         ticked_by = $3 WHERE shard_count = $4 AND shard BETWEEN $5 AND $6",
    )
    .bind(now)
    .bind(now)
    .bind(by)
    .bind(i64::from(count))
    .bind(i64::from(first))
    .bind(i64::from(last))
    .execute(&mut *conn)
    .await?;
    let known: std::collections::HashSet<i64> = known.iter().map(|tick| tick.shard).collect();
    for shard in (first..=last).map(i64::from).filter(|shard| !known.contains(shard)) {
        sqlx::query(
            "INSERT INTO shard_ticks (shard_count, shard, last_tick_at, ticked_by) VALUES ($1, $2, $3, $4) \
             ON CONFLICT (shard_count, shard) DO NOTHING",
        )
        .bind(i64::from(count))
        .bind(shard)
        .bind(now)
        .bind(by)
        .execute(&mut *conn)
        .await?;
    }
    Ok(())
}

/// Moves the ticks of the shards `first..=last` of `count` recorded later than `after` back to
/// `now`: the clock stepped back, and the time since they were recorded is unknown (see
/// `host::scheduler`).
pub async fn move_shard_ticks_back(
    conn: &mut AnyConnection,
    count: u32,
    first: u32,
    last: u32,
    after: i64,
    now: i64,
) -> Result<u64, sqlx::Error> {
    let moved = sqlx::query(
        "UPDATE shard_ticks SET last_tick_at = $1 \
         WHERE shard_count = $2 AND shard BETWEEN $3 AND $4 AND last_tick_at > $5",
    )
    .bind(now)
    .bind(i64::from(count))
    .bind(i64::from(first))
    .bind(i64::from(last))
    .bind(after)
    .execute(conn)
    .await?;
    Ok(moved.rows_affected())
}

/// Whether the database holds anything of Discord's: a game or challenge in a server, or a
/// server's row. The console, which plays in a database of its own, refuses such a one.
pub async fn holds_discord(conn: &mut AnyConnection) -> Result<bool, sqlx::Error> {
    // A number, not a boolean: the `Any` driver decodes `bool` from `PostgreSQL`'s BOOLEAN only.
    let found: i64 = sqlx::query_scalar(
        "SELECT CASE WHEN EXISTS (SELECT 1 FROM games WHERE guild_id <> 0) \
         OR EXISTS (SELECT 1 FROM challenges WHERE guild_id <> 0) \
         OR EXISTS (SELECT 1 FROM servers) THEN 1 ELSE 0 END",
    )
    .fetch_one(conn)
    .await?;
    Ok(found == 1)
}
