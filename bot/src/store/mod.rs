//! Storage: the one place that knows SQL. One file per table; each function takes a connection
//! (a pool connection or an open transaction) and returns domain rows, `Option` for "not found".
//!
//! # Two backends, one set of queries
//!
//! `DATABASE_URL` picks the backend at start-up: `sqlite://…` (the default) or `postgres://…`.
//! Both run through sqlx's `Any` driver, so every store function takes one connection type
//! ([`sqlx::AnyConnection`]), the host never learns which database it talks to, and a query is
//! written once, with `$1, $2…` placeholders, which `SQLite` reads as numbered parameters too.
//! Where the SQL differs it is decided here, by [`Backend::of`] the connection: the row locks
//! (`FOR UPDATE`, `SKIP LOCKED`), the scheduler's advisory lock. The schema takes care of the
//! rest: flags are BOOLEAN on `PostgreSQL` and 0/1 on `SQLite`, bound as Rust `bool` (which sqlx
//! sends as either) and read through [`Flag`]; literals are `TRUE`/`FALSE`; upserts are
//! `ON CONFLICT … DO UPDATE`, `IS DISTINCT FROM` compares nullable values, `RETURNING` gives ids.
//!
//! Why `Any` rather than two typed pools behind an enum: every query would have to be written
//! twice, or every store function made generic over the database with bounds on each bound
//! type. What `Any` costs was checked: it copies every row into its own value type (a few
//! microseconds a row; a move's ~30 statements are dominated by `SQLite`'s own work, see the
//! figures in the README), it cannot decode `bool` from `SQLite`'s integers (hence [`Flag`]),
//! and it takes only a URL, so `SQLite`'s pragmas are set on each new connection instead.
//!
//! # `SQLite`
//!
//! `SQLite` runs in WAL mode with `synchronous=NORMAL` (a commit survives a process crash; only a
//! power cut may lose the last few), a busy timeout, and foreign keys on. Every write happens in a
//! `BEGIN IMMEDIATE` transaction ([`Db::begin_write`]): a transaction that reads and then writes
//! under a plain `BEGIN` fails with "database is locked" when another process wrote in between,
//! whereas `IMMEDIATE` takes the write lock first and the other writer simply waits its turn.
//! Migrations run through our own runner ([`migrate`]) on a connection of its own.
//!
//! # People first
//!
//! A [`Db`] handle does either a person's work or the bot's own ([`Urgency`]): each kind has a
//! pool of its own, and on `SQLite` a person's write waits for at most one of the bot's queued
//! writes, however many there are ([`Writers`]). With fifty games against the bot, its moves and
//! their deliveries are most of the writes, and a person's click used to queue behind them all.
//!
//! # `PostgreSQL`
//!
//! No global writer: write transactions are plain (READ COMMITTED), and an operation that reads
//! and then writes a game, a challenge or someone's settings first locks that row
//! ([`games::lock`], [`challenges::lock`], [`users::lock`], [`servers::lock`]; no-ops on `SQLite`),
//! so two processes answering two clicks on one board take turns while other games go on at once.
//! The scheduler takes due games, challenges and digests in small batches `FOR UPDATE SKIP
//! LOCKED`, so processes ticking at once share them; only a tick's start (its record and the
//! downtime grace) takes turns under an advisory lock ([`scheduler::lock`]). The outbox's lanes
//! are claimed by one process at a time with a lease ([`outbox::claim`]). A deadlock or a
//! serialisation failure ends a transaction with nothing saved; the host runs the whole
//! operation again a few times (`transaction!` in the host). Read transactions are REPEATABLE READ, one
//! snapshot for several reads. Migrations are `postgres::MIGRATOR`'s.

pub mod challenges;
mod fault;
pub mod file;
pub mod games;
pub mod guild_commands;
pub mod interactions;
pub mod member_names;
pub mod messages;
pub mod migrate;
pub mod moves;
pub mod offers;
pub mod outbox;
pub mod pool;
pub mod postgres;
pub mod rating_changes;
pub mod ratings;
pub mod reviews;
pub mod scheduler;
pub mod servers;
pub mod users;

use std::str::FromStr;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use sqlx::any::{AnyConnectOptions, AnyPoolOptions, AnyTypeInfo, AnyTypeInfoKind, AnyValueRef};
use sqlx::sqlite::{SqliteConnectOptions, SqliteSynchronous};
use sqlx::{Any, AnyConnection, AnyPool, Connection, Executor, Transaction, ValueRef};

pub use challenges::ChallengeRow;
pub use fault::StorageFault;
pub use games::GameRow;
pub use messages::BoardMessageRow;
pub use offers::OfferRow;
pub use pool::PoolSettings;
pub use users::UserRow;

/// The database URL used when `DATABASE_URL` is not set.
pub const DEFAULT_URL: &str = "sqlite://tafl.db";

/// How many pages `SQLite`'s write-ahead log grows to before a commit copies them into the
/// database file (`wal_autocheckpoint`; `SQLite`'s default is 1,000). That checkpoint runs inside
/// the commit that crosses the mark and costs two fsyncs (the log, then the database file), 4-6
/// ms here, and little more for a larger log: it writes each changed page once, and a busy bot
/// rewrites the same pages (the outbox, the games, the ends of the moves table). At the default
/// about one move in sixty paid for one, the latency benchmark's whole p99 tail; at 10,000 it is
/// ten times rarer, and the log file stays under 40 MB (reused, not grown, after a checkpoint).
/// A checkpoint off the commit path, on a connection of its own every 500 ms, was tried and
/// measured slower: its fsyncs stalled the commits running beside it.
pub const WAL_AUTOCHECKPOINT_PAGES: u32 = 10_000;

/// A read transaction.
pub type Tx = Transaction<'static, Any>;

/// The two databases the store runs on, chosen by the URL's scheme at start-up.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    Postgres,
}

impl Backend {
    /// The backend a `DATABASE_URL` names, by its scheme (`sqlite:`, `postgres:`/`postgresql:`).
    #[must_use]
    pub fn of_url(url: &str) -> Option<Backend> {
        let scheme = url.split_once(':').map_or("", |(scheme, _)| scheme);
        if scheme.eq_ignore_ascii_case("sqlite") {
            Some(Backend::Sqlite)
        } else if scheme.eq_ignore_ascii_case("postgres") || scheme.eq_ignore_ascii_case("postgresql") {
            Some(Backend::Postgres)
        } else {
            None
        }
    }

    /// The backend behind a connection (a transaction derefs to one), for the few statements
    /// whose SQL differs.
    #[must_use]
    pub fn of(conn: &AnyConnection) -> Backend {
        // sqlx's `Database::NAME` of the driver: "SQLite" or "PostgreSQL".
        if conn.backend_name() == "PostgreSQL" { Backend::Postgres } else { Backend::Sqlite }
    }
}

/// A 0/1 flag column as a Rust `bool`: BOOLEAN on `PostgreSQL`, INTEGER on `SQLite` (see
/// `migrations/postgres/0001_init.sql`). sqlx's `Any` driver decodes `bool` only from a BOOLEAN
/// value, and `SQLite` has none, so rows read flags through this (`#[sqlx(try_from = "Flag")]`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Flag(pub bool);

impl sqlx::Type<Any> for Flag {
    fn type_info() -> AnyTypeInfo {
        <bool as sqlx::Type<Any>>::type_info()
    }

    fn compatible(ty: &AnyTypeInfo) -> bool {
        <bool as sqlx::Type<Any>>::compatible(ty) || <i64 as sqlx::Type<Any>>::compatible(ty)
    }
}

impl<'r> sqlx::Decode<'r, Any> for Flag {
    fn decode(value: AnyValueRef<'r>) -> Result<Flag, sqlx::error::BoxDynError> {
        if value.type_info().kind() == AnyTypeInfoKind::Bool {
            Ok(Flag(<bool as sqlx::Decode<Any>>::decode(value)?))
        } else {
            Ok(Flag(<i64 as sqlx::Decode<Any>>::decode(value)? != 0))
        }
    }
}

impl From<Flag> for bool {
    fn from(flag: Flag) -> bool {
        flag.0
    }
}

/// A write transaction. On `SQLite` it holds this process's turn to write until it commits or
/// is dropped (see [`Db::begin_write`]); on `PostgreSQL` it is a plain transaction, and the
/// store's `lock_*` functions lock the rows an operation reads before writing. It derefs to the
/// transaction, so store functions take it as a connection like any other.
#[derive(Debug)]
pub struct WriteTx {
    tx: Tx,
    saved: Arc<WriteHealth>,
    /// While a refused write is on record: how to tell at the commit whether this transaction
    /// wrote anything, as only a write saved clears the record (see [`Wrote`]).
    watch: Option<Wrote>,
    // Dropped in this order, after the transaction: the turn first, so that a person's write
    // waiting for it goes before the next background writer gets through the gate.
    _turn: Option<tokio::sync::OwnedMutexGuard<()>>,
    _gate: Option<tokio::sync::OwnedMutexGuard<()>>,
}

/// How a transaction tells whether it wrote: `SQLite`'s count of rows its connection has
/// changed, as at the transaction's beginning; `PostgreSQL` gives a transaction an id when it
/// first writes. A transaction that only read commits whatever the disk, and would otherwise have
/// cleared a refusal while nothing could be saved (the scheduler's ticks commit such ones).
#[derive(Debug, Clone, Copy)]
enum Wrote {
    SqliteChangesBefore(i64),
    Postgres,
}

impl Wrote {
    async fn at_begin(tx: &mut Tx, backend: Backend) -> Option<Wrote> {
        match backend {
            Backend::Sqlite => {
                let changes = sqlx::query_scalar("SELECT total_changes()").fetch_one(&mut **tx).await.ok()?;
                Some(Wrote::SqliteChangesBefore(changes))
            }
            Backend::Postgres => Some(Wrote::Postgres),
        }
    }

    /// Whether the transaction has written; `false` when that cannot be read.
    async fn before_commit(self, tx: &mut Tx) -> bool {
        let sql = match self {
            Wrote::SqliteChangesBefore(_) => "SELECT total_changes()",
            Wrote::Postgres => "SELECT CASE WHEN txid_current_if_assigned() IS NULL THEN 0 ELSE 1 END",
        };
        let now: Option<i64> = sqlx::query_scalar(sql).fetch_one(&mut **tx).await.ok();
        match (self, now) {
            (Wrote::SqliteChangesBefore(before), Some(changes)) => changes > before,
            (Wrote::Postgres, Some(assigned)) => assigned == 1,
            (_, None) => false,
        }
    }
}

impl WriteTx {
    /// Commits, and notes for `/healthz` whether the database took the write (see
    /// [`WriteHealth`]).
    pub async fn commit(self) -> Result<(), sqlx::Error> {
        let WriteTx { mut tx, saved, watch, _turn, _gate } = self;
        let wrote = match watch {
            Some(watch) => watch.before_commit(&mut tx).await,
            None => false,
        };
        let committed = tx.commit().await;
        match &committed {
            Ok(()) if wrote => saved.took(),
            Ok(()) => {}
            Err(error) => saved.note(error),
        }
        committed
    }

    /// Notes for `/healthz` a statement of this transaction that failed with `fault` (see
    /// [`WriteHealth`]); the transaction is then rolled back, not committed.
    pub fn failed(&self, fault: StorageFault) {
        self.saved.refused(fault);
    }

    /// Ends the transaction with nothing saved, and returns once the database has done so (a
    /// dropped transaction is rolled back later, when its connection is next used).
    pub async fn rollback(self) -> Result<(), sqlx::Error> {
        self.tx.rollback().await
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
        "DATABASE_URL names a {scheme} database, but this tafl-bot stores games only in SQLite or PostgreSQL; use sqlite://FILE (e.g. {DEFAULT_URL}) or postgres://USER@HOST/DATABASE"
    )]
    UnknownScheme { scheme: String },
    /// `://host/db`, a slip when pasting: the sentence above would name an empty kind.
    #[error(
        "DATABASE_URL starts with no kind of database before its colon; use sqlite://FILE (e.g. {DEFAULT_URL}) or postgres://USER@HOST/DATABASE"
    )]
    NoScheme,
    /// A file name where a URL belongs (`/var/lib/tafl/tafl.db`, which `local --db` takes):
    /// `url` is the `SQLite` URL of that file.
    #[error("DATABASE_URL {path} is a file name, not a URL; write it as {url}")]
    PlainPath { path: String, url: String },
    /// The migrations of either backend (see [`postgres::migrate`]).
    #[error("{0}")]
    Migrate(#[from] migrate::MigrateError),
    /// `SQLite` creates a missing file, not a missing folder, and says only "unable to open
    /// database file".
    #[error("{}", no_folder(folder, absolute.as_deref()))]
    NoFolder {
        folder: std::path::PathBuf,
        /// For a relative path in a URL (`sqlite://var/lib/tafl/tafl.db`, whose folder is looked
        /// for in the working directory): the URL of the absolute path that was perhaps meant.
        absolute: Option<String>,
    },
    /// The same "unable to open database file" for a folder named as the database; `instead` is
    /// a file in it to name.
    #[error("it is a folder, not a database file; name a file in it, such as {}", instead.display())]
    IsFolder { instead: std::path::PathBuf },
    /// `sqlite::memory:`, `sqlite://`, a file name `:memory:` and the like: a pool opens a new,
    /// empty database for each of its connections (the migrated one aside), and the games go
    /// when the process stops.
    #[error(
        "it names no database file, and without one every game is lost when the bot stops; name a file, such as {DEFAULT_URL}"
    )]
    NoFile,
    /// Another process holds the file's lock (see [`file`]); `holder` is what it wrote there
    /// (`tafl-bot run (pid 1234)`).
    #[error(
        "another {} is using it (it holds the lock {}), and one SQLite file is served by one process at a time; stop that one first, or move to PostgreSQL to run several",
        holder.as_deref().unwrap_or("tafl-bot process"),
        lock.display()
    )]
    InUse { lock: std::path::PathBuf, holder: Option<String> },
    /// `SQLite` can neither create the database nor its `-wal` and `-shm` files in its folder.
    #[error(
        "the folder {} cannot be written, and SQLite creates the database and its -wal and -shm files there: {}",
        folder.display(),
        cause.explained(true)
    )]
    FolderNotWritable { folder: std::path::PathBuf, cause: file::WriteCause },
    /// The database file (or its `-wal` or `-shm` file) cannot be written: `SQLite` would open it
    /// read-only, and every change players make would fail.
    #[error("the file {} cannot be written, so no game could be saved: {}", file.display(), cause.explained(false))]
    FileNotWritable { file: std::path::PathBuf, cause: file::WriteCause },
    /// The disk is full: `SQLite` cannot create or grow the database, its log or its shared memory.
    #[error(
        "the disk that holds {} is full, so SQLite cannot write the database or its -wal and -shm files; free space there and start again",
        file.display()
    )]
    DiskFull { file: std::path::PathBuf },
    /// The disk is full for the copy an upgrade makes first (see [`migrate`]): the database
    /// itself fits, so the general sentence above would not say what takes the room.
    #[error(
        "the disk that holds {} is full: upgrading the database first backs it up beside itself, which takes about as much free space as the database ({} MB); free space there and start again",
        file.display(),
        megabytes(*size)
    )]
    BackupDiskFull { file: std::path::PathBuf, size: u64 },
    /// Another program holds the file's write lock past the busy timeout (an `sqlite3` shell
    /// left in a transaction, a backup tool): sqlx says only "(code: 5) database is locked".
    #[error(
        "another program holds {} locked (SQLite's \"database is locked\"); end that program's transaction, or stop it, and start again",
        file.display()
    )]
    Locked { file: std::path::PathBuf },
    /// A text file, or a truncated or damaged copy (`SQLITE_NOTADB`, `SQLITE_CORRUPT`): sqlx
    /// says only "(code: 26) file is not a database".
    #[error(
        "the file {} is not an SQLite database, or is a damaged one; name tafl-bot's database file (restored from a backup if it was damaged), or a file that does not exist yet to start a new database",
        file.display()
    )]
    NotADatabase { file: std::path::PathBuf },
    /// A password-like URL parameter this build does not read (`sslpassword`): sqlx would log
    /// its value as an unknown parameter, and the connection would go on without it.
    #[error(
        "DATABASE_URL's {key} parameter is not one tafl-bot reads (its value is not shown); remove it, and give a password as password=… or in the URL's user part"
    )]
    UnreadSecret { key: String },
    /// A `PostgreSQL` URL whose password holds a `/`, `?` or `#` written as it is (see
    /// [`unencoded_in_password`]).
    #[error("DATABASE_URL {}", unencoded_password_advice(*character))]
    UnencodedPassword { character: char },
    #[error(transparent)]
    NotUtf8(#[from] postgres::NotUtf8),
    #[error("{}", describe(.0))]
    Database(#[from] sqlx::Error),
}

/// `bytes` in whole megabytes, rounded up: a backup of a few kilobytes still needs room.
#[must_use]
pub fn megabytes(bytes: u64) -> u64 {
    bytes.div_ceil(1_000_000)
}

/// [`OpenError::NoFolder`]'s sentence.
fn no_folder(folder: &std::path::Path, absolute: Option<&str>) -> String {
    match absolute {
        Some(url) => format!(
            "its folder {} does not exist in the working directory {} (a path after sqlite:// is relative to it; an absolute one takes three slashes, as in {url}); create the folder, or name a file in a folder that does exist",
            folder.display(),
            std::env::current_dir().unwrap_or_default().display()
        ),
        None => {
            format!("its folder {} does not exist; create it, or name a file in a folder that does", folder.display())
        }
    }
}

/// A database error in the words of a sentence shown to people (an operator starting the bot,
/// the console's player): sqlx's own text, without the line of `PostgreSQL`'s C source that
/// raised the error, which sqlx appends (`database "tafl" does not exist at line 948`) and which
/// reads as a line of the operator's URL or configuration, and with a failed TLS handshake said
/// as one ([`tls_failure`]). Every such sentence takes its database error through here; logs
/// keep sqlx's full text.
#[must_use]
pub fn describe(error: &sqlx::Error) -> String {
    if let Some(tls) = tls_failure(error) {
        return tls;
    }
    if let sqlx::Error::Configuration(inner) = error {
        // sqlx wraps its URL parser's own configuration error in another ("error with
        // configuration: error with configuration: …"): said once, and an unknown sslmode with
        // the values there are.
        if let Some(inner) = inner.downcast_ref::<sqlx::Error>() {
            return describe(inner);
        }
        let text = inner.to_string();
        if let Some(value) = text.strip_prefix("unknown value ").and_then(|t| t.strip_suffix(" for `ssl_mode`")) {
            return format!(
                "the URL's sslmode={} is not one of disable, allow, prefer, require, verify-ca or verify-full",
                value.trim_matches('"')
            );
        }
    }
    let text = error.to_string();
    let line = match error {
        sqlx::Error::Database(db) => {
            db.try_downcast_ref::<sqlx::postgres::PgDatabaseError>().and_then(sqlx::postgres::PgDatabaseError::line)
        }
        _ => None,
    };
    // sqlx writes the line last.
    match line.and_then(|line| text.strip_suffix(&format!(" at line {line}"))) {
        Some(shorter) => shorter.to_owned(),
        None => text,
    }
}

/// A TLS handshake with `PostgreSQL` that failed, said as one. sqlx reports rustls's refusal as
/// an I/O error, "error communicating with database: invalid peer certificate: `UnknownIssuer`",
/// which names neither TLS nor what to change; a certificate signed by a private CA that the URL
/// does not name (`sslrootcert`) is the refusal an operator meets first.
fn tls_failure(error: &sqlx::Error) -> Option<String> {
    use rustls::CertificateError;
    let sqlx::Error::Io(io) = error else { return None };
    let refusal = io.get_ref()?.downcast_ref::<rustls::Error>()?;
    Some(match refusal {
        rustls::Error::InvalidCertificate(CertificateError::UnknownIssuer) => {
            "the database server's TLS certificate was refused: it is not signed by a certificate \
             authority this bot trusts (UnknownIssuer); name the server's CA certificate in the URL \
             with sslrootcert=FILE"
                .to_owned()
        }
        rustls::Error::InvalidCertificate(
            name @ (CertificateError::NotValidForName | CertificateError::NotValidForNameContext { .. }),
        ) => format!(
            "the database server's TLS certificate was refused: {name}; name the server in the URL \
             by a name the certificate holds, or check only who signed it with sslmode=verify-ca"
        ),
        rustls::Error::InvalidCertificate(other) => {
            format!("the database server's TLS certificate was refused: {other}")
        }
        other => format!("the TLS handshake with the database server failed: {other}"),
    })
}

/// Whether a connection may go back to the pool after use. A storage error (disk full, I/O error,
/// busy) can leave `SQLite` without the transaction that sqlx still counts as open: `COMMIT`
/// fails, `SQLite` has already rolled back, the `ROLLBACK` on drop then fails too, and every
/// later `begin` on that connection would fail with "attempted to call `begin_with` at non-zero
/// transaction depth". Such a connection is closed here and the pool opens a fresh one, so the
/// next operation after the cause is gone succeeds.
///
/// On `SQLite` the rollback a dropped transaction queued runs on the connection's worker thread,
/// and the ping waits for it, so that the depth read next is the settled one. On `PostgreSQL`
/// the depth is sqlx's own count, already lowered when the rollback was queued, and sqlx pings
/// every released connection itself right after this check (flushing that rollback, and closing
/// a connection that lost its server): a second ping here would only add a round trip to every
/// operation.
async fn reusable(conn: &mut AnyConnection) -> Result<bool, sqlx::Error> {
    if Backend::of(conn) == Backend::Sqlite {
        conn.ping().await?;
    }
    if conn.is_in_transaction() {
        tracing::warn!("closing a database connection left inside a failed transaction");
        return Ok(false);
    }
    Ok(true)
}

/// How long a `PostgreSQL` connection may sit idle in the pool before it is pinged when taken out
/// (see [`pool_options`]).
const IDLE_BEFORE_PING: std::time::Duration = std::time::Duration::from_secs(1);

/// How long a transaction of the bot may sit idle on `PostgreSQL` before the server ends its
/// session (`idle_in_transaction_session_timeout`): the statement timeout, but at least 10 s and
/// at most a minute.
///
/// The bound is for a process that stops inside a transaction (frozen by `SIGSTOP` or a paused
/// machine, or cut off by the network) with locks taken: the server ends its session then, and
/// the locks go with it. Without it, a process frozen in the scheduler's tick held the tick's
/// lock, and every other process's tick waited out its statement timeout and was skipped, with no
/// clock running out on any server, for as long as the freeze lasted. The bot's transactions never
/// wait between their statements for anything but this process, which on a busy machine may still
/// take a moment to come back to one: hence the 10 s, whatever the statement timeout. A longer
/// statement timeout (up to an hour) would let a frozen process hold the others' clocks that long.
#[must_use]
pub fn idle_bound(statement_timeout: Duration) -> Duration {
    statement_timeout.clamp(Duration::from_secs(10), Duration::from_mins(1))
}

/// How long an operation on `PostgreSQL` keeps trying other connections after cut ones (see
/// [`again_while_cut`]): a dead pooled connection fails at once, while a server that refuses
/// connections is an outage, answered as such without waiting more.
const CUT_CONNECTION_WINDOW: Duration = Duration::from_millis(250);

/// Runs `attempt` (which takes a connection of `pool` and uses it first thing) again at once
/// while it fails on a cut connection, within [`CUT_CONNECTION_WINDOW`] of the first try and at
/// most once for every connection the pool may hold, and once more. A connection used within the
/// last second is taken from the pool without a ping ([`pool_options`]), so after a server
/// restart or sessions ended by an administrator every connection of a busy pool may be dead:
/// the first operations met them, a person was told that their move "may already have been
/// saved" though nothing had been sent, and an outbox lane's claim could not be given back,
/// which held its game's board for the claim's 30 s.
async fn again_while_cut<T, F: Future<Output = Result<T, sqlx::Error>>>(
    pool: &AnyPool,
    mut attempt: impl FnMut() -> F,
) -> Result<T, sqlx::Error> {
    let started = Instant::now();
    let most = pool.options().get_max_connections().saturating_add(1);
    let mut tries = 1;
    loop {
        match attempt().await {
            Err(error)
                if StorageFault::of(&error) == Some(StorageFault::ConnectionLost)
                    && tries < most
                    && started.elapsed() < CUT_CONNECTION_WINDOW =>
            {
                tracing::debug!(tries, %error, "a connection from the pool was found cut; trying another");
                tries += 1;
            }
            done => return done,
        }
    }
}

/// How long an operation answering someone waits to begin its transaction on `PostgreSQL` while
/// the database answers nobody (see [`Answered`]). sqlx's pool alone waited 30 s (its acquire
/// timeout) whenever the server was down or unreachable, retrying a refused connection until
/// then: every click was refused long after Discord's 3 s for an answer had run out. A click
/// waits for at most two transactions before it can answer (the caller's record and the server's
/// language together, then its own operation), so a second each leaves it time to say why. A
/// short acquire timeout instead would refuse people whenever the pool is merely busy: a burst of
/// operations queued for its connections rightly waits longer than that while the operations
/// ahead of it go through (`bot/tests/many_hosts.rs` queues 200 moves per process on 4
/// connections, and with a 1 s acquire timeout hundreds of them were refused).
pub const UNANSWERED_WAIT: Duration = Duration::from_secs(1);

/// When a `PostgreSQL` transaction of this process last began (or a write on its own went
/// through, [`Db::write_alone`]), all pools together: proof that the database answers. An
/// operation answering someone that has waited [`UNANSWERED_WAIT`] to begin waits on (as long as
/// sqlx's pool lets it) only while others begin meanwhile, so that it waits behind a busy pool
/// and is refused when the database is down. The bot's own work waits as sqlx's pool lets it:
/// nobody waits for it, and its loops try again.
///
/// `SQLite` has none of this: its connections are files in this process, with no server to be
/// down, so its pool's only wait is for this process's own work.
#[derive(Debug)]
struct Answered {
    since: Instant,
    /// Nanoseconds from `since` to the last transaction that began.
    last: AtomicU64,
}

impl Answered {
    fn new() -> Answered {
        Answered { since: Instant::now(), last: AtomicU64::new(0) }
    }

    fn now(&self) -> u64 {
        u64::try_from(self.since.elapsed().as_nanos()).unwrap_or(u64::MAX)
    }

    fn answered(&self) {
        self.last.fetch_max(self.now(), Ordering::Relaxed);
    }

    /// How long the database has answered nobody.
    fn silent_for(&self) -> Duration {
        Duration::from_nanos(self.now().saturating_sub(self.last.load(Ordering::Relaxed)))
    }
}

/// Whether this process's last write was saved, for `/healthz`: a database that answers reads
/// but cannot save (a full disk, a read-only file system, a standby after a failover) lost
/// every move while the process reported itself healthy. Set by a write the database refused
/// for want of somewhere to write ([`StorageFault::unwritable`]), at a statement or at its
/// commit, cleared by the next write it saves.
#[derive(Debug, Default)]
pub struct WriteHealth {
    refused: std::sync::Mutex<Option<(&'static str, Instant)>>,
}

impl WriteHealth {
    /// A write was saved: the database takes writes again.
    fn took(&self) {
        *self.refused.lock().unwrap_or_else(std::sync::PoisonError::into_inner) = None;
    }

    /// Notes `fault`, when it is one that saves nothing.
    fn refused(&self, fault: StorageFault) {
        if let Some(why) = fault.unwritable() {
            *self.refused.lock().unwrap_or_else(std::sync::PoisonError::into_inner) = Some((why, Instant::now()));
        }
    }

    /// Notes a write refused with `error`, when it is a refusal that saves nothing.
    fn note(&self, error: &sqlx::Error) {
        if let Some(fault) = StorageFault::of(error) {
            self.refused(fault);
        }
    }

    fn last_refusal(&self) -> Option<(&'static str, Duration)> {
        let refused = *self.refused.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        refused.map(|(why, at)| (why, at.elapsed()))
    }
}

/// Whose work a [`Db`] handle does, which decides who goes first when both wait.
///
/// A person who clicked waits for the answer; the bot's own work (delivering the outbox, the
/// scheduler's ticks, its moves against people, post-game reviews) is waited for by nobody in
/// particular, and with fifty games against the bot it is most of the writes. Background work
/// therefore has connections of its own, so that it never keeps a click waiting for one, and on
/// `SQLite` it lets people's writes go first (see [`Db::begin_write`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Urgency {
    /// Answering someone: commands, clicks, the console.
    Interactive,
    /// Work of the bot's own loops.
    Background,
}

/// `SQLite`'s writers in this process: they take turns here before `BEGIN IMMEDIATE`. `SQLite`
/// makes a writer that finds the lock taken sleep and poll (1, 2, 5, 10… ms), which put tens of
/// milliseconds on the slowest moves when many games move at once; an async queue wakes the next
/// writer the moment the previous one commits. Other processes on the same file still wait
/// through `SQLite`'s busy timeout.
#[derive(Debug, Default)]
struct Writers {
    /// The turn to write: a fair queue.
    turn: Arc<tokio::sync::Mutex<()>>,
    /// Background writers pass this gate first and hold it until they are done, so that at most
    /// one of them is ever in `turn`'s queue: a person's write waits for the transaction in
    /// progress and at most one background one, however many the bot's loops have queued.
    gate: Arc<tokio::sync::Mutex<()>>,
}

/// How a write transaction begins on `PostgreSQL`: READ COMMITTED, named rather than left to
/// the server's default. Every operation locks the rows it is about to change before reading
/// them, which is correct at READ COMMITTED; a server whose default a DBA raised to REPEATABLE
/// READ or SERIALIZABLE would answer that pattern with serialization failures under load.
const POSTGRES_WRITE: &str = "BEGIN ISOLATION LEVEL READ COMMITTED";

/// The database: connection pools plus the rules for using them. Cheap to clone; clones share
/// the pools and the writers' queue.
#[derive(Clone, Debug)]
pub struct Db {
    /// The connections of interactive work.
    pool: AnyPool,
    /// The connections of background work (see [`Urgency`]).
    background_pool: AnyPool,
    urgency: Urgency,
    backend: Backend,
    /// `SQLite` only; `PostgreSQL` has no global writer: operations lock the rows they change,
    /// so different games are written at once.
    writers: Arc<Writers>,
    /// `PostgreSQL` only: one connection of its own for renewing the process's claims on outbox
    /// lanes ([`Db::begin_lease`]). A renewal queued behind the pool's other work (a burst of
    /// moves whose transactions wait for one another's game locks) could come after the lease
    /// ran out, and the lane would go to another process; the delivery would stop for nothing.
    leases: Option<AnyPool>,
    /// `PostgreSQL` only: when the database last answered (see [`Answered`]).
    answered: Arc<Answered>,
    /// Whether the last write was saved (see [`WriteHealth`]).
    saved: Arc<WriteHealth>,
}

impl Db {
    /// Opens and migrates the database at `url`: `sqlite://tafl.db` or `sqlite:///abs/path.db`
    /// (the file is created when missing), or `postgres://user@host/database` (the database must
    /// exist). Any other kind of URL is refused by name.
    pub async fn open(url: &str) -> Result<Db, OpenError> {
        Db::open_with_settings(url, &PoolSettings::default()).await
    }

    /// [`Db::open`] with the pool size and statement timeout of `settings` (the environment's
    /// `DATABASE_MAX_CONNECTIONS` and `DATABASE_STATEMENT_TIMEOUT_MS`, see [`pool`]).
    pub async fn open_with_settings(url: &str, settings: &PoolSettings) -> Result<Db, OpenError> {
        match Backend::of_url(url) {
            Some(Backend::Sqlite) if sqlite_names_no_file(url) => Err(OpenError::NoFile),
            Some(Backend::Sqlite) => match Db::open_sqlite(sqlite_options(url)?, settings).await {
                // A path meant relative says so (`./data/tafl.db`); `sqlite://var/lib/…` may be
                // an absolute one written with two slashes.
                Err(OpenError::NoFolder { folder, absolute: None })
                    if folder.is_relative()
                        && !folder.starts_with(".")
                        && !folder.starts_with("..")
                        && !folder.starts_with("~") =>
                {
                    Err(OpenError::NoFolder { absolute: Some(three_slashes(url)), folder })
                }
                opened => opened,
            },
            Some(Backend::Postgres) => match refused_postgres_url(url) {
                Some(refused) => Err(refused),
                None => Db::open_postgres(url, settings).await,
            },
            None => {
                if let Some(error) = plain_path(url) {
                    return Err(error);
                }
                let scheme = url.split_once(':').map_or("", |(scheme, _)| scheme);
                if scheme.trim().is_empty() {
                    return Err(OpenError::NoScheme);
                }
                Err(OpenError::UnknownScheme {
                    scheme: crate::printable::printable(&crate::cli::shorten(scheme, 20)).into_owned(),
                })
            }
        }
    }

    /// Opens the `SQLite` database file at `path`.
    pub async fn open_file(path: &std::path::Path) -> Result<Db, OpenError> {
        // `SQLite` reads `:memory:` and `file:` URIs in the name itself.
        if file_name_names_no_file(&path.to_string_lossy()) {
            return Err(OpenError::NoFile);
        }
        Db::open_sqlite(SqliteConnectOptions::new().filename(path), &PoolSettings::default()).await
    }

    /// `SQLite`: migrates through a connection of the migrator's own (typed: the migrator uses
    /// `SQLite`'s pragmas and backups), then opens the bot's pool on the same file.
    async fn open_sqlite(options: SqliteConnectOptions, settings: &PoolSettings) -> Result<Db, OpenError> {
        // WAL is set below, once the file is known to be tafl-bot's or new.
        let options = options
            .create_if_missing(true)
            .synchronous(SqliteSynchronous::Normal)
            .busy_timeout(settings.statement_timeout)
            .foreign_keys(true);
        let file = options.get_filename().to_owned();
        let mut conn = match sqlx::SqliteConnection::connect_with(&options).await {
            Ok(conn) => conn,
            Err(error) => {
                let folder = file.parent().filter(|folder| !folder.as_os_str().is_empty());
                return Err(match folder {
                    Some(folder) if !folder.is_dir() => {
                        OpenError::NoFolder { folder: folder.to_owned(), absolute: None }
                    }
                    _ if file.is_dir() => OpenError::IsFolder { instead: file.join("tafl.db") },
                    _ => explained(error, &file),
                });
            }
        };
        let migrated = async {
            // Another program's database is refused before anything is written to it: even
            // switching it to WAL would rewrite its header.
            migrate::refuse_foreign(&mut conn).await.map_err(|error| explained_migration(error, &file))?;
            conn.execute("PRAGMA journal_mode = WAL").await.map_err(|error| explained(error, &file))?;
            // Before migrating: a file `SQLite` could open only read-only opens without a word,
            // and a bot on it would fail every change players make.
            probe_write(&mut conn).await.map_err(|error| explained(error, &file))?;
            migrate::run_on_connection(&mut conn).await.map_err(|error| explained_migration(error, &file))
        }
        .await;
        // Closing also ends a transaction a failed migration left open.
        let closed = conn.close().await;
        migrated?;
        closed.map_err(|error| explained(error, &file))?;
        // sqlx's `Any` driver takes only a URL, and `SQLite`'s URL carries the file and its
        // mode, not the pragmas: those are set on every new connection instead.
        let url = sqlite_url(&options.get_filename().to_string_lossy());
        let any_options = AnyConnectOptions::from_str(&url)?;
        let timeout_ms = settings.statement_timeout.as_millis();
        let connect = || {
            pool_options(Backend::Sqlite, settings.max_connections)
                .after_connect(move |conn, _| {
                    Box::pin(async move {
                        conn.execute(sqlx::AssertSqlSafe(format!(
                            "PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; \
                             PRAGMA busy_timeout = {timeout_ms}; PRAGMA foreign_keys = ON; \
                             PRAGMA wal_autocheckpoint = {WAL_AUTOCHECKPOINT_PAGES}"
                        )))
                        .await?;
                        Ok(())
                    })
                })
                .connect_with(any_options.clone())
        };
        let pool = connect().await.map_err(|error| explained(error, &file))?;
        let background_pool = connect().await.map_err(|error| explained(error, &file))?;
        Ok(Db {
            pool,
            background_pool,
            urgency: Urgency::Interactive,
            backend: Backend::Sqlite,
            writers: Arc::default(),
            leases: None,
            answered: Arc::new(Answered::new()),
            saved: Arc::default(),
        })
    }

    /// `PostgreSQL`: migrated by [`postgres::MIGRATOR`] (which takes an advisory lock, so
    /// processes starting at once migrate one after the other), each connection with the
    /// statement timeout and a bound on how long a transaction may sit idle ([`idle_bound`]).
    async fn open_postgres(url: &str, settings: &PoolSettings) -> Result<Db, OpenError> {
        let migrator = postgres::open(url, &PoolSettings { max_connections: 1, ..*settings }).await?;
        migrator.close().await;
        let timeout_ms = settings.statement_timeout.as_millis();
        let idle_ms = idle_bound(settings.statement_timeout).as_millis();
        // Each pool's connections name it in `pg_stat_activity`.
        let pool_of = |size: u32, name: &'static str| {
            pool_options(Backend::Postgres, size).after_connect(move |conn, _| {
                Box::pin(async move {
                    conn.execute(sqlx::AssertSqlSafe(format!(
                        "SET statement_timeout = {timeout_ms}; SET idle_in_transaction_session_timeout = {idle_ms}; \
                         SET application_name = '{name}'"
                    )))
                    .await?;
                    Ok(())
                })
            })
        };
        let options = AnyConnectOptions::from_str(url)?;
        let pool = pool_of(settings.max_connections, "tafl-bot").connect_with(options.clone()).await?;
        let background_pool =
            pool_of(settings.max_connections, "tafl-bot background").connect_lazy_with(options.clone());
        let leases = pool_of(1, "tafl-bot leases").connect_lazy_with(options);
        Ok(Db {
            pool,
            background_pool,
            urgency: Urgency::Interactive,
            backend: Backend::Postgres,
            writers: Arc::default(),
            leases: Some(leases),
            // It has just answered: the migrations and the first connection of the pool.
            answered: Arc::new(Answered::new()),
            saved: Arc::default(),
        })
    }

    /// Why the last write of this process was not saved and how long ago, when the database
    /// refused it for want of somewhere to write and has taken none since (see [`WriteHealth`]).
    #[must_use]
    pub fn refused_write(&self) -> Option<(&'static str, Duration)> {
        self.saved.last_refusal()
    }

    /// Which database this is.
    #[must_use]
    pub fn backend(&self) -> Backend {
        self.backend
    }

    /// The same database for work of `urgency` (see [`Urgency`]): the same pools and writers'
    /// queue, its transactions on that work's connections and in that work's place in the queue.
    #[must_use]
    pub fn with_urgency(&self, urgency: Urgency) -> Db {
        Db { urgency, ..self.clone() }
    }

    /// Whose work this handle does.
    #[must_use]
    pub fn urgency(&self) -> Urgency {
        self.urgency
    }

    /// The connections of this handle's work.
    fn connections(&self) -> &AnyPool {
        match self.urgency {
            Urgency::Interactive => &self.pool,
            Urgency::Background => &self.background_pool,
        }
    }

    /// Starts a write transaction. On `SQLite` it takes the write lock at once (see the module
    /// docs), a background handle behind every person's write already waiting (see
    /// [`Writers`]); on `PostgreSQL` it is a plain READ COMMITTED transaction, and the operation
    /// locks the game (challenge, user…) it is about to change before reading it.
    pub async fn begin_write(&self) -> Result<WriteTx, sqlx::Error> {
        self.begin_write_as(self.urgency).await
    }

    async fn begin_write_as(&self, urgency: Urgency) -> Result<WriteTx, sqlx::Error> {
        let mut begun = match self.backend {
            Backend::Sqlite => {
                let (turn, gate) = self.turn_to_write(urgency).await;
                let tx = self.connections().begin_with("BEGIN IMMEDIATE").await;
                tx.map(|tx| WriteTx { tx, saved: self.saved.clone(), watch: None, _turn: Some(turn), _gate: gate })
            }
            Backend::Postgres => {
                let tx = self.begin_postgres(self.connections(), POSTGRES_WRITE, urgency).await;
                tx.map(|tx| WriteTx { tx, saved: self.saved.clone(), watch: None, _turn: None, _gate: None })
            }
        };
        // A write refused as it begins (`SQLite` takes its write lock here) is noted too; one
        // begun has saved nothing yet.
        match &mut begun {
            Err(error) => self.saved.note(error),
            // While a refused write is on record, this one tells whether it saved one.
            Ok(tx) if self.saved.last_refusal().is_some() => tx.watch = Wrote::at_begin(&mut tx.tx, self.backend).await,
            Ok(_) => {}
        }
        begun
    }

    /// `SQLite`: this process's turn to write, a background writer through the gate first (see
    /// [`Writers`]). The turn, then the gate, are to be dropped once the write is done.
    async fn turn_to_write(
        &self,
        urgency: Urgency,
    ) -> (tokio::sync::OwnedMutexGuard<()>, Option<tokio::sync::OwnedMutexGuard<()>>) {
        let gate = match urgency {
            Urgency::Interactive => None,
            Urgency::Background => Some(self.writers.gate.clone().lock_owned().await),
        };
        (self.writers.turn.clone().lock_owned().await, gate)
    }

    /// Runs `write`, a write that is one statement and atomic by itself (an `INSERT … ON
    /// CONFLICT DO NOTHING`), on a connection of this handle's work outside any transaction: it
    /// commits by itself, without the two round trips of a BEGIN and a COMMIT around it. On
    /// `SQLite` it takes its turn among the writers as [`Db::begin_write`] does, so that it never
    /// meets another connection's write lock and `SQLite`'s polling for it; on `PostgreSQL` a
    /// person's write gives up as a transaction's beginning does when the database answers
    /// nobody ([`UNANSWERED_WAIT`]).
    ///
    /// On `PostgreSQL` a write that meets a cut connection is made again on another
    /// ([`again_while_cut`]), so `write` must answer the same when made twice: its first try may
    /// have been saved without its answer arriving (`interactions` keeps each try's token for
    /// that).
    ///
    /// `write` returns a boxed future rather than being an async closure: an async closure
    /// called more than once makes a future that is not `Send` for every lifetime, which the
    /// command handlers need.
    pub async fn write_alone<T>(
        &self,
        write: impl for<'c> Fn(&'c mut AnyConnection) -> futures_util::future::BoxFuture<'c, Result<T, sqlx::Error>>,
    ) -> Result<T, sqlx::Error> {
        match self.backend {
            Backend::Sqlite => {
                let (turn, gate) = self.turn_to_write(self.urgency).await;
                let written = match self.connections().acquire().await {
                    Ok(mut conn) => write(&mut conn).await,
                    Err(error) => Err(error),
                };
                // The turn first, then the gate (see `WriteTx`).
                drop(turn);
                drop(gate);
                // Noted if refused; not taken as proof of a saved write, which it may not have
                // made (`ON CONFLICT DO NOTHING`).
                if let Err(error) = &written {
                    self.saved.note(error);
                }
                written
            }
            Backend::Postgres => {
                let written = again_while_cut(self.connections(), || async {
                    let mut conn = self.connections().acquire().await?;
                    write(&mut conn).await
                });
                let written = match self.urgency {
                    Urgency::Interactive => self.unless_unanswered(written).await,
                    Urgency::Background => written.await,
                };
                match &written {
                    Ok(_) => self.answered.answered(),
                    Err(error) => self.saved.note(error),
                }
                written
            }
        }
    }

    /// Starts a write transaction for renewing outbox leases: on `PostgreSQL` on a connection of
    /// its own (see the `leases` field), on `SQLite` as [`Db::begin_write`] does for a person,
    /// whatever the handle: a renewal that waited behind the bot's other writes could come
    /// after its lease ran out.
    pub async fn begin_lease(&self) -> Result<WriteTx, sqlx::Error> {
        match &self.leases {
            Some(leases) => {
                // Not cut short: the renewal has a deadline of its own (`Host::keep_lane`).
                let tx = self.begin_postgres(leases, POSTGRES_WRITE, Urgency::Background).await?;
                Ok(WriteTx { tx, saved: self.saved.clone(), watch: None, _turn: None, _gate: None })
            }
            None => self.begin_write_as(Urgency::Interactive).await,
        }
    }

    /// Starts a read-only transaction: one consistent snapshot for several reads.
    pub async fn begin_read(&self) -> Result<Tx, sqlx::Error> {
        match self.backend {
            Backend::Sqlite => self.connections().begin().await,
            // READ COMMITTED would give every statement its own snapshot.
            Backend::Postgres => {
                let begin = "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY";
                self.begin_postgres(self.connections(), begin, self.urgency).await
            }
        }
    }

    /// Begins a transaction on `pool` with `statement`, for work of `urgency`. A `BEGIN` that
    /// finds its connection cut begins again on another ([`again_while_cut`]): nothing of the
    /// operation was sent, so nothing can have been saved. A person's operation gives up as one
    /// after [`UNANSWERED_WAIT`], retries included.
    async fn begin_postgres(
        &self,
        pool: &AnyPool,
        statement: &'static str,
        urgency: Urgency,
    ) -> Result<Tx, sqlx::Error> {
        let beginning = again_while_cut(pool, || pool.begin_with(statement));
        let tx = match urgency {
            Urgency::Interactive => self.unless_unanswered(beginning).await,
            Urgency::Background => beginning.await,
        };
        if tx.is_ok() {
            self.answered.answered();
        }
        tx
    }

    /// `begin` (a transaction's beginning, or a write on its own), given up once it has waited
    /// [`UNANSWERED_WAIT`] with no transaction of this process beginning meanwhile (see
    /// [`Answered`]), as sqlx's "pool timed out" (a busy database, to the person).
    async fn unless_unanswered<T>(
        &self,
        begin: impl Future<Output = Result<T, sqlx::Error>>,
    ) -> Result<T, sqlx::Error> {
        tokio::pin!(begin);
        let started = Instant::now();
        let mut patience = UNANSWERED_WAIT;
        loop {
            if let Ok(begun) = tokio::time::timeout(patience, &mut begin).await {
                return begun;
            }
            let silent = self.answered.silent_for();
            if silent >= UNANSWERED_WAIT {
                let waited_ms = started.elapsed().as_millis();
                tracing::warn!(waited_ms, "the database answers nobody; an operation gives up waiting for it");
                // Dropping `begin` abandons the connection it waits for, or the BEGIN (or the
                // write on its own) in flight: sqlx 0.9.1 waits it out, and rolls a transaction
                // back, before the connection is used again.
                return Err(sqlx::Error::PoolTimedOut);
            }
            // Others began meanwhile: this one is queued. Look again once that answer is as old.
            patience = UNANSWERED_WAIT.saturating_sub(silent);
        }
    }

    /// The pool, for tests and tools that read the tables directly.
    #[must_use]
    pub fn pool(&self) -> &AnyPool {
        &self.pool
    }

    /// Closes every connection (on `SQLite`, flushing the WAL), waiting at most [`CLOSE_WAIT`]:
    /// sqlx waits for every connection taken out to come back, and one whose statement waits on
    /// a server gone silent (a paused machine, a cut network) held a stopping bot for as long as
    /// TCP took to give up. What is committed is saved either way (the WAL is durable, and
    /// `PostgreSQL` rolls back what its connection left open).
    pub async fn close(&self) {
        let close = async {
            self.pool.close().await;
            self.background_pool.close().await;
            if let Some(leases) = &self.leases {
                leases.close().await;
            }
        };
        if tokio::time::timeout(CLOSE_WAIT, close).await.is_err() {
            tracing::warn!(
                "the database's connections did not all come back within {} s; stopping without them",
                CLOSE_WAIT.as_secs()
            );
        }
    }
}

/// How long [`Db::close`] waits for the connections to come back.
const CLOSE_WAIT: Duration = Duration::from_secs(3);

/// How the bot's pools are built: `max_connections` connections (`DATABASE_MAX_CONNECTIONS`),
/// and `reusable` checked on every release.
///
/// sqlx pings every connection it takes out of the pool by default. sqlx also pings every
/// connection it puts back, so one just used is known to be alive; the ping on the way out
/// cost a round trip to the server on every operation (a move was 11 round trips on
/// `PostgreSQL`, 3 of them pings). Here it is kept only where it can find something: on
/// `PostgreSQL`, for a connection idle longer than [`IDLE_BEFORE_PING`], which a restarted server
/// or a network timeout may have cut meanwhile (a dead one is then replaced before the operation
/// uses it). A connection cut within that second fails the operation that takes it at its first
/// statement, and the operation tries another ([`again_while_cut`]). An `SQLite` connection is a
/// file in this process: it has no server to lose.
fn pool_options(backend: Backend, max_connections: u32) -> AnyPoolOptions {
    sqlx::any::install_default_drivers();
    AnyPoolOptions::new()
        .max_connections(max_connections)
        .test_before_acquire(false)
        .before_acquire(move |conn, meta| {
            Box::pin(async move {
                if backend == Backend::Postgres && meta.idle_for > IDLE_BEFORE_PING {
                    // An error closes the connection, and the pool opens another.
                    conn.ping().await?;
                }
                Ok(true)
            })
        })
        .after_release(|conn, _| Box::pin(async move { reusable(conn).await }))
}

/// A database URL fit to show: its password (`postgres://user:secret@host/db`) and the values of
/// password-like parameters (`?password=…`, which sqlx reads as libpq does, `sslpassword`,
/// `passfile`…) replaced by `***`, and made printable.
#[must_use]
pub fn redacted(url: &str) -> String {
    let shown = match url.split_once("://") {
        // A file name has no password, whatever '@' and ':' it holds.
        Some((scheme, _)) if scheme.eq_ignore_ascii_case("sqlite") => url.to_owned(),
        Some((scheme, rest)) => {
            // The user information ends at an '@'. A password may hold '/', '?' or '#' (which the
            // URL parser then refuses, and its error shows the URL), so the last '@' of all is
            // taken: hiding too much is better than showing a password.
            match rest.rfind('@') {
                Some(at) => match rest[..at].split_once(':') {
                    Some((user, _password)) => format!("{scheme}://{user}:***{}", &rest[at..]),
                    None => url.to_owned(),
                },
                None => url.to_owned(),
            }
        }
        None => url.to_owned(),
    };
    crate::printable::printable(&without_secret_parameters(&shown)).into_owned()
}

/// `url` with the value of every password-like parameter after its `?` replaced by `***`.
/// Everything after the `?` counts, `#` included: a password may hold one.
fn without_secret_parameters(url: &str) -> String {
    let Some((base, query)) = url.split_once('?') else { return url.to_owned() };
    let parameters: Vec<String> = query
        .split('&')
        .map(|parameter| match parameter.split_once('=') {
            Some((key, _)) if is_secret_key(key) => format!("{key}=***"),
            _ => parameter.to_owned(),
        })
        .collect();
    format!("{base}?{}", parameters.join("&"))
}

/// Whether a URL parameter's name (as written, percent-encoded or not) is password-like.
fn is_secret_key(key: &str) -> bool {
    let key = percent_decoded(key).to_ascii_lowercase();
    ["pass", "secret", "token", "key"].iter().any(|word| key.contains(word))
}

/// Why a `PostgreSQL` URL is refused before sqlx reads it: a password written with a `/`, `?` or
/// `#` ([`unencoded_in_password`]), or a password-like parameter sqlx does not read
/// ([`unread_secret`]). The cut password first: what follows its cut reads as parameters, one of
/// which would otherwise be named as unread.
pub(crate) fn refused_postgres_url(url: &str) -> Option<OpenError> {
    if let Some(character) = unencoded_in_password(url) {
        return Some(OpenError::UnencodedPassword { character });
    }
    unread_secret(url).map(|key| OpenError::UnreadSecret { key })
}

/// The `/`, `?` or `#` that cut the password of a `PostgreSQL` URL short, written as it is. Such a
/// character ends a URL's server part, so the rest of the password and the real server's name
/// become the URL's path, query or fragment: the parser then reads the password's start as a
/// port ("invalid port number"), or, when it parses, the user's name as the server's (a failed
/// name lookup), and sqlx logs the rest of the password as an unknown parameter. Neither names
/// the password or the cure.
///
/// Found by its trace: a colon in the server part (the user's, before the password), and the real
/// server's `@` after it:
/// - in a parameter's name, or in the fragment: neither holds one otherwise;
/// - when the server part has no `@` of its own (so no user was read): also in the value of a
///   parameter that holds no names or paths, or in the path when a server and a database or a
///   port follow it (`…/s3cret@db:5432/tafl`). A database may be named `team@prod`
///   (`postgres://db:5432/team@prod`), and `application_name=tafl@prod` is a value.
///
/// The character named is the one that ends the server part, or the `#` when the trace is in the
/// fragment. A cut that leaves no such trace (`…:12/s3cret@db`, no database) is not found.
pub(crate) fn unencoded_in_password(url: &str) -> Option<char> {
    /// Parameters whose values may hold an `@` of their own: names, paths and options.
    const MAY_HOLD_AT: [&str; 13] = [
        "application_name",
        "options",
        "user",
        "password",
        "dbname",
        "host",
        "sslrootcert",
        "ssl-root-cert",
        "ssl-ca",
        "sslcert",
        "ssl-cert",
        "sslkey",
        "ssl-key",
    ];
    let (_, rest) = url.split_once("://")?;
    let (server, after) = rest.split_at(rest.find(['/', '?', '#'])?);
    if !server.contains(':') {
        return None;
    }
    let (before_fragment, fragment) = after.split_once('#').unwrap_or((after, ""));
    let (path, query) = before_fragment.split_once('?').unwrap_or((before_fragment, ""));
    let no_user = !server.contains('@');
    let in_query = query.split('&').any(|parameter| {
        let (name, value) = parameter.split_once('=').unwrap_or((parameter, ""));
        name.contains('@') || (no_user && value.contains('@') && !MAY_HOLD_AT.contains(&name))
    });
    let in_path = no_user && path.rsplit_once('@').is_some_and(|(_, server)| server.contains(['/', ':']));
    if in_query || in_path { after.chars().next() } else { fragment.contains('@').then_some('#') }
}

/// What to do about [`unencoded_in_password`]'s `character`, after the URL's name: the password is
/// never shown.
pub(crate) fn unencoded_password_advice(character: char) -> String {
    format!(
        "has a '{character}' in its password, which a URL reads as the end of the server's name; write the password percent-encoded, with / as %2F, ? as %3F, # as %23 and @ as %40"
    )
}

/// `text` with `%XX` escapes and `+` decoded as a URL's query is (invalid escapes kept as written).
fn percent_decoded(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |at: usize| bytes.get(at).and_then(|b| (*b as char).to_digit(16));
        match bytes[i] {
            b'%' if hex(i + 1).is_some() && hex(i + 2).is_some() => {
                out.push((hex(i + 1).unwrap_or(0) * 16 + hex(i + 2).unwrap_or(0)) as u8);
                i += 3;
            }
            b'+' => {
                out.push(b' ');
                i += 1;
            }
            byte => {
                out.push(byte);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// The first password-like parameter of a `PostgreSQL` URL that sqlx does not read (it reads
/// `password`, and `sslkey`, a file's path): sqlx would log the parameter with its value, and
/// connect without it.
pub(crate) fn unread_secret(url: &str) -> Option<String> {
    let (_, query) = url.split_once('?')?;
    query
        .split('&')
        .filter_map(|parameter| parameter.split_once('=').map(|(key, _)| key))
        .find(|key| is_secret_key(key) && !matches!(percent_decoded(key).as_str(), "password" | "sslkey" | "ssl-key"))
        .map(|key| crate::printable::printable(&crate::cli::shorten(key, 40)).into_owned())
}

/// [`OpenError::PlainPath`] for a `DATABASE_URL` that is a file name: no colon at all
/// (`/var/lib/tafl/tafl.db`, `tafl.db`).
#[must_use]
pub fn plain_path(url: &str) -> Option<OpenError> {
    if url.contains(':') || url.trim().is_empty() {
        return None;
    }
    let path = crate::printable::printable(url).into_owned();
    Some(OpenError::PlainPath { url: format!("sqlite://{}", encoded_file_name(url)), path })
}

/// The URL with three slashes for a relative `SQLite` URL (`sqlite://var/lib/tafl/tafl.db` or
/// `sqlite:var/…`): the absolute path that was perhaps meant.
fn three_slashes(url: &str) -> String {
    let rest = url.split_once(':').map_or(url, |(_, rest)| rest);
    let shown = format!("sqlite:///{}", rest.trim_start_matches('/'));
    crate::printable::printable(&shown).into_owned()
}

/// Where the database of `url` is, for the log line at start-up: the URL as shown (see
/// [`redacted`]) and, for an `SQLite` file, its absolute path.
#[must_use]
pub fn location(url: &str) -> String {
    match file::sqlite_file(url) {
        Some(path) => format!("{} (the file {})", redacted(url), file::absolute(&path).display()),
        None => redacted(url),
    }
}

/// Writes in a transaction that is rolled back: fails when `SQLite` opened the file read-only
/// (it does so without a word when the file cannot be opened for writing), or its folder or
/// `-wal`/`-shm` files cannot be written.
async fn probe_write(conn: &mut sqlx::SqliteConnection) -> Result<(), sqlx::Error> {
    let mut tx = conn.begin_with("BEGIN IMMEDIATE").await?;
    tx.execute("CREATE TABLE _tafl_write_probe (x)").await?;
    tx.rollback().await
}

/// `SQLite`'s extended result code behind `error`, when it is one of `SQLite`'s.
fn sqlite_code(error: &sqlx::Error) -> Option<i64> {
    match error {
        sqlx::Error::Database(db) if db.try_downcast_ref::<sqlx::sqlite::SqliteError>().is_some() => {
            db.code()?.parse().ok()
        }
        _ => None,
    }
}

/// Whether an `SQLite` error says the disk is full: `SQLITE_FULL` (13), or `SQLITE_IOERR_SHMSIZE`
/// (4874), which an existing database in WAL mode meets first, growing its `-shm` file.
fn disk_full(error: &sqlx::Error) -> bool {
    sqlite_code(error).is_some_and(|code| code & 0xff == 13 || code == 4874)
}

/// An error of opening the `SQLite` database `file` in the words of its cause (see
/// [`OpenError`]): a full disk, or a file or folder that cannot be written (`SQLITE_CANTOPEN`,
/// 14, "unable to open database file"; `SQLITE_READONLY`, 8, and its extended codes such as
/// `SQLITE_READONLY_DIRECTORY`, 1544), told apart by asking the operating system
/// ([`file::why_not_writable`]). Any other error is kept as it is.
#[must_use]
pub fn explained(error: sqlx::Error, file: &std::path::Path) -> OpenError {
    if disk_full(&error) {
        return OpenError::DiskFull { file: file::absolute(file) };
    }
    match sqlite_code(&error).map(|code| code & 0xff) {
        Some(8 | 14) => file::why_not_writable(file).unwrap_or(OpenError::Database(error)),
        // SQLITE_BUSY, past the busy timeout.
        Some(5) => OpenError::Locked { file: file::absolute(file) },
        // SQLITE_CORRUPT and SQLITE_NOTADB.
        Some(11 | 26) => OpenError::NotADatabase { file: file::absolute(file) },
        _ => OpenError::Database(error),
    }
}

/// [`explained`] for a migration's error: its database errors, and a migration that failed for a
/// full disk.
fn explained_migration(error: migrate::MigrateError, file: &std::path::Path) -> OpenError {
    match error {
        migrate::MigrateError::Database(error) => explained(error, file),
        migrate::MigrateError::Failed { ref source, .. } if disk_full(source) => {
            OpenError::DiskFull { file: file::absolute(file) }
        }
        // The copy is as large as the database, so on a nearly full disk it is the step of an
        // upgrade that fails first.
        migrate::MigrateError::Backup(ref source)
            if disk_full(source)
                || matches!(source, sqlx::Error::Io(io) if io.kind() == std::io::ErrorKind::StorageFull) =>
        {
            let size = std::fs::metadata(file).map_or(0, |m| m.len());
            OpenError::BackupDiskFull { file: file::absolute(file), size }
        }
        error => OpenError::Migrate(error),
    }
}

/// Whether the database at `url` (as [`Db::open`] takes it; a file name opens as `SQLite`) holds
/// a Discord bot's games, challenges or servers (see [`scheduler::holds_discord`]), read as it is:
/// nothing is created or migrated, so that a tool that must not use such a database (the
/// console) refuses it before it changes anything. A database that does not exist yet, or has
/// none of those tables, holds nothing.
pub async fn holds_discord_as_is(url: Option<&str>, file: &std::path::Path) -> Result<bool, sqlx::Error> {
    let url = match url {
        Some(url) if Backend::of_url(url) == Some(Backend::Postgres) => url.to_owned(),
        sqlite => {
            let options = match sqlite {
                Some(url) => sqlite_options(url)?,
                None => SqliteConnectOptions::new().filename(file),
            };
            let file = options.get_filename();
            if !file.is_file() {
                return Ok(false);
            }
            // Read-write, as any reader of a WAL database must be, but never created.
            sqlite_url(&file.to_string_lossy()).replace("?mode=rwc", "?mode=rw")
        }
    };
    sqlx::any::install_default_drivers();
    let mut conn = AnyConnection::connect(&url).await?;
    // Names resolved as the query below resolves them (PostgreSQL's `search_path`).
    let sql = match Backend::of(&conn) {
        Backend::Sqlite => "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = $1",
        Backend::Postgres => "SELECT CASE WHEN to_regclass($1) IS NULL THEN 0 ELSE 1 END",
    };
    let mut present = 0;
    for table in ["games", "challenges", "servers"] {
        let found: i64 = sqlx::query_scalar(sql).bind(table).fetch_one(&mut conn).await?;
        present += usize::from(found > 0);
    }
    // Every schema since the first has the three tables; one with only some is no bot's.
    let holds = present == 3 && scheduler::holds_discord(&mut conn).await?;
    // The answer is in: a failure to say goodbye changes nothing of it.
    let _ = conn.close().await;
    Ok(holds)
}

/// The options of an `SQLite` URL whatever the case of its scheme: the scheme is matched without
/// case everywhere (as URLs' are), but sqlx takes off only a lowercase `sqlite:`, and opened
/// `SQLite:tafl.db` as a file of that very name.
pub fn sqlite_options(url: &str) -> Result<SqliteConnectOptions, sqlx::Error> {
    match url.split_once(':') {
        Some((scheme, rest)) if scheme.eq_ignore_ascii_case("sqlite") && scheme != "sqlite" => {
            SqliteConnectOptions::from_str(&format!("sqlite:{rest}"))
        }
        _ => SqliteConnectOptions::from_str(url),
    }
}

/// Whether an `SQLite` URL names no file to keep the games in: an in-memory database
/// (`sqlite::memory:`, `sqlite://:memory:`, `?mode=memory`) or no name at all (`sqlite://`, which
/// `SQLite` opens as a temporary database of its own, deleted when the connection closes). Every
/// connection of a pool would open a database of its own (migrations run on one, the bot's work
/// on others that have no tables), and nothing would be there after a restart. Read as sqlx
/// reads the URL (`SqliteConnectOptions::from_str`), with the scheme in any case, as
/// [`Backend::of_url`] takes it.
#[must_use]
pub fn sqlite_names_no_file(url: &str) -> bool {
    let Some((scheme, rest)) = url.split_once(':') else { return false };
    if !scheme.eq_ignore_ascii_case("sqlite") {
        return false;
    }
    let rest = rest.strip_prefix("//").unwrap_or(rest);
    let (database, params) = rest.split_once('?').unwrap_or((rest, ""));
    asks_for_memory(params) || file_name_names_no_file(database)
}

/// Whether a file name, as `SQLite` reads it (sqlx opens files with URIs allowed), names no file:
/// empty, `:memory:`, or a `file:` URI of either or with `mode=memory`.
fn file_name_names_no_file(name: &str) -> bool {
    let uri = name.strip_prefix("file:").map(|uri| uri.split_once('?').unwrap_or((uri, "")));
    match uri {
        Some((path, params)) => path.is_empty() || path == ":memory:" || asks_for_memory(params),
        None => name.is_empty() || name == ":memory:",
    }
}

/// Whether URL parameters (`a=1&mode=memory`, or `vfs=memdb`, `SQLite`'s in-memory file
/// system) ask for an in-memory database.
fn asks_for_memory(params: &str) -> bool {
    params.split('&').any(|param| matches!(param.split_once('='), Some(("mode", "memory") | ("vfs", "memdb"))))
}

/// The `Any` driver's URL of the `SQLite` file `filename`. `SQLite` percent-decodes the file
/// name, so the characters a URL would read otherwise (`%`, `?`, `#`) are encoded.
fn sqlite_url(filename: &str) -> String {
    format!("sqlite:{}?mode=rwc", encoded_file_name(filename))
}

/// A file name as it is written in an `SQLite` URL (see [`sqlite_url`]).
fn encoded_file_name(filename: &str) -> String {
    let mut url = String::new();
    for c in filename.chars() {
        match c {
            '%' => url.push_str("%25"),
            '?' => url.push_str("%3F"),
            '#' => url.push_str("%23"),
            c => url.push(c),
        }
    }
    url
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The backup before an upgrade is as large as the database, so on a nearly full disk it is
    /// the step that fails first: it was said in sqlx's words, "(code: 13) database or disk is
    /// full". A full disk needs root to make (a small file system); the error is `SQLite`'s own
    /// `SQLITE_FULL`, from a database not allowed to grow, as `VACUUM INTO` returns it.
    #[tokio::test]
    async fn a_backup_that_meets_a_full_disk_says_it_needs_room_for_a_copy() {
        let mut conn = sqlx::SqliteConnection::connect("sqlite::memory:").await.unwrap();
        conn.execute("PRAGMA max_page_count = 2; CREATE TABLE t (x)").await.unwrap();
        let full = sqlx::query("INSERT INTO t VALUES (randomblob(100000))").execute(&mut conn).await.unwrap_err();
        assert_eq!(sqlite_code(&full), Some(13), "{full}");
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("tafl.db");
        std::fs::write(&file, vec![0u8; 2_500_000]).unwrap();
        assert_eq!(
            explained_migration(migrate::MigrateError::Backup(full), &file).to_string(),
            format!(
                "the disk that holds {} is full: upgrading the database first backs it up beside itself, which \
                 takes about as much free space as the database (3 MB); free space there and start again",
                file.display()
            )
        );
        // Creating the copy's file on a full disk fails in the operating system's words.
        let no_room = sqlx::Error::Io(std::io::Error::from(std::io::ErrorKind::StorageFull));
        let said = explained_migration(migrate::MigrateError::Backup(no_room), &file);
        assert!(matches!(said, OpenError::BackupDiskFull { size: 2_500_000, .. }), "{said:?}");
        // Any other failure of the backup keeps its own words.
        let other = sqlx::Error::Io(std::io::Error::from(std::io::ErrorKind::PermissionDenied));
        let said = explained_migration(migrate::MigrateError::Backup(other), &file);
        assert!(matches!(said, OpenError::Migrate(migrate::MigrateError::Backup(_))), "{said:?}");
    }

    #[test]
    fn the_backend_is_the_urls_scheme() {
        assert_eq!(Backend::of_url("sqlite://tafl.db"), Some(Backend::Sqlite));
        assert_eq!(Backend::of_url("SQLite:tafl.db"), Some(Backend::Sqlite));
        assert_eq!(Backend::of_url("postgres://tafl@db/tafl"), Some(Backend::Postgres));
        assert_eq!(Backend::of_url("postgresql://tafl@db/tafl"), Some(Backend::Postgres));
        assert_eq!(Backend::of_url("mysql://db/tafl"), None);
        assert_eq!(Backend::of_url("tafl.db"), None);
    }

    #[test]
    fn a_password_is_never_shown() {
        assert_eq!(
            redacted("postgres://tafl:s3cret@db.internal:5432/tafl"),
            "postgres://tafl:***@db.internal:5432/tafl"
        );
        assert_eq!(redacted("postgres://tafl@db.internal/tafl"), "postgres://tafl@db.internal/tafl");
        assert_eq!(redacted("postgres://a:b@c@host/db"), "postgres://a:***@host/db");
        assert_eq!(redacted("postgres://tafl:se/cr?e#t@db/tafl"), "postgres://tafl:***@db/tafl");
        assert_eq!(
            redacted("postgresql://tafl:s@db/tafl?sslmode=require"),
            "postgresql://tafl:***@db/tafl?sslmode=require"
        );
        assert_eq!(redacted("sqlite://tafl.db"), "sqlite://tafl.db");
        assert_eq!(
            redacted("sqlite://dir/a@b:c.db"),
            "sqlite://dir/a@b:c.db",
            "an '@' in the path is not user information"
        );
    }

    /// rustls's refusals come wrapped in an I/O error, as sqlx passes them on.
    fn refused(error: rustls::Error) -> sqlx::Error {
        sqlx::Error::Io(std::io::Error::new(std::io::ErrorKind::InvalidData, error))
    }

    #[test]
    fn a_refused_tls_certificate_is_said_as_one() {
        let unknown = describe(&refused(rustls::Error::InvalidCertificate(rustls::CertificateError::UnknownIssuer)));
        assert!(unknown.starts_with("the database server's TLS certificate was refused: "), "{unknown}");
        assert!(unknown.contains("sslrootcert=FILE"), "{unknown}");
        let name = describe(&refused(rustls::Error::InvalidCertificate(rustls::CertificateError::NotValidForName)));
        assert!(name.contains("TLS certificate was refused") && name.contains("sslmode=verify-ca"), "{name}");
        let expired = describe(&refused(rustls::Error::InvalidCertificate(rustls::CertificateError::Expired)));
        assert!(expired.contains("TLS certificate was refused") && expired.contains("Expired"), "{expired}");
        let other = describe(&refused(rustls::Error::DecryptError));
        assert!(other.starts_with("the TLS handshake with the database server failed: "), "{other}");
        // Any other I/O error is sqlx's own words.
        let io = sqlx::Error::Io(std::io::Error::from(std::io::ErrorKind::ConnectionRefused));
        assert_eq!(describe(&io), io.to_string());
        // sqlx's configuration error inside its own, said once; an unknown sslmode with the
        // values there are.
        let url: Result<sqlx::postgres::PgConnectOptions, _> = "postgres://u@127.0.0.1/db?sslmode=bogus".parse();
        assert_eq!(
            describe(&url.unwrap_err()),
            "the URL's sslmode=bogus is not one of disable, allow, prefer, require, verify-ca or verify-full"
        );
        let url: Result<sqlx::postgres::PgConnectOptions, _> = "postgres://u@127.0.0.1/db?port=x".parse();
        let said = describe(&url.unwrap_err());
        assert_eq!(said.matches("error with configuration").count(), 1, "{said}");
    }

    /// Only the password's own '/', '?' or '#' is named, and only the first; '@' and ':' in it
    /// parse as they are.
    #[test]
    fn an_unencoded_character_in_a_password_is_found() {
        assert_eq!(unencoded_in_password("postgres://tafl:a/b?c@db/tafl"), Some('/'));
        assert_eq!(unencoded_in_password("postgres://tafl:a#b@c@db/tafl"), Some('#'));
        // URLs that parse: the password's start read as a port, or the user's name as the
        // server's, the rest of the password as the database, a parameter or the fragment.
        assert_eq!(unencoded_in_password("postgres://tafl:12/s3cret@db:5432/tafl"), Some('/'));
        assert_eq!(unencoded_in_password("postgres://tafl:?s3cret@db:5432/tafl"), Some('?'));
        assert_eq!(unencoded_in_password("postgres://tafl:p@ss?w0rd@db:5432/tafl"), Some('?'));
        assert_eq!(unencoded_in_password("postgres://tafl:1#s3cret@db/tafl"), Some('#'));
        // Written right, or no password cut short: an '@' in a parameter's value, or a URL
        // refused for another reason.
        assert_eq!(unencoded_in_password("postgres://tafl:a%2Fb@db/tafl"), None);
        assert_eq!(unencoded_in_password("postgres://tafl:p@ss@db/tafl"), None);
        assert_eq!(unencoded_in_password("postgres://tafl@db/tafl"), None);
        assert_eq!(unencoded_in_password("postgres://db/tafl"), None);
        assert_eq!(unencoded_in_password("postgres://tafl:pw@db"), None);
        assert_eq!(unencoded_in_password("postgres://db:5432/tafl?application_name=tafl@prod"), None);
        assert_eq!(unencoded_in_password("postgres://tafl:pw@db:99999/tafl?application_name=tafl@prod"), None);
        // The rest of the password as a parameter's value, or its name, of one sqlx does not read.
        assert_eq!(unencoded_in_password("postgres://tafl:1/a?b=S3CRET@db/tafl"), Some('/'));
        assert_eq!(unencoded_in_password("postgres://tafl:12?x=S3CRET@db:5432/tafl"), Some('?'));
        assert_eq!(unencoded_in_password("postgres://tafl:12?a&S3CRET=x@db/tafl"), Some('?'));
        assert_eq!(unencoded_in_password("postgres://tafl:12?sslmode=disable@db/tafl"), Some('?'));
        assert_eq!(unencoded_in_password("postgres://tafl:ab?x=y@db/tafl"), Some('?'));
        assert_eq!(unencoded_in_password("postgres://tafl:ab/c?d=e@db/tafl"), Some('/'));
        // Valid URLs: a database named with an '@', with or without a port or a password;
        // sockets, IPv6, '@' and ':' in passwords and user names, '@' in values sqlx reads.
        for valid in [
            "postgres://user:pw@db:5432/team@prod",
            "postgres://db:5432/team@prod",
            "postgres://user@db/team@prod",
            "postgres://user:pw@%2Fvar%2Frun%2Fpostgresql/tafl",
            "postgres:///tafl?host=/var/run/postgresql",
            "postgres://user:pw@/tafl?host=/var/run/postgresql",
            "postgres://user:pw@[::1]:5432/tafl",
            "postgres://user:p:ss@db/tafl",
            "postgres://me@corp:pw@db/tafl",
            "postgres://db:5432/tafl?options=-c%20x=a@b&sslrootcert=/etc/a@b/ca.pem",
        ] {
            assert_eq!(unencoded_in_password(valid), None, "{valid}");
        }
        // A '#' in a parameter's value cuts that value: named as the '#'.
        assert_eq!(unencoded_in_password("postgres://user:pw@db:5432/tafl?password=se#cr@t"), Some('#'));
        for url in ["postgres://tafl:a/b@db/tafl", "postgres://tafl:a?b@db/tafl", "postgres://tafl:a#b@db/tafl"] {
            let refused: Result<sqlx::postgres::PgConnectOptions, _> = url.parse();
            assert!(refused.is_err(), "{url} parses");
        }
        let encoded: sqlx::postgres::PgConnectOptions = "postgres://tafl:a%2Fb%3F%23%40@db/tafl".parse().unwrap();
        assert_eq!(encoded.get_host(), "db");
    }

    #[test]
    fn a_password_given_as_a_parameter_is_never_shown() {
        assert_eq!(
            redacted("postgres://tafl@db/tafl?sslmode=require&password=s3cret"),
            "postgres://tafl@db/tafl?sslmode=require&password=***"
        );
        assert_eq!(
            redacted("postgres://db/tafl?PassWord=a#b&sslpassword=c&passfile=/x&user=tafl"),
            "postgres://db/tafl?PassWord=***&sslpassword=***&passfile=***&user=tafl"
        );
        // Percent-encoded names are read as sqlx reads them.
        assert_eq!(redacted("postgres://db/tafl?pass%77ord=s3cret"), "postgres://db/tafl?pass%77ord=***");
        // A '@' in a parameter's value is not user information, nor is what comes before it.
        assert_eq!(redacted("postgres://db/tafl?password=x:y@z"), "postgres://db/tafl?password=***");
        assert_eq!(redacted("postgres://u:p@db/tafl?password=q"), "postgres://u:***@db/tafl?password=***");
        assert_eq!(unread_secret("postgres://db/tafl?password=a&sslkey=/k"), None);
        assert_eq!(unread_secret("postgres://db/tafl?sslpassword=a").as_deref(), Some("sslpassword"));
    }

    #[test]
    fn an_sqlite_url_without_a_file_is_told_apart() {
        for url in [
            "sqlite://",
            "sqlite:",
            "sqlite::memory:",
            "sqlite://:memory:",
            "SQLite://?mode=ro",
            "sqlite://x.db?mode=memory",
            "sqlite:x.db?cache=shared&mode=memory",
            "sqlite://file::memory:",
            "sqlite://file:x.db?mode=memory",
            // SQLite's in-memory file system: migrations went into memory, the pool (which
            // reopens the file by its name) to a file without tables.
            "sqlite://vf.db?vfs=memdb",
            "sqlite://file:vf.db?vfs=memdb",
        ] {
            assert!(sqlite_names_no_file(url), "{url}");
        }
        for url in [
            "sqlite://tafl.db",
            "sqlite:tafl.db",
            "sqlite:///abs/tafl.db?mode=rwc",
            "sqlite://memory.db",
            "sqlite://file:x.db",
            "sqlite://x.db?vfs=unix-dotfile",
            "postgres://u@h/db",
            "tafl.db",
        ] {
            assert!(!sqlite_names_no_file(url), "{url}");
        }
        for name in ["", ":memory:", "file::memory:", "file:x.db?mode=memory&cache=shared", "file:"] {
            assert!(file_name_names_no_file(name), "{name}");
        }
        for name in ["tafl.db", "memory", "file:x.db", "dir/:memory:"] {
            assert!(!file_name_names_no_file(name), "{name}");
        }
    }

    #[test]
    fn sqlite_file_names_survive_the_url() {
        assert_eq!(sqlite_url("/tmp/a b/t%1?#.db"), "sqlite:/tmp/a b/t%251%3F%23.db?mode=rwc");
        // The way the `Any` driver reads it: parsed as a URL, then by `SQLite`.
        let any = AnyConnectOptions::from_str(&sqlite_url("/tmp/a b/t%1?#.db")).unwrap();
        let options = SqliteConnectOptions::try_from(&any).unwrap();
        assert_eq!(options.get_filename(), std::path::Path::new("/tmp/a b/t%1?#.db"));
    }
}
