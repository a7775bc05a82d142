//! The storage layer on its own: how the database file is opened and configured, and the
//! settings rows the front end will use.

mod support;

use support::{NOW, alice, game, host, temp_path};
use tafl_bot::host::{Host, HostError};
use tafl_bot::store::{self, Db};

#[tokio::test]
async fn a_database_url_creates_a_migrated_file_in_wal_mode_with_foreign_keys() {
    let path = temp_path("url");
    let db = Db::open(&format!("sqlite://{}", path.display())).await.unwrap();
    assert!(path.exists(), "created when missing");
    let mode: String = sqlx::query_scalar("PRAGMA journal_mode").fetch_one(db.pool()).await.unwrap();
    assert_eq!(mode, "wal");
    let fk: i64 = sqlx::query_scalar("PRAGMA foreign_keys").fetch_one(db.pool()).await.unwrap();
    assert_eq!(fk, 1);
    let sync: i64 = sqlx::query_scalar("PRAGMA synchronous").fetch_one(db.pool()).await.unwrap();
    assert_eq!(sync, 1, "NORMAL");
    let tables: Vec<String> = sqlx::query_scalar(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '\\_%' ESCAPE '\\' ORDER BY name",
    )
    .fetch_all(db.pool())
    .await
    .unwrap();
    assert_eq!(
        tables,
        [
            "board_messages",
            "challenge_messages",
            "challenges",
            "games",
            "guild_commands",
            "interactions",
            "member_names",
            "moves",
            "offers",
            "outbox",
            "outbox_claims",
            "rating_changes",
            "ratings",
            "reviews",
            "scheduler",
            "servers",
            "shard_ticks",
            "users"
        ]
    );
}

/// The log's size in `SQLite` pages (4 KiB each by default).
fn wal_pages(db: &std::path::Path) -> u64 {
    let mut wal = db.as_os_str().to_owned();
    wal.push("-wal");
    std::fs::metadata(std::path::PathBuf::from(wal)).map_or(0, |m| m.len()) / 4096
}

#[tokio::test]
async fn commits_checkpoint_only_past_the_stores_mark_and_closing_folds_the_log_in() {
    let path = temp_path("checkpoint");
    let db = Db::open(&format!("sqlite://{}", path.display())).await.unwrap();
    // Every connection of the pool has the mark, not only the first one.
    let mut conns = Vec::new();
    for _ in 0..3 {
        let mut conn = db.pool().acquire().await.unwrap();
        let pages: i64 = sqlx::query_scalar("PRAGMA wal_autocheckpoint").fetch_one(&mut *conn).await.unwrap();
        assert_eq!(pages, i64::from(store::WAL_AUTOCHECKPOINT_PAGES));
        conns.push(conn);
    }
    drop(conns);
    // 2,000 commits of a page-sized row each: twice SQLite's default mark of 1,000 pages, a
    // fifth of ours, so the log holds them all (a checkpoint would have started it over).
    let name = "x".repeat(3_000);
    for id in 1..=2_000_i64 {
        let mut tx = db.begin_write().await.unwrap();
        sqlx::query("INSERT INTO users (id, name, created_at, updated_at) VALUES ($1, $2, 0, 0)")
            .bind(id)
            .bind(&name)
            .execute(&mut **tx)
            .await
            .unwrap();
        tx.commit().await.unwrap();
    }
    let pages = wal_pages(&path);
    assert!(
        (2_000..u64::from(store::WAL_AUTOCHECKPOINT_PAGES)).contains(&pages),
        "{pages} pages in the log after 2,000 commits of a page each"
    );
    // The last connection to close copies the log into the database file and removes it.
    db.close().await;
    assert_eq!(wal_pages(&path), 0, "the log outlived the last connection");
    let db = Db::open(&format!("sqlite://{}", path.display())).await.unwrap();
    let rows: i64 = sqlx::query_scalar("SELECT count(*) FROM users WHERE id > 0").fetch_one(db.pool()).await.unwrap();
    assert_eq!(rows, 2_000);
    db.close().await;
}

#[tokio::test]
async fn opening_twice_applies_the_migrations_once() {
    let path = temp_path("twice");
    Db::open_file(&path).await.unwrap().close().await;
    let db = Db::open_file(&path).await.unwrap();
    let applied: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM _sqlx_migrations").fetch_one(db.pool()).await.unwrap();
    // One row per migration file, whoever adds the next one.
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../migrations");
    let files =
        std::fs::read_dir(dir).unwrap().filter(|f| f.as_ref().unwrap().path().extension() == Some("sql".as_ref()));
    assert_eq!(applied, files.count() as i64);
    assert!(applied >= 3, "0001, 0002 and 0004 at least");
}

support::both! {
    async fn a_move_for_a_missing_game_is_refused_by_the_schema() {
        let host = host().await;
        let mut conn = host.db().pool().acquire().await.unwrap();
        let error = store::moves::insert(&mut conn, 999, 1, "d1-d3", None, NOW).await.unwrap_err();
        assert!(error.to_string().to_lowercase().contains("foreign key"), "{error}");
    }
}

support::both! {
    async fn server_and_user_settings_are_stored_and_replaced() {
        let host = host().await;
        let mut conn = host.db().pool().acquire().await.unwrap();
        assert_eq!(store::servers::settings(&mut conn, 5).await.unwrap(), "{}");
        store::servers::set_settings(&mut conn, 5, r#"{"threads":true}"#, NOW).await.unwrap();
        store::servers::set_settings(&mut conn, 5, r#"{"threads":false}"#, NOW).await.unwrap();
        assert_eq!(store::servers::settings(&mut conn, 5).await.unwrap(), r#"{"threads":false}"#);
        assert!(!store::users::set_settings(&mut conn, alice().id, "{}", NOW).await.unwrap(), "unknown user");
        host.remember_user(&alice(), NOW).await.unwrap();
        assert!(store::users::set_settings(&mut conn, alice().id, r#"{"dm":true}"#, NOW).await.unwrap());
        assert_eq!(store::users::find(&mut conn, alice().id).await.unwrap().unwrap().settings, r#"{"dm":true}"#);
    }
}

support::both! {
    async fn interactions_are_taken_on_once_and_forgotten_after_an_hour() {
        use tafl_bot::host::INTERACTIONS_KEPT_SECS;
        let host = host().await;
        let (old, recent) = (1_300_000_000_000_000_001, 1_300_000_000_000_000_002);
        assert!(host.take_interaction(old, NOW).await.unwrap(), "the first copy is taken on");
        assert!(!host.take_interaction(old, NOW + 1).await.unwrap(), "the second is a copy");
        assert!(host.take_interaction(recent, NOW + 2).await.unwrap());
        // An hour after the first: it is forgotten, the other one not yet.
        assert_eq!(host.prune_interactions(NOW + INTERACTIONS_KEPT_SECS + 1).await.unwrap(), 1);
        assert!(!host.take_interaction(recent, NOW + INTERACTIONS_KEPT_SECS + 1).await.unwrap());
        assert!(host.take_interaction(old, NOW + INTERACTIONS_KEPT_SECS + 1).await.unwrap(), "forgotten");
        // More than one batch at once.
        for id in 0..1_200 {
            assert!(host.take_interaction(id, NOW).await.unwrap());
        }
        assert_eq!(host.prune_interactions(NOW + 3 * INTERACTIONS_KEPT_SECS).await.unwrap(), 1_202);
        let left: i64 =
            sqlx::query_scalar("SELECT count(*) FROM interactions").fetch_one(host.db().pool()).await.unwrap();
        assert_eq!(left, 0);
    }
}

support::both! {
    /// A try to take an interaction on whose answer was lost with its connection is tried again:
    /// the row it may have inserted is its own (its token), where a copy's try is refused.
    async fn a_try_to_take_an_interaction_on_that_was_saved_unheard_takes_it_on_when_made_again() {
        let host = host().await;
        let id = 1_300_000_000_000_000_003;
        let mut conn = host.db().pool().acquire().await.unwrap();
        assert!(store::interactions::take(&mut conn, id, NOW, 41).await.unwrap(), "the first try");
        assert!(store::interactions::take(&mut conn, id, NOW, 41).await.unwrap(), "the same try made again");
        assert!(!store::interactions::take(&mut conn, id, NOW, 42).await.unwrap(), "another try: a copy");
        drop(conn);
        assert!(!host.take_interaction(id, NOW).await.unwrap(), "a copy through the host");
    }
}

/// The first interaction after the bot's connections were ended (a server restart, sessions
/// ended by an administrator) is taken on, where its try failed on a dead pooled connection and
/// the interaction was answered anyway: during a rolling deploy, by both processes serving its
/// shard (an outside review made two challenges of one `/tafl challenge` so). A copy after it
/// is still a copy.
#[tokio::test]
async fn an_interaction_taken_on_just_after_the_connections_were_ended_is_taken_on_once() {
    use sqlx::Connection;
    let Some(database) = support::postgres::database().await else { return };
    let host = Host::new(Db::open(&database.url).await.unwrap());
    let mut admin = sqlx::PgConnection::connect(&database.url).await.unwrap();
    for id in [1_300_000_000_000_000_011_i64, 1_300_000_000_000_000_012] {
        assert!(host.take_interaction(id - 10, NOW).await.unwrap(), "on fresh connections");
        use_every_connection(host.db()).await;
        end_the_bots_connections(&mut admin).await;
        assert!(host.take_interaction(id, NOW).await.expect("taken on, on another connection"));
        assert!(!host.take_interaction(id, NOW).await.unwrap(), "a copy");
    }
    admin.close().await.unwrap();
}

support::both! {
    async fn a_game_can_be_given_its_own_thread() {
        let host: Host = host().await;
        let g = game(&host, "copenhagen").await;
        host.set_thread(g.id, 777, NOW).await.unwrap();
        assert_eq!(host.show(g.id).await.unwrap().place.thread, Some(777));
        assert_eq!(host.set_thread(999, 777, NOW).await.unwrap_err(), HostError::NoSuchGame(999));
    }
}

#[tokio::test]
async fn a_database_that_cannot_grow_refuses_with_the_disk_full_sentence_and_recovers() {
    use tafl_bot::host::{StorageFault, User};
    use tafl_bot::present::Lang;
    use tafl_bot::present::text::host_error;
    // The bot's own pool with one connection, so that the page limit set below holds for every
    // query of the host.
    let url = format!("sqlite://{}", temp_path("cannot-grow").display());
    let settings = store::PoolSettings { max_connections: 1, ..store::PoolSettings::default() };
    let db = Db::open_with_settings(&url, &settings).await.unwrap();
    let pool = db.pool().clone();
    let host = Host::new(db);
    let pages: i64 = sqlx::query_scalar("PRAGMA page_count").fetch_one(&pool).await.unwrap();
    sqlx::query(sqlx::AssertSqlSafe(format!("PRAGMA max_page_count = {pages}"))).execute(&pool).await.unwrap();
    // SQLite answers SQLITE_FULL ("database or disk is full") once the file would have to grow.
    let long_name = "x".repeat(3000);
    let mut refused = None;
    for id in 1..200 {
        if let Err(error) = host.remember_user(&User::new(1000 + id, &long_name), NOW).await {
            refused = Some(error);
            break;
        }
    }
    let refused = refused.expect("the file filled up");
    assert_eq!(refused, HostError::Storage(StorageFault::DiskFull));
    assert_eq!(
        host_error(&refused, Lang::discord(None)),
        "The server's disk is full, so nothing was saved; try again once the bot's operator has freed space."
    );
    assert!(
        host_error(&refused, Lang::discord(Some("ru")))
            .starts_with("На диске бота нет места, поэтому ничего не сохранено")
    );
    // Space returns: the next write succeeds on the same pool.
    sqlx::query("PRAGMA max_page_count = 1000000").execute(&pool).await.unwrap();
    host.remember_user(&User::new(5000, &long_name), NOW).await.expect("writes resume");
    host.remember_user(&alice(), NOW).await.unwrap();
}

/// A database that takes no writes: `SQLite` answers `SQLITE_READONLY` (8) for a file it could
/// open only read-only (root's after a restore, a read-only file system; here `query_only`, which
/// answers the same), `PostgreSQL` 25006 `read_only_sql_transaction` on a standby after a
/// failover (here `default_transaction_read_only`). Either was "Something went wrong on our side";
/// both are the storage fault that says the disk could not be written.
async fn a_database_that_takes_no_writes_is_told_as_a_disk_that_cannot_be_written(url: &str, read_only: &str) {
    use tafl_bot::host::{StorageFault, User};
    use tafl_bot::present::Lang;
    use tafl_bot::present::text::host_error;
    // One connection, so that the setting below holds for every query of the host.
    let settings = store::PoolSettings { max_connections: 1, ..store::PoolSettings::default() };
    let db = Db::open_with_settings(url, &settings).await.unwrap();
    let pool = db.pool().clone();
    let host = Host::new(db);
    sqlx::query(sqlx::AssertSqlSafe(read_only)).execute(&pool).await.unwrap();
    let refused = host.remember_user(&User::new(1000, "reader"), NOW).await.expect_err("nothing can be written");
    assert_eq!(refused, HostError::Storage(StorageFault::Io));
    assert_eq!(
        host_error(&refused, Lang::discord(None)),
        "The server could not write to its disk, so nothing was saved; try again later, and tell the bot's operator if it goes on."
    );
}

#[tokio::test]
async fn an_sqlite_database_that_takes_no_writes_is_told_as_a_disk_that_cannot_be_written() {
    let url = format!("sqlite://{}", temp_path("read-only").display());
    a_database_that_takes_no_writes_is_told_as_a_disk_that_cannot_be_written(&url, "PRAGMA query_only = ON").await;
}

#[tokio::test]
async fn a_postgres_database_that_takes_no_writes_is_told_as_a_disk_that_cannot_be_written() {
    let Some(database) = support::postgres::database().await else { return };
    let read_only = "SET default_transaction_read_only = on";
    a_database_that_takes_no_writes_is_told_as_a_disk_that_cannot_be_written(&database.url, read_only).await;
}

/// A database whose encoding cannot hold every name is refused by name before a migration writes
/// to it: under LATIN1, migration 28 failed on the "…" of its comment and left the database
/// half-migrated, blaming the migration; under WIN1252 everything ran until a player named with an
/// emoji could do nothing at all.
#[tokio::test]
async fn a_postgres_database_not_encoded_in_utf8_is_refused_before_anything_is_written() {
    use sqlx::Connection;
    for encoding in ["LATIN1", "WIN1252"] {
        let Some(database) = support::postgres::database_encoded(encoding).await else { return };
        let Err(error) = Db::open(&database.url).await else { panic!("a {encoding} database opened") };
        let said = error.to_string();
        assert!(
            said.starts_with(&format!("the PostgreSQL database {} is encoded as {encoding}, ", database.name))
                && said.contains("ENCODING 'UTF8'"),
            "{said}"
        );
        let mut own = sqlx::PgConnection::connect(&database.url).await.unwrap();
        let migrated: bool =
            sqlx::query_scalar("SELECT to_regclass('_sqlx_migrations') IS NOT NULL").fetch_one(&mut own).await.unwrap();
        own.close().await.unwrap();
        assert!(!migrated, "nothing was written to the {encoding} database");
    }
}

/// A role given only what the bot does with rows (as an owner grants an application, without the
/// right to create tables) starts the bot on a database already at this schema: sqlx's migrator,
/// whose first statement creates its table if it is missing, is not run when nothing is pending.
#[tokio::test]
async fn a_role_with_rights_on_rows_only_opens_an_up_to_date_postgres_database() {
    let Some(database) = support::postgres::database().await else { return };
    Db::open(&database.url).await.unwrap().close().await;
    let Some(role) = database
        .role(
            "GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO ROLE; \
             GRANT USAGE, SELECT, UPDATE ON ALL SEQUENCES IN SCHEMA public TO ROLE; \
             REVOKE CREATE ON SCHEMA public FROM PUBLIC",
        )
        .await
    else {
        return;
    };
    let host = Host::new(Db::open(&role.url).await.expect("the bot starts with rights on rows only"));
    let g = game(&host, "brandubh").await;
    assert_eq!(host.show(g.id).await.unwrap().ply, 0);
    host.db().close().await;
    role.drop_role().await;
}

/// The migrations run without the bot's statement timeout, which bounds its own statements
/// only: a database migrates even when every statement of the bot may take a millisecond,
/// and may then not take longer.
#[tokio::test]
async fn a_postgres_database_migrates_whatever_the_statement_timeout() {
    let Some(database) = support::postgres::database().await else { return };
    let settings = store::PoolSettings {
        statement_timeout: std::time::Duration::from_millis(1),
        ..store::PoolSettings::default()
    };
    let db = Db::open_with_settings(&database.url, &settings).await.expect("the database migrates and opens");
    // Read on a connection of the test's own: even this query may take over a millisecond on a
    // busy machine.
    let mut own = <sqlx::PgConnection as sqlx::Connection>::connect(&database.url).await.unwrap();
    let version: i64 = sqlx::query_scalar("SELECT MAX(version) FROM _sqlx_migrations WHERE success")
        .fetch_one(&mut own)
        .await
        .unwrap();
    assert_eq!(version, store::postgres::latest_version());
    let slow = sqlx::query("SELECT pg_sleep(0.05)").execute(db.pool()).await;
    assert!(slow.is_err(), "the bot's own statements keep their timeout");
    db.close().await;
}

/// A `PostgreSQL` connection the server ended while it sat idle in the pool (a restarted server, a
/// network timeout) is found out before an operation uses it and replaced, so the operation
/// succeeds: the pool pings a connection idle for more than a second before handing it out.
#[tokio::test]
async fn a_postgres_connection_ended_while_idle_is_replaced_before_an_operation_uses_it() {
    use sqlx::Connection;
    let Some(database) = support::postgres::database().await else { return };
    let host = Host::new(Db::open(&database.url).await.unwrap());
    let id = game(&host, "copenhagen").await.id;
    host.play(id, alice().id, "d1-d3", Some(0), NOW).await.unwrap();
    // Every connection of the bot's pool is idle now: the server ends them all.
    let mut admin = sqlx::PgConnection::connect(&database.url).await.unwrap();
    end_the_bots_connections(&mut admin).await;
    tokio::time::sleep(std::time::Duration::from_millis(1_500)).await;
    assert_eq!(host.show(id).await.unwrap().ply, 1, "a read after the connections were ended");
    host.play(id, support::bob().id, "f4-f3", Some(1), NOW).await.unwrap();
    assert_eq!(host.show(id).await.unwrap().ply, 2, "and a move");
    admin.close().await.unwrap();
}

/// A transaction left idle longer than the statement timeout, and at least 10 s (its process
/// frozen by `SIGSTOP` or a paused machine, or cut off by the network), is ended by the server,
/// its locks with it. A process frozen in the scheduler's tick held the tick's advisory lock, and
/// every other process's tick waited out its statement timeout and was skipped: no clock ran out
/// anywhere while the freeze lasted (an outside review held it 75 s).
#[tokio::test]
async fn a_postgres_transaction_left_idle_loses_its_locks_after_the_statement_timeout() {
    use sqlx::Connection;
    use std::time::Duration;
    assert_eq!(store::idle_bound(Duration::from_millis(300)), Duration::from_secs(10), "a moment's pause is no freeze");
    assert_eq!(store::idle_bound(Duration::from_secs(20)), Duration::from_secs(20));
    assert_eq!(store::idle_bound(Duration::from_hours(1)), Duration::from_mins(1), "a freeze holds no longer");
    let Some(database) = support::postgres::database().await else { return };
    let db = Db::open(&database.url).await.unwrap();
    let mut frozen = db.begin_write().await.unwrap();
    sqlx::query("SELECT pg_advisory_xact_lock(7341)").execute(&mut **frozen).await.unwrap();
    let mut other = sqlx::PgConnection::connect(&database.url).await.unwrap();
    let try_lock = "SELECT pg_try_advisory_lock(7341)";
    assert!(!sqlx::query_scalar::<_, bool>(try_lock).fetch_one(&mut other).await.unwrap(), "held while in use");
    tokio::time::sleep(Duration::from_secs(5)).await;
    assert!(!sqlx::query_scalar::<_, bool>(try_lock).fetch_one(&mut other).await.unwrap(), "held after 5 s idle");
    tokio::time::sleep(Duration::from_secs(6)).await;
    assert!(sqlx::query_scalar::<_, bool>(try_lock).fetch_one(&mut other).await.unwrap(), "given up with the session");
    let late = sqlx::query("SELECT 1").execute(&mut **frozen).await.expect_err("the transaction was ended");
    assert_eq!(store::StorageFault::of(&late), Some(store::StorageFault::ConnectionLost), "{late}");
    drop(frozen);
    other.close().await.unwrap();
    db.close().await;
}

/// Has the server end every connection of the bot's pool (`application_name` `tafl-bot`), as a
/// server restart or an administrator does, and waits until they are closed.
async fn end_the_bots_connections(admin: &mut sqlx::PgConnection) {
    let ended: Vec<bool> = sqlx::query_scalar(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity \
         WHERE datname = current_database() AND application_name = 'tafl-bot'",
    )
    .fetch_all(admin)
    .await
    .unwrap();
    assert!(!ended.is_empty() && ended.iter().all(|&ended| ended), "the bot's connections were ended: {ended:?}");
    // The server has closed them before the next operation takes one.
    tokio::time::sleep(std::time::Duration::from_millis(50)).await;
}

/// Uses every connection of the bot's pool at once, so that all of them are recently used (taken
/// out again without a ping) when the server ends them: a busy pool after a server restart.
async fn use_every_connection(db: &Db) {
    let size = db.pool().options().get_max_connections();
    let mut held = Vec::new();
    for _ in 0..size {
        let mut conn = db.pool().acquire().await.unwrap();
        sqlx::query("SELECT 1").execute(&mut *conn).await.unwrap();
        held.push(conn);
    }
    assert_eq!(db.pool().size(), size, "every connection of the pool is open");
}

/// A connection the server ended within a second of its last use is handed out without a ping,
/// and its `BEGIN` fails: the operation begins again on another connection, since nothing of it
/// was sent. Before, the first move after a server restart was told that it "may already have been
/// saved", and an outbox lane's claim could not be given back, which held its game's board for the
/// claim's 30 s (an outside review, after `pg_ctl restart`).
#[tokio::test]
async fn a_postgres_connection_ended_just_after_its_use_is_begun_again_on_another() {
    use sqlx::Connection;
    let Some(database) = support::postgres::database().await else { return };
    let host = Host::new(Db::open(&database.url).await.unwrap());
    let id = game(&host, "copenhagen").await.id;
    let mut admin = sqlx::PgConnection::connect(&database.url).await.unwrap();
    for (ply, (player, mv)) in
        [(alice().id, "d1-d3"), (support::bob().id, "f4-f3"), (alice().id, "d3-d1")].into_iter().enumerate()
    {
        host.show(id).await.expect("a read on fresh connections");
        use_every_connection(host.db()).await;
        end_the_bots_connections(&mut admin).await;
        host.play(id, player, mv, Some(ply), NOW).await.expect("a move right after its connections were ended");
        use_every_connection(host.db()).await;
        end_the_bots_connections(&mut admin).await;
        assert_eq!(host.show(id).await.expect("and a read").ply, ply + 1);
    }
    admin.close().await.unwrap();
}

/// A connection lost in the middle of an operation (the server restarted, a failover, an
/// administrator ending the session) is told as such, not as a disk that cannot be written: the
/// operator is not sent to look at disks, and the player is not promised that nothing was saved,
/// which is not known when the connection died during the commit. The next click goes through.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_lost_postgres_connection_is_not_reported_as_a_disk_that_cannot_be_written() {
    use sqlx::Connection;
    use tafl_bot::host::StorageFault;
    use tafl_bot::present::Lang;
    use tafl_bot::present::text::host_error;
    let Some(database) = support::postgres::database().await else { return };
    let host = Host::new(Db::open(&database.url).await.unwrap());
    let id = game(&host, "copenhagen").await.id;
    // Another session holds the game, so the move's statement is waiting when its connection ends.
    let mut blocker = sqlx::PgConnection::connect(&database.url).await.unwrap();
    let mut held = blocker.begin().await.unwrap();
    sqlx::query("SELECT id FROM games WHERE id = $1 FOR UPDATE").bind(id).execute(&mut *held).await.unwrap();
    let playing = {
        let host = host.clone();
        tokio::spawn(async move { host.play(id, alice().id, "d1-d3", Some(0), NOW).await })
    };
    let mut admin = sqlx::PgConnection::connect(&database.url).await.unwrap();
    let mut ended: Vec<bool> = Vec::new();
    for _ in 0..50 {
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        ended = sqlx::query_scalar(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() \
             AND application_name = 'tafl-bot' AND wait_event_type = 'Lock'",
        )
        .fetch_all(&mut admin)
        .await
        .unwrap();
        if !ended.is_empty() {
            break;
        }
    }
    assert_eq!(ended, [true], "the waiting move's connection was ended");
    let error = playing.await.unwrap().expect_err("the move's connection was lost");
    held.rollback().await.unwrap();
    assert_eq!(error, HostError::Storage(StorageFault::ConnectionLost));
    assert_eq!(
        host_error(&error, Lang::discord(None)),
        "The bot lost its connection to the database; try again in a moment, and if you were making a move \
         or a choice, look at the board first, as it may already have been saved."
    );
    assert!(
        host_error(&error, Lang::discord(Some("ru")))
            .starts_with("Бот потерял связь с базой данных; попробуйте ещё раз чуть позже")
    );
    host.play(id, alice().id, "d1-d3", Some(0), NOW).await.expect("the next move goes through");
    admin.close().await.unwrap();
    blocker.close().await.unwrap();
}

/// sqlx prints `PostgreSQL`'s errors with the line of the server's C source that raised them
/// ("… at line 948"), which reads as a line of the operator's URL or configuration: the
/// sentence an operator reads leaves it out.
#[tokio::test]
async fn a_postgres_error_sentence_carries_no_server_source_line() {
    let Some(server) = support::postgres::server() else { return };
    let error = Db::open(&server.url_of("tafl_no_such_database")).await.unwrap_err().to_string();
    assert_eq!(error, r#"error returned from database: database "tafl_no_such_database" does not exist"#);
}

/// While `PostgreSQL` is down, an operation answering someone is refused within Discord's 3 s for
/// an answer (a click is answered without deferring after a few reads), not after sqlx's default
/// wait of 30 s for a connection; once the server is back, operations go through again.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn while_postgres_is_down_an_operation_is_refused_within_discords_three_seconds() {
    use tafl_bot::host::StorageFault;
    let Some(database) = support::postgres::database().await else { return };
    // A TEST_DATABASE_URL server has no cluster of ours to put a relay before.
    let Some(cluster) = support::postgres::server().and_then(|server| server.cluster()) else { return };
    let relay = support::relay::Relay::start(([127, 0, 0, 1], cluster.port).into());
    let url = database.url.replace(&format!(":{}/", cluster.port), &format!(":{}/", relay.port));
    assert_ne!(url, database.url);
    let host = Host::new(Db::open(&url).await.unwrap());
    let id = game(&host, "copenhagen").await.id;
    host.play(id, alice().id, "d1-d3", Some(0), NOW).await.unwrap();
    relay.set_down(true);
    // The pool's connections idle long enough to be checked before use, as after a quiet moment.
    tokio::time::sleep(std::time::Duration::from_millis(1_500)).await;
    let started = std::time::Instant::now();
    let refused = host.show(id).await.map(|game| game.ply).expect_err("the database is down");
    let waited = started.elapsed();
    assert!(waited < std::time::Duration::from_secs(3), "refused with {refused:?} only after {waited:?}");
    assert_eq!(refused, HostError::Storage(StorageFault::Busy));
    relay.set_down(false);
    host.play(id, support::bob().id, "f4-f3", Some(1), NOW).await.expect("a move once the server is back");
}

/// The other side of the refusal above: a person's operation queued behind a busy pool waits
/// its turn, however long, as long as the database answers others meanwhile; once nothing has
/// begun for [`store::UNANSWERED_WAIT`], it gives up as the database does not answer.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_persons_operation_waits_its_turn_in_a_busy_pool_while_the_database_answers_others() {
    use std::time::{Duration, Instant};
    let Some(database) = support::postgres::database().await else { return };
    let settings = store::PoolSettings { max_connections: 1, ..store::PoolSettings::default() };
    let db = Db::open_with_settings(&database.url, &settings).await.unwrap();
    let busy_for = 3 * store::UNANSWERED_WAIT;
    // The wait is timed from the spawn, not from when the task first runs: on a busy machine that
    // came a moment after the sleep below began, and the wait measured a hair under `busy_for`.
    let wait_behind = |db: &Db| {
        let db = db.clone();
        let started = Instant::now();
        tokio::spawn(async move {
            let began = db.begin_read().await.map(drop);
            (started.elapsed(), began)
        })
    };
    // People's one connection is taken; the bot's own work goes on beside it.
    let held = db.begin_write().await.unwrap();
    let background = db.with_urgency(store::Urgency::Background);
    let answering = tokio::spawn(async move {
        loop {
            drop(background.begin_read().await.unwrap());
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    });
    let waiting = wait_behind(&db);
    tokio::time::sleep(busy_for).await;
    held.commit().await.unwrap();
    let (waited, began) = waiting.await.unwrap();
    answering.abort();
    assert!(began.is_ok() && waited >= busy_for, "began after {waited:?}: {began:?}");
    // The same wait with nothing else beginning.
    let held = db.begin_write().await.unwrap();
    let (waited, began) = wait_behind(&db).await.unwrap();
    held.commit().await.unwrap();
    assert!(matches!(began, Err(sqlx::Error::PoolTimedOut)), "{began:?}");
    assert!(waited < busy_for, "gave up after {waited:?}");
}

/// On `SQLite`, writes from the bot's own loops (a background handle) let a person's write go
/// first: however many of them wait, a person's write waits for the one in progress and at most
/// one background write. Runs on one thread, so that every waiter is queued (tasks block on the
/// queue without touching the database) before the first write ends.
#[tokio::test]
async fn a_persons_write_waits_for_at_most_one_queued_background_write() {
    let db = Db::open_file(&temp_path("urgency")).await.unwrap();
    let background = db.with_urgency(store::Urgency::Background);
    assert_eq!((db.urgency(), background.urgency()), (store::Urgency::Interactive, store::Urgency::Background));
    let order = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let writer = |db: Db, name: &'static str| {
        let order = order.clone();
        tokio::spawn(async move {
            let tx = db.begin_write().await.unwrap();
            order.lock().unwrap().push(name);
            tx.commit().await.unwrap();
        })
    };
    let settle = || async {
        for _ in 0..20 {
            tokio::task::yield_now().await;
        }
    };
    let held = db.begin_write().await.unwrap();
    let mut tasks = Vec::new();
    for name in ["background 1", "background 2", "background 3"] {
        tasks.push(writer(background.clone(), name));
        settle().await;
    }
    tasks.push(writer(db.clone(), "person"));
    settle().await;
    assert!(order.lock().unwrap().is_empty(), "everyone waits for the write in progress");
    held.commit().await.unwrap();
    for task in tasks {
        task.await.unwrap();
    }
    assert_eq!(*order.lock().unwrap(), ["background 1", "person", "background 2", "background 3"]);
}

/// The background handle has connections of its own: with every connection of people's pool
/// taken, the bot's loops still read and write.
#[tokio::test]
async fn background_work_has_connections_of_its_own() {
    let db = Db::open_file(&temp_path("pools")).await.unwrap();
    let background = db.with_urgency(store::Urgency::Background);
    let mut taken = Vec::new();
    for _ in 0..store::PoolSettings::default().max_connections {
        taken.push(db.pool().acquire().await.unwrap());
    }
    let within = std::time::Duration::from_secs(5);
    let read = tokio::time::timeout(within, background.begin_read()).await.expect("not kept waiting").unwrap();
    drop(read);
    let write = tokio::time::timeout(within, background.begin_write()).await.expect("not kept waiting").unwrap();
    write.commit().await.unwrap();
    drop(taken);
}

/// Opens `url` with one connection per pool, so that a setting made on the pool's connection
/// holds for the host's writes: the host, and that pool.
async fn one_connection(url: &str) -> (Host, sqlx::AnyPool) {
    let settings = store::PoolSettings { max_connections: 1, ..store::PoolSettings::default() };
    let db = Db::open_with_settings(url, &settings).await.unwrap();
    let pool = db.pool().clone();
    (Host::new(db), pool)
}

/// `/healthz` reports a database that cannot save (see `WriteHealth`). Noted at the commit only,
/// it missed every write refused at its statement: `SQLite`'s read-only file and its full disk
/// (`SQLITE_FULL` at an INSERT), and the writes outside a transaction that every interaction
/// makes first. A write saved again clears it.
#[tokio::test]
async fn a_write_the_sqlite_database_cannot_save_is_noted_until_one_is_saved() {
    let (host, pool) = one_connection(&format!("sqlite://{}", temp_path("read-only").display())).await;
    sqlx::query("PRAGMA query_only = ON").execute(&pool).await.unwrap();
    assert!(matches!(
        host.remember_user(&tafl_bot::host::User::new(1000, "reader"), NOW).await,
        Err(HostError::Storage(tafl_bot::host::StorageFault::Io))
    ));
    assert_eq!(host.db().refused_write().map(|(why, _)| why), Some("the database cannot be written"));
    host.take_interaction(42, NOW).await.expect_err("the interaction's record is refused too");
    sqlx::query("PRAGMA query_only = OFF").execute(&pool).await.unwrap();
    host.take_interaction(43, NOW).await.unwrap();
    assert!(host.db().refused_write().is_some(), "a write outside a transaction may have written nothing");
    host.remember_user(&tafl_bot::host::User::new(1001, "writer"), NOW).await.unwrap();
    assert_eq!(host.db().refused_write(), None, "saved again");

    // Full at a statement: the page limit reached by an INSERT, before any commit.
    let pages: i64 = sqlx::query_scalar("PRAGMA page_count").fetch_one(&pool).await.unwrap();
    sqlx::query(sqlx::AssertSqlSafe(format!("PRAGMA max_page_count = {pages}"))).execute(&pool).await.unwrap();
    let long_name = "x".repeat(3000);
    let mut refused = None;
    for id in 1..200 {
        if let Err(error) = host.remember_user(&tafl_bot::host::User::new(1000 + id, &long_name), NOW).await {
            refused = Some(error);
            break;
        }
    }
    assert_eq!(refused, Some(HostError::Storage(tafl_bot::host::StorageFault::DiskFull)));
    assert_eq!(host.db().refused_write().map(|(why, _)| why), Some("the disk is full"));
    // A write transaction that only read commits whatever the disk (the scheduler's ticks
    // commit such ones): it proves nothing.
    host.channel_deleted(77, NOW).await.unwrap();
    assert!(host.db().refused_write().is_some(), "a commit that wrote nothing cleared the refusal");
    sqlx::query("PRAGMA max_page_count = 1000000").execute(&pool).await.unwrap();
    host.remember_user(&tafl_bot::host::User::new(5000, &long_name), NOW).await.unwrap();
    assert_eq!(host.db().refused_write(), None, "saved again");
}

/// A `PostgreSQL` server that takes no writes (a standby after a failover answers 25006): noted
/// for a transaction's statement and for a write outside one.
#[tokio::test]
async fn a_postgres_server_that_takes_no_writes_is_noted() {
    let Some(database) = support::postgres::database().await else { return };
    let (host, pool) = one_connection(&database.url).await;
    sqlx::query("SET default_transaction_read_only = on").execute(&pool).await.unwrap();
    assert!(host.remember_user(&tafl_bot::host::User::new(1000, "reader"), NOW).await.is_err());
    assert_eq!(host.db().refused_write().map(|(why, _)| why), Some("the database cannot be written"));
    host.channel_deleted(77, NOW).await.unwrap();
    assert!(host.db().refused_write().is_some(), "a commit that wrote nothing cleared the refusal");
    sqlx::query("SET default_transaction_read_only = off").execute(&pool).await.unwrap();
    host.remember_user(&tafl_bot::host::User::new(1001, "writer"), NOW).await.unwrap();
    assert_eq!(host.db().refused_write(), None);
    sqlx::query("SET default_transaction_read_only = on").execute(&pool).await.unwrap();
    host.take_interaction(43, NOW).await.expect_err("a write outside a transaction, refused");
    assert!(host.db().refused_write().is_some(), "noted outside a transaction too");
}
