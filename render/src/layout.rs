//! Geometry: where the board, its coordinates, the header and the footer go, in pixels.

use tafl_rules::Square;

/// Which way up the board is drawn.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Orientation {
    /// `a1` bottom-left, as in notation and diagrams.
    #[default]
    Standard,
    /// Turned half a circle: `a1` top-right, for the player who sits on the other side.
    Flipped,
}

impl Orientation {
    pub(crate) const fn index(self) -> usize {
        match self {
            Orientation::Standard => 0,
            Orientation::Flipped => 1,
        }
    }
}

/// A rectangle in image pixels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rect {
    pub x: u32,
    pub y: u32,
    pub w: u32,
    pub h: u32,
}

impl Rect {
    #[must_use]
    pub fn centre(self) -> (u32, u32) {
        (self.x + self.w / 2, self.y + self.h / 2)
    }

    pub(crate) fn union(self, other: Rect) -> Rect {
        let x = self.x.min(other.x);
        let y = self.y.min(other.y);
        let right = (self.x + self.w).max(other.x + other.w);
        let bottom = (self.y + self.h).max(other.y + other.h);
        Rect { x, y, w: right - x, h: bottom - y }
    }
}

/// Width : height of every image is at least this (16:15), slightly landscape. Discord's mobile
/// client fits an attachment to the chat's width and caps its height, and crops previews that are
/// grids of tiles to squares; a slightly wide image uses the full width and any square crop only
/// takes blank side margin, never coordinates.
pub const MIN_ASPECT: (u32, u32) = (16, 15);

/// The pixel geometry of one image: a board of `size` with or without a caption.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    pub size: u8,
    pub orientation: Orientation,
    /// Distance between square origins (a square plus one grid line).
    pub pitch: u32,
    /// Grid line width.
    pub line: u32,
    /// Height of the coordinate letters.
    pub font_px: u32,
    /// Width of the band holding coordinates on each side of the board.
    pub band: u32,
    pub header: u32,
    pub footer: u32,
    pub width: u32,
    pub height: u32,
    /// Top-left of the board's outer grid line.
    pub board_x: u32,
    pub board_y: u32,
}

impl Layout {
    /// Square pitch by board size: about 700 pixels of board, so that an 11x11 board is about
    /// 800 pixels wide: sharp on a phone at full width, and small enough to encode in 2 ms.
    pub(crate) fn new(size: u8, orientation: Orientation, caption: bool) -> Layout {
        let pitch = (700 / u32::from(size)).clamp(36, 100);
        let line = (pitch / 34).max(1);
        let font_px = (pitch * 2 / 5).clamp(20, 30);
        let band = font_px * 3 / 2;
        let header = if caption { font_px * 2 + 6 } else { 0 };
        let footer = header;
        let board = Layout::board_px_for(size, pitch, line);
        let natural_w = board + 2 * band;
        let height = board + 2 * band + header + footer;
        let min_w = (height * MIN_ASPECT.0).div_ceil(MIN_ASPECT.1);
        let width = natural_w.max(min_w);
        Layout {
            size,
            orientation,
            pitch,
            line,
            font_px,
            band,
            header,
            footer,
            width,
            height,
            board_x: (width - board) / 2,
            board_y: header + band,
        }
    }

    fn board_px_for(size: u8, pitch: u32, line: u32) -> u32 {
        u32::from(size) * pitch + line
    }

    /// The board's side in pixels, outer grid lines included.
    #[must_use]
    pub fn board_px(&self) -> u32 {
        Layout::board_px_for(self.size, self.pitch, self.line)
    }

    /// The inside of a square's cell (without grid lines).
    #[must_use]
    pub fn cell(&self) -> u32 {
        self.pitch - self.line
    }

    /// Column and row of a square on screen, counted from the top-left.
    pub(crate) fn screen(&self, sq: Square) -> (u32, u32) {
        let last = u32::from(self.size) - 1;
        let (file, rank) = (u32::from(sq.file()), u32::from(sq.rank()));
        match self.orientation {
            Orientation::Standard => (file, last - rank),
            Orientation::Flipped => (last - file, rank),
        }
    }

    /// The pixels of a square's cell, or `None` for a square off this board.
    #[must_use]
    pub fn square_rect(&self, sq: Square) -> Option<Rect> {
        if !sq.is_on_board(self.size) {
            return None;
        }
        let (col, row) = self.screen(sq);
        Some(self.cell_rect(col, row))
    }

    pub(crate) fn cell_rect(&self, col: u32, row: u32) -> Rect {
        Rect {
            x: self.board_x + self.line + col * self.pitch,
            y: self.board_y + self.line + row * self.pitch,
            w: self.cell(),
            h: self.cell(),
        }
    }

    pub(crate) fn header_rect(&self) -> Rect {
        Rect { x: 0, y: 0, w: self.width, h: self.header }
    }

    pub(crate) fn footer_rect(&self) -> Rect {
        Rect { x: 0, y: self.height - self.footer, w: self.width, h: self.footer }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_board_size_is_slightly_wider_than_tall() {
        for size in (5..=19).step_by(2) {
            for caption in [false, true] {
                let l = Layout::new(size, Orientation::Standard, caption);
                assert!(l.width * MIN_ASPECT.1 >= l.height * MIN_ASPECT.0, "{size} {caption}: {l:?}");
                assert!(l.board_x >= l.band, "coordinates fit left of the board");
                assert_eq!(l.board_y + l.board_px() + l.band + l.footer, l.height);
            }
        }
    }

    #[test]
    fn flipping_puts_a1_top_right() {
        let a1 = Square::new(0, 0).unwrap();
        assert_eq!(Layout::new(11, Orientation::Standard, false).screen(a1), (0, 10));
        assert_eq!(Layout::new(11, Orientation::Flipped, false).screen(a1), (10, 0));
    }
}
