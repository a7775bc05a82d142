//! `tafl-bot run` as a process, configured only by its environment, against the fake Discord.

#![cfg(unix)]

use std::io::Read;
use std::process::{Command, Stdio};
use std::time::Duration;

use serde_json::json;
use tafl_e2e::fake_discord::{APPLICATION_ID, FakeDiscord, Fault, GUILD, Recorded};
use tafl_e2e::harness::{ALICE, BOB, CHANNEL, Table, private_answer};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tafl_bot_run_serves_from_its_environment_and_stops_cleanly_on_sigterm() {
    let fake = FakeDiscord::start_tls().await;
    let dir = std::env::temp_dir().join(format!("tafl-e2e-run-process-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("create the test directory");
    let ca = dir.join("ca.pem");
    std::fs::write(&ca, fake.ca_pem().expect("a TLS fake")).expect("write the CA file");
    let db = dir.join("tafl.db");

    let mut child = Command::new(env!("CARGO_BIN_EXE_tafl-bot-e2e"))
        .arg("run")
        .env("DISCORD_TOKEN", "process-secret-token")
        .env("DATABASE_URL", format!("sqlite://{}", db.display()))
        .env("DISCORD_GUILD_ID", "77")
        .env("DISCORD_API_RESOLVE", fake.rest_addr().to_string())
        .env("DISCORD_API_CA", &ca)
        .env_remove("DISCORD_API_BASE")
        .env("RUST_LOG", "info")
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start tafl-bot run");

    let registration = fake.wait_until_ready().await;
    assert_eq!(registration.path, format!("/api/v10/applications/{APPLICATION_ID}/guilds/77/commands"));
    let interaction = fake.push_interaction(fake.slash_command("tafl", "variants", &json!([]), 42, "en-US"));
    let callback = fake.wait_for("the answer to /tafl variants", |r| r.path == interaction.callback_path()).await;
    assert!(callback.json.as_ref().is_some_and(|j| j["data"]["embeds"][0]["description"].is_string()));

    let terminated = Command::new("kill").args(["-TERM", &child.id().to_string()]).status().expect("run kill");
    assert!(terminated.success());
    let status = tokio::task::spawn_blocking(move || {
        let status = child.wait().expect("wait for tafl-bot");
        let mut stderr = String::new();
        child.stderr.take().expect("piped stderr").read_to_string(&mut stderr).expect("read stderr");
        (status, stderr)
    });
    let (status, stderr) =
        tokio::time::timeout(Duration::from_secs(10), status).await.expect("tafl-bot stops within 10 s").unwrap();

    assert!(status.success(), "exit status {status:?}; stderr: {stderr}");
    assert!(stderr.contains("shutting down"), "{stderr}");
    assert!(!stderr.contains("process-secret-token"), "the token leaked into the log: {stderr}");
    assert!(db.exists(), "the database was created");
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigterm_stops_tafl_bot_run_even_while_the_gateway_is_unreachable() {
    let fake = FakeDiscord::start().await;
    // A port that was free a moment ago: connections to it are refused.
    let closed = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap();
    fake.set_gateway_url(&format!("ws://{closed}"));
    let dir = std::env::temp_dir().join(format!("tafl-e2e-unreachable-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("create the test directory");

    let mut child = Command::new(env!("CARGO_BIN_EXE_tafl-bot-e2e"))
        .arg("run")
        .env("DISCORD_TOKEN", "process-secret-token")
        .env("DATABASE_URL", format!("sqlite://{}", dir.join("tafl.db").display()))
        .env("DISCORD_API_BASE", fake.api_base())
        .env_remove("DISCORD_API_RESOLVE")
        .env_remove("DISCORD_GUILD_ID")
        .env("RUST_LOG", "info")
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start tafl-bot run");
    // The signal handlers are installed before the first request.
    fake.wait_for("the gateway lookup", |r| r.path == "/api/v10/gateway").await;

    let terminated = Command::new("kill").args(["-TERM", &child.id().to_string()]).status().expect("run kill");
    assert!(terminated.success());
    let status = tokio::task::spawn_blocking(move || {
        let status = child.wait().expect("wait for tafl-bot");
        let mut stderr = String::new();
        child.stderr.take().expect("piped stderr").read_to_string(&mut stderr).expect("read stderr");
        (status, stderr)
    });
    let (status, stderr) =
        tokio::time::timeout(Duration::from_secs(10), status).await.expect("tafl-bot stops within 10 s").unwrap();

    assert!(status.success(), "exit status {status:?}; stderr: {stderr}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Starts `tafl-bot run` against `fake` (proxy mode) with `stderr` as its stderr.
fn run_against(fake: &FakeDiscord, dir: &std::path::Path, stderr: Stdio) -> std::process::Child {
    run_against_with(fake, dir, stderr, &[])
}

/// [`run_against`] with more variables set.
fn run_against_with(
    fake: &FakeDiscord,
    dir: &std::path::Path,
    stderr: Stdio,
    vars: &[(&str, &str)],
) -> std::process::Child {
    Command::new(env!("CARGO_BIN_EXE_tafl-bot-e2e"))
        .arg("run")
        .env("DISCORD_TOKEN", "process-secret-token")
        .env("DATABASE_URL", format!("sqlite://{}", dir.join("tafl.db").display()))
        .env("DISCORD_API_BASE", fake.api_base())
        .env_remove("DISCORD_API_RESOLVE")
        .env("DISCORD_GUILD_ID", "77")
        .env("RUST_LOG", "debug")
        .envs(vars.iter().copied())
        .stdout(Stdio::null())
        .stderr(stderr)
        .spawn()
        .expect("start tafl-bot run")
}

/// Waits (at most 10 s) for `child` to exit; its status and stderr. The stderr is read while it
/// runs, so that a chatty process never blocks on a full pipe; one still running after 10 s is
/// killed, and the test fails with the end of what it wrote.
async fn exit_of(mut child: std::process::Child) -> (std::process::ExitStatus, String) {
    let reader = child.stderr.take().map(|mut pipe| {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            let _ = pipe.read_to_end(&mut bytes);
            String::from_utf8_lossy(&bytes).into_owned()
        })
    });
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait for tafl-bot") {
            break Some(status);
        }
        if tokio::time::Instant::now() >= deadline {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    };
    let stderr = reader.map(|reader| reader.join().expect("read stderr")).unwrap_or_default();
    let Some(status) = status else {
        let tail: String = stderr.chars().rev().take(3000).collect::<Vec<_>>().into_iter().rev().collect();
        panic!("tafl-bot did not stop within 10 s; the end of its stderr:\n{tail}");
    };
    (status, stderr)
}

fn temp_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("tafl-e2e-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("create the test directory");
    dir
}

fn assert_token_rejected(status: std::process::ExitStatus, stderr: &str) {
    assert_eq!(status.code(), Some(1), "stderr: {stderr}");
    let last = stderr.lines().last().unwrap_or_default();
    assert!(last.starts_with("error: Discord rejected the token in DISCORD_TOKEN;"), "{stderr}");
    assert!(last.contains("https://discord.com/developers/applications"), "{stderr}");
    assert!(!stderr.contains("process-secret-token"), "the token leaked: {stderr}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_token_that_discord_answers_with_401_stops_run_with_one_sentence() {
    let fake = FakeDiscord::start().await;
    fake.fail_next(|_| true, usize::MAX, Fault::Unauthorized);
    let dir = temp_dir("401");
    let child = run_against(&fake, &dir, Stdio::piped());
    let (status, stderr) = exit_of(child).await;
    assert_token_rejected(status, &stderr);
    assert_eq!(fake.identifies(), 0, "no gateway session with a rejected token");
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_gateway_closing_with_4004_stops_run_with_one_sentence() {
    let fake = FakeDiscord::start().await;
    fake.reject_identify();
    let dir = temp_dir("4004");
    let child = run_against(&fake, &dir, Stdio::piped());
    let (status, stderr) = exit_of(child).await;
    assert_token_rejected(status, &stderr);
    assert!(fake.identifies() >= 1, "the gateway saw the token");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Discord closes the gateway with 4011 ("Sharding required") when the bot is in too many
/// servers for the shards it runs. serenity only logs it, and identifies again and again (each
/// identify one of the bot's daily 1,000): `run` stayed up, disconnected, for good. It now stops
/// with one sentence naming `DISCORD_SHARD_COUNT`, and with `DISCORD_SHARD_COUNT=auto` the same
/// bot connects.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_gateway_requiring_more_shards_stops_run_with_what_to_set() {
    let fake = FakeDiscord::start().await;
    fake.require_shards(2);
    let dir = temp_dir("4011");
    let sentence = "error: Discord closed the gateway with 4011 (sharding required): the bot is in too many servers \
                    for the shards it runs; set DISCORD_SHARD_COUNT to a larger number in every process (GET \
                    /gateway/bot recommends one), or to auto where one process serves every shard";
    // Whatever the log shows (serenity's line is seen even when RUST_LOG silences it), and one
    // process of several serving a range of too few shards alike. A few times: serenity spins a
    // runtime worker after the close, and that held the stop now and then.
    let runs = [
        [("RUST_LOG", "debug"), ("DISCORD_SHARD_COUNT", ""), ("DISCORD_SHARDS", "")],
        [("RUST_LOG", "off"), ("DISCORD_SHARD_COUNT", ""), ("DISCORD_SHARDS", "")],
        [("RUST_LOG", "off"), ("DISCORD_SHARD_COUNT", "1"), ("DISCORD_SHARDS", "0")],
    ];
    for vars in runs.iter().cycle().take(9) {
        let child = run_against_with(&fake, &dir, Stdio::piped(), vars);
        let (status, stderr) = exit_of(child).await;
        assert_eq!(status.code(), Some(1), "{vars:?}: {stderr}");
        assert!(stderr.lines().any(|line| line == sentence), "{vars:?}: {stderr}");
    }
    assert!(fake.identifies() >= 9, "the gateway was asked");

    // As the sentence says.
    let mut child = run_against_with(&fake, &dir, Stdio::null(), &[("DISCORD_SHARD_COUNT", "auto")]);
    fake.wait_until_ready().await;
    let interaction = fake.push_interaction(fake.slash_command("tafl", "variants", &json!([]), 42, "en-US"));
    fake.wait_for("the answer to /tafl variants", |r| r.path == interaction.callback_path()).await;
    let _ = child.kill();
    let _ = child.wait();
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigterm_stops_run_even_when_no_log_line_can_be_written() {
    let fake = FakeDiscord::start().await;
    let dir = temp_dir("full-stderr");
    let full = std::fs::OpenOptions::new().write(true).open("/dev/full").expect("/dev/full exists");
    let child = run_against(&fake, &dir, Stdio::from(full));
    // Serving with every log line failing (RUST_LOG=debug writes many).
    fake.wait_until_ready().await;
    let interaction = fake.push_interaction(fake.slash_command("tafl", "variants", &json!([]), 42, "en-US"));
    fake.wait_for("the answer to /tafl variants", |r| r.path == interaction.callback_path()).await;
    let terminated = Command::new("kill").args(["-TERM", &child.id().to_string()]).status().expect("run kill");
    assert!(terminated.success());
    let (status, _) = exit_of(child).await;
    assert!(status.success(), "exit status {status:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The owner takes Send Messages away in a game's channel, and the opponent's "your move" notice
/// is refused (Discord's 50013). The log line of the item given up says what to fix and where:
/// its kind, game, server and channel, and the permissions to grant there. Before, it said
/// `an outbox item was given up item=N error="Discord request failed: Missing Permissions"`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_notice_refused_for_want_of_permission_is_logged_with_what_to_grant_and_where() {
    let fake = FakeDiscord::start().await;
    let dir = temp_dir("refusal-logged");
    let log = dir.join("stderr.log");
    let stderr = std::fs::File::create(&log).expect("create the log file");
    let mut child = run_against(&fake, &dir, Stdio::from(stderr));
    fake.wait_until_ready().await;
    let table = Table { fake: &fake, channel: CHANNEL, locale: "en-US" };
    let challenge =
        table.command(ALICE, "challenge", &json!({ "opponent": BOB.id, "variant": "brandubh", "side": 0 }), &[BOB]);
    let card = fake.wait_for_original(&challenge).await;
    let accept = card.button_labels().into_iter().find(|(label, _)| label == "Accept").expect("an Accept button").1;
    let _ = table.click(BOB, &card, &accept, None);
    fake.wait_for_message("Alice's first notice", |m| m.content.contains("your move: game #1")).await;

    let posts = |r: &Recorded| r.method == "POST" && r.path == format!("/api/v10/channels/{CHANNEL}/messages");
    fake.fail_next(posts, usize::MAX, Fault::Refused { status: 403, code: 50_013 });
    let played = table.command(ALICE, "move", &json!({ "notation": "d2-c2" }), &[]);
    assert!(private_answer(&fake, &played).await.starts_with("You played"));
    fake.wait_for("Bob's notice, refused", |r| posts(r) && r.status == 403).await;
    let grant = format!("grant the bot View Channel and Send Messages in channel {CHANNEL}");
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    let line = loop {
        let written = std::fs::read_to_string(&log).expect("read the log");
        if let Some(line) = written.lines().find(|line| line.contains(&grant)) {
            break line.to_owned();
        }
        let given_up: Vec<&str> = written.lines().filter(|line| line.contains("given up")).collect();
        assert!(tokio::time::Instant::now() < deadline, "no line says what to grant: {given_up:#?}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    let terminated = Command::new("kill").args(["-TERM", &child.id().to_string()]).status().expect("run kill");
    assert!(terminated.success());
    let status = tokio::task::spawn_blocking(move || child.wait().expect("wait for tafl-bot"));
    let status = tokio::time::timeout(Duration::from_secs(10), status).await.expect("tafl-bot stops").unwrap();
    assert!(status.success(), "exit status {status:?}");

    assert!(line.contains("WARN"), "{line}");
    assert!(line.contains("an outbox item was given up: Discord refused it for want of permission"), "{line}");
    for field in
        ["kind=\"your_move\"".to_owned(), "game=1".to_owned(), format!("guild={GUILD}"), format!("channel={CHANNEL}")]
    {
        assert!(line.contains(&field), "{field} is not named: {line}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
