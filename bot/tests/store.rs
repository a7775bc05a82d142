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
            "moves",
            "offers",
            "outbox",
            "rating_changes",
            "ratings",
            "reviews",
            "scheduler",
            "servers",
            "users"
        ]
    );
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

#[tokio::test]
async fn a_move_for_a_missing_game_is_refused_by_the_schema() {
    let host = host().await;
    let mut conn = host.db().pool().acquire().await.unwrap();
    let error = store::moves::insert(&mut conn, 999, 1, "d1-d3", None, NOW).await.unwrap_err();
    assert!(error.to_string().contains("FOREIGN KEY"), "{error}");
}

#[tokio::test]
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

#[tokio::test]
async fn a_game_can_be_given_its_own_thread() {
    let host: Host = host().await;
    let g = game(&host, "copenhagen").await;
    host.set_thread(g.id, 777, NOW).await.unwrap();
    assert_eq!(host.show(g.id).await.unwrap().place.thread, Some(777));
    assert_eq!(host.set_thread(999, 777, NOW).await.unwrap_err(), HostError::NoSuchGame(999));
}

#[tokio::test]
async fn a_database_that_cannot_grow_refuses_with_the_disk_full_sentence_and_recovers() {
    use sqlx::sqlite::SqliteConnectOptions;
    use tafl_bot::host::{StorageFault, User};
    use tafl_bot::present::Lang;
    use tafl_bot::present::text::host_error;
    // The bot's own pool with one connection, so that the page limit set below holds for every
    // query of the host.
    let options = SqliteConnectOptions::new().filename(temp_path("cannot-grow")).create_if_missing(true);
    let pool = store::pool_options().max_connections(1).connect_with(options).await.unwrap();
    let host = Host::new(Db::from_pool(pool.clone()).await.unwrap());
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
            .starts_with("Диск сервера заполнен, поэтому ничего не сохранено")
    );
    // Space returns: the next write succeeds on the same pool.
    sqlx::query("PRAGMA max_page_count = 1000000").execute(&pool).await.unwrap();
    host.remember_user(&User::new(5000, &long_name), NOW).await.expect("writes resume");
    host.remember_user(&alice(), NOW).await.unwrap();
}
