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

/// The state of offer `id` of a game, if it is one of the game's.
pub async fn state(conn: &mut AnyConnection, game_id: i64, id: i64) -> Result<Option<String>, sqlx::Error> {
    sqlx::query_scalar("SELECT state FROM offers WHERE id = $1 AND game_id = $2")
        .bind(id)
        .bind(game_id)
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

/// Whether `by_user` made an offer of `kind` in a game that was declined or withdrawn at `ply`,
/// with no move played since. A move raises the ply, and only a takeback brings a game back to a
/// ply it has passed; an accepted takeback clears the refusals before it ([`forgive_refusals`]),
/// so a refusal at the current ply means no move since. Offers refused before migration 0033
/// hold nothing back.
pub async fn refused_at(
    conn: &mut AnyConnection,
    game_id: i64,
    kind: &str,
    by_user: i64,
    ply: i64,
) -> Result<bool, sqlx::Error> {
    let refused: Option<i64> = sqlx::query_scalar(
        "SELECT o.id FROM offers o \
         WHERE o.game_id = $1 AND o.kind = $2 AND o.by_user = $3 AND o.refused_at_ply = $4 \
           AND o.state IN ('declined', 'withdrawn') \
         LIMIT 1",
    )
    .bind(game_id)
    .bind(kind)
    .bind(by_user)
    .bind(ply)
    .fetch_optional(conn)
    .await?;
    Ok(refused.is_some())
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

/// Closes one open offer as declined or withdrawn (`state`) at `ply` of its game.
pub async fn refuse(conn: &mut AnyConnection, id: i64, state: &str, ply: i64, now: i64) -> Result<(), sqlx::Error> {
    sqlx::query("UPDATE offers SET state = $1, resolved_at = $2, refused_at_ply = $3 WHERE id = $4 AND state = 'open'")
        .bind(state)
        .bind(now)
        .bind(ply)
        .bind(id)
        .execute(conn)
        .await?;
    Ok(())
}

/// Clears the refusals of a game's offers: a takeback has been accepted, and the game will come
/// back to their plies only after moves (see [`refused_at`]). Ordering by time could not tell a
/// takeback from a decline in the same second.
pub async fn forgive_refusals(conn: &mut AnyConnection, game_id: i64) -> Result<(), sqlx::Error> {
    sqlx::query("UPDATE offers SET refused_at_ply = NULL WHERE game_id = $1 AND refused_at_ply IS NOT NULL")
        .bind(game_id)
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
