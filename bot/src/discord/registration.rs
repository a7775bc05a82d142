//! Registering the slash commands: globally, or in one server as its own (`DISCORD_GUILD_ID`:
//! instant, for trying the bot out).

use std::time::Duration;

use poise::serenity_prelude as serenity;

use super::RunError;
use super::causes::causes;

/// Tries of command registration before the bot gives up, when Discord fails (a server error, no
/// connection); a refusal (a 4xx) is not tried again.
pub const ATTEMPTS: u32 = 5;
/// The pause after the first failed registration; each further one doubles.
pub(super) const FIRST_PAUSE: Duration = Duration::from_millis(250);

/// Registers `commands` in `guild` as its own, or globally, trying again with backoff while
/// Discord fails. The commands as Discord registered them, or why the bot cannot start.
pub async fn register(
    http: &serenity::Http,
    guild: Option<serenity::GuildId>,
    commands: Vec<serenity::CreateCommand>,
) -> Result<Vec<serenity::Command>, RunError> {
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
