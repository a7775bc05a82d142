//! `challenges`: invitations to a game, to one person or open to anyone.

use sqlx::AnyConnection;

use super::Backend;

/// A challenge as stored.
#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow)]
pub struct ChallengeRow {
    pub id: i64,
    pub guild_id: i64,
    pub channel_id: i64,
    /// The thread the challenge was made in (its channel is the thread's parent); `None` in a
    /// channel.
    pub thread_id: Option<i64>,
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
    pub thread_id: Option<i64>,
    pub challenger_id: i64,
    pub opponent_id: Option<i64>,
    pub variant: &'a str,
    pub options: &'a str,
    pub side: &'a str,
    pub clock_seconds: Option<i64>,
    pub reserve_cap: Option<i64>,
    pub expires_at: i64,
}

pub async fn insert(conn: &mut AnyConnection, c: &NewChallenge<'_>, now: i64) -> Result<i64, sqlx::Error> {
    sqlx::query_scalar(
        "INSERT INTO challenges (guild_id, channel_id, thread_id, challenger_id, opponent_id, variant, options, side, \
         clock_seconds, reserve_cap, created_at, expires_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) RETURNING id",
    )
    .bind(c.guild_id)
    .bind(c.channel_id)
    .bind(c.thread_id)
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

/// Locks a challenge's row until the transaction ends (`PostgreSQL`; see [`super::games::lock`]),
/// so that a challenge accepted twice at once starts one game.
pub async fn lock(conn: &mut AnyConnection, id: i64) -> Result<(), sqlx::Error> {
    if Backend::of(conn) == Backend::Postgres {
        sqlx::query("SELECT id FROM challenges WHERE id = $1 FOR UPDATE").bind(id).fetch_optional(conn).await?;
    }
    Ok(())
}

pub async fn find(conn: &mut AnyConnection, id: i64) -> Result<Option<ChallengeRow>, sqlx::Error> {
    sqlx::query_as(
        "SELECT id, guild_id, channel_id, thread_id, challenger_id, opponent_id, variant, options, side, clock_seconds, \
         reserve_cap, state, game_id, created_at, expires_at FROM challenges WHERE id = $1",
    )
    .bind(id)
    .fetch_optional(conn)
    .await
}

/// Open challenges a user may answer or has made, oldest first.
pub async fn open_for(conn: &mut AnyConnection, user_id: i64, now: i64) -> Result<Vec<ChallengeRow>, sqlx::Error> {
    sqlx::query_as(
        "SELECT id, guild_id, channel_id, thread_id, challenger_id, opponent_id, variant, options, side, clock_seconds, \
         reserve_cap, state, game_id, created_at, expires_at FROM challenges \
         WHERE state = 'open' AND expires_at > $1 AND (opponent_id IS NULL OR opponent_id = $2 OR challenger_id = $3) \
         ORDER BY id",
    )
    .bind(now)
    .bind(user_id)
    .bind(user_id)
    .fetch_all(conn)
    .await
}

/// How many open challenges `challenger` has made (spam limit).
pub async fn open_count_by(conn: &mut AnyConnection, challenger_id: i64, now: i64) -> Result<i64, sqlx::Error> {
    sqlx::query_scalar(
        "SELECT COUNT(*) FROM challenges WHERE challenger_id = $1 AND state = 'open' AND expires_at > $2",
    )
    .bind(challenger_id)
    .bind(now)
    .fetch_one(conn)
    .await
}

/// When `challenger_id` made `opponent_id` the challenges since `since` that were shown (a card
/// was posted: one Discord never showed was withdrawn by the bot and pinged nobody) and started
/// no game (declined, withdrawn, expired, or open still), oldest first.
pub async fn unanswered_to(
    conn: &mut AnyConnection,
    challenger_id: i64,
    opponent_id: i64,
    since: i64,
) -> Result<Vec<i64>, sqlx::Error> {
    sqlx::query_scalar(
        "SELECT c.created_at FROM challenges c JOIN challenge_messages m ON m.challenge_id = c.id \
         WHERE c.challenger_id = $1 AND c.opponent_id = $2 AND c.created_at > $3 AND c.state <> 'accepted' \
         ORDER BY c.created_at",
    )
    .bind(challenger_id)
    .bind(opponent_id)
    .bind(since)
    .fetch_all(conn)
    .await
}

/// When `challenger_id` made each challenge since `since` (oldest first) that was shown (it has
/// a card) and started no game, whoever it was meant for.
pub async fn unanswered_by(conn: &mut AnyConnection, challenger_id: i64, since: i64) -> Result<Vec<i64>, sqlx::Error> {
    sqlx::query_scalar(
        "SELECT c.created_at FROM challenges c JOIN challenge_messages m ON m.challenge_id = c.id \
         WHERE c.challenger_id = $1 AND c.created_at > $2 AND c.state <> 'accepted' \
         ORDER BY c.created_at",
    )
    .bind(challenger_id)
    .bind(since)
    .fetch_all(conn)
    .await
}

/// Closes an open challenge with `state` (and the game it started, when accepted).
pub async fn close(
    conn: &mut AnyConnection,
    id: i64,
    state: &str,
    game_id: Option<i64>,
    now: i64,
) -> Result<(), sqlx::Error> {
    sqlx::query("UPDATE challenges SET state = $1, game_id = $2, closed_at = $3 WHERE id = $4 AND state = 'open'")
        .bind(state)
        .bind(game_id)
        .bind(now)
        .bind(id)
        .execute(conn)
        .await?;
    Ok(())
}

/// Marks up to `limit` open challenges past their expiry as expired, returning them. Two
/// processes expiring at once never both report one challenge: on `PostgreSQL` the rows are
/// taken `FOR UPDATE SKIP LOCKED` (each process gets other ones, and a row another transaction
/// changed meanwhile is checked again and left out when no longer open); on `SQLite` the write
/// transaction is the only writer.
pub async fn expire(conn: &mut AnyConnection, now: i64, limit: i64) -> Result<Vec<ChallengeRow>, sqlx::Error> {
    macro_rules! expire_sql {
        ($lock:literal) => {
            concat!(
                "UPDATE challenges SET state = 'expired', closed_at = $1 WHERE state = 'open' AND id IN \
                 (SELECT id FROM challenges WHERE state = 'open' AND expires_at <= $2 ORDER BY id LIMIT $3",
                $lock,
                ") RETURNING id, guild_id, channel_id, thread_id, challenger_id, opponent_id, variant, options, side, \
                 clock_seconds, reserve_cap, state, game_id, created_at, expires_at"
            )
        };
    }
    let sql = match Backend::of(conn) {
        Backend::Sqlite => expire_sql!(""),
        Backend::Postgres => expire_sql!(" FOR UPDATE SKIP LOCKED"),
    };
    let mut rows: Vec<ChallengeRow> = sqlx::query_as(sql).bind(now).bind(now).bind(limit).fetch_all(conn).await?;
    // RETURNING follows no ORDER BY.
    rows.sort_unstable_by_key(|r| r.id);
    Ok(rows)
}
