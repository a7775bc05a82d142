//! `rating_changes`: what each rated game did to its players' ratings, per scope.

use sqlx::AnyConnection;

/// One player's change in one scope, with the player's name joined in: as the game's server
/// calls them (see [`super::member_names`]), else their display name.
#[derive(Clone, Debug, PartialEq, sqlx::FromRow)]
pub struct ChangeRow {
    pub game_id: i64,
    pub user_id: i64,
    pub name: String,
    pub family: String,
    pub scope: i64,
    pub rating_before: f64,
    pub deviation_before: f64,
    pub rating_after: f64,
    pub deviation_after: f64,
}

/// What a new change row needs.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct NewChange<'a> {
    pub game_id: i64,
    pub user_id: i64,
    pub family: &'a str,
    pub scope: i64,
    pub rating_before: f64,
    pub deviation_before: f64,
    pub rating_after: f64,
    pub deviation_after: f64,
}

/// Records a change. The primary key (game, user, scope) refuses rating one game twice.
pub async fn insert(conn: &mut AnyConnection, change: &NewChange<'_>, now: i64) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO rating_changes (game_id, user_id, family, scope, rating_before, deviation_before, \
         rating_after, deviation_after, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
    )
    .bind(change.game_id)
    .bind(change.user_id)
    .bind(change.family)
    .bind(change.scope)
    .bind(change.rating_before)
    .bind(change.deviation_before)
    .bind(change.rating_after)
    .bind(change.deviation_after)
    .bind(now)
    .execute(conn)
    .await?;
    Ok(())
}

/// The changes a game made, global scope first, attacker before defender within a scope.
pub async fn of_game(conn: &mut AnyConnection, game_id: i64) -> Result<Vec<ChangeRow>, sqlx::Error> {
    sqlx::query_as(
        "SELECT c.game_id, c.user_id, COALESCE(m.name, u.name) AS name, c.family, c.scope, c.rating_before, \
         c.deviation_before, c.rating_after, c.deviation_after FROM rating_changes c JOIN users u ON u.id = c.user_id \
         JOIN games g ON g.id = c.game_id \
         LEFT JOIN member_names m ON m.guild_id = g.guild_id AND m.user_id = c.user_id WHERE c.game_id = $1 \
         ORDER BY c.scope <> 0, c.scope, c.user_id <> g.attacker_id",
    )
    .bind(game_id)
    .fetch_all(conn)
    .await
}

/// A rated game of a person, as profiles count it.
#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow)]
pub struct RatedGameRow {
    pub game_id: i64,
    pub attacker_id: i64,
    pub defender_id: i64,
    /// `attackers_win`, `defenders_win` or `draw`.
    pub status: String,
}

/// A person's rated games in a scope, the most recently finished first.
pub async fn rated_games(conn: &mut AnyConnection, user_id: i64, scope: i64) -> Result<Vec<RatedGameRow>, sqlx::Error> {
    sqlx::query_as(
        "SELECT g.id AS game_id, g.attacker_id, g.defender_id, g.status FROM rating_changes c \
         JOIN games g ON g.id = c.game_id WHERE c.user_id = $1 AND c.scope = $2 \
         ORDER BY g.finished_at DESC, g.id DESC",
    )
    .bind(user_id)
    .bind(scope)
    .fetch_all(conn)
    .await
}

/// One rated game in a person's rating history.
#[derive(Clone, Debug, PartialEq, sqlx::FromRow)]
pub struct HistoryRow {
    pub game_id: i64,
    pub family: String,
    pub variant: String,
    pub rating_after: f64,
    pub deviation_after: f64,
}

/// A person's rated games in a scope with the rating each left them at, oldest first; with a
/// family, only that family's, and at most the `limit` most recent.
pub async fn history(
    conn: &mut AnyConnection,
    user_id: i64,
    scope: i64,
    family: Option<&str>,
    limit: i64,
) -> Result<Vec<HistoryRow>, sqlx::Error> {
    let mut rows: Vec<HistoryRow> = sqlx::query_as(
        "SELECT c.game_id, c.family, g.variant, c.rating_after, c.deviation_after FROM rating_changes c \
         JOIN games g ON g.id = c.game_id WHERE c.user_id = $1 AND c.scope = $2 AND ($3 IS NULL OR c.family = $4) \
         ORDER BY c.created_at DESC, c.game_id DESC LIMIT $5",
    )
    .bind(user_id)
    .bind(scope)
    .bind(family)
    .bind(family)
    .bind(limit)
    .fetch_all(conn)
    .await?;
    rows.reverse();
    Ok(rows)
}
