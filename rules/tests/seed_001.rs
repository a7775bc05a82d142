//! Seed 001 (Tablut, Brandubh, Hnefatafl): corner escape, a king-only impassable throne hostile to
//! everyone when empty, hostile empty corners, an armed king (option `king_armed=false`),
//! middleweight king capture, no shieldwall, no fort, no encirclement, repetition draws.

mod common;

use common::{
    ATTACKERS, DEFENDERS, ONGOING, assert_illegal, assert_king_move, assert_move, attackers_win, defenders_win,
    destinations, draw, game, play_all, position, rules,
};
use tafl_rules::{Position, Reason, Rules, Side, Status, Variant, VariantOption};

fn tablut() -> Rules {
    rules(Variant::Tablut, &[])
}

fn tablut_unarmed() -> Rules {
    rules(Variant::Tablut, &["king_armed=false"])
}

const SEED_001: [Variant; 3] = [Variant::Tablut, Variant::Brandubh, Variant::Hnefatafl];

#[test]
fn every_seed_001_board_has_a_central_throne_and_four_corners() {
    for variant in SEED_001 {
        let position = Position::new(variant.rules()).expect("presets are valid");
        let last = position.size() - 1;
        let centre = last / 2;
        for file in 0..=last {
            for rank in 0..=last {
                let square = tafl_rules::Square::new(file, rank).expect("on the board");
                assert_eq!(position.is_throne(square), file == centre && rank == centre, "{variant} {square}");
                let corner = (file == 0 || file == last) && (rank == 0 || rank == last);
                assert_eq!(position.is_corner(square), corner, "{variant} {square}");
            }
        }
    }
}

#[test]
fn the_unarmed_king_is_an_option_of_every_seed_001_preset_and_nothing_else() {
    for variant in SEED_001 {
        assert!(variant.rules().king_armed, "{variant} arms the king by default");
        assert!(!rules(variant, &["king_armed=false"]).king_armed, "{variant}");
        assert!(rules(variant, &["king_armed=true"]).king_armed, "{variant}");
        let refused = VariantOption::parse(variant, "escape=edge").expect_err("no escape option");
        assert_eq!(
            refused.to_string(),
            format!(
                "{variant} has no option \"escape\"; the king escapes to a corner in {variant}, and its options are: king_armed"
            )
        );
    }
    let bad = VariantOption::parse(Variant::Tablut, "king_armed=maybe").expect_err("not a boolean");
    assert_eq!(bad.to_string(), "option king_armed of tablut takes true or false, not \"maybe\"");
}

#[test]
fn the_seed_001_presets_play_middleweight_without_shieldwall_fort_or_encirclement_and_draw_on_repetition() {
    for variant in SEED_001 {
        let r = variant.rules();
        assert_eq!(r.king_capture, tafl_rules::KingCapture::Middleweight, "{variant}");
        assert_eq!(r.shieldwall, tafl_rules::Shieldwall::Off, "{variant}");
        assert!(!r.exit_fort && !r.encirclement, "{variant}");
        assert_eq!(r.repetition, tafl_rules::Repetition::Draw, "{variant}");
        assert_eq!(r.escape, tafl_rules::Escape::Corner, "{variant}");
    }
}

const THRONE_LANES: &str = "
    9 # . . . . . . . #
    8 . . . . . . . . .
    7 . . . . t . . . .
    6 . . . . . . . . .
    5 . . T . + . . . .
    4 . . . . . . . . .
    3 t . . . . . . . .
    2 . . . . K . . . .
    1 # . . . . . . . #
      a b c d e f g h i
    ";

#[test]
fn only_the_king_may_stop_on_or_pass_the_throne() {
    let defenders = position(&tablut(), THRONE_LANES, DEFENDERS);
    assert_eq!(destinations(&defenders, "c5"), ["a5", "b5", "c1", "c2", "c3", "c4", "c6", "c7", "c8", "c9", "d5"]);
    let king = destinations(&defenders, "e2");
    for square in ["e3", "e4", "e5", "e6", "e1", "a2", "i2"] {
        assert!(king.contains(&square.to_owned()), "the king reaches {square}: {king:?}");
    }
    let attackers = position(&tablut(), THRONE_LANES, ATTACKERS);
    assert_eq!(destinations(&attackers, "e7"), ["a7", "b7", "c7", "d7", "e6", "e8", "e9", "f7", "g7", "h7", "i7"]);
    assert_move(&tablut(), THRONE_LANES, DEFENDERS, "e2-e6", &[], ONGOING);
    assert_move(&tablut(), THRONE_LANES, DEFENDERS, "e2-e5", &[], ONGOING);
}

#[test]
fn moves_onto_or_through_the_throne_or_a_corner_are_refused_with_a_reason() {
    let cases = [
        (DEFENDERS, "c5-e5", "c5-e5: only the king may stop on the throne"),
        (DEFENDERS, "c5-f5", "c5-f5: a piece cannot pass the throne"),
        (DEFENDERS, "c5-i5", "c5-i5: a piece cannot pass the throne"),
        (ATTACKERS, "e7-e5", "e7-e5: only the king may stop on the throne"),
        (ATTACKERS, "e7-e3", "e7-e3: a piece cannot pass the throne"),
        (ATTACKERS, "a3-a1", "a3-a1: only the king may stop on a corner"),
        (ATTACKERS, "a3-a9", "a3-a9: only the king may stop on a corner"),
        (DEFENDERS, "e2-e8", "e2-e8: the way is blocked by the piece on e7"),
    ];
    for (side, mv, message) in cases {
        assert_illegal(&tablut(), THRONE_LANES, side, mv, message);
    }
}

#[test]
fn the_king_escapes_only_on_a_corner() {
    let board = "
        9 # . . . . . . . #
        8 . . . . . . . . .
        7 . . . . . . . . .
        6 . . . . . . . . .
        5 . . . . + . . . .
        4 . . . . . . . t .
        3 . . . . . . . . .
        2 . . . . . . . . .
        1 # . . K . . . . #
          a b c d e f g h i
        ";
    assert_move(&tablut(), board, DEFENDERS, "d1-a1", &[], defenders_win(Reason::KingEscaped));
    assert_move(&tablut(), board, DEFENDERS, "d1-i1", &[], defenders_win(Reason::KingEscaped));
    assert_move(&tablut(), board, DEFENDERS, "d1-b1", &[], ONGOING);
    assert_move(&tablut(), board, DEFENDERS, "d1-d9", &[], ONGOING);
}

/// Diagrams shared by the armed and the unarmed king: (what it shows, board, side, move,
/// captures with an armed king, captures with an unarmed one).
type HostileCase = (&'static str, &'static str, Side, &'static str, &'static [&'static str], &'static [&'static str]);

const HOSTILITY: [HostileCase; 10] = [
    (
        "a defender between two attackers is captured",
        "
        9 # . . . . . . . #
        8 . . . . . . . . .
        7 . . . . . . . . .
        6 . . . . . . . . .
        5 . . . . + . . . .
        4 . . . . . . . . .
        3 . t T . . t . . .
        2 . . . . . . K . .
        1 # . . . . . . . #
          a b c d e f g h i
        ",
        ATTACKERS,
        "f3-d3",
        &["c3"],
        &["c3"],
    ),
    (
        "the empty throne is hostile to attackers",
        "
        9 # . . . . . . . #
        8 . . . . . . . . .
        7 T . . . . . . . .
        6 . . . . t . . . .
        5 . . . . + . . . .
        4 . . . . . . . . .
        3 . . . . . . . . .
        2 . . K . . . . t .
        1 # . . . . . . . #
          a b c d e f g h i
        ",
        DEFENDERS,
        "a7-e7",
        &["e6"],
        &["e6"],
    ),
    (
        "the empty throne is hostile to defenders",
        "
        9 # . . . . . . . #
        8 . . t . . . . . .
        7 . . . . . . . . .
        6 . . . . . . . . .
        5 . . . T + . . . .
        4 . . . . . . . . .
        3 . . . . . . . . .
        2 . . . . . . K . .
        1 # . . . . . . . #
          a b c d e f g h i
        ",
        ATTACKERS,
        "c8-c5",
        &["d5"],
        &["d5"],
    ),
    (
        "moving next to the empty throne is safe",
        "
        9 # . . . . . . . #
        8 . . . . . . . . .
        7 . . . . . . . . .
        6 . . . T . . . . .
        5 . . t . + . . . .
        4 . . . . . . . . .
        3 . . . . . . . . .
        2 . . . . . . K . t
        1 # . . . . . . . #
          a b c d e f g h i
        ",
        DEFENDERS,
        "d6-d5",
        &[],
        &[],
    ),
    (
        "an empty corner is hostile to defenders",
        "
        9 # . . . . . . . #
        8 . . . . . . . . .
        7 . . . . . . . . .
        6 . . t . . . . . .
        5 . . . . + . . . .
        4 . . . . . . . . .
        3 . . . . . . K . .
        2 . . . . . . . . .
        1 # T . . . . . . #
          a b c d e f g h i
        ",
        ATTACKERS,
        "c6-c1",
        &["b1"],
        &["b1"],
    ),
    (
        "an empty corner is hostile to attackers",
        "
        9 # . . . . . . . #
        8 . . . . . . . . .
        7 . . . . . . . . .
        6 . . . . . . . . .
        5 . . . . + . . . .
        4 . . . . . . . . .
        3 . . . T . . K . .
        2 t . . . . . . . t
        1 # . . . . . . . #
          a b c d e f g h i
        ",
        DEFENDERS,
        "d3-a3",
        &["a2"],
        &["a2"],
    ),
    (
        "the king on the throne counts as the king: a bracket only if he is armed",
        "
        9 # . . . . . . . #
        8 . . . . . . . . .
        7 T . . . . . . . .
        6 . . . . t . . . .
        5 . . . . K . . . .
        4 . . . . . . . . .
        3 . . . . . . . . .
        2 . . . . . . . t .
        1 # . . . . . . . #
          a b c d e f g h i
        ",
        DEFENDERS,
        "a7-e7",
        &["e6"],
        &[],
    ),
    (
        "the king on the throne is a friend to defenders, not hostile",
        "
        9 # . . . . . . . #
        8 . . t . . . . . .
        7 . . . . . . . . .
        6 . . . . . . . . .
        5 . . . T K . . . .
        4 . . . . . . . . .
        3 . . . . . . . . .
        2 . . . . . . . . .
        1 # . . . . . . . #
          a b c d e f g h i
        ",
        ATTACKERS,
        "c8-c5",
        &[],
        &[],
    ),
    (
        "the king captures when he moves only if he is armed",
        "
        9 # . . . . . . . #
        8 . . . . . . . . .
        7 . . . . . . . . .
        6 . . . . . . . . .
        5 . . . . + . . . .
        4 . . . . . . . . .
        3 . T t . . . . . .
        2 . . . K . . . t .
        1 # . . . . . . . #
          a b c d e f g h i
        ",
        DEFENDERS,
        "d2-d3",
        &["c3"],
        &[],
    ),
    (
        "the king is a bracket only if he is armed",
        "
        9 # . . . . . . . #
        8 . . . . . . . . .
        7 . . . . . . . . .
        6 . . . . . . . . .
        5 . . . . + . . . .
        4 . . . . . . . . .
        3 . K t . . . . T .
        2 . . . . . . . t .
        1 # . . . . . . . #
          a b c d e f g h i
        ",
        DEFENDERS,
        "h3-d3",
        &["c3"],
        &[],
    ),
];

#[test]
fn custodial_captures_against_pieces_the_throne_and_corners_with_an_armed_king() {
    for (name, board, side, mv, armed, _) in HOSTILITY {
        eprintln!("case: {name}");
        assert_move(&tablut(), board, side, mv, armed, ONGOING);
    }
}

#[test]
fn custodial_captures_against_pieces_the_throne_and_corners_with_an_unarmed_king() {
    for (name, board, side, mv, _, unarmed) in HOSTILITY {
        eprintln!("case: {name}");
        assert_move(&tablut_unarmed(), board, side, mv, unarmed, ONGOING);
    }
}

#[test]
fn one_move_captures_up_to_three_pieces() {
    assert_move(
        &tablut(),
        "
        9 # . . . . . . . #
        8 . . . . . . . . .
        7 . . . . . . K . .
        6 . . . . . . . . .
        5 . . t . + . . . .
        4 . . T . . . . . .
        3 t . . T t . . . .
        2 . . T . . . . . .
        1 # . t . . . . . #
          a b c d e f g h i
        ",
        ATTACKERS,
        "a3-c3",
        &["c2", "c4", "d3"],
        ONGOING,
    );
}

/// (what it shows, board, move, status)
type KingCase = (&'static str, &'static str, &'static str, Status);

const CAPTURED: Status = attackers_win(Reason::KingCaptured);

const MIDDLEWEIGHT: [KingCase; 10] = [
    (
        "on the throne the fourth attacker captures the king",
        "
        9 # . . . . . . . #
        8 . . . . . . . . .
        7 . . . . . . . . .
        6 . . . . t . . . .
        5 . . . t K t . . .
        4 . . . . . . . . .
        3 . . . . t . . . .
        2 . . . . . . . . .
        1 # . . . . . . . #
          a b c d e f g h i
        ",
        "e3-e4",
        CAPTURED,
    ),
    (
        "on the throne three attackers and a defender do not capture",
        "
        9 # . . . . . . . #
        8 . . . . . . . . .
        7 . . . . . . . . .
        6 . . . . t . . . .
        5 . . . t K T . . .
        4 . . . . . . . . .
        3 . . . . t . . . .
        2 . . . . . . . . .
        1 # . . . . . . . #
          a b c d e f g h i
        ",
        "e3-e4",
        ONGOING,
    ),
    (
        "next to the throne three attackers and the throne capture",
        "
        9 # . . . . . . . #
        8 . . . . . . . . .
        7 t . . . . . . . .
        6 . . . t K t . . .
        5 . . . . + . . . .
        4 . . . . . . . . .
        3 . . . . . . . . .
        2 . . . . . . . . .
        1 # . . . . . . . #
          a b c d e f g h i
        ",
        "a7-e7",
        CAPTURED,
    ),
    (
        "in the open two attackers on opposite sides do not capture",
        "
        9 # . . . . . . . #
        8 . . . . . . . . .
        7 . . . . . . . . .
        6 . . . . . . . . .
        5 . . . . + . . . .
        4 . . . . . . . . .
        3 . t K . . . . . .
        2 . . . t . . . . .
        1 # . . . . . . . #
          a b c d e f g h i
        ",
        "d2-d3",
        ONGOING,
    ),
    (
        "in the open three attackers do not capture",
        "
        9 # . . . . . . . #
        8 . . . . . . . . .
        7 . . . . . . . . .
        6 . . . . . . . . .
        5 . . . . + . . . .
        4 . . t . . . . . .
        3 . t K . . . . . .
        2 . . . t . . . . .
        1 # . . . . . . . #
          a b c d e f g h i
        ",
        "d2-d3",
        ONGOING,
    ),
    (
        "in the open the fourth attacker captures",
        "
        9 # . . . . . . . #
        8 . . . . . . . . .
        7 . . . . . . . . .
        6 . . . . . . . . .
        5 . . . . + . . . .
        4 . . t . . . . . .
        3 . t K . . . . . .
        2 . . t t . . . . .
        1 # . . . . . . . #
          a b c d e f g h i
        ",
        "d2-d3",
        CAPTURED,
    ),
    (
        "on the edge three attackers capture",
        "
        9 # . . . . . . . #
        8 . . . . . . . . .
        7 . . . . . . . . .
        6 . . . . . . . . .
        5 . . . . + . . . .
        4 . . . . . . . . .
        3 . . . . . . . . .
        2 . . . . . . . t .
        1 # . . t K t . . #
          a b c d e f g h i
        ",
        "h2-e2",
        CAPTURED,
    ),
    (
        "on the edge two attackers do not capture",
        "
        9 # . . . . . . . #
        8 . . . . . . . . .
        7 . . . . . . . . .
        6 . . . . . . . . .
        5 . . . . + . . . .
        4 . . . . . . . . .
        3 . . . . . . . . .
        2 . . . . . . . t .
        1 # . . . K t . . #
          a b c d e f g h i
        ",
        "h2-e2",
        ONGOING,
    ),
    (
        "next to a corner two attackers capture",
        "
        9 # . . . . . . . #
        8 . . . . . . . . .
        7 . . . . . . . . .
        6 . . . . . . . . .
        5 . . . . + . . . .
        4 . . . . . . . . .
        3 . . . . . . . . .
        2 . . . . . . t . .
        1 # K t . . . . . #
          a b c d e f g h i
        ",
        "g2-b2",
        CAPTURED,
    ),
    (
        "next to a corner one attacker does not capture",
        "
        9 # . . . . . . . #
        8 . . . . . . . . .
        7 . . . . . . . . .
        6 . . . . . . . . .
        5 . . . . + . . . .
        4 . . . . . . . . .
        3 . . . . . . . . .
        2 . . . . . . t . .
        1 # K . . . . . . #
          a b c d e f g h i
        ",
        "g2-b2",
        ONGOING,
    ),
];

#[test]
fn the_king_is_captured_middleweight_on_the_throne_next_to_it_in_the_open_and_on_the_edge() {
    for (name, board, mv, status) in MIDDLEWEIGHT {
        eprintln!("case: {name}");
        assert_king_move(&tablut(), board, mv, status);
    }
}

#[test]
fn middleweight_capture_does_not_depend_on_the_king_being_armed() {
    for (name, board, mv, status) in MIDDLEWEIGHT {
        eprintln!("case: {name}");
        assert_move(&tablut_unarmed(), board, ATTACKERS, mv, &[], status);
    }
}

#[test]
fn a_king_who_steps_between_two_attackers_on_the_edge_is_taken_when_the_third_closes_the_inside() {
    let mut g = game(
        &tablut(),
        "
        9 # . . . . . . . #
        8 . . . . . . . . .
        7 . . . . . . . . .
        6 . . . . . . . . .
        5 . . . . + . . . .
        4 . . . . K . . . .
        3 . . . . . . . . .
        2 . . . . . . . . t
        1 # . . t . t . . #
          a b c d e f g h i
        ",
        DEFENDERS,
    );
    let statuses = play_all(&mut g, &["e4-e1", "i2-e2"]);
    assert_eq!(statuses, [ONGOING, CAPTURED]);
}

#[test]
fn a_king_between_two_attackers_is_not_taken_by_a_third_that_leaves_a_side_open() {
    let mut g = game(
        &tablut(),
        "
        9 # . . . . . . . #
        8 . . . . . . . . .
        7 . . . . . . . . .
        6 . . . . . . . . .
        5 . . . . + . . . .
        4 . . . . . . . . .
        3 . . . t . t . . .
        2 . . . . K . . . .
        1 # . . . . . . . #
          a b c d e f g h i
        ",
        DEFENDERS,
    );
    let statuses = play_all(&mut g, &["e2-e3", "d3-d2", "e3-e2"]);
    // After e2-e3 the king stands between d3 and f3; d3-d2 leaves him. Then he steps back.
    assert_eq!(statuses, [ONGOING, ONGOING, ONGOING]);
    let mut g = game(
        &tablut(),
        "
        9 # . . . . . . . #
        8 . . . . . . . . .
        7 . . . . . . . . .
        6 . . . . . . . . .
        5 . . . . + . . . .
        4 . . . . . . . . t
        3 . . . t . t . . .
        2 . . . . K . . . .
        1 # . . . . . . . #
          a b c d e f g h i
        ",
        DEFENDERS,
    );
    let statuses = play_all(&mut g, &["e2-e3", "i4-e4"]);
    assert_eq!(statuses, [ONGOING, ONGOING], "three attackers are not a middleweight capture in the open");
}

#[test]
fn brandubh_and_hnefatafl_use_their_own_throne_and_corners() {
    assert_move(
        &rules(Variant::Brandubh, &[]),
        "
        7 # . . . . . #
        6 . . . . . . .
        5 . . . t . . .
        4 . . t K t . .
        3 . . . . . . .
        2 . . . . . . .
        1 # . . t . . #
          a b c d e f g
        ",
        ATTACKERS,
        "d1-d3",
        &[],
        CAPTURED,
    );
    assert_move(
        &rules(Variant::Brandubh, &[]),
        "
        7 # . . . . . #
        6 . . . . K . .
        5 . . . . . t .
        4 . . . + . . .
        3 . . T . . . .
        2 . . . . . . .
        1 # t . . . . #
          a b c d e f g
        ",
        DEFENDERS,
        "c3-c1",
        &["b1"],
        ONGOING,
    );
    assert_illegal(
        &rules(Variant::Hnefatafl, &[]),
        "
        11 # . . . . . . . . . #
        10 . . . . . . . . . . .
         9 . . . . . . . . . . .
         8 . . . . . . . . . . .
         7 . . . . . . . . . . .
         6 . T . . . + . . . . .
         5 . . . . . . . . . . .
         4 . . . . . . . . . . .
         3 . . . . . . . K . . .
         2 . . . . . . . . . . .
         1 # . . . . . . . t . #
           a b c d e f g h i j k
        ",
        DEFENDERS,
        "b6-j6",
        "b6-j6: a piece cannot pass the throne",
    );
}

#[test]
fn there_is_no_shieldwall() {
    assert_move(
        &tablut(),
        "
        9 # . . . . . . . #
        8 . . . . . . . . .
        7 . . . . . . . . .
        6 . . . . K . . . .
        5 . . . . + . . . .
        4 . . . . . . . . .
        3 . . . . . . . . .
        2 . . t t . . . . .
        1 # t T T . . . t #
          a b c d e f g h i
        ",
        ATTACKERS,
        "h1-e1",
        &[],
        ONGOING,
    );
}

#[test]
fn there_is_no_encirclement() {
    assert_move(
        &tablut(),
        "
        9 # . . . . . . . #
        8 . . . . . . . . .
        7 . . . t t t . . .
        6 . . t . . . t . .
        5 . . t . K . t . .
        4 . . t . T . t . .
        3 . . . t t . . . .
        2 . . . . . t . . .
        1 # . . . . . . . #
          a b c d e f g h i
        ",
        ATTACKERS,
        "f2-f3",
        &[],
        ONGOING,
    );
}

#[test]
fn attackers_walled_in_against_a_corner_have_no_move_and_lose() {
    assert_move(
        &tablut(),
        "
        9 # . . . . . . . #
        8 . . . . . . . . .
        7 . . . . . . . . .
        6 . T . . . . . . .
        5 . . . . + . . . .
        4 . . . . . . K . .
        3 . . . . . . . . .
        2 . . . . . . . . .
        1 # t T . . . . . #
          a b c d e f g h i
        ",
        DEFENDERS,
        "b6-b2",
        &[],
        defenders_win(Reason::NoMoves),
    );
}

#[test]
fn attackers_walled_in_by_a_quiet_move_from_the_edge_lose() {
    // The last attacker, b1, is shut in by c1, b2 and the corner; any defender move that keeps
    // them there wins, from the edge (f1) as from inside (d4).
    let brandubh = rules(Variant::Brandubh, &[]);
    let board = "
        7 # . . . . . #
        6 . . . . . . .
        5 . . . . . . .
        4 . . . K . . .
        3 . . . . . . .
        2 . T . . . . .
        1 # t T . . T #
          a b c d e f g
        ";
    for mv in ["d4-d5", "f1-f2", "f1-e1"] {
        assert_move(&brandubh, board, DEFENDERS, mv, &[], defenders_win(Reason::NoMoves));
    }
}

#[test]
fn the_third_occurrence_of_a_position_is_a_draw() {
    let board = "
        9 # . . . . . . . #
        8 . . . . . . . . .
        7 . . . . . . t . .
        6 . . . . . . . . .
        5 . . . . + . . . .
        4 . . . . . . . . .
        3 . . K . . . . . .
        2 . . . . . . . . .
        1 # . . . . . . . #
          a b c d e f g h i
        ";
    for (first, cycle) in
        [(ATTACKERS, ["g7-g6", "c3-c4", "g6-g7", "c4-c3"]), (DEFENDERS, ["c3-c4", "g7-g6", "c4-c3", "g6-g7"])]
    {
        let mut g = game(&tablut(), board, first);
        let statuses = play_all(&mut g, &[cycle, cycle].concat());
        assert_eq!(statuses[..7], [ONGOING; 7]);
        assert_eq!(statuses[7], draw(Reason::Repetition), "{first} moved first");
    }
}
