//! Text: the embedded font (Noto Sans Bold, from a crate, never the system's), laid out and
//! drawn anti-aliased with the palette's ramps.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};

use ab_glyph::{Font as _, FontRef, Glyph, GlyphId, PxScale, ScaleFont as _, point};

use crate::draw::Canvas;
use crate::theme::{Palette, Role};

/// Player names are untrusted; longer ones are cut before layout so that a 10 KB name costs
/// nothing.
const MAX_CHARS: usize = 64;

#[derive(Debug)]
pub(crate) struct Font {
    face: FontRef<'static>,
    /// Rasterised glyphs by (glyph, pixel size): names and footers repeat the same few dozen
    /// letters, and outlining them again cost more than the rest of a board.
    cache: Mutex<HashMap<(u16, u32), Arc<Bitmap>>>,
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
        Font {
            face: FontRef::try_from_slice(ttf_noto_sans::BOLD).expect("the embedded Noto Sans Bold parses"),
            cache: Mutex::new(HashMap::new()),
        }
    }

    /// `text` with control characters dropped and characters the font lacks (emoji, CJK)
    /// replaced by `?`, so that nothing is drawn as an empty box.
    pub(crate) fn clean(&self, text: &str) -> String {
        let mut out = String::new();
        for c in text.chars().filter(|&c| !c.is_control() && !is_invisible(c)).take(MAX_CHARS) {
            let c = if c == ' ' || self.face.glyph_id(c).0 != 0 { c } else { '?' };
            // An emoji sequence is several code points; one `?` is enough.
            if !(c == '?' && out.ends_with('?')) {
                out.push(c);
            }
        }
        out.trim().to_owned()
    }

    fn glyphs(&self, text: &str, px: f32) -> (Vec<Glyph>, f32) {
        let scaled = self.face.as_scaled(PxScale::from(px));
        let mut x = 0.0;
        let mut prev: Option<GlyphId> = None;
        let mut out = Vec::with_capacity(text.len());
        for c in text.chars() {
            let id = scaled.glyph_id(c);
            if let Some(prev) = prev {
                x += scaled.kern(prev, id);
            }
            out.push(id.with_scale_and_position(px, point(x, 0.0)));
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
            let candidate: String = chars.iter().collect::<String>().trim_end().to_owned() + "…";
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
        let placed: Vec<(i64, Arc<Bitmap>)> =
            glyphs.iter().filter_map(|g| Some(((x + g.position.x).round() as i64, self.bitmap(g.id, px)?))).collect();
        let Some(x0) = placed.iter().map(|(ox, b)| ox + b.left).min() else { return };
        let x1 = placed.iter().map(|(ox, b)| ox + b.left + b.w as i64).max().unwrap_or(x0);
        let y0 = placed.iter().map(|(_, b)| b.top).min().unwrap_or(0);
        let y1 = placed.iter().map(|(_, b)| b.top + b.h as i64).max().unwrap_or(y0);
        let (w, h) = ((x1 - x0) as usize, (y1 - y0) as usize);
        // Glyphs may overlap (kerning); keep the larger coverage instead of drawing twice.
        let mut cover = vec![0f32; w * h];
        for (ox, b) in &placed {
            let (gx, gy) = ((ox + b.left - x0) as usize, (b.top - y0) as usize);
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

    fn bitmap(&self, id: GlyphId, px: f32) -> Option<Arc<Bitmap>> {
        let key = (id.0, px.to_bits());
        if let Some(b) = self.cache.lock().unwrap_or_else(PoisonError::into_inner).get(&key) {
            return Some(Arc::clone(b));
        }
        let outlined = self.face.outline_glyph(id.with_scale_and_position(px, point(0.0, 0.0)))?;
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

/// Code points that only modify their neighbours (variation selectors, joiners, tags).
fn is_invisible(c: char) -> bool {
    matches!(c, '\u{200B}'..='\u{200F}' | '\u{2060}'..='\u{206F}' | '\u{FE00}'..='\u{FE0F}' | '\u{E0000}'..='\u{E007F}')
        || matches!(c, '\u{1F3FB}'..='\u{1F3FF}')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_lose_control_characters_and_unknown_glyphs_become_one_question_mark() {
        let font = Font::new();
        assert_eq!(font.clean("Bob \u{1F6E1}\u{FE0F}"), "Bob ?");
        assert_eq!(font.clean("\u{7}Ann\nLee "), "AnnLee");
        assert_eq!(font.clean("Þórr"), "Þórr");
        assert_eq!(font.clean(&"x".repeat(10_000)).len(), MAX_CHARS);
    }

    #[test]
    fn long_text_is_shortened_with_an_ellipsis_to_fit() {
        let font = Font::new();
        let fitted = font.fit("A very long name indeed, longer than any header", 24.0, 200.0);
        assert!(fitted.ends_with('…'), "{fitted}");
        assert!(font.width(&fitted, 24.0) <= 200.0);
    }
}
