//! Registering the slash commands: globally, or in one server as its own (`DISCORD_GUILD_ID`:
//! instant, for trying the bot out); and clearing the copies left in servers where they were
//! registered before.
//!
//! Discord keeps a server's own commands until they are replaced, beside the global ones: a bot
//! tried out in one server and then run globally showed `/tafl` twice there, the server's copy
//! going stale with every upgrade ("unknown command"). So a server is recorded in the database
//! before the commands are registered in it as its own (`guild_commands`), and each start, once
//! its own registration succeeded, clears the commands of every recorded server other than the
//! one it registered in, and forgets it. A clearing that fails for want of Discord is tried
//! again at the next start; a server that refuses it (the bot is no longer there) is forgotten,
//! since its commands went with the bot.

use std::time::Duration;

use poise::serenity_prelude as serenity;

use super::RunError;
use super::causes::causes;
use super::play::now;
use crate::host::Host;

/// Tries of command registration before the bot gives up, when Discord fails (a server error, no
/// connection); a refusal (a 4xx) is not tried again.
pub const ATTEMPTS: u32 = 5;
/// The pause after the first failed registration; each further one doubles.
pub(super) const FIRST_PAUSE: Duration = Duration::from_millis(250);

/// Registers `commands` in `guild` as its own, or globally, trying again with backoff while
/// Discord fails; then clears the commands left in other servers (see the module docs). The
/// commands as Discord registered them, or why the bot cannot start.
pub async fn register(
    http: &serenity::Http,
    host: &Host,
    guild: Option<serenity::GuildId>,
    commands: Vec<serenity::CreateCommand>,
) -> Result<Vec<serenity::Command>, RunError> {
    if let Some(guild) = guild
        && let Err(error) = host.commands_registered_in(guild.get() as i64, now()).await
    {
        tracing::warn!(guild = guild.get(), %error, "cannot record the server given the commands; a later start without DISCORD_GUILD_ID cannot clear them there");
    }
    let mut pause = FIRST_PAUSE;
    let mut attempt = 1;
    let registered = loop {
        let registered = match guild {
            Some(guild) => guild.set_commands(http, commands.clone()).await,
            None => serenity::Command::set_global_commands(http, commands.clone()).await,
        };
        match registered {
            Ok(registered) => break registered,
            Err(error) => {
                if let Some(refused) = refused(&error, guild) {
                    return Err(refused);
                }
                if attempt >= ATTEMPTS {
                    return Err(RunError::Registration { attempts: attempt, last: causes(&error).to_string() });
                }
                tracing::warn!(error = %causes(&error), attempt, retry_in_ms = pause.as_millis(), "command registration failed; retrying");
                tokio::time::sleep(pause).await;
                pause *= 2;
                attempt += 1;
            }
        }
    };
    clear_elsewhere(http, host, guild).await;
    Ok(registered)
}

/// Why the bot cannot start when Discord refused the registration for good (a 4xx other than
/// 429), which trying again cannot change; `None` for a failure worth another try.
fn refused(error: &serenity::Error, guild: Option<serenity::GuildId>) -> Option<RunError> {
    if super::token_rejected(error) {
        return Some(RunError::TokenRejected);
    }
    let serenity::Error::Http(serenity::HttpError::UnsuccessfulRequest(response)) = error else { return None };
    let status = response.status_code;
    if !status.is_client_error() || status == serenity::StatusCode::TOO_MANY_REQUESTS {
        return None;
    }
    let last = causes(error).to_string();
    Some(match guild {
        // "Missing Access" (403, 50001) for a server the bot is not in, or that did not give it
        // the applications.commands scope; 404 for an id that names no server.
        Some(guild) if status == serenity::StatusCode::FORBIDDEN || status == serenity::StatusCode::NOT_FOUND => {
            RunError::GuildRefused { guild: guild.get(), last }
        }
        _ => RunError::RegistrationRefused { last },
    })
}

/// Clears the commands of every recorded server other than `guild` (see the module docs).
async fn clear_elsewhere(http: &serenity::Http, host: &Host, guild: Option<serenity::GuildId>) {
    let recorded = match host.servers_with_own_commands().await {
        Ok(recorded) => recorded,
        Err(error) => {
            tracing::warn!(%error, "cannot read the servers given the commands before; they are cleared at a later start");
            return;
        }
    };
    let here = guild.map(|g| g.get() as i64);
    for id in recorded.into_iter().filter(|&id| Some(id) != here) {
        let cleared = match u64::try_from(id) {
            Ok(server) if server != 0 => {
                serenity::GuildId::new(server).set_commands(http, Vec::new()).await.map(|_| ())
            }
            // A record no server can have: nothing to clear.
            _ => Ok(()),
        };
        let forget = match cleared {
            Ok(()) => {
                tracing::info!(guild = id, "cleared the commands registered in this server before");
                true
            }
            Err(error) if super::delivery::refused_for_good(&error) => {
                tracing::info!(guild = id, error = %causes(&error), "the server of the commands registered before refused to clear them; the bot is no longer there");
                true
            }
            Err(error) => {
                tracing::warn!(guild = id, error = %causes(&error), "cannot clear the commands registered in this server before; trying again at the next start");
                false
            }
        };
        if forget && let Err(error) = host.commands_cleared_in(id).await {
            tracing::warn!(guild = id, %error, "cannot forget a server whose commands were cleared; clearing them again at the next start");
        }
    }
}
