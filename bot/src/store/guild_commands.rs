//! `guild_commands`: the servers where the bot registered its slash commands as that server's
//! own (`DISCORD_GUILD_ID`), so that a later start registering them elsewhere clears them there.

use sqlx::AnyConnection;

/// Records that the commands are (about to be) registered in `guild` at `now`.
pub async fn record(conn: &mut AnyConnection, guild: i64, now: i64) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO guild_commands (guild_id, registered_at) VALUES ($1, $2) \
         ON CONFLICT (guild_id) DO UPDATE SET registered_at = excluded.registered_at",
    )
    .bind(guild)
    .bind(now)
    .execute(conn)
    .await?;
    Ok(())
}

/// Every recorded server, by id.
pub async fn all(conn: &mut AnyConnection) -> Result<Vec<i64>, sqlx::Error> {
    sqlx::query_scalar("SELECT guild_id FROM guild_commands ORDER BY guild_id").fetch_all(conn).await
}

/// Forgets `guild`: its commands were cleared (or went with the bot).
pub async fn forget(conn: &mut AnyConnection, guild: i64) -> Result<(), sqlx::Error> {
    sqlx::query("DELETE FROM guild_commands WHERE guild_id = $1").bind(guild).execute(conn).await?;
    Ok(())
}
