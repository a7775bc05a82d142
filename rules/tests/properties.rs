//! Property tests: the legal-move list, `check` and `play` agree in positions reached by random
//! play of every preset, and every parser round-trips its own output and refuses arbitrary input
//! with an error instead of a panic. Case counts are modest so `cargo test` stays quick.

use proptest::prelude::*;
use proptest::test_runner::Config;
use tafl_rules::{Escape, Game, Move, MoveText, Piece, Position, Setup, Side, Square, Variant, VariantOption, otn};

mod rule_sets;
use rule_sets::rule_sets;

/// `OpenTafl`'s Brandubh (a weak king, a throne hostile to nobody, no encirclement): rules no
/// preset has, read from the string `OpenTafl` writes.
const OPENTAFL_BRANDUBH: &str =
    "dim:7 name:Brandub surf:n atkf:y ks:w cenh: cenhe: start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/";

/// A weak king who escapes to the edge, with no throne and no corners, and encirclement (as in
/// `OpenTafl`'s Tawlbwrdd), on the Copenhagen layout.
const WEAK_KING_EDGE: &str = "dim:11 esc:e cor: cen: ks:w \
    start:/3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3/";

/// Every rule set of [`rule_sets`], and two with a weak king, which no preset has.
fn all_rules() -> Vec<tafl_rules::Rules> {
    let mut out: Vec<_> = rule_sets()
        .iter()
        .map(|(variant, options)| variant.rules_with_texts(options).expect("valid options"))
        .collect();
    out.push(otn::parse_rules(OPENTAFL_BRANDUBH).expect("OpenTafl's Brandubh"));
    out.push(otn::parse_rules(WEAK_KING_EDGE).expect("a weak king at the edge"));
    out
}

fn all_squares(size: u8) -> impl Iterator<Item = Square> {
    (0..size).flat_map(move |rank| (0..size).map(move |file| Square::new(file, rank).expect("small board")))
}

/// Checks, in one position, that `legal_moves`, `count_legal_moves`, `has_legal_move`, `check`
/// and `play` tell the same story. Every move from every occupied square along its rank and
/// file is compared (that covers every move that could be legal), plus the given random pairs.
fn assert_move_generation_agrees(position: &Position, random_pairs: &[(u8, u8, u8, u8)]) {
    let legal = position.legal_moves();
    assert!(legal.windows(2).all(|w| w[0] < w[1]), "legal_moves is sorted and has no duplicates");
    assert_eq!(position.count_legal_moves(), legal.len());
    assert_eq!(position.has_legal_move(), !legal.is_empty());
    let size = position.size();
    let mut candidates: Vec<Move> = Vec::new();
    for (from, _) in position.pieces() {
        for to in all_squares(size) {
            if to.file() == from.file() || to.rank() == from.rank() {
                candidates.push(Move::new(from, to));
            }
        }
    }
    for &(ff, fr, tf, tr) in random_pairs {
        // Up to two squares beyond the board, to exercise the off-board refusal too.
        let from = Square::new(ff % (size + 2), fr % (size + 2)).expect("small");
        let to = Square::new(tf % (size + 2), tr % (size + 2)).expect("small");
        candidates.push(Move::new(from, to));
    }
    for mv in &legal {
        assert_eq!(position.check(*mv), Ok(()), "{mv} is listed but refused in {position:?}");
    }
    for mv in candidates {
        let listed = legal.binary_search(&mv).is_ok();
        match position.check(mv) {
            Ok(()) => assert!(listed, "check accepts {mv}, which legal_moves omits, in {position:?}"),
            Err(error) => {
                assert!(!listed, "check refuses listed {mv} ({error}) in {position:?}");
                assert!(error.to_string().len() < 200, "a long error: {error}");
                let mut copy = position.clone();
                assert_eq!(copy.play(mv).expect_err("illegal"), error, "play and check disagree on {mv}");
                assert_eq!(&copy, position, "a refused {mv} changed the position");
            }
        }
    }
}

proptest! {
    #![proptest_config(Config { cases: 64, ..Config::default() })]

    /// Random games of every preset (and two weak-king rule sets): at every ply the move
    /// generator, `check` and `play` agree, `Game::preview` foretells `Game::play`, `Game` and
    /// `Position` report the same captures and board status, and an illegal move leaves the game
    /// untouched.
    #[test]
    fn legal_moves_check_and_play_agree_in_random_games(
        rule_set in 0usize..64,
        choices in proptest::collection::vec(any::<u32>(), 1..120),
        pairs in proptest::collection::vec((0u8..21, 0u8..21, 0u8..21, 0u8..21), 8),
    ) {
        let sets = all_rules();
        let rules = sets[rule_set % sets.len()].clone();
        let mut game = Game::new(Position::new(rules).expect("presets are valid"));
        for choice in choices {
            if !game.status().is_ongoing() {
                break;
            }
            let position = game.position().clone();
            assert_move_generation_agrees(&position, &pairs);
            let legal = position.legal_moves();
            prop_assert!(!legal.is_empty(), "an ongoing game has a legal move");
            let mv = legal[choice as usize % legal.len()];
            let mut by_position = position.clone();
            let effects = by_position.play(mv).expect("a listed move is legal");
            prop_assert!(!effects.captures.contains(&position.king()), "the king is never captured by removal");
            for square in &effects.captures {
                let victim = position.piece_at(*square);
                prop_assert!(victim.is_some_and(|p| p.side() != position.to_move() && p != Piece::King));
            }
            let previewed = game.preview(mv).expect("a listed move is legal");
            let played = game.play(mv).expect("a listed move is legal").clone();
            prop_assert_eq!(&previewed, &played, "a preview foretells the move exactly, repetition included");
            prop_assert_eq!(&played.captures, &effects.captures);
            prop_assert_eq!(game.position(), &by_position);
            if played.status != effects.status {
                // Only repetition, which needs the history, may differ from the board's verdict.
                prop_assert_eq!(played.status.reason(), Some(tafl_rules::Reason::Repetition));
            }
            // Replaying the move just made is illegal (its square is empty now, or the game is
            // over): the game refuses it and nothing changes.
            let (ply, status, now) = (game.ply(), game.status(), game.position().clone());
            let error = game.play(mv).expect_err("the origin square is empty now");
            let expected = if status.is_ongoing() { format!("{mv}: there is no piece on {}", mv.from) } else { "the game is over".to_owned() };
            prop_assert_eq!(error.to_string(), expected);
            prop_assert_eq!((game.ply(), game.status(), game.position()), (ply, status, &now));
        }
        if game.status().is_ongoing() {
            assert_move_generation_agrees(game.position(), &pairs);
        } else {
            let mut over = game.clone();
            let any = Move::new(Square::new(0, 0).expect("a1"), Square::new(0, 1).expect("a2"));
            prop_assert_eq!(over.play(any).expect_err("over").to_string(), "the game is over");
            prop_assert_eq!(over.ply(), game.ply());
        }
    }

    #[test]
    fn squares_round_trip(file in 0u8..26, rank in 0u8..26, upper in any::<bool>()) {
        let square = Square::new(file, rank).expect("within notation");
        let text = square.to_string();
        let written = if upper { text.to_uppercase() } else { text.clone() };
        prop_assert_eq!(written.parse::<Square>(), Ok(square));
        prop_assert_eq!(text.parse::<Square>().map(|s| s.to_string()), Ok(text));
    }

    #[test]
    fn moves_with_captures_round_trip(
        squares in proptest::collection::vec((0u8..26, 0u8..26), 2..7),
        style in 0usize..4,
    ) {
        let sq = |(f, r): (u8, u8)| Square::new(f, r).expect("within notation");
        let text = MoveText { mv: Move::new(sq(squares[0]), sq(squares[1])), captures: squares[2..].iter().copied().map(sq).collect() };
        let canonical = text.to_string();
        prop_assert_eq!(canonical.parse::<MoveText>(), Ok(text.clone()));
        // The forms people write parse to the same move.
        let (from, to) = (text.mv.from.to_string(), text.mv.to.to_string());
        let plain = match style {
            0 => format!("{from}-{to}"),
            1 => format!("{from}{to}"),
            2 => format!("{from} {to}"),
            _ => format!("{}-{}", from.to_uppercase(), to.to_uppercase()),
        };
        prop_assert_eq!(plain.parse::<Move>(), Ok(text.mv));
        prop_assert_eq!(plain.parse::<MoveText>().map(|t| t.to_string()), Ok(text.mv.to_string()));
        if !text.captures.is_empty() {
            prop_assert!(canonical.parse::<Move>().is_err(), "a plain move has no captures");
        }
    }

    #[test]
    fn otn_positions_round_trip(size in 3u8..=26, cells in proptest::collection::vec(0u8..6, 676)) {
        let mut setup = Setup::empty(size);
        for (n, square) in all_squares(size).enumerate() {
            let piece = match cells[n] {
                0 => Some(Piece::Attacker),
                1 => Some(Piece::Defender),
                2 => Some(Piece::King),
                _ => None,
            };
            setup.set(square, piece);
        }
        let text = setup.to_string();
        prop_assert_eq!(text.parse::<Setup>(), Ok(setup.clone()));
        prop_assert_eq!(text.parse::<Setup>().map(|s| s.to_string()), Ok(text));
    }

    /// Arbitrary text, from any Unicode and from the notation's own alphabet (which reaches
    /// deeper into the parsers), never panics; what parses prints canonically and reparses.
    #[test]
    fn parsers_never_panic_on_arbitrary_text(
        text in prop_oneof![
            "\\PC{0,64}",
            "[a-zA-Z0-9 /x\\-]{0,24}",
            "[/0-9tTK]{0,80}",
            "[a-z_= \\-]{0,24}",
            any::<String>(),
        ],
    ) {
        if let Ok(square) = text.parse::<Square>() {
            prop_assert_eq!(square.to_string().parse::<Square>(), Ok(square));
        }
        if let Ok(mv) = text.parse::<Move>() {
            prop_assert_eq!(mv.to_string().parse::<Move>(), Ok(mv));
        }
        if let Ok(written) = text.parse::<MoveText>() {
            prop_assert_eq!(written.to_string().parse::<MoveText>(), Ok(written.clone()));
        } else if let Err(error) = text.parse::<MoveText>() {
            prop_assert!(error.to_string().chars().count() < 200, "{}", error);
        }
        if let Ok(setup) = text.parse::<Setup>() {
            prop_assert_eq!(setup.to_string().parse::<Setup>(), Ok(setup.clone()));
            for variant in Variant::ALL {
                // Validation of an arbitrary placement answers too, without panicking.
                let _ = Position::from_setup(variant.rules(), &setup, Side::Attackers);
            }
        }
        if let Ok(variant) = text.parse::<Variant>() {
            prop_assert_eq!(variant.id().parse::<Variant>(), Ok(variant));
        }
        for variant in Variant::ALL {
            if let Ok(option) = VariantOption::parse(variant, &text) {
                prop_assert_eq!(VariantOption::parse(variant, &option.text()), Ok(option));
                prop_assert!(variant.rules_with(&[option]).is_ok());
            }
        }
        let _ = otn::parse_rules(&text);
        let _ = otn::GameRecord::parse(&text);
    }
}

#[test]
fn every_variant_and_option_round_trips() {
    for variant in Variant::ALL {
        assert_eq!(variant.id().parse::<Variant>(), Ok(variant));
        assert_eq!(variant.id().to_uppercase().parse::<Variant>(), Ok(variant));
        assert_eq!(variant.to_string(), variant.id());
    }
    for (variant, options) in rule_sets() {
        for text in options {
            let option = VariantOption::parse(variant, text).expect("a listed option");
            assert_eq!(option.text(), text);
            assert_eq!(VariantOption::parse(variant, &option.text()), Ok(option));
        }
    }
    assert_eq!(VariantOption::parse(Variant::Historical9, "escape=corner"), Ok(VariantOption::Escape(Escape::Corner)));
}

#[test]
fn the_preset_start_positions_print_and_parse_back() {
    for variant in Variant::ALL {
        let start = variant.rules().start;
        assert_eq!(start.to_string().parse::<Setup>(), Ok(start.clone()), "{variant}");
    }
}

/// Huge inputs of every shape are refused quickly with short messages.
#[test]
fn huge_inputs_are_refused_with_short_errors() {
    let huge = [
        "a".repeat(1 << 20),
        "1".repeat(1 << 20),
        "/".repeat(1 << 20),
        format!("/{}/", "9".repeat(1 << 16)),
        format!("a1-a2{}", "xa3".repeat(1 << 16)),
        "é".repeat(1 << 18),
        "\u{1F451}".repeat(1 << 18),
        format!("e{}", "9".repeat(1 << 10)),
    ];
    for text in &huge {
        let errors = [
            text.parse::<Square>().map(|_| ()).map_err(|e| e.to_string()),
            text.parse::<Move>().map(|_| ()).map_err(|e| e.to_string()),
            text.parse::<MoveText>().map(|_| ()).map_err(|e| e.to_string()),
            text.parse::<Setup>().map(|_| ()).map_err(|e| e.to_string()),
            text.parse::<Variant>().map(|_| ()).map_err(|e| e.to_string()),
            VariantOption::parse(Variant::Tablut, text).map(|_| ()).map_err(|e| e.to_string()),
            otn::parse_rules(text).map(|_| ()).map_err(|e| e.to_string()),
        ];
        for error in errors {
            let message = error.expect_err("huge input is refused");
            assert!(message.chars().count() < 400, "a long message for a huge input: {} chars", message.len());
        }
    }
}

#[test]
fn preset_rules_strings_parse_back_to_the_same_rules() {
    for (variant, options) in rule_sets() {
        let rules = variant.rules_with_texts(&options).expect("valid options");
        let text = otn::rules_string(&rules);
        assert_eq!(otn::parse_rules(&text).as_ref(), Ok(&rules), "{variant} {options:?}: {text}");
    }
}

proptest! {
    // Each case is a few dozen moves of a small position: many cases stay quick. About half the
    // random placements are no position (a man on a corner, the king already taken) and skipped.
    #![proptest_config(Config { cases: 3_000, max_global_rejects: 30_000, ..Config::default() })]

    /// Sparse positions, where a side runs out of moves: after every legal move, the board's
    /// verdict is ongoing exactly when the side to move has a move or the game ended otherwise.
    /// (Random play from the starts never got here, and a defender leaving the edge once left
    /// walled-in attackers "ongoing" with no move.)
    #[test]
    fn a_side_without_a_move_has_lost_after_every_move(
        rule_set in 0usize..64,
        pieces in proptest::collection::vec((0u8..19, 0u8..19, 0u8..12), 3..16),
        defenders_move in any::<bool>(),
    ) {
        let sets = all_rules();
        let rules = sets[rule_set % sets.len()].clone();
        let size = rules.size();
        let mut setup = Setup::empty(size);
        for (n, &(file, rank, kind)) in pieces.iter().enumerate() {
            let square = Square::new(file % size, rank % size).expect("on the board");
            // The king, an attacker, then defenders with an attacker now and then: the attackers'
            // last men are often captured or shut in.
            let piece = match (n, kind) {
                (0, _) => Piece::King,
                (1, _) | (_, 0) => Piece::Attacker,
                _ => Piece::Defender,
            };
            setup.set(square, Some(piece));
        }
        let to_move = if defenders_move { Side::Defenders } else { Side::Attackers };
        let Ok(position) = Position::from_setup(rules, &setup, to_move) else {
            return Err(TestCaseError::reject("not a position these rules allow"));
        };
        for mv in position.legal_moves() {
            let mut after = position.clone();
            let effects = after.play(mv).expect("a listed move is legal");
            let has_move = !after.legal_moves().is_empty();
            prop_assert_eq!(has_move, after.has_legal_move());
            if effects.status.is_ongoing() {
                prop_assert!(has_move, "{mv} leaves {} ongoing without a move:\n{after}", after.to_move());
            } else if !has_move {
                prop_assert!(effects.status.reason().is_some(), "{mv} ends the game with a reason");
            }
        }
    }
}
