//! `interactions`: the interactions (slash commands, clicks) the bot has taken on, by Discord's
//! id, so that one delivered twice is carried out once (migration 0028).

use sqlx::AnyConnection;

/// Records the interaction `id` as taken on at `now` by the try `token`; `false` when another
/// try took it on (a copy: the same interaction delivered again, to this process or another).
/// The insert is atomic by itself, so two copies arriving at once on two processes cannot both
/// win it. A row of the same `token` is this try's own, inserted by an attempt whose answer was
/// lost with its connection (migration 0034).
pub async fn take(conn: &mut AnyConnection, id: i64, now: i64, token: i64) -> Result<bool, sqlx::Error> {
    let inserted =
        sqlx::query("INSERT INTO interactions (id, taken_at, token) VALUES ($1, $2, $3) ON CONFLICT (id) DO NOTHING")
            .bind(id)
            .bind(now)
            .bind(token)
            .execute(&mut *conn)
            .await?;
    if inserted.rows_affected() == 1 {
        return Ok(true);
    }
    let taker: Option<Option<i64>> =
        sqlx::query_scalar("SELECT token FROM interactions WHERE id = $1").bind(id).fetch_optional(conn).await?;
    Ok(taker.flatten() == Some(token))
}

/// Deletes up to `limit` interactions taken on before `taken_before` (unix seconds), the oldest
/// first, through their index; returns how many.
pub async fn prune(conn: &mut AnyConnection, taken_before: i64, limit: i64) -> Result<u64, sqlx::Error> {
    let deleted = sqlx::query(
        "DELETE FROM interactions WHERE id IN \
         (SELECT id FROM interactions WHERE taken_at < $1 ORDER BY taken_at LIMIT $2)",
    )
    .bind(taken_before)
    .bind(limit)
    .execute(conn)
    .await?;
    Ok(deleted.rows_affected())
}
