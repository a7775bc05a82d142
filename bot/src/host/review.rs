//! The post-game review: after a hosted game ends, the engine evaluates the position before and
//! after every ply and names the game's turning point, the ply where the evaluation swung most
//! against the side that moved, with the move the engine would have played instead.
//!
//! A review is asked for in the transaction that ends the game (a `pending` row, see
//! `migrations/0009_reviews.sql`), so a crash or restart never forgets one: [`run`] looks for
//! pending reviews at start-up and every few seconds after. Its searches run on the bot's
//! [`SearchPool`] (its own threads, at a lower priority than the rest of the process), one
//! position per job at [`Priority::Review`]: a bot move waiting for a thread always goes before
//! the review's next position, so reviews only take time the bot's moves leave. The review's own
//! searcher travels with its jobs from position to position, so what one search learned helps
//! the next and the review is the same whatever else the pool runs. The finding is written
//! with an outbox item ([`Show::Review`]) in one transaction, and the front end edits the game's
//! summary to show it: the turning point in words and the evaluation chart on the card.

use std::time::{Duration, Instant};

use tafl_rules::engine::{self, Draws, Limits, Searcher, WIN_BOUND};
use tafl_rules::{Game, Move, Side, Status};

use super::outbox::{self, Show};
use super::search_pool::{Priority, SearchPool};
use super::{GameId, Host, HostError};
use crate::store;

/// What each position's search may spend: a node budget (so a review is the same on every
/// machine and every run) and a depth cap. Measured (`cargo bench -p tafl-bot --bench review`,
/// dev profile, engine at opt-level 3, machine under a load of 12): 8 ms per position in
/// Brandubh, 54-72 ms in Copenhagen, so a 200-ply Copenhagen game takes about 11 s.
pub const PLY_LIMITS: Limits = Limits { depth: Some(6), nodes: Some(12_000), millis: None };

/// Scores are clamped to this many points (40 attackers) on the chart and in swings, so that a
/// forced win found at one ply and not the next does not dwarf every other swing.
pub const SCORE_CAP: i32 = 4_000;

/// The card's chart shows at most this many points (ten attackers) either way. Its scale follows
/// the largest value, and a forced result at [`SCORE_CAP`] (40 attackers) flattened every
/// ordinary score of the game (within five attackers or so) to a line at zero; a forced result
/// is drawn at the edge instead.
pub const CHART_CAP: i32 = 1_000;

/// A swing smaller than this (a fifth of an attacker) is search noise, not a turning point.
pub const MIN_SWING: i32 = 20;

/// A failed review (the search panicked, or the game cannot be rebuilt) is tried this often.
const MAX_ATTEMPTS: i64 = 3;

/// How often the review loop looks for games that ended (a cheap indexed read): a summary is
/// edited within seconds of its game's end.
pub const LOOK_INTERVAL: Duration = Duration::from_secs(3);

/// How many pending reviews one look takes on.
const BATCH: i64 = 20;

/// How long the review of a game in a server on another process's shards waits for that
/// process before this one reviews it too (its own may be down). Every process used to review
/// every game, all but one of them for nothing; a review waits behind the others of its
/// process, and nobody waits for it, so the grace is long.
///
/// It is also how long the claim of the process that takes such a review over lasts
/// ([`Host::review_game`]), renewed as the review goes on once half of it has passed: a review
/// takes seconds to minutes (its positions wait behind the bot's moves), so most are never
/// renewed, a long one is not lost half-way, and if its process dies the review waits one
/// grace more, as it did for its own process.
pub const FOREIGN_REVIEW_GRACE: Duration = Duration::from_mins(10);

/// The ply where the game turned.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TurningPoint {
    /// The ply, from 1.
    pub ply: usize,
    /// The side that made the move.
    pub side: Side,
    /// The move played and the engine's better move, in OTN (`e1-e3`).
    pub played: String,
    pub better: String,
    /// What the move cost, in points from the mover's view (one attacker is 100).
    pub swing: i32,
}

/// The review of a finished game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Review {
    /// The evaluation of each position from the start (index 0) to the final one, in points from
    /// the attackers' view, clamped to [`SCORE_CAP`].
    pub evaluation: Vec<i32>,
    /// `None` when no move lost ground the engine could have kept.
    pub turning_point: Option<TurningPoint>,
}

/// Where a game's review stands, as a summary shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReviewState {
    /// Asked for and not yet done: the summary says it is coming.
    Pending,
    Done(Review),
}

/// Reviews `game` from its start on the calling thread: one search per position within
/// `limits`. Pure CPU work (tests and benchmarks); the host reviews through the search pool
/// with a [`Reviewing`] per game.
#[must_use]
pub fn review(game: &Game, limits: &Limits) -> Review {
    let mut reviewing = Reviewing::new(game.clone());
    while reviewing.step(limits) {}
    reviewing.finish()
}

/// A review under way: the game, the position to search next, and each position's result. It
/// is moved to a search thread for each position ([`Reviewing::step`]) and back.
///
/// Every position is searched twice, first from the start to the end of the game and then back
/// from the end to the start, and the second pass's results are the review: the table then
/// carries what the searches of the later positions found into the search of each one before
/// them, as analysis programs review a game backwards. Searched once from the start, a small
/// search scores a move by what it sees within its horizon and learns one ply later that the
/// move lost by force; the review then named the move before it, the one that allowed the
/// blunder, as the turning point. The forward pass fills the table for the backward one (a
/// backward pass alone, measured on the same games, named more moves that lost nothing).
#[derive(Debug)]
pub struct Reviewing {
    game: Game,
    /// The position to search next: the game up to it. Its moves are the game's own, up to the
    /// first that is not legal (a record that is not stops there).
    replay: Game,
    /// How many moves of the game are legal: the last position is the replay after them.
    legal: usize,
    pass: Pass,
    /// A smaller table than a playing engine's: each search is small. Kept across positions
    /// and passes, so it scores drawn repetitions 0 for both sides ([`Draws::Zero`]): a
    /// player's contempt, which differs by side, would clear it at every position.
    searcher: Searcher,
    /// Per position from the start (filled by the backward pass): the score for the side to
    /// move (clamped), the engine's move there, and the score from the attackers' view.
    scores: Vec<i32>,
    best: Vec<Option<Move>>,
    evaluation: Vec<i32>,
}

/// Which way a review is going through the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Pass {
    /// From the start to the end: filling the table.
    Forward,
    /// From the end to the start: the review's results.
    Backward,
    Done,
}

impl Reviewing {
    #[must_use]
    pub fn new(game: Game) -> Reviewing {
        let mut trial = Game::new(game.start().clone());
        // The game's own moves were legal when played; a record that is not stops here.
        let legal = game.moves().iter().take_while(|played| trial.play(played.mv).is_ok()).count();
        Reviewing {
            replay: Game::new(game.start().clone()),
            game,
            legal,
            pass: Pass::Forward,
            searcher: Searcher::with_table_bits(16).with_draws(Draws::Zero),
            scores: vec![0; legal + 1],
            best: vec![None; legal + 1],
            evaluation: vec![0; legal + 1],
        }
    }

    /// Searches the next position within `limits` and moves on; `false` once every position is
    /// searched on both passes (then nothing more is done).
    pub fn step(&mut self, limits: &Limits) -> bool {
        if self.pass == Pass::Done {
            return false;
        }
        let ply = self.replay.ply();
        let position = self.replay.position();
        let (score, mv) = match self.replay.status() {
            Status::Ongoing => match self.searcher.analyse(&self.replay, limits) {
                Some(analysis) => (clamp(analysis.score), Some(analysis.best)),
                None => (0, None),
            },
            // The game ended here: a win for whoever won, from the view of the side to move.
            Status::Finished(outcome) => match outcome.winner {
                Some(winner) if winner == position.to_move() => (SCORE_CAP, None),
                Some(_) => (-SCORE_CAP, None),
                None => (0, None),
            },
        };
        match self.pass {
            Pass::Forward if ply < self.legal => {
                let next = self.game.moves()[ply].mv;
                self.replay.play(next).expect("the legal moves were counted by playing them");
            }
            // The end: the backward pass starts here, with this position again.
            Pass::Forward => self.pass = Pass::Backward,
            Pass::Backward => {
                self.evaluation[ply] = engine::score_for(position, Side::Attackers, score);
                self.scores[ply] = score;
                self.best[ply] = mv;
                // A takeback replays the game from its start, so the backward pass replays
                // quadratically many moves; each costs far less than one search (the benchmark's
                // 200-ply figure includes them).
                if self.replay.take_back().is_none() {
                    self.pass = Pass::Done;
                }
            }
            Pass::Done => unreachable!("returned above"),
        }
        self.pass != Pass::Done
    }

    /// The review of the positions searched.
    #[must_use]
    pub fn finish(self) -> Review {
        let turning_point = turning_point(&self.game, &self.scores, &self.best);
        Review { evaluation: self.evaluation, turning_point }
    }
}

/// The ply whose move lost the most against what the engine would have played: the mover's
/// score before it minus the mover's score after it, among moves other than the engine's own;
/// the earliest of equal swings. `scores[i]` is for the side to move at position `i`.
fn turning_point(game: &Game, scores: &[i32], best: &[Option<Move>]) -> Option<TurningPoint> {
    let mut found: Option<TurningPoint> = None;
    let mut side = game.start().to_move();
    for (i, played) in game.moves().iter().enumerate() {
        let (Some(&before), Some(&after), Some(Some(better))) = (scores.get(i), scores.get(i + 1), best.get(i)) else {
            break;
        };
        // After the move the opponent is to move: the mover's view is the negation.
        let swing = before.saturating_add(after);
        if *better != played.mv && swing >= MIN_SWING && found.as_ref().is_none_or(|f| swing > f.swing) {
            found = Some(TurningPoint {
                ply: i + 1,
                side,
                played: played.mv.to_string(),
                better: better.to_string(),
                swing,
            });
        }
        side = side.opponent();
    }
    found
}

fn clamp(score: i32) -> i32 {
    // A forced win (beyond WIN_BOUND) counts as the cap, whatever its distance.
    if score >= WIN_BOUND {
        SCORE_CAP
    } else if score <= -WIN_BOUND {
        -SCORE_CAP
    } else {
        score.clamp(-SCORE_CAP, SCORE_CAP)
    }
}

impl Host {
    /// The games whose review is pending, oldest first; with shards ([`Host::with_shards`]),
    /// those of this process's servers and any asked for more than [`FOREIGN_REVIEW_GRACE`] ago
    /// that no other process has taken over (see [`Host::review_game`]).
    pub async fn pending_reviews(&self) -> Result<Vec<GameId>, HostError> {
        let grace = i64::try_from(FOREIGN_REVIEW_GRACE.as_secs()).unwrap_or(i64::MAX);
        let now = now();
        let served = self.shards.map(|shards| (shards, now.saturating_sub(grace)));
        let mut tx = self.db.begin_read().await?;
        Ok(store::reviews::pending(&mut tx, BATCH, served, (&self.process, now)).await?)
    }

    /// Claims the review of `game`, a game of another process's shards, for this process until
    /// [`FOREIGN_REVIEW_GRACE`] after `now` (or renews its claim): false when another process
    /// holds it or the review is no longer pending.
    async fn take_review(&self, game: GameId, now: i64) -> Result<bool, HostError> {
        let until = now.saturating_add(i64::try_from(FOREIGN_REVIEW_GRACE.as_secs()).unwrap_or(i64::MAX));
        transaction!(self.db.begin_write(), |tx| {
            Ok(store::reviews::take(&mut tx, game, &self.process, until, now).await?)
        })
    }

    /// Reviews one game whose review is pending, within [`PLY_LIMITS`] per position, on `pool`
    /// at [`Priority::Review`], and records the finding with the outbox item that edits its
    /// summary. Returns the review, or `None` when there was nothing to do (not pending, already
    /// done by another process, or being reviewed by another).
    ///
    /// With shards ([`Host::with_shards`]), the review of a game of another process's servers is
    /// claimed first, at `now`, and left alone when another process holds it; the claim is
    /// renewed as the review goes on (see [`FOREIGN_REVIEW_GRACE`]) and ends when the finding
    /// or a failed try is recorded. The reviews of this process's own servers, and every review
    /// of a process without shards, take no claim.
    pub async fn review_game(&self, game: GameId, pool: &SearchPool, now: i64) -> Result<Option<Review>, HostError> {
        let foreign = {
            let mut tx = self.db.begin_read().await?;
            match store::reviews::find(&mut tx, game).await? {
                Some(row) if row.state == "pending" => {}
                _ => return Ok(None),
            }
            match self.shards {
                Some(shards) => !shards.serves(store::games::guild(&mut tx, game).await?.unwrap_or(0)),
                None => false,
            }
        };
        let mut hold = None;
        if foreign {
            if !self.take_review(game, now).await? {
                tracing::debug!(game, "another process reviews this game");
                return Ok(None);
            }
            tracing::info!(game, "took over the review of a game of another process's shards");
            hold = Some(Hold { host: self, game, now, started: Instant::now(), renewed: Duration::ZERO });
        }
        let record = match self.history(game).await {
            Ok((_, record)) => record,
            // The database could not answer for a moment (busy, a lost connection): nothing is
            // wrong with the game, and the review loop tries again later. Counted, three such
            // moments gave the review up for good and took its line off the summary.
            Err(error @ HostError::Storage(_)) => return Err(error),
            Err(error) => {
                self.review_failed(game, &error.to_string(), now).await?;
                return Err(error);
            }
        };
        let found = match review_on(pool, game, record, hold.as_mut()).await {
            Ok(found) => found,
            Err(Stopped::Lost) => {
                tracing::info!(game, "another process took this review over; it is left to that one");
                return Ok(None);
            }
            Err(Stopped::SearchFailed) => {
                self.review_failed(game, "the search failed", now).await?;
                return Err(HostError::Internal);
            }
        };
        let evaluation = serde_json::to_string(&found.evaluation).map_err(|_| HostError::Internal)?;
        let turning = found.turning_point.as_ref();
        let finding = store::reviews::Finding {
            evaluation: &evaluation,
            turning_ply: turning.map(|t| t.ply as i64),
            swing: turning.map(|t| i64::from(t.swing)),
            played: turning.map(|t| t.played.as_str()),
            better: turning.map(|t| t.better.as_str()),
        };
        // Retried on a conflict like every write: a lost write would cost the whole review again.
        let recorded = transaction!(self.db.begin_write(), |tx| {
            if !store::reviews::finish(&mut tx, game, &finding, now).await? {
                return Ok(false);
            }
            outbox::record(&mut tx, &Show::Review { game }, now).await?;
            Ok(true)
        })?;
        if !recorded {
            return Ok(None);
        }
        tracing::info!(game, turning_ply = ?turning.map(|t| t.ply), "game reviewed");
        Ok(Some(found))
    }

    async fn review_failed(&self, game: GameId, error: &str, now: i64) -> Result<(), HostError> {
        let given_up = transaction!(self.db.begin_write(), |tx| {
            let Some(attempts) = store::reviews::failed(&mut tx, game, error, MAX_ATTEMPTS, now).await? else {
                // No longer pending: another process recorded it meanwhile.
                return Ok(false);
            };
            let given_up = attempts >= MAX_ATTEMPTS;
            if given_up {
                // The summary was posted saying the review runs: it is drawn again without that
                // line, or it would say so for ever.
                outbox::record(&mut tx, &Show::Review { game }, now).await?;
            }
            Ok(given_up)
        })?;
        if given_up {
            tracing::warn!(game, error, "a game's review was given up");
        }
        Ok(())
    }

    /// The message the summary of a game was posted as, to edit when its review is done.
    pub async fn summary_message(&self, game: GameId) -> Result<Option<i64>, HostError> {
        let mut tx = self.db.begin_read().await?;
        Ok(store::reviews::summary_message(&mut tx, game).await?)
    }
}

/// The claim of a review of another process's game, renewed as the review goes on.
struct Hold<'a> {
    host: &'a Host,
    game: GameId,
    /// When it was taken, on the caller's clock, and on the machine's.
    now: i64,
    started: Instant,
    /// How long after `started` it was last renewed.
    renewed: Duration,
}

impl Hold<'_> {
    /// Renews the claim once half of it has passed since it was taken or last renewed; false
    /// when another process has taken the review over meanwhile (this one's claim ran out while
    /// its positions waited). A renewal the database cannot answer keeps the review going: the
    /// claim still runs, and the next position tries again.
    async fn keep(&mut self) -> bool {
        let elapsed = self.started.elapsed();
        if elapsed < self.renewed + FOREIGN_REVIEW_GRACE / 2 {
            return true;
        }
        let now = self.now.saturating_add(i64::try_from(elapsed.as_secs()).unwrap_or(i64::MAX));
        match self.host.take_review(self.game, now).await {
            Ok(kept) => {
                self.renewed = elapsed;
                kept
            }
            Err(error) => {
                tracing::warn!(game = self.game, %error, "a review's claim could not be renewed; trying again");
                true
            }
        }
    }
}

/// Why [`review_on`] stopped without a review.
enum Stopped {
    /// A search failed.
    SearchFailed,
    /// Another process took the review over ([`Hold::keep`]).
    Lost,
}

/// Reviews `record` on `pool`, one position per job at [`Priority::Review`] keyed by the game
/// (older games first), keeping `hold` (a review of another process's game) between positions.
async fn review_on(
    pool: &SearchPool,
    game: GameId,
    record: Game,
    mut hold: Option<&mut Hold<'_>>,
) -> Result<Review, Stopped> {
    let mut reviewing = Box::new(Reviewing::new(record));
    loop {
        let step = pool.run(Priority::Review, game, move |_: &mut Searcher| {
            let more = reviewing.step(&PLY_LIMITS);
            (reviewing, more)
        });
        match step.await {
            Ok((back, true)) => reviewing = back,
            Ok((back, false)) => return Ok(back.finish()),
            Err(error) => {
                tracing::error!(game, %error, "a review's search failed");
                return Err(Stopped::SearchFailed);
            }
        }
        if let Some(hold) = hold.as_deref_mut()
            && !hold.keep().await
        {
            return Err(Stopped::Lost);
        }
    }
}

/// Where a stored review stands, for a game whose start has `start` to move; `None` for a review
/// that failed (the summary then says nothing of it).
pub(super) fn state_of(row: &store::reviews::ReviewRow, start: Side) -> Option<ReviewState> {
    match row.state.as_str() {
        "pending" => Some(ReviewState::Pending),
        "done" => Some(ReviewState::Done(from_row(row).with_start(start))),
        _ => None,
    }
}

fn from_row(row: &store::reviews::ReviewRow) -> Review {
    let evaluation = row.evaluation.as_deref().and_then(|e| serde_json::from_str(e).ok()).unwrap_or_default();
    let turning_point = match (row.turning_ply, &row.played, &row.better) {
        (Some(ply), Some(played), Some(better)) if ply > 0 => Some(TurningPoint {
            ply: ply as usize,
            // The mover of a ply alternates from the start's side; the summary knows the start,
            // the row does not, so the side is fixed up by [`Review::with_start`].
            side: if ply % 2 == 1 { Side::Attackers } else { Side::Defenders },
            played: played.clone(),
            better: better.clone(),
            swing: row.swing.unwrap_or(0) as i32,
        }),
        _ => None,
    };
    Review { evaluation, turning_point }
}

impl Review {
    /// The review with its turning point's side counted from `start`, the side to move at the
    /// game's start (the attackers, except in some imported records).
    #[must_use]
    pub fn with_start(mut self, start: Side) -> Review {
        if let Some(t) = &mut self.turning_point {
            t.side = if t.ply % 2 == 1 { start } else { start.opponent() };
        }
        self
    }

    /// The evaluation as the summary card plots it: in attackers (100 points), attackers'
    /// view, at most [`CHART_CAP`] either way.
    #[must_use]
    pub fn chart(&self) -> Vec<f32> {
        self.evaluation.iter().map(|&p| p.clamp(-CHART_CAP, CHART_CAP) as f32 / 100.0).collect()
    }
}

/// Reviews pending games until aborted: at once (start-up: reviews a restart interrupted), then
/// every `interval`. `reviewed` is called after each review recorded, e.g. to wake the delivery
/// that edits the summary. A failure is logged and the review tried again at a later look.
pub async fn run(host: Host, pool: SearchPool, interval: Duration, reviewed: impl Fn() + Send + Sync + 'static) {
    loop {
        match host.pending_reviews().await {
            Ok(games) => {
                for game in games {
                    match host.review_game(game, &pool, now()).await {
                        Ok(Some(_)) => reviewed(),
                        Ok(None) => {}
                        Err(error) => tracing::warn!(game, %error, "a game could not be reviewed; trying again later"),
                    }
                }
            }
            Err(error) => tracing::warn!(%error, "pending reviews cannot be read; trying again"),
        }
        tokio::time::sleep(interval).await;
    }
}

fn now() -> i64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs() as i64)
}

#[cfg(test)]
mod tests {
    use tafl_rules::{Game, Position, Setup, Side, Status, Variant};

    use super::*;

    /// Historical 7x7 (the king is taken by two attackers away from the throne), attackers to
    /// move: c2-a2 takes the king between a2 and a4, while any other move lets him run from a3
    /// to the corner a1.
    fn threat() -> Game {
        let setup: Setup = "/7/2t4/Kt5/t6/4T2/6t/7/".parse().unwrap();
        Game::new(Position::from_setup(Variant::Historical7.rules(), &setup, Side::Attackers).unwrap())
    }

    /// Whether the side to move can win at once.
    fn wins_at_once(game: &Game) -> bool {
        let mover = game.position().to_move();
        game.position().legal_moves().into_iter().any(|mv| {
            let mut trial = game.clone();
            trial.play(mv).unwrap();
            matches!(trial.status(), Status::Finished(o) if o.winner == Some(mover))
        })
    }

    fn played(mut game: Game, moves: &[&str]) -> Game {
        for mv in moves {
            game.play_text(&mv.parse().unwrap()).unwrap();
        }
        game
    }

    #[test]
    fn the_turning_point_is_the_move_that_missed_the_capture_and_let_the_king_escape() {
        assert!(wins_at_once(&threat()), "the attackers can take the king");
        let game = played(threat(), &["g6-g5", "a3-a1"]);
        assert_eq!(game.status().reason(), Some(tafl_rules::Reason::KingEscaped));
        let review = review(&game, &PLY_LIMITS);
        let turning = review.turning_point.clone().unwrap_or_else(|| panic!("the blunder is found: {review:?}"));
        assert_eq!(turning.ply, 1);
        assert_eq!(turning.side, Side::Attackers);
        assert_eq!((turning.played.as_str(), turning.better.as_str()), ("g6-g5", "c2-a2"));
        assert_eq!(turning.swing, 2 * SCORE_CAP, "a won game thrown away");
        // One value per position, attackers' view: won, then lost, then over.
        assert_eq!(review.evaluation, [SCORE_CAP, -SCORE_CAP, -SCORE_CAP]);
        assert_eq!(review.chart(), [10.0, -10.0, -10.0], "a forced result at the chart's edge");
    }

    #[test]
    fn the_move_that_lost_by_force_is_named_not_the_one_before_it() {
        // Brandubh, played in the console against level 3: after e4-e7 the bot took the man
        // with f6-f7xe7, and the king then wins by force (d4-d6). A review that searched the
        // positions once from the start saw the loss only one ply late, scored f6-f7 its own
        // best move, and named e4-e7, the defenders' good move, as the turning point.
        let start = Game::new(Position::new(Variant::Brandubh.rules()).unwrap());
        let game = played(start, &["d2-e2", "d5-f5", "d6-f6", "e4-e7", "f6-f7"]);
        let review = review(&game, &PLY_LIMITS);
        let turning = review.turning_point.clone().unwrap_or_else(|| panic!("a turning point: {review:?}"));
        assert_eq!((turning.ply, turning.side, turning.played.as_str()), (5, Side::Attackers, "f6-f7"), "{review:?}");
        assert_eq!(review.evaluation.last(), Some(&-SCORE_CAP), "the defenders win by force at the end");
        assert!(review.evaluation[4] > 0, "before f6-f7 the attackers stood well: {review:?}");
    }

    #[test]
    fn a_game_of_best_moves_has_no_turning_point() {
        // The capture at once: the engine's own move.
        let game = played(threat(), &["c2-a2"]);
        assert_eq!(game.status().reason(), Some(tafl_rules::Reason::KingCaptured));
        let review = review(&game, &PLY_LIMITS);
        assert_eq!(review.turning_point, None, "{review:?}");
        assert_eq!(review.evaluation, [SCORE_CAP, SCORE_CAP]);
    }

    #[test]
    fn the_largest_swing_wins_and_equal_swings_go_to_the_earliest() {
        let game = played(threat(), &["g6-g5", "e5-e6", "g5-g6", "e6-e5"]);
        let m = |s: &str| Some(s.parse::<tafl_rules::MoveText>().unwrap().mv);
        // Scores for the side to move at each position, and the engine's moves.
        let scores = [0, 50, 100, -10, 300];
        let best = [m("c2-a2"), m("a3-a1"), m("c2-a2"), m("e6-e7"), None];
        // Ply 1: 0 + 50 = 50; ply 2: 50 + 100 = 150 (e5-e6 is not a3-a1); ply 3: 100 - 10 = 90;
        // ply 4: -10 + 300 = 290 is the largest.
        let t = turning_point(&game, &scores, &best).unwrap();
        assert_eq!((t.ply, t.side, t.swing), (4, Side::Defenders, 290));
        assert_eq!((t.played.as_str(), t.better.as_str()), ("e6-e5", "e6-e7"));
        // The engine's own move is never the turning point, however its score moved.
        let best = [m("c2-a2"), m("a3-a1"), m("c2-a2"), m("e6-e5"), None];
        assert_eq!(turning_point(&game, &scores, &best).unwrap().ply, 2);
        // Equal swings: the earliest.
        let scores = [100, 0, 100, 0, 100];
        assert_eq!(turning_point(&game, &scores, &best).unwrap().ply, 1);
        // Below the noise floor nothing turns.
        let scores = [0, 5, 0, 5, 0];
        assert_eq!(turning_point(&game, &scores, &best), None);
    }

    #[test]
    fn forced_wins_are_clamped_to_the_cap() {
        assert_eq!(clamp(WIN_BOUND + 5), SCORE_CAP);
        assert_eq!(clamp(-WIN_BOUND - 5), -SCORE_CAP);
        assert_eq!(clamp(SCORE_CAP + 1), SCORE_CAP);
        assert_eq!(clamp(-123), -123);
    }

    #[test]
    fn a_stored_review_reads_back_with_its_movers_side_from_the_start() {
        let row = store::reviews::ReviewRow {
            game_id: 1,
            state: "done".into(),
            attempts: 0,
            evaluation: Some("[0,-40,3900]".into()),
            turning_ply: Some(2),
            swing: Some(3940),
            played: Some("d4-d1".into()),
            better: Some("d4-d3".into()),
        };
        let Some(ReviewState::Done(review)) = state_of(&row, Side::Attackers) else { panic!() };
        assert_eq!(review.evaluation, [0, -40, 3900]);
        assert_eq!(review.chart(), [0.0, -0.4, 10.0]);
        let t = review.turning_point.unwrap();
        assert_eq!((t.ply, t.side, t.swing), (2, Side::Defenders, 3940));
        // A record whose defenders moved first: ply 2 was the attackers'.
        let Some(ReviewState::Done(review)) = state_of(&row, Side::Defenders) else { panic!() };
        assert_eq!(review.turning_point.unwrap().side, Side::Attackers);
        assert_eq!(
            state_of(&store::reviews::ReviewRow { state: "pending".into(), ..row.clone() }, Side::Attackers),
            Some(ReviewState::Pending)
        );
        assert_eq!(state_of(&store::reviews::ReviewRow { state: "failed".into(), ..row }, Side::Attackers), None);
    }
}
