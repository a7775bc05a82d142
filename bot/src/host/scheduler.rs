//! The scheduler: deadlines are stored with each game, never slept on, and a loop calls
//! [`Host::tick`] every few seconds to find what has come due: reminders, time-outs, expired
//! challenges, daily digests, and paused games that may be ended.
//!
//! A tick takes the due items in small batches ([`CLAIM`]), each one transaction that finds its
//! items, marks them done and records what must be shown in the outbox before it commits. On
//! `PostgreSQL` every batch locks its rows `FOR UPDATE SKIP LOCKED`, so the processes of a bot
//! that ticks in several places share the due work instead of waiting for one another, and a row
//! that another process's batch has just handled is checked again and left out; on `SQLite` each
//! batch is a `BEGIN IMMEDIATE` transaction, the file's only writer. Either way, and across
//! restarts, every reminder, time-out, expiry and digest is handled by exactly one tick, and
//! what it shows is delivered from the outbox (a process that dies after the commit loses
//! nothing: another one delivers it). Only the start of a tick (recording it, and the downtime
//! grace below) takes turns between processes.
//!
//! **Turns and reminders.** Each move starts the opponent's turn: it runs out at the time per
//! move (plus their reserve, for reserve clocks). The player to move gets a reminder when half of
//! the turn is gone, and a last warning when a tenth of it is left (but no earlier than 6 hours
//! before the deadline); when a tick comes late and both are due, only the last warning is sent.
//! At the deadline the player to move loses on time, except that a game where fewer than two
//! plies were played is aborted (no result, never rated). A move that reaches the host before
//! the tick that notices the deadline still counts.
//!
//! **The bot's turns have no clock.** A turn of the bot (a user with a negative id, see
//! [`super::is_bot`]) gets no deadline and no reminders, and its reserve never changes: the time
//! it takes is not charged to it, nor the time per move saved into it. Its move comes within its
//! level's seconds whenever a process is running; it can only be late because no process was
//! running or its search was still queued, which is the host's fault, not a player's choice, so
//! the bot never loses on time for it, and its person gets no win from an outage. A person's
//! turns keep their clock as in any game. (A bot's turn stored with a deadline by an older
//! version loses it at its first due moment.)
//!
//! **Untimed games left unplayed.** An untimed turn of a person comes due twice: [`CLAIM_WARNING`]
//! before it may be claimed, to warn the person to move, and [`CLAIM_AFTER`] after it began,
//! when the person waiting is told they may claim the game (`/tafl claim`), and when the one
//! waiting is the bot, it claims the game itself (won, or aborted before move 2, as for a
//! clock). The bot's own turns are never due.
//!
//! **Paused games.** Nothing comes due in a game of a server the bot was removed from, and the
//! grace after downtime leaves it alone: when the bot returns, each turn gets back the time it
//! was away (see `host/presence.rs`). Once the bot has been away for [`CLAIM_AFTER`], either
//! player may end such a game without a result, and the server comes due once: each of its
//! games' players who asked for notices by DM is told so by DM (its channel is out of reach).
//!
//! **Grace after downtime.** The scheduler records its last tick. When a tick finds none, or one
//! older than [`DOWNTIME`], the bot was down (or is new): every deadline that passed during the
//! outage or would pass within [`GRACE`] is moved to one hour from now and stored, so nobody loses
//! on time for the bot's outage, and the new deadline is the one players see. The moment an
//! untimed game may be claimed is moved the same way, or, when the outage swallowed its
//! warning, to [`CLAIM_WARNING`] after a warning given at once. A claim that comes before that
//! tick (between a restart and the first tick, or while the process of the game's shard is down)
//! waits as if it had come after (see `Host::claim`).
//!
//! **A clock that steps back.** A last tick recorded more than [`CLOCK_STEP`] in the clock's
//! future says nothing of the time since: the process's own last tick, kept in memory, measures
//! it instead, and when there is none (the process has just started) or it lies in the future too
//! (this process's clock stepped back), the grace is given, since an outage may hide behind the
//! step. A process whose own clock stepped back moves the ticks it recorded back to now; ticks
//! recorded by another process whose clock runs ahead are never moved back.
//!
//! **Shards.** A process that serves shards ([`Host::with_shards`]) handles the due games of its
//! own shards' servers only (games of no server, the console's, are shard 0's, as Discord sends
//! DMs on shard 0; digests and challenge expiries are everyone's): a server's clicks reach only
//! its shard's process, so while that process is down its players' clocks wait with it rather
//! than run out on another's scheduler. Each shard's last tick is recorded (migration 0018),
//! and the grace after downtime is judged and given per shard: a process that comes back gives
//! it to its own shards' games, while the others tick on. A shard that never
//! ticked under the process's shard count gets the grace at its first tick: nobody knows how
//! long its servers waited (a new count, or an upgrade while its process was down), and a
//! grace given for nothing only moves the deadlines of the coming hour to its end.

use tafl_rules::Side;

use super::clock::{self, Clock};
use super::types::{CLAIM_AFTER, PLIES_TO_COUNT};
use super::{
    Challenge, EndReason, Ending, Finished, GameId, GameSummary, Host, HostError, Place, User, UserId, challenge_view,
    finish_in, is_bot, settings, side_player,
};
use crate::store::games::Turn;
use crate::store::outbox::ServedShards;
use crate::store::{self, GameRow};

/// A gap between ticks longer than this means the bot was down.
pub const DOWNTIME: i64 = 10 * 60;

/// How long another process must have ticked a shard of this one's too before the overlap is
/// reported (see [`Host::shards_served_twice`]): longer than a rolling deployment's overlap.
pub const OVERLAP_REPORTED_AFTER: i64 = 10 * 60;

/// After downtime, no deadline falls sooner than this after the first tick.
pub const GRACE: i64 = 60 * 60;
/// A last tick recorded later than the clock by more than this lies in the clock's future: the
/// clock stepped back (NTP correcting a clock that ran ahead), or another process's runs ahead.
/// A few tick intervals, so that the seconds by which processes' clocks differ never count.
pub const CLOCK_STEP: i64 = 60;
/// How often a digest comes.
pub const DIGEST_INTERVAL: i64 = 24 * 60 * 60;
/// The most games one digest lists: an embed holds about that many lines.
pub const MAX_DIGEST_GAMES: i64 = 100;
/// How often the front end should call [`Host::tick`]: reminders and time-outs come at most this
/// late, far under [`DOWNTIME`].
pub const TICK_INTERVAL: std::time::Duration = std::time::Duration::from_secs(20);
/// The most games, the most challenges and the most digests one tick handles, so that a tick
/// stays short after a long outage; the rest come at the next tick.
const BATCH: i64 = 500;
/// How many items one transaction of a tick takes: few, so that the processes ticking at once
/// share the due work batch by batch (each locks its rows `FOR UPDATE SKIP LOCKED` on
/// `PostgreSQL`, and the others take the next ones instead of waiting), and a batch that meets
/// another transaction (a deadlock on a player's rating row) runs again at little cost.
const CLAIM: i64 = 20;

/// Something that came due, with what the front end needs to post it.
#[derive(Clone, Debug)]
pub enum Due {
    /// Remind the player to move: a mention in the game's channel or thread, and a DM when
    /// `dm` is set.
    Reminder(Reminder),
    /// The player to move ran out of time: the game is lost on time, or aborted before move 2
    /// (`game.ending.reason` says which). Post the summary. Boxed: a game view with its position
    /// is large, and the other items are small.
    TimedOut(Box<Finished>),
    /// An open challenge nobody answered; update its card.
    ChallengeExpired(Challenge),
    /// A daily digest DM: the games where it is the user's turn (never empty). Recorded in the
    /// outbox too, for the Discord front end.
    Digest(Digest),
    /// The bot was down: these games' deadlines were moved to `until`; update their boards.
    Grace { until: i64, games: Vec<GameId> },
    /// The player to move has left an untimed game for [`CLAIM_AFTER`]: the person waiting may
    /// claim it, and is told so (recorded in the outbox too).
    Claimable(Claimable),
    /// The person to move left an untimed game against the bot for [`CLAIM_AFTER`], and the
    /// bot claimed it: won, or aborted before move 2 (`game.ending.reason` says which). Post
    /// the summary. Boxed as [`Due::TimedOut`].
    Claimed(Box<Finished>),
    /// A server removed the bot [`CLAIM_AFTER`] ago: a DM to one of its players who asked for
    /// notices by DM, listing their games there, which either player may now end without a
    /// result (recorded in the outbox too).
    PausedGames(PausedGames),
}

/// A person's games in a server that removed the bot, paused long enough to be ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PausedGames {
    pub user: User,
    pub guild: i64,
    /// Their ongoing games there, most recently active first (never empty).
    pub games: Vec<GameSummary>,
}

/// An untimed game that the person waiting for a move may now claim.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Claimable {
    pub game: GameId,
    /// The one waiting, who may claim.
    pub claimant: User,
    /// The one to move, who left the game.
    pub absent: User,
    /// A claim will abort the game (fewer than two plies were played), not win it.
    pub aborts: bool,
}

/// Which reminder of a turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ReminderKind {
    /// Half of the turn's time is gone.
    Halfway,
    /// The last warning before the deadline.
    LastWarning,
    /// In a game without a clock: the turn has lasted long enough that the player waiting (the
    /// bot claims by itself) may soon claim the game ([`CLAIM_WARNING`] before it may). The
    /// reminder's `deadline_at` is the moment it may.
    ClaimWarning,
}

/// How long before an untimed game may be claimed its player to move is warned: an untimed game
/// asks for no reminder, but nobody should lose one by claim, least of all to the bot, which
/// claims by itself, without a word beforehand.
pub const CLAIM_WARNING: i64 = 2 * 86_400;

/// A reminder to the player to move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reminder {
    pub game: GameId,
    pub place: Place,
    pub variant: String,
    pub kind: ReminderKind,
    pub player: User,
    pub opponent: User,
    /// The side the player plays.
    pub side: Side,
    pub ply: usize,
    /// When their time runs out (unix seconds), for `<t:…:R>`; for a
    /// [`ReminderKind::ClaimWarning`], when the game may be claimed.
    pub deadline_at: i64,
    /// The player asked for notices by DM.
    pub dm: bool,
}

/// A daily digest for one user.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Digest {
    pub user: User,
    /// Their ongoing games where it is their turn.
    pub awaiting: super::Awaiting,
}

impl Host {
    /// A host whose scheduler sees downtime after `downtime` seconds without a tick and then
    /// gives `grace` seconds (tests and the local console, whose clock jumps).
    #[must_use]
    pub fn with_grace(mut self, downtime: i64, grace: i64) -> Host {
        self.downtime = downtime;
        self.grace = grace;
        self
    }

    /// This host, with a scheduler that never sees downtime, however far apart its ticks: for
    /// the console's `/wait`, which ticks at the moments things come due (see
    /// [`Host::next_due_after`]) instead of every few minutes, as a bot running throughout would.
    #[must_use]
    pub fn without_downtime(mut self) -> Host {
        self.downtime = i64::MAX;
        self
    }

    /// The first moment after `after` when a tick has something to do: a game's reminder,
    /// time-out or claim notice, a challenge's expiry, a digest, or the notice that a server's
    /// paused games may be ended. `None` when nothing is scheduled. Games in servers the bot has
    /// left wait for its return, not for a moment.
    pub async fn next_due_after(&self, after: i64) -> Result<Option<i64>, HostError> {
        let mut tx = self.db.begin_read().await?;
        Ok(store::scheduler::next_due_after(&mut tx, after).await?)
    }

    /// The latest moment the database recorded (unix seconds): the scheduler's last run or a
    /// game's last change, if any. The console's clock, which `/wait` moves ahead, resumes
    /// from it.
    pub async fn latest_moment(&self) -> Result<Option<i64>, HostError> {
        let mut tx = self.db.begin_read().await?;
        let tick = store::scheduler::last_tick(&mut tx).await?;
        let change = store::games::latest_change(&mut tx).await?;
        Ok(tick.max(change))
    }

    /// For the console, whose scheduler runs only in `/wait` and `/tick`: a database that never
    /// ticked takes its latest change (a game made, accepted or played) as its last tick, since
    /// the console was running then. A session's first wait on a new database then sees no
    /// downtime that never was (only the seconds of typing, which the grace turned into moved
    /// deadlines), while one opened long after its last game still sees the time it was closed.
    /// The Discord bot does not do this: its scheduler ticks from the start, so a database it
    /// finds without a last tick is one whose games nobody knows how long waited (an upgrade
    /// from a version before clocks, or a scheduler that could not tick), and gets the grace.
    pub async fn first_tick_at_latest_change(&self) -> Result<(), HostError> {
        transaction!(self.db.begin_write(), |tx| {
            store::scheduler::lock(&mut tx).await?;
            if store::scheduler::last_tick(&mut tx).await?.is_none()
                && let Some(change) = store::games::latest_change(&mut tx).await?
            {
                store::scheduler::set_last_tick(&mut tx, change).await?;
            }
            Ok(())
        })
    }

    /// The moment reminder `kind`, recorded for `game` at `ply`, names as it stands at `now`
    /// (when the player's time runs out, or for a claim warning when the game may be claimed:
    /// the grace after downtime may have moved either since it was recorded), or `None` when it
    /// no longer applies: the game moved on or ended, a later reminder of the same turn was
    /// recorded (a halfway reminder held up until the last warning would ping the player twice,
    /// saying half their time is left), or the moment passed. For the delivery of a reminder
    /// held up in the outbox.
    ///
    /// `turn` is when the reminder's turn began, if it was recorded: a halfway reminder or last
    /// warning of a turn taken back stands no more for the new turn at the same ply, which has all
    /// its time. Not for a claim warning, whose turn start the grace after downtime moves (see
    /// [`store::games::extend_claims`]) and whose moment is read from the game as it stands.
    pub async fn reminder_stands(
        &self,
        game: GameId,
        kind: ReminderKind,
        (ply, turn): (usize, Option<i64>),
        now: i64,
    ) -> Result<Option<i64>, HostError> {
        let mut tx = self.db.begin_read().await?;
        let Some(row) = store::games::find(&mut tx, game).await? else { return Ok(None) };
        if row.status != "ongoing" || usize::try_from(row.ply).ok() != Some(ply) {
            return Ok(None);
        }
        let timed = matches!(kind, ReminderKind::Halfway | ReminderKind::LastWarning);
        if timed && !same_turn(&row, turn) {
            return Ok(None);
        }
        let moment = match kind {
            ReminderKind::Halfway if row.reminders_sent >= 2 => None,
            ReminderKind::Halfway | ReminderKind::LastWarning => row.deadline_at,
            ReminderKind::ClaimWarning => row.turn_started_at.map(|start| start.saturating_add(CLAIM_AFTER)),
        };
        Ok(moment.filter(|&moment| moment > now))
    }

    /// Whether a notice that `game` may be claimed, recorded at `ply` in the turn that began at
    /// `turn`, stands: the game is still at that turn. A takeback and a new move bring it back to
    /// the same ply in a fresh turn, which may not be claimed yet; the grace after downtime moves
    /// the turn's start too, and the game comes due again when it may be claimed.
    pub async fn claim_notice_stands(
        &self,
        game: GameId,
        (ply, turn): (usize, Option<i64>),
    ) -> Result<bool, HostError> {
        let mut tx = self.db.begin_read().await?;
        let Some(row) = store::games::find(&mut tx, game).await? else { return Ok(false) };
        Ok(row.status == "ongoing" && usize::try_from(row.ply).ok() == Some(ply) && same_turn(&row, turn))
    }

    /// The shard counts other than this process's under which a shard ticked in the last
    /// [`DOWNTIME`] (`PostgreSQL` shared by processes with shard ranges): another process runs
    /// with another `DISCORD_SHARD_COUNT`. Every process must run with the same count: under two
    /// counts some servers fall on no process's range (nobody's scheduler times their games out,
    /// and Discord sends their clicks to nobody) and others on two. Empty without shards, and
    /// for a moment while the count is being changed.
    pub async fn other_shard_counts(&self, now: i64) -> Result<Vec<i64>, HostError> {
        let Some(served) = self.shards else { return Ok(Vec::new()) };
        let mut tx = self.db.begin_read().await?;
        Ok(store::scheduler::other_shard_counts(&mut tx, served.count, now.saturating_sub(DOWNTIME)).await?)
    }

    /// The shards of this process's range that another process has ticked too at every tick
    /// of this one for at least [`OVERLAP_REPORTED_AFTER`] by `now`, with the moment this began: the
    /// processes' `DISCORD_SHARDS` ranges overlap. Both then search the bot's turns and review
    /// the finished games of those shards' servers (a process's own shards' work takes no
    /// claim), and Discord may send their interactions to both. A rolling deployment overlaps
    /// for a moment, which is why a shorter overlap is not reported. `None` without shards.
    #[must_use]
    pub fn shards_served_twice(&self, now: i64) -> Option<(Vec<u32>, i64)> {
        let (since, shards) = self.served_twice.get()?;
        (now.saturating_sub(since) >= OVERLAP_REPORTED_AFTER).then_some((shards, since))
    }

    /// Finds and marks done everything due at `now` (see the module docs): first the downtime
    /// check, then the due games, expired challenges, digests and paused-games notices in small
    /// batches, each its own transaction that marks its items done before it commits.
    pub async fn tick(&self, now: i64) -> Result<Vec<Due>, HostError> {
        let mut due = Vec::new();
        if let Some(grace) = self.tick_begins(now).await? {
            due.push(grace);
        }
        in_batches(&mut due, |limit| self.due_games(now, limit)).await?;
        in_batches(&mut due, |limit| async move {
            let items = self.expired_challenges(now, limit).await?;
            Ok((items.len() as i64, items))
        })
        .await?;
        in_batches(&mut due, |limit| self.due_digests(now, limit)).await?;
        in_batches(&mut due, |limit| self.due_paused_notices(now, limit)).await?;
        Ok(due)
    }

    /// Records the tick, and gives the downtime grace when the last tick is too old: the bot's
    /// last tick, or with shards ([`Host::with_shards`]) each served shard's. Ticks of several
    /// processes take turns here only (`PostgreSQL`: an advisory lock held by this short
    /// transaction), so the grace is given once, before any process's tick looks for due games.
    async fn tick_begins(&self, now: i64) -> Result<Option<Due>, HostError> {
        let (grace, twice) = transaction!(self.db.begin_write(), |tx| {
            store::scheduler::lock(&mut tx).await?;
            let mut twice = Vec::new();
            let own = self.own_tick.get();
            let last = store::scheduler::last_tick(&mut tx).await?;
            let bot = last_run(last, own, now, self.downtime);
            // This process's own clock stepped back since its last tick: the ticks it recorded
            // lie in the clock's future, and are moved back to now, so that the next outage is
            // measured from a tick on the clock as it is. (A process that has just started
            // cannot tell its predecessor's future ticks from those of another process whose
            // clock runs ahead, which must not be moved back: see `last_run`.)
            let stepped_back = own.is_some_and(|own| own > now.saturating_add(CLOCK_STEP));
            let back_after = stepped_back.then_some(now.saturating_add(CLOCK_STEP));
            let mut late = Vec::new();
            match self.shards {
                None if bot != LastRun::Recent => late.push(ServedShards::ALL),
                None => {}
                Some(served) => {
                    let known = store::scheduler::shard_ticks(&mut tx, served.count, served.first, served.last).await?;
                    let ticked: std::collections::HashMap<i64, i64> =
                        known.iter().map(|tick| (tick.shard, tick.last_tick_at)).collect();
                    // Another process's name on a shard this process ticked before: it ticked
                    // the shard since (at a first tick, the name is a predecessor's).
                    if own.is_some() {
                        twice = known
                            .iter()
                            .filter(|tick| tick.ticked_by.as_deref().is_some_and(|by| by != &*self.process))
                            .filter_map(|tick| u32::try_from(tick.shard).ok())
                            .collect();
                    }
                    for shard in served.first..=served.last {
                        if last_run(ticked.get(&i64::from(shard)).copied(), own, now, self.downtime) == LastRun::Recent
                        {
                            continue;
                        }
                        // Runs of late shards as one range each: after an outage of the whole
                        // bot, one range for all its shards.
                        match late.last_mut() {
                            Some(run) if run.last + 1 == shard => run.last = shard,
                            _ => late.push(ServedShards { first: shard, last: shard, count: served.count }),
                        }
                    }
                    let range = (served.count, served.first, served.last);
                    store::scheduler::set_shard_ticks(&mut tx, range, &known, &self.process, now).await?;
                    if let Some(after) = back_after {
                        store::scheduler::move_shard_ticks_back(
                            &mut tx,
                            served.count,
                            served.first,
                            served.last,
                            after,
                            now,
                        )
                        .await?;
                    }
                }
            }
            let mut games = Vec::new();
            let until = now.saturating_add(self.grace);
            for shards in late {
                // Untimed games left unplayed get the same grace before they may be claimed.
                store::games::extend_claims(&mut tx, (now, until), (CLAIM_AFTER, CLAIM_WARNING), shards, None).await?;
                games.extend(store::games::extend_deadlines(&mut tx, until, now, shards).await?);
            }
            let mut grace = None;
            if !games.is_empty() {
                games.sort_unstable();
                tracing::info!(games = games.len(), last_tick = ?last, until, "downtime: deadlines moved to the grace period");
                for &game in &games {
                    super::outbox::record(&mut tx, &super::Show::Board { game, ply: 0 }, now).await?;
                }
                grace = Some(Due::Grace { until, games });
            }
            let recorded = match last {
                Some(last) if back_after.is_some_and(|after| last > after) => {
                    tracing::warn!(
                        last_tick = last,
                        now,
                        "the clock stepped back since the scheduler's last tick: the time since is unknown, so the \
                         grace after downtime is given, and the last tick is moved back to now"
                    );
                    now
                }
                // Never backwards otherwise: a process whose clock runs behind another's must
                // not make the other see a gap, and give the grace again, at each of its ticks.
                _ => last.map_or(now, |last| last.max(now)),
            };
            store::scheduler::set_last_tick(&mut tx, recorded).await?;
            Ok((grace, twice))
        })?;
        self.own_tick.set(now);
        self.served_twice.saw(twice, now);
        Ok(grace)
    }

    /// Whether a claim at `now` of a game in `guild` must wait for the grace after downtime
    /// first: the scheduler that judges the game's clocks (the bot's, or with shards that of
    /// the game's shard, which may be another process's) last ran longer ago than the downtime
    /// limit, so its first tick after the outage, which gives the grace, is still to come (the
    /// moments between a restart and that tick, a shard of this process away, or the game's
    /// shard's process down).
    pub(super) async fn claims_wait_for_grace(
        &self,
        conn: &mut super::Conn,
        guild: i64,
        now: i64,
    ) -> Result<bool, HostError> {
        let bot = store::scheduler::last_tick(conn).await?;
        // A scheduler that never ticked has no outage to measure, nor has it warned anyone yet:
        // a new database, whose untimed turns began after it, or one from before clocks, whose
        // waits began at the upgrade (migration 0016), cannot have a claim due before it ticks.
        // Every tick records the bot's last tick, with shards or without, so this is the
        // scheduler of every process that ever ran on the database.
        if bot.is_none() {
            return Ok(false);
        }
        let (last, ours) = match self.shards {
            None => (bot, true),
            Some(served) => {
                // Discord puts a server on shard `(id >> 22) % count`; games of no server are
                // shard 0's.
                let shard = u32::try_from((guild >> 22).rem_euclid(i64::from(served.count.max(1)))).unwrap_or(0);
                let ticks = store::scheduler::shard_ticks(conn, served.count, shard, shard).await?;
                (ticks.first().map(|tick| tick.last_tick_at), (served.first..=served.last).contains(&shard))
            }
        };
        // A shard that never ticked under this count (the bot ran without shards, or with
        // another count, before this start) is one whose games nobody knows how long waited:
        // its first tick gives them the grace (`last_run(None)` is `Down`, see `tick_begins`),
        // however recently another shard's process ticked, so a claim waits for it as well.
        let Some(last) = last else { return Ok(true) };
        if !ours && last > now.saturating_add(CLOCK_STEP) {
            // Another process's shard, ticked in this clock's future: that process runs, with a
            // clock ahead of this one's.
            return Ok(false);
        }
        let own = self.own_tick.get().filter(|_| ours);
        Ok(last_run(Some(last), own, now, self.downtime) != LastRun::Recent)
    }

    /// Up to `limit` due games, taken `FOR UPDATE SKIP LOCKED` (see [`store::games::due`]) and
    /// marked done in one transaction: how many were taken, and what came of them.
    async fn due_games(&self, now: i64, limit: i64) -> Result<(i64, Vec<Due>), HostError> {
        transaction!(self.db.begin_write(), |tx| {
            let rows = store::games::due(&mut tx, now, limit, self.shards.unwrap_or(ServedShards::ALL)).await?;
            let found = rows.len() as i64;
            let mut due = Vec::new();
            for row in rows {
                if let Some(item) = self.game_due(&mut tx, row, now).await? {
                    due.push(item);
                }
            }
            Ok((found, due))
        })
    }

    /// Expires up to `limit` challenges whose time is up, in one transaction.
    async fn expired_challenges(&self, now: i64, limit: i64) -> Result<Vec<Due>, HostError> {
        transaction!(self.db.begin_write(), |tx| {
            let mut due = Vec::new();
            for row in store::challenges::expire(&mut tx, now, limit).await? {
                let closed = super::Show::ChallengeClosed { challenge: row.id, by: row.challenger_id };
                super::outbox::record(&mut tx, &closed, now).await?;
                due.push(Due::ChallengeExpired(challenge_view(&mut tx, &row).await?));
            }
            Ok(due)
        })
    }

    /// Up to `limit` due digests, taken `FOR UPDATE SKIP LOCKED` on `PostgreSQL`, in one
    /// transaction: how many people were taken, and their digests (none for someone with no
    /// game waiting for them).
    async fn due_digests(&self, now: i64, limit: i64) -> Result<(i64, Vec<Due>), HostError> {
        transaction!(self.db.begin_write(), |tx| {
            let people = store::users::digests_due(&mut tx, now, limit).await?;
            let found = people.len() as i64;
            let mut due = Vec::new();
            for (user, due_at) in people {
                let mut next = due_at.saturating_add(DIGEST_INTERVAL);
                if next <= now {
                    // Far behind (the bot was down, or the digest was just turned on long ago):
                    // one digest now, the next a day later, not one per missed day.
                    next = now.saturating_add(DIGEST_INTERVAL);
                }
                store::users::set_digest_due(&mut tx, user, Some(next)).await?;
                let awaiting = super::awaiting(&mut tx, user).await?;
                if !awaiting.games.is_empty() {
                    super::outbox::record(&mut tx, &super::Show::Digest { user }, now).await?;
                    // Told in a DM, which belongs to no server (0): by their display name.
                    let user = User { id: user, name: store::users::name(&mut tx, user, 0).await? };
                    due.push(Due::Digest(Digest { user, awaiting }));
                }
            }
            Ok((found, due))
        })
    }

    /// Up to `limit` servers that removed the bot [`CLAIM_AFTER`] ago, in one transaction: each
    /// is marked done, and each of its games' players who asked for notices by DM is sent one,
    /// listing their games there that may now be ended. Returns how many servers it took. Like
    /// digests, these are every process's work, whatever its shards: a DM belongs to no server.
    async fn due_paused_notices(&self, now: i64, limit: i64) -> Result<(i64, Vec<Due>), HostError> {
        transaction!(self.db.begin_write(), |tx| {
            let servers = store::servers::paused_notices_due(&mut tx, now, limit).await?;
            let found = servers.len() as i64;
            let mut due = Vec::new();
            for guild in servers {
                store::servers::paused_notice_done(&mut tx, guild).await?;
                for user in store::games::players_in(&mut tx, guild).await? {
                    if is_bot(user) || !wants_dm(&mut tx, user).await? {
                        continue;
                    }
                    let games = super::paused_games(&mut tx, user, guild, now).await?;
                    if games.is_empty() {
                        continue;
                    }
                    super::outbox::record(&mut tx, &super::Show::PausedGames { user, guild }, now).await?;
                    // Told in a DM, which belongs to no server (0): by their display name.
                    let user = User { id: user, name: store::users::name(&mut tx, user, 0).await? };
                    due.push(Due::PausedGames(PausedGames { user, guild, games }));
                }
            }
            Ok((found, due))
        })
    }

    /// What is due for one game whose `next_due_at` has come: a time-out, a reminder, or
    /// nothing (the moment was only a checkpoint); marks it done.
    async fn game_due(&self, conn: &mut super::Conn, row: GameRow, now: i64) -> Result<Option<Due>, HostError> {
        if row.clock_seconds.is_none() {
            return self.untimed_due(conn, row, now).await;
        }
        let (Some(start), Some(deadline)) = (row.turn_started_at, row.deadline_at) else {
            // Nothing to wait for (a row damaged by hand): not due any more.
            store::games::set_reminders(conn, row.id, row.reminders_sent, None).await?;
            return Ok(None);
        };
        if is_bot(side_player(&row, to_move(&row))) {
            // The bot's turn runs without a clock (see the module docs): neither reminded nor
            // timed out; the deadline a turn stored before that rule is dropped.
            let clock = Clock::from_row(row.clock_seconds, row.reserve_cap);
            let turn = turn_from(clock, now, row.attacker_reserve, row.defender_reserve, to_move(&row), true);
            store::games::set_turn(conn, row.id, &turn).await?;
            tracing::info!(game = row.id, deadline, "the bot's turn came due; its clock is stopped instead");
            return Ok(None);
        }
        if now >= deadline {
            let loaded = match self.load(conn, row.id).await {
                Ok(loaded) => loaded,
                // A game that cannot be rebuilt (logged by `load`) cannot be timed out either.
                // Were the error returned, the batch would roll back and the game, oldest due,
                // would head every later batch: no other game timed out or reminded, no
                // challenge expired, no digest sent, for good. It stops being due instead.
                Err(HostError::Internal) => {
                    store::games::set_reminders(conn, row.id, row.reminders_sent, None).await?;
                    return Ok(None);
                }
                Err(error) => return Err(error),
            };
            let finished = end_for_absence(conn, loaded, Absence::Time, now).await?;
            return Ok(Some(Due::TimedOut(Box::new(finished))));
        }
        let kind = if row.reminders_sent < 2 && now >= clock::warning_at(start, deadline) {
            Some(ReminderKind::LastWarning)
        } else if row.reminders_sent < 1 && now >= clock::half_at(start, deadline) {
            Some(ReminderKind::Halfway)
        } else {
            None
        };
        let sent = match kind {
            Some(ReminderKind::LastWarning) => 2,
            Some(ReminderKind::Halfway) => 1,
            // Not chosen above: an untimed turn's (see `untimed_due`).
            Some(ReminderKind::ClaimWarning) | None => row.reminders_sent,
        };
        store::games::set_reminders(conn, row.id, sent, Some(clock::next_due(start, deadline, sent))).await?;
        let Some(kind) = kind else { return Ok(None) };
        self.remind(conn, &row, kind, deadline, now).await.map(Some)
    }

    /// Records reminder `kind` to the player to move in `row`'s game, before `deadline`.
    async fn remind(
        &self,
        conn: &mut super::Conn,
        row: &GameRow,
        kind: ReminderKind,
        deadline: i64,
        now: i64,
    ) -> Result<Due, HostError> {
        let side = to_move(row);
        let player_id = side_player(row, side);
        let (player, opponent) = match side {
            Side::Attackers => (&row.attacker_name, &row.defender_name),
            Side::Defenders => (&row.defender_name, &row.attacker_name),
        };
        let dm = wants_dm(conn, player_id).await?;
        let ply = usize::try_from(row.ply).unwrap_or(0);
        let turn = row.turn_started_at;
        let show = super::Show::Reminder { game: row.id, reminder: kind, ply, deadline_at: deadline, dm, turn };
        super::outbox::record(conn, &show, now).await?;
        Ok(Due::Reminder(Reminder {
            game: row.id,
            place: Place { guild: row.guild_id, channel: row.channel_id, thread: row.thread_id },
            variant: row.variant.clone(),
            kind,
            player: User { id: player_id, name: player.clone() },
            opponent: User { id: side_player(row, side.opponent()), name: opponent.clone() },
            side,
            ply,
            deadline_at: deadline,
            dm,
        }))
    }

    /// What is due for an untimed game whose `next_due_at` has come: once the person to move has
    /// left it for [`CLAIM_AFTER`], the bot claims it when the bot is the one waiting, and a
    /// person waiting is told they may claim it; marks it done. The bot's own turns are never
    /// due (its turns have no clock, see the module docs).
    async fn untimed_due(&self, conn: &mut super::Conn, row: GameRow, now: i64) -> Result<Option<Due>, HostError> {
        let side = to_move(&row);
        let (absent, waiting) = (side_player(&row, side), side_player(&row, side.opponent()));
        let claimable_at = row.turn_started_at.unwrap_or(now).saturating_add(CLAIM_AFTER);
        // Nobody can claim a game from themselves (one playing both sides, in tests).
        let claimable = !is_bot(absent) && absent != waiting;
        if !claimable || now < claimable_at {
            let warn_at = claimable_at.saturating_sub(CLAIM_WARNING);
            let warned = row.reminders_sent >= 1;
            if claimable && !warned && now >= warn_at {
                store::games::set_reminders(conn, row.id, 1, Some(claimable_at)).await?;
                return self.remind(conn, &row, ReminderKind::ClaimWarning, claimable_at, now).await.map(Some);
            }
            let next = claimable.then_some(if warned { claimable_at } else { warn_at });
            store::games::set_reminders(conn, row.id, row.reminders_sent, next).await?;
            return Ok(None);
        }
        store::games::set_reminders(conn, row.id, row.reminders_sent, None).await?;
        if is_bot(waiting) {
            let loaded = match self.load(conn, row.id).await {
                Ok(loaded) => loaded,
                // As for a time-out: a game that cannot be rebuilt stops being due.
                Err(HostError::Internal) => return Ok(None),
                Err(error) => return Err(error),
            };
            let finished = end_for_absence(conn, loaded, Absence::Abandoned, now).await?;
            return Ok(Some(Due::Claimed(Box::new(finished))));
        }
        let (absent_name, waiting_name) = match side {
            Side::Attackers => (&row.attacker_name, &row.defender_name),
            Side::Defenders => (&row.defender_name, &row.attacker_name),
        };
        let dm = wants_dm(conn, waiting).await?;
        let ply = usize::try_from(row.ply).unwrap_or(0);
        let turn = row.turn_started_at;
        super::outbox::record(conn, &super::Show::Claimable { game: row.id, ply, dm, turn }, now).await?;
        Ok(Some(Due::Claimable(Claimable {
            game: row.id,
            claimant: User { id: waiting, name: waiting_name.clone() },
            absent: User { id: absent, name: absent_name.clone() },
            aborts: ply < PLIES_TO_COUNT,
        })))
    }
}

/// This process's last tick, kept in memory: after the clock steps back, the last tick recorded
/// lies in its future and says nothing of the time since; this process's own last tick still
/// does, unless the step came after it too. A restarted process has none.
#[derive(Debug, Default)]
pub(super) struct OwnTick(std::sync::Mutex<Option<i64>>);

impl OwnTick {
    fn get(&self) -> Option<i64> {
        *self.0.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    fn set(&self, now: i64) {
        *self.0.lock().unwrap_or_else(std::sync::PoisonError::into_inner) = Some(now);
    }
}

/// The shards of this process that another process ticked too, at every tick since `since`
/// (see [`Host::shards_served_twice`]).
#[derive(Debug, Default)]
pub(super) struct ServedTwice(std::sync::Mutex<Option<(i64, Vec<u32>)>>);

impl ServedTwice {
    /// A tick at `now` found `shards` ticked by another process since this one's last: the
    /// overlap goes on (or begins), or, with none, it is over.
    fn saw(&self, shards: Vec<u32>, now: i64) {
        let mut seen = self.0.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        *seen = if shards.is_empty() {
            None
        } else {
            let since = seen.as_ref().map_or(now, |&(since, _)| since);
            Some((since, shards))
        };
    }

    fn get(&self) -> Option<(i64, Vec<u32>)> {
        self.0.lock().unwrap_or_else(std::sync::PoisonError::into_inner).clone()
    }
}

/// How long ago a scheduler last ran, as a tick at `now` sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum LastRun {
    /// Within the downtime limit: no grace.
    Recent,
    /// Longer ago, or never: the grace after downtime.
    Down,
    /// Unknown: the last tick recorded lies in the clock's future, and this process cannot
    /// vouch for the time since (it has just started, or its own clock stepped back since its
    /// last tick). The grace is given, since an outage may hide behind a step of the clock.
    Unknown,
}

/// How long ago the scheduler last ran, judged by the tick `recorded` (the bot's, or a shard's)
/// and this process's own last tick `own`, for a tick at `now` with the downtime limit
/// `downtime`. A record more than [`CLOCK_STEP`] ahead of the clock says nothing of the time
/// since (judged by it, an outage shorter than a step of the clock back went unseen, and the
/// player whose deadline fell in it lost on time): this process's own last tick does, when it
/// is not ahead too. A record a little ahead is another process's, whose clock runs a little
/// ahead, and counts as it is.
///
/// Records are never moved back but by the process whose own clock stepped back (see
/// `tick_begins`): a process whose clock runs behind another's must not make the other see a
/// gap, and give the grace again, at each of its ticks.
fn last_run(recorded: Option<i64>, own: Option<i64>, now: i64, downtime: i64) -> LastRun {
    let judged = |last: i64| if now.saturating_sub(last) > downtime { LastRun::Down } else { LastRun::Recent };
    let trusted = |at: &i64| *at <= now.saturating_add(CLOCK_STEP);
    match recorded {
        // Nobody knows how long the games waited (a new database, or a shard new to its count).
        None => LastRun::Down,
        Some(last) if trusted(&last) => judged(last),
        Some(_) => own.filter(trusted).map_or(LastRun::Unknown, judged),
    }
}

/// Takes one kind of due item into `due`, `batch(limit)` at a time (each returns how many it
/// took and what came due), [`CLAIM`] a batch, until a batch comes back short or [`BATCH`] were
/// taken.
async fn in_batches<F: Future<Output = Result<(i64, Vec<Due>), HostError>>>(
    due: &mut Vec<Due>,
    mut batch: impl FnMut(i64) -> F,
) -> Result<(), HostError> {
    let mut taken = 0;
    while taken < BATCH {
        let (found, items) = batch(CLAIM.min(BATCH - taken)).await?;
        due.extend(items);
        taken += found;
        if found < CLAIM {
            break;
        }
    }
    Ok(())
}

/// Whether `user` asked for notices by DM too.
async fn wants_dm(conn: &mut super::Conn, user: UserId) -> Result<bool, HostError> {
    Ok(match store::users::find(conn, user).await? {
        Some(row) => settings::read::<settings::UserSettings>(&row.settings, "user", user).dm_notifications,
        None => false,
    })
}

/// Why the side to move is taken to have lost a game it did not play on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Absence {
    /// Its clock ran out.
    Time,
    /// It left an untimed game for [`CLAIM_AFTER`], and the one waiting claimed the game.
    Abandoned,
}

/// Ends a game whose side to move is absent, in an open transaction: the other side wins (on
/// time, or by abandonment), or the game is aborted when fewer than [`PLIES_TO_COUNT`] plies
/// were played, since nothing was decided in it.
pub(super) async fn end_for_absence(
    conn: &mut super::Conn,
    loaded: super::Loaded,
    absence: Absence,
    now: i64,
) -> Result<Finished, HostError> {
    let absent = loaded.game.position().to_move();
    if loaded.game.ply() < PLIES_TO_COUNT {
        let ending = Ending { winner: None, reason: EndReason::Aborted };
        return finish_in(conn, loaded, ending, None, now).await;
    }
    let reason = match absence {
        Absence::Time => EndReason::Time,
        Absence::Abandoned => EndReason::Abandoned,
    };
    let ending = Ending { winner: Some(absent.opponent()), reason };
    let loser_id = side_player(&loaded.row, absent);
    finish_in(conn, loaded, ending, Some(loser_id), now).await
}

/// Whether `row`'s turn is the one that began at `turn`; an item recorded before turns were kept
/// (`None`) is judged by its ply alone.
fn same_turn(row: &GameRow, turn: Option<i64>) -> bool {
    turn.is_none() || row.turn_started_at == turn
}

/// The side to move in a stored game, from its ply count and first mover.
pub(super) fn to_move(row: &GameRow) -> Side {
    let first = row.start_to_move.as_deref().and_then(Side::from_name).unwrap_or(Side::Attackers);
    if row.ply % 2 == 0 { first } else { first.opponent() }
}

/// The first turn of a game from the usual start (the attackers move first) at `now`: the
/// time per move, or no clock when `bot_first` (the bot plays the attackers).
pub(super) fn first_turn(clock: Clock, now: i64, bot_first: bool) -> Turn {
    turn_from(clock, now, 0, 0, Side::Attackers, bot_first)
}

/// The turn after a move by `mover`, who began thinking at the row's turn start: their unused
/// time is banked (reserve clocks), and the opponent's turn begins now. The bot's reserve is
/// left as it is: its turns have no clock (see the module docs), so it is charged no time, and
/// it saves none either (banked, a turn of no time would save the whole time per move on every
/// reply). Nobody is charged the time a paused game (of a server the bot left) was paused: its
/// clock stopped when the bot left.
pub(super) fn turn_after_move(row: &GameRow, mover: Side, now: i64) -> Turn {
    let clock = Clock::from_row(row.clock_seconds, row.reserve_cap);
    let (mut attacker, mut defender) = (row.attacker_reserve, row.defender_reserve);
    if !is_bot(side_player(row, mover)) {
        let start = row.turn_started_at.unwrap_or(now);
        let end = row.server_left_at.map_or(now, |left| now.min(left.max(start)));
        match mover {
            Side::Attackers => attacker = clock.bank(attacker, start, end),
            Side::Defenders => defender = clock.bank(defender, start, end),
        }
    }
    let next = mover.opponent();
    turn_from(clock, now, attacker, defender, next, is_bot(side_player(row, next)))
}

/// The turn after a takeback: the player to move starts a fresh turn now with the reserve they
/// have (takebacks need both players' consent, so no one gains time against the other's will).
pub(super) fn turn_after_takeback(row: &GameRow, to_move: Side, now: i64) -> Turn {
    let clock = Clock::from_row(row.clock_seconds, row.reserve_cap);
    let bot = is_bot(side_player(row, to_move));
    turn_from(clock, now, row.attacker_reserve, row.defender_reserve, to_move, bot)
}

/// A turn of `to_move` beginning at `now`; a turn of the bot (`bot`) has no deadline.
fn turn_from(clock: Clock, now: i64, attacker_reserve: i64, defender_reserve: i64, to_move: Side, bot: bool) -> Turn {
    let reserve = match to_move {
        Side::Attackers => attacker_reserve,
        Side::Defenders => defender_reserve,
    };
    let deadline = if bot { None } else { clock.deadline(now, reserve) };
    let next_due_at = match deadline {
        Some(deadline) => Some(clock::next_due(now, deadline, 0)),
        // A person's untimed turn comes due twice: to warn them, then when it may be claimed.
        None if clock.is_untimed() && !bot => Some(now.saturating_add(CLAIM_AFTER - CLAIM_WARNING)),
        None => None,
    };
    Turn {
        attacker_reserve,
        defender_reserve,
        // Untimed turns record their start too: an untimed game left unplayed is claimed from it.
        turn_started_at: Some(now),
        deadline_at: deadline,
        reminders_sent: 0,
        next_due_at,
    }
}
