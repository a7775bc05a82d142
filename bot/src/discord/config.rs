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

/// How many shards the bot runs on in all, across every process (`DISCORD_SHARD_COUNT`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ShardCount {
    Fixed(u32),
    /// As many as Discord recommends (`GET /gateway/bot`), asked at start-up.
    Auto,
}

/// The Discord gateway shards this process serves (`DISCORD_SHARDS=0-3`,
/// `DISCORD_SHARD_COUNT=16`). Discord sends each guild's events and interactions on shard
/// `(guild_id >> 22) % count`, and DMs on shard 0, so processes that together serve every shard
/// of one count see every interaction once.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shards {
    /// `first..=last`, with a [`ShardCount::Fixed`] count only (see [`Shards::from_vars`]);
    /// `None`: every shard of the count.
    pub range: Option<(u32, u32)>,
    pub count: ShardCount,
}

/// The most shards accepted: Discord's largest bots run a few thousand; more is a typo.
pub const MAX_SHARD_COUNT: u32 = 65_536;

impl Shards {
    /// The shards to serve once the total is known (after Discord's recommendation for
    /// [`ShardCount::Auto`], which serves them all), or why the range does not fit in it.
    pub fn resolve(&self, count: u32) -> Result<std::ops::RangeInclusive<u32>, ConfigError> {
        let Some((first, last)) = self.range else { return Ok(0..=count.saturating_sub(1)) };
        if last >= count {
            return Err(ConfigError(format!(
                "DISCORD_SHARDS={first}-{last} names shards beyond DISCORD_SHARD_COUNT={count}; shards are numbered \
                 from 0 to {}",
                count.saturating_sub(1)
            )));
        }
        Ok(first..=last)
    }

    /// Refuses a part of the shards on `SQLite`: the others would be served by other processes,
    /// and an `SQLite` file is served by one process (see [`crate::store::file`]); on files of
    /// their own, each process would keep its own players, ratings and settings. All of them
    /// (`DISCORD_SHARD_COUNT` alone, or a range from the first to the last) is one process.
    fn check_one_process(&self) -> Result<(), ConfigError> {
        let every = match (self.range, self.count) {
            (None, _) => true,
            (Some((first, last)), ShardCount::Fixed(count)) => first == 0 && last + 1 == count,
            // Refused by `from_vars` already.
            (Some(_), ShardCount::Auto) => false,
        };
        if every {
            return Ok(());
        }
        Err(ConfigError(
            "DISCORD_SHARDS leaves the other shards to other processes, but an SQLite DATABASE_URL is served by one process; unset DISCORD_SHARDS to serve every shard here, or move to a PostgreSQL database that several processes share"
                .to_owned(),
        ))
    }

    /// Reads `DISCORD_SHARDS` (`A-B` or `A`) and `DISCORD_SHARD_COUNT` (a number or `auto`):
    /// `None` when neither is set (one shard, as before); the whole count when only the count is.
    /// A range needs a number: with `auto` each process would take Discord's recommendation
    /// when it starts, and once the recommendation changed, a process restarted after it would
    /// split the servers by another count than the others, leaving some servers to no process
    /// and others to two. `auto` alone, one process serving every shard, cannot disagree.
    fn from_vars(shards: Option<String>, count: Option<String>) -> Result<Option<Shards>, ConfigError> {
        let count = match count {
            None => {
                return match shards {
                    None => Ok(None),
                    Some(_) => Err(ConfigError(
                        "DISCORD_SHARDS needs DISCORD_SHARD_COUNT too: the number of shards across all processes, or auto"
                            .to_owned(),
                    )),
                };
            }
            Some(text) if text.eq_ignore_ascii_case("auto") => ShardCount::Auto,
            Some(text) => match text.parse::<u32>() {
                Ok(n) if (1..=MAX_SHARD_COUNT).contains(&n) => ShardCount::Fixed(n),
                _ => {
                    return Err(ConfigError(format!(
                        "DISCORD_SHARD_COUNT must be auto or a number of shards from 1 to {MAX_SHARD_COUNT}, not {:?}",
                        crate::cli::shorten(&text, 40)
                    )));
                }
            },
        };
        let Some(text) = shards else { return Ok(Some(Shards { range: None, count })) };
        let bad = || {
            ConfigError(format!(
                "DISCORD_SHARDS must be a range of shard numbers such as 0-3 (or one number such as 2), not {:?}",
                crate::cli::shorten(&text, 40)
            ))
        };
        let (first, last) = match text.split_once('-') {
            Some((first, last)) => (first.trim().parse::<u32>(), last.trim().parse::<u32>()),
            None => (text.parse::<u32>(), text.parse::<u32>()),
        };
        let (Ok(first), Ok(last)) = (first, last) else { return Err(bad()) };
        if first > last {
            return Err(ConfigError(format!(
                "DISCORD_SHARDS={text} ends before it starts; write the lower shard first, e.g. {last}-{first}"
            )));
        }
        if count == ShardCount::Auto {
            return Err(ConfigError(format!(
                "DISCORD_SHARDS={text} needs DISCORD_SHARD_COUNT set to a number, not auto: each process would take \
                 Discord's recommendation when it starts, and processes that disagree on the count leave some servers \
                 to no process and others to two; set the same DISCORD_SHARD_COUNT for every process"
            )));
        }
        let shards = Shards { range: Some((first, last)), count };
        if let ShardCount::Fixed(n) = count {
            shards.resolve(n)?;
        }
        Ok(Some(shards))
    }
}

/// Everything `tafl-bot run` needs, read once at start-up. Its `Debug` shows neither the token
/// nor a password of the database URL.
#[derive(Clone)]
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
    /// The shards this process serves; `None`: shard 0 of 1.
    pub shards: Option<Shards>,
    /// Where `/healthz` answers (`TAFL_HEALTH_ADDR`); `None`: no endpoint.
    pub health_addr: Option<SocketAddr>,
    /// The database pool's size and statement timeout (`DATABASE_MAX_CONNECTIONS`,
    /// `DATABASE_STATEMENT_TIMEOUT_MS`).
    pub pool: store::PoolSettings,
    /// The longest one request to Discord's REST API may take ([`REQUEST_TIMEOUT`]; tests make
    /// it short).
    pub request_timeout: std::time::Duration,
}

/// The longest one request to Discord's REST API may take, from connecting to the last byte of
/// the answer, before it counts as failed (and is tried again, as a 5xx is). Without it a
/// request whose connection silently died (a NAT that forgot it, a peer that vanished) waited
/// forever, and with it every later board and notice of its game. The largest upload is a
/// summary: a replay GIF of up to 600 frames (1.5 MB for Copenhagen) and its card, about
/// 1.7 MB, which a link of 0.25 Mbit/s sends within this.
pub const REQUEST_TIMEOUT: std::time::Duration = std::time::Duration::from_mins(1);
/// The longest connecting to Discord may take, within [`REQUEST_TIMEOUT`].
const CONNECT_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(10);
/// How often an idle connection to Discord is probed, so that a dead one is found and dropped
/// before a request waits on it.
const KEEPALIVE: std::time::Duration = std::time::Duration::from_secs(30);

impl fmt::Debug for Config {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Config { token, database_url, guild_id, api, tick_interval, shards, health_addr, pool, request_timeout } =
            self;
        f.debug_struct("Config")
            .field("token", token)
            .field("database_url", &store::redacted(database_url))
            .field("guild_id", guild_id)
            .field("api", api)
            .field("tick_interval", tick_interval)
            .field("shards", shards)
            .field("health_addr", health_addr)
            .field("pool", pool)
            .field("request_timeout", request_timeout)
            .finish()
    }
}

/// A setting that cannot be used, in one sentence that says which variable to fix.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[error("{0}")]
pub struct ConfigError(pub String);

impl Config {
    /// Reads the process environment.
    pub fn from_env() -> Result<Config, ConfigError> {
        // A value that is not UTF-8 is no setting the bot can read, and taking it for unset
        // would quietly open another database or serve every shard: the first one read is named.
        let unreadable = std::cell::RefCell::new(None);
        let config = Config::from_vars(|name| match std::env::var(name) {
            Ok(value) => Some(value),
            Err(std::env::VarError::NotPresent) => None,
            Err(std::env::VarError::NotUnicode(_)) => {
                unreadable.borrow_mut().get_or_insert_with(|| name.to_owned());
                None
            }
        });
        match unreadable.into_inner() {
            Some(name) => Err(ConfigError(format!("{name} is not valid UTF-8; write its value in UTF-8"))),
            None => config,
        }
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
        if let Some(error) = store::plain_path(&database_url) {
            return Err(ConfigError(error.to_string()));
        }
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
        let shards = Shards::from_vars(var("DISCORD_SHARDS"), var("DISCORD_SHARD_COUNT"))?;
        if let Some(shards) = &shards
            && store::Backend::of_url(&database_url) == Some(store::Backend::Sqlite)
        {
            shards.check_one_process()?;
        }
        let health_addr = match var("TAFL_HEALTH_ADDR") {
            None => None,
            Some(text) => Some(text.parse::<SocketAddr>().map_err(|_| {
                ConfigError(format!(
                    "TAFL_HEALTH_ADDR must be an address and port to serve /healthz on, such as 127.0.0.1:8080, not {:?}",
                    crate::cli::shorten(&text, 40)
                ))
            })?),
        };
        let pool = store::PoolSettings::from_vars(|name| var(name)).map_err(ConfigError)?;
        Ok(Config {
            token: Token(token),
            database_url,
            guild_id,
            api,
            tick_interval,
            shards,
            health_addr,
            pool,
            request_timeout: REQUEST_TIMEOUT,
        })
    }

    /// serenity's HTTP client for [`Config::api`], its requests bounded by
    /// [`Config::request_timeout`] (serenity's own client waits for an answer without end).
    pub fn http(&self) -> Result<serenity::Http, ConfigError> {
        let builder = serenity::HttpBuilder::new(self.token.expose());
        let client = reqwest::Client::builder()
            .use_rustls_tls()
            .timeout(self.request_timeout)
            .connect_timeout(CONNECT_TIMEOUT.min(self.request_timeout))
            .tcp_keepalive(KEEPALIVE);
        let built = |client: reqwest::ClientBuilder| {
            client.build().map_err(|e| ConfigError(format!("cannot set up the HTTP client for Discord: {e}")))
        };
        Ok(match &self.api {
            Api::Discord => builder.client(built(client)?).build(),
            Api::Resolve { addr, ca } => {
                let mut client = client.resolve("discord.com", *addr);
                if let Some(path) = ca {
                    let pem = std::fs::read(path)
                        .map_err(|e| ConfigError(format!("cannot read DISCORD_API_CA file {}: {e}", path.display())))?;
                    let certificate = reqwest::Certificate::from_pem(&pem).map_err(|e| {
                        ConfigError(format!("DISCORD_API_CA file {} is not a PEM certificate: {e}", path.display()))
                    })?;
                    client = client.add_root_certificate(certificate);
                }
                builder.client(built(client)?).build()
            }
            Api::Proxy { base } => {
                builder.client(built(client)?).proxy(base.clone()).ratelimiter_disabled(true).build()
            }
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
    fn no_database_password_shows_in_debug_output() {
        for url in ["postgres://tafl:hunter2@db/tafl", "postgres://tafl@db/tafl?sslmode=require&password=hunter2"] {
            let config = config(&[("DISCORD_TOKEN", "t"), ("DATABASE_URL", url)]).unwrap();
            let shown = format!("{config:?}");
            assert!(!shown.contains("hunter2"), "{shown}");
            assert!(shown.contains("db/tafl"), "the rest of the URL is shown: {shown}");
        }
    }

    #[test]
    fn a_file_name_as_database_url_is_told_how_to_write_it() {
        let error = config(&[("DISCORD_TOKEN", "t"), ("DATABASE_URL", "/var/lib/tafl/tafl.db")]).unwrap_err();
        assert_eq!(
            error.to_string(),
            "DATABASE_URL /var/lib/tafl/tafl.db is a file name, not a URL; write it as sqlite:///var/lib/tafl/tafl.db"
        );
        let error = config(&[("DISCORD_TOKEN", "t"), ("DATABASE_URL", "tafl.db")]).unwrap_err();
        assert!(error.to_string().ends_with("write it as sqlite://tafl.db"), "{error}");
    }

    #[test]
    fn on_sqlite_one_process_serves_every_shard() {
        let shards = |url: &str, vars: &[(&str, &str)]| {
            let mut all = vec![("DISCORD_TOKEN", "t"), ("DATABASE_URL", url)];
            all.extend_from_slice(vars);
            config(&all).map(|c| c.shards)
        };
        for vars in [
            &[("DISCORD_SHARDS", "0"), ("DISCORD_SHARD_COUNT", "2")][..],
            &[("DISCORD_SHARDS", "1-3"), ("DISCORD_SHARD_COUNT", "4")][..],
        ] {
            let error = shards("sqlite://tafl.db", vars).unwrap_err().to_string();
            assert!(
                error.starts_with("DISCORD_SHARDS leaves the other shards to other processes"),
                "{vars:?}: {error}"
            );
            assert!(!error.contains('\n'), "{error}");
            assert!(shards("postgres://tafl@db/tafl", vars).is_ok(), "{vars:?} on PostgreSQL");
        }
        // Every shard in this one process.
        for vars in [
            &[("DISCORD_SHARD_COUNT", "2")][..],
            &[("DISCORD_SHARD_COUNT", "auto")][..],
            &[("DISCORD_SHARDS", "0-1"), ("DISCORD_SHARD_COUNT", "2")][..],
        ] {
            assert!(shards("sqlite://tafl.db", vars).is_ok(), "{vars:?}");
        }
    }

    #[test]
    fn shard_ranges_are_read_with_their_count() {
        let shards = |vars: &[(&str, &str)]| {
            // Several processes share a PostgreSQL database (on SQLite, see below).
            let mut all = vec![("DISCORD_TOKEN", "t"), ("DATABASE_URL", "postgres://tafl@db/tafl")];
            all.extend_from_slice(vars);
            config(&all).map(|c| c.shards)
        };
        assert_eq!(shards(&[]).unwrap(), None, "one shard by default");
        assert_eq!(
            shards(&[("DISCORD_SHARDS", "0-3"), ("DISCORD_SHARD_COUNT", "16")]).unwrap(),
            Some(Shards { range: Some((0, 3)), count: ShardCount::Fixed(16) })
        );
        assert_eq!(
            shards(&[("DISCORD_SHARDS", " 5 "), ("DISCORD_SHARD_COUNT", "8")]).unwrap(),
            Some(Shards { range: Some((5, 5)), count: ShardCount::Fixed(8) })
        );
        assert_eq!(
            shards(&[("DISCORD_SHARD_COUNT", "4")]).unwrap(),
            Some(Shards { range: None, count: ShardCount::Fixed(4) }),
            "a count alone serves all its shards"
        );
        assert_eq!(
            shards(&[("DISCORD_SHARD_COUNT", "AUTO")]).unwrap(),
            Some(Shards { range: None, count: ShardCount::Auto }),
            "auto alone: this process serves all the shards Discord recommends"
        );
    }

    /// Each process asks Discord for its recommendation when it starts: after the
    /// recommendation grew, a restarted process would run 3 shards while the others run 2, and
    /// then some servers reach no process and others two. So a range needs the count written
    /// out, the same for every process; `auto` is for one process serving every shard.
    #[test]
    fn a_shard_range_needs_its_count_written_out_not_auto() {
        for url in ["postgres://tafl@db/tafl", "sqlite://tafl.db"] {
            for range in ["0", "0-1", "2-3"] {
                let vars = [
                    ("DISCORD_TOKEN", "t"),
                    ("DATABASE_URL", url),
                    ("DISCORD_SHARDS", range),
                    ("DISCORD_SHARD_COUNT", "auto"),
                ];
                let error = config(&vars).unwrap_err().to_string();
                assert_eq!(
                    error,
                    format!(
                        "DISCORD_SHARDS={range} needs DISCORD_SHARD_COUNT set to a number, not auto: each process would take \
                         Discord's recommendation when it starts, and processes that disagree on the count leave some servers \
                         to no process and others to two; set the same DISCORD_SHARD_COUNT for every process"
                    ),
                    "{url}"
                );
            }
            let alone = config(&[("DISCORD_TOKEN", "t"), ("DATABASE_URL", url), ("DISCORD_SHARD_COUNT", "auto")]);
            assert_eq!(alone.unwrap().shards, Some(Shards { range: None, count: ShardCount::Auto }), "{url}");
        }
    }

    #[test]
    fn bad_shard_settings_are_one_sentence_naming_the_variable() {
        for (vars, start) in [
            (&[("DISCORD_SHARDS", "0-3")][..], "DISCORD_SHARDS needs DISCORD_SHARD_COUNT"),
            (&[("DISCORD_SHARDS", "0-3"), ("DISCORD_SHARD_COUNT", "0")][..], "DISCORD_SHARD_COUNT must be"),
            (&[("DISCORD_SHARD_COUNT", "-1")][..], "DISCORD_SHARD_COUNT must be"),
            (&[("DISCORD_SHARD_COUNT", "many")][..], "DISCORD_SHARD_COUNT must be"),
            (&[("DISCORD_SHARD_COUNT", "65537")][..], "DISCORD_SHARD_COUNT must be"),
            (&[("DISCORD_SHARDS", "0-4"), ("DISCORD_SHARD_COUNT", "4")][..], "DISCORD_SHARDS=0-4 names shards beyond"),
            (&[("DISCORD_SHARDS", "3-1"), ("DISCORD_SHARD_COUNT", "4")][..], "DISCORD_SHARDS=3-1 ends before"),
            (&[("DISCORD_SHARDS", "a-b"), ("DISCORD_SHARD_COUNT", "4")][..], "DISCORD_SHARDS must be a range"),
            (&[("DISCORD_SHARDS", "1-"), ("DISCORD_SHARD_COUNT", "4")][..], "DISCORD_SHARDS must be a range"),
            (&[("TAFL_HEALTH_ADDR", "8080")][..], "TAFL_HEALTH_ADDR must be"),
            (&[("DATABASE_MAX_CONNECTIONS", "0")][..], "DATABASE_MAX_CONNECTIONS must be"),
        ] {
            let mut all = vec![("DISCORD_TOKEN", "t")];
            all.extend_from_slice(vars);
            let error = config(&all).unwrap_err().to_string();
            assert!(error.starts_with(start), "{vars:?}: {error}");
            assert!(!error.contains('\n'), "{error}");
        }
        assert_eq!(Shards { range: None, count: ShardCount::Auto }.resolve(3).unwrap(), 0..=2);
    }

    #[test]
    fn the_health_address_and_pool_settings_are_read() {
        let config = config(&[
            ("DISCORD_TOKEN", "t"),
            ("TAFL_HEALTH_ADDR", "127.0.0.1:8080"),
            ("DATABASE_MAX_CONNECTIONS", "12"),
            ("DATABASE_STATEMENT_TIMEOUT_MS", "1500"),
        ])
        .unwrap();
        assert_eq!(config.health_addr, Some("127.0.0.1:8080".parse().unwrap()));
        assert_eq!(config.pool.max_connections, 12);
        assert_eq!(config.pool.statement_timeout, std::time::Duration::from_millis(1500));
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
