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
    let wanted = squash(prefix);
    // The typed origin square, when a dash closes it.
    let from = prefix.split_once('-').map(|(from, _)| squash(from)).filter(|from| !from.is_empty());
    let mut ranked: Vec<(u8, MoveChoice)> = game
        .position()
        .legal_moves()
        .into_iter()
        .filter(|mv| squash(&mv.to_string()).starts_with(&wanted))
        .filter(|mv| from.as_ref().is_none_or(|from| squash(&mv.from.to_string()) == *from))
        .filter_map(|mv| describe(game, mv))
        .collect();
    ranked.sort_by(|(a, x), (b, y)| a.cmp(b).then_with(|| x.notation.cmp(&y.notation)));
    ranked.into_iter().take(limit).map(|(_, choice)| choice).collect()
}

/// Lower case, without spaces or dashes: `E1 - e3` and `e1e3` both become `e1e3`.
fn squash(text: &str) -> String {
    text.chars().take(16).filter(|c| !c.is_whitespace() && *c != '-').flat_map(char::to_lowercase).collect()
}

/// A legal move with its label and rank (0 wins, 1 captures, threatens or draws, 2 the rest,
/// 3 loses). `None` only if the game is over, when there is nothing to list.
fn describe(game: &Game, mv: Move) -> Option<(u8, MoveChoice)> {
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
        Status::Ongoing if mover == Side::Defenders && king_can_escape(position, mv) => {
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
    let king = again.king();
    again.legal_moves().into_iter().filter(|mv| mv.from == king).any(|mv| {
        let mut trial = again.clone();
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
    moves
        .into_iter()
        .filter(|mv| mv.from == from)
        .filter_map(|mv| describe(game, mv))
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

    #[test]
    fn a_move_that_wins_by_repetition_says_so() {
        let english = Lang::console("en");
        let choice =
            |effect| super::MoveChoice { notation: "a1-a2".into(), captures: Vec::new(), effect: Some(effect) };
        assert_eq!(move_label(&choice(MoveEffect::Wins(Reason::Repetition)), english), "a1-a2 repetition: wins!");
        assert_eq!(move_label(&choice(MoveEffect::Wins(Reason::KingEscaped)), english), "a1-a2 escape!");
    }
}
