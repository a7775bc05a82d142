//! `tafl-bot migrate-db --from sqlite://tafl.db --to postgres://…`: copies a bot's `SQLite`
//! database into an empty `PostgreSQL` one (issue 16), for the move to several processes.
//!
//! # Design
//!
//! * **Both sides at this binary's schema first, the source file untouched.** The source file is
//!   never written: a source at this schema is read as it is; an older one is copied (`VACUUM
//!   INTO`, a consistent snapshot) into a temporary folder and the copy is brought up to date by
//!   the `SQLite` migrator the bot itself runs ([`crate::store::migrate`]), so a copy that fails
//!   leaves the file one the older tafl-bot still opens. The target is brought up to date by the
//!   `PostgreSQL` migrator ([`crate::store::postgres`]). A database from a newer tafl-bot is
//!   refused on either side. Copying between two different schema versions is never tried.
//! * **The target is reached first.** `--to` is connected to and judged before the source is
//!   read, so a mistyped or unreachable target costs nothing.
//! * **The source's lock is held** (the one `tafl-bot run` takes, see [`crate::store::file`]): a
//!   bot running on the file would go on writing what the copy leaves behind, so the copy is
//!   refused while one runs, and none can start on the file until the copy ends.
//! * **Tables and columns come from the schemas, not from a list here.** `sqlite_master` and
//!   `pragma_table_info` on one side, `information_schema` on the other; a table or column found
//!   on one side only stops the copy with a sentence naming it, so a future migration written
//!   for one backend cannot be silently left behind. Tables are copied parents first, in the
//!   order of `PostgreSQL`'s foreign keys (which, unlike `SQLite`'s, are checked on every insert).
//!   Each value is converted by its `PostgreSQL` column's type (BIGINT, TEXT, BOOLEAN from 0/1,
//!   DOUBLE PRECISION, BYTEA), and a stored value that type cannot take (text in an integer
//!   column, a flag of 2, a NUL in text) stops the copy naming the table, row and column rather
//!   than being coerced. Only `_sqlx_migrations` is not copied: each backend keeps its own
//!   history of its own files (different SQL, different checksums), written by its migrator.
//! * **All or nothing.** The whole copy is one `PostgreSQL` transaction that first takes every
//!   table's lock (a bot already running on the target waits, or the copy gives up after
//!   [`LOCK_WAIT`]), so a failure or a kill at any point leaves the target as it was. The source
//!   is read in one read transaction: a consistent snapshot.
//! * **Only into an empty database.** A freshly migrated target is not quite empty (migration
//!   0008 inserts the bot players' users), so "empty" means: every table holds exactly the rows a
//!   fresh migration leaves, found by migrating an in-memory `SQLite` database with the same
//!   migrator. Those rows are deleted inside the transaction and come back from the source (which
//!   has them too, perhaps updated); any other row makes the copy refuse in one sentence, so ids
//!   are never merged or duplicated. (The two backends' migrations seed the same rows; were they
//!   ever to differ, every fresh target would be refused, and `bot/tests/migrate_db.rs`, which
//!   copies into fresh targets, would say so.)
//! * **Verified before commit.** After the last table, every table's count on `PostgreSQL` is
//!   compared with the source's count in the snapshot; a difference rolls everything back. Then
//!   each identity sequence is moved past the largest copied id (`setval`), so the next game,
//!   challenge, offer or outbox item made on `PostgreSQL` gets a fresh id.
//! * **Batched.** Rows are streamed from `SQLite` and inserted [`BATCH_ROWS`] at a time with one
//!   `INSERT … SELECT * FROM UNNEST($1::bigint[], $2::text[], …)`: one bound array per column, so
//!   the statement is the same for every batch and no batch meets `PostgreSQL`'s limit of 65,535
//!   bound parameters.

use std::collections::BTreeMap;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::time::{Duration, Instant};

use futures_util::TryStreamExt;
use sqlx::postgres::{PgConnectOptions, PgConnection, PgRow};
use sqlx::sqlite::{SqliteConnectOptions, SqlitePool, SqlitePoolOptions, SqliteRow};
use sqlx::{AssertSqlSafe, Connection, Executor, Row, SqliteConnection, TypeInfo, ValueRef};

use super::CliError;
use crate::store::migrate::MigrateError;

/// Rows per `INSERT`: large enough that the round trips do not dominate, small enough that a
/// batch of games (their longest rows) stays a few megabytes.
const BATCH_ROWS: usize = 5_000;
/// How long the copy waits for a table of the target that another session holds locked.
const LOCK_WAIT: Duration = Duration::from_secs(10);
/// The migrators' own history, kept by each backend for its own files: never copied.
const HISTORY_TABLE: &str = "_sqlx_migrations";

/// Arguments of `tafl-bot migrate-db`. (Their doc comments are the help texts: product names go
/// unquoted there.)
#[allow(clippy::doc_markdown)]
#[derive(Debug, Clone, clap::Args)]
pub struct MigrateDbArgs {
    /// The SQLite database to copy, e.g. `sqlite://tafl.db`, with no bot running on it; it is
    /// never written (one from an older tafl-bot is copied and the copy brought to this one's
    /// schema).
    #[arg(long, value_name = "sqlite://FILE")]
    pub from: String,
    /// The PostgreSQL database to copy into, e.g. `postgres://tafl@db.internal/tafl`; it must
    /// hold nothing but tafl-bot's schema (a new database).
    #[arg(long, value_name = "postgres://…")]
    pub to: String,
}

/// Why a copy did not happen. Every variant reads as one sentence, and every one leaves the
/// target as it was (nothing is committed before the last check).
#[derive(Debug, thiserror::Error)]
pub enum MigrateDbError {
    /// `given` is the URL as shown, its password (of a `postgres://` URL given as --from) hidden.
    #[error("--from must name an SQLite database such as sqlite://tafl.db, not {given:?}")]
    SourceNotSqliteUrl { given: String },
    #[error(
        "--from {given} names no database file, so there is nothing to copy; name the bot's file, such as sqlite://tafl.db"
    )]
    SourceNoFile { given: String },
    #[error("--to must name a PostgreSQL database such as postgres://user@host/tafl, not a {scheme:?} URL")]
    TargetNotPostgresUrl { scheme: String },
    #[error("--{flag} is not a valid database URL: {reason}")]
    BadUrl { flag: &'static str, reason: String },
    #[error("the source database {path} does not exist")]
    SourceMissing { path: PathBuf },
    #[error("cannot read the source database {path}: {reason}")]
    SourceUnreadable { path: PathBuf, reason: String },
    #[error("the source {path} is not an SQLite database")]
    SourceNotSqlite { path: PathBuf },
    #[error("the source {path} is an SQLite database but not tafl-bot's ({why})")]
    SourceNotOurs { path: PathBuf, why: crate::store::migrate::NotOurs },
    #[error(
        "the source database {path} was written by a newer tafl-bot (schema version {found}; this one knows up to {known}); run migrate-db from that version"
    )]
    SourceNewer { path: PathBuf, found: i64, known: i64 },
    #[error("cannot bring the source database {path} to this tafl-bot's schema: {reason}")]
    SourceMigrate { path: PathBuf, reason: String },
    #[error(
        "the source database {path} is in use: {} holds its lock {}; stop it first, or whatever it writes after the copy would stay behind",
        holder.as_deref().unwrap_or("another tafl-bot process"),
        lock.display()
    )]
    SourceInUse { path: PathBuf, lock: PathBuf, holder: Option<String> },
    #[error(
        "cannot copy the source database {path} into a temporary folder to bring the copy to this tafl-bot's schema (the source itself is never changed): {reason}; name a folder with room in TMPDIR"
    )]
    SourceScratch { path: PathBuf, reason: String },
    #[error(
        "{table}.{column} holds the id {}, the largest there is, so PostgreSQL could give no new row of {table} an id after it; nothing was written to the target",
        i64::MAX
    )]
    IdAtMaximum { table: String, column: String },
    #[error("cannot connect to the PostgreSQL database of --to: {reason}")]
    TargetUnreachable { reason: String },
    #[error(transparent)]
    TargetNotUtf8(#[from] crate::store::postgres::NotUtf8),
    #[error(
        "the target database was written by a newer tafl-bot (schema version {found}; this one knows up to {known}); run migrate-db from that version"
    )]
    TargetNewer { found: i64, known: i64 },
    #[error("cannot bring the target database to this tafl-bot's schema: {reason}")]
    TargetMigrate { reason: String },
    #[error(
        "the source and target schemas differ ({differences}), so the copy would leave data behind; both were migrated by this tafl-bot, so one was changed by hand"
    )]
    SchemaDiffers { differences: String },
    #[error("{}", denied(role, tables, sequences))]
    TargetDenied { role: String, tables: Vec<String>, sequences: Vec<String> },
    #[error("column {table}.{column} has the PostgreSQL type {ty}, which migrate-db does not know how to fill")]
    UnknownType { table: String, column: String, ty: String },
    #[error("the foreign keys of tables {tables} form a cycle, so no table of them can be copied first")]
    ForeignKeyCycle { tables: String },
    #[error(
        "the target database already holds data ({what}); migrate-db copies only into a database that holds nothing but tafl-bot's schema, so that no ids are merged or duplicated: create a new database and name it with --to"
    )]
    TargetNotEmpty { what: String },
    #[error(
        "the target database is not a new one ({what}); migrate-db copies only into a database that holds nothing but tafl-bot's schema: create a new database and name it with --to"
    )]
    TargetNotNew { what: String },
    #[error(
        "the target database is in use (a table stayed locked for {} s); stop the bots connected to it and try again",
        LOCK_WAIT.as_secs()
    )]
    TargetBusy,
    #[error(
        "the target database holds tables tafl-bot does not use ({tables}); migrate-db copies only into a new database or one of tafl-bot's: create a new database and name it with --to"
    )]
    TargetForeign { tables: String },
    #[error("{table} row {key} cannot be copied: column {column} holds {found}; nothing was written to the target")]
    BadValue { table: String, key: String, column: String, found: String },
    #[error(
        "after the copy {table} holds {target_rows} rows on PostgreSQL but {source_rows} in the source; nothing was written to the target"
    )]
    CountMismatch { table: String, source_rows: i64, target_rows: i64 },
    #[error("{doing} failed, so nothing was written to the target: {reason}")]
    Target { doing: String, reason: String },
    #[error("reading the source database failed, so nothing was written to the target: {reason}")]
    Source { reason: String },
}

/// [`MigrateDbError::TargetDenied`]'s sentence: the tables whose rows `role` may not read, insert
/// and delete, and the id sequences it may not set past the copied ids (`setval` needs UPDATE).
fn denied(role: &str, tables: &[String], sequences: &[String]) -> String {
    let (tables, sequences) = (tables.join(", "), sequences.join(", "));
    match (tables.is_empty(), sequences.is_empty()) {
        (false, true) => format!(
            "the role {role} may not read, insert and delete rows of the target's tables {tables}; grant it SELECT, INSERT and DELETE on them, or run migrate-db as their owner"
        ),
        (true, _) => format!(
            "the role {role} may not set the target's id sequences {sequences} past the copied ids; grant it UPDATE on them, or run migrate-db as their owner"
        ),
        (false, false) => format!(
            "the role {role} may not read, insert and delete rows of the target's tables {tables}, nor set its id sequences {sequences} past the copied ids; grant it SELECT, INSERT and DELETE on those tables and UPDATE on those sequences, or run migrate-db as their owner"
        ),
    }
}

/// What was copied: rows per table in copy order, and how long the copy took.
#[derive(Debug, Clone, PartialEq)]
pub struct Report {
    pub tables: Vec<(String, i64)>,
    /// From the start of the target's transaction to its commit.
    pub elapsed: Duration,
}

impl Report {
    #[must_use]
    pub fn rows(&self) -> i64 {
        self.tables.iter().map(|(_, n)| n).sum()
    }

    /// Rows copied per second of [`Report::elapsed`].
    #[must_use]
    pub fn rows_per_second(&self) -> f64 {
        self.rows() as f64 / self.elapsed.as_secs_f64().max(1e-6)
    }
}

/// Runs the subcommand: progress lines on stderr, the table of copied rows on `out`.
pub fn run(args: &MigrateDbArgs, out: &mut dyn Write) -> Result<(), CliError> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| CliError::Input(format!("cannot start the async runtime: {e}")))?;
    let report = runtime
        .block_on(copy(&args.from, &args.to, &mut |line| super::complain(line)))
        .map_err(|e| CliError::Input(e.to_string()))?;
    write_report(&report, out).map_err(CliError::write)
}

/// The table printed after a copy: one line per table, then the total and the speed.
pub fn write_report(report: &Report, out: &mut dyn Write) -> std::io::Result<()> {
    let width = report.tables.iter().map(|(t, _)| t.len()).max().unwrap_or(0).max("table".len());
    writeln!(out, "{:<width$}  {:>10}", "table", "rows")?;
    for (table, rows) in &report.tables {
        writeln!(out, "{table:<width$}  {rows:>10}")?;
    }
    writeln!(
        out,
        "copied {} rows in {:.2} s ({:.0} rows/s); every table's count matches the source",
        report.rows(),
        report.elapsed.as_secs_f64(),
        report.rows_per_second()
    )
}

/// Copies the `SQLite` database `from` into the empty `PostgreSQL` database `to` (see the module
/// docs); `progress` is told which table is being copied.
pub async fn copy(from: &str, to: &str, progress: &mut dyn FnMut(&str)) -> Result<Report, MigrateDbError> {
    let (source_options, path) = source_options(from)?;
    let target_options = target_options(to)?;
    check_source_file(&path)?;
    // Held until the copy ends (see the module docs).
    let _lock = lock_source(&path)?;
    let mut target = connect_target(target_options).await?;
    remove_abandoned_scratches(progress);
    let source = match open_source(source_options, &path).await {
        Ok(source) => source,
        Err(error) => {
            let _ = target.close().await;
            return Err(error);
        }
    };
    let result = async {
        migrate_target(&mut target).await?;
        let tables = plan(&source.pool, &mut target).await?;
        let fresh = fresh_rows(&tables).await?;
        copy_all(&source.pool, &mut target, &tables, &fresh, progress).await
    }
    .await;
    source.pool.close().await;
    let _ = target.close().await;
    result
}

/// The source's lock, taken for `tafl-bot migrate-db`.
fn lock_source(path: &Path) -> Result<Option<crate::store::file::FileLock>, MigrateDbError> {
    crate::store::file::lock(path, "tafl-bot migrate-db").map_err(|error| match error {
        crate::store::OpenError::InUse { lock, holder } => {
            MigrateDbError::SourceInUse { path: path.to_owned(), lock, holder }
        }
        // The folder or the lock file cannot be written: `SQLite` could not read a database in
        // WAL mode there either (it needs its -shm file), and the sentence says what to change.
        other => MigrateDbError::SourceUnreadable { path: path.to_owned(), reason: one_line(&other.to_string()) },
    })
}

/// The database the copy reads: the source file itself, or a migrated copy of it in `_scratch`
/// (removed when dropped).
struct Source {
    pool: SqlitePool,
    _scratch: Option<Scratch>,
}

/// The private temporary folder (readable by this user alone: the copy holds every game and name
/// of the bot) of an older source's copy, removed when dropped, and its `owner` file, locked
/// for as long as the folder is in use: a `tafl-bot migrate-db` killed with `kill -9` cannot
/// remove its folder, and the next one does ([`remove_abandoned_scratches`]).
struct Scratch {
    // Declared first, so closed (and unlocked) before the folder is removed.
    _owner: std::fs::File,
    dir: tempfile::TempDir,
}

impl Scratch {
    fn new() -> std::io::Result<Scratch> {
        use std::io::Write;
        let dir = tempfile::Builder::new().prefix(SCRATCH_PREFIX).tempdir()?;
        let mut owner = std::fs::File::create(dir.path().join(SCRATCH_OWNER))?;
        // Waits: another migrate-db's sweep may hold the lock for an instant, finding the file
        // empty (as it is until the line below), and leave the folder be. Where the file system
        // takes no locks, the file stays empty: the folder is never swept, and the copy goes on.
        if owner.lock().is_ok() {
            writeln!(owner, "tafl-bot migrate-db (pid {})", std::process::id())?;
        }
        Ok(Scratch { _owner: owner, dir })
    }

    /// The source's copy.
    fn file(&self) -> PathBuf {
        self.dir.path().join(SCRATCH_NAME)
    }
}

/// The start of the name of every [`Scratch`] folder.
const SCRATCH_PREFIX: &str = "tafl-bot-migrate-db-";
/// The [`Scratch`] folder's lock and the line of who holds it.
const SCRATCH_OWNER: &str = "owner";

/// Removes the [`Scratch`] folders in the temporary folder that their `tafl-bot migrate-db` left
/// behind, killed before it could remove them ([`abandoned`]). Each removal is said through
/// `progress`; a folder that cannot be removed is left as it is (it is not this copy's concern).
fn remove_abandoned_scratches(progress: &mut dyn FnMut(&str)) {
    let Ok(entries) = std::fs::read_dir(std::env::temp_dir()) else { return };
    for entry in entries.flatten() {
        let dir = entry.path();
        // `remove_dir_all` follows no link inside the folder.
        if entry.file_name().to_string_lossy().starts_with(SCRATCH_PREFIX)
            && abandoned(&dir)
            && std::fs::remove_dir_all(&dir).is_ok()
        {
            progress(&format!("removed {}, the temporary copy a killed migrate-db left behind", dir.display()));
        }
    }
}

/// Whether the [`Scratch`] folder `dir` was left behind: a folder of this user's own (not a link),
/// whose owner file (a regular file of this user's, not a link) says who made it and is locked by
/// nobody. A migrate-db running now holds its lock; one starting now has not written the file
/// yet. The temporary folder is shared: whatever anyone put there under the name is opened
/// without waiting (a FIFO would block an open) and read no further than a line (a link to
/// `/dev/zero` would be read without end).
#[cfg(target_os = "linux")]
fn abandoned(dir: &Path) -> bool {
    use rustix::fs::{Mode, OFlags};
    use std::io::Read;
    use std::os::unix::fs::MetadataExt;
    let me = rustix::process::geteuid().as_raw();
    let ours = |metadata: &std::fs::Metadata| metadata.uid() == me;
    if !std::fs::symlink_metadata(dir).is_ok_and(|folder| folder.is_dir() && ours(&folder)) {
        return false;
    }
    let flags = OFlags::RDONLY | OFlags::NOFOLLOW | OFlags::NONBLOCK | OFlags::CLOEXEC;
    let Ok(owner) = rustix::fs::open(dir.join(SCRATCH_OWNER), flags, Mode::empty()).map(std::fs::File::from) else {
        return false;
    };
    if !owner.metadata().is_ok_and(|file| file.is_file() && ours(&file)) || owner.try_lock().is_err() {
        return false;
    }
    let mut said = String::new();
    (&owner).take(64).read_to_string(&mut said).is_ok() && said.starts_with("tafl-bot migrate-db")
}

/// Elsewhere the folders are left to the system's own cleaning of its temporary folder.
#[cfg(not(target_os = "linux"))]
fn abandoned(_dir: &Path) -> bool {
    false
}

fn source_options(from: &str) -> Result<(SqliteConnectOptions, PathBuf), MigrateDbError> {
    let scheme = from.split_once(':').map(|(scheme, _)| scheme);
    if !scheme.is_some_and(|s| s.eq_ignore_ascii_case("sqlite")) {
        // The URLs given the wrong way round: --from holds the PostgreSQL one, password and all.
        return Err(MigrateDbError::SourceNotSqliteUrl { given: super::shorten(&crate::store::redacted(from), 60) });
    }
    // An in-memory database (or `sqlite://`, a new temporary one) holds nothing of the bot's,
    // and its "file" would be refused as missing under a name it never had.
    if crate::store::sqlite_names_no_file(from) {
        return Err(MigrateDbError::SourceNoFile { given: super::shorten(from, 60) });
    }
    let options =
        crate::store::sqlite_options(from).map_err(|e| MigrateDbError::BadUrl { flag: "from", reason: said(&e) })?;
    let path = options.get_filename().to_owned();
    // Never create the source: a mistyped path must not become an empty database to copy.
    Ok((options.create_if_missing(false).foreign_keys(true).busy_timeout(Duration::from_secs(10)), path))
}

fn target_options(to: &str) -> Result<PgConnectOptions, MigrateDbError> {
    let scheme = to.split_once(':').map_or("", |(scheme, _)| scheme);
    if !(scheme.eq_ignore_ascii_case("postgres") || scheme.eq_ignore_ascii_case("postgresql")) {
        return Err(MigrateDbError::TargetNotPostgresUrl { scheme: super::shorten(scheme, 20) });
    }
    // As `run` refuses them in DATABASE_URL.
    let refused = |reason: String| MigrateDbError::BadUrl { flag: "to", reason };
    if let Some(error) = crate::store::refused_postgres_url(to) {
        // The same refusals as `run`'s, said of --to rather than of DATABASE_URL.
        return Err(refused(match error {
            crate::store::OpenError::UnreadSecret { key } => format!(
                "its {key} parameter is not one tafl-bot reads (its value is not shown); remove it, and give a password as password=… or in the URL's user part"
            ),
            crate::store::OpenError::UnencodedPassword { character } => {
                format!("it {}", crate::store::unencoded_password_advice(character))
            }
            other => other.to_string(),
        }));
    }
    let options = PgConnectOptions::from_str(to).map_err(|e| refused(said(&e)))?;
    Ok(options.application_name("tafl-bot migrate-db"))
}

/// The source exists, is readable and starts with `SQLite`'s header, before `SQLite` opens it (it
/// would take an empty file for a new database).
fn check_source_file(path: &Path) -> Result<(), MigrateDbError> {
    let unreadable =
        |e: std::io::Error| MigrateDbError::SourceUnreadable { path: path.to_owned(), reason: e.to_string() };
    let metadata = match std::fs::metadata(path) {
        Ok(metadata) => metadata,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Err(MigrateDbError::SourceMissing { path: path.to_owned() });
        }
        Err(e) => return Err(unreadable(e)),
    };
    if metadata.is_dir() {
        return Err(MigrateDbError::SourceUnreadable { path: path.to_owned(), reason: "it is a directory".to_owned() });
    }
    let mut header = [0u8; 16];
    let mut file = std::fs::File::open(path).map_err(unreadable)?;
    let read = file.read(&mut header).map_err(unreadable)?;
    if read < header.len() || &header != b"SQLite format 3\0" {
        return Err(MigrateDbError::SourceNotSqlite { path: path.to_owned() });
    }
    Ok(())
}

/// Opens the source, refused when it is not tafl-bot's or is a newer tafl-bot's; one at an older
/// schema is copied into a temporary folder and the copy migrated (see the module docs).
async fn open_source(options: SqliteConnectOptions, path: &Path) -> Result<Source, MigrateDbError> {
    // One connection: the snapshot's, or the read transaction's.
    let pool =
        SqlitePoolOptions::new().max_connections(1).connect_with(options).await.map_err(|e| source_error(path, &e))?;
    match snapshot_if_older(&pool, path).await {
        Ok(None) => Ok(Source { pool, _scratch: None }),
        Ok(Some(scratch)) => {
            pool.close().await;
            migrated_copy(scratch, path).await
        }
        Err(error) => {
            pool.close().await;
            Err(error)
        }
    }
}

/// Judges the source without writing to it: refused when it is not tafl-bot's, or is a newer
/// (or a different, or a half-migrated) tafl-bot's; `None` at this schema; at an older one, a
/// consistent copy of it (`VACUUM INTO`) in a new temporary folder, readable by this user alone
/// (it holds every game and name of the bot).
async fn snapshot_if_older(pool: &SqlitePool, path: &Path) -> Result<Option<Scratch>, MigrateDbError> {
    let failed = |e: sqlx::Error| source_error(path, &e);
    let ours: bool =
        sqlx::query_scalar("SELECT EXISTS (SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?)")
            .bind(HISTORY_TABLE)
            .fetch_one(pool)
            .await
            .map_err(failed)?;
    if !ours {
        return Err(MigrateDbError::SourceNotOurs {
            path: path.to_owned(),
            why: crate::store::migrate::NotOurs::NoHistory,
        });
    }
    let applied = sqlx::query_as(crate::store::migrate::APPLIED_SQL).fetch_all(pool).await.map_err(failed)?;
    if crate::store::migrate::is_current(&applied).map_err(|e| source_migrate_error(path, e))? {
        return Ok(None);
    }
    let scratch_failed =
        |reason: String| MigrateDbError::SourceScratch { path: path.to_owned(), reason: one_line(&reason) };
    let scratch = Scratch::new().map_err(|e| scratch_failed(e.to_string()))?;
    let file = scratch.file();
    let file = file.to_str().ok_or_else(|| scratch_failed(format!("{} is not UTF-8", file.display())))?;
    sqlx::query("VACUUM INTO ?").bind(file).execute(pool).await.map_err(|e| scratch_failed(said(&e)))?;
    Ok(Some(scratch))
}

/// The source's copy in `scratch`, brought to this tafl-bot's schema (no backup: it is one).
async fn migrated_copy(scratch: Scratch, path: &Path) -> Result<Source, MigrateDbError> {
    let scratch_failed = |e: &sqlx::Error| MigrateDbError::SourceScratch { path: path.to_owned(), reason: said(e) };
    let options = SqliteConnectOptions::new().filename(scratch.file()).create_if_missing(false).foreign_keys(true);
    let copy =
        SqlitePoolOptions::new().max_connections(1).connect_with(options).await.map_err(|e| scratch_failed(&e))?;
    if let Err(error) = crate::store::migrate::run(&copy).await {
        copy.close().await;
        return Err(match error {
            MigrateError::Database(e) => scratch_failed(&e),
            other => source_migrate_error(path, other),
        });
    }
    Ok(Source { pool: copy, _scratch: Some(scratch) })
}

/// The name of the source's copy in its temporary folder.
const SCRATCH_NAME: &str = "source.db";

/// Why the source's schema is refused, or could not be brought up to date.
fn source_migrate_error(path: &Path, error: MigrateError) -> MigrateDbError {
    match error {
        MigrateError::NotOurs(why) => MigrateDbError::SourceNotOurs { path: path.to_owned(), why },
        MigrateError::Newer { found, known } => MigrateDbError::SourceNewer { path: path.to_owned(), found, known },
        MigrateError::Database(e) => source_error(path, &e),
        other => MigrateDbError::SourceMigrate { path: path.to_owned(), reason: one_line(&other.to_string()) },
    }
}

/// Whether bringing the target to this tafl-bot's schema may write to it, judged without
/// writing: the copy's own refusals come after the migration, and a target refused after it
/// would be left changed (another application's database given tafl-bot's tables, or an older
/// tafl-bot's live database moved to a schema its bots cannot open). The migration may run on a
/// database with no tables, and on one of tafl-bot's that holds no more than a new one holds;
/// one already at this schema gets nothing written, and the later checks judge it.
async fn may_migrate(target: &mut PgConnection) -> Result<(), MigrateDbError> {
    let failed =
        |e: sqlx::Error| MigrateDbError::Target { doing: "reading the target's tables".to_owned(), reason: said(&e) };
    // `pg_class`, not `information_schema`, which shows only what this role may use: another
    // role's tables would make a database look empty. Views and foreign tables count too.
    let tables: Vec<String> = sqlx::query_scalar(
        "SELECT c.relname::text FROM pg_class c
         WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind IN ('r', 'p', 'v', 'm', 'f')
         ORDER BY 1",
    )
    .fetch_all(&mut *target)
    .await
    .map_err(failed)?;
    if tables.is_empty() {
        return Ok(());
    }
    let listed = |names: &[&String]| {
        let mut list: Vec<&str> = names.iter().take(5).map(|n| n.as_str()).collect();
        if names.len() > 5 {
            list.push("…");
        }
        list.join(", ")
    };
    if !tables.iter().any(|t| t == HISTORY_TABLE) {
        return Err(MigrateDbError::TargetForeign { tables: listed(&tables.iter().collect::<Vec<_>>()) });
    }
    let applied: BTreeMap<i64, Vec<u8>> = sqlx::query_as::<_, (i64, Vec<u8>)>(AssertSqlSafe(format!(
        "SELECT version, checksum FROM {} WHERE success",
        quote(HISTORY_TABLE)
    )))
    .fetch_all(&mut *target)
    .await
    .map_err(failed)?
    .into_iter()
    .collect();
    let ours: BTreeMap<i64, &[u8]> =
        crate::store::postgres::MIGRATOR.iter().map(|m| (m.version, m.checksum.as_ref())).collect();
    // tafl-bot's history: some of this one's migrations (an older tafl-bot), all of them, or all
    // and more (a newer one). Anything else is another application's (sqlx numbers migrations
    // by date by default, which would read as a newer tafl-bot).
    let older_or_same = applied.iter().all(|(version, checksum)| ours.get(version) == Some(&checksum.as_slice()));
    let newer = ours.iter().all(|(version, checksum)| applied.get(version).map(Vec::as_slice) == Some(*checksum));
    // tafl-bot's versions with another file behind one: a different build's database, refused
    // in the bot's own words rather than as another application's.
    let ours_by_number = applied.keys().all(|version| ours.contains_key(version) || *version > known_version());
    let changed =
        applied.iter().find(|(version, checksum)| ours.get(version).is_some_and(|c| *c != checksum.as_slice()));
    if let Some((&version, _)) = changed.filter(|_| ours_by_number) {
        return Err(MigrateDbError::TargetMigrate { reason: one_line(&MigrateError::Changed { version }.to_string()) });
    }
    if !older_or_same && !newer {
        return Err(MigrateDbError::TargetForeign { tables: listed(&tables.iter().collect::<Vec<_>>()) });
    }
    let known = known_version();
    if let Some(&found) = applied.keys().next_back().filter(|&&found| found > known) {
        return Err(MigrateDbError::TargetNewer { found, known });
    }
    if applied.len() == ours.len() {
        return Ok(());
    }
    // The migration would write: only into what a new database holds.
    let fresh = fresh_counts().await?;
    let foreign: Vec<&String> = tables.iter().filter(|t| *t != HISTORY_TABLE && !fresh.contains_key(*t)).collect();
    if !foreign.is_empty() {
        return Err(MigrateDbError::TargetForeign { tables: listed(&foreign) });
    }
    for table in tables.iter().filter(|t| *t != HISTORY_TABLE) {
        let count: i64 = sqlx::query_scalar(AssertSqlSafe(format!("SELECT count(*) FROM {}", quote(table))))
            .fetch_one(&mut *target)
            .await
            .map_err(failed)?;
        let new = fresh.get(table).copied().unwrap_or(0);
        if count > new {
            let rows = if count == 1 { "1 row".to_owned() } else { format!("{count} rows") };
            let note = if new == 0 { String::new() } else { format!(" where a new one has {new}") };
            return Err(MigrateDbError::TargetNotEmpty { what: format!("{rows} in {table}{note}") });
        }
    }
    Ok(())
}

/// The newest `PostgreSQL` schema version this tafl-bot knows.
fn known_version() -> i64 {
    crate::store::postgres::latest_version()
}

/// How many rows each table of a new database holds (the bot's players), from a new in-memory
/// database of this schema.
async fn fresh_counts() -> Result<BTreeMap<String, i64>, MigrateDbError> {
    let pool = fresh_database().await?;
    let failed = |e: &dyn std::fmt::Display| MigrateDbError::Source {
        reason: format!("a new in-memory database for comparison: {}", one_line(&e.to_string())),
    };
    let names: Vec<String> = sqlx::query_scalar(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' AND name <> ?",
    )
    .bind(HISTORY_TABLE)
    .fetch_all(&pool)
    .await
    .map_err(|e| failed(&e))?;
    let mut counts = BTreeMap::new();
    for name in names {
        let count: i64 = sqlx::query_scalar(AssertSqlSafe(format!("SELECT count(*) FROM {}", quote(&name))))
            .fetch_one(&pool)
            .await
            .map_err(|e| failed(&e))?;
        counts.insert(name, count);
    }
    pool.close().await;
    Ok(counts)
}

/// A failure of `SQLite` on the source, in words: "not a database" for a file that only starts
/// like one.
fn source_error(path: &Path, error: &sqlx::Error) -> MigrateDbError {
    match error.as_database_error().and_then(sqlx::error::DatabaseError::code).as_deref() {
        // SQLITE_NOTADB and SQLITE_CORRUPT.
        Some("26" | "11") => MigrateDbError::SourceNotSqlite { path: path.to_owned() },
        _ => MigrateDbError::SourceUnreadable { path: path.to_owned(), reason: said(error) },
    }
}

/// Connects to the target and judges, without writing, whether it may be migrated.
async fn connect_target(options: PgConnectOptions) -> Result<PgConnection, MigrateDbError> {
    let mut conn = crate::store::postgres::connect(&options)
        .await
        .map_err(|e| MigrateDbError::TargetUnreachable { reason: said(&e) })?;
    let checked = match crate::store::postgres::check_encoding(&mut conn).await {
        Ok(Ok(())) => may_migrate(&mut conn).await,
        Ok(Err(not_utf8)) => Err(not_utf8.into()),
        Err(e) => Err(MigrateDbError::Target { doing: "reading the target's encoding".to_owned(), reason: said(&e) }),
    };
    if let Err(error) = checked {
        let _ = conn.close().await;
        return Err(error);
    }
    Ok(conn)
}

/// Brings the target to this tafl-bot's schema (judged allowed by [`connect_target`]).
async fn migrate_target(conn: &mut PgConnection) -> Result<(), MigrateDbError> {
    crate::store::postgres::migrate_connection(conn).await.map_err(|error| match error {
        MigrateError::Newer { found, known } => MigrateDbError::TargetNewer { found, known },
        other => MigrateDbError::TargetMigrate { reason: one_line(&other.to_string()) },
    })
}

/// How a value is sent to `PostgreSQL`, from its column's type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Int,
    Bool,
    Real,
    Text,
    Bytes,
}

impl Kind {
    /// The kind of a column of `information_schema`'s `data_type`. The narrower integer and
    /// float types are filled through their wide twins (`PostgreSQL` casts on assignment and
    /// refuses a value out of range); any other type is unknown here and stops the copy.
    fn of(data_type: &str) -> Option<Kind> {
        Some(match data_type {
            "bigint" | "integer" | "smallint" => Kind::Int,
            "boolean" => Kind::Bool,
            "double precision" | "real" => Kind::Real,
            "text" | "character varying" | "character" => Kind::Text,
            "bytea" => Kind::Bytes,
            _ => return None,
        })
    }

    /// The array type the batch's column is bound as.
    fn array(self) -> &'static str {
        match self {
            Kind::Int => "bigint[]",
            Kind::Bool => "boolean[]",
            Kind::Real => "double precision[]",
            Kind::Text => "text[]",
            Kind::Bytes => "bytea[]",
        }
    }

    /// The type values are read back as, to compare them.
    fn scalar(self) -> &'static str {
        self.array().trim_end_matches("[]")
    }
}

#[derive(Clone, Debug)]
struct Column {
    name: String,
    kind: Kind,
    /// A `GENERATED … AS IDENTITY` column, whose sequence is moved past the copied ids.
    identity: bool,
}

#[derive(Clone, Debug)]
struct Table {
    name: String,
    /// In `PostgreSQL`'s order.
    columns: Vec<Column>,
    /// The primary key's columns, in key order (the order rows are read in); every column when
    /// there is none.
    key: Vec<String>,
}

/// The tables to copy, parents first, with their columns; refuses schemas that differ.
async fn plan(source: &SqlitePool, target: &mut PgConnection) -> Result<Vec<Table>, MigrateDbError> {
    let read_source = |e: sqlx::Error| MigrateDbError::Source { reason: said(&e) };
    let read_target =
        |e: sqlx::Error| MigrateDbError::Target { doing: "reading the target's schema".to_owned(), reason: said(&e) };

    let names: Vec<String> = sqlx::query_scalar(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' AND name <> ?",
    )
    .bind(HISTORY_TABLE)
    .fetch_all(source)
    .await
    .map_err(read_source)?;
    // table -> (column -> position in the primary key, 0 when not in it)
    let mut sqlite: BTreeMap<String, BTreeMap<String, i64>> = BTreeMap::new();
    for name in names {
        let columns: Vec<(String, i64)> = sqlx::query_as("SELECT name, pk FROM pragma_table_info(?)")
            .bind(&name)
            .fetch_all(source)
            .await
            .map_err(read_source)?;
        sqlite.insert(name, columns.into_iter().collect());
    }

    // `information_schema` shows only the tables this role may use: one it may not would read as
    // a table missing on PostgreSQL's side, so those are named first. DELETE also allows the
    // copy's LOCK TABLE. The identity sequences are set past the copied ids at the end of the
    // copy, which needs UPDATE on them: checked now, not after hours of copying.
    let (role, tables, sequences): (String, Vec<String>, Vec<String>) = sqlx::query_as(
        "SELECT current_user::text,
           coalesce((SELECT array_agg(c.relname::text ORDER BY c.relname) FROM pg_class c
             WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind IN ('r', 'p') AND c.relname <> $1
               AND NOT (has_table_privilege(c.oid, 'SELECT') AND has_table_privilege(c.oid, 'INSERT')
                        AND has_table_privilege(c.oid, 'DELETE'))), '{}'),
           coalesce((SELECT array_agg(s.relname::text ORDER BY s.relname) FROM pg_class s
             WHERE s.relnamespace = current_schema()::regnamespace
               -- CASE, because the order of AND is the planner's, and a table is not a sequence.
               AND CASE WHEN s.relkind = 'S' THEN NOT has_sequence_privilege(s.oid, 'UPDATE') ELSE false END),
             '{}')",
    )
    .bind(HISTORY_TABLE)
    .fetch_one(&mut *target)
    .await
    .map_err(read_target)?;
    if !tables.is_empty() || !sequences.is_empty() {
        return Err(MigrateDbError::TargetDenied { role, tables, sequences });
    }
    let rows: Vec<(String, String, String, bool)> = sqlx::query_as(
        "SELECT c.table_name::text, c.column_name::text, c.data_type::text, c.is_identity = 'YES'
         FROM information_schema.columns c
         JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name
         WHERE c.table_schema = current_schema() AND t.table_type = 'BASE TABLE' AND c.table_name <> $1
         ORDER BY c.table_name, c.ordinal_position",
    )
    .bind(HISTORY_TABLE)
    .fetch_all(&mut *target)
    .await
    .map_err(read_target)?;
    let mut postgres: BTreeMap<String, Vec<(String, String, bool)>> = BTreeMap::new();
    for (table, column, ty, identity) in rows {
        postgres.entry(table).or_default().push((column, ty, identity));
    }
    let parents: Vec<(String, String)> = sqlx::query_as(
        "SELECT child.relname::text, parent.relname::text
         FROM pg_constraint k
         JOIN pg_class child ON child.oid = k.conrelid
         JOIN pg_class parent ON parent.oid = k.confrelid
         JOIN pg_namespace n ON n.oid = child.relnamespace
         WHERE k.contype = 'f' AND n.nspname = current_schema()",
    )
    .fetch_all(&mut *target)
    .await
    .map_err(read_target)?;

    let tables = compare(&sqlite, &postgres)?;
    order(tables, &parents)
}

/// Pairs the two schemas' tables and columns, naming every one found on one side only.
fn compare(
    sqlite: &BTreeMap<String, BTreeMap<String, i64>>,
    postgres: &BTreeMap<String, Vec<(String, String, bool)>>,
) -> Result<Vec<Table>, MigrateDbError> {
    let mut differences = Vec::new();
    for name in sqlite.keys().filter(|name| !postgres.contains_key(*name)) {
        differences.push(format!("table {name} is only in the source"));
    }
    for name in postgres.keys().filter(|name| !sqlite.contains_key(*name)) {
        differences.push(format!("table {name} is only in the target"));
    }
    let mut tables = Vec::new();
    for (name, pg_columns) in postgres {
        let Some(sqlite_columns) = sqlite.get(name) else { continue };
        for column in sqlite_columns.keys().filter(|c| !pg_columns.iter().any(|(p, _, _)| p == *c)) {
            differences.push(format!("column {name}.{column} is only in the source"));
        }
        let mut columns = Vec::new();
        for (column, ty, identity) in pg_columns {
            if !sqlite_columns.contains_key(column) {
                differences.push(format!("column {name}.{column} is only in the target"));
                continue;
            }
            let kind = Kind::of(ty).ok_or_else(|| MigrateDbError::UnknownType {
                table: name.clone(),
                column: column.clone(),
                ty: ty.clone(),
            })?;
            columns.push(Column { name: column.clone(), kind, identity: *identity });
        }
        let mut key: Vec<(i64, String)> =
            sqlite_columns.iter().filter(|(_, pk)| **pk > 0).map(|(c, pk)| (*pk, c.clone())).collect();
        key.sort();
        let mut key: Vec<String> = key.into_iter().map(|(_, c)| c).collect();
        if key.is_empty() {
            key = columns.iter().map(|c| c.name.clone()).collect();
        }
        tables.push(Table { name: name.clone(), columns, key });
    }
    if differences.is_empty() {
        Ok(tables)
    } else {
        Err(MigrateDbError::SchemaDiffers { differences: differences.join("; ") })
    }
}

/// `tables` with every table after the tables its foreign keys point at (alphabetical among
/// tables free to go next, so the order is the same on every run). A table's references to
/// itself do not constrain the order.
fn order(tables: Vec<Table>, parents: &[(String, String)]) -> Result<Vec<Table>, MigrateDbError> {
    let mut waiting: BTreeMap<String, Table> = tables.into_iter().map(|t| (t.name.clone(), t)).collect();
    let mut ordered = Vec::new();
    while !waiting.is_empty() {
        let ready = waiting
            .keys()
            .find(|name| {
                !parents.iter().any(|(child, parent)| child == *name && parent != *name && waiting.contains_key(parent))
            })
            .cloned();
        let Some(ready) = ready else {
            return Err(MigrateDbError::ForeignKeyCycle {
                tables: waiting.keys().cloned().collect::<Vec<_>>().join(", "),
            });
        };
        ordered.extend(waiting.remove(&ready));
    }
    Ok(ordered)
}

/// One value on its way to `PostgreSQL`.
#[derive(Clone, Debug, PartialEq)]
enum Value {
    Null,
    Int(i64),
    Bool(bool),
    Real(f64),
    Text(String),
    Bytes(Vec<u8>),
}

/// Column `i` of a source row as a value of `kind`, or what it holds instead (for the error).
fn source_value(row: &SqliteRow, i: usize, kind: Kind) -> Result<Value, String> {
    let raw = row.try_get_raw(i).map_err(|e| said(&e))?;
    if raw.is_null() {
        return Ok(Value::Null);
    }
    // The type of the stored value: SQLite keeps any type in any column.
    let stored = match raw.type_info().name() {
        "INTEGER" => Kind::Int,
        "REAL" => Kind::Real,
        "TEXT" => Kind::Text,
        _ => Kind::Bytes,
    };
    let decode = |e: sqlx::Error| said(&e);
    Ok(match (kind, stored) {
        (Kind::Int, Kind::Int) => Value::Int(row.try_get_unchecked(i).map_err(decode)?),
        (Kind::Bool, Kind::Int) => match row.try_get_unchecked::<i64, _>(i).map_err(decode)? {
            0 => Value::Bool(false),
            1 => Value::Bool(true),
            n => return Err(format!("{n} where a flag must be 0 or 1")),
        },
        (Kind::Real, Kind::Real) => Value::Real(row.try_get_unchecked(i).map_err(decode)?),
        // Exact below 2^53, which is as far as a flag, a count or a rating goes.
        (Kind::Real, Kind::Int) => {
            let n: i64 = row.try_get_unchecked(i).map_err(decode)?;
            if n.unsigned_abs() > 1 << 53 {
                return Err(format!("the integer {n}, too large for a DOUBLE PRECISION to hold exactly"));
            }
            Value::Real(n as f64)
        }
        (Kind::Text, Kind::Text) => {
            let text: String = row.try_get_unchecked(i).map_err(|_| "text that is not valid UTF-8".to_owned())?;
            if text.contains('\0') {
                return Err("text with a NUL character, which PostgreSQL's text cannot hold".to_owned());
            }
            Value::Text(text)
        }
        (Kind::Bytes, Kind::Bytes) => Value::Bytes(row.try_get_unchecked(i).map_err(decode)?),
        (wanted, _) => {
            let found = match stored {
                Kind::Int => format!("the integer {}", row.try_get_unchecked::<i64, _>(i).unwrap_or_default()),
                Kind::Real => format!("the number {}", row.try_get_unchecked::<f64, _>(i).unwrap_or_default()),
                Kind::Text => format!(
                    "the text {:?}",
                    super::shorten(&row.try_get_unchecked::<String, _>(i).unwrap_or_default(), 30)
                ),
                Kind::Bool | Kind::Bytes => "a blob".to_owned(),
            };
            return Err(format!("{found} where PostgreSQL's column is {}", wanted.scalar()));
        }
    })
}

/// A stored value of the target, read back as its kind's type.
fn target_value(row: &PgRow, i: usize, kind: Kind) -> Result<Value, sqlx::Error> {
    Ok(match kind {
        Kind::Int => row.try_get::<Option<i64>, _>(i)?.map_or(Value::Null, Value::Int),
        Kind::Bool => row.try_get::<Option<bool>, _>(i)?.map_or(Value::Null, Value::Bool),
        Kind::Real => row.try_get::<Option<f64>, _>(i)?.map_or(Value::Null, Value::Real),
        Kind::Text => row.try_get::<Option<String>, _>(i)?.map_or(Value::Null, Value::Text),
        Kind::Bytes => row.try_get::<Option<Vec<u8>>, _>(i)?.map_or(Value::Null, Value::Bytes),
    })
}

/// The rows a freshly migrated database holds (migration 0008's bot players), table by table,
/// as the target would store them: an in-memory `SQLite` database migrated by the same migrator.
async fn fresh_rows(tables: &[Table]) -> Result<BTreeMap<String, Vec<String>>, MigrateDbError> {
    let failed = |e: &dyn std::fmt::Display| MigrateDbError::Source {
        reason: format!("a new in-memory database for comparison: {}", one_line(&e.to_string())),
    };
    let pool = fresh_database().await?;
    let mut fresh = BTreeMap::new();
    for table in tables {
        let rows = sqlx::query(AssertSqlSafe(select_sql(table))).fetch_all(&pool).await.map_err(|e| failed(&e))?;
        let mut described = Vec::new();
        for row in &rows {
            let values = table
                .columns
                .iter()
                .enumerate()
                .map(|(i, c)| source_value(row, i, c.kind))
                .collect::<Result<Vec<_>, _>>()
                .map_err(|e| failed(&e))?;
            described.push(format!("{values:?}"));
        }
        described.sort();
        fresh.insert(table.name.clone(), described);
    }
    pool.close().await;
    Ok(fresh)
}

/// A new database of this schema, in memory, to compare a target with.
async fn fresh_database() -> Result<SqlitePool, MigrateDbError> {
    let failed = |e: &dyn std::fmt::Display| MigrateDbError::Source {
        reason: format!("a new in-memory database for comparison: {}", one_line(&e.to_string())),
    };
    let options = SqliteConnectOptions::from_str("sqlite::memory:").map_err(|e| failed(&e))?;
    // One connection that is never closed: each in-memory connection is a database of its own.
    let pool = SqlitePoolOptions::new()
        .max_connections(1)
        .min_connections(1)
        .idle_timeout(None)
        .max_lifetime(None)
        .connect_with(options)
        .await
        .map_err(|e| failed(&e))?;
    crate::store::migrate::run(&pool).await.map_err(|e| failed(&e))?;
    Ok(pool)
}

fn quote(identifier: &str) -> String {
    format!("\"{}\"", identifier.replace('"', "\"\""))
}

fn column_list(table: &Table) -> String {
    table.columns.iter().map(|c| quote(&c.name)).collect::<Vec<_>>().join(", ")
}

/// Every row of `table` in key order, columns in the target's order (valid on both backends).
fn select_sql(table: &Table) -> String {
    let key = table.key.iter().map(|c| quote(c)).collect::<Vec<_>>().join(", ");
    format!("SELECT {} FROM {} ORDER BY {key}", column_list(table), quote(&table.name))
}

/// The copy itself, inside one target transaction and one source read transaction.
async fn copy_all(
    source: &SqlitePool,
    target: &mut PgConnection,
    tables: &[Table],
    fresh: &BTreeMap<String, Vec<String>>,
    progress: &mut dyn FnMut(&str),
) -> Result<Report, MigrateDbError> {
    let start = Instant::now();
    let target_error = |doing: &str| {
        let doing = doing.to_owned();
        move |e: sqlx::Error| MigrateDbError::Target { doing: doing.clone(), reason: said(&e) }
    };
    let read_error = |e: sqlx::Error| MigrateDbError::Source { reason: said(&e) };

    let mut tx = target.begin().await.map_err(target_error("starting the target's transaction"))?;
    tx.execute(AssertSqlSafe(format!("SET LOCAL lock_timeout = '{}s'", LOCK_WAIT.as_secs())))
        .await
        .map_err(target_error("setting the lock timeout"))?;
    let all = tables.iter().map(|t| quote(&t.name)).collect::<Vec<_>>().join(", ");
    // No bot on the target may write between the emptiness check and the commit.
    if let Err(error) = tx.execute(AssertSqlSafe(format!("LOCK TABLE {all} IN ACCESS EXCLUSIVE MODE"))).await {
        let busy = error.as_database_error().and_then(sqlx::error::DatabaseError::code).as_deref() == Some("55P03");
        return Err(if busy { MigrateDbError::TargetBusy } else { target_error("locking the target's tables")(error) });
    }
    ensure_empty(&mut tx, tables, fresh).await?;
    // Only a fresh migration's rows are left: children first, they make way for the source's.
    for table in tables.iter().rev() {
        tx.execute(AssertSqlSafe(format!("DELETE FROM {}", quote(&table.name))))
            .await
            .map_err(target_error(&format!("clearing the new database's rows of {}", table.name)))?;
    }

    let mut reader = source.begin().await.map_err(read_error)?;
    // The snapshot starts with the first read: the counts and every row below come from it.
    let mut counts = Vec::new();
    for table in tables {
        let count: i64 = sqlx::query_scalar(AssertSqlSafe(format!("SELECT count(*) FROM {}", quote(&table.name))))
            .fetch_one(&mut *reader)
            .await
            .map_err(read_error)?;
        counts.push(count);
    }
    for (table, &count) in tables.iter().zip(&counts) {
        progress(&format!(
            "copying {}: {}",
            table.name,
            super::count(usize::try_from(count).unwrap_or(usize::MAX), "row", "rows")
        ));
        let copied = copy_table(&mut reader, &mut tx, table).await?;
        if copied != count {
            return Err(MigrateDbError::CountMismatch {
                table: table.name.clone(),
                source_rows: count,
                target_rows: copied,
            });
        }
    }
    drop(reader);

    for (table, &count) in tables.iter().zip(&counts) {
        let stored: i64 = sqlx::query_scalar(AssertSqlSafe(format!("SELECT count(*) FROM {}", quote(&table.name))))
            .fetch_one(&mut *tx)
            .await
            .map_err(target_error(&format!("counting {}", table.name)))?;
        if stored != count {
            return Err(MigrateDbError::CountMismatch {
                table: table.name.clone(),
                source_rows: count,
                target_rows: stored,
            });
        }
    }
    for table in tables {
        for column in table.columns.iter().filter(|c| c.identity) {
            let largest: Option<i64> = sqlx::query_scalar(AssertSqlSafe(format!(
                "SELECT max({}) FROM {}",
                quote(&column.name),
                quote(&table.name)
            )))
            .fetch_one(&mut *tx)
            .await
            .map_err(target_error(&format!("reading the largest id of {}", table.name)))?;
            if largest == Some(i64::MAX) {
                return Err(MigrateDbError::IdAtMaximum { table: table.name.clone(), column: column.name.clone() });
            }
            // The next id is one past the largest copied (1 on an empty table: ids are positive).
            let sql = format!(
                "SELECT setval(pg_get_serial_sequence($1, $2), greatest(coalesce(max({c}), 0), 0) + 1, false) FROM {t}",
                c = quote(&column.name),
                t = quote(&table.name)
            );
            sqlx::query(AssertSqlSafe(sql))
                .bind(quote(&table.name))
                .bind(&column.name)
                .execute(&mut *tx)
                .await
                .map_err(target_error(&format!("moving the id sequence of {}", table.name)))?;
        }
    }
    // The planner has no statistics for rows that arrived in one bulk load until autovacuum
    // notices them; the first games played on the target would be planned as if its tables were
    // empty. ANALYZE runs inside the transaction, so the statistics come with the rows.
    progress("analysing the copied tables");
    // PostgreSQL skips a table this role does not own with a warning nobody would see.
    let not_owned: Vec<String> = sqlx::query_scalar(
        "SELECT c.relname::text FROM pg_class c
         WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind IN ('r', 'p')
           AND c.relname = ANY($1) AND NOT pg_has_role(c.relowner, 'USAGE')
         ORDER BY 1",
    )
    .bind(tables.iter().map(|t| t.name.clone()).collect::<Vec<_>>())
    .fetch_all(&mut *tx)
    .await
    .map_err(target_error("reading the owners of the copied tables"))?;
    if !not_owned.is_empty() {
        progress(&format!(
            "not analysing {}: only their owner may; run ANALYZE as the owner after the copy, or the first games are planned without statistics until autovacuum analyses them",
            not_owned.join(", ")
        ));
    }
    tx.execute(AssertSqlSafe(format!("ANALYZE {all}"))).await.map_err(target_error("analysing the copied tables"))?;
    tx.commit().await.map_err(target_error("committing the copy"))?;
    Ok(Report { tables: tables.iter().map(|t| t.name.clone()).zip(counts).collect(), elapsed: start.elapsed() })
}

/// Refuses a target holding any row a fresh migration does not leave.
async fn ensure_empty(
    tx: &mut PgConnection,
    tables: &[Table],
    fresh: &BTreeMap<String, Vec<String>>,
) -> Result<(), MigrateDbError> {
    let failed = |e: sqlx::Error| MigrateDbError::Target {
        doing: "checking that the target is empty".to_owned(),
        reason: said(&e),
    };
    for table in tables {
        let expected = fresh.get(&table.name).map_or(&[][..], Vec::as_slice);
        let count: i64 = sqlx::query_scalar(AssertSqlSafe(format!("SELECT count(*) FROM {}", quote(&table.name))))
            .fetch_one(&mut *tx)
            .await
            .map_err(failed)?;
        if count < expected.len() as i64 {
            let what = format!("{} has {count} of the {} rows a new one has", table.name, expected.len());
            return Err(MigrateDbError::TargetNotNew { what });
        }
        if count != expected.len() as i64 {
            let rows = if count == 1 { "1 row".to_owned() } else { format!("{count} rows") };
            let fresh_note =
                if expected.is_empty() { String::new() } else { format!(" where a new one has {}", expected.len()) };
            return Err(MigrateDbError::TargetNotEmpty { what: format!("{rows} in {}{fresh_note}", table.name) });
        }
        if count == 0 {
            continue;
        }
        let rows = sqlx::query(AssertSqlSafe(select_sql(table))).fetch_all(&mut *tx).await.map_err(failed)?;
        let mut found = Vec::new();
        for row in &rows {
            let values = table
                .columns
                .iter()
                .enumerate()
                .map(|(i, c)| target_value(row, i, c.kind))
                .collect::<Result<Vec<_>, _>>()
                .map_err(failed)?;
            found.push(format!("{values:?}"));
        }
        found.sort();
        if found != expected {
            return Err(MigrateDbError::TargetNotEmpty {
                what: format!("{} holds rows that a new database does not have", table.name),
            });
        }
    }
    Ok(())
}

/// The values of one batch, column by column, as they are bound.
enum Batch {
    Int(Vec<Option<i64>>),
    Bool(Vec<Option<bool>>),
    Real(Vec<Option<f64>>),
    Text(Vec<Option<String>>),
    Bytes(Vec<Option<Vec<u8>>>),
}

impl Batch {
    fn new(kind: Kind) -> Batch {
        match kind {
            Kind::Int => Batch::Int(Vec::with_capacity(BATCH_ROWS)),
            Kind::Bool => Batch::Bool(Vec::with_capacity(BATCH_ROWS)),
            Kind::Real => Batch::Real(Vec::with_capacity(BATCH_ROWS)),
            Kind::Text => Batch::Text(Vec::with_capacity(BATCH_ROWS)),
            Kind::Bytes => Batch::Bytes(Vec::with_capacity(BATCH_ROWS)),
        }
    }

    /// Appends `value`, which [`source_value`] made of this column's kind.
    fn push(&mut self, value: Value) {
        match (self, value) {
            (Batch::Int(v), Value::Int(n)) => v.push(Some(n)),
            (Batch::Int(v), _) => v.push(None),
            (Batch::Bool(v), Value::Bool(b)) => v.push(Some(b)),
            (Batch::Bool(v), _) => v.push(None),
            (Batch::Real(v), Value::Real(x)) => v.push(Some(x)),
            (Batch::Real(v), _) => v.push(None),
            (Batch::Text(v), Value::Text(s)) => v.push(Some(s)),
            (Batch::Text(v), _) => v.push(None),
            (Batch::Bytes(v), Value::Bytes(b)) => v.push(Some(b)),
            (Batch::Bytes(v), _) => v.push(None),
        }
    }
}

/// Streams one table from the source into the target in batches; returns the rows copied.
async fn copy_table(
    source: &mut SqliteConnection,
    target: &mut PgConnection,
    table: &Table,
) -> Result<i64, MigrateDbError> {
    let arrays = table
        .columns
        .iter()
        .enumerate()
        .map(|(i, c)| format!("${}::{}", i + 1, c.kind.array()))
        .collect::<Vec<_>>()
        .join(", ");
    let insert = format!("INSERT INTO {} ({}) SELECT * FROM UNNEST({arrays})", quote(&table.name), column_list(table));
    let mut rows = sqlx::query(AssertSqlSafe(select_sql(table))).fetch(&mut *source);
    let mut copied = 0i64;
    let (mut batch, mut in_batch) = read_batch(&mut rows, table).await?;
    // Each batch is inserted while the next one is read: the two databases work at once.
    while in_batch > 0 {
        let (inserted, next) =
            tokio::join!(insert_batch(&mut *target, &insert, batch, &table.name), read_batch(&mut rows, table));
        inserted?;
        copied += in_batch as i64;
        (batch, in_batch) = next?;
    }
    Ok(copied)
}

/// Up to [`BATCH_ROWS`] rows of the source, column by column; fewer only at the table's end.
async fn read_batch(
    rows: &mut (impl futures_util::Stream<Item = Result<SqliteRow, sqlx::Error>> + Unpin),
    table: &Table,
) -> Result<(Vec<Batch>, usize), MigrateDbError> {
    let mut batch: Vec<Batch> = table.columns.iter().map(|c| Batch::new(c.kind)).collect();
    let mut in_batch = 0;
    while in_batch < BATCH_ROWS {
        let Some(row) = rows.try_next().await.map_err(|e| MigrateDbError::Source { reason: said(&e) })? else {
            break;
        };
        for (i, (column, values)) in table.columns.iter().zip(&mut batch).enumerate() {
            let value = source_value(&row, i, column.kind).map_err(|found| MigrateDbError::BadValue {
                table: table.name.clone(),
                key: describe_key(&row, table),
                column: column.name.clone(),
                found,
            })?;
            values.push(value);
        }
        in_batch += 1;
    }
    Ok((batch, in_batch))
}

async fn insert_batch(
    target: &mut PgConnection,
    sql: &str,
    batch: Vec<Batch>,
    table: &str,
) -> Result<(), MigrateDbError> {
    let mut query = sqlx::query(AssertSqlSafe(sql.to_owned()));
    for values in batch {
        query = match values {
            Batch::Int(v) => query.bind(v),
            Batch::Bool(v) => query.bind(v),
            Batch::Real(v) => query.bind(v),
            Batch::Text(v) => query.bind(v),
            Batch::Bytes(v) => query.bind(v),
        };
    }
    query
        .execute(target)
        .await
        .map_err(|e| MigrateDbError::Target { doing: format!("copying {table}"), reason: said(&e) })?;
    Ok(())
}

/// A row's primary key for an error message, e.g. `(game_id 3, ply 12)`.
fn describe_key(row: &SqliteRow, table: &Table) -> String {
    let parts: Vec<String> = table
        .key
        .iter()
        .filter_map(|name| {
            let i = table.columns.iter().position(|c| &c.name == name)?;
            let text = row
                .try_get::<Option<i64>, _>(i)
                .ok()
                .flatten()
                .map(|n| n.to_string())
                .or_else(|| {
                    row.try_get::<Option<String>, _>(i).ok().flatten().map(|s| format!("{:?}", super::shorten(&s, 20)))
                })
                .unwrap_or_else(|| "?".to_owned());
            Some(format!("{name} {text}"))
        })
        .collect();
    format!("({})", parts.join(", "))
}

/// An error's text on one line, so that the whole failure stays one sentence.
fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// A database error as the reason in one of this command's sentences (see
/// [`crate::store::describe`]).
fn said(error: &sqlx::Error) -> String {
    one_line(&crate::store::describe(error))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table(name: &str) -> Table {
        Table { name: name.to_owned(), columns: Vec::new(), key: Vec::new() }
    }

    fn names(tables: &[Table]) -> Vec<&str> {
        tables.iter().map(|t| t.name.as_str()).collect()
    }

    #[test]
    fn parents_are_copied_before_their_children() {
        let parents = [
            ("moves", "games"),
            ("games", "users"),
            ("ratings", "users"),
            ("outline", "outline"), // a reference to itself does not block it
        ]
        .map(|(c, p)| (c.to_owned(), p.to_owned()));
        let tables = ["moves", "games", "users", "ratings", "outline"].map(table).to_vec();
        let ordered = order(tables, &parents).unwrap();
        assert_eq!(names(&ordered), ["outline", "users", "games", "moves", "ratings"]);
    }

    #[test]
    fn a_cycle_of_foreign_keys_is_named() {
        let parents = [("a", "b"), ("b", "a")].map(|(c, p)| (c.to_owned(), p.to_owned()));
        let error = order(vec![table("a"), table("b"), table("c")], &parents).unwrap_err();
        assert_eq!(
            error.to_string(),
            "the foreign keys of tables a, b form a cycle, so no table of them can be copied first"
        );
    }

    #[test]
    fn tables_and_columns_on_one_side_only_are_all_named() {
        let sqlite: BTreeMap<String, BTreeMap<String, i64>> = [
            ("games".to_owned(), [("id".to_owned(), 1), ("old".to_owned(), 0)].into()),
            ("notes".to_owned(), [("id".to_owned(), 1)].into()),
        ]
        .into();
        let postgres: BTreeMap<String, Vec<(String, String, bool)>> = [
            (
                "games".to_owned(),
                vec![("id".to_owned(), "bigint".to_owned(), true), ("new".to_owned(), "text".to_owned(), false)],
            ),
            ("tags".to_owned(), vec![("id".to_owned(), "bigint".to_owned(), false)]),
        ]
        .into();
        let error = compare(&sqlite, &postgres).unwrap_err().to_string();
        for part in [
            "table notes is only in the source",
            "table tags is only in the target",
            "column games.old is only in the source",
            "column games.new is only in the target",
        ] {
            assert!(error.contains(part), "{part:?} missing from: {error}");
        }
    }

    #[test]
    fn an_unknown_column_type_stops_the_copy_by_name() {
        let sqlite: BTreeMap<String, BTreeMap<String, i64>> =
            [("games".to_owned(), [("id".to_owned(), 1), ("at".to_owned(), 0)].into())].into();
        let postgres: BTreeMap<String, Vec<(String, String, bool)>> = [(
            "games".to_owned(),
            vec![
                ("id".to_owned(), "bigint".to_owned(), true),
                ("at".to_owned(), "timestamp with time zone".to_owned(), false),
            ],
        )]
        .into();
        let error = compare(&sqlite, &postgres).unwrap_err().to_string();
        assert_eq!(
            error,
            "column games.at has the PostgreSQL type timestamp with time zone, which migrate-db does not know how to fill"
        );
    }

    #[test]
    fn urls_of_the_wrong_kind_are_refused_before_anything_is_opened() {
        for (from, expected) in [
            ("tafl.db", "--from must name an SQLite database such as sqlite://tafl.db, not \"tafl.db\""),
            ("postgres://x/y", "--from must name an SQLite database such as sqlite://tafl.db, not \"postgres://x/y\""),
        ] {
            assert_eq!(source_options(from).unwrap_err().to_string(), expected);
        }
        for to in ["sqlite://b.db", "mysql://x/y", "b.db"] {
            let error = target_options(to).unwrap_err().to_string();
            assert!(
                error.starts_with("--to must name a PostgreSQL database such as postgres://user@host/tafl"),
                "{error}"
            );
        }
        assert!(target_options("postgresql://u@h/db").is_ok());
    }

    /// `--from` and `--to` given the wrong way round: the refusal names the URL with its password
    /// hidden, as every other error of the bot does.
    #[test]
    fn a_postgres_url_given_as_from_is_refused_without_its_password() {
        let error = source_options("postgres://tafl:hunter2@db.internal/tafl").unwrap_err().to_string();
        assert!(error.starts_with("--from must name an SQLite database"), "{error}");
        assert!(error.contains("postgres://tafl:***@db.internal/tafl"), "{error}");
        assert!(!error.contains("hunter2"), "the password is shown: {error}");
    }

    /// A password-like parameter sqlx does not read is refused by name, as `run` refuses it: the
    /// connection would go on without it (and sqlx would log its value).
    #[test]
    fn a_target_with_an_unread_password_parameter_is_refused_without_its_value() {
        let error = target_options("postgres://tafl@db.internal/tafl?sslpassword=hunter2").unwrap_err().to_string();
        assert_eq!(
            error,
            "--to is not a valid database URL: its sslpassword parameter is not one tafl-bot reads (its value is \
             not shown); remove it, and give a password as password=… or in the URL's user part"
        );
        assert!(target_options("postgres://tafl@db.internal/tafl?password=hunter2").is_ok());
    }

    /// An in-memory source has nothing of the bot's to copy; it is refused as such, not as a file
    /// called `file:sqlx-in-memory-0` (or with no name at all) that does not exist.
    #[test]
    fn a_source_without_a_file_is_refused_as_such() {
        for from in ["sqlite::memory:", "sqlite://", "sqlite://:memory:"] {
            let error = source_options(from).unwrap_err().to_string();
            assert_eq!(
                error,
                format!(
                    "--from {from} names no database file, so there is nothing to copy; name the bot's file, such as sqlite://tafl.db"
                )
            );
        }
    }
}
