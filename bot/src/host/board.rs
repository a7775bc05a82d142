//! What a front end needs to show a game and take moves by menu: where its board message is,
//! which offers are open, the pieces that can move and where each can go, and the whole game for
//! an animation. Separate from the operations in `mod.rs` because none of it changes a game.

use tafl_rules::{Game, Position, Square};

use super::outbox::{BOARD_ITEM, game_lane};
use super::{
    Conn, GameId, GameView, Host, HostError, Loaded, MoveChoice, UserId, ensure_ongoing, ensure_turn, legal,
    player_side, view,
};
use crate::store::{self, BoardMessageRow};

/// The two kinds of offer a player makes to the other.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OfferKind {
    Draw,
    Takeback,
}

impl OfferKind {
    /// The kind as the `offers` table names it.
    #[must_use]
    pub fn stored(self) -> &'static str {
        match self {
            OfferKind::Draw => "draw",
            OfferKind::Takeback => "takeback",
        }
    }
}

/// Where an offer stands, for the notice that announces it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OfferStanding {
    /// Waiting for the other player's answer.
    Open,
    /// Accepted, declined or withdrawn: that answer's own notice tells it.
    Answered,
    /// Closed unanswered: a move, a takeback or the game's end came first, and nothing tells it.
    Lapsed,
}

/// An offer waiting for the other player's answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OpenOffer {
    pub kind: OfferKind,
    pub by: UserId,
}

/// The board a player chose a move on, as its controls name it: the ply, and the moves tag
/// ([`super::moves_tag`]) when the control carries one. A takeback and new moves can bring a
/// game back to a ply in another position, which the tag tells apart; controls drawn before
/// the tag existed are checked by the ply alone.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SeenBoard {
    pub ply: usize,
    pub tag: Option<u32>,
}

impl SeenBoard {
    /// The board of `game` as it stands, tag included.
    #[must_use]
    pub fn of(game: &Game) -> SeenBoard {
        SeenBoard { ply: game.ply(), tag: Some(super::moves_tag(game)) }
    }

    /// A board known by its ply alone (a form or an untagged control).
    #[must_use]
    pub fn at_ply(ply: usize) -> SeenBoard {
        SeenBoard { ply, tag: None }
    }

    /// `Ok` when `game` (number `id`) still shows this board; else the stale-board refusal.
    pub(super) fn check(self, id: GameId, game: &Game) -> Result<(), HostError> {
        let ply = game.ply();
        if ply != self.ply || self.tag.is_some_and(|tag| tag != super::moves_tag(game)) {
            return Err(HostError::StaleBoard { id, ply, expected: self.ply });
        }
        Ok(())
    }
}

/// A piece that can move, for the first move menu.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PieceChoice {
    pub square: Square,
    /// How many moves it has.
    pub moves: usize,
}

/// The pieces the side to move can move in `position`, in board order.
#[must_use]
pub fn movable_pieces(position: &Position) -> Vec<PieceChoice> {
    legal::movable_pieces(position).into_iter().map(|(square, moves)| PieceChoice { square, moves }).collect()
}

/// The moves of the piece on `from` in `game`, labelled with captures and escapes, in board
/// order of their destinations. Empty when no piece of the side to move can move from there.
#[must_use]
pub fn destinations(game: &Game, from: Square) -> Vec<MoveChoice> {
    legal::moves_from(game, from)
}

/// What a drawing of a game's board shows, as recorded with its message: the ply, and whether
/// the game was over (its result, no controls). A game can end without a move (resignation,
/// time, agreement, a claim), so the ply alone cannot tell a final board from one drawn before
/// the end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Drawn {
    pub ply: usize,
    pub over: bool,
}

impl Drawn {
    /// The board of `game` as it stands.
    #[must_use]
    pub fn of(game: &GameView) -> Drawn {
        Drawn { ply: game.ply, over: game.is_over() }
    }

    /// A board of a game going on, at `ply`.
    #[must_use]
    pub const fn at(ply: usize) -> Drawn {
        Drawn { ply, over: false }
    }
}

/// Everything a game's board message shows and what it is about, read in one snapshot: the game
/// with its moves, its open offers, the message that shows it, and the newest pending board item,
/// which a drawing of this snapshot covers (see [`Host::board_shown`]).
#[derive(Clone, Debug)]
pub struct BoardState {
    pub game: GameView,
    pub history: Game,
    pub offers: Vec<OpenOffer>,
    pub message: Option<BoardMessageRow>,
    pub covers: Option<i64>,
}

impl BoardState {
    /// How the game's board message is drawn: as whoever posted it chose, the default when
    /// there is none yet.
    #[must_use]
    pub fn style(&self) -> super::BoardStyle {
        style_of(self.message.as_ref())
    }
}

/// How a board message is drawn; the default without one.
pub(super) fn style_of(message: Option<&BoardMessageRow>) -> super::BoardStyle {
    message.map_or_else(super::BoardStyle::default, |m| super::BoardStyle::from_names(&m.orientation, &m.theme))
}

/// The [`BoardState`] of `loaded`, read in `conn`'s transaction.
pub(super) async fn state_in(conn: &mut Conn, loaded: &Loaded) -> Result<BoardState, sqlx::Error> {
    let message = store::messages::board(conn, loaded.row.id).await?;
    state_with(conn, loaded, message).await
}

/// [`state_in`], with the game's board message already read in the same transaction.
pub(super) async fn state_with(
    conn: &mut Conn,
    loaded: &Loaded,
    message: Option<BoardMessageRow>,
) -> Result<BoardState, sqlx::Error> {
    let id = loaded.row.id;
    let covers = store::outbox::latest(conn, &game_lane(id), BOARD_ITEM).await?;
    // The row counts the open offers: most boards have none, and then nothing is read. (In a
    // move's transaction the count is from before the move, so offers it lapsed are still read,
    // and found closed.)
    let offers = if loaded.row.open_offers > 0 && loaded.game.status().is_ongoing() {
        offers_in(conn, id).await?
    } else {
        Vec::new()
    };
    Ok(BoardState { game: view(loaded), history: loaded.game.clone(), offers, message, covers })
}

/// The open offers of a game, draw first.
async fn offers_in(conn: &mut Conn, game_id: GameId) -> Result<Vec<OpenOffer>, sqlx::Error> {
    let mut offers = Vec::with_capacity(2);
    for kind in [OfferKind::Draw, OfferKind::Takeback] {
        if let Some(offer) = store::offers::open(conn, game_id, kind.stored()).await? {
            offers.push(OpenOffer { kind, by: offer.by_user });
        }
    }
    Ok(offers)
}

impl Host {
    /// A game's [`BoardState`]: one read transaction, where a board drawn from separate reads
    /// took four (the board is drawn after every move, so this is on the path of each click).
    pub async fn board_state(&self, game_id: GameId) -> Result<BoardState, HostError> {
        let mut tx = self.db.begin_read().await?;
        let loaded = self.load(&mut tx, game_id).await?;
        Ok(state_in(&mut tx, &loaded).await?)
    }

    /// The board message of a game, if a front end has posted one.
    pub async fn board_message(&self, game_id: GameId) -> Result<Option<BoardMessageRow>, HostError> {
        let mut tx = self.db.begin_read().await?;
        Ok(store::messages::board(&mut tx, game_id).await?)
    }

    /// The channel and message of a challenge card, if one was posted.
    pub async fn challenge_message(&self, challenge_id: i64) -> Result<Option<(i64, i64)>, HostError> {
        let mut tx = self.db.begin_read().await?;
        Ok(store::messages::challenge(&mut tx, challenge_id).await?)
    }

    pub async fn set_challenge_message(
        &self,
        challenge_id: i64,
        channel_id: i64,
        message_id: i64,
    ) -> Result<(), HostError> {
        transaction!(self.db.begin_write(), |tx| {
            store::challenges::find(&mut tx, challenge_id).await?.ok_or(HostError::NoSuchChallenge(challenge_id))?;
            store::messages::set_challenge(&mut tx, challenge_id, channel_id, message_id).await?;
            Ok(())
        })
    }

    /// The open draw offer and takeback request of a game (at most one of each).
    pub async fn open_offers(&self, game_id: GameId) -> Result<Vec<OpenOffer>, HostError> {
        let mut tx = self.db.begin_read().await?;
        Ok(offers_in(&mut tx, game_id).await?)
    }

    /// Where offer `made` stands (or, not named, the newest of `kind` that `by` made in a
    /// game); `None` if there is no such offer.
    pub async fn offer_standing(
        &self,
        game_id: GameId,
        kind: OfferKind,
        by: UserId,
        made: Option<i64>,
    ) -> Result<Option<OfferStanding>, HostError> {
        let mut tx = self.db.begin_read().await?;
        let state = match made {
            Some(id) => store::offers::state(&mut tx, game_id, id).await?,
            // An item recorded before offers were named in it: judged by the newest.
            None => store::offers::latest_state(&mut tx, game_id, kind.stored(), by).await?,
        };
        Ok(state.map(|state| match state.as_str() {
            "open" => OfferStanding::Open,
            "lapsed" => OfferStanding::Lapsed,
            _ => OfferStanding::Answered,
        }))
    }

    /// The board of a game that `user` is to move in, for a move menu drawn on the board
    /// `seen`: refused as stale when the game has moved on, like [`Host::play`]. The check and
    /// the state are one snapshot, so a menu drawn from it shows the position it was checked
    /// against.
    pub async fn board_to_move(&self, game_id: GameId, user: UserId, seen: SeenBoard) -> Result<BoardState, HostError> {
        let mut tx = self.db.begin_read().await?;
        let loaded = self.load(&mut tx, game_id).await?;
        let sides = player_side(&loaded, user)?;
        ensure_ongoing(&loaded)?;
        seen.check(game_id, &loaded.game)?;
        ensure_turn(&mut tx, &loaded, &sides).await?;
        Ok(state_in(&mut tx, &loaded).await?)
    }

    /// A game with its whole history, for animations and records.
    pub async fn history(&self, game_id: GameId) -> Result<(GameView, Game), HostError> {
        let mut tx = self.db.begin_read().await?;
        let loaded = self.load(&mut tx, game_id).await?;
        Ok((view(&loaded), loaded.game))
    }
}
