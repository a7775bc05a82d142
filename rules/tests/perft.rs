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

// Our own counts for the other presets, computed by this engine (release build, every node
// played). Depth 1 can be checked by hand from the layouts:
// - Brandubh cross (7x7): each arm's outer attacker (d1) has 4 moves (c1 b1 e1 f1; the corners
//   a1 and g1 are the king's), the inner one (d2) 6 along rank 2: 10 per arm, 40 in all. Every
//   7x7 preset shares it, except historical-7 with edge escape, which has no corners: 6 + 6 per
//   arm, 48.
// - Tablut cross (9x9): per arm d1 and f1 have 3 moves up and 3 (edge escape: no corners) or 2
//   (corner escape) along the edge, e1 none, e2 8: 20 or 18 per arm, so 80 (sea-battle-9,
//   historical-9) or 72 (tablut, historical-9 with corner escape).
// - The diamond (11x11) gives 116 with corners and 124 without (historical-11 with edge escape:
//   the outer attackers of the four arms may then stop on a corner, 8 more moves); the serif
//   crosses of Sea Battle give 128, 192 and 272 on 11x11, 13x13 and 15x15.
// Presets that share a layout agree as long as the rules that differ cannot come into play:
// sea-battle-9 and historical-9 (both edge escape) agree to depth 4 because within four plies no
// piece can reach the throne region where they differ, and neither can capture anything that
// the other could not; hnefatafl, historical-11 and fetlar agree with Copenhagen to depth 4 for
// the same reason (shieldwalls and forts need the edge, which four plies cannot make matter).
// Brandubh and historical-7 first differ at depth 6 (1,111,060,032 and 1,111,530,080, too slow
// for a test), where king captures of one mode end sequences the other mode continues; the unarmed king option changes Brandubh at depth 5 (64
// more sequences: captures the king can no longer make leave more pieces to move).

#[test]
fn every_preset_has_the_expected_counts_to_depth_3() {
    let table: [(Variant, &[&str], [u64; 3]); 18] = [
        (Variant::SeaBattle9, &[], [80, 4_400, 353_200]),
        (Variant::SeaBattle11, &[], [128, 12_992, 1_669_528]),
        (Variant::SeaBattle13, &[], [192, 31_512, 6_073_120]),
        (Variant::SeaBattle15, &[], [272, 66_056, 18_026_848]),
        (Variant::Tablut, &[], [72, 3_944, 285_728]),
        (Variant::Tablut, &["king_armed=false"], [72, 3_944, 285_728]),
        (Variant::Brandubh, &[], [40, 960, 39_512]),
        (Variant::Brandubh, &["king_armed=false"], [40, 960, 39_512]),
        (Variant::Hnefatafl, &[], [116, 6_788, 806_344]),
        (Variant::Hnefatafl, &["king_armed=false"], [116, 6_788, 806_344]),
        (Variant::Historical7, &[], [40, 960, 39_512]),
        (Variant::Historical7, &["escape=edge"], [48, 1_152, 56_344]),
        (Variant::Historical9, &[], [80, 4_400, 353_200]),
        (Variant::Historical9, &["escape=corner"], [72, 3_944, 285_728]),
        (Variant::Historical11, &[], [116, 6_788, 806_344]),
        (Variant::Historical11, &["escape=edge"], [124, 7_276, 920_688]),
        (Variant::Copenhagen, &[], [116, 6_788, 806_344]),
        (Variant::Fetlar, &[], [116, 6_788, 806_344]),
    ];
    for (variant, options, expected) in table {
        assert_eq!(counts(variant, options, 3), expected, "{variant} {options:?}");
    }
}

#[test]
#[ignore = "deep: about a minute in release, run with --ignored"]
fn every_small_preset_has_the_expected_counts_at_depth_4_and_5() {
    let table: [(Variant, &[&str], u32, u64); 11] = [
        (Variant::SeaBattle9, &[], 4, 19_913_864),
        (Variant::SeaBattle11, &[], 4, 170_213_688),
        (Variant::Tablut, &[], 4, 15_951_824),
        (Variant::Historical9, &["escape=corner"], 4, 15_951_824),
        (Variant::Hnefatafl, &[], 4, 50_456_804),
        (Variant::Historical11, &[], 4, 50_456_804),
        (Variant::Historical11, &["escape=edge"], 4, 57_885_012),
        (Variant::Fetlar, &[], 4, 50_456_804),
        (Variant::Brandubh, &[], 5, 41_843_336),
        (Variant::Brandubh, &["king_armed=false"], 5, 41_843_400),
        (Variant::Historical7, &["escape=edge"], 5, 71_600_912),
    ];
    for (variant, options, depth, expected) in table {
        assert_eq!(counts(variant, options, depth)[depth as usize - 1], expected, "{variant} {options:?}");
    }
}
