//! The scheduler: deadlines are stored with each game, never slept on, and a loop calls
//! [`Host::tick`] every few seconds to find what has come due: reminders, time-outs, expired
//! challenges and daily digests.
//!
//! Each tick is one `BEGIN IMMEDIATE` transaction that finds the due items and marks them done
//! before it commits, so with several bot processes on one database file, and across restarts,
//! every item is returned by exactly one tick. (If a process dies after the commit but before
//! posting, that notice is lost; the time-out itself is recorded either way.)
//!
//! **Turns and reminders.** Each move starts the opponent's turn: it runs out at the time per
//! move (plus their reserve, for reserve clocks). The player to move gets a reminder when half of
//! the turn is gone, and a last warning when a tenth of it is left (but no earlier than 6 hours
//! before the deadline); when a tick comes late and both are due, only the last warning is sent.
//! At the deadline the player to move loses on time, except that a game where fewer than two
//! plies were played is aborted (no result, never rated). A move that reaches the host before
//! the tick that notices the deadline still counts.
//!
//! **Grace after downtime.** The scheduler records its last tick. When a tick finds none, or one
//! older than [`DOWNTIME`], the bot was down (or is new): every deadline that passed during the
//! outage or would pass within [`GRACE`] is moved to one hour from now and stored, so nobody loses
//! on time for the bot's outage, and the new deadline is the one players see.

use tafl_rules::Side;

use super::clock::{self, Clock};
use super::{
    Challenge, EndReason, Ending, Finished, GameId, GameSummary, Host, HostError, Place, User, challenge_view,
    finish_in, settings, side_player, summary,
};
use crate::store::games::Turn;
use crate::store::{self, GameRow};

/// A gap between ticks longer than this means the bot was down.
pub const DOWNTIME: i64 = 10 * 60;
/// After downtime, no deadline falls sooner than this after the first tick.
pub const GRACE: i64 = 60 * 60;
/// How often a digest comes.
pub const DIGEST_INTERVAL: i64 = 24 * 60 * 60;
/// How often the front end should call [`Host::tick`]: reminders and time-outs come at most this
/// late, far under [`DOWNTIME`].
pub const TICK_INTERVAL: std::time::Duration = std::time::Duration::from_secs(20);
/// The most games and the most digests one tick handles, so that a tick stays short after a long
/// outage; the rest come at the next tick.
const BATCH: i64 = 500;

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
}

/// Which reminder of a turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ReminderKind {
    /// Half of the turn's time is gone.
    Halfway,
    /// The last warning before the deadline.
    LastWarning,
}

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
    /// When their time runs out (unix seconds), for `<t:…:R>`.
    pub deadline_at: i64,
    /// The player asked for notices by DM.
    pub dm: bool,
}

/// A daily digest for one user.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Digest {
    pub user: User,
    /// Their ongoing games where it is their turn, most recently active first.
    pub games: Vec<GameSummary>,
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

    /// Finds and marks done everything due at `now` (see the module docs), in one transaction.
    pub async fn tick(&self, now: i64) -> Result<Vec<Due>, HostError> {
        let mut tx = self.db.begin_write().await?;
        let mut due = Vec::new();
        let last = store::scheduler::last_tick(&mut tx).await?;
        if last.is_none_or(|last| now - last > self.downtime) {
            let until = now.saturating_add(self.grace);
            let mut games = store::games::extend_deadlines(&mut tx, until, now).await?;
            if !games.is_empty() {
                games.sort_unstable();
                tracing::info!(games = games.len(), last_tick = ?last, until, "downtime: deadlines moved to the grace period");
                for &game in &games {
                    super::outbox::record(&mut tx, &super::Show::Board { game, ply: 0 }, now).await?;
                }
                due.push(Due::Grace { until, games });
            }
        }
        for row in store::games::due(&mut tx, now, BATCH).await? {
            if let Some(item) = self.game_due(&mut tx, row, now).await? {
                due.push(item);
            }
        }
        for row in store::challenges::expire(&mut tx, now).await? {
            let closed = super::Show::ChallengeClosed { challenge: row.id, by: row.challenger_id };
            super::outbox::record(&mut tx, &closed, now).await?;
            due.push(Due::ChallengeExpired(challenge_view(&mut tx, &row).await?));
        }
        for (user, due_at) in store::users::digests_due(&mut tx, now, BATCH).await? {
            let mut next = due_at.saturating_add(DIGEST_INTERVAL);
            if next <= now {
                // Far behind (the bot was down, or the digest was just turned on long ago):
                // one digest now, the next a day later, not one per missed day.
                next = now.saturating_add(DIGEST_INTERVAL);
            }
            store::users::set_digest_due(&mut tx, user, Some(next)).await?;
            let rows = store::games::of_user(&mut tx, user, true, 100).await?;
            let games: Vec<GameSummary> =
                rows.iter().map(|row| summary(row, user)).filter(GameSummary::my_turn).collect();
            if !games.is_empty() {
                super::outbox::record(&mut tx, &super::Show::Digest { user }, now).await?;
                let user = User { id: user, name: store::users::name(&mut tx, user).await? };
                due.push(Due::Digest(Digest { user, games }));
            }
        }
        store::scheduler::set_last_tick(&mut tx, now).await?;
        tx.commit().await?;
        Ok(due)
    }

    /// What is due for one game whose `next_due_at` has come: a time-out, a reminder, or
    /// nothing (the moment was only a checkpoint); marks it done.
    async fn game_due(&self, conn: &mut super::Conn, row: GameRow, now: i64) -> Result<Option<Due>, HostError> {
        let (Some(start), Some(deadline)) = (row.turn_started_at, row.deadline_at) else {
            // Nothing to wait for: an untimed game should not be due at all.
            store::games::set_reminders(conn, row.id, row.reminders_sent, None).await?;
            return Ok(None);
        };
        if now >= deadline {
            let loaded = self.load(conn, row.id).await?;
            let finished = time_out_in(conn, loaded, now).await?;
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
            None => row.reminders_sent,
        };
        store::games::set_reminders(conn, row.id, sent, Some(clock::next_due(start, deadline, sent))).await?;
        let Some(kind) = kind else { return Ok(None) };
        let side = to_move(&row);
        let player_id = side_player(&row, side);
        let (player, opponent) = match side {
            Side::Attackers => (&row.attacker_name, &row.defender_name),
            Side::Defenders => (&row.defender_name, &row.attacker_name),
        };
        let dm = match store::users::find(conn, player_id).await? {
            Some(user) => settings::read::<settings::UserSettings>(&user.settings, "user", player_id).dm_notifications,
            None => false,
        };
        let ply = usize::try_from(row.ply).unwrap_or(0);
        let show = super::Show::Reminder { game: row.id, reminder: kind, ply, deadline_at: deadline, dm };
        super::outbox::record(conn, &show, now).await?;
        Ok(Some(Due::Reminder(Reminder {
            game: row.id,
            place: Place { guild: row.guild_id, channel: row.channel_id, thread: row.thread_id },
            variant: row.variant.clone(),
            kind,
            player: User { id: player_id, name: player.clone() },
            opponent: User { id: side_player(&row, side.opponent()), name: opponent.clone() },
            side,
            ply: usize::try_from(row.ply).unwrap_or(0),
            deadline_at: deadline,
            dm,
        })))
    }
}

/// Ends a game on time in an open transaction: the side to move loses, or the game is aborted
/// when fewer than two plies were played.
pub(super) async fn time_out_in(
    conn: &mut super::Conn,
    loaded: super::Loaded,
    now: i64,
) -> Result<Finished, HostError> {
    let loser = loaded.game.position().to_move();
    if loaded.game.ply() < 2 {
        let ending = Ending { winner: None, reason: EndReason::Aborted };
        return finish_in(conn, loaded, ending, None, now).await;
    }
    let ending = Ending { winner: Some(loser.opponent()), reason: EndReason::Time };
    let loser_id = side_player(&loaded.row, loser);
    finish_in(conn, loaded, ending, Some(loser_id), now).await
}

/// The side to move in a stored game, from its ply count and first mover.
pub(super) fn to_move(row: &GameRow) -> Side {
    let first = row.start_to_move.as_deref().and_then(Side::from_name).unwrap_or(Side::Attackers);
    if row.ply % 2 == 0 { first } else { first.opponent() }
}

/// The first turn of a game from the usual start (the attackers move first) at `now`: the
/// time per move.
pub(super) fn first_turn(clock: Clock, now: i64) -> Turn {
    turn_from(clock, now, 0, 0, Side::Attackers)
}

/// The turn after a move by `mover`, who began thinking at the row's turn start: their unused
/// time is banked (reserve clocks), and the opponent's turn begins now.
pub(super) fn turn_after_move(row: &GameRow, mover: Side, now: i64) -> Turn {
    let clock = Clock::from_row(row.clock_seconds, row.reserve_cap);
    let start = row.turn_started_at.unwrap_or(now);
    let (mut attacker, mut defender) = (row.attacker_reserve, row.defender_reserve);
    match mover {
        Side::Attackers => attacker = clock.bank(attacker, start, now),
        Side::Defenders => defender = clock.bank(defender, start, now),
    }
    turn_from(clock, now, attacker, defender, mover.opponent())
}

/// The turn after a takeback: the player to move starts a fresh turn now with the reserve they
/// have (takebacks need both players' consent, so no one gains time against the other's will).
pub(super) fn turn_after_takeback(row: &GameRow, to_move: Side, now: i64) -> Turn {
    let clock = Clock::from_row(row.clock_seconds, row.reserve_cap);
    turn_from(clock, now, row.attacker_reserve, row.defender_reserve, to_move)
}

/// A turn of `to_move` beginning at `now`.
fn turn_from(clock: Clock, now: i64, attacker_reserve: i64, defender_reserve: i64, to_move: Side) -> Turn {
    let reserve = match to_move {
        Side::Attackers => attacker_reserve,
        Side::Defenders => defender_reserve,
    };
    let deadline = clock.deadline(now, reserve);
    Turn {
        attacker_reserve,
        defender_reserve,
        turn_started_at: deadline.map(|_| now),
        deadline_at: deadline,
        reminders_sent: 0,
        next_due_at: deadline.map(|deadline| clock::next_due(now, deadline, 0)),
    }
}
