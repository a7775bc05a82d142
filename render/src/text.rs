//! Text: the embedded font (Noto Sans Bold, from a crate, never the system's), laid out and
//! drawn anti-aliased with the palette's ramps.

use ab_glyph::{Font as _, FontRef, Glyph, GlyphId, PxScale, ScaleFont as _, point};

use crate::draw::Canvas;
use crate::theme::{Palette, Role};

/// Player names are untrusted; longer ones are cut before layout so that a 10 KB name costs
/// nothing.
const MAX_CHARS: usize = 64;

#[derive(Debug)]
pub(crate) struct Font {
    face: FontRef<'static>,
}

impl Font {
    pub(crate) fn new() -> Font {
        Font { face: FontRef::try_from_slice(ttf_noto_sans::BOLD).expect("the embedded Noto Sans Bold parses") }
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
    /// over pixels of `bg`.
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
        let baseline = centre_y + 0.357 * px;
        let (glyphs, _) = self.glyphs(text, px);
        let outlined: Vec<_> = glyphs
            .into_iter()
            .filter_map(|mut g| {
                g.position = point(g.position.x + x, g.position.y + baseline);
                self.face.outline_glyph(g)
            })
            .collect();
        let Some(first) = outlined.first() else { return };
        let mut bounds = first.px_bounds();
        for g in &outlined {
            let b = g.px_bounds();
            bounds.min.x = bounds.min.x.min(b.min.x);
            bounds.min.y = bounds.min.y.min(b.min.y);
            bounds.max.x = bounds.max.x.max(b.max.x);
            bounds.max.y = bounds.max.y.max(b.max.y);
        }
        let (x0, y0) = (bounds.min.x.floor() as i64, bounds.min.y.floor() as i64);
        let w = (bounds.max.x.ceil() as i64 - x0 + 1).max(0) as usize;
        let h = (bounds.max.y.ceil() as i64 - y0 + 1).max(0) as usize;
        // Glyphs may overlap (kerning); keep the larger coverage instead of drawing twice.
        let mut cover = vec![0f32; w * h];
        for g in &outlined {
            let b = g.px_bounds();
            let (gx, gy) = (b.min.x as i64 - x0, b.min.y as i64 - y0);
            g.draw(|px_x, px_y, c| {
                let (cx, cy) = (gx + i64::from(px_x), gy + i64::from(px_y));
                if cx >= 0 && cy >= 0 && (cx as usize) < w && (cy as usize) < h {
                    let cell = &mut cover[cy as usize * w + cx as usize];
                    *cell = cell.max(c);
                }
            });
        }
        for (i, &c) in cover.iter().enumerate() {
            let (cx, cy) = (x0 + (i % w) as i64, y0 + (i / w) as i64);
            if c > 0.5 / 6.0 {
                canvas.set(cx, cy, palette.blend(fg, bg, c));
            }
        }
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
