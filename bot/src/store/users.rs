//! `users`: people and the display names last seen for them.

use sqlx::SqliteConnection;

/// A person as stored.
#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow)]
pub struct UserRow {
    pub id: i64,
    pub name: String,
    pub settings: String,
}

/// Records `id` with its current display name, creating the row on first sight.
pub async fn remember(conn: &mut SqliteConnection, id: i64, name: &str, now: i64) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO users (id, name, created_at, updated_at) VALUES (?, ?, ?, ?) \
         ON CONFLICT (id) DO UPDATE SET name = excluded.name, updated_at = excluded.updated_at \
         WHERE users.name <> excluded.name",
    )
    .bind(id)
    .bind(name)
    .bind(now)
    .bind(now)
    .execute(conn)
    .await?;
    Ok(())
}

/// Records the client locale Discord reports for a person; writes only when it changed. A
/// person never seen before gets no row here (rows are made with a name by [`remember`]).
pub async fn remember_locale(conn: &mut SqliteConnection, id: i64, locale: &str, now: i64) -> Result<(), sqlx::Error> {
    sqlx::query("UPDATE users SET locale = ?, updated_at = ? WHERE id = ? AND locale IS NOT ?")
        .bind(locale)
        .bind(now)
        .bind(id)
        .bind(locale)
        .execute(conn)
        .await?;
    Ok(())
}

/// A person's client locale as last reported, if known.
pub async fn locale(conn: &mut SqliteConnection, id: i64) -> Result<Option<String>, sqlx::Error> {
    let found: Option<Option<String>> =
        sqlx::query_scalar("SELECT locale FROM users WHERE id = ?").bind(id).fetch_optional(conn).await?;
    Ok(found.flatten())
}

pub async fn find(conn: &mut SqliteConnection, id: i64) -> Result<Option<UserRow>, sqlx::Error> {
    sqlx::query_as("SELECT id, name, settings FROM users WHERE id = ?").bind(id).fetch_optional(conn).await
}

pub async fn find_by_name(conn: &mut SqliteConnection, name: &str) -> Result<Option<UserRow>, sqlx::Error> {
    sqlx::query_as("SELECT id, name, settings FROM users WHERE name = ? ORDER BY id LIMIT 1")
        .bind(name)
        .fetch_optional(conn)
        .await
}

/// The largest id in use, for handing out fresh fake ids in the local console.
pub async fn max_id(conn: &mut SqliteConnection) -> Result<i64, sqlx::Error> {
    let max: Option<i64> = sqlx::query_scalar("SELECT MAX(id) FROM users").fetch_one(conn).await?;
    // The bot's levels have negative ids (migration 0008): fake ids start at 1 all the same.
    Ok(max.unwrap_or(0).max(0))
}

/// The display name of `id`, or a placeholder for someone never seen.
pub async fn name(conn: &mut SqliteConnection, id: i64) -> Result<String, sqlx::Error> {
    Ok(find(conn, id).await?.map_or_else(|| format!("user {id}"), |u| u.name))
}

/// Replaces a person's settings (a JSON object the settings commands own).
pub async fn set_settings(conn: &mut SqliteConnection, id: i64, settings: &str, now: i64) -> Result<bool, sqlx::Error> {
    let done = sqlx::query("UPDATE users SET settings = ?, updated_at = ? WHERE id = ?")
        .bind(settings)
        .bind(now)
        .bind(id)
        .execute(conn)
        .await?;
    Ok(done.rows_affected() == 1)
}

/// Sets when a person's next daily digest is due (`None`: they want none).
pub async fn set_digest_due(conn: &mut SqliteConnection, id: i64, due_at: Option<i64>) -> Result<(), sqlx::Error> {
    sqlx::query("UPDATE users SET digest_due_at = ? WHERE id = ?").bind(due_at).bind(id).execute(conn).await?;
    Ok(())
}

/// When a person's next daily digest is due, if they want one.
pub async fn digest_due(conn: &mut SqliteConnection, id: i64) -> Result<Option<i64>, sqlx::Error> {
    let due: Option<Option<i64>> =
        sqlx::query_scalar("SELECT digest_due_at FROM users WHERE id = ?").bind(id).fetch_optional(conn).await?;
    Ok(due.flatten())
}

/// The people whose digest is due at `now`, with when it was due, oldest first.
pub async fn digests_due(conn: &mut SqliteConnection, now: i64, limit: i64) -> Result<Vec<(i64, i64)>, sqlx::Error> {
    sqlx::query_as("SELECT id, digest_due_at FROM users WHERE digest_due_at <= ? ORDER BY digest_due_at, id LIMIT ?")
        .bind(now)
        .bind(limit)
        .fetch_all(conn)
        .await
}
