//! The legal-move list behind autocomplete and the move menus: every move the player to move may
//! make, filtered by what was typed, and labelled so a player sees at a glance what a move does.

use tafl_rules::{Game, Move, Position, Reason, Side, Square, Status};

use super::{MoveChoice, MoveEffect};

/// At most `limit` legal moves whose notation starts with `prefix` (case and spaces are ignored,
/// and the dash may be left out, but a typed dash ends the square: `d1-` is not `d11`): winning
/// moves first, then captures, threats and drawing moves, then the rest in
/// board order, and last the moves that lose the game (a third repetition, where the preset
/// scores it a loss for the side that makes it).
pub(crate) fn choices(game: &Game, prefix: &str, limit: usize) -> Vec<MoveChoice> {
    let prefix = as_typed(prefix);
    let wanted = squash(&prefix);
    // The typed origin square, when a dash closes it.
    let from = prefix.split_once('-').map(|(from, _)| squash(from)).filter(|from| !from.is_empty());
    let threatened = already_threatened(game.position());
    let mut ranked: Vec<(u8, MoveChoice)> = game
        .position()
        .legal_moves()
        .into_iter()
        .filter(|mv| squash(&mv.to_string()).starts_with(&wanted))
        .filter(|mv| from.as_ref().is_none_or(|from| squash(&mv.from.to_string()) == *from))
        .filter_map(|mv| describe(game, mv, threatened))
        .collect();
    ranked.sort_by(|(a, x), (b, y)| a.cmp(b).then_with(|| x.notation.cmp(&y.notation)));
    ranked.into_iter().take(limit).map(|(_, choice)| choice).collect()
}

/// A move as typed, with what keyboards and phones put in place of notation's characters read
/// as meant: the long dashes a phone or word processor makes of `-`, and the Cyrillic letters
/// that look like the Latin ones of squares and captures, typed with a Russian layout left on
/// (`е4-е5` with Cyrillic `е` reads as `e4-e5`, not as a text that "does not start with a
/// square").
pub(crate) fn as_typed(text: &str) -> std::borrow::Cow<'_, str> {
    let meant = |c: char| match c {
        '\u{2010}'..='\u{2015}' | '\u{2212}' => '-',
        'а' => 'a',
        'А' => 'A',
        'В' => 'B',
        'с' => 'c',
        'С' => 'C',
        'е' => 'e',
        'Е' => 'E',
        'Н' => 'H',
        'і' => 'i',
        'І' => 'I',
        'к' => 'k',
        'К' => 'K',
        'м' => 'm',
        'М' => 'M',
        'х' => 'x',
        'Х' => 'X',
        other => other,
    };
    if text.chars().all(|c| meant(c) == c) {
        std::borrow::Cow::Borrowed(text)
    } else {
        std::borrow::Cow::Owned(text.chars().map(meant).collect())
    }
}

/// Lower case, without spaces or dashes: `E1 - e3` and `e1e3` both become `e1e3`.
fn squash(text: &str) -> String {
    text.chars().take(16).filter(|c| !c.is_whitespace() && *c != '-').flat_map(char::to_lowercase).collect()
}

/// A legal move with its label and rank (0 wins, 1 captures, threatens or draws, 2 the rest,
/// 3 loses). `None` only if the game is over, when there is nothing to list.
/// `threatened`: the king may already escape, so no move threatens it anew.
fn describe(game: &Game, mv: Move, threatened: bool) -> Option<(u8, MoveChoice)> {
    let position = game.position();
    let mover = position.to_move();
    let played = game.preview(mv).ok()?;
    let mut rank = if played.captures.is_empty() { 2 } else { 1 };
    let effect = match played.status {
        Status::Finished(outcome) => {
            let (r, effect) = match outcome.winner {
                Some(winner) if winner == mover => (0, MoveEffect::Wins(outcome.reason)),
                None => (1, MoveEffect::Draws),
                Some(_) => (3, MoveEffect::Loses),
            };
            rank = r;
            Some(effect)
        }
        Status::Ongoing if mover == Side::Defenders && !threatened && king_can_escape(position, mv) => {
            rank = rank.min(1);
            Some(MoveEffect::EscapeThreat)
        }
        Status::Ongoing => None,
    };
    Some((rank, MoveChoice { notation: mv.to_string(), captures: played.captures, effect }))
}

/// Whether, after the defenders' `mv`, the king could escape with their next move if they moved
/// again: a threat the attackers must answer.
fn king_can_escape(position: &Position, mv: Move) -> bool {
    let mut after = position.clone();
    after.play_unchecked(mv);
    let Ok(again) = after.with_setup(&after.setup(), Side::Defenders) else {
        return false;
    };
    king_escapes_now(&again)
}

/// Whether the defenders to move in `position` may already escape with the king: then no move
/// of theirs threatens it anew (the escape itself is listed as a win), and labelling every move
/// that leaves it open a threat would say nothing.
fn already_threatened(position: &Position) -> bool {
    position.to_move() == Side::Defenders && king_escapes_now(position)
}

/// Whether the king, the defenders to move in `position`, escapes with one of its moves.
fn king_escapes_now(position: &Position) -> bool {
    let king = position.king();
    position.legal_moves().into_iter().filter(|mv| mv.from == king).any(|mv| {
        let mut trial = position.clone();
        matches!(trial.play_unchecked(mv).status, Status::Finished(o) if o.reason == Reason::KingEscaped)
    })
}

/// The pieces that can move now, in board order, with how many moves each has: the first menu
/// of moving by menus.
pub(crate) fn movable_pieces(position: &Position) -> Vec<(Square, usize)> {
    let mut pieces: Vec<(Square, usize)> = Vec::new();
    // `legal_moves` lists the moves of one piece together, pieces in board order.
    for mv in position.legal_moves() {
        match pieces.last_mut() {
            Some((square, count)) if *square == mv.from => *count += 1,
            _ => pieces.push((mv.from, 1)),
        }
    }
    pieces
}

/// The moves of the piece on `from`, labelled as for autocomplete, in board order of their
/// destinations: the second menu.
pub(crate) fn moves_from(game: &Game, from: Square) -> Vec<MoveChoice> {
    let moves = game.position().legal_moves();
    let threatened = already_threatened(game.position());
    moves
        .into_iter()
        .filter(|mv| mv.from == from)
        .filter_map(|mv| describe(game, mv, threatened))
        .map(|(_, choice)| choice)
        .collect()
}

#[cfg(test)]
mod tests {
    use tafl_rules::{Game, Position, Reason, Variant};

    use super::{MoveEffect, choices, moves_from};
    use crate::present::{Lang, text::move_label};

    /// `variant` after `moves`, each side shuffling one piece to and fro.
    fn shuffled(variant: Variant, moves: &[&str]) -> Game {
        let mut game = Game::new(Position::new(variant.rules()).unwrap());
        for mv in moves {
            game.play(mv.parse().unwrap()).unwrap();
        }
        game
    }

    #[test]
    fn a_third_repetition_is_labelled_by_what_the_preset_makes_of_it_and_a_losing_one_comes_last() {
        // The defenders' eighth ply would bring back the start a third time.
        let copenhagen = ["h1-i1", "f4-f3", "i1-h1", "f3-f4", "h1-i1", "f4-f3", "i1-h1"];
        let game = shuffled(Variant::Copenhagen, &copenhagen);
        let all = choices(&game, "", 500);
        let back = all.iter().position(|c| c.notation == "f3-f4").unwrap();
        // Copenhagen: the defenders lose by repetition, so the move is listed last.
        assert_eq!(all[back].effect, Some(MoveEffect::Loses));
        assert_eq!(back, all.len() - 1, "{all:?}");
        let from_f3 = moves_from(&game, "f3".parse().unwrap());
        let english = Lang::console("en");
        let label = from_f3.iter().find(|c| c.notation == "f3-f4").map(|c| move_label(c, english));
        assert_eq!(label.as_deref(), Some("f3-f4 repetition: loses!"));
        // Brandubh scores it a draw.
        let brandubh = ["d1-e1", "d3-e3", "e1-d1", "e3-d3", "d1-e1", "d3-e3", "e1-d1"];
        let game = shuffled(Variant::Brandubh, &brandubh);
        let back = choices(&game, "e3-d3", 5);
        assert_eq!(back[0].effect, Some(MoveEffect::Draws));
        assert_eq!(move_label(&back[0], Lang::console("ru")), "e3-d3 повторение: ничья");
        // A second occurrence is no ending.
        let game = shuffled(Variant::Brandubh, &brandubh[..3]);
        assert_eq!(choices(&game, "e3-d3", 5)[0].effect, None);
    }

    /// `d1-` is a square and a dash: the moves from d11 are not among them, though `d1`
    /// without the dash, which may still become `d11`, lists both.
    #[test]
    fn a_typed_dash_ends_the_square() {
        let game = shuffled(Variant::Copenhagen, &[]);
        let from = |typed: &str| {
            let mut squares: Vec<String> = choices(&game, typed, 500)
                .into_iter()
                .map(|c| c.notation.split_once('-').map(|(from, _)| from.to_owned()).unwrap_or_default())
                .collect();
            squares.dedup();
            squares
        };
        assert_eq!(from("d1-"), ["d1"]);
        assert_eq!(from("D1 - "), ["d1"]);
        assert_eq!(from("d1"), ["d1", "d11"]);
        assert_eq!(from("d1d"), ["d1"], "the dash may be left out");
        assert!(choices(&game, "d1-d", 500).iter().all(|c| c.notation.starts_with("d1-d")));
        assert_eq!(choices(&game, "-", 500).len(), choices(&game, "", 500).len(), "a dash alone names no square");
    }

    /// A Russian layout left on types Cyrillic letters that look like the squares' Latin ones,
    /// and a phone makes long dashes of `-`: both are read as meant, in the list and in a move.
    #[test]
    fn cyrillic_lookalikes_and_long_dashes_are_read_as_notation() {
        let game = shuffled(Variant::Copenhagen, &[]);
        let latin = choices(&game, "d1-d", 500);
        assert!(!latin.is_empty());
        for typed in ["d1\u{2014}d", "d1\u{2013}d", "d1 \u{2212} d"] {
            assert_eq!(choices(&game, typed, 500), latin, "{typed}");
        }
        // `е`, `с`, `а`, `к` and `х` are Cyrillic here.
        assert_eq!(super::as_typed("е1-е3"), "e1-e3");
        assert_eq!(super::as_typed("А1—С1"), "A1-C1");
        assert_eq!(super::as_typed("к4-к2ха2"), "k4-k2xa2");
        assert!(matches!(super::as_typed("e1-e3"), std::borrow::Cow::Borrowed(_)), "nothing to change, no copy");
        let from_e = choices(&game, "е1", 500);
        assert!(!from_e.is_empty() && from_e.iter().all(|c| c.notation.starts_with("e1")), "{from_e:?}");
        // A text that is no move stays one: only look-alikes are read otherwise.
        assert_eq!(super::as_typed("д1-д3"), "д1-д3");
    }

    /// A king that may already escape makes no other move a threat: every move that leaves the
    /// way open was labelled one, and the list said nothing. A move that opens a way still is.
    #[test]
    fn only_a_move_that_opens_an_escape_is_a_threat() {
        let at = |setup: &str| {
            let position = Position::new(Variant::Brandubh.rules()).unwrap();
            Game::new(position.with_setup(&setup.parse().unwrap(), tafl_rules::Side::Defenders).unwrap())
        };
        // The king on a5 may go to a7 or a1 now.
        let open = choices(&at("/7/7/K6/5T1/3t3/7/3t3/"), "", 500);
        assert!(open.iter().any(|c| c.effect == Some(MoveEffect::Wins(Reason::KingEscaped))), "{open:?}");
        assert!(open.iter().all(|c| c.effect != Some(MoveEffect::EscapeThreat)), "{open:?}");
        // The king on b4 may not; b4-a4 opens both ways, f4's moves open none.
        let closed = choices(&at("/7/7/7/1K3T1/3t3/7/3t3/"), "", 500);
        let threats: Vec<&str> =
            closed.iter().filter(|c| c.effect == Some(MoveEffect::EscapeThreat)).map(|c| c.notation.as_str()).collect();
        assert!(threats.contains(&"b4-a4"), "{closed:?}");
        assert!(threats.iter().all(|t| t.starts_with("b4-")), "{threats:?}");
    }

    #[test]
    fn a_move_that_wins_by_repetition_says_so() {
        let english = Lang::console("en");
        let choice =
            |effect| super::MoveChoice { notation: "a1-a2".into(), captures: Vec::new(), effect: Some(effect) };
        assert_eq!(move_label(&choice(MoveEffect::Wins(Reason::Repetition)), english), "a1-a2 repetition: wins!");
        assert_eq!(move_label(&choice(MoveEffect::Wins(Reason::KingEscaped)), english), "a1-a2 escape!");
    }
}
