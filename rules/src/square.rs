use std::fmt;
use std::str::FromStr;

use crate::error::ParseError;

/// A square, `a1` bottom-left. Files and ranks count from zero internally; a square does not know
/// the board size, so [`Position`](crate::Position) checks that it lies on its board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square {
    file: u8,
    rank: u8,
}

/// Files are single letters, so no board notation goes beyond `z`.
const MAX_COORD: u8 = 26;

impl Square {
    /// The square on `file` and `rank` (both from zero), or `None` beyond what notation can name.
    #[must_use]
    pub const fn new(file: u8, rank: u8) -> Option<Square> {
        if file < MAX_COORD && rank < MAX_COORD { Some(Square { file, rank }) } else { None }
    }

    /// The file from zero (`a` is 0).
    #[must_use]
    pub const fn file(self) -> u8 {
        self.file
    }

    /// The rank from zero (`1` is 0).
    #[must_use]
    pub const fn rank(self) -> u8 {
        self.rank
    }

    /// Whether the square lies on a `size` x `size` board.
    #[must_use]
    pub const fn is_on_board(self, size: u8) -> bool {
        self.file < size && self.rank < size
    }

    /// The file letter, `a` for file 0.
    #[must_use]
    pub const fn file_char(self) -> char {
        (b'a' + self.file) as char
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.file_char(), u16::from(self.rank) + 1)
    }
}

impl FromStr for Square {
    type Err = ParseError;

    /// Parses `e4` (case-insensitive). Only the notation is checked here, not the board size.
    fn from_str(s: &str) -> Result<Square, ParseError> {
        let bad = || ParseError::Square { input: shorten(s) };
        let mut chars = s.chars();
        let letter = chars.next().ok_or_else(bad)?.to_ascii_lowercase();
        if !letter.is_ascii_lowercase() {
            return Err(bad());
        }
        let digits = chars.as_str();
        if digits.is_empty() || digits.len() > 2 || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return Err(bad());
        }
        let rank: u8 = digits.parse().map_err(|_| bad())?;
        if rank == 0 || digits.starts_with('0') {
            return Err(bad());
        }
        Square::new(letter as u8 - b'a', rank - 1).ok_or_else(bad)
    }
}

/// Whether a character of untrusted text is escaped (`\u{1b}`) when quoted: control characters
/// (ESC, a newline), which could drive a terminal or split a one-line message; the line and
/// paragraph separators, which split it as well; and the bidirectional embeddings, overrides
/// and isolates (U+202A to U+202E, U+2066 to U+2069), which reorder how the rest of the line is
/// shown. Marks that only set a direction (U+200E, U+200F) are kept, as names in right-to-left
/// scripts hold them.
#[must_use]
pub fn escaped_when_quoted(c: char) -> bool {
    c.is_control() || matches!(c, '\u{2028}' | '\u{2029}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

/// Cuts untrusted input down to a length that can be quoted in an error message, with the
/// characters [`escaped_when_quoted`] escaped.
pub(crate) fn shorten(s: &str) -> String {
    const LIMIT: usize = 24;
    let mut cut = String::new();
    for c in s.chars().take(LIMIT) {
        if escaped_when_quoted(c) {
            cut.extend(c.escape_debug());
        } else {
            cut.push(c);
        }
    }
    if s.chars().count() > LIMIT {
        cut.push('…');
    }
    cut
}

/// A move of one piece along a rank or file. Whether it is legal is a question for a
/// [`Position`](crate::Position).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move {
    pub from: Square,
    pub to: Square,
}

impl Move {
    #[must_use]
    pub const fn new(from: Square, to: Square) -> Move {
        Move { from, to }
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{}", self.from, self.to)
    }
}

impl FromStr for Move {
    type Err = ParseError;

    /// Parses a move without captures; use [`MoveText`](crate::MoveText) to accept `xe2` too.
    fn from_str(s: &str) -> Result<Move, ParseError> {
        let text: crate::MoveText = s.parse()?;
        if text.captures.is_empty() {
            Ok(text.mv)
        } else {
            Err(ParseError::Move { input: shorten(s), reason: crate::MoveSyntax::CapturesOnPlainMove })
        }
    }
}
