//! Benchmarks of the game host on `SQLite` on disk, printing figures (QUALITY.md asks for them to
//! be rerunnable): `cargo bench -p tafl-bot --bench host`.
//!
//! * moves per second through `Host::play` (one transaction per move: load the game, replay
//!   its moves, check the new one, write it), on a single-threaded runtime;
//! * resident memory of the process with 10,000 games in the database, after touching all.

#[path = "../tests/support/mod.rs"]
mod support;

use std::time::Instant;

use support::{NOW, Rng, alice, bob, request, temp_path};
use tafl_bot::host::{Host, SideChoice};
use tafl_bot::store::Db;
use tafl_rules::{Game, Position, Variant};

/// Random games of `variant`, each at least `plies` long, as move texts.
fn random_games(variant: Variant, count: usize, plies: usize) -> Vec<Vec<String>> {
    let mut rng = Rng(0x2545_F491_4F6C_DD1D);
    let mut games = Vec::new();
    while games.len() < count {
        let mut game = Game::new(Position::new(variant.rules()).unwrap());
        while game.status().is_ongoing() && game.ply() < plies {
            let moves = game.position().legal_moves();
            game.play(moves[rng.below(moves.len())]).unwrap();
        }
        if game.ply() == plies && game.status().is_ongoing() {
            games.push(game.moves().iter().map(|m| m.mv.to_string()).collect());
        }
    }
    games
}

fn resident_kib() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| s.lines().find(|l| l.starts_with("VmRSS:")).map(str::to_owned))
        .and_then(|l| l.split_whitespace().nth(1).and_then(|n| n.parse().ok()))
        .unwrap_or(0)
}

async fn new_game(host: &Host, variant: &str) -> i64 {
    let c = host.challenge(&request(&alice(), Some(&bob()), variant, SideChoice::Attackers), NOW).await.unwrap();
    host.accept(c.id, &bob(), NOW).await.unwrap().game.id
}

async fn moves_per_second() {
    const GAMES: usize = 100;
    const PLIES: usize = 60;
    let path = temp_path("bench-moves");
    let host = Host::new(Db::open_file(&path).await.unwrap());
    let scripts = random_games(Variant::Copenhagen, GAMES, PLIES);
    let mut ids = Vec::new();
    for _ in 0..GAMES {
        ids.push(new_game(&host, "copenhagen").await);
    }
    let mut latencies = Vec::with_capacity(GAMES * PLIES);
    let start = Instant::now();
    // Round-robin over the games, as many players would move: every game grows to PLIES plies.
    for ply in 0..PLIES {
        let user = if ply % 2 == 0 { alice().id } else { bob().id };
        for (id, script) in ids.iter().zip(&scripts) {
            let t = Instant::now();
            host.play(*id, user, &script[ply], Some(ply), NOW).await.unwrap();
            latencies.push(t.elapsed());
        }
    }
    let elapsed = start.elapsed();
    latencies.sort();
    let total = GAMES * PLIES;
    let pct = |p: f64| latencies[((latencies.len() as f64 * p) as usize).min(latencies.len() - 1)];
    println!(
        "host.play, copenhagen, SQLite on disk (WAL): {total} moves in {:.2} s = {:.0} moves/s; \
         latency p50 {:?}, p99 {:?}, max {:?} (games grow from 0 to {PLIES} plies)",
        elapsed.as_secs_f64(),
        total as f64 / elapsed.as_secs_f64(),
        pct(0.5),
        pct(0.99),
        latencies[latencies.len() - 1],
    );
    // Reading a game (as /board and autocomplete do): load and replay 60 plies.
    let start = Instant::now();
    for id in &ids {
        host.show(*id).await.unwrap();
    }
    let per_show = start.elapsed() / GAMES as u32;
    let start = Instant::now();
    for id in &ids {
        let mut conn = host.db().pool().acquire().await.unwrap();
        tafl_bot::store::moves::list(&mut conn, *id).await.unwrap();
    }
    let per_list = start.elapsed() / GAMES as u32;
    println!("host.show of a {PLIES}-ply game: {per_show:?} each, of which reading its move list {per_list:?}");
    host.db().close().await;
}

async fn memory_with_many_games() {
    const GAMES: usize = 10_000;
    let path = temp_path("bench-memory");
    let host = Host::new(Db::open_file(&path).await.unwrap());
    let before = resident_kib();
    let start = Instant::now();
    let mut ids = Vec::with_capacity(GAMES);
    for _ in 0..GAMES {
        let id = new_game(&host, "copenhagen").await;
        host.play(id, alice().id, "d1-d3", Some(0), NOW).await.unwrap();
        ids.push(id);
    }
    let created = start.elapsed();
    for id in &ids {
        host.show(*id).await.unwrap();
    }
    let after = resident_kib();
    let file = std::fs::metadata(&path).map_or(0, |m| m.len());
    println!(
        "{GAMES} games created (challenge, accept, one move each) in {:.1} s; resident memory {} MiB before, \
         {} MiB after creating and showing every game; database file {} MiB",
        created.as_secs_f64(),
        before / 1024,
        after / 1024,
        file / (1024 * 1024),
    );
    host.db().close().await;
}

fn main() {
    // `cargo test --benches` runs this with `--bench` absent: keep that a quick smoke run.
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    runtime.block_on(async {
        moves_per_second().await;
        memory_with_many_games().await;
    });
}
