//! `challenges`: invitations to a game, to one person or open to anyone.

use sqlx::SqliteConnection;

/// A challenge as stored.
#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow)]
pub struct ChallengeRow {
    pub id: i64,
    pub guild_id: i64,
    pub channel_id: i64,
    pub challenger_id: i64,
    pub opponent_id: Option<i64>,
    pub variant: String,
    pub options: String,
    pub side: String,
    pub clock_seconds: Option<i64>,
    /// The reserve part of the clock (`3d+7d`), `None` without a reserve.
    pub reserve_cap: Option<i64>,
    pub state: String,
    pub game_id: Option<i64>,
    pub created_at: i64,
    pub expires_at: i64,
}

/// What a new challenge row needs.
#[derive(Clone, Debug)]
pub struct NewChallenge<'a> {
    pub guild_id: i64,
    pub channel_id: i64,
    pub challenger_id: i64,
    pub opponent_id: Option<i64>,
    pub variant: &'a str,
    pub options: &'a str,
    pub side: &'a str,
    pub clock_seconds: Option<i64>,
    pub reserve_cap: Option<i64>,
    pub expires_at: i64,
}

pub async fn insert(conn: &mut SqliteConnection, c: &NewChallenge<'_>, now: i64) -> Result<i64, sqlx::Error> {
    sqlx::query_scalar(
        "INSERT INTO challenges (guild_id, channel_id, challenger_id, opponent_id, variant, options, side, \
         clock_seconds, reserve_cap, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
    )
    .bind(c.guild_id)
    .bind(c.channel_id)
    .bind(c.challenger_id)
    .bind(c.opponent_id)
    .bind(c.variant)
    .bind(c.options)
    .bind(c.side)
    .bind(c.clock_seconds)
    .bind(c.reserve_cap)
    .bind(now)
    .bind(c.expires_at)
    .fetch_one(conn)
    .await
}

pub async fn find(conn: &mut SqliteConnection, id: i64) -> Result<Option<ChallengeRow>, sqlx::Error> {
    sqlx::query_as(
        "SELECT id, guild_id, channel_id, challenger_id, opponent_id, variant, options, side, clock_seconds, \
         reserve_cap, state, game_id, created_at, expires_at FROM challenges WHERE id = ?",
    )
    .bind(id)
    .fetch_optional(conn)
    .await
}

/// Open challenges a user may answer or has made, oldest first.
pub async fn open_for(conn: &mut SqliteConnection, user_id: i64, now: i64) -> Result<Vec<ChallengeRow>, sqlx::Error> {
    sqlx::query_as(
        "SELECT id, guild_id, channel_id, challenger_id, opponent_id, variant, options, side, clock_seconds, \
         reserve_cap, state, game_id, created_at, expires_at FROM challenges \
         WHERE state = 'open' AND expires_at > ? AND (opponent_id IS NULL OR opponent_id = ? OR challenger_id = ?) \
         ORDER BY id",
    )
    .bind(now)
    .bind(user_id)
    .bind(user_id)
    .fetch_all(conn)
    .await
}

/// How many open challenges `challenger` has made (spam limit).
pub async fn open_count_by(conn: &mut SqliteConnection, challenger_id: i64, now: i64) -> Result<i64, sqlx::Error> {
    sqlx::query_scalar("SELECT COUNT(*) FROM challenges WHERE challenger_id = ? AND state = 'open' AND expires_at > ?")
        .bind(challenger_id)
        .bind(now)
        .fetch_one(conn)
        .await
}

/// Closes an open challenge with `state` (and the game it started, when accepted).
pub async fn close(
    conn: &mut SqliteConnection,
    id: i64,
    state: &str,
    game_id: Option<i64>,
    now: i64,
) -> Result<(), sqlx::Error> {
    sqlx::query("UPDATE challenges SET state = ?, game_id = ?, closed_at = ? WHERE id = ? AND state = 'open'")
        .bind(state)
        .bind(game_id)
        .bind(now)
        .bind(id)
        .execute(conn)
        .await?;
    Ok(())
}

/// Marks every open challenge past its expiry as expired, returning them.
pub async fn expire(conn: &mut SqliteConnection, now: i64) -> Result<Vec<ChallengeRow>, sqlx::Error> {
    let rows: Vec<ChallengeRow> = sqlx::query_as(
        "SELECT id, guild_id, channel_id, challenger_id, opponent_id, variant, options, side, clock_seconds, \
         reserve_cap, state, game_id, created_at, expires_at FROM challenges WHERE state = 'open' AND expires_at <= ? ORDER BY id",
    )
    .bind(now)
    .fetch_all(&mut *conn)
    .await?;
    sqlx::query("UPDATE challenges SET state = 'expired', closed_at = ? WHERE state = 'open' AND expires_at <= ?")
        .bind(now)
        .bind(now)
        .execute(conn)
        .await?;
    Ok(rows.into_iter().map(|r| ChallengeRow { state: "expired".to_owned(), ..r }).collect())
}
