//! Move counts from the start positions. The values of VARIANTS.md §5 were agreed by two
//! independent engines; the deep ones run with `cargo test -- --ignored` and in the benchmark.

use tafl_rules::{Position, Variant, perft};

fn counts(variant: Variant, options: &[&str], depth: u32) -> Vec<u64> {
    let rules = variant.rules_with_texts(options).expect("valid options");
    let position = Position::new(rules).expect("presets are valid");
    (1..=depth).map(|d| perft(&position, d)).collect()
}

#[test]
fn copenhagen_matches_the_published_counts_to_depth_3() {
    assert_eq!(counts(Variant::Copenhagen, &[], 3), [116, 6_788, 806_344]);
}

#[test]
#[ignore = "deep: about a second in release, run with --ignored"]
fn copenhagen_matches_the_published_count_at_depth_4() {
    assert_eq!(counts(Variant::Copenhagen, &[], 4)[3], 50_456_804);
}

#[test]
fn historical_7_matches_the_published_counts_to_depth_4() {
    assert_eq!(counts(Variant::Historical7, &[], 4), [40, 960, 39_512, 1_007_392]);
}

#[test]
#[ignore = "deep: run with --ignored"]
fn historical_7_matches_the_published_count_at_depth_5() {
    assert_eq!(counts(Variant::Historical7, &[], 5)[4], 41_843_336);
}

#[test]
fn historical_9_with_edge_escape_matches_the_published_counts_to_depth_3() {
    assert_eq!(counts(Variant::Historical9, &["escape=edge"], 3), [80, 4_400, 353_200]);
}

#[test]
#[ignore = "deep: run with --ignored"]
fn historical_9_with_edge_escape_matches_the_published_count_at_depth_4() {
    assert_eq!(counts(Variant::Historical9, &["escape=edge"], 4)[3], 19_913_864);
}
