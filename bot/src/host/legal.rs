//! The legal-move list behind autocomplete and the move menus: every move the player to move may
//! make, filtered by what was typed, and labelled so a player sees at a glance what a move does.

use tafl_rules::{Game, Move, Position, Reason, Side, Square, Status};

use super::{MoveChoice, MoveEffect};

/// At most `limit` legal moves whose notation starts with `prefix` (case, spaces and the dash
/// are ignored), winning moves first, then captures and threats, then the rest in board order.
pub(crate) fn choices(game: &Game, prefix: &str, limit: usize) -> Vec<MoveChoice> {
    let position = game.position();
    let wanted = squash(prefix);
    let mut ranked: Vec<(u8, MoveChoice)> = position
        .legal_moves()
        .into_iter()
        .filter(|mv| squash(&mv.to_string()).starts_with(&wanted))
        .map(|mv| describe(position, mv))
        .collect();
    ranked.sort_by(|(a, x), (b, y)| a.cmp(b).then_with(|| x.notation.cmp(&y.notation)));
    ranked.into_iter().take(limit).map(|(_, choice)| choice).collect()
}

/// Lower case, without spaces or dashes: `E1 - e3` and `e1e3` both become `e1e3`.
fn squash(text: &str) -> String {
    text.chars().take(16).filter(|c| !c.is_whitespace() && *c != '-').flat_map(char::to_lowercase).collect()
}

/// A move with its label and rank (0 wins, 1 captures or threatens, 2 the rest).
fn describe(position: &Position, mv: Move) -> (u8, MoveChoice) {
    let notation = mv.to_string();
    let mut after = position.clone();
    let effects = after.play_unchecked(mv);
    let mut rank = if effects.captures.is_empty() { 2 } else { 1 };
    let effect = match effects.status {
        Status::Finished(outcome) => {
            rank = 0;
            Some(MoveEffect::Ends(outcome.reason))
        }
        Status::Ongoing if position.to_move() == Side::Defenders && king_can_escape(&after) => {
            rank = rank.min(1);
            Some(MoveEffect::EscapeThreat)
        }
        Status::Ongoing => None,
    };
    (rank, MoveChoice { notation, captures: effects.captures.clone(), effect })
}

/// Whether the king could escape with its next move if the defenders moved again: a threat
/// the attackers must answer.
fn king_can_escape(after: &Position) -> bool {
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
    let position = game.position();
    position.legal_moves().into_iter().filter(|mv| mv.from == from).map(|mv| describe(position, mv).1).collect()
}
