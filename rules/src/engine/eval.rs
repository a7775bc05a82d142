//! The static evaluation: how good a position looks without searching, in points where one
//! attacker is worth [`ATTACKER`] (100), from the attackers' point of view (callers turn it to
//! the side to move's).
//!
//! Every term follows from the compiled rules, so one evaluation serves every rule family:
//! where the king must go (corners or the edge) decides the race terms, the king-capture rule
//! decides how close the attackers are to taking him, hostile squares (throne, corners) decide
//! which men are in danger, and encirclement and exit forts add their own terms only where they
//! win games.

use crate::board::{
    ATTACKER as A, CORNER, DEFENDER as D, EDGE, EMPTY, Engine as Board, KING as K, NO_STOP, OFF, State, THRONE, step,
};
use crate::rules::{KingCapture, Repetition};
use crate::{MAX_SIZE, Side};

/// The value of one attacker; every other weight is relative to it.
pub const ATTACKER: i32 = 100;

/// What the king can reach: the escape squares open to him now, and the squares from which an
/// escape would be open next move.
#[derive(Debug)]
pub(crate) struct KingLines {
    /// Escape squares the king reaches in one move (each is a separate threat: one blocker
    /// cannot close two rays).
    pub routes: u32,
    /// Empty squares on the open rays between the king and an escape square: the only
    /// squares where an attacker can block him.
    pub blocks: [u16; 4 * MAX_SIZE as usize],
    pub n_blocks: usize,
    /// Squares the king reaches in one move from which an escape square is open.
    pub second: u32,
    /// Squares the king reaches in one move.
    pub reach: u32,
}

/// The king's open lines. `second` asks for the two-move count too (costlier).
pub(crate) fn king_lines(b: &Board, s: &State, second: bool) -> KingLines {
    let goal = if b.corner_escape { CORNER } else { EDGE };
    let mut lines = KingLines { routes: 0, blocks: [0; 4 * MAX_SIZE as usize], n_blocks: 0, second: 0, reach: 0 };
    for d in b.dirs {
        let mut to = s.king;
        let start = lines.n_blocks;
        loop {
            to = step(to, d);
            if s.cells[to] != EMPTY {
                lines.n_blocks = start;
                break;
            }
            lines.reach += 1;
            if b.flags[to] & goal != 0 {
                lines.routes += 1;
                break;
            }
            lines.blocks[lines.n_blocks] = to as u16;
            lines.n_blocks += 1;
            if second && opens_escape(b, s, to, d, goal) {
                lines.second += 1;
            }
        }
    }
    lines
}

/// Whether a king standing on `from` (having come along `came`) would see an escape square on
/// one of the two rays across his path.
fn opens_escape(b: &Board, s: &State, from: usize, came: usize, goal: u16) -> bool {
    b.dirs.iter().filter(|&&d| d != came && d != came.wrapping_neg()).any(|&d| {
        let mut to = from;
        loop {
            to = step(to, d);
            if s.cells[to] != EMPTY {
                return false;
            }
            if b.flags[to] & goal != 0 {
                return true;
            }
        }
    })
}

/// What the evaluation derives once per rule set.
#[derive(Clone, Debug)]
pub(crate) struct Tables {
    defender_value: i32,
    corner_guard: Vec<i32>,
    /// Points per step of the king's distance to the nearest escape square.
    king_distance: i32,
    /// Points per square from which the king would have an open line next move.
    second_line: i32,
    /// The start position's evaluation: what an even game scores. Not 0: every preset's start
    /// scores the attackers 50 to 500 points up (the king far from his escape squares counts
    /// for them), so the search weighs a draw against this (see `search::draw_score`).
    pub(crate) even: i32,
}

impl Tables {
    pub(crate) fn new(b: &Board) -> Tables {
        let start = &b.rules.start;
        let attackers = start.pieces().filter(|(_, p)| *p == crate::Piece::Attacker).count();
        let defenders = start.pieces().filter(|(_, p)| *p == crate::Piece::Defender).count();
        // Where a repetition is a draw, a king who reaches the squares near a corner holds at
        // least a draw by perpetual threats: each blocker beside the corner is one the armed
        // king takes against it, so the attackers must answer every king move and never get a
        // free one (Brandubh games against the greedy player were drawn this way with the
        // attackers several men up). The attackers' only winning plan there is to keep him
        // away from the corners, so his distance and his two-move lines weigh much more. Where
        // the defenders lose by repetition (Copenhagen) perpetual threats are no resource and
        // the weights stay as they were tuned.
        let (king_distance, second_line) = if b.rules.repetition == Repetition::Draw { (40, 120) } else { (6, 45) };
        let mut tables = Tables {
            defender_value: defender_value(attackers, defenders),
            corner_guard: corner_guard_table(b),
            king_distance,
            second_line,
            even: 0,
        };
        tables.even = for_attackers(b, &tables, &b.state(start, Side::Attackers));
        tables
    }
}

/// Material alone (the men on the board, as [`for_attackers`] weighs them), from the point of
/// view of the side to move: what the textbook greedy player counts.
pub(crate) fn material(b: &Board, t: &Tables, s: &State) -> i32 {
    let mut score = 0;
    for &i in &b.interior {
        match s.cells[i] {
            A => score += ATTACKER,
            D => score -= t.defender_value,
            _ => {}
        }
    }
    if s.to_move == Side::Attackers { score } else { -score }
}

/// The evaluation from the point of view of the side to move.
pub(crate) fn evaluate(b: &Board, t: &Tables, s: &State) -> i32 {
    let score = for_attackers(b, t, s);
    if s.to_move == Side::Attackers { score } else { -score }
}

/// The evaluation from the attackers' point of view.
#[allow(clippy::similar_names, clippy::many_single_char_names)] // b, t, s, c, n: board, tables, state, cell, neighbours
pub(crate) fn for_attackers(b: &Board, t: &Tables, s: &State) -> i32 {
    let defender_value = t.defender_value;
    let mut attackers = 0;
    let mut defenders = 0;
    let mut mobility = 0; // attackers' minus defenders' free neighbours
    let mut danger = 0; // attackers' threatened men minus defenders'
    let mut links = 0; // attackers diagonally linked to another (a ring in the making)
    let mut corner_guards = 0;
    for &i in &b.interior {
        let c = s.cells[i];
        if c == EMPTY || c == K {
            continue;
        }
        let side = if c == A { Side::Attackers } else { Side::Defenders };
        let sign = if c == A { 1 } else { -1 };
        if c == A {
            attackers += 1;
        } else {
            defenders += 1;
        }
        let [east, north, west, south] = b.dirs;
        let n = [step(i, east), step(i, north), step(i, west), step(i, south)];
        for &j in &n {
            if s.cells[j] == EMPTY && b.flags[j] & NO_STOP == 0 {
                mobility += sign;
            }
        }
        // A man with an enemy (or a square hostile to him) on one side and an empty square the
        // enemy may stop on opposite is one move from capture.
        let enemy = side.opponent();
        for (x, y) in [(n[0], n[2]), (n[1], n[3])] {
            let threatened = (b.brackets(s, x, enemy) && s.cells[y] == EMPTY && b.flags[y] & NO_STOP == 0)
                || (b.brackets(s, y, enemy) && s.cells[x] == EMPTY && b.flags[x] & NO_STOP == 0);
            if threatened {
                danger += sign;
            }
        }
        if c == A {
            for d in [step(north, east), step(north, west)] {
                if s.cells[i.wrapping_add(d)] == A {
                    links += 1;
                }
            }
            if b.corner_escape {
                corner_guards += t.corner_guard[i];
            }
        }
    }

    let mut score = ATTACKER * attackers - defender_value * defenders;
    score += 2 * mobility;
    // The side to move can take a threatened man at once: count the other side's double.
    score -= match s.to_move {
        Side::Attackers => 12 * danger.min(0) * 2 + 12 * danger.max(0),
        Side::Defenders => 12 * danger.min(0) + 12 * danger.max(0) * 2,
    };
    score += if b.encirclement { 8 } else { 3 } * links;
    score += corner_guards;

    // The race: the king's open lines to escape squares.
    let lines = king_lines(b, s, true);
    let routes = lines.routes as i32;
    score -= match (s.to_move, routes) {
        (_, 0) => 0,
        // The defenders escape next move; the attackers must block one line, or cannot block two.
        (Side::Defenders, _) => 2_000,
        (Side::Attackers, 1) => 150,
        (Side::Attackers, _) => 1_500,
    };
    score -= t.second_line * (lines.second.min(6) as i32) + 4 * (lines.reach as i32);
    let (rank, file) = (s.king / b.stride - 1, s.king % b.stride - 1);
    let last = b.size - 1;
    let distance = if b.corner_escape {
        rank.min(last - rank) + file.min(last - file)
    } else {
        rank.min(last - rank).min(file.min(last - file))
    };
    score += t.king_distance * distance as i32;

    score += king_pressure(b, s);
    if b.exit_fort && b.flags[s.king] & EDGE != 0 {
        // A king on the edge with defenders beside him is building a fort.
        let guards = b.dirs.iter().filter(|&&d| s.cells[step(s.king, d)] == D).count() as i32;
        score -= 40 + 25 * guards;
    }
    score
}

/// How close the attackers are to capturing the king under this preset's rule: his sides that
/// already count as closed (an attacker, or a square that counts as one), and for a king taken
/// like a man, whether one move would close him in.
#[allow(clippy::many_single_char_names)] // b, s, k, n, c: board, state, king, neighbour, cell
fn king_pressure(b: &Board, s: &State) -> i32 {
    let k = s.king;
    let closed_by = |n: usize, extra: u16| {
        let c = s.cells[n];
        c == A || (c == EMPTY && b.flags[n] & extra != 0)
    };
    let custodial = match b.king_capture {
        KingCapture::StrongNearThrone => {
            b.flags[k] & THRONE == 0 && !b.dirs.iter().any(|&d| b.flags[step(k, d)] & THRONE != 0)
        }
        KingCapture::Weak => true,
        KingCapture::Strong | KingCapture::Middleweight => false,
    };
    if custodial {
        // Taken like a man: an attacker (or a square hostile to defenders) on one side and an
        // empty square opposite that an attacker may reach.
        let [east, north, west, south] = b.dirs.map(|d| step(k, d));
        let mut threat = 0;
        for (x, y) in [(east, west), (north, south)] {
            let hostile = |n: usize| b.brackets(s, n, Side::Attackers);
            let open = |n: usize| s.cells[n] == EMPTY && b.flags[n] & NO_STOP == 0;
            if (hostile(x) && open(y)) || (hostile(y) && open(x)) {
                threat += 1;
            }
        }
        let adjacent = b.dirs.iter().filter(|&&d| s.cells[step(k, d)] == A).count() as i32;
        return 20 * adjacent + if s.to_move == Side::Attackers { 300 } else { 60 } * threat;
    }
    let extra = match b.king_capture {
        KingCapture::Middleweight => THRONE | CORNER,
        _ => THRONE,
    };
    let mut closed = 0;
    for d in b.dirs {
        let n = step(k, d);
        let c = s.cells[n];
        if closed_by(n, extra) || (c == OFF && b.king_capture == KingCapture::Middleweight) {
            closed += 1;
        }
    }
    // A strong king on the edge cannot be taken at all: no pressure there.
    if b.king_capture == KingCapture::Strong && b.flags[k] & EDGE != 0 {
        return 0;
    }
    let weights = [0, 15, 45, 120, 0];
    let mut score = weights[closed];
    if closed == 3 && s.to_move == Side::Attackers {
        // One side left: if an attacker can reach it, the king falls.
        score += 200;
    }
    score
}

/// Points for an attacker on each square near a corner: the squares that wall a corner off
/// (a knight's move away from it, and two along the edge) are worth holding; the two squares
/// beside the corner are hostile ground where an attacker is easily taken.
fn corner_guard_table(b: &Board) -> Vec<i32> {
    let mut table = vec![0; b.flags.len()];
    if !b.corner_escape {
        return table;
    }
    let last = b.size - 1;
    for &i in &b.interior {
        let (rank, file) = (i / b.stride - 1, i % b.stride - 1);
        let dr = rank.min(last - rank);
        let df = file.min(last - file);
        table[i] = match (dr, df) {
            (1, 2) | (2, 1) => 25,
            (0, 2) | (2, 0) => 12,
            (1, 1) => 5,
            (0, 1) | (1, 0) => -15,
            _ => 0,
        };
    }
    table
}

/// A defender is worth more than an attacker in proportion to how outnumbered the defenders
/// start (Copenhagen: 24 attackers against 12 defenders), within sensible bounds.
fn defender_value(start_attackers: usize, start_defenders: usize) -> i32 {
    if start_defenders == 0 {
        return 2 * ATTACKER;
    }
    let ratio = (ATTACKER as usize * start_attackers / start_defenders) as i32;
    ratio.clamp(ATTACKER, 5 * ATTACKER / 2)
}
