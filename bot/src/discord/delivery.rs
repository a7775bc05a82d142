//! The delivery task: applies what the host recorded in its outbox ([`Show`]) to Discord, so
//! that what players see always catches up with the game, after a crash, a race or a Discord
//! error.
//!
//! - Lanes (one game, one challenge) are applied in order, one item at a time; different lanes
//!   go in parallel. A lane is claimed in the database before it is delivered, with a lease
//!   that its task renews, so that with several processes on one database each lane is
//!   delivered by one of them, and a dead process's lanes are taken over when their leases run
//!   out (see [`crate::host::outbox`]).
//! - A game's board message is written by one writer of this process at a time, the delivery or
//!   a click, each holding the game's pen from its snapshot of the game to the record of what it
//!   showed ([`Hold::take_pen`]). So writes land in the order of their snapshots: an edit drawn
//!   before a move cannot land after the click that answered with the move (showing the old
//!   position), nor after a click that opened a menu (closing it). A click waits for the pen
//!   (holding the lane meanwhile); the delivery never does, and leaves a board a click holds to
//!   that click. Across processes, a process serving shard ranges delivers the lanes of its own
//!   shards' servers, whose clicks it answers ([`crate::host::Host::with_shards`]); only an item
//!   its process left for 15 s (down, or stuck) goes to another, which may then race a click:
//!   board items coalesce, and a board shown behind its game gets a new item.
//! - Board items coalesce: a delivery draws the game as it stands and completes every board item
//!   recorded before it read the game.
//! - Every message created carries a nonce derived from its item with `enforce_nonce`, so a retry
//!   after a lost answer gets the message Discord already made instead of a second one; the
//!   message id is recorded with the item. Discord remembers a nonce for a few minutes only, so a
//!   try after one that may have made the message first looks for it among the channel's
//!   messages since the item was recorded ([`post`]).
//! - A failure is tried again with backoff (longer after a 429); a deleted board (Discord's
//!   10008) gets a fresh board; an edit in a thread Discord archived for want of activity
//!   reopens the thread and is made ([`edit_message`]); a board in a thread the game had to
//!   leave (locked, closed to the bot) gets a fresh board in the game's channel; an item that
//!   keeps failing, or that Discord refuses for good, is given up after a bounded number of
//!   tries with one log line, and stays in the table.
//! - Nothing is posted in a game's channel once it was deleted
//!   ([`crate::host::Host::channel_deleted`]; a post refused there as an unknown channel records
//!   a deletion the bot missed): its boards, notices and summary are given up without a request,
//!   their DMs still going out, until a player moves the game with `/tafl board`.
//! - At start-up and on every scheduler tick, boards behind their game (another ply, or the game
//!   going on after it ended) get a new board item, a "your move" notice or a summary Discord
//!   refused for good is recorded again once it has rested an hour (the permission may be back),
//!   and everything pending is delivered. A given-up item's log line says what to grant the bot
//!   when Discord refused it for want of permission.
//!
//! Nothing delivered is an answer to anyone, so there is no caller's locale: what is posted in
//! a server speaks the server's language, and a digest (a DM) its reader's last reported locale.

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use poise::serenity_prelude as serenity;

use super::board::{self, Menu};
use super::causes::causes;
use super::play::{self, game_channel, mentioning, now};
use super::retry::discord_code;
use super::{BotError, Data, permissions, threads};
use crate::host::outbox::game_lane;
use crate::host::{
    Challenge, Drawn, GameId, GameView, OfferEvent, OfferOutcome, OfferStanding, Pending, Reminder, Show, User, UserId,
};
use crate::present::Lang;
use crate::present::text;

/// Tries of one item failing for a reason of ours (a game that cannot be drawn, say) before it
/// is given up.
pub const MAX_ATTEMPTS: u32 = 10;
/// Tries of one item failing because Discord, the network or the database is down for a while:
/// with the pauses below, over six hours. An outage of a minute used to use up the ten tries,
/// and the notices, summaries, offers and closed cards of that minute were lost for good.
pub const OUTAGE_ATTEMPTS: u32 = 400;
/// The pause after the first failure; each further one doubles, up to [`MAX_PAUSE`].
const FIRST_PAUSE: Duration = Duration::from_millis(100);
const MAX_PAUSE: Duration = Duration::from_mins(1);
/// The least pause after a 429 (serenity's ratelimiter has already waited what Discord asked
/// when it is on; through a proxy it is off, and the answer's wait is not exposed).
const RATE_LIMITED_PAUSE: Duration = Duration::from_secs(1);
/// How often the task looks at the outbox when nothing wakes it, as a safety net (and to take
/// over the lanes of a process that died, once their leases ran out).
const IDLE: Duration = Duration::from_secs(5);
/// How many lanes one look claims at most.
const HEADS: i64 = 50;

/// The lanes being delivered or held, the boards being written, and the wake-up calls. Shared by
/// the task and every command and click (in [`Data`]).
#[derive(Debug, Default)]
pub struct Delivery {
    wake: tokio::sync::Notify,
    /// The bot's own user, asked of Discord once, to know its messages among a channel's.
    me: tokio::sync::OnceCell<serenity::UserId>,
    /// Told when a pen is put down.
    pen_free: tokio::sync::Notify,
    lanes: Mutex<Lanes>,
}

#[derive(Debug, Default)]
struct Lanes {
    running: HashSet<String>,
    held: HashMap<String, usize>,
    /// The lanes whose board message is being written now, by the delivery or a click ([`Pen`]).
    pens: HashSet<String>,
}

impl Delivery {
    /// Asks the task to look at the outbox now (after a change was committed).
    pub fn wake(&self) {
        self.wake.notify_one();
    }

    /// Keeps the task off a game's lane until the returned guard is dropped (then it is woken):
    /// for an interaction that answers with the game's board itself. A click on an existing
    /// board also takes its pen ([`Hold::take_pen`]); a game being created has no other writer.
    pub fn hold(self: &Arc<Self>, game: GameId) -> Hold {
        let lane = game_lane(game);
        *self.lock().held.entry(lane.clone()).or_default() += 1;
        Hold { delivery: self.clone(), lane, pen: None }
    }

    /// The pen of the game's board for the delivery; `None` when a click holds the lane (its
    /// answer draws the board and completes the board items drawn).
    fn pen_for_delivery(self: &Arc<Self>, game: GameId) -> Option<Pen> {
        let lane = game_lane(game);
        // One look at both, so that no click can hold the lane in between.
        let free = {
            let mut lanes = self.lock();
            !lanes.held.contains_key(&lane) && lanes.pens.insert(lane.clone())
        };
        free.then(|| Pen { delivery: self.clone(), lane })
    }

    fn take_pen(self: &Arc<Self>, lane: &str) -> Option<Pen> {
        let free = self.lock().pens.insert(lane.to_owned());
        free.then(|| Pen { delivery: self.clone(), lane: lane.to_owned() })
    }

    fn lock(&self) -> MutexGuard<'_, Lanes> {
        self.lanes.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Takes a lane for delivery; false when it is being delivered or held.
    fn claim(&self, lane: &str) -> bool {
        let mut lanes = self.lock();
        if lanes.held.contains_key(lane) || lanes.running.contains(lane) {
            return false;
        }
        lanes.running.insert(lane.to_owned());
        true
    }

    fn is_held(&self, lane: &str) -> bool {
        self.lock().held.contains_key(lane)
    }

    fn release(&self, lane: &str) {
        self.lock().running.remove(lane);
        self.wake();
    }
}

/// A held lane (see [`Delivery::hold`]), with the game's pen if it was taken.
#[derive(Debug)]
pub struct Hold {
    delivery: Arc<Delivery>,
    lane: String,
    pen: Option<Pen>,
}

impl Hold {
    /// Takes the game's pen, once the delivery or another click writing the board has shown
    /// and recorded what it drew; false if that takes longer than `within` (the hold stays, and
    /// the caller may wait again). True at once when the pen is already this hold's.
    pub async fn take_pen(&mut self, within: Duration) -> bool {
        if self.pen.is_some() {
            return true;
        }
        let delivery = &self.delivery;
        let lane = &self.lane;
        let taken = async {
            loop {
                // Registered before the look, so that a pen put down in between still wakes it.
                let freed = delivery.pen_free.notified();
                tokio::pin!(freed);
                freed.as_mut().enable();
                if let Some(pen) = delivery.take_pen(lane) {
                    return pen;
                }
                freed.await;
            }
        };
        self.pen = tokio::time::timeout(within, taken).await.ok();
        self.pen.is_some()
    }
}

impl Drop for Hold {
    fn drop(&mut self) {
        // The pen first: the delivery, woken by the lane's release, must find it free.
        drop(self.pen.take());
        {
            let mut lanes = self.delivery.lock();
            if let Some(count) = lanes.held.get_mut(&self.lane) {
                *count -= 1;
                if *count == 0 {
                    lanes.held.remove(&self.lane);
                }
            }
        }
        self.delivery.wake();
    }
}

/// The right to write a game's board message, until dropped (see [`Hold::take_pen`]).
#[derive(Debug)]
struct Pen {
    delivery: Arc<Delivery>,
    lane: String,
}

impl Drop for Pen {
    fn drop(&mut self) {
        self.delivery.lock().pens.remove(&self.lane);
        self.delivery.pen_free.notify_waiters();
    }
}

/// The current time in unix milliseconds.
fn now_ms() -> i64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_millis() as i64)
}

/// Delivers until aborted: at once (start-up), whenever woken, when a retry comes due, and
/// every [`IDLE`] otherwise. Each lane is claimed in the database before it is delivered, so that
/// with several processes on one database each lane is delivered by one of them (see
/// [`crate::host::outbox`]); a lane that another process held when it died is taken over at the
/// first look after its lease ran out.
pub async fn run(http: Arc<serenity::Http>, data: Data) {
    // Claims a previous process with this process's id left (on SQLite, a restarted bot's).
    if let Err(error) = data.host.release_all_lanes(now_ms()).await {
        tracing::warn!(%error, "the outbox claims of a previous run cannot be released; they run out by themselves");
    }
    let mut lanes = tokio::task::JoinSet::new();
    loop {
        while lanes.try_join_next().is_some() {}
        let mut pause = IDLE;
        let now_ms = now_ms();
        take_lanes(&http, &data, &mut lanes, now_ms).await;
        match data.host.next_retry_ms(now_ms).await {
            Ok(Some(at)) => pause = pause.min(Duration::from_millis((at - now_ms).unsigned_abs())),
            Ok(None) => {}
            Err(error) => tracing::warn!(%error, "the outbox cannot be read; trying again"),
        }
        tokio::select! {
            () = data.delivery.wake.notified() => {}
            () = tokio::time::sleep(pause) => {}
        }
    }
}

/// How long a stop waits for the database to take back this process's claims.
const RELEASE_WAIT: Duration = Duration::from_secs(2);

/// Stops the delivery task ([`run`]) and gives back every claim on an outbox lane this process
/// holds, so that the process after it (a restart has another process id on `PostgreSQL`)
/// delivers those lanes at once rather than when their leases run out ([`OUTBOX_LEASE`]).
///
/// The task and its lanes' tasks are aborted where they are, a Discord request in flight with
/// them (a hung one is not waited for): what they were delivering stays in the outbox, and its
/// nonce keeps a message that did reach Discord from being posted twice. Only the task takes
/// claims, and it is gone before they are given back; a lane's task that outlives it for a
/// moment can only renew or give back its own claim. A database that does not answer within
/// [`RELEASE_WAIT`] is left: the leases run out by themselves.
///
/// [`OUTBOX_LEASE`]: crate::host::outbox::OUTBOX_LEASE
pub async fn stop(task: tokio::task::JoinHandle<()>, host: &crate::host::Host) {
    task.abort();
    // Returns once the task is dropped, its lanes' tasks aborted with its set.
    let _ = task.await;
    match tokio::time::timeout(RELEASE_WAIT, host.release_all_lanes(now_ms())).await {
        Ok(Ok(released)) => tracing::debug!(released, "gave back this process's outbox lanes"),
        Ok(Err(error)) => {
            tracing::warn!(%error, "this process's outbox lanes cannot be given back; their leases run out by themselves");
        }
        Err(_) => tracing::warn!(
            wait_ms = RELEASE_WAIT.as_millis(),
            "the database did not take back this process's outbox lanes in time; their leases run out by themselves"
        ),
    }
}

/// Claims the lanes due at `now_ms` and starts delivering each in `lanes`, except those that
/// cannot be delivered here now, whose claims are given back at once:
/// - a lane held by an interaction that answers with its board (the hold's drop wakes the task
///   to look again);
/// - a lane still running here: its task has just given its claim back and is about to end (the
///   claim could only be taken because it was free), and its end wakes the task. Kept, that claim
///   would leave the lane to nobody until its lease ran out (30 s), since a claimed lane is not
///   claimable.
async fn take_lanes(http: &Arc<serenity::Http>, data: &Data, lanes: &mut tokio::task::JoinSet<()>, now_ms: i64) {
    let heads = match data.host.claim_lanes(now_ms, HEADS).await {
        Ok(heads) => heads,
        Err(error) => {
            tracing::warn!(%error, "the outbox cannot be read; trying again");
            return;
        }
    };
    for head in heads {
        if data.delivery.claim(&head.lane) {
            lanes.spawn(run_lane(http.clone(), data.clone(), head, now_ms));
        } else if let Err(error) = data.host.release_lane(&head.lane, now_ms).await {
            tracing::warn!(lane = %head.lane, %error, "a lane's claim cannot be given back; it runs out by itself");
        }
    }
}

/// Applies the items of one lane in order, from `first`, until it is empty, waits for a retry, or
/// is held, keeping the lane's claim (taken at `claimed_at_ms`) meanwhile; then releases it.
async fn run_lane(http: Arc<serenity::Http>, data: Data, first: Pending, claimed_at_ms: i64) {
    let lane = first.lane.clone();
    let work = async {
        let mut next = Some(first);
        loop {
            if data.delivery.is_held(&lane) {
                break;
            }
            let head = match next.take() {
                Some(head) => head,
                None => match data.host.outbox_head(&lane, now()).await {
                    Ok(Some(head)) if head.not_before_ms <= now_ms() => head,
                    Ok(_) => break,
                    Err(error) => {
                        tracing::warn!(%lane, %error, "the outbox cannot be read; trying again");
                        break;
                    }
                },
            };
            // Boxed: `deliver` holds every kind of item's future (boards, cards, summaries with
            // files), 16 KB on the stack of this long-lived loop otherwise.
            if let Err(error) = Box::pin(deliver(&http, &data, &head)).await {
                tracing::warn!(%lane, item = head.id, %error, "the outbox cannot be updated");
                break;
            }
        }
    };
    tokio::select! {
        () = work => {}
        // Only returns when the claim is lost (logged there): another process delivers now.
        () = data.host.keep_lane(&lane, claimed_at_ms) => {}
    }
    // Tried again for about a second: a claim left behind holds the lane from everyone, this
    // process included (its look passes claimed lanes by), until its lease runs out, and a
    // database that restarts in a blink failed the release of every lane being delivered then.
    let released = super::retry::retry_while(
        |error: &crate::host::HostError| matches!(error, crate::host::HostError::Storage(_)),
        RELEASE_RETRY_PAUSE,
        || data.host.release_lane(&lane, now_ms()),
    )
    .await;
    if let Err(error) = released {
        tracing::warn!(%lane, %error, "the lane's claim cannot be released; it runs out by itself");
    }
    data.delivery.release(&lane);
}

/// The first pause before a lane's claim is given back again after the database refused it
/// (then four times as long): the tries span about 1.25 s.
const RELEASE_RETRY_PAUSE: Duration = Duration::from_millis(250);

/// Applies one item, and records how it went.
async fn deliver(http: &serenity::Http, data: &Data, item: &Pending) -> Result<(), crate::host::HostError> {
    // Boxed: the item kinds' futures together are some 19 KB, too large to keep on the stack.
    let Err(error) = Box::pin(apply(http, data, item)).await else { return Ok(()) };
    let attempts = item.attempts + 1;
    let text = error.to_string();
    // The game's thread was deleted (a moderator tidying up), or is closed to the bot (locked,
    // or its permissions in threads taken away): the game goes on in its channel, and the item
    // is tried again there at once. Without this every later notice, offer and summary was
    // refused and given up. Only for a post into the game's thread: a refused edit says nothing
    // of the thread when the message is in the channel, and a board's edit refused in the
    // thread is judged where it is made (`left_for_channel`).
    if let (BotError::Discord(refused), Some(game)) = (&error, item.show.game())
        && let Some(gone) = thread_refused(discord_code(refused), &item.show)
    {
        match channel_answers(http, data, game).await {
            Ok(true) => {
                if data.host.leave_thread(game, !gone, now()).await? {
                    tracing::info!(game, %text, "the game's thread is gone or closed to the bot; it goes on in its channel");
                    return data.host.delivery_failed(item.id, &text, now_ms()).await.map(|_| ());
                }
            }
            // Refused below, as the server refuses everything.
            Ok(false) => {}
            Err(BotError::Host(error)) => return Err(error),
            // Whose refusal it was is unknown until Discord answers: tried again.
            Err(probe) => {
                let text = format!("{text}; the game's channel did not answer: {probe}");
                let retry_at = now_ms() + pause(Failure::Outage, attempts).as_millis() as i64;
                return data.host.delivery_failed(item.id, &text, retry_at).await.map(|_| ());
            }
        }
    }
    // A channel Discord no longer knows was deleted, perhaps while the bot was down, so that no
    // CHANNEL_DELETE came: its games are marked as having none and their players told, as the
    // event would have done. The item itself is given up below, refused for good.
    if let BotError::Discord(refused) = &error
        && discord_code(refused) == Some(UNKNOWN_CHANNEL)
        && let Some(channel) = refused_channel(refused)
        && !data.host.channel_deleted(channel, now()).await?.is_empty()
    {
        data.delivery.wake();
    }
    let kind = failure(&error);
    match kind {
        Failure::Permanent => give_up(data, item, Some(&error), &text).await,
        _ if attempts >= kind.patience() => give_up(data, item, Some(&error), &text).await,
        kind => {
            let pause = pause(kind, attempts);
            tracing::info!(item = item.id, attempts, retry_in_ms = pause.as_millis(), error = %text, "delivery failed; retrying");
            data.host.delivery_failed(item.id, &text, now_ms() + pause.as_millis() as i64).await.map(|_| ())
        }
    }
}

/// Whether Discord shows the bot the channel of `game` (the thread's parent), asked when a post
/// into the game's thread was refused: only then is the refusal the thread's own. A server that
/// removed the bot refuses everything in it, the thread and its channel alike (403 "Missing
/// Access", before the bot hears of the removal: its gateway away, or the event not come yet);
/// taking the game out of its thread for that sent its notices to the channel for good once the
/// bot was back. A channel that refuses too keeps the thread, and the item fails as refused (a
/// notice is told again after its rest, and a server that takes the bot back shows its games
/// again). An error of another kind (Discord down) is the item's, tried again.
async fn channel_answers(http: &serenity::Http, data: &Data, game: GameId) -> Result<bool, BotError> {
    let view = data.host.show(game).await?;
    match serenity::ChannelId::new(view.place.channel.max(1) as u64).to_channel(http).await {
        // An answer whose channel serenity could not read is an answer all the same.
        Ok(_) | Err(serenity::Error::Json(_)) => Ok(true),
        Err(error) if refused_for_good(&error) => {
            tracing::info!(game, error = %causes(&error), "the game's channel refuses the bot too; the game keeps its thread");
            Ok(false)
        }
        Err(error) => Err(error.into()),
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Failure {
    /// Worth a few more tries (an error of ours that may not recur).
    Transient,
    /// Discord, the network or the database is unavailable (a server error, a lost connection,
    /// a busy or full database): worth trying for as long as such outages last.
    Outage,
    /// Discord asked us to slow down.
    RateLimited,
    /// Discord refused the request for good (no permission, a bad request): trying again
    /// cannot help.
    Permanent,
}

/// The pause after an item's `attempts`-th failed try.
fn pause(kind: Failure, attempts: u32) -> Duration {
    let pause = FIRST_PAUSE.saturating_mul(1 << attempts.saturating_sub(1).min(16)).min(MAX_PAUSE);
    if kind == Failure::RateLimited { pause.max(RATE_LIMITED_PAUSE) } else { pause }
}

impl Failure {
    /// How many tries an item failing so gets in all.
    fn patience(self) -> u32 {
        match self {
            Failure::Outage | Failure::RateLimited => OUTAGE_ATTEMPTS,
            Failure::Transient => MAX_ATTEMPTS,
            Failure::Permanent => 1,
        }
    }
}

fn failure(error: &BotError) -> Failure {
    match error {
        BotError::Discord(error) | BotError::Unanswered(error) => match error.as_ref() {
            serenity::Error::Http(serenity::HttpError::UnsuccessfulRequest(response)) => {
                if response.status_code == reqwest::StatusCode::TOO_MANY_REQUESTS {
                    Failure::RateLimited
                } else if refused_for_good(error) {
                    Failure::Permanent
                } else {
                    Failure::Outage
                }
            }
            // No answer at all: a refused or dropped connection, a timeout.
            _ => Failure::Outage,
        },
        BotError::Render(_) | BotError::User(_) => Failure::Permanent,
        BotError::Host(crate::host::HostError::Storage(_)) => Failure::Outage,
        BotError::Host(_) => Failure::Transient,
    }
}

/// Whether Discord refused a request for good: a client error other than 429 (no such channel,
/// no permission, a bad request), which trying again cannot change.
pub(super) fn refused_for_good(error: &serenity::Error) -> bool {
    matches!(error, serenity::Error::Http(serenity::HttpError::UnsuccessfulRequest(response))
        if response.status_code.is_client_error() && response.status_code != reqwest::StatusCode::TOO_MANY_REQUESTS)
}

/// Discord's code for a channel (or thread) that does not exist.
const UNKNOWN_CHANNEL: isize = 10_003;
/// "Thread is archived": an edit in a thread archived for want of activity (a post would have
/// reopened it), or a post in one that is archived and locked.
const THREAD_ARCHIVED: isize = 50_083;
/// "Thread is locked": a moderator locked the thread, and the bot (without Manage Threads) may
/// neither post nor edit there, nor reopen it.
const THREAD_LOCKED: isize = 160_005;

/// Whether Discord's refusal `code` says that a thread is closed to the bot: "Missing Access"
/// (50001), "Missing Permissions" (50013), "Thread is archived" (50083: for a post, or for an
/// edit once reopening the thread was refused, see [`edit_message`]), "Thread is locked"
/// (160005).
fn closes_thread(code: Option<isize>) -> bool {
    matches!(code, Some(50_001 | 50_013 | THREAD_ARCHIVED | THREAD_LOCKED))
}

/// Whether Discord's refusal `code` of `show` means the game's thread is out of reach: gone
/// (10003: `Some(true)`), or closed to the bot for a post into it ([`closes_thread`]:
/// `Some(false)`).
fn thread_refused(code: Option<isize>, show: &Show) -> Option<bool> {
    let posts_in_thread = matches!(
        show,
        Show::YourMove { .. }
            | Show::Offer { .. }
            | Show::Reminder { .. }
            | Show::Claimable { .. }
            | Show::Summary { .. }
            | Show::NewBoard { .. }
    );
    match code {
        Some(UNKNOWN_CHANNEL) => Some(true),
        _ if posts_in_thread && closes_thread(code) => Some(false),
        _ => None,
    }
}

/// Edits `message` in `channel`. A message in a thread Discord archived for want of activity (a
/// day or a week without a message) cannot be edited ("Thread is archived"): the thread is
/// reopened, as any member who may post there can, and the edit tried again. Without this a
/// correspondence game's board in a quiet thread stopped following the moves for good. A locked
/// thread stays closed (its refusal is returned); reopening that fails for a while fails the
/// edit as any outage does, to be tried again.
async fn edit_message(
    http: &serenity::Http,
    channel: serenity::ChannelId,
    message: serenity::MessageId,
    edit: serenity::EditMessage,
) -> Result<serenity::Message, serenity::Error> {
    match channel.edit_message(http, message, edit.clone()).await {
        Err(error) if discord_code(&error) == Some(THREAD_ARCHIVED) => {
            tracing::info!(channel = channel.get(), "the thread is archived; reopening it to edit a message there");
            channel.edit_thread(http, serenity::EditThread::new().archived(false)).await?;
            channel.edit_message(http, message, edit).await
        }
        edited => edited,
    }
}

/// "Unknown Message" (10008) or "Unknown Channel" (10003): the message is gone.
fn is_gone(error: &serenity::Error) -> bool {
    matches!(discord_code(error), Some(UNKNOWN_CHANNEL | super::retry::UNKNOWN_MESSAGE))
}

/// The channel of the request Discord refused with `error` (`/channels/{id}/…`), if it was one.
fn refused_channel(error: &serenity::Error) -> Option<i64> {
    let serenity::Error::Http(serenity::HttpError::UnsuccessfulRequest(response)) = error else { return None };
    let (_, path) = response.url.split_once("/channels/")?;
    let id: String = path.chars().take_while(char::is_ascii_digit).collect();
    id.parse().ok()
}

/// What a given-up item of a game whose channel was deleted says.
const CHANNEL_GONE: &str = "the game's channel was deleted";

/// Gives up `item`, which would post in the game's channel, deleted: without a request to
/// Discord, whose refusals count toward its limit of invalid requests. Its DM, if any, went out.
async fn channel_gone(data: &Data, item: &Pending) -> Result<(), BotError> {
    give_up(data, item, None, CHANNEL_GONE).await?;
    Ok(())
}

/// "Missing Access" (50001: the bot cannot see the channel) and "Missing Permissions" (50013).
const MISSING_ACCESS: isize = 50_001;
const MISSING_PERMISSIONS: isize = 50_013;

/// Gives `item` up, failed with `error` (`text`), with one log line that tells an owner what to
/// fix: the server, channel and game it was for, its kind and, when Discord refused it for want
/// of permission, the permissions it needed there. The same refusal of the same game's item again
/// (the sweep tries a refused board, notice or summary every hour while the bot may not post) is
/// logged at info, so that the warning comes once per game, not every hour.
async fn give_up(
    data: &Data,
    item: &Pending,
    error: Option<&BotError>,
    text: &str,
) -> Result<(), crate::host::HostError> {
    let Some(given_up) = data.host.give_up(item.id, text, now()).await? else { return Ok(()) };
    let refusal = match error {
        Some(BotError::Discord(refusal)) => Some(refusal.as_ref()),
        _ => None,
    };
    let code = refusal.and_then(discord_code);
    let channel = refusal.and_then(refused_channel);
    let game = item.show.game();
    let needed = if matches!(code, Some(MISSING_ACCESS | MISSING_PERMISSIONS)) {
        // Read only for such a refusal, which is rare: whether the refused request went into the
        // game's thread, where sending is a permission of its own.
        let thread = match game {
            Some(game) => data.host.show(game).await.ok().and_then(|view| view.place.thread),
            None => None,
        };
        permissions::needed_for(&item.show, channel.is_some() && channel == thread)
    } else {
        serenity::Permissions::empty()
    };
    let message = given_up_message(needed, channel, given_up.repeated);
    let (id, kind, guild) = (item.id, item.show.kind(), given_up.guild);
    if given_up.repeated {
        tracing::info!(item = id, kind, game, guild, channel, error = text, "{message}");
    } else {
        tracing::warn!(item = id, kind, game, guild, channel, error = text, "{message}");
    }
    Ok(())
}

/// The words of the log line of an item given up: for a refusal for want of permission (`needed`
/// not empty), which permissions to grant the bot in `channel`; `repeated` when the item repeats
/// a refusal already logged.
fn given_up_message(needed: serenity::Permissions, channel: Option<i64>, repeated: bool) -> String {
    let given_up =
        if repeated { "an outbox item was given up again, as before" } else { "an outbox item was given up" };
    if needed.is_empty() {
        return given_up.to_owned();
    }
    let place = channel.map_or_else(|| "its channel".to_owned(), |channel| format!("channel {channel}"));
    format!(
        "{given_up}: Discord refused it for want of permission; grant the bot {} in {place}",
        permissions::english_names(needed)
    )
}

/// A message created for `item`, carrying its nonce.
fn create(item: &Pending, part: char) -> serenity::CreateMessage {
    serenity::CreateMessage::new().nonce(serenity::Nonce::String(item.nonce(part))).enforce_nonce(true)
}

/// How long before an item was recorded a message made for it may be dated: the clocks of
/// this machine and Discord's may differ by this much.
const CLOCK_SLACK_MS: i64 = 60_000;

/// Discord's epoch (the first second of 2015) in unix milliseconds, from which snowflakes count.
const DISCORD_EPOCH_MS: i64 = 1_420_070_400_000;

/// Posts `message`, a message of `item`, in `channel`. When an earlier try of the item may have
/// made it (a try failed after Discord may have acted, or the process died after trying), the
/// nonce finds that message only while Discord remembers it, "a few minutes", and an item fails
/// for hours while Discord is down: tried again after that, a notice made just before an outage
/// was posted a second time, pinging its player twice, and a board left a second board with live
/// controls. So such a try first looks for the message among the channel's messages since the
/// item was first tried ([`made_before`]), and takes it when found.
async fn post(
    http: &serenity::Http,
    data: &Data,
    channel: serenity::ChannelId,
    item: &Pending,
    message: serenity::CreateMessage,
) -> Result<serenity::Message, serenity::Error> {
    if (item.tried || item.attempts > 0)
        && let Some(wanted) = Said::of_create(&message)
        && let Some(made) = made_before(http, data, channel, item, std::slice::from_ref(&wanted)).await?.made()
    {
        tracing::info!(
            item = item.id,
            message = made.id.get(),
            "a message an earlier try made is found; not posted again"
        );
        return Ok(made);
    }
    channel.send_message(http, message).await
}

/// [`post`] by DM to `to`.
async fn post_dm(
    http: &serenity::Http,
    data: &Data,
    to: UserId,
    item: &Pending,
    message: serenity::CreateMessage,
) -> Result<serenity::Message, serenity::Error> {
    let channel = serenity::UserId::new(to.max(1) as u64).create_dm_channel(http).await?;
    post(http, data, channel.id, item, message).await
}

/// What [`made_before`] found.
enum Found {
    /// The message an earlier try made (boxed: a message is large).
    Made(Box<serenity::Message>),
    /// No such message: the channel's history was read, and no earlier try made one.
    NotMade,
    /// The channel's history could not be read, not all of it (a busy channel), or it may be
    /// hidden from the bot: only the nonce can tell.
    Unreadable,
}

impl Found {
    fn made(self) -> Option<serenity::Message> {
        match self {
            Found::Made(made) => Some(*made),
            Found::NotMade | Found::Unreadable => None,
        }
    }
}

/// The message the bot made in `channel` for `item` that says one of the things in `wanted`
/// (the same words, embeds' titles and texts, and components), the first if several. The
/// channel's messages since the item's first try (or its recording, when that time is not
/// known) are read to the end, [`PAGES`] pages at most: a look that cannot read them all, or
/// cannot tell a quiet channel from a hidden history, says so ([`Found::Unreadable`]).
async fn made_before(
    http: &serenity::Http,
    data: &Data,
    channel: serenity::ChannelId,
    item: &Pending,
    wanted: &[Said],
) -> Result<Found, serenity::Error> {
    let me = *data
        .delivery
        .me
        .get_or_try_init(|| async { Ok::<_, serenity::Error>(http.get_current_user().await?.id) })
        .await?;
    let since_ms = item.tried_at_ms.unwrap_or(item.created_at().saturating_mul(1000)).saturating_sub(CLOCK_SLACK_MS);
    let mut after = serenity::MessageId::new(((since_ms - DISCORD_EPOCH_MS).max(1) as u64) << 22);
    for page in 0..PAGES {
        let Some(listed) = history(http, channel, serenity::GetMessages::new().after(after).limit(100), item).await?
        else {
            return Ok(Found::Unreadable);
        };
        if listed.is_empty() && page == 0 {
            // Without Read Message History Discord lists nothing rather than refusing: the
            // channel's last message tells a quiet stretch from a hidden one.
            let last = history(http, channel, serenity::GetMessages::new().limit(1), item).await?;
            return Ok(if last.is_some_and(|last| !last.is_empty()) { Found::NotMade } else { Found::Unreadable });
        }
        let whole_page = listed.len() == 100;
        let newest = listed.iter().map(|message| message.id).max();
        // Newest first as Discord lists them: the oldest match is the first try's. Never an
        // edited message: a try that failed recorded nothing, so nothing edited what it made,
        // while the game's live board, edited to the state about to be posted anew (`/tafl
        // board`), says the same, and taken for the new board it left the message the first try
        // made with live controls nobody would ever take away (found by the randomized fault
        // test).
        let said_so = listed.into_iter().rev().filter(|made| {
            made.author.id == me
                && made.edited_timestamp.is_none()
                && serde_json::to_value(made).is_ok_and(|json| wanted.contains(&Said::of(&json)))
        });
        // One recorded for another item is that item's, which said the same (a second
        // takeback's notice says what the first one's did): taken, this item would go unshown,
        // or delete it.
        for made in said_so {
            // The callers tell Discord's refusals apart by serenity's error, so a failure to read
            // the outbox is logged here and fails the try as an error of no request.
            let another = data.host.message_of_another(item, message_id(&made)).await.map_err(|error| {
                tracing::warn!(item = item.id, %error, "could not read whose message a message is");
                serenity::Error::Other("the outbox could not be read")
            })?;
            if !another {
                return Ok(Found::Made(Box::new(made)));
            }
        }
        match newest {
            Some(newest) if whole_page => after = newest,
            _ => return Ok(Found::NotMade),
        }
    }
    Ok(Found::Unreadable)
}

/// How many pages of a channel's messages [`made_before`] reads at most: a busy channel's
/// chatter since the first try, 500 messages, is beyond what a look for one message should
/// cost, and the nonce is left to tell.
const PAGES: usize = 5;

/// A page of `channel`'s messages; `None` when Discord refuses the bot its history.
async fn history(
    http: &serenity::Http,
    channel: serenity::ChannelId,
    page: serenity::GetMessages,
    item: &Pending,
) -> Result<Option<Vec<serenity::Message>>, serenity::Error> {
    match channel.messages(http, page).await {
        Ok(listed) => Ok(Some(listed)),
        Err(error) if refused_for_good(&error) => {
            tracing::info!(item = item.id, error = %causes(&error), "the channel's history cannot be read; the item's nonce alone keeps it from being posted twice");
            Ok(None)
        }
        Err(error) => Err(error),
    }
}

/// Every distinct thing the tries of an item said, kept with it (as JSON, in
/// [`Pending::tried_said`]): its words can change between tries (a server's language, a
/// player's name, a reminder's deadline moved), and a message that no longer applies is looked
/// for by any of them.
#[derive(Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
struct Tried(Vec<Said>);

impl Tried {
    /// How many wordings are kept, the latest: more than an item's words ever change.
    const KEPT: usize = 8;

    /// What the item's tries said so far; nothing for one tried before this was kept.
    fn of(item: &Pending) -> Tried {
        item.tried_said.as_deref().and_then(|tried| serde_json::from_str(tried).ok()).unwrap_or_default()
    }

    /// What to keep with `item` as a try is about to send `message`, as JSON.
    fn after_try(item: &Pending, message: &serenity::CreateMessage) -> Option<String> {
        let said = Said::of_create(message)?;
        serde_json::to_string(&Tried::of(item).with(said)).ok()
    }

    /// These and `said`, the latest [`Tried::KEPT`].
    fn with(mut self, said: Said) -> Tried {
        if !self.0.contains(&said) {
            self.0.push(said);
        }
        let excess = self.0.len().saturating_sub(Tried::KEPT);
        self.0.drain(..excess);
        self
    }
}

/// What a message says, as far as telling one of the bot's messages from another goes: its
/// words, its embeds' titles and texts, and its components' ids (a board's name its game and ply).
/// Kept with an item at each try ([`Tried`]).
#[derive(Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
struct Said {
    content: String,
    embeds: Vec<(String, String)>,
    custom_ids: Vec<String>,
}

impl Said {
    /// From a message as JSON: the builder the bot sends, or the message Discord returns.
    fn of(json: &serde_json::Value) -> Said {
        let text = |value: &serde_json::Value| value.as_str().unwrap_or_default().trim().to_owned();
        let embeds = json["embeds"].as_array().map_or_else(Vec::new, |embeds| {
            embeds.iter().map(|embed| (text(&embed["title"]), text(&embed["description"]))).collect()
        });
        let mut custom_ids = Vec::new();
        collect_custom_ids(&json["components"], &mut custom_ids);
        Said { content: text(&json["content"]), embeds, custom_ids }
    }

    /// What a message the bot is about to send says.
    fn of_create(message: &serenity::CreateMessage) -> Option<Said> {
        serde_json::to_value(message).ok().map(|json| Said::of(&json))
    }
}

fn collect_custom_ids(json: &serde_json::Value, into: &mut Vec<String>) {
    match json {
        serde_json::Value::Array(items) => items.iter().for_each(|item| collect_custom_ids(item, into)),
        serde_json::Value::Object(fields) => {
            if let Some(id) = fields.get("custom_id").and_then(serde_json::Value::as_str) {
                into.push(id.to_owned());
            }
            if let Some(inner) = fields.get("components") {
                collect_custom_ids(inner, into);
            }
        }
        _ => {}
    }
}

/// A DM to `to`: like a channel's post, it pings its reader alone, whatever its words quote (a
/// mention of the other player, a name that reads `@everyone`).
fn direct(item: &Pending, part: char, to: UserId) -> serenity::CreateMessage {
    create(item, part).allowed_mentions(mentioning(&[to]))
}

fn message_id(message: &serenity::Message) -> i64 {
    message.id.get() as i64
}

/// The words of a public message are in its server's language (the one its managers chose,
/// else the locale Discord last reported, else English). Each item finds its server in what it
/// loads anyway, and the language comes from the host's memory, so this costs no extra read.
async fn server_lang(data: &Data, guild: i64) -> Lang {
    super::server_lang(data, Some(guild), None, Lang::discord(None)).await
}

/// Whether `player` gets `view`'s notices that ask something of them by DM too: they turned
/// `dm` on, and the game is against another person. In a game against the bot the notice follows
/// the player's own move within seconds, while they are there to see it (its reminders still
/// come by DM).
async fn wants_dm(data: &Data, view: &GameView, player: UserId) -> Result<bool, BotError> {
    if view.players().into_iter().any(crate::host::is_bot) || crate::host::is_bot(player) {
        return Ok(false);
    }
    Ok(data.host.user_settings(player).await?.dm_notifications)
}

/// Who closed a challenge: one of its two players (or, should neither match, the challenger).
fn closer(challenge: &Challenge, by: UserId) -> User {
    match &challenge.opponent {
        Some(opponent) if opponent.id == by => opponent.clone(),
        _ => challenge.challenger.clone(),
    }
}

async fn apply(http: &serenity::Http, data: &Data, item: &Pending) -> Result<(), BotError> {
    match &item.show {
        Show::Board { game, .. } => deliver_board(http, data, item, *game).await,
        Show::NewBoard { game, by } => {
            let lang = server_lang(data, data.host.game_guild(*game).await?).await;
            let style = data.host.user_settings(*by).await?;
            let state = data.host.board_state(*game).await?;
            if state.game.channel_gone {
                return channel_gone(data, item).await;
            }
            // Drawn as the player who asked for it likes, now and at every later edit.
            let board = board::build_styled(data, &state, Menu::Pieces(0), lang, style.board_style()).await?;
            let sent = post_board(http, data, item, &board).await?;
            let channel = game_channel(&board.game).get() as i64;
            let (shown, covers) = posted_shows(&sent, &board, state.covers);
            data.host.replace_board(*game, channel, message_id(&sent), shown, covers, board.style, now()).await?;
            // Done after the board is recorded: should the process die in between, the retry's
            // nonce finds the same message, and recording it again changes nothing.
            data.host.delivered(item.id, Some(message_id(&sent)), now()).await?;
            Ok(())
        }
        Show::Thread { game } => {
            let view = data.host.show(*game).await?;
            if view.channel_gone {
                return channel_gone(data, item).await;
            }
            let lang = server_lang(data, view.place.guild).await;
            if let Some(stored) = data.host.board_message(*game).await? {
                let channel = serenity::ChannelId::new(stored.channel_id.max(1) as u64);
                let message = serenity::MessageId::new(stored.message_id.max(1) as u64);
                threads::open(http, data, &view, channel, message, lang).await?;
            }
            data.host.delivered(item.id, None, now()).await?;
            Ok(())
        }
        Show::YourMove { game, ply, after_takeback, again } => {
            let view = data.host.show(*game).await?;
            let channel = game_channel(&view);
            let Some(player) = view.player_to_move().filter(|_| view.ply == *ply && !view.is_over()) else {
                // The game moved on: a later item tells the next player.
                return obsolete(http, data, item, *game, channel, 'n').await;
            };
            let lang = server_lang(data, view.place.guild).await;
            let content = text::your_move(&view, *after_takeback, lang);
            let message = create(item, 'n').content(content.clone()).allowed_mentions(mentioning(&[player.id]));
            // A notice told again goes to the channel only: the DM went out with the refused one.
            let dm = (!again && wants_dm(data, &view, player.id).await?).then_some(Dm {
                to: player.id,
                part: 'm',
                content,
                what: "a your-move notice",
            });
            data.host.trying(item, Tried::after_try(item, &message).as_deref(), now_ms()).await?;
            let Some(sent) = post_with_dm(http, data, item, &view, message, dm).await? else {
                return channel_gone(data, item).await;
            };
            data.host
                .notice_posted(item.id, *game, channel.get() as i64, message_id(&sent), Some(message_id(&sent)), now())
                .await?;
            Ok(())
        }
        Show::Summary { game } => {
            let view = data.host.show(*game).await?;
            if view.channel_gone {
                // Still there for `/tafl summary`.
                return channel_gone(data, item).await;
            }
            let lang = server_lang(data, view.place.guild).await;
            end_on_starter(http, data, &view, lang).await?;
            let summary = play::summary_message(data, *game, lang).await?;
            // The bot's levels are no Discord users: only people are mentioned.
            let players: Vec<i64> = view.players().into_iter().filter(|id| !crate::host::is_bot(*id)).collect();
            let content = players.iter().map(|id| play::mention(*id)).collect::<Vec<_>>().join(" ");
            let message = create(item, 's')
                .content(content)
                .embed(summary.embed)
                .add_files(summary.files)
                .allowed_mentions(mentioning(&players));
            let channel = game_channel(&view);
            let sent = post(http, data, channel, item, message).await?;
            data.host.notice_posted(item.id, *game, channel.get() as i64, message_id(&sent), None, now()).await?;
            Ok(())
        }
        Show::Review { game } => {
            // The summary posted earlier in this lane is edited in place with the review's words
            // and chart (its files re-sent, since an edit that adds files replaces them all). A
            // summary that was never posted, or was deleted, has nothing to edit.
            if let Some(message) = data.host.summary_message(*game).await? {
                let view = data.host.show(*game).await?;
                let lang = server_lang(data, view.place.guild).await;
                let summary = play::summary_message(data, *game, lang).await?;
                // An edit replaces every file: one without a picture would take the posted one
                // away, so the summary stays as it was (the failure is logged).
                if summary.whole {
                    let mut edit = serenity::EditMessage::new().embed(summary.embed);
                    for file in summary.files {
                        edit = edit.new_attachment(file);
                    }
                    let message = serenity::MessageId::new(message.max(1) as u64);
                    match edit_message(http, game_channel(&view), message, edit).await {
                        Ok(_) => {}
                        Err(error) if is_gone(&error) => {}
                        Err(error) => return Err(error.into()),
                    }
                }
            }
            data.host.delivered(item.id, None, now()).await?;
            Ok(())
        }
        Show::Offer { game, offer, event, by, notify, made } => {
            let view = data.host.show(*game).await?;
            let lang = server_lang(data, view.place.guild).await;
            let first = notify.first().copied().unwrap_or(*by);
            let outcome = match *event {
                OfferEvent::Offered => OfferOutcome::Offered { game: view.clone(), by: *by, notify: first },
                OfferEvent::Declined { withdrawn } => {
                    OfferOutcome::Declined { game: view.clone(), by: *by, notify: first, withdrawn }
                }
                OfferEvent::Accepted { plies_taken_back } => {
                    OfferOutcome::Accepted { game: view.clone(), by: *by, notify: notify.clone(), plies_taken_back }
                }
            };
            // Only an offer waits for someone's answer, and only while it is open (this offer, not
            // a newer one): answered from the board before this item's turn came, it says what was
            // offered, asks nothing, and neither mentions nor DMs anyone (the answer's own notice
            // follows). Its outcome asks nothing either. One
            // that lapsed first (the other player moved, or the game ended) is not announced at
            // all: no answer will follow it, and "answer on the board" would be false.
            let asks = match event {
                OfferEvent::Offered => match data.host.offer_standing(*game, *offer, *by, *made).await? {
                    Some(OfferStanding::Open) => true,
                    Some(OfferStanding::Lapsed) => {
                        return obsolete(http, data, item, *game, game_channel(&view), 'o').await;
                    }
                    Some(OfferStanding::Answered) | None => false,
                },
                _ => false,
            };
            let mentions: Vec<i64> = match event {
                OfferEvent::Offered if !asks => Vec::new(),
                OfferEvent::Accepted { .. } => Vec::new(),
                _ => vec![first],
            };
            let content = match event {
                OfferEvent::Offered if !asks => text::offer_made(&view, *by, *offer, lang),
                _ => text::offer_notice(&outcome, *offer, lang),
            };
            let message = create(item, 'o').content(content.clone()).allowed_mentions(mentioning(&mentions));
            let dm = (asks && wants_dm(data, &view, first).await?).then_some(Dm {
                to: first,
                part: 'q',
                content,
                what: "an offer",
            });
            data.host.trying(item, Tried::after_try(item, &message).as_deref(), now_ms()).await?;
            let Some(sent) = post_with_dm(http, data, item, &view, message, dm).await? else {
                return channel_gone(data, item).await;
            };
            data.host.delivered(item.id, Some(message_id(&sent)), now()).await?;
            Ok(())
        }
        Show::Reminder { game, reminder, ply, dm, turn, .. } => {
            let view = data.host.show(*game).await?;
            // The moment as it stands: the downtime grace may have moved it since the reminder
            // was recorded (a reminder held up by the downtime would name the old one, passed).
            // One that no longer applies is dropped, among them a halfway reminder held up until
            // the turn's last warning was recorded: two pings at once, one saying half the time
            // is left.
            let standing = data.host.reminder_stands(*game, *reminder, (*ply, *turn), now()).await?;
            let Some((player, deadline_at)) = view.player_to_move().zip(standing) else {
                return obsolete(http, data, item, *game, game_channel(&view), 'r').await;
            };
            let lang = server_lang(data, view.place.guild).await;
            let side = view.to_move;
            let opponent = if side == tafl_rules::Side::Attackers { &view.defender } else { &view.attacker };
            let reminder = Reminder {
                game: *game,
                place: view.place,
                variant: view.variant.clone(),
                kind: *reminder,
                player: player.clone(),
                opponent: opponent.clone(),
                side,
                ply: *ply,
                deadline_at,
                dm: *dm,
            };
            let content = text::reminder(&reminder, lang);
            let (to, dm) = (player.id, dm.then_some('d'));
            notice(http, data, item, &view, Notice { content, to, parts: ('r', dm), what: "a reminder" }).await
        }
        Show::Claimable { game, ply, dm, turn } => {
            let view = data.host.show(*game).await?;
            if view.is_over() || !data.host.claim_notice_stands(*game, (*ply, *turn)).await? {
                return obsolete(http, data, item, *game, game_channel(&view), 'c').await;
            }
            let lang = server_lang(data, view.place.guild).await;
            let content = text::claimable(&view, lang);
            let (to, dm) = (view.player(view.to_move.opponent()).id, dm.then_some('e'));
            notice(http, data, item, &view, Notice { content, to, parts: ('c', dm), what: "a claim notice" }).await
        }
        Show::RetireBoard { channel, message, .. } => {
            let channel = serenity::ChannelId::new((*channel).max(1) as u64);
            let message = serenity::MessageId::new((*message).max(1) as u64);
            let edit = serenity::EditMessage::new().components(Vec::new());
            match edit_message(http, channel, message, edit).await {
                Ok(_) => {}
                Err(error) if is_gone(&error) => {}
                Err(error) => return Err(error.into()),
            }
            data.host.delivered(item.id, None, now()).await?;
            Ok(())
        }
        Show::Delete { channel, message, .. } => {
            let channel = serenity::ChannelId::new((*channel).max(1) as u64);
            match channel.delete_message(http, serenity::MessageId::new((*message).max(1) as u64)).await {
                Ok(()) => {}
                Err(error) if is_gone(&error) => {}
                Err(error) => return Err(error.into()),
            }
            data.host.delivered(item.id, None, now()).await?;
            Ok(())
        }
        Show::Digest { user } => deliver_digest(http, data, item, *user).await,
        Show::ChannelGone { game } => deliver_channel_gone(http, data, item, *game).await,
        Show::PausedGames { user, guild } => deliver_paused_games(http, data, item, *user, *guild).await,
        Show::ChallengeClosed { challenge, by } => {
            if let Some((channel, message)) = data.host.challenge_message(*challenge).await? {
                let challenge = data.host.challenge_by_id(*challenge).await?;
                let lang = server_lang(data, challenge.place.guild).await;
                let (title, _) = text::challenge_card(&challenge, lang);
                let embed = serenity::CreateEmbed::new().title(title).description(text::challenge_closed(
                    &challenge,
                    &closer(&challenge, *by),
                    lang,
                ));
                let edit = serenity::EditMessage::new().content("").embed(embed).components(Vec::new());
                let channel = serenity::ChannelId::new(channel.max(1) as u64);
                match edit_message(http, channel, serenity::MessageId::new(message.max(1) as u64), edit).await {
                    Ok(_) => {}
                    Err(error) if is_gone(&error) => {}
                    Err(error) => return Err(error.into()),
                }
            }
            data.host.delivered(item.id, None, now()).await?;
            Ok(())
        }
    }
}

/// Draws a finished game's final board on the message its thread was started from, when that
/// message is no longer the game's board. With threads on, the board in the channel is the
/// thread's starter: all the channel shows of the game. Once a player posted the board anew
/// (`/tafl board`, into the thread), the starter only lost its controls and went on showing the
/// position and the player to move of that moment, "to move" and deadline included, after the
/// game had ended. It is not kept up to date move by move (an edit more per move, for a message
/// nobody plays on), but its last state is the result, as the board's is. A starter that is gone
/// or closed to the bot is left as it is: the summary matters more than it.
async fn end_on_starter(http: &serenity::Http, data: &Data, view: &GameView, lang: Lang) -> Result<(), BotError> {
    let Some(thread) = data.host.own_thread(view.id).await? else { return Ok(()) };
    let state = data.host.board_state(view.id).await?;
    if state.message.as_ref().is_none_or(|board| board.message_id == thread) || !state.game.is_over() {
        return Ok(());
    }
    let board = board::build(data, &state, Menu::Pieces(0), lang).await?;
    let channel = serenity::ChannelId::new(view.place.channel.max(1) as u64);
    let starter = serenity::MessageId::new(thread.max(1) as u64);
    match edit_message(http, channel, starter, board.edit()).await {
        Ok(_) => Ok(()),
        Err(error) if is_gone(&error) || refused_for_good(&error) => {
            tracing::info!(game = view.id, error = %causes(&error), "the thread's starter cannot show the game's end");
            Ok(())
        }
        Err(error) => Err(error.into()),
    }
}

/// Tells a game's players who asked for DMs, each by DM in their language, that its channel
/// was deleted and how it goes on; nothing once a player moved it to another channel or it is
/// over. Each player's DM has a nonce of its own, so a retry after one failed for a while does
/// not send the other twice; a DM refused for good (closed DMs) is logged.
async fn deliver_channel_gone(
    http: &serenity::Http,
    data: &Data,
    item: &Pending,
    game: GameId,
) -> Result<(), BotError> {
    let view = data.host.show(game).await?;
    if view.channel_gone && !view.is_over() {
        let mut people = vec![(view.attacker.id, 'x')];
        if view.defender.id != view.attacker.id {
            people.push((view.defender.id, 'y'));
        }
        for (player, part) in people {
            // Not `wants_dm`: in a game against the bot too, nothing else reaches its player.
            if crate::host::is_bot(player) || !data.host.user_settings(player).await?.dm_notifications {
                continue;
            }
            let lang = Lang::discord(data.host.user_locale(player).await?.as_deref());
            let message = direct(item, part, player).content(text::channel_gone(game, lang));
            match post_dm(http, data, player, item, message).await {
                Ok(_) => {}
                Err(error) if refused_for_good(&error) => {
                    tracing::info!(user = player, %error, "could not tell a player by DM that their game's channel was deleted");
                }
                Err(error) => return Err(error.into()),
            }
        }
    }
    data.host.delivered(item.id, None, now()).await?;
    Ok(())
}

/// A digest: the games where it is `user`'s move as they stand now, by DM in their language.
async fn deliver_digest(http: &serenity::Http, data: &Data, item: &Pending, user: UserId) -> Result<(), BotError> {
    let awaiting = data.host.games_awaiting(user).await?;
    if awaiting.games.is_empty() {
        // They have moved everywhere since the digest came due.
        data.host.delivered(item.id, None, now()).await?;
        return Ok(());
    }
    let lang = Lang::discord(data.host.user_locale(user).await?.as_deref());
    let list = text::game_list(&awaiting.games, awaiting.total, now(), text::Whose::Reader, lang);
    let embed = serenity::CreateEmbed::new().title(text::digest_title(awaiting.total, lang)).description(list);
    let sent = post_dm(http, data, user, item, direct(item, 'g', user).embed(embed)).await?;
    data.host.delivered(item.id, Some(message_id(&sent)), now()).await?;
    Ok(())
}

/// A person's games in a server that removed the bot, paused long enough to be ended, as they
/// stand now, by DM in their language (their channel is out of reach).
async fn deliver_paused_games(
    http: &serenity::Http,
    data: &Data,
    item: &Pending,
    user: UserId,
    guild: i64,
) -> Result<(), BotError> {
    let now = now();
    let games = data.host.paused_games(user, guild, now).await?;
    let Some(since) = games.iter().filter_map(|game| game.paused_since).min() else {
        // The bot is back in the server, or the games ended, since the notice came due.
        data.host.delivered(item.id, None, now).await?;
        return Ok(());
    };
    let lang = Lang::discord(data.host.user_locale(user).await?.as_deref());
    // The list fills the embed's description as far as it can hold; the intro goes above it.
    let list = text::game_list(&games, games.len(), now, text::Whose::Reader, lang);
    let embed = serenity::CreateEmbed::new().title(text::paused_games_title(games.len(), lang)).description(list);
    let message = direct(item, 'p', user).content(text::paused_games_intro(games.len(), since, lang)).embed(embed);
    let sent = post_dm(http, data, user, item, message).await?;
    data.host.delivered(item.id, Some(message_id(&sent)), now).await?;
    Ok(())
}

/// An item whose message is no longer true (the game moved on before it was delivered). When
/// an earlier try may have created it (Discord's answer lost, or the process died before it
/// recorded the message), the same nonce finds that message (or makes one, unmentioning) and it
/// is deleted; otherwise there is nothing to do.
/// A notice to one player of a game, mentioned in the game's channel.
struct Notice {
    content: String,
    to: UserId,
    /// The nonce parts of the channel's message and, when the player asked for DMs, the DM's.
    parts: (char, Option<char>),
    /// What the notice is, for the log.
    what: &'static str,
}

/// Posts `notice` in `view`'s channel, mentioning its player, and sends it by DM with a link
/// when they asked for DMs (a closed DM is logged: the mention in the channel got through).
async fn notice(
    http: &serenity::Http,
    data: &Data,
    item: &Pending,
    view: &GameView,
    notice: Notice,
) -> Result<(), BotError> {
    let Notice { content, to, parts: (part, dm), what } = notice;
    let message = create(item, part).content(content.clone()).allowed_mentions(mentioning(&[to]));
    data.host.trying(item, Tried::after_try(item, &message).as_deref(), now_ms()).await?;
    let dm = dm.map(|part| Dm { to, part, content, what });
    let Some(sent) = post_with_dm(http, data, item, view, message, dm).await? else {
        return channel_gone(data, item).await;
    };
    data.host.delivered(item.id, Some(message_id(&sent)), now()).await?;
    Ok(())
}

/// The DM copy of a notice, for a player who asked for DMs: its nonce part, and what it is for
/// the log.
struct Dm {
    to: UserId,
    part: char,
    content: String,
    what: &'static str,
}

/// Posts `message` in `view`'s channel and, when `dm` is given, sends its words to the player by
/// DM with a link to the channel; `None` when the game's channel was deleted
/// ([`GameView::channel_gone`]): nothing is posted, and the DM, without a link, is the one way
/// left (one that fails for a while fails the item, to be tried again).
///
/// - The post is made: the DM goes out too; a DM that fails is logged (the mention in the
///   channel got through).
/// - Discord refuses the post for good: a channel deleted or closed to the bot must not silence
///   the one way left to tell a player who asked for DMs that their clock runs, so the DM goes
///   out, and one that fails for a while fails the item as an outage, to be tried again (its
///   nonce keeps a DM that did arrive from arriving twice). Unless the refused post was into the
///   game's thread and the game is about to go back to its channel: the thread is gone, or it
///   is one the bot opened and is closed to it ([`thread_refused`], `Host::leave_thread`). The
///   item is then posted in the channel at once, and that try sends the DM, linking to where
///   the notice is, not to a thread the player cannot use.
/// - The post fails for a while: the DM waits for the retry, whose post comes first again.
async fn post_with_dm(
    http: &serenity::Http,
    data: &Data,
    item: &Pending,
    view: &GameView,
    message: serenity::CreateMessage,
    dm: Option<Dm>,
) -> Result<Option<serenity::Message>, BotError> {
    if view.channel_gone {
        if let Some(Dm { to, part, content, what }) = dm {
            // No link: the channel is gone, and the player was told how the game goes on.
            match post_dm(http, data, to, item, direct(item, part, to).content(content)).await {
                Ok(_) => {}
                Err(error) if refused_for_good(&error) => {
                    tracing::info!(user = to, %error, "could not send {what} by DM");
                }
                Err(error) => {
                    tracing::info!(user = to, %error, "could not send {what} by DM, the one way left; trying again");
                    return Err(error.into());
                }
            }
        }
        return Ok(None);
    }
    let channel = game_channel(view);
    let sent = post(http, data, channel, item, message).await;
    let Some(Dm { to, part, content, what }) = dm else { return Ok(Some(sent?)) };
    let refused = match &sent {
        Ok(_) => None,
        Err(error) if refused_for_good(error) => Some(error),
        Err(_) => return Ok(Some(sent?)),
    };
    // A game in a thread people opened stays there when the thread is only closed (its item is
    // then given up, and the DM is the one way left); only a deleted thread, or a closed one the
    // bot opened, sends the game back to its channel.
    if let (Some(thread), Some(error)) = (view.place.thread, refused) {
        let back_to_channel = match thread_refused(discord_code(error), &item.show) {
            Some(true) => true,
            Some(false) => data.host.own_thread(view.id).await? == Some(thread),
            None => false,
        };
        if back_to_channel {
            return Ok(Some(sent?));
        }
    }
    let link = format!("https://discord.com/channels/{}/{}", view.place.guild, channel.get());
    let dm = direct(item, part, to).content(format!("{content}\n{link}"));
    match post_dm(http, data, to, item, dm).await {
        Ok(_) => {}
        Err(error) if refused.is_some() && !refused_for_good(&error) => {
            tracing::info!(user = to, error = %causes(&error), "could not send {what} by DM, the one way left; trying again");
            return Err(error.into());
        }
        Err(error) => tracing::info!(user = to, error = %causes(&error), "could not send {what} by DM"),
    }
    Ok(Some(sent?))
}

/// Completes an item whose message no longer applies (a notice of a turn the game has left, an
/// offer that lapsed, a reminder or a claim overtaken): done when no try of it was made, and
/// otherwise any message a failed try made is deleted.
async fn obsolete(
    http: &serenity::Http,
    data: &Data,
    item: &Pending,
    game: GameId,
    channel: serenity::ChannelId,
    part: char,
) -> Result<(), BotError> {
    if !item.tried {
        data.host.delivered(item.id, None, now()).await?;
        return Ok(());
    }
    // The message is looked for by what the try said: the nonce is remembered for minutes only,
    // and an item fails for hours while Discord is down.
    let tried = Tried::of(item);
    let found =
        if tried.0.is_empty() { Found::Unreadable } else { made_before(http, data, channel, item, &tried.0).await? };
    let made = match found {
        Found::Made(made) => *made,
        Found::NotMade => {
            data.host.delivered(item.id, None, now()).await?;
            return Ok(());
        }
        // Tried before its words were kept, or the channel's history is closed to the bot (or
        // too long to read): a try that failed may have made the message or not (a 500 says
        // neither). Posted again under its nonce, Discord returns the message if it made it
        // (within its window), and otherwise makes this one, which nobody is to be notified of,
        // and which is deleted at once.
        Found::Unreadable => {
            let probe = create(item, part)
                .content("…")
                .allowed_mentions(serenity::CreateAllowedMentions::new())
                .flags(serenity::MessageFlags::SUPPRESS_NOTIFICATIONS);
            channel.send_message(http, probe).await?
        }
    };
    match channel.delete_message(http, made.id).await {
        Ok(()) => data.host.delivered(item.id, None, now()).await?,
        Err(error) if is_gone(&error) => data.host.delivered(item.id, None, now()).await?,
        // Deleted later, from an item of its own, however long Discord takes.
        Err(error) => {
            tracing::info!(error = %causes(&error), "could not delete an out-of-date message at once");
            data.host.retract(item.id, game, channel.get() as i64, message_id(&made), now()).await?;
        }
    }
    Ok(())
}

/// Brings a game's board message up to date: edits it, or posts a fresh board when there is
/// none, it was deleted, or it lies in a thread the game had to leave (see [`left_for_channel`]).
async fn deliver_board(http: &serenity::Http, data: &Data, item: &Pending, game: GameId) -> Result<(), BotError> {
    let Some(_pen) = data.delivery.pen_for_delivery(game) else {
        // A click is answering with this board: it completes the items it draws, and the lane's
        // task stops at the hold and looks again when it is released.
        return Ok(());
    };
    // One snapshot: every board item up to it is covered by this drawing.
    let mut state = data.host.board_state(game).await?;
    if state.game.channel_gone {
        // Nowhere to draw it; a player's `/tafl board` elsewhere posts the next one.
        return channel_gone(data, item).await;
    }
    let lang = server_lang(data, state.game.place.guild).await;
    let mut board = board::build(data, &state, Menu::Pieces(0), lang).await?;
    if let Some(stored) = state.message.clone() {
        let channel = serenity::ChannelId::new(stored.channel_id.max(1) as u64);
        let message = serenity::MessageId::new(stored.message_id.max(1) as u64);
        match edit_message(http, channel, message, board.edit()).await {
            Ok(_) => {
                let drawn = Drawn::of(&board.game);
                data.host.board_shown(game, stored.message_id, drawn, state.covers, now()).await?;
                return Ok(());
            }
            Err(error) if is_gone(&error) => {
                tracing::info!(game, "the board message is gone; posting a new one");
            }
            Err(error) if left_for_channel(http, data, &state, stored.channel_id, &error).await? => {
                tracing::info!(game, error = %causes(&error), "the board's thread is closed to the bot; posting a new board in the game's channel");
                // Drawn again: the game's place changed, and so does what the board says of it.
                state = data.host.board_state(game).await?;
                board = board::build(data, &state, Menu::Pieces(0), lang).await?;
            }
            Err(error) => return Err(error.into()),
        }
    }
    let sent = post_board(http, data, item, &board).await?;
    let channel = game_channel(&board.game).get() as i64;
    let (shown, covers) = posted_shows(&sent, &board, state.covers);
    data.host.replace_board(game, channel, message_id(&sent), shown, covers, board.style, now()).await?;
    Ok(())
}

/// Whether the edit of a game's board in `board_channel`, refused with `error`, is to be replaced
/// by a new board in the game's channel: the board lies in a thread closed to the bot (locked,
/// or its access there taken away), and the game is no longer played in that thread. A thread
/// the bot opened for the game is left here (as a refused post leaves it, see [`deliver`]), so
/// the game and its board go back to its channel; a game that already left it (a notice was
/// refused first) only needs the board. A thread people opened keeps its game (README, "Settings
/// and threads"): the edit stays refused, and the board catches up when the thread reopens.
///
/// Only when the game's channel answers ([`channel_answers`]): a server that removed the bot
/// refuses the thread and the channel alike, and the game stays in its thread.
async fn left_for_channel(
    http: &serenity::Http,
    data: &Data,
    state: &crate::host::BoardState,
    board_channel: i64,
    error: &serenity::Error,
) -> Result<bool, BotError> {
    let place = &state.game.place;
    if board_channel == place.channel || !closes_thread(discord_code(error)) {
        return Ok(false);
    }
    if !channel_answers(http, data, state.game.id).await? {
        return Ok(false);
    }
    if place.thread == Some(board_channel) {
        return Ok(data.host.leave_thread(state.game.id, true, now()).await?);
    }
    Ok(true)
}

/// What a posted board shows and the board items it covers, for [`Host::replace_board`]. A
/// retry's nonce may return the message an earlier try made, drawn from an older state: its ply
/// alone cannot tell, since a takeback and other moves bring a game back to a ply in another
/// position, so its menus' moves tag is compared too. A message that is not the drawing just
/// made covers no item and shows an unknown ply, so that the board is drawn on it again.
///
/// [`Host::replace_board`]: crate::host::Host::replace_board
fn posted_shows(sent: &serenity::Message, board: &board::Board, covers: Option<i64>) -> (Option<Drawn>, Option<i64>) {
    if board::shown(sent, board.game.id) == Some(board.shows) {
        (Some(Drawn::of(&board.game)), covers)
    } else {
        tracing::info!(game = board.game.id, "the board found by its nonce shows an earlier state; it is drawn again");
        (None, None)
    }
}

/// Posts `board` as a new message in its game's channel, with `item`'s nonce.
async fn post_board(
    http: &serenity::Http,
    data: &Data,
    item: &Pending,
    board: &board::Board,
) -> Result<serenity::Message, serenity::Error> {
    let message = create(item, 'b')
        .embed(board.embed.clone())
        .components(board.components.clone())
        .add_file(serenity::CreateAttachment::bytes(board.png.clone(), board.file_name.clone()))
        .allowed_mentions(serenity::CreateAllowedMentions::new());
    post(http, data, game_channel(&board.game), item, message).await
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use std::time::Duration;

    use super::{Delivery, Failure, HEADS, Said, Tried, failure, given_up_message, pause, take_lanes, thread_refused};
    use crate::discord::BotError;
    use crate::discord::Data;
    use crate::host::search_pool::SearchPool;
    use crate::host::{BotPlayer, ChallengeRequest, Clock, Host, Place, SideChoice, User};
    use crate::host::{HostError, StorageFault};
    use crate::store::Db;

    /// The time an item is tried for before it is given up.
    fn tried_for(kind: Failure) -> Duration {
        (1..kind.patience()).map(|attempts| pause(kind, attempts)).sum()
    }

    #[test]
    fn every_wording_tried_is_kept_once_the_latest_eight() {
        let said = |n: usize| Said::of(&serde_json::json!({ "content": format!("words {n}") }));
        let tried = Tried::default().with(said(1)).with(said(2)).with(said(1));
        assert_eq!(tried, Tried(vec![said(1), said(2)]), "each once, in the order first tried");
        let tried = (3..=12).fold(tried, |tried, n| tried.with(said(n)));
        assert_eq!(tried, Tried((5..=12).map(said).collect()));
        let json = serde_json::to_string(&tried).unwrap();
        assert_eq!(serde_json::from_str::<Tried>(&json).unwrap(), tried, "kept as JSON and read back");
        // The same words with their embeds and buttons are told apart by them.
        let board = Said::of(&serde_json::json!({
            "content": "words 1",
            "embeds": [{ "title": "Game #1", "description": "ply 3" }],
            "components": [{ "components": [{ "custom_id": "g1:3:move" }] }],
        }));
        assert_ne!(board, said(1));
        assert_eq!(board.custom_ids, ["g1:3:move"]);
    }

    #[test]
    fn an_outage_is_waited_out_for_hours_and_an_error_of_ours_given_up_in_a_minute_or_two() {
        // A database down or full is an outage, as Discord's 5xx and dropped connections are.
        assert_eq!(failure(&BotError::Host(HostError::Storage(StorageFault::DiskFull))), Failure::Outage);
        assert_eq!(failure(&BotError::Host(HostError::Internal)), Failure::Transient);
        assert!(tried_for(Failure::Outage) >= Duration::from_hours(6), "{:?}", tried_for(Failure::Outage));
        assert!(tried_for(Failure::RateLimited) >= Duration::from_hours(6));
        let ours = tried_for(Failure::Transient);
        assert!(ours >= Duration::from_secs(30) && ours <= Duration::from_mins(2), "{ours:?}");
        assert_eq!(Failure::Permanent.patience(), 1);
    }

    #[test]
    fn a_thread_locked_or_archived_and_locked_closes_it_to_posts_and_a_deleted_one_to_everything() {
        use crate::host::Show;
        let notice = Show::YourMove { game: 1, ply: 0, after_takeback: false, again: false };
        let board = Show::Board { game: 1, ply: 0 };
        for code in [50_001, 50_013, 50_083, 160_005] {
            assert_eq!(thread_refused(Some(code), &notice), Some(false), "{code}");
            // A board's edit is judged where it is made (`left_for_channel`).
            assert_eq!(thread_refused(Some(code), &board), None, "{code}");
        }
        assert_eq!(thread_refused(Some(10_003), &board), Some(true));
        assert_eq!(thread_refused(Some(50_035), &notice), None, "a bad request says nothing of the thread");
        assert_eq!(thread_refused(None, &notice), None);
    }

    #[test]
    fn a_refusal_for_want_of_permission_names_what_to_grant_and_where() {
        use poise::serenity_prelude::Permissions;
        let needed = Permissions::VIEW_CHANNEL | Permissions::SEND_MESSAGES;
        assert_eq!(
            given_up_message(needed, Some(42), false),
            "an outbox item was given up: Discord refused it for want of permission; grant the bot View Channel \
             and Send Messages in channel 42"
        );
        assert_eq!(
            given_up_message(Permissions::CREATE_PUBLIC_THREADS, None, true),
            "an outbox item was given up again, as before: Discord refused it for want of permission; grant the \
             bot Create Public Threads in its channel"
        );
        // Any other failure names no permission.
        assert_eq!(given_up_message(Permissions::empty(), Some(42), false), "an outbox item was given up");
        assert_eq!(given_up_message(Permissions::empty(), None, true), "an outbox item was given up again, as before");
    }

    #[tokio::test]
    async fn a_lane_whose_task_is_ending_is_given_back_not_kept_for_nobody() {
        let path = std::env::temp_dir().join(format!("tafl-bot-take-lanes-{}.db", std::process::id()));
        let _ = std::fs::remove_file(&path);
        let host = Host::new(Db::open_file(&path).await.expect("a database"));
        let request = ChallengeRequest {
            challenger: User::new(101, "alice"),
            opponent: Some(User::new(102, "bob")),
            variant: "brandubh".to_owned(),
            options: Vec::new(),
            side: SideChoice::Attackers,
            clock: Some(Clock::UNTIMED),
            place: Place { guild: 1, channel: 2, thread: None },
        };
        let challenge = host.challenge(&request, 1_000).await.expect("a challenge");
        let game = host.accept(challenge.id, &User::new(102, "bob"), 1_001).await.expect("a game").game;
        let lane = crate::host::outbox::game_lane(game.id);
        let bots = BotPlayer::new(host.background(), SearchPool::new(1), Arc::new(|_| {}));
        let data = Data {
            host: host.clone(),
            renderer: Arc::new(tafl_render::Renderer::new()),
            delivery: Arc::<Delivery>::default(),
            bots,
            background_drawing: Arc::new(tokio::sync::Semaphore::new(1)),
            ready: Arc::new(crate::discord::scheduler::ReadyShards::new(1)),
        };
        // The lane's task is between giving its claim back and leaving the running set.
        assert!(data.delivery.claim(&lane));
        let http = Arc::new(poise::serenity_prelude::Http::new("unused"));
        let mut lanes = tokio::task::JoinSet::new();
        let now_ms = 1_002_000;
        take_lanes(&http, &data, &mut lanes, now_ms).await;
        assert!(lanes.is_empty(), "nothing is delivered twice at once");
        // The look after the task ends (its end wakes it) takes the lane again at once.
        data.delivery.release(&lane);
        let heads = host.claim_lanes(now_ms + 1, HEADS).await.expect("the outbox reads");
        assert_eq!(heads.iter().map(|h| h.lane.as_str()).collect::<Vec<_>>(), [lane.as_str()]);
        for suffix in ["", "-wal", "-shm"] {
            let _ = std::fs::remove_file(format!("{}{suffix}", path.display()));
        }
    }

    /// Long enough for any test machine to get a free pen: the waits below end by the pen, not
    /// by this.
    const PATIENCE: std::time::Duration = std::time::Duration::from_secs(10);

    /// A click on game 7's board, holding its lane at once and waiting for the pen in a task of
    /// its own; checked after a tenth of a second still to be waiting.
    async fn waiting_click(delivery: &Arc<Delivery>) -> tokio::task::JoinHandle<(bool, super::Hold)> {
        let mut hold = delivery.hold(7);
        let click = tokio::spawn(async move { (hold.take_pen(PATIENCE).await, hold) });
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        assert!(!click.is_finished(), "the click waits for the writer before it");
        click
    }

    #[tokio::test]
    async fn a_click_waits_for_the_board_being_drawn_and_no_drawing_starts_while_it_answers() {
        let delivery = Arc::<Delivery>::default();
        let drawing = delivery.pen_for_delivery(7).expect("nothing holds game 7");
        let clicked = waiting_click(&delivery).await;
        drop(drawing);
        let (taken, hold) = clicked.await.expect("the click's task");
        assert!(taken, "the click writes the board once the drawing is shown");
        assert!(delivery.pen_for_delivery(7).is_none(), "no drawing of a board a click is answering with");
        assert!(delivery.pen_for_delivery(8).is_some(), "other games' boards are drawn meanwhile");
        drop(hold);
        assert!(delivery.pen_for_delivery(7).is_some(), "the board is drawn again once the click has answered");
    }

    #[tokio::test]
    async fn two_clicks_on_one_board_answer_one_after_the_other() {
        let delivery = Arc::<Delivery>::default();
        let mut first = delivery.hold(7);
        assert!(first.take_pen(PATIENCE).await);
        let second = waiting_click(&delivery).await;
        drop(first);
        let (taken, _second) = second.await.expect("the second click's task");
        assert!(taken, "then it writes the board");
        assert!(delivery.pen_for_delivery(7).is_none(), "and the delivery still keeps off it");
    }

    #[tokio::test]
    async fn a_click_that_waited_too_long_for_the_pen_keeps_its_hold_and_may_wait_again() {
        let delivery = Arc::<Delivery>::default();
        let stuck = delivery.pen_for_delivery(7).expect("nothing holds game 7");
        let mut hold = delivery.hold(7);
        assert!(!hold.take_pen(std::time::Duration::from_millis(50)).await, "the drawing is not over");
        assert!(delivery.pen_for_delivery(7).is_none(), "the lane stays held");
        drop(stuck);
        assert!(hold.take_pen(PATIENCE).await, "the pen, once the drawing is over");
        assert!(hold.take_pen(std::time::Duration::ZERO).await, "and it stays the click's");
    }
}
