//! `PostgreSQL`, the second backend (issue 16), for several bot processes that each serve a range
//! of Discord shards: its migrations and typed pools (for the migrator and tools). The store's
//! queries run on it through [`super::Db`] (see the module docs of [`super`]).
//!
//! The migrations live in `migrations/postgres/`, one file per `SQLite` migration with the same
//! version and description, and the same schema meaning; `bot/tests/postgres_schema.rs` compares
//! the two schemas after migrating both, and names any migration present on one side only.
//! `sqlx::migrate!("../migrations")` reads only the files of that directory, not its
//! subdirectories, so the `SQLite` migrator is unchanged by this one.
//!
//! sqlx's own migrator is enough here, unlike on `SQLite` (see [`super::migrate`]): `PostgreSQL`'s
//! DDL is transactional, so every file commits together with its `_sqlx_migrations` record, and
//! sqlx takes an advisory lock, so processes starting at once migrate one after the other.

use std::time::Duration;

use sqlx::Connection;
use sqlx::migrate::Migrator;
use sqlx::postgres::{PgConnectOptions, PgConnection, PgPool, PgPoolOptions};

use super::pool::PoolSettings;

/// Every `PostgreSQL` migration of this binary, embedded from `migrations/postgres/`.
pub static MIGRATOR: Migrator = sqlx::migrate!("../migrations/postgres");

/// The schema version this binary brings `PostgreSQL` databases to.
#[must_use]
pub fn latest_version() -> i64 {
    MIGRATOR.iter().map(|m| m.version).max().unwrap_or(0)
}

/// How long connecting to the `PostgreSQL` server may take.
const CONNECT_WAIT: Duration = Duration::from_secs(30);

/// One connection to the server of `options`, or why there is none. A pool retries a refused
/// or unresolvable server until its acquire timeout and then reports only "pool timed out";
/// one plain connection says at once what went wrong (connection refused, no such database,
/// the password), which is what a server owner starting the bot needs to read.
pub async fn connect(options: &PgConnectOptions) -> Result<PgConnection, sqlx::Error> {
    match tokio::time::timeout(CONNECT_WAIT, PgConnection::connect_with(options)).await {
        Ok(connected) => connected,
        Err(_) => Err(sqlx::Error::Io(std::io::Error::new(
            std::io::ErrorKind::TimedOut,
            format!("no answer within {} s", CONNECT_WAIT.as_secs()),
        ))),
    }
}

/// Brings the database at `url` to [`latest_version`], then opens a pool on it sized and timed
/// by `settings` (`statement_timeout` is set on every connection at start-up, so no statement
/// of the bot waits or runs longer).
pub async fn open(url: &str, settings: &PoolSettings) -> Result<PgPool, sqlx::Error> {
    let options: PgConnectOptions = url.parse()?;
    let options = options.application_name("tafl-bot");
    // Only to learn why the server cannot be reached, if it cannot (see [`connect`]).
    connect(&options).await?.close().await?;
    // The migrations run on a connection of their own, without the bot's statement timeout: a
    // migration may rightly take longer than any statement of the bot (an index built on a
    // large table), and so may the wait for the advisory lock another process holds while it
    // migrates.
    let migrating = PgPoolOptions::new().max_connections(1).connect_with(options.clone()).await?;
    MIGRATOR.run(&migrating).await.map_err(|e| sqlx::Error::Migrate(Box::new(e)))?;
    migrating.close().await;
    let timeout_ms = settings.statement_timeout.as_millis().to_string();
    let options = options.options([("statement_timeout", timeout_ms.as_str())]);
    PgPoolOptions::new().max_connections(settings.max_connections).connect_with(options).await
}
