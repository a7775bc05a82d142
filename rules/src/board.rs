//! The hot path: a padded mailbox board and the rules compiled into per-square flags.
//!
//! The board is a `(size + 2)²` array whose outer ring is [`OFF`], so sliding and neighbour
//! lookups never need bounds checks of their own: every walk stops at the ring. Squares are
//! `usize` indices into that array; [`Square`] exists only at the API boundary.

use crate::error::SetupError;
use crate::fort;
use crate::position::Setup;
use crate::rules::{Escape, KingCapture, Rules, Shieldwall, ThronePass};
use crate::{MAX_SIZE, Outcome, Piece, Reason, Side, Square, Status};

pub(crate) const STRIDE_MAX: usize = MAX_SIZE as usize + 2;
pub(crate) const CELLS: usize = STRIDE_MAX * STRIDE_MAX;

// Cell contents. Bit 1 marks the defenders' side (defender or king).
pub(crate) const EMPTY: u8 = 0;
pub(crate) const ATTACKER: u8 = 1;
pub(crate) const DEFENDER: u8 = 2;
pub(crate) const KING: u8 = 3;
pub(crate) const OFF: u8 = 4;

// Square flags, fixed by the rules.
pub(crate) const THRONE: u16 = 1;
pub(crate) const CORNER: u16 = 1 << 1;
pub(crate) const EDGE: u16 = 1 << 2;
/// Only the king may stop here.
pub(crate) const NO_STOP: u16 = 1 << 3;
/// Only the king may pass here (when empty; an occupied square blocks everyone).
pub(crate) const NO_PASS: u16 = 1 << 4;
pub(crate) const HOSTILE_EMPTY_TO_ATTACKERS: u16 = 1 << 5;
pub(crate) const HOSTILE_EMPTY_TO_DEFENDERS: u16 = 1 << 6;
/// Hostile to attackers while the king stands here (the historical throne).
pub(crate) const HOSTILE_OCCUPIED_TO_ATTACKERS: u16 = 1 << 7;
pub(crate) const HOSTILE_OCCUPIED_TO_DEFENDERS: u16 = 1 << 8;
/// Orthogonally next to the throne.
pub(crate) const NEAR_THRONE: u16 = 1 << 9;
/// Every square of the board (the ring around it has no flags): what an armed piece needs of
/// its square to close a capture, in [`Engine::brackets`]' table.
pub(crate) const ON_BOARD: u16 = 1 << 10;

/// The mutable part of a position: cheap to copy (copy-make is simpler and, at this size, as
/// fast as make/unmake).
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) struct State {
    pub cells: [u8; CELLS],
    pub king: usize,
    pub to_move: Side,
}

impl std::fmt::Debug for State {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("State").field("king", &self.king).field("to_move", &self.to_move).finish_non_exhaustive()
    }
}

/// An exact, collision-free key of a position (2 bits per square plus the side to move), used
/// for repetition: a hash collision must never end a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Key([u64; 12]);

/// Rules compiled for the hot path. Built once per rule set and shared by every position.
#[derive(Clone, Debug)]
#[allow(clippy::struct_excessive_bools)]
pub(crate) struct Engine {
    pub rules: Rules,
    pub size: usize,
    pub stride: usize,
    pub flags: Vec<u16>,
    pub dirs: [usize; 4],
    /// Interior indices in rank-major order from a1.
    pub interior: Vec<usize>,
    /// The square of each interior index (a1 elsewhere; never read there).
    squares: Vec<Square>,
    /// The position of each interior index in `interior` (0 elsewhere; never read there).
    ordinals: Vec<u16>,
    pub king_armed: bool,
    pub corner_escape: bool,
    pub shieldwall: Option<bool>,
    pub exit_fort: bool,
    pub encirclement: bool,
    pub king_capture: KingCapture,
    /// For each mover (attackers, defenders) and each cell content, the square flags under
    /// which that cell closes a custodial capture by the mover: [`ON_BOARD`] for the mover's
    /// armed pieces, the hostility flags for an empty square or the king's, nothing otherwise.
    bracket_flags: [[u16; 5]; 2],
}

/// Adds a signed step to an index. Steps are stored as wrapping `usize` so that the ring of
/// [`OFF`] cells, not arithmetic, keeps walks on the array.
#[inline]
pub(crate) const fn step(i: usize, d: usize) -> usize {
    i.wrapping_add(d)
}

#[inline]
const fn back(i: usize, d: usize) -> usize {
    i.wrapping_sub(d)
}

impl Engine {
    /// Compiles valid rules. Callers validate first (`Rules::validate`).
    pub fn new(rules: Rules) -> Engine {
        let size = rules.size() as usize;
        let stride = size + 2;
        let mut flags = vec![0u16; CELLS];
        let mut interior = Vec::with_capacity(size * size);
        let mut squares = vec![Square::new(0, 0).expect("a1 exists"); CELLS];
        let centre = size / 2;
        for rank in 0..size {
            for file in 0..size {
                let i = (rank + 1) * stride + file + 1;
                interior.push(i);
                squares[i] = Square::new(file as u8, rank as u8).expect("sizes stay within notation");
                let mut f = ON_BOARD;
                let last = size - 1;
                if rank == 0 || rank == last || file == 0 || file == last {
                    f |= EDGE;
                }
                if rules.escape == Escape::Corner && (rank == 0 || rank == last) && (file == 0 || file == last) {
                    f |= CORNER | NO_STOP | NO_PASS | HOSTILE_EMPTY_TO_ATTACKERS | HOSTILE_EMPTY_TO_DEFENDERS;
                }
                if let Some(throne) = rules.throne {
                    if rank == centre && file == centre {
                        f |= THRONE | NO_STOP;
                        if throne.pass == ThronePass::KingOnly {
                            f |= NO_PASS;
                        }
                        let h = throne.hostility;
                        if h.empty_to_attackers {
                            f |= HOSTILE_EMPTY_TO_ATTACKERS;
                        }
                        if h.empty_to_defenders {
                            f |= HOSTILE_EMPTY_TO_DEFENDERS;
                        }
                        if h.occupied_to_attackers {
                            f |= HOSTILE_OCCUPIED_TO_ATTACKERS;
                        }
                        if h.occupied_to_defenders {
                            f |= HOSTILE_OCCUPIED_TO_DEFENDERS;
                        }
                    }
                    if rank.abs_diff(centre) + file.abs_diff(centre) == 1 {
                        f |= NEAR_THRONE;
                    }
                }
                flags[i] = f;
            }
        }
        let mut ordinals = vec![0u16; CELLS];
        for (n, &i) in interior.iter().enumerate() {
            ordinals[i] = n as u16;
        }
        Engine {
            size,
            stride,
            flags,
            ordinals,
            dirs: [1, stride, 1usize.wrapping_neg(), stride.wrapping_neg()],
            interior,
            squares,
            king_armed: rules.king_armed,
            corner_escape: rules.escape == Escape::Corner,
            shieldwall: match rules.shieldwall {
                Shieldwall::Off => None,
                Shieldwall::On { corners_may_close } => Some(corners_may_close),
            },
            exit_fort: rules.exit_fort,
            encirclement: rules.encirclement,
            king_capture: rules.king_capture,
            bracket_flags: bracket_flags(rules.king_armed),
            rules,
        }
    }

    #[inline]
    pub fn index(&self, sq: Square) -> usize {
        (sq.rank() as usize + 1) * self.stride + sq.file() as usize + 1
    }

    /// The square of an interior index, from a table: two divisions per square made listing
    /// the legal moves several times slower.
    #[inline]
    pub fn square(&self, i: usize) -> Square {
        self.squares[i]
    }

    /// Whether `setup` may start or be a position under `rules` (without compiling them).
    pub fn check_setup(rules: &Rules, setup: &Setup) -> Result<(), SetupError> {
        let size = rules.size();
        if setup.size() != size {
            return Err(SetupError::WrongSize { expected: size, found: setup.size() });
        }
        let last = size - 1;
        let centre = size / 2;
        let mut kings = 0;
        let mut attackers = 0;
        for (sq, piece) in setup.pieces() {
            let corner =
                rules.has_corners() && (sq.file() == 0 || sq.file() == last) && (sq.rank() == 0 || sq.rank() == last);
            let throne = rules.throne.is_some() && sq.file() == centre && sq.rank() == centre;
            match piece {
                Piece::King => {
                    kings += 1;
                    let on_edge = sq.file() == 0 || sq.file() == last || sq.rank() == 0 || sq.rank() == last;
                    if corner || (rules.escape == Escape::Edge && on_edge) {
                        return Err(SetupError::KingEscaped { square: sq });
                    }
                }
                Piece::Attacker | Piece::Defender => {
                    if piece == Piece::Attacker {
                        attackers += 1;
                    }
                    if corner || throne {
                        return Err(SetupError::RestrictedSquare { piece: piece.name(), square: sq });
                    }
                }
            }
        }
        if kings != 1 {
            return Err(SetupError::KingCount { count: kings });
        }
        if attackers == 0 {
            return Err(SetupError::NoAttackers);
        }
        Ok(())
    }

    /// Builds the state of a setup that passed [`Engine::check_setup`].
    pub fn state(&self, setup: &Setup, to_move: Side) -> State {
        let mut cells = [OFF; CELLS];
        let mut king = 0;
        for &i in &self.interior {
            cells[i] = EMPTY;
        }
        for (sq, piece) in setup.pieces() {
            let i = self.index(sq);
            cells[i] = match piece {
                Piece::Attacker => ATTACKER,
                Piece::Defender => DEFENDER,
                Piece::King => {
                    king = i;
                    KING
                }
            };
        }
        State { cells, king, to_move }
    }

    pub fn setup(&self, s: &State) -> Setup {
        let mut setup = Setup::empty(self.size as u8);
        for &i in &self.interior {
            if let Some(piece) = piece_of(s.cells[i]) {
                setup.set(self.square(i), Some(piece));
            }
        }
        setup
    }

    /// Calls `emit(from, to)` for every legal move of the side to move.
    #[inline]
    pub fn for_each_move(&self, s: &State, mut emit: impl FnMut(usize, usize)) {
        self.for_each_piece(s, s.to_move, |from| {
            let king = s.cells[from] == KING;
            for d in self.dirs {
                self.walk(s, from, d, king, |to| emit(from, to));
            }
        });
    }

    /// Calls `visit(i)` for every square holding a piece of `side` (the king among the
    /// defenders), in index order (rank by rank from a1, as [`Engine::interior`]).
    ///
    /// Reads eight cells at a time and visits only the set bits of a mask of the side's pieces:
    /// a side has a few dozen pieces on up to 361 squares, and testing every square was a tenth
    /// of perft's instructions.
    #[inline]
    pub fn for_each_piece(&self, s: &State, side: Side, mut visit: impl FnMut(usize)) {
        const LOW_BITS: u64 = 0x0101_0101_0101_0101;
        // An attacker is bit 0 without bit 1, a defender or the king is bit 1 (OFF has neither).
        const _: () = assert!(EMPTY == 0 && ATTACKER == 1 && DEFENDER == 2 && KING == 3 && OFF == 4);
        // Eight cells read from the largest board's last square stay within the array.
        const _: () = assert!(MAX_SIZE as usize * STRIDE_MAX + MAX_SIZE as usize + 8 <= CELLS);
        let end = self.interior.last().map_or(0, |&i| i + 1);
        let mut base = self.stride + 1;
        while base < end {
            // In bounds: `base` is at most the last interior square (asserted above).
            let word = u64::from_le_bytes(s.cells[base..base + 8].try_into().expect("eight cells"));
            let mut mask = match side {
                Side::Attackers => word & !(word >> 1) & LOW_BITS,
                Side::Defenders => (word >> 1) & LOW_BITS,
            };
            while mask != 0 {
                let i = base + (mask.trailing_zeros() / 8) as usize;
                debug_assert!(i < end && s.cells[i] != OFF, "a piece off the board");
                visit(i);
                mask &= mask - 1;
            }
            base += 8;
        }
    }

    /// Calls `emit(from, to)` for every legal move in [`Move`](crate::Move) order (origin, then
    /// destination, each by file then rank), so that listing moves needs no sort.
    pub fn for_each_move_sorted(&self, s: &State, mut emit: impl FnMut(usize, usize)) {
        let own = side_cell(s.to_move);
        let [east, north, west, south] = self.dirs;
        let mut ray = [0usize; MAX_SIZE as usize];
        for file in 0..self.size {
            for rank in 0..self.size {
                let from = (rank + 1) * self.stride + file + 1;
                let c = s.cells[from];
                if c & own == 0 || c == OFF || (own == ATTACKER && c != ATTACKER) {
                    continue;
                }
                // West and south rays come nearest-first from the walk, so they are emitted
                // backwards; north and east come out in order.
                for (d, reverse) in [(west, true), (south, true), (north, false), (east, false)] {
                    let mut n = 0;
                    self.walk(s, from, d, c == KING, |to| {
                        ray[n] = to;
                        n += 1;
                    });
                    if reverse {
                        ray[..n].iter().rev().for_each(|&to| emit(from, to));
                    } else {
                        ray[..n].iter().for_each(|&to| emit(from, to));
                    }
                }
            }
        }
    }

    /// The destinations along one ray from `from`, nearest first.
    #[inline]
    fn walk(&self, s: &State, from: usize, d: usize, king: bool, mut emit: impl FnMut(usize)) {
        let mut to = from;
        while let Some(next) = self.next_stop(s, d, king, to) {
            emit(next);
            to = next;
        }
    }

    /// The next destination after `to` along direction `d` of a piece (the king if `king`)
    /// walking that ray, or `None` where the ray ends. Reading the board one step at a time,
    /// a caller may play each destination and take it back before asking for the next.
    #[inline]
    pub fn next_stop(&self, s: &State, d: usize, king: bool, mut to: usize) -> Option<usize> {
        loop {
            to = step(to, d);
            if s.cells[to] != EMPTY {
                return None;
            }
            if king {
                return Some(to);
            }
            let f = self.flags[to];
            if f & NO_STOP == 0 {
                return Some(to);
            }
            if f & NO_PASS != 0 {
                return None;
            }
        }
    }

    /// Whether the side to move has any legal move (stops at the first one).
    ///
    /// Cold, like the other full tests behind the hints ([`Engine::shieldwall_captures`],
    /// [`Engine::is_encircled`], [`Engine::neighbours_reach_edge`]): few moves need them, and
    /// keeping them out of the code of the loops that play moves took perft's benchmark from
    /// 0.61 s to 0.52 s (Copenhagen depth 4).
    #[cold]
    pub fn has_move(&self, s: &State) -> bool {
        // The king stops anywhere, so one empty neighbour is a move; checking him first spares
        // the defenders a scan of the ranks before their first piece.
        if s.to_move == Side::Defenders && self.dirs.iter().any(|&d| s.cells[step(s.king, d)] == EMPTY) {
            return true;
        }
        let own = side_cell(s.to_move);
        // Defenders stand around their king: the scan starts at him and wraps around.
        let split = if s.to_move == Side::Defenders { usize::from(self.ordinals[s.king]) } else { 0 };
        let (before, after) = self.interior.split_at(split);
        for &from in after.iter().chain(before) {
            let c = s.cells[from];
            if c & own == 0 || c == OFF || (own == ATTACKER && c != ATTACKER) {
                continue;
            }
            if c == KING {
                if self.dirs.iter().any(|&d| s.cells[step(from, d)] == EMPTY) {
                    return true;
                }
                continue;
            }
            for d in self.dirs {
                let mut to = from;
                loop {
                    to = step(to, d);
                    if s.cells[to] != EMPTY {
                        break;
                    }
                    let f = self.flags[to];
                    if f & NO_STOP == 0 {
                        return true;
                    }
                    if f & NO_PASS != 0 {
                        break;
                    }
                }
            }
        }
        false
    }

    /// Plays a legal move: moves the piece, removes captured pieces (reporting each to
    /// `captured`), passes the turn, and returns the outcome on the board (repetition aside, which
    /// needs the history: see [`Game`](crate::Game)).
    #[inline]
    pub fn apply(&self, s: &mut State, from: usize, to: usize, captured: impl FnMut(usize)) -> Status {
        self.apply_hinted(s, from, to, captured, &Hints::NONE)
    }

    /// [`Engine::apply`] with [`Hints`] gathered from the position before the move: the same
    /// result, judged from a few squares in most positions instead of a scan of the board.
    #[inline]
    pub fn apply_hinted(
        &self,
        s: &mut State,
        from: usize,
        to: usize,
        mut captured: impl FnMut(usize),
        hints: &Hints,
    ) -> Status {
        let mover = s.to_move;
        let piece = s.cells[from];
        s.cells[from] = EMPTY;
        s.cells[to] = piece;
        if piece == KING {
            s.king = to;
        }

        // Custodial captures are all found before any is removed, so that none depends on the
        // order in which the others are found.
        let mut found = [0usize; 4];
        let mut n_found = 0;
        let armed = piece != KING || self.king_armed;
        if armed {
            for d in self.dirs {
                let n = step(to, d);
                if Self::is_capturable_man(s.cells[n], mover) && self.brackets(s, step(n, d), mover) {
                    found[n_found] = n;
                    n_found += 1;
                }
            }
        }
        let mut any_captured = n_found > 0;
        for &n in &found[..n_found] {
            s.cells[n] = EMPTY;
            captured(n);
        }
        if let Some(corners_close) = self.shieldwall
            && armed
            && self.flags[to] & EDGE != 0
            && self.enemy_beside_on_edge(s, to, mover)
        {
            // Removing the custodial captures first changes no shieldwall: a line member is
            // captured custodially only when it is the sole piece between the mover and a
            // bracket, which is no line.
            let mut wall = WallCaptures::default();
            self.shieldwall_captures(s, to, mover, corners_close, &mut wall);
            for &n in &wall.squares[..wall.len] {
                let n = usize::from(n);
                if s.cells[n] != EMPTY {
                    s.cells[n] = EMPTY;
                    captured(n);
                    any_captured = true;
                }
            }
        }

        s.to_move = mover.opponent();
        let win = |reason| Status::Finished(Outcome { winner: Some(mover), reason });
        match mover {
            Side::Defenders => {
                if piece == KING {
                    let goal = if self.corner_escape { CORNER } else { EDGE };
                    if self.flags[to] & goal != 0 {
                        return win(Reason::KingEscaped);
                    }
                }
                if self.exit_fort && self.flags[s.king] & EDGE != 0 && fort::is_exit_fort(self, s) {
                    return win(Reason::ExitFort);
                }
            }
            Side::Attackers => {
                if self.is_adjacent(to, s.king) && self.king_captured(s, to) {
                    return win(Reason::KingCaptured);
                }
                // The position before this move was not encircled (that would have ended the
                // game, and defender moves never encircle), so only a capture or a new blocker
                // that splits the free squares around it can encircle now. Even a splitting
                // blocker cannot if every free square beside it still reaches the edge: a
                // defender's path through it goes on from there.
                let route_open = self.encirclement && hints.route_survives(s, to);
                debug_assert!(!route_open || !self.is_encircled(s), "an open route was encircled");
                if self.encirclement && !route_open {
                    let may_encircle = any_captured
                        || ((self.flags[to] & EDGE != 0 || !self.is_simple_blocker(s, to))
                            && !self.neighbours_reach_edge(s, to));
                    debug_assert!(may_encircle || !self.is_encircled(s), "the encirclement shortcut missed a ring");
                    if may_encircle && self.is_encircled(s) {
                        return win(Reason::Encirclement);
                    }
                }
            }
        }
        // The replies have distinct targets, and a move that captures nothing fills one square:
        // of two replies, one survives without a look at the board.
        let reply = (!any_captured && hints.n_replies >= 2) || hints.reply_survives(s);
        debug_assert!(!reply || self.has_move(s), "a surviving reply was no move");
        if reply || self.opens_a_move(s, from) || self.has_move(s) { Status::Ongoing } else { win(Reason::NoMoves) }
    }

    /// Gathers the [`Hints`] of position `s` for judging the moves from it.
    pub fn hints(&self, s: &State) -> Hints {
        let mut hints = Hints::NONE;
        self.find_replies(s, &mut hints);
        if self.encirclement && s.to_move == Side::Attackers {
            hints.route = self.shortest_route(s);
        }
        hints
    }

    /// Up to [`MAX_REPLIES`] one-step moves of the side that moves next, with pairwise distinct
    /// pieces and targets: one move by `s.to_move` fills one square and captures men, so it
    /// rarely spoils them all.
    fn find_replies(&self, s: &State, hints: &mut Hints) {
        let replier = s.to_move.opponent();
        let (man, king) = match replier {
            Side::Attackers => (ATTACKER, OFF),
            Side::Defenders => (DEFENDER, KING),
        };
        for &p in &self.interior {
            let c = s.cells[p];
            if c != man && c != king {
                continue;
            }
            for d in self.dirs {
                let t = step(p, d);
                let taken = hints.replies[..hints.n_replies].iter().any(|r| usize::from(r.target) == t);
                if s.cells[t] == EMPTY && (c == KING || self.flags[t] & NO_STOP == 0) && !taken {
                    hints.replies[hints.n_replies] = Reply { piece: p as u16, cell: c, target: t as u16 };
                    hints.n_replies += 1;
                    if hints.n_replies == MAX_REPLIES {
                        return;
                    }
                    break; // one reply per piece
                }
            }
        }
    }

    /// The shortest path from a defender to the edge through squares free of attackers. An
    /// attacker move that lands off the path and leaves its defender standing keeps it open, so
    /// it cannot encircle. One path: a second, disjoint one cost more to find than the full tests
    /// it spared (Copenhagen perft(3): 271 million instructions with two, 233 with one), and so,
    /// later, did looking first for a straight line to the edge (220 million against 210).
    ///
    /// Breadth-first search from every defender to the nearest edge square (judged as squares
    /// are reached, not as they are expanded: one layer fewer to visit).
    fn shortest_route(&self, s: &State) -> Option<Route> {
        // Each square's parent in the breadth-first tree, `UNSEEN` before the search reaches it.
        let mut parent = [UNSEEN; CELLS];
        let mut queue = [0u16; CELLS];
        let mut tail = 0;
        let route_to = |parent: &[u16; CELLS], mut j: usize| {
            let mut route = Route { origin: 0, squares: [0; WORDS] };
            loop {
                route.squares[j / 64] |= 1 << (j % 64);
                let up = usize::from(parent[j]);
                if up == j {
                    route.origin = j as u16;
                    return route;
                }
                j = up;
            }
        };
        for &i in &self.interior {
            let c = s.cells[i];
            if (c == DEFENDER || c == KING) && parent[i] == UNSEEN {
                parent[i] = i as u16;
                if self.flags[i] & EDGE != 0 {
                    return Some(route_to(&parent, i));
                }
                queue[tail] = i as u16;
                tail += 1;
            }
        }
        let mut head = 0;
        while head < tail {
            let i = usize::from(queue[head]);
            head += 1;
            for d in self.dirs {
                let n = step(i, d);
                let c = s.cells[n];
                if c == OFF || c == ATTACKER || parent[n] != UNSEEN {
                    continue;
                }
                parent[n] = i as u16;
                if self.flags[n] & EDGE != 0 {
                    return Some(route_to(&parent, n));
                }
                queue[tail] = n as u16;
                tail += 1;
            }
        }
        None
    }

    /// A cheap witness that the side to move has a move: the square the mover just left is
    /// empty, and any piece of the side to move beside it may step into it (a man only where
    /// men may stop). Pieces cluster, so this usually answers before the scan of
    /// [`Engine::has_move`] is needed.
    #[inline]
    fn opens_a_move(&self, s: &State, from: usize) -> bool {
        let men_may_stop = self.flags[from] & NO_STOP == 0;
        let (man, has_king) = match s.to_move {
            Side::Attackers => (ATTACKER, false),
            Side::Defenders => (DEFENDER, true),
        };
        // The attackers have no king. (Standing for him with OFF, the border's value, took the
        // border beside a square on the edge for a piece that could step in: a defender leaving
        // the edge never let the attackers lose for want of a move.)
        let around = self.dirs.map(|d| s.cells[step(from, d)]);
        (men_may_stop && around.contains(&man)) || (has_king && around.contains(&KING))
    }

    /// Takes back a move made by [`Engine::apply`] on `s`, given the squares it captured (in any
    /// order). Captured pieces are always men of the side that did not move, so the squares say
    /// all there is to restore: make/unmake spares copying the whole board per node.
    #[inline]
    pub fn undo(s: &mut State, from: usize, to: usize, captured: &[u16]) {
        let mover = s.to_move.opponent();
        let victim = side_cell(s.to_move);
        for &i in captured {
            s.cells[usize::from(i)] = victim;
        }
        let piece = s.cells[to];
        s.cells[to] = EMPTY;
        s.cells[from] = piece;
        if piece == KING {
            s.king = from;
        }
        s.to_move = mover;
    }

    #[inline]
    pub(crate) fn is_adjacent(&self, a: usize, b: usize) -> bool {
        let diff = a.abs_diff(b);
        diff == 1 || diff == self.stride
    }

    /// Whether `cell` holds a non-king piece of the side opposing `mover`.
    #[inline]
    pub(crate) fn is_capturable_man(cell: u8, mover: Side) -> bool {
        match mover {
            Side::Attackers => cell == DEFENDER,
            Side::Defenders => cell == ATTACKER,
        }
    }

    /// Whether `cell` holds a piece of `side` that may take part in a capture.
    #[inline]
    pub fn is_armed(&self, cell: u8, side: Side) -> bool {
        match side {
            Side::Attackers => cell == ATTACKER,
            Side::Defenders => cell == DEFENDER || (cell == KING && self.king_armed),
        }
    }

    /// Whether square `b` closes a custodial capture by `mover`: an armed piece of the mover's
    /// side, or a square hostile to the victim's side. One table lookup (this runs four times
    /// for every move played).
    #[inline]
    pub(crate) fn brackets(&self, s: &State, b: usize, mover: Side) -> bool {
        self.flags[b] & self.bracket_flags[mover as usize][usize::from(s.cells[b])] != 0
    }

    /// The edges square `i` lies on, each as the inward step (towards the centre) and the two
    /// steps along it. A square lies on two edges only in a board corner, which non-king pieces
    /// reach where the rules have no corner squares (Sea Battle), and the king reaches as he
    /// escapes: a piece landing there may close a line along either edge.
    fn edge_axes(&self, i: usize) -> [Option<(usize, [usize; 2])>; 2] {
        // From the square table: two divisions per edge landing cost about a fifth of perft's time.
        let square = self.square(i);
        let (rank, file) = (usize::from(square.rank()), usize::from(square.file()));
        let last = self.size - 1;
        let (horizontal, vertical) = (self.dirs[0], self.dirs[1]);
        let along_rank = [horizontal, horizontal.wrapping_neg()];
        let along_file = [vertical, vertical.wrapping_neg()];
        let rank_edge = match rank {
            0 => Some((vertical, along_rank)),
            r if r == last => Some((vertical.wrapping_neg(), along_rank)),
            _ => None,
        };
        let file_edge = match file {
            0 => Some((horizontal, along_file)),
            f if f == last => Some((horizontal.wrapping_neg(), along_file)),
            _ => None,
        };
        debug_assert!(rank_edge.is_some() || file_edge.is_some(), "only called for edge squares");
        [rank_edge, file_edge]
    }

    /// Whether an enemy piece of `mover` stands on an edge square beside `to`: every shieldwall
    /// line closed by a piece landing on `to` begins there, so without one there is no line to
    /// look for (most edge landings), and the costlier search along the edges is spared.
    #[inline]
    fn enemy_beside_on_edge(&self, s: &State, to: usize, mover: Side) -> bool {
        self.dirs.iter().any(|&d| {
            let n = step(to, d);
            self.flags[n] & EDGE != 0 && is_enemy(s.cells[n], mover)
        })
    }

    /// Shieldwall lines closed by a piece of `mover` that just landed on edge square `to`.
    #[cold]
    fn shieldwall_captures(&self, s: &State, to: usize, mover: Side, corners_close: bool, out: &mut WallCaptures) {
        // A board corner square lies on two edges: both are checked (see `edge_axes`).
        for (inward, along) in self.edge_axes(to).into_iter().flatten() {
            self.shieldwall_lines(s, to, inward, along, mover, corners_close, out);
        }
    }

    /// The lines along one edge closed by the piece on `to`, one on each side of it.
    #[allow(clippy::too_many_arguments)]
    fn shieldwall_lines(
        &self,
        s: &State,
        to: usize,
        inward: usize,
        along: [usize; 2],
        mover: Side,
        corners_close: bool,
        out: &mut WallCaptures,
    ) {
        for a in along {
            let start = out.len;
            let mut members = 0;
            let mut m = step(to, a);
            let mut fronted = true;
            loop {
                let c = s.cells[m];
                if !is_enemy(c, mover) {
                    break;
                }
                if !self.is_armed(s.cells[step(m, inward)], mover) {
                    fronted = false;
                    break;
                }
                members += 1;
                if c != KING {
                    out.push(m);
                }
                m = step(m, a);
            }
            let end = s.cells[m];
            let closed = self.is_armed(end, mover) || (corners_close && end == EMPTY && self.flags[m] & CORNER != 0);
            if !(fronted && closed && members >= 2) {
                out.len = start;
            }
        }
    }

    /// The king-capture rule, after an attacker landed on `to` next to the king.
    fn king_captured(&self, s: &State, to: usize) -> bool {
        let k = s.king;
        let attacker_or = |n: usize, extra: u16| {
            let c = s.cells[n];
            c == ATTACKER || (c == EMPTY && self.flags[n] & extra != 0)
        };
        match self.king_capture {
            KingCapture::Strong => self.dirs.iter().all(|&d| attacker_or(step(k, d), THRONE)),
            KingCapture::Middleweight => {
                self.dirs.iter().all(|&d| s.cells[step(k, d)] == OFF || attacker_or(step(k, d), THRONE | CORNER))
            }
            KingCapture::StrongNearThrone => {
                let f = self.flags[k];
                if f & THRONE != 0 {
                    self.dirs.iter().all(|&d| s.cells[step(k, d)] == ATTACKER)
                } else if f & NEAR_THRONE != 0 {
                    self.dirs.iter().all(|&d| attacker_or(step(k, d), THRONE))
                } else {
                    // Custodial: the attacker that moved and the square opposite it.
                    let opposite = back(k, to.wrapping_sub(k));
                    attacker_or(opposite, CORNER)
                }
            }
            // As a defender is taken: the attacker that moved and what stands opposite it.
            KingCapture::Weak => self.brackets(s, back(k, to.wrapping_sub(k)), Side::Attackers),
        }
    }

    /// Encirclement: no defender (king included) can reach the edge through squares free of
    /// attackers.
    #[cold]
    pub fn is_encircled(&self, s: &State) -> bool {
        let mut seen = [0u64; CELLS.div_ceil(64)];
        let mut stack = [0u16; CELLS];
        // Flood from the king first: in almost every position he reaches the edge within a few
        // squares, which spares the scan for the other defenders.
        if self.flood_reaches_edge(s, &[s.king], &mut seen, &mut stack) {
            return false;
        }
        // The other defenders one by one, sharing `seen`: no list of seeds to fill (zeroing one
        // cost more than most floods).
        !self.interior.iter().any(|&i| {
            s.cells[i] == DEFENDER
                && seen[i / 64] & (1 << (i % 64)) == 0
                && self.flood_reaches_edge(s, &[i], &mut seen, &mut stack)
        })
    }

    /// Whether every square beside `i` that is free of attackers reaches the edge through such
    /// squares. Attackers move near the edges, so these floods are short, where the flood from
    /// the king of [`Engine::is_encircled`] crosses most of the board.
    #[cold]
    fn neighbours_reach_edge(&self, s: &State, i: usize) -> bool {
        self.dirs.iter().all(|&d| {
            let n = step(i, d);
            let c = s.cells[n];
            c == ATTACKER || c == OFF || self.dirs.iter().any(|&d| Self::ray_reaches_edge(s, n, d)) || {
                // Each flood starts afresh: a square seen by an earlier one reaches the edge,
                // but `flood_reaches_edge` would take it as a dead end. Zeroed only here, as
                // the rays usually answer.
                let mut seen = [0u64; CELLS.div_ceil(64)];
                let mut stack = [0u16; CELLS];
                self.flood_reaches_edge(s, &[n], &mut seen, &mut stack)
            }
        })
    }

    /// Whether the straight line from `i` in direction `d` reaches the edge free of attackers:
    /// a few steps that usually spare a flood.
    #[inline]
    fn ray_reaches_edge(s: &State, mut i: usize, d: usize) -> bool {
        loop {
            let next = step(i, d);
            match s.cells[next] {
                OFF => return true,
                ATTACKER => return false,
                _ => i = next,
            }
        }
    }

    /// Whether the attacker on `i` leaves the squares free of attackers around it connected:
    /// every free orthogonal neighbour lies on one arc of free squares in the ring of eight
    /// around `i`. Then any path through `i` can go around it, so blocking `i` cuts no path
    /// (the "simple point" test of digital topology). Edge squares are not judged this way:
    /// a path may end on them.
    fn is_simple_blocker(&self, s: &State, i: usize) -> bool {
        let [east, north, west, south] = self.dirs;
        let ring = [
            north,
            north.wrapping_add(east),
            east,
            south.wrapping_add(east),
            south,
            south.wrapping_add(west),
            west,
            north.wrapping_add(west),
        ];
        let mut free = 0usize;
        for (k, d) in ring.into_iter().enumerate() {
            let c = s.cells[step(i, d)];
            free |= usize::from(c != ATTACKER && c != OFF) << k;
        }
        SIMPLE_BLOCKER[free]
    }

    /// Depth-first flood from `seeds` through squares free of attackers; true at the first edge
    /// square reached. `seen` carries over between calls so no square is visited twice.
    fn flood_reaches_edge(&self, s: &State, seeds: &[usize], seen: &mut [u64], stack: &mut [u16]) -> bool {
        let mut top = 0;
        for &i in seeds {
            if self.flags[i] & EDGE != 0 {
                return true;
            }
            seen[i / 64] |= 1 << (i % 64);
            stack[top] = i as u16;
            top += 1;
        }
        while top > 0 {
            top -= 1;
            let i = stack[top] as usize;
            for d in self.dirs {
                let n = step(i, d);
                if seen[n / 64] & (1 << (n % 64)) != 0 {
                    continue;
                }
                let c = s.cells[n];
                if c == OFF || c == ATTACKER {
                    continue;
                }
                if self.flags[n] & EDGE != 0 {
                    return true;
                }
                seen[n / 64] |= 1 << (n % 64);
                stack[top] = n as u16;
                top += 1;
            }
        }
        false
    }

    /// The exact repetition key of a state.
    pub fn key(&self, s: &State) -> Key {
        let mut words = [0u64; 12];
        for (n, &i) in self.interior.iter().enumerate() {
            let bits = u64::from(s.cells[i] & 3);
            words[n / 32] |= bits << ((n % 32) * 2);
        }
        words[11] |= u64::from(s.to_move == Side::Defenders) << 63;
        Key(words)
    }
}

const WORDS: usize = CELLS.div_ceil(64);
/// Replies kept by [`Hints`]: with three, a move that spoils all of them is rare.
const MAX_REPLIES: usize = 3;
/// The mark of a square [`Engine::shortest_route`]'s search has not reached (no square index
/// is this large).
const UNSEEN: u16 = u16::MAX;

/// A one-step move of a piece (`cell` is what stands on `piece`) to an empty `target` where it
/// may stop.
#[derive(Clone, Copy, Debug, Default)]
struct Reply {
    piece: u16,
    cell: u8,
    target: u16,
}

/// A path from the defender on `origin` to the edge through squares free of attackers.
#[derive(Clone, Copy, Debug)]
struct Route {
    origin: u16,
    squares: [u64; WORDS],
}

/// What a position tells about all of its children, gathered once before its moves are played
/// ([`Engine::hints`]) and checked in a few loads per move by [`Engine::apply_hinted`]:
///
/// * moves the other side will have: a reply stays legal unless the move lands on its target
///   or captures its piece, so the child has a move without a scan of the board;
/// * when attackers move under encirclement, defenders' paths to the edge: a move that lands
///   off a path and leaves its defender standing cannot encircle.
///
/// A hint that a move spoils says nothing; the full test then runs, so results never change.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Hints {
    replies: [Reply; MAX_REPLIES],
    n_replies: usize,
    route: Option<Route>,
}

impl Hints {
    /// No hints: every test runs in full.
    pub const NONE: Hints =
        Hints { replies: [Reply { piece: 0, cell: 0, target: 0 }; MAX_REPLIES], n_replies: 0, route: None };

    /// Whether one of the replies is still a legal move in `s` (the position after the move).
    #[inline]
    fn reply_survives(&self, s: &State) -> bool {
        self.replies[..self.n_replies]
            .iter()
            .any(|r| s.cells[usize::from(r.piece)] == r.cell && s.cells[usize::from(r.target)] == EMPTY)
    }

    /// Whether the route is still open in `s` after an attacker landed on `to`.
    #[inline]
    fn route_survives(&self, s: &State, to: usize) -> bool {
        self.route.is_some_and(|r| {
            r.squares[to / 64] & (1 << (to % 64)) == 0 && {
                let c = s.cells[usize::from(r.origin)];
                c == DEFENDER || c == KING
            }
        })
    }
}

/// Pieces captured by shieldwalls in one move: at most two lines of at most `size - 2` pieces.
struct WallCaptures {
    squares: [u16; 2 * MAX_SIZE as usize],
    len: usize,
}

impl Default for WallCaptures {
    fn default() -> Self {
        WallCaptures { squares: [0; 2 * MAX_SIZE as usize], len: 0 }
    }
}

impl WallCaptures {
    fn push(&mut self, i: usize) {
        self.squares[self.len] = i as u16;
        self.len += 1;
    }
}

/// [`Engine::bracket_flags`]: by mover, then by cell content.
const fn bracket_flags(king_armed: bool) -> [[u16; 5]; 2] {
    let mut table = [[0; 5]; 2];
    // Attackers close a capture of a defender with an attacker or a square hostile to defenders.
    let a = Side::Attackers as usize;
    table[a][ATTACKER as usize] = ON_BOARD;
    table[a][EMPTY as usize] = HOSTILE_EMPTY_TO_DEFENDERS;
    table[a][KING as usize] = HOSTILE_OCCUPIED_TO_DEFENDERS;
    // Defenders close a capture of an attacker with a defender, an armed king, or a square
    // hostile to attackers (the throne the king stands on, where it is).
    let d = Side::Defenders as usize;
    table[d][DEFENDER as usize] = ON_BOARD;
    table[d][EMPTY as usize] = HOSTILE_EMPTY_TO_ATTACKERS;
    table[d][KING as usize] = if king_armed { ON_BOARD } else { HOSTILE_OCCUPIED_TO_ATTACKERS };
    table
}

/// Whether `cell` holds a piece of the side opposing `mover`, the king included.
#[inline]
const fn is_enemy(cell: u8, mover: Side) -> bool {
    match mover {
        Side::Attackers => cell == DEFENDER || cell == KING,
        Side::Defenders => cell == ATTACKER,
    }
}

/// The cell bit that marks pieces of `side` (the king shares the defenders' bit).
#[inline]
pub(crate) const fn side_cell(side: Side) -> u8 {
    match side {
        Side::Attackers => ATTACKER,
        Side::Defenders => DEFENDER,
    }
}

pub(crate) const fn piece_of(cell: u8) -> Option<Piece> {
    match cell {
        ATTACKER => Some(Piece::Attacker),
        DEFENDER => Some(Piece::Defender),
        KING => Some(Piece::King),
        _ => None,
    }
}

/// [`Engine::is_simple_blocker`] for every ring of eight (bit `k` set: ring square `k` is free,
/// clockwise from north, so even bits are orthogonal neighbours). Computed at compile time: the
/// arc count ran once per attacker move and cost a sixth of perft.
static SIMPLE_BLOCKER: [bool; 256] = simple_blocker_table();

const fn simple_blocker_table() -> [bool; 256] {
    let mut table = [false; 256];
    let mut mask = 0;
    while mask < 256 {
        let mut arcs_with_orthogonal = 0;
        let mut start = 0;
        while start < 8 {
            // Only the first square of an arc starts a count.
            if ring_free(mask, start) && !ring_free(mask, start + 7) {
                let mut k = start;
                let mut orthogonal = false;
                while ring_free(mask, k) && k < start + 8 {
                    orthogonal |= k % 2 == 0;
                    k += 1;
                }
                if orthogonal {
                    arcs_with_orthogonal += 1;
                }
            }
            start += 1;
        }
        // A ring with every square free has no first square, and is one arc.
        table[mask] = arcs_with_orthogonal <= 1;
        mask += 1;
    }
    table
}

/// Whether ring square `k` (taken modulo 8) is free in `mask`.
const fn ring_free(mask: usize, k: usize) -> bool {
    mask & (1 << (k % 8)) != 0
}
