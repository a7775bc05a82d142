//! The engine: a computer opponent for every rule set, pure code over the rules (no IO).
//!
//! * [`Searcher::analyse`] searches a game's current position within [`Limits`] (depth, nodes,
//!   milliseconds) and returns an [`Analysis`]: the best move, its score, the principal
//!   variation and what the search cost.
//! * [`Searcher::choose`] plays like a [`Level`]: levels 1 and 2 pick among reasonable moves by
//!   softmax over their scores (a beginner's mistakes), levels 3 to 5 play the best move found
//!   within their budget.
//! * [`evaluate`] scores a position without searching, e.g. for a per-ply graph.
//!
//! # Scores
//!
//! Scores are points from the view of the **side to move**, where one attacker is worth 100
//! (a defender is worth more where the defenders start outnumbered: 200 in Copenhagen). A forced
//! win is `WIN - plies` ([`WIN`] is 30,000; anything beyond [`WIN_BOUND`] is forced), a forced
//! loss its negative. Repetition is scored as the preset scores it (draw 0; a loss for the
//! side that repeats, or for the defenders). A draw or the mover's loss is scored already at
//! the first repetition, since a side that can repeat once can repeat again; a win for the
//! mover (the attackers' where the defenders lose by repetition) only at the third occurrence,
//! since until then the other side may step aside.
//!
//! # Determinism
//!
//! With a depth or node budget, the same game and seed give the same move on every machine. A
//! time budget stops wherever the clock says, so only the time is bounded.
//!
//! The only clock read is [`Instant::now`], to stop a search with a time budget (checked every
//! 256 nodes; the search aims at 97% of the budget).

mod eval;
mod search;

use std::time::{Duration, Instant};

use rand_core::Rng;

use crate::board::{Engine as Board, State};
use crate::{Game, Move, Position, Rules, Side};
use search::{Budget, Packed, Searcher as Core, unpack};
pub use search::{Draws, WIN, WIN_BOUND};

/// The most nodes the weak levels (1 and 2) spend scoring the moves at their depth before they
/// score them one ply deep instead (see [`Searcher::choose_within`]): some 2 s on one core, and
/// far above what a game's positions need (level 2 from Sea Battle 15's start: 66,834).
pub const WEAK_NODE_CAP: u64 = 1_000_000;

/// How long a search may run. Every limit given applies; the search stops at the first one
/// reached, except that the first iteration (depth 1 and its quiescence search) always
/// completes, so the move played has at least been searched one ply.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Deepest iteration, in plies (extensions and the quiescence search go beyond it).
    pub depth: Option<u32>,
    /// Nodes searched, quiescence nodes included.
    pub nodes: Option<u64>,
    /// Wall-clock milliseconds.
    pub millis: Option<u64>,
}

impl Limits {
    #[must_use]
    pub fn depth(depth: u32) -> Limits {
        Limits { depth: Some(depth), ..Limits::default() }
    }

    #[must_use]
    pub fn nodes(nodes: u64) -> Limits {
        Limits { nodes: Some(nodes), ..Limits::default() }
    }

    #[must_use]
    pub fn millis(millis: u64) -> Limits {
        Limits { millis: Some(millis), ..Limits::default() }
    }
}

/// A playing strength from 1 (a beginner) to 5 (full strength within 5 seconds).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Level(u8);

/// What a level may spend, and how it chooses (see the README's table).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LevelBudget {
    /// Wall-clock time per move.
    pub millis: u64,
    /// Deepest iteration.
    pub depth: u32,
    /// The node budget that stands for `millis` where a reproducible run is wanted (engine
    /// matches): about what one core searches in that time.
    pub nodes: u64,
    /// Levels that make mistakes: softmax temperature and the margin (in points below the best
    /// move) within which a move is still "reasonable".
    pub softmax: Option<(f64, i32)>,
}

impl Level {
    pub const MIN: u8 = 1;
    pub const MAX: u8 = 5;

    /// The level `n`, if it is 1 to 5.
    #[must_use]
    pub fn new(n: u8) -> Option<Level> {
        (Level::MIN..=Level::MAX).contains(&n).then_some(Level(n))
    }

    #[must_use]
    pub fn number(self) -> u8 {
        self.0
    }

    #[must_use]
    pub fn budget(self) -> LevelBudget {
        match self.0 {
            1 => LevelBudget { millis: 100, depth: 1, nodes: 20_000, softmax: Some((70.0, 200)) },
            2 => LevelBudget { millis: 300, depth: 2, nodes: 60_000, softmax: Some((25.0, 80)) },
            3 => LevelBudget { millis: 500, depth: 3, nodes: 100_000, softmax: None },
            4 => LevelBudget { millis: 1_500, depth: 6, nodes: 300_000, softmax: None },
            _ => LevelBudget { millis: 4_500, depth: 64, nodes: 900_000, softmax: None },
        }
    }

    /// The level's wall-clock limits.
    #[must_use]
    pub fn limits(self) -> Limits {
        let b = self.budget();
        Limits { depth: Some(b.depth), nodes: None, millis: Some(b.millis) }
    }

    /// The level's reproducible limits: its node budget instead of its time.
    #[must_use]
    pub fn node_limits(self) -> Limits {
        let b = self.budget();
        Limits { depth: Some(b.depth), nodes: Some(b.nodes), millis: None }
    }
}

impl std::fmt::Display for Level {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "level {}", self.0)
    }
}

/// The result of a search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Analysis {
    /// The move chosen.
    pub best: Move,
    /// The search's score of the position for the side to move (see the module docs), or for
    /// the softmax levels the chosen move's own score.
    pub score: i32,
    /// The deepest iteration completed.
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
    /// The expected line of play, starting with a best move.
    pub pv: Vec<Move>,
}

/// An engine instance: its transposition table and move-ordering memory. One per concurrent
/// search; keeping one per game lets each search reuse what the previous one learned.
#[derive(Debug)]
pub struct Searcher {
    core: Core,
    /// The rules of the last search. The table's entries are keyed by the pieces and the side
    /// to move alone, so a search under other rules (Copenhagen and Fetlar share a start) clears
    /// it first: a pool thread's searcher serves games of every variant in turn.
    rules: Option<Rules>,
}

impl Default for Searcher {
    fn default() -> Self {
        Searcher::new()
    }
}

/// The default table: 2^18 entries of 24 bytes, 6 MB.
const TABLE_BITS: u32 = 18;

impl Searcher {
    #[must_use]
    pub fn new() -> Searcher {
        Searcher::with_table_bits(TABLE_BITS)
    }

    /// A searcher with a table of `2^bits` entries (24 bytes each), `bits` within 10 to 26.
    #[must_use]
    pub fn with_table_bits(bits: u32) -> Searcher {
        Searcher { core: Core::new(bits.clamp(10, 26)), rules: None }
    }

    /// Clears what the last search learned when it was under other rules than `rules`.
    fn prepare(&mut self, rules: &Rules) {
        if self.rules.as_ref() != Some(rules) {
            self.core.clear_table();
            self.rules = Some(rules.clone());
        }
    }

    /// The same searcher, scoring a drawn repetition as `draws` says (by default
    /// [`Draws::Contempt`], as a player).
    #[must_use]
    pub fn with_draws(mut self, draws: Draws) -> Searcher {
        self.core.set_draws(draws);
        self
    }

    /// Searches the game's position for the side to move. `None` if the game is over.
    pub fn analyse(&mut self, game: &Game, limits: &Limits) -> Option<Analysis> {
        self.analyse_excluding(game, limits, &[])
    }

    /// [`Searcher::analyse`], choosing among the legal moves not in `excluded` (moves a host
    /// refused, say). `None` if the game is over or every legal move is excluded.
    pub fn analyse_excluding(&mut self, game: &Game, limits: &Limits, excluded: &[Move]) -> Option<Analysis> {
        if !game.status().is_ongoing() {
            return None;
        }
        let start = Instant::now();
        let (history, reversible_from) = history(game);
        let position = game.position();
        self.prepare(position.rules());
        let board = position.engine();
        let tables = eval::Tables::new(board);
        let budget = Budget {
            depth: limits.depth.unwrap_or(search::MAX_PLY as u32),
            nodes: limits.nodes.unwrap_or(u64::MAX),
            // The last few percent are left for unwinding the search and answering. A budget too
            // large to be a moment (years) is no deadline at all.
            deadline: limits
                .millis
                .and_then(|ms| start.checked_add(Duration::from_millis(ms.saturating_mul(97) / 100))),
            soft_deadline: limits
                .millis
                .and_then(|ms| start.checked_add(Duration::from_millis(ms.saturating_mul(2) / 5))),
        };
        let excluded: Vec<Packed> = excluded.iter().map(|&mv| to_packed(board, mv)).collect();
        let result =
            self.core.search(board, &tables, position.state(), &history, reversible_from, budget, &excluded)?;
        Some(Analysis {
            best: to_move(board, result.best),
            score: result.score,
            depth: result.depth,
            nodes: result.nodes,
            pv: result.pv.iter().map(|&m| to_move(board, m)).collect(),
        })
    }

    /// The move `level` plays, within its time. `None` if the game is over.
    ///
    /// `seed` is one per game: the game's ply is mixed in here, so that each of its moves draws
    /// afresh. A caller that mixes in the ply itself cancels that out (the same draw at every
    /// move).
    pub fn choose(&mut self, game: &Game, level: Level, seed: u64) -> Option<Analysis> {
        self.choose_within(game, level, &level.limits(), seed)
    }

    /// The move `level` plays, with its choice rule but the given limits (e.g.
    /// [`Level::node_limits`] for reproducible matches).
    ///
    /// Levels 1 and 2 take only the depth from `limits` (at most 3): they score every root move
    /// with a full-window search to that depth and draw from those scores. Neither their time
    /// nor their node budget stops that search; only, where it would pass [`WEAK_NODE_CAP`]
    /// nodes (positions full of captures on the large boards, where level 2 took up to 4.8 s),
    /// the moves are scored one ply deep instead. `nodes` counts all of it.
    pub fn choose_within(&mut self, game: &Game, level: Level, limits: &Limits, seed: u64) -> Option<Analysis> {
        self.choose_capped(game, level, limits, seed, WEAK_NODE_CAP)
    }

    /// [`Searcher::choose_within`], with the weak levels' scoring capped at `cap` nodes.
    fn choose_capped(&mut self, game: &Game, level: Level, limits: &Limits, seed: u64, cap: u64) -> Option<Analysis> {
        let Some((temperature, margin)) = level.budget().softmax else {
            return self.analyse(game, limits);
        };
        if !game.status().is_ongoing() {
            return None;
        }
        let (history, reversible_from) = history(game);
        let position = game.position();
        self.prepare(position.rules());
        // The root moves are scored through the table, and ordered (which decides what is
        // pruned) by the killers and history: what an earlier search (another game's, on a pool
        // thread that keeps its searcher) left there changed the scores, and with them the draw,
        // so the same turn after a restart did not play the same move.
        self.core.forget();
        let board = position.engine();
        let tables = eval::Tables::new(board);
        let mut depth = limits.depth.unwrap_or(level.budget().depth).clamp(1, 3);
        let state = position.state();
        // One ply deep is the fallback itself: it is never capped.
        let cap = if depth > 1 { cap } else { u64::MAX };
        let (mut scored, mut nodes) =
            self.core.score_root_moves(board, &tables, state, &history, reversible_from, depth, cap);
        if scored.is_none() {
            // Deterministic, as the cap counts nodes: the same position falls back alike.
            depth = 1;
            let (shallow, more) =
                self.core.score_root_moves(board, &tables, state, &history, reversible_from, depth, u64::MAX);
            (scored, nodes) = (shallow, nodes + more);
        }
        let scored = scored?;
        let &(_, best) = scored.first()?;
        let pick = if best >= WIN_BOUND {
            scored[0]
        } else {
            let reasonable: Vec<(Packed, i32)> = scored.iter().copied().filter(|&(_, s)| s >= best - margin).collect();
            let weights: Vec<f64> =
                reasonable.iter().map(|&(_, s)| (f64::from(s - best) / temperature).exp()).collect();
            let total: f64 = weights.iter().sum();
            let mut rng = search::rng(seed ^ game.ply() as u64);
            let mut x = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64 * total;
            let mut chosen = reasonable[0];
            for (candidate, w) in reasonable.iter().zip(&weights) {
                chosen = *candidate;
                if x < *w {
                    break;
                }
                x -= w;
            }
            chosen
        };
        let mv = to_move(board, pick.0);
        Some(Analysis { best: mv, score: pick.1, depth, nodes, pv: vec![mv] })
    }
}

/// The static evaluation of a position, from the view of the side to move (see the module
/// docs for the unit).
#[must_use]
pub fn evaluate(position: &Position) -> i32 {
    let board = position.engine();
    eval::evaluate(board, &eval::Tables::new(board), position.state())
}

/// The static evaluation from the attackers' view: positive favours the attackers whoever is
/// to move (the natural axis of a per-ply graph).
#[must_use]
pub fn evaluate_for_attackers(position: &Position) -> i32 {
    let board = position.engine();
    eval::for_attackers(board, &eval::Tables::new(board), position.state())
}

/// A score for `side` from a score for the side to move of `position`.
#[must_use]
pub fn score_for(position: &Position, side: Side, score: i32) -> i32 {
    if position.to_move() == side { score } else { -score }
}

/// What a one-ply greedy player counts when it compares the positions its moves lead to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Greed {
    /// The engine's static evaluation (king's lines, material, mobility…): the player the levels
    /// are measured against.
    Evaluation,
    /// Men only, a defender weighed as the evaluation weighs him: the textbook greedy player, who
    /// takes whatever he can and otherwise moves at random.
    Material,
}

/// A one-ply greedy player: it wins at once when it can, otherwise plays the move whose
/// resulting position is best for it by `greed` (no search), ties broken by `seed`. `None` if
/// the game is over.
#[must_use]
pub fn greedy(game: &Game, greed: Greed, seed: u64) -> Option<Move> {
    if !game.status().is_ongoing() {
        return None;
    }
    let position = game.position();
    let board = position.engine();
    let tables = eval::Tables::new(board);
    let mover = position.to_move();
    let mut rng = search::rng(seed ^ game.ply() as u64);
    let mut best: Option<(i64, Move)> = None;
    board.for_each_move(position.state(), |from, to| {
        let mut child: State = *position.state();
        let status = board.apply(&mut child, from, to, |_| {});
        let value = match status {
            crate::Status::Finished(outcome) if outcome.winner == Some(mover) => i64::from(WIN),
            crate::Status::Finished(outcome) if outcome.winner.is_none() => 0,
            crate::Status::Finished(_) => -i64::from(WIN),
            crate::Status::Ongoing => -i64::from(match greed {
                Greed::Evaluation => eval::evaluate(board, &tables, &child),
                Greed::Material => eval::material(board, &tables, &child),
            }),
        };
        // Ties are broken at random, but reproducibly: low bits of the key are noise.
        let key = value * 1024 + (rng.next_u64() % 1024) as i64;
        if best.is_none_or(|(k, _)| key > k) {
            best = Some((key, to_move(board, search::pack(from, to))));
        }
    });
    best.map(|(_, mv)| mv)
}

fn to_move(board: &Board, m: Packed) -> Move {
    let (from, to) = unpack(m);
    Move::new(board.square(from), board.square(to))
}

fn to_packed(board: &Board, mv: Move) -> Packed {
    search::pack(board.index(mv.from), board.index(mv.to))
}

/// The Zobrist hashes of the game's positions before the current one, and the index of the
/// first that can still recur (none before the last capture can).
fn history(game: &Game) -> (Vec<u64>, usize) {
    let mut position = game.start().clone();
    let mut hashes = Vec::with_capacity(game.ply() + 1);
    let mut reversible_from = 0;
    for played in game.moves() {
        hashes.push(search::hash(position.engine(), position.state()));
        position.play_unchecked(played.mv);
        if !played.captures.is_empty() {
            reversible_from = hashes.len();
        }
    }
    (hashes, reversible_from)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Variant;

    /// Level 2 scores Sea Battle 15's start two plies deep in some 66,834 nodes: under a cap of
    /// 1,000 it scores it one ply deep instead, the same way every time, and counts the nodes of
    /// both.
    #[test]
    fn a_weak_levels_scoring_past_its_cap_falls_back_to_one_ply() {
        let game = Game::new(Position::new(Variant::SeaBattle15.rules()).expect("a preset's start"));
        let level = Level::new(2).expect("a level");
        let limits = level.node_limits();
        let full = Searcher::new().choose_capped(&game, level, &limits, 7, u64::MAX).expect("a move");
        assert_eq!(full.depth, 2);
        assert!(full.nodes > 1_000, "{full:?}");
        let capped = Searcher::new().choose_capped(&game, level, &limits, 7, 1_000).expect("a move");
        assert_eq!(capped.depth, 1, "{capped:?}");
        assert!(game.position().legal_moves().contains(&capped.best), "{capped:?}");
        let one_ply = Searcher::new().choose_capped(&game, level, &Limits::depth(1), 7, u64::MAX).expect("a move");
        assert!(capped.nodes >= one_ply.nodes + 1_000, "both searches counted: {capped:?} {one_ply:?}");
        let again = Searcher::new().choose_capped(&game, level, &limits, 7, 1_000).expect("a move");
        assert_eq!((again.best, again.nodes), (capped.best, capped.nodes), "deterministic");
        // One ply deep is never capped: level 1 under the same cap scores once, as uncapped.
        let level_one = Level::new(1).expect("a level");
        let under_cap = Searcher::new().choose_capped(&game, level_one, &Limits::default(), 7, 10).expect("a move");
        assert_eq!((under_cap.depth, under_cap.nodes), (1, one_ply.nodes));
    }
}
