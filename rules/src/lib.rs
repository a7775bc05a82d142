//! Tafl rules: which moves are legal, what they capture and who has won.
//!
//! The crate is pure game logic: no IO, no async, no clocks. Text is turned into values in two
//! steps, as in `shakmaty`: notation parsers produce unvalidated values ([`MoveText`], [`Setup`]),
//! and a [`Position`] decides whether they are legal here. "Badly written" and "illegal here" are
//! therefore different error types ([`ParseError`] and [`IllegalMove`] / [`SetupError`]).
//!
//! * [`Rules`] holds the parameters of one rule set; [`Variant`] names the presets.
//! * [`Position`] is a validated board with the side to move; [`Position::play`] is checked and
//!   hands the position back unchanged on error, [`Position::play_unchecked`] is the fast path.
//! * [`Game`] adds the move history, repetition and the final [`Outcome`].
//! * [`perft()`] counts move sequences, the standard correctness check for move generators.

mod board;
pub mod engine;
mod error;
mod fort;
mod game;
mod notation;
pub mod otn;
mod perft;
mod position;
mod rules;
mod square;
mod types;
mod variant;

pub use error::{IllegalMove, MoveSyntax, ParseError, RulesError, SetupError};
pub use game::{Game, PlayedMove};
pub use notation::MoveText;
pub use perft::{perft, perft_divide};
pub use position::{MoveEffects, Position, Setup};
pub use rules::{Escape, Hostility, KingCapture, Repetition, Rules, Shieldwall, Throne, ThronePass};
pub use square::{Move, Square, escaped_when_quoted};
pub use types::{Outcome, Piece, Reason, Side, Status};
pub use variant::{Variant, VariantOption};

/// The largest board any rule set may use (custom rules included).
pub const MAX_SIZE: u8 = 19;
/// The smallest board any rule set may use.
pub const MIN_SIZE: u8 = 5;
