//! How fast the bot answers a move, measured against the fake Discord on loopback and printed:
//! `cargo bench -p tafl-e2e --bench latency`.
//!
//! A move is the last click of moving by menus (the destination); its latency is the time from
//! the fake pushing `INTERACTION_CREATE` on the gateway to the bot's answer (the board message
//! updated with the new picture) arriving at the fake's callback route. That is the bot's time
//! plus the loopback hops, and the fake's own work (which runs on the same two cores, and under
//! load competes with the bot for them).
//!
//! Three runs: 200 moves one at a time (the bot's time for a move when nothing else is going on);
//! 1,000 moves over 100 games played at once, each player thinking a second on average (about 50
//! moves a second in all, far more than correspondence play); and the same with no thinking at all
//! (each game moving as soon as its last move is answered), which saturates the two cores and
//! measures queueing more than the bot.
//!
//! The bot runs as deployed: its scheduler and review loop look for due work every
//! [`tafl_bot::host::scheduler::TICK_INTERVAL`], not ten times a second as in the tests (whose
//! ticks, about 80 statements a second with several writes, would be load no real bot carries).
//!
//! Timings move with the machine's load, so the first run is followed by a count that does not:
//! the SQL statements the bot runs per move (the click, its answer, and the deliveries it sets
//! off), from sqlx's own statement events. `cargo bench -p tafl-e2e --bench latency -- one`
//! stops after the first run and the count (for `perf stat`, whose instruction count is another
//! load-independent figure).

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use serde_json::json;
use tafl_e2e::fake_discord::{FakeDiscord, StoredMessage};
use tafl_e2e::harness::{Player, Table, TestBot, temp_dir};
use tafl_rules::{Game, Position, Status, Variant};

const GAMES: usize = 100;
const MOVES_PER_GAME: usize = 10;

fn player(n: usize) -> Player {
    Player { id: 3_000_000_000_000_000_000 + n as u64, name: Box::leak(format!("P{n}").into_boxed_str()) }
}

/// `plies` random legal moves of Copenhagen that do not end the game, as `e1-e3` texts.
fn random_moves(seed: u64, plies: usize) -> Vec<String> {
    let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    loop {
        let mut game = Game::new(Position::new(Variant::Copenhagen.rules()).unwrap());
        while game.ply() < plies && game.status() == Status::Ongoing {
            let moves = game.position().legal_moves();
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            game.play(moves[(state % moves.len() as u64) as usize]).unwrap();
        }
        if game.status() == Status::Ongoing {
            return game.moves().iter().map(|m| m.mv.to_string()).collect();
        }
    }
}

/// A game between `a` (attackers) and `b` in its own channel; returns its board message.
async fn start(fake: &FakeDiscord, channel: u64, a: Player, b: Player) -> StoredMessage {
    let table = Table { fake, channel, locale: "en-US" };
    let challenge =
        table.command(a, "challenge", &json!({ "opponent": b.id, "variant": "copenhagen", "side": 0 }), &[b]);
    let card = fake.wait_for_original(&challenge).await;
    let accept = format!("tafl:accept:{}", card.custom_ids()[0].rsplit(':').next().unwrap());
    let _ = table.click(b, &card, &accept, None);
    fake.wait_for_message("the board", |m| m.id == card.id && m.edits > 0).await
}

/// Plays `moves` on a board by menus and returns the latency of each move's last click.
/// Each player thinks for a time between none and twice `pause` (drawn per game and ply, so
/// that 100 games do not all move at the same instant) before picking a piece.
async fn play(
    fake: &FakeDiscord,
    channel: u64,
    players: [Player; 2],
    mut board: StoredMessage,
    moves: &[String],
    first_ply: usize,
    pause: Duration,
) -> (Vec<Duration>, StoredMessage) {
    let table = Table { fake, channel, locale: "en-US" };
    let game = board.custom_ids()[0].split(':').nth(2).unwrap().to_owned();
    let mut latencies = Vec::with_capacity(moves.len());
    for (ply, mv) in (first_ply..).zip(moves) {
        let player = players[ply % 2];
        let from = mv.split('-').next().unwrap();
        if !pause.is_zero() {
            let mut h =
                (channel ^ (ply as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            h ^= h >> 31;
            tokio::time::sleep(pause.mul_f64(2.0 * (h % 1000) as f64 / 1000.0)).await;
        }
        // The answer to a menu click is the board itself, updated (type 7); waiting on it by its
        // interaction keeps the fake's work per wait small with many games waiting at once.
        let pick = table.click(player, &board, &format!("tafl:piece:{game}:{ply}"), Some(from));
        let menu = fake.wait_for_answer(&pick).await;
        let to = format!("tafl:to:{game}:{ply}:{from}");
        // Named without the moves tag after the ply, as the tests name it (see `has_control`).
        assert!(menu.has_control(&to), "{menu:#?}");
        let started = Instant::now();
        let click = table.click(player, &menu, &to, Some(mv));
        let answer = fake.wait_for_answer(&click).await;
        // When the answer reached the fake, not when this task woke up to see it.
        let answered = fake.answered_at(&click).expect("the answer was recorded");
        latencies.push(answered - started);
        assert!(answer.attachments.iter().any(|a| a.filename == format!("game-{game}-{}.png", ply + 1)), "{answer:#?}");
        board = answer;
    }
    (latencies, board)
}

/// Counts sqlx's statement events (target `sqlx::query`) while switched on; everything else is
/// off, and while it is switched off sqlx does not even describe its statements.
#[derive(Debug, Default)]
struct StatementCount {
    on: AtomicBool,
    statements: AtomicU64,
}

impl tracing::Subscriber for &'static StatementCount {
    fn register_callsite(&self, metadata: &'static tracing::Metadata<'static>) -> tracing::subscriber::Interest {
        // Asked at every use, since counting is switched on and off.
        if metadata.target() == "sqlx::query" {
            tracing::subscriber::Interest::sometimes()
        } else {
            tracing::subscriber::Interest::never()
        }
    }
    fn enabled(&self, metadata: &tracing::Metadata<'_>) -> bool {
        // sqlx asks with `enabled!` (a hint, not an event) before it describes a statement.
        metadata.target() == "sqlx::query" && self.on.load(Ordering::Relaxed)
    }
    fn new_span(&self, _: &tracing::span::Attributes<'_>) -> tracing::span::Id {
        tracing::span::Id::from_u64(1)
    }
    fn record(&self, _: &tracing::span::Id, _: &tracing::span::Record<'_>) {}
    fn record_follows_from(&self, _: &tracing::span::Id, _: &tracing::span::Id) {}
    fn event(&self, _: &tracing::Event<'_>) {
        self.statements.fetch_add(1, Ordering::Relaxed);
    }
    fn enter(&self, _: &tracing::span::Id) {}
    fn exit(&self, _: &tracing::span::Id) {}
}

fn report(label: &str, mut latencies: Vec<Duration>) {
    latencies.sort();
    let at = |q: f64| latencies[((latencies.len() - 1) as f64 * q).round() as usize].as_secs_f64() * 1000.0;
    println!(
        "{label}: {} moves, median {:.2} ms, p90 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
        latencies.len(),
        at(0.5),
        at(0.9),
        at(0.99),
        at(1.0)
    );
}

fn main() {
    let count: &'static StatementCount = Box::leak(Box::default());
    tracing::subscriber::set_global_default(count).expect("no other subscriber in the benchmark");
    let only_one = std::env::args().skip(1).any(|arg| arg == "one");
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().unwrap();
    runtime.block_on(async {
        let fake: &'static FakeDiscord = Box::leak(Box::new(FakeDiscord::start().await));
        let dir = temp_dir("latency");
        let bot = TestBot::start_as_deployed(fake, &dir);
        fake.wait_until_ready().await;

        // One move at a time.
        let (a, b) = (player(0), player(1));
        let board = start(fake, 1_700_000_000_000_000_000, a, b).await;
        let moves = random_moves(7, 250);
        let (latencies, board) =
            play(fake, 1_700_000_000_000_000_000, [a, b], board, &moves[..200], 0, Duration::ZERO).await;
        report("one game, one move at a time", latencies);

        // The same game on, counting statements. The scheduler's ticks run meanwhile; their
        // share is measured in a quiet second first and taken off.
        tokio::time::sleep(Duration::from_millis(300)).await;
        count.on.store(true, Ordering::Relaxed);
        tokio::time::sleep(Duration::from_secs(1)).await;
        let idle_per_second = count.statements.swap(0, Ordering::Relaxed) as f64;
        let started = Instant::now();
        let _ = play(fake, 1_700_000_000_000_000_000, [a, b], board, &moves[200..], 200, Duration::ZERO).await;
        // Until the last move's deliveries are done.
        tokio::time::sleep(Duration::from_millis(300)).await;
        count.on.store(false, Ordering::Relaxed);
        let counted = (moves.len() - 200) as f64;
        let statements =
            count.statements.load(Ordering::Relaxed) as f64 - idle_per_second * started.elapsed().as_secs_f64();
        println!(
            "  {:.1} SQL statements per move (the menu click, the move, and the deliveries they set off; \
             {idle_per_second:.0}/s of scheduler ticks taken off)",
            statements / counted
        );
        if only_one {
            bot.stop().await;
            let _ = std::fs::remove_dir_all(&dir);
            return;
        }

        // 100 games at once, twice: players thinking a second on average, then not at all.
        for (round, pause) in [(0, Duration::from_secs(1)), (1, Duration::ZERO)] {
            let mut boards = Vec::with_capacity(GAMES);
            for g in 0..GAMES {
                let n = 2 + 2 * (g + round * GAMES);
                let channel = 1_700_000_000_000_000_001 + (g + round * GAMES) as u64;
                let (a, b) = (player(n), player(n + 1));
                boards.push((channel, [a, b], start(fake, channel, a, b).await));
            }
            let started = Instant::now();
            let tasks: Vec<_> = boards
                .into_iter()
                .enumerate()
                .map(|(g, (channel, players, board))| {
                    let moves = random_moves(100 + g as u64, MOVES_PER_GAME);
                    tokio::spawn(async move { play(fake, channel, players, board, &moves, 0, pause).await.0 })
                })
                .collect();
            let mut latencies = Vec::with_capacity(GAMES * MOVES_PER_GAME);
            for task in tasks {
                latencies.extend(task.await.unwrap());
            }
            let elapsed = started.elapsed();
            let label = if pause.is_zero() { "moves back to back" } else { "about a second to think" };
            report(&format!("{GAMES} games at once, {label}"), latencies);
            println!(
                "  {} moves (and as many menu clicks) in {:.1} s: {:.0} moves/s",
                GAMES * MOVES_PER_GAME,
                elapsed.as_secs_f64(),
                (GAMES * MOVES_PER_GAME) as f64 / elapsed.as_secs_f64()
            );
        }
        bot.stop().await;
        let _ = std::fs::remove_dir_all(&dir);
    });
}
