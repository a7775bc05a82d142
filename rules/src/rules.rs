use crate::error::RulesError;
use crate::position::Setup;
use crate::{MAX_SIZE, MIN_SIZE};

/// Where the king must go to win.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Escape {
    /// One of the four corner squares. Corners exist only under this rule.
    Corner,
    /// Any square on the board edge.
    Edge,
}

/// Who may pass through the empty throne. Only the king may ever stop on it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ThronePass {
    /// Nobody but the king may pass (seed 001: the king-only, impassable throne).
    KingOnly,
    /// Every piece may pass while it is empty (the historical throne).
    Everyone,
}

/// To whom the throne is hostile, i.e. may replace one of the two capturing pieces.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[allow(clippy::struct_excessive_bools)] // four independent facts of the rule, not a state machine
pub struct Hostility {
    pub empty_to_attackers: bool,
    pub empty_to_defenders: bool,
    /// While the king stands on the throne it counts as the king; this flag makes it hostile to
    /// attackers even where the king himself could not capture (the historical throne).
    pub occupied_to_attackers: bool,
    /// The same for defenders (no preset uses it, OTN rules strings can).
    pub occupied_to_defenders: bool,
}

/// The centre square, when the rule set has one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Throne {
    pub pass: ThronePass,
    pub hostility: Hostility,
}

impl Throne {
    /// Seed 001 (Tablut, Brandubh, Hnefatafl): only the king may stop on or pass the throne; it is
    /// hostile to everyone when empty and counts as the king while he stands on it.
    pub const KING_ONLY: Throne = Throne {
        pass: ThronePass::KingOnly,
        hostility: Hostility {
            empty_to_attackers: true,
            empty_to_defenders: true,
            occupied_to_attackers: false,
            occupied_to_defenders: false,
        },
    };

    /// Seeds 003 and 004, Copenhagen, Fetlar: everyone may pass the empty throne, only the king may
    /// stop on it; hostile to attackers always and to defenders only when empty.
    pub const HISTORICAL: Throne = Throne {
        pass: ThronePass::Everyone,
        hostility: Hostility {
            empty_to_attackers: true,
            empty_to_defenders: true,
            occupied_to_attackers: true,
            occupied_to_defenders: false,
        },
    };
}

/// How the king is captured (always by an attacker move that lands next to him).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum KingCapture {
    /// Four attackers, or three and the empty throne; never on the edge.
    Strong,
    /// Four on the throne, three and the throne next to it, two (or one and an empty corner)
    /// anywhere else.
    StrongNearThrone,
    /// Every neighbour is an attacker, the board edge, the empty throne or a corner.
    Middleweight,
    /// Like any defender, anywhere (the throne included): two attackers on opposite sides, or
    /// one and a square hostile to defenders (a corner; the empty throne where it is hostile to
    /// them). No preset; `OpenTafl`'s Brandubh (`ks:w`).
    Weak,
}

/// The shieldwall rule: a line of pieces along the edge captured together.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Shieldwall {
    Off,
    On { corners_may_close: bool },
}

/// What the third occurrence of a position does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Repetition {
    Draw,
    /// The player whose move made it loses.
    MoverLoses,
    /// The player whose move made it wins: no preset's rule, but OTN's `tfr:w` as the notation's
    /// list words it (`OpenTafl`'s host plays its `tfr:l` so; see `tafl-bot engine`).
    MoverWins,
    DefendersLose,
    Ignore,
}

impl Repetition {
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Repetition::Draw => "draw",
            Repetition::MoverLoses => "mover_loses",
            Repetition::MoverWins => "mover_wins",
            Repetition::DefendersLose => "defenders_lose",
            Repetition::Ignore => "ignore",
        }
    }
}

/// One rule set: the parameters of VARIANTS.md §1. A rule set is data; [`Variant`](crate::Variant)
/// names the presets, and OTN rules strings describe custom ones.
#[derive(Clone, Debug, PartialEq, Eq)]
#[allow(clippy::struct_excessive_bools)] // independent switches of the rule set
pub struct Rules {
    /// The starting position; its size is the board size.
    pub start: Setup,
    pub escape: Escape,
    pub throne: Option<Throne>,
    /// Whether the king may be one of the two capturing pieces (and a shieldwall bracket).
    pub king_armed: bool,
    pub king_capture: KingCapture,
    pub shieldwall: Shieldwall,
    pub exit_fort: bool,
    pub encirclement: bool,
    pub repetition: Repetition,
}

impl Rules {
    /// The board size (the starting position's).
    #[must_use]
    pub fn size(&self) -> u8 {
        self.start.size()
    }

    /// Whether the four corner squares are special (they are exactly with corner escape).
    #[must_use]
    pub fn has_corners(&self) -> bool {
        self.escape == Escape::Corner
    }

    /// Checks that the rule set can be played: an odd size in range and a valid start.
    pub fn validate(&self) -> Result<(), RulesError> {
        let size = self.size();
        if !(MIN_SIZE..=MAX_SIZE).contains(&size) || size.is_multiple_of(2) {
            return Err(RulesError::BadSize { size, min: MIN_SIZE, max: MAX_SIZE });
        }
        crate::board::Engine::check_setup(self, &self.start)?;
        Ok(())
    }
}
