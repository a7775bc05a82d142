//! Copenhagen: corner escape, the historical throne, an armed king captured only by four (or three
//! and the empty throne) and never on the edge, shieldwall whose far end a corner may close, the
//! exit fort, encirclement, and repetition that the defenders lose.

mod common;

use common::{
    ATTACKERS, DEFENDERS, ONGOING, assert_illegal, assert_move, attackers_win, defenders_win, game, play_all, rules,
};
use tafl_rules::{Reason, Rules, Side, Status, Variant};

fn copenhagen() -> Rules {
    rules(Variant::Copenhagen, &[])
}

/// Copenhagen with an unarmed king: no preset, a custom rule set (as an OTN rules string may
/// give), to check the unarmed king's place in a shieldwall.
fn copenhagen_unarmed() -> Rules {
    Rules { king_armed: false, ..copenhagen() }
}

const CAPTURED: Status = attackers_win(Reason::KingCaptured);

#[test]
fn the_preset_has_every_copenhagen_rule() {
    let r = copenhagen();
    assert_eq!(r.king_capture, tafl_rules::KingCapture::Strong);
    assert_eq!(r.shieldwall, tafl_rules::Shieldwall::On { corners_may_close: true });
    assert!(r.exit_fort && r.encirclement && r.king_armed);
    assert_eq!(r.repetition, tafl_rules::Repetition::DefendersLose);
    assert_eq!(r.escape, tafl_rules::Escape::Corner);
    assert_eq!(r.throne, Some(tafl_rules::Throne::HISTORICAL));
}

const LANES: &str = "
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

#[test]
fn the_empty_throne_may_be_passed_by_all_but_stopped_on_by_the_king_only() {
    assert_move(&copenhagen(), LANES, DEFENDERS, "c6-k6", &[], ONGOING);
    assert_move(&copenhagen(), LANES, ATTACKERS, "f8-f3", &[], ONGOING);
    assert_illegal(&copenhagen(), LANES, DEFENDERS, "c6-f6", "c6-f6: only the king may stop on the throne");
    assert_illegal(&copenhagen(), LANES, ATTACKERS, "f8-f6", "f8-f6: only the king may stop on the throne");
    assert_illegal(&copenhagen(), LANES, ATTACKERS, "d1-a1", "d1-a1: only the king may stop on a corner");
    assert_illegal(&copenhagen(), LANES, ATTACKERS, "d1-l1", "l1 is off the board: this one is 11x11");
    assert_illegal(&copenhagen(), LANES, ATTACKERS, "d1-d12", "d12 is off the board: this one is 11x11");
    assert_move(&copenhagen(), LANES, DEFENDERS, "h2-h1", &[], ONGOING);
    let mut g = game(&copenhagen(), LANES, DEFENDERS);
    let statuses = play_all(&mut g, &["h2-h1", "f8-f9", "h1-k1"]);
    assert_eq!(statuses, [ONGOING, ONGOING, defenders_win(Reason::KingEscaped)]);
}

/// (what it shows, board, move, status)
type KingCase = (&'static str, &'static str, &'static str, Status);

const KING_CAPTURE: [KingCase; 7] = [
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
        "three attackers do not capture the king in the open",
        "
        11 # . . . . . . . . . #
        10 . . . . . . . . . . .
         9 . . . . . . . . . . .
         8 . . . . . . . . . . .
         7 . . . . . . . . . . .
         6 . . . . . + . . . . .
         5 . . . . . . . . . . .
         4 . . . . . . . . . . .
         3 . . t K t . . . . . .
         2 . . . . . . . . . . .
         1 # . . t . . . . . . #
           a b c d e f g h i j k
        ",
        "d1-d2",
        ONGOING,
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
         8 . . . . . . . . . . .
         7 . . . . . . t . . . .
         6 . . . . . + K . . . t
         5 . . . . . . t . . . .
         4 . . . . . . . . . . .
         3 . . . . . . . . . . .
         2 . . . . . . . . . . .
         1 # . . . . . . . . . #
           a b c d e f g h i j k
        ",
        "k6-h6",
        CAPTURED,
    ),
    (
        "on the throne four attackers capture",
        "
        11 # . . . . . . . . . #
        10 . . . . . . . . . . .
         9 . . . . . . . . . . .
         8 . . . . . . . . . . .
         7 . . . . . t . . . . .
         6 . . . . t K . . . . t
         5 . . . . . t . . . . .
         4 . . . . . . . . . . .
         3 . . . . . . . . . . .
         2 . . . . . . . . . . .
         1 # . . . . . . . . . #
           a b c d e f g h i j k
        ",
        "k6-g6",
        CAPTURED,
    ),
    (
        "the king on the edge cannot be captured by three attackers",
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
    (
        "the king next to a corner cannot be captured",
        "
        11 # . . . . . . . . . #
        10 . . . . . . . . . . .
         9 . . . . . . . . . . .
         8 . . . . . . . . . . .
         7 . . . . . . . . . . .
         6 . . . . . + . . . . .
         5 . . . . . . . . . . .
         4 . . . . . . . . . . .
         3 . . . . . . . . . . .
         2 . . . . . . . t . . .
         1 # K t . . . . . . . #
           a b c d e f g h i j k
        ",
        "h2-b2",
        ONGOING,
    ),
];

#[test]
fn the_king_is_captured_strongly_and_never_on_the_edge() {
    for (name, board, mv, status) in KING_CAPTURE {
        eprintln!("case: {name}");
        assert_move(&copenhagen(), board, ATTACKERS, mv, &[], status);
    }
}

#[test]
fn a_king_who_steps_among_three_attackers_is_taken_only_when_the_fourth_closes() {
    let mut g = game(
        &copenhagen(),
        "
        11 # . . . . . . . . . #
        10 . . . . . . . . . . .
         9 . . . . . . . . . . .
         8 . . . . . . . . . . .
         7 . . . . . . . . . . .
         6 . . . . . + . . . . .
         5 . . . . . . . . . . .
         4 . . . t . . . . . . .
         3 . . t . t . . . . . .
         2 . . . . . . . . . T .
         1 # . . K . t . . . . #
           a b c d e f g h i j k
        ",
        DEFENDERS,
    );
    let statuses = play_all(&mut g, &["d1-d3", "f1-e1", "j2-j3", "e1-d1", "j3-j2", "d1-d2"]);
    assert_eq!(statuses, [ONGOING, ONGOING, ONGOING, ONGOING, ONGOING, CAPTURED]);
}

/// (what it shows, rules, board, side, move, captures)
type WallCase = (&'static str, fn() -> Rules, &'static str, Side, &'static str, &'static [&'static str]);

const SHIELDWALL: [WallCase; 11] = [
    (
        "a fronted line closed by the mover and an attacker is captured",
        copenhagen,
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
        &["d1", "e1", "f1"],
    ),
    (
        "an empty corner closes the far end",
        copenhagen,
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
         2 . t t . . . . . . . .
         1 # T T . . . . . . t #
           a b c d e f g h i j k
        ",
        ATTACKERS,
        "j1-d1",
        &["b1", "c1"],
    ),
    (
        "a line with an unfronted piece is not captured",
        copenhagen,
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
         2 . t . . . . . . . . .
         1 # T T . . . . . . t #
           a b c d e f g h i j k
        ",
        ATTACKERS,
        "j1-d1",
        &[],
    ),
    (
        "the king in the line is not captured but the others are",
        copenhagen,
        "
        11 # . . . . . . . . . #
        10 . . . . . . . . . . .
         9 . . . . . . . . . . .
         8 . . . . . . . . . . .
         7 . . . . . . . . . . .
         6 . . . . . + . . . . .
         5 . . . . . . . . . . .
         4 . . . . . . . . . . .
         3 . . . . . . . . . . .
         2 . . . t t t . . . . .
         1 # . t T K T . . . t #
           a b c d e f g h i j k
        ",
        ATTACKERS,
        "j1-g1",
        &["d1", "f1"],
    ),
    (
        "the king and a single other piece: the other is captured",
        copenhagen,
        "
        11 # . . . . . . . . . #
        10 . . . . . . . . . . .
         9 . . . . . . . . . . .
         8 . . . . . . . . . . .
         7 . . . . . . . . . . .
         6 . . . . . + . . . . .
         5 . . . . . . . . . . .
         4 . . . . . . . t . . .
         3 . . . . . . . . . . .
         2 . . . . . t t . . . .
         1 # . . . t K T . . . #
           a b c d e f g h i j k
        ",
        ATTACKERS,
        "h4-h1",
        &["g1"],
    ),
    (
        "one move closes two lines at once",
        copenhagen,
        "
        11 # . . . . . . . . . #
        10 . . . . . . . . . . .
         9 . . . . . . . . . . .
         8 . . . . . . . . . . .
         7 . . . . . . . . . . .
         6 . . . . . + . . . . .
         5 . . . . . . . . . . .
         4 . . . . t . . . . . .
         3 . . . . . . . . K . .
         2 . . t t . t t . . . .
         1 # t T T . T T t . . #
           a b c d e f g h i j k
        ",
        ATTACKERS,
        "e4-e1",
        &["c1", "d1", "f1", "g1"],
    ),
    (
        "defenders capture a line of attackers with the armed king as the far bracket",
        copenhagen,
        "
        11 # . . . . . . . . . #
        10 . . . . . . . . . . t
         9 . . . . . . . . . . .
         8 . . . . . . . . . . .
         7 . . . . . . . . . . .
         6 . . . . . + . . . . .
         5 . . . . . . . . . . .
         4 . . . . T . . . . . .
         3 . . . . . . . . . . .
         2 . . T T . . . . . . .
         1 # K t t . . . . . . #
           a b c d e f g h i j k
        ",
        DEFENDERS,
        "e4-e1",
        &["c1", "d1"],
    ),
    (
        "the armed king may be a front piece",
        copenhagen,
        "
        11 # . . . . . . . . . #
        10 . . . . . . . . . . t
         9 . . . . . . . . . . .
         8 . . . . . . . . . . .
         7 . . . . . . . . . . .
         6 . . . . . + . . . . .
         5 . . . . . . . . . . .
         4 . . . . . . . . . . .
         3 . . . . T . . . . . .
         2 . . T K . . . . . . .
         1 # T t t . . . . . . #
           a b c d e f g h i j k
        ",
        DEFENDERS,
        "e3-e1",
        &["c1", "d1"],
    ),
    (
        "an unarmed king is not a bracket",
        copenhagen_unarmed,
        "
        11 # . . . . . . . . . #
        10 . . . . . . . . . . t
         9 . . . . . . . . . . .
         8 . . . . . . . . . . .
         7 . . . . . . . . . . .
         6 . . . . . + . . . . .
         5 . . . . . . . . . . .
         4 . . . . . . . . . . .
         3 . . . . T . . . . . .
         2 . . T T . . . . . . .
         1 # K t t . . . . . . #
           a b c d e f g h i j k
        ",
        DEFENDERS,
        "e3-e1",
        &[],
    ),
    (
        "an unarmed king is not a front piece",
        copenhagen_unarmed,
        "
        11 # . . . . . . . . . #
        10 . . . . . . . . . . t
         9 . . . . . . . . . . .
         8 . . . . . . . . . . .
         7 . . . . . . . . . . .
         6 . . . . . + . . . . .
         5 . . . . . . . . . . .
         4 . . . . . . . . . . .
         3 . . . . T . . . . . .
         2 . . T K . . . . . . .
         1 # T t t . . . . . . #
           a b c d e f g h i j k
        ",
        DEFENDERS,
        "e3-e1",
        &[],
    ),
    (
        "an unarmed king in the line is not captured but the others are",
        copenhagen_unarmed,
        "
        11 # . . . . . . . . . #
        10 . . . . . . . . . . .
         9 . . . . . . . . . . .
         8 . . . . . . . . . . .
         7 . . . . . . . . . . .
         6 . . . . . + . . . . .
         5 . . . . . . . . . . .
         4 . . . . . . . . . . .
         3 . . . . . . . . . . .
         2 . . . t t t . . . . .
         1 # . t T K T . . . t #
           a b c d e f g h i j k
        ",
        ATTACKERS,
        "j1-g1",
        &["d1", "f1"],
    ),
];

#[test]
fn shieldwall_captures_fronted_edge_lines_closed_by_the_mover_or_a_corner() {
    for (name, rules, board, side, mv, captures) in SHIELDWALL {
        eprintln!("case: {name}");
        assert_move(&rules(), board, side, mv, captures, ONGOING);
    }
}

#[test]
fn a_shieldwall_line_needs_two_pieces_but_a_single_edge_piece_is_still_taken_custodially() {
    assert_move(
        &copenhagen(),
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
         2 . . . . t . . . . . .
         1 # . . t T . . . . t #
           a b c d e f g h i j k
        ",
        ATTACKERS,
        "j1-f1",
        &["e1"],
        ONGOING,
    );
}

/// (what it shows, board, side, move, captures)
type CaptureCase = (&'static str, &'static str, Side, &'static str, &'static [&'static str]);

const HOSTILITY: [CaptureCase; 5] = [
    (
        "the empty throne is hostile to defenders",
        "
        11 # . . . . . . . . . #
        10 . . . . . . . . . . .
         9 . . . . . . . . . . .
         8 . . . . . . . . . . .
         7 . . . . . . . . . . .
         6 . . . . T + . . . . .
         5 . . . . . . . . . . .
         4 . . . . . . . . K . .
         3 . . . . . . . . . . .
         2 . . . . . . . . . . .
         1 # . . t . . . . . . #
           a b c d e f g h i j k
        ",
        ATTACKERS,
        "d1-d6",
        &["e6"],
    ),
    (
        "the empty throne is hostile to attackers",
        "
        11 # . . . . . . . . . #
        10 . . . . . . . . . . .
         9 . . . . . . . . . . .
         8 . . . . . . . . . . .
         7 . . . . . . . . . . .
         6 . . . . t + . . . . .
         5 . . . . . . . . . . .
         4 . . . . . . . . K . .
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
        "an empty corner is hostile to defenders",
        "
        11 # . . . . . . . . . #
        10 . . . . . . . . . . .
         9 . . . . . . . . . . .
         8 . . . . . . . . . . .
         7 . . . . . . . . . . .
         6 . . . . . + . . . . .
         5 . . . . . . . . . . .
         4 . . . . . . . . . . .
         3 . . . . . . . . . . .
         2 . . . . K . . . . . .
         1 # T . t . . . . . . #
           a b c d e f g h i j k
        ",
        ATTACKERS,
        "d1-c1",
        &["b1"],
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
         5 . . . . . . . . . . .
         4 . . . . . . . . K . .
         3 . . . t . t . . . . .
         2 . . . . T . . . . . .
         1 # . . . . . . . . . #
           a b c d e f g h i j k
        ",
        DEFENDERS,
        "e2-e3",
        &[],
    ),
];

#[test]
fn custodial_captures_against_the_throne_and_corners() {
    for (name, board, side, mv, captures) in HOSTILITY {
        eprintln!("case: {name}");
        assert_move(&copenhagen(), board, side, mv, captures, ONGOING);
    }
}

const FORT: Status = defenders_win(Reason::ExitFort);

/// (what it shows, board, move, status)
const FORTS: [KingCase; 6] = [
    (
        "a closed fort whose every defender is uncapturable wins",
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
        "h5-h2",
        FORT,
    ),
    (
        "a near-fort with a wall defender that two attackers can take does not win",
        "
        11 # . . . . . . . . . #
        10 . . . . . . . . . . .
         9 . . t . . . . . t . .
         8 . . . . . . . . . . .
         7 . . . . . . . . . . .
         6 . . . . . + . . . . .
         5 . . . . . . . T . . .
         4 . . . . . . . . . . .
         3 . . . . . T . . . . .
         2 . . . T T . T . . . .
         1 # . . T . K . T . . #
           a b c d e f g h i j k
        ",
        "h5-h2",
        ONGOING,
    ),
    (
        "the same fort with that defender flanked by defenders wins",
        "
        11 # . . . . . . . . . #
        10 . . . . . . . . . . .
         9 . . t . . . . . t . .
         8 . . . . . . . . . . .
         7 . . . . . . . . . . .
         6 . . . . . + . . . . .
         5 . . . . . . . T . . .
         4 . . . . . . . . . . .
         3 . . . . T T T . . . .
         2 . . . T T . T . . . .
         1 # . . T . K . T . . #
           a b c d e f g h i j k
        ",
        "h5-h2",
        FORT,
    ),
    (
        "a fort in which the king cannot move does not win",
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
         1 # . . T T K T T . . #
           a b c d e f g h i j k
        ",
        "h5-h2",
        ONGOING,
    ),
    (
        "an open fort does not win",
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
         2 . . . T T . T . . . .
         1 # . . T . K . T . . #
           a b c d e f g h i j k
        ",
        "h5-h2",
        ONGOING,
    ),
    (
        "the king stepping onto the edge into a finished fort wins",
        "
        11 # . . . . . . . . . #
        10 . . . . . . . . . . .
         9 . . t . . . . . t . .
         8 . . . . . . . . . . .
         7 . . . . . . . . . . .
         6 . . . . . + . . . . .
         5 . . . . . . . . . . .
         4 . . . . . . . . . . .
         3 . . . . T T T . . . .
         2 . . . T T K T T . . .
         1 # . . T . . . T . . #
           a b c d e f g h i j k
        ",
        "f2-f1",
        FORT,
    ),
];

#[test]
fn an_exit_fort_wins_only_when_it_can_never_be_broken_and_the_king_can_move() {
    for (name, board, mv, status) in FORTS {
        eprintln!("case: {name}");
        assert_move(&copenhagen(), board, DEFENDERS, mv, &[], status);
    }
}

#[test]
fn closing_a_ring_around_every_defender_wins_by_encirclement() {
    let board = "
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
        ";
    assert_move(&copenhagen(), board, ATTACKERS, "f1-f3", &[], attackers_win(Reason::Encirclement));
    assert_move(&copenhagen(), board, ATTACKERS, "f1-g1", &[], ONGOING);
}

#[test]
fn the_third_occurrence_of_a_position_makes_the_defenders_lose_whoever_moved() {
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
        let mut g = game(&copenhagen(), board, first);
        let statuses = play_all(&mut g, &[cycle, cycle].concat());
        assert_eq!(statuses[..7], [ONGOING; 7]);
        assert_eq!(statuses[7], attackers_win(Reason::Repetition), "{first} moved first");
    }
}

#[test]
fn a_king_alone_on_the_edge_among_three_attackers_is_not_captured_but_has_no_move() {
    assert_move(
        &copenhagen(),
        "
        11 # . . . . . . . . . #
        10 . . . . . . . . . . .
         9 . . . . . . . . . . .
         8 . . . . . . . . . . .
         7 . . . . . . . . . . .
         6 . . . . . + . . . . .
         5 . . . . . . . . . . .
         4 . . . . . . . . . . .
         3 . . . . . t . . . . .
         2 . . . . . . . . . . .
         1 # . . . t K t . . . #
           a b c d e f g h i j k
        ",
        ATTACKERS,
        "f3-f2",
        &[],
        attackers_win(Reason::NoMoves),
    );
}

#[test]
fn a_fort_whose_lone_edge_defenders_have_no_edge_neighbour_wins() {
    // d1 and h1 could only fall to a shieldwall, which needs a second defender beside them on the
    // edge: there is none, and the king, whose front is always his own side, never completes one.
    assert_move(
        &copenhagen(),
        "
        11 # . . . . . . . . . #
        10 . . . . . . . . . . .
         9 . . t . . . . . t . .
         8 . . . . . . . . . . .
         7 . . . . . . . . . . .
         6 . . . . . + . . . . .
         5 . . . . . . T . . . .
         4 . . . . . . . . . . .
         3 . . . . . . . . . . .
         2 . . . . T T . . . . .
         1 # . . T . K . T . . #
           a b c d e f g h i j k
        ",
        DEFENDERS,
        "g5-g2",
        &[],
        FORT,
    );
}

#[test]
fn a_fort_whose_edge_defenders_form_a_line_with_the_king_wins() {
    // Game 73 of the Copenhagen records, won by the defenders: after b5-b6 the king on a6 can
    // move to a7 and nothing can take a5, a8, b6 or b7. a4 and a5 stand in a line on the edge,
    // but that line runs into the king, whom no attacker can ever stand in front of, so no
    // shieldwall can close it.
    assert_move(
        &copenhagen(),
        "
        11 # . t . . . . . t . #
        10 . t . . . . . . t . .
         9 t . . . . . T . . . t
         8 T . . . . . . . . . .
         7 . T . . . T . . . . .
         6 K . t . . + . T . . t
         5 T T . . . . T . . . t
         4 T . . . . . . . . . .
         3 t . . . T . t . . . .
         2 . t . . . . . . . t .
         1 # . t . . . . t . . #
           a b c d e f g h i j k
        ",
        DEFENDERS,
        "b5-b6",
        &[],
        FORT,
    );
}
