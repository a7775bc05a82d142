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

/// Brings the database behind `pool` to [`latest_version`].
pub async fn migrate(pool: &PgPool) -> Result<(), sqlx::migrate::MigrateError> {
    MIGRATOR.run(pool).await
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

/// Opens a pool on `url` sized and timed by `settings` (`statement_timeout` is set on every
/// connection at start-up, so no statement of the bot waits or runs longer), and migrates it.
pub async fn open(url: &str, settings: &PoolSettings) -> Result<PgPool, sqlx::Error> {
    let options: PgConnectOptions = url.parse()?;
    let timeout_ms = settings.statement_timeout.as_millis().to_string();
    let options = options.application_name("tafl-bot").options([("statement_timeout", timeout_ms.as_str())]);
    // Only to learn why the server cannot be reached, if it cannot (see [`connect`]).
    connect(&options).await?.close().await?;
    let pool = PgPoolOptions::new().max_connections(settings.max_connections).connect_with(options).await?;
    migrate(&pool).await.map_err(|e| sqlx::Error::Migrate(Box::new(e)))?;
    Ok(pool)
}
