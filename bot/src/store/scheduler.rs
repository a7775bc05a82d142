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
