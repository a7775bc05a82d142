//! The servers the bot is in, and the games of those it was removed from.
//!
//! A server that removes the bot (kicks it, or is deleted) takes the boards of its games away:
//! their players can no longer see them or click, through no choice of theirs. Left alone,
//! their clocks would run out and lose them rated games, the bot would claim games against it,
//! and reminders would go to channels it cannot reach. So such games are **paused** from the
//! moment the bot leaves (migration 0017): nothing comes due in them (no reminder, time-out or
//! claim, and `/tafl claim` is refused), their deadlines are not moved by the downtime grace,
//! digests leave them out, game lists say why, the bot does not play its turns there, and what
//! they would show waits in the outbox. Moves, resignations and offers made by game id from
//! elsewhere still count: the game itself goes on, only its clock stops (a move charges no
//! reserve for the time away).
//!
//! Once the bot has been away for [`CLAIM_AFTER`], either player may end such a game without a
//! result (`/tafl claim`), and the scheduler tells the players who asked for notices by DM
//! (the game's channel is out of reach): one DM per person and server, listing their games
//! there (see `host/scheduler.rs`).
//!
//! When the bot is back in the server, every ongoing turn gets back the time it was away, so a
//! player's time and reserve are as the bot left them, and the scheduler works out each game's
//! reminders and claim again. What Discord showed is caught up: what waited in the outbox is
//! delivered, every ongoing game's board is drawn again (its deadline moved), and a game that
//! ended meanwhile, or whose summary Discord refused after the removal, gets its final board
//! and, unless one was shown or waits, its summary.
//!
//! Discord tells a removal apart from an outage: `GUILD_DELETE` carries `unavailable` in an
//! outage only. A removal while no process was connected shows at the next connection, as a
//! server with games going on that `READY` does not list for its shard, and a return as a
//! server it lists ([`Host::servers_listed`]). Every server the bot is in comes with
//! `GUILD_CREATE` at every connection, and when it joins one ([`Host::server_back`]).

use super::outbox::{self, Show};
use super::types::CLAIM_AFTER;
use super::{GameId, Host, HostError};
use crate::store;

/// What a `READY` changed ([`Host::servers_listed`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Listed {
    /// The servers found to have removed the bot.
    pub left: Vec<i64>,
    /// The games of servers found to have the bot again, shown again.
    pub resumed: Vec<GameId>,
}

impl Host {
    /// The bot was removed from `guild` at `now`: its games are paused (see the module docs).
    /// True when it was a member until now; a repeated notice keeps the first moment.
    pub async fn server_left(&self, guild: i64, now: i64) -> Result<bool, HostError> {
        let left = transaction!(self.db.begin_write(), |tx| {
            store::servers::lock(&mut tx, guild, now).await?;
            let notice_at = now.saturating_add(CLAIM_AFTER);
            Ok(store::servers::leave(&mut tx, guild, now, notice_at).await?)
        })?;
        if left {
            tracing::info!(guild, "the bot was removed from a server; its games are paused");
        }
        Ok(left)
    }

    /// Discord's `READY` for shard `shard` of `count` listed `present` (the servers the bot is in
    /// on that shard), at `now`. Every server of that shard with games going on that is not
    /// listed removed the bot while no process was connected: it is left from the shard's last
    /// tick (else the bot's, else `now`), the last moment a process could have known it, so that
    /// the downtime counts for nobody. Every listed server the bot had left is back (as by
    /// [`Host::server_back`]): the bot was added again while no process was connected, or a
    /// return was missed.
    pub async fn servers_listed(&self, shard: u32, count: u32, present: &[i64], now: i64) -> Result<Listed, HostError> {
        let (playing, away, last_tick) = {
            let mut tx = self.db.begin_read().await?;
            let playing = store::games::guilds_playing(&mut tx, shard, count).await?;
            let away = store::servers::left_of_shard(&mut tx, shard, count).await?;
            let shard_tick = store::scheduler::shard_ticks(&mut tx, count, shard, shard)
                .await?
                .first()
                .map(|tick| tick.last_tick_at);
            (playing, away, shard_tick.or(store::scheduler::last_tick(&mut tx).await?))
        };
        let present: std::collections::HashSet<i64> = present.iter().copied().collect();
        let since = last_tick.map_or(now, |tick| tick.min(now));
        let mut listed = Listed::default();
        for guild in playing.into_iter().filter(|guild| !present.contains(guild)) {
            if self.server_left(guild, since).await? {
                listed.left.push(guild);
            }
        }
        for guild in away.into_iter().filter(|guild| present.contains(guild)) {
            listed.resumed.extend(self.server_back(guild, now).await?);
        }
        Ok(listed)
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
        let resumed = transaction!(self.db.begin_write(), |tx| {
            store::servers::lock(&mut tx, guild, now).await?;
            // Another process may have resumed it since the read above.
            let Some(left_at) = store::servers::left_at(&mut tx, guild).await? else {
                return Ok(None);
            };
            store::servers::come_back(&mut tx, guild, now).await?;
            let mut shown = Vec::new();
            for (game, ply) in store::games::resume_guild(&mut tx, guild, left_at, now).await? {
                let ply = usize::try_from(ply).unwrap_or(0);
                outbox::record(&mut tx, &Show::Board { game, ply }, now).await?;
                shown.push(game);
            }
            for (game, ply) in store::games::finished_in_guild_since(&mut tx, guild, left_at).await? {
                // Every writer of a game's board item holds the game's row (in id order here,
                // after the server's, as the resumed games above are held by their update).
                store::games::lock(&mut tx, game).await?;
                let ply = usize::try_from(ply).unwrap_or(0);
                outbox::record(&mut tx, &Show::Board { game, ply }, now).await?;
                let summary = Show::Summary { game };
                if !store::outbox::summary_shown_or_pending(&mut tx, &summary.lane()).await? {
                    outbox::record(&mut tx, &summary, now).await?;
                }
                shown.push(game);
            }
            shown.sort_unstable();
            Ok(Some((left_at, shown)))
        })?;
        let Some((left_at, shown)) = resumed else {
            return Ok(Vec::new());
        };
        tracing::info!(
            guild,
            away_secs = now - left_at,
            games = shown.len(),
            "the bot is back in a server; its games resume"
        );
        Ok(shown)
    }
}
