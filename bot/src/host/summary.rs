//! The summary of a game: how it ended (or stands), in facts precise enough to put into words.

use tafl_rules::{Reason, Side};

use super::types::{Conclusion, EndReason, PLIES_TO_COUNT, RatingChange, Scope, Summary, User};
use super::{GameId, Host, HostError, Loaded, view};
use crate::store;

impl Host {
    /// The summary of a finished or running game: result and how it was reached, players,
    /// moves, captures by each side, duration and rating changes.
    pub async fn summary(&self, game_id: GameId) -> Result<Summary, HostError> {
        let mut tx = self.db.begin_read().await?;
        let loaded = self.load(&mut tx, game_id).await?;
        let changes = store::rating_changes::of_game(&mut tx, game_id).await?;
        let review = store::reviews::find(&mut tx, game_id).await?;
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
        let mut summary = summarise(&loaded, rating_changes);
        // A game that ended before each side had moved is not reviewed (`end_game`); a review
        // stored for one by an earlier version is not shown either.
        let counted = loaded.game.ply() >= PLIES_TO_COUNT;
        summary.review =
            review.filter(|_| counted).and_then(|row| super::review::state_of(&row, loaded.game.start().to_move()));
        Ok(summary)
    }
}

/// Pieces captured so far: (by the attackers, by the defenders). The side of each ply alternates
/// from the start's side to move (the attackers, except in some imported records).
#[must_use]
pub fn captures_by_side(game: &tafl_rules::Game) -> (usize, usize) {
    let first = game.start().to_move();
    let mut taken = (0, 0);
    for (n, played) in game.moves().iter().enumerate() {
        let mover = if n % 2 == 0 { first } else { first.opponent() };
        match mover {
            Side::Attackers => taken.0 += played.captures.len(),
            Side::Defenders => taken.1 += played.captures.len(),
        }
    }
    taken
}

fn summarise(loaded: &Loaded, rating_changes: Vec<RatingChange>) -> Summary {
    let game = view(loaded);
    let record = &loaded.game;
    let plies = record.ply();
    let (by_attackers, by_defenders) = captures_by_side(record);
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
            EndReason::Abandoned => Conclusion::Abandoned { side: loser },
            EndReason::Agreement => Conclusion::Agreement,
            EndReason::Aborted => Conclusion::Aborted,
            EndReason::BotRemoved => Conclusion::BotRemoved,
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
        // An imported record has no dates: it was stored and ended at the moment of its import.
        duration: row.finished_at.filter(|_| !row.imported).map(|end| (end - row.created_at).max(0)),
        ended_too_soon_to_rate: super::ratings::ended_too_soon_to_rate(row, plies, game.ending),
        rating_changes,
        review: None,
        record: record.clone(),
        game,
    }
}

#[cfg(test)]
mod tests {
    use tafl_rules::{Game, Side, Variant};

    use super::captures_by_side;

    #[test]
    fn captures_are_counted_for_the_side_that_made_them() {
        // Play greedily (a capturing move whenever there is one) and check each ply's captures
        // land on the mover's count only.
        let mut game = Game::new(tafl_rules::Position::new(Variant::Brandubh.rules()).unwrap());
        let mut seen = 0;
        for _ in 0..80 {
            if game.status() != tafl_rules::Status::Ongoing {
                break;
            }
            let mover = game.position().to_move();
            let legal = game.position().legal_moves();
            let capturing = legal.iter().copied().find(|mv| {
                let mut trial = game.position().clone();
                !trial.play_unchecked(*mv).captures.is_empty()
            });
            let before = captures_by_side(&game);
            let played = game.play(capturing.unwrap_or(legal[legal.len() / 2])).unwrap().captures.len();
            seen += played;
            let after = captures_by_side(&game);
            let expected = match mover {
                Side::Attackers => (before.0 + played, before.1),
                Side::Defenders => (before.0, before.1 + played),
            };
            assert_eq!(after, expected);
        }
        assert!(seen > 0, "the greedy game captured something");
    }
}
