//! The search: iterative deepening principal-variation search over one board with make/unmake,
//! a bounded transposition table, move ordering and a quiescence search of captures and king
//! threats.

use std::sync::LazyLock;
use std::time::Instant;

use rand_core::{Rng, SeedableRng};
use rand_xorshift::XorShiftRng;

use super::eval::{self, KingLines, Tables};
use crate::board::{ATTACKER, CELLS, CORNER, EDGE, EMPTY, Engine as Board, KING, State, side_cell, step};
use crate::perft::MAX_CAPTURES;
use crate::rules::Repetition;
use crate::{Outcome, Side, Status};

/// A won game, in plies from the root subtracted, so that quicker wins score higher.
pub const WIN: i32 = 30_000;
/// Scores beyond this are forced wins or losses.
pub const WIN_BOUND: i32 = WIN - 1_000;
const INFINITY: i32 = WIN + 1;
/// The deepest ply the search reaches, extensions and quiescence included.
pub(crate) const MAX_PLY: usize = 96;
/// Quiescence plies beyond the nominal depth.
const MAX_QUIESCENCE: usize = 8;

/// Zobrist keys: one per piece kind and cell, and one for the side to move. Drawn once from a
/// fixed seed so that hashes (and therefore searches) are the same in every run.
struct Keys {
    pieces: [[u64; CELLS]; 4],
    defenders_to_move: u64,
}

static KEYS: LazyLock<Box<Keys>> = LazyLock::new(|| {
    let mut rng = XorShiftRng::seed_from_u64(0x7af1_2026);
    let mut keys = Box::new(Keys { pieces: [[0; CELLS]; 4], defenders_to_move: 0 });
    for kind in &mut keys.pieces {
        for key in kind.iter_mut() {
            *key = rng.next_u64();
        }
    }
    keys.defenders_to_move = rng.next_u64();
    keys
});

/// The full Zobrist hash of a state (searches then update it move by move).
pub(crate) fn hash(b: &Board, s: &State) -> u64 {
    let keys = &**KEYS;
    let mut h = if s.to_move == Side::Defenders { keys.defenders_to_move } else { 0 };
    for &i in &b.interior {
        let c = s.cells[i];
        if c != EMPTY {
            h ^= keys.pieces[usize::from(c)][i];
        }
    }
    h
}

/// A move inside the search: origin and destination cell indices packed in one word.
pub(crate) type Packed = u32;

pub(crate) const fn pack(from: usize, to: usize) -> Packed {
    ((from as u32) << 16) | to as u32
}

pub(crate) const fn unpack(m: Packed) -> (usize, usize) {
    ((m >> 16) as usize, (m & 0xffff) as usize)
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Bound {
    Exact,
    Lower,
    Upper,
}

#[derive(Clone, Copy, Debug)]
struct Entry {
    key: u64,
    best: Packed,
    score: i16,
    depth: i8,
    bound: Bound,
}

/// What the root search learned, in cell indices (the public layer turns them into squares).
#[derive(Clone, Debug)]
pub(crate) struct RootResult {
    pub best: Packed,
    pub score: i32,
    pub depth: u32,
    pub nodes: u64,
    pub pv: Vec<Packed>,
}

/// When to stop.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Budget {
    pub depth: u32,
    pub nodes: u64,
    pub deadline: Option<Instant>,
    /// A new iteration starts only before this instant: the next one would most likely not
    /// finish, and a half-searched iteration is wasted time.
    pub soft_deadline: Option<Instant>,
}

/// The searcher's memory: transposition table, killers, history. Reused between searches of
/// one game (its table then helps the next move), or made afresh.
pub(crate) struct Searcher {
    table: Vec<Option<Entry>>,
    killers: [[Packed; 2]; MAX_PLY],
    history: Vec<i32>,
    /// Per-ply move lists and their ordering scores; kept between nodes so that searching
    /// allocates nothing once they have grown.
    lists: Vec<Vec<Packed>>,
    scores: Vec<Vec<i32>>,
    pv: Vec<Vec<Packed>>,
    /// The previous iteration's best move, searched first at the root (the table's entry for
    /// the root may have been overwritten), or 0.
    root_first: Packed,
    /// That move's score in the current iteration, once its search is complete: an interrupted
    /// iteration returns 0, not this.
    root_first_score: Option<i32>,
    /// How drawn repetitions are scored.
    draws: Draws,
    /// The drawn repetition's score (attackers' view) that the table's entries were searched
    /// with: under [`Draws::Contempt`] it depends on the side searching, so the table is
    /// cleared when it changes (a search thread serves both sides of many games).
    draw: i32,
}

/// How a search scores a repetition that the preset draws.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Draws {
    /// As a player would: for the side searching, no more than nothing and no more than the
    /// even game (see `draw_score`). A drawn repetition then scores the same for every search
    /// of one side.
    #[default]
    Contempt,
    /// As 0, whichever side searches: for scoring both sides' moves with one table, as a
    /// game's review does, each search reading what the last (the other side's) found.
    Zero,
}

impl std::fmt::Debug for Searcher {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Searcher").field("table_entries", &self.table.len()).finish_non_exhaustive()
    }
}

/// One search in progress: the board being searched and the counters.
struct Run<'a> {
    board: &'a Board,
    tables: &'a Tables,
    s: State,
    hash: u64,
    /// Hashes of the game's positions and of the path searched so far, oldest first.
    path: Vec<u64>,
    /// `path` entries before this index cannot recur (a capture came after them).
    irreversible: Vec<usize>,
    /// The game's positions before the root that can still recur, for a lookup.
    before_root: BeforeRoot,
    nodes: u64,
    budget: Budget,
    stopped: bool,
    /// False during the first iteration: a move chosen without even a one-ply search would be
    /// arbitrary, and that iteration is short (a few thousand nodes).
    may_stop: bool,
    /// Root moves the search must not choose.
    excluded: &'a [Packed],
    /// A drawn repetition's score from the attackers' view ([`draw_score`]).
    draw: i32,
}

impl Searcher {
    /// A searcher whose table holds `1 << table_bits` entries (24 bytes each).
    pub(crate) fn new(table_bits: u32) -> Searcher {
        Searcher {
            table: vec![None; 1 << table_bits],
            killers: [[0; 2]; MAX_PLY],
            history: vec![0; CELLS * CELLS],
            lists: (0..MAX_PLY).map(|_| Vec::with_capacity(256)).collect(),
            scores: (0..MAX_PLY).map(|_| Vec::with_capacity(256)).collect(),
            pv: (0..=MAX_PLY).map(|_| Vec::with_capacity(MAX_PLY)).collect(),
            root_first: 0,
            root_first_score: None,
            draws: Draws::Contempt,
            draw: 0,
        }
    }

    /// Forgets every stored position (a search under other rules follows).
    pub(crate) fn clear_table(&mut self) {
        self.table.fill(None);
    }

    /// Forgets everything earlier searches learned (the table, killers and history), so that
    /// the next search is the one a new searcher would make.
    pub(crate) fn forget(&mut self) {
        self.table.fill(None);
        self.killers = [[0; 2]; MAX_PLY];
        self.history.fill(0);
        self.root_first = 0;
        self.root_first_score = None;
    }

    pub(crate) fn set_draws(&mut self, draws: Draws) {
        self.draws = draws;
    }

    /// Prepares a search by `root`: the drawn repetition's score, with the table cleared if
    /// that score changed since the last search.
    fn draw_for(&mut self, board: &Board, tables: &Tables, root: Side) -> i32 {
        let draw = match self.draws {
            Draws::Contempt => draw_score(board, tables, root),
            Draws::Zero => 0,
        };
        if draw != self.draw {
            self.table.fill(None);
            self.draw = draw;
        }
        draw
    }

    /// Searches `s` (whose earlier positions, for repetition, are `history`, with the index
    /// of the first that can still recur) until the budget runs out, choosing among the moves
    /// not `excluded`. `None` when the side to move has no other move.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn search(
        &mut self,
        board: &Board,
        tables: &Tables,
        s: &State,
        history: &[u64],
        reversible_from: usize,
        budget: Budget,
        excluded: &[Packed],
    ) -> Option<RootResult> {
        self.killers = [[0; 2]; MAX_PLY];
        for h in &mut self.history {
            *h /= 8;
        }
        let hash = hash(board, s);
        let draw = self.draw_for(board, tables, s.to_move);
        let mut run = Run {
            board,
            tables,
            s: *s,
            hash,
            path: history.to_vec(),
            irreversible: vec![reversible_from],
            before_root: BeforeRoot::new(history, reversible_from),
            nodes: 0,
            budget,
            stopped: false,
            may_stop: false,
            excluded,
            draw,
        };
        run.path.push(hash);

        let mut root: Vec<Packed> = Vec::new();
        board.for_each_move(s, |from, to| root.push(pack(from, to)));
        root.retain(|m| !excluded.contains(m));
        if root.is_empty() {
            return None;
        }
        // A move that wins at once ends the search.
        for &m in &root {
            let (from, to) = unpack(m);
            let mut child = *s;
            if let Status::Finished(Outcome { winner: Some(w), .. }) = board.apply(&mut child, from, to, |_| {})
                && w == s.to_move
            {
                return Some(RootResult { best: m, score: WIN - 1, depth: 1, nodes: 1, pv: vec![m] });
            }
        }

        let mut best: Option<RootResult> = None;
        let max_depth = budget.depth.clamp(1, (MAX_PLY - MAX_QUIESCENCE - 8) as u32);
        for depth in 1..=max_depth {
            if depth > 1 && budget.soft_deadline.is_some_and(|soft| Instant::now() >= soft) {
                break;
            }
            run.may_stop = depth > 1;
            self.root_first = best.as_ref().map_or(0, |b| b.best);
            self.root_first_score = None;
            let score = self.negamax(&mut run, depth as i32, 0, -INFINITY, INFINITY, true);
            let pv = self.pv[0].clone();
            if run.stopped {
                // Only a complete iteration chooses the move: playing a move that beat the last
                // best before the budget ran out, with the other moves unsearched, lost more
                // games in matches than it won (README, Strength). But the last best move is
                // searched first, and once its search at this depth is complete its score is
                // more exact than the last iteration's (a forced win found one ply deeper).
                // `score` itself is the stop's 0.
                //
                // A forced loss is that move's alone: the other moves, not searched to the end at
                // this depth, may hold, so the position is not known lost, and its score stays
                // the last complete iteration's. (Taken as the position's, a 2,000-node search
                // had level 5 accept a draw in a Copenhagen position it stood better in.) The
                // move stays too: playing instead a move searched to the end after it with a
                // better score did worse in matches (Brandubh, level 5 at its node budget, 200
                // games: three fewer points, none more).
                if let (Some(new_score), Some(prev)) = (self.root_first_score, best.as_mut())
                    && new_score > -WIN_BOUND
                {
                    prev.score = new_score;
                    if pv.first() == Some(&prev.best) {
                        prev.pv = pv;
                    }
                }
                break;
            }
            // A complete iteration without a line: no root move was searched, because every one
            // loses at once (the attackers cannot block all the king's open lines). That loss is
            // the position's score, not the even 0 of "no iteration completed"; any move is as
            // good as another, so the last best (or the first) is played.
            let first = pv.first().copied().unwrap_or_else(|| best.as_ref().map_or(root[0], |b| b.best));
            let pv = if pv.is_empty() { vec![first] } else { pv };
            best = Some(RootResult { best: first, score, depth, nodes: run.nodes, pv });
            if score.abs() >= WIN_BOUND {
                break; // a forced result: deeper search cannot change it
            }
        }
        let mut result =
            best.unwrap_or_else(|| RootResult { best: root[0], score: 0, depth: 0, nodes: 0, pv: vec![root[0]] });
        result.nodes = run.nodes;
        Some(result)
    }

    /// Every root move's score at `depth`, searched with a full window (for the softmax of the
    /// weak levels), best first, and the nodes searched for them; `None` for the scores when
    /// `nodes` ran out first (the nodes are counted all the same).
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn score_root_moves(
        &mut self,
        board: &Board,
        tables: &Tables,
        s: &State,
        history: &[u64],
        reversible_from: usize,
        depth: u32,
        nodes: u64,
    ) -> (Option<Vec<(Packed, i32)>>, u64) {
        let hash = hash(board, s);
        let budget = Budget { depth, nodes, deadline: None, soft_deadline: None };
        let draw = self.draw_for(board, tables, s.to_move);
        let mut run = Run {
            board,
            tables,
            s: *s,
            hash,
            path: history.to_vec(),
            irreversible: vec![reversible_from],
            before_root: BeforeRoot::new(history, reversible_from),
            nodes: 0,
            budget,
            stopped: false,
            may_stop: nodes != u64::MAX,
            excluded: &[],
            draw,
        };
        run.path.push(hash);
        let mut root: Vec<Packed> = Vec::new();
        board.for_each_move(s, |from, to| root.push(pack(from, to)));
        let mut out = Vec::with_capacity(root.len());
        for m in root {
            let score = self.root_move_score(&mut run, m, depth as i32 - 1);
            if run.stopped {
                return (None, run.nodes);
            }
            out.push((m, score));
        }
        out.sort_by_key(|&(m, score)| (std::cmp::Reverse(score), m));
        (Some(out), run.nodes)
    }

    /// Plays the root move `m`, scores it from the mover's view with a full window and `depth`
    /// plies below it, and takes it back.
    fn root_move_score(&mut self, run: &mut Run, m: Packed, depth: i32) -> i32 {
        let (from, to) = unpack(m);
        let undo = run.make(from, to);
        let score = match undo.status {
            Status::Finished(outcome) => terminal(outcome, run.s.to_move.opponent(), 1),
            Status::Ongoing => match run.repetition(undo.captured > 0) {
                Some(score) => score,
                None if depth <= 0 => -self.quiescence(run, 1, -INFINITY, INFINITY, 0),
                // A full window is a principal-variation search. Searched as a null-window node
                // instead, its children's null-window scores above alpha were taken as exact,
                // and level 2 scored a historical-7 move as a forced win it did not have.
                None => -self.negamax(run, depth, 1, -INFINITY, INFINITY, true),
            },
        };
        run.unmake(from, to, &undo);
        score
    }

    fn probe(&self, hash: u64) -> Option<Entry> {
        let e = self.table[(hash as usize) & (self.table.len() - 1)]?;
        (e.key == hash).then_some(e)
    }

    fn store(&mut self, hash: u64, best: Packed, score: i32, depth: i32, bound: Bound, ply: usize) {
        let mask = self.table.len() - 1;
        let slot = &mut self.table[(hash as usize) & mask];
        if let Some(old) = slot
            && old.key == hash
            && i32::from(old.depth) > depth
            && bound != Bound::Exact
        {
            return;
        }
        *slot = Some(Entry {
            key: hash,
            best,
            score: to_table(score, ply) as i16,
            depth: depth.clamp(0, 127) as i8,
            bound,
        });
    }

    #[allow(clippy::too_many_lines, clippy::single_match_else)]
    fn negamax(&mut self, run: &mut Run, depth: i32, ply: usize, mut alpha: i32, beta: i32, pv_node: bool) -> i32 {
        // A node searched with a wider window than the null one must be searched as a principal
        // variation: below one that is not, a null-window score above alpha is taken as exact.
        debug_assert!(pv_node || beta - alpha <= 1, "a window of {alpha}..{beta} searched as a null-window node");
        self.pv[ply].clear();
        if run.tick() {
            return 0;
        }
        if ply >= MAX_PLY - MAX_QUIESCENCE - 2 {
            return eval::evaluate(run.board, run.tables, &run.s);
        }
        // Mate-distance pruning: nothing here can beat a win already found nearer the root.
        let alpha_floor = -(WIN - ply as i32);
        if alpha < alpha_floor {
            alpha = alpha_floor;
            if alpha >= beta {
                return alpha;
            }
        }

        let entry = self.probe(run.hash);
        let mut hash_move = if ply == 0 { self.root_first } else { 0 };
        if let Some(e) = entry {
            if hash_move == 0 {
                hash_move = e.best;
            }
            if !pv_node && i32::from(e.depth) >= depth && ply > 0 {
                let score = from_table(i32::from(e.score), ply);
                let usable = match e.bound {
                    Bound::Exact => true,
                    Bound::Lower => score >= beta,
                    Bound::Upper => score <= alpha,
                };
                if usable {
                    return score;
                }
            }
        }

        let b = run.board;
        let mover = run.s.to_move;
        let threats = eval::king_lines(b, &run.s, false);
        // A defender to move with an open line escapes now. (At the root `search` has played
        // such a move already, unless it was excluded: then the other moves are searched.)
        if mover == Side::Defenders && threats.routes > 0 && ply > 0 {
            return WIN - ply as i32 - 1;
        }

        let mut list = std::mem::take(&mut self.lists[ply]);
        let mut scores = std::mem::take(&mut self.scores[ply]);
        list.clear();
        scores.clear();
        b.for_each_move(&run.s, |from, to| list.push(pack(from, to)));
        if ply == 0 && !run.excluded.is_empty() {
            list.retain(|m| !run.excluded.contains(m));
        }
        // Attackers facing an open line must block it (or take the king): every other move loses.
        if mover == Side::Attackers && threats.routes > 0 {
            list.retain(|&m| blocks_or_captures_king(b, &run.s, &threats, m));
            if list.is_empty() {
                self.lists[ply] = list;
                self.scores[ply] = scores;
                return -(WIN - ply as i32 - 2);
            }
        }
        for &m in &list {
            scores.push(self.order_score(run, m, hash_move, ply));
        }

        let original_alpha = alpha;
        let mut best_score = -INFINITY;
        let mut best_move = 0;
        for index in 0..list.len() {
            // Selection: the best remaining move first (most nodes cut off after a few moves).
            let mut pick = index;
            for j in index + 1..list.len() {
                if scores[j] > scores[pick] {
                    pick = j;
                }
            }
            list.swap(index, pick);
            scores.swap(index, pick);
            let m = list[index];
            let order = scores[index];
            let (from, to) = unpack(m);
            let tactical = order >= CAPTURE_ORDER || run.s.cells[from] == KING;

            // A child that ends the game or repeats a position is scored without a search below
            // it, which would leave an earlier sibling's line here to be copied after this move.
            self.pv[ply + 1].clear();
            let undo = run.make(from, to);
            let score = match undo.status {
                Status::Finished(outcome) => terminal(outcome, mover, ply + 1),
                Status::Ongoing => match run.repetition(undo.captured > 0) {
                    Some(score) => score,
                    None => {
                        let extension = i32::from(ply < 2 * depth as usize + 4 && gives_threat(run, to));
                        let new_depth = depth - 1 + extension;
                        self.search_child(run, new_depth, ply, alpha, beta, pv_node, index, tactical || extension > 0)
                    }
                },
            };
            run.unmake(from, to, &undo);
            if run.stopped {
                self.lists[ply] = list;
                self.scores[ply] = scores;
                return 0;
            }
            if ply == 0 && index == 0 && m == self.root_first {
                self.root_first_score = Some(score);
            }
            if score > best_score {
                best_score = score;
                best_move = m;
                if score > alpha {
                    alpha = score;
                    let (head, tail) = self.pv.split_at_mut(ply + 1);
                    head[ply].clear();
                    head[ply].push(m);
                    head[ply].extend_from_slice(&tail[0]);
                }
            }
            if alpha >= beta {
                if !tactical {
                    if self.killers[ply][0] != m {
                        self.killers[ply][1] = self.killers[ply][0];
                        self.killers[ply][0] = m;
                    }
                    let h = &mut self.history[from * CELLS + to];
                    *h = (*h + depth * depth).min(HISTORY_MAX);
                }
                break;
            }
        }
        self.lists[ply] = list;
        self.scores[ply] = scores;
        let bound = if best_score >= beta {
            Bound::Lower
        } else if alpha > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.store(run.hash, best_move, best_score, depth, bound, ply);
        best_score
    }

    /// Principal-variation search of one child (already made): the first move with the full
    /// window, later ones with a null window (late quiet ones reduced) and re-searched when
    /// they beat alpha.
    #[allow(clippy::too_many_arguments)]
    fn search_child(
        &mut self,
        run: &mut Run,
        depth: i32,
        ply: usize,
        alpha: i32,
        beta: i32,
        pv_node: bool,
        index: usize,
        tactical: bool,
    ) -> i32 {
        let next = |this: &mut Searcher, run: &mut Run, d: i32, a: i32, b: i32, pv: bool| {
            if d <= 0 { -this.quiescence(run, ply + 1, -b, -a, 0) } else { -this.negamax(run, d, ply + 1, -b, -a, pv) }
        };
        if index == 0 {
            return next(self, run, depth, alpha, beta, pv_node);
        }
        let reduction = if depth >= 2 && index >= 3 && !tactical {
            1 + i32::from(index >= 10 && depth >= 4) + i32::from(index >= 30 && depth >= 6)
        } else {
            0
        };
        let mut score = next(self, run, depth - reduction, alpha, alpha + 1, false);
        if score > alpha && reduction > 0 {
            score = next(self, run, depth, alpha, alpha + 1, false);
        }
        // Only a principal-variation node has a window wider than the null one searched here.
        if score > alpha && score < beta {
            debug_assert!(pv_node, "a null-window node has no score strictly inside its window");
            score = next(self, run, depth, alpha, beta, true);
        }
        score
    }

    /// Captures and king threats until the position is quiet.
    fn quiescence(&mut self, run: &mut Run, ply: usize, mut alpha: i32, beta: i32, qply: usize) -> i32 {
        self.pv[ply].clear();
        if run.tick() {
            return 0;
        }
        let b = run.board;
        let mover = run.s.to_move;
        let threats = eval::king_lines(b, &run.s, false);
        if mover == Side::Defenders && threats.routes > 0 {
            return WIN - ply as i32 - 1;
        }
        let must_block = mover == Side::Attackers && threats.routes > 0;
        if !must_block {
            let stand = eval::evaluate(b, run.tables, &run.s);
            if stand >= beta || qply >= MAX_QUIESCENCE || ply >= MAX_PLY - 2 {
                return stand;
            }
            alpha = alpha.max(stand);
        } else if qply >= MAX_QUIESCENCE || ply >= MAX_PLY - 2 {
            return eval::evaluate(b, run.tables, &run.s);
        }

        let mut list = std::mem::take(&mut self.lists[ply]);
        let mut scores = std::mem::take(&mut self.scores[ply]);
        list.clear();
        scores.clear();
        let s = &run.s;
        b.for_each_move(s, |from, to| {
            let m = pack(from, to);
            let keep = if must_block {
                blocks_or_captures_king(b, s, &threats, m)
            } else {
                captures(b, s, from, to) > 0 || (mover == Side::Attackers && b.is_adjacent(to, s.king))
            };
            if keep {
                list.push(m);
                scores.push(captures(b, s, from, to));
            }
        });
        if must_block && list.is_empty() {
            self.lists[ply] = list;
            self.scores[ply] = scores;
            return -(WIN - ply as i32 - 2);
        }
        let mut best = if must_block { -INFINITY } else { alpha };
        for index in 0..list.len() {
            let mut pick = index;
            for j in index + 1..list.len() {
                if scores[j] > scores[pick] {
                    pick = j;
                }
            }
            list.swap(index, pick);
            scores.swap(index, pick);
            let (from, to) = unpack(list[index]);
            let undo = run.make(from, to);
            let score = match undo.status {
                Status::Finished(outcome) => terminal(outcome, mover, ply + 1),
                Status::Ongoing => match run.repetition(undo.captured > 0) {
                    Some(score) => score,
                    None => -self.quiescence(run, ply + 1, -beta, -alpha, qply + 1),
                },
            };
            run.unmake(from, to, &undo);
            if run.stopped {
                break;
            }
            if score > best {
                best = score;
            }
            if score > alpha {
                alpha = score;
                if alpha >= beta {
                    break;
                }
            }
        }
        self.lists[ply] = list;
        self.scores[ply] = scores;
        best
    }

    /// The ordering score of a move: hash move, then captures, then king moves and attacks on
    /// the king, then killers, then history.
    fn order_score(&self, run: &Run, m: Packed, hash_move: Packed, ply: usize) -> i32 {
        if m == hash_move {
            return 1 << 30;
        }
        let b = run.board;
        let s = &run.s;
        let (from, to) = unpack(m);
        let taken = captures(b, s, from, to);
        if taken > 0 {
            return CAPTURE_ORDER + 1_000 * taken;
        }
        if s.cells[from] == KING {
            let goal = if b.corner_escape { CORNER } else { EDGE };
            return KING_ORDER + if b.flags[to] & goal != 0 { 10_000 } else { 0 };
        }
        if s.to_move == Side::Attackers && b.is_adjacent(to, s.king) {
            return KING_ORDER;
        }
        if self.killers[ply][0] == m {
            return KILLER_ORDER + 1;
        }
        if self.killers[ply][1] == m {
            return KILLER_ORDER;
        }
        self.history[from * CELLS + to]
    }
}

const CAPTURE_ORDER: i32 = 1 << 24;
const KING_ORDER: i32 = 1 << 22;
const KILLER_ORDER: i32 = 1 << 21;
const HISTORY_MAX: i32 = 1 << 20;

/// The number of men a move captures custodially (shieldwalls are left to the search).
fn captures(b: &Board, s: &State, from: usize, to: usize) -> i32 {
    let piece = s.cells[from];
    let mover = s.to_move;
    if piece == KING && !b.king_armed {
        return 0;
    }
    let mut n = 0;
    for d in b.dirs {
        let victim = step(to, d);
        if Board::is_capturable_man(s.cells[victim], mover) && b.brackets(s, step(victim, d), mover) {
            n += 1;
        }
    }
    n
}

/// Whether an attacker move lands on a square that blocks one of the king's open lines, or
/// lands next to him (which may take him). Any other move lets him escape.
fn blocks_or_captures_king(b: &Board, s: &State, lines: &KingLines, m: Packed) -> bool {
    let (_, to) = unpack(m);
    lines.blocks[..lines.n_blocks].iter().any(|&sq| usize::from(sq) == to) || b.is_adjacent(to, s.king)
}

/// Whether the move just made (landing on `to`) threatens the king or threatens to escape:
/// the king now has an open line, or an attacker landed next to him. Such moves are searched
/// a ply deeper.
fn gives_threat(run: &Run, to: usize) -> bool {
    let b = run.board;
    let s = &run.s;
    let mover = s.to_move.opponent();
    match mover {
        Side::Defenders => eval::king_lines(b, s, false).routes > 0,
        Side::Attackers => {
            b.is_adjacent(to, s.king) && b.dirs.iter().filter(|&&d| s.cells[step(s.king, d)] == ATTACKER).count() >= 2
        }
    }
}

/// What a drawn repetition scores, from the attackers' view, in a search by `root`: never more
/// for `root` than nothing, nor than the even game ([`Tables::even`]). For the attackers that is
/// 0, which is already below every preset's start (so they play on for the win). For the
/// defenders it is the start's score: scored 0, a repetition looked better to them than the even
/// game it is, and level 5's defenders took repetitions in positions they were winning
/// (Hnefatafl against the greedy player, seeds 1-3: 13 draws in 60 games; README, Strength).
fn draw_score(board: &Board, tables: &Tables, root: Side) -> i32 {
    if board.rules.repetition != Repetition::Draw {
        return 0;
    }
    match root {
        Side::Attackers => tables.even.min(0),
        Side::Defenders => tables.even.max(0),
    }
}

/// The score of a finished game for `mover`, who just moved, found `ply` plies from the root.
fn terminal(outcome: Outcome, mover: Side, ply: usize) -> i32 {
    match outcome.winner {
        None => 0,
        Some(w) if w == mover => WIN - ply as i32,
        Some(_) => -(WIN - ply as i32),
    }
}

/// Mate scores are stored relative to the node, so a table hit at another ply stays exact.
fn to_table(score: i32, ply: usize) -> i32 {
    if score >= WIN_BOUND {
        score + ply as i32
    } else if score <= -WIN_BOUND {
        score - ply as i32
    } else {
        score
    }
}

fn from_table(score: i32, ply: usize) -> i32 {
    if score >= WIN_BOUND {
        score - ply as i32
    } else if score <= -WIN_BOUND {
        score + ply as i32
    } else {
        score
    }
}

/// What a made move needs to be taken back.
struct Undo {
    captured_squares: [u16; MAX_CAPTURES],
    captured: usize,
    hash: u64,
    status: Status,
}

impl Run<'_> {
    /// Counts a node; true once the budget is spent (then every frame returns at once).
    #[inline]
    fn tick(&mut self) -> bool {
        self.nodes += 1;
        if !self.may_stop {
            return false;
        }
        if self.nodes >= self.budget.nodes {
            self.stopped = true;
        }
        // Reading the clock costs tens of nanoseconds; every 256 nodes keeps the overshoot to a
        // fraction of a millisecond at full speed.
        if self.nodes.trailing_zeros() >= 8
            && let Some(deadline) = self.budget.deadline
            && Instant::now() >= deadline
        {
            self.stopped = true;
        }
        self.stopped
    }

    fn make(&mut self, from: usize, to: usize) -> Undo {
        let keys = &**KEYS;
        let piece = usize::from(self.s.cells[from]);
        let victim = usize::from(side_cell(self.s.to_move.opponent()));
        let mut undo =
            Undo { captured_squares: [0; MAX_CAPTURES], captured: 0, hash: self.hash, status: Status::Ongoing };
        let mut h = self.hash ^ keys.pieces[piece][from] ^ keys.pieces[piece][to] ^ keys.defenders_to_move;
        undo.status = self.board.apply(&mut self.s, from, to, |i| {
            undo.captured_squares[undo.captured] = i as u16;
            undo.captured += 1;
            h ^= keys.pieces[victim][i];
        });
        self.hash = h;
        debug_assert_eq!(h, hash(self.board, &self.s), "the incremental hash drifted");
        self.path.push(h);
        if undo.captured > 0 {
            self.irreversible.push(self.path.len() - 1);
        }
        undo
    }

    fn unmake(&mut self, from: usize, to: usize, undo: &Undo) {
        Board::undo(&mut self.s, from, to, &undo.captured_squares[..undo.captured]);
        self.hash = undo.hash;
        self.path.pop();
        if undo.captured > 0 {
            self.irreversible.pop();
        }
    }

    /// The score of the position just reached (from the view of the side that moved into it)
    /// if it repeats an earlier one: the preset's repetition rule, applied to the first
    /// repetition when it draws or the mover loses by it, since a side that can repeat once can
    /// repeat again. A repetition the mover would win by (the attackers' where the defenders
    /// lose by it) is scored only at the third occurrence, as the game scores it: before that,
    /// the other side is to move and can still step aside, and scoring the second occurrence as
    /// a win had the attackers take any chance to repeat for a won game.
    fn repetition(&self, captured: bool) -> Option<i32> {
        let policy = self.board.rules.repetition;
        if policy == Repetition::Ignore || captured {
            return None;
        }
        let h = *self.path.last()?;
        let from = *self.irreversible.last().unwrap_or(&0);
        let end = self.path.len() - 1;
        let mover = self.s.to_move.opponent();
        let (score, earlier_needed) = match policy {
            Repetition::Draw | Repetition::Ignore if mover == Side::Attackers => (self.draw, 1),
            Repetition::Draw | Repetition::Ignore => (-self.draw, 1),
            Repetition::MoverLoses => (-(WIN_BOUND - 1), 1),
            Repetition::DefendersLose if mover == Side::Defenders => (-(WIN_BOUND - 1), 1),
            Repetition::MoverWins | Repetition::DefendersLose => (WIN_BOUND - 1, 2),
        };
        // The game before the root, unless a capture in the search has left it behind; then the
        // searched path, every other position (the same side to move) back from this one.
        let mut earlier =
            if from < self.before_root.root { self.before_root.count(end, h).min(earlier_needed) } else { 0 };
        if earlier < earlier_needed {
            let searched = &self.path[from.max(self.before_root.root).min(end)..end];
            earlier +=
                searched.iter().rev().skip(1).step_by(2).filter(|&&k| k == h).take(earlier_needed - earlier).count();
        }
        (earlier == earlier_needed).then_some(score)
    }
}

/// The hashes of the game's positions before a search's root, from the first that can still
/// recur on, sorted apart by the parity of their index in the game (a position recurs with the
/// same side to move, an even number of plies later). A game may go thousands of plies without a
/// capture: a binary search at every node costs a few comparisons where scanning them cost
/// thousands (a depth-3 search ran at 10 nodes a millisecond after 120,000 such plies, instead
/// of 470).
struct BeforeRoot {
    by_parity: [Vec<u64>; 2],
    /// The root's index in the path: the end of the game's history.
    root: usize,
}

impl BeforeRoot {
    fn new(history: &[u64], reversible_from: usize) -> BeforeRoot {
        let mut by_parity = [Vec::new(), Vec::new()];
        for (i, &h) in history.iter().enumerate().skip(reversible_from) {
            by_parity[i % 2].push(h);
        }
        for hashes in &mut by_parity {
            hashes.sort_unstable();
        }
        BeforeRoot { by_parity, root: history.len() }
    }

    /// How many times the position `h` at index `at` of the path occurred before the root with
    /// the same side to move.
    fn count(&self, at: usize, h: u64) -> usize {
        let hashes = &self.by_parity[at % 2];
        let first = hashes.partition_point(|&k| k < h);
        hashes[first..].partition_point(|&k| k == h)
    }
}

/// A seeded generator for the engine's random choices.
pub(crate) fn rng(seed: u64) -> XorShiftRng {
    XorShiftRng::seed_from_u64(seed)
}
