//! The migrator: brings a database to the schema of this binary, so that a process killed at any
//! moment leaves a database that the next start can open.
//!
//! # Design
//!
//! The numbered files in `migrations/` stay the one source of truth: `sqlx::migrate!` embeds them
//! (version, description, SQL, checksum, the `-- no-transaction` flag) and they are applied in
//! order. Their history is kept in sqlx's own `_sqlx_migrations` table with sqlx's checksums, so
//! databases made by earlier binaries (which ran sqlx's migrator) open unchanged, and a database
//! migrated here is one those binaries recognise too. Only the running differs from sqlx's:
//!
//! * **Every migration commits together with its version record.** Each file runs inside one
//!   `BEGIN IMMEDIATE` transaction that also inserts its `_sqlx_migrations` row, so a kill leaves
//!   either both or neither. sqlx ran `-- no-transaction` files (0003, which rebuilds `games`)
//!   outside any transaction and recorded them afterwards: a kill in between left the schema
//!   changed but unrecorded, and every later start failed with "duplicate column name". Here a
//!   no-transaction file means only "foreign keys must be off": `PRAGMA foreign_keys` cannot
//!   change inside a transaction, so the migrator turns them off around the transaction, runs
//!   `PRAGMA foreign_key_check` before committing (`SQLite`'s documented procedure for rebuilding a
//!   table), and skips the file's own `BEGIN…`/`COMMIT`/`PRAGMA foreign_keys` lines, which would
//!   otherwise end the transaction early. Writing those lines stays allowed so that the file
//!   still reads as complete SQL and keeps its checksum.
//! * **A database half-migrated by an earlier binary is repaired.** For each migration that
//!   sqlx ran without a transaction (`LEGACY_UNRECORDED`), a probe tells whether its one
//!   committed transaction is in the database; if so, the version is recorded without running
//!   the file again. Nothing is rewritten, so no row can be lost.
//! * **A database from a newer binary is refused** with one sentence naming both versions,
//!   before anything is written, instead of sqlx's "migration 7 was previously applied but is
//!   missing".
//! * **Another program's database is refused** ([`NotOurs`]), before anything is written to
//!   it: one with tables but no migration history would otherwise get every migration, and
//!   another sqlx program's history would be called a newer tafl-bot's.
//! * **A backup comes first.** Before the first pending migration runs on a database that holds
//!   games, `VACUUM INTO` writes a consistent copy beside the file
//!   (`tafl.db.v5-backup-<unix time>`), through a temporary name, so a kill mid-copy never leaves
//!   something that looks like a finished backup, with the database file's permissions; the
//!   newest [`KEPT_BACKUPS`] copies are kept, older ones of any version removed.
//! * **Two processes starting at once** are serialised by `BEGIN IMMEDIATE`; each re-reads the
//!   record inside its transaction and skips a migration the other has just committed.

use std::path::{Path, PathBuf};
use std::time::Instant;

use sqlx::migrate::{Migration, MigrationType, Migrator};
use sqlx::{AssertSqlSafe, Connection, Executor, SqliteConnection};

/// Every migration of this binary, embedded from `migrations/`.
static MIGRATOR: Migrator = sqlx::migrate!("../migrations");

/// Migrations that sqlx ran outside a transaction and recorded afterwards, with a query that is 1
/// when the migration's own transaction has committed. Only files of earlier binaries belong
/// here: the migrator records every migration atomically, so no new file can be left this way.
const LEGACY_UNRECORDED: &[(i64, &str)] = &[(
    3,
    // 0003 creates `scheduler` in the same transaction as the rest of its changes.
    "SELECT EXISTS (SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'scheduler')",
)];

/// Why a database holding tables is taken for another program's rather than an older or newer
/// tafl-bot's: said in these words both when the bot opens its database and when `tafl-bot
/// migrate-db` reads its source.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NotOurs {
    /// Every tafl-bot database, since the first, has its migration history: a start writes that
    /// table before anything else.
    #[error("it has no _sqlx_migrations table")]
    NoHistory,
    /// sqlx keeps every program's history in a table of this name: another program's shares no
    /// version with ours, or records a different first migration.
    #[error("its _sqlx_migrations table records another program's migrations")]
    OtherHistory,
}

/// Why a database could not be brought up to date. Every variant leaves the database as it was
/// before the failing step (migrations are atomic), and reads as one sentence.
#[derive(Debug, thiserror::Error)]
pub enum MigrateError {
    /// Another program's database, named by mistake: refused before anything is written to it,
    /// rather than given tafl-bot's tables or called a newer tafl-bot's.
    #[error("it holds tables but is not tafl-bot's database ({0}); name tafl-bot's own database, or a new one")]
    NotOurs(NotOurs),
    #[error(
        "the database was written by a newer tafl-bot (schema version {found}; this one knows up to {known}); run that newer version, or restore a backup made before the upgrade"
    )]
    Newer { found: i64, known: i64 },
    #[error(
        "migration {version} recorded in the database differs from this tafl-bot's own; the database was made by a different build of tafl-bot, so run that build, or restore a backup made before it"
    )]
    Changed { version: i64 },
    #[error("migration {version} was left unfinished by another program; restore a backup of the database")]
    Dirty { version: i64 },
    #[error("cannot back up the database before migrating it: {}", super::describe(.0))]
    Backup(sqlx::Error),
    #[error("migration {version} ({description}) failed and was rolled back: {}", super::describe(.source))]
    Failed { version: i64, description: String, source: sqlx::Error },
    /// Any other refusal of sqlx's migrator (`PostgreSQL`'s, see [`super::postgres::migrate`]).
    #[error("the migrations failed: {0}")]
    Migrator(sqlx::migrate::MigrateError),
    #[error("{}", super::describe(.0))]
    Database(#[from] sqlx::Error),
}

/// The schema version this binary brings databases to.
#[must_use]
pub fn latest_version() -> i64 {
    migrations().map(|m| m.version).max().unwrap_or(0)
}

fn migrations() -> impl Iterator<Item = &'static Migration> {
    up_migrations(&MIGRATOR)
}

/// The migrations of `migrator` that bring a database up.
fn up_migrations(migrator: &Migrator) -> impl Iterator<Item = &Migration> {
    migrator.iter().filter(|m| matches!(m.migration_type, MigrationType::Simple | MigrationType::ReversibleUp))
}

/// The query that reads [`Applied`] records, oldest first.
pub(crate) const APPLIED_SQL: &str = "SELECT version, success, checksum FROM _sqlx_migrations ORDER BY version";

/// One applied migration as `_sqlx_migrations` records it.
#[derive(Debug, sqlx::FromRow)]
pub(crate) struct Applied {
    version: i64,
    success: bool,
    checksum: Vec<u8>,
}

/// Brings the database behind `conn` to [`latest_version`] (see the module docs). The
/// connection is the migrator's own: the caller closes it afterwards, so a failure that leaves it
/// with foreign keys off or mid-transaction never reaches the bot's pool.
pub(crate) async fn run_on_connection(conn: &mut SqliteConnection) -> Result<(), MigrateError> {
    run_on(conn, Backup::First).await
}

/// Whether a migration backs the database up first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Backup {
    First,
    /// The database is itself a copy made to be migrated, or a new one.
    Skip,
}

/// [`run_on_connection`], without the backup, on a connection of `pool`: for `tafl-bot
/// migrate-db`, whose databases are its own copy of the source and new in-memory ones. A
/// connection a failure may have left with foreign keys off or mid-transaction is closed rather
/// than handed back to the pool.
pub(crate) async fn run(pool: &sqlx::SqlitePool) -> Result<(), MigrateError> {
    let mut conn = pool.acquire().await?;
    let result = run_on(&mut conn, Backup::Skip).await;
    let reset = conn.execute("PRAGMA foreign_keys = ON").await;
    if result.is_err() || reset.is_err() || conn.is_in_transaction() {
        conn.close_on_drop();
    }
    result
}

async fn run_on(conn: &mut SqliteConnection, backup_first: Backup) -> Result<(), MigrateError> {
    refuse_foreign(conn).await?;
    // sqlx's table, exactly as sqlx creates it.
    conn.execute(
        "CREATE TABLE IF NOT EXISTS _sqlx_migrations (
            version BIGINT PRIMARY KEY,
            description TEXT NOT NULL,
            installed_on TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP,
            success BOOLEAN NOT NULL,
            checksum BLOB NOT NULL,
            execution_time BIGINT NOT NULL
        )",
    )
    .await?;
    let applied: Vec<Applied> = sqlx::query_as(APPLIED_SQL).fetch_all(&mut *conn).await?;
    check_applied(&MIGRATOR, &applied)?;
    let pending: Vec<&Migration> = migrations().filter(|m| !applied.iter().any(|a| a.version == m.version)).collect();
    let mut backed_up = backup_first == Backup::Skip;
    for migration in pending {
        if repair_legacy(conn, migration).await? {
            continue;
        }
        if !backed_up {
            backup(conn, applied.last().map_or(0, |a| a.version)).await?;
            backed_up = true;
        }
        apply(conn, migration).await?;
    }
    Ok(())
}

/// Refuses another program's database ([`NotOurs`]) without writing to it; a database with no
/// tables at all is a new one. Its history, when it has one, is judged as [`check_applied`]
/// judges it.
pub(crate) async fn refuse_foreign(conn: &mut SqliteConnection) -> Result<(), MigrateError> {
    let recorded: bool = sqlx::query_scalar(
        "SELECT EXISTS (SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = '_sqlx_migrations')",
    )
    .fetch_one(&mut *conn)
    .await?;
    let applied: Vec<Applied> =
        if recorded { sqlx::query_as(APPLIED_SQL).fetch_all(&mut *conn).await? } else { Vec::new() };
    if applied.is_empty() {
        // A start killed between creating the history table and committing migration 1 leaves
        // that table alone (with the index of its key): anything else is another program's.
        let tables: bool =
            sqlx::query_scalar("SELECT EXISTS (SELECT 1 FROM sqlite_master WHERE tbl_name <> '_sqlx_migrations')")
                .fetch_one(&mut *conn)
                .await?;
        return if tables { Err(MigrateError::NotOurs(NotOurs::NoHistory)) } else { Ok(()) };
    }
    check_applied(&MIGRATOR, &applied)
}

/// Whether a database whose history is `applied` is at this binary's schema, nothing pending,
/// or the refusal its migration would meet (a newer tafl-bot's, a changed file, a failed run):
/// judged without writing.
pub(crate) fn is_current(applied: &[Applied]) -> Result<bool, MigrateError> {
    is_current_for(&MIGRATOR, applied)
}

/// [`is_current`] for the migrations `ours` of either backend.
pub(crate) fn is_current_for(ours: &Migrator, applied: &[Applied]) -> Result<bool, MigrateError> {
    check_applied(ours, applied)?;
    Ok(up_migrations(ours).all(|m| applied.iter().any(|a| a.version == m.version)))
}

/// Refuses a history `ours` (this binary's migrations of one backend) does not continue:
/// another program's, a newer one, a changed file, or a failed run.
pub(crate) fn check_applied(ours: &Migrator, applied: &[Applied]) -> Result<(), MigrateError> {
    // Every tafl-bot's history starts with the same migration 1: a history that shares no
    // version with ours, or records another migration 1, is no newer or different tafl-bot's,
    // and the advice given for those would not apply.
    let first = up_migrations(ours).min_by_key(|m| m.version);
    let same_first = first.and_then(|first| {
        applied.iter().find(|a| a.version == first.version).map(|a| a.checksum.as_slice() == &*first.checksum)
    });
    let shares_any = applied.iter().any(|a| up_migrations(ours).any(|m| m.version == a.version));
    if !applied.is_empty() && (!shares_any || same_first == Some(false)) {
        return Err(MigrateError::NotOurs(NotOurs::OtherHistory));
    }
    let known = up_migrations(ours).map(|m| m.version).max().unwrap_or(0);
    if let Some(found) =
        applied.iter().map(|a| a.version).filter(|v| !up_migrations(ours).any(|m| m.version == *v)).max()
    {
        return Err(MigrateError::Newer { found, known });
    }
    for record in applied {
        if !record.success {
            return Err(MigrateError::Dirty { version: record.version });
        }
        let checksum = up_migrations(ours).find(|m| m.version == record.version).map(|m| &*m.checksum);
        if checksum != Some(record.checksum.as_slice()) {
            return Err(MigrateError::Changed { version: record.version });
        }
    }
    Ok(())
}

/// Records `migration` without running it when an earlier binary already applied it but died
/// before recording it; `true` when that was the case.
async fn repair_legacy(conn: &mut SqliteConnection, migration: &Migration) -> Result<bool, MigrateError> {
    let Some((_, probe)) = LEGACY_UNRECORDED.iter().find(|(version, _)| *version == migration.version) else {
        return Ok(false);
    };
    let applied: bool = sqlx::query_scalar(*probe).fetch_one(&mut *conn).await?;
    if !applied {
        return Ok(false);
    }
    let mut tx = conn.begin_with("BEGIN IMMEDIATE").await?;
    if !recorded(&mut tx, migration.version).await? {
        record(&mut tx, migration, 0).await?;
    }
    tx.commit().await?;
    tracing::warn!(
        version = migration.version,
        "the database was left half-migrated by an earlier tafl-bot; recorded the migration it had already applied"
    );
    Ok(true)
}

/// Runs one migration and records it in the same transaction.
async fn apply(conn: &mut SqliteConnection, migration: &Migration) -> Result<(), MigrateError> {
    let failed = |source| MigrateError::Failed {
        version: migration.version,
        description: migration.description.to_string(),
        source,
    };
    let start = Instant::now();
    if migration.no_tx {
        conn.execute("PRAGMA foreign_keys = OFF").await?;
    }
    let mut tx = conn.begin_with("BEGIN IMMEDIATE").await?;
    // Another process may have applied it since we looked: BEGIN IMMEDIATE waited for it.
    if recorded(&mut tx, migration.version).await? {
        return Ok(());
    }
    if migration.no_tx {
        tx.execute(AssertSqlSafe(body_without_transaction_control(migration.sql.as_str()))).await.map_err(failed)?;
        let broken: Vec<(String,)> =
            sqlx::query_as("SELECT \"table\" FROM pragma_foreign_key_check").fetch_all(&mut *tx).await?;
        if let Some((table,)) = broken.first() {
            return Err(failed(sqlx::Error::Protocol(format!("it would leave rows of {table} pointing at nothing"))));
        }
    } else {
        tx.execute(migration.sql.clone()).await.map_err(failed)?;
    }
    let elapsed = i64::try_from(start.elapsed().as_nanos()).unwrap_or(i64::MAX);
    record(&mut tx, migration, elapsed).await?;
    tx.commit().await?;
    if migration.no_tx {
        conn.execute("PRAGMA foreign_keys = ON").await?;
    }
    tracing::info!(version = migration.version, description = %migration.description, "migrated the database");
    Ok(())
}

async fn recorded(conn: &mut sqlx::SqliteConnection, version: i64) -> Result<bool, sqlx::Error> {
    sqlx::query_scalar("SELECT EXISTS (SELECT 1 FROM _sqlx_migrations WHERE version = ?)")
        .bind(version)
        .fetch_one(conn)
        .await
}

async fn record(conn: &mut sqlx::SqliteConnection, migration: &Migration, elapsed: i64) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO _sqlx_migrations (version, description, success, checksum, execution_time)
         VALUES (?, ?, TRUE, ?, ?)",
    )
    .bind(migration.version)
    .bind(&*migration.description)
    .bind(&*migration.checksum)
    .bind(elapsed)
    .execute(conn)
    .await?;
    Ok(())
}

/// A no-transaction file's SQL without its own transaction control, which the migrator supplies
/// (see the module docs): lines that are only `BEGIN…;`, `COMMIT;`, `END TRANSACTION;` or
/// `PRAGMA foreign_keys = …;`. Statements inside triggers (`BEGIN` at the end of a `CREATE
/// TRIGGER` line, `END;`) are left alone.
fn body_without_transaction_control(sql: &str) -> String {
    sql.lines()
        .filter(|line| {
            let normal = line.trim().trim_end_matches(';').replace('=', " = ");
            let normal = normal.split_whitespace().collect::<Vec<_>>().join(" ").to_ascii_uppercase();
            !matches!(
                normal.as_str(),
                "BEGIN"
                    | "BEGIN TRANSACTION"
                    | "BEGIN IMMEDIATE"
                    | "BEGIN IMMEDIATE TRANSACTION"
                    | "BEGIN DEFERRED"
                    | "BEGIN DEFERRED TRANSACTION"
                    | "BEGIN EXCLUSIVE"
                    | "BEGIN EXCLUSIVE TRANSACTION"
                    | "COMMIT"
                    | "COMMIT TRANSACTION"
                    | "END TRANSACTION"
                    | "PRAGMA FOREIGN_KEYS = OFF"
                    | "PRAGMA FOREIGN_KEYS = ON"
                    | "PRAGMA FOREIGN_KEYS = 0"
                    | "PRAGMA FOREIGN_KEYS = 1"
            )
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Copies a database that holds games to `<file>.v<version>-backup-<unix time>` before it is
/// migrated. In-memory databases and databases without games are not copied.
///
/// A start that is killed or fails part way (a full disk) tries again at the next start, maybe
/// in a loop under a service manager: so a copy that failed is removed, as are the partial
/// copies earlier attempts left, and a finished copy replaces the older ones of the same
/// version. Of the whole copies, only the newest [`KEPT_BACKUPS`] are kept, whatever their
/// versions: each upgrade would otherwise leave one full copy of the database for good.
///
/// The copy gets the database file's permissions: a database readable by its owner alone must
/// not leave a copy of every game that anyone may read.
async fn backup(conn: &mut SqliteConnection, version: i64) -> Result<(), MigrateError> {
    let has_games: bool =
        sqlx::query_scalar("SELECT EXISTS (SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'games')")
            .fetch_one(&mut *conn)
            .await?;
    if !has_games {
        return Ok(());
    }
    let games: i64 = sqlx::query_scalar("SELECT count(*) FROM games").fetch_one(&mut *conn).await?;
    let Some(file) = main_file(conn).await? else { return Ok(()) };
    if games == 0 {
        return Ok(());
    }
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs());
    let target = with_suffix(&file, &format!(".v{version}-backup-{now}"));
    // Named by the process too: two processes starting on the file in the same second must not
    // write (or remove) one partial copy.
    let partial = with_suffix(&target, &format!(".{}.partial", std::process::id()));
    // VACUUM INTO also refuses to overwrite a file. A partial copy younger than a few minutes
    // may be another process's, starting on the same file at this moment (the backup runs
    // before the migration's lock): it is left to finish.
    for old in backups_of(&file, |_, time, partial| partial && time.saturating_add(ABANDONED_AFTER) < now) {
        let _ = std::fs::remove_file(old);
    }
    // The copy holds every game: nobody may read it who may not read the database. `VACUUM INTO`
    // creates its file with the default mode (world-readable under the usual umask), but writes
    // into an empty file that exists, so the file is made first, with the database's permissions.
    if let Err(error) = empty_file_like(&partial, &file) {
        let _ = std::fs::remove_file(&partial);
        return Err(MigrateError::Backup(sqlx::Error::Io(error)));
    }
    let copied = sqlx::query("VACUUM INTO ?").bind(partial.to_string_lossy().into_owned()).execute(&mut *conn).await;
    if let Err(error) = copied {
        let _ = std::fs::remove_file(&partial);
        // A copy that failed part way (a full disk) leaves its rollback journal too; a service
        // manager restarting the bot in a loop would otherwise leave one more at every start.
        let _ = std::fs::remove_file(with_suffix(&partial, "-journal"));
        return Err(MigrateError::Backup(error));
    }
    if let Err(error) = std::fs::rename(&partial, &target) {
        let _ = std::fs::remove_file(&partial);
        return Err(MigrateError::Backup(sqlx::Error::Io(error)));
    }
    // Strictly older copies only: two processes backing up at once each keep their own, and
    // the later one's survives the other's cleanup.
    for older in backups_of(&file, |of, time, partial| of == version && time < now && !partial) {
        let _ = std::fs::remove_file(older);
    }
    // Each upgrade leaves a whole copy of the database: only the newest few are kept.
    let mut whole: Vec<(u64, PathBuf)> = Vec::new();
    for path in backups_of(&file, |_, _, partial| !partial) {
        if let Some(time) = backup_time(&path) {
            whole.push((time, path));
        }
    }
    whole.sort_by(|a, b| b.cmp(a));
    for (time, older) in whole.into_iter().skip(KEPT_BACKUPS) {
        if time < now {
            let _ = std::fs::remove_file(older);
        }
    }
    tracing::info!(backup = %target.display(), games, "backed up the database before migrating it");
    Ok(())
}

/// How many whole backups (of any versions) are kept beside a database: the newest ones, this
/// start's included.
pub const KEPT_BACKUPS: usize = 3;

/// Creates `path` empty, with the permissions of `like` (which the process's umask does not
/// narrow, as it would a mode given at creation).
fn empty_file_like(path: &Path, like: &Path) -> std::io::Result<()> {
    let permissions = std::fs::metadata(like)?.permissions();
    let created = std::fs::OpenOptions::new().write(true).create_new(true).open(path)?;
    created.set_permissions(permissions)
}

/// The unix time in a backup's name (`tafl.db.v5-backup-<time>`).
fn backup_time(path: &Path) -> Option<u64> {
    path.file_name()?.to_str()?.rsplit_once("-backup-")?.1.parse().ok()
}

/// How old (in seconds, by its name) a partial copy must be to be taken for one a killed or
/// failed start left behind rather than one being written.
const ABANDONED_AFTER: u64 = 15 * 60;

/// The backups beside `file` (`<file>.v<version>-backup-<time>`, with `.<process>.partial`
/// while being written, and that copy's `-journal`) that `keep(version, time, partial)` chooses.
fn backups_of(file: &Path, keep: impl Fn(i64, u64, bool) -> bool) -> Vec<PathBuf> {
    let (Some(dir), Some(name)) = (file.parent(), file.file_name()) else { return Vec::new() };
    let prefix = format!("{}.v", name.to_string_lossy());
    let Ok(entries) = std::fs::read_dir(if dir.as_os_str().is_empty() { Path::new(".") } else { dir }) else {
        return Vec::new();
    };
    entries
        .filter_map(Result::ok)
        .filter_map(|entry| {
            let found = entry.file_name().to_string_lossy().into_owned();
            let rest = found.strip_prefix(&prefix)?;
            let (version, rest) = rest.split_once("-backup-")?;
            let version: i64 = version.parse().ok()?;
            // `<time>.<process>.partial` while being written (an older binary's: `<time>.partial`),
            // and its rollback journal `….partial-journal`, which a kill leaves beside it.
            let (time, partial) = match rest.strip_suffix(".partial").or_else(|| rest.strip_suffix(".partial-journal"))
            {
                Some(time) => (time.split_once('.').map_or(time, |(time, _)| time), true),
                None => (rest, false),
            };
            let time = time.parse::<u64>().ok()?;
            keep(version, time, partial).then(|| entry.path())
        })
        .collect()
}

/// The file of the main database, `None` for an in-memory one.
async fn main_file(conn: &mut SqliteConnection) -> Result<Option<PathBuf>, sqlx::Error> {
    let file: Option<String> = sqlx::query_scalar("SELECT file FROM pragma_database_list WHERE name = 'main'")
        .fetch_optional(&mut *conn)
        .await?;
    Ok(file.filter(|f| !f.is_empty()).map(PathBuf::from))
}

fn with_suffix(path: &Path, suffix: &str) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(suffix);
    PathBuf::from(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_transaction_files_lose_only_their_transaction_control() {
        let clocks = migrations().find(|m| m.version == 3).expect("0003 exists");
        assert!(clocks.no_tx, "0003 is the legacy no-transaction file");
        let body = body_without_transaction_control(clocks.sql.as_str());
        for line in body.lines() {
            let upper = line.trim().to_ascii_uppercase();
            assert!(!upper.starts_with("BEGIN") && !upper.starts_with("COMMIT"), "left: {line}");
            assert!(!upper.starts_with("PRAGMA FOREIGN_KEYS"), "left: {line}");
        }
        assert!(body.contains("CREATE TABLE games_new"));
        assert!(body.contains("CREATE TABLE scheduler"));
        let kept = "CREATE TRIGGER t AFTER INSERT ON a BEGIN\n  DELETE FROM b;\nEND;";
        assert_eq!(body_without_transaction_control(kept), kept);
    }

    #[test]
    fn every_legacy_probe_names_a_no_transaction_migration() {
        for (version, _) in LEGACY_UNRECORDED {
            assert!(migrations().any(|m| m.version == *version && m.no_tx), "migration {version}");
        }
    }
}
