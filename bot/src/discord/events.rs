//! poise's event handler: what the gateway sends beside commands and autocomplete, which poise
//! serves itself. Component interactions (buttons, menus) go to [`super::components`], which
//! takes each on once (a copy Discord delivers again is dropped, see [`super::take_on`]); the
//! events that say which servers the bot is in pause and resume the games of a server that
//! removed it (see [`crate::host::Host::server_left`]).

use std::time::Duration;

use poise::serenity_prelude as serenity;

use super::play::now;
use super::{BotError, Data, components};
use crate::host::{HostError, ServerSettings};

/// The pause before a second try of a server's pause or resumption, when the database failed.
const FIRST_PAUSE: Duration = Duration::from_millis(250);
/// How many times a server's membership is recorded at most, each time the cache changed
/// while the last one was written.
const ROUNDS: u32 = 3;

pub async fn on_event(ctx: &serenity::Context, event: &serenity::FullEvent, data: &Data) -> Result<(), BotError> {
    match event {
        serenity::FullEvent::InteractionCreate { interaction: serenity::Interaction::Component(component) } => {
            components::handle(ctx, data, component).await;
        }
        // Without `unavailable` the bot was removed (kicked, or the server deleted); with it,
        // the server is in an outage and comes back by itself.
        serenity::FullEvent::GuildDelete { incomplete, .. } if !incomplete.unavailable => {
            follow_membership(ctx, data, incomplete.id).await;
        }
        serenity::FullEvent::GuildCreate { guild, .. } => follow_membership(ctx, data, guild.id).await,
        serenity::FullEvent::ChannelDelete { channel, .. } => {
            forget_channel(data, channel.guild_id, channel.id).await;
            strand_games(data, channel.id).await;
        }
        // A resumed session replays what it missed (a removal too): nothing to list.
        serenity::FullEvent::Resume { .. } => data.ready.resumed(ctx.shard_id.0),
        serenity::FullEvent::Ready { data_about_bot: ready } => {
            let (shard, count) = ready.shard.map_or((0, 1), |shard| (shard.id.0, shard.total));
            data.ready.listing(shard);
            let present: Vec<i64> = ready.guilds.iter().map(|guild| guild.id.get() as i64).collect();
            let listed = persist(|| data.host.servers_listed(shard, count, &present, now())).await;
            // Listed or not, the shard's clocks go on: a database that refuses this refuses the
            // ticks too, and clocks must not wait on it for good.
            data.ready.handled(shard);
            match listed {
                Ok(listed) => {
                    if !listed.left.is_empty() {
                        tracing::info!(shard, servers = ?listed.left, "servers that removed the bot while it was away");
                    }
                    if !listed.resumed.is_empty() {
                        data.delivery.wake();
                    }
                }
                Err(error) => tracing::error!(shard, %error, "could not compare the servers with the games"),
            }
        }
        _ => {}
    }
    Ok(())
}

/// Records what serenity's cache says of the bot's membership of `guild` after a `GUILD_CREATE`
/// or a removal: in it its games resume, out of it they pause. The cache, not the event, is the
/// judge: serenity updates it in the order events arrive, then handles each event in a task of
/// its own, so the handlers of a removal and of a return a moment later (a kick and a new
/// invitation) may run in either order; whichever runs last records the state the cache ended
/// in. A server in an outage counts as out of it: a removal during an outage must pause its
/// games, and a server wrongly paused by an outage that began as its handler ran is resumed by
/// the `GUILD_CREATE` that ends the outage.
///
/// The cache is read again after each write, so that an event that changed it meanwhile is
/// followed too.
async fn follow_membership(ctx: &serenity::Context, data: &Data, guild: serenity::GuildId) {
    let member = || ctx.cache.guild(guild).is_some();
    let id = guild.get() as i64;
    let mut recorded = None;
    for _ in 0..ROUNDS {
        let now_member = member();
        if recorded == Some(now_member) {
            return;
        }
        if now_member {
            match persist(|| data.host.server_back(id, now())).await {
                Ok(games) if !games.is_empty() => data.delivery.wake(),
                Ok(_) => {}
                // Its games stay paused until the next connection's READY lists the server.
                Err(error) => {
                    tracing::error!(guild = id, %error, "could not resume the games of a server the bot is in");
                    return;
                }
            }
        } else if let Err(error) = persist(|| data.host.server_left(id, now())).await {
            // The next connection's READY will not list the server: it is paused then.
            tracing::error!(guild = id, %error, "could not pause the games of a server the bot left");
            return;
        }
        recorded = Some(now_member);
    }
}

/// A channel a moderator deleted leaves the server's list of channels for games: it can no longer
/// be picked to disallow it, and the list and its refusals would name it for good. Unless it was
/// the only one: an empty list allows every channel, which the managers did not ask for, so the
/// restriction stays until they allow another.
async fn forget_channel(data: &Data, guild: serenity::GuildId, channel: serenity::ChannelId) {
    let (guild, channel) = (guild.get() as i64, channel.get() as i64);
    let without = |settings: &ServerSettings| {
        if settings.channels.len() < 2 || !settings.channels.contains(&channel) {
            return Err(()); // Nothing to change: nothing is written.
        }
        let channels = settings.channels.iter().copied().filter(|id| *id != channel).collect();
        Ok(ServerSettings { channels, ..settings.clone() })
    };
    match persist(|| data.host.change_server_settings(guild, now(), without)).await {
        Ok(Ok(_)) => tracing::info!(guild, channel, "a deleted channel left the server's channels for games"),
        Ok(Err(())) => {}
        Err(error) => tracing::error!(guild, channel, %error, "could not forget a deleted channel"),
    }
}

/// The games going on in a channel a moderator deleted (or in its threads, which go with it) have
/// no channel from now on: their players who asked for DMs are told how to go on elsewhere, and
/// nothing more is posted where they were (see [`crate::host::Host::channel_deleted`]). Missed
/// while the bot was down, the deletion is found at the first post refused there.
async fn strand_games(data: &Data, channel: serenity::ChannelId) {
    let channel = channel.get() as i64;
    match persist(|| data.host.channel_deleted(channel, now())).await {
        Ok(games) if !games.is_empty() => data.delivery.wake(),
        Ok(_) => {}
        Err(error) => tracing::error!(channel, %error, "could not record the games of a deleted channel"),
    }
}

/// Runs `attempt`, again when the database failed: nobody waits for these events' answer, and
/// a database failing for a moment should not cost a server its pause or resumption.
async fn persist<T, F: Future<Output = Result<T, HostError>>>(attempt: impl FnMut() -> F) -> Result<T, HostError> {
    super::retry::retry_while(|error| matches!(error, HostError::Storage(_)), FIRST_PAUSE, attempt).await
}
