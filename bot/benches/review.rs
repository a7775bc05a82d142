//! The post-game review's cost, printed as figures: `cargo bench -p tafl-bot --bench review`.
//!
//! A review searches every position of a finished game within `PLY_LIMITS` (a node budget), so
//! its cost grows with the game's length; the budget is chosen so that a 200-ply Copenhagen game
//! is reviewed in seconds on one core, in the background after the game ends.

use std::hint::black_box;
use std::time::Instant;

use tafl_bot::host::review::{PLY_LIMITS, review};
use tafl_rules::{Game, Position, Variant};

/// A random legal game of `variant` with exactly `plies` plies, still going: the same on every
/// run (a small xorshift picks the moves; games that end early are dropped).
fn random_game(variant: Variant, plies: usize) -> Game {
    let mut state: u64 = 0x2545_F491_4F6C_DD1D;
    loop {
        let mut game = Game::new(Position::new(variant.rules()).unwrap());
        while game.status().is_ongoing() && game.ply() < plies {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let moves = game.position().legal_moves();
            game.play(moves[(state % moves.len() as u64) as usize]).unwrap();
        }
        if game.ply() == plies && game.status().is_ongoing() {
            return game;
        }
    }
}

fn main() {
    println!("per-ply limits: {PLY_LIMITS:?}");
    for (variant, plies) in [(Variant::Brandubh, 60), (Variant::Copenhagen, 100), (Variant::Copenhagen, 200)] {
        let game = random_game(variant, plies);
        let started = Instant::now();
        let found = black_box(review(&game, &PLY_LIMITS));
        let elapsed = started.elapsed();
        println!(
            "review {:<12} {plies:>3} plies: {:>7.3} s ({:>5.1} ms per position; turning point at ply {})",
            variant.id(),
            elapsed.as_secs_f64(),
            elapsed.as_secs_f64() * 1000.0 / (plies + 1) as f64,
            found.turning_point.map_or_else(|| "-".to_owned(), |t| t.ply.to_string()),
        );
    }
}
