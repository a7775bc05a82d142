//! The scheduler loop of the Discord front end: every few seconds it asks the host what has come
//! due ([`crate::host::Host::tick`], which hands each item to exactly one process, once): reminders,
//! time-outs, expired challenge cards, daily digests and boards whose deadlines moved after
//! downtime are all in the outbox for the delivery task, which speaks the server's language as
//! stored (the one its managers chose, else the locale Discord last reported), and in a digest
//! its reader's last reported locale.

use std::time::Duration;

use super::Data;
use super::play::now;

/// Ticks every `interval` until the task is aborted. A failed tick (the database busy or gone)
/// is logged and tried again at the next one; nothing is lost, since due items stay due until a
/// tick commits. What a tick finds is recorded in the outbox in the tick's own transaction
/// (reminders, time-outs, expired cards, digests, boards after downtime) and delivered by the
/// delivery task, which each tick wakes after looking for boards left behind.
pub async fn run(data: Data, interval: Duration) {
    let mut ticker = tokio::time::interval(interval);
    ticker.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
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
    }
}
