//! poise's event handler: what the gateway sends beside commands and autocomplete, which poise
//! serves itself. Component interactions (buttons, menus) go to [`super::components`]; the
//! events that say which servers the bot is in pause and resume the games of a server that
//! removed it (see [`crate::host::Host::server_left`]).

use std::time::Duration;

use poise::serenity_prelude as serenity;

use super::play::now;
use super::{BotError, Data, components};
use crate::host::HostError;

/// Tries of a server's pause or resumption before it is left to the next connection.
const ATTEMPTS: u32 = 3;
/// The pause before the second try; each further one is four times longer.
const FIRST_PAUSE: Duration = Duration::from_millis(250);

pub async fn on_event(ctx: &serenity::Context, event: &serenity::FullEvent, data: &Data) -> Result<(), BotError> {
    match event {
        serenity::FullEvent::InteractionCreate { interaction: serenity::Interaction::Component(component) } => {
            components::handle(ctx, data, component).await;
        }
        // Without `unavailable` the bot was removed (kicked, or the server deleted); with it,
        // the server is in an outage and comes back by itself.
        serenity::FullEvent::GuildDelete { incomplete, .. } if !incomplete.unavailable => {
            let guild = incomplete.id.get() as i64;
            if let Err(error) = persist(|| data.host.server_left(guild, now())).await {
                // The next connection's READY will not list the server: it is paused then.
                tracing::error!(guild, %error, "could not pause the games of a server the bot left");
            }
        }
        serenity::FullEvent::GuildCreate { guild, .. } => {
            let id = guild.id.get() as i64;
            match persist(|| data.host.server_back(id, now())).await {
                Ok(games) if !games.is_empty() => data.delivery.wake(),
                Ok(_) => {}
                // Its games stay paused until the next connection sends the server again.
                Err(error) => {
                    tracing::error!(guild = id, %error, "could not resume the games of a server the bot is back in");
                }
            }
        }
        serenity::FullEvent::Ready { data_about_bot: ready } => {
            let (shard, count) = ready.shard.map_or((0, 1), |shard| (shard.id.0, shard.total));
            let present: Vec<i64> = ready.guilds.iter().map(|guild| guild.id.get() as i64).collect();
            match persist(|| data.host.servers_missing(shard, count, &present, now())).await {
                Ok(left) if !left.is_empty() => {
                    tracing::info!(shard, servers = ?left, "servers that removed the bot while it was away");
                }
                Ok(_) => {}
                Err(error) => tracing::error!(shard, %error, "could not look for servers that removed the bot"),
            }
        }
        _ => {}
    }
    Ok(())
}

/// Runs `attempt` until it succeeds or has failed [`ATTEMPTS`] times: nobody waits for these
/// events' answer, and a busy database should not cost a server its pause or resumption.
async fn persist<T, F: Future<Output = Result<T, HostError>>>(mut attempt: impl FnMut() -> F) -> Result<T, HostError> {
    let mut pause = FIRST_PAUSE;
    for _ in 1..ATTEMPTS {
        match attempt().await {
            Err(error @ HostError::Storage(_)) => {
                tracing::warn!(%error, retry_in_ms = pause.as_millis(), "the database failed; trying again");
                tokio::time::sleep(pause).await;
                pause *= 4;
            }
            done => return done,
        }
    }
    attempt().await
}
