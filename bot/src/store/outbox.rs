//! `outbox`: what a front end must show, written in the transaction that changed the game or
//! challenge, and the delivery's progress on each item (see `migrations/0006_outbox.sql`).

use sqlx::SqliteConnection;

/// One item as stored.
#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow)]
pub struct OutboxRow {
    pub id: i64,
    pub lane: String,
    pub kind: String,
    pub item: String,
    pub attempts: i64,
    pub tried: bool,
    pub not_before_ms: i64,
    pub created_at: i64,
}

pub async fn insert(
    conn: &mut SqliteConnection,
    lane: &str,
    kind: &str,
    item: &str,
    now: i64,
) -> Result<i64, sqlx::Error> {
    sqlx::query_scalar("INSERT INTO outbox (lane, kind, item, created_at) VALUES (?, ?, ?, ?) RETURNING id")
        .bind(lane)
        .bind(kind)
        .bind(item)
        .bind(now)
        .fetch_one(conn)
        .await
}

/// The first pending item of every lane (at most `limit` lanes), due or not: a lane waits for
/// its head, so that its items are applied in order.
pub async fn heads(conn: &mut SqliteConnection, limit: i64) -> Result<Vec<OutboxRow>, sqlx::Error> {
    sqlx::query_as(
        "SELECT id, lane, kind, item, attempts, tried, not_before_ms, created_at FROM outbox WHERE id IN \
         (SELECT min(id) FROM outbox WHERE state = 'pending' GROUP BY lane) ORDER BY id LIMIT ?",
    )
    .bind(limit)
    .fetch_all(conn)
    .await
}

/// The first pending item of one lane.
pub async fn head(conn: &mut SqliteConnection, lane: &str) -> Result<Option<OutboxRow>, sqlx::Error> {
    sqlx::query_as(
        "SELECT id, lane, kind, item, attempts, tried, not_before_ms, created_at FROM outbox \
         WHERE lane = ? AND state = 'pending' ORDER BY id LIMIT 1",
    )
    .bind(lane)
    .fetch_optional(conn)
    .await
}

/// The newest pending item of `kind` in a lane.
pub async fn latest(conn: &mut SqliteConnection, lane: &str, kind: &str) -> Result<Option<i64>, sqlx::Error> {
    sqlx::query_scalar("SELECT max(id) FROM outbox WHERE lane = ? AND kind = ? AND state = 'pending'")
        .bind(lane)
        .bind(kind)
        .fetch_one(conn)
        .await
}

/// Marks an item applied, with the message it created.
pub async fn done(conn: &mut SqliteConnection, id: i64, message_id: Option<i64>, now: i64) -> Result<(), sqlx::Error> {
    sqlx::query(
        "UPDATE outbox SET state = 'done', message_id = coalesce(?, message_id), finished_at = ? \
         WHERE id = ? AND state = 'pending'",
    )
    .bind(message_id)
    .bind(now)
    .bind(id)
    .execute(conn)
    .await?;
    Ok(())
}

/// Marks every pending item of `kind` in a lane up to `up_to` applied: one delivery showed the
/// state they all asked for (boards coalesce).
pub async fn done_up_to(
    conn: &mut SqliteConnection,
    lane: &str,
    kind: &str,
    up_to: i64,
    now: i64,
) -> Result<u64, sqlx::Error> {
    let done = sqlx::query(
        "UPDATE outbox SET state = 'done', finished_at = ? WHERE lane = ? AND kind = ? AND state = 'pending' AND id <= ?",
    )
    .bind(now)
    .bind(lane)
    .bind(kind)
    .bind(up_to)
    .execute(conn)
    .await?;
    Ok(done.rows_affected())
}

/// Marks that a create of the item is about to be sent (see the `tried` column).
pub async fn tried(conn: &mut SqliteConnection, id: i64) -> Result<(), sqlx::Error> {
    sqlx::query("UPDATE outbox SET tried = 1 WHERE id = ?").bind(id).execute(conn).await?;
    Ok(())
}

/// Counts a failed try and sets when the next one may come; returns the tries so far.
pub async fn failed(conn: &mut SqliteConnection, id: i64, error: &str, not_before_ms: i64) -> Result<i64, sqlx::Error> {
    sqlx::query_scalar(
        "UPDATE outbox SET attempts = attempts + 1, last_error = ?, not_before_ms = ? WHERE id = ? RETURNING attempts",
    )
    .bind(error)
    .bind(not_before_ms)
    .bind(id)
    .fetch_one(conn)
    .await
}

/// Gives an item up: it stays in the table, marked, with its last error.
pub async fn give_up(conn: &mut SqliteConnection, id: i64, error: &str, now: i64) -> Result<(), sqlx::Error> {
    sqlx::query("UPDATE outbox SET state = 'given_up', last_error = ?, finished_at = ? WHERE id = ?")
        .bind(error)
        .bind(now)
        .bind(id)
        .execute(conn)
        .await?;
    Ok(())
}

/// Games whose stored board shows another ply than the game's and that have no board pending:
/// boards left behind by a crash or a race.
pub async fn stale_boards(conn: &mut SqliteConnection, limit: i64) -> Result<Vec<(i64, i64)>, sqlx::Error> {
    sqlx::query_as(
        "SELECT g.id, g.ply FROM board_messages b JOIN games g ON g.id = b.game_id \
         WHERE (b.shown_ply IS NULL OR b.shown_ply != g.ply) \
         AND NOT EXISTS (SELECT 1 FROM outbox o WHERE o.lane = 'game:' || g.id AND o.kind = 'board' \
                         AND o.state = 'pending') \
         ORDER BY g.id LIMIT ?",
    )
    .bind(limit)
    .fetch_all(conn)
    .await
}

/// Deletes every pending item (see `Host::discard_outbox`); returns how many.
pub async fn discard_pending(conn: &mut SqliteConnection) -> Result<u64, sqlx::Error> {
    Ok(sqlx::query("DELETE FROM outbox WHERE state = 'pending'").execute(conn).await?.rows_affected())
}

/// Pending and given-up items, for tests and operators: `(state, count)`.
pub async fn counts(conn: &mut SqliteConnection) -> Result<Vec<(String, i64)>, sqlx::Error> {
    sqlx::query_as("SELECT state, count(*) FROM outbox GROUP BY state ORDER BY state").fetch_all(conn).await
}
