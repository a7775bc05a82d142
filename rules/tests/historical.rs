//! The historical family (seeds 003 and 004): historical-7/9/11 with a throne every piece may pass
//! while it is empty but only the king may stop on, hostile to attackers always and to defenders
//! only when empty; corners exactly with corner escape (`escape=edge|corner`); an armed king
//! captured by four on the throne, by three and the throne next to it, and like any piece
//! elsewhere; encirclement; and repetition that the defenders lose.

mod common;

use common::{
    ATTACKERS, DEFENDERS, ONGOING, assert_illegal, assert_king_move, assert_move, attackers_win, defenders_win,
    destinations, game, king_steps_between_two_attackers, play_all, position, rules,
};
use tafl_rules::{Escape, Position, Reason, Rules, Side, Square, Status, Variant, VariantOption};

const HISTORICAL: [Variant; 3] = [Variant::Historical7, Variant::Historical9, Variant::Historical11];

fn h7() -> Rules {
    rules(Variant::Historical7, &[])
}

fn h7_edge() -> Rules {
    rules(Variant::Historical7, &["escape=edge"])
}

const CAPTURED: Status = attackers_win(Reason::KingCaptured);

#[test]
fn corners_exist_exactly_under_corner_escape_and_the_throne_always() {
    let defaults = [
        (Variant::Historical7, Escape::Corner),
        (Variant::Historical9, Escape::Edge),
        (Variant::Historical11, Escape::Corner),
    ];
    for (variant, default) in defaults {
        assert_eq!(variant.rules().escape, default, "{variant}");
        for option in ["escape=edge", "escape=corner"] {
            let position = Position::new(rules(variant, &[option])).expect("valid");
            let with_corners = option == "escape=corner";
            assert_eq!(position.rules().has_corners(), with_corners, "{variant} {option}");
            let last = position.size() - 1;
            for file in 0..=last {
                for rank in 0..=last {
                    let square = Square::new(file, rank).expect("on the board");
                    let corner = (file == 0 || file == last) && (rank == 0 || rank == last);
                    assert_eq!(position.is_corner(square), corner && with_corners, "{variant} {option} {square}");
                    assert_eq!(position.is_throne(square), file == last / 2 && rank == last / 2, "{variant} {square}");
                }
            }
        }
    }
}

#[test]
fn the_escape_option_is_the_only_historical_option() {
    for variant in HISTORICAL {
        let refused = VariantOption::parse(variant, "king_armed=false").expect_err("no such option");
        assert_eq!(
            refused.to_string(),
            format!(
                "{variant} has no option \"king_armed\"; the king is armed in {variant}, and its options are: escape"
            )
        );
        let twice = variant.rules_with_texts(&["escape=edge", "escape=corner"]).expect_err("contradictory");
        assert_eq!(
            twice.to_string(),
            "the options escape=edge and escape=corner contradict each other; give one of them"
        );
        assert_eq!(variant.rules_with_texts(&["escape=edge", "escape=edge"]).unwrap().escape, Escape::Edge);
        let bad = VariantOption::parse(variant, "escape=middle").expect_err("bad value");
        assert_eq!(bad.to_string(), format!("option escape of {variant} takes edge or corner, not \"middle\""));
        let r = variant.rules();
        assert!(r.king_armed && r.encirclement && !r.exit_fort, "{variant}");
        assert_eq!(r.king_capture, tafl_rules::KingCapture::StrongNearThrone, "{variant}");
        assert_eq!(r.shieldwall, tafl_rules::Shieldwall::Off, "{variant}");
        assert_eq!(r.repetition, tafl_rules::Repetition::DefendersLose, "{variant}");
    }
}

const LANES: &str = "
    7 # . . . . . #
    6 . . . t . . .
    5 . . . . . . .
    4 . . T + . . .
    3 . . . . . . .
    2 . . . . K . .
    1 # . t . . . #
      a b c d e f g
    ";

#[test]
fn every_piece_may_pass_the_empty_throne_but_only_the_king_may_stop_on_it() {
    let defenders = position(&h7(), LANES, DEFENDERS);
    assert_eq!(destinations(&defenders, "c4"), ["a4", "b4", "c2", "c3", "c5", "c6", "c7", "e4", "f4", "g4"]);
    let attackers = position(&h7(), LANES, ATTACKERS);
    assert_eq!(destinations(&attackers, "d6"), ["a6", "b6", "c6", "d1", "d2", "d3", "d5", "d7", "e6", "f6", "g6"]);
    assert_move(&h7(), LANES, ATTACKERS, "d6-d2", &[], ONGOING);
    assert_move(&h7(), LANES, DEFENDERS, "c4-g4", &[], ONGOING);
    let mut g = game(&h7(), LANES, DEFENDERS);
    assert_eq!(play_all(&mut g, &["e2-e4", "d6-d5", "e4-d4"]), [ONGOING; 3], "the king may return to the throne");
    assert_eq!(
        g.play(common::mv("d5-d3")).expect_err("blocked").to_string(),
        "d5-d3: the way is blocked by the piece on d4"
    );
}

#[test]
fn moves_that_stop_on_the_throne_or_a_corner_are_refused_with_a_reason() {
    assert_illegal(&h7(), LANES, DEFENDERS, "c4-d4", "c4-d4: only the king may stop on the throne");
    assert_illegal(&h7(), LANES, ATTACKERS, "d6-d4", "d6-d4: only the king may stop on the throne");
    assert_illegal(&h7(), LANES, ATTACKERS, "c1-a1", "c1-a1: only the king may stop on a corner");
    let edge = LANES.replace('#', ".");
    assert_move(&h7_edge(), &edge, ATTACKERS, "c1-a1", &[], ONGOING);
}

/// (what it shows, rules, board, side, move, captures)
type Case = (&'static str, fn() -> Rules, &'static str, Side, &'static str, &'static [&'static str]);

const HOSTILITY: [Case; 8] = [
    (
        "the empty throne is hostile to attackers",
        h7,
        "
        7 # . . . . . #
        6 . . . . . T .
        5 . . . t . . .
        4 . . . + . . .
        3 . . . . . . .
        2 . . . . K . .
        1 # t . . . . #
          a b c d e f g
        ",
        DEFENDERS,
        "f6-d6",
        &["d5"],
    ),
    (
        "the empty throne is hostile to defenders",
        h7,
        "
        7 # . . . . . #
        6 . . . . . . .
        5 . . . . . . .
        4 . . T + . . .
        3 . . . . . . .
        2 . . . . K . .
        1 # t . . . . #
          a b c d e f g
        ",
        ATTACKERS,
        "b1-b4",
        &["c4"],
    ),
    (
        "the throne with the king on it is hostile to attackers",
        h7,
        "
        7 # . . . . . #
        6 . T . . . . .
        5 . . . . . . .
        4 . . t K . . .
        3 . . . . . . .
        2 . . . . . . .
        1 # . . . . t #
          a b c d e f g
        ",
        DEFENDERS,
        "b6-b4",
        &["c4"],
    ),
    (
        "the throne with the king on it is not hostile to defenders",
        h7,
        "
        7 # . . . . . #
        6 . . . . . . .
        5 . . . . . . .
        4 . . T K . . .
        3 . . . . . . .
        2 . . . . . . .
        1 # t . . . . #
          a b c d e f g
        ",
        ATTACKERS,
        "b1-b4",
        &[],
    ),
    (
        "an empty corner is hostile to defenders",
        h7,
        "
        7 # . . . . . #
        6 . . . . . . .
        5 . . . . . . .
        4 . . . + . . .
        3 . . t . K . .
        2 T . . . . . .
        1 # . . . . . #
          a b c d e f g
        ",
        ATTACKERS,
        "c3-a3",
        &["a2"],
    ),
    (
        "an empty corner is hostile to attackers",
        h7,
        "
        7 # . . . . . #
        6 . . . . . . .
        5 . . . . . t .
        4 . . . + . . .
        3 . . . . K . .
        2 . . . . . . .
        1 # t . T . . #
          a b c d e f g
        ",
        DEFENDERS,
        "d1-c1",
        &["b1"],
    ),
    (
        "without corners the corner square is not hostile",
        h7_edge,
        "
        7 . . . . . . .
        6 . . . . . t .
        5 . . . . . . .
        4 . . . + . . .
        3 . . . . K . .
        2 . . . . . . .
        1 . t . T . . .
          a b c d e f g
        ",
        DEFENDERS,
        "d1-c1",
        &[],
    ),
    (
        "moving between two enemies is safe",
        h7,
        "
        7 # . . . . . #
        6 . . . . . . .
        5 . . . . . . .
        4 . . . + . . .
        3 . . . . K . .
        2 . T . T . . .
        1 # . t . . t #
          a b c d e f g
        ",
        ATTACKERS,
        "c1-c2",
        &[],
    ),
];

#[test]
fn custodial_captures_against_the_historical_throne_and_the_corners() {
    for (name, rules, board, side, mv, captures) in HOSTILITY {
        eprintln!("case: {name}");
        assert_move(&rules(), board, side, mv, captures, ONGOING);
    }
}

/// (what it shows, rules, board, move, status)
type KingCase = (&'static str, fn() -> Rules, &'static str, &'static str, Status);

const KING_CAPTURE: [KingCase; 10] = [
    (
        "on the throne three attackers do not capture",
        h7,
        "
        7 # . . . . . #
        6 . . . . . . .
        5 . . . t . . .
        4 . . t K . . .
        3 . . . . . . .
        2 . . . . . . .
        1 # . . t . . #
          a b c d e f g
        ",
        "d1-d3",
        ONGOING,
    ),
    (
        "on the throne the fourth attacker captures",
        h7,
        "
        7 # . . . . . #
        6 . . . . . . .
        5 . . . t . . .
        4 . . t K . . .
        3 . . . t . . .
        2 . . . . . . .
        1 # . . . t . #
          a b c d e f g
        ",
        "e1-e4",
        CAPTURED,
    ),
    (
        "next to the throne three attackers and the throne capture",
        h7,
        "
        7 # . . . t . #
        6 . . . . . . .
        5 . . . . . . .
        4 . . . + K t .
        3 . . . . t . .
        2 . . . . . . .
        1 # . . . . . #
          a b c d e f g
        ",
        "e7-e5",
        CAPTURED,
    ),
    (
        "next to the throne two attackers and the throne do not capture",
        h7,
        "
        7 # . . . . . #
        6 . . . . . . .
        5 . . . . . . .
        4 . . . + K t .
        3 . . . . . . .
        2 . . . . . . .
        1 # . . . t . #
          a b c d e f g
        ",
        "e1-e3",
        ONGOING,
    ),
    (
        "next to the throne two attackers on opposite sides do not capture",
        h7,
        "
        7 # . . . . . #
        6 . . . . . . .
        5 . . . . . . t
        4 . . . + K . .
        3 . . . . t . .
        2 . . . . . . .
        1 # . . . . . #
          a b c d e f g
        ",
        "g5-e5",
        ONGOING,
    ),
    (
        "elsewhere two attackers on opposite sides capture",
        h7,
        "
        7 # . . . . . #
        6 . . . . . . .
        5 . . . . . . .
        4 . . . + . . .
        3 . . . . . . .
        2 . t K . . . .
        1 # . . t . . #
          a b c d e f g
        ",
        "d1-d2",
        CAPTURED,
    ),
    (
        "elsewhere two attackers at a right angle do not capture",
        h7,
        "
        7 # . . . . . #
        6 . . . . . . .
        5 . . . . . . .
        4 . . . + . . .
        3 . . . . . . .
        2 . t K . . . .
        1 # . . t . . #
          a b c d e f g
        ",
        "d1-c1",
        ONGOING,
    ),
    (
        "on the edge two attackers capture",
        h7,
        "
        7 # . . . . . #
        6 . . . . . . .
        5 . . . . . . .
        4 . . . + . . .
        3 . . . . t . .
        2 . . . . . . .
        1 # . t K . . #
          a b c d e f g
        ",
        "e3-e1",
        CAPTURED,
    ),
    (
        "against an empty corner one attacker captures",
        h7,
        "
        7 # . . . . . #
        6 . . . . . . .
        5 . . . . . . .
        4 . . . + . . .
        3 . . . . . . .
        2 . . . . . . .
        1 # K . . t . #
          a b c d e f g
        ",
        "e1-c1",
        CAPTURED,
    ),
    (
        "the throne is hostile to the king only next to it: two attackers and the throne are not a capture",
        h7,
        "
        7 # . . . . . #
        6 . . . . . . .
        5 . . . . . . .
        4 . . . + K . .
        3 . . . . . . .
        2 . . . . . . .
        1 # . . . . t #
          a b c d e f g
        ",
        "f1-f4",
        ONGOING,
    ),
];

#[test]
fn the_king_is_captured_strongly_near_the_throne_and_like_a_piece_elsewhere() {
    for (name, rules, board, mv, status) in KING_CAPTURE {
        eprintln!("case: {name}");
        assert_king_move(&rules(), board, mv, status);
    }
}

#[test]
fn a_king_who_steps_between_two_attackers_is_taken_only_by_an_attacker_that_completes_a_pair() {
    assert_eq!(king_steps_between_two_attackers(&h7()), [ONGOING, ONGOING, ONGOING, CAPTURED]);
}

#[test]
fn the_king_escapes_to_a_corner_or_to_the_edge_as_the_option_says() {
    let corner_board = "
        7 # . . . . . #
        6 . . . . . . .
        5 . . . . . . .
        4 . . . + . . .
        3 . . . . . . t
        2 . K . . . . .
        1 # . . . . . #
          a b c d e f g
        ";
    assert_move(&h7(), corner_board, DEFENDERS, "b2-b1", &[], ONGOING);
    assert_move(&h7(), corner_board, DEFENDERS, "b2-b7", &[], ONGOING);
    let mut g = game(&h7(), corner_board, DEFENDERS);
    let statuses = play_all(&mut g, &["b2-b1", "g3-g4", "b1-a1"]);
    assert_eq!(statuses, [ONGOING, ONGOING, defenders_win(Reason::KingEscaped)]);

    let edge_board = corner_board.replace('#', ".");
    assert_move(&h7_edge(), &edge_board, DEFENDERS, "b2-b1", &[], defenders_win(Reason::KingEscaped));
    assert_move(&h7_edge(), &edge_board, DEFENDERS, "b2-g2", &[], defenders_win(Reason::KingEscaped));
    assert_move(&h7_edge(), &edge_board, DEFENDERS, "b2-f2", &[], ONGOING);

    // historical-9 escapes to the edge by default, to the corners with the option.
    let nine = "
        9 . . . . . . . . .
        8 . . . . . . . . .
        7 . . . . . . . . .
        6 . . . . . . . . .
        5 . . . . + . . . .
        4 . . . . . . . . .
        3 . . . . . . . . t
        2 . . K . . . . . .
        1 . . . . . . . . .
          a b c d e f g h i
        ";
    let h9 = rules(Variant::Historical9, &[]);
    assert_move(&h9, nine, DEFENDERS, "c2-c1", &[], defenders_win(Reason::KingEscaped));
    let h9_corner = rules(Variant::Historical9, &["escape=corner"]);
    let nine_corner = "
        9 # . . . . . . . #
        8 . . . . . . . . .
        7 . . . . . . . . .
        6 . . . . . . . . .
        5 . . . . + . . . .
        4 . . . . . . . . .
        3 . . . . . . . . t
        2 . . K . . . . . .
        1 # . . . . . . . #
          a b c d e f g h i
        ";
    assert_move(&h9_corner, nine_corner, DEFENDERS, "c2-c1", &[], ONGOING);
}

#[test]
fn closing_a_ring_around_every_defender_wins_by_encirclement() {
    assert_move(
        &rules(Variant::Historical9, &[]),
        "
        9 . . . . . . . . .
        8 . . . . . . . . .
        7 . . . t t t . . .
        6 . . t . . . t . .
        5 . . t . K . t . .
        4 . . t . T . t . .
        3 . . . t t . . . .
        2 . . . . . t . . .
        1 . . . . . . . . .
          a b c d e f g h i
        ",
        ATTACKERS,
        "f2-f3",
        &[],
        attackers_win(Reason::Encirclement),
    );
}

#[test]
fn encirclement_is_decided_before_the_defenders_lack_of_moves() {
    // The king on the throne and his last defender are walled in: no move and no way out. The
    // attacker win by encirclement comes first in the order of endings.
    assert_move(
        &h7(),
        "
        7 # . . . . . #
        6 . . . . . . .
        5 . . . t . . .
        4 . . t K t . .
        3 . . t T t . .
        2 . . . . . . t
        1 # . . . . . #
          a b c d e f g
        ",
        ATTACKERS,
        "g2-d2",
        &[],
        attackers_win(Reason::Encirclement),
    );
}

#[test]
fn defenders_without_a_legal_move_lose() {
    assert_move(
        &h7_edge(),
        "
        7 . . . . . . .
        6 . . . . . . .
        5 . . . t . . .
        4 . . t K t . .
        3 . . t T t . .
        2 t . . . . . t
        1 T t . . . . .
          a b c d e f g
        ",
        ATTACKERS,
        "g2-d2",
        &[],
        attackers_win(Reason::NoMoves),
    );
}

#[test]
fn attackers_left_without_a_move_by_a_defender_leaving_the_edge_lose() {
    // The capture of the last attacker by a move from a8 on the edge: the square left beside
    // the board's border once passed for a square the attackers could step into.
    let mut g = game(
        &rules(Variant::Historical9, &[]),
        "
        9 . . . . . . . . .
        8 T . T . . . . . .
        7 . . . . . . . . .
        6 . . . . . . . . .
        5 . . . . K . . . .
        4 . . . . . . . . .
        3 . . . . . . . . .
        2 . . . . . . . . .
        1 . t T . . . . . .
          a b c d e f g h i
        ",
        DEFENDERS,
    );
    assert_eq!(play_all(&mut g, &["a8-a1xb1"]), [defenders_win(Reason::NoMoves)]);
    assert!(g.position().legal_moves().is_empty(), "no attacker is left");
}

#[test]
fn the_third_occurrence_of_a_position_makes_the_defenders_lose_whoever_moved() {
    let board = "
        7 # . . . . . #
        6 . . . . . t .
        5 . . . . . . .
        4 . . . + . . .
        3 . . . . . . .
        2 . K . . . . .
        1 # . . . . . #
          a b c d e f g
        ";
    for (first, cycle) in
        [(ATTACKERS, ["f6-f5", "b2-b3", "f5-f6", "b3-b2"]), (DEFENDERS, ["b2-b3", "f6-f5", "b3-b2", "f5-f6"])]
    {
        let mut g = game(&h7(), board, first);
        let statuses = play_all(&mut g, &[cycle, cycle].concat());
        assert_eq!(statuses[..7], [ONGOING; 7]);
        assert_eq!(statuses[7], attackers_win(Reason::Repetition), "{first} moved first");
    }
}

#[test]
fn with_repetition_ignored_as_in_historic_records_the_game_goes_on() {
    let ignoring = Rules { repetition: tafl_rules::Repetition::Ignore, ..h7() };
    let board = "
        7 # . . . . . #
        6 . . . . . t .
        5 . . . . . . .
        4 . . . + . . .
        3 . . . . . . .
        2 . K . . . . .
        1 # . . . . . #
          a b c d e f g
        ";
    let cycle = ["f6-f5", "b2-b3", "f5-f6", "b3-b2"];
    let mut g = game(&ignoring, board, ATTACKERS);
    let statuses = play_all(&mut g, &[cycle, cycle, cycle].concat());
    assert_eq!(statuses, [ONGOING; 12], "the third and fourth occurrences change nothing");
}
