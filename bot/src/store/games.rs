//! `games`: one row per game; `ply`, `status`, `reason` are caches of the move list, written in the
//! same transaction as the moves.

use sqlx::AnyConnection;

use super::Backend;
use super::outbox::ServedShards;

/// A game as stored.
#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow)]
pub struct GameRow {
    pub id: i64,
    pub guild_id: i64,
    pub channel_id: i64,
    pub thread_id: Option<i64>,
    pub variant: String,
    pub options: String,
    pub rules: String,
    pub start_position: Option<String>,
    pub start_to_move: Option<String>,
    pub attacker_id: i64,
    pub defender_id: i64,
    pub status: String,
    pub reason: Option<String>,
    pub loser_id: Option<i64>,
    pub ply: i64,
    pub clock_seconds: Option<i64>,
    #[sqlx(try_from = "super::Flag")]
    pub imported: bool,
    pub created_at: i64,
    pub updated_at: i64,
    pub finished_at: Option<i64>,
    /// The moves as one space-separated string, a cache of `moves` (see migration 0002).
    pub movetext: String,
    /// The players' names as the game's server calls them (see [`super::member_names`]), else
    /// their display names, joined in so that showing a game is one query.
    pub attacker_name: String,
    pub defender_name: String,
    /// How many draw offers and takeback requests are open, so a move only touches `offers`
    /// when there is something to lapse.
    pub open_offers: i64,
    /// The clock's reserve cap (clocks like `3d+7d`), `None` without a reserve.
    pub reserve_cap: Option<i64>,
    pub attacker_reserve: i64,
    pub defender_reserve: i64,
    /// The current turn of a timed game: when it began, when it runs out, which reminders were
    /// sent, and when the scheduler next has something to do (see migration 0003).
    pub turn_started_at: Option<i64>,
    pub deadline_at: Option<i64>,
    pub reminders_sent: i64,
    pub next_due_at: Option<i64>,
    /// False for a game its players chose not to rate (see migration 0008).
    #[sqlx(try_from = "super::Flag")]
    pub rated: bool,
    /// When the bot's current turn began; `None` when it is not the bot's move.
    pub bot_turn_at: Option<i64>,
    /// When the bot was removed from the game's server, while it is away (joined in from
    /// `servers`, migration 0017): the game is paused, and nothing comes due in it.
    pub server_left_at: Option<i64>,
    /// When the game's channel was deleted, until a player moves the game to another channel
    /// (migration 0026): nothing can be posted where it is played.
    pub channel_gone_at: Option<i64>,
}

/// The clock state of a game's current turn, written after every move, takeback and reminder.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Turn {
    pub attacker_reserve: i64,
    pub defender_reserve: i64,
    pub turn_started_at: Option<i64>,
    pub deadline_at: Option<i64>,
    pub reminders_sent: i64,
    pub next_due_at: Option<i64>,
}

/// The games where the user bound as `$1` and `$2` is to move, ongoing in servers the bot has
/// not left. The side to move: the start's (the attackers unless the game began from a
/// position with the defenders to move) on even plies, the other on odd ones, as
/// `scheduler::to_move`.
macro_rules! awaiting_where {
    () => {
        "WHERE g.status = 'ongoing' AND s.left_at IS NULL AND ( \
           (g.attacker_id = $1 AND (g.ply + CASE WHEN g.start_to_move = 'defenders' THEN 1 ELSE 0 END) % 2 = 0) \
           OR (g.defender_id = $2 AND (g.ply + CASE WHEN g.start_to_move = 'defenders' THEN 1 ELSE 0 END) % 2 = 1))"
    };
}

/// The `SELECT` of a full [`GameRow`], followed by the rest of the statement. A macro rather
/// than a `format!` because sqlx takes only `&'static str` SQL.
macro_rules! select_games {
    ($($tail:expr),+) => {
        concat!(
            "SELECT g.id, g.guild_id, g.channel_id, g.thread_id, g.variant, g.options, g.rules, g.start_position, \
             g.start_to_move, g.attacker_id, g.defender_id, g.status, g.reason, g.loser_id, g.ply, g.clock_seconds, \
             g.imported, g.created_at, g.updated_at, g.finished_at, g.movetext, \
             COALESCE(ma.name, a.name) AS attacker_name, COALESCE(md.name, d.name) AS defender_name, \
             (SELECT COUNT(*) FROM offers o WHERE o.game_id = g.id AND o.state = 'open') AS open_offers, \
             g.reserve_cap, g.attacker_reserve, g.defender_reserve, g.turn_started_at, g.deadline_at, \
             g.reminders_sent, g.next_due_at, g.rated, g.bot_turn_at, s.left_at AS server_left_at, \
             g.channel_gone_at \
             FROM games g JOIN users a ON a.id = g.attacker_id JOIN users d ON d.id = g.defender_id \
             LEFT JOIN member_names ma ON ma.guild_id = g.guild_id AND ma.user_id = g.attacker_id \
             LEFT JOIN member_names md ON md.guild_id = g.guild_id AND md.user_id = g.defender_id \
             LEFT JOIN servers s ON s.id = g.guild_id ",
            $($tail),+
        )
    };
}

/// What a new game row needs.
#[derive(Clone, Debug)]
pub struct NewGame<'a> {
    pub guild_id: i64,
    pub channel_id: i64,
    pub thread_id: Option<i64>,
    pub variant: &'a str,
    pub options: &'a str,
    pub rules: &'a str,
    pub start_position: Option<&'a str>,
    pub start_to_move: Option<&'a str>,
    pub attacker_id: i64,
    pub defender_id: i64,
    pub clock_seconds: Option<i64>,
    pub reserve_cap: Option<i64>,
    /// The first turn of a timed game: its start, deadline and first reminder.
    pub turn: Turn,
    pub imported: bool,
    /// False for an unrated game against the bot.
    pub rated: bool,
    /// When the bot's first turn began, when it moves first.
    pub bot_turn_at: Option<i64>,
}

pub async fn insert(conn: &mut AnyConnection, game: &NewGame<'_>, now: i64) -> Result<i64, sqlx::Error> {
    sqlx::query_scalar(
        "INSERT INTO games (guild_id, channel_id, thread_id, variant, options, rules, start_position, start_to_move, \
         attacker_id, defender_id, clock_seconds, reserve_cap, turn_started_at, deadline_at, next_due_at, imported, \
         rated, bot_turn_at, created_at, updated_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20) RETURNING id",
    )
    .bind(game.guild_id)
    .bind(game.channel_id)
    .bind(game.thread_id)
    .bind(game.variant)
    .bind(game.options)
    .bind(game.rules)
    .bind(game.start_position)
    .bind(game.start_to_move)
    .bind(game.attacker_id)
    .bind(game.defender_id)
    .bind(game.clock_seconds)
    .bind(game.reserve_cap)
    .bind(game.turn.turn_started_at)
    .bind(game.turn.deadline_at)
    .bind(game.turn.next_due_at)
    .bind(game.imported)
    .bind(game.rated)
    .bind(game.bot_turn_at)
    .bind(now)
    .bind(now)
    .fetch_one(conn)
    .await
}

/// Locks a game's row until the transaction ends, so that an operation that reads a game and
/// then writes it is never interleaved with another on the same game: two processes answering
/// two clicks on one board take turns, games of their own do not wait for each other. Only on
/// `PostgreSQL`: on `SQLite` the write transaction already holds the database's one write lock.
pub async fn lock(conn: &mut AnyConnection, id: i64) -> Result<(), sqlx::Error> {
    if Backend::of(conn) == Backend::Postgres {
        sqlx::query("SELECT id FROM games WHERE id = $1 FOR UPDATE").bind(id).fetch_optional(conn).await?;
    }
    Ok(())
}

pub async fn find(conn: &mut AnyConnection, id: i64) -> Result<Option<GameRow>, sqlx::Error> {
    sqlx::query_as(select_games!("WHERE g.id = $1")).bind(id).fetch_optional(conn).await
}

/// The server a game is played in.
pub async fn guild(conn: &mut AnyConnection, id: i64) -> Result<Option<i64>, sqlx::Error> {
    sqlx::query_scalar("SELECT guild_id FROM games WHERE id = $1").bind(id).fetch_optional(conn).await
}

/// The games of a user, most recently active first: ongoing ones only, or all.
pub async fn of_user(
    conn: &mut AnyConnection,
    user_id: i64,
    ongoing_only: bool,
    limit: i64,
) -> Result<Vec<GameRow>, sqlx::Error> {
    sqlx::query_as(select_games!(
        "WHERE (g.attacker_id = $1 OR g.defender_id = $2) AND (g.status = 'ongoing' OR NOT $3) \
         ORDER BY g.updated_at DESC, g.id DESC LIMIT $4"
    ))
    .bind(user_id)
    .bind(user_id)
    .bind(ongoing_only)
    .bind(limit)
    .fetch_all(conn)
    .await
}

/// A person's ongoing games where they are to move, in servers the bot has not left, the
/// nearest deadline first (untimed games last, most recently active first), at most `limit`:
/// what a digest lists. Chosen by the database, so that
/// games waiting for their opponents, however many, do not crowd these out of the limit.
pub async fn awaiting(conn: &mut AnyConnection, user_id: i64, limit: i64) -> Result<Vec<GameRow>, sqlx::Error> {
    sqlx::query_as(select_games!(
        awaiting_where!(),
        " ORDER BY CASE WHEN g.deadline_at IS NULL THEN 1 ELSE 0 END, g.deadline_at, g.updated_at DESC, g.id DESC \
         LIMIT $3"
    ))
    .bind(user_id)
    .bind(user_id)
    .bind(limit)
    .fetch_all(conn)
    .await
}

/// How many games [`awaiting`] chooses from: its list stops at its limit, the digest's title
/// counts them all.
pub async fn count_awaiting(conn: &mut AnyConnection, user_id: i64) -> Result<i64, sqlx::Error> {
    sqlx::query_scalar(concat!(
        "SELECT COUNT(*) FROM games g LEFT JOIN servers s ON s.id = g.guild_id ",
        awaiting_where!()
    ))
    .bind(user_id)
    .bind(user_id)
    .fetch_one(conn)
    .await
}

/// The players of a server's ongoing games, by id.
pub async fn players_in(conn: &mut AnyConnection, guild: i64) -> Result<Vec<i64>, sqlx::Error> {
    sqlx::query_scalar(
        "SELECT attacker_id FROM games WHERE guild_id = $1 AND status = 'ongoing' \
         UNION SELECT defender_id FROM games WHERE guild_id = $2 AND status = 'ongoing' ORDER BY 1",
    )
    .bind(guild)
    .bind(guild)
    .fetch_all(conn)
    .await
}

/// A person's ongoing games in a server the bot has left, most recently active first, at most
/// `limit`.
pub async fn paused_of_user(
    conn: &mut AnyConnection,
    user_id: i64,
    guild: i64,
    limit: i64,
) -> Result<Vec<GameRow>, sqlx::Error> {
    sqlx::query_as(select_games!(
        "WHERE g.guild_id = $1 AND g.status = 'ongoing' AND s.left_at IS NOT NULL \
           AND (g.attacker_id = $2 OR g.defender_id = $3) \
         ORDER BY g.updated_at DESC, g.id DESC LIMIT $4"
    ))
    .bind(guild)
    .bind(user_id)
    .bind(user_id)
    .bind(limit)
    .fetch_all(conn)
    .await
}

/// How many games [`of_user`] would list without its limit.
pub async fn count_of_user(conn: &mut AnyConnection, user_id: i64, ongoing_only: bool) -> Result<i64, sqlx::Error> {
    sqlx::query_scalar(
        "SELECT count(*) FROM games WHERE (attacker_id = $1 OR defender_id = $2) AND (status = 'ongoing' OR NOT $3)",
    )
    .bind(user_id)
    .bind(user_id)
    .bind(ongoing_only)
    .fetch_one(conn)
    .await
}

/// Records a move appended to the move list: the ply count and the move-text cache.
pub async fn append_move(
    conn: &mut AnyConnection,
    id: i64,
    ply: i64,
    notation: &str,
    now: i64,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "UPDATE games SET ply = $1, movetext = CASE WHEN movetext = '' THEN $2 ELSE movetext || ' ' || $3 END, \
         updated_at = $4 WHERE id = $5",
    )
    .bind(ply)
    .bind(notation)
    .bind(notation)
    .bind(now)
    .bind(id)
    .execute(conn)
    .await?;
    Ok(())
}

/// Records a whole move list (a takeback or an import): the ply count and the move-text cache.
pub async fn set_moves(
    conn: &mut AnyConnection,
    id: i64,
    ply: i64,
    movetext: &str,
    now: i64,
) -> Result<(), sqlx::Error> {
    sqlx::query("UPDATE games SET ply = $1, movetext = $2, updated_at = $3 WHERE id = $4")
        .bind(ply)
        .bind(movetext)
        .bind(now)
        .bind(id)
        .execute(conn)
        .await?;
    Ok(())
}

/// Records the thread a game was given (servers with a thread per game).
pub async fn set_thread(conn: &mut AnyConnection, id: i64, thread_id: i64, now: i64) -> Result<bool, sqlx::Error> {
    let done = sqlx::query("UPDATE games SET thread_id = $1, thread_opened = $2, updated_at = $3 WHERE id = $4")
        .bind(thread_id)
        .bind(true)
        .bind(now)
        .bind(id)
        .execute(conn)
        .await?;
    Ok(done.rows_affected() == 1)
}

/// The thread of a game when the bot opened it (migration 0022); `None` for a game without a
/// thread or challenged in a thread people opened.
pub async fn own_thread(conn: &mut AnyConnection, id: i64) -> Result<Option<i64>, sqlx::Error> {
    let thread: Option<Option<i64>> = sqlx::query_scalar("SELECT thread_id FROM games WHERE id = $1 AND thread_opened")
        .bind(id)
        .fetch_optional(conn)
        .await?;
    Ok(thread.flatten())
}

/// Forgets a game's thread (deleted, or closed to the bot): its messages go to its channel again.
/// With `opened_only`, only a thread the bot opened (migration 0022). False when nothing was
/// forgotten.
pub async fn clear_thread(conn: &mut AnyConnection, id: i64, opened_only: bool, now: i64) -> Result<bool, sqlx::Error> {
    let done =
        sqlx::query(
            "UPDATE games SET thread_id = NULL, thread_opened = $1, updated_at = $2 WHERE id = $3 AND thread_id IS NOT NULL \
             AND (thread_opened OR NOT $4)",
        )
        .bind(false)
            .bind(now)
            .bind(id)
            .bind(opened_only)
            .execute(conn)
            .await?;
    Ok(done.rows_affected() == 1)
}

/// The ongoing games played in `channel` (or in a thread under it) that still have it, by id:
/// those a deletion of the channel leaves without one.
pub async fn ongoing_in_channel(conn: &mut AnyConnection, channel: i64) -> Result<Vec<i64>, sqlx::Error> {
    sqlx::query_scalar(
        "SELECT id FROM games WHERE channel_id = $1 AND status = 'ongoing' AND channel_gone_at IS NULL ORDER BY id",
    )
    .bind(channel)
    .fetch_all(conn)
    .await
}

/// Records that an ongoing game's channel is gone (deleted); false when the game is over or
/// was already marked.
pub async fn mark_channel_gone(conn: &mut AnyConnection, id: i64, now: i64) -> Result<bool, sqlx::Error> {
    let done = sqlx::query(
        "UPDATE games SET channel_gone_at = $1, updated_at = $2 WHERE id = $3 AND status = 'ongoing' \
         AND channel_gone_at IS NULL",
    )
    .bind(now)
    .bind(now)
    .bind(id)
    .execute(conn)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Moves a game to `channel` (and `thread`, one people opened, or none), which it has from now on:
/// its old thread is forgotten, and a deleted channel no longer counts.
pub async fn move_to(
    conn: &mut AnyConnection,
    id: i64,
    channel: i64,
    thread: Option<i64>,
    now: i64,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "UPDATE games SET channel_id = $1, thread_id = $2, thread_opened = $3, channel_gone_at = NULL, \
         updated_at = $4 WHERE id = $5",
    )
    .bind(channel)
    .bind(thread)
    .bind(false)
    .bind(now)
    .bind(id)
    .execute(conn)
    .await?;
    Ok(())
}

/// Marks a game finished; its clock stops (no deadline, nothing due).
pub async fn finish(
    conn: &mut AnyConnection,
    id: i64,
    status: &str,
    reason: &str,
    loser_id: Option<i64>,
    now: i64,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "UPDATE games SET status = $1, reason = $2, loser_id = $3, updated_at = $4, finished_at = $5, \
         deadline_at = NULL, next_due_at = NULL, bot_turn_at = NULL, bot_turn_taken_by = NULL, bot_turn_taken_until = NULL \
         WHERE id = $6 AND status = 'ongoing'",
    )
    .bind(status)
    .bind(reason)
    .bind(loser_id)
    .bind(now)
    .bind(now)
    .bind(id)
    .execute(conn)
    .await?;
    Ok(())
}

/// Records the clock state of a game's current turn.
pub async fn set_turn(conn: &mut AnyConnection, id: i64, turn: &Turn) -> Result<(), sqlx::Error> {
    sqlx::query(
        "UPDATE games SET attacker_reserve = $1, defender_reserve = $2, turn_started_at = $3, deadline_at = $4, \
         reminders_sent = $5, next_due_at = $6 WHERE id = $7",
    )
    .bind(turn.attacker_reserve)
    .bind(turn.defender_reserve)
    .bind(turn.turn_started_at)
    .bind(turn.deadline_at)
    .bind(turn.reminders_sent)
    .bind(turn.next_due_at)
    .bind(id)
    .execute(conn)
    .await?;
    Ok(())
}

/// Records the reminders sent in a game's current turn and when the scheduler next looks at it.
pub async fn set_reminders(
    conn: &mut AnyConnection,
    id: i64,
    reminders_sent: i64,
    next_due_at: Option<i64>,
) -> Result<(), sqlx::Error> {
    sqlx::query("UPDATE games SET reminders_sent = $1, next_due_at = $2 WHERE id = $3")
        .bind(reminders_sent)
        .bind(next_due_at)
        .bind(id)
        .execute(conn)
        .await?;
    Ok(())
}

/// The ongoing games of servers on `shards` the scheduler has something to do for at `now`,
/// oldest due first, but none of a server the bot left (they are paused, see migration 0017). On
/// `PostgreSQL` they are locked until the transaction ends, and a game locked by an operation in
/// progress (a move, which sets its clock anew) is skipped until the next tick.
pub async fn due(
    conn: &mut AnyConnection,
    now: i64,
    limit: i64,
    shards: ServedShards,
) -> Result<Vec<GameRow>, sqlx::Error> {
    let sql = match Backend::of(conn) {
        Backend::Sqlite => {
            select_games!(
                "WHERE g.next_due_at <= $1 AND g.status = 'ongoing' AND s.left_at IS NULL \
                 AND (g.guild_id >> 22) % $3 BETWEEN $4 AND $5 ORDER BY g.next_due_at, g.id LIMIT $2"
            )
        }
        Backend::Postgres => select_games!(
            "WHERE g.next_due_at <= $1 AND g.status = 'ongoing' AND s.left_at IS NULL \
             AND (g.guild_id >> 22) % $3 BETWEEN $4 AND $5 ORDER BY g.next_due_at, g.id LIMIT $2 \
             FOR UPDATE OF g SKIP LOCKED"
        ),
    };
    let (count, first, last, _) = ServedShards::bound(Some((shards, 0)));
    sqlx::query_as(sql).bind(now).bind(limit).bind(count).bind(first).bind(last).fetch_all(conn).await
}

/// Moves every ongoing deadline earlier than `until` in the servers on `shards` to `until` (the
/// grace after downtime) and makes those games due at `now`, so that their reminders are worked
/// out again; returns their ids. Paused games (of a server the bot left) are left as they are:
/// their turns get back all the time the bot was away when it returns ([`resume_guild`]).
pub async fn extend_deadlines(
    conn: &mut AnyConnection,
    until: i64,
    now: i64,
    shards: ServedShards,
) -> Result<Vec<i64>, sqlx::Error> {
    let (count, first, last, _) = ServedShards::bound(Some((shards, 0)));
    sqlx::query_scalar(
        "UPDATE games SET deadline_at = $1, next_due_at = $2 \
         WHERE status = 'ongoing' AND deadline_at IS NOT NULL AND deadline_at < $3 \
         AND (guild_id >> 22) % $4 BETWEEN $5 AND $6 \
         AND guild_id NOT IN (SELECT id FROM servers WHERE left_at IS NOT NULL) RETURNING id",
    )
    .bind(until)
    .bind(now)
    .bind(until)
    .bind(count)
    .bind(first)
    .bind(last)
    .fetch_all(conn)
    .await
}

/// The downtime grace of untimed games in the servers on `shards`, given at `now` until
/// `until`. A turn whose person was warned (`reminders_sent` 1) and that may be claimed before
/// `until` (it began more than `claim_after` before it) comes due at `until`, as if it had begun
/// `claim_after` seconds before it. A turn whose person was not warned yet though the warning
/// was due (`warning` seconds before the claim, during the outage) is warned at once and may be
/// claimed `warning` seconds later, as the warning promises: without this, an outage across both
/// moments forfeited the game an hour after the bot came back, with no word first.
/// Their turn's start serves nothing but claims, so moving it changes nothing else. Paused games
/// are left as they are, as by [`extend_deadlines`].
///
/// Judged by the claim's own moment, not by `next_due_at`: a game is also due at once when its
/// server took the bot back ([`resume_guild`]), a moment that says nothing of its claim, and a
/// turn begun an hour ago must not become claimable an hour later.
///
/// With `only`, that game alone (if on `shards`): a claim that comes before the scheduler's
/// first tick after downtime sees what the grace makes of its game.
pub async fn extend_claims(
    conn: &mut AnyConnection,
    (now, until): (i64, i64),
    (claim_after, warning): (i64, i64),
    shards: ServedShards,
    only: Option<i64>,
) -> Result<u64, sqlx::Error> {
    let (count, first, last, _) = ServedShards::bound(Some((shards, 0)));
    let mut moved = 0;
    // (`reminders_sent`, the turn's new start, when it comes due); a turn that began before
    // the new start takes it.
    let warned = (1, until.saturating_sub(claim_after), until);
    let unwarned = (0, now.saturating_add(warning).saturating_sub(claim_after), now);
    for (reminders_sent, start, due) in [warned, unwarned] {
        let done = sqlx::query(
            "UPDATE games SET turn_started_at = $1, next_due_at = $2 \
             WHERE status = 'ongoing' AND clock_seconds IS NULL AND next_due_at IS NOT NULL \
             AND turn_started_at < $3 AND reminders_sent = $4 \
             AND (guild_id >> 22) % $5 BETWEEN $6 AND $7 AND ($8 = 0 OR id = $9) \
             AND guild_id NOT IN (SELECT id FROM servers WHERE left_at IS NOT NULL)",
        )
        .bind(start)
        .bind(due)
        .bind(start)
        .bind(reminders_sent)
        .bind(count)
        .bind(first)
        .bind(last)
        .bind(i64::from(only.is_some()))
        .bind(only.unwrap_or(0))
        .execute(&mut *conn)
        .await?;
        moved += done.rows_affected();
    }
    Ok(moved)
}

/// The servers with games going on whose shard is `shard` of `count` (`(guild_id >> 22) %
/// count`, as Discord assigns them).
pub async fn guilds_playing(conn: &mut AnyConnection, shard: u32, count: u32) -> Result<Vec<i64>, sqlx::Error> {
    sqlx::query_scalar(
        "SELECT DISTINCT guild_id FROM games WHERE status = 'ongoing' AND guild_id <> 0 \
         AND (guild_id >> 22) % $1 = $2 ORDER BY guild_id",
    )
    .bind(i64::from(count.max(1)))
    .bind(i64::from(shard))
    .fetch_all(conn)
    .await
}

/// The shift of [`resume_guild`], through `games_by_guild` (migration 0019).
pub(super) const RESUME_GUILD_SQL: &str = "UPDATE games SET \
     deadline_at = deadline_at + CASE WHEN turn_started_at < $1 THEN $2 ELSE $3 - turn_started_at END, \
     turn_started_at = CASE WHEN turn_started_at < $4 THEN turn_started_at + $5 ELSE $6 END \
     WHERE guild_id = $7 AND status = 'ongoing' AND turn_started_at IS NOT NULL AND turn_started_at < $8";

/// Resumes the games of a server the bot left at `left_at` and is back in at `now`: every
/// ongoing turn gets back the time the bot was away from it (a turn begun before the bot left
/// starts again `now - left_at` later, one begun while it was away starts now), its deadline
/// moves as much, and every ongoing game is due at `now`, so that the scheduler works out its
/// reminders and claim again. Returns the ongoing games as `(game, ply)`.
///
/// One statement per step, each turn's shift worked out from the row itself: a move that
/// commits meanwhile (it starts a new turn) is shifted by what its own turn was away, never by
/// what the old turn was.
pub async fn resume_guild(
    conn: &mut AnyConnection,
    guild: i64,
    left_at: i64,
    now: i64,
) -> Result<Vec<(i64, i64)>, sqlx::Error> {
    let away = (now - left_at).max(0);
    sqlx::query(RESUME_GUILD_SQL)
        .bind(left_at)
        .bind(away)
        .bind(now)
        .bind(left_at)
        .bind(away)
        .bind(now)
        .bind(guild)
        .bind(now)
        .execute(&mut *conn)
        .await?;
    sqlx::query_as("UPDATE games SET next_due_at = $1 WHERE guild_id = $2 AND status = 'ongoing' RETURNING id, ply")
        .bind(now)
        .bind(guild)
        .fetch_all(conn)
        .await
}

/// The query of [`finished_in_guild_since`], through `games_by_guild` (migration 0019).
pub(super) const FINISHED_IN_GUILD_SINCE_SQL: &str = "SELECT g.id, g.ply FROM games g WHERE g.guild_id = $1 AND g.status <> 'ongoing' \
     AND (g.finished_at >= $2 OR EXISTS (SELECT 1 FROM outbox o WHERE o.lane = 'game:' || g.id \
          AND o.kind = 'summary' AND o.state = 'given_up' AND o.finished_at >= $3)) ORDER BY g.id";

/// The games of a server that ended at or after `since`, or whose summary Discord refused at or
/// after it (a game that ended just before the bot was removed), as `(game, ply)`.
pub async fn finished_in_guild_since(
    conn: &mut AnyConnection,
    guild: i64,
    since: i64,
) -> Result<Vec<(i64, i64)>, sqlx::Error> {
    sqlx::query_as(FINISHED_IN_GUILD_SINCE_SQL).bind(guild).bind(since).bind(since).fetch_all(conn).await
}

/// Records whether the bot must move in a game, and since when (`None`: it need not). A
/// takeover of the turn before ([`take_bot_turn`]) ends with it: a new turn is nobody's.
pub async fn set_bot_turn(conn: &mut AnyConnection, id: i64, since: Option<i64>) -> Result<(), sqlx::Error> {
    sqlx::query(
        "UPDATE games SET bot_turn_at = $1, bot_turn_taken_by = NULL, bot_turn_taken_until = NULL WHERE id = $2",
    )
    .bind(since)
    .bind(id)
    .execute(conn)
    .await?;
    Ok(())
}

/// Claims for process `by`, until `until` (unix seconds), the bot's turn that began at `since`
/// in game `id`, a game of another process's shards (see migration 0035): true when the turn is
/// still that one and nobody holds it at `now` but `by` (no claim, or one that ran out), false
/// when another process holds it or the turn is over. One conditional update of the game's
/// row: two processes claiming at once are serialised by the row, and the second finds the
/// first's claim.
pub async fn take_bot_turn(
    conn: &mut AnyConnection,
    id: i64,
    since: i64,
    by: &str,
    until: i64,
    now: i64,
) -> Result<bool, sqlx::Error> {
    let taken = sqlx::query(
        "UPDATE games SET bot_turn_taken_by = $1, bot_turn_taken_until = $2 \
         WHERE id = $3 AND bot_turn_at = $4 AND status = 'ongoing' \
         AND (bot_turn_taken_until IS NULL OR bot_turn_taken_until <= $5 OR bot_turn_taken_by = $6)",
    )
    .bind(by)
    .bind(until)
    .bind(id)
    .bind(since)
    .bind(now)
    .bind(by)
    .execute(conn)
    .await?;
    Ok(taken.rows_affected() == 1)
}

/// The process that holds a claim on the bot's turn in a game, if any, run out or not (for the tests).
pub async fn bot_turn_taken(conn: &mut AnyConnection, id: i64) -> Result<Option<String>, sqlx::Error> {
    let by: Option<Option<String>> =
        sqlx::query_scalar("SELECT bot_turn_taken_by FROM games WHERE id = $1").bind(id).fetch_optional(conn).await?;
    Ok(by.flatten())
}

/// The ongoing games where the bot must move, the longest waiting first: `(game, since)`, at
/// most `limit`; not those of a server the bot left (paused, see migration 0017). With `shards`,
/// only the games of servers on those shards, of no server, or whose turn began at or before
/// `foreign_after` (unix seconds: a turn the process of its shard has not played by then,
/// perhaps because it is down, is anyone's), as the outbox does; of the last, only those no
/// other process has taken over ([`take_bot_turn`]) with a claim still running at
/// `taken.1` (unix seconds): `taken.0` is this process's id.
pub async fn bot_turns(
    conn: &mut AnyConnection,
    limit: i64,
    shards: Option<(super::outbox::ServedShards, i64)>,
    taken: (&str, i64),
) -> Result<Vec<(i64, i64)>, sqlx::Error> {
    let (count, first, last, foreign_after) = super::outbox::ServedShards::bound(shards);
    let (process, now) = taken;
    sqlx::query_as(
        "SELECT id, bot_turn_at FROM games WHERE bot_turn_at IS NOT NULL AND status = 'ongoing' \
         AND (guild_id = 0 OR (guild_id >> 22) % $2 BETWEEN $3 AND $4 \
              OR (bot_turn_at <= $5 AND (bot_turn_taken_until IS NULL OR bot_turn_taken_until <= $6 \
                                         OR bot_turn_taken_by = $7))) \
         AND guild_id NOT IN (SELECT id FROM servers WHERE left_at IS NOT NULL) \
         ORDER BY bot_turn_at, id LIMIT $1",
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

/// Of the games `ids`, those where the bot must move now, as `(game, ply, since)`: what the bot
/// player checks its running searches against. A paused game (its server removed the bot) is
/// none: its search is cancelled. One statement per 500 games.
pub async fn bot_turns_of(conn: &mut AnyConnection, ids: &[i64]) -> Result<Vec<(i64, i64, i64)>, sqlx::Error> {
    let mut turns = Vec::with_capacity(ids.len());
    for chunk in ids.chunks(500) {
        // Only placeholders are written into the statement, never an id.
        let list: Vec<String> = (1..=chunk.len()).map(|n| format!("${n}")).collect();
        let sql = format!(
            "SELECT id, ply, bot_turn_at FROM games WHERE bot_turn_at IS NOT NULL AND status = 'ongoing' \
             AND guild_id NOT IN (SELECT id FROM servers WHERE left_at IS NOT NULL) AND id IN ({})",
            list.join(", ")
        );
        let mut query = sqlx::query_as::<_, (i64, i64, i64)>(sqlx::AssertSqlSafe(sql));
        for id in chunk {
            query = query.bind(*id);
        }
        turns.extend(query.fetch_all(&mut *conn).await?);
    }
    Ok(turns)
}

/// How many games against the bot (levels are users below 0, see migration 0008) `user` has
/// going.
pub async fn ongoing_against_bot(conn: &mut AnyConnection, user: i64) -> Result<i64, sqlx::Error> {
    sqlx::query_scalar(
        "SELECT COUNT(*) FROM games WHERE status = 'ongoing' \
         AND ((attacker_id = $1 AND defender_id < 0) OR (defender_id = $1 AND attacker_id < 0))",
    )
    .bind(user)
    .fetch_one(conn)
    .await
}

/// When a game last changed, the latest of all (unix seconds); `None` without games.
pub async fn latest_change(conn: &mut AnyConnection) -> Result<Option<i64>, sqlx::Error> {
    sqlx::query_scalar("SELECT MAX(updated_at) FROM games").fetch_one(conn).await
}

/// How many games there are (benchmarks and tests).
pub async fn count(conn: &mut AnyConnection) -> Result<i64, sqlx::Error> {
    sqlx::query_scalar("SELECT COUNT(*) FROM games").fetch_one(conn).await
}
