//! The exit fort (Copenhagen): the king on the edge, able to move, walled in by defenders that the
//! attackers can never capture.
//!
//! The decision is conservative by construction, so a position is never called a fort wrongly:
//!
//! 1. The king's region is the set of squares reachable from the king through empty squares. If an
//!    attacker touches it, attackers can reach the king: no fort. The defenders bordering the
//!    region are its wall.
//! 2. Attackers are assumed to be able to reach every square outside the region that is not a
//!    safe defender. A defender is safe when on neither axis both neighbours can hold an attacker
//!    (or be a hostile square), and, under the shieldwall rule, when an edge defender's inner
//!    neighbour cannot hold an attacker or no other defender stands beside it on the edge (a
//!    line needs two; the king, never fronted by an attacker here, cannot be the second).
//!    "Safe" is the greatest fixed point: start with every defender safe and strike out the ones
//!    that fail until nothing changes. Any capture of a safe defender would need an earlier
//!    capture of another safe defender, so none can be first.
//! 3. It is a fort when every wall defender is safe: the wall then never opens, so no attacker
//!    enters the region, and the king on the edge cannot be captured there.

use crate::board::{
    ATTACKER, CELLS, CORNER, DEFENDER, EDGE, EMPTY, Engine, HOSTILE_EMPTY_TO_DEFENDERS, KING, OFF, State, step,
};

pub(crate) fn is_exit_fort(engine: &Engine, s: &State) -> bool {
    let k = s.king;
    if engine.flags[k] & EDGE == 0 {
        return false;
    }
    if !engine.dirs.iter().any(|&d| s.cells[step(k, d)] == EMPTY) {
        return false; // the king must be able to move
    }

    let mut region = [false; CELLS];
    let mut wall = [false; CELLS];
    let mut stack = [0u16; CELLS];
    let mut top = 1;
    stack[0] = k as u16;
    region[k] = true;
    while top > 0 {
        top -= 1;
        let i = stack[top] as usize;
        for d in engine.dirs {
            let n = step(i, d);
            match s.cells[n] {
                EMPTY if !region[n] => {
                    region[n] = true;
                    stack[top] = n as u16;
                    top += 1;
                }
                DEFENDER => wall[n] = true,
                ATTACKER => return false,
                _ => {}
            }
        }
    }

    let mut safe = [false; CELLS];
    for &i in &engine.interior {
        safe[i] = s.cells[i] == DEFENDER;
    }
    // Whether an attacker could ever stand on `n`, or `n` is hostile to defenders anyway.
    let threatens = |safe: &[bool; CELLS], n: usize| -> bool {
        let c = s.cells[n];
        if c == OFF {
            return false;
        }
        if c == EMPTY && engine.flags[n] & HOSTILE_EMPTY_TO_DEFENDERS != 0 {
            return true;
        }
        !(region[n] || c == KING || safe[n])
    };
    let (horizontal, vertical) = (engine.dirs[0], engine.dirs[1]);
    loop {
        let mut changed = false;
        for &i in &engine.interior {
            if !safe[i] {
                continue;
            }
            let axis_open = |d: usize| threatens(&safe, step(i, d)) && threatens(&safe, i.wrapping_sub(d));
            let mut capturable = axis_open(horizontal) || axis_open(vertical);
            if !capturable && let Some(corners_close) = engine.shieldwall {
                capturable = in_closable_wall(engine, s, i, corners_close, &|n| threatens(&safe, n));
            }
            if capturable {
                safe[i] = false;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    engine.interior.iter().all(|&i| !wall[i] || safe[i])
}

/// Whether the edge defender on `i` could be taken in a shieldwall: some contiguous line of two
/// or more defenders (or the king) along the edge that contains it has, for every member, a
/// square in front that an attacker could take, and at both ends a square an attacker could
/// take or a corner that may close the line. Members and ends are judged by `threatens`, the
/// same conservative test as custodial captures (an unsafe defender may be captured first, so
/// its square counts as one an attacker could take).
fn in_closable_wall(
    engine: &Engine,
    s: &State,
    i: usize,
    corners_close: bool,
    threatens: &dyn Fn(usize) -> bool,
) -> bool {
    if engine.flags[i] & EDGE == 0 {
        return false;
    }
    let [east, north, west, south] = engine.dirs;
    let Some(inward) = [east, north, west, south].into_iter().find(|&d| s.cells[i.wrapping_sub(d)] == OFF) else {
        return false;
    };
    let along = if inward == north || inward == south { east } else { north };
    let defends = |n: usize| s.cells[n] == DEFENDER || s.cells[n] == KING;
    // How far the run of defenders and king reaches from `i` each way along the edge.
    let reach = |d: usize| {
        let mut n = 0;
        while defends(i.wrapping_add(d.wrapping_mul(n + 1))) {
            n += 1;
        }
        n
    };
    let (back_reach, ahead_reach) = (reach(along.wrapping_neg()), reach(along));
    let at = |k: isize| i.wrapping_add(along.wrapping_mul(k as usize));
    let fronted = |n: usize| threatens(step(n, inward));
    let closes = |n: usize| {
        let c = s.cells[n];
        (c == EMPTY && engine.flags[n] & CORNER != 0 && corners_close) || (c != KING && threatens(n))
    };
    (0..=back_reach as isize).any(|back| {
        (0..=ahead_reach as isize).any(|ahead| {
            back + ahead >= 1
                && (-back..=ahead).all(|k| fronted(at(k)))
                && closes(at(-back - 1))
                && closes(at(ahead + 1))
        })
    })
}
