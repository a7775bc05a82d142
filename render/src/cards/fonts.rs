//! The cards' own fonts: a stack of embedded faces (from crates, never the system's) tried in
//! order for every character, so that a name mixing scripts draws each letter from a face that
//! has it. Characters no face has are left out, never drawn as `?` or an empty box.

use ab_glyph::{Font as _, FontRef, PxScale, ScaleFont as _};
use image::{Rgba, RgbaImage};
use imageproc::drawing::draw_text_mut;

/// Untrusted text is cut to this many characters before layout, so a 10,000-character name
/// costs no more than a long one.
const MAX_CHARS: usize = 80;

/// Regular and bold, each a fallback chain of faces. Parsing a face only reads its table
/// directory, so preparing the stack costs microseconds; glyphs are outlined when drawn.
#[derive(Debug)]
pub(crate) struct Fonts {
    regular: Vec<FontRef<'static>>,
    bold: Vec<FontRef<'static>>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Weight {
    Regular,
    Bold,
}

impl Fonts {
    pub(crate) fn new() -> Fonts {
        let face = |bytes: &'static [u8]| FontRef::try_from_slice(bytes).expect("an embedded font parses");
        // Noto Sans covers Latin, Cyrillic, Greek and Vietnamese. Faces for further scripts go
        // after it in each chain; the first face that has a character draws it.
        Fonts { regular: vec![face(ttf_noto_sans::REGULAR)], bold: vec![face(ttf_noto_sans::BOLD)] }
    }

    fn chain(&self, weight: Weight) -> &[FontRef<'static>] {
        match weight {
            Weight::Regular => &self.regular,
            Weight::Bold => &self.bold,
        }
    }

    /// Which face of the chain draws `c`, if any.
    fn face_of(&self, weight: Weight, c: char) -> Option<usize> {
        self.chain(weight).iter().position(|f| f.glyph_id(c).0 != 0)
    }

    /// `text` ready to draw: control and invisible characters dropped, characters no face has
    /// left out, runs of spaces collapsed, text written right to left put in display order.
    pub(crate) fn clean(&self, text: &str) -> String {
        let mut out = String::new();
        for c in text.chars().take(MAX_CHARS * 4) {
            let c = if c.is_whitespace() { ' ' } else { c };
            if c.is_control() || is_invisible(c) {
                continue;
            }
            if c == ' ' {
                if !out.is_empty() && !out.ends_with(' ') {
                    out.push(' ');
                }
            } else if self.face_of(Weight::Regular, c).is_some() && self.face_of(Weight::Bold, c).is_some() {
                out.push(c);
            }
            if out.chars().count() >= MAX_CHARS {
                break;
            }
        }
        let out = out.trim();
        // No shaping engine here: a name written mostly right to left is shown in visual order
        // (reversed), which is right for unjoined scripts such as Hebrew.
        let rtl = out.chars().filter(|&c| is_rtl(c)).count();
        if rtl * 2 > out.chars().count() { out.chars().rev().collect() } else { out.to_owned() }
    }

    /// `text` cleaned, or `fallback` (also cleaned) when nothing drawable is left.
    pub(crate) fn name_or(&self, text: &str, fallback: &str) -> String {
        let clean = self.clean(text);
        if clean.is_empty() { self.clean(fallback) } else { clean }
    }

    /// Runs of characters drawn by one face, with each run's advance at `px`.
    fn runs<'t>(&self, weight: Weight, text: &'t str, px: f32) -> Vec<(usize, &'t str, f32)> {
        let chain = self.chain(weight);
        let mut runs: Vec<(usize, &str, f32)> = Vec::new();
        let mut start = 0;
        let mut current: Option<usize> = None;
        let flush = |runs: &mut Vec<(usize, &'t str, f32)>, face: usize, s: &'t str| {
            let scaled = chain[face].as_scaled(PxScale::from(px));
            let w: f32 = s.chars().map(|c| scaled.h_advance(scaled.glyph_id(c))).sum();
            runs.push((face, s, w));
        };
        for (i, c) in text.char_indices() {
            // Spaces stay with the run they are in; every face has one.
            let face = if c == ' ' { current.or(Some(0)) } else { self.face_of(weight, c) };
            let Some(face) = face else { continue };
            if current != Some(face) {
                if let Some(prev) = current {
                    flush(&mut runs, prev, &text[start..i]);
                }
                start = i;
                current = Some(face);
            }
        }
        if let Some(face) = current {
            flush(&mut runs, face, &text[start..]);
        }
        runs
    }

    pub(crate) fn width(&self, weight: Weight, text: &str, px: f32) -> f32 {
        self.runs(weight, text, px).iter().map(|r| r.2).sum()
    }

    /// `text` shortened with an ellipsis until it is at most `max` pixels wide.
    pub(crate) fn fit(&self, weight: Weight, text: &str, px: f32, max: f32) -> String {
        if self.width(weight, text, px) <= max {
            return text.to_owned();
        }
        let mut chars: Vec<char> = text.chars().collect();
        while !chars.is_empty() {
            chars.pop();
            let candidate = chars.iter().collect::<String>().trim_end().to_owned() + "…";
            if self.width(weight, &candidate, px) <= max {
                return candidate;
            }
        }
        String::new()
    }

    /// Draws already cleaned `text` with its left end at `x` and its capital letters centred
    /// on `centre_y`; returns the width drawn.
    pub(crate) fn draw(
        &self,
        image: &mut RgbaImage,
        weight: Weight,
        text: &str,
        px: f32,
        (x, centre_y): (f32, f32),
        colour: [u8; 3],
    ) -> f32 {
        let chain = self.chain(weight);
        let mut pen = x;
        for (face, run, w) in self.runs(weight, text, px) {
            let font = &chain[face];
            let scaled = font.as_scaled(PxScale::from(px));
            // imageproc puts the baseline at `y + ascent`; Noto's capitals are 0.714 em tall.
            let top = centre_y + 0.357 * px - scaled.ascent();
            draw_text_mut(
                image,
                Rgba([colour[0], colour[1], colour[2], 255]),
                pen.round() as i32,
                top.round() as i32,
                px,
                font,
                run,
            );
            pen += w;
        }
        pen - x
    }
}

/// Code points that only modify their neighbours (variation selectors, joiners, tags, skin
/// tones) and have no glyph of their own.
fn is_invisible(c: char) -> bool {
    matches!(c, '\u{200B}'..='\u{200F}' | '\u{2028}'..='\u{202E}' | '\u{2060}'..='\u{206F}' | '\u{FE00}'..='\u{FE0F}' | '\u{FEFF}' | '\u{E0000}'..='\u{E007F}' | '\u{1F3FB}'..='\u{1F3FF}')
}

fn is_rtl(c: char) -> bool {
    matches!(c, '\u{0590}'..='\u{08FF}' | '\u{FB1D}'..='\u{FDFF}' | '\u{FE70}'..='\u{FEFF}')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn latin_cyrillic_and_greek_are_kept_and_what_no_face_has_is_left_out() {
        let fonts = Fonts::new();
        assert_eq!(fonts.clean("Þórr Ярослав Ἀλέξανδρος"), "Þórr Ярослав Ἀλέξανδρος");
        assert_eq!(fonts.clean("Bob \u{1F6E1}\u{FE0F}"), "Bob");
        assert_eq!(fonts.clean("\u{7}Ann\nLee "), "Ann Lee");
        assert!(!fonts.clean("a\u{1F600}b").contains('?'));
    }

    #[test]
    fn an_empty_or_undrawable_name_falls_back_to_the_callers_words() {
        let fonts = Fonts::new();
        assert_eq!(fonts.name_or("", "Player 1"), "Player 1");
        assert_eq!(fonts.name_or("\u{1F600}\u{200D}", "Игрок 2"), "Игрок 2");
        assert_eq!(fonts.name_or("Anna", "Player 1"), "Anna");
    }

    #[test]
    fn huge_names_are_cut_before_layout_and_fit_shortens_with_an_ellipsis() {
        let fonts = Fonts::new();
        let clean = fonts.clean(&"x".repeat(10_000));
        assert_eq!(clean.chars().count(), MAX_CHARS);
        let fitted = fonts.fit(Weight::Bold, &clean, 30.0, 200.0);
        assert!(fitted.ends_with('…'));
        assert!(fonts.width(Weight::Bold, &fitted, 30.0) <= 200.0);
    }
}
