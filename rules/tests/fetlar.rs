//! Fetlar: the Copenhagen board and king without the Copenhagen extras. Corner escape, the
//! historical throne, an armed king captured only by four (or three and the empty throne) and
//! never on the edge, no shieldwall, no exit fort, encirclement, and repetition draws.

mod common;

use common::{
    ATTACKERS, DEFENDERS, ONGOING, assert_illegal, assert_move, attackers_win, defenders_win, draw, game, play_all,
    rules,
};
use tafl_rules::{Reason, Rules, Side, Status, Variant};

fn fetlar() -> Rules {
    rules(Variant::Fetlar, &[])
}

const CAPTURED: Status = attackers_win(Reason::KingCaptured);

#[test]
fn the_preset_is_copenhagen_without_shieldwall_and_fort_and_with_drawn_repetition() {
    let r = fetlar();
    let c = Variant::Copenhagen.rules();
    assert_eq!(r.start, c.start);
    assert_eq!((r.escape, r.throne, r.king_armed, r.king_capture), (c.escape, c.throne, c.king_armed, c.king_capture));
    assert_eq!(r.shieldwall, tafl_rules::Shieldwall::Off);
    assert!(!r.exit_fort && r.encirclement);
    assert_eq!(r.repetition, tafl_rules::Repetition::Draw);
    assert!(Variant::Fetlar.option_keys().is_empty());
    let refused = tafl_rules::VariantOption::parse(Variant::Fetlar, "escape=edge").expect_err("no options");
    assert_eq!(
        refused.to_string(),
        "fetlar has no option \"escape\"; the king escapes to a corner in fetlar, and it has no options"
    );
}

#[test]
fn pieces_pass_the_empty_throne_but_stop_on_neither_throne_nor_corner() {
    let board = "
        11 # . . . . . . . . . #
        10 . . . . . . . . . . .
         9 . . . . . . . . . . .
         8 . . . . . t . . . . .
         7 . . . . . . . . . . .
         6 . . T . . + . . . . .
         5 . . . . . . . . . . .
         4 . . . . . . . . . . .
         3 . . . . . . . . . . .
         2 . . . . . . . K . . .
         1 # . . t . . . . . . #
           a b c d e f g h i j k
        ";
    assert_move(&fetlar(), board, DEFENDERS, "c6-k6", &[], ONGOING);
    assert_move(&fetlar(), board, ATTACKERS, "f8-f1", &[], ONGOING);
    assert_illegal(&fetlar(), board, DEFENDERS, "c6-f6", "c6-f6: only the king may stop on the throne");
    assert_illegal(&fetlar(), board, ATTACKERS, "d1-a1", "d1-a1: only the king may stop on a corner");
    assert_illegal(&fetlar(), board, ATTACKERS, "d1-e2", "d1-e2: pieces move along a rank or a file, like a rook");
    assert_move(&fetlar(), board, DEFENDERS, "h2-h1", &[], ONGOING);
    let mut g = game(&fetlar(), board, DEFENDERS);
    assert_eq!(
        play_all(&mut g, &["h2-h11", "f8-f9", "h11-k11"]),
        [ONGOING, ONGOING, defenders_win(Reason::KingEscaped)]
    );
}

/// (what it shows, board, side, move, captures)
type CaptureCase = (&'static str, &'static str, Side, &'static str, &'static [&'static str]);

const CAPTURES: [CaptureCase; 6] = [
    (
        "one move captures three pieces",
        "
        11 # . . . . . . . . . #
        10 . . . . . . . . . . .
         9 . . . . . . . . . . .
         8 . . . . . . . . . . .
         7 . . . . . . . . . . .
         6 . . . . . + . . . . .
         5 . . t . . . . . K . .
         4 . . T . . . . . . . .
         3 t . . T t . . . . . .
         2 . . T . . . . . . . .
         1 # . t . . . . . . . #
           a b c d e f g h i j k
        ",
        ATTACKERS,
        "a3-c3",
        &["c2", "c4", "d3"],
    ),
    (
        "moving between two enemies is safe",
        "
        11 # . . . . . . . . . #
        10 . . . . . . . . . . .
         9 . . . . . . . . . . .
         8 . . . . . . . . . . .
         7 . . . . . . . . . . .
         6 . . . . . + . . . . .
         5 . . . . . . . . K . .
         4 . . . . . . . . . . .
         3 . . . t . t . . . . .
         2 . . . . T . . . . . .
         1 # . . . . . . . . . #
           a b c d e f g h i j k
        ",
        DEFENDERS,
        "e2-e3",
        &[],
    ),
    (
        "the empty throne is hostile to defenders",
        "
        11 # . . . . . . . . . #
        10 . . . . . . . . . . .
         9 . . . . . . . . . . .
         8 t . . . . . . . . . .
         7 . . . . . T . . . . .
         6 . . . . . + . . . . .
         5 . . . . . . . . K . .
         4 . . . . . . . . . . .
         3 . . . . . . . . . . .
         2 . . . . . . . . . . .
         1 # . . . . . . . . . #
           a b c d e f g h i j k
        ",
        ATTACKERS,
        "a8-f8",
        &["f7"],
    ),
    (
        "the throne with the king on it is hostile to attackers",
        "
        11 # . . . . . . . . . #
        10 . . . . . . . . . . .
         9 . . . . . . . . . . .
         8 . . . . . . . . . . .
         7 . . . . . . . . . . .
         6 . . . . t K . . . . .
         5 . . . . . . . . . . .
         4 . . . . . . . . . . .
         3 . . . . . . . . . . .
         2 . . . . . . . . . . t
         1 # . . T . . . . . . #
           a b c d e f g h i j k
        ",
        DEFENDERS,
        "d1-d6",
        &["e6"],
    ),
    (
        "the throne with the king on it is not hostile to defenders",
        "
        11 # . . . . . . . . . #
        10 . . . . . . . . . . .
         9 . . . . . . . . . . .
         8 . . . . . . . . . . .
         7 . . . . . . . . . . .
         6 . . . . T K . . . . .
         5 . . . . . . . . . . .
         4 . . . . . . . . . . .
         3 . . . . . . . . . . .
         2 . . . . . . . . . . .
         1 # . . t . . . . . . #
           a b c d e f g h i j k
        ",
        ATTACKERS,
        "d1-d6",
        &[],
    ),
    (
        "an empty corner is hostile to attackers",
        "
        11 # . . . . . . . . . #
        10 . . . . . . . . . . .
         9 . . . . . . . . . . .
         8 . . . . . . . . . . .
         7 . . . . . . . . . . .
         6 . . . . . + . . . . .
         5 . . . . . . . . K . .
         4 . . . . . . . . . . .
         3 . . . . . . . . . . .
         2 . . . . . . . . . . .
         1 # t . T . . . . . t #
           a b c d e f g h i j k
        ",
        DEFENDERS,
        "d1-c1",
        &["b1"],
    ),
];

#[test]
fn custodial_captures_against_pieces_the_throne_and_corners() {
    for (name, board, side, mv, captures) in CAPTURES {
        eprintln!("case: {name}");
        assert_move(&fetlar(), board, side, mv, captures, ONGOING);
    }
}

/// (what it shows, board, move, status)
type KingCase = (&'static str, &'static str, &'static str, Status);

const KING_CAPTURE: [KingCase; 4] = [
    (
        "four attackers capture the king in the open",
        "
        11 # . . . . . . . . . #
        10 . . . . . . . . . . .
         9 . . . . . . . . . . .
         8 . . . . . . . . . . .
         7 . . . . . . . . . . .
         6 . . . . . + . . . . .
         5 . . . . . . . . . . .
         4 . . . t . . . . . . .
         3 . . t K t . . . . . .
         2 . . . . . . . . . . .
         1 # . . t . . . . . . #
           a b c d e f g h i j k
        ",
        "d1-d2",
        CAPTURED,
    ),
    (
        "two attackers on opposite sides do not capture the king",
        "
        11 # . . . . . . . . . #
        10 . . . . . . . . . . .
         9 . . . . . . . . . . .
         8 . . . . . . . . . . .
         7 . . . . . . . . . . .
         6 . . . . . + . . . . .
         5 . . . . . . . . . . .
         4 . . . . . . . . . . .
         3 . . t K . . . . . . .
         2 . . . . . . . . . . .
         1 # . . . t . . . . . #
           a b c d e f g h i j k
        ",
        "e1-e3",
        ONGOING,
    ),
    (
        "next to the throne three attackers and the empty throne capture",
        "
        11 # . . . . . . . . . #
        10 . . . . . . . . . . .
         9 . . . . . . . . . . .
         8 . . . . . . . . . . t
         7 . . . . t K t . . . .
         6 . . . . . + . . . . .
         5 . . . . . . . . . . .
         4 . . . . . . . . . . .
         3 . . . . . . . . . . .
         2 . . . . . . . . . . .
         1 # . . . . . . . . . #
           a b c d e f g h i j k
        ",
        "k8-f8",
        CAPTURED,
    ),
    (
        "the king on the edge cannot be captured",
        "
        11 # . . . . . . . . . #
        10 . . . . . . . . . . .
         9 . . . . . . . . . . .
         8 . . . . . . . . . . .
         7 . . . . . . . . . . .
         6 . . . . . + . . . . .
         5 . . . . . . . . . . .
         4 . . . . . . . . . . .
         3 . . . . . t . . . T .
         2 . . . . . . . . . . .
         1 # . . . t K t . . . #
           a b c d e f g h i j k
        ",
        "f3-f2",
        ONGOING,
    ),
];

#[test]
fn the_king_is_captured_strongly_and_never_on_the_edge() {
    for (name, board, mv, status) in KING_CAPTURE {
        eprintln!("case: {name}");
        assert_move(&fetlar(), board, ATTACKERS, mv, &[], status);
    }
}

#[test]
fn there_is_no_shieldwall_only_custodial_capture() {
    assert_move(
        &fetlar(),
        "
        11 # . . . . . . . . . #
        10 . . . . . . . . . . .
         9 . . . . . . . . . . .
         8 . . . . . . . . . . .
         7 . . . . . . . . . . .
         6 . . . . . + . . . . .
         5 . . . . . . . . . . .
         4 . . . . . . . . K . .
         3 . . . . . . . . . . .
         2 . . . t t t . . . . .
         1 # . t T T T . . . t #
           a b c d e f g h i j k
        ",
        ATTACKERS,
        "j1-g1",
        &[],
        ONGOING,
    );
}

#[test]
fn there_is_no_exit_fort() {
    assert_move(
        &fetlar(),
        "
        11 # . . . . . . . . . #
        10 . . . . . . . . . . .
         9 . . t . . . . . t . .
         8 . . . . . . . . . . .
         7 . . . . . . . . . . .
         6 . . . . . + . . . . .
         5 . . . . . . . T . . .
         4 . . . . . . . . . . .
         3 . . . . . . . . . . .
         2 . . . T T T T . . . .
         1 # . . T . K . T . . #
           a b c d e f g h i j k
        ",
        DEFENDERS,
        "h5-h2",
        &[],
        ONGOING,
    );
}

#[test]
fn closing_a_ring_around_every_defender_wins_by_encirclement() {
    assert_move(
        &fetlar(),
        "
        11 # . . . . . . . . . #
        10 . . . . . . . . . . .
         9 . . . . t t t . . . .
         8 . . . t . . . t . . .
         7 . . t . . . . . t . .
         6 . . t . . K T . t . .
         5 . . t . . . . . t . .
         4 . . . t . . . t . . .
         3 . . . . t . t . . . .
         2 . . . . . . . . . . .
         1 # . . . . t . . . . #
           a b c d e f g h i j k
        ",
        ATTACKERS,
        "f1-f3",
        &[],
        attackers_win(Reason::Encirclement),
    );
}

#[test]
fn the_third_occurrence_of_a_position_is_a_draw() {
    let board = "
        11 # . . . . . . . . . #
        10 . . . . . . . . . . .
         9 . . . . . . . . t . .
         8 . . . . . . . . . . .
         7 . . . . . . . . . . .
         6 . . . . . + . . . . .
         5 . . . . . . . . . . .
         4 . . . . . . . . . . .
         3 . . K . . . . . . . .
         2 . . . . . . . . . . .
         1 # . . . . . . . . . #
           a b c d e f g h i j k
        ";
    for (first, cycle) in
        [(ATTACKERS, ["i9-i8", "c3-c4", "i8-i9", "c4-c3"]), (DEFENDERS, ["c3-c4", "i9-i8", "c4-c3", "i8-i9"])]
    {
        let mut g = game(&fetlar(), board, first);
        let statuses = play_all(&mut g, &[cycle, cycle].concat());
        assert_eq!(statuses[..7], [ONGOING; 7]);
        assert_eq!(statuses[7], draw(Reason::Repetition), "{first} moved first");
    }
}
