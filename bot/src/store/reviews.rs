//! `reviews`: the engine's post-game review of each hosted game that ended, pending until it has
//! run (see `migrations/0009_reviews.sql`).

use sqlx::AnyConnection;

/// A review as stored.
#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow)]
pub struct ReviewRow {
    pub game_id: i64,
    pub state: String,
    pub attempts: i64,
    pub evaluation: Option<String>,
    pub turning_ply: Option<i64>,
    pub swing: Option<i64>,
    pub played: Option<String>,
    pub better: Option<String>,
}

/// What a finished review found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finding<'a> {
    pub evaluation: &'a str,
    pub turning_ply: Option<i64>,
    pub swing: Option<i64>,
    pub played: Option<&'a str>,
    pub better: Option<&'a str>,
}

/// Asks for a review of a game that just ended (once: a second ending of the same game, which
/// cannot happen, would change nothing).
pub async fn enqueue(conn: &mut AnyConnection, game: i64, now: i64) -> Result<(), sqlx::Error> {
    sqlx::query("INSERT INTO reviews (game_id, created_at) VALUES ($1, $2) ON CONFLICT (game_id) DO NOTHING")
        .bind(game)
        .bind(now)
        .execute(conn)
        .await?;
    Ok(())
}

/// The games waiting for their review, oldest first. With `shards`, only the games of servers
/// on those shards, of no server, or asked for at or before `foreign_after` (unix seconds), as
/// the outbox and the bot's turns are shared out; of the last, only those no other process has
/// taken over ([`take`]) with a claim still running at `taken.1` (unix seconds): `taken.0` is
/// this process's id.
pub async fn pending(
    conn: &mut AnyConnection,
    limit: i64,
    shards: Option<(super::outbox::ServedShards, i64)>,
    taken: (&str, i64),
) -> Result<Vec<i64>, sqlx::Error> {
    let (count, first, last, foreign_after) = super::outbox::ServedShards::bound(shards);
    let (process, now) = taken;
    sqlx::query_scalar(
        "SELECT r.game_id FROM reviews r JOIN games g ON g.id = r.game_id WHERE r.state = 'pending' \
         AND (g.guild_id = 0 OR (g.guild_id >> 22) % $2 BETWEEN $3 AND $4 \
              OR (r.created_at <= $5 AND (r.taken_until IS NULL OR r.taken_until <= $6 OR r.taken_by = $7))) \
         ORDER BY r.game_id LIMIT $1",
    )
    .bind(limit)
    .bind(count)
    .bind(first)
    .bind(last)
    .bind(foreign_after)
    .bind(now)
    .bind(process)
    .fetch_all(conn)
    .await
}

/// Claims for process `by`, until `until` (unix seconds), the pending review of game `game`, a
/// game of another process's shards (see migration 0035); renews the claim when it is `by`'s
/// already. True when the review is pending and nobody but `by` holds it at `now` (no claim, or
/// one that ran out); false when another process holds it or the review is no longer pending.
/// One conditional update of the review's row, so that of two processes claiming at once only
/// one succeeds.
pub async fn take(conn: &mut AnyConnection, game: i64, by: &str, until: i64, now: i64) -> Result<bool, sqlx::Error> {
    let taken = sqlx::query(
        "UPDATE reviews SET taken_by = $1, taken_until = $2 WHERE game_id = $3 AND state = 'pending' \
         AND (taken_until IS NULL OR taken_until <= $4 OR taken_by = $5)",
    )
    .bind(by)
    .bind(until)
    .bind(game)
    .bind(now)
    .bind(by)
    .execute(conn)
    .await?;
    Ok(taken.rows_affected() == 1)
}

/// The process that holds a claim on a game's review, if any, run out or not (for the tests).
pub async fn taken(conn: &mut AnyConnection, game: i64) -> Result<Option<String>, sqlx::Error> {
    let by: Option<Option<String>> =
        sqlx::query_scalar("SELECT taken_by FROM reviews WHERE game_id = $1").bind(game).fetch_optional(conn).await?;
    Ok(by.flatten())
}

pub async fn find(conn: &mut AnyConnection, game: i64) -> Result<Option<ReviewRow>, sqlx::Error> {
    sqlx::query_as(
        "SELECT game_id, state, attempts, evaluation, turning_ply, swing, played, better FROM reviews WHERE game_id = $1",
    )
    .bind(game)
    .fetch_optional(conn)
    .await
}

/// Records the finding of a pending review, ending any claim on it; false when it was not
/// pending (another process, or an earlier try whose answer was lost, finished it first).
pub async fn finish(conn: &mut AnyConnection, game: i64, finding: &Finding<'_>, now: i64) -> Result<bool, sqlx::Error> {
    let done = sqlx::query(
        "UPDATE reviews SET state = 'done', evaluation = $1, turning_ply = $2, swing = $3, played = $4, better = $5, \
         finished_at = $6, taken_by = NULL, taken_until = NULL WHERE game_id = $7 AND state = 'pending'",
    )
    .bind(finding.evaluation)
    .bind(finding.turning_ply)
    .bind(finding.swing)
    .bind(finding.played)
    .bind(finding.better)
    .bind(now)
    .bind(game)
    .execute(conn)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Counts a failed try; after `max_attempts` the review is marked `failed` (kept, not retried).
/// Returns the tries so far, or `None` when the review was not pending. A claim on the review
/// ends with the try: the next may be any process's.
pub async fn failed(
    conn: &mut AnyConnection,
    game: i64,
    error: &str,
    max_attempts: i64,
    now: i64,
) -> Result<Option<i64>, sqlx::Error> {
    sqlx::query_scalar(
        "UPDATE reviews SET attempts = attempts + 1, last_error = $1, taken_by = NULL, taken_until = NULL, \
         state = CASE WHEN attempts + 1 >= $2 THEN 'failed' ELSE state END, \
         finished_at = CASE WHEN attempts + 1 >= $3 THEN $4 ELSE finished_at END \
         WHERE game_id = $5 AND state = 'pending' RETURNING attempts",
    )
    .bind(error)
    .bind(max_attempts)
    .bind(max_attempts)
    .bind(now)
    .bind(game)
    .fetch_optional(conn)
    .await
}

/// The query of [`summary_message`], found through `outbox_summaries` (migration 0019).
pub(super) const SUMMARY_MESSAGE_SQL: &str = "SELECT message_id FROM outbox WHERE lane = 'game:' || $1 AND kind = 'summary' AND state = 'done' \
     AND message_id IS NOT NULL ORDER BY id DESC LIMIT 1";

/// The summary message the delivery posted for a game (the newest, should there be several).
pub async fn summary_message(conn: &mut AnyConnection, game: i64) -> Result<Option<i64>, sqlx::Error> {
    sqlx::query_scalar(SUMMARY_MESSAGE_SQL).bind(game).fetch_optional(conn).await
}
