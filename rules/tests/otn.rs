//! OTN rules strings and game records: every preset round-trips, other tools' strings import,
//! and bad input is refused with a reason.

use tafl_rules::otn::{GameRecord, RecordEnd, parse_rules, parse_rules_and_first_side, result_tag, rules_string};
use tafl_rules::{Escape, Game, KingCapture, Position, Repetition, Shieldwall, Side, Variant};

#[test]
fn every_preset_and_option_exports_a_rules_string_that_imports_to_the_same_rules() {
    let mut checked = 0;
    for variant in Variant::ALL {
        let mut option_sets: Vec<Vec<&str>> = vec![vec![]];
        for key in variant.option_keys() {
            match *key {
                "king_armed" => option_sets.push(vec!["king_armed=false"]),
                "escape" => {
                    option_sets.push(vec!["escape=edge"]);
                    option_sets.push(vec!["escape=corner"]);
                }
                other => panic!("no round-trip case for option {other}"),
            }
        }
        for options in option_sets {
            let rules = variant.rules_with_texts(&options).unwrap();
            let text = rules_string(&rules);
            assert_eq!(parse_rules(&text).as_ref(), Ok(&rules), "{variant} {options:?}: {text}");
            checked += 1;
        }
    }
    assert_eq!(checked, 12 + 3 + 6, "every preset and every option value");
}

#[test]
fn copenhagen_exports_the_expected_rules_string() {
    assert_eq!(
        rules_string(&Variant::Copenhagen.rules()),
        "dim:11 esc:c surf:y ka:y ks:s cens:K cenp:tTK cenhe:tT cenh:t sw:s efe:y tfr:a \
         start:/3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3/"
    );
}

#[test]
fn opentafl_sea_battle_string_imports_with_its_defaults() {
    let rules =
        parse_rules("dim:9 esc:e ka:n cen: cor: start:/3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3/").unwrap();
    assert_eq!(rules.escape, Escape::Edge);
    assert!(!rules.king_armed);
    assert_eq!(rules.throne, None);
    assert_eq!(rules.king_capture, KingCapture::Strong);
    assert_eq!(rules.shieldwall, Shieldwall::Off);
    assert!(rules.encirclement, "surf defaults to y");
    assert_eq!(rules.repetition, Repetition::Draw, "tfr defaults to d");
}

#[test]
fn rules_strings_this_bot_cannot_play_are_refused_by_name() {
    let start = "start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/";
    let cases = [
        (format!("dim:7 atkf:n {start}"), "defenders moving first"),
        (format!("dim:7 ka:h {start}"), "only as the moving"),
        (format!("dim:7 ber:c {start}"), "berserk"),
        (format!("dim:7 esc:e {start}"), "corner squares"),
        // Under edge escape any other list named squares only the king may stop on, and they
        // were dropped: another game than the writer's (the rules review).
        (format!("dim:7 esc:e cor:a1 {start}"), "cor:a1 names special squares"),
        (format!("dim:7 esc:e cor:a1,g7 {start}"), "cor:a1,g7 names special squares"),
        (format!("dim:7 esc:e cor:b2,f6 {start}"), "cor:b2,f6 names special squares"),
        (format!("dim:7 esc:e cor:zz {start}"), "cor:zz names special squares"),
        (format!("dim:7 zz:y {start}"), "not a rules key"),
        (format!("dim:9 {start}"), "does not match"),
        ("dim:7".to_owned(), "start: (the starting position) is missing"),
        (start.to_owned(), "dim: (the board size) is missing"),
        (format!("dim:7 ka:maybe {start}"), "is not y, n, h or a"),
        (format!("dim:7 surf:maybe {start}"), "is not y or n"),
        ("dim:7 start:/3t3/3t3/3T3/ttT1Ttt/3T3/3t3/3t3/".to_owned(), "exactly one"),
        // A key twice has no one reading: `cen:` had a throne from its last copy, its square
        // from its first.
        (format!("dim:7 cen: cen:a1 {start}"), "cen: is given twice; give each key once"),
        (format!("dim:7 ks:m ks:m {start}"), "ks: is given twice"),
        // OpenTafl's own Tablut: nobody, the king included, stops on the throne.
        (
            "dim:9 name:Tablut esc:e atkf:y ks:c nj:n cor: cens: cenh: start:/3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3/"
                .to_owned(),
            "cens: asks for a king who may not stop on the throne, nor come back to it",
        ),
        (format!("dim:7 cens:KT {start}"), "cens:KT lets pieces other than the king stop on the throne"),
        // OpenTafl counts an empty throne against a king taken on every side only when it is
        // hostile to the defenders; here it always counts (the protocol review).
        (format!("dim:7 ks:s cenhe:t {start}"), "cenhe:t keeps the empty throne from helping to capture the king"),
        (format!("dim:7 ks:m cenhe: {start}"), "cenhe: keeps the empty throne from helping"),
        (format!("dim:7 ks:c cenhe:tcnk {start}"), "cenhe:tcnk keeps the empty throne from helping"),
    ];
    for (text, expected) in cases {
        let err = parse_rules(&text).expect_err(&text).to_string();
        assert!(err.contains(expected), "{text}: {err}");
    }
}

/// A weak king is taken as a man is, by the throne's hostility to the defenders: `OpenTafl`'s
/// Brandubh (`ks:w cenhe:`) is played, and so is a strong king whose empty throne is hostile
/// to the defenders, as by `OpenTafl`'s default `cenhe`.
#[test]
fn a_throne_friendly_to_the_defenders_is_played_with_a_weak_king() {
    let start = "start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/";
    for text in [
        format!("dim:7 ks:w cenh: cenhe: {start}"),
        format!("dim:7 ks:s {start}"),
        format!("dim:7 ks:s cenhe:tT {start}"),
    ] {
        parse_rules(&text).unwrap_or_else(|e| panic!("{text}: {e}"));
    }
}

#[test]
fn a_game_record_round_trips_and_replays_to_the_same_game() {
    let mut game = Game::new(Position::new(Variant::Brandubh.rules()).unwrap());
    for mv in ["d2-e2", "c4-c5", "f4-f5", "d4-c4", "e2-d2"] {
        game.play(mv.parse().unwrap()).unwrap();
    }
    let tags = vec![
        ("variant".to_owned(), "brandubh".to_owned()),
        ("result".to_owned(), result_tag(game.status()).to_owned()),
    ];
    let record = GameRecord::from_game(&game, tags);
    let text = record.to_string();
    assert!(text.starts_with("[variant:brandubh]\n[result:?]\n[rules:dim:7 "), "{text}");
    assert!(text.contains("\n1. d2-e2 c4-c5\n2. f4-f5 d4-c4\n3. e2-d2xd3\n"), "{text}");
    let parsed = GameRecord::parse(&text).unwrap();
    assert_eq!(parsed, record);
    let replayed = parsed.replay().unwrap();
    assert_eq!(replayed.moves(), game.moves());
    assert_eq!(replayed.position(), game.position());
}

#[test]
fn a_record_in_the_specification_layout_with_annotations_is_read() {
    let text = "[event:Test]\ndim:7 ks:c cenh:t start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/\n\
                1. d2-e2 c4-c5+\n2. f4-f5 Kd4-c4-\n---\n";
    let record = GameRecord::parse(text).unwrap();
    assert_eq!(record.tag("event"), Some("Test"));
    assert_eq!(record.moves.len(), 4);
    assert_eq!(record.moves[3].to_string(), "d4-c4");
    assert_eq!(record.end, Some(RecordEnd::Resigned));
}

#[test]
fn a_record_with_a_wrong_capture_is_refused_at_that_ply() {
    let rules = rules_string(&Variant::Brandubh.rules());
    let text = format!("[rules:{rules}]\n1. d2-e2 c4-c5\n2. f4-f5 d4-c4\n3. e2-d2xd5\n");
    let (ply, err) = GameRecord::parse(&text).unwrap().replay().unwrap_err();
    assert_eq!(ply, 5);
    assert_eq!(err.to_string(), "e2-d2: the move captures d3, not d5");
}

#[test]
fn malformed_records_say_which_line_is_wrong() {
    let rules = rules_string(&Variant::Brandubh.rules());
    let cases = [
        ("1. d2-e2\n".to_owned(), "rules are missing"),
        (format!("[rules:{rules}]\n[broken\n"), "line 2"),
        (format!("[rules:{rules}]\n1. d2-e2 zz\n"), "line 2"),
        (format!("[rules:{rules}]\n1. d2-e2 ---\n2. c4-c5\n"), "after the end"),
    ];
    for (text, expected) in cases {
        let err = GameRecord::parse(&text).expect_err(&text).to_string();
        assert!(err.contains(expected), "{text}: {err}");
    }
}

/// `OpenTafl`'s own Copenhagen rules string (its `tfr:w`: the player whose move makes a position
/// occur the third time wins; in a perpetual king threat that is the attackers, forced to block).
const OPENTAFL_COPENHAGEN: &str = "dim:11 name:Copenhagen atkf:y tfr:w sw:s efe:y start:/3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3/";

#[test]
fn opentafl_copenhagen_is_ours_with_the_repeating_mover_winning() {
    let rules = parse_rules(OPENTAFL_COPENHAGEN).unwrap();
    assert_eq!(rules.repetition, Repetition::MoverWins);
    let ours = tafl_rules::Rules { repetition: Repetition::MoverWins, ..Variant::Copenhagen.rules() };
    assert_eq!(rules, ours, "every other rule is OpenTafl's default or named");
    let exported = tafl_rules::otn::rules_string(&rules);
    assert!(exported.contains(" tfr:w "), "{exported}");
    assert_eq!(parse_rules(&exported).unwrap(), rules);

    // The start is the first occurrence: the defenders' f3-f4 on the eighth ply makes the third
    // and wins. The engine, with the defenders to move on ply 7, sees it.
    let cycle = ["a4-a3", "f4-f3", "a3-a4", "f3-f4"];
    let mut game = Game::new(Position::new(rules).unwrap());
    for mv in [cycle, cycle].concat().iter().take(7) {
        game.play(mv.parse().unwrap()).unwrap();
        assert!(game.status().is_ongoing());
    }
    let analysis = tafl_rules::engine::Searcher::new().analyse(&game, &tafl_rules::engine::Limits::depth(2)).unwrap();
    assert_eq!(analysis.best.to_string(), "f3-f4", "{analysis:?}");
    assert!(analysis.score > 20_000, "{analysis:?}");
    game.play(analysis.best).unwrap();
    let won = tafl_rules::Outcome { winner: Some(tafl_rules::Side::Defenders), reason: tafl_rules::Reason::Repetition };
    assert_eq!(game.status(), tafl_rules::Status::Finished(won));
}

#[test]
fn odd_input_an_outside_tool_might_send_is_refused_or_read_never_a_panic() {
    const BRANDUBH: &str = "/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/";
    // A count of empty squares too large for any number type: too wide, not an overflow.
    assert!("/t18446744073709551615/3t3/3T3/ttTKTtt/3T3/3t3/3t3/".parse::<tafl_rules::Setup>().is_err());
    // Corners listed for a board too large to letter, or before the board's size is known.
    assert!(parse_rules("dim:200 cor:a1 start:/3t3/").is_err());
    let early = format!("cor:a1,a7,g1,g7 esc:e dim:7 start:{BRANDUBH}");
    let late = format!("esc:e dim:7 cor:a1,a7,g1,g7 start:{BRANDUBH}");
    assert_eq!(parse_rules(&early), parse_rules(&late), "the same rules whatever the keys' order");
    assert!(parse_rules(&early).is_err(), "edge escape with corner squares is refused either way");
    let corner = format!("cor:a1,a7,g1,g7 dim:7 start:{BRANDUBH}");
    assert_eq!(parse_rules(&corner).expect("corner escape, listed first").escape, Escape::Corner);
    // The throne named in capitals is the same square.
    assert!(parse_rules(&format!("dim:7 cen:D4 start:{BRANDUBH}")).is_ok());
    // A start whose defenders are already surrounded, with encirclement on: refused at the door
    // (play checks encirclement only where a move could change it).
    let encircled =
        parse_rules("dim:7 esc:e cor: surf:y ka:y ks:s cen: sw:n efe:n tfr:d start:/7/7/3t3/2tKt2/3t3/7/t6/")
            .expect("the string reads");
    assert!(Position::new(encircled).is_err());
    // A record saved with a byte-order mark reads as without one.
    let record = format!("[rules:dim:7 start:{BRANDUBH}]\n1. d2-c2\n");
    assert_eq!(GameRecord::parse(&format!("\u{feff}{record}")), GameRecord::parse(&record));
    assert!(GameRecord::parse(&record).is_ok());
}

/// `atkf:` says which side moves first. The engine protocol's reader takes `atkf:n` (`OpenTafl`'s
/// own Fetlar and Copenhagen strings carry it) with the side it names; the rules are the same
/// either way, and `parse_rules`, which has no side to move to give back, still refuses it.
#[test]
fn the_side_moving_first_is_read_where_it_can_be_kept() {
    let start = "start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/";
    for (atkf, first) in [("", Side::Attackers), ("atkf:y ", Side::Attackers), ("atkf:n ", Side::Defenders)] {
        let text = format!("dim:7 {atkf}{start}");
        let (rules, side) = parse_rules_and_first_side(&text).expect(&text);
        assert_eq!(side, first, "{text}");
        assert_eq!(rules, parse_rules(&format!("dim:7 {start}")).unwrap(), "{text}");
    }
    let err = parse_rules_and_first_side(&format!("dim:7 atkf:maybe {start}")).unwrap_err().to_string();
    assert!(err.contains("atkf:maybe is not y or n"), "{err}");
    let err = parse_rules(&format!("dim:7 atkf:n {start}")).unwrap_err().to_string();
    assert!(err.contains("atkf:n asks for the defenders moving first"), "{err}");
}

const BRANDUBH_RULES: &str = "dim:7 esc:c surf:n ka:y ks:m cens:K cenp:K cenhe:tT cenh: sw:n efe:n tfr:d \
                              start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/";
const TABLUT_RULES: &str = "dim:9 esc:c surf:n ka:y ks:m cens:K cenp:K cenhe:tT cenh: sw:n efe:n tfr:d \
                            start:/3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3/";

/// Two values for one tag leave the game in doubt (which rules? which result?): refused, in one
/// sentence naming the tag and the line of the second. The same value twice says nothing new.
#[test]
fn a_tag_given_twice_with_different_values_is_refused() {
    let cases = [
        (format!("[rules:{TABLUT_RULES}]\n[rules:{BRANDUBH_RULES}]\n1. d2-e2\n"), "rules", 2),
        (format!("[result:1]\n[result:-1]\n[rules:{BRANDUBH_RULES}]\n1. d2-e2\n"), "result", 2),
        (format!("[rules:{BRANDUBH_RULES}]\n{TABLUT_RULES}\n1. d2-e2\n"), "rules", 2),
        (format!("[attackers:ann] [attackers:ben]\n[rules:{BRANDUBH_RULES}]\n"), "attackers", 1),
        (format!("[to-move:attackers]\n[to-move:defenders]\n[rules:{BRANDUBH_RULES}]\n"), "to-move", 2),
        (
            format!(
                "[position:/7/3t3/3T3/ttTK1tt/3T3/3t3/7/]\n[rules:{BRANDUBH_RULES}]\n/7/3t3/3T3/ttTKt2/3T3/3t3/7/\n"
            ),
            "position",
            3,
        ),
    ];
    for (text, key, line) in cases {
        let err = GameRecord::parse(&text).expect_err(&text);
        assert_eq!(err, tafl_rules::ParseError::DuplicateTag { line, key: key.to_owned() }, "{text}");
        let said = err.to_string();
        assert!(said.contains(&format!("gives the {key} tag a second value")) && !said.contains('\n'), "{said}");
    }
    let text =
        format!("[result:1]\n[event:x]\n[result: 1 ]\n[rules:{BRANDUBH_RULES}]\n[rules:{BRANDUBH_RULES}]\n1. d2-e2\n");
    let record = GameRecord::parse(&text).unwrap();
    assert_eq!(record.tags, [("result".to_owned(), "1".to_owned()), ("event".to_owned(), "x".to_owned())]);
}

/// `OpenTafl` saves a game with commentary after every turn (`[|]` when its moves have none; OTN
/// section 4): it is skipped, whatever it says, colons and all, over several lines if it must.
#[test]
fn commentary_after_the_turns_is_skipped() {
    let text = format!(
        "[rules:{BRANDUBH_RULES}]\n\n1. d2-e2 c4-c5 \n[|]\n\n2. f4-f5 \n[Nice move: a threat|]\n\n\
         [a comment over\ntwo lines] [another]\n---\n[result:-1]\n"
    );
    let record = GameRecord::parse(&text).unwrap_or_else(|e| panic!("{e}"));
    let moves: Vec<String> = record.moves.iter().map(ToString::to_string).collect();
    assert_eq!(moves, ["d2-e2", "c4-c5", "f4-f5"]);
    assert_eq!(record.end, Some(RecordEnd::Resigned));
    // Tags come before the moves; what looks like one after them is commentary.
    assert_eq!(record.tag("Nice move"), None);
    assert_eq!(record.tag("result"), None);
    assert!(record.tags.is_empty(), "{:?}", record.tags);
    // A comment that never closes would swallow the rest of the game: refused where it opens.
    let err = GameRecord::parse(&format!("[rules:{BRANDUBH_RULES}]\n1. d2-e2\n[oops\n2. f4-f5\n")).unwrap_err();
    assert_eq!(
        err.to_string(),
        "the OTN game record is invalid at line 3: a comment opened with '[' is never closed with ']'"
    );
}

/// Several tags on a line are each read, as `OpenTafl`'s `parseTags` reads them.
#[test]
fn tags_sharing_a_line_are_each_read() {
    let text = format!("[attackers:alice] [result:1]  [defenders:bob]\n[rules:{BRANDUBH_RULES}] [event:x]\n1. d2-e2\n");
    let record = GameRecord::parse(&text).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(record.tag("attackers"), Some("alice"));
    assert_eq!(record.tag("result"), Some("1"));
    assert_eq!(record.tag("defenders"), Some("bob"));
    assert_eq!(record.tag("event"), Some("x"));
    assert_eq!(record.rules, Variant::Brandubh.rules());
    // A line of tags with text after them is not one.
    let err = GameRecord::parse(&format!("[attackers:alice] and more\n[rules:{BRANDUBH_RULES}]\n")).unwrap_err();
    assert!(err.to_string().contains("line 1"), "{err}");
}

/// `[to-move:…]` without a position names the side to move at the rules' own start (what
/// `atkf:` says in a rules string); a record saying both must agree.
#[test]
fn a_to_move_tag_without_a_position_is_the_side_moving_first_from_the_rules_start() {
    let text = format!("[to-move:defenders]\n[rules:{BRANDUBH_RULES}]\n1. d3-c3\n");
    let record = GameRecord::parse(&text).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(record.start, Some((Variant::Brandubh.rules().start, Side::Defenders)));
    let game = record.replay().unwrap_or_else(|(ply, e)| panic!("ply {ply}: {e}"));
    assert_eq!((game.start().to_move(), game.ply()), (Side::Defenders, 1));
    // The attackers, as the rules would have it anyway: no custom start.
    let text = format!("[to-move:attackers]\n[rules:{BRANDUBH_RULES}]\n1. d2-e2\n");
    assert_eq!(GameRecord::parse(&text).unwrap().start, None);
    let text = format!("[to-move:attackers]\n[rules:dim:7 atkf:n {}]\n", &BRANDUBH_RULES[6..]);
    let err = GameRecord::parse(&text).unwrap_err().to_string();
    assert_eq!(
        err,
        "the OTN game record is invalid at line 1: to-move:attackers contradicts the rules string's atkf:n; correct one \
         of them"
    );
}

/// The specification's own Fetlar and Copenhagen strings carry `atkf:n`: a record under them is
/// read with the defenders moving first, as the bot plays such a start.
#[test]
fn a_record_under_the_specifications_copenhagen_string_is_read_with_the_defenders_first() {
    let text = "[event:spec]\ndim:11 atkf:n sw:s efe:y \
                start:/3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3/\n1. f4-i4 d1-d3\n";
    let record = GameRecord::parse(text).unwrap_or_else(|e| panic!("{e}"));
    let game = record.replay().unwrap_or_else(|(ply, e)| panic!("ply {ply}: {e}"));
    assert_eq!(game.start().to_move(), Side::Defenders);
    assert_eq!(game.ply(), 2);
    // Written again, it says so where `OpenTafl` looks: the rules string.
    let again = record.to_string();
    assert!(again.contains("[to-move:defenders]\n[rules:dim:11 atkf:n "), "{again}");
    assert_eq!(GameRecord::parse(&again), Ok(record));
}

/// `OpenTafl` reads a record's start and first side from its rules string alone, so a game from a
/// custom position writes that position as the rules' `start:` (and `atkf:n` for the defenders
/// first); the rule set's own start goes into `[rules-start:…]`, so that the rules read back are
/// the preset's.
#[test]
fn a_game_from_a_custom_start_writes_it_into_the_rules_string() {
    let custom = "/7/3t3/3T3/ttTK1tt/3T3/3t3/7/";
    let start = Position::new(Variant::Brandubh.rules())
        .unwrap()
        .with_setup(&custom.parse().unwrap(), Side::Defenders)
        .unwrap();
    let mut game = Game::new(start);
    game.play("d4-e4".parse().unwrap()).unwrap();
    let record = GameRecord::from_game(&game, vec![]);
    let text = record.to_string();
    let ours = rules_string(&Variant::Brandubh.rules());
    let theirs = ours.replace("dim:7", "dim:7 atkf:n").replace(&Variant::Brandubh.rules().start.to_string(), custom);
    assert_eq!(
        text,
        format!(
            "[position:{custom}]\n[to-move:defenders]\n[rules-start:{}]\n[rules:{theirs}]\n1. d4-e4\n",
            Variant::Brandubh.rules().start
        )
    );
    let read = GameRecord::parse(&text).unwrap();
    assert_eq!(read, record);
    assert_eq!(read.rules, Variant::Brandubh.rules());
    // As an older version wrote it (the rules with their own start, the position in its tag),
    // and as `OpenTafl` would (the start in the rules string only): the same game either way,
    // the rule set's own start being what the rules string says when nothing else does.
    let older = format!("[position:{custom}]\n[to-move:defenders]\n[rules:{ours}]\n1. d4-e4\n");
    assert_eq!(GameRecord::parse(&older), Ok(record.clone()));
    let opentafl = GameRecord::parse(&format!("[rules:{theirs}]\n1. d4-e4\n")).unwrap();
    assert_eq!(opentafl.rules.start, custom.parse().unwrap());
    assert_eq!(opentafl.start, Some((custom.parse().unwrap(), Side::Defenders)));
    let replayed = opentafl.replay().unwrap();
    assert_eq!(
        (replayed.position().setup(), replayed.position().to_move()),
        (game.position().setup(), Side::Attackers)
    );
    // A position tag that names another start than the rules string it is written beside.
    let other = format!("[position:{}]\n[rules-start:{custom}]\n[rules:{theirs}]\n", Variant::Brandubh.rules().start);
    let err = GameRecord::parse(&other).unwrap_err().to_string();
    assert!(err.contains("name different starts"), "{err}");
}

/// A `]` in a name ends the tag for `OpenTafl`, and a `1. ` anywhere starts its moves: tag values
/// are written with such characters escaped as `%5D`, `%2E` and the like, and read back whole. An
/// older record with a `]` inside a tag on a line of its own still reads.
#[test]
fn tag_values_are_written_so_that_opentafl_reads_them_and_read_back_whole() {
    let game = Game::new(Position::new(Variant::Brandubh.rules()).unwrap());
    let names = [("attackers", "Ann [the] 1st. Team 1. 50%"), ("defenders", "line\nbreak"), ("odd:key", "x")];
    let tags = names.iter().map(|(k, v)| ((*k).to_owned(), (*v).to_owned())).collect();
    let record = GameRecord::from_game(&game, tags);
    let text = record.to_string();
    assert!(
        text.starts_with("[attackers:Ann %5Bthe%5D 1st. Team 1%2E 50%25]\n[defenders:line%0Abreak]\n[odd%3Akey:x]\n"),
        "{text}"
    );
    assert_eq!(GameRecord::parse(&text), Ok(record));
    // White space at the ends of a value is its own, not padding (the rules review): spaces there
    // are escaped, and other white space is not trimmed.
    for value in [" Bob", "Bob  ", "\u{2028}Bob", "Bob\u{a0}", " "] {
        let record = GameRecord::from_game(&game, vec![("event".to_owned(), value.to_owned())]);
        let text = record.to_string();
        assert_eq!(GameRecord::parse(&text).unwrap().tags, record.tags, "{value:?} in\n{text}");
    }
    let padded = GameRecord::parse(&format!("[event:  Bob ]\n[rules:{BRANDUBH_RULES}]\n")).unwrap();
    assert_eq!(padded.tag("event"), Some("Bob"), "another tool's padding");
    let older = format!("[attackers:Ann [the] first]\n[event:100% %41]\n[rules:{BRANDUBH_RULES}]\n");
    let read = GameRecord::parse(&older).unwrap();
    assert_eq!(read.tag("attackers"), Some("Ann [the] first"));
    assert_eq!(read.tag("event"), Some("100% %41"), "only what the writer escapes is read as escaped");
}
