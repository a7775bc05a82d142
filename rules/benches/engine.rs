//! Engine benchmark: `cargo bench -p tafl-rules --bench engine [-- VARIANT]`.
//!
//! Prints, for positions from a seeded random game of each preset: the nodes per second of a
//! fixed-depth search, and for time budgets of 100, 500 and 2,000 ms how long the search really
//! took (the goal: within 10% of the budget, never over it by more).

use std::time::Instant;

use tafl_rules::engine::{Limits, Searcher};
use tafl_rules::{Game, Position, Variant};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).filter(|a| !a.starts_with("--")).collect();
    let variants: Vec<Variant> = match args.first() {
        Some(id) => vec![id.parse().expect("a variant id")],
        None => vec![Variant::Brandubh, Variant::Tablut, Variant::Copenhagen],
    };
    for variant in variants {
        let games = positions(variant);
        let mut nodes = 0;
        let start = Instant::now();
        for game in &games {
            nodes += Searcher::new().analyse(game, &Limits::nodes(200_000)).map_or(0, |a| a.nodes);
        }
        let secs = start.elapsed().as_secs_f64();
        println!("{variant}: {nodes} nodes in {secs:.2} s, {:.0} k nodes/s", nodes as f64 / secs / 1e3);
        for budget in [100, 500, 2_000] {
            let mut worst: f64 = 0.0;
            let mut total = 0.0;
            for game in games.iter().take(4) {
                let start = Instant::now();
                let _ = Searcher::new().analyse(game, &Limits::millis(budget));
                let took = start.elapsed().as_secs_f64() * 1e3;
                worst = worst.max(took);
                total += took;
            }
            println!(
                "{variant}: budget {budget} ms: mean {:.0} ms, worst {worst:.0} ms ({:+.1}% of the budget)",
                total / 4.0,
                (worst / budget as f64 - 1.0) * 100.0
            );
        }
    }
}

/// Positions after 0, 10, 20, … plies of a seeded random game.
fn positions(variant: Variant) -> Vec<Game> {
    let mut game = Game::new(Position::new(variant.rules()).expect("presets are valid"));
    let mut out = vec![game.clone()];
    let mut seed = 0x2545_f491_4f6c_dd1d_u64;
    while out.len() < 8 && game.status().is_ongoing() {
        seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        let moves = game.position().legal_moves();
        game.play(moves[(seed >> 33) as usize % moves.len()]).expect("a legal move");
        if game.ply().is_multiple_of(10) && game.status().is_ongoing() {
            out.push(game.clone());
        }
    }
    out
}
