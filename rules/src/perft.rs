use crate::board::{Engine, State};
use crate::{Move, Position};

/// Counts the move sequences of exactly `depth` plies from `position`. A move that ends the game
/// ends its sequence, so it counts only at its own depth. Every move is played, the last ply
/// included (no bulk counting), so this measures the real cost of playing moves.
#[must_use]
pub fn perft(position: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    perft_state(position.engine(), position.state(), depth)
}

/// [`perft`] split by first move, for finding where two engines disagree.
#[must_use]
pub fn perft_divide(position: &Position, depth: u32) -> Vec<(Move, u64)> {
    let mut out: Vec<(Move, u64)> = Vec::new();
    if depth == 0 {
        return out;
    }
    let e = position.engine();
    let s = position.state();
    e.for_each_move(s, |from, to| {
        let mut child = *s;
        let status = e.apply(&mut child, from, to, |_| {});
        let n = if depth == 1 {
            1
        } else if status.is_ongoing() {
            perft_state(e, &child, depth - 1)
        } else {
            0
        };
        out.push((Move::new(e.square(from), e.square(to)), n));
    });
    out.sort_unstable();
    out
}

fn perft_state(e: &Engine, s: &State, depth: u32) -> u64 {
    let mut nodes = 0;
    e.for_each_move(s, |from, to| {
        let mut child = *s;
        let status = e.apply(&mut child, from, to, |_| {});
        if depth == 1 {
            nodes += 1;
        } else if status.is_ongoing() {
            nodes += perft_state(e, &child, depth - 1);
        }
    });
    nodes
}
