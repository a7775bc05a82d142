//! Positions and games shared by the renderer's tests and benchmark.
#![allow(dead_code)] // each test file uses a different part

use tafl_rules::{Game, Position, Rules, Setup, Side, Variant};

pub fn start(variant: Variant) -> Position {
    Position::new(variant.rules()).expect("presets are valid")
}

pub fn from_otn(rules: Rules, otn: &str, to_move: Side) -> Position {
    let setup: Setup = otn.parse().expect("test positions are valid OTN");
    Position::from_setup(rules, &setup, to_move).expect("test positions are legal")
}

/// A legal game of up to `plies` plies, the same on every run: a small LCG picks among the
/// legal moves, and a game that ends early is thrown away and started again with the next seed.
pub fn scripted_game(variant: Variant, plies: usize) -> Game {
    let mut seed: u64 = 0x2545_f491_4f6c_dd1d;
    loop {
        let mut game = Game::new(start(variant));
        while game.ply() < plies && game.status().is_ongoing() {
            seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
            let moves = game.position().legal_moves();
            let mv = moves[(seed >> 33) as usize % moves.len()];
            game.play(mv).expect("legal moves are legal");
        }
        if game.ply() == plies {
            return game;
        }
    }
}
