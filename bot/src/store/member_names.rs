//! `member_names`: what people are called in each server (their server nickname), read in place
//! of their display name wherever a name is shown in that server (migration 0031).

use sqlx::AnyConnection;

/// Records what `user` is called in `guild`, or with `None` (no nickname there) forgets it, so
/// that their display name shows again. Writes only when it changed.
pub async fn set(
    conn: &mut AnyConnection,
    guild: i64,
    user: i64,
    name: Option<&str>,
    now: i64,
) -> Result<(), sqlx::Error> {
    match name {
        Some(name) => {
            sqlx::query(
                "INSERT INTO member_names (guild_id, user_id, name, updated_at) VALUES ($1, $2, $3, $4) \
                 ON CONFLICT (guild_id, user_id) DO UPDATE SET name = excluded.name, updated_at = excluded.updated_at \
                 WHERE member_names.name <> excluded.name",
            )
            .bind(guild)
            .bind(user)
            .bind(name)
            .bind(now)
            .execute(conn)
            .await?;
        }
        None => {
            sqlx::query("DELETE FROM member_names WHERE guild_id = $1 AND user_id = $2")
                .bind(guild)
                .bind(user)
                .execute(conn)
                .await?;
        }
    }
    Ok(())
}
