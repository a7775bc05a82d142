//! Perft benchmark: `cargo bench -p tafl-rules --bench perft [-- VARIANT DEPTH]`.
//!
//! Prints nodes, seconds and nodes per second. Every node is played (no bulk counting at the
//! last ply), so the figure is the cost of generating, playing and judging moves.

use std::time::Instant;

use tafl_rules::{Position, Variant, perft};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).filter(|a| !a.starts_with("--")).collect();
    let runs: Vec<(Variant, u32)> = if args.len() >= 2 {
        vec![(args[0].parse().expect("a variant id"), args[1].parse().expect("a depth"))]
    } else {
        vec![(Variant::Copenhagen, 4), (Variant::Historical7, 5), (Variant::Historical9, 4), (Variant::SeaBattle11, 4)]
    };
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
    }
}
