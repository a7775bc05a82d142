//! Rules benchmark: `cargo bench -p tafl-rules --bench perft [-- VARIANT DEPTH]`.
//!
//! Without arguments: the cost of one move request (legal moves plus a checked move), then perft
//! of four presets. With arguments: perft of one preset to one depth.
//!
//! Prints nodes, seconds and nodes per second. Every node is played (no bulk counting at the
//! last ply), so the figure is the cost of generating, playing and judging moves.
//!
//! Copenhagen at depth 4 is also counted by the independent `hnefatafl` crate (0.0.2) in the
//! same run, and the ratio of the two times is printed (the goal is 10x or more). That crate
//! tracks repetition its own way, so its count may differ by the odd repeated line; both counts
//! are printed.

use std::time::Instant;

use tafl_rules::{Game, Position, Variant, perft};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).filter(|a| !a.starts_with("--")).collect();
    if args.is_empty() {
        per_position();
    }
    let runs: Vec<(Variant, u32)> = if args.len() >= 2 {
        vec![(args[0].parse().expect("a variant id"), args[1].parse().expect("a depth"))]
    } else {
        vec![(Variant::Copenhagen, 4), (Variant::Historical7, 5), (Variant::Historical9, 4), (Variant::SeaBattle11, 4)]
    };
    let mut copenhagen_secs = None;
    for (variant, depth) in runs {
        let rules = match variant {
            Variant::Historical9 => variant.rules_with_texts(&["escape=edge"]).expect("a valid option"),
            _ => variant.rules(),
        };
        let position = Position::new(rules).expect("presets are valid");
        let start = Instant::now();
        let nodes = perft(&position, depth);
        let secs = start.elapsed().as_secs_f64();
        println!(
            "perft {variant} depth {depth}: {nodes} nodes in {secs:.3} s ({:.1} M nodes/s)",
            nodes as f64 / secs / 1e6
        );
        if variant == Variant::Copenhagen && depth == 4 {
            copenhagen_secs = Some(secs);
        }
    }
    if let Some(ours) = copenhagen_secs {
        let (nodes, theirs) = reference::copenhagen_perft(4);
        println!(
            "hnefatafl 0.0.2 copenhagen depth 4: {nodes} nodes in {theirs:.3} s; tafl-rules is {:.1}x faster",
            theirs / ours
        );
    }
}

/// Perft over the `hnefatafl` crate, written the same way as ours: every node played.
mod reference {
    use std::time::Instant;

    use hnefatafl::aliases::{MediumBasicGameLogic, MediumBasicGameState};
    use hnefatafl::board::state::BoardState;
    use hnefatafl::game::GameStatus;
    use hnefatafl::preset::{boards, rules};

    pub fn copenhagen_perft(depth: u32) -> (u64, f64) {
        let state = MediumBasicGameState::new(boards::COPENHAGEN, rules::COPENHAGEN.starting_side)
            .expect("the crate's own preset parses");
        let logic = MediumBasicGameLogic::new(rules::COPENHAGEN, state.board.side_len());
        let start = Instant::now();
        let nodes = perft(&logic, &state, depth);
        (nodes, start.elapsed().as_secs_f64())
    }

    fn perft(logic: &MediumBasicGameLogic, state: &MediumBasicGameState, depth: u32) -> u64 {
        let mut nodes = 0;
        for tile in state.board.occupied_by_side(state.side_to_play) {
            for play in logic.iter_plays(tile, state).expect("an occupied tile") {
                let child = logic.do_valid_play(play, *state).new_state;
                if depth == 1 {
                    nodes += 1;
                } else if child.status == GameStatus::Ongoing {
                    nodes += perft(logic, &child, depth - 1);
                }
            }
        }
        nodes
    }
}

/// What validating one move request costs: the legal-move list of a position (as autocomplete
/// needs it) plus checking and playing one move with every ending judged. Positions come from a
/// deterministic pseudo-random Copenhagen game, so they are varied mid-game positions.
fn per_position() {
    let mut game = Game::new(Position::new(Variant::Copenhagen.rules()).expect("presets are valid"));
    let mut positions = Vec::new();
    let mut seed = 0x2545_f491_4f6c_dd1d_u64;
    while positions.len() < 200 && game.status().is_ongoing() {
        positions.push(game.position().clone());
        let moves = game.position().legal_moves();
        seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        let mv = moves[(seed >> 33) as usize % moves.len()];
        game.play(mv).expect("a legal move");
    }
    let rounds = 2_000;
    let start = Instant::now();
    let mut sink = 0usize;
    for _ in 0..rounds {
        for position in &positions {
            let moves = position.legal_moves();
            let mut next = position.clone();
            let effects = next.play(moves[moves.len() / 2]).expect("a legal move");
            sink += moves.len() + effects.captures.len();
        }
    }
    let per = start.elapsed().as_secs_f64() / (rounds * positions.len()) as f64;
    println!(
        "legal moves + one checked move with outcome, {} Copenhagen positions: {:.2} µs per position ({sink} moves seen)",
        positions.len(),
        per * 1e6
    );
}
