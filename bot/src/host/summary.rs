//! The summary of a game: how it ended (or stands), in facts precise enough to put into words.

use tafl_rules::{Reason, Side};

use super::types::{Conclusion, EndReason, RatingChange, Scope, Summary, User};
use super::{GameId, Host, HostError, Loaded, view};
use crate::store;

impl Host {
    /// The summary of a finished or running game: result and how it was reached, players,
    /// moves, captures by each side, duration and rating changes.
    pub async fn summary(&self, game_id: GameId) -> Result<Summary, HostError> {
        let mut tx = self.db.begin_read().await?;
        let loaded = self.load(&mut tx, game_id).await?;
        let changes = store::rating_changes::of_game(&mut tx, game_id).await?;
        let rating_changes = changes
            .into_iter()
            .map(|c| RatingChange {
                user: User { id: c.user_id, name: c.name },
                family: c.family,
                scope: Scope::from_id(c.scope),
                before: c.rating_before,
                after: c.rating_after,
                deviation_before: c.deviation_before,
                deviation_after: c.deviation_after,
            })
            .collect();
        Ok(summarise(&loaded, rating_changes))
    }
}

fn summarise(loaded: &Loaded, rating_changes: Vec<RatingChange>) -> Summary {
    let game = view(loaded);
    let record = &loaded.game;
    let plies = record.ply();
    // The side of each ply alternates from the start's side to move (attackers, except in some
    // imported records).
    let first = record.start().to_move();
    let (mut by_attackers, mut by_defenders) = (0, 0);
    for (n, played) in record.moves().iter().enumerate() {
        let mover = if n % 2 == 0 { first } else { first.opponent() };
        match mover {
            Side::Attackers => by_attackers += played.captures.len(),
            Side::Defenders => by_defenders += played.captures.len(),
        }
    }
    let king = record.position().king();
    // The loser of an ending off the board is the winner's opponent; a record may leave the
    // winner out (a drawn "resignation"), and then it is not known.
    let loser = game.ending.and_then(|e| e.winner).map(Side::opponent);
    let conclusion = match game.ending {
        None => Conclusion::InProgress { to_move: game.to_move },
        Some(ending) => match ending.reason {
            EndReason::Board(Reason::KingEscaped) => Conclusion::KingEscaped { at: king },
            EndReason::Board(Reason::KingCaptured) => Conclusion::KingCaptured { at: king },
            EndReason::Board(Reason::ExitFort) => Conclusion::ExitFort { at: king },
            EndReason::Board(Reason::Encirclement) => Conclusion::Encirclement,
            EndReason::Board(Reason::Repetition) => Conclusion::Repetition,
            EndReason::Board(Reason::NoMoves) => Conclusion::NoMoves { side: game.to_move },
            EndReason::Resignation => Conclusion::Resignation { side: loser },
            EndReason::Time => Conclusion::Time { side: loser },
            EndReason::Agreement => Conclusion::Agreement,
            EndReason::Aborted => Conclusion::Aborted,
        },
    };
    let row = &loaded.row;
    Summary {
        conclusion,
        plies,
        full_moves: plies.div_ceil(2),
        captured_by_attackers: by_attackers,
        captured_by_defenders: by_defenders,
        created_at: row.created_at,
        finished_at: row.finished_at,
        duration: row.finished_at.map(|end| (end - row.created_at).max(0)),
        rating_changes,
        record: record.clone(),
        game,
    }
}
