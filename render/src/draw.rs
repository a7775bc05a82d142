//! Drawing: a scene (which sprite goes on which square, which frames and texts) onto an
//! indexed canvas. Everything expensive was prepared in [`crate::sprites`]; here we copy.

use tafl_rules::{Piece, Position, Side, Square};

use crate::layout::{Layout, Rect};
use crate::sprites::{Cell, Content, Ground, Sprites, Tint};
use crate::text::Font;
use crate::theme::{Palette, Role};
use crate::{Caption, KingStyle, LastMove, Mark, MarkKind, RenderError};

/// An image as palette indices.
#[derive(Clone, Debug)]
pub(crate) struct Canvas {
    pub width: u32,
    pub height: u32,
    pub pixels: Vec<u8>,
}

impl Canvas {
    pub(crate) fn new(width: u32, height: u32, fill: u8) -> Canvas {
        Canvas { width, height, pixels: vec![fill; (width * height) as usize] }
    }

    /// Sets one pixel; pixels off the canvas are ignored, so text near an edge cannot panic.
    pub(crate) fn set(&mut self, x: i64, y: i64, index: u8) {
        if x >= 0 && y >= 0 && x < i64::from(self.width) && y < i64::from(self.height) {
            self.pixels[y as usize * self.width as usize + x as usize] = index;
        }
    }

    pub(crate) fn fill(&mut self, r: Rect, index: u8) {
        let right = (r.x + r.w).min(self.width);
        for y in r.y..(r.y + r.h).min(self.height) {
            let row = (y * self.width) as usize;
            self.pixels[row + r.x.min(right) as usize..row + right as usize].fill(index);
        }
    }

    /// A rectangle's border `t` pixels thick, inside the rectangle.
    pub(crate) fn frame(&mut self, r: Rect, t: u32, index: u8) {
        let t = t.min(r.w / 2).min(r.h / 2);
        self.fill(Rect { h: t, ..r }, index);
        self.fill(Rect { y: r.y + r.h - t, h: t, ..r }, index);
        self.fill(Rect { w: t, ..r }, index);
        self.fill(Rect { x: r.x + r.w - t, w: t, ..r }, index);
    }

    /// Copies a `w` x `h` block of indices with its top-left at (`x`, `y`).
    pub(crate) fn blit(&mut self, src: &[u8], w: u32, h: u32, x: u32, y: u32) {
        for row in 0..h.min(self.height.saturating_sub(y)) {
            let cols = w.min(self.width.saturating_sub(x)) as usize;
            let dst = ((y + row) * self.width + x) as usize;
            let from = (row * w) as usize;
            self.pixels[dst..dst + cols].copy_from_slice(&src[from..from + cols]);
        }
    }
}

/// What one image shows, decided from the position and options before any pixel is drawn;
/// GIF frames compare scenes to find the squares that changed.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Scene {
    /// Screen order, row-major from the top-left.
    pub cells: Vec<Cell>,
    pub frames: Vec<(Square, MarkKind)>,
    pub caption: Option<CaptionText>,
}

/// The caption as it will be drawn: cleaned names and the footer line.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct CaptionText {
    pub attackers: String,
    pub defenders: String,
    /// The side whose name is underlined as the one to move.
    pub to_move: Option<Side>,
    pub footer: String,
}

pub(crate) fn scene(
    layout: &Layout,
    position: &Position,
    last: Option<&LastMove>,
    marks: &[Mark],
    king: KingStyle,
) -> Result<Scene, RenderError> {
    let size = position.size();
    let ship = match king {
        KingStyle::Auto => position.rules().throne.is_none() && !position.rules().has_corners(),
        KingStyle::Crown => false,
        KingStyle::Ship => true,
    };
    let mut cells =
        vec![Cell { ground: Ground::Light, tint: Tint::None, content: Content::Empty }; usize::from(size).pow(2)];
    let at = |sq: Square| {
        let (col, row) = layout.screen(sq);
        (row * u32::from(size) + col) as usize
    };
    for rank in 0..size {
        for file in 0..size {
            let sq = Square::new(file, rank).expect("boards are at most 19 squares wide");
            let ground = if position.is_corner(sq) {
                Ground::Corner
            } else if position.is_throne(sq) {
                Ground::Throne
            } else if (file + rank) % 2 == 0 {
                Ground::Dark
            } else {
                Ground::Light
            };
            let content = match position.piece_at(sq) {
                None => Content::Empty,
                Some(Piece::Attacker) => Content::Attacker,
                Some(Piece::Defender) => Content::Defender,
                Some(Piece::King) if ship => Content::Ship,
                Some(Piece::King) => Content::King,
            };
            cells[at(sq)] = Cell { ground, tint: Tint::None, content };
        }
    }
    let on_board = |sq: Square| {
        if sq.is_on_board(size) { Ok(sq) } else { Err(RenderError::OffBoard { square: sq, size }) }
    };
    if let Some(last) = last {
        let (from, to) = (on_board(last.mv.from)?, on_board(last.mv.to)?);
        if (from.file() != to.file() && from.rank() != to.rank()) || from == to {
            return Err(RenderError::NotAMove { mv: last.mv });
        }
        let path = squares_between(from, to);
        for sq in path {
            cells[at(sq)].tint = Tint::Path;
        }
        cells[at(from)].tint = Tint::From;
        cells[at(to)].tint = Tint::To;
        // The captured pieces belong to the side that did not move. The mover stands on the
        // destination of a move played, on the origin of one not played yet (a hint, drawn on
        // the position before it); with neither (a caller's own highlight), assume the side
        // that has just moved, as after a move played.
        let mover = position
            .piece_at(to)
            .or_else(|| position.piece_at(from))
            .map_or(position.to_move().opponent(), Piece::side);
        let ghost = match mover {
            Side::Attackers => Content::GhostDefender,
            Side::Defenders => Content::GhostAttacker,
        };
        for &sq in &last.captures {
            let cell = &mut cells[at(on_board(sq)?)];
            cell.content = match cell.content {
                Content::Empty => ghost,
                // Not taken yet (a hint): the piece stands, marked as the one the move takes.
                Content::Attacker => Content::TakenAttacker,
                Content::Defender => Content::TakenDefender,
                // The rules never capture the king as a man; a caller's square is left as is.
                other => other,
            };
        }
    }
    let mut frames = Vec::new();
    for mark in marks {
        let sq = on_board(mark.square)?;
        let cell = &mut cells[at(sq)];
        match mark.kind {
            MarkKind::Dot if cell.content == Content::Empty => cell.content = Content::Dot,
            MarkKind::Dot => frames.push((sq, MarkKind::Info)),
            other => frames.push((sq, other)),
        }
    }
    Ok(Scene { cells, frames, caption: None })
}

/// The squares strictly between two squares on one line.
fn squares_between(from: Square, to: Square) -> Vec<Square> {
    let (f0, r0, f1, r1) = (i32::from(from.file()), i32::from(from.rank()), i32::from(to.file()), i32::from(to.rank()));
    let (df, dr) = ((f1 - f0).signum(), (r1 - r0).signum());
    let steps = (f1 - f0).abs().max((r1 - r0).abs());
    (1..steps).filter_map(|k| Square::new((f0 + df * k) as u8, (r0 + dr * k) as u8)).collect()
}

impl CaptionText {
    pub(crate) fn new(font: &Font, caption: &Caption) -> CaptionText {
        CaptionText {
            attackers: font.clean(&caption.attackers),
            defenders: font.clean(&caption.defenders),
            to_move: caption.to_move,
            footer: font.clean(&caption.footer),
        }
    }
}

/// The parts of a board image that never change for a size, theme and orientation: the
/// margin, the grid, and the coordinates on all four edges.
pub(crate) fn base(layout: &Layout, palette: &Palette, font: &Font) -> Canvas {
    let side = layout.board_px() + 2 * layout.band;
    let mut canvas = Canvas::new(side, side, palette.index(Role::Margin));
    let board = Rect { x: layout.band, y: layout.band, w: layout.board_px(), h: layout.board_px() };
    canvas.fill(board, palette.index(Role::Grid));
    let px = layout.font_px as f32;
    let n = u32::from(layout.size);
    let band = layout.band as f32;
    let far = (layout.band + layout.board_px()) as f32;
    let colours = (Role::Text, Role::Margin);
    for i in 0..n {
        let centre = (layout.band + layout.line + i * layout.pitch + layout.cell() / 2) as f32;
        let (file, rank) = match layout.orientation {
            crate::Orientation::Standard => (i, n - 1 - i),
            crate::Orientation::Flipped => (n - 1 - i, i),
        };
        let letter = char::from(b'a' + file as u8).to_string();
        let number = (rank + 1).to_string();
        let lw = font.width(&letter, px);
        for y in [band / 2.0, far + band / 2.0] {
            font.draw(&mut canvas, palette, &letter, px, (centre - lw / 2.0, y), colours);
        }
        let nw = font.width(&number, px);
        for x in [band / 2.0, far + band / 2.0] {
            font.draw(&mut canvas, palette, &number, px, (x - nw / 2.0, centre), colours);
        }
    }
    canvas
}

/// Draws a whole image: base, cells, frames, caption.
pub(crate) fn image(
    layout: &Layout,
    base: &Canvas,
    sprites: &Sprites,
    palette: &Palette,
    font: &Font,
    scene: &Scene,
) -> Canvas {
    let mut canvas = Canvas::new(layout.width, layout.height, palette.index(Role::Margin));
    canvas.blit(&base.pixels, base.width, base.height, layout.board_x - layout.band, layout.board_y - layout.band);
    for (i, &cell) in scene.cells.iter().enumerate() {
        draw_cell(&mut canvas, layout, sprites, i, cell);
    }
    draw_frames(&mut canvas, layout, palette, &scene.frames);
    if let Some(caption) = &scene.caption {
        draw_header(&mut canvas, layout, sprites, palette, font, caption);
        draw_footer(&mut canvas, layout, palette, font, &caption.footer);
    }
    canvas
}

pub(crate) fn cell_rect(layout: &Layout, i: usize) -> Rect {
    let n = usize::from(layout.size);
    layout.cell_rect((i % n) as u32, (i / n) as u32)
}

pub(crate) fn draw_cell(canvas: &mut Canvas, layout: &Layout, sprites: &Sprites, i: usize, cell: Cell) {
    let r = cell_rect(layout, i);
    canvas.blit(sprites.cell(cell), sprites.cell, sprites.cell, r.x, r.y);
}

pub(crate) fn draw_frames(canvas: &mut Canvas, layout: &Layout, palette: &Palette, frames: &[(Square, MarkKind)]) {
    for &(sq, kind) in frames {
        if let Some(r) = layout.square_rect(sq) {
            let role = if kind == MarkKind::Danger { Role::Danger } else { Role::Info };
            canvas.frame(r, (layout.cell() / 14).max(3), palette.index(role));
        }
    }
}

fn draw_header(
    canvas: &mut Canvas,
    layout: &Layout,
    sprites: &Sprites,
    palette: &Palette,
    font: &Font,
    caption: &CaptionText,
) {
    let r = layout.header_rect();
    canvas.fill(r, palette.index(Role::Margin));
    let px = layout.font_px as f32;
    let icon = sprites.icon;
    let gap = layout.font_px / 3;
    let centre_y = (r.y + r.h / 2) as f32;
    let icon_y = r.y + (r.h - icon) / 2;
    let left = layout.board_x;
    let right = layout.board_x + layout.board_px();
    let max_name = (layout.board_px() / 2).saturating_sub(icon + 2 * gap) as f32;
    let colours = (Role::Text, Role::Margin);
    let bar = (layout.font_px / 7).max(3);
    let bar_y = r.y + r.h - bar - 1;

    let name = font.fit(&caption.attackers, px, max_name);
    let w = font.width(&name, px);
    canvas.blit(sprites.icon(0), icon, icon, left, icon_y);
    font.draw(canvas, palette, &name, px, ((left + icon + gap) as f32, centre_y), colours);
    if caption.to_move == Some(Side::Attackers) {
        canvas.fill(Rect { x: left, y: bar_y, w: icon + gap + w.ceil() as u32, h: bar }, palette.index(Role::TurnBar));
    }

    let name = font.fit(&caption.defenders, px, max_name);
    let w = font.width(&name, px);
    let icon_x = right - icon;
    canvas.blit(sprites.icon(1), icon, icon, icon_x, icon_y);
    let text_x = icon_x as f32 - gap as f32 - w;
    font.draw(canvas, palette, &name, px, (text_x, centre_y), colours);
    if caption.to_move == Some(Side::Defenders) {
        let x = text_x.floor().max(0.0) as u32;
        canvas.fill(Rect { x, y: bar_y, w: right - x, h: bar }, palette.index(Role::TurnBar));
    }
}

pub(crate) fn draw_footer(canvas: &mut Canvas, layout: &Layout, palette: &Palette, font: &Font, text: &str) {
    let r = layout.footer_rect();
    canvas.fill(r, palette.index(Role::Margin));
    let px = layout.font_px as f32;
    let text = font.fit(text, px, layout.board_px() as f32);
    let w = font.width(&text, px);
    let x = (layout.width as f32 - w) / 2.0;
    font.draw(canvas, palette, &text, px, (x, (r.y + r.h / 2) as f32), (Role::Text, Role::Margin));
}
