//! `scheduler`: one row saying when the scheduler last ticked, so that a tick after downtime
//! can tell and give players a grace period.

use sqlx::SqliteConnection;

/// When the scheduler last ticked; `None` before the first tick.
pub async fn last_tick(conn: &mut SqliteConnection) -> Result<Option<i64>, sqlx::Error> {
    sqlx::query_scalar("SELECT last_tick_at FROM scheduler WHERE id = 1").fetch_optional(conn).await
}

/// Records a tick at `now`.
pub async fn set_last_tick(conn: &mut SqliteConnection, now: i64) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO scheduler (id, last_tick_at) VALUES (1, ?) \
         ON CONFLICT (id) DO UPDATE SET last_tick_at = excluded.last_tick_at",
    )
    .bind(now)
    .execute(conn)
    .await?;
    Ok(())
}
