//! Discord shard ranges (`DISCORD_SHARDS`, `DISCORD_SHARD_COUNT`) and `/healthz`, with `tafl-bot
//! run` as a process against the fake Discord's sharded gateway: a guild's interactions arrive
//! only on shard `(guild_id >> 22) % count`, DMs on shard 0.
//!
//! Two processes sharing the work (shards 0-0 and 1-1 of 2) need one database that both can
//! write and whose outbox each item is claimed from once: that is `PostgreSQL`, with the store work
//! of issue 16. Two processes on one `SQLite` file would both deliver every outbox item, so that
//! test waits for the `PostgreSQL` store.

#![cfg(unix)]

use std::io::{Read, Write};
use std::net::SocketAddr;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

use serde_json::{Value, json};
use tafl_e2e::fake_discord::{FakeDiscord, Interaction, StoredMessage, shard_of};
use tafl_e2e::harness::{ALICE, BOB, BotProcess, Player, Table, decisive_game, temp_dir};
use tafl_rules::Variant;

const BINARY: &str = env!("CARGO_BIN_EXE_tafl-bot-e2e");

/// A guild id that Discord sends on shard `shard` of `count` (`n` tells guilds apart).
const fn guild_on(shard: u64, count: u64, n: u64) -> u64 {
    ((1_000_000 + n * count + shard) << 22) | 7
}

/// A channel of `guild`, as a [`Table`] whose commands come from that guild.
struct GuildTable<'a> {
    table: Table<'a>,
    guild: u64,
}

impl GuildTable<'_> {
    fn command(&self, player: Player, subcommand: &str, options: &Value, users: &[Player]) -> Interaction {
        let mut payload = self.table.command_payload(player, subcommand, options, users);
        payload["guild_id"] = json!(self.guild.to_string());
        self.table.fake.push_interaction(payload)
    }
}

/// A free loopback address for `TAFL_HEALTH_ADDR`.
fn free_addr() -> SocketAddr {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap()
}

/// `GET path` on `addr`: the status code and body (the test's side of HTTP, kept minimal; the
/// bot's side is hyper).
fn http_get(addr: SocketAddr, path: &str) -> Option<(u16, String)> {
    let mut stream = std::net::TcpStream::connect_timeout(&addr, Duration::from_secs(2)).ok()?;
    stream.set_read_timeout(Some(Duration::from_secs(5))).ok()?;
    write!(stream, "GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n").ok()?;
    let mut response = String::new();
    stream.read_to_string(&mut response).ok()?;
    let status = response.split_whitespace().nth(1)?.parse().ok()?;
    let body = response.split_once("\r\n\r\n").map_or("", |(_, body)| body).to_owned();
    Some((status, body))
}

/// Waits (at most 15 s) until `/healthz` answers `status`; the last answer.
async fn health_becomes(addr: SocketAddr, status: u16) -> (u16, String) {
    let deadline = std::time::Instant::now() + Duration::from_secs(15);
    loop {
        let answer = tokio::task::spawn_blocking(move || http_get(addr, "/healthz")).await.unwrap();
        if let Some(answer) = &answer
            && (answer.0 == status || std::time::Instant::now() > deadline)
        {
            return answer.clone();
        }
        assert!(std::time::Instant::now() < deadline, "/healthz never answered on {addr}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Alice challenges Bob to Brandubh in `table`'s guild and Bob accepts: the board and its game id.
async fn start_game(table: &GuildTable<'_>) -> (StoredMessage, i64) {
    let fake = table.table.fake;
    let challenge = table.command(
        ALICE,
        "challenge",
        &json!({ "opponent": BOB.id, "variant": Variant::Brandubh.id(), "side": 0 }),
        &[BOB],
    );
    let card = fake.wait_for_original(&challenge).await;
    let accept = card.button_labels().into_iter().find(|(label, _)| label == "Accept").expect("an Accept button").1;
    let click = table.table.click(BOB, &card, &accept, None);
    let expected = vec![shard_of(Some(table.guild), 2)];
    assert_eq!(click.delivered_on, expected, "the click came on its guild's shard");
    let board = fake.wait_for_answer(&click).await;
    let game = board
        .custom_ids()
        .iter()
        .find_map(|id| id.strip_prefix("tafl:piece:").and_then(|rest| rest.split(':').next()?.parse().ok()))
        .expect("the board has a piece menu naming its game");
    (board, game)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_process_serving_shards_0_and_1_of_2_plays_games_in_guilds_on_both_shards() {
    let fake = FakeDiscord::start_tls().await;
    let dir = temp_dir("shards-0-1");
    let health = free_addr();
    let health_text = health.to_string();
    let _bot = BotProcess::spawn_with(
        Path::new(BINARY),
        &fake,
        &dir,
        &[("DISCORD_SHARDS", "0-1"), ("DISCORD_SHARD_COUNT", "2"), ("TAFL_HEALTH_ADDR", &health_text)],
    );
    fake.wait_until_ready().await;
    // serenity identifies one shard at a time, 5 s apart, as Discord asks.
    fake.wait_for_shards(&[(0, 2), (1, 2)]).await;
    let (status, body) = health_becomes(health, 200).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body, "ok: shards 0-1 connected, database answers\n");
    let (status, _) = tokio::task::spawn_blocking(move || http_get(health, "/metrics")).await.unwrap().unwrap();
    assert_eq!(status, 404, "only /healthz is served");

    let tables = [
        GuildTable {
            table: Table { fake: &fake, channel: 1_500_000_000_000_000_101, locale: "en-US" },
            guild: guild_on(0, 2, 1),
        },
        GuildTable {
            table: Table { fake: &fake, channel: 1_500_000_000_000_000_102, locale: "en-US" },
            guild: guild_on(1, 2, 1),
        },
    ];
    let mut games = Vec::new();
    for table in &tables {
        games.push(start_game(table).await);
    }
    let (moves, _) = decisive_game(Variant::Brandubh, 40);
    // The two games move in turn, as players in two servers would.
    for (n, mv) in moves.iter().enumerate() {
        let to_move = if n % 2 == 0 { ALICE } else { BOB };
        for (table, (_, game)) in tables.iter().zip(&games) {
            let notation = mv.split('x').next().unwrap();
            let played = table.command(to_move, "move", &json!({ "notation": notation, "game": game }), &[]);
            assert_eq!(played.delivered_on, vec![shard_of(Some(table.guild), 2)]);
            let answer = fake.wait_for_original(&played).await;
            assert!(answer.content.starts_with("You played"), "game {game}, ply {}: {}", n + 1, answer.content);
        }
    }
    for (table, (board, game)) in tables.iter().zip(&games) {
        let gif = format!("game-{game}.gif");
        let summary = fake
            .wait_for_message(&format!("the summary of game {game}"), |m| {
                m.attachments.iter().any(|a| a.filename == gif)
            })
            .await;
        assert_eq!(summary.channel_id, table.table.channel, "the summary is posted where the game was played");
        let board = fake.message(board.id).unwrap();
        assert!(board.custom_ids().is_empty(), "a finished board has no controls: {board:#?}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_process_serving_shard_0_of_2_never_receives_the_interactions_of_shard_1() {
    let fake = FakeDiscord::start_tls().await;
    // DISCORD_SHARD_COUNT=auto follows GET /gateway/bot.
    fake.set_shard_count(2);
    let dir = temp_dir("shards-0-0");
    let health = free_addr();
    let health_text = health.to_string();
    let _bot = BotProcess::spawn_with(
        Path::new(BINARY),
        &fake,
        &dir,
        &[("DISCORD_SHARDS", "0"), ("DISCORD_SHARD_COUNT", "auto"), ("TAFL_HEALTH_ADDR", &health_text)],
    );
    fake.wait_until_ready().await;
    fake.wait_for_shards(&[(0, 2)]).await;
    let (status, body) = health_becomes(health, 200).await;
    assert_eq!((status, body.as_str()), (200, "ok: shards 0-0 connected, database answers\n"));

    let on_shard = |shard: u64| Table { fake: &fake, channel: 1_500_000_000_000_000_200 + shard, locale: "en-US" };
    let elsewhere = GuildTable { table: on_shard(1), guild: guild_on(1, 2, 2) };
    let here = GuildTable { table: on_shard(0), guild: guild_on(0, 2, 2) };
    let lost = elsewhere.command(ALICE, "variants", &json!({}), &[]);
    assert!(lost.delivered_on.is_empty(), "no session serves shard 1: {:?}", lost.delivered_on);
    let answered = here.command(ALICE, "variants", &json!({}), &[]);
    assert_eq!(answered.delivered_on, vec![0]);
    fake.wait_for_answer(&answered).await;
    let dm = fake.push_interaction(fake.slash_command("tafl", "variants", &json!([]), ALICE.id, "en-US"));
    assert_eq!(dm.delivered_on, vec![0], "DMs come on shard 0");
    fake.wait_for_answer(&dm).await;
    // The bot never heard of the shard-1 interaction, so it never answered it.
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert!(
        fake.requests().iter().all(|r| !r.path.contains(&lost.token)),
        "the bot answered an interaction of a shard it does not serve"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn healthz_answers_503_while_the_gateway_is_unreachable() {
    let fake = FakeDiscord::start_tls().await;
    let closed = free_addr();
    fake.set_gateway_url(&format!("ws://{closed}"));
    let dir = temp_dir("health-503");
    let health = free_addr();
    let health_text = health.to_string();
    let _bot = BotProcess::spawn_with(Path::new(BINARY), &fake, &dir, &[("TAFL_HEALTH_ADDR", &health_text)]);
    fake.wait_for("the gateway lookup", |r| r.path == "/api/v10/gateway").await;
    let (status, body) = health_becomes(health, 503).await;
    assert_eq!(status, 503, "{body}");
    assert!(body.starts_with("unavailable: shard 0 "), "{body}");
    assert!(!body.contains("database"), "the database answers: {body}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `tafl-bot run` with `env`, expected to stop at once: its exit code and last stderr line.
fn run_refused(fake: &FakeDiscord, dir: &Path, env: &[(&str, &str)]) -> (Option<i32>, String) {
    let output = Command::new(BINARY)
        .arg("run")
        .env("DISCORD_TOKEN", "fake-token")
        .env("DATABASE_URL", format!("sqlite://{}", dir.join("tafl.db").display()))
        .env("DISCORD_API_BASE", fake.api_base())
        .env_remove("DISCORD_API_RESOLVE")
        .env_remove("DISCORD_SHARDS")
        .env_remove("DISCORD_SHARD_COUNT")
        .env_remove("TAFL_HEALTH_ADDR")
        .envs(env.iter().copied())
        .stdin(Stdio::null())
        .output()
        .expect("run tafl-bot");
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    (output.status.code(), stderr.lines().last().unwrap_or_default().to_owned())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn shard_ranges_outside_the_count_stop_run_with_one_sentence() {
    let fake = FakeDiscord::start().await;
    fake.set_shard_count(2);
    let dir = temp_dir("shards-refused");
    let fixed = run_refused(&fake, &dir, &[("DISCORD_SHARDS", "1-2"), ("DISCORD_SHARD_COUNT", "2")]);
    assert_eq!(fixed.0, Some(1));
    assert_eq!(
        fixed.1,
        "error: DISCORD_SHARDS=1-2 names shards beyond DISCORD_SHARD_COUNT=2; shards are numbered from 0 to 1"
    );
    let auto = run_refused(&fake, &dir, &[("DISCORD_SHARDS", "2-3"), ("DISCORD_SHARD_COUNT", "auto")]);
    assert_eq!(auto.0, Some(1));
    assert!(
        auto.1.starts_with("error: DISCORD_SHARDS=2-3 names shards beyond the 2 shards Discord recommends"),
        "{}",
        auto.1
    );
    let busy = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let busy_addr = busy.local_addr().unwrap().to_string();
    let health = run_refused(&fake, &dir, &[("TAFL_HEALTH_ADDR", &busy_addr)]);
    assert_eq!(health.0, Some(1));
    assert!(
        health.1.starts_with(&format!("error: cannot serve /healthz on TAFL_HEALTH_ADDR={busy_addr}: ")),
        "{}",
        health.1
    );
    assert_eq!(fake.identifies(), 0, "nothing connected to the gateway");
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test]
async fn the_fake_gateway_closes_an_identify_outside_its_count_with_4010() {
    use futures_util::{SinkExt, StreamExt};
    use tokio_tungstenite::tungstenite::Message;
    let fake = FakeDiscord::start().await;
    let (mut socket, _) =
        tokio_tungstenite::connect_async(format!("ws://{}", fake.gateway_addr())).await.expect("connect");
    let hello = socket.next().await.unwrap().unwrap();
    assert!(hello.to_text().unwrap().contains("\"op\":10"), "{hello}");
    let identify = json!({ "op": 2, "d": { "token": "t", "intents": 1, "properties": {}, "shard": [2, 2] } });
    socket.send(Message::Text(identify.to_string())).await.unwrap();
    let closed = socket.next().await.unwrap().unwrap();
    let Message::Close(Some(frame)) = closed else { panic!("expected a close frame, got {closed:?}") };
    assert_eq!(u16::from(frame.code), 4010);
    assert!(fake.connected_shards().is_empty());
}
