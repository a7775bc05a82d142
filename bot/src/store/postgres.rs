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
//! sqlx takes an advisory lock, so processes starting at once migrate one after the other. Only
//! its refusals are put in the words `SQLite`'s migrator uses ([`migrate`]).

use std::time::Duration;

use sqlx::Connection;
use sqlx::migrate::Migrator;
use sqlx::postgres::{PgConnectOptions, PgConnection, PgPool, PgPoolOptions};

use super::OpenError;
use super::migrate::{self as sqlite_migrate, Applied, MigrateError};
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
        Ok(connected) => connected.map_err(|error| missing_tls_file(options, error)),
        Err(_) => Err(sqlx::Error::Io(std::io::Error::new(
            std::io::ErrorKind::TimedOut,
            format!("no answer within {} s", CONNECT_WAIT.as_secs()),
        ))),
    }
}

/// A file the URL names for TLS (`sslrootcert`, `sslcert`, `sslkey`) that does not exist, said
/// as such: sqlx reads them while connecting and says only "error communicating with database:
/// No such file or directory (os error 2)", which reads as the server's socket. Over TCP nothing
/// else is "not found" (an unknown host is a failed lookup), so there the error is the file's.
fn missing_tls_file(options: &PgConnectOptions, error: sqlx::Error) -> sqlx::Error {
    match &error {
        sqlx::Error::Io(io) if io.kind() == std::io::ErrorKind::NotFound && options.get_socket().is_none() => {
            sqlx::Error::Tls(
                format!("a certificate file the URL names (sslrootcert, sslcert or sslkey) cannot be read: {io}")
                    .into(),
            )
        }
        _ => error,
    }
}

/// Brings the database of `pool` to [`latest_version`] with [`MIGRATOR`]. A history this binary
/// cannot continue is refused in the sentence `SQLite`'s migrator says it in: a database migrated
/// by a newer tafl-bot (which sqlx calls "migration 24 was previously applied but is missing in
/// the resolved migrations"), a migration whose file changed, one left unfinished.
///
/// Through a pool, not a connection: sqlx's migrator on a `&mut PgConnection` makes a future
/// that is not `Send` for every lifetime, and `tafl-bot run` opens its database in a spawned
/// task. A one-connection pool keeps the migrations on one session.
pub async fn migrate(pool: &PgPool) -> Result<(), MigrateError> {
    if is_current(&mut *pool.acquire().await?).await? {
        return Ok(());
    }
    let Err(error) = MIGRATOR.run(pool).await else { return Ok(()) };
    if !refuses_history(&error) {
        return Err(failure(error));
    }
    let mut conn = pool.acquire().await?;
    Err(history_refusal(error, &mut conn).await)
}

/// [`migrate`] on one connection, for tools that go on using it (`tafl-bot migrate-db`).
pub async fn migrate_connection(conn: &mut PgConnection) -> Result<(), MigrateError> {
    if is_current(conn).await? {
        return Ok(());
    }
    let Err(error) = MIGRATOR.run(&mut *conn).await else { return Ok(()) };
    if !refuses_history(&error) {
        return Err(failure(error));
    }
    Err(history_refusal(error, conn).await)
}

/// Whether the database behind `conn` is already at [`latest_version`], judged by reading alone.
/// Then the migrator is not run at all: its first statement, `CREATE TABLE IF NOT EXISTS
/// _sqlx_migrations`, needs the right to create tables in the schema even when the table is there,
/// and a role given only the rights the bot uses on rows (SELECT, INSERT, UPDATE and DELETE, as a
/// careful owner grants an application) could not start the bot on an up-to-date database. A
/// history the check refuses is left to the migrator, which says why in [`migrate`]'s words.
async fn is_current(conn: &mut PgConnection) -> Result<bool, MigrateError> {
    let recorded: bool =
        sqlx::query_scalar("SELECT to_regclass('_sqlx_migrations') IS NOT NULL").fetch_one(&mut *conn).await?;
    if !recorded {
        return Ok(false);
    }
    let applied: Vec<Applied> = sqlx::query_as(sqlite_migrate::APPLIED_SQL).fetch_all(&mut *conn).await?;
    Ok(sqlite_migrate::is_current_for(&MIGRATOR, &applied).unwrap_or(false))
}

/// A database whose encoding is not UTF8: players' names come in every script, and the
/// migrations themselves hold characters outside ASCII. Under LATIN1 migration 28 failed on the
/// "…" of its comment and left the database half-migrated, blaming the migration; under WIN1252
/// everything ran until a player named with an emoji could do nothing at all.
#[derive(Debug, thiserror::Error)]
#[error(
    "the PostgreSQL database {database} is encoded as {encoding}, but tafl-bot keeps players' names in every script, which only UTF8 holds; create a database with CREATE DATABASE … ENCODING 'UTF8' TEMPLATE template0 (or createdb -E UTF8 -T template0 …) and use that one"
)]
pub struct NotUtf8 {
    pub database: String,
    pub encoding: String,
}

/// Refuses the database behind `conn` unless it is encoded in UTF8 ([`NotUtf8`]), before anything
/// is written to it.
pub async fn check_encoding(conn: &mut PgConnection) -> Result<Result<(), NotUtf8>, sqlx::Error> {
    let (database, encoding): (String, String) =
        sqlx::query_as("SELECT current_database()::text, current_setting('server_encoding')")
            .fetch_one(&mut *conn)
            .await?;
    Ok(if encoding == "UTF8" { Ok(()) } else { Err(NotUtf8 { database, encoding }) })
}

/// Whether sqlx refused the history recorded in the database: a migration it does not have,
/// one that differs from its file, one left unfinished.
fn refuses_history(error: &sqlx::migrate::MigrateError) -> bool {
    use sqlx::migrate::MigrateError as Sqlx;
    matches!(error, Sqlx::VersionMissing(_) | Sqlx::VersionMismatch(_) | Sqlx::Dirty(_))
}

/// sqlx's refusal of the history, said from the whole history read on `conn`: sqlx names the
/// first record it stopped at, the check names the case and the newest version a newer
/// tafl-bot applied.
async fn history_refusal(error: sqlx::migrate::MigrateError, conn: &mut PgConnection) -> MigrateError {
    let applied: Vec<Applied> = match sqlx::query_as(sqlite_migrate::APPLIED_SQL).fetch_all(&mut *conn).await {
        Ok(applied) => applied,
        Err(read) => return MigrateError::Database(read),
    };
    match sqlite_migrate::check_applied(&MIGRATOR, &applied) {
        Err(refused) => refused,
        // Only when the history changed since sqlx read it.
        Ok(()) => MigrateError::Migrator(error),
    }
}

/// Any other failure of sqlx's migrator, in the words of [`MigrateError`].
fn failure(error: sqlx::migrate::MigrateError) -> MigrateError {
    use sqlx::migrate::MigrateError as Sqlx;
    match error {
        Sqlx::ExecuteMigration(source, version) => {
            let description =
                MIGRATOR.iter().find(|m| m.version == version).map_or_else(String::new, |m| m.description.to_string());
            MigrateError::Failed { version, description, source }
        }
        Sqlx::Execute(error) => MigrateError::Database(error),
        other => MigrateError::Migrator(other),
    }
}

/// Brings the database at `url` to [`latest_version`], then opens a pool on it sized and timed
/// by `settings` (`statement_timeout` is set on every connection at start-up, so no statement
/// of the bot waits or runs longer).
pub async fn open(url: &str, settings: &PoolSettings) -> Result<PgPool, OpenError> {
    let options: PgConnectOptions = url.parse()?;
    let options = options.application_name("tafl-bot");
    // To learn why the server cannot be reached, if it cannot (see [`connect`]), and to refuse
    // a database that cannot hold every name before a migration writes to it.
    let mut probe = connect(&options).await?;
    let encoding = check_encoding(&mut probe).await;
    probe.close().await?;
    encoding??;
    // The migrations run on a connection of their own, without the bot's statement timeout: a
    // migration may rightly take longer than any statement of the bot (an index built on a
    // large table), and so may the wait for the advisory lock another process holds while it
    // migrates.
    let migrating = PgPoolOptions::new().max_connections(1).connect_with(options.clone()).await?;
    let migrated = migrate(&migrating).await;
    // Closing also ends the advisory lock a refused migration leaves held.
    migrating.close().await;
    migrated?;
    let timeout_ms = settings.statement_timeout.as_millis().to_string();
    let options = options.options([("statement_timeout", timeout_ms.as_str())]);
    Ok(PgPoolOptions::new().max_connections(settings.max_connections).connect_with(options).await?)
}
