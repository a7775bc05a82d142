//! `ratings`: each person's Glicko-2 rating per variant family and scope (see migration 0004).

use sqlx::AnyConnection;

/// A rating as stored, with the person's name joined in for leaderboards: as the scope's server
/// calls them (see [`super::member_names`]), else (and in the global scope) their display name.
#[derive(Clone, Debug, PartialEq, sqlx::FromRow)]
pub struct RatingRow {
    pub user_id: i64,
    pub name: String,
    pub family: String,
    pub scope: i64,
    pub rating: f64,
    pub deviation: f64,
    pub volatility: f64,
    pub games: i64,
    pub updated_at: i64,
}

macro_rules! select_ratings {
    ($tail:literal) => {
        concat!(
            "SELECT r.user_id, COALESCE(m.name, u.name) AS name, r.family, r.scope, r.rating, r.deviation, \
             r.volatility, r.games, r.updated_at \
             FROM ratings r JOIN users u ON u.id = r.user_id \
             LEFT JOIN member_names m ON m.guild_id = r.scope AND m.user_id = r.user_id ",
            $tail
        )
    };
}

pub async fn find(
    conn: &mut AnyConnection,
    user_id: i64,
    family: &str,
    scope: i64,
) -> Result<Option<RatingRow>, sqlx::Error> {
    sqlx::query_as(select_ratings!("WHERE r.user_id = $1 AND r.family = $2 AND r.scope = $3"))
        .bind(user_id)
        .bind(family)
        .bind(scope)
        .fetch_optional(conn)
        .await
}

/// What a rating becomes after a game.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct NewRating<'a> {
    pub user_id: i64,
    pub family: &'a str,
    pub scope: i64,
    pub rating: f64,
    pub deviation: f64,
    pub volatility: f64,
    pub games: i64,
}

/// Writes a rating, creating the row on a person's first rated game in the family and scope.
pub async fn save(conn: &mut AnyConnection, new: &NewRating<'_>, now: i64) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO ratings (user_id, family, scope, rating, deviation, volatility, games, updated_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8) \
         ON CONFLICT (user_id, family, scope) DO UPDATE SET rating = excluded.rating, \
         deviation = excluded.deviation, volatility = excluded.volatility, games = excluded.games, \
         updated_at = excluded.updated_at",
    )
    .bind(new.user_id)
    .bind(new.family)
    .bind(new.scope)
    .bind(new.rating)
    .bind(new.deviation)
    .bind(new.volatility)
    .bind(new.games)
    .bind(now)
    .execute(conn)
    .await?;
    Ok(())
}

/// Which ratings are provisional at `now`: those whose deviation, grown by the volatility over
/// the time since their last game, exceeds `deviation`. The host passes Glicko-2's constants
/// (the growth of [`crate::host::glicko2::Rating::after_absence`]), so that the store sorts as
/// the host marks.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Provisional {
    pub now: i64,
    /// How much a deviation's square grows per second away, per unit of volatility squared.
    pub variance_per_second: f64,
    pub deviation: f64,
}

/// The best ratings of a family in a scope: established ones first, then provisional ones (see
/// [`Provisional`]); within each, highest first, then most games, then the earliest id, so
/// that the order is total and stable.
pub async fn leaderboard(
    conn: &mut AnyConnection,
    family: &str,
    scope: i64,
    provisional: &Provisional,
    limit: i64,
) -> Result<Vec<RatingRow>, sqlx::Error> {
    // The grown deviation's square, as `after_absence` computes it; no time counts when the
    // clock is behind the last game. Comparing squares keeps a square root out of SQLite.
    sqlx::query_as(select_ratings!(
        "WHERE r.family = $1 AND r.scope = $2 \
         ORDER BY CASE WHEN r.deviation * r.deviation + r.volatility * r.volatility * $3 \
         * (CASE WHEN $4 > r.updated_at THEN $4 - r.updated_at ELSE 0 END) > $5 THEN 1 ELSE 0 END, \
         r.rating DESC, r.games DESC, r.user_id LIMIT $6"
    ))
    .bind(family)
    .bind(scope)
    .bind(provisional.variance_per_second)
    .bind(provisional.now)
    .bind(provisional.deviation * provisional.deviation)
    .bind(limit)
    .fetch_all(conn)
    .await
}

/// A person's ratings in a scope, one per family played, most games first.
pub async fn of_user(conn: &mut AnyConnection, user_id: i64, scope: i64) -> Result<Vec<RatingRow>, sqlx::Error> {
    sqlx::query_as(select_ratings!("WHERE r.user_id = $1 AND r.scope = $2 ORDER BY r.games DESC, r.family"))
        .bind(user_id)
        .bind(scope)
        .fetch_all(conn)
        .await
}
