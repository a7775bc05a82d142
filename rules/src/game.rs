use std::collections::HashMap;

use crate::board::Key;
use crate::error::IllegalMove;
use crate::rules::Repetition;
use crate::{Move, MoveText, Outcome, Position, Reason, Side, Square, Status};

/// A move as it was played: what it captured and the game's status after it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayedMove {
    pub mv: Move,
    /// Sorted; never the king.
    pub captures: Vec<Square>,
    pub status: Status,
}

impl PlayedMove {
    /// The canonical notation with captures, `e1-e3xe2/e4`.
    #[must_use]
    pub fn text(&self) -> MoveText {
        MoveText { mv: self.mv, captures: self.captures.clone() }
    }
}

/// A game: a start position, the moves played from it, and where that leaves the game. The move
/// list is the source of truth; everything else here is derived from it.
#[derive(Clone, Debug)]
pub struct Game {
    start: Position,
    position: Position,
    moves: Vec<PlayedMove>,
    /// How often each position has occurred since the last capture (the start's, before any): a
    /// capture leaves fewer pieces, so no earlier position can occur again. Counted in a map, a
    /// move costs the same however long the game has gone without a capture, so a replay is
    /// linear in the moves (the bot replays a game from its moves at every click); a list
    /// scanned at every move made a capture-free game quadratic (80,000 plies took 12 s).
    seen: HashMap<Key, u32>,
    status: Status,
}

impl Game {
    /// A game from a position. A start position whose side to move has no move is already lost.
    #[must_use]
    pub fn new(start: Position) -> Game {
        let status = if start.has_legal_move() {
            Status::Ongoing
        } else {
            Status::Finished(Outcome { winner: Some(start.to_move().opponent()), reason: Reason::NoMoves })
        };
        Game { seen: HashMap::from([(start.key(), 1)]), position: start.clone(), start, moves: Vec::new(), status }
    }

    #[must_use]
    pub fn start(&self) -> &Position {
        &self.start
    }

    #[must_use]
    pub fn position(&self) -> &Position {
        &self.position
    }

    #[must_use]
    pub fn moves(&self) -> &[PlayedMove] {
        &self.moves
    }

    #[must_use]
    pub fn status(&self) -> Status {
        self.status
    }

    /// Number of plies played.
    #[must_use]
    pub fn ply(&self) -> usize {
        self.moves.len()
    }

    /// Plays a move; on error nothing changes.
    pub fn play(&mut self, mv: Move) -> Result<&PlayedMove, IllegalMove> {
        let (played, after, key) = self.trial(mv)?;
        if !played.captures.is_empty() {
            self.seen.clear();
        }
        *self.seen.entry(key).or_insert(0) += 1;
        self.position = after;
        self.status = played.status;
        self.moves.push(played);
        Ok(self.moves.last().expect("just pushed"))
    }

    /// What playing `mv` would do (its captures, and the game's status after it, the repetition
    /// rule included, which [`Position::play_unchecked`] cannot see), without playing it.
    pub fn preview(&self, mv: Move) -> Result<PlayedMove, IllegalMove> {
        self.trial(mv).map(|(played, _, _)| played)
    }

    /// The move as it would be played, the position it leads to and that position's repetition
    /// key.
    fn trial(&self, mv: Move) -> Result<(PlayedMove, Position, Key), IllegalMove> {
        if !self.status.is_ongoing() {
            return Err(IllegalMove::GameOver);
        }
        self.position.check(mv)?;
        let mover = self.position.to_move();
        let mut after = self.position.clone();
        let effects = after.play_unchecked(mv);
        let key = after.key();
        // A capture leaves fewer pieces: no earlier position can occur again.
        let earlier = if effects.captures.is_empty() { self.seen.get(&key).copied().unwrap_or(0) } else { 0 };
        let status = match effects.status {
            Status::Finished(outcome) if outcome.reason != Reason::NoMoves => effects.status,
            board_status => self.repetition(earlier as usize + 1, mover).unwrap_or(board_status),
        };
        Ok((PlayedMove { mv, captures: effects.captures, status }, after, key))
    }

    /// Plays a written move; captures written with it must be exactly the ones the move makes.
    pub fn play_text(&mut self, text: &MoveText) -> Result<&PlayedMove, IllegalMove> {
        if !text.captures.is_empty() {
            if !self.status.is_ongoing() {
                return Err(IllegalMove::GameOver);
            }
            let mut claimed = text.captures.clone();
            claimed.sort_unstable();
            claimed.dedup(); // records sometimes list a square twice
            let mut trial = self.position.clone();
            let actual = trial.play(text.mv)?.captures;
            if actual != claimed {
                return Err(IllegalMove::CaptureMismatch { mv: text.mv, claimed, actual });
            }
        }
        self.play(text.mv)
    }

    /// Takes back the last move, returning it. The game is replayed from the start, so every
    /// derived fact (repetition counts, status) stays exact.
    pub fn take_back(&mut self) -> Option<PlayedMove> {
        let last = self.moves.pop()?;
        let moves = std::mem::take(&mut self.moves);
        *self = Game::new(self.start.clone());
        for played in moves {
            self.play(played.mv).expect("a move that was legal is legal again");
        }
        Some(last)
    }

    /// The outcome of a position's `occurrences`-th occurrence, if it is the third.
    fn repetition(&self, occurrences: usize, mover: Side) -> Option<Status> {
        let policy = self.position.rules().repetition;
        if policy == Repetition::Ignore || occurrences < 3 {
            return None;
        }
        let winner = match policy {
            Repetition::Draw => None,
            Repetition::MoverLoses => Some(mover.opponent()),
            Repetition::MoverWins => Some(mover),
            Repetition::DefendersLose => Some(Side::Attackers),
            Repetition::Ignore => unreachable!("handled above"),
        };
        Some(Status::Finished(Outcome { winner, reason: Reason::Repetition }))
    }
}
