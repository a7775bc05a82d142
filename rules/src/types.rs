use std::fmt;

/// One of the two players. Attackers ("black", нападающие) always move first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Side {
    Attackers,
    Defenders,
}

impl Side {
    pub const ALL: [Side; 2] = [Side::Attackers, Side::Defenders];

    #[must_use]
    pub const fn opponent(self) -> Side {
        match self {
            Side::Attackers => Side::Defenders,
            Side::Defenders => Side::Attackers,
        }
    }

    /// The lower-case name used in JSON and on the command line.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Side::Attackers => "attackers",
            Side::Defenders => "defenders",
        }
    }

    /// Parses `attackers` / `defenders` (and the singular and the traditional colours).
    #[must_use]
    pub fn from_name(name: &str) -> Option<Side> {
        match name.trim().to_ascii_lowercase().as_str() {
            "attackers" | "attacker" | "black" | "a" => Some(Side::Attackers),
            "defenders" | "defender" | "white" | "d" => Some(Side::Defenders),
            _ => None,
        }
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A piece on the board. The king belongs to the defenders.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Piece {
    Attacker,
    Defender,
    King,
}

impl Piece {
    #[must_use]
    pub const fn side(self) -> Side {
        match self {
            Piece::Attacker => Side::Attackers,
            Piece::Defender | Piece::King => Side::Defenders,
        }
    }

    /// The OTN letter: `t` attacker, `T` defender, `K` king.
    #[must_use]
    pub const fn otn_char(self) -> char {
        match self {
            Piece::Attacker => 't',
            Piece::Defender => 'T',
            Piece::King => 'K',
        }
    }

    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Piece::Attacker => "attacker",
            Piece::Defender => "defender",
            Piece::King => "king",
        }
    }
}

/// Why a game ended on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Reason {
    KingCaptured,
    KingEscaped,
    ExitFort,
    Encirclement,
    Repetition,
    NoMoves,
}

impl Reason {
    /// The snake-case name used in JSON and the database.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Reason::KingCaptured => "king_captured",
            Reason::KingEscaped => "king_escaped",
            Reason::ExitFort => "exit_fort",
            Reason::Encirclement => "encirclement",
            Reason::Repetition => "repetition",
            Reason::NoMoves => "no_moves",
        }
    }
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// How a finished game ended: the winner (`None` for a draw) and why.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Outcome {
    pub winner: Option<Side>,
    pub reason: Reason,
}

/// Whether a game goes on after a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Status {
    Ongoing,
    Finished(Outcome),
}

impl Status {
    #[must_use]
    pub const fn is_ongoing(self) -> bool {
        matches!(self, Status::Ongoing)
    }

    /// `ongoing`, `attackers_win`, `defenders_win` or `draw`, as in `tafl-bot replay --json`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Status::Ongoing => "ongoing",
            Status::Finished(Outcome { winner: Some(Side::Attackers), .. }) => "attackers_win",
            Status::Finished(Outcome { winner: Some(Side::Defenders), .. }) => "defenders_win",
            Status::Finished(Outcome { winner: None, .. }) => "draw",
        }
    }

    #[must_use]
    pub const fn reason(self) -> Option<Reason> {
        match self {
            Status::Ongoing => None,
            Status::Finished(outcome) => Some(outcome.reason),
        }
    }
}
