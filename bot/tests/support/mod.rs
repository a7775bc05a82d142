//! Helpers shared by the host, concurrency and console tests: temporary database files, a
//! snapshot of every table (to prove a refusal changed nothing), and short games found with the
//! rules engine.
#![allow(dead_code)]

use std::cell::{Cell, RefCell};
use std::path::PathBuf;

use tafl_bot::host::{ChallengeRequest, Clock, GameView, Host, Place, SideChoice, User};
pub use tafl_bot::store::Backend;
use tafl_bot::store::Db;
use tafl_rules::{Game, Position, Reason, Side, Status, Variant};

pub const NOW: i64 = 1_800_000_000;
pub const PLACE: Place = Place { guild: 1, channel: 2, thread: None };

pub fn alice() -> User {
    User::new(101, "alice")
}
pub fn bob() -> User {
    User::new(102, "bob")
}
pub fn carol() -> User {
    User::new(103, "carol")
}

/// A fresh path for a database file (or any file or folder a test makes there), in a scratch
/// directory of its own that is removed when the test ends ([`scratch`]).
pub fn temp_path(name: &str) -> PathBuf {
    scratch::scratch_dir(&format!("tafl-bot-test-{name}")).join(format!("{name}.db"))
}

#[path = "../../../tests/src/scratch.rs"]
pub mod scratch;

#[path = "../../../tests/src/postgres.rs"]
pub mod postgres;

pub mod relay;

thread_local! {
    /// The backend of the test running on this thread (see [`on`]).
    static BACKEND: Cell<Backend> = const { Cell::new(Backend::Sqlite) };
    /// The `PostgreSQL` databases its hosts use, dropped when it ends.
    static DATABASES: RefCell<Vec<postgres::TestDatabase>> = const { RefCell::new(Vec::new()) };
}

/// Runs a test body with [`db`] and [`host`] opening databases on `backend`; on `PostgreSQL`, each
/// a fresh database of the throwaway cluster, dropped at the end. Without `PostgreSQL` (and
/// without `CI=true`) the body is skipped with one line.
pub async fn on(backend: Backend, body: impl Future<Output = ()>) {
    if backend == Backend::Postgres && postgres::server().is_none() {
        return;
    }
    BACKEND.set(backend);
    body.await;
    BACKEND.set(Backend::Sqlite);
    drop(DATABASES.take());
}

/// The same test body on `SQLite` and on `PostgreSQL`: `both! { async fn name() { … } }` makes
/// the tests `name::sqlite` and `name::postgres`, whose [`host`] and [`db`] open that backend.
/// `both! { multi_thread async fn … }` runs them on a runtime of two worker threads.
#[allow(unused_macros)] // not every test file that shares this module uses it
macro_rules! both {
    (multi_thread $(#[$meta:meta])* async fn $name:ident() $body:block) => {
        $(#[$meta])*
        mod $name {
            #[allow(unused_imports)]
            use super::*;

            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn sqlite() {
                $crate::support::on($crate::support::Backend::Sqlite, async $body).await;
            }

            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn postgres() {
                $crate::support::on($crate::support::Backend::Postgres, async $body).await;
            }
        }
    };
    ($(#[$meta:meta])* async fn $name:ident() $body:block) => {
        $(#[$meta])*
        mod $name {
            #[allow(unused_imports)]
            use super::*;

            #[tokio::test]
            async fn sqlite() {
                $crate::support::on($crate::support::Backend::Sqlite, async $body).await;
            }

            #[tokio::test]
            async fn postgres() {
                $crate::support::on($crate::support::Backend::Postgres, async $body).await;
            }
        }
    };
}
#[allow(unused_imports)]
pub(crate) use both;

/// The backend of the running test.
pub fn backend() -> Backend {
    BACKEND.get()
}

/// A fresh database on the running test's backend (see [`on`]), opened exactly as the bot opens
/// its own.
pub async fn db() -> Db {
    match BACKEND.get() {
        Backend::Sqlite => Db::open_file(&temp_path("host")).await.expect("the database opens"),
        Backend::Postgres => {
            let database = postgres::database().await.expect("PostgreSQL was found before the test began");
            let db = Db::open(&database.url).await.expect("the PostgreSQL database opens");
            DATABASES.with_borrow_mut(|databases| databases.push(database));
            db
        }
    }
}

/// Two pools on one fresh database of the running test's backend, as two bot processes have.
pub async fn two_dbs() -> (Db, Db) {
    match BACKEND.get() {
        Backend::Sqlite => {
            let path = temp_path("shared");
            (
                Db::open_file(&path).await.expect("the database opens"),
                Db::open_file(&path).await.expect("it opens twice"),
            )
        }
        Backend::Postgres => {
            let database = postgres::database().await.expect("PostgreSQL was found before the test began");
            let first = Db::open(&database.url).await.expect("the PostgreSQL database opens");
            let second = Db::open(&database.url).await.expect("it opens twice");
            DATABASES.with_borrow_mut(|databases| databases.push(database));
            (first, second)
        }
    }
}

/// Three processes on one fresh `PostgreSQL` database, "owner", "one" and "two", serving shards 0,
/// 1 and 2 of 3; `None` when `PostgreSQL` tests are skipped here.
pub async fn three_processes() -> Option<(postgres::TestDatabase, [Host; 3])> {
    let database = postgres::database().await?;
    let mut hosts = Vec::new();
    for (shard, id) in ["owner", "one", "two"].into_iter().enumerate() {
        let db = Db::open(&database.url).await.unwrap();
        hosts.push(Host::new(db).with_process_id(id).with_shards(shard as u32, shard as u32, 3));
    }
    let hosts: [Host; 3] = hosts.try_into().unwrap_or_else(|_| unreachable!("three hosts were made"));
    Some((database, hosts))
}

/// A host on a fresh database of the running test's backend.
pub async fn host() -> Host {
    Host::new(db().await)
}

/// Every row of every table as text, to compare before and after a refusal.
pub async fn snapshot(host: &Host) -> String {
    let pool = host.db().pool();
    let mut out = String::new();
    // Portable SQL: string_agg (SQLite 3.44 has it too), every value cast to text.
    for sql in [
        "SELECT string_agg(CAST(id AS TEXT) || '|' || name || '|' || settings || '|' || CAST(updated_at AS TEXT) || '|' \
         || coalesce(CAST(digest_due_at AS TEXT), '-'), ';' ORDER BY id) FROM users",
        "SELECT string_agg(CAST(id AS TEXT) || '|' || state || '|' || coalesce(CAST(game_id AS TEXT), '-') || '|' \
         || coalesce(CAST(closed_at AS TEXT), '-'), ';' ORDER BY id) FROM challenges",
        "SELECT string_agg(CAST(id AS TEXT) || '|' || status || '|' || coalesce(reason, '-') || '|' || CAST(ply AS TEXT) || '|' \
         || CAST(updated_at AS TEXT) || '|' || coalesce(CAST(loser_id AS TEXT), '-') || '|' || coalesce(CAST(deadline_at AS TEXT), '-') \
         || '|' || coalesce(CAST(turn_started_at AS TEXT), '-') || '|' || CAST(reminders_sent AS TEXT) || '|' \
         || coalesce(CAST(next_due_at AS TEXT), '-') || '|' || CAST(attacker_reserve AS TEXT) || '|' \
         || CAST(defender_reserve AS TEXT) || '|' || CAST(channel_id AS TEXT) || '|' || coalesce(CAST(thread_id AS TEXT), '-') \
         || '|' || coalesce(CAST(channel_gone_at AS TEXT), '-'), ';' ORDER BY id) FROM games",
        "SELECT string_agg(CAST(game_id AS TEXT) || '|' || CAST(ply AS TEXT) || '|' || notation, ';' ORDER BY game_id, ply) FROM moves",
        "SELECT string_agg(CAST(id AS TEXT) || '|' || kind || '|' || state || '|' || CAST(by_user AS TEXT) || '|' \
         || CAST(at_ply AS TEXT), ';' ORDER BY id) FROM offers",
        "SELECT string_agg(CAST(id AS TEXT) || '|' || settings || '|' || CAST(updated_at AS TEXT) || '|' \
         || coalesce(CAST(left_at AS TEXT), '-') || '|' || coalesce(CAST(paused_notice_at AS TEXT), '-'), ';' ORDER BY id) \
         FROM servers",
        "SELECT string_agg(CAST(last_tick_at AS TEXT), ';') FROM scheduler",
    ] {
        let row: Option<String> = sqlx::query_scalar(sql).fetch_one(pool).await.expect("the snapshot query runs");
        out.push_str(&row.unwrap_or_default());
        out.push('\n');
    }
    out
}

/// Runs a refused operation, and checks that it changed nothing ([`snapshot`]) and ended its
/// transaction before answering ([`no_lock_left`]); returns the refusal.
#[allow(unused_macros)] // not every test file that shares this module uses it
macro_rules! refused {
    ($host:expr, $op:expr) => {{
        let before = $crate::support::snapshot(&$host).await;
        let error = $op.await.expect_err("the operation is refused");
        $crate::support::no_lock_left(&$host, &error).await;
        assert_eq!($crate::support::snapshot(&$host).await, before, "a refusal changed the database: {error}");
        error
    }};
}
#[allow(unused_imports)]
pub(crate) use refused;

/// Checks that no transaction on `host`'s database still holds a lock after `answer` was given:
/// every operation rolls a refusal back before it answers, where sqlx would roll a dropped
/// transaction back only later, from a task of its own, holding its locks meanwhile. On `PostgreSQL`, no
/// connection to the database is idle in a transaction that wrote, locked a row (both give it a
/// transaction id) or holds an advisory lock; a read's snapshot, which locks nothing, may wait
/// for its rollback. On `SQLite`, another connection takes the file's write lock without waiting.
pub async fn no_lock_left(host: &Host, answer: &dyn std::fmt::Debug) {
    let pool = host.db().pool();
    match BACKEND.get() {
        Backend::Postgres => {
            let open: i64 = sqlx::query_scalar(
                "SELECT count(*) FROM pg_stat_activity a WHERE a.datname = current_database() \
                 AND a.state LIKE 'idle in transaction%' AND (a.backend_xid IS NOT NULL \
                 OR EXISTS (SELECT 1 FROM pg_locks l WHERE l.pid = a.pid AND l.locktype = 'advisory'))",
            )
            .fetch_one(pool)
            .await
            .expect("pg_stat_activity is read");
            assert_eq!(open, 0, "a transaction is still open after the answer {answer:?}");
        }
        Backend::Sqlite => {
            let mut conn = pool.acquire().await.expect("a connection");
            let timeout: i64 =
                sqlx::query_scalar("PRAGMA busy_timeout").fetch_one(&mut *conn).await.expect("busy_timeout is read");
            sqlx::query("PRAGMA busy_timeout = 0").execute(&mut *conn).await.expect("busy_timeout is set");
            let begun = sqlx::query("BEGIN IMMEDIATE").execute(&mut *conn).await;
            if begun.is_ok() {
                sqlx::query("ROLLBACK").execute(&mut *conn).await.expect("the probe rolls back");
            }
            sqlx::query(sqlx::AssertSqlSafe(format!("PRAGMA busy_timeout = {timeout}")))
                .execute(&mut *conn)
                .await
                .expect("busy_timeout is set back");
            assert!(begun.is_ok(), "the write lock is still held after the answer {answer:?}: {begun:?}");
        }
    }
}

pub fn request(challenger: &User, opponent: Option<&User>, variant: &str, side: SideChoice) -> ChallengeRequest {
    ChallengeRequest {
        challenger: challenger.clone(),
        opponent: opponent.cloned(),
        variant: variant.to_owned(),
        options: Vec::new(),
        side,
        clock: Some(Clock::UNTIMED),
        place: PLACE,
    }
}

/// Starts a game of `variant` with alice as attackers and bob as defenders.
pub async fn game(host: &Host, variant: &str) -> GameView {
    let challenge =
        host.challenge(&request(&alice(), Some(&bob()), variant, SideChoice::Attackers), NOW).await.unwrap();
    host.accept(challenge.id, &bob(), NOW + 1).await.unwrap().game
}

/// A small deterministic random-number generator (xorshift), so that searches are repeatable.
pub struct Rng(pub u64);

impl Rng {
    pub fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

/// A short game of `variant` that ends on the board for `reason`: random play where each side
/// takes a winning move when it has one, tried with seeds until one ends that way. Returns the
/// moves in canonical notation with captures.
pub fn find_game(variant: Variant, reason: Reason, max_plies: usize) -> Vec<String> {
    for seed in 1..2_000u64 {
        let mut rng = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
        let mut game = Game::new(Position::new(variant.rules()).unwrap());
        while game.status().is_ongoing() && game.ply() < max_plies {
            let moves = game.position().legal_moves();
            let winning = moves.iter().copied().find(|&mv| {
                let mut trial = game.position().clone();
                matches!(trial.play_unchecked(mv).status, Status::Finished(o) if o.winner == Some(game.position().to_move()))
            });
            let mv = winning.unwrap_or_else(|| moves[rng.below(moves.len())]);
            game.play(mv).unwrap();
        }
        if game.status().reason() == Some(reason) {
            return game.moves().iter().map(|m| m.text().to_string()).collect();
        }
    }
    panic!("no {variant} game ending by {reason} found");
}

/// The side that plays ply `n` (from 1) of a game from the usual start.
pub fn mover(n: usize) -> Side {
    if n.is_multiple_of(2) { Side::Defenders } else { Side::Attackers }
}

/// What a person is told about a refusal, in English as the console says it (commands as
/// `/challenge`), the words the host's typed errors turn into.
#[must_use]
#[allow(dead_code)] // not every test binary that includes this module uses it
pub fn said(error: &tafl_bot::host::HostError) -> String {
    tafl_bot::present::text::host_error(error, tafl_bot::present::Lang::console("en"))
}

/// Plays a quiet legal move for whoever is to move in `game`, at `now`.
pub async fn move_at(host: &Host, game: tafl_bot::host::GameId, now: i64) -> GameView {
    let view = host.show(game).await.unwrap();
    let player = view.player_to_move().unwrap().id;
    let choices = host.legal_moves(game, player, "", 500).await.unwrap();
    let quiet = choices.last().unwrap();
    host.play(game, player, &quiet.notation, None, now).await.unwrap().game
}

/// Ticks every `step` seconds from `from` to `to` (both included), as a running bot would,
/// returning what each tick found with its time.
pub async fn run(host: &Host, from: i64, to: i64, step: i64) -> Vec<(i64, tafl_bot::host::Due)> {
    let mut found = Vec::new();
    let mut now = from;
    while now <= to {
        found.extend(host.tick(now).await.unwrap().into_iter().map(|due| (now, due)));
        now += step;
    }
    found
}

/// One integer column of a game's row, as stored.
pub async fn stored(host: &Host, game: tafl_bot::host::GameId, column: &str) -> Option<i64> {
    sqlx::query_scalar(sqlx::AssertSqlSafe(format!("SELECT {column} FROM games WHERE id = $1")))
        .bind(game)
        .fetch_one(host.db().pool())
        .await
        .unwrap()
}

/// Every pending outbox item, lane by lane in order, as the delivery task would apply them;
/// each is marked delivered.
pub async fn drain(host: &Host, now: i64) -> Vec<tafl_bot::host::outbox::Show> {
    let mut all = Vec::new();
    for head in host.outbox_heads(now).await.unwrap() {
        let mut next = Some(head);
        while let Some(item) = next {
            all.push(item.show.clone());
            host.delivered(item.id, None, now).await.unwrap();
            next = host.outbox_head(&item.lane, now).await.unwrap();
        }
    }
    all
}

/// Runs `tafl-bot local` on a database file with `script` on stdin; returns stdout.
pub fn local(db: &std::path::Path, extra: &[&str], script: &str) -> String {
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_tafl-bot"))
        .arg("local")
        .arg("--db")
        .arg(db)
        .args(extra)
        // English unless a test asks for another language: the terminal's LANG must not matter.
        .env("LANG", "C.UTF-8")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("tafl-bot starts");
    let mut stdin = child.stdin.take().unwrap();
    let input = script.to_owned();
    let writer = std::thread::spawn(move || {
        let _ = std::io::Write::write_all(&mut stdin, input.as_bytes());
    });
    let output = child.wait_with_output().unwrap();
    writer.join().unwrap();
    let stdout = String::from_utf8(output.stdout).unwrap();
    let stderr = String::from_utf8(output.stderr).unwrap();
    // A piped session ends with status 1 exactly when one of its commands failed, and says how
    // many did, in the session's language.
    let english = stdout.lines().filter(|l| l.starts_with("error:")).count();
    let russian = stdout.lines().filter(|l| l.starts_with("ошибка:")).count();
    let failures = english + russian;
    if failures == 0 {
        assert!(output.status.success(), "tafl-bot local failed: {stderr}\n{stdout}");
    } else {
        assert_eq!(output.status.code(), Some(1), "{failures} failures: {stderr}\n{stdout}");
        let said = if russian == 0 {
            format!("error: {failures} of the session's commands failed (see the error lines above)")
        } else {
            assert_eq!(english, 0, "one language a session: {stdout}");
            let commands = match (failures % 10, failures % 100) {
                (1, n) if n != 11 => "команда сеанса не выполнена",
                (2..=4, n) if !(12..=14).contains(&n) => "команды сеанса не выполнены",
                _ => "команд сеанса не выполнено",
            };
            format!("ошибка: {failures} {commands} (см. строки с ошибками выше)")
        };
        assert_eq!(stderr.trim_end().lines().last(), Some(&*said), "{stderr}");
    }
    assert!(!stderr.contains("panicked"), "{stderr}");
    stdout
}
