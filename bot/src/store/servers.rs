//! `servers`: Discord servers and their settings (a JSON object the settings commands own).

use sqlx::SqliteConnection;

/// A server's settings, `{}` for a server never configured.
pub async fn settings(conn: &mut SqliteConnection, id: i64) -> Result<String, sqlx::Error> {
    let found: Option<String> =
        sqlx::query_scalar("SELECT settings FROM servers WHERE id = ?").bind(id).fetch_optional(conn).await?;
    Ok(found.unwrap_or_else(|| "{}".to_owned()))
}

/// Replaces a server's settings, creating its row on first use.
pub async fn set_settings(conn: &mut SqliteConnection, id: i64, settings: &str, now: i64) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO servers (id, settings, created_at, updated_at) VALUES (?, ?, ?, ?) \
         ON CONFLICT (id) DO UPDATE SET settings = excluded.settings, updated_at = excluded.updated_at",
    )
    .bind(id)
    .bind(settings)
    .bind(now)
    .bind(now)
    .execute(conn)
    .await?;
    Ok(())
}
