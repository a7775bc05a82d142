//! What the cards plot: a game's pieces and king per ply, a player's rating history and the
//! leaderboard's trends, from the moves and from `rating_changes`.

use tafl_render::GameSeries;

use super::types::{Leaderboard, Scope, Summary};
use super::{Host, HostError, UserId};
use crate::store;

/// At most this many rated games are plotted on a profile: the most recent.
pub const MAX_HISTORY: usize = 1000;

/// One rated game on a rating history's line.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HistoryPoint {
    /// The game's number among the player's plotted rated games, from 1, oldest first.
    pub number: u32,
    pub rating: f64,
    pub deviation: f64,
}

/// A player's rating over time in one family.
#[derive(Clone, Debug, PartialEq)]
pub struct FamilyHistory {
    pub family: String,
    pub points: Vec<HistoryPoint>,
}

/// A player's rating histories (families with most games first) and the variants they played
/// most in rated games (most first).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RatingHistory {
    pub families: Vec<FamilyHistory>,
    pub variants: Vec<(String, u32)>,
}

impl Summary {
    /// Pieces left and the king's distance to escape after every ply, from replaying the moves,
    /// and the engine's evaluation once the game's review is done.
    #[must_use]
    pub fn series(&self) -> GameSeries {
        let mut series = GameSeries::from_game(&self.record);
        if let Some(super::review::ReviewState::Done(review)) = &self.review {
            series.evaluation = Some(review.chart());
            series.turning_point = review.turning_point.as_ref().map(|t| t.ply as u32);
        }
        series
    }
}

impl Host {
    /// A player's rating history per family in a scope (the most recent [`MAX_HISTORY`] rated
    /// games) and their most played variants among them.
    pub async fn rating_history(&self, user: UserId, guild: Option<i64>) -> Result<RatingHistory, HostError> {
        let mut tx = self.db.begin_read().await?;
        let rows =
            store::rating_changes::history(&mut tx, user, Scope::of(guild).id(), None, MAX_HISTORY as i64).await?;
        let mut families: Vec<FamilyHistory> = Vec::new();
        let mut variants: Vec<(String, u32)> = Vec::new();
        for (n, row) in rows.iter().enumerate() {
            let point = HistoryPoint { number: n as u32 + 1, rating: row.rating_after, deviation: row.deviation_after };
            match families.iter_mut().find(|f| f.family == row.family) {
                Some(f) => f.points.push(point),
                None => families.push(FamilyHistory { family: row.family.clone(), points: vec![point] }),
            }
            match variants.iter_mut().find(|(v, _)| *v == row.variant) {
                Some((_, count)) => *count += 1,
                None => variants.push((row.variant.clone(), 1)),
            }
        }
        families.sort_by_key(|f| std::cmp::Reverse(f.points.len()));
        variants.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
        Ok(RatingHistory { families, variants })
    }

    /// Each leaderboard entry's last `points` ratings in the board's family and scope, oldest
    /// first, for sparklines.
    pub async fn rating_trends(&self, board: &Leaderboard, points: usize) -> Result<Vec<Vec<f64>>, HostError> {
        let mut tx = self.db.begin_read().await?;
        let mut trends = Vec::with_capacity(board.entries.len());
        for entry in &board.entries {
            let rows = store::rating_changes::history(
                &mut tx,
                entry.user.id,
                board.scope.id(),
                Some(&board.family),
                points.clamp(1, MAX_HISTORY) as i64,
            )
            .await?;
            trends.push(rows.iter().map(|r| r.rating_after).collect());
        }
        Ok(trends)
    }
}
