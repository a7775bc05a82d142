//! The servers the bot is in, and the games of those it was removed from.
//!
//! A server that removes the bot (kicks it, or is deleted) takes the boards of its games away:
//! their players can no longer see them or click, through no choice of theirs. Left alone,
//! their clocks would run out and lose them rated games, the bot would claim games against it,
//! and reminders would go to channels it cannot reach. So such games are **paused** from the
//! moment the bot leaves (migration 0017): nothing comes due in them (no reminder, time-out or
//! claim, and `/tafl claim` is refused), their deadlines are not moved by the downtime grace,
//! digests leave them out, and game lists say why. Moves, resignations and offers made by game
//! id from elsewhere still count: the game itself goes on, only its clock stops.
//!
//! When the bot is back in the server, every ongoing turn gets back the time it was away, so a
//! player's time and reserve are as the bot left them, and the scheduler works out each game's
//! reminders and claim again. What Discord showed is caught up: every ongoing game's board is
//! drawn again (it may show a move made by id meanwhile, and its deadline moved), and a game
//! that ended meanwhile gets its final board and, unless one was shown, its summary.
//!
//! Discord tells a removal apart from an outage: `GUILD_DELETE` carries `unavailable` in an
//! outage only. A removal while no process was connected shows at the next connection, as a
//! server with games going on that `READY` does not list for its shard
//! ([`Host::servers_missing`]). Every server the bot is in comes with `GUILD_CREATE` at every
//! connection, and when it joins one ([`Host::server_back`]).

use super::outbox::{self, Show};
use super::{GameId, Host, HostError};
use crate::store;

impl Host {
    /// The bot was removed from `guild` at `now`: its games are paused (see the module docs).
    /// True when it was a member until now; a repeated notice keeps the first moment.
    pub async fn server_left(&self, guild: i64, now: i64) -> Result<bool, HostError> {
        retrying!({
            let mut tx = self.db.begin_write().await?;
            store::servers::lock(&mut tx, guild, now).await?;
            let left = store::servers::leave(&mut tx, guild, now).await?;
            tx.commit().await?;
            if left {
                tracing::info!(guild, "the bot was removed from a server; its games are paused");
            }
            Ok(left)
        })
    }

    /// Discord's `READY` for shard `shard` of `count` listed `present` (the servers the bot is in
    /// on that shard): every server of that shard with games going on that is not listed removed
    /// the bot while no process was connected, and is left as by [`Host::server_left`]. Returns
    /// those newly left.
    pub async fn servers_missing(
        &self,
        shard: u32,
        count: u32,
        present: &[i64],
        now: i64,
    ) -> Result<Vec<i64>, HostError> {
        let playing = {
            let mut tx = self.db.begin_read().await?;
            store::games::guilds_playing(&mut tx, shard, count).await?
        };
        let present: std::collections::HashSet<i64> = present.iter().copied().collect();
        let mut left = Vec::new();
        for guild in playing.into_iter().filter(|guild| !present.contains(guild)) {
            if self.server_left(guild, now).await? {
                left.push(guild);
            }
        }
        Ok(left)
    }

    /// The bot is in `guild` at `now` (Discord sends `GUILD_CREATE` for every server at every
    /// connection): when it had left, the server's games resume, each turn given back the time
    /// the bot was away, and their boards (and the summaries of games that ended meanwhile)
    /// are shown again. Returns the games shown again, none when the bot had not left; a
    /// server it never left costs one read.
    pub async fn server_back(&self, guild: i64, now: i64) -> Result<Vec<GameId>, HostError> {
        {
            let mut tx = self.db.begin_read().await?;
            if store::servers::left_at(&mut tx, guild).await?.is_none() {
                return Ok(Vec::new());
            }
        }
        retrying!({
            let mut tx = self.db.begin_write().await?;
            store::servers::lock(&mut tx, guild, now).await?;
            // Another process may have resumed it since the read above.
            let Some(left_at) = store::servers::left_at(&mut tx, guild).await? else {
                return Ok(Vec::new());
            };
            store::servers::come_back(&mut tx, guild, now).await?;
            let mut shown = Vec::new();
            for (game, ply) in store::games::resume_guild(&mut tx, guild, left_at, now).await? {
                outbox::record(&mut tx, &Show::Board { game, ply: ply as usize }, now).await?;
                shown.push(game);
            }
            for (game, ply) in store::games::finished_in_guild_since(&mut tx, guild, left_at).await? {
                outbox::record(&mut tx, &Show::Board { game, ply: ply as usize }, now).await?;
                let summary = Show::Summary { game };
                if !store::outbox::shown_or_pending(&mut tx, &summary.lane(), summary.kind()).await? {
                    outbox::record(&mut tx, &summary, now).await?;
                }
                shown.push(game);
            }
            tx.commit().await?;
            tracing::info!(
                guild,
                away_secs = now - left_at,
                games = shown.len(),
                "the bot is back in a server; its games resume"
            );
            shown.sort_unstable();
            Ok(shown)
        })
    }
}
