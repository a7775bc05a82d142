//! How far one process on `SQLite` goes, for the README's "when to move to `PostgreSQL`":
//! `cargo bench -p tafl-bot --bench sqlite_limits`.
//!
//! Moves per second through `Host::play` (one write transaction per move: load the game, replay
//! its moves, check the new one, write it with its outbox items) on a database file on disk
//! (WAL), with 1, 4 and 16 players' tasks moving at once on a two-thread runtime, each task in
//! games of its own. Writes in one process take turns (`BEGIN IMMEDIATE` behind an in-process
//! queue), so more tasks show how much of a move is the single writer's turn and how much runs
//! beside it. Figures are wall time on this shared machine: run it when the machine is quiet,
//! and rerun to see the spread.

#[path = "../tests/support/mod.rs"]
mod support;

use std::sync::Arc;
use std::time::{Duration, Instant};

use support::{NOW, Rng, alice, bob, request, temp_path};
use tafl_bot::host::{Host, SideChoice};
use tafl_bot::store::Db;
use tafl_rules::{Game, Position, Variant};

/// Plies of each game: long enough that replaying a game is part of the cost, as it is in play.
const PLIES: usize = 40;

/// A random Copenhagen game that lasts `PLIES` plies, as move texts.
fn random_game(rng: &mut Rng) -> Vec<String> {
    loop {
        let mut game = Game::new(Position::new(Variant::Copenhagen.rules()).unwrap());
        while game.status().is_ongoing() && game.ply() < PLIES {
            let moves = game.position().legal_moves();
            game.play(moves[rng.below(moves.len())]).unwrap();
        }
        if game.ply() == PLIES && game.status().is_ongoing() {
            return game.moves().iter().map(|m| m.mv.to_string()).collect();
        }
    }
}

/// `tasks` tasks, each playing `games_per_task` games to `PLIES` plies round-robin: moves per
/// second and the p50 / p99 time of one `play`.
async fn run(tasks: usize, games_per_task: usize) -> (f64, Duration, Duration) {
    let path = temp_path(&format!("limits-{tasks}"));
    let host = Host::new(Db::open_file(&path).await.unwrap());
    let mut rng = Rng(0x2545_F491_4F6C_DD1D);
    let mut work = Vec::new();
    for _ in 0..tasks {
        let mut games = Vec::new();
        for _ in 0..games_per_task {
            let challenge = host
                .challenge(&request(&alice(), Some(&bob()), "copenhagen", SideChoice::Attackers), NOW)
                .await
                .unwrap();
            let id = host.accept(challenge.id, &bob(), NOW).await.unwrap().game.id;
            games.push((id, random_game(&mut rng)));
        }
        work.push(games);
    }
    let host = Arc::new(host);
    let start = Instant::now();
    let handles: Vec<_> = work
        .into_iter()
        .map(|games| {
            let host = host.clone();
            tokio::spawn(async move {
                let mut latencies = Vec::with_capacity(games.len() * PLIES);
                for ply in 0..PLIES {
                    let user = if ply % 2 == 0 { alice().id } else { bob().id };
                    for (id, script) in &games {
                        let t = Instant::now();
                        host.play(*id, user, &script[ply], Some(ply), NOW).await.unwrap();
                        latencies.push(t.elapsed());
                    }
                }
                latencies
            })
        })
        .collect();
    let mut latencies = Vec::new();
    for handle in handles {
        latencies.extend(handle.await.unwrap());
    }
    let elapsed = start.elapsed();
    host.db().close().await;
    let _ = std::fs::remove_file(&path);
    latencies.sort();
    let at = |p: f64| latencies[((latencies.len() as f64 * p) as usize).min(latencies.len() - 1)];
    (latencies.len() as f64 / elapsed.as_secs_f64(), at(0.5), at(0.99))
}

fn main() {
    // `cargo test --benches` runs this without `--bench`: a quick smoke run then.
    let full = std::env::args().any(|a| a == "--bench");
    let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
    runtime.block_on(async {
        for tasks in [1, 4, 16] {
            let games = if full { 64 / tasks.min(64) } else { 1 };
            let (per_second, p50, p99) = run(tasks, games.max(1)).await;
            println!(
                "SQLite on disk, one process, {tasks:>2} task(s) moving at once: {per_second:>5.0} moves/s; \
                 Host::play p50 {p50:?}, p99 {p99:?} ({PLIES}-ply Copenhagen games)"
            );
        }
    });
}
