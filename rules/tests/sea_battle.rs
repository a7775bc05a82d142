//! Sea Battle (seed 000): no throne and no corners, an unarmed king (the knorr) who escapes to any
//! edge square and is captured only by four attackers away from the edge, shieldwall without
//! corners, encirclement, and repetition that makes the mover lose.

mod common;

use common::{
    ATTACKERS, DEFENDERS, ONGOING, assert_illegal, assert_move, attackers_win, defenders_win, destinations, game,
    play_all, position, rules,
};
use tafl_rules::{Position, Reason, Rules, Square, Variant};

fn sea_battle() -> Rules {
    rules(Variant::SeaBattle9, &[])
}

#[test]
fn no_sea_battle_board_has_a_throne_or_corners_and_the_knorr_is_unarmed() {
    for variant in [Variant::SeaBattle9, Variant::SeaBattle11, Variant::SeaBattle13, Variant::SeaBattle15] {
        let position = Position::new(variant.rules()).expect("presets are valid");
        assert!(!position.rules().king_armed, "{variant}");
        for file in 0..position.size() {
            for rank in 0..position.size() {
                let square = Square::new(file, rank).expect("on the board");
                assert!(!position.is_throne(square) && !position.is_corner(square), "{variant}: {square}");
            }
        }
    }
}

#[test]
fn pieces_move_like_rooks_and_do_not_jump() {
    let p = position(
        &sea_battle(),
        "
        9 . . . . . . . . .
        8 . . . . . . . . .
        7 . . . . t . . . .
        6 . . . . . . . . .
        5 . . . . . . . . .
        4 . . T . T . t . .
        3 . . . . . . . . .
        2 . . K . . . . . .
        1 . . . . t . . . .
          a b c d e f g h i
        ",
        DEFENDERS,
    );
    assert_eq!(destinations(&p, "e4"), ["d4", "e2", "e3", "e5", "e6", "f4"]);
}

#[test]
fn any_piece_may_stop_on_or_pass_the_centre_and_the_corner_squares() {
    let board = "
        9 . . . . . . . . .
        8 . . . . . . . . .
        7 . . . . . . . . .
        6 . . . . . . . . .
        5 . . . . . . . . t
        4 . . . . T . . . .
        3 . . . . . . . . .
        2 . K . . . . . . .
        1 . . . . . . . . .
          a b c d e f g h i
        ";
    assert_move(&sea_battle(), board, DEFENDERS, "e4-e5", &[], ONGOING);
    assert_move(&sea_battle(), board, ATTACKERS, "i5-a5", &[], ONGOING);
    assert_move(&sea_battle(), board, ATTACKERS, "i5-i9", &[], ONGOING);
}

#[test]
fn illegal_moves_are_refused_with_a_reason() {
    let board = "
        9 . . . . . . . . .
        8 . . . . . . . . .
        7 . . . . . . . . .
        6 . . . . . . . . .
        5 . . . . K . . . .
        4 . . . . . . . . .
        3 . . . . T . . . .
        2 . . . . . . . . .
        1 . . . . t . . . .
          a b c d e f g h i
        ";
    let cases = [
        ("e1-e5", "e1-e5: the way is blocked by the piece on e3"),
        ("e1-e3", "e1-e3: the way is blocked by the piece on e3"),
        ("e1-f2", "e1-f2: pieces move along a rank or a file, like a rook"),
        ("e1-e1", "e1-e1: a piece must move to another square"),
        ("d1-d4", "d1-d4: there is no piece on d1"),
        ("e3-f3", "e3-f3: the piece on e3 belongs to the defenders, and it is the attackers' turn"),
        ("e1-j1", "j1 is off the board: this one is 9x9"),
        ("e1-e10", "e10 is off the board: this one is 9x9"),
    ];
    for (mv, message) in cases {
        assert_illegal(&sea_battle(), board, ATTACKERS, mv, message);
    }
}

/// (what it shows, board, side to move, move, captures)
type CaptureCase = (&'static str, &'static str, tafl_rules::Side, &'static str, &'static [&'static str]);

#[test]
fn custodial_captures_follow_the_mover() {
    let cases: [CaptureCase; 9] = [
        (
            "a defender between two attackers is captured",
            "
            9 . . . . . . . . .
            8 . . . . . . . . .
            7 . . . . . . . . .
            6 . . . . . . . . .
            5 . . K . . . . . .
            4 . . . . . . . . .
            3 . . t T . t . . .
            2 . . . . . . . . .
            1 . . . . . . . . .
              a b c d e f g h i
            ",
            ATTACKERS,
            "f3-e3",
            &["d3"],
        ),
        (
            "an attacker between two defenders is captured",
            "
            9 t . . . . . . . .
            8 . . . . . . . . .
            7 . . . . T . . . .
            6 . . . . t . . . .
            5 . . . . . . . . .
            4 . . . . . . . . .
            3 . . . . . . . . .
            2 . . . . T . K . .
            1 . . . . . . . . .
              a b c d e f g h i
            ",
            DEFENDERS,
            "e2-e5",
            &["e6"],
        ),
        (
            "moving between two enemies is safe",
            "
            9 . . . . . . . . .
            8 . . . . . . . . .
            7 . . . . . . . . .
            6 . . . . . . . . .
            5 . . K . . . . . .
            4 . . . . . . . . .
            3 . . t . t . . . .
            2 . . . T . . . . .
            1 . . . . . . . . .
              a b c d e f g h i
            ",
            DEFENDERS,
            "d2-d3",
            &[],
        ),
        (
            "one move captures three pieces",
            "
            9 . . . . . . . . .
            8 . . . . . . . . .
            7 . . . . t . . . .
            6 . . . . T . . . .
            5 . . t T . T t . .
            4 . . . . . . . . .
            3 . . . . . . . . .
            2 . . . . t . K . .
            1 . . . . . . . . .
              a b c d e f g h i
            ",
            ATTACKERS,
            "e2-e5",
            &["d5", "e6", "f5"],
        ),
        (
            "a diagonal does not capture",
            "
            9 . . . . . . . . .
            8 . . . . . . . . .
            7 . . . . . . . . .
            6 . . . t . . . . .
            5 . . . . T . . . .
            4 . . . . . . . . .
            3 . . . . . . . . .
            2 . . . . . t . K .
            1 . . . . . . . . .
              a b c d e f g h i
            ",
            ATTACKERS,
            "f2-f4",
            &[],
        ),
        (
            "the board edge is not hostile",
            "
            9 . . . . . . . . .
            8 . . . . . . . . .
            7 . . . . . . . . .
            6 . . . . . . . . .
            5 T . . . . . . . .
            4 . . . . . . . . .
            3 . . . . K . . . .
            2 . . . . . . . . .
            1 . t . . . . . . .
              a b c d e f g h i
            ",
            ATTACKERS,
            "b1-b5",
            &[],
        ),
        (
            "the centre is an ordinary square, not hostile",
            "
            9 . . . . . . . . .
            8 . . . . . . . . .
            7 . . . . . . . . .
            6 . . . . . . . . .
            5 . . . . . T . . .
            4 . . . . . . . . .
            3 . . . . . . . . .
            2 . . . . . . t K .
            1 . . . . . . . . .
              a b c d e f g h i
            ",
            ATTACKERS,
            "g2-g5",
            &[],
        ),
        (
            "the unarmed knorr does not capture when he moves",
            "
            9 . . . . . . . . .
            8 . . . . . . . . .
            7 . . . . . . . . .
            6 . . . . . . . . .
            5 . . T t . . . . .
            4 . . . . . . . . .
            3 . . . . . . . . .
            2 . . . . K . . . .
            1 . . . . . . . . .
              a b c d e f g h i
            ",
            DEFENDERS,
            "e2-e5",
            &[],
        ),
        (
            "the unarmed knorr is not a bracket",
            "
            9 . . . . . . . . .
            8 . . . . . . . . .
            7 . . . . . . . . .
            6 . . . . . . . . .
            5 . . K t . . . . .
            4 . . . . . . . . .
            3 . . . . . . . . .
            2 . . . . T . . . .
            1 . . . . . . . . .
              a b c d e f g h i
            ",
            DEFENDERS,
            "e2-e5",
            &[],
        ),
    ];
    for (name, board, side, mv, captures) in cases {
        eprintln!("case: {name}");
        assert_move(&sea_battle(), board, side, mv, captures, ONGOING);
    }
}

#[test]
fn custodial_capture_works_the_same_on_the_largest_board() {
    assert_move(
        &rules(Variant::SeaBattle15, &[]),
        "
        15 . . . . . . . . . . . . . . .
        14 . . . . . . . . . . . . . . .
        13 . . . . . . . . . . . . . . .
        12 . . . . . . . . . . . . . . .
        11 . . . . . . . . . . . . . . .
        10 . . . . . . . . . . . . . . .
         9 . . . . . . . . . . . . . . .
         8 . . . . . . . t T . . . . t .
         7 . . . . . . . . . . . . . . .
         6 . . . . . . . . . . . . . . .
         5 . . . . . . . . . . . . . . .
         4 . . . . . . . K . . . . . . .
         3 . . . . . . . . . . . . . . .
         2 . . . . . . . . . . . . . . .
         1 . . . . . . . . . . . . . . .
           a b c d e f g h i j k l m n o
        ",
        ATTACKERS,
        "n8-j8",
        &["i8"],
        ONGOING,
    );
}

#[test]
fn the_knorr_is_captured_by_four_attackers_when_the_mover_closes_the_fourth_side() {
    assert_move(
        &sea_battle(),
        "
        9 . . . . . . . . .
        8 . . . . . . . . .
        7 . . . . . . . . .
        6 . . . . t . . . .
        5 . . . t K t . . .
        4 . . . . . . . . .
        3 . . . . . . . . .
        2 . . . . t . . . .
        1 . . . . . . . . .
          a b c d e f g h i
        ",
        ATTACKERS,
        "e2-e4",
        &[],
        attackers_win(Reason::KingCaptured),
    );
}

#[test]
fn two_attackers_on_opposite_sides_do_not_capture_the_knorr() {
    assert_move(
        &sea_battle(),
        "
        9 . . . . . . . . .
        8 . . . . . . . . .
        7 . . . . . . . . .
        6 . . . . . . . . .
        5 . . . t K . . . .
        4 . . . . . . . . .
        3 . . . . . . . . .
        2 . . . . . t . . .
        1 . . . . . . . . .
          a b c d e f g h i
        ",
        ATTACKERS,
        "f2-f5",
        &[],
        ONGOING,
    );
}

#[test]
fn three_attackers_do_not_capture_the_knorr() {
    assert_move(
        &sea_battle(),
        "
        9 . . . . . . . . .
        8 . . . . . . . . .
        7 . . . . . . . . .
        6 . . . . t . . . .
        5 . . . t K . . . .
        4 . . . . . . . . .
        3 . . . . . . . . .
        2 . . . . . t . . .
        1 . . . . . . . . .
          a b c d e f g h i
        ",
        ATTACKERS,
        "f2-f5",
        &[],
        ONGOING,
    );
}

#[test]
fn three_attackers_and_a_defender_do_not_capture_the_knorr() {
    assert_move(
        &sea_battle(),
        "
        9 . . . . . . . . .
        8 . . . . . . . . .
        7 . . . . . . . . .
        6 . . . . t . . . .
        5 . . . t K T . . .
        4 . . . . . . . . .
        3 . . . . . . . . .
        2 . . . . t . . . .
        1 . . . . . . . . .
          a b c d e f g h i
        ",
        ATTACKERS,
        "e2-e4",
        &[],
        ONGOING,
    );
}

#[test]
fn a_knorr_on_the_edge_has_already_escaped_so_no_position_has_one() {
    let d = common::diagram(
        "
        9 . . . . . . . . .
        8 . . . . . . . . .
        7 . . . . . . . . .
        6 . . . . . . . . .
        5 . . . . . . . . .
        4 . . . . . . . . .
        3 . . . t . . . . .
        2 . . . . . . . . .
        1 . . . K . . . . .
          a b c d e f g h i
        ",
    );
    let error = Position::from_setup(sea_battle(), &d.setup, ATTACKERS).expect_err("the knorr has escaped");
    assert_eq!(error.to_string(), "the starting position does not fit the rules: the king on d1 has already escaped");
}

#[test]
fn a_knorr_who_steps_between_attackers_is_taken_only_when_the_fourth_closes() {
    let mut g = game(
        &sea_battle(),
        "
        9 T . . . . . . . .
        8 . . . . . . . . .
        7 . . . . . . . . .
        6 . . t . . . . . .
        5 . . . t . t . . .
        4 . . . . . . t . .
        3 . . . . K . . . .
        2 . . . . . . . . .
        1 . . . . . . . . .
          a b c d e f g h i
        ",
        DEFENDERS,
    );
    let statuses = play_all(&mut g, &["e3-e5", "c6-e6", "a9-b9", "g4-e4"]);
    assert_eq!(statuses, [ONGOING, ONGOING, ONGOING, attackers_win(Reason::KingCaptured)]);
    assert_eq!(g.position().king(), common::sq("e5"), "a captured king stays on the board");
}

#[test]
fn the_knorr_escapes_on_any_edge_square() {
    let board = "
        9 . . . . . . . . .
        8 . . . . . . . . .
        7 . . . . . . . . .
        6 . . . . . . . . .
        5 . . . . K . . . t
        4 . . . . . . . . .
        3 . . . . . . . . .
        2 . . . . . . . . .
        1 . . . . . . . . .
          a b c d e f g h i
        ";
    for mv in ["e5-e9", "e5-e1", "e5-a5"] {
        assert_move(&sea_battle(), board, DEFENDERS, mv, &[], defenders_win(Reason::KingEscaped));
    }
    assert_move(&sea_battle(), board, DEFENDERS, "e5-e2", &[], ONGOING);
}

/// (what it shows, board, side to move, move, captures)
const SHIELDWALL_CASES: [CaptureCase; 8] = [
    (
        "a fronted line bracketed by the mover is captured",
        "
        9 . . . . . . . . .
        8 . . . . . . . . .
        7 . . . . . . . . .
        6 . . . . K . . . .
        5 . . . . . . . . .
        4 . . . . . . . . .
        3 . . . . . . . . .
        2 . . t t t . . . .
        1 . t T T T . . . t
          a b c d e f g h i
        ",
        ATTACKERS,
        "i1-f1",
        &["c1", "d1", "e1"],
    ),
    (
        "a line with one piece not fronted is not captured",
        "
        9 . . . . . . . . .
        8 . . . . . . . . .
        7 . . . . . . . . .
        6 . . . . K . . . .
        5 . . . . . . . . .
        4 . . . . . . . . .
        3 . . . . . . . . .
        2 . . t . t . . . .
        1 . t T T T . . . t
          a b c d e f g h i
        ",
        ATTACKERS,
        "i1-f1",
        &[],
    ),
    (
        "a line open at the far end is not captured",
        "
        9 . . . . . . . . .
        8 . . . . . . . . .
        7 . . . . . . . . .
        6 . . . . K . . . .
        5 . . . . . . . . .
        4 . . . . . . . . .
        3 . . . . . . . . .
        2 . . t t t . . . .
        1 . . T T T . . . t
          a b c d e f g h i
        ",
        ATTACKERS,
        "i1-f1",
        &[],
    ),
    (
        "one move closes two lines, one on each side",
        "
        9 . . . . . . . . .
        8 . . . . . . . . .
        7 . . . . . . . . .
        6 . . . . K . . . .
        5 . . . . t . . . .
        4 . . . . . . . . .
        3 . . . . . . . . .
        2 . . t t . t t . .
        1 . t T T . T T t .
          a b c d e f g h i
        ",
        ATTACKERS,
        "e5-e1",
        &["c1", "d1", "f1", "g1"],
    ),
    (
        "without corners a line that runs into the board corner is not closed",
        "
        9 . . . . . . . . .
        8 . . . . . . . . .
        7 . . . . . . . . .
        6 . . . . K . . . .
        5 . . . . . . . . .
        4 . . . . . . . . .
        3 . . . . . . . . .
        2 t t . . . . . . .
        1 T T . . . . . . t
          a b c d e f g h i
        ",
        ATTACKERS,
        "i1-c1",
        &[],
    ),
    (
        "the last front piece arriving does not capture: the mover must close an end",
        "
        9 . . . . . . . . .
        8 . . . . . . . . .
        7 . . . . . . . . .
        6 . . . . K . . . .
        5 . . . t . . . . .
        4 . . . . . . . . .
        3 . . . . . . . . .
        2 . . t . . . . . .
        1 . t T T t . . . .
          a b c d e f g h i
        ",
        ATTACKERS,
        "d5-d2",
        &[],
    ),
    (
        "defenders capture a line of attackers",
        "
        9 . . . . . . . . t
        8 . . . . . . . . .
        7 . . . . . . . . .
        6 . . . . . . . . .
        5 . . . . T . . . .
        4 . . . . . . . . .
        3 . . . . . . . . .
        2 . . T T . . K . .
        1 . T t t . . . . .
          a b c d e f g h i
        ",
        DEFENDERS,
        "e5-e1",
        &["c1", "d1"],
    ),
    (
        "the unarmed knorr is not a front piece",
        "
        9 . . . . . . . . t
        8 . . . . . . . . .
        7 . . . . . . . . .
        6 . . . . . . . . .
        5 . . . . T . . . .
        4 . . . . . . . . .
        3 . . . . . . . . .
        2 . . T K . . . . .
        1 . T t t . . . . .
          a b c d e f g h i
        ",
        DEFENDERS,
        "e5-e1",
        &[],
    ),
];

#[test]
fn shieldwall_captures_a_fronted_line_on_the_edge_closed_by_the_mover() {
    for (name, board, side, mv, captures) in SHIELDWALL_CASES {
        eprintln!("case: {name}");
        assert_move(&sea_battle(), board, side, mv, captures, ONGOING);
    }
}

/// Without corners a piece may land on a corner square, which lies on two edges: the line it
/// closes may run along either of them.
#[test]
fn a_piece_landing_on_a_corner_square_closes_a_shieldwall_along_either_edge() {
    assert_move(
        &sea_battle(),
        "
        9 . . . . . . . . .
        8 . . . . . . . . .
        7 . . . . . . . . .
        6 . . . . K . . . .
        5 . . . . . . . . .
        4 t . . . . . . . .
        3 T t . . . . . . .
        2 T t . . . . . . .
        1 . . . . t . . . .
          a b c d e f g h i
        ",
        ATTACKERS,
        "e1-a1",
        &["a2", "a3"],
        ONGOING,
    );
}

#[test]
fn closing_a_ring_around_every_defender_wins_by_encirclement() {
    assert_move(
        &sea_battle(),
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
fn a_ring_is_no_encirclement_while_a_defender_is_outside_it() {
    assert_move(
        &sea_battle(),
        "
        9 . . . . . . . . .
        8 . T . . . . . . .
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
        ONGOING,
    );
}

#[test]
fn a_ring_with_a_gap_is_no_encirclement() {
    assert_move(
        &sea_battle(),
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
        "f2-g2",
        &[],
        ONGOING,
    );
}

#[test]
fn defenders_left_without_a_legal_move_lose() {
    assert_move(
        &sea_battle(),
        "
        9 . . . . . . . . .
        8 . . . . . . . . .
        7 . . . . . . . . .
        6 . . . . t t . . .
        5 . . . t K T t . .
        4 . t . . t t . . .
        3 . . . . . . . . .
        2 t . . . . . . . .
        1 T . . . . . . . .
          a b c d e f g h i
        ",
        ATTACKERS,
        "b4-b1",
        &[],
        attackers_win(Reason::NoMoves),
    );
}

#[test]
fn attackers_left_without_a_legal_move_lose() {
    assert_move(
        &sea_battle(),
        "
        9 . . . . . . . . .
        8 . . . . . . . . .
        7 . . . . . . . . .
        6 . . . . . . . . .
        5 . T . . K . . . .
        4 . . . . . . . . .
        3 . . . . . . . . .
        2 T . . . . . . . .
        1 t . . . . . . . .
          a b c d e f g h i
        ",
        DEFENDERS,
        "b5-b1",
        &[],
        defenders_win(Reason::NoMoves),
    );
}

const SHUFFLE: &str = "
    9 . . . . . . . . .
    8 . . . . . . . . .
    7 . . . . . . . . .
    6 . . . . . . . . .
    5 . . . . K . . . .
    4 . . . . . . . . .
    3 t . . . . . . . .
    2 . . . . . . . . .
    1 . . . . . . . . .
      a b c d e f g h i
    ";

#[test]
fn the_third_occurrence_of_a_position_makes_the_mover_lose() {
    // The start is the first occurrence, so the eighth ply makes the third.
    let cycle = ["a3-a4", "e5-e6", "a4-a3", "e6-e5"];
    let mut g = game(&sea_battle(), SHUFFLE, ATTACKERS);
    let statuses = play_all(&mut g, &[cycle, cycle].concat());
    assert_eq!(statuses[..7], [ONGOING; 7]);
    assert_eq!(statuses[7], attackers_win(Reason::Repetition), "the defenders made the third occurrence");

    let cycle = ["e5-e6", "a3-a4", "e6-e5", "a4-a3"];
    let mut g = game(&sea_battle(), SHUFFLE, DEFENDERS);
    let statuses = play_all(&mut g, &[cycle, cycle].concat());
    assert_eq!(statuses[..7], [ONGOING; 7]);
    assert_eq!(statuses[7], defenders_win(Reason::Repetition), "the attackers made the third occurrence");
    assert_eq!(g.status(), statuses[7]);
    assert_eq!(g.play(common::mv("a3-a4")).expect_err("over").to_string(), "the game is over");
}

#[test]
fn every_sea_battle_preset_makes_the_mover_lose_on_repetition() {
    for variant in [Variant::SeaBattle9, Variant::SeaBattle11, Variant::SeaBattle13, Variant::SeaBattle15] {
        assert_eq!(variant.rules().repetition, tafl_rules::Repetition::MoverLoses, "{variant}");
        assert_eq!(variant.rules().escape, tafl_rules::Escape::Edge, "{variant}");
        assert_eq!(variant.rules().king_capture, tafl_rules::KingCapture::Strong, "{variant}");
        assert_eq!(variant.rules().shieldwall, tafl_rules::Shieldwall::On { corners_may_close: false }, "{variant}");
        assert!(variant.rules().encirclement && !variant.rules().exit_fort, "{variant}");
    }
}
