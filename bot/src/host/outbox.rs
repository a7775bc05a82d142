//! What a front end must show, recorded in the transaction that changes a game or a challenge.
//!
//! The host says *what* must be shown ([`Show`]: the board at a ply, the notice to the player to
//! move, a summary, a challenge card closed…); the Discord front end's delivery task decides
//! *how*, applies the items of each lane (one game, one challenge) in order, and reports back
//! here. Nothing is lost between a commit and the Discord request that shows it: a crash leaves
//! the item pending, and the next process delivers it.
//!
//! **Several processes on one database** (`PostgreSQL`, issue 16) deliver each lane from one
//! process at a time: a process claims a lane ([`Host::claim_lanes`]) until a lease time
//! ([`OUTBOX_LEASE`]), renews the claim while it delivers ([`Host::keep_lane`]) and releases it
//! when the lane is empty or waits for a retry ([`Host::release_lane`]). Two processes never
//! take one lane, so no item is posted twice and a lane's items stay in order, one at a time.
//! A process that dies holding lanes loses nothing: once its leases run out, another process
//! takes the lanes over and delivers their items. A process serving Discord shard ranges takes
//! only its own shards' servers' items, and another's once nobody took it within
//! [`FOREIGN_GRACE`] of its coming due and of its lane's last release ([`Host::with_shards`]).
//! Each process's claims carry its id ([`Host::process_id`]), made at start-up. On `SQLite` (one
//! process per database file) the same code runs and the claim is always free: every process
//! that opens the file has the same id, so a restarted bot takes its predecessor's lanes at once
//! instead of after a lease.

use std::collections::{HashMap, HashSet};
use std::hash::BuildHasher;
use std::sync::Arc;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use super::{BoardStyle, ChallengeId, Drawn, GameId, Host, HostError, OfferKind, ReminderKind, UserId};
use crate::store::{self, outbox::OutboxRow};

pub use crate::store::outbox::GivenUp;

/// One thing a front end must show.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Show {
    /// The game's board message as the game stands when it is delivered (so boards coalesce:
    /// one delivery covers every board item before it); `ply` is the ply that asked for it.
    Board { game: GameId, ply: usize },
    /// A new board message for the game, drawn in `by`'s style, posted at the bottom of its
    /// channel (`/tafl board`); it becomes the game's board and the old one loses its controls.
    NewBoard { game: GameId, by: UserId },
    /// A thread under the board for the game's messages (servers with threads on).
    Thread { game: GameId },
    /// Tell the player to move at `ply` that it is their move; nothing once the game moved on.
    /// `after_takeback`: the turn came back by a takeback, not by a move (items stored before
    /// the field existed read as `false`). `again`: it repeats a notice Discord refused for good
    /// ([`Host::retell_refused`]), in the game's channel only: the refused one's DM, for a
    /// player who asked for DMs, went out despite the refusal.
    YourMove {
        game: GameId,
        ply: usize,
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        after_takeback: bool,
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        again: bool,
    },
    /// The summary of a finished game.
    Summary { game: GameId },
    /// The game's review is done: its summary message is edited to show the turning point and
    /// the evaluation chart.
    Review { game: GameId },
    /// A draw offer or takeback request made or answered by `by`, told to `notify`. `made` is
    /// the offer's row when this item announces it (`None` for an answer, and for items
    /// recorded before it was kept): a notice delivered late asks for an answer only while
    /// that offer, not a newer one, is open.
    Offer {
        game: GameId,
        offer: OfferKind,
        event: OfferEvent,
        by: UserId,
        notify: Vec<UserId>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        made: Option<i64>,
    },
    /// A reminder to the player to move at `ply`, whose time runs out at `deadline_at`, in the
    /// turn that began at `turn` (`None` for items recorded before it was kept): a takeback and
    /// a new move bring the game back to the same ply in a new turn, with all its time.
    Reminder {
        game: GameId,
        reminder: ReminderKind,
        ply: usize,
        deadline_at: i64,
        dm: bool,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        turn: Option<i64>,
    },
    /// Tell the person waiting for a move at `ply` that the player to move has left the untimed
    /// game long enough for them to claim it; nothing once the game moved on.
    Claimable {
        game: GameId,
        ply: usize,
        dm: bool,
        /// When the turn began (`None` for items recorded before it was kept), as for a reminder.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        turn: Option<i64>,
    },
    /// An older board message, replaced by a newer one: its controls go.
    RetireBoard { game: GameId, channel: i64, message: i64 },
    /// A message to remove: the previous "your move" notice of a game.
    Delete { game: GameId, channel: i64, message: i64 },
    /// A challenge card that can no longer be answered (declined, withdrawn, expired), closed
    /// as `by` closed it.
    ChallengeClosed { challenge: ChallengeId, by: UserId },
    /// A person's daily digest by DM: the games where it is their move when it is delivered
    /// (nothing when there are none any more).
    Digest { user: UserId },
    /// Tell the game's players who asked for DMs that its channel was deleted, and how it goes
    /// on (`/tafl board` in another channel): nothing once it was moved or is over.
    ChannelGone { game: GameId },
    /// Tell a person by DM that their games in `guild`, paused since the bot was removed from
    /// it, may now be ended without a result: those still paused and endable when it is
    /// delivered (nothing when there are none any more).
    PausedGames { user: UserId, guild: i64 },
}

/// What an item is about (see [`Show::lane`]).
#[derive(Clone, Copy)]
enum Subject {
    Game(GameId),
    Challenge(ChallengeId),
    Person(UserId),
}

/// What happened to an offer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OfferEvent {
    Offered,
    Accepted { plies_taken_back: usize },
    Declined { withdrawn: bool },
}

impl Show {
    /// What the item is about: a game, a challenge, or a person (their digest, their paused
    /// games).
    const fn subject(&self) -> Subject {
        match self {
            Show::Board { game, .. }
            | Show::NewBoard { game, .. }
            | Show::Thread { game }
            | Show::YourMove { game, .. }
            | Show::Summary { game }
            | Show::Review { game }
            | Show::Offer { game, .. }
            | Show::Reminder { game, .. }
            | Show::Claimable { game, .. }
            | Show::RetireBoard { game, .. }
            | Show::Delete { game, .. }
            | Show::ChannelGone { game } => Subject::Game(*game),
            Show::ChallengeClosed { challenge, .. } => Subject::Challenge(*challenge),
            Show::Digest { user } | Show::PausedGames { user, .. } => Subject::Person(*user),
        }
    }

    /// The game the item is about, if it is about one.
    #[must_use]
    pub const fn game(&self) -> Option<GameId> {
        match self.subject() {
            Subject::Game(game) => Some(game),
            Subject::Challenge(_) | Subject::Person(_) => None,
        }
    }

    /// The lane whose items are applied in order, one at a time: one per subject.
    #[must_use]
    pub fn lane(&self) -> String {
        match self.subject() {
            Subject::Game(game) => game_lane(game),
            Subject::Challenge(challenge) => format!("challenge:{challenge}"),
            Subject::Person(user) => format!("user:{user}"),
        }
    }

    /// Whose server the item is shown in: its game's or challenge's, or nobody's (a DM).
    const fn server(&self) -> store::outbox::ServerOf {
        match self.subject() {
            Subject::Game(game) => store::outbox::ServerOf::Game(game),
            Subject::Challenge(challenge) => store::outbox::ServerOf::Challenge(challenge),
            Subject::Person(_) => store::outbox::ServerOf::Nobody,
        }
    }

    /// The kind's name, as stored beside the item.
    #[must_use]
    pub const fn kind(&self) -> &'static str {
        match self {
            Show::Board { .. } => BOARD_ITEM,
            Show::NewBoard { .. } => NEW_BOARD_ITEM,
            Show::Thread { .. } => "thread",
            Show::YourMove { .. } => "your_move",
            Show::Summary { .. } => "summary",
            Show::Review { .. } => "review",
            Show::Offer { .. } => "offer",
            Show::Reminder { .. } => "reminder",
            Show::Claimable { .. } => "claimable",
            Show::RetireBoard { .. } => "retire_board",
            Show::Delete { .. } => "delete",
            Show::ChallengeClosed { .. } => "challenge_closed",
            Show::ChannelGone { .. } => "channel_gone",
            Show::Digest { .. } => "digest",
            Show::PausedGames { .. } => "paused_games",
        }
    }
}

pub(super) const BOARD_ITEM: &str = "board";
const NEW_BOARD_ITEM: &str = "new_board";

/// The lane of a game's items.
#[must_use]
pub fn game_lane(game: GameId) -> String {
    format!("game:{game}")
}

/// An item waiting to be applied.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pending {
    pub id: i64,
    pub lane: String,
    pub show: Show,
    /// Failed tries so far.
    pub attempts: u32,
    /// A create of it may have reached Discord (see [`Host::trying`]).
    pub tried: bool,
    /// What the messages of its tries said, as the front end keeps it (see [`Host::trying`]);
    /// `None` before any try, and for items tried before this was kept.
    pub tried_said: Option<String>,
    /// Unix milliseconds of its first try, when known: no message of it is older.
    pub tried_at_ms: Option<i64>,
    /// Unix milliseconds before which it must not be tried (backoff).
    pub not_before_ms: i64,
    created_at: i64,
}

impl Pending {
    /// The nonce of the `part`-th message this item creates: the same on every try of the item
    /// (so Discord answers a repeat with the message it already made) and at most 25
    /// characters, as Discord allows. The creation time keeps two databases' items apart.
    #[must_use]
    pub fn nonce(&self, part: char) -> String {
        let nonce = format!("{part}{}.{}", self.id, self.created_at);
        nonce.chars().take(25).collect()
    }

    /// When the item was recorded, in unix seconds: no message of it can be older.
    #[must_use]
    pub fn created_at(&self) -> i64 {
        self.created_at
    }
}

/// Records `show` in the transaction `conn`, to be delivered after it commits.
pub(super) async fn record(conn: &mut super::Conn, show: &Show, now: i64) -> Result<(), HostError> {
    let item = serde_json::to_string(show).map_err(|error| {
        tracing::error!(%error, "an outbox item cannot be written as JSON");
        HostError::Internal
    })?;
    store::outbox::insert(conn, &show.lane(), show.kind(), &item, show.server(), now).await?;
    Ok(())
}

/// How many lanes one look at the outbox returns.
const HEADS: i64 = 500;
/// How long after its end a game's board and summary are still checked for having been refused
/// (seconds): a day, far longer than [`GIVEN_UP_REST_SECS`], so that a final board or a summary
/// Discord refused (its thread locked, the bot's access taken away for a while) is tried again
/// after its rest, a few times, instead of the game showing as going on, with its controls, and
/// without its summary, for ever.
pub const RECENTLY_FINISHED_SECS: i64 = 86_400;
/// How long a game whose board, "your move" notice or summary was given up (Discord refused it
/// for good: the channel deleted, access taken away) is left out of the sweep that tries it
/// again (seconds). Without the rest the sweep asked Discord again at every tick, and every
/// refusal counts toward Discord's limit of invalid requests.
pub const GIVEN_UP_REST_SECS: i64 = 3_600;
/// How long a refusal counts as the one before it when the same item of a game is refused again
/// for the same reason (seconds): the hourly tries of the sweep while the bot may not post are
/// logged as repeats, not as new warnings.
pub const REPEATED_REFUSAL_SECS: i64 = 86_400;

/// How long after a board was posted anew (`/tafl board`) another request is answered with that
/// board instead of posting one more (seconds): a double tap, or a player who did not see it
/// arrive. Long enough for those, short enough that a player whose board has scrolled away since
/// gets a new one.
pub const NEW_BOARD_REPEAT_SECS: i64 = 60;

/// What became of a request for a new board ([`Host::request_board`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BoardRequest {
    /// A new board is to be posted.
    Asked,
    /// The same player's new board asked for earlier is still to be posted: this request joins
    /// it.
    AlreadyAsked,
    /// The same player's board was posted anew moments ago, and is still the game's board:
    /// `message` in `channel`.
    JustPosted { channel: i64, message: i64 },
    /// The game's channel was deleted: the game moved to where the board was asked for, and a
    /// new board is to be posted there.
    Moved,
}

/// How long a delivered item is kept (a week), for an operator looking into what a game showed.
/// Nothing in the bot reads a delivered item but a summary's, and summaries are kept.
pub const DELIVERED_KEPT_SECS: i64 = 7 * 86_400;

/// How many old rows (delivered items, interactions taken on) one transaction deletes: a few
/// milliseconds of a write lock.
pub(super) const PRUNE_BATCH: i64 = 500;

/// How long a process's claim on an outbox lane lasts unless renewed. The holder renews it every
/// third of this while it delivers, so a claim only runs out when its process died or could not
/// reach the database for that long; then another process takes the lane over, and the lane's
/// players see its items late by at most this (plus the delivery's idle look, 5 s). Long enough
/// that a delivery held up by Discord's rate limits or a slow database keeps its lane (the
/// holder renews in the background meanwhile), short enough that a dead process's boards catch
/// up within half a minute.
pub const OUTBOX_LEASE: Duration = Duration::from_secs(30);

/// How long an item of another shard's server waits for its own process, from each moment it
/// comes due (recorded, or its retry's time) and from each time its lane is given back, before
/// any process delivers it (see [`Host::with_shards`]): three of the delivery's idle looks
/// (5 s), so that a process that is up always takes its own first, also after giving the lane
/// back to wait out a retry or while a click holds the board.
pub const FOREIGN_GRACE: Duration = Duration::from_secs(15);

/// The claimant id of every process on a `SQLite` file (see the module docs).
const SQLITE_PROCESS: &str = "sqlite";

/// A process id for outbox claims, made at start-up: on `PostgreSQL` unique to this process
/// (its pid and 64 random bits, from the standard library's per-process random hash keys);
/// on `SQLite` the one id of the file's process.
pub(super) fn process_id(backend: store::Backend) -> Arc<str> {
    match backend {
        store::Backend::Sqlite => Arc::from(SQLITE_PROCESS),
        store::Backend::Postgres => {
            let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos());
            let random = std::hash::RandomState::new().hash_one(nanos);
            Arc::from(format!("pid{}-{random:016x}", std::process::id()))
        }
    }
}

/// The lanes this process keeps (see [`Host::keep_lane`]) and their last renewal.
#[derive(Debug, Default)]
pub(super) struct Kept {
    /// Each kept lane with how many keepers it has (one, unless a keeper outlived its lease).
    lanes: std::sync::Mutex<HashMap<String, usize>>,
    /// One renewal at a time; the keepers that waited for it use its outcome.
    last: tokio::sync::Mutex<Option<Arc<Renewal>>>,
}

impl Kept {
    fn lanes(&self) -> std::sync::MutexGuard<'_, HashMap<String, usize>> {
        self.lanes.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

/// One renewal of the kept lanes: when it was issued (unix ms, the start of the new leases) and
/// the lanes that were still this process's.
#[derive(Debug)]
struct Renewal {
    at_ms: i64,
    lanes: HashSet<String>,
}

/// A lane registered as kept while its keeper runs.
struct KeptLane<'a> {
    kept: &'a Kept,
    lane: String,
}

impl<'a> KeptLane<'a> {
    fn new(kept: &'a Kept, lane: &str) -> KeptLane<'a> {
        *kept.lanes().entry(lane.to_owned()).or_default() += 1;
        KeptLane { kept, lane: lane.to_owned() }
    }
}

impl Drop for KeptLane<'_> {
    fn drop(&mut self) {
        let mut lanes = self.kept.lanes();
        if let Some(count) = lanes.get_mut(&self.lane) {
            *count -= 1;
            if *count == 0 {
                lanes.remove(&self.lane);
            }
        }
    }
}

/// The current time in unix milliseconds (leases are wall-clock times, shared by processes).
fn now_ms() -> i64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_millis() as i64)
}

impl Host {
    /// This process's id in the claims on outbox lanes (see the module docs).
    #[must_use]
    pub fn process_id(&self) -> &str {
        &self.process
    }

    /// A host with process id `id` (tests: several "processes" in one, or hosts on one `SQLite`
    /// file that must not share their claims).
    #[must_use]
    pub fn with_process_id(mut self, id: &str) -> Host {
        self.process = Arc::from(id);
        self
    }

    /// A host whose claims on outbox lanes last `lease` unless renewed (tests, to see a lane
    /// taken over without waiting [`OUTBOX_LEASE`]).
    #[must_use]
    pub fn with_outbox_lease(mut self, lease: Duration) -> Host {
        self.outbox_lease = lease;
        self
    }

    /// A host that delivers the items of the servers on Discord shards `first..=last` of
    /// `count` (and of no server), and another shard's item only once [`FOREIGN_GRACE`] has
    /// passed both since it came due (when it was recorded, or its retry's time) and since its
    /// lane was last given back, with nobody taking it: one rule, the lane left alone for the
    /// grace (its shard's process may be down). A live process gives its lane back while it
    /// waits out a retry or while a click holds the board, and the head it leaves may have
    /// waited behind slow items for longer than the grace. So that the process answering a server's clicks
    /// is also the one drawing its boards, which keeps one writer of a board message at a time
    /// (see `discord::delivery`). Its bot player likewise searches the bot's turns in those
    /// servers' games, and another's once [`super::bot::FOREIGN_TURN_GRACE`] has passed, and
    /// its review loop reviews those games (another's after
    /// [`super::review::FOREIGN_REVIEW_GRACE`]), each such turn or review claimed by the one
    /// process that takes it over ([`Host::take_bot_turn`], [`Host::review_game`]), so that
    /// processes do not all do the same searches. Its scheduler handles those servers' due
    /// games only, and gives the grace after downtime per shard (see [`super::scheduler`]).
    #[must_use]
    pub fn with_shards(mut self, first: u32, last: u32, count: u32) -> Host {
        self.shards = Some(store::outbox::ServedShards { first, last, count });
        self
    }

    /// The shard condition of a look at the outbox at `now_ms` (see [`Host::with_shards`]): the
    /// moment, in unix milliseconds, by which another shard's item must have come due.
    fn served(&self, now_ms: i64) -> Option<(store::outbox::ServedShards, i64)> {
        let grace = i64::try_from(FOREIGN_GRACE.as_millis()).unwrap_or(i64::MAX);
        self.shards.map(|shards| (shards, now_ms.saturating_sub(grace)))
    }

    fn lease_until(&self, now_ms: i64) -> i64 {
        now_ms.saturating_add(i64::try_from(self.outbox_lease.as_millis()).unwrap_or(i64::MAX))
    }

    /// Claims for this process up to `limit` lanes whose first item is due at `now_ms` and that no
    /// other process holds (or whose holder's lease has run out), and returns those first items.
    /// The caller delivers each lane, keeps its claim ([`Host::keep_lane`]) and releases it
    /// ([`Host::release_lane`]). Items that cannot be read are given up here, with a log line.
    pub async fn claim_lanes(&self, now_ms: i64, limit: i64) -> Result<Vec<Pending>, HostError> {
        // A read first: most looks find nothing to take, and on `SQLite` a write transaction
        // would take the file's one write lock for nothing.
        let any = {
            let mut tx = self.db.begin_read().await?;
            !store::outbox::claimable(&mut tx, now_ms, 1, self.served(now_ms), false).await?.is_empty()
        };
        if !any {
            return Ok(Vec::new());
        }
        let rows = transaction!(self.db.begin_write(), |tx| {
            let mut claimed = Vec::new();
            for row in store::outbox::claimable(&mut tx, now_ms, limit, self.served(now_ms), true).await? {
                if store::outbox::claim(&mut tx, &row.lane, &self.process, self.lease_until(now_ms), now_ms).await? {
                    claimed.push(row);
                }
            }
            Ok(claimed)
        })?;
        let mut heads = Vec::with_capacity(rows.len());
        for row in rows {
            if let Some(pending) = parse(&row) {
                heads.push(pending);
                continue;
            }
            self.give_up_unreadable(row.id, now_ms / 1000).await?;
            match self.outbox_head(&row.lane, now_ms / 1000).await? {
                Some(next) if next.not_before_ms <= now_ms => heads.push(next),
                _ => self.release_lane(&row.lane, now_ms).await?,
            }
        }
        Ok(heads)
    }

    /// Extends this process's claim on `lane` by a lease from `now_ms`; false when another process
    /// has taken the lane over (this one's lease had run out).
    pub async fn renew_lane(&self, lane: &str, now_ms: i64) -> Result<bool, HostError> {
        transaction!(self.db.begin_lease(), |tx| {
            let renewed = store::outbox::renew(&mut tx, lane, &self.process, self.lease_until(now_ms)).await?;
            Ok(renewed)
        })
    }

    /// Renews this process's claim on `lane`, taken at `claimed_at_ms` (the time given to
    /// [`Host::claim_lanes`]), every third of the lease, for as long as it is polled; returns only
    /// when the claim is lost: another process took the lane over, or no renewal got through in
    /// time. Run it beside the lane's delivery and stop delivering when it returns.
    ///
    /// The lanes kept at once are renewed together, by one statement each third of the lease
    /// (on `PostgreSQL` on a connection of its own): one renewal per lane would queue up behind
    /// one another when a process delivers many lanes. "In time" is a sixth of the lease before
    /// the lease ends: a renewal stuck that long (the database unreachable, a lock held by
    /// another transaction) is abandoned, and after a renewal that failed at once (an error) the
    /// next try comes a third of the lease later or at that moment, whichever is first, so that
    /// either way the delivery stops when it comes, while the lane is still this process's. Two
    /// processes never deliver one lane at once, as long as their clocks differ by less than
    /// that margin.
    pub async fn keep_lane(&self, lane: &str, claimed_at_ms: i64) {
        let _kept = KeptLane::new(&self.kept, lane);
        let margin = i64::try_from((self.outbox_lease / 6).as_millis()).unwrap_or(i64::MAX);
        let third = i64::try_from((self.outbox_lease / 3).as_millis()).unwrap_or(i64::MAX);
        let until = |at: i64| Duration::from_millis(u64::try_from(at.saturating_sub(now_ms())).unwrap_or(0));
        // The moment the delivery must stop by unless a renewal got through.
        let mut stop_at = self.lease_until(claimed_at_ms).saturating_sub(margin);
        loop {
            tokio::time::sleep(until(now_ms().saturating_add(third).min(stop_at))).await;
            let asked = now_ms();
            if asked >= stop_at {
                tracing::warn!(%lane, "the lane's lease could not be renewed in time; its delivery stops here");
                return;
            }
            match tokio::time::timeout(until(stop_at), self.renew_kept(asked)).await {
                Ok(Ok(renewal)) if renewal.lanes.contains(lane) => {
                    stop_at = self.lease_until(renewal.at_ms).saturating_sub(margin);
                }
                Ok(Ok(_)) => {
                    tracing::warn!(%lane, "another process took this lane over; its delivery stops here");
                    return;
                }
                // Tried again at the next renewal's time, or stopped at `stop_at` if that is sooner.
                Ok(Err(error)) => tracing::warn!(%lane, %error, "the lane's lease cannot be renewed; trying again"),
                Err(_) => {
                    tracing::warn!(%lane, "the lane's lease could not be renewed in time; its delivery stops here");
                    return;
                }
            }
        }
    }

    /// A renewal of every kept lane issued at `asked` or later: the last one when it was (a
    /// keeper that waited for another's renewal uses its outcome), else a new one.
    async fn renew_kept(&self, asked: i64) -> Result<Arc<Renewal>, HostError> {
        let mut last = self.kept.last.lock().await;
        if let Some(renewal) = last.as_ref()
            && renewal.at_ms >= asked
        {
            return Ok(renewal.clone());
        }
        let lanes: Vec<String> = self.kept.lanes().keys().cloned().collect();
        let now = now_ms();
        let renewed = transaction!(self.db.begin_lease(), |tx| {
            let renewed = store::outbox::renew_many(&mut tx, &lanes, &self.process, self.lease_until(now)).await?;
            Ok(renewed)
        })?;
        let renewal = Arc::new(Renewal { at_ms: now, lanes: renewed.into_iter().collect() });
        *last = Some(renewal.clone());
        Ok(renewal)
    }

    /// Ends this process's claim on `lane` at `now_ms`, so that any process may deliver what
    /// comes next: a process of the lane's own shards at once, another once [`FOREIGN_GRACE`]
    /// has passed since (see [`Host::with_shards`]).
    pub async fn release_lane(&self, lane: &str, now_ms: i64) -> Result<(), HostError> {
        transaction!(self.db.begin_write(), |tx| {
            store::outbox::release(&mut tx, lane, &self.process, now_ms).await?;
            Ok(())
        })
    }

    /// Ends every claim this process's id holds at `now_ms`, as [`Host::release_lane`] does: at
    /// start-up, for the claims a previous process with the same id left (on `SQLite` every
    /// process has the same id, see the module docs), and when the process stops.
    pub async fn release_all_lanes(&self, now_ms: i64) -> Result<u64, HostError> {
        transaction!(self.db.begin_write(), |tx| {
            let released = store::outbox::release_all(&mut tx, &self.process, now_ms).await?;
            Ok(released)
        })
    }

    /// When the earliest item waiting for a retry comes due, after `now_ms` (unix milliseconds).
    pub async fn next_retry_ms(&self, now_ms: i64) -> Result<Option<i64>, HostError> {
        let mut tx = self.db.begin_read().await?;
        Ok(store::outbox::next_retry(&mut tx, now_ms).await?)
    }

    /// Every claim on an outbox lane: `(lane, process id, lease until in unix ms)`.
    pub async fn outbox_claims(&self) -> Result<Vec<(String, String, i64)>, HostError> {
        let mut tx = self.db.begin_read().await?;
        Ok(store::outbox::claims(&mut tx).await?)
    }

    /// The first pending item of every lane (due or not). Items that cannot be read (written by
    /// a newer bot, or damaged) are given up here, with a log line.
    pub async fn outbox_heads(&self, now: i64) -> Result<Vec<Pending>, HostError> {
        let rows = {
            let mut tx = self.db.begin_read().await?;
            store::outbox::heads(&mut tx, HEADS).await?
        };
        let mut heads = Vec::with_capacity(rows.len());
        for row in rows {
            match parse(&row) {
                Some(pending) => heads.push(pending),
                None => self.give_up_unreadable(row.id, now).await?,
            }
        }
        Ok(heads)
    }

    /// The first pending item of `lane`.
    pub async fn outbox_head(&self, lane: &str, now: i64) -> Result<Option<Pending>, HostError> {
        loop {
            let row = {
                let mut tx = self.db.begin_read().await?;
                store::outbox::head(&mut tx, lane).await?
            };
            let Some(row) = row else { return Ok(None) };
            match parse(&row) {
                Some(pending) => return Ok(Some(pending)),
                None => self.give_up_unreadable(row.id, now).await?,
            }
        }
    }

    /// Marks an item applied, with the message it created.
    pub async fn delivered(&self, id: i64, message: Option<i64>, now: i64) -> Result<(), HostError> {
        transaction!(self.db.begin_write(), |tx| {
            store::outbox::done(&mut tx, id, message, now).await?;
            Ok(())
        })
    }

    /// Records that a message of item `id` is about to be created, with `said`, what the front
    /// end keeps of its tries' words: should the process die before the item is done, the next
    /// one knows that a message may exist, and what it may say, to find it by when the item no
    /// longer applies (Discord forgets the nonce within minutes). Written at the first try, and
    /// again only when `said` changes.
    pub async fn trying(&self, item: &Pending, said: Option<&str>, now_ms: i64) -> Result<(), HostError> {
        if item.tried && item.tried_said.as_deref() == said {
            return Ok(());
        }
        transaction!(self.db.begin_write(), |tx| {
            store::outbox::tried(&mut tx, item.id, said, now_ms).await?;
            Ok(())
        })
    }

    /// Whether `message` is another item's than `item`'s: found by its words, a message may be
    /// an earlier item's that said the same.
    pub async fn message_of_another(&self, item: &Pending, message: i64) -> Result<bool, HostError> {
        let mut tx = self.db.begin_read().await?;
        Ok(store::outbox::message_of_another(&mut tx, item.id, message).await?)
    }

    /// Counts a failed try of an item, to be tried again from `not_before_ms`; returns the
    /// tries so far, 0 for an item no longer pending (delivered or given up meanwhile by a
    /// process that took its lane over), which stays as it is.
    pub async fn delivery_failed(&self, id: i64, error: &str, not_before_ms: i64) -> Result<u32, HostError> {
        transaction!(self.db.begin_write(), |tx| {
            let attempts = store::outbox::failed(&mut tx, id, error, not_before_ms).await?;
            Ok(attempts.map_or(0, |n| u32::try_from(n).unwrap_or(u32::MAX)))
        })
    }

    /// Gives an item up: it stays in the outbox, marked `given_up` with its last error, and the
    /// lane goes on with its next item. Returns what the caller's log line says of it (its
    /// server, and whether it repeats a refusal of the last [`REPEATED_REFUSAL_SECS`]); `None`
    /// for an item no longer pending, which stays as it is.
    pub async fn give_up(&self, id: i64, error: &str, now: i64) -> Result<Option<GivenUp>, HostError> {
        transaction!(self.db.begin_write(), |tx| {
            let since = now - REPEATED_REFUSAL_SECS;
            let given_up = store::outbox::give_up(&mut tx, id, error, now, since).await?;
            Ok(given_up)
        })
    }

    /// Gives up an item that cannot be read (written by a newer bot, or damaged; `parse` logged
    /// why).
    async fn give_up_unreadable(&self, id: i64, now: i64) -> Result<(), HostError> {
        if let Some(given_up) = self.give_up(id, "the item cannot be read", now).await? {
            tracing::warn!(item = id, guild = given_up.guild, "an outbox item that cannot be read was given up");
        }
        Ok(())
    }

    /// The newest pending board item of a game. Read before the game is drawn, it names every
    /// board item that drawing covers (see [`Host::board_shown`]).
    pub async fn pending_board(&self, game: GameId) -> Result<Option<i64>, HostError> {
        let mut tx = self.db.begin_read().await?;
        Ok(store::outbox::latest(&mut tx, &game_lane(game), BOARD_ITEM).await?)
    }

    /// The board message `message` of a game now shows `shown`, drawn after the board items up
    /// to `covers` were recorded: those are done. When the game has moved on meanwhile (a race
    /// between two answers, or an ending), a new board item is recorded, so that the board
    /// catches up.
    pub async fn board_shown(
        &self,
        game: GameId,
        message: i64,
        shown: Drawn,
        covers: Option<i64>,
        now: i64,
    ) -> Result<(), HostError> {
        transaction!(self.db.begin_write(), |tx| {
            // See `finish_board`: the game first, as every writer of its board items takes it.
            store::games::lock(&mut tx, game).await?;
            if !store::messages::set_shown(&mut tx, game, message, shown.ply as i64, shown.over, now).await? {
                // Not the game's board (any more): its items are still to be applied to the board.
                return Ok(());
            }
            finish_board(&mut tx, game, Some(shown), covers, now).await?;
            Ok(())
        })
    }

    /// Makes a newly posted message, showing `shown` (`None` when unknown), the game's board; the old board, if there
    /// is another, loses its controls (an item of its own: whichever of two racing posts is
    /// recorded last stays the board, and the other is retired), and the board items up to
    /// `covers` are done.
    #[allow(clippy::too_many_arguments)]
    pub async fn replace_board(
        &self,
        game: GameId,
        channel: i64,
        message: i64,
        shown: Option<Drawn>,
        covers: Option<i64>,
        style: BoardStyle,
        now: i64,
    ) -> Result<(), HostError> {
        transaction!(self.db.begin_write(), |tx| {
            store::games::lock(&mut tx, game).await?;
            let old = store::messages::board(&mut tx, game).await?;
            let (ply, over) = shown.map_or((None, false), |s| (Some(s.ply as i64), s.over));
            store::messages::set_board(&mut tx, game, channel, message, ply, over, style.names(), now).await?;
            if let Some(old) = old.filter(|old| old.message_id != message) {
                record(&mut tx, &Show::RetireBoard { game, channel: old.channel_id, message: old.message_id }, now)
                    .await?;
            }
            finish_board(&mut tx, game, shown, covers, now).await?;
            Ok(())
        })
    }

    /// Item `id` posted `message` in `channel`: a "your move" notice, which becomes the game's
    /// notice (`notice` is `Some(message)`), or the summary of a finished game, after which the
    /// game has none (`None`). The notice it replaces is to be deleted, so that a channel holds
    /// one notice per game, and none once the game is over.
    pub async fn notice_posted(
        &self,
        id: i64,
        game: GameId,
        channel: i64,
        message: i64,
        notice: Option<i64>,
        now: i64,
    ) -> Result<(), HostError> {
        transaction!(self.db.begin_write(), |tx| {
            store::outbox::done(&mut tx, id, Some(message), now).await?;
            if let Some(previous) = store::messages::replace_notice(&mut tx, game, notice, now).await?
                && previous != message
            {
                record(&mut tx, &Show::Delete { game, channel, message: previous }, now).await?;
            }
            Ok(())
        })
    }

    /// Item `id` made `message`, which is no longer true (a notice for a ply the game has left,
    /// found when a lost answer was retried): the item is done and the message is to be deleted.
    pub async fn retract(&self, id: i64, game: GameId, channel: i64, message: i64, now: i64) -> Result<(), HostError> {
        transaction!(self.db.begin_write(), |tx| {
            store::outbox::done(&mut tx, id, Some(message), now).await?;
            record(&mut tx, &Show::Delete { game, channel, message }, now).await?;
            Ok(())
        })
    }

    /// Records a board item for every ongoing game, or one finished in the last day
    /// ([`RECENTLY_FINISHED_SECS`]), whose board is behind it (another ply, or the game going on
    /// after it ended) and has none pending (left behind by a crash, a race or a refusal);
    /// returns how many. A game whose board Discord refused for good in the last
    /// [`GIVEN_UP_REST_SECS`] is left alone meanwhile.
    pub async fn redraw_stale_boards(&self, now: i64) -> Result<usize, HostError> {
        let stale = transaction!(self.db.begin_write(), |tx| {
            let (finished_since, given_up_since) = (now - RECENTLY_FINISHED_SECS, now - GIVEN_UP_REST_SECS);
            let stale = store::outbox::stale_boards(&mut tx, finished_since, given_up_since, HEADS).await?;
            // In the games' order (the query's), so that two processes sweeping at once never
            // wait for each other's locks in a cycle; see `finish_board` for why they are taken.
            for &(game, ply) in &stale {
                store::games::lock(&mut tx, game).await?;
                record(&mut tx, &Show::Board { game, ply: usize::try_from(ply).unwrap_or(0) }, now).await?;
            }
            Ok(stale.len())
        })?;
        if stale > 0 {
            tracing::info!(boards = stale, "boards behind their games are redrawn");
        }
        Ok(stale)
    }

    /// Records again what Discord refused for good and nothing has shown since, once the
    /// refusal has rested [`GIVEN_UP_REST_SECS`] (the bot's Send Messages taken away for a while,
    /// say); returns how many items. Boards have [`Host::redraw_stale_boards`]; this is for:
    /// - the "your move" notice of a game going on, when its newest notice, the current turn's,
    ///   was given up: the player to move was never told. Recorded once more ([`Show::YourMove`]
    ///   `again`); once it is delivered, it is the newest notice, and nothing is recorded again.
    /// - the summary of a game finished in the last day ([`RECENTLY_FINISHED_SECS`]) that was
    ///   given up and never shown nor pending since, as a server that takes the bot back gets
    ///   its games' ([`Host::server_back`]).
    ///
    /// A refused item again is given up again, and tried after another rest. Not the games of a
    /// server the bot left (its return shows them), nor those whose channel was deleted.
    pub async fn retell_refused(&self, now: i64) -> Result<usize, HostError> {
        let recorded = transaction!(self.db.begin_write(), |tx| {
            let rested = now - GIVEN_UP_REST_SECS;
            let notices = store::outbox::refused_notices(&mut tx, rested, HEADS).await?;
            let finished_since = now - RECENTLY_FINISHED_SECS;
            let summaries = store::outbox::refused_summaries(&mut tx, finished_since, rested, HEADS).await?;
            let mut refused: Vec<(GameId, Refused)> = notices.into_iter().map(|game| (game, Refused::Notice)).collect();
            refused.extend(summaries.into_iter().map(|game| (game, Refused::Summary)));
            // In the games' order, as `redraw_stale_boards` takes them. Each game is held, and
            // looked at again, before its item is recorded: another process sweeping at once may
            // have recorded it since the look above, and a notice recorded twice is posted twice.
            refused.sort_unstable_by_key(|(game, _)| *game);
            let mut recorded = 0;
            for (game, what) in refused {
                store::games::lock(&mut tx, game).await?;
                let again = match what {
                    Refused::Notice => notice_again(&mut tx, game, rested).await?,
                    Refused::Summary => summary_again(&mut tx, game).await?,
                };
                if let Some(show) = again {
                    record(&mut tx, &show, now).await?;
                    recorded += 1;
                }
            }
            Ok(recorded)
        })?;
        if recorded > 0 {
            tracing::info!(items = recorded, "notices and summaries Discord refused are to be posted again");
        }
        Ok(recorded)
    }

    /// Deletes the delivered items older than [`DELIVERED_KEPT_SECS`] (summaries excepted, see
    /// [`store::outbox::prune_done`]), in batches of [`PRUNE_BATCH`], each its own short write
    /// transaction so that moves are not kept waiting; returns how many went. Pending and
    /// given-up items stay. Also deletes the claims given back more than [`FOREIGN_GRACE`] ago
    /// ([`store::outbox::prune_released`]), which no longer hold anything up.
    pub async fn prune_outbox(&self, now: i64) -> Result<u64, HostError> {
        let grace = i64::try_from(FOREIGN_GRACE.as_millis()).unwrap_or(i64::MAX);
        transaction!(self.db.begin_write(), |tx| {
            store::outbox::prune_released(&mut tx, now.saturating_mul(1000).saturating_sub(grace)).await?;
            Ok(())
        })?;
        let mut pruned = 0;
        loop {
            let batch = transaction!(self.db.begin_write(), |tx| {
                let batch = store::outbox::prune_done(&mut tx, now - DELIVERED_KEPT_SECS, PRUNE_BATCH).await?;
                Ok(batch)
            })?;
            pruned += batch;
            if batch < PRUNE_BATCH as u64 {
                break;
            }
        }
        if pruned > 0 {
            tracing::info!(items = pruned, "delivered outbox items older than a week deleted");
        }
        Ok(pruned)
    }

    /// Asks for a new board message of a game at the bottom of its channel, drawn in `by`'s
    /// style (see [`Show::NewBoard`]): only a player may, and only while the game goes on (a
    /// finished game's board has no controls to move down, and its summary is posted). A
    /// player's repeats post one board: a request while theirs is still to be posted joins it,
    /// and one within [`NEW_BOARD_REPEAT_SECS`] of their board posted anew, still the game's, is
    /// answered with that board. Without this a double tap or an impatient player posted a board
    /// per command, each leaving the one before it behind without its controls.
    pub async fn request_board(&self, game: GameId, by: UserId, now: i64) -> Result<BoardRequest, HostError> {
        self.request_board_at(game, by, None, now).await
    }

    /// [`Host::request_board`] asked for at `here` (`None`: outside any server, in a DM or the
    /// console). A game whose channel was deleted ([`Host::channel_deleted`]) has nowhere to post
    /// its board: it moves `here`, in the same transaction as the request, when `here` is in its
    /// server and games are allowed there (the server's allow-list, as for a challenge): its
    /// channel and thread become `here`'s (the bot's old thread is forgotten), and the new board
    /// is posted there ([`BoardRequest::Moved`]). Anywhere else it is refused. The player to move,
    /// when it is the other person, is told there too: the game they were waiting in is gone,
    /// and nobody else would tell them where it went. A game whose channel exists is not moved
    /// (its board goes where it is played), wherever it is asked for.
    pub async fn request_board_at(
        &self,
        game: GameId,
        by: UserId,
        here: Option<super::Place>,
        now: i64,
    ) -> Result<BoardRequest, HostError> {
        let request = transaction!(self.db.begin_write(), |tx| {
            // Locked, so that the game cannot end between this check and the request, and so
            // that two requests at once take turns: the second sees the first's item.
            store::games::lock(&mut tx, game).await?;
            let row = store::games::find(&mut tx, game).await?.ok_or(HostError::NoSuchGame(game))?;
            if row.attacker_id != by && row.defender_id != by {
                return Err(HostError::NotAPlayer(game));
            }
            if row.status != "ongoing" {
                return Err(HostError::GameOver { id: game });
            }
            // Only the same player's requests are repeats: the other player's board is drawn in
            // their own style, and is theirs to ask for.
            let lane = game_lane(game);
            let theirs = |item: &str| matches!(serde_json::from_str::<Show>(item), Ok(Show::NewBoard { by: asker, .. }) if asker == by);
            let pending = store::outbox::pending_of(&mut tx, &lane, NEW_BOARD_ITEM).await?;
            if row.channel_gone_at.is_some() {
                let here = here.filter(|here| here.guild == row.guild_id).ok_or(HostError::ChannelGone { id: game })?;
                let server: super::ServerSettings = super::settings::read(
                    &store::servers::settings(&mut tx, row.guild_id).await?,
                    "server",
                    row.guild_id,
                );
                if !server.allows(here.channel) {
                    return Err(HostError::ChannelNotAllowed);
                }
                store::games::move_to(&mut tx, game, here.channel, here.thread, now).await?;
                // A board of theirs asked for before the channel went is posted here now.
                if !pending.iter().any(|item| theirs(item)) {
                    record(&mut tx, &Show::NewBoard { game, by }, now).await?;
                }
                let to_move = super::side_player(&row, super::scheduler::to_move(&row));
                if to_move != by && !super::is_bot(to_move) {
                    let ply = usize::try_from(row.ply).unwrap_or(0);
                    record(&mut tx, &Show::YourMove { game, ply, after_takeback: false, again: false }, now).await?;
                }
                return Ok(BoardRequest::Moved);
            }
            if pending.iter().any(|item| theirs(item)) {
                return Ok(BoardRequest::AlreadyAsked);
            }
            let since = now - NEW_BOARD_REPEAT_SECS;
            let done = store::outbox::new_boards_done(&mut tx, &lane, since).await?;
            if let Some(posted) = done.iter().find(|(item, _)| theirs(item)).and_then(|(_, message)| *message)
                && let Some(board) = store::messages::board(&mut tx, game).await?
                && board.message_id == posted
            {
                return Ok(BoardRequest::JustPosted { channel: board.channel_id, message: board.message_id });
            }
            record(&mut tx, &Show::NewBoard { game, by }, now).await?;
            Ok(BoardRequest::Asked)
        })?;
        if let (BoardRequest::Moved, Some(here)) = (&request, here) {
            tracing::info!(game, channel = here.channel, "a game whose channel was deleted moved to another");
        }
        Ok(request)
    }

    /// Deletes every pending item, for a front end that shows each change as it happens and
    /// delivers nothing afterwards (the console, which owns its database file): without this,
    /// every move would leave rows that nothing ever reads.
    pub async fn discard_outbox(&self) -> Result<(), HostError> {
        transaction!(self.db.begin_write(), |tx| {
            store::outbox::discard_pending(&mut tx).await?;
            Ok(())
        })
    }

    /// How many outbox items are in each state (`done`, `given_up`, `pending`).
    pub async fn outbox_counts(&self) -> Result<Vec<(String, i64)>, HostError> {
        let mut tx = self.db.begin_read().await?;
        Ok(store::outbox::counts(&mut tx).await?)
    }
}

/// The board items up to `covers` are done; when the game is no longer as `shown` drew it (at
/// another ply, or over since: an ending without a move keeps the ply), or that is unknown, and
/// no board is pending, a new one is recorded.
///
/// The caller holds the game's row lock (`store::games::lock`), as every transaction that
/// records a board item of a game does (the game's operations take it first). `covers` is the
/// newest item a drawing saw, and on `PostgreSQL` ids come from a sequence when an item is
/// inserted, not when it is committed: two writers of one game not taking turns could commit a
/// newer id before an older one, and a drawing that saw the newer would cover the older, whose
/// change it never showed (an offer's buttons, say, at the same ply).
async fn finish_board(
    conn: &mut super::Conn,
    game: GameId,
    shown: Option<Drawn>,
    covers: Option<i64>,
    now: i64,
) -> Result<(), HostError> {
    let lane = game_lane(game);
    if let Some(covers) = covers {
        store::outbox::done_up_to(conn, &lane, BOARD_ITEM, covers, now).await?;
    }
    let current = store::games::find(conn, game).await?.map(|row| (row.ply, row.status != "ongoing"));
    if let Some((ply, over)) = current
        && shown.is_none_or(|shown| (shown.ply as i64, shown.over) != (ply, over))
        && store::outbox::latest(conn, &lane, BOARD_ITEM).await?.is_none()
    {
        record(conn, &Show::Board { game, ply: usize::try_from(ply).unwrap_or(0) }, now).await?;
    }
    Ok(())
}

/// What [`Host::retell_refused`] found refused in a game.
#[derive(Clone, Copy)]
enum Refused {
    Notice,
    Summary,
}

/// The notice to record again for a game whose newest notice was given up before `rested`, if
/// it still is: the game goes on where it can be posted, at the ply the notice was for (a move
/// since recorded the next player's), and nothing told the player since. A board the player to
/// move asked for since, and got, told them: they asked for it to play their move (a game whose
/// channel was deleted moves with it, and its asker gets no notice there). The caller holds the
/// game.
async fn notice_again(conn: &mut super::Conn, game: GameId, rested: i64) -> Result<Option<Show>, HostError> {
    let Some(row) = store::games::find(conn, game).await? else { return Ok(None) };
    if row.status != "ongoing" || row.channel_gone_at.is_some() {
        return Ok(None);
    }
    let lane = game_lane(game);
    let Some(newest) = store::outbox::newest_notice(conn, &lane).await? else { return Ok(None) };
    let Some(refused_at) = newest.finished_at.filter(|at| newest.state == "given_up" && *at < rested) else {
        return Ok(None);
    };
    let Ok(Show::YourMove { ply, after_takeback, .. }) = serde_json::from_str::<Show>(&newest.item) else {
        return Ok(None);
    };
    if i64::try_from(ply) != Ok(row.ply) {
        return Ok(None);
    }
    let to_move = super::side_player(&row, super::scheduler::to_move(&row));
    let asked = store::outbox::new_boards_done(conn, &lane, refused_at).await?;
    if asked
        .iter()
        .any(|(item, _)| matches!(serde_json::from_str(item), Ok(Show::NewBoard { by, .. }) if by == to_move))
    {
        return Ok(None);
    }
    Ok(Some(Show::YourMove { game, ply, after_takeback, again: true }))
}

/// The summary to record again for a game whose summary was given up, unless one was shown or
/// waits since. The caller holds the game.
async fn summary_again(conn: &mut super::Conn, game: GameId) -> Result<Option<Show>, HostError> {
    let summary = Show::Summary { game };
    Ok((!store::outbox::summary_shown_or_pending(conn, &summary.lane()).await?).then_some(summary))
}

fn parse(row: &OutboxRow) -> Option<Pending> {
    match serde_json::from_str::<Show>(&row.item) {
        Ok(show) => Some(Pending {
            id: row.id,
            lane: row.lane.clone(),
            show,
            attempts: u32::try_from(row.attempts).unwrap_or(u32::MAX),
            tried: row.tried,
            tried_said: row.tried_said.clone(),
            tried_at_ms: row.tried_at_ms,
            not_before_ms: row.not_before_ms,
            created_at: row.created_at,
        }),
        Err(error) => {
            tracing::warn!(item = row.id, %error, "an outbox item cannot be read");
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn items_round_trip_through_their_stored_form() {
        let items = [
            Show::Board { game: 3, ply: 7 },
            Show::YourMove { game: 3, ply: 7, after_takeback: false, again: false },
            Show::YourMove { game: 3, ply: 7, after_takeback: true, again: false },
            Show::YourMove { game: 3, ply: 7, after_takeback: false, again: true },
            Show::Offer {
                game: 3,
                offer: OfferKind::Takeback,
                event: OfferEvent::Accepted { plies_taken_back: 2 },
                by: 5,
                notify: vec![6],
                made: None,
            },
            Show::Offer {
                game: 3,
                offer: OfferKind::Draw,
                event: OfferEvent::Offered,
                by: 5,
                notify: vec![6],
                made: Some(12),
            },
            Show::Reminder {
                game: 3,
                reminder: ReminderKind::LastWarning,
                ply: 4,
                deadline_at: 99,
                dm: true,
                turn: None,
            },
            Show::Reminder {
                game: 3,
                reminder: ReminderKind::Halfway,
                ply: 4,
                deadline_at: 99,
                dm: false,
                turn: Some(50),
            },
            Show::Claimable { game: 3, ply: 4, dm: false, turn: None },
            Show::Claimable { game: 3, ply: 4, dm: true, turn: Some(50) },
            Show::ChallengeClosed { challenge: 9, by: 5 },
            Show::Digest { user: 5 },
            Show::PausedGames { user: 5, guild: 77 },
            Show::Review { game: 3 },
            Show::ChannelGone { game: 3 },
        ];
        for item in items {
            let json = serde_json::to_string(&item).unwrap();
            assert!(json.contains(&format!("\"kind\":\"{}\"", item.kind())), "{json}");
            assert_eq!(serde_json::from_str::<Show>(&json).unwrap(), item);
        }
        // An item stored before `after_takeback` existed reads as an ordinary notice.
        let old: Show = serde_json::from_str(r#"{"kind":"your_move","game":3,"ply":7}"#).unwrap();
        assert_eq!(old, Show::YourMove { game: 3, ply: 7, after_takeback: false, again: false });
        assert_eq!(Show::Summary { game: 12 }.lane(), "game:12");
        assert_eq!(Show::ChallengeClosed { challenge: 4, by: 1 }.lane(), "challenge:4");
        assert_eq!(Show::Digest { user: 5 }.lane(), "user:5");
        assert_eq!(Show::PausedGames { user: 5, guild: 77 }.lane(), "user:5");
        assert_eq!(Show::ChannelGone { game: 3 }.lane(), "game:3");
    }

    #[test]
    fn nonces_are_stable_and_fit_discord() {
        let pending = Pending {
            id: i64::MAX,
            lane: "game:1".to_owned(),
            show: Show::Summary { game: 1 },
            attempts: 0,
            tried: false,
            tried_said: None,
            tried_at_ms: None,
            not_before_ms: 0,
            created_at: 1_764_590_000,
        };
        assert!(pending.nonce('s').chars().count() <= 25);
        assert_eq!(pending.nonce('s'), pending.nonce('s'));
        assert_ne!(pending.nonce('s'), pending.nonce('d'));
    }
}
