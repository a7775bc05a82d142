//! What `tafl-bot run` reads from the environment, checked before anything connects, so that a
//! missing token or a mistyped guild id is one sentence at start-up rather than a failure later.

use std::fmt;
use std::net::SocketAddr;
use std::path::PathBuf;

use poise::serenity_prelude as serenity;

use crate::store;

/// The bot token. Its `Debug` and `Display` never show the value, so that a logged `Config` or
/// error cannot leak it.
#[derive(Clone)]
pub struct Token(String);

impl Token {
    #[must_use]
    pub fn new(token: impl Into<String>) -> Token {
        Token(token.into())
    }

    pub(crate) fn expose(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for Token {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Token(<hidden>)")
    }
}

/// Where Discord's REST API is reached. Everything but [`Api::Discord`] exists for tests against
/// a fake Discord on loopback.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Api {
    /// `https://discord.com`, as in production.
    Discord,
    /// The real `https://discord.com` URLs, sent to `addr` and trusting the certificate in `ca`
    /// (`DISCORD_API_RESOLVE` + `DISCORD_API_CA`): serenity's ratelimiter and retries stay on, so
    /// fault tests exercise the production HTTP path.
    Resolve { addr: SocketAddr, ca: Option<PathBuf> },
    /// Every request sent to `base` (`DISCORD_API_BASE=http://127.0.0.1:PORT`). serenity's
    /// ratelimiter ignores a proxy, so it is turned off, and a 429 is not retried.
    Proxy { base: String },
}

/// Everything `tafl-bot run` needs, read once at start-up.
#[derive(Clone, Debug)]
pub struct Config {
    pub token: Token,
    /// The store's URL (`DATABASE_URL`, default [`store::DEFAULT_URL`]).
    pub database_url: String,
    /// Register the commands in this guild only (instant), instead of globally (up to an hour).
    pub guild_id: Option<serenity::GuildId>,
    pub api: Api,
    /// How often the scheduler looks for reminders and time-outs
    /// ([`crate::host::scheduler::TICK_INTERVAL`]; tests make it short).
    pub tick_interval: std::time::Duration,
}

/// A setting that cannot be used, in one sentence that says which variable to fix.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[error("{0}")]
pub struct ConfigError(pub String);

impl Config {
    /// Reads the process environment.
    pub fn from_env() -> Result<Config, ConfigError> {
        Config::from_vars(|name| std::env::var(name).ok())
    }

    /// Reads the settings through `var`, so that tests need not touch the process environment.
    /// Empty values count as unset.
    pub fn from_vars(var: impl Fn(&str) -> Option<String>) -> Result<Config, ConfigError> {
        let var = |name: &str| var(name).map(|v| v.trim().to_owned()).filter(|v| !v.is_empty());
        let token = var("DISCORD_TOKEN").ok_or_else(|| {
            ConfigError(
                "DISCORD_TOKEN is not set; copy the bot token from https://discord.com/developers/applications \
                 into that environment variable"
                    .to_owned(),
            )
        })?;
        let database_url = var("DATABASE_URL").unwrap_or_else(|| store::DEFAULT_URL.to_owned());
        let guild_id = match var("DISCORD_GUILD_ID") {
            None => None,
            Some(text) => match text.parse::<u64>() {
                Ok(id) if id != 0 => Some(serenity::GuildId::new(id)),
                _ => {
                    return Err(ConfigError(format!(
                        "DISCORD_GUILD_ID must be a server id (a number such as 123456789012345678), not {:?}",
                        crate::cli::shorten(&text, 40)
                    )));
                }
            },
        };
        let api = match (var("DISCORD_API_RESOLVE"), var("DISCORD_API_BASE")) {
            (Some(_), Some(_)) => {
                return Err(ConfigError("set DISCORD_API_RESOLVE or DISCORD_API_BASE, not both".to_owned()));
            }
            (Some(addr), None) => {
                let addr = addr.parse::<SocketAddr>().map_err(|_| {
                    ConfigError(format!(
                        "DISCORD_API_RESOLVE must be an address such as 127.0.0.1:8443, not {:?}",
                        crate::cli::shorten(&addr, 40)
                    ))
                })?;
                Api::Resolve { addr, ca: var("DISCORD_API_CA").map(PathBuf::from) }
            }
            (None, Some(base)) => {
                if !(base.starts_with("http://") || base.starts_with("https://")) {
                    return Err(ConfigError(format!(
                        "DISCORD_API_BASE must start with http:// or https://, not {:?}",
                        crate::cli::shorten(&base, 40)
                    )));
                }
                Api::Proxy { base: base.trim_end_matches('/').to_owned() }
            }
            (None, None) => Api::Discord,
        };
        let tick_interval = crate::host::scheduler::TICK_INTERVAL;
        Ok(Config { token: Token(token), database_url, guild_id, api, tick_interval })
    }

    /// serenity's HTTP client for [`Config::api`].
    pub fn http(&self) -> Result<serenity::Http, ConfigError> {
        let builder = serenity::HttpBuilder::new(self.token.expose());
        Ok(match &self.api {
            Api::Discord => builder.build(),
            Api::Resolve { addr, ca } => {
                let mut client = reqwest::Client::builder().use_rustls_tls().resolve("discord.com", *addr);
                if let Some(path) = ca {
                    let pem = std::fs::read(path)
                        .map_err(|e| ConfigError(format!("cannot read DISCORD_API_CA file {}: {e}", path.display())))?;
                    let certificate = reqwest::Certificate::from_pem(&pem).map_err(|e| {
                        ConfigError(format!("DISCORD_API_CA file {} is not a PEM certificate: {e}", path.display()))
                    })?;
                    client = client.add_root_certificate(certificate);
                }
                let client = client
                    .build()
                    .map_err(|e| ConfigError(format!("cannot set up the HTTP client for DISCORD_API_RESOLVE: {e}")))?;
                builder.client(client).build()
            }
            Api::Proxy { base } => builder.proxy(base.clone()).ratelimiter_disabled(true).build(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(vars: &[(&str, &str)]) -> Result<Config, ConfigError> {
        Config::from_vars(|name| vars.iter().find(|(k, _)| *k == name).map(|(_, v)| (*v).to_owned()))
    }

    #[test]
    fn a_missing_token_is_one_sentence_naming_the_variable() {
        let error = config(&[]).unwrap_err().to_string();
        assert!(error.starts_with("DISCORD_TOKEN is not set"), "{error}");
        assert!(!error.contains('\n'));
        assert!(config(&[("DISCORD_TOKEN", "  ")]).is_err(), "a blank token counts as unset");
    }

    #[test]
    fn defaults_are_the_sqlite_file_global_commands_and_the_real_discord() {
        let config = config(&[("DISCORD_TOKEN", "abc")]).unwrap();
        assert_eq!(config.database_url, "sqlite://tafl.db");
        assert_eq!(config.guild_id, None);
        assert_eq!(config.api, Api::Discord);
    }

    #[test]
    fn the_token_never_shows_in_debug_output() {
        let config = config(&[("DISCORD_TOKEN", "very-secret-token")]).unwrap();
        assert!(!format!("{config:?}").contains("very-secret"));
    }

    #[test]
    fn test_overrides_are_parsed_and_checked() {
        let resolve = config(&[
            ("DISCORD_TOKEN", "t"),
            ("DISCORD_API_RESOLVE", "127.0.0.1:8443"),
            ("DISCORD_API_CA", "ca.pem"),
            ("DISCORD_GUILD_ID", "42"),
        ])
        .unwrap();
        assert_eq!(resolve.api, Api::Resolve { addr: "127.0.0.1:8443".parse().unwrap(), ca: Some("ca.pem".into()) });
        assert_eq!(resolve.guild_id, Some(serenity::GuildId::new(42)));
        let proxy = config(&[("DISCORD_TOKEN", "t"), ("DISCORD_API_BASE", "http://127.0.0.1:9/")]).unwrap();
        assert_eq!(proxy.api, Api::Proxy { base: "http://127.0.0.1:9".to_owned() });
        assert!(config(&[("DISCORD_TOKEN", "t"), ("DISCORD_GUILD_ID", "general")]).is_err());
        assert!(config(&[("DISCORD_TOKEN", "t"), ("DISCORD_API_BASE", "127.0.0.1:9")]).is_err());
        assert!(config(&[("DISCORD_TOKEN", "t"), ("DISCORD_API_RESOLVE", "discord")]).is_err());
        assert!(
            config(&[("DISCORD_TOKEN", "t"), ("DISCORD_API_RESOLVE", "127.0.0.1:1"), ("DISCORD_API_BASE", "http://x")])
                .is_err()
        );
    }
}
