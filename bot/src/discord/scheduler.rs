//! The scheduler loop of the Discord front end: every few seconds it asks the host what has come
//! due ([`crate::host::Host::tick`], which hands each item to exactly one process, once): reminders,
//! time-outs, expired challenge cards, daily digests and boards whose deadlines moved after
//! downtime are all in the outbox for the delivery task, which speaks the server's language as
//! stored (the one its managers chose, else the locale Discord last reported), and in a digest
//! its reader's last reported locale.

use std::time::{Duration, Instant};

use super::Data;
use super::play::now;

/// Ticks every `interval` until the task is aborted, once the process's shards are listed
/// ([`ReadyShards`]) and while they are connected. A failed tick (the database busy or gone)
/// is logged and tried again at the next one; nothing is lost, since due items stay due until a
/// tick commits. What a tick finds is recorded in the outbox in the tick's own transaction
/// (reminders, time-outs, expired cards, digests, boards after downtime) and delivered by the
/// delivery task, which each tick wakes after looking for boards left behind. Once an hour (and
/// at the first tick) delivered items older than a week are deleted.
pub async fn run(data: Data, interval: Duration, gateway: super::health::Gateway) {
    if tokio::time::timeout(READY_WAIT, data.ready.all()).await.is_err() {
        tracing::warn!(
            wait_s = READY_WAIT.as_secs(),
            "not every shard of this process has connected; the scheduler starts without them"
        );
    }
    let mut ticker = tokio::time::interval(interval);
    ticker.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let mut pruned_at: Option<Instant> = None;
    let mut was_connected = true;
    loop {
        ticker.tick().await;
        let problems = gateway.problems().await;
        let connected = problems.is_empty();
        if connected != was_connected {
            if connected {
                tracing::info!("the gateway is back; the scheduler ticks again");
            } else {
                tracing::warn!(problems = %problems.join("; "), "players cannot reach the bot; clocks wait until they can");
            }
            was_connected = connected;
        }
        if !connected {
            continue;
        }
        if let Err(error) = data.host.tick(now()).await {
            tracing::warn!(%error, "the scheduler's tick failed; trying again at the next one");
            continue;
        }
        if let Err(error) = data.host.redraw_stale_boards(now()).await {
            tracing::warn!(%error, "could not look for boards behind their games");
        }
        data.delivery.wake();
        if pruned_at.is_none_or(|at| at.elapsed() >= PRUNE_EVERY) {
            pruned_at = Some(Instant::now());
            if let Err(error) = data.host.prune_outbox(now()).await {
                tracing::warn!(%error, "could not delete old delivered outbox items; trying again in an hour");
            }
        }
    }
}

/// How often old delivered outbox items are deleted.
const PRUNE_EVERY: Duration = Duration::from_hours(1);

/// The longest the first tick waits for this process's shards to connect ([`ReadyShards`]).
const READY_WAIT: Duration = Duration::from_mins(10);

/// The shards of this process whose first `READY` has been handled in this run.
///
/// The first tick waits for all of them (at most [`READY_WAIT`]): the `READY` handler marks the
/// servers that removed the bot while it was away, pausing their games and dating each removal
/// from its shard's last tick before the restart. A tick before it would judge those games'
/// clocks (a deadline passed during a short restart is a loss on time in a server that is gone)
/// and record the restart as the shard's last tick.
///
/// After that, a tick runs only while every shard is connected ([`super::health::Gateway`]).
/// Players act through the gateway (every click and command comes over it), so while it is down
/// they cannot move, and their clocks must not run out: without ticks the last tick ages, and a
/// tick after a gap longer than the downtime limit gives everyone the grace, as after a restart.
/// Waiting costs no player time either way.
#[derive(Debug)]
pub struct ReadyShards {
    expected: usize,
    seen: tokio::sync::watch::Sender<std::collections::BTreeSet<u32>>,
}

impl ReadyShards {
    /// For a process serving `expected` shards.
    #[must_use]
    pub fn new(expected: usize) -> ReadyShards {
        ReadyShards { expected, seen: tokio::sync::watch::Sender::new(std::collections::BTreeSet::new()) }
    }

    /// Shard `shard`'s `READY` has been handled.
    pub fn handled(&self, shard: u32) {
        self.seen.send_if_modified(|seen| seen.insert(shard));
    }

    /// Returns once every shard of the process has been handled.
    pub async fn all(&self) {
        let expected = self.expected;
        // The sender lives in `self`, so the channel cannot close while this waits.
        let _ = self.seen.subscribe().wait_for(|seen| seen.len() >= expected).await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn the_first_tick_waits_for_every_shard_of_the_process() {
        let ready = std::sync::Arc::new(ReadyShards::new(2));
        let waiting = tokio::spawn({
            let ready = ready.clone();
            async move { ready.all().await }
        });
        ready.handled(4);
        ready.handled(4);
        tokio::task::yield_now().await;
        assert!(!waiting.is_finished(), "one shard of two, however often it connects");
        ready.handled(5);
        tokio::time::timeout(Duration::from_secs(5), waiting).await.expect("both shards").expect("no panic");
        // Later waits (none today) return at once.
        tokio::time::timeout(Duration::from_secs(5), ready.all()).await.expect("already ready");
    }
}
