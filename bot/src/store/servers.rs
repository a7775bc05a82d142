//! `servers`: Discord servers and their settings (a JSON object the settings commands own).

use sqlx::AnyConnection;

use super::Backend;

/// Locks a server's row until the transaction ends (`PostgreSQL`; see [`super::games::lock`]),
/// creating it with the default settings when missing, so that two changes of its settings at
/// once cannot undo each other.
pub async fn lock(conn: &mut AnyConnection, id: i64, now: i64) -> Result<(), sqlx::Error> {
    if Backend::of(conn) == Backend::Postgres {
        sqlx::query("INSERT INTO servers (id, created_at, updated_at) VALUES ($1, $2, $3) ON CONFLICT (id) DO NOTHING")
            .bind(id)
            .bind(now)
            .bind(now)
            .execute(&mut *conn)
            .await?;
        sqlx::query("SELECT id FROM servers WHERE id = $1 FOR UPDATE").bind(id).fetch_optional(conn).await?;
    }
    Ok(())
}

/// A server's settings, `{}` for a server never configured.
pub async fn settings(conn: &mut AnyConnection, id: i64) -> Result<String, sqlx::Error> {
    let found: Option<String> =
        sqlx::query_scalar("SELECT settings FROM servers WHERE id = $1").bind(id).fetch_optional(conn).await?;
    Ok(found.unwrap_or_else(|| "{}".to_owned()))
}

/// Replaces a server's settings, creating its row on first use.
pub async fn set_settings(conn: &mut AnyConnection, id: i64, settings: &str, now: i64) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO servers (id, settings, created_at, updated_at) VALUES ($1, $2, $3, $4) \
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
pub async fn language(conn: &mut AnyConnection, id: i64) -> Result<(Option<String>, Option<String>), sqlx::Error> {
    let found: Option<(Option<String>, Option<String>)> =
        sqlx::query_as("SELECT locale, language FROM servers WHERE id = $1").bind(id).fetch_optional(conn).await?;
    Ok(found.unwrap_or_default())
}

/// Records the locale Discord reports for a server, creating its row on first sight; writes
/// only when it changed.
pub async fn remember_locale(conn: &mut AnyConnection, id: i64, locale: &str, now: i64) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO servers (id, locale, created_at, updated_at) VALUES ($1, $2, $3, $4) \
         ON CONFLICT (id) DO UPDATE SET locale = excluded.locale, updated_at = excluded.updated_at \
         WHERE servers.locale IS DISTINCT FROM excluded.locale",
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
    conn: &mut AnyConnection,
    id: i64,
    language: Option<&str>,
    now: i64,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO servers (id, language, created_at, updated_at) VALUES ($1, $2, $3, $4) \
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

/// Records that the bot was removed from a server at `now` (migration 0017), creating its row,
/// and when the players of its paused games are to be told they may end them (`notice_at`,
/// migration 0021). A second notice keeps the first moments. True when the bot was a member
/// until now.
pub async fn leave(conn: &mut AnyConnection, id: i64, now: i64, notice_at: i64) -> Result<bool, sqlx::Error> {
    let done = sqlx::query(
        "INSERT INTO servers (id, left_at, paused_notice_at, created_at, updated_at) VALUES ($1, $2, $3, $4, $5) \
         ON CONFLICT (id) DO UPDATE SET left_at = excluded.left_at, paused_notice_at = excluded.paused_notice_at, \
         updated_at = excluded.updated_at \
         WHERE servers.left_at IS NULL",
    )
    .bind(id)
    .bind(now)
    .bind(notice_at)
    .bind(now)
    .bind(now)
    .execute(conn)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// When the bot left a server, while it is away from it.
pub async fn left_at(conn: &mut AnyConnection, id: i64) -> Result<Option<i64>, sqlx::Error> {
    let found: Option<Option<i64>> =
        sqlx::query_scalar("SELECT left_at FROM servers WHERE id = $1").bind(id).fetch_optional(conn).await?;
    Ok(found.flatten())
}

/// Records that the bot is a member of a server again (no-op when it never left): its games go
/// on, and nobody is to be told they may end them.
pub async fn come_back(conn: &mut AnyConnection, id: i64, now: i64) -> Result<(), sqlx::Error> {
    sqlx::query(
        "UPDATE servers SET left_at = NULL, paused_notice_at = NULL, updated_at = $1 WHERE id = $2 AND left_at IS NOT NULL",
    )
        .bind(now)
        .bind(id)
        .execute(conn)
        .await?;
    Ok(())
}

/// The servers the bot left whose shard is `shard` of `count`.
pub async fn left_of_shard(conn: &mut AnyConnection, shard: u32, count: u32) -> Result<Vec<i64>, sqlx::Error> {
    sqlx::query_scalar("SELECT id FROM servers WHERE left_at IS NOT NULL AND (id >> 22) % $1 = $2 ORDER BY id")
        .bind(i64::from(count.max(1)))
        .bind(i64::from(shard))
        .fetch_all(conn)
        .await
}

/// The servers the bot left whose paused games' players are to be told, at `now`, that they may
/// end them (migration 0021), at most `limit`, the longest waiting first.
pub async fn paused_notices_due(conn: &mut AnyConnection, now: i64, limit: i64) -> Result<Vec<i64>, sqlx::Error> {
    let sql = match Backend::of(conn) {
        Backend::Sqlite => {
            "SELECT id FROM servers WHERE paused_notice_at <= $1 AND left_at IS NOT NULL \
             ORDER BY paused_notice_at, id LIMIT $2"
        }
        // Locked, so that processes ticking at once each take other servers, and one that
        // another process has just handled (its moment cleared) is left out.
        Backend::Postgres => {
            "SELECT id FROM servers WHERE paused_notice_at <= $1 AND left_at IS NOT NULL \
             ORDER BY paused_notice_at, id LIMIT $2 FOR UPDATE SKIP LOCKED"
        }
    };
    sqlx::query_scalar(sql).bind(now).bind(limit).fetch_all(conn).await
}

/// Records that the players of a server's paused games were told they may end them.
pub async fn paused_notice_done(conn: &mut AnyConnection, id: i64) -> Result<(), sqlx::Error> {
    sqlx::query("UPDATE servers SET paused_notice_at = NULL WHERE id = $1").bind(id).execute(conn).await?;
    Ok(())
}
