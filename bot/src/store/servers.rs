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

/// A server's locale as Discord reports it and the language its managers chose, if any.
pub async fn language(conn: &mut SqliteConnection, id: i64) -> Result<(Option<String>, Option<String>), sqlx::Error> {
    let found: Option<(Option<String>, Option<String>)> =
        sqlx::query_as("SELECT locale, language FROM servers WHERE id = ?").bind(id).fetch_optional(conn).await?;
    Ok(found.unwrap_or_default())
}

/// Records the locale Discord reports for a server, creating its row on first sight; writes
/// only when it changed.
pub async fn remember_locale(conn: &mut SqliteConnection, id: i64, locale: &str, now: i64) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO servers (id, locale, created_at, updated_at) VALUES (?, ?, ?, ?) \
         ON CONFLICT (id) DO UPDATE SET locale = excluded.locale, updated_at = excluded.updated_at \
         WHERE servers.locale IS NOT excluded.locale",
    )
    .bind(id)
    .bind(locale)
    .bind(now)
    .bind(now)
    .execute(conn)
    .await?;
    Ok(())
}

/// Sets (or, with `None`, clears) the language a server's managers chose.
pub async fn set_language(
    conn: &mut SqliteConnection,
    id: i64,
    language: Option<&str>,
    now: i64,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO servers (id, language, created_at, updated_at) VALUES (?, ?, ?, ?) \
         ON CONFLICT (id) DO UPDATE SET language = excluded.language, updated_at = excluded.updated_at",
    )
    .bind(id)
    .bind(language)
    .bind(now)
    .bind(now)
    .execute(conn)
    .await?;
    Ok(())
}
