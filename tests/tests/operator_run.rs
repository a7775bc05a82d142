//! `tafl-bot run` as an operator runs it, against the fake Discord: how it stops, what it says
//! when a start-up step goes wrong, and what it leaves registered.

#![cfg(unix)]

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

use serde_json::json;
use tafl_e2e::fake_discord::FakeDiscord;
use tafl_e2e::harness::{ALICE, BOB, BotProcess, CHANNEL, Table, exit_within, temp_dir};
use tafl_rules::Variant;

const BINARY: &str = env!("CARGO_BIN_EXE_tafl-bot-e2e");

/// SIGTERM on `PostgreSQL` while a lane is being delivered (its Discord request hangs): the
/// process exits 0 within seconds and gives back its claim on the lane. Its successor has a new
/// process id, so a claim left behind made the lane's board wait for the lease (30 s): a routine
/// restart (an upgrade, `systemctl restart`) delayed every board in flight as a crash would.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigterm_on_postgres_gives_back_the_lanes_it_holds() {
    let Some(db) = tafl_e2e::postgres::database().await else { return };
    let fake = FakeDiscord::start_tls().await;
    let dir = temp_dir("operator-pg-sigterm");
    let env = [("DATABASE_URL", db.url.as_str())];
    let bot = BotProcess::spawn_with(Path::new(BINARY), &fake, &dir, &env);
    fake.wait_until_ready().await;
    let table = Table { fake: &fake, channel: CHANNEL, locale: "en-US" };
    let challenge = table.command(
        ALICE,
        "challenge",
        &json!({ "opponent": BOB.id, "variant": Variant::Brandubh.id(), "side": 0 }),
        &[BOB],
    );
    let card = fake.wait_for_original(&challenge).await;
    let accept = card.button_labels().into_iter().find(|(label, _)| label == "Accept").expect("Accept").1;
    let click = table.click(BOB, &card, &accept, None);
    let board = fake.wait_for_answer(&click).await;
    tokio::time::sleep(Duration::from_secs(2)).await;
    // Every post of the delivery is slow from now on: the notice after the move holds the lane.
    fake.fail_next(
        |r| r.method == "POST" && r.path.contains("/channels/"),
        1,
        tafl_e2e::fake_discord::Fault::Slow { millis: 60_000 },
    );
    let played = table.command(ALICE, "move", &json!({ "notation": "d2-c2" }), &[]);
    let _ = fake.wait_for_original(&played).await;
    fake.wait_for_slow_requests(1).await;
    let pid = bot.id();
    let started = std::time::Instant::now();
    let killed = Command::new("kill").args(["-TERM", &pid.to_string()]).status().unwrap();
    assert!(killed.success());
    let mut bot = bot;
    let status = tokio::task::spawn_blocking(move || (bot.wait_for_exit(Duration::from_secs(15)), bot)).await.unwrap();
    let took = started.elapsed();
    let mut conn = <sqlx::PgConnection as sqlx::Connection>::connect(&db.url).await.unwrap();
    let held: Vec<(String, i64)> = sqlx::query_as(
        "SELECT lane, lease_until_ms - (extract(epoch FROM clock_timestamp()) * 1000)::BIGINT FROM outbox_claims \
         WHERE claimed_by LIKE $1 AND lease_until_ms > (extract(epoch FROM clock_timestamp()) * 1000)::BIGINT",
    )
    .bind(format!("pid{pid}-%"))
    .fetch_all(&mut conn)
    .await
    .unwrap();
    eprintln!("exit {:?} after {took:?}; board {}", status.0, board.id);
    assert!(status.0.is_some_and(|s| s.success()), "exit status {:?}", status.0);
    assert!(held.is_empty(), "after a clean stop the process still holds lanes (lane, ms of lease left): {held:?}");
}

/// SIGTERM while the database is being opened, here a `PostgreSQL` server that accepted the
/// connection but does not answer: the process stops at once, with success (the stop was asked
/// for, and nothing failed), rather than when the connection gives up 30 s later.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigterm_while_the_database_does_not_answer_stops_run_within_seconds() {
    let silent = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = silent.local_addr().unwrap();
    let _held = tokio::spawn(async move {
        let mut kept = Vec::new();
        while let Ok((stream, _)) = silent.accept().await {
            kept.push(stream);
        }
    });
    let dir = temp_dir("operator-silent-db");
    let child = Command::new(BINARY)
        .arg("run")
        .current_dir(&dir)
        .env("DISCORD_TOKEN", "t")
        .env("DATABASE_URL", format!("postgres://tafl@{addr}/tafl"))
        .env("DISCORD_API_BASE", "http://127.0.0.1:1")
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    tokio::time::sleep(Duration::from_secs(1)).await;
    let _ = Command::new("kill").args(["-TERM", &child.id().to_string()]).status();
    let started = std::time::Instant::now();
    let (status, stderr) =
        tokio::task::spawn_blocking(move || exit_within(child, Duration::from_secs(40))).await.unwrap();
    let took = started.elapsed();
    assert!(took < Duration::from_secs(5), "stopped {took:?} after SIGTERM, status {status:?}: {stderr}");
    assert!(status.is_some_and(|s| s.success()), "status {status:?}: {stderr}");
}

/// README: "while trying the bot out, set `DISCORD_GUILD_ID` to your server's id to register
/// them there instantly". Unset afterwards (the bot goes global), the commands registered in
/// that server are cleared there: left, its members saw `/tafl` twice, and after an upgrade the
/// server's copy was the old one (its options no longer match: "unknown command").
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn going_global_after_trying_the_bot_in_one_server_removes_that_servers_commands() {
    use tafl_e2e::fake_discord::GUILD;
    use tafl_e2e::harness::TestBot;
    let fake = FakeDiscord::start().await;
    let dir = temp_dir("operator-guild-then-global");
    let bot = TestBot::start_in(&fake, &dir, Some(GUILD));
    fake.wait_until_ready().await;
    bot.stop().await;
    let before = fake.requests().len();
    let bot = TestBot::start(&fake, &dir);
    fake.wait_for("the global registration", |r| {
        r.method == "PUT" && r.path.ends_with("/applications/1100000000000000001/commands")
    })
    .await;
    tokio::time::sleep(Duration::from_secs(1)).await;
    bot.stop().await;
    let guild_path = format!("/guilds/{GUILD}/commands");
    let cleared = fake.requests()[before..].iter().any(|r| {
        (r.method == "PUT"
            && r.path.ends_with(&guild_path)
            && r.json.as_ref().is_some_and(|j| j.as_array().is_some_and(Vec::is_empty)))
            || (r.method == "DELETE" && r.path.contains(&guild_path))
    });
    assert!(cleared, "the commands registered in server {GUILD} were left there beside the global ones");
}

/// `DISCORD_GUILD_ID` naming a server the bot is not in (a typo, or the id of a channel or a
/// user copied instead): Discord answers 403, which no retry changes, and the one sentence the
/// operator reads names the likely cause and the variable, instead of blaming the token after
/// five tries.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_guild_id_the_bot_is_not_in_is_named_as_the_cause() {
    let fake = FakeDiscord::start().await;
    fake.fail_next(
        |r| r.method == "PUT" && r.path.contains("/guilds/"),
        usize::MAX,
        tafl_e2e::fake_discord::Fault::Refused { status: 403, code: 50_001 },
    );
    let dir = temp_dir("operator-wrong-guild");
    let child = Command::new(BINARY)
        .arg("run")
        .env("DISCORD_TOKEN", "t")
        .env("DATABASE_URL", format!("sqlite://{}", dir.join("tafl.db").display()))
        .env("DISCORD_API_BASE", fake.api_base())
        .env("DISCORD_GUILD_ID", "123456789012345678")
        .env_remove("DISCORD_API_RESOLVE")
        // The default filter, as an operator has it: the test looks for an ERROR line.
        .env_remove("RUST_LOG")
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let (status, stderr) =
        tokio::task::spawn_blocking(move || exit_within(child, Duration::from_secs(30))).await.unwrap();
    let last = stderr.lines().last().unwrap_or_default().to_owned();
    assert_eq!(status.and_then(|s| s.code()), Some(1), "{stderr}");
    assert!(last.contains("DISCORD_GUILD_ID"), "the sentence does not name DISCORD_GUILD_ID: {last}");
    assert!(last.contains("the bot is not in that server"), "{last}");
    assert!(!last.contains("check the token"), "{last}");
    assert!(!stderr.contains("ERROR"), "a second error line: {stderr}");
    let tries = fake.requests().iter().filter(|r| r.method == "PUT" && r.path.contains("/guilds/")).count();
    assert_eq!(tries, 1, "a refusal is not tried again");
}

/// SIGTERM while the migrations wait for a lock another session holds on their table (another
/// process migrating, or an operator's open transaction): the process stops at once, with
/// success, instead of waiting as long as the lock is held.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigterm_while_the_migrations_wait_for_a_lock_stops_run_within_seconds() {
    use sqlx::Connection;
    let Some(db) = tafl_e2e::postgres::database().await else { return };
    tafl_bot::store::Db::open(&db.url).await.expect("the database migrates").close().await;
    let mut holder = sqlx::PgConnection::connect(&db.url).await.unwrap();
    sqlx::query("BEGIN").execute(&mut holder).await.unwrap();
    sqlx::query("LOCK TABLE _sqlx_migrations IN ACCESS EXCLUSIVE MODE").execute(&mut holder).await.unwrap();
    let dir = temp_dir("operator-migrations-locked");
    let child = Command::new(BINARY)
        .arg("run")
        .current_dir(&dir)
        .env("DISCORD_TOKEN", "t")
        .env("DATABASE_URL", &db.url)
        .env("DISCORD_API_BASE", "http://127.0.0.1:1")
        .env_remove("DISCORD_API_RESOLVE")
        .env_remove("DISCORD_GUILD_ID")
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Until the bot's migration waits for the lock.
    let mut watcher = sqlx::PgConnection::connect(&db.url).await.unwrap();
    let deadline = std::time::Instant::now() + Duration::from_secs(20);
    loop {
        let waiting: i64 = sqlx::query_scalar("SELECT count(*) FROM pg_locks WHERE NOT granted")
            .fetch_one(&mut watcher)
            .await
            .unwrap();
        if waiting > 0 {
            break;
        }
        assert!(std::time::Instant::now() < deadline, "the bot never waited for the migrations' lock");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let _ = Command::new("kill").args(["-TERM", &child.id().to_string()]).status();
    let started = std::time::Instant::now();
    let (status, stderr) =
        tokio::task::spawn_blocking(move || exit_within(child, Duration::from_secs(40))).await.unwrap();
    let took = started.elapsed();
    let _ = holder.close().await;
    let _ = watcher.close().await;
    assert!(took < Duration::from_secs(5), "stopped {took:?} after SIGTERM, status {status:?}: {stderr}");
    assert!(status.is_some_and(|s| s.success()), "status {status:?}: {stderr}");
}

/// `DISCORD_GUILD_ID` changed from one server to another: the first server's commands are
/// cleared once, and a later global start clears only the second's.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn moving_the_commands_to_another_server_clears_them_in_the_first_once() {
    use tafl_e2e::fake_discord::{GUILD, Recorded};
    use tafl_e2e::harness::TestBot;
    const OTHER: u64 = 1_600_000_000_000_000_077;
    // A PUT of no commands to `guild`'s own.
    let clearing = |guild: u64| {
        let path = format!("/guilds/{guild}/commands");
        move |r: &Recorded| {
            r.method == "PUT"
                && r.path.ends_with(&path)
                && r.json.as_ref().is_some_and(|j| j.as_array().is_some_and(Vec::is_empty))
        }
    };
    let registration = |guild: u64| {
        let path = format!("/guilds/{guild}/commands");
        move |r: &Recorded| r.method == "PUT" && r.path.ends_with(&path) && !clearing(guild)(r)
    };
    let cleared_in = |fake: &FakeDiscord, from: usize, guild: u64| {
        fake.requests()[from..].iter().filter(|r| clearing(guild)(r)).count()
    };
    let fake = FakeDiscord::start().await;
    let dir = temp_dir("operator-guild-to-guild");
    let bot = TestBot::start_in(&fake, &dir, Some(GUILD));
    fake.wait_until_ready().await;
    bot.stop().await;
    // Registered in the other server: the first one's commands are cleared.
    let before = fake.requests().len();
    let bot = TestBot::start_in(&fake, &dir, Some(OTHER));
    fake.wait_for("the clearing", clearing(GUILD)).await;
    bot.stop().await;
    assert_eq!(cleared_in(&fake, before, GUILD), 1);
    assert_eq!(cleared_in(&fake, before, OTHER), 0, "the server registered in keeps its commands");
    // The same server again: nothing is left to clear.
    let before = fake.requests().len();
    let bot = TestBot::start_in(&fake, &dir, Some(OTHER));
    let deadline = std::time::Instant::now() + Duration::from_secs(20);
    while !fake.requests()[before..].iter().any(|r| registration(OTHER)(r)) {
        assert!(std::time::Instant::now() < deadline, "the commands were never registered again");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    // What would clear the first server comes right after the registration.
    tokio::time::sleep(Duration::from_millis(500)).await;
    bot.stop().await;
    assert_eq!(cleared_in(&fake, before, GUILD), 0, "cleared once, then forgotten");
    // Global: only the other server's commands are left to clear.
    let before = fake.requests().len();
    let bot = TestBot::start(&fake, &dir);
    fake.wait_for("the clearing", clearing(OTHER)).await;
    bot.stop().await;
    assert_eq!(cleared_in(&fake, before, OTHER), 1);
    assert_eq!(cleared_in(&fake, before, GUILD), 0);
}

/// `RUST_LOG=` (an environment file's empty line) is "not set": the bot's own info lines are
/// logged as by default. Read as a filter, an empty value silenced everything but errors.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_empty_rust_log_logs_as_by_default() {
    let fake = FakeDiscord::start().await;
    let dir = temp_dir("operator-empty-rust-log");
    let child = Command::new(BINARY)
        .arg("run")
        .env("DISCORD_TOKEN", "t")
        .env("DATABASE_URL", format!("sqlite://{}", dir.join("tafl.db").display()))
        .env("DISCORD_API_BASE", fake.api_base())
        .env_remove("DISCORD_API_RESOLVE")
        .env_remove("DISCORD_GUILD_ID")
        .env("RUST_LOG", "")
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    fake.wait_until_ready().await;
    let _ = Command::new("kill").args(["-TERM", &child.id().to_string()]).status();
    let (status, stderr) =
        tokio::task::spawn_blocking(move || exit_within(child, Duration::from_secs(15))).await.unwrap();
    assert!(status.is_some_and(|s| s.success()), "status {status:?}: {stderr}");
    assert!(stderr.contains("commands registered"), "no info line: {stderr}");
    assert!(stderr.contains("shutting down"), "no info line: {stderr}");
}

/// A Discord that cannot be reached is logged with the reason (here a refused connection),
/// not only serenity's "Error while sending HTTP request.", which reads the same for a name that
/// does not resolve, a refused connection, an untrusted certificate and a time-out.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_discord_that_cannot_be_reached_is_logged_with_the_reason() {
    // A port that was free a moment ago: connections to it are refused.
    let closed = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap();
    let dir = temp_dir("operator-refused");
    let child = Command::new(BINARY)
        .arg("run")
        .env("DISCORD_TOKEN", "t")
        .env("DATABASE_URL", format!("sqlite://{}", dir.join("tafl.db").display()))
        .env("DISCORD_API_BASE", format!("http://{closed}"))
        .env_remove("DISCORD_API_RESOLVE")
        .env_remove("DISCORD_GUILD_ID")
        .env("RUST_LOG", "warn,tafl_bot=info")
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    tokio::time::sleep(Duration::from_secs(2)).await;
    let _ = Command::new("kill").args(["-TERM", &child.id().to_string()]).status();
    let (_, stderr) = tokio::task::spawn_blocking(move || exit_within(child, Duration::from_secs(15))).await.unwrap();
    let line = stderr.lines().find(|l| l.contains("could not check the token yet")).unwrap_or_default();
    assert!(line.contains("Error while sending HTTP request: "), "{stderr}");
    assert!(line.to_lowercase().contains("connection refused"), "{stderr}");
}
