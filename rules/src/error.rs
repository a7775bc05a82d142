//! Errors, one type per step of the ladder from text to a legal move. Every message is one
//! sentence that a player can act on, and quotes at most a short prefix of untrusted input.

use thiserror::Error;

use crate::{Move, Side, Square};

/// Text that is not well-formed notation (a square, a move, an OTN position, rules string or
/// game record). Nothing about the game is known at this step.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ParseError {
    #[error("\"{input}\" is not a square: write a file letter and a rank number, like e4")]
    Square { input: String },
    #[error("\"{input}\" is not a move: {reason}; write moves like e1-e3")]
    Move { input: String, reason: MoveSyntax },
    /// A well-written square beyond the largest board (`z99`): worded as
    /// [`IllegalMove::OffBoard`] is, since to the player both are the same fault. (Notation
    /// writes squares up to z26; boards stop at [`crate::MAX_SIZE`].)
    #[error("{square} is off the board: no board is larger than {max}x{max}", max = crate::MAX_SIZE)]
    OffBoard { square: String },
    #[error("\"{input}\" is not an OTN position: {reason}")]
    Position { input: String, reason: String },
    #[error("the OTN rules string is invalid: {reason}")]
    Rules { reason: String },
    #[error("the OTN game record is invalid at line {line}: {reason}")]
    Record { line: usize, reason: String },
    /// A record giving one tag two different values (two `rules` tags, two results): which of
    /// them the game had cannot be told, and taking either would be a guess.
    #[error(
        "the OTN game record is invalid at line {line}: it gives the {key} tag a second value that differs from \
         the first; keep the right one"
    )]
    DuplicateTag { line: usize, key: String },
}

/// What is wrong with a text that is not a move, as a closed set, so that a front end can say
/// it in the player's language.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
pub enum MoveSyntax {
    #[error("it is far too long")]
    TooLong,
    #[error("it is empty")]
    Empty,
    #[error("it does not start with a square")]
    NoStart,
    #[error("the destination square is missing or malformed")]
    NoDestination,
    #[error("a captured square is malformed")]
    BadCapture,
    #[error("there is something after the move")]
    TrailingText,
    #[error("a plain move has no capture suffix")]
    CapturesOnPlainMove,
}

/// A well-formed move that cannot be played in this position.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum IllegalMove {
    #[error("{square} is off the board: this one is {size}x{size}")]
    OffBoard { square: Square, size: u8 },
    #[error("the game is over")]
    GameOver,
    #[error("{mv}: there is no piece on {}", mv.from)]
    NoPiece { mv: Move },
    #[error("{mv}: the piece on {} belongs to the {owner}, and it is the {to_move}' turn", mv.from)]
    NotYourPiece { mv: Move, owner: Side, to_move: Side },
    #[error("{mv}: a piece must move to another square")]
    NullMove { mv: Move },
    #[error("{mv}: pieces move along a rank or a file, like a rook")]
    NotStraight { mv: Move },
    #[error("{mv}: the way is blocked by the piece on {blocker}")]
    Blocked { mv: Move, blocker: Square },
    #[error("{mv}: a piece cannot pass the throne")]
    PassesThrone { mv: Move },
    #[error("{mv}: only the king may stop on the throne")]
    StopsOnThrone { mv: Move },
    #[error("{mv}: only the king may stop on a corner")]
    StopsOnCorner { mv: Move },
    #[error("{mv}: {}", capture_mismatch(*mv, claimed, actual))]
    CaptureMismatch { mv: Move, claimed: Vec<Square>, actual: Vec<Square> },
}

fn capture_mismatch(_mv: Move, claimed: &[Square], actual: &[Square]) -> String {
    let list = |squares: &[Square]| {
        if squares.is_empty() {
            "nothing".to_owned()
        } else {
            squares.iter().map(ToString::to_string).collect::<Vec<_>>().join(", ")
        }
    };
    format!("the move captures {}, not {}", list(actual), list(claimed))
}

/// A placement of pieces that is not a valid position under the given rules.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum SetupError {
    #[error("the position is {found}x{found} but the rules play on {expected}x{expected}")]
    WrongSize { expected: u8, found: u8 },
    #[error("the position has {count} kings; it needs exactly one")]
    KingCount { count: usize },
    #[error("the {piece} on {square} stands where only the king may stop")]
    RestrictedSquare { piece: &'static str, square: Square },
    #[error("the king on {square} has already escaped")]
    KingEscaped { square: Square },
    #[error("the position has no attackers")]
    NoAttackers,
    #[error("the defenders are already encircled: no defender can reach the edge")]
    Encircled,
}

/// Rule parameters or variant options that do not make a playable rule set.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum RulesError {
    #[error("a board must be an odd size from {min} to {max}, not {size}")]
    BadSize { size: u8, min: u8, max: u8 },
    #[error("\"{input}\" is not a variant; the variants are: {known}")]
    UnknownVariant { input: String, known: String },
    #[error("{variant} has no option \"{key}\"; {has}")]
    UnknownOption { variant: &'static str, key: String, has: String },
    #[error("option {key} of {variant} takes {expected}, not \"{value}\"")]
    BadOptionValue { variant: &'static str, key: &'static str, value: String, expected: &'static str },
    #[error("\"{input}\" is not an option; write KEY=VALUE, like escape=edge")]
    OptionSyntax { input: String },
    #[error("the options {first} and {second} contradict each other; give one of them")]
    ContradictoryOptions { first: String, second: String },
    #[error("the starting position does not fit the rules: {0}")]
    Start(#[from] SetupError),
    #[error("{0}")]
    Unsupported(String),
}
