//! Text on boards: names and footers laid out with the renderer's faces (`fonts.rs`: Noto Sans
//! Bold first, then the faces of further scripts, all embedded, never the system's) and drawn
//! anti-aliased into the indexed canvas with the palette's ramps.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};

use ab_glyph::{Font as _, GlyphId, ScaleFont as _, point};

use crate::draw::Canvas;
use crate::fonts::{Fonts, Placed, Weight, needs_shaping};
use crate::theme::{Palette, Role};

/// Boards draw every word in bold.
const WEIGHT: Weight = Weight::Bold;

/// What a character no face has becomes on a board: a name of emoji alone must still show
/// that there is a name.
const MISSING: char = '?';

#[derive(Debug)]
pub(crate) struct Font {
    faces: Fonts,
    /// Rasterised glyphs by (face, glyph, pixel size): names and footers repeat the same few
    /// dozen letters, and outlining them again cost more than the rest of a board.
    cache: Mutex<HashMap<(usize, u16, u32), Arc<Bitmap>>>,
}

/// A glyph's coverage with its top-left relative to its origin on the baseline.
#[derive(Debug)]
struct Bitmap {
    left: i64,
    top: i64,
    w: usize,
    h: usize,
    cover: Vec<f32>,
}

/// Caching stops growing here, so hostile names in every script cannot fill memory.
const CACHE_LIMIT: usize = 4096;

impl Font {
    pub(crate) fn new() -> Font {
        Font { faces: Fonts::new(), cache: Mutex::new(HashMap::new()) }
    }

    /// The faces, which the cards draw with too.
    pub(crate) fn faces(&self) -> &Fonts {
        &self.faces
    }

    /// `text` with control and invisible characters dropped and each run of characters no
    /// face has (emoji) replaced by one `?`, so that nothing is drawn as an empty box.
    pub(crate) fn clean(&self, text: &str) -> String {
        self.faces.clean_with(text, Some(MISSING))
    }

    /// The glyphs of `text` placed from a pen at 0 on the baseline, and the width of the whole.
    /// Text Noto Sans draws alone (every Latin and Cyrillic name, every footer) is laid out
    /// letter by letter with its kerning, as boards always were; anything else is shaped, in
    /// display order, across the chain of faces.
    fn glyphs(&self, text: &str, px: f32) -> (Vec<Placed>, f32) {
        let noto = self.faces.face(WEIGHT, 0);
        if needs_shaping(text) || text.chars().any(|c| c != ' ' && noto.glyph_id(c).0 == 0) {
            return self.faces.shape(WEIGHT, text, px);
        }
        let scaled = noto.as_scaled(self.faces.scale(WEIGHT, 0, px));
        let mut x = 0.0;
        let mut prev: Option<GlyphId> = None;
        let mut out = Vec::with_capacity(text.len());
        for c in text.chars() {
            let id = scaled.glyph_id(c);
            if let Some(prev) = prev {
                x += scaled.kern(prev, id);
            }
            out.push(Placed { face: 0, glyph: id.0, x, y: 0.0 });
            x += scaled.h_advance(id);
            prev = Some(id);
        }
        (out, x)
    }

    pub(crate) fn width(&self, text: &str, px: f32) -> f32 {
        self.glyphs(text, px).1
    }

    /// `text`, shortened with an ellipsis until it is at most `max` pixels wide.
    pub(crate) fn fit(&self, text: &str, px: f32, max: f32) -> String {
        if self.width(text, px) <= max {
            return text.to_owned();
        }
        let mut chars: Vec<char> = text.chars().collect();
        while !chars.is_empty() {
            chars.pop();
            let candidate = crate::fonts::cut_with_ellipsis(&chars);
            if self.width(&candidate, px) <= max {
                return candidate;
            }
        }
        String::new()
    }

    /// Draws `text` with its left end at `x` and its capital letters centred on `centre_y`,
    /// over pixels of `bg`. Glyphs are placed on whole pixels so that their bitmaps can be
    /// cached; half a pixel of kerning is invisible at these sizes.
    pub(crate) fn draw(
        &self,
        canvas: &mut Canvas,
        palette: &Palette,
        text: &str,
        px: f32,
        (x, centre_y): (f32, f32),
        (fg, bg): (Role, Role),
    ) {
        // Noto's capital height is 0.714 em: half of it below the centre line is the baseline.
        let baseline = (centre_y + 0.357 * px).round() as i64;
        let (glyphs, _) = self.glyphs(text, px);
        // Each glyph's origin on whole pixels: x from the pen, y from the baseline (shaping
        // raises or lowers marks).
        let placed: Vec<(i64, i64, Arc<Bitmap>)> = glyphs
            .iter()
            .filter_map(|g| Some(((x + g.x).round() as i64, g.y.round() as i64, self.bitmap(g.face, g.glyph, px)?)))
            .collect();
        let Some(x0) = placed.iter().map(|(ox, _, b)| ox + b.left).min() else { return };
        let x1 = placed.iter().map(|(ox, _, b)| ox + b.left + b.w as i64).max().unwrap_or(x0);
        let y0 = placed.iter().map(|(_, oy, b)| oy + b.top).min().unwrap_or(0);
        let y1 = placed.iter().map(|(_, oy, b)| oy + b.top + b.h as i64).max().unwrap_or(y0);
        let (w, h) = ((x1 - x0) as usize, (y1 - y0) as usize);
        // Glyphs may overlap (kerning, marks); keep the larger coverage instead of drawing twice.
        let mut cover = vec![0f32; w * h];
        for (ox, oy, b) in &placed {
            let (gx, gy) = ((ox + b.left - x0) as usize, (oy + b.top - y0) as usize);
            for row in 0..b.h {
                for col in 0..b.w {
                    let cell = &mut cover[(gy + row) * w + gx + col];
                    *cell = cell.max(b.cover[row * b.w + col]);
                }
            }
        }
        for (i, &c) in cover.iter().enumerate() {
            if c > 0.5 / 6.0 {
                canvas.set(x0 + (i % w) as i64, baseline + y0 + (i / w) as i64, palette.blend(fg, bg, c));
            }
        }
    }

    fn bitmap(&self, face: usize, glyph: u16, px: f32) -> Option<Arc<Bitmap>> {
        let key = (face, glyph, px.to_bits());
        if let Some(b) = self.cache.lock().unwrap_or_else(PoisonError::into_inner).get(&key) {
            return Some(Arc::clone(b));
        }
        let scale = self.faces.scale(WEIGHT, face, px);
        let outlined = self
            .faces
            .face(WEIGHT, face)
            .outline_glyph(GlyphId(glyph).with_scale_and_position(scale, point(0.0, 0.0)))?;
        let bounds = outlined.px_bounds();
        let (w, h) = (bounds.width() as usize, bounds.height() as usize);
        let mut cover = vec![0f32; w * h];
        outlined.draw(|x, y, c| {
            if let Some(cell) = cover.get_mut(y as usize * w + x as usize) {
                *cell = c;
            }
        });
        let bitmap = Arc::new(Bitmap { left: bounds.min.x as i64, top: bounds.min.y as i64, w, h, cover });
        let mut cache = self.cache.lock().unwrap_or_else(PoisonError::into_inner);
        if cache.len() < CACHE_LIMIT {
            cache.insert(key, Arc::clone(&bitmap));
        }
        Some(bitmap)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fonts::MAX_CHARS;
    use crate::fonts::tests::NAMES;
    use crate::theme::Theme;

    #[test]
    fn names_lose_control_characters_and_unknown_glyphs_become_one_question_mark() {
        let font = Font::new();
        assert_eq!(font.clean("Bob \u{1F6E1}\u{FE0F}"), "Bob ?");
        assert_eq!(font.clean("\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467} Ann"), "? Ann");
        assert_eq!(font.clean("\u{7}Ann\nLee "), "Ann Lee");
        assert_eq!(font.clean("Þórr"), "Þórr");
        assert_eq!(font.clean(&"x".repeat(10_000)).chars().count(), MAX_CHARS);
    }

    #[test]
    fn long_text_is_shortened_with_an_ellipsis_to_fit() {
        let font = Font::new();
        let fitted = font.fit("A very long name indeed, longer than any header", 24.0, 200.0);
        assert!(fitted.ends_with('…'), "{fitted}");
        assert!(font.width(&fitted, 24.0) <= 200.0);
        let fitted = font.fit("王小明 さくら 田中 김민준 محمد عبد الله", 24.0, 120.0);
        assert!(fitted.ends_with('…') && font.width(&fitted, 24.0) <= 120.0, "{fitted}");
    }

    /// Columns of `canvas` holding anything but the background, as (count, leftmost, rightmost).
    fn ink(canvas: &Canvas, bg: u8) -> (usize, i64, i64) {
        let (mut count, mut left, mut right) = (0, i64::MAX, i64::MIN);
        for (i, &p) in canvas.pixels.iter().enumerate() {
            if p != bg {
                let x = (i % canvas.width as usize) as i64;
                count += 1;
                left = left.min(x);
                right = right.max(x);
            }
        }
        (count, left, right)
    }

    /// Boards draw names in every script the cards do: none becomes `?`, and each draws ink as
    /// wide as its layout says.
    #[test]
    fn a_name_in_each_bundled_script_is_drawn_on_a_board() {
        let font = Font::new();
        let palette = Palette::new(Theme::Classic);
        let bg = palette.index(Role::Margin);
        for (script, name) in NAMES {
            let clean = font.clean(name);
            assert!(!clean.contains(MISSING), "{script}: {clean}");
            let mut canvas = Canvas::new(900, 80, bg);
            font.draw(&mut canvas, &palette, &clean, 30.0, (20.0, 40.0), (Role::Text, Role::Margin));
            let (count, left, right) = ink(&canvas, bg);
            let width = font.width(&clean, 30.0);
            assert!(count > 150, "{script}: {count} pixels inked");
            let inked = (right - left) as f32;
            assert!(inked > width * 0.6 && inked < width + 10.0, "{script}: ink {left}..{right}, layout {width}");
            assert!(left >= 18, "{script}: nothing is drawn left of the pen ({left})");
        }
    }

    /// Latin text keeps the layout boards always had: Noto Sans alone, kerned.
    #[test]
    fn latin_text_is_laid_out_by_noto_sans_alone() {
        let font = Font::new();
        let (glyphs, _) = font.glyphs("AV Ярослав", 30.0);
        assert!(glyphs.iter().all(|g| g.face == 0), "{glyphs:?}");
        let (glyphs, _) = font.glyphs("Ann 王", 30.0);
        assert!(glyphs.iter().any(|g| g.face != 0), "{glyphs:?}");
    }
}
