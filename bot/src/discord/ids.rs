//! The `custom_id`s of buttons and select menus. Each one names everything its handler needs (the
//! game or challenge, and the ply of the board it was drawn for), so that every control works
//! after a restart with no state kept in memory, and a control on an outdated board is recognised
//! and refused ("the board has changed") instead of acting on a position its user did not see.
//!
//! Format: `tafl:<action>:<game or challenge>[:<ply>[.<tag>][:<square>]]`, at most 100 characters
//! as Discord requires (the longest is about 55). The move menus carry the board's moves tag (8
//! hex digits, see [`crate::host::moves_tag`]) after the ply: a takeback and new moves can bring
//! a game back to a ply in another position. Menus drawn before the tag existed have none and
//! are checked by the ply alone.

use std::fmt;
use std::str::FromStr;

use tafl_rules::Square;

use crate::host::{ChallengeId, GameId, OfferAction, OfferKind, SeenBoard};

/// What a button or select menu does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Control {
    /// Accept a challenge (the card's button).
    Accept(ChallengeId),
    /// Decline a challenge, or cancel it when pressed by the challenger.
    Decline(ChallengeId),
    /// The piece menu of a board; its value is a square, or a page of the menu.
    Piece { game: GameId, board: SeenBoard },
    /// The destination menu for the piece on `from`; its value is a move, or a page.
    Destination { game: GameId, board: SeenBoard, from: Square },
    /// Back from the destination menu to the piece menu.
    Back { game: GameId, board: SeenBoard },
    /// Resign: asks the player to confirm, privately.
    Resign { game: GameId, ply: usize },
    /// The confirmation of a resignation.
    ConfirmResign { game: GameId, ply: usize },
    /// Offer, accept or decline a draw or a takeback.
    Offer { kind: OfferKind, action: OfferAction, game: GameId, ply: usize },
}

/// The message a control is drawn on, and what it acts on: a challenge's card, a game's board,
/// or the private question that confirms a resignation. A click is acted on only from a message
/// that shows a control of the same place (see `components::carries`): a modified client can send
/// any `custom_id` from any message, and several answers edit the clicked message.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    Card(ChallengeId),
    Board(GameId),
    ResignQuestion(GameId),
}

impl Control {
    /// Where the control is drawn, whatever board (ply) it was drawn for.
    #[must_use]
    pub const fn target(&self) -> Target {
        match *self {
            Control::Accept(id) | Control::Decline(id) => Target::Card(id),
            Control::Piece { game, .. }
            | Control::Destination { game, .. }
            | Control::Back { game, .. }
            | Control::Resign { game, .. }
            | Control::Offer { game, .. } => Target::Board(game),
            Control::ConfirmResign { game, .. } => Target::ResignQuestion(game),
        }
    }
}

/// The prefix of every `custom_id` of this bot, so that other bots' components are ignored.
const PREFIX: &str = "tafl";

/// A board in an id: its ply, with its moves tag when there is one: `33` or `33.0a1b2c3d`.
struct BoardText(SeenBoard);

impl fmt::Display for BoardText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0.tag {
            Some(tag) => write!(f, "{}.{tag:08x}", self.0.ply),
            None => write!(f, "{}", self.0.ply),
        }
    }
}

impl fmt::Display for Control {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Control::Accept(id) => write!(f, "{PREFIX}:accept:{id}"),
            Control::Decline(id) => write!(f, "{PREFIX}:decline:{id}"),
            Control::Piece { game, board } => write!(f, "{PREFIX}:piece:{game}:{}", BoardText(board)),
            Control::Destination { game, board, from } => write!(f, "{PREFIX}:to:{game}:{}:{from}", BoardText(board)),
            Control::Back { game, board } => write!(f, "{PREFIX}:back:{game}:{}", BoardText(board)),
            Control::Resign { game, ply } => write!(f, "{PREFIX}:resign:{game}:{ply}"),
            Control::ConfirmResign { game, ply } => write!(f, "{PREFIX}:resign-yes:{game}:{ply}"),
            Control::Offer { kind, action, game, ply } => {
                let kind = match kind {
                    OfferKind::Draw => "draw",
                    OfferKind::Takeback => "takeback",
                };
                let action = match action {
                    OfferAction::Offer => "",
                    OfferAction::Accept => "-yes",
                    OfferAction::Decline => "-no",
                };
                write!(f, "{PREFIX}:{kind}{action}:{game}:{ply}")
            }
        }
    }
}

/// A `custom_id` this bot did not make (another bot's, or a forged one).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UnknownControl;

impl FromStr for Control {
    type Err = UnknownControl;

    fn from_str(s: &str) -> Result<Control, UnknownControl> {
        if s.len() > 100 {
            return Err(UnknownControl);
        }
        let mut parts = s.split(':');
        if parts.next() != Some(PREFIX) {
            return Err(UnknownControl);
        }
        let action = parts.next().ok_or(UnknownControl)?;
        let id: i64 = parts.next().and_then(|p| p.parse().ok()).filter(|id| *id > 0).ok_or(UnknownControl)?;
        let board = parts.next().map(parse_board).transpose()?;
        let ply = board.map(|board| board.ply);
        let square = parts.next().map(|p| p.parse::<Square>().map_err(|_| UnknownControl)).transpose()?;
        if parts.next().is_some() {
            return Err(UnknownControl);
        }
        let offer = |kind, action| ply.map(|ply| Control::Offer { kind, action, game: id, ply });
        let menu = matches!(action, "piece" | "to" | "back");
        if board.is_some_and(|board| board.tag.is_some()) && !menu {
            return Err(UnknownControl);
        }
        let control = match (action, board, square) {
            ("accept", None, None) => Some(Control::Accept(id)),
            ("decline", None, None) => Some(Control::Decline(id)),
            ("piece", Some(board), None) => Some(Control::Piece { game: id, board }),
            ("to", Some(board), Some(from)) => Some(Control::Destination { game: id, board, from }),
            ("back", Some(board), None) => Some(Control::Back { game: id, board }),
            ("resign", Some(board), None) => Some(Control::Resign { game: id, ply: board.ply }),
            ("resign-yes", Some(board), None) => Some(Control::ConfirmResign { game: id, ply: board.ply }),
            ("draw", _, None) => offer(OfferKind::Draw, OfferAction::Offer),
            ("draw-yes", _, None) => offer(OfferKind::Draw, OfferAction::Accept),
            ("draw-no", _, None) => offer(OfferKind::Draw, OfferAction::Decline),
            ("takeback", _, None) => offer(OfferKind::Takeback, OfferAction::Offer),
            ("takeback-yes", _, None) => offer(OfferKind::Takeback, OfferAction::Accept),
            ("takeback-no", _, None) => offer(OfferKind::Takeback, OfferAction::Decline),
            _ => None,
        };
        control.ok_or(UnknownControl)
    }
}

/// A ply with or without the board's moves tag: `33` or `33.0a1b2c3d` (see [`BoardText`]).
fn parse_board(text: &str) -> Result<SeenBoard, UnknownControl> {
    let (ply, tag) = match text.split_once('.') {
        None => (text, None),
        Some((ply, tag)) if tag.len() == 8 => (ply, Some(u32::from_str_radix(tag, 16).map_err(|_| UnknownControl)?)),
        Some(_) => return Err(UnknownControl),
    };
    Ok(SeenBoard { ply: ply.parse().map_err(|_| UnknownControl)?, tag })
}

/// The value of a select-menu option that shows another page of the menu instead of choosing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PageValue(pub usize);

impl fmt::Display for PageValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "page:{}", self.0)
    }
}

impl PageValue {
    /// `page:N`, or `None` for a choice.
    #[must_use]
    pub fn parse(value: &str) -> Option<PageValue> {
        value.strip_prefix("page:")?.parse().ok().map(PageValue)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(s: &str) -> Square {
        s.parse().unwrap()
    }

    #[test]
    fn every_control_reads_back_as_itself() {
        let controls = [
            Control::Accept(7),
            Control::Decline(7),
            Control::Piece { game: 12, board: SeenBoard { ply: 0, tag: None } },
            Control::Piece { game: 12, board: SeenBoard { ply: 0, tag: Some(0x811c_9dc5) } },
            Control::Destination { game: 12, board: SeenBoard { ply: 33, tag: None }, from: sq("k11") },
            Control::Destination { game: 12, board: SeenBoard { ply: 33, tag: Some(7) }, from: sq("k11") },
            Control::Back { game: 12, board: SeenBoard { ply: 33, tag: Some(u32::MAX) } },
            Control::Resign { game: 12, ply: 33 },
            Control::ConfirmResign { game: 12, ply: 33 },
            Control::Offer { kind: OfferKind::Draw, action: OfferAction::Offer, game: 3, ply: 4 },
            Control::Offer { kind: OfferKind::Draw, action: OfferAction::Accept, game: 3, ply: 4 },
            Control::Offer { kind: OfferKind::Draw, action: OfferAction::Decline, game: 3, ply: 4 },
            Control::Offer { kind: OfferKind::Takeback, action: OfferAction::Offer, game: 3, ply: 4 },
            Control::Offer { kind: OfferKind::Takeback, action: OfferAction::Accept, game: 3, ply: 4 },
            Control::Offer { kind: OfferKind::Takeback, action: OfferAction::Decline, game: 3, ply: 4 },
        ];
        for control in controls {
            let id = control.to_string();
            assert!(id.len() <= 100, "{id}");
            assert_eq!(id.parse::<Control>(), Ok(control), "{id}");
        }
        // Menus drawn before the moves tag existed still work, checked by their ply alone.
        assert_eq!("tafl:to:12:33:k11".parse::<Control>(), Ok(controls[4]));
        assert_eq!("tafl:piece:12:0".parse::<Control>(), Ok(controls[2]));
        assert_eq!("tafl:to:12:33.00000007:k11".parse::<Control>(), Ok(controls[5]));
    }

    #[test]
    fn foreign_and_forged_ids_are_refused() {
        for id in [
            "",
            "tafl",
            "other:accept:1",
            "tafl:accept",
            "tafl:accept:0",
            "tafl:accept:-3",
            "tafl:accept:x",
            "tafl:accept:1:2",
            "tafl:piece:1",
            "tafl:piece:1:-1",
            "tafl:to:1:2",
            "tafl:to:1:2:z99",
            "tafl:move:1:2",
            "tafl:draw:1",
            "tafl:resign:1:2:3:4",
            "tafl:piece:1:2.",
            "tafl:piece:1:2.xyz00000",
            "tafl:piece:1:2.abc",
            "tafl:piece:1:2.0000000000",
            "tafl:piece:1:.00000001",
            "tafl:resign:1:2.00000001",
            "tafl:draw-yes:1:2.00000001",
            "tafl:accept:99999999999999999999999",
        ] {
            assert_eq!(id.parse::<Control>(), Err(UnknownControl), "{id}");
        }
        assert_eq!(format!("tafl:accept:{}", "9".repeat(120)).parse::<Control>(), Err(UnknownControl));
    }

    #[test]
    fn page_values() {
        assert_eq!(PageValue(2).to_string(), "page:2");
        assert_eq!(PageValue::parse("page:2"), Some(PageValue(2)));
        assert_eq!(PageValue::parse("e5"), None);
        assert_eq!(PageValue::parse("page:x"), None);
    }
}
