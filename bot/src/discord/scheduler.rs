//! The scheduler loop of the Discord front end: every few seconds it asks the host what has come
//! due ([`crate::host::Host::tick`], which hands each item to exactly one process, once): reminders,
//! time-outs, expired challenge cards, daily digests and boards whose deadlines moved after
//! downtime are all in the outbox for the delivery task, which speaks the server's language as
//! stored (the one its managers chose, else the locale Discord last reported), and in a digest
//! its reader's last reported locale.

use std::time::{Duration, Instant};

use super::Data;
use super::play::now;

/// Ticks every `interval` until the task is aborted. A failed tick (the database busy or gone)
/// is logged and tried again at the next one; nothing is lost, since due items stay due until a
/// tick commits. What a tick finds is recorded in the outbox in the tick's own transaction
/// (reminders, time-outs, expired cards, digests, boards after downtime) and delivered by the
/// delivery task, which each tick wakes after looking for boards left behind. Once an hour (and
/// at the first tick) delivered items older than a week are deleted.
pub async fn run(data: Data, interval: Duration) {
    let mut ticker = tokio::time::interval(interval);
    ticker.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let mut pruned_at: Option<Instant> = None;
    loop {
        ticker.tick().await;
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
