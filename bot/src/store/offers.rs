//! `offers`: draw offers and takeback requests.

use sqlx::AnyConnection;

/// An offer as stored.
#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow)]
pub struct OfferRow {
    pub id: i64,
    pub game_id: i64,
    pub kind: String,
    pub by_user: i64,
    pub at_ply: i64,
    pub state: String,
}

/// The open offer of `kind` in a game, if any.
pub async fn open(conn: &mut AnyConnection, game_id: i64, kind: &str) -> Result<Option<OfferRow>, sqlx::Error> {
    sqlx::query_as(
        "SELECT id, game_id, kind, by_user, at_ply, state FROM offers \
         WHERE game_id = $1 AND kind = $2 AND state = 'open' ORDER BY id DESC LIMIT 1",
    )
    .bind(game_id)
    .bind(kind)
    .fetch_optional(conn)
    .await
}

/// The state of the newest offer of `kind` that `by_user` made in a game, if they made one.
pub async fn latest_state(
    conn: &mut AnyConnection,
    game_id: i64,
    kind: &str,
    by_user: i64,
) -> Result<Option<String>, sqlx::Error> {
    sqlx::query_scalar(
        "SELECT state FROM offers WHERE game_id = $1 AND kind = $2 AND by_user = $3 ORDER BY id DESC LIMIT 1",
    )
    .bind(game_id)
    .bind(kind)
    .bind(by_user)
    .fetch_optional(conn)
    .await
}

pub async fn insert(
    conn: &mut AnyConnection,
    game_id: i64,
    kind: &str,
    by_user: i64,
    at_ply: i64,
    now: i64,
) -> Result<i64, sqlx::Error> {
    sqlx::query_scalar(
        "INSERT INTO offers (game_id, kind, by_user, at_ply, created_at) VALUES ($1, $2, $3, $4, $5) RETURNING id",
    )
    .bind(game_id)
    .bind(kind)
    .bind(by_user)
    .bind(at_ply)
    .bind(now)
    .fetch_one(conn)
    .await
}

/// Closes one open offer with `state`.
pub async fn resolve(conn: &mut AnyConnection, id: i64, state: &str, now: i64) -> Result<(), sqlx::Error> {
    sqlx::query("UPDATE offers SET state = $1, resolved_at = $2 WHERE id = $3 AND state = 'open'")
        .bind(state)
        .bind(now)
        .bind(id)
        .execute(conn)
        .await?;
    Ok(())
}

/// Lapses the open offers of a game made by anyone but `keep_by` (a move answers the other
/// player's draw offer with "no"), and every open takeback request.
pub async fn lapse_on_move(conn: &mut AnyConnection, game_id: i64, keep_by: i64, now: i64) -> Result<(), sqlx::Error> {
    sqlx::query(
        "UPDATE offers SET state = 'lapsed', resolved_at = $1 \
         WHERE game_id = $2 AND state = 'open' AND (kind = 'takeback' OR by_user <> $3)",
    )
    .bind(now)
    .bind(game_id)
    .bind(keep_by)
    .execute(conn)
    .await?;
    Ok(())
}

/// Lapses every open offer of a game (it has ended).
pub async fn lapse_all(conn: &mut AnyConnection, game_id: i64, now: i64) -> Result<(), sqlx::Error> {
    sqlx::query("UPDATE offers SET state = 'lapsed', resolved_at = $1 WHERE game_id = $2 AND state = 'open'")
        .bind(now)
        .bind(game_id)
        .execute(conn)
        .await?;
    Ok(())
}
