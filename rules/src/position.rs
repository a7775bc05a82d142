use std::fmt;
use std::sync::Arc;

use crate::board::{EMPTY, Engine, NO_PASS, NO_STOP, OFF, State, THRONE, piece_of, step};
use crate::error::{IllegalMove, RulesError, SetupError};
use crate::{Move, Piece, Rules, Side, Square, Status};

/// A placement of pieces on a square board, not yet checked against any rules (the result of
/// parsing an OTN position). [`Position::from_setup`] validates it.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Setup {
    size: u8,
    /// Rank-major from a1.
    cells: Vec<Option<Piece>>,
}

impl Setup {
    /// An empty `size` x `size` board. Sizes beyond notation (26) are clamped to 26.
    #[must_use]
    pub fn empty(size: u8) -> Setup {
        let size = size.min(26);
        Setup { size, cells: vec![None; usize::from(size) * usize::from(size)] }
    }

    #[must_use]
    pub fn size(&self) -> u8 {
        self.size
    }

    /// The piece on `sq`, or `None` for an empty square or one off the board.
    #[must_use]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        if sq.is_on_board(self.size) { self.cells[self.offset(sq)] } else { None }
    }

    /// Puts `piece` on `sq` (or empties it). Squares off the board are ignored.
    pub fn set(&mut self, sq: Square, piece: Option<Piece>) {
        if sq.is_on_board(self.size) {
            let i = self.offset(sq);
            self.cells[i] = piece;
        }
    }

    /// Every piece with its square, rank by rank from a1.
    pub fn pieces(&self) -> impl Iterator<Item = (Square, Piece)> + '_ {
        let size = self.size;
        self.cells.iter().enumerate().filter_map(move |(i, piece)| {
            let sq = Square::new((i % usize::from(size)) as u8, (i / usize::from(size)) as u8)?;
            piece.map(|p| (sq, p))
        })
    }

    fn offset(&self, sq: Square) -> usize {
        usize::from(sq.rank()) * usize::from(self.size) + usize::from(sq.file())
    }
}

impl fmt::Debug for Setup {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Setup({self})")
    }
}

/// What a move did: the pieces it captured (sorted; never the king) and the game's status after
/// it, on the board alone (repetition needs the history, see [`Game`](crate::Game)).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveEffects {
    pub captures: Vec<Square>,
    pub status: Status,
}

/// A valid position under a rule set, with the side to move.
///
/// Positions share their compiled rules, so cloning one is a copy of the board and a reference
/// count.
#[derive(Clone)]
pub struct Position {
    engine: Arc<Engine>,
    state: State,
}

impl Position {
    /// The starting position of a rule set.
    pub fn new(rules: Rules) -> Result<Position, RulesError> {
        rules.validate()?;
        let engine = Engine::new(rules);
        let state = engine.state(&engine.rules.start, Side::Attackers);
        // As for any setup (see `with_setup`): a custom start already encircled would break
        // play's shortcut, which checks encirclement only where a move could have changed it.
        if engine.encirclement && engine.is_encircled(&state) {
            return Err(RulesError::Start(SetupError::Encircled));
        }
        Ok(Position { engine: Arc::new(engine), state })
    }

    /// A position of the same rules as `self` from a setup, e.g. a custom position.
    pub fn with_setup(&self, setup: &Setup, to_move: Side) -> Result<Position, SetupError> {
        Engine::check_setup(&self.engine.rules, setup)?;
        let state = self.engine.state(setup, to_move);
        // Play relies on it: an attacker move is only checked for encirclement where it could
        // have changed the answer.
        if self.engine.encirclement && self.engine.is_encircled(&state) {
            return Err(SetupError::Encircled);
        }
        Ok(Position { engine: Arc::clone(&self.engine), state })
    }

    /// A position from rules and a setup.
    pub fn from_setup(rules: Rules, setup: &Setup, to_move: Side) -> Result<Position, RulesError> {
        Ok(Position::new(rules)?.with_setup(setup, to_move)?)
    }

    #[must_use]
    pub fn rules(&self) -> &Rules {
        &self.engine.rules
    }

    #[must_use]
    pub fn size(&self) -> u8 {
        self.engine.size as u8
    }

    #[must_use]
    pub fn to_move(&self) -> Side {
        self.state.to_move
    }

    /// The piece on `sq`; `None` for an empty square or one off the board.
    #[must_use]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        if sq.is_on_board(self.size()) { piece_of(self.state.cells[self.engine.index(sq)]) } else { None }
    }

    /// Where the king stands.
    #[must_use]
    pub fn king(&self) -> Square {
        self.engine.square(self.state.king)
    }

    /// Every piece with its square, rank by rank from a1.
    pub fn pieces(&self) -> impl Iterator<Item = (Square, Piece)> + '_ {
        self.engine.interior.iter().filter_map(|&i| piece_of(self.state.cells[i]).map(|p| (self.engine.square(i), p)))
    }

    /// The number of pieces of each kind: (attackers, defenders without the king).
    #[must_use]
    pub fn counts(&self) -> (usize, usize) {
        self.pieces().fold((0, 0), |(a, d), (_, p)| match p {
            Piece::Attacker => (a + 1, d),
            Piece::Defender => (a, d + 1),
            Piece::King => (a, d),
        })
    }

    #[must_use]
    pub fn is_throne(&self, sq: Square) -> bool {
        sq.is_on_board(self.size()) && self.engine.flags[self.engine.index(sq)] & THRONE != 0
    }

    #[must_use]
    pub fn is_corner(&self, sq: Square) -> bool {
        sq.is_on_board(self.size()) && self.engine.flags[self.engine.index(sq)] & crate::board::CORNER != 0
    }

    /// The placement of the pieces, e.g. for printing as OTN.
    #[must_use]
    pub fn setup(&self) -> Setup {
        self.engine.setup(&self.state)
    }

    /// Every legal move of the side to move, sorted by origin then destination square.
    #[must_use]
    pub fn legal_moves(&self) -> Vec<Move> {
        let e = &*self.engine;
        let mut moves = Vec::with_capacity(128);
        e.for_each_move_sorted(&self.state, |from, to| moves.push(Move::new(e.square(from), e.square(to))));
        debug_assert!(moves.is_sorted());
        moves
    }

    /// The number of legal moves of the side to move.
    #[must_use]
    pub fn count_legal_moves(&self) -> usize {
        let mut n = 0;
        self.engine.for_each_move(&self.state, |_, _| n += 1);
        n
    }

    /// Whether the side to move has any legal move.
    #[must_use]
    pub fn has_legal_move(&self) -> bool {
        self.engine.has_move(&self.state)
    }

    /// Checks a move and says exactly why it is illegal.
    #[allow(clippy::many_single_char_names)] // e, d, i: engine, direction, index, as in board.rs
    pub fn check(&self, mv: Move) -> Result<(), IllegalMove> {
        let size = self.size();
        for sq in [mv.from, mv.to] {
            if !sq.is_on_board(size) {
                return Err(IllegalMove::OffBoard { square: sq, size });
            }
        }
        let e = &*self.engine;
        let from = e.index(mv.from);
        let to = e.index(mv.to);
        let piece = piece_of(self.state.cells[from]).ok_or(IllegalMove::NoPiece { mv })?;
        if piece.side() != self.state.to_move {
            return Err(IllegalMove::NotYourPiece { mv, owner: piece.side(), to_move: self.state.to_move });
        }
        if from == to {
            return Err(IllegalMove::NullMove { mv });
        }
        if mv.from.file() != mv.to.file() && mv.from.rank() != mv.to.rank() {
            return Err(IllegalMove::NotStraight { mv });
        }
        let d = if mv.from.rank() == mv.to.rank() {
            if to > from { 1 } else { 1usize.wrapping_neg() }
        } else if to > from {
            e.stride
        } else {
            e.stride.wrapping_neg()
        };
        let king = piece == Piece::King;
        let mut i = from;
        loop {
            i = step(i, d);
            let c = self.state.cells[i];
            debug_assert_ne!(c, OFF, "the destination is on the board, so the walk stops first");
            if c != EMPTY {
                return Err(IllegalMove::Blocked { mv, blocker: e.square(i) });
            }
            let f = e.flags[i];
            if i == to {
                if !king && f & NO_STOP != 0 {
                    return Err(if f & THRONE != 0 {
                        IllegalMove::StopsOnThrone { mv }
                    } else {
                        IllegalMove::StopsOnCorner { mv }
                    });
                }
                return Ok(());
            }
            if !king && f & NO_PASS != 0 {
                return Err(IllegalMove::PassesThrone { mv });
            }
        }
    }

    /// Plays a move after checking it; on error the position is unchanged.
    pub fn play(&mut self, mv: Move) -> Result<MoveEffects, IllegalMove> {
        self.check(mv)?;
        Ok(self.play_unchecked(mv))
    }

    /// Plays a move known to be legal (from [`Position::legal_moves`] or [`Position::check`]).
    /// An illegal move leaves an unspecified (but memory-safe) position.
    pub fn play_unchecked(&mut self, mv: Move) -> MoveEffects {
        let e = &*self.engine;
        let mut captures = Vec::new();
        let status = e.apply(&mut self.state, e.index(mv.from), e.index(mv.to), |i| captures.push(e.square(i)));
        captures.sort_unstable();
        MoveEffects { captures, status }
    }

    /// Whether the defenders are encircled (exposed for displays and tests).
    #[must_use]
    pub fn is_encircled(&self) -> bool {
        self.engine.is_encircled(&self.state)
    }

    pub(crate) fn engine(&self) -> &Engine {
        &self.engine
    }

    pub(crate) fn state(&self) -> &State {
        &self.state
    }

    pub(crate) fn key(&self) -> crate::board::Key {
        self.engine.key(&self.state)
    }
}

impl PartialEq for Position {
    /// Same rules, same pieces, same side to move.
    fn eq(&self, other: &Position) -> bool {
        self.state == other.state && self.engine.rules == other.engine.rules
    }
}

impl Eq for Position {}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({}, {} to move)", self.setup(), self.state.to_move)
    }
}

/// Draws the board as text, rank 1 at the bottom: `t` attacker, `T` defender, `K` king, `+`
/// throne, `#` corner, `.` empty.
impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let size = self.size();
        for rank in (0..size).rev() {
            write!(f, "{:>2} ", u16::from(rank) + 1)?;
            for file in 0..size {
                let sq = Square::new(file, rank).expect("on the board");
                let c = match self.piece_at(sq) {
                    Some(p) => p.otn_char(),
                    None if self.is_corner(sq) => '#',
                    None if self.is_throne(sq) => '+',
                    None => '.',
                };
                write!(f, " {c}")?;
            }
            writeln!(f)?;
        }
        write!(f, "   ")?;
        for file in 0..size {
            write!(f, " {}", (b'a' + file) as char)?;
        }
        Ok(())
    }
}
