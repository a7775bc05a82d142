//! Storage: the one place that knows SQL. One file per table; each function takes a connection
//! (a pool connection or an open transaction) and returns domain rows, `Option` for "not found".
//!
//! `SQLite` runs in WAL mode with `synchronous=NORMAL` (a commit survives a process crash; only a
//! power cut may lose the last few), a busy timeout, and foreign keys on. Every write happens in a
//! `BEGIN IMMEDIATE` transaction ([`Db::begin_write`]): a transaction that reads and then writes
//! under a plain `BEGIN` fails with "database is locked" when another process wrote in between,
//! whereas `IMMEDIATE` takes the write lock first and the other writer simply waits its turn.

pub mod challenges;
pub mod games;
pub mod messages;
pub mod migrate;
pub mod moves;
pub mod offers;
pub mod outbox;
pub mod rating_changes;
pub mod ratings;
pub mod reviews;
pub mod scheduler;
pub mod servers;
pub mod users;

use std::str::FromStr;
use std::sync::Arc;
use std::time::Duration;

use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteSynchronous};
use sqlx::{Sqlite, SqlitePool, Transaction};

pub use challenges::ChallengeRow;
pub use games::GameRow;
pub use messages::BoardMessageRow;
pub use offers::OfferRow;
pub use users::UserRow;

/// The database URL used when `DATABASE_URL` is not set.
pub const DEFAULT_URL: &str = "sqlite://tafl.db";

/// How long a writer waits for another one before giving up. Writes take milliseconds, so this
/// is only reached when something is badly wrong.
const BUSY_TIMEOUT: Duration = Duration::from_secs(10);

/// A read transaction.
pub type Tx = Transaction<'static, Sqlite>;

/// A write transaction, holding this process's turn to write until it commits or is dropped
/// (see [`Db::begin_write`]). It derefs to the transaction, so store functions take it as a
/// connection like any other.
#[derive(Debug)]
pub struct WriteTx {
    tx: Tx,
    _turn: tokio::sync::OwnedMutexGuard<()>,
}

impl WriteTx {
    pub async fn commit(self) -> Result<(), sqlx::Error> {
        self.tx.commit().await
    }
}

impl std::ops::Deref for WriteTx {
    type Target = Tx;
    fn deref(&self) -> &Tx {
        &self.tx
    }
}

impl std::ops::DerefMut for WriteTx {
    fn deref_mut(&mut self) -> &mut Tx {
        &mut self.tx
    }
}

/// Why a database could not be opened, as one sentence.
#[derive(Debug, thiserror::Error)]
pub enum OpenError {
    #[error(
        "DATABASE_URL names a {scheme} database, but this tafl-bot stores games only in SQLite; use sqlite://FILE, e.g. {DEFAULT_URL}"
    )]
    NotSqlite { scheme: String },
    #[error("{0}")]
    Migrate(#[from] migrate::MigrateError),
    #[error("{0}")]
    Database(#[from] sqlx::Error),
}

/// How the bot's pools are built: four connections, and `reusable` checked on every release.
#[must_use]
pub fn pool_options() -> SqlitePoolOptions {
    SqlitePoolOptions::new().max_connections(4).after_release(|conn, _| Box::pin(async move { reusable(conn).await }))
}

/// Whether a connection may go back to the pool after use. A storage error (disk full, I/O error,
/// busy) can leave `SQLite` without the transaction that sqlx still counts as open: `COMMIT`
/// fails, `SQLite` has already rolled back, the `ROLLBACK` on drop then fails too, and every
/// later `begin` on that connection would fail with "attempted to call `begin_with` at non-zero
/// transaction depth". Such a connection is closed here and the pool opens a fresh one, so the
/// next operation after the cause is gone succeeds.
async fn reusable(conn: &mut sqlx::SqliteConnection) -> Result<bool, sqlx::Error> {
    use sqlx::Connection;
    // The rollback a dropped transaction queued runs before the ping answers.
    conn.ping().await?;
    if conn.is_in_transaction() {
        tracing::warn!("closing a database connection left inside a failed transaction");
        return Ok(false);
    }
    Ok(true)
}

/// The database: a connection pool plus the rules for using it.
#[derive(Clone, Debug)]
pub struct Db {
    pool: SqlitePool,
    /// Writers of this process take turns here before `BEGIN IMMEDIATE`. `SQLite` makes a writer
    /// that finds the lock taken sleep and poll (1, 2, 5, 10… ms), which put tens of
    /// milliseconds on the slowest moves when many games move at once; an async queue wakes the
    /// next writer the moment the previous one commits. Other processes on the same file still
    /// wait through `SQLite`'s busy timeout.
    writer: Arc<tokio::sync::Mutex<()>>,
}

impl Db {
    /// Opens (creating it if missing) and migrates the database at `url`, e.g. `sqlite://tafl.db`
    /// or `sqlite:///abs/path.db`. Any other kind of URL is refused by name: `SQLite` is the only
    /// backend so far.
    pub async fn open(url: &str) -> Result<Db, OpenError> {
        let scheme = url.split_once(':').map_or("", |(scheme, _)| scheme);
        if !scheme.eq_ignore_ascii_case("sqlite") {
            return Err(OpenError::NotSqlite {
                scheme: crate::printable::printable(&crate::cli::shorten(scheme, 20)).into_owned(),
            });
        }
        Db::open_with(SqliteConnectOptions::from_str(url)?).await
    }

    /// Opens the database named by `DATABASE_URL`, or [`DEFAULT_URL`] when it is not set.
    pub async fn open_from_env() -> Result<Db, OpenError> {
        let url = std::env::var("DATABASE_URL").unwrap_or_else(|_| DEFAULT_URL.to_owned());
        Db::open(&url).await
    }

    /// Opens the database file at `path`.
    pub async fn open_file(path: &std::path::Path) -> Result<Db, OpenError> {
        let options = SqliteConnectOptions::new().filename(path);
        Db::open_with(options).await
    }

    async fn open_with(options: SqliteConnectOptions) -> Result<Db, OpenError> {
        let options = options
            .create_if_missing(true)
            .journal_mode(SqliteJournalMode::Wal)
            .synchronous(SqliteSynchronous::Normal)
            .busy_timeout(BUSY_TIMEOUT)
            .foreign_keys(true);
        let pool = pool_options().connect_with(options).await?;
        let db = Db { pool, writer: Arc::default() };
        db.migrate().await?;
        Ok(db)
    }

    /// Wraps an already configured pool, migrating it. Build it from [`pool_options`] so that a
    /// connection left in a failed transaction is replaced (a `#[sqlx::test]` pool is not).
    pub async fn from_pool(pool: SqlitePool) -> Result<Db, OpenError> {
        let db = Db { pool, writer: Arc::default() };
        db.migrate().await?;
        Ok(db)
    }

    async fn migrate(&self) -> Result<(), migrate::MigrateError> {
        migrate::run(&self.pool).await
    }

    /// Starts a write transaction, taking the write lock at once (see the module docs).
    pub async fn begin_write(&self) -> Result<WriteTx, sqlx::Error> {
        let turn = self.writer.clone().lock_owned().await;
        let tx = self.pool.begin_with("BEGIN IMMEDIATE").await?;
        Ok(WriteTx { tx, _turn: turn })
    }

    /// Starts a read-only transaction: one consistent snapshot for several reads.
    pub async fn begin_read(&self) -> Result<Tx, sqlx::Error> {
        self.pool.begin().await
    }

    /// The pool, for tests and tools that read the tables directly.
    #[must_use]
    pub fn pool(&self) -> &SqlitePool {
        &self.pool
    }

    /// Closes every connection, flushing the WAL.
    pub async fn close(&self) {
        self.pool.close().await;
    }
}
