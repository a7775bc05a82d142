use crate::board::{Engine, KING, State};
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

/// Most pieces one move can capture: four custodially, and two shieldwalls of at most
/// `size - 2` men each.
pub(crate) const MAX_CAPTURES: usize = 4 + 2 * crate::MAX_SIZE as usize;

/// Plays every move on one board with make/unmake. Each ply lists only its pieces, into
/// `lists[ply]` (which keeps its capacity, so a count allocates only while the lists first
/// grow), and walks their rays square by square: the board is the same again after each move is
/// taken back, so no list of moves is needed.
fn perft_state(e: &Engine, s: &State, depth: u32) -> u64 {
    let mut lists: Vec<Vec<u16>> = (0..depth).map(|_| Vec::with_capacity(64)).collect();
    let mut board = *s;
    perft_in_place(e, &mut board, depth, &mut lists)
}

fn perft_in_place(e: &Engine, s: &mut State, depth: u32, lists: &mut [Vec<u16>]) -> u64 {
    let (pieces, deeper) = lists.split_first_mut().expect("one list per remaining ply");
    pieces.clear();
    e.for_each_piece(s, s.to_move, |i| pieces.push(i as u16));
    let hints = e.hints(s);
    let mut nodes = 0;
    // One buffer for every move of this node: each move reads back only the squares it wrote
    // (zeroing it per move was 2% of perft's instructions).
    let mut captured = [0u16; MAX_CAPTURES];
    for &from in pieces.iter() {
        let from = usize::from(from);
        let king = s.cells[from] == KING;
        for d in e.dirs {
            let mut to = from;
            while let Some(next) = e.next_stop(s, d, king, to) {
                to = next;
                let mut n = 0;
                let status = e.apply_hinted(
                    s,
                    from,
                    to,
                    |i| {
                        captured[n] = i as u16;
                        n += 1;
                    },
                    &hints,
                );
                if depth == 1 {
                    nodes += 1;
                } else if status.is_ongoing() {
                    nodes += perft_in_place(e, s, depth - 1, deeper);
                }
                Engine::undo(s, from, to, &captured[..n]);
            }
        }
    }
    nodes
}
