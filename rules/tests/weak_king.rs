//! A weak king (`KingCapture::Weak`, OTN `ks:w`), which no preset has: taken like any defender,
//! by two attackers on opposite sides or by one against a square hostile to defenders, on the
//! throne too. `OpenTafl`'s Brandubh is played this way (its `Brandub.java`: the king "is captured
//! as a regular piece", corners hostile, the throne hostile to nobody and passable by all), so
//! the tests use its rules string as `OpenTafl` writes it.

mod common;

use common::{ATTACKERS, ONGOING, assert_king_move, attackers_win, game, king_steps_between_two_attackers};
use tafl_rules::engine::{Limits, Searcher, WIN};
use tafl_rules::otn::{parse_rules, rules_string};
use tafl_rules::{Game, KingCapture, Position, Reason, Rules, Status, ThronePass};

/// `OpenTafl`'s Brandubh, as its `RulesSerializer` writes it (only what differs from its defaults).
const OPENTAFL_BRANDUBH: &str =
    "dim:7 name:Brandub surf:n atkf:y ks:w cenh: cenhe: start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/";

fn brandubh() -> Rules {
    parse_rules(OPENTAFL_BRANDUBH).expect("OpenTafl's Brandubh is playable")
}

/// The same with OTN's default throne: hostile to everyone when empty.
fn hostile_throne() -> Rules {
    parse_rules("dim:7 surf:n ks:w start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/").expect("valid")
}

const CAPTURED: Status = attackers_win(Reason::KingCaptured);

#[test]
fn opentafl_brandubh_reads_as_a_weak_armed_king_and_round_trips() {
    let rules = brandubh();
    assert_eq!(rules.king_capture, KingCapture::Weak);
    assert!(rules.king_armed);
    assert!(!rules.encirclement);
    let throne = rules.throne.expect("a throne");
    assert_eq!(throne.pass, ThronePass::Everyone);
    let h = throne.hostility;
    assert!(!h.empty_to_attackers && !h.empty_to_defenders && !h.occupied_to_attackers && !h.occupied_to_defenders);
    let written = rules_string(&rules);
    assert!(written.contains(" ks:w "), "{written}");
    assert_eq!(parse_rules(&written).expect("our own string"), rules);
    // `n`, the specification's "not strong", is the same king.
    let n = parse_rules(&OPENTAFL_BRANDUBH.replace("ks:w", "ks:n")).expect("ks:n");
    assert_eq!(n, rules);
    // Speeds and re-entry at OpenTafl's defaults are what every rule set here has.
    let with_defaults = format!("spd:-1 cenre:tcnkTCNK corre:tcnkTCNK {OPENTAFL_BRANDUBH}");
    assert_eq!(parse_rules(&with_defaults).expect("defaults written out"), rules);
    for (extra, refusal) in [("spd:2", "limited move length"), ("cenre:tT", "may not come back")] {
        let text = format!("{extra} {OPENTAFL_BRANDUBH}");
        let err = parse_rules(&text).expect_err(&text).to_string();
        assert!(err.contains(refusal), "{text}: {err}");
    }
}

/// (what it shows, board, move, and the status under each rule set)
type Case = (&'static str, &'static str, &'static str, &'static [(fn() -> Rules, Status)]);

const KING_CAPTURE: [Case; 7] = [
    (
        "two attackers on opposite sides capture in the field",
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
        &[(brandubh, CAPTURED)],
    ),
    (
        "two attackers at a right angle do not",
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
        &[(brandubh, ONGOING)],
    ),
    (
        "on the throne two attackers capture",
        "
        7 # . . . . . #
        6 . . . . . . .
        5 . . . . . . .
        4 . . t K . . .
        3 . . . . . . .
        2 . . . . t . .
        1 # . . . . . #
          a b c d e f g
        ",
        "e2-e4",
        &[(brandubh, CAPTURED)],
    ),
    (
        "beside the empty throne one attacker captures where the throne is hostile to defenders",
        "
        7 # . . . . . #
        6 . . . . . . .
        5 . . . . . . .
        4 . . . + K . .
        3 . . . . . . .
        2 . . . . . t .
        1 # . . . . . #
          a b c d e f g
        ",
        "f2-f4",
        &[(brandubh, ONGOING), (hostile_throne, CAPTURED)],
    ),
    (
        "against an empty corner one attacker captures",
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
        &[(brandubh, CAPTURED)],
    ),
    (
        "on the edge one attacker does not: the edge is no hostile square",
        "
        7 # . . . . . #
        6 . . . . . . .
        5 . . . . . . .
        4 . . . + . . .
        3 . . . . t . .
        2 . . . . . . .
        1 # . . K . . #
          a b c d e f g
        ",
        "e3-e1",
        &[(brandubh, ONGOING)],
    ),
    (
        "on the edge an attacker on each side captures",
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
        &[(brandubh, CAPTURED)],
    ),
];

#[test]
fn the_weak_king_is_taken_like_a_defender_anywhere() {
    for (name, board, mv, outcomes) in KING_CAPTURE {
        for (rules, status) in outcomes {
            eprintln!("case: {name} ({status:?})");
            assert_king_move(&rules(), board, mv, *status);
        }
    }
}

#[test]
fn a_weak_king_who_steps_between_two_attackers_is_taken_only_by_an_attacker_that_completes_a_pair() {
    assert_eq!(king_steps_between_two_attackers(&brandubh()), [ONGOING, ONGOING, ONGOING, CAPTURED]);
}

#[test]
fn the_engine_takes_a_weak_king_where_a_middleweight_one_would_be_safe() {
    // Two ways to capture in one: on the throne (c4 and e4) or beside it; the engine finds one.
    let g = game(
        &brandubh(),
        "
        7 # . . . . . #
        6 . . . t . . .
        5 . . . . . . .
        4 . . t K . . .
        3 . . . . . . .
        2 . . . . t . .
        1 # . . . . . #
          a b c d e f g
        ",
        ATTACKERS,
    );
    let analysis = Searcher::new().analyse(&g, &Limits::depth(2)).expect("the game is on");
    assert_eq!(analysis.score, WIN - 1, "pv {:?}", analysis.pv);
    let mut after: Game = g.clone();
    after.play(analysis.best).expect("legal");
    assert_eq!(after.status(), CAPTURED, "{}", analysis.best);
    // Under the preset's middleweight king the same position holds.
    let preset = Rules { king_capture: KingCapture::Middleweight, ..brandubh() };
    let g = Game::new(Position::from_setup(preset, &g.position().setup(), ATTACKERS).expect("valid"));
    let analysis = Searcher::new().analyse(&g, &Limits::depth(2)).expect("the game is on");
    assert!(analysis.score < WIN - 100, "{analysis:?}");
}
