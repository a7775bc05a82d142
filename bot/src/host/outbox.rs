//! What a front end must show, recorded in the transaction that changes a game or a challenge.
//!
//! The host says *what* must be shown ([`Show`]: the board at a ply, the notice to the player to
//! move, a summary, a challenge card closed…); the Discord front end's delivery task decides
//! *how*, applies the items of each lane (one game, one challenge) in order, and reports back
//! here. Nothing is lost between a commit and the Discord request that shows it: a crash leaves
//! the item pending, and the next process delivers it.

use serde::{Deserialize, Serialize};

use super::{ChallengeId, GameId, Host, HostError, OfferKind, ReminderKind, UserId};
use crate::store::{self, outbox::OutboxRow};

/// One thing a front end must show.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Show {
    /// The game's board message as the game stands when it is delivered (so boards coalesce:
    /// one delivery covers every board item before it); `ply` is the ply that asked for it.
    Board { game: GameId, ply: usize },
    /// A new board message for the game, drawn in `by`'s style, posted at the bottom of its
    /// channel (`/tafl board`); it becomes the game's board and the old one loses its controls.
    NewBoard { game: GameId, by: UserId },
    /// A thread under the board for the game's messages (servers with threads on).
    Thread { game: GameId },
    /// Tell the player to move at `ply` that it is their move; nothing once the game moved on.
    YourMove { game: GameId, ply: usize },
    /// The summary of a finished game.
    Summary { game: GameId },
    /// The game's review is done: its summary message is edited to show the turning point and
    /// the evaluation chart.
    Review { game: GameId },
    /// A draw offer or takeback request made or answered by `by`, told to `notify`.
    Offer { game: GameId, offer: OfferKind, event: OfferEvent, by: UserId, notify: Vec<UserId> },
    /// A reminder to the player to move at `ply`, whose time runs out at `deadline_at`.
    Reminder { game: GameId, reminder: ReminderKind, ply: usize, deadline_at: i64, dm: bool },
    /// An older board message, replaced by a newer one: its controls go.
    RetireBoard { game: GameId, channel: i64, message: i64 },
    /// A message to remove: the previous "your move" notice of a game.
    Delete { game: GameId, channel: i64, message: i64 },
    /// A challenge card that can no longer be answered (declined, withdrawn, expired), closed
    /// as `by` closed it.
    ChallengeClosed { challenge: ChallengeId, by: UserId },
}

/// What happened to an offer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OfferEvent {
    Offered,
    Accepted { plies_taken_back: usize },
    Declined { withdrawn: bool },
}

impl Show {
    /// The lane whose items are applied in order, one at a time.
    #[must_use]
    pub fn lane(&self) -> String {
        match self {
            Show::Board { game, .. }
            | Show::NewBoard { game, .. }
            | Show::Thread { game }
            | Show::YourMove { game, .. }
            | Show::Summary { game }
            | Show::Review { game }
            | Show::Offer { game, .. }
            | Show::Reminder { game, .. }
            | Show::RetireBoard { game, .. }
            | Show::Delete { game, .. } => game_lane(*game),
            Show::ChallengeClosed { challenge, .. } => format!("challenge:{challenge}"),
        }
    }

    /// The kind's name, as stored beside the item.
    #[must_use]
    pub const fn kind(&self) -> &'static str {
        match self {
            Show::Board { .. } => BOARD,
            Show::NewBoard { .. } => "new_board",
            Show::Thread { .. } => "thread",
            Show::YourMove { .. } => "your_move",
            Show::Summary { .. } => "summary",
            Show::Review { .. } => "review",
            Show::Offer { .. } => "offer",
            Show::Reminder { .. } => "reminder",
            Show::RetireBoard { .. } => "retire_board",
            Show::Delete { .. } => "delete",
            Show::ChallengeClosed { .. } => "challenge_closed",
        }
    }
}

const BOARD: &str = "board";

/// The lane of a game's items.
#[must_use]
pub fn game_lane(game: GameId) -> String {
    format!("game:{game}")
}

/// An item waiting to be applied.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pending {
    pub id: i64,
    pub lane: String,
    pub show: Show,
    /// Failed tries so far.
    pub attempts: u32,
    /// A create of it may have reached Discord (see [`Host::trying`]).
    pub tried: bool,
    /// Unix milliseconds before which it must not be tried (backoff).
    pub not_before_ms: i64,
    created_at: i64,
}

impl Pending {
    /// The nonce of the `part`-th message this item creates: the same on every try of the item
    /// (so Discord answers a repeat with the message it already made) and at most 25
    /// characters, as Discord allows. The creation time keeps two databases' items apart.
    #[must_use]
    pub fn nonce(&self, part: char) -> String {
        let nonce = format!("{part}{}.{}", self.id, self.created_at);
        nonce.chars().take(25).collect()
    }
}

/// Records `show` in the transaction `conn`, to be delivered after it commits.
pub(super) async fn record(conn: &mut super::Conn, show: &Show, now: i64) -> Result<(), HostError> {
    let item = serde_json::to_string(show).map_err(|error| {
        tracing::error!(%error, "an outbox item cannot be written as JSON");
        HostError::Internal
    })?;
    store::outbox::insert(conn, &show.lane(), show.kind(), &item, now).await?;
    Ok(())
}

/// How many lanes one look at the outbox returns.
const HEADS: i64 = 500;

impl Host {
    /// The first pending item of every lane (due or not). Items that cannot be read (written by
    /// a newer bot, or damaged) are given up here, with a log line.
    pub async fn outbox_heads(&self, now: i64) -> Result<Vec<Pending>, HostError> {
        let rows = {
            let mut tx = self.db.begin_read().await?;
            store::outbox::heads(&mut tx, HEADS).await?
        };
        let mut heads = Vec::with_capacity(rows.len());
        for row in rows {
            match parse(&row) {
                Some(pending) => heads.push(pending),
                None => self.give_up(row.id, "the item cannot be read", now).await?,
            }
        }
        Ok(heads)
    }

    /// The first pending item of `lane`.
    pub async fn outbox_head(&self, lane: &str, now: i64) -> Result<Option<Pending>, HostError> {
        loop {
            let row = {
                let mut tx = self.db.begin_read().await?;
                store::outbox::head(&mut tx, lane).await?
            };
            let Some(row) = row else { return Ok(None) };
            match parse(&row) {
                Some(pending) => return Ok(Some(pending)),
                None => self.give_up(row.id, "the item cannot be read", now).await?,
            }
        }
    }

    /// Marks an item applied, with the message it created.
    pub async fn delivered(&self, id: i64, message: Option<i64>, now: i64) -> Result<(), HostError> {
        let mut tx = self.db.begin_write().await?;
        store::outbox::done(&mut tx, id, message, now).await?;
        tx.commit().await?;
        Ok(())
    }

    /// Records that a message of item `id` is about to be created, once: should the process die
    /// before the item is done, the next one knows that a message may exist.
    pub async fn trying(&self, item: &Pending) -> Result<(), HostError> {
        if item.tried {
            return Ok(());
        }
        let mut tx = self.db.begin_write().await?;
        store::outbox::tried(&mut tx, item.id).await?;
        tx.commit().await?;
        Ok(())
    }

    /// Counts a failed try of an item, to be tried again from `not_before_ms`; returns the
    /// tries so far.
    pub async fn delivery_failed(&self, id: i64, error: &str, not_before_ms: i64) -> Result<u32, HostError> {
        let mut tx = self.db.begin_write().await?;
        let attempts = store::outbox::failed(&mut tx, id, error, not_before_ms).await?;
        tx.commit().await?;
        Ok(u32::try_from(attempts).unwrap_or(u32::MAX))
    }

    /// Gives an item up: it stays in the outbox, marked `given_up` with its last error, and the
    /// lane goes on with its next item. The caller logs it.
    pub async fn give_up(&self, id: i64, error: &str, now: i64) -> Result<(), HostError> {
        tracing::warn!(item = id, error, "an outbox item was given up");
        let mut tx = self.db.begin_write().await?;
        store::outbox::give_up(&mut tx, id, error, now).await?;
        tx.commit().await?;
        Ok(())
    }

    /// The newest pending board item of a game. Read before the game is drawn, it names every
    /// board item that drawing covers (see [`Host::board_shown`]).
    pub async fn pending_board(&self, game: GameId) -> Result<Option<i64>, HostError> {
        let mut tx = self.db.begin_read().await?;
        Ok(store::outbox::latest(&mut tx, &game_lane(game), BOARD).await?)
    }

    /// The board message `message` of a game now shows `ply`, drawn after the board items up
    /// to `covers` were recorded: those are done. When the game has moved on meanwhile (a race
    /// between two answers), a new board item is recorded, so that the board catches up.
    pub async fn board_shown(
        &self,
        game: GameId,
        message: i64,
        ply: usize,
        covers: Option<i64>,
        now: i64,
    ) -> Result<(), HostError> {
        let mut tx = self.db.begin_write().await?;
        if !store::messages::set_shown(&mut tx, game, message, ply as i64, now).await? {
            // Not the game's board (any more): its items are still to be applied to the board.
            return Ok(());
        }
        finish_board(&mut tx, game, Some(ply), covers, now).await?;
        tx.commit().await?;
        Ok(())
    }

    /// Makes a newly posted message, showing `ply` (`None` when unknown), the game's board; the old board, if there
    /// is another, loses its controls (an item of its own: whichever of two racing posts is
    /// recorded last stays the board, and the other is retired), and the board items up to
    /// `covers` are done.
    pub async fn replace_board(
        &self,
        game: GameId,
        channel: i64,
        message: i64,
        ply: Option<usize>,
        covers: Option<i64>,
        now: i64,
    ) -> Result<(), HostError> {
        let mut tx = self.db.begin_write().await?;
        let old = store::messages::board(&mut tx, game).await?;
        store::messages::set_board(&mut tx, game, channel, message, ply.map(|p| p as i64), now).await?;
        if let Some(old) = old.filter(|old| old.message_id != message) {
            record(&mut tx, &Show::RetireBoard { game, channel: old.channel_id, message: old.message_id }, now).await?;
        }
        finish_board(&mut tx, game, ply, covers, now).await?;
        tx.commit().await?;
        Ok(())
    }

    /// A "your move" notice was posted (item `id`): it becomes the game's notice, and the one
    /// it replaces is to be deleted, so that a channel holds one notice per game.
    pub async fn notice_posted(
        &self,
        id: i64,
        game: GameId,
        channel: i64,
        message: i64,
        now: i64,
    ) -> Result<(), HostError> {
        let mut tx = self.db.begin_write().await?;
        store::outbox::done(&mut tx, id, Some(message), now).await?;
        if let Some(previous) = store::messages::replace_notice(&mut tx, game, message, now).await?
            && previous != message
        {
            record(&mut tx, &Show::Delete { game, channel, message: previous }, now).await?;
        }
        tx.commit().await?;
        Ok(())
    }

    /// Item `id` made `message`, which is no longer true (a notice for a ply the game has left,
    /// found when a lost answer was retried): the item is done and the message is to be deleted.
    pub async fn retract(&self, id: i64, game: GameId, channel: i64, message: i64, now: i64) -> Result<(), HostError> {
        let mut tx = self.db.begin_write().await?;
        store::outbox::done(&mut tx, id, Some(message), now).await?;
        record(&mut tx, &Show::Delete { game, channel, message }, now).await?;
        tx.commit().await?;
        Ok(())
    }

    /// Records a board item for every game whose board shows another ply than the game's and
    /// has none pending (left behind by a crash or a race); returns how many.
    pub async fn redraw_stale_boards(&self, now: i64) -> Result<usize, HostError> {
        let mut tx = self.db.begin_write().await?;
        let stale = store::outbox::stale_boards(&mut tx, HEADS).await?;
        for &(game, ply) in &stale {
            record(&mut tx, &Show::Board { game, ply: usize::try_from(ply).unwrap_or(0) }, now).await?;
        }
        tx.commit().await?;
        if !stale.is_empty() {
            tracing::info!(boards = stale.len(), "boards behind their games are redrawn");
        }
        Ok(stale.len())
    }

    /// Asks for a new board message of a game at the bottom of its channel, drawn in `by`'s
    /// style (see [`Show::NewBoard`]).
    pub async fn request_board(&self, game: GameId, by: UserId, now: i64) -> Result<(), HostError> {
        let mut tx = self.db.begin_write().await?;
        store::games::find(&mut tx, game).await?.ok_or(HostError::NoSuchGame(game))?;
        record(&mut tx, &Show::NewBoard { game, by }, now).await?;
        tx.commit().await?;
        Ok(())
    }

    /// How many outbox items are in each state (`done`, `given_up`, `pending`).
    pub async fn outbox_counts(&self) -> Result<Vec<(String, i64)>, HostError> {
        let mut tx = self.db.begin_read().await?;
        Ok(store::outbox::counts(&mut tx).await?)
    }
}

/// The board items up to `covers` are done; when the game is no longer at `ply` (or `ply` is
/// unknown) and no board is pending, a new one is recorded.
async fn finish_board(
    conn: &mut super::Conn,
    game: GameId,
    ply: Option<usize>,
    covers: Option<i64>,
    now: i64,
) -> Result<(), HostError> {
    let lane = game_lane(game);
    if let Some(covers) = covers {
        store::outbox::done_up_to(conn, &lane, BOARD, covers, now).await?;
    }
    let current = store::games::find(conn, game).await?.map(|row| row.ply);
    if let Some(current) = current
        && ply.is_none_or(|ply| current != ply as i64)
        && store::outbox::latest(conn, &lane, BOARD).await?.is_none()
    {
        record(conn, &Show::Board { game, ply: usize::try_from(current).unwrap_or(0) }, now).await?;
    }
    Ok(())
}

fn parse(row: &OutboxRow) -> Option<Pending> {
    match serde_json::from_str::<Show>(&row.item) {
        Ok(show) => Some(Pending {
            id: row.id,
            lane: row.lane.clone(),
            show,
            attempts: u32::try_from(row.attempts).unwrap_or(u32::MAX),
            tried: row.tried,
            not_before_ms: row.not_before_ms,
            created_at: row.created_at,
        }),
        Err(error) => {
            tracing::warn!(item = row.id, %error, "an outbox item cannot be read");
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn items_round_trip_through_their_stored_form() {
        let items = [
            Show::Board { game: 3, ply: 7 },
            Show::YourMove { game: 3, ply: 7 },
            Show::Offer {
                game: 3,
                offer: OfferKind::Takeback,
                event: OfferEvent::Accepted { plies_taken_back: 2 },
                by: 5,
                notify: vec![6],
            },
            Show::Reminder { game: 3, reminder: ReminderKind::LastWarning, ply: 4, deadline_at: 99, dm: true },
            Show::ChallengeClosed { challenge: 9, by: 5 },
            Show::Review { game: 3 },
        ];
        for item in items {
            let json = serde_json::to_string(&item).unwrap();
            assert!(json.contains(&format!("\"kind\":\"{}\"", item.kind())), "{json}");
            assert_eq!(serde_json::from_str::<Show>(&json).unwrap(), item);
        }
        assert_eq!(Show::Summary { game: 12 }.lane(), "game:12");
        assert_eq!(Show::ChallengeClosed { challenge: 4, by: 1 }.lane(), "challenge:4");
    }

    #[test]
    fn nonces_are_stable_and_fit_discord() {
        let pending = Pending {
            id: i64::MAX,
            lane: "game:1".to_owned(),
            show: Show::Summary { game: 1 },
            attempts: 0,
            tried: false,
            not_before_ms: 0,
            created_at: 1_764_590_000,
        };
        assert!(pending.nonce('s').chars().count() <= 25);
        assert_eq!(pending.nonce('s'), pending.nonce('s'));
        assert_ne!(pending.nonce('s'), pending.nonce('d'));
    }
}
