//! `moves`: the move list of every game, the source of truth.

use sqlx::AnyConnection;

/// The notations of a game's moves, ply 1 first.
pub async fn list(conn: &mut AnyConnection, game_id: i64) -> Result<Vec<String>, sqlx::Error> {
    sqlx::query_scalar("SELECT notation FROM moves WHERE game_id = $1 ORDER BY ply").bind(game_id).fetch_all(conn).await
}

/// Appends the move of `ply`. The primary key (game, ply) refuses a second move for one ply, a
/// last line of defence behind the host's ply check.
pub async fn insert(
    conn: &mut AnyConnection,
    game_id: i64,
    ply: i64,
    notation: &str,
    user_id: Option<i64>,
    now: i64,
) -> Result<(), sqlx::Error> {
    sqlx::query("INSERT INTO moves (game_id, ply, notation, user_id, played_at) VALUES ($1, $2, $3, $4, $5)")
        .bind(game_id)
        .bind(ply)
        .bind(notation)
        .bind(user_id)
        .bind(now)
        .execute(conn)
        .await?;
    Ok(())
}

/// Removes every move after `ply` (a takeback).
pub async fn truncate(conn: &mut AnyConnection, game_id: i64, ply: i64) -> Result<u64, sqlx::Error> {
    let done =
        sqlx::query("DELETE FROM moves WHERE game_id = $1 AND ply > $2").bind(game_id).bind(ply).execute(conn).await?;
    Ok(done.rows_affected())
}
