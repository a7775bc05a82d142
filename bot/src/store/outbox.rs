//! `outbox`: what a front end must show, written in the transaction that changed the game or
//! challenge, and the delivery's progress on each item (see `migrations/0006_outbox.sql`).

use sqlx::AnyConnection;

use super::Backend;

/// One item as stored.
#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow)]
pub struct OutboxRow {
    pub id: i64,
    pub lane: String,
    pub kind: String,
    pub item: String,
    pub attempts: i64,
    #[sqlx(try_from = "super::Flag")]
    pub tried: bool,
    pub tried_said: Option<String>,
    pub tried_at_ms: Option<i64>,
    pub not_before_ms: i64,
    pub created_at: i64,
}

/// Whose server an item is shown in, for its `guild_id` (see [`claimable`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ServerOf {
    /// The server of this game's row.
    Game(i64),
    /// The server of this challenge's row.
    Challenge(i64),
    /// No server: a person's direct messages.
    Nobody,
}

pub async fn insert(
    conn: &mut AnyConnection,
    lane: &str,
    kind: &str,
    item: &str,
    server: ServerOf,
    now: i64,
) -> Result<i64, sqlx::Error> {
    // The server is read from the row in the same statement: every caller has the game or
    // challenge at hand by id, not necessarily its server.
    let (sql, owner) = match server {
        ServerOf::Game(game) => (
            "INSERT INTO outbox (lane, kind, item, created_at, guild_id) \
             VALUES ($1, $2, $3, $4, (SELECT guild_id FROM games WHERE id = $5)) RETURNING id",
            Some(game),
        ),
        ServerOf::Challenge(challenge) => (
            "INSERT INTO outbox (lane, kind, item, created_at, guild_id) \
             VALUES ($1, $2, $3, $4, (SELECT guild_id FROM challenges WHERE id = $5)) RETURNING id",
            Some(challenge),
        ),
        ServerOf::Nobody => {
            ("INSERT INTO outbox (lane, kind, item, created_at) VALUES ($1, $2, $3, $4) RETURNING id", None)
        }
    };
    let query = sqlx::query_scalar(sql).bind(lane).bind(kind).bind(item).bind(now);
    match owner {
        Some(id) => query.bind(id).fetch_one(conn).await,
        None => query.fetch_one(conn).await,
    }
}

/// The first pending item of every lane (at most `limit` lanes), due or not: a lane waits for
/// its head, so that its items are applied in order.
pub async fn heads(conn: &mut AnyConnection, limit: i64) -> Result<Vec<OutboxRow>, sqlx::Error> {
    sqlx::query_as(
        "SELECT id, lane, kind, item, attempts, tried, tried_said, tried_at_ms, not_before_ms, created_at FROM outbox WHERE id IN \
         (SELECT min(id) FROM outbox WHERE state = 'pending' GROUP BY lane) ORDER BY id LIMIT $1",
    )
    .bind(limit)
    .fetch_all(conn)
    .await
}

/// The first pending item of one lane.
pub async fn head(conn: &mut AnyConnection, lane: &str) -> Result<Option<OutboxRow>, sqlx::Error> {
    sqlx::query_as(
        "SELECT id, lane, kind, item, attempts, tried, tried_said, tried_at_ms, not_before_ms, created_at FROM outbox \
         WHERE lane = $1 AND state = 'pending' ORDER BY id LIMIT 1",
    )
    .bind(lane)
    .fetch_optional(conn)
    .await
}

/// The newest pending item of `kind` in a lane.
pub async fn latest(conn: &mut AnyConnection, lane: &str, kind: &str) -> Result<Option<i64>, sqlx::Error> {
    sqlx::query_scalar("SELECT max(id) FROM outbox WHERE lane = $1 AND kind = $2 AND state = 'pending'")
        .bind(lane)
        .bind(kind)
        .fetch_one(conn)
        .await
}

/// The pending items of `kind` in a lane, as stored (JSON), oldest first.
pub async fn pending_of(conn: &mut AnyConnection, lane: &str, kind: &str) -> Result<Vec<String>, sqlx::Error> {
    sqlx::query_scalar("SELECT item FROM outbox WHERE lane = $1 AND kind = $2 AND state = 'pending' ORDER BY id")
        .bind(lane)
        .bind(kind)
        .fetch_all(conn)
        .await
}

/// The query of [`new_boards_done`].
pub(super) const NEW_BOARDS_DONE_SQL: &str = "SELECT item, message_id FROM outbox \
     WHERE state = 'done' AND kind = 'new_board' AND lane = $1 AND finished_at >= $2 \
     ORDER BY finished_at DESC, id DESC";

/// The boards posted anew in a lane since `since` (unix seconds), as stored (JSON), with the
/// message each made, the newest first. Through their own index (migration 0025, whose
/// condition the query repeats so that `SQLite` may use it): a handful of rows.
pub async fn new_boards_done(
    conn: &mut AnyConnection,
    lane: &str,
    since: i64,
) -> Result<Vec<(String, Option<i64>)>, sqlx::Error> {
    sqlx::query_as(NEW_BOARDS_DONE_SQL).bind(lane).bind(since).fetch_all(conn).await
}

/// The query of [`summary_shown_or_pending`]: two counts, so that each reaches its rows through
/// its own partial index (`outbox_summaries`, `outbox_pending`).
pub(super) const SUMMARY_SHOWN_OR_PENDING_SQL: &str = "SELECT (SELECT count(*) FROM outbox WHERE lane = $1 AND kind = 'summary' AND state = 'done') \
     + (SELECT count(*) FROM outbox WHERE lane = $2 AND kind = 'summary' AND state = 'pending')";

/// Whether a lane has a summary delivered or still to deliver (not only given up).
pub async fn summary_shown_or_pending(conn: &mut AnyConnection, lane: &str) -> Result<bool, sqlx::Error> {
    let count: i64 = sqlx::query_scalar(SUMMARY_SHOWN_OR_PENDING_SQL).bind(lane).bind(lane).fetch_one(conn).await?;
    Ok(count > 0)
}

/// Marks an item applied, with the message it created.
pub async fn done(conn: &mut AnyConnection, id: i64, message_id: Option<i64>, now: i64) -> Result<(), sqlx::Error> {
    sqlx::query(
        "UPDATE outbox SET state = 'done', message_id = coalesce($1, message_id), finished_at = $2 \
         WHERE id = $3 AND state = 'pending'",
    )
    .bind(message_id)
    .bind(now)
    .bind(id)
    .execute(conn)
    .await?;
    Ok(())
}

/// Marks every pending item of `kind` in a lane up to `up_to` applied: one delivery showed the
/// state they all asked for (boards coalesce).
pub async fn done_up_to(
    conn: &mut AnyConnection,
    lane: &str,
    kind: &str,
    up_to: i64,
    now: i64,
) -> Result<u64, sqlx::Error> {
    let done = sqlx::query(
        "UPDATE outbox SET state = 'done', finished_at = $1 WHERE lane = $2 AND kind = $3 AND state = 'pending' AND id <= $4",
    )
    .bind(now)
    .bind(lane)
    .bind(kind)
    .bind(up_to)
    .execute(conn)
    .await?;
    Ok(done.rows_affected())
}

// The three updates below, like `done`, touch a pending item only: a process that lost its
// lane's lease (and did not notice in time) must not turn an item another process has since
// delivered into a failed or given-up one. A given-up summary would be shown a second time at
// a server's return, and its review would find no message to edit.

/// Marks that a create of the item, saying `said`, is about to be sent at `now_ms` (see the
/// `tried` and `tried_said` columns); the time of the first such try is kept.
pub async fn tried(conn: &mut AnyConnection, id: i64, said: Option<&str>, now_ms: i64) -> Result<(), sqlx::Error> {
    sqlx::query(
        "UPDATE outbox SET tried_at_ms = CASE WHEN tried THEN tried_at_ms ELSE $3 END, tried = TRUE, \
         tried_said = $2 WHERE id = $1 AND state = 'pending'",
    )
    .bind(id)
    .bind(said)
    .bind(now_ms)
    .execute(conn)
    .await?;
    Ok(())
}

/// Whether `message` is recorded as the message of an outbox item other than `id`.
pub async fn message_of_another(conn: &mut AnyConnection, id: i64, message: i64) -> Result<bool, sqlx::Error> {
    sqlx::query_scalar("SELECT EXISTS (SELECT 1 FROM outbox WHERE message_id = $1 AND id <> $2)")
        .bind(message)
        .bind(id)
        .fetch_one(conn)
        .await
        .map(|super::Flag(exists)| exists)
}

/// Counts a failed try and sets when the next one may come; returns the tries so far, `None`
/// when the item is no longer pending.
pub async fn failed(
    conn: &mut AnyConnection,
    id: i64,
    error: &str,
    not_before_ms: i64,
) -> Result<Option<i64>, sqlx::Error> {
    sqlx::query_scalar(
        "UPDATE outbox SET attempts = attempts + 1, last_error = $1, not_before_ms = $2 \
         WHERE id = $3 AND state = 'pending' RETURNING attempts",
    )
    .bind(error)
    .bind(not_before_ms)
    .bind(id)
    .fetch_optional(conn)
    .await
}

/// An item just given up, for its log line ([`give_up`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GivenUp {
    /// The server it was to be shown in; `None` for a DM.
    pub guild: Option<i64>,
    /// Another item of its lane and kind was given up for the same error since the `since` given
    /// to [`give_up`]: the same refusal again (the sweep tries a refused board, notice or summary
    /// again every hour while the bot may not post).
    pub repeated: bool,
}

/// Gives an item up: it stays in the table, marked, with its last error. `None` when it was no
/// longer pending. Whether it repeats a refusal is read through the given-up items' own index
/// (migration 0014): a handful of rows.
pub async fn give_up(
    conn: &mut AnyConnection,
    id: i64,
    error: &str,
    now: i64,
    since: i64,
) -> Result<Option<GivenUp>, sqlx::Error> {
    let given_up: Option<(String, String, Option<i64>)> = sqlx::query_as(
        "UPDATE outbox SET state = 'given_up', last_error = $1, finished_at = $2 WHERE id = $3 AND state = 'pending' \
         RETURNING lane, kind, guild_id",
    )
    .bind(error)
    .bind(now)
    .bind(id)
    .fetch_optional(&mut *conn)
    .await?;
    let Some((lane, kind, guild)) = given_up else { return Ok(None) };
    let before: i64 = sqlx::query_scalar(
        "SELECT count(*) FROM outbox WHERE lane = $1 AND state = 'given_up' AND finished_at >= $2 \
         AND kind = $3 AND last_error = $4 AND id <> $5",
    )
    .bind(&lane)
    .bind(since)
    .bind(&kind)
    .bind(error)
    .bind(id)
    .fetch_one(conn)
    .await?;
    Ok(Some(GivenUp { guild, repeated: before > 0 }))
}

/// The query of [`stale_boards`].
macro_rules! stale_boards_sql {
    () => {
        "SELECT recent.id, recent.ply FROM \
         (SELECT id, ply, guild_id, FALSE AS ended FROM games WHERE status = 'ongoing' AND channel_gone_at IS NULL \
          UNION SELECT id, ply, guild_id, TRUE AS ended FROM games WHERE finished_at >= $1 \
          AND channel_gone_at IS NULL) AS recent \
         JOIN board_messages b ON b.game_id = recent.id \
         WHERE (b.shown_ply IS NULL OR b.shown_ply != recent.ply OR b.shown_over <> recent.ended) \
         AND NOT EXISTS (SELECT 1 FROM servers s WHERE s.id = recent.guild_id AND s.left_at IS NOT NULL) \
         AND NOT EXISTS (SELECT 1 FROM outbox o WHERE o.lane = 'game:' || recent.id AND o.kind = 'board' \
                         AND o.state = 'pending') \
         AND NOT EXISTS (SELECT 1 FROM outbox g WHERE g.lane = 'game:' || recent.id AND g.state = 'given_up' \
                         AND g.finished_at >= $3 AND g.kind = 'board') \
         ORDER BY recent.id LIMIT $2"
    };
}

/// Games whose stored board shows another ply than the game's, or the game going on once it is
/// over (an ending without a move keeps the ply), and that have no board pending: boards left
/// behind by a crash, a race or a refusal. Not those of a server the bot left, which it cannot
/// draw; their boards are drawn again when it returns; nor those whose channel was deleted
/// (migration 0026), which have nowhere to draw one until a player moves them; nor those whose
/// board item Discord refused since `given_up_since`. Only ongoing games and games finished since `finished_since`
/// (unix seconds) are looked at, through their indexes (migration 0011): the check runs on every
/// scheduler tick, and a game finished long ago had its last board drawn, or given up, long ago.
pub async fn stale_boards(
    conn: &mut AnyConnection,
    finished_since: i64,
    given_up_since: i64,
    limit: i64,
) -> Result<Vec<(i64, i64)>, sqlx::Error> {
    sqlx::query_as(stale_boards_sql!()).bind(finished_since).bind(limit).bind(given_up_since).fetch_all(conn).await
}

/// The query of [`refused_notices`].
macro_rules! refused_notices_sql {
    () => {
        "SELECT g.id FROM games g \
         JOIN outbox o ON o.id = (SELECT max(n.id) FROM outbox n WHERE n.lane = 'game:' || g.id AND n.kind = 'your_move') \
         WHERE g.status = 'ongoing' AND g.channel_gone_at IS NULL \
         AND o.state = 'given_up' AND o.finished_at < $1 \
         AND NOT EXISTS (SELECT 1 FROM servers s WHERE s.id = g.guild_id AND s.left_at IS NOT NULL) \
         ORDER BY g.id LIMIT $2"
    };
}

/// Games going on whose newest "your move" notice was given up before `given_up_before` (unix
/// seconds): the player it was for may never have been told (Discord refused the post, the
/// bot's Send Messages taken away for a while). Not those of a server the bot left, nor those
/// whose channel was deleted, as for [`stale_boards`]. Every game going on is looked at, at
/// every tick, each through its newest notice alone (migration 0029).
pub async fn refused_notices(
    conn: &mut AnyConnection,
    given_up_before: i64,
    limit: i64,
) -> Result<Vec<i64>, sqlx::Error> {
    sqlx::query_scalar(refused_notices_sql!()).bind(given_up_before).bind(limit).fetch_all(conn).await
}

/// The newest "your move" notice of a lane, any state, as stored.
#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow)]
pub struct NoticeRow {
    pub state: String,
    pub finished_at: Option<i64>,
    pub item: String,
}

/// The query of [`newest_notice`].
pub(super) const NEWEST_NOTICE_SQL: &str = "SELECT state, finished_at, item FROM outbox \
     WHERE id = (SELECT max(id) FROM outbox WHERE lane = $1 AND kind = 'your_move')";

/// The newest "your move" notice of a lane (migration 0029).
pub async fn newest_notice(conn: &mut AnyConnection, lane: &str) -> Result<Option<NoticeRow>, sqlx::Error> {
    sqlx::query_as(NEWEST_NOTICE_SQL).bind(lane).fetch_optional(conn).await
}

/// The query of [`refused_summaries`]. `ORDER BY +g.id`, not `g.id`, as in [`claimable`]: the
/// bare key let `SQLite` walk every game ever played in key order to skip the sort, instead of
/// the few finished in the last day.
macro_rules! refused_summaries_sql {
    () => {
        "SELECT g.id FROM games g WHERE g.finished_at >= $1 AND g.channel_gone_at IS NULL \
         AND EXISTS (SELECT 1 FROM outbox u WHERE u.lane = 'game:' || g.id AND u.state = 'given_up' \
                     AND u.kind = 'summary') \
         AND NOT EXISTS (SELECT 1 FROM outbox r WHERE r.lane = 'game:' || g.id AND r.state = 'given_up' \
                         AND r.finished_at >= $2 AND r.kind = 'summary') \
         AND NOT EXISTS (SELECT 1 FROM outbox d WHERE d.lane = 'game:' || g.id AND d.kind = 'summary' \
                         AND d.state = 'done') \
         AND NOT EXISTS (SELECT 1 FROM outbox p WHERE p.lane = 'game:' || g.id AND p.state = 'pending' \
                         AND p.kind = 'summary') \
         AND NOT EXISTS (SELECT 1 FROM servers s WHERE s.id = g.guild_id AND s.left_at IS NOT NULL) \
         ORDER BY +g.id LIMIT $3"
    };
}

/// Games finished since `finished_since` whose summary was given up, the last time before
/// `given_up_before`, and never shown nor pending since (unix seconds). Not those of a server
/// the bot left, whose return posts them ([`crate::host::Host::server_back`]), nor those whose
/// channel was deleted. Through the finished games' index and the outbox's partial ones
/// (given up, done summaries, pending), as for [`stale_boards`].
pub async fn refused_summaries(
    conn: &mut AnyConnection,
    finished_since: i64,
    given_up_before: i64,
    limit: i64,
) -> Result<Vec<i64>, sqlx::Error> {
    sqlx::query_scalar(refused_summaries_sql!())
        .bind(finished_since)
        .bind(given_up_before)
        .bind(limit)
        .fetch_all(conn)
        .await
}

/// The query of [`prune_done`].
macro_rules! prune_done_sql {
    () => {
        "DELETE FROM outbox WHERE id IN (SELECT id FROM outbox WHERE state = 'done' AND kind <> 'summary' \
         AND finished_at < $1 ORDER BY finished_at LIMIT $2)"
    };
}

/// Deletes up to `limit` delivered items finished before `finished_before` (unix seconds), the
/// oldest first, through their index (migration 0012, whose condition this query repeats so
/// that `SQLite` may use it); returns how many. Summaries stay: a review edits the message its
/// summary item recorded ([`super::reviews::summary_message`]). Pending and given-up items are
/// never deleted here.
pub async fn prune_done(conn: &mut AnyConnection, finished_before: i64, limit: i64) -> Result<u64, sqlx::Error> {
    Ok(sqlx::query(prune_done_sql!()).bind(finished_before).bind(limit).execute(conn).await?.rows_affected())
}

/// Deletes every pending item (see `Host::discard_outbox`); returns how many.
pub async fn discard_pending(conn: &mut AnyConnection) -> Result<u64, sqlx::Error> {
    Ok(sqlx::query("DELETE FROM outbox WHERE state = 'pending'").execute(conn).await?.rows_affected())
}

/// Pending and given-up items, for tests and operators: `(state, count)`.
pub async fn counts(conn: &mut AnyConnection) -> Result<Vec<(String, i64)>, sqlx::Error> {
    sqlx::query_as("SELECT state, count(*) FROM outbox GROUP BY state ORDER BY state").fetch_all(conn).await
}

// ----- claims: which process delivers a lane (see `migrations/0010_outbox_claims.sql`) -----

/// The query of [`claimable`], without its locking clause.
///
/// `ORDER BY +o.id`, not `o.id`: ordering by the bare key let `SQLite` (without statistics, as
/// the bot runs it) walk the whole table in key order to skip the sort, every done item since
/// the bot began included: 4.6 ms a look at 20,000 items, and a look runs after every move,
/// inside a write transaction. The expression leaves it the pending items' index (0.09 ms).
macro_rules! claimable_sql {
    () => {
        "SELECT o.id, o.lane, o.kind, o.item, o.attempts, o.tried, o.tried_said, o.tried_at_ms, o.not_before_ms, o.created_at \
         FROM outbox o WHERE o.state = 'pending' AND o.not_before_ms <= $1 \
         AND NOT EXISTS (SELECT 1 FROM outbox e WHERE e.lane = o.lane AND e.state = 'pending' AND e.id < o.id) \
         AND NOT EXISTS (SELECT 1 FROM outbox_claims c WHERE c.lane = o.lane AND c.lease_until_ms > $2) \
         AND (o.guild_id IS NULL OR (o.guild_id >> 22) % $4 BETWEEN $5 AND $6 \
              OR (o.created_at <= $7 AND o.not_before_ms <= $8 \
                  AND NOT EXISTS (SELECT 1 FROM outbox_claims r WHERE r.lane = o.lane AND r.released_at_ms > $9))) \
         AND (o.guild_id IS NULL OR NOT EXISTS (SELECT 1 FROM servers s WHERE s.id = o.guild_id AND s.left_at IS NOT NULL)) \
         ORDER BY +o.id LIMIT $3"
    };
}

/// The Discord shards a process serves, for [`claimable`]: `first..=last` of `count`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ServedShards {
    pub first: u32,
    pub last: u32,
    pub count: u32,
}

impl ServedShards {
    /// Every server's: shard 0 of 1.
    pub const ALL: ServedShards = ServedShards { first: 0, last: 0, count: 1 };

    /// What a query's shard condition binds, `(count, first, last, foreign_after)`, for
    /// `shards` and the moment before which another shard's work is anyone's (in the unit the
    /// query compares it in). Without shards, shard 0 of 1: every server's. (A count of 0 would
    /// divide by zero.)
    pub(crate) fn bound(shards: Option<(ServedShards, i64)>) -> (i64, i64, i64, i64) {
        let (served, foreign_after) = shards.unwrap_or((ServedShards::ALL, 0));
        (i64::from(served.count.max(1)), i64::from(served.first), i64::from(served.last), foreign_after)
    }

    /// Whether the work of server `guild` is these shards' own: a server on one of them (on
    /// shard `(guild >> 22) % count`, as the queries work it out), or no server (0).
    #[must_use]
    pub fn serves(&self, guild: i64) -> bool {
        let shard = (guild >> 22) % i64::from(self.count.max(1));
        guild == 0 || (i64::from(self.first)..=i64::from(self.last)).contains(&shard)
    }
}

/// The first pending item of every lane that is due at `now_ms` and not claimed by a process
/// whose lease still runs (this one included: a lane this process delivers is not taken again),
/// oldest first, at most `limit`. Items of a server the bot left wait until it is back (Discord
/// would refuse them, and every refusal counts toward its limit of invalid requests). With
/// `shards`, only the items of servers on those shards, of no server, or of a lane nobody
/// touched since `foreign_due_ms` (unix milliseconds): its head came due at or before then,
/// and its lane was not given back after then. Such a lane its shard's process left alone
/// for the grace (perhaps it is down) is anyone's. An item comes due when it is recorded and
/// again at each retry's time; the process of its shard gives the lane back while it waits out
/// a retry (Discord's 429 or 5xx) or while a click holds the board, and takes it again when
/// the retry is due or the click answered. Counting from the item alone would hand a lane its
/// live process is retrying, or whose head waited behind a slow item, to whichever process
/// looked first, to draw the board under the click. With `lock` (`PostgreSQL`, in a write transaction) the items are
/// locked `FOR UPDATE SKIP LOCKED`, so that processes looking at once each get other lanes
/// instead of waiting for one another's. Taking a lane is [`claim`].
pub async fn claimable(
    conn: &mut AnyConnection,
    now_ms: i64,
    limit: i64,
    shards: Option<(ServedShards, i64)>,
    lock: bool,
) -> Result<Vec<OutboxRow>, sqlx::Error> {
    let sql = if lock && Backend::of(conn) == Backend::Postgres {
        concat!(claimable_sql!(), " FOR UPDATE OF o SKIP LOCKED")
    } else {
        claimable_sql!()
    };
    let (count, first, last, foreign_due_ms) = ServedShards::bound(shards);
    // `created_at` is in whole seconds, a retry's time and a release in milliseconds.
    sqlx::query_as(sql)
        .bind(now_ms)
        .bind(now_ms)
        .bind(limit)
        .bind(count)
        .bind(first)
        .bind(last)
        .bind(foreign_due_ms.div_euclid(1000))
        .bind(foreign_due_ms)
        .bind(foreign_due_ms)
        .fetch_all(conn)
        .await
}

/// Claims `lane` for process `by` until `lease_until_ms`: true when it is free (no claim, one
/// given back, or a lease that ended by `now_ms`) or already `by`'s. One row per lane, so that
/// two processes claiming, renewing or taking over one lane are serialised by its row
/// (`PostgreSQL` makes a second insert of one key wait for the first, then re-checks the
/// condition on the row).
pub async fn claim(
    conn: &mut AnyConnection,
    lane: &str,
    by: &str,
    lease_until_ms: i64,
    now_ms: i64,
) -> Result<bool, sqlx::Error> {
    let claimed: Option<String> = sqlx::query_scalar(
        "INSERT INTO outbox_claims (lane, claimed_by, lease_until_ms) VALUES ($1, $2, $3) \
         ON CONFLICT (lane) DO UPDATE SET claimed_by = excluded.claimed_by, lease_until_ms = excluded.lease_until_ms, \
         released_at_ms = NULL \
         WHERE outbox_claims.claimed_by = excluded.claimed_by OR outbox_claims.lease_until_ms <= $4 \
         RETURNING lane",
    )
    .bind(lane)
    .bind(by)
    .bind(lease_until_ms)
    .bind(now_ms)
    .fetch_optional(conn)
    .await?;
    Ok(claimed.is_some())
}

/// Extends `by`'s claim on `lane` to `lease_until_ms`; false when `by` no longer holds it (another
/// process took it over after the lease ran out, or it was given back). A lease that ran out
/// but that nobody took is still `by`'s: the row is the one place both would write, so there is
/// no moment when both hold it.
pub async fn renew(conn: &mut AnyConnection, lane: &str, by: &str, lease_until_ms: i64) -> Result<bool, sqlx::Error> {
    let renewed = sqlx::query(
        "UPDATE outbox_claims SET lease_until_ms = $1 WHERE lane = $2 AND claimed_by = $3 AND released_at_ms IS NULL",
    )
    .bind(lease_until_ms)
    .bind(lane)
    .bind(by)
    .execute(conn)
    .await?;
    Ok(renewed.rows_affected() > 0)
}

/// Extends `by`'s claims on `lanes` to `lease_until_ms` in one statement per 500 lanes; returns
/// the lanes `by` still held (the others were taken over or given back).
pub async fn renew_many(
    conn: &mut AnyConnection,
    lanes: &[String],
    by: &str,
    lease_until_ms: i64,
) -> Result<Vec<String>, sqlx::Error> {
    let mut renewed = Vec::with_capacity(lanes.len());
    for chunk in lanes.chunks(500) {
        // Only placeholders are written into the statement, never a lane.
        let list: Vec<String> = (0..chunk.len()).map(|n| format!("${}", n + 3)).collect();
        let sql = format!(
            "UPDATE outbox_claims SET lease_until_ms = $1 \
             WHERE claimed_by = $2 AND released_at_ms IS NULL AND lane IN ({}) RETURNING lane",
            list.join(", ")
        );
        let mut query = sqlx::query_scalar(sqlx::AssertSqlSafe(sql)).bind(lease_until_ms).bind(by);
        for lane in chunk {
            query = query.bind(lane);
        }
        renewed.extend(query.fetch_all(&mut *conn).await?);
    }
    Ok(renewed)
}

/// Ends `by`'s claim on `lane` at `now_ms` (nothing when another process holds it now). The row
/// stays, its lease over, saying when the lane was given back (migration 0030), for
/// [`claimable`]'s grace of another shard's lanes, until [`prune_released`].
pub async fn release(conn: &mut AnyConnection, lane: &str, by: &str, now_ms: i64) -> Result<(), sqlx::Error> {
    sqlx::query(
        "UPDATE outbox_claims SET lease_until_ms = 0, released_at_ms = $1 \
         WHERE lane = $2 AND claimed_by = $3 AND released_at_ms IS NULL",
    )
    .bind(now_ms)
    .bind(lane)
    .bind(by)
    .execute(conn)
    .await?;
    Ok(())
}

/// Ends every claim of process `by` at `now_ms`, as [`release`] does; returns how many.
pub async fn release_all(conn: &mut AnyConnection, by: &str, now_ms: i64) -> Result<u64, sqlx::Error> {
    let released = sqlx::query(
        "UPDATE outbox_claims SET lease_until_ms = 0, released_at_ms = $1 \
         WHERE claimed_by = $2 AND released_at_ms IS NULL",
    )
    .bind(now_ms)
    .bind(by)
    .execute(conn)
    .await?;
    Ok(released.rows_affected())
}

/// Deletes the rows of lanes given back before `before_ms`: once the grace of [`claimable`] has
/// passed since, such a row says no more than no row. Returns how many went.
pub async fn prune_released(conn: &mut AnyConnection, before_ms: i64) -> Result<u64, sqlx::Error> {
    let pruned =
        sqlx::query("DELETE FROM outbox_claims WHERE released_at_ms < $1").bind(before_ms).execute(conn).await?;
    Ok(pruned.rows_affected())
}

/// The earliest moment after `now_ms` at which a pending item waiting for a retry comes due.
pub async fn next_retry(conn: &mut AnyConnection, now_ms: i64) -> Result<Option<i64>, sqlx::Error> {
    sqlx::query_scalar("SELECT min(not_before_ms) FROM outbox WHERE state = 'pending' AND not_before_ms > $1")
        .bind(now_ms)
        .fetch_one(conn)
        .await
}

/// Every claim not given back, `(lane, claimed_by, lease_until_ms)` by lane, for tests and
/// operators.
pub async fn claims(conn: &mut AnyConnection) -> Result<Vec<(String, String, i64)>, sqlx::Error> {
    sqlx::query_as(
        "SELECT lane, claimed_by, lease_until_ms FROM outbox_claims WHERE released_at_ms IS NULL ORDER BY lane",
    )
    .fetch_all(conn)
    .await
}

#[cfg(test)]
mod tests {
    use sqlx::Connection;

    /// The steps of `SQLite`'s plan for `sql`, its parameters bound to `values`.
    async fn plan(conn: &mut sqlx::SqliteConnection, sql: &str, values: &[i64]) -> Vec<String> {
        let explain = format!("EXPLAIN QUERY PLAN {sql}");
        let mut query = sqlx::query_as::<_, (i64, i64, i64, String)>(sqlx::AssertSqlSafe(explain));
        for &value in values {
            query = query.bind(value);
        }
        query.fetch_all(conn).await.unwrap().into_iter().map(|(.., detail)| detail).collect()
    }

    /// `SQLite`'s plans for the delivery's look at the outbox, the check for boards behind their
    /// games, the hourly deletion of old delivered items, a game's summary message and a server's
    /// games, on a database without statistics (the bot never runs `ANALYZE`): they must reach
    /// their rows through their indexes, not walk all history.
    #[tokio::test]
    async fn the_delivery_and_the_board_check_read_what_is_pending_or_recent_only() {
        let dir = std::env::temp_dir().join(format!("tafl-outbox-plan-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("plan.db");
        let _ = std::fs::remove_file(&path);
        let options = sqlx::sqlite::SqliteConnectOptions::new().filename(&path).create_if_missing(true);
        let mut conn = sqlx::SqliteConnection::connect_with(&options).await.unwrap();
        crate::store::migrate::run_on_connection(&mut conn).await.unwrap();
        let steps = plan(&mut conn, claimable_sql!(), &[0, 0, 50, 4, 1, 2, 0, 0, 0]).await;
        assert!(steps.iter().any(|s| s.contains("outbox_pending")), "{steps:?}");
        assert!(
            !steps.iter().any(|s| s.starts_with("SCAN") && !s.contains("INDEX")),
            "a table is walked whole: {steps:?}"
        );
        let steps = plan(&mut conn, stale_boards_sql!(), &[0, 50]).await;
        for index in ["games_ongoing", "games_finished"] {
            assert!(steps.iter().any(|s| s.contains(index)), "{index}: {steps:?}");
        }
        assert!(
            !steps.iter().any(|s| ["SCAN games", "SCAN b", "SCAN o"].contains(&s.as_str())),
            "a table is walked whole: {steps:?}"
        );
        // What Discord refused, looked for at every tick: through the games going on (each by
        // its newest notice) and those finished lately, never the whole outbox.
        let steps = plan(&mut conn, refused_notices_sql!(), &[0, 50]).await;
        for index in ["games_ongoing", "outbox_notices"] {
            assert!(steps.iter().any(|s| s.contains(index)), "{index}: {steps:?}");
        }
        assert!(!steps.iter().any(|s| ["SCAN g", "SCAN n", "SCAN o"].contains(&s.as_str())), "{steps:?}");
        let steps = plan(&mut conn, refused_summaries_sql!(), &[0, 0, 50]).await;
        for index in ["games_finished", "outbox_given_up", "outbox_summaries", "outbox_pending"] {
            assert!(steps.iter().any(|s| s.contains(index)), "{index}: {steps:?}");
        }
        let walked = |s: &&String| s.starts_with("SCAN") && !s.contains("INDEX");
        assert!(!steps.iter().any(|s| walked(&s)), "a table is walked whole: {steps:?}");
        let steps = plan(&mut conn, super::NEWEST_NOTICE_SQL, &[1]).await;
        assert!(steps.iter().any(|s| s.contains("outbox_notices")), "{steps:?}");
        assert!(!steps.iter().any(|s| walked(&s)), "a table is walked whole: {steps:?}");
        let steps = plan(&mut conn, prune_done_sql!(), &[0, 50]).await;
        assert!(steps.iter().any(|s| s.contains("outbox_done")), "{steps:?}");
        assert!(!steps.iter().any(|s| s == "SCAN outbox"), "the outbox is walked whole: {steps:?}");
        // A game's summary message, and a server's games when the bot returns to it.
        for (sql, index) in [
            (super::super::reviews::SUMMARY_MESSAGE_SQL, "outbox_summaries"),
            (super::SUMMARY_SHOWN_OR_PENDING_SQL, "outbox_summaries"),
            (super::SUMMARY_SHOWN_OR_PENDING_SQL, "outbox_pending"),
            (super::NEW_BOARDS_DONE_SQL, "outbox_new_boards_done"),
            (super::super::games::FINISHED_IN_GUILD_SINCE_SQL, "games_by_guild"),
            (super::super::games::RESUME_GUILD_SQL, "games_by_guild"),
        ] {
            let steps = plan(&mut conn, sql, &[1, 2, 3, 4, 5, 6, 7, 8][..sql.matches('$').count()]).await;
            assert!(steps.iter().any(|s| s.contains(index)), "{index}: {steps:?}");
            let walked = |s: &String| s.starts_with("SCAN") && !s.contains("INDEX") && s != "SCAN CONSTANT ROW";
            assert!(!steps.iter().any(walked), "a table is walked whole: {steps:?}");
        }
        conn.close().await.unwrap();
        let _ = std::fs::remove_dir_all(&dir);
    }
}
