//! Discord shard ranges (`DISCORD_SHARDS`, `DISCORD_SHARD_COUNT`) and `/healthz`, with `tafl-bot
//! run` as a process against the fake Discord's sharded gateway: a guild's interactions arrive
//! only on shard `(guild_id >> 22) % count`, DMs on shard 0.
//!
//! Two processes sharing the work (shards 0-0 and 1-1 of 2) need one database that both can
//! write and whose outbox lanes each process claims for itself: that is `PostgreSQL` (lanes are
//! claimed with a lease, see `bot/src/host/outbox.rs`; eight hosts sharing one database are
//! tested in `bot/tests/many_hosts.rs`). Every process on one `SQLite` file has the same claim
//! id, so two of them would both deliver every outbox item; `run` refuses a part of the shards on
//! `SQLite` (and a second process on its file). The tests of a process serving part of the
//! shards, and the last test, which runs two `tafl-bot run` processes, kills one mid-run and
//! restarts it, use throwaway `PostgreSQL` databases (`tests/src/postgres.rs`; skipped with one
//! line without `PostgreSQL`, unless `CI=true`).

#![cfg(unix)]

use std::io::{Read, Write};
use std::net::SocketAddr;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

use serde_json::{Value, json};
use tafl_e2e::fake_discord::{FakeDiscord, Interaction, LOADING, StoredMessage, shard_of};
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

/// Waits (at most 15 s) until `/healthz` answers `status` once `run` has started; the last
/// answer.
async fn health_becomes(addr: SocketAddr, status: u16) -> (u16, String) {
    let deadline = std::time::Instant::now() + Duration::from_secs(15);
    loop {
        let answer = tokio::task::spawn_blocking(move || http_get(addr, "/healthz")).await.unwrap();
        // "starting" comes first, while `run` opens the database and builds its client: the
        // state it is in once started is the one waited for.
        let started = answer.as_ref().is_some_and(|(_, body)| !body.starts_with("unavailable: starting"));
        if let Some(answer) = &answer
            && ((answer.0 == status && started) || std::time::Instant::now() > deadline)
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
    let accept = table.table.says("Accept", "Принять");
    let accept = card.button_labels().into_iter().find(|(label, _)| label == accept).expect("an Accept button").1;
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
    // The guild on shard 0 speaks English, the one on shard 1 Russian: each keeps its language.
    let fake = FakeDiscord::start_tls().await;
    // DISCORD_SHARD_COUNT=auto alone follows GET /gateway/bot: one process serves every shard,
    // so no other process can count otherwise.
    fake.set_shard_count(2);
    let dir = temp_dir("shards-0-1");
    let health = free_addr();
    let health_text = health.to_string();
    let _bot = BotProcess::spawn_with(
        Path::new(BINARY),
        &fake,
        &dir,
        &[("DISCORD_SHARD_COUNT", "auto"), ("TAFL_HEALTH_ADDR", &health_text)],
    );
    fake.wait_until_ready().await;
    // serenity identifies one shard at a time, 5 s apart, as Discord asks.
    fake.wait_for_shards(&[(0, 2), (1, 2)]).await;
    let (status, body) = health_becomes(health, 200).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body, "ok: shards 0-1 connected, database answers and saves\n");
    let (status, _) = tokio::task::spawn_blocking(move || http_get(health, "/metrics")).await.unwrap().unwrap();
    assert_eq!(status, 404, "only /healthz is served");

    let tables = [
        GuildTable {
            table: Table { fake: &fake, channel: 1_500_000_000_000_000_101, locale: "en-US" },
            guild: guild_on(0, 2, 1),
        },
        GuildTable {
            table: Table { fake: &fake, channel: 1_500_000_000_000_000_102, locale: "ru" },
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
            let confirmed = table.table.says("You played", "Вы сыграли");
            assert!(answer.content.starts_with(confirmed), "game {game}, ply {}: {}", n + 1, answer.content);
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
        let title = table.table.says(&format!("Game #{game}"), &format!("Партия №{game}")).to_owned();
        assert!(summary.text().contains(&title), "{}", summary.text());
        let board = fake.message(board.id).unwrap();
        assert!(board.custom_ids().is_empty(), "a finished board has no controls: {board:#?}");
    }
    // Everything the Russian guild's channel showed (challenge card, boards, answers, summary)
    // is Russian, though the same process speaks English on the other shard.
    tables[1].table.assert_no_english_here(&["Alice", "Bob"]);
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_process_serving_shard_0_of_2_never_receives_the_interactions_of_shard_1() {
    // Shard 1 would be another process's: several processes share a PostgreSQL database.
    let Some(db) = tafl_e2e::postgres::database().await else { return };
    let fake = FakeDiscord::start_tls().await;
    let dir = temp_dir("shards-0-0");
    let health = free_addr();
    let health_text = health.to_string();
    let _bot = BotProcess::spawn_with(
        Path::new(BINARY),
        &fake,
        &dir,
        &[
            ("DATABASE_URL", db.url.as_str()),
            ("DISCORD_SHARDS", "0"),
            ("DISCORD_SHARD_COUNT", "2"),
            ("TAFL_HEALTH_ADDR", &health_text),
        ],
    );
    fake.wait_until_ready().await;
    fake.wait_for_shards(&[(0, 2)]).await;
    let (status, body) = health_becomes(health, 200).await;
    assert_eq!((status, body.as_str()), (200, "ok: shards 0-0 connected, database answers and saves\n"));

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

/// `tafl-bot run` serving `/healthz`, once it answers 200: the fake Discord, the bot's folder,
/// the health address and the process (SIGXFSZ ignored, so that a test may fill its disk).
async fn healthy_bot(name: &str) -> (FakeDiscord, std::path::PathBuf, SocketAddr, BotProcess) {
    let fake = FakeDiscord::start_tls().await;
    let dir = temp_dir(name);
    let health = free_addr();
    let health_text = health.to_string();
    let bot = BotProcess::spawn_ignoring_xfsz(Path::new(BINARY), &fake, &dir, &[("TAFL_HEALTH_ADDR", &health_text)]);
    fake.wait_until_ready().await;
    health_becomes(health, 200).await;
    (fake, dir, health, bot)
}

/// The bot's open file descriptors.
fn descriptors(pid: u32) -> usize {
    std::fs::read_dir(format!("/proc/{pid}/fd")).map_or(0, Iterator::count)
}

/// Clients that open connections to `/healthz` and send half a request, or nothing, held them
/// open for as long as they liked, one file descriptor each, until the process could open no
/// more (the gateway failed with "Too many open files" and a real probe timed out). At most 16
/// are served at once, the rest closed as they come, and each is cut off after 5 s.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn healthz_outlasts_clients_that_open_connections_and_never_finish_a_request() {
    let (_fake, dir, health, bot) = healthy_bot("health-slow-clients").await;
    let before = descriptors(bot.pid());
    let mut idle = Vec::new();
    for n in 0..100 {
        let mut stream = std::net::TcpStream::connect(health).unwrap();
        if n % 2 == 0 {
            write!(stream, "GET /healthz HTTP/1.1\r\nHost: x\r\n").unwrap();
        }
        idle.push(stream);
    }
    tokio::time::sleep(Duration::from_millis(500)).await;
    let during = descriptors(bot.pid());
    // 16 served, and a few the process opens meanwhile for its own work (database connections).
    assert!(during <= before + 30, "{before} descriptors before, {during} with 100 idle clients");
    // A real probe gets through once the idle ones are cut off.
    let (status, body) = health_becomes(health, 200).await;
    assert_eq!(status, 200, "{body}");
    for (n, stream) in idle.iter_mut().enumerate() {
        stream.set_read_timeout(Some(Duration::from_secs(8))).unwrap();
        let mut rest = Vec::new();
        match stream.read_to_end(&mut rest) {
            Ok(_) => {}
            Err(e) => assert_eq!(e.kind(), std::io::ErrorKind::ConnectionReset, "client {n} was never cut off: {e}"),
        }
    }
    bot.kill();
    let _ = std::fs::remove_dir_all(&dir);
}

/// A database that answers reads but cannot save (here a file-size limit on the process, which
/// fails every write that grows a file, as a full disk does): moves were refused with "the disk
/// is full" while `/healthz` said 200. It says 503 until a write is saved again.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn healthz_answers_503_while_the_database_cannot_save() {
    let (fake, dir, health, bot) = healthy_bot("health-disk-full").await;
    let table = Table { fake: &fake, channel: 1_500_000_000_000_000_300, locale: "en-US" };
    let challenge =
        table.command(ALICE, "challenge", &json!({ "opponent": BOB.id, "variant": "brandubh", "side": 0 }), &[BOB]);
    let card = fake.wait_for_original(&challenge).await;
    let accept = card.button_labels().into_iter().find(|(label, _)| label == "Accept").expect("Accept").1;
    fake.wait_for_answer(&table.click(BOB, &card, &accept, None)).await;
    let limit = |size: &str| {
        let status =
            Command::new("prlimit").arg(format!("--pid={}", bot.pid())).arg(format!("--fsize={size}:")).status();
        assert!(status.expect("prlimit (util-linux) runs").success(), "prlimit --fsize={size}");
    };
    let play = |mv: &str| {
        let played = table.command(ALICE, "move", &json!({ "notation": mv }), &[]);
        let fake = &fake;
        async move { fake.wait_for_original(&played).await.content }
    };

    limit("0");
    let refused = play("d2-c2").await;
    assert!(refused.contains("nothing was saved"), "{refused}");
    let (status, body) = health_becomes(health, 503).await;
    assert_eq!(status, 503, "{body}");
    assert!(
        body.contains("was not saved: the database cannot be written")
            || body.contains("was not saved: the disk is full"),
        "{body}"
    );

    limit("unlimited");
    let saved = play("d2-c2").await;
    assert!(saved.starts_with("You played"), "{saved}");
    let (status, body) = health_becomes(health, 200).await;
    assert_eq!(status, 200, "{body}");
    bot.kill();
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
    // A part of the shards leaves the others to other processes, which an SQLite file cannot
    // serve: refused before anything connects.
    let on_sqlite = run_refused(&fake, &dir, &[("DISCORD_SHARDS", "2-3"), ("DISCORD_SHARD_COUNT", "4")]);
    assert_eq!(on_sqlite.0, Some(1));
    assert!(
        on_sqlite.1.starts_with("error: DISCORD_SHARDS leaves the other shards to other processes"),
        "{}",
        on_sqlite.1
    );
    // A range with `auto`: each process would count by Discord's recommendation as it was when
    // it started, and processes started on either side of a change would split the servers
    // differently. Refused on any database, before Discord is asked.
    let auto = run_refused(&fake, &dir, &[("DISCORD_SHARDS", "2-3"), ("DISCORD_SHARD_COUNT", "auto")]);
    assert_eq!(auto.0, Some(1));
    assert!(
        auto.1.starts_with("error: DISCORD_SHARDS=2-3 needs DISCORD_SHARD_COUNT set to a number, not auto: "),
        "{}",
        auto.1
    );
    if let Some(db) = tafl_e2e::postgres::database().await {
        let env = [("DATABASE_URL", db.url.as_str()), ("DISCORD_SHARDS", "0"), ("DISCORD_SHARD_COUNT", "auto")];
        let on_postgres = run_refused(&fake, &dir, &env);
        assert_eq!(on_postgres.0, Some(1));
        assert!(on_postgres.1.ends_with("set the same DISCORD_SHARD_COUNT for every process"), "{}", on_postgres.1);
    }
    assert!(
        fake.requests().iter().all(|r| !r.path.ends_with("/gateway/bot")),
        "Discord was asked for its recommendation"
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

/// One game of the two-process test: where it is played, its board, and how far it has got.
struct SharedGame<'a> {
    table: GuildTable<'a>,
    /// The two players, named Alice and Bob but people of their own in each game (a person may
    /// have only so many open challenges).
    alice: Player,
    bob: Player,
    /// Alice's side: 0 (the attackers, who move first) or 1.
    alice_side: u64,
    board: u64,
    id: i64,
    /// How many of the moves have been played.
    played: usize,
}

impl SharedGame<'_> {
    /// The player who makes ply `ply` (0-based): the attackers move first.
    fn to_move(&self, ply: usize) -> Player {
        let attacker = if self.alice_side == 0 { self.alice } else { self.bob };
        let defender = if self.alice_side == 0 { self.bob } else { self.alice };
        if ply.is_multiple_of(2) { attacker } else { defender }
    }
}

/// The Alice and Bob of game `n`.
fn players_of(n: u64) -> (Player, Player) {
    (Player { id: ALICE.id + 1_000 * (n + 1), name: "Alice" }, Player { id: BOB.id + 1_000 * (n + 1), name: "Bob" })
}

/// Alice challenges Bob to Brandubh in `table`'s guild, taking side `alice_side`, for each table
/// at once (game `n` at the `n`th table, with [`players_of`] `n`), and Bob accepts each: the
/// boards and game ids, in the tables' order.
async fn start_games(tables: Vec<(GuildTable<'_>, u64)>) -> Vec<SharedGame<'_>> {
    let challenges: Vec<Interaction> = (0..)
        .zip(&tables)
        .map(|(n, (table, alice_side))| {
            let (alice, bob) = players_of(n);
            let options = json!({ "opponent": bob.id, "variant": Variant::Brandubh.id(), "side": alice_side });
            let challenge = table.command(alice, "challenge", &options, &[bob]);
            assert_eq!(challenge.delivered_on, vec![shard_of(Some(table.guild), 2)], "a guild's shard only");
            challenge
        })
        .collect();
    let mut clicks = Vec::new();
    for (n, ((table, _), challenge)) in (0..).zip(tables.iter().zip(&challenges)) {
        let card = table.table.fake.wait_for_original(challenge).await;
        let accept = card.button_labels().into_iter().find(|(label, _)| label == "Accept");
        let accept = accept.unwrap_or_else(|| panic!("an Accept button: {card:#?}"));
        let click = table.table.click(players_of(n).1, &card, &accept.1, None);
        assert_eq!(click.delivered_on, vec![shard_of(Some(table.guild), 2)], "a guild's shard only");
        clicks.push(click);
    }
    let mut games = Vec::new();
    for (n, ((table, alice_side), click)) in (0..).zip(tables.into_iter().zip(&clicks)) {
        let board = table.table.fake.wait_for_answer(click).await;
        let id = board
            .custom_ids()
            .iter()
            .find_map(|id| id.strip_prefix("tafl:piece:").and_then(|rest| rest.split(':').next()?.parse().ok()))
            .expect("the board has a piece menu naming its game");
        let (alice, bob) = players_of(n);
        games.push(SharedGame { table, alice, bob, alice_side, board: board.id, id, played: 0 });
    }
    games
}

/// Sends the next move of each of `games` that `plays` picks, all at once, as players in many
/// servers would: the moves sent, by the index of their game.
fn push_next_moves(
    games: &mut [SharedGame<'_>],
    moves: &[String],
    plays: impl Fn(&SharedGame<'_>) -> bool,
) -> Vec<(usize, Interaction)> {
    let mut pushed = Vec::new();
    for (n, game) in games.iter_mut().enumerate() {
        if game.played == moves.len() || !plays(game) {
            continue;
        }
        let notation = moves[game.played].split('x').next().unwrap();
        let player = game.to_move(game.played);
        let sent = game.table.command(player, "move", &json!({ "notation": notation, "game": game.id }), &[]);
        assert_eq!(sent.delivered_on, vec![shard_of(Some(game.table.guild), 2)], "a guild's shard only");
        game.played += 1;
        pushed.push((n, sent));
    }
    pushed
}

/// Checks that `answer`, the answer to a move of `game`, confirms it.
fn assert_confirmed(game: &SharedGame<'_>, answer: &StoredMessage) {
    assert!(answer.content.starts_with("You played"), "game {}, ply {}: {}", game.id, game.played, answer.content);
}

/// Plays the next move of each of `games` that `plays` picks (see [`push_next_moves`]) and waits
/// until each is confirmed.
async fn play_next_moves(
    fake: &FakeDiscord,
    games: &mut [SharedGame<'_>],
    moves: &[String],
    plays: impl Fn(&SharedGame<'_>) -> bool,
) {
    for (n, sent) in push_next_moves(games, moves, plays) {
        assert_confirmed(&games[n], &fake.wait_for_original(&sent).await);
    }
}

/// How many outbox lanes the process with pid `pid` holds (leases not run out) in `db`.
async fn lanes_held_by(db: &mut sqlx::PgConnection, pid: u32) -> i64 {
    sqlx::query_scalar(
        "SELECT count(*) FROM outbox_claims WHERE claimed_by LIKE $1 \
         AND lease_until_ms > (extract(epoch FROM clock_timestamp()) * 1000)::BIGINT",
    )
    .bind(format!("pid{pid}-%"))
    .fetch_one(db)
    .await
    .expect("the outbox claims can be read")
}

/// Polls the outbox claims until a process holds the lane of a game of the other process's
/// shard (the process with pid `pids[s]` serves shard `s` of 2), and returns that claim as
/// `(lane, claimed_by)`.
async fn first_foreign_claim(url: String, pids: [u32; 2]) -> (String, String) {
    let mut conn = <sqlx::PgConnection as sqlx::Connection>::connect(&url).await.expect("the database answers");
    loop {
        let found = sqlx::query_as(
            "SELECT c.lane, c.claimed_by FROM outbox_claims c JOIN games g ON c.lane = 'game:' || g.id \
             WHERE (c.claimed_by LIKE $1 AND (g.guild_id >> 22) % 2 <> 0) \
             OR (c.claimed_by LIKE $2 AND (g.guild_id >> 22) % 2 <> 1) LIMIT 1",
        )
        .bind(format!("pid{}-%", pids[0]))
        .bind(format!("pid{}-%", pids[1]))
        .fetch_optional(&mut conn)
        .await
        .expect("the outbox claims can be read");
        if let Some(claim) = found {
            return claim;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

/// Polls `check` every 50 ms until it holds; false if it does not within `limit`.
async fn eventually(limit: Duration, check: impl Fn() -> bool) -> bool {
    let deadline = std::time::Instant::now() + limit;
    while !check() {
        if std::time::Instant::now() > deadline {
            return false;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    true
}

/// What is still to be shown: the finished games whose review is not recorded yet (each will
/// edit its summary), and the outbox's items by state. Reviews are read first: one that finishes
/// records its summary edit in the same transaction, so with none pending, the outbox read after
/// holds every item still to come.
async fn backlog(url: &str) -> (i64, Vec<(String, i64)>) {
    let mut conn = <sqlx::PgConnection as sqlx::Connection>::connect(url).await.expect("the test database answers");
    let reviews = sqlx::query_scalar("SELECT count(*) FROM reviews WHERE state = 'pending'")
        .fetch_one(&mut conn)
        .await
        .expect("the reviews can be read");
    let outbox = sqlx::query_as("SELECT state, count(*) FROM outbox GROUP BY state ORDER BY state")
        .fetch_all(&mut conn)
        .await
        .expect("the outbox can be read");
    let _ = sqlx::Connection::close(conn).await;
    (reviews, outbox)
}

/// Public messages posted twice with the same text and files in one channel (boards and
/// interaction answers left out: every board of a game rightly shows the same picture at times).
fn duplicates(fake: &FakeDiscord) -> Vec<StoredMessage> {
    let mut seen = std::collections::HashSet::new();
    let mut twice = Vec::new();
    for message in fake.all_messages() {
        let is_board = message
            .attachments
            .iter()
            .any(|a| Path::new(&a.filename).extension().is_some_and(|e| e.eq_ignore_ascii_case("png")));
        if message.interaction.is_some() || message.is_ephemeral() || message.deleted || is_board {
            continue;
        }
        let files: Vec<&str> = message.attachments.iter().map(|a| a.filename.as_str()).collect();
        if !seen.insert((message.channel_id, message.text(), files.join(","))) {
            twice.push(message);
        }
    }
    twice
}

/// How many games the two-process test plays, in how many guilds (half of them on each shard).
const SHARED_GAMES: u64 = 40;
const SHARED_GUILDS: u64 = 8;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_processes_on_shards_0_and_1_of_2_share_one_postgres_database_through_a_kill_and_restart() {
    let Some(db) = tafl_e2e::postgres::database().await else { return };
    let fake = FakeDiscord::start_tls().await;
    let dirs = [temp_dir("pg-shard-0"), temp_dir("pg-shard-1")];
    let env_of = |shards| [("DATABASE_URL", db.url.as_str()), ("DISCORD_SHARDS", shards), ("DISCORD_SHARD_COUNT", "2")];
    let first = BotProcess::spawn_with(Path::new(BINARY), &fake, &dirs[0], &env_of("0-0"));
    let second = BotProcess::spawn_with(Path::new(BINARY), &fake, &dirs[1], &env_of("1-1"));
    let logs = || {
        dirs.iter()
            .map(|dir| std::fs::read_to_string(dir.join("bot.log")).unwrap_or_default())
            .collect::<Vec<_>>()
            .join("\n----\n")
    };
    let registered = |fake: &FakeDiscord| {
        fake.requests().iter().filter(|r| r.method == "PUT" && r.path.ends_with("/commands")).count()
    };
    // Each process migrates (one at a time, under an advisory lock), identifies its shard and
    // registers the commands.
    let ready =
        eventually(Duration::from_mins(1), || fake.connected_shards() == [(0, 2), (1, 2)] && registered(&fake) >= 2)
            .await;
    assert!(ready, "both processes are connected; shards {:?}; logs:\n{}", fake.connected_shards(), logs());

    // Game n is played in guild n % 8 (even ones on shard 0, odd ones on shard 1), in a channel of
    // its own; Alice takes the attackers in games 0-7, 16-23 and 32-39, so that either player wins.
    let tables = (0..SHARED_GAMES)
        .map(|n| {
            let guild = guild_on(n % 2, 2, 10 + n / 2 % (SHARED_GUILDS / 2));
            let channel = 1_500_000_000_000_100_000 + 100 * (n % SHARED_GUILDS) + n / SHARED_GUILDS;
            (GuildTable { table: Table { fake: &fake, channel, locale: "en-US" }, guild }, n / SHARED_GUILDS % 2)
        })
        .collect();
    let mut games = start_games(tables).await;
    let (moves, status) = decisive_game(Variant::Brandubh, 40);
    let tafl_rules::Status::Finished(outcome) = status else { unreachable!("a decisive game is finished") };

    // Half-way, the process of shard 1 is killed while it delivers a round of moves: as soon as
    // it holds an outbox lane (a board being edited), maybe before it answered some of those
    // moves. Its lanes are taken over once their 30 s lease runs out, by the other process or by
    // its successor, which has a new id.
    let mut conn = <sqlx::PgConnection as sqlx::Connection>::connect(&db.url).await.expect("the database answers");
    // Meanwhile, each game's lane is delivered by the process of its server's shard, the one
    // that answers the clicks on its board (an item waits 15 s for it before anyone takes it).
    let watch = tokio::spawn(first_foreign_claim(db.url.clone(), [first.id(), second.id()]));
    for _ in 1..moves.len() / 2 {
        play_next_moves(&fake, &mut games, &moves, |_| true).await;
    }
    watch.abort();
    let foreign = watch.await.ok();
    assert!(foreign.is_none(), "a process took the lane of another shard's game: {foreign:?}");
    let pushed = push_next_moves(&mut games, &moves, |_| true);
    let deadline = std::time::Instant::now() + Duration::from_secs(15);
    // Not a condition the test needs (the other process may deliver every lane of this round):
    // the kill comes at the latest after 15 s.
    while lanes_held_by(&mut conn, second.id()).await == 0 && std::time::Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    let pid = second.id();
    second.kill();
    let held = lanes_held_by(&mut conn, pid).await;
    eprintln!("the killed process held {held} outbox lanes");
    let gone = eventually(Duration::from_secs(30), || fake.connected_shards() == [(0, 2)]).await;
    assert!(gone, "the killed process's session closed; shards {:?}", fake.connected_shards());
    for (n, sent) in &pushed {
        let game = &games[*n];
        if shard_of(Some(game.table.guild), 2) == 0 {
            assert_confirmed(game, &fake.wait_for_original(sent).await);
        } else if let Some(answer) = fake.original_response(sent).filter(|m| m.flags & LOADING == 0) {
            assert_confirmed(game, &answer);
        }
    }
    // Shard 0's games go on meanwhile.
    play_next_moves(&fake, &mut games, &moves, |game| shard_of(Some(game.table.guild), 2) == 0).await;
    let identified = fake.identifies();
    let _second = BotProcess::spawn_with(Path::new(BINARY), &fake, &dirs[1], &env_of("1-1"));
    let back = eventually(Duration::from_mins(1), || {
        fake.identifies() > identified && fake.connected_shards() == [(0, 2), (1, 2)]
    })
    .await;
    assert!(back, "the restarted process is connected; shards {:?}; logs:\n{}", fake.connected_shards(), logs());
    // A move the killed process was given was saved (with what Discord must show of it) or not
    // at all: its player sees which in the game, and plays it again if it was lost.
    for game in games.iter_mut().filter(|game| shard_of(Some(game.table.guild), 2) == 1) {
        let ply: i64 = sqlx::query_scalar("SELECT ply FROM games WHERE id = $1")
            .bind(game.id)
            .fetch_one(&mut conn)
            .await
            .expect("the game's ply can be read");
        let ply = usize::try_from(ply).expect("a ply");
        assert!(
            ply == game.played || ply + 1 == game.played,
            "game {}: ply {ply} after {} moves",
            game.id,
            game.played
        );
        game.played = ply;
    }
    let _ = sqlx::Connection::close(conn).await;
    while games.iter().any(|game| game.played < moves.len()) {
        play_next_moves(&fake, &mut games, &moves, |_| true).await;
    }

    // Everything is delivered: each board at its final ply without controls, each summary
    // posted, every review recorded, the outbox drained (a lease of 30 s, then the next look
    // within 5 s). The reviews are engine searches, one game after another, and take minutes on
    // a loaded machine: the test fails when nothing has moved for two minutes (or after fifteen
    // in all, should something move for ever), not at a fixed time.
    let final_png = |game: &SharedGame<'_>| format!("game-{}-{}.png", game.id, moves.len());
    let shown = |game: &SharedGame<'_>| {
        let gif = format!("game-{}.gif", game.id);
        let board = fake.message(game.board).expect("the board message");
        board.attachments.iter().any(|a| a.filename == final_png(game))
            && board.custom_ids().is_empty()
            && fake.all_messages().iter().any(|m| m.attachments.iter().any(|a| a.filename == gif))
    };
    let mut drained = false;
    let mut last = None;
    let mut deadline = std::time::Instant::now() + Duration::from_mins(2);
    let give_up = std::time::Instant::now() + Duration::from_mins(15);
    while std::time::Instant::now() < deadline.min(give_up) {
        let finished = games.iter().filter(|game| shown(game)).count();
        let (reviews, outbox) = backlog(&db.url).await;
        if finished == games.len() && reviews == 0 && outbox.iter().all(|(state, _)| state != "pending") {
            drained = true;
            break;
        }
        let progress = Some((finished, reviews, outbox));
        if progress != last {
            last = progress;
            deadline = std::time::Instant::now() + Duration::from_mins(2);
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    let behind: Vec<i64> = games.iter().filter(|game| !shown(game)).map(|game| game.id).collect();
    assert!(
        drained,
        "games not shown finished: {behind:?}; pending reviews and outbox {:?}; logs:\n{}",
        backlog(&db.url).await,
        logs()
    );
    let (_, outbox) = backlog(&db.url).await;
    assert!(outbox.iter().all(|(state, _)| state == "done"), "every outbox item is delivered: {outbox:?}");

    for game in &games {
        let gif = format!("game-{}.gif", game.id);
        let summaries: Vec<StoredMessage> = fake
            .all_messages()
            .into_iter()
            .filter(|m| !m.deleted && m.attachments.iter().any(|a| a.filename == gif))
            .collect();
        assert_eq!(summaries.len(), 1, "one summary of game {}: {summaries:#?}", game.id);
        assert_eq!(
            summaries[0].channel_id, game.table.table.channel,
            "the summary is posted where the game was played"
        );
        let winner = outcome.winner.expect("a decisive game");
        let alice_won = (winner == tafl_rules::Side::Attackers) == (game.alice_side == 0);
        let side = if winner == tafl_rules::Side::Attackers { "attackers" } else { "defenders" };
        let title = format!("Game #{} — {} wins with the {side}", game.id, if alice_won { "Alice" } else { "Bob" });
        assert!(summaries[0].text().contains(&title), "game {}: {}", game.id, summaries[0].text());
    }
    let twice = duplicates(&fake);
    assert!(twice.is_empty(), "messages posted twice: {twice:#?}");
    for dir in &dirs {
        let _ = std::fs::remove_dir_all(dir);
    }
}
