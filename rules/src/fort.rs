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
    ATTACKER, CELLS, DEFENDER, EDGE, EMPTY, Engine, HOSTILE_EMPTY_TO_DEFENDERS, KING, OFF, State, step,
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
            if !capturable && engine.shieldwall.is_some() && engine.flags[i] & EDGE != 0 {
                // Conservative: an edge defender whose inner neighbour may hold an attacker could
                // be part of a shieldwall, if a line of two can form, i.e. another defender stands
                // beside it on the edge. The king never completes a line here: his front is
                // always the region or the wall, never an attacker.
                let along = |d: usize| {
                    if d == horizontal || d == horizontal.wrapping_neg() { vertical } else { horizontal }
                };
                capturable = [horizontal, vertical].into_iter().flat_map(|d| [d, d.wrapping_neg()]).any(|d| {
                    s.cells[i.wrapping_sub(d)] == OFF
                        && threatens(&safe, step(i, d))
                        && [along(d), along(d).wrapping_neg()].into_iter().any(|a| s.cells[step(i, a)] == DEFENDER)
                });
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
