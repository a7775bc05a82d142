//! `tafl-bot migrate-db`: an `SQLite` database made by the real host copied into `PostgreSQL` and
//! compared row by row; ids continuing past the copied ones; refusals (a target holding data,
//! schemas that differ, a source from a newer binary) and failures in the middle (an insert that
//! fails, a count that differs, a kill) leaving the target as new; the binary's output lines
//! and one-sentence errors; and the speed on 2,000 games.
//!
//! Runs on the throwaway cluster of `tests/src/postgres.rs` (or `TEST_DATABASE_URL`); skipped
//! with one line when `PostgreSQL` is not installed, except under `CI=true`.

mod support;

// The throwaway cluster harness, which `support` includes for the tests on both backends.
use support::postgres;

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use sqlx::postgres::PgRow;
use sqlx::sqlite::SqliteRow;
use sqlx::{AssertSqlSafe, Column, Connection, Executor, PgConnection, Row, SqlitePool, TypeInfo, ValueRef};
use support::{NOW, PLACE, alice, bob, carol, find_game, game, request, temp_path};
use tafl_bot::cli::migrate_db::{MigrateDbError, copy};
use tafl_bot::host::search_pool::SearchPool;
use tafl_bot::host::{BoardStyle, Clock, Drawn, Host, OfferAction, ServerSettings, SideChoice, User, UserSettings};
use tafl_bot::store::Db;
use tafl_rules::{Reason, Variant};

const BIN: &str = env!("CARGO_BIN_EXE_tafl-bot");

/// A stored value, compared across the backends: `PostgreSQL`'s BOOLEAN is `SQLite`'s 0/1.
#[derive(Clone, Debug, PartialEq, PartialOrd)]
enum Cell {
    Null,
    Int(i64),
    Real(f64),
    Text(String),
    Blob(Vec<u8>),
}

fn sqlite_cell(row: &SqliteRow, i: usize) -> Cell {
    let raw = row.try_get_raw(i).unwrap();
    if raw.is_null() {
        return Cell::Null;
    }
    match raw.type_info().name() {
        "INTEGER" => Cell::Int(row.try_get_unchecked(i).unwrap()),
        "REAL" => Cell::Real(row.try_get_unchecked(i).unwrap()),
        "TEXT" => Cell::Text(row.try_get_unchecked(i).unwrap()),
        _ => Cell::Blob(row.try_get_unchecked(i).unwrap()),
    }
}

fn pg_cell(row: &PgRow, i: usize) -> Cell {
    let ty = row.column(i).type_info().name().to_owned();
    let cell = match ty.as_str() {
        "INT8" => row.try_get::<Option<i64>, _>(i).unwrap().map(Cell::Int),
        "BOOL" => row.try_get::<Option<bool>, _>(i).unwrap().map(|b| Cell::Int(i64::from(b))),
        "FLOAT8" => row.try_get::<Option<f64>, _>(i).unwrap().map(Cell::Real),
        "TEXT" => row.try_get::<Option<String>, _>(i).unwrap().map(Cell::Text),
        "BYTEA" => row.try_get::<Option<Vec<u8>>, _>(i).unwrap().map(Cell::Blob),
        other => panic!("a column of type {other} in the PostgreSQL schema"),
    };
    cell.unwrap_or(Cell::Null)
}

fn sorted(mut rows: Vec<Vec<Cell>>) -> Vec<Vec<Cell>> {
    rows.sort_by(|a, b| a.partial_cmp(b).expect("no NaN is stored"));
    rows
}

/// The tables of the source's schema, without the migrator's history, with their columns.
async fn sqlite_tables(pool: &SqlitePool) -> Vec<(String, Vec<String>)> {
    let names: Vec<String> = sqlx::query_scalar(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite%' AND name <> '_sqlx_migrations' ORDER BY name",
    )
    .fetch_all(pool)
    .await
    .unwrap();
    let mut tables = Vec::new();
    for name in names {
        let columns: Vec<String> =
            sqlx::query_scalar("SELECT name FROM pragma_table_info(?)").bind(&name).fetch_all(pool).await.unwrap();
        tables.push((name, columns));
    }
    tables
}

async fn sqlite_rows(pool: &SqlitePool, table: &str, columns: &[String]) -> Vec<Vec<Cell>> {
    let sql = format!("SELECT {} FROM {table}", columns.join(", "));
    let rows = sqlx::query(AssertSqlSafe(sql)).fetch_all(pool).await.unwrap();
    sorted(rows.iter().map(|row| (0..columns.len()).map(|i| sqlite_cell(row, i)).collect()).collect())
}

async fn pg_rows(conn: &mut PgConnection, table: &str, columns: &[String]) -> Vec<Vec<Cell>> {
    let sql = format!("SELECT {} FROM {table}", columns.join(", "));
    let rows = sqlx::query(AssertSqlSafe(sql)).fetch_all(conn).await.unwrap();
    sorted(rows.iter().map(|row| (0..columns.len()).map(|i| pg_cell(row, i)).collect()).collect())
}

/// Every table of the `PostgreSQL` database but the migrator's history, row by row, sorted.
async fn pg_dump(url: &str) -> Vec<(String, Vec<Vec<Cell>>)> {
    let mut conn = PgConnection::connect(url).await.unwrap();
    let tables: Vec<String> = sqlx::query_scalar(
        "SELECT table_name::text FROM information_schema.tables
         WHERE table_schema = current_schema() AND table_name <> '_sqlx_migrations' ORDER BY 1",
    )
    .fetch_all(&mut conn)
    .await
    .unwrap();
    let mut dump = Vec::new();
    for table in tables {
        let columns: Vec<String> = sqlx::query_scalar(
            "SELECT column_name::text FROM information_schema.columns
             WHERE table_schema = current_schema() AND table_name = $1 ORDER BY ordinal_position",
        )
        .bind(&table)
        .fetch_all(&mut conn)
        .await
        .unwrap();
        let rows = pg_rows(&mut conn, &table, &columns).await;
        dump.push((table, rows));
    }
    conn.close().await.unwrap();
    dump
}

/// What a freshly migrated target holds: the dump of a new database migrated the same way.
async fn fresh_dump() -> Vec<(String, Vec<Vec<Cell>>)> {
    let database = postgres::database().await.expect("the server runs");
    let pool = tafl_bot::store::postgres::open(&database.url, &tafl_bot::store::PoolSettings::default()).await.unwrap();
    pool.close().await;
    pg_dump(&database.url).await
}

/// Compares every table of both databases row by row; returns the rows per table.
async fn assert_same_rows(source: &Path, target: &str) -> Vec<(String, usize)> {
    let pool = SqlitePool::connect(&format!("sqlite://{}", source.display())).await.unwrap();
    let tables = sqlite_tables(&pool).await;
    let mut target_conn = PgConnection::connect(target).await.unwrap();
    let pg_tables: Vec<String> = sqlx::query_scalar(
        "SELECT table_name::text FROM information_schema.tables
         WHERE table_schema = current_schema() AND table_name <> '_sqlx_migrations' ORDER BY 1",
    )
    .fetch_all(&mut target_conn)
    .await
    .unwrap();
    assert_eq!(tables.iter().map(|(t, _)| t.clone()).collect::<Vec<_>>(), pg_tables, "the same tables");
    let mut counts = Vec::new();
    for (table, columns) in &tables {
        let expected = sqlite_rows(&pool, table, columns).await;
        let found = pg_rows(&mut target_conn, table, columns).await;
        assert_eq!(found.len(), expected.len(), "rows of {table}");
        for (f, e) in found.iter().zip(&expected) {
            assert_eq!(f, e, "a row of {table} (columns {columns:?})");
        }
        counts.push((table.clone(), expected.len()));
    }
    pool.close().await;
    target_conn.close().await.unwrap();
    counts
}

/// A database the way a bot leaves it after a while, made through the real host: finished
/// games (rated, with rating changes and reviews, one reviewed), an imported one, games in
/// progress with moves, a clock and an open offer, open and declined challenges, a posted
/// board and challenge card, outbox items delivered, pending, retried and given up, personal
/// and server settings, locales (a Russian server) and a server's name for a player, the
/// scheduler's tick, a server given the commands as its own, and an interaction taken on.
async fn realistic_database() -> PathBuf {
    let path = temp_path("migrate-source");
    let host = Host::new(Db::open_file(&path).await.unwrap());
    let dave = User::new(104, "Дмитрий \"dave\" O'Neil");
    // Finished games: a king capture and a resignation, both rated.
    for reason in [Reason::KingCaptured, Reason::KingEscaped] {
        let g = game(&host, "brandubh").await;
        for (n, mv) in find_game(Variant::Brandubh, reason, 200).iter().enumerate() {
            let user = if n % 2 == 0 { alice().id } else { bob().id };
            host.play(g.id, user, mv, None, NOW + 10 + n as i64).await.unwrap();
        }
    }
    let g = game(&host, "copenhagen").await;
    host.play(g.id, alice().id, "d1-d3", None, NOW + 20).await.unwrap();
    host.resign(g.id, bob().id, None, NOW + 30).await.unwrap();
    let record = host.export(g.id).await.unwrap();
    host.import(&record, &carol(), &dave, PLACE, NOW + 40).await.unwrap();
    // One review done, the others pending.
    let pending = host.pending_reviews().await.unwrap();
    assert!(pending.len() >= 2, "finished games ask for reviews");
    host.review_game(pending[0], &SearchPool::new(1), NOW + 50).await.unwrap();
    // Games in progress: one with an open draw offer and a posted board, one on a clock.
    let g = game(&host, "tablut").await;
    host.play(g.id, alice().id, "e2-f2", None, NOW + 60).await.unwrap_or_else(|_| {
        panic!("a legal tablut move");
    });
    host.draw(g.id, bob().id, OfferAction::Offer, None, NOW + 61).await.unwrap();
    host.replace_board(g.id, PLACE.channel, 900_001, Some(Drawn::at(1)), None, BoardStyle::default(), NOW + 62)
        .await
        .unwrap();
    let mut timed = request(&carol(), Some(&dave), "brandubh", SideChoice::Attackers);
    timed.clock = Some(Clock::per_move(24 * 3600).unwrap());
    let c = host.challenge(&timed, NOW + 70).await.unwrap();
    let g = host.accept(c.id, &dave, NOW + 71).await.unwrap().game;
    host.play(g.id, carol().id, "d2-c2", None, NOW + 72).await.unwrap();
    // Challenges: one open with its card, one declined.
    let open = host.challenge(&request(&alice(), None, "copenhagen", SideChoice::Random), NOW + 80).await.unwrap();
    host.set_challenge_message(open.id, 2, 900_002).await.unwrap();
    let declined =
        host.challenge(&request(&bob(), Some(&carol()), "tablut", SideChoice::Defenders), NOW + 81).await.unwrap();
    host.decline(declined.id, carol().id, NOW + 82).await.unwrap();
    // Settings and locales: a Russian server, personal settings with the digest on.
    let settings = UserSettings { dm_notifications: true, digest: true, ..UserSettings::default() };
    host.set_user_settings(&alice(), &settings, NOW + 90).await.unwrap();
    let server = ServerSettings { threads: true, channels: vec![2, 3], ..ServerSettings::default() };
    host.set_server_settings(PLACE.guild, &server, NOW + 91).await.unwrap();
    host.note_caller(&bob(), Some("ru"), Some(PLACE.guild), Some("ru"), &[(bob().id, Some("Боб"))], NOW + 92)
        .await
        .unwrap();
    host.set_server_language(PLACE.guild, Some("ru"), NOW + 93).await.unwrap();
    // The outbox: one lane delivered, one item retried, one given up, the rest pending.
    let heads = host.outbox_heads(NOW + 100).await.unwrap();
    assert!(heads.len() >= 3, "several lanes wait: {}", heads.len());
    host.delivered(heads[0].id, Some(900_003), NOW + 100).await.unwrap();
    host.trying(&heads[1], Some(r#"{"content":"your move"}"#), (NOW + 100) * 1000).await.unwrap();
    host.delivery_failed(heads[1].id, "500 Internal Server Error", (NOW + 100) * 1000 + 500).await.unwrap();
    host.give_up(heads[2].id, "403 Missing Permissions", NOW + 101).await.unwrap();
    // A lane claimed by the process that was delivering when the bot stopped.
    assert!(!host.claim_lanes((NOW + 102) * 1000, 1).await.unwrap().is_empty());
    host.tick(NOW + 110).await.unwrap();
    // A process serving shards records their ticks; one server removed the bot.
    host.clone().with_shards(0, 1, 2).tick(NOW + 111).await.unwrap();
    host.server_left(7, NOW + 112).await.unwrap();
    // The commands were registered in one server as its own (`DISCORD_GUILD_ID`).
    host.commands_registered_in(PLACE.guild, NOW + 113).await.unwrap();
    // A command taken on within the last hour (`interactions`).
    assert!(host.take_interaction(1_300_000_000_000_000_000, NOW + 114).await.unwrap());
    host.db().pool().close().await;
    path
}

/// Asserts the dump shows a target exactly as a fresh migration leaves it.
async fn assert_as_new(url: &str, fresh: &[(String, Vec<Vec<Cell>>)]) {
    assert_eq!(pg_dump(url).await, fresh, "the target is as a fresh migration left it");
}

#[tokio::test]
async fn every_table_is_copied_row_by_row_and_new_ids_follow_the_copied_ones() {
    let Some(target) = postgres::database().await else { return };
    let source = realistic_database().await;
    let from = format!("sqlite://{}", source.display());
    let mut progress = Vec::new();
    let report = copy(&from, &target.url, &mut |line| progress.push(line.to_owned())).await.unwrap();

    let counts = assert_same_rows(&source, &target.url).await;
    // The comparison means something only where there are rows: every table of the schema has
    // some in this database.
    for (table, rows) in &counts {
        assert!(*rows > 0, "the realistic database has rows in {table}");
    }
    let mut reported: Vec<(String, usize)> = report.tables.iter().map(|(t, n)| (t.clone(), *n as usize)).collect();
    reported.sort();
    assert_eq!(reported, counts, "the report gives every table's rows");
    assert_eq!(progress.len(), counts.len() + 1, "one progress line per table, then ANALYZE: {progress:?}");
    assert_eq!(progress.last().map(String::as_str), Some("analysing the copied tables"));
    let position = |table: &str| report.tables.iter().position(|(t, _)| t == table).unwrap();
    assert!(position("users") < position("games") && position("games") < position("moves"), "parents first");
    assert!(position("challenges") < position("challenge_messages"));
    let server: String = {
        let mut conn = PgConnection::connect(&target.url).await.unwrap();
        sqlx::query_scalar("SELECT language FROM servers WHERE id = $1")
            .bind(PLACE.guild)
            .fetch_one(&mut conn)
            .await
            .unwrap()
    };
    assert_eq!(server, "ru");

    // Every identity sequence continues past the copied ids.
    let mut conn = PgConnection::connect(&target.url).await.unwrap();
    // The copy leaves the planner statistics for the rows it loaded (ANALYZE in its transaction).
    for table in ["games", "moves", "outbox"] {
        let columns: i64 =
            sqlx::query_scalar("SELECT count(*) FROM pg_stats WHERE schemaname = current_schema() AND tablename = $1")
                .bind(table)
                .fetch_one(&mut conn)
                .await
                .unwrap();
        assert!(columns > 0, "{table} has planner statistics after the copy");
    }
    for table in ["games", "challenges", "offers", "outbox"] {
        let max: i64 = sqlx::query_scalar(AssertSqlSafe(format!("SELECT max(id) FROM {table}")))
            .fetch_one(&mut conn)
            .await
            .unwrap();
        let next: i64 =
            sqlx::query_scalar(AssertSqlSafe(format!("SELECT nextval(pg_get_serial_sequence('{table}', 'id'))")))
                .fetch_one(&mut conn)
                .await
                .unwrap();
        assert_eq!(next, max + 1, "the next id of {table}");
    }
    // And a game created the way the store creates one (the id left to the database) is new.
    let max_game: i64 = sqlx::query_scalar("SELECT max(id) FROM games").fetch_one(&mut conn).await.unwrap();
    let new_game: i64 = sqlx::query_scalar(
        "INSERT INTO games (guild_id, channel_id, variant, rules, attacker_id, defender_id, created_at, updated_at)
         VALUES (1, 2, 'brandubh', 'x', 101, 102, 0, 0) RETURNING id",
    )
    .fetch_one(&mut conn)
    .await
    .unwrap();
    assert!(new_game > max_game, "a new game gets id {new_game}, above the copied {max_game}");
    conn.close().await.unwrap();
}

#[tokio::test]
async fn a_target_that_holds_data_is_refused_and_left_unchanged() {
    let Some(target) = postgres::database().await else { return };
    let source = realistic_database().await;
    let from = format!("sqlite://{}", source.display());
    copy(&from, &target.url, &mut |_| {}).await.unwrap();
    let before = pg_dump(&target.url).await;
    let error = copy(&from, &target.url, &mut |_| {}).await.unwrap_err();
    assert!(matches!(error, MigrateDbError::TargetNotEmpty { .. }), "{error}");
    assert!(error.to_string().starts_with("the target database already holds data ("), "{error}");
    assert_eq!(pg_dump(&target.url).await, before, "the refused copy changed nothing");

    // One person more than a new database has is data too.
    let Some(other) = postgres::database().await else { return };
    let pool = tafl_bot::store::postgres::open(&other.url, &tafl_bot::store::PoolSettings::default()).await.unwrap();
    sqlx::query("INSERT INTO users (id, name, created_at, updated_at) VALUES (7, 'early', 0, 0)")
        .execute(&pool)
        .await
        .unwrap();
    pool.close().await;
    let before = pg_dump(&other.url).await;
    let error = copy(&from, &other.url, &mut |_| {}).await.unwrap_err();
    assert_eq!(
        error.to_string(),
        "the target database already holds data (6 rows in users where a new one has 5); migrate-db copies only \
         into a database that holds nothing but tafl-bot's schema, so that no ids are merged or duplicated: \
         create a new database and name it with --to"
    );
    assert_eq!(pg_dump(&other.url).await, before);

    // A bot player renamed by hand is not what a new database holds either.
    let Some(third) = postgres::database().await else { return };
    let pool = tafl_bot::store::postgres::open(&third.url, &tafl_bot::store::PoolSettings::default()).await.unwrap();
    sqlx::query("UPDATE users SET name = 'Robot' WHERE id = -1").execute(&pool).await.unwrap();
    pool.close().await;
    let error = copy(&from, &third.url, &mut |_| {}).await.unwrap_err();
    assert!(error.to_string().contains("users holds rows that a new database does not have"), "{error}");

    // Nor is one whose bot player was deleted: it holds less, not more, so not "data".
    let Some(fourth) = postgres::database().await else { return };
    let pool = tafl_bot::store::postgres::open(&fourth.url, &tafl_bot::store::PoolSettings::default()).await.unwrap();
    sqlx::query("DELETE FROM users WHERE id = -1").execute(&pool).await.unwrap();
    pool.close().await;
    let error = copy(&from, &fourth.url, &mut |_| {}).await.unwrap_err();
    assert_eq!(
        error.to_string(),
        "the target database is not a new one (users has 4 of the 5 rows a new one has); migrate-db copies only \
         into a database that holds nothing but tafl-bot's schema: create a new database and name it with --to"
    );
}

/// The target's tables, by name.
async fn pg_tables(url: &str) -> Vec<String> {
    let mut conn = PgConnection::connect(url).await.unwrap();
    let tables = sqlx::query_scalar(
        "SELECT table_name::text FROM information_schema.tables WHERE table_schema = current_schema() ORDER BY 1",
    )
    .fetch_all(&mut conn)
    .await
    .unwrap();
    conn.close().await.unwrap();
    tables
}

/// A database given by mistake is refused before anything is written to it: another
/// application's gets no tables of tafl-bot's, and an older tafl-bot's that holds data keeps its
/// schema, so that its bots still start.
#[tokio::test]
async fn a_refused_target_is_not_migrated_first() {
    let Some(target) = postgres::database().await else { return };
    let source = realistic_database().await;
    let from = format!("sqlite://{}", source.display());
    let mut conn = PgConnection::connect(&target.url).await.unwrap();
    conn.execute("CREATE TABLE invoices (id BIGINT PRIMARY KEY); INSERT INTO invoices VALUES (1)").await.unwrap();
    conn.close().await.unwrap();
    let error = copy(&from, &target.url, &mut |_| {}).await.unwrap_err();
    assert!(matches!(error, MigrateDbError::TargetForeign { .. }), "{error}");
    assert!(error.to_string().starts_with("the target database holds tables tafl-bot does not use (invoices)"));
    assert_eq!(pg_tables(&target.url).await, ["invoices"], "nothing was created");

    // Another application managed by sqlx (its migrations numbered by date): not a newer
    // tafl-bot, and left as it was.
    let Some(app) = postgres::database().await else { return };
    let mut conn = PgConnection::connect(&app.url).await.unwrap();
    conn.execute(
        "CREATE TABLE _sqlx_migrations (version BIGINT PRIMARY KEY, description TEXT NOT NULL, \
         installed_on TIMESTAMPTZ NOT NULL DEFAULT now(), success BOOLEAN NOT NULL, checksum BYTEA NOT NULL, \
         execution_time BIGINT NOT NULL); \
         INSERT INTO _sqlx_migrations VALUES (20240101000000, 'invoices', now(), TRUE, '\\x00', 1); \
         CREATE TABLE invoices (id BIGINT PRIMARY KEY)",
    )
    .await
    .unwrap();
    conn.close().await.unwrap();
    let error = copy(&from, &app.url, &mut |_| {}).await.unwrap_err();
    assert!(matches!(error, MigrateDbError::TargetForeign { .. }), "{error}");
    assert_eq!(pg_tables(&app.url).await, ["_sqlx_migrations", "invoices"], "nothing was created");

    // The last release's schema (every migration but the newest), with a person in it.
    let Some(older) = postgres::database().await else { return };
    let dir = temp_path("migrate-older").with_extension("d");
    std::fs::create_dir_all(&dir).unwrap();
    let all = Path::new(env!("CARGO_MANIFEST_DIR")).join("../migrations/postgres");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&all).unwrap().map(|e| e.unwrap().path()).collect();
    files.sort();
    files.pop();
    for file in &files {
        std::fs::copy(file, dir.join(file.file_name().unwrap())).unwrap();
    }
    let release = sqlx::migrate::Migrator::new(dir.as_path()).await.unwrap();
    let mut conn = PgConnection::connect(&older.url).await.unwrap();
    release.run(&mut conn).await.unwrap();
    conn.execute("INSERT INTO users (id, name, created_at, updated_at) VALUES (42, 'early', 0, 0)").await.unwrap();
    let error = copy(&from, &older.url, &mut |_| {}).await.unwrap_err();
    assert!(matches!(error, MigrateDbError::TargetNotEmpty { .. }), "{error}");
    release.run(&mut conn).await.expect("the older bots still open their database");
    conn.close().await.unwrap();

    // An older database that holds nothing yet is brought to this schema and filled.
    let Some(empty) = postgres::database().await else { return };
    let mut conn = PgConnection::connect(&empty.url).await.unwrap();
    release.run(&mut conn).await.unwrap();
    conn.close().await.unwrap();
    copy(&from, &empty.url, &mut |_| {}).await.expect("an empty older database is fine");
}

/// A trigger on the target that fails every insert into `table`.
async fn failing_inserts(url: &str, table: &str) {
    let pool = tafl_bot::store::postgres::open(url, &tafl_bot::store::PoolSettings::default()).await.unwrap();
    pool.execute(
        "CREATE FUNCTION refuse() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'refused by a test trigger'; END $$",
    )
    .await
    .unwrap();
    pool.execute(AssertSqlSafe(format!(
        "CREATE TRIGGER refuse BEFORE INSERT ON {table} FOR EACH ROW EXECUTE FUNCTION refuse()"
    )))
    .await
    .unwrap();
    pool.close().await;
}

#[tokio::test]
async fn a_failure_in_the_middle_leaves_the_target_as_new_and_a_retry_then_succeeds() {
    let Some(target) = postgres::database().await else { return };
    let fresh = fresh_dump().await;
    let source = realistic_database().await;
    let from = format!("sqlite://{}", source.display());
    // reviews comes after games, moves and most other tables: they are written when it fails.
    failing_inserts(&target.url, "reviews").await;
    let mut progress = Vec::new();
    let error = copy(&from, &target.url, &mut |line| progress.push(line.to_owned())).await.unwrap_err();
    assert!(progress.iter().any(|line| line.starts_with("copying moves")), "moves were copied first: {progress:?}");
    let message = error.to_string();
    assert!(message.starts_with("copying reviews failed, so nothing was written to the target: "), "{message}");
    assert!(message.contains("refused by a test trigger"), "{message}");
    assert_as_new(&target.url, &fresh).await;

    let mut conn = PgConnection::connect(&target.url).await.unwrap();
    conn.execute("DROP TRIGGER refuse ON reviews").await.unwrap();
    conn.close().await.unwrap();
    copy(&from, &target.url, &mut |_| {}).await.unwrap();
    assert_same_rows(&source, &target.url).await;
}

#[tokio::test]
async fn a_count_that_differs_after_the_copy_rolls_everything_back() {
    let Some(target) = postgres::database().await else { return };
    let fresh = fresh_dump().await;
    let source = realistic_database().await;
    // A trigger that silently drops the first move of every game: the inserts succeed, the
    // count of moves does not match.
    let mut conn = PgConnection::connect(&target.url).await.unwrap();
    tafl_bot::store::postgres::MIGRATOR.run(&mut conn).await.unwrap();
    conn.execute(
        "CREATE FUNCTION drop_first() RETURNS trigger LANGUAGE plpgsql AS $$
         BEGIN IF NEW.ply = 1 THEN RETURN NULL; END IF; RETURN NEW; END $$",
    )
    .await
    .unwrap();
    conn.execute("CREATE TRIGGER drop_first BEFORE INSERT ON moves FOR EACH ROW EXECUTE FUNCTION drop_first()")
        .await
        .unwrap();
    conn.close().await.unwrap();
    let error = copy(&format!("sqlite://{}", source.display()), &target.url, &mut |_| {}).await.unwrap_err();
    let MigrateDbError::CountMismatch { table, source_rows, target_rows } = &error else { panic!("{error}") };
    assert_eq!(table, "moves");
    assert!(target_rows < source_rows, "{error}");
    assert!(error.to_string().ends_with("; nothing was written to the target"), "{error}");
    assert_as_new(&target.url, &fresh).await;
}

#[tokio::test]
async fn a_value_the_target_column_cannot_hold_is_refused_by_row_and_column() {
    let Some(target) = postgres::database().await else { return };
    let fresh = fresh_dump().await;
    for (damage, expected) in [
        (
            "UPDATE games SET imported = 2 WHERE id = 3",
            "games row (id 3) cannot be copied: column imported holds 2 where a flag must be 0 or 1; nothing was \
             written to the target",
        ),
        (
            "UPDATE moves SET played_at = 'soon' WHERE game_id = 2 AND ply = 4",
            "moves row (game_id 2, ply 4) cannot be copied: column played_at holds the text \"soon\" where \
             PostgreSQL's column is bigint; nothing was written to the target",
        ),
    ] {
        let source = large_database(3, 5).await;
        let db = Db::open_file(&source).await.unwrap();
        sqlx::query(AssertSqlSafe(damage)).execute(db.pool()).await.unwrap();
        db.pool().close().await;
        let error = copy(&format!("sqlite://{}", source.display()), &target.url, &mut |_| {}).await.unwrap_err();
        assert_eq!(error.to_string(), expected);
        assert_as_new(&target.url, &fresh).await;
    }
}

#[tokio::test]
async fn schemas_that_differ_are_refused_naming_what_differs() {
    let Some(target) = postgres::database().await else { return };
    let fresh_target = {
        let mut conn = PgConnection::connect(&target.url).await.unwrap();
        tafl_bot::store::postgres::MIGRATOR.run(&mut conn).await.unwrap();
        conn.execute("ALTER TABLE games ADD COLUMN note TEXT").await.unwrap();
        conn.execute("CREATE TABLE tournaments (id BIGINT PRIMARY KEY)").await.unwrap();
        conn.close().await.unwrap();
        pg_dump(&target.url).await
    };
    let source = temp_path("migrate-schema");
    let db = Db::open_file(&source).await.unwrap();
    sqlx::query("CREATE TABLE local_notes (id INTEGER PRIMARY KEY)").execute(db.pool()).await.unwrap();
    db.pool().close().await;
    let error = copy(&format!("sqlite://{}", source.display()), &target.url, &mut |_| {}).await.unwrap_err();
    assert_eq!(
        error.to_string(),
        "the source and target schemas differ (table local_notes is only in the source; table tournaments is only \
         in the target; column games.note is only in the target), so the copy would leave data behind; both were \
         migrated by this tafl-bot, so one was changed by hand"
    );
    assert_eq!(pg_dump(&target.url).await, fresh_target);
}

#[tokio::test]
async fn a_source_from_a_newer_tafl_bot_is_refused_before_the_target_is_touched() {
    let Some(target) = postgres::database().await else { return };
    let source = source_with(
        "migrate-newer",
        &["INSERT INTO _sqlx_migrations (version, description, success, checksum, execution_time)
           VALUES (9999, 'from the future', TRUE, x'00', 0)"],
    )
    .await;
    let error = copy(&format!("sqlite://{}", source.display()), &target.url, &mut |_| {}).await.unwrap_err();
    assert_eq!(
        error.to_string(),
        format!(
            "the source database {} was written by a newer tafl-bot (schema version 9999; this one knows up to {}); \
             run migrate-db from that version",
            source.display(),
            tafl_bot::store::migrate::latest_version()
        )
    );
    assert!(pg_dump(&target.url).await.is_empty(), "the new target was not even migrated");
}

/// `setval`, which moves the id sequences past the copied ids at the end of the copy, needs UPDATE
/// on them: a role without it was told only after the whole copy, and everything rolled back.
/// It is told first, and a role with just the rights the copy needs, on a target an owner has
/// migrated, copies (the migrator, which would need CREATE on the schema, is not run then).
#[tokio::test]
async fn a_role_that_may_not_set_the_id_sequences_is_told_so_before_copying() {
    let Some(target) = postgres::database().await else { return };
    let pool = tafl_bot::store::postgres::open(&target.url, &tafl_bot::store::PoolSettings::default()).await.unwrap();
    pool.close().await;
    let Some(role) = target.role("GRANT SELECT, INSERT, DELETE ON ALL TABLES IN SCHEMA public TO ROLE").await else {
        return;
    };
    let fresh_target = pg_dump(&target.url).await;
    let source = realistic_database().await;
    let from = format!("sqlite://{}", source.display());
    let error = copy(&from, &role.url, &mut |_| {}).await.unwrap_err();
    assert_eq!(
        error.to_string(),
        format!(
            "the role {} may not set the target's id sequences challenges_id_seq, games_id_seq, offers_id_seq, \
             outbox_id_seq past the copied ids; grant it UPDATE on them, or run migrate-db as their owner",
            role.name
        )
    );
    assert_eq!(pg_dump(&target.url).await, fresh_target);

    let mut conn = PgConnection::connect(&target.url).await.unwrap();
    conn.execute(AssertSqlSafe(format!("GRANT UPDATE ON ALL SEQUENCES IN SCHEMA public TO {}", role.name)))
        .await
        .unwrap();
    conn.close().await.unwrap();
    copy(&from, &role.url, &mut |_| {}).await.expect("the rights the refusal asked for are enough");
    assert_same_rows(&source, &target.url).await;
    role.drop_role().await;
}

/// A target whose encoding cannot hold every name (LATIN1 failed at migration 28, on a "…" in
/// its comment; WIN1252 took everything until a name with an emoji) is refused by name before
/// anything is written to it.
#[tokio::test]
async fn a_target_not_encoded_in_utf8_is_refused_before_it_is_migrated() {
    for encoding in ["LATIN1", "WIN1252"] {
        let Some(target) = postgres::database_encoded(encoding).await else { return };
        let source = realistic_database().await;
        let error = copy(&format!("sqlite://{}", source.display()), &target.url, &mut |_| {}).await.unwrap_err();
        assert_eq!(
            error.to_string(),
            format!(
                "the PostgreSQL database {} is encoded as {encoding}, but tafl-bot keeps players' names in every \
                 script, which only UTF8 holds; create a database with CREATE DATABASE … ENCODING 'UTF8' TEMPLATE \
                 template0 (or createdb -E UTF8 -T template0 …) and use that one",
                target.name
            )
        );
        assert!(pg_dump(&target.url).await.is_empty(), "nothing was written to the {encoding} target");
    }
}

/// `information_schema` hides the tables a role may not use: the copy must say so rather than
/// call the schema changed by hand. And a role that may write but does not own the tables gets
/// no statistics from ANALYZE, which `PostgreSQL` only warns of: the copy says so.
#[tokio::test]
async fn a_role_without_rights_on_a_table_is_told_which_and_one_that_owns_none_is_told_analyse_is_skipped() {
    let Some(target) = postgres::database().await else { return };
    let pool = tafl_bot::store::postgres::open(&target.url, &tafl_bot::store::PoolSettings::default()).await.unwrap();
    pool.close().await;
    let all = "GRANT CREATE ON SCHEMA public TO ROLE; GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO ROLE; \
               GRANT USAGE, SELECT, UPDATE ON ALL SEQUENCES IN SCHEMA public TO ROLE";
    let Some(role) = target.role(&format!("{all}; REVOKE ALL ON reviews FROM ROLE")).await else {
        return;
    };
    let url = role.url.clone();
    let fresh_target = pg_dump(&target.url).await;
    let source = realistic_database().await;
    let from = format!("sqlite://{}", source.display());
    let error = copy(&from, &url, &mut |_| {}).await.unwrap_err();
    assert_eq!(
        error.to_string(),
        format!(
            "the role {} may not read, insert and delete rows of the target's tables reviews; grant it SELECT, \
             INSERT and DELETE on them, or run migrate-db as their owner",
            role.name
        )
    );
    assert_eq!(pg_dump(&target.url).await, fresh_target);

    let mut conn = PgConnection::connect(&target.url).await.unwrap();
    conn.execute(AssertSqlSafe(format!("GRANT SELECT, INSERT, UPDATE, DELETE ON reviews TO {}", role.name)))
        .await
        .unwrap();
    conn.close().await.unwrap();
    let mut said = Vec::new();
    copy(&from, &url, &mut |line| said.push(line.to_owned())).await.unwrap();
    let skipped = said.iter().find(|line| line.starts_with("not analysing ")).expect("the skipped ANALYZE is told");
    assert!(skipped.contains("games") && skipped.contains("run ANALYZE as the owner"), "{skipped}");
    assert_same_rows(&source, &target.url).await;
    role.drop_role().await;
}

/// A target whose history has tafl-bot's numbers with another file behind one was made by a
/// different build, and is refused in the bot's own words, not as another application's.
#[tokio::test]
async fn a_target_from_a_different_build_is_refused_as_such() {
    let Some(target) = postgres::database().await else { return };
    let pool = tafl_bot::store::postgres::open(&target.url, &tafl_bot::store::PoolSettings::default()).await.unwrap();
    sqlx::query("UPDATE _sqlx_migrations SET checksum = '\\x00' WHERE version = 5").execute(&pool).await.unwrap();
    pool.close().await;
    let (before, error) = refused_copy(&target.url).await;
    assert_eq!(
        error.to_string(),
        "cannot bring the target database to this tafl-bot's schema: migration 5 recorded in the database differs \
         from this tafl-bot's own; the database was made by a different build of tafl-bot, so run that build, or \
         restore a backup made before it"
    );
    assert_eq!(pg_dump(&target.url).await, before);
}

/// A realistic source copied into `target`, which refuses it: the target as it was, and why.
async fn refused_copy(target: &str) -> (Vec<(String, Vec<Vec<Cell>>)>, MigrateDbError) {
    let before = pg_dump(target).await;
    let source = realistic_database().await;
    let error = copy(&format!("sqlite://{}", source.display()), target, &mut |_| {}).await.unwrap_err();
    (before, error)
}

/// A source of this schema made by the bot, then changed by `statements`.
async fn source_with(name: &str, statements: &[&'static str]) -> PathBuf {
    let source = temp_path(name);
    let db = Db::open_file(&source).await.unwrap();
    for statement in statements {
        sqlx::query(*statement).execute(db.pool()).await.unwrap();
    }
    db.pool().close().await;
    source
}

/// A database as the first release left it: sqlx's migrator, migration 1 only, one user.
async fn first_release_database(name: &str) -> PathBuf {
    let source = temp_path(name);
    let options = sqlx::sqlite::SqliteConnectOptions::new().filename(&source).create_if_missing(true);
    let pool = SqlitePool::connect_with(options).await.unwrap();
    let mut first =
        sqlx::migrate::Migrator::new(Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../migrations"))).await.unwrap();
    first.migrations = std::borrow::Cow::Owned(first.migrations.iter().filter(|m| m.version == 1).cloned().collect());
    first.run(&pool).await.unwrap();
    sqlx::query("INSERT INTO users (id, name, created_at, updated_at) VALUES (101, 'alice', 1, 1)")
        .execute(&pool)
        .await
        .unwrap();
    pool.close().await;
    source
}

/// The files of the folder `file` is in, with their contents: the database, its -wal and -shm,
/// and any backup made beside it.
fn folder_of(file: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut files: Vec<(PathBuf, Vec<u8>)> = std::fs::read_dir(file.parent().unwrap())
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_none_or(|e| e != "lock"))
        .map(|path| {
            let bytes = std::fs::read(&path).unwrap();
            (path, bytes)
        })
        .collect();
    files.sort();
    files
}

/// An older tafl-bot's file stays as that tafl-bot left it when the copy fails: a mistyped or
/// unreachable --to must not leave the operator with a file their bot refuses as "newer".
#[tokio::test]
async fn a_failed_copy_leaves_an_older_source_as_it_was() {
    let source = first_release_database("migrate-old-failed").await;
    let before = folder_of(&source);
    // Port 1 never answers.
    let error = copy(&format!("sqlite://{}", source.display()), "postgres://tafl@127.0.0.1:1/tafl", &mut |_| {})
        .await
        .unwrap_err();
    assert!(matches!(error, MigrateDbError::TargetUnreachable { .. }), "{error}");
    assert_eq!(folder_of(&source), before, "the source's folder is byte for byte as it was, no backup beside it");
}

/// A bot running on the source would go on writing what the copy leaves behind.
#[tokio::test]
async fn a_source_a_bot_runs_on_is_refused() {
    let source = temp_path("migrate-running");
    Db::open_file(&source).await.unwrap().close().await;
    let running = tafl_bot::store::file::lock(&source, "tafl-bot run").unwrap().expect("the file is locked");
    let error = copy(&format!("sqlite://{}", source.display()), "postgres://tafl@127.0.0.1:1/tafl", &mut |_| {})
        .await
        .unwrap_err();
    let lock = tafl_bot::store::file::absolute(running.path());
    assert_eq!(
        error.to_string(),
        format!(
            "the source database {} is in use: tafl-bot run (pid {}) holds its lock {}; stop it first, or whatever \
             it writes after the copy would stay behind",
            source.display(),
            std::process::id(),
            lock.display()
        )
    );
    drop(running);
    let error = copy(&format!("sqlite://{}", source.display()), "postgres://tafl@127.0.0.1:1/tafl", &mut |_| {})
        .await
        .unwrap_err();
    assert!(matches!(error, MigrateDbError::TargetUnreachable { .. }), "once the bot stopped: {error}");
}

/// `SQLite` numbers past the largest id by picking free ones; a `PostgreSQL` sequence cannot.
#[tokio::test]
async fn an_id_at_the_largest_value_is_refused_naming_it() {
    let Some(target) = postgres::database().await else { return };
    let fresh_target = fresh_dump().await;
    let source = source_with(
        "migrate-max-id",
        &[
            "INSERT INTO users (id, name, created_at, updated_at) VALUES (101, 'alice', 1, 1), (102, 'bob', 1, 1)",
            "INSERT INTO games (id, guild_id, channel_id, variant, rules, attacker_id, defender_id, created_at, updated_at)
             VALUES (9223372036854775807, 1, 2, 'brandubh', 'x', 101, 102, 0, 0)",
        ],
    )
    .await;
    let error = copy(&format!("sqlite://{}", source.display()), &target.url, &mut |_| {}).await.unwrap_err();
    assert_eq!(
        error.to_string(),
        "games.id holds the id 9223372036854775807, the largest there is, so PostgreSQL could give no new row of \
         games an id after it; nothing was written to the target"
    );
    assert_eq!(pg_dump(&target.url).await, fresh_target);
}

#[tokio::test]
async fn a_target_from_a_newer_tafl_bot_is_refused() {
    let Some(target) = postgres::database().await else { return };
    let pool = tafl_bot::store::postgres::open(&target.url, &tafl_bot::store::PoolSettings::default()).await.unwrap();
    sqlx::query(
        "INSERT INTO _sqlx_migrations (version, description, success, checksum, execution_time)
         VALUES (9999, 'from the future', TRUE, '\\x00', 0)",
    )
    .execute(&pool)
    .await
    .unwrap();
    pool.close().await;
    let (before, error) = refused_copy(&target.url).await;
    assert_eq!(
        error.to_string(),
        format!(
            "the target database was written by a newer tafl-bot (schema version 9999; this one knows up to {}); \
             run migrate-db from that version",
            tafl_bot::store::postgres::latest_version()
        )
    );
    assert_eq!(pg_dump(&target.url).await, before);
}

#[tokio::test]
async fn an_older_source_is_copied_at_this_schema_and_left_as_it_was() {
    let Some(target) = postgres::database().await else { return };
    let source = first_release_database("migrate-old").await;
    let before = folder_of(&source);
    let report = copy(&format!("sqlite://{}", source.display()), &target.url, &mut |_| {}).await.unwrap();
    assert!(report.tables.iter().any(|(t, _)| t == "reviews"), "the copy has the later tables");
    let users = report.tables.iter().find(|(t, _)| t == "users").unwrap().1;
    assert_eq!(users, 6, "alice and the five bot players (migration 8)");
    assert_eq!(folder_of(&source), before, "the source's folder is byte for byte as it was, no backup beside it");
    // What the bot makes of the same file on its next start, compared row by row.
    let migrated = temp_path("migrate-old-as-the-bot-would");
    std::fs::copy(&source, &migrated).unwrap();
    Db::open_file(&migrated).await.unwrap().close().await;
    assert_same_rows(&migrated, &target.url).await;
}

/// A source of `games` finished games of `plies` moves each (plus their users), written with
/// plain SQL: the size of a busy server's database in seconds instead of minutes.
async fn large_database(games: i64, plies: i64) -> PathBuf {
    let path = temp_path("migrate-large");
    let db = Db::open_file(&path).await.unwrap();
    let mut tx = db.pool().begin().await.unwrap();
    tx.execute("INSERT INTO users (id, name, created_at, updated_at) VALUES (101, 'alice', 1, 1), (102, 'bob', 1, 1)")
        .await
        .unwrap();
    sqlx::query(
        "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
         INSERT INTO games (id, guild_id, channel_id, variant, rules, attacker_id, defender_id, status, reason,
                            loser_id, ply, created_at, updated_at, finished_at, movetext)
         SELECT i, 1, 2, 'copenhagen', 'rules ' || i, 101, 102, 'attackers_win', 'king_captured', 102, ?,
                i, i, i + 100, 'd1-d3 e5-e2 ' || i FROM n",
    )
    .bind(games)
    .bind(plies)
    .execute(&mut *tx)
    .await
    .unwrap();
    sqlx::query(
        "WITH RECURSIVE p(j) AS (SELECT 1 UNION ALL SELECT j + 1 FROM p WHERE j < ?)
         INSERT INTO moves (game_id, ply, notation, user_id, played_at)
         SELECT g.id, p.j, 'd' || p.j || '-e' || p.j, CASE p.j % 2 WHEN 1 THEN 101 ELSE 102 END, g.created_at + p.j
         FROM games g, p",
    )
    .bind(plies)
    .execute(&mut *tx)
    .await
    .unwrap();
    tx.commit().await.unwrap();
    db.pool().close().await;
    path
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bot_writing_during_the_copy_cannot_tear_the_copy() {
    let Some(target) = postgres::database().await else { return };
    let source = large_database(500, 40).await;
    // A bot still running on the source: each of its writes adds a move and raises the game's
    // ply in one transaction. Games are copied long before moves, so a copy that did not read
    // one snapshot would find more moves than plies.
    let db = Db::open_file(&source).await.unwrap();
    let writes = std::sync::Arc::new(std::sync::atomic::AtomicI64::new(0));
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let bot = {
        let (db, writes, stop) = (db.clone(), writes.clone(), stop.clone());
        tokio::spawn(async move {
            let mut n = 0i64;
            while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                let game = 1 + n % 500;
                let mut tx = db.begin_write().await.unwrap();
                sqlx::query(
                    "INSERT INTO moves (game_id, ply, notation, user_id, played_at)
                     SELECT id, ply + 1, 'a1-a2', 101, 0 FROM games WHERE id = ?",
                )
                .bind(game)
                .execute(&mut **tx)
                .await
                .unwrap();
                sqlx::query("UPDATE games SET ply = ply + 1 WHERE id = ?").bind(game).execute(&mut **tx).await.unwrap();
                tx.commit().await.unwrap();
                n += 1;
                writes.store(n, std::sync::atomic::Ordering::Relaxed);
            }
        })
    };
    let mut writes_at_start = None;
    let report = copy(&format!("sqlite://{}", source.display()), &target.url, &mut |line| {
        if line.starts_with("copying outbox") {
            writes_at_start = Some(writes.load(std::sync::atomic::Ordering::Relaxed));
        }
    })
    .await
    .unwrap();
    let writes_at_end = writes.load(std::sync::atomic::Ordering::Relaxed);
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    bot.await.unwrap();
    db.pool().close().await;
    let during = writes_at_end - writes_at_start.expect("the first table was announced");
    assert!(during > 0, "the bot wrote while the copy ran");
    let mut conn = PgConnection::connect(&target.url).await.unwrap();
    let torn: i64 = sqlx::query_scalar(
        "SELECT count(*) FROM games g WHERE g.ply <> (SELECT count(*) FROM moves m WHERE m.game_id = g.id)",
    )
    .fetch_one(&mut conn)
    .await
    .unwrap();
    assert_eq!(torn, 0, "every copied game's ply matches its copied moves");
    let moves: i64 = sqlx::query_scalar("SELECT count(*) FROM moves").fetch_one(&mut conn).await.unwrap();
    assert_eq!(moves, report.tables.iter().find(|(t, _)| t == "moves").unwrap().1);
    assert!(moves >= 500 * 40 && moves <= 500 * 40 + writes_at_end, "{moves} moves");
    conn.close().await.unwrap();
    eprintln!("migrate-db: {during} writes on the source during the copy; {moves} moves copied in one snapshot");
}

#[tokio::test]
async fn two_thousand_games_are_copied_and_the_speed_is_reported() {
    let Some(target) = postgres::database().await else { return };
    let source = large_database(2_000, 40).await;
    // When each table started, to show where the time goes.
    let mut started = Vec::new();
    let report = copy(&format!("sqlite://{}", source.display()), &target.url, &mut |line| {
        started.push((std::time::Instant::now(), line.to_owned()));
    })
    .await
    .unwrap();
    let done = std::time::Instant::now();
    for (n, (at, line)) in started.iter().enumerate() {
        let until = started.get(n + 1).map_or(done, |(next, _)| *next);
        eprintln!("migrate-db: {line} took {:.2} s", (until - *at).as_secs_f64());
    }
    let rows = |table: &str| report.tables.iter().find(|(t, _)| t == table).unwrap().1;
    assert_eq!(rows("games"), 2_000);
    assert_eq!(rows("moves"), 80_000);
    eprintln!(
        "migrate-db: {} rows (2,000 games, 80,000 moves) in {:.2} s: {:.0} rows/s (debug build; other builds may share the machine)",
        report.rows(),
        report.elapsed.as_secs_f64(),
        report.rows_per_second()
    );
    assert_same_rows(&source, &target.url).await;
}

// ----- the binary -----

fn run(args: &[&str]) -> Output {
    Command::new(BIN).args(args).stdin(Stdio::null()).output().expect("the tafl-bot binary runs")
}

/// The command failed the way every error must: status 1, nothing on stdout, one line on stderr
/// that starts with `error: `. Returns the sentence after `error: `.
fn one_sentence_error(output: &Output) -> String {
    let err = String::from_utf8(output.stderr.clone()).unwrap();
    assert_eq!(output.status.code(), Some(1), "exit status; stderr: {err}");
    assert!(output.stdout.is_empty(), "stdout: {}", String::from_utf8_lossy(&output.stdout));
    assert_eq!(err.lines().count(), 1, "one line on stderr: {err:?}");
    err.trim_end().strip_prefix("error: ").unwrap_or_else(|| panic!("starts with `error: `: {err:?}")).to_owned()
}

#[tokio::test]
async fn the_binary_copies_prints_a_table_and_refuses_a_second_copy() {
    let Some(target) = postgres::database().await else { return };
    let source = realistic_database().await;
    let from = format!("sqlite://{}", source.display());
    let output = run(&["migrate-db", "--from", &from, "--to", &target.url]);
    let stderr = String::from_utf8(output.stderr.clone()).unwrap();
    assert_eq!(output.status.code(), Some(0), "stderr: {stderr}");
    let counts = assert_same_rows(&source, &target.url).await;
    let stdout = String::from_utf8(output.stdout).unwrap();
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), counts.len() + 2, "a header, one line per table, the total: {stdout}");
    assert_eq!(lines[0].split_whitespace().collect::<Vec<_>>(), ["table", "rows"]);
    let mut printed: Vec<(String, usize)> = lines[1..=counts.len()]
        .iter()
        .map(|line| {
            let fields: Vec<&str> = line.split_whitespace().collect();
            assert_eq!(fields.len(), 2, "{line}");
            (fields[0].to_owned(), fields[1].parse().unwrap())
        })
        .collect();
    printed.sort();
    assert_eq!(printed, counts);
    let total: usize = counts.iter().map(|(_, n)| n).sum();
    let last = lines.last().unwrap();
    assert!(last.starts_with(&format!("copied {total} rows in ")), "{last}");
    assert!(last.ends_with(" rows/s); every table's count matches the source"), "{last}");
    assert_eq!(stderr.lines().count(), counts.len() + 1, "one progress line per table, then ANALYZE: {stderr}");
    assert!(stderr.lines().any(|line| line.starts_with("copying games: ")), "{stderr}");
    // "copying scheduler: 1 row", never "1 rows".
    for line in stderr.lines().filter(|line| line.starts_with("copying ")) {
        let (n, noun) = line.rsplit_once(": ").and_then(|(_, said)| said.split_once(' ')).unwrap();
        assert_eq!(noun, if n == "1" { "row" } else { "rows" }, "{line}");
    }
    assert!(stderr.lines().any(|line| line.ends_with(": 1 row")), "some table has one row: {stderr}");

    let again = run(&["migrate-db", "--from", &from, "--to", &target.url]);
    let error = one_sentence_error(&again);
    assert!(error.starts_with("the target database already holds data ("), "{error}");
}

#[tokio::test]
async fn bad_inputs_are_one_sentence_each_and_touch_nothing() {
    let Some(target) = postgres::database().await else { return };
    let fresh = fresh_dump().await;
    // A migrated target, so that "touch nothing" can be checked against a new database.
    tafl_bot::store::postgres::open(&target.url, &tafl_bot::store::PoolSettings::default())
        .await
        .unwrap()
        .close()
        .await;
    let dir = temp_path("migrate-inputs");
    let missing = dir.with_extension("missing");
    let text = dir.with_extension("txt");
    std::fs::write(&text, "these are not the tables you are looking for\n").unwrap();
    let directory = dir.with_extension("d");
    std::fs::create_dir_all(&directory).unwrap();
    let empty = dir.with_extension("empty");
    std::fs::write(&empty, "").unwrap();
    let foreign = dir.with_extension("foreign.db");
    {
        let pool = SqlitePool::connect(&format!("sqlite://{}?mode=rwc", foreign.display())).await.unwrap();
        pool.execute("CREATE TABLE accounts (id INTEGER PRIMARY KEY)").await.unwrap();
        pool.close().await;
    }
    // Another sqlx program's: its history, numbered by date, is no newer tafl-bot's.
    let other_history = dir.with_extension("other-history.db");
    {
        let pool = SqlitePool::connect(&format!("sqlite://{}?mode=rwc", other_history.display())).await.unwrap();
        pool.execute(
            "CREATE TABLE _sqlx_migrations (version BIGINT PRIMARY KEY, description TEXT NOT NULL, \
             installed_on TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP, success BOOLEAN NOT NULL, \
             checksum BLOB NOT NULL, execution_time BIGINT NOT NULL); \
             INSERT INTO _sqlx_migrations (version, description, success, checksum, execution_time) \
             VALUES (20240105093000, 'create accounts', TRUE, x'0102', 1); \
             CREATE TABLE accounts (id INTEGER PRIMARY KEY)",
        )
        .await
        .unwrap();
        pool.close().await;
    }
    let good = realistic_database().await;
    let good_url = format!("sqlite://{}", good.display());
    let closed_port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let unreachable = format!("postgres://tafl@127.0.0.1:{closed_port}/tafl");
    let cases: Vec<(String, String, String)> = vec![
        (
            format!("sqlite://{}", missing.display()),
            target.url.clone(),
            format!("the source database {} does not exist", missing.display()),
        ),
        (
            format!("sqlite://{}", text.display()),
            target.url.clone(),
            format!("the source {} is not an SQLite database", text.display()),
        ),
        (
            format!("sqlite://{}", empty.display()),
            target.url.clone(),
            format!("the source {} is not an SQLite database", empty.display()),
        ),
        (
            format!("sqlite://{}", foreign.display()),
            target.url.clone(),
            format!(
                "the source {} is an SQLite database but not tafl-bot's (it has no _sqlx_migrations table)",
                foreign.display()
            ),
        ),
        (
            format!("sqlite://{}", other_history.display()),
            target.url.clone(),
            format!(
                "the source {} is an SQLite database but not tafl-bot's (its _sqlx_migrations table records another \
                 program's migrations)",
                other_history.display()
            ),
        ),
        (
            good.display().to_string(),
            target.url.clone(),
            format!(
                "--from must name an SQLite database such as sqlite://tafl.db, not {:?}",
                good.display().to_string()
            ),
        ),
        (
            good_url.clone(),
            "sqlite://other.db".to_owned(),
            "--to must name a PostgreSQL database such as postgres://user@host/tafl, not a \"sqlite\" URL".to_owned(),
        ),
        (good_url.clone(), unreachable, "cannot connect to the PostgreSQL database of --to: ".to_owned()),
        (
            good_url.clone(),
            format!("{}_missing", target.url),
            format!(
                "cannot connect to the PostgreSQL database of --to: error returned from database: database \"{}_missing\" does not exist",
                target.name
            ),
        ),
        (
            format!("sqlite://{}", directory.display()),
            target.url.clone(),
            format!("cannot read the source database {}: it is a directory", directory.display()),
        ),
    ];
    for (from, to, expected) in cases {
        let error = one_sentence_error(&run(&["migrate-db", "--from", &from, "--to", &to]));
        assert!(error.starts_with(&expected), "for --from {from} --to {to}:\n  {error}\n  expected {expected}");
    }
    assert!(!missing.exists(), "a missing source is not created");
    assert_eq!(std::fs::metadata(&empty).unwrap().len(), 0, "an empty file is left alone");
    assert_as_new(&target.url, &fresh).await;
    let error = one_sentence_error(&run(&["migrate-db", "--from", &good_url]));
    assert!(error.contains("--to"), "{error}");
}

#[tokio::test]
async fn a_copy_killed_in_the_middle_leaves_the_target_as_new() {
    let Some(target) = postgres::database().await else { return };
    let fresh = fresh_dump().await;
    let source = large_database(2_000, 60).await;
    let mut child = Command::new(BIN)
        .args(["migrate-db", "--from", &format!("sqlite://{}", source.display()), "--to", &target.url])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let stderr = child.stderr.take().unwrap();
    let mut lines = BufReader::new(stderr).lines();
    // Killed as soon as it starts on the 120,000 moves: games and users are written by then.
    let mut seen = Vec::new();
    for line in lines.by_ref() {
        let line = line.unwrap();
        let moves = line.starts_with("copying moves");
        seen.push(line);
        if moves {
            break;
        }
    }
    child.kill().unwrap();
    let output = child.wait_with_output().unwrap();
    assert!(seen.iter().any(|l| l.starts_with("copying games")), "games came before moves: {seen:?}");
    assert!(output.stdout.is_empty(), "it was killed before it committed: {}", String::from_utf8_lossy(&output.stdout));
    // The server notices the closed connection and rolls back; nothing was ever visible.
    assert_as_new(&target.url, &fresh).await;
    // And the target takes a full copy afterwards.
    let output = run(&["migrate-db", "--from", &format!("sqlite://{}", source.display()), "--to", &target.url]);
    assert_eq!(output.status.code(), Some(0), "{}", String::from_utf8_lossy(&output.stderr));
}

/// The names of the migrate-db temporary folders in `tmp`.
fn scratches_in(tmp: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(tmp)
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name.starts_with("tafl-bot-migrate-db-"))
        .collect();
    names.sort();
    names
}

/// A migrate-db killed with `kill -9` while it copies an older source cannot remove its
/// temporary copy of every game and name; the next one does, and leaves the folders of
/// migrate-dbs still running (locked) or just starting (no owner line yet).
#[tokio::test]
async fn a_killed_copy_leaves_its_temporary_copy_and_the_next_one_removes_it() {
    let Some(target) = postgres::database().await else { return };
    let source = first_release_database("migrate-killed-scratch").await;
    let from = format!("sqlite://{}", source.display());
    let tmp = source.with_extension("tmp");
    std::fs::create_dir(&tmp).unwrap();
    // Another migrate-db's folder, running (its owner file locked by this test) or starting.
    let running = tmp.join("tafl-bot-migrate-db-running");
    std::fs::create_dir(&running).unwrap();
    std::fs::write(running.join("owner"), "tafl-bot migrate-db (pid 1)\n").unwrap();
    let held = std::fs::File::open(running.join("owner")).unwrap();
    held.lock().unwrap();
    let starting = tmp.join("tafl-bot-migrate-db-starting");
    std::fs::create_dir(&starting).unwrap();
    std::fs::write(starting.join("owner"), "").unwrap();
    // What anyone may put in a shared temporary folder under the name: a FIFO for the owner file
    // (an open of it blocked the sweep for good), a link to /dev/zero (read without end), and a
    // link to a folder elsewhere. All are left, and so is what they point to.
    let fifo = tmp.join("tafl-bot-migrate-db-fifo");
    std::fs::create_dir(&fifo).unwrap();
    assert!(Command::new("mkfifo").arg(fifo.join("owner")).status().unwrap().success());
    let zero = tmp.join("tafl-bot-migrate-db-zero");
    std::fs::create_dir(&zero).unwrap();
    std::os::unix::fs::symlink("/dev/zero", zero.join("owner")).unwrap();
    let elsewhere = source.with_extension("elsewhere");
    std::fs::create_dir(&elsewhere).unwrap();
    std::fs::write(elsewhere.join("owner"), "tafl-bot migrate-db (pid 1)\n").unwrap();
    std::os::unix::fs::symlink(&elsewhere, tmp.join("tafl-bot-migrate-db-link")).unwrap();

    let planted = ["running", "starting", "fifo", "zero", "link"];

    // The target migrated, and one of its tables locked: the copy waits there, its copy made.
    Db::open(&target.url).await.unwrap().close().await;
    let mut blocker = PgConnection::connect(&target.url).await.unwrap();
    blocker.execute("BEGIN; LOCK TABLE games IN ACCESS EXCLUSIVE MODE").await.unwrap();
    // A copy from the older source with `tmp` as its temporary folder, its stderr piped.
    let start_copy = || {
        Command::new(BIN)
            .args(["migrate-db", "--from", &from, "--to", &target.url])
            .env("TMPDIR", &tmp)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap()
    };
    let mut child = start_copy();
    let deadline = std::time::Instant::now() + std::time::Duration::from_mins(1);
    let killed = loop {
        let made: Vec<String> =
            scratches_in(&tmp).into_iter().filter(|name| !planted.iter().any(|p| name.ends_with(p))).collect();
        let ready = made.first().is_some_and(|name| tmp.join(name).join("source.db").is_file());
        if ready {
            // Give VACUUM INTO time to finish and the copy to reach the target's lock.
            std::thread::sleep(std::time::Duration::from_millis(500));
            child.kill().unwrap();
            child.wait().unwrap();
            break made[0].clone();
        }
        assert!(std::time::Instant::now() < deadline, "no temporary copy was made in {}", tmp.display());
        assert!(child.try_wait().unwrap().is_none(), "migrate-db ended before it was killed");
        std::thread::sleep(std::time::Duration::from_millis(20));
    };
    blocker.execute("ROLLBACK").await.unwrap();
    assert!(scratches_in(&tmp).contains(&killed), "kill -9 leaves the copy behind");

    let mut second = start_copy();
    let deadline = std::time::Instant::now() + std::time::Duration::from_mins(1);
    while second.try_wait().unwrap().is_none() {
        if std::time::Instant::now() > deadline {
            second.kill().unwrap();
            panic!("the second migrate-db did not finish: held up by what it found in TMPDIR");
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    let output = second.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    let removed = format!("removed {}, the temporary copy", tmp.join(&killed).display());
    assert!(stderr.contains(&removed), "{stderr}");
    assert_eq!(
        scratches_in(&tmp),
        [
            "tafl-bot-migrate-db-fifo",
            "tafl-bot-migrate-db-link",
            "tafl-bot-migrate-db-running",
            "tafl-bot-migrate-db-starting",
            "tafl-bot-migrate-db-zero"
        ],
        "the killed one's folder and the second copy's own are gone; the others are left"
    );
    assert!(elsewhere.join("owner").is_file(), "what a link points to is left");
    drop(held);
}
