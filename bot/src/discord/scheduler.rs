//! The scheduler loop of the Discord front end: every few seconds it asks the host what has come
//! due ([`crate::host::Host::tick`], which hands each item to exactly one process, once): reminders,
//! time-outs, expired challenge cards, daily digests and boards whose deadlines moved after
//! downtime are all in the outbox for the delivery task, which speaks the server's language as
//! stored (the one its managers chose, else the locale Discord last reported), and in a digest
//! its reader's last reported locale.

use std::time::{Duration, Instant};

use super::Data;
use super::play::now;

/// Ticks every `interval` until the task is aborted, while every shard of the process is
/// connected and listed since it connected ([`ReadyShards`]), and at once when they all become
/// so (at start-up, or back from an outage). A failed tick (the database busy
/// or gone) is logged and tried again at the next one; nothing is lost, since due items stay due
/// until a tick commits. What a tick finds is recorded in the outbox in the tick's own
/// transaction (reminders, time-outs, expired cards, digests, boards after downtime) and
/// delivered by the delivery task, which each tick wakes after looking for boards left behind.
/// Once an hour (and at the first tick) delivered items older than a week are deleted, and so
/// are the interactions taken on more than an hour ago ([`crate::host::INTERACTIONS_KEPT_SECS`]).
pub async fn run(data: Data, interval: Duration, gateway: super::health::Gateway) {
    let mut ticker = tokio::time::interval(interval);
    ticker.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    // The gateway is looked at more often than the scheduler ticks, so that a shard that
    // reconnects between two ticks is seen to have been away and must be listed again.
    let mut watch = tokio::time::interval(GATEWAY_WATCH.min(interval));
    watch.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let mut pruned_at: Option<Instant> = None;
    // When an overlap of shard ranges was last logged, while it goes on.
    let mut overlap_told_at: Option<Instant> = None;
    // The first READY is always handled after the loop starts: no warning for that.
    let mut was_ready = false;
    loop {
        let due = tokio::select! {
            _ = ticker.tick() => true,
            _ = watch.tick() => false,
        };
        // What the shards' marks were before the gateway is read: a mark made after it (a
        // shard back and listed meanwhile) is not undone by what was read.
        let seen = data.ready.marks();
        let away = gateway.away().await;
        for &(shard, _) in &away {
            data.ready.forget(shard, &seen);
        }
        let ready = away.is_empty() && data.ready.all_listed();
        // A tick at once when the shards become ready (at start-up, or back from an outage),
        // rather than at the next interval: the grace after downtime is given, and the warnings
        // an outage swallowed recorded, before players wait up to an interval for them. (A claim
        // that comes first waits for the grace all the same, see `Host::claim`.)
        let back = ready && !was_ready;
        if !due && !back {
            continue;
        }
        if ready != was_ready {
            if ready {
                tracing::info!("every shard is connected and listed; the scheduler ticks");
            } else {
                let away: Vec<String> = away.iter().map(|(shard, why)| format!("shard {shard} {why}")).collect();
                tracing::warn!(away = %away.join("; "), "players cannot reach the bot, or a server list is awaited; clocks wait");
            }
            was_ready = ready;
        }
        if !ready {
            continue;
        }
        if let Err(error) = data.host.tick(now()).await {
            tracing::warn!(%error, "the scheduler's tick failed; trying again at the next one");
            continue;
        }
        match data.host.shards_served_twice(now()) {
            // Once when the overlap has lasted long enough to be no deployment's, then hourly.
            Some((shards, since)) if overlap_told_at.is_none_or(|at| at.elapsed() >= PRUNE_EVERY) => {
                overlap_told_at = Some(Instant::now());
                tracing::error!(
                    ?shards,
                    since,
                    "another process has been ticking these shards of this process's too for over 10 minutes: \
                     the DISCORD_SHARDS ranges of the processes overlap. Both search the bot's turns and review \
                     the finished games of those shards' servers; give each shard to one process"
                );
            }
            Some(_) => {}
            None => overlap_told_at = None,
        }
        if let Err(error) = data.host.redraw_stale_boards(now()).await {
            tracing::warn!(%error, "could not look for boards behind their games");
        }
        // After the boards, so that a notice told again follows its game's board.
        if let Err(error) = data.host.retell_refused(now()).await {
            tracing::warn!(%error, "could not look for notices and summaries Discord refused");
        }
        data.delivery.wake();
        if pruned_at.is_none_or(|at| at.elapsed() >= PRUNE_EVERY) {
            pruned_at = Some(Instant::now());
            // At the first tick (a deployment's mistake shows at once) and then hourly.
            match data.host.other_shard_counts(now()).await {
                Ok(others) if !others.is_empty() => tracing::error!(
                    ?others,
                    "another process ran in the last 10 minutes with another DISCORD_SHARD_COUNT than this one's; \
                     every process must have the same count, or the servers of some shards are served by no \
                     process (their games never time out, their clicks go unanswered) and others by two \
                     (expected only while the count is being changed)"
                ),
                Ok(_) => {}
                Err(error) => tracing::warn!(%error, "could not compare the shard counts of the processes"),
            }
            if let Err(error) = data.host.prune_outbox(now()).await {
                tracing::warn!(%error, "could not delete old delivered outbox items; trying again in an hour");
            }
            if let Err(error) = data.host.prune_interactions(now()).await {
                tracing::warn!(%error, "could not forget old interactions; trying again in an hour");
            }
        }
    }
}

/// How often old delivered outbox items and interactions are deleted.
const PRUNE_EVERY: Duration = Duration::from_hours(1);

/// How often the scheduler looks at the gateway between ticks.
const GATEWAY_WATCH: Duration = Duration::from_millis(500);

/// Where a shard's server list stands in this run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Listing {
    /// Not listed since it was last seen away (or ever).
    Due,
    /// Its `READY` handler is comparing the servers with the games.
    Under,
    /// Its `READY` (or, after it, a `RESUMED`) has been handled.
    Done,
}

/// The shards of this process listed since they last connected: their `READY` (or `RESUMED`)
/// has been handled.
///
/// A tick waits for all of them. The `READY` handler marks the servers that removed the bot
/// while it was away, pausing their games and dating each removal from its shard's last tick.
/// serenity counts a shard connected as soon as `READY` arrives and handles the event later, so
/// a tick in between would judge those games' clocks (a deadline passed during a short outage
/// is a loss on time in a server that is gone) and record the reconnection as the shard's last
/// tick; at start-up the first tick would always come first. A `RESUMED` lists a shard again
/// only when no `READY` of it is being handled: the session it resumes may be that one.
///
/// The scheduler looks at the gateway twice a second and forgets a shard it sees away. A
/// reconnection quicker than that, whose `READY` handler has not begun when a tick comes, is
/// not seen: a window of milliseconds after a reconnection the watch missed.
///
/// A tick also waits while any shard is away ([`super::health::Gateway::away`]). Players act
/// through the gateway (every click and command comes over it), so while it is down they cannot
/// move, and their clocks must not run out: without ticks the last tick ages, and a tick after
/// a gap longer than the downtime limit gives everyone the grace, as after a restart. One shard
/// away stops the clocks of the whole process, which is the safe side: nobody loses on time for
/// the bot's fault, and a shard that cannot connect is what `/healthz` reports.
#[derive(Debug)]
pub struct ReadyShards {
    expected: usize,
    /// Each shard's listing, and how many times it changed (so that a forget decided on an
    /// older reading of the gateway does not undo a newer mark).
    shards: std::sync::Mutex<std::collections::BTreeMap<u32, (Listing, u64)>>,
}

/// The change counts of [`ReadyShards`] at one moment ([`ReadyShards::marks`]).
pub type Marks = std::collections::BTreeMap<u32, u64>;

impl ReadyShards {
    /// For a process serving `expected` shards.
    #[must_use]
    pub fn new(expected: usize) -> ReadyShards {
        ReadyShards { expected, shards: std::sync::Mutex::default() }
    }

    fn set(&self, shard: u32, to: Listing, unless: Option<Listing>) {
        let mut shards = self.shards.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        let entry = shards.entry(shard).or_insert((Listing::Due, 0));
        if Some(entry.0) != unless {
            *entry = (to, entry.1 + 1);
        }
    }

    /// Shard `shard`'s `READY` handler has begun.
    pub fn listing(&self, shard: u32) {
        self.set(shard, Listing::Under, None);
    }

    /// Shard `shard`'s `READY` has been handled.
    pub fn handled(&self, shard: u32) {
        self.set(shard, Listing::Done, None);
    }

    /// Shard `shard` resumed its session: listed again, unless its `READY` is being handled.
    pub fn resumed(&self, shard: u32) {
        self.set(shard, Listing::Done, Some(Listing::Under));
    }

    /// The change counts now, to pass to [`ReadyShards::forget`] after reading the gateway.
    #[must_use]
    pub fn marks(&self) -> Marks {
        let shards = self.shards.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        shards.iter().map(|(&shard, &(_, changes))| (shard, changes)).collect()
    }

    /// Shard `shard` was seen away: it must be listed again, unless it was marked since `seen`.
    pub fn forget(&self, shard: u32, seen: &Marks) {
        let mut shards = self.shards.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(entry) = shards.get_mut(&shard)
            && seen.get(&shard) == Some(&entry.1)
        {
            *entry = (Listing::Due, entry.1 + 1);
        }
    }

    /// Whether every shard of the process is listed.
    #[must_use]
    pub fn all_listed(&self) -> bool {
        let shards = self.shards.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        shards.values().filter(|(listing, _)| *listing == Listing::Done).count() >= self.expected
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ticks_wait_for_every_shard_listed_since_it_connected() {
        let ready = ReadyShards::new(2);
        ready.handled(4);
        ready.handled(4);
        assert!(!ready.all_listed(), "one shard of two, however often it connects");
        ready.handled(5);
        assert!(ready.all_listed());
        let seen = ready.marks();
        ready.forget(5, &seen);
        assert!(!ready.all_listed(), "a shard seen away must be listed again");
        ready.resumed(5);
        assert!(ready.all_listed(), "its session resumed");
    }

    /// A `RESUMED` while a `READY` is being handled does not list the shard: the servers are
    /// still being compared with the games.
    #[test]
    fn a_resume_during_a_ready_waits_for_it() {
        let ready = ReadyShards::new(1);
        ready.listing(0);
        ready.resumed(0);
        assert!(!ready.all_listed());
        ready.handled(0);
        assert!(ready.all_listed());
    }

    /// A shard read away, then back and listed before the forget: the newer mark stands.
    #[test]
    fn a_forget_from_an_older_reading_does_not_undo_a_newer_mark() {
        let ready = ReadyShards::new(1);
        ready.handled(0);
        let seen = ready.marks();
        // (The gateway is read here: the shard is away.) It comes back and resumes.
        ready.resumed(0);
        ready.forget(0, &seen);
        assert!(ready.all_listed(), "listed after the reading: kept");
        let seen = ready.marks();
        ready.forget(0, &seen);
        assert!(!ready.all_listed(), "seen away with nothing since: forgotten");
    }
}
