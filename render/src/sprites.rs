//! Pre-drawn squares: every combination of square kind, last-move tint and content, drawn once
//! per board size and theme with anti-aliased shapes and stored as palette indices. Drawing a
//! board is then copying cells (as lichess's GIF renderer does).
//!
//! Shapes are signed distance functions (negative inside, in pixels), which gives exact
//! anti-aliasing: a pixel's coverage is `0.5 - distance`, clamped.

use std::collections::HashMap;

use crate::theme::{Palette, Role, mix};

/// The kind of square under everything else.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Ground {
    Light,
    Dark,
    Throne,
    Corner,
}

/// The last-move tint of a square.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Tint {
    None,
    From,
    Path,
    To,
}

/// What stands (or is marked) on a square.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Content {
    Empty,
    Attacker,
    Defender,
    King,
    /// The Sea Battle king, a merchant ship.
    Ship,
    /// Where the move shown took a piece: its outline and a cross, faint, on the empty square.
    GhostAttacker,
    GhostDefender,
    /// A piece the move shown would take, still standing (a hint drawn before its move): the
    /// piece with the captures' red cross over it.
    TakenAttacker,
    TakenDefender,
    Dot,
}

const GROUNDS: [Ground; 4] = [Ground::Light, Ground::Dark, Ground::Throne, Ground::Corner];
const TINTS: [Tint; 4] = [Tint::None, Tint::From, Tint::Path, Tint::To];
const CONTENTS: [Content; 10] = [
    Content::Empty,
    Content::Attacker,
    Content::Defender,
    Content::King,
    Content::Ship,
    Content::GhostAttacker,
    Content::GhostDefender,
    Content::TakenAttacker,
    Content::TakenDefender,
    Content::Dot,
];

/// One square's look; the key of its sprite.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Cell {
    pub ground: Ground,
    pub tint: Tint,
    pub content: Content,
}

impl Cell {
    fn slot(self) -> usize {
        ((self.ground as usize) * TINTS.len() + self.tint as usize) * CONTENTS.len() + self.content as usize
    }
}

/// Every cell sprite of one board size and theme, plus the side icons of the header.
#[derive(Debug)]
pub(crate) struct Sprites {
    pub cell: u32,
    data: Vec<u8>,
    pub icon: u32,
    icons: Vec<u8>,
}

impl Sprites {
    pub(crate) fn new(palette: &Palette, cell: u32, icon: u32) -> Sprites {
        let mut quantizer = Quantizer { palette, cache: HashMap::with_capacity(1024) };
        let area = (cell * cell) as usize;
        let mut data = vec![0u8; GROUNDS.len() * TINTS.len() * CONTENTS.len() * area];
        for ground in GROUNDS {
            for tint in TINTS {
                for content in CONTENTS {
                    let c = Cell { ground, tint, content };
                    let out = &mut data[c.slot() * area..(c.slot() + 1) * area];
                    paint(out, cell, |x, y| quantizer.get(shade_cell(palette, c, x, y, cell as f32)));
                }
            }
        }
        let icon_area = (icon * icon) as usize;
        let mut icons = vec![0u8; 2 * icon_area];
        for (i, content) in [Content::Attacker, Content::Defender].into_iter().enumerate() {
            let margin = palette.rgb_f32(Role::Margin);
            paint(&mut icons[i * icon_area..(i + 1) * icon_area], icon, |x, y| {
                let (p, u) = centred(x, y, icon as f32);
                quantizer.get(shade_badge(palette, margin, content, p, u))
            });
        }
        Sprites { cell, data, icon, icons }
    }

    pub(crate) fn cell(&self, c: Cell) -> &[u8] {
        let area = (self.cell * self.cell) as usize;
        &self.data[c.slot() * area..(c.slot() + 1) * area]
    }

    /// The header icon of a side: 0 attackers, 1 defenders.
    pub(crate) fn icon(&self, side: usize) -> &[u8] {
        let area = (self.icon * self.icon) as usize;
        &self.icons[side * area..(side + 1) * area]
    }
}

fn paint(out: &mut [u8], side: u32, mut f: impl FnMut(u32, u32) -> u8) {
    for y in 0..side {
        for x in 0..side {
            out[(y * side + x) as usize] = f(x, y);
        }
    }
}

/// Maps shaded colours to palette entries, remembering the answers: most pixels of a sprite
/// are one of a few flat colours.
struct Quantizer<'a> {
    palette: &'a Palette,
    cache: HashMap<[u8; 3], u8>,
}

impl Quantizer<'_> {
    fn get(&mut self, c: [f32; 3]) -> u8 {
        let key = c.map(|v| v.round().clamp(0.0, 255.0) as u8);
        *self.cache.entry(key).or_insert_with(|| self.palette.nearest(c))
    }
}

/// A pixel centre relative to the middle of a `side`-pixel square, and the square's size.
fn centred(x: u32, y: u32, side: f32) -> ([f32; 2], f32) {
    ([x as f32 + 0.5 - side / 2.0, y as f32 + 0.5 - side / 2.0], side)
}

#[allow(clippy::many_single_char_names)] // p, u: point and unit, as in every shape below
fn shade_cell(palette: &Palette, c: Cell, x: u32, y: u32, side: f32) -> [f32; 3] {
    let (p, u) = centred(x, y, side);
    let ground = match (c.tint, c.ground) {
        (Tint::From, _) => Role::From,
        (Tint::Path, _) => Role::Path,
        (Tint::To, _) => Role::To,
        (Tint::None, Ground::Light) => Role::Light,
        (Tint::None, Ground::Dark) => Role::Dark,
        (Tint::None, Ground::Throne | Ground::Corner) => Role::Special,
    };
    let mut colour = palette.rgb_f32(ground);
    let lw = (0.035 * u).max(1.3);
    let pattern = palette.rgb_f32(Role::Pattern);
    match c.ground {
        Ground::Throne => {
            // Two nested frames: reads as a raised seat, distinct from a corner's cross.
            let outer = rounded_box(p, 0.41 * u, 0.06 * u).abs() - lw / 2.0;
            let inner = rounded_box(p, 0.31 * u, 0.04 * u).abs() - lw / 2.0;
            colour = mix(colour, pattern, coverage(outer.min(inner)));
        }
        Ground::Corner => {
            let frame = rounded_box(p, 0.41 * u, 0.06 * u);
            let cross = (p[0] - p[1]).abs().min((p[0] + p[1]).abs()) / std::f32::consts::SQRT_2 - lw / 2.0;
            colour = mix(colour, pattern, coverage((frame.abs() - lw / 2.0).min(cross.max(frame))));
        }
        Ground::Light | Ground::Dark => {}
    }
    shade_content(palette, colour, c.content, p, u)
}

/// A side's badge in a square of side `u` over `under`: its piece as drawn on the board, on a
/// rounded tile of the board's light square. Without the tile a piece the colour of the
/// margin (the high-contrast attacker is black on black) shows only its inner ring and reads
/// as an empty circle, not as the piece the player moves.
pub(crate) fn shade_badge(palette: &Palette, under: [f32; 3], content: Content, p: [f32; 2], u: f32) -> [f32; 3] {
    let tile = rounded_box(p, 0.47 * u, 0.16 * u);
    let colour = mix(under, palette.rgb_f32(Role::Light), coverage(tile));
    shade_content(palette, colour, content, p, u)
}

/// Draws `content` over `colour` at `p` in a square of side `u`.
fn shade_content(palette: &Palette, mut colour: [f32; 3], content: Content, p: [f32; 2], u: f32) -> [f32; 3] {
    let rgb = |role| palette.rgb_f32(role);
    let outline = (0.05 * u).max(1.5);
    let layer = |colour: &mut [f32; 3], role: Role, d: f32| *colour = mix(*colour, rgb(role), coverage(d));
    match content {
        Content::Empty => {}
        Content::Attacker => {
            let d = circle(p, 0.37 * u);
            layer(&mut colour, Role::Ink, d);
            layer(&mut colour, Role::AttackerFill, d + outline);
            let ring = (circle(p, 0.21 * u)).abs() - 0.03 * u;
            layer(&mut colour, Role::AttackerRim, ring);
        }
        Content::Defender => {
            let d = rounded_box(p, 0.32 * u, 0.09 * u);
            layer(&mut colour, Role::Ink, d);
            layer(&mut colour, Role::DefenderFill, d + outline);
        }
        Content::King | Content::Ship => {
            let d = rounded_box(p, 0.40 * u, 0.12 * u);
            layer(&mut colour, Role::Ink, d);
            layer(&mut colour, Role::DefenderFill, d + outline);
            let thin = outline * 0.8;
            if content == Content::King {
                let crown = crown(p, u);
                layer(&mut colour, Role::Ink, crown);
                layer(&mut colour, Role::Crown, crown + thin);
            } else {
                let mast = rounded_box_xy([p[0], p[1] + 0.10 * u], [0.025 * u, 0.22 * u], 0.01 * u);
                layer(&mut colour, Role::Ink, mast);
                let sail = rounded_box_xy([p[0], p[1] + 0.10 * u], [0.23 * u, 0.15 * u], 0.03 * u);
                layer(&mut colour, Role::Ink, sail);
                layer(&mut colour, Role::Crown, sail + thin);
                let stripe = (p[0].abs() - 0.09 * u).abs() - 0.03 * u;
                layer(&mut colour, Role::Ghost, stripe.max(sail + thin));
                let hull = polygon(p, &SHIP_HULL, u);
                layer(&mut colour, Role::Ink, hull);
            }
        }
        Content::GhostAttacker | Content::GhostDefender => {
            let shape = if content == Content::GhostAttacker {
                circle(p, 0.34 * u)
            } else {
                rounded_box(p, 0.30 * u, 0.08 * u)
            };
            let ring = shape.abs() - 0.02 * u;
            let cross = cross(p, 0.13 * u, 0.03 * u);
            layer(&mut colour, Role::Ghost, ring.min(cross));
        }
        Content::TakenAttacker | Content::TakenDefender => {
            let piece = if content == Content::TakenAttacker { Content::Attacker } else { Content::Defender };
            colour = shade_content(palette, colour, piece, p, u);
            // The ghost's cross, larger and bolder to read over a piece at a glance, in a light
            // rim so that it shows on the dark attacker as on the white defender.
            let cross = cross(p, 0.22 * u, 0.055 * u);
            layer(&mut colour, Role::DefenderFill, cross - (0.035 * u).max(1.5));
            layer(&mut colour, Role::Ghost, cross);
        }
        Content::Dot => layer(&mut colour, Role::Dot, circle(p, 0.14 * u)),
    }
    colour
}

/// The crown's band and three points, in units of the square's side (y down).
const CROWN: [[f32; 2]; 7] =
    [[-0.25, 0.17], [-0.28, -0.13], [-0.13, 0.01], [0.0, -0.2], [0.13, 0.01], [0.28, -0.13], [0.25, 0.17]];

/// A knorr's hull with raised stem and stern.
const SHIP_HULL: [[f32; 2]; 6] =
    [[-0.35, 0.01], [-0.25, 0.09], [0.25, 0.09], [0.35, 0.01], [0.23, 0.27], [-0.23, 0.27]];

fn crown(p: [f32; 2], u: f32) -> f32 {
    let body = polygon(p, &CROWN, u);
    let ball = |x: f32, y: f32| circle([p[0] - x * u, p[1] - y * u], 0.045 * u);
    body.min(ball(-0.28, -0.15)).min(ball(0.0, -0.22)).min(ball(0.28, -0.15))
}

/// A diagonal cross whose bars reach `arm` from the centre along each axis and are `2 * half`
/// thick.
fn cross(p: [f32; 2], arm: f32, half: f32) -> f32 {
    let bar = |a: f32, b: f32| ((a - b).abs() / std::f32::consts::SQRT_2 - half).max(a.abs().max(b.abs()) - arm);
    bar(p[0], p[1]).min(bar(p[0], -p[1]))
}

fn coverage(d: f32) -> f32 {
    (0.5 - d).clamp(0.0, 1.0)
}

fn circle(p: [f32; 2], r: f32) -> f32 {
    p[0].hypot(p[1]) - r
}

fn rounded_box(p: [f32; 2], half: f32, radius: f32) -> f32 {
    rounded_box_xy(p, [half, half], radius)
}

fn rounded_box_xy(p: [f32; 2], half: [f32; 2], radius: f32) -> f32 {
    let qx = p[0].abs() - half[0] + radius;
    let qy = p[1].abs() - half[1] + radius;
    qx.max(0.0).hypot(qy.max(0.0)) + qx.max(qy).min(0.0) - radius
}

/// Signed distance to a simple polygon given in units of `u` (Inigo Quilez's formulation).
#[allow(clippy::many_single_char_names)] // the formula's own names
fn polygon(p: [f32; 2], vertices: &[[f32; 2]], u: f32) -> f32 {
    let v = |i: usize| [vertices[i][0] * u, vertices[i][1] * u];
    let sub = |a: [f32; 2], b: [f32; 2]| [a[0] - b[0], a[1] - b[1]];
    let dot = |a: [f32; 2], b: [f32; 2]| a[0] * b[0] + a[1] * b[1];
    let first = sub(p, v(0));
    let mut d = dot(first, first);
    let mut sign = 1.0f32;
    let n = vertices.len();
    let mut j = n - 1;
    for i in 0..n {
        let (vi, vj) = (v(i), v(j));
        let e = sub(vj, vi);
        let w = sub(p, vi);
        let t = (dot(w, e) / dot(e, e)).clamp(0.0, 1.0);
        let b = [w[0] - e[0] * t, w[1] - e[1] * t];
        d = d.min(dot(b, b));
        let c = [p[1] >= vi[1], p[1] < vj[1], e[0] * w[1] > e[1] * w[0]];
        if c.iter().all(|&x| x) || c.iter().all(|&x| !x) {
            sign = -sign;
        }
        j = i;
    }
    sign * d.sqrt()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn polygon_distance_is_negative_inside_and_positive_outside() {
        assert!(polygon([0.0, 0.1], &CROWN, 1.0) < 0.0);
        assert!(polygon([0.0, 0.5], &CROWN, 1.0) > 0.0);
    }

    #[test]
    fn rounded_box_distance_matches_the_edge() {
        assert!((rounded_box([10.0, 0.0], 10.0, 2.0)).abs() < 1e-4);
        assert!(rounded_box([0.0, 0.0], 10.0, 2.0) < -9.0);
    }
}
