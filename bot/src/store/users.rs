//! `users`: people and the display names last seen for them.

use sqlx::AnyConnection;

use super::Backend;

/// A person as stored.
#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow)]
pub struct UserRow {
    pub id: i64,
    pub name: String,
    pub settings: String,
}

/// Locks a person's row until the transaction ends (`PostgreSQL`; see [`super::games::lock`]),
/// so that two changes of their settings at once cannot undo each other. The row must exist
/// ([`remember`] first).
pub async fn lock(conn: &mut AnyConnection, id: i64) -> Result<(), sqlx::Error> {
    if Backend::of(conn) == Backend::Postgres {
        sqlx::query("SELECT id FROM users WHERE id = $1 FOR UPDATE").bind(id).fetch_optional(conn).await?;
    }
    Ok(())
}

/// Records `id` with its current display name, creating the row on first sight.
pub async fn remember(conn: &mut AnyConnection, id: i64, name: &str, now: i64) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO users (id, name, created_at, updated_at) VALUES ($1, $2, $3, $4) \
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

/// Records a person's current display name; writes only when it changed. Returns whether the
/// person is known: one never seen before gets no row here (see [`remember_locale`]).
pub async fn rename(conn: &mut AnyConnection, id: i64, name: &str, now: i64) -> Result<bool, sqlx::Error> {
    let updated = sqlx::query(
        "UPDATE users SET updated_at = CASE WHEN name <> $1 THEN $2 ELSE updated_at END, name = $3 WHERE id = $4",
    )
    .bind(name)
    .bind(now)
    .bind(name)
    .bind(id)
    .execute(conn)
    .await?;
    Ok(updated.rows_affected() > 0)
}

/// Records the client locale Discord reports for a person; writes only when it changed. A
/// person never seen before gets no row here (rows are made with a name by [`remember`]).
pub async fn remember_locale(conn: &mut AnyConnection, id: i64, locale: &str, now: i64) -> Result<bool, sqlx::Error> {
    // Every row of the person matches, changed or not, so that the answer says whether they are
    // known yet (a first interaction comes before the person is recorded).
    let updated = sqlx::query(
        "UPDATE users SET updated_at = CASE WHEN locale IS DISTINCT FROM $1 THEN $2 ELSE updated_at END, locale = $3 WHERE id = $4",
    )
    .bind(locale)
    .bind(now)
    .bind(locale)
    .bind(id)
    .execute(conn)
    .await?;
    Ok(updated.rows_affected() > 0)
}

/// A person's client locale as last reported, if known.
pub async fn locale(conn: &mut AnyConnection, id: i64) -> Result<Option<String>, sqlx::Error> {
    let found: Option<Option<String>> =
        sqlx::query_scalar("SELECT locale FROM users WHERE id = $1").bind(id).fetch_optional(conn).await?;
    Ok(found.flatten())
}

pub async fn find(conn: &mut AnyConnection, id: i64) -> Result<Option<UserRow>, sqlx::Error> {
    sqlx::query_as("SELECT id, name, settings FROM users WHERE id = $1").bind(id).fetch_optional(conn).await
}

pub async fn find_by_name(conn: &mut AnyConnection, name: &str) -> Result<Option<UserRow>, sqlx::Error> {
    sqlx::query_as("SELECT id, name, settings FROM users WHERE name = $1 ORDER BY id LIMIT 1")
        .bind(name)
        .fetch_optional(conn)
        .await
}

/// The `PostgreSQL` advisory lock under which consoles hand out ids ([`find_or_create_local`]).
const LOCAL_IDS_LOCK: i64 = 0x7461_666d;

/// The id of the console player called `name`, made on first use: the largest id in use plus one.
/// Two consoles on one `PostgreSQL` would otherwise both read the same largest id, and the second
/// would rename the first one's player ([`remember`] updates an existing id's name). An advisory
/// lock held to the end of the transaction makes the second wait for the first to commit, then
/// find the name or read the new largest id. On `SQLite` the write transaction already is the
/// only writer. Call it in a write transaction.
pub async fn find_or_create_local(conn: &mut AnyConnection, name: &str, now: i64) -> Result<i64, sqlx::Error> {
    if Backend::of(conn) == Backend::Postgres {
        // pg_advisory_xact_lock returns void, which sqlx's Any driver cannot decode: select a 1.
        sqlx::query("SELECT 1 FROM (SELECT pg_advisory_xact_lock($1)) AS locked")
            .bind(LOCAL_IDS_LOCK)
            .execute(&mut *conn)
            .await?;
    }
    if let Some(row) = find_by_name(conn, name).await? {
        return Ok(row.id);
    }
    let max: Option<i64> = sqlx::query_scalar("SELECT MAX(id) FROM users").fetch_one(&mut *conn).await?;
    // The bot's levels have negative ids (migration 0008): fake ids start at 1 all the same.
    let id = max.unwrap_or(0).max(0) + 1;
    remember(conn, id, name, now).await?;
    Ok(id)
}

/// The name of `id` in server `guild`: what they are called there (see [`super::member_names`]),
/// else their display name, which is all `guild` 0 (a DM, the console, a global view) has; a
/// placeholder for someone never seen.
pub async fn name(conn: &mut AnyConnection, id: i64, guild: i64) -> Result<String, sqlx::Error> {
    let found: Option<String> = sqlx::query_scalar(
        "SELECT COALESCE(m.name, u.name) FROM users u \
         LEFT JOIN member_names m ON m.guild_id = $1 AND m.user_id = u.id WHERE u.id = $2",
    )
    .bind(guild)
    .bind(id)
    .fetch_optional(conn)
    .await?;
    Ok(found.unwrap_or_else(|| format!("user {id}")))
}

/// Replaces a person's settings (a JSON object the settings commands own).
pub async fn set_settings(conn: &mut AnyConnection, id: i64, settings: &str, now: i64) -> Result<bool, sqlx::Error> {
    let done = sqlx::query("UPDATE users SET settings = $1, updated_at = $2 WHERE id = $3")
        .bind(settings)
        .bind(now)
        .bind(id)
        .execute(conn)
        .await?;
    Ok(done.rows_affected() == 1)
}

/// Sets when a person's next daily digest is due (`None`: they want none).
pub async fn set_digest_due(conn: &mut AnyConnection, id: i64, due_at: Option<i64>) -> Result<(), sqlx::Error> {
    sqlx::query("UPDATE users SET digest_due_at = $1 WHERE id = $2").bind(due_at).bind(id).execute(conn).await?;
    Ok(())
}

/// When a person's next daily digest is due, if they want one.
pub async fn digest_due(conn: &mut AnyConnection, id: i64) -> Result<Option<i64>, sqlx::Error> {
    let due: Option<Option<i64>> =
        sqlx::query_scalar("SELECT digest_due_at FROM users WHERE id = $1").bind(id).fetch_optional(conn).await?;
    Ok(due.flatten())
}

/// The people whose digest is due at `now`, with when it was due, oldest first.
pub async fn digests_due(conn: &mut AnyConnection, now: i64, limit: i64) -> Result<Vec<(i64, i64)>, sqlx::Error> {
    let sql = match Backend::of(conn) {
        Backend::Sqlite => {
            "SELECT id, digest_due_at FROM users WHERE digest_due_at <= $1 ORDER BY digest_due_at, id LIMIT $2"
        }
        // Locked, so that processes ticking at once each take other people's digests, and one
        // that another process has just sent (its next moment moved on) is left out.
        Backend::Postgres => {
            "SELECT id, digest_due_at FROM users WHERE digest_due_at <= $1 ORDER BY digest_due_at, id LIMIT $2 \
             FOR UPDATE SKIP LOCKED"
        }
    };
    sqlx::query_as(sql).bind(now).bind(limit).fetch_all(conn).await
}
