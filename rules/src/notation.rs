//! Move notation and OTN positions.

use std::fmt;
use std::str::FromStr;

use crate::error::{MoveSyntax, ParseError};
use crate::position::Setup;
use crate::square::shorten;
use crate::{Move, Piece, Square};

/// A move as written, with the captures the writer claims (`e1-e3xe2/e4`). Whether the claim is
/// true is decided when the move is played ([`Game::play_text`](crate::Game::play_text)).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct MoveText {
    pub mv: Move,
    /// Claimed captures, in the order written; empty when none are written.
    pub captures: Vec<Square>,
}

/// Longer input is certainly not a move; refusing it early keeps error messages short.
const MAX_MOVE_LEN: usize = 96;

impl FromStr for MoveText {
    type Err = ParseError;

    /// Accepts `e1-e3`, `e1e3`, `E1-E3`, `e1 e3`, and captures as `xe2`, `xe2/e4` or `xe2xe4`
    /// (spaces around `x` are fine).
    fn from_str(input: &str) -> Result<MoveText, ParseError> {
        let err = |reason| ParseError::Move { input: shorten(input.trim()), reason };
        if input.len() > MAX_MOVE_LEN {
            return Err(err(MoveSyntax::TooLong));
        }
        let mut scan = Scanner { rest: input.trim() };
        if scan.rest.is_empty() {
            return Err(err(MoveSyntax::Empty));
        }
        let from = scan.square()?.ok_or_else(|| err(MoveSyntax::NoStart))?;
        scan.skip_spaces();
        if scan.eat('-') {
            scan.skip_spaces();
        }
        let to = scan.square()?.ok_or_else(|| err(MoveSyntax::NoDestination))?;
        let mut captures = Vec::new();
        scan.skip_spaces();
        if scan.eat('x') {
            loop {
                scan.skip_spaces();
                captures.push(scan.square()?.ok_or_else(|| err(MoveSyntax::BadCapture))?);
                scan.skip_spaces();
                if !(scan.eat('x') || scan.eat('/')) {
                    break;
                }
            }
        }
        if !scan.rest.is_empty() {
            return Err(err(MoveSyntax::TrailingText));
        }
        Ok(MoveText { mv: Move::new(from, to), captures })
    }
}

impl fmt::Display for MoveText {
    /// The canonical form: `from-to` then `xcap/cap…`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.mv)?;
        for (n, sq) in self.captures.iter().enumerate() {
            write!(f, "{}{sq}", if n == 0 { 'x' } else { '/' })?;
        }
        Ok(())
    }
}

struct Scanner<'a> {
    rest: &'a str,
}

impl Scanner<'_> {
    fn skip_spaces(&mut self) {
        self.rest = self.rest.trim_start();
    }

    fn eat(&mut self, c: char) -> bool {
        match self.rest.strip_prefix(|x: char| x.eq_ignore_ascii_case(&c)) {
            Some(rest) => {
                self.rest = rest;
                true
            }
            None => false,
        }
    }

    /// A letter followed by one or two digits; `None` when the text does not look like a
    /// square, an error when it does but lies beyond the largest board (`z99`, `a27`).
    fn square(&mut self) -> Result<Option<Square>, ParseError> {
        let bytes = self.rest.as_bytes();
        if bytes.is_empty() || !bytes[0].is_ascii_alphabetic() {
            return Ok(None);
        }
        let digits = bytes[1..].iter().take(3).take_while(|b| b.is_ascii_digit()).count();
        if digits == 0 || digits > 2 || bytes[1] == b'0' {
            return Ok(None);
        }
        let text = &self.rest[..=digits];
        let Ok(sq) = text.parse() else {
            return Err(ParseError::OffBoard { square: text.to_ascii_lowercase() });
        };
        self.rest = &self.rest[1 + digits..];
        Ok(Some(sq))
    }
}

/// Longest OTN position we read: a 26x26 board written square by square, with slashes.
const MAX_POSITION_LEN: usize = 26 * 27 + 2;

impl FromStr for Setup {
    type Err = ParseError;

    /// Parses an OTN position record: `/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/`, rows from rank 1 up,
    /// digits counting empty squares, `t` attacker, `T` defender, `K` king.
    fn from_str(input: &str) -> Result<Setup, ParseError> {
        let text = input.trim();
        let err = |reason: String| ParseError::Position { input: shorten(text), reason };
        if text.len() > MAX_POSITION_LEN {
            return Err(err("it is longer than any board".into()));
        }
        let inner = text
            .strip_prefix('/')
            .and_then(|t| t.strip_suffix('/'))
            .ok_or_else(|| err("it must start and end with '/'".into()))?;
        let rows: Vec<&str> = inner.split('/').collect();
        let size = rows.len();
        if !(3..=26).contains(&size) {
            let rows = if size == 1 { "row" } else { "rows" };
            return Err(err(format!("it has {size} {rows}; a board has 3 to 26")));
        }
        // The rows say how large the board is; a row of another width is most often a row
        // missing or one too many, so the message names both counts.
        let width = |rank: usize, squares: String| {
            err(format!(
                "row {} has {squares} squares, but there are {size} rows (a board is as wide as it is high)",
                rank + 1
            ))
        };
        let mut setup = Setup::empty(size as u8);
        for (rank, row) in rows.iter().enumerate() {
            let mut file = 0usize;
            let mut chars = row.char_indices().peekable();
            while let Some((start, c)) = chars.next() {
                if c.is_ascii_digit() {
                    let mut end = start + 1;
                    while let Some(&(i, d)) = chars.peek() {
                        if !d.is_ascii_digit() {
                            break;
                        }
                        end = i + 1;
                        chars.next();
                    }
                    let run: usize =
                        row[start..end].parse().map_err(|_| err(format!("row {} has a bad count", rank + 1)))?;
                    // `03` is a zero followed by a three, or a typo: either way not a count.
                    if run == 0 || row[start..].starts_with('0') {
                        return Err(err(format!("row {} counts zero empty squares", rank + 1)));
                    }
                    // Saturating: a count of twenty digits is refused as too wide, not an overflow.
                    file = file.saturating_add(run);
                } else {
                    let piece = match c {
                        't' => Piece::Attacker,
                        'T' => Piece::Defender,
                        'K' => Piece::King,
                        _ => {
                            return Err(err(format!("'{}' is not a piece this bot plays (t, T, K)", c.escape_debug())));
                        }
                    };
                    if file < size {
                        let sq = Square::new(file as u8, rank as u8).expect("size is at most 26");
                        setup.set(sq, Some(piece));
                    }
                    file += 1;
                }
                if file > size {
                    return Err(width(rank, format!("more than {size}")));
                }
            }
            if file != size {
                return Err(width(rank, file.to_string()));
            }
        }
        Ok(setup)
    }
}

impl fmt::Display for Setup {
    /// The OTN position record.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("/")?;
        for rank in 0..self.size() {
            let mut empty = 0;
            for file in 0..self.size() {
                match self.piece_at(Square::new(file, rank).expect("size is at most 26")) {
                    None => empty += 1,
                    Some(piece) => {
                        if empty > 0 {
                            write!(f, "{empty}")?;
                            empty = 0;
                        }
                        write!(f, "{}", piece.otn_char())?;
                    }
                }
            }
            if empty > 0 {
                write!(f, "{empty}")?;
            }
            f.write_str("/")?;
        }
        Ok(())
    }
}
