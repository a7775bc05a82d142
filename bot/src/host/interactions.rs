//! The interactions the bot has taken on (`interactions`, migration 0028), so that one Discord
//! delivers twice is carried out once: a resumed gateway session may dispatch an event again,
//! and during a rolling deploy on `PostgreSQL` two processes may serve the same shard. Recorded
//! in the database, not in memory, so that the second copy is known whichever process it reaches.

use super::outbox::PRUNE_BATCH;
use super::{Host, HostError};
use crate::store;

/// How long an interaction taken on is remembered: an hour. Its token, the only way to answer it,
/// lives 15 minutes, and a copy comes within a resumed session or a deploy's overlap.
pub const INTERACTIONS_KEPT_SECS: i64 = 60 * 60;

impl Host {
    /// Takes on the interaction `id` (Discord's id) at `now`: `true` the first time, `false` for
    /// a copy of one already taken on, here or by another process. One statement, outside any
    /// transaction ([`store::Db::write_alone`]): it is on the path of every command and click.
    ///
    /// On a cut connection the write is made again on another (after a server restart, a pooled
    /// connection used within the last second is taken without a ping), and the first try may
    /// have inserted the row without hearing so: the try's token tells its own row from a copy's.
    pub async fn take_interaction(&self, id: i64, now: i64) -> Result<bool, HostError> {
        let token = interaction_token(id, now);
        Ok(self.db.write_alone(|conn| Box::pin(store::interactions::take(conn, id, now, token))).await?)
    }

    /// Forgets the interactions taken on more than [`INTERACTIONS_KEPT_SECS`] ago, in batches of
    /// [`PRUNE_BATCH`], each its own short write transaction; returns how many went.
    pub async fn prune_interactions(&self, now: i64) -> Result<u64, HostError> {
        let mut pruned = 0;
        loop {
            let batch = transaction!(self.db.begin_write(), |tx| {
                let batch = store::interactions::prune(&mut tx, now - INTERACTIONS_KEPT_SECS, PRUNE_BATCH).await?;
                Ok(batch)
            })?;
            pruned += batch;
            if batch < PRUNE_BATCH as u64 {
                return Ok(pruned);
            }
        }
    }
}

/// A number for one try to take on the interaction `id`, unlikely to be any other try's: from
/// the standard library's per-process random hash keys, over the id, the time and a count of
/// this process's tries.
fn interaction_token(id: i64, now: i64) -> i64 {
    use std::hash::BuildHasher;
    use std::sync::atomic::{AtomicU64, Ordering};
    static TRIES: AtomicU64 = AtomicU64::new(0);
    let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos());
    let hashed = std::hash::RandomState::new().hash_one((id, now, nanos, TRIES.fetch_add(1, Ordering::Relaxed)));
    i64::from_ne_bytes(hashed.to_ne_bytes())
}
