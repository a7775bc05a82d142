//! The renderer's fonts: a stack of embedded faces (from crates and from `render/fonts/`, never
//! the system's) tried in order for every character, so that a name mixing scripts draws each
//! letter from a face that has it. Characters no face has are never drawn as an empty box: the
//! cards leave them out, the boards mark them with one `?` (see [`Fonts::clean_with`]).
//!
//! The cards draw with [`Fonts::draw`] into RGBA images; the boards lay text out here and draw
//! the glyphs into their indexed canvas themselves (`text.rs`).
//!
//! Two ways to lay text out. Latin, Cyrillic, Greek and CJK need no shaping: each character is
//! its glyph, drawn left to right, run by run of one face (the fast path every Latin name takes,
//! as before the other scripts came). Text with a right-to-left or joining script (Hebrew, Arabic,
//! Devanagari, Thai…) is put in display order by the Unicode bidi algorithm (`unicode-bidi`) and
//! shaped by `rustybuzz`, so Arabic letters take their joined forms, Devanagari its conjuncts and
//! Thai its stacked marks; the shaped glyphs are then drawn one by one with `ab_glyph`.

use std::ops::Range;
use std::sync::OnceLock;

use ab_glyph::{Font as _, FontRef, GlyphId, PxScale, ScaleFont as _, point};
use image::{Rgba, RgbaImage};
use imageproc::drawing::draw_text_mut;

/// Untrusted text is cut to this many characters before layout, so a 10,000-character name
/// costs no more than a long one.
pub(crate) const MAX_CHARS: usize = 80;

/// A face's regular and bold files.
type Pair = (&'static [u8], &'static [u8]);

/// The faces after Noto Sans, regular and bold, in the order they are tried (see
/// `render/fonts/README.md` for what each covers). A character is drawn by the first face that
/// has it.
const FALLBACKS: [Pair; 20] = [
    (include_bytes!("../fonts/NotoSansArabic-Regular.ttf"), include_bytes!("../fonts/NotoSansArabic-Bold.ttf")),
    (include_bytes!("../fonts/NotoSansHebrew-Regular.ttf"), include_bytes!("../fonts/NotoSansHebrew-Bold.ttf")),
    (include_bytes!("../fonts/NotoSansDevanagari-Regular.ttf"), include_bytes!("../fonts/NotoSansDevanagari-Bold.ttf")),
    (include_bytes!("../fonts/NotoSansThai-Regular.ttf"), include_bytes!("../fonts/NotoSansThai-Bold.ttf")),
    (include_bytes!("../fonts/NotoSansSC-Names-Regular.ttf"), include_bytes!("../fonts/NotoSansSC-Names-Bold.ttf")),
    (include_bytes!("../fonts/NotoSansKR-Hangul-Regular.ttf"), include_bytes!("../fonts/NotoSansKR-Hangul-Bold.ttf")),
    (include_bytes!("../fonts/NotoSansArmenian-Regular.ttf"), include_bytes!("../fonts/NotoSansArmenian-Bold.ttf")),
    (include_bytes!("../fonts/NotoSansGeorgian-Regular.ttf"), include_bytes!("../fonts/NotoSansGeorgian-Bold.ttf")),
    (include_bytes!("../fonts/NotoSansBengali-Regular.ttf"), include_bytes!("../fonts/NotoSansBengali-Bold.ttf")),
    (include_bytes!("../fonts/NotoSansTamil-Regular.ttf"), include_bytes!("../fonts/NotoSansTamil-Bold.ttf")),
    (include_bytes!("../fonts/NotoSansTelugu-Regular.ttf"), include_bytes!("../fonts/NotoSansTelugu-Bold.ttf")),
    (include_bytes!("../fonts/NotoSansGujarati-Regular.ttf"), include_bytes!("../fonts/NotoSansGujarati-Bold.ttf")),
    (include_bytes!("../fonts/NotoSansGurmukhi-Regular.ttf"), include_bytes!("../fonts/NotoSansGurmukhi-Bold.ttf")),
    (include_bytes!("../fonts/NotoSansKannada-Regular.ttf"), include_bytes!("../fonts/NotoSansKannada-Bold.ttf")),
    (include_bytes!("../fonts/NotoSansMalayalam-Regular.ttf"), include_bytes!("../fonts/NotoSansMalayalam-Bold.ttf")),
    (include_bytes!("../fonts/NotoSansSinhala-Regular.ttf"), include_bytes!("../fonts/NotoSansSinhala-Bold.ttf")),
    (include_bytes!("../fonts/NotoSansKhmer-Regular.ttf"), include_bytes!("../fonts/NotoSansKhmer-Bold.ttf")),
    (include_bytes!("../fonts/NotoSansLao-Regular.ttf"), include_bytes!("../fonts/NotoSansLao-Bold.ttf")),
    (include_bytes!("../fonts/NotoSansMyanmar-Regular.ttf"), include_bytes!("../fonts/NotoSansMyanmar-Bold.ttf")),
    (include_bytes!("../fonts/NotoSansEthiopic-Regular.ttf"), include_bytes!("../fonts/NotoSansEthiopic-Bold.ttf")),
];

/// One embedded face, parsed on first use: a card of Latin names never parses the others (the
/// bytes are in the binary, but pages nobody reads are never loaded).
struct Face {
    bytes: &'static [u8],
    font: OnceLock<FontRef<'static>>,
    shaper: OnceLock<rustybuzz::Face<'static>>,
    /// The scale that gives this face's em the size of Noto Sans's em at the same `px`: faces
    /// differ in their ascent + descent (the height `PxScale` measures), Arabic's by far.
    em: OnceLock<f32>,
}

impl std::fmt::Debug for Face {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Face").field("bytes", &self.bytes.len()).finish_non_exhaustive()
    }
}

impl Face {
    fn new(bytes: &'static [u8]) -> Face {
        Face { bytes, font: OnceLock::new(), shaper: OnceLock::new(), em: OnceLock::new() }
    }

    fn font(&self) -> &FontRef<'static> {
        self.font.get_or_init(|| FontRef::try_from_slice(self.bytes).expect("an embedded font parses"))
    }

    fn shaper(&self) -> &rustybuzz::Face<'static> {
        self.shaper.get_or_init(|| rustybuzz::Face::from_slice(self.bytes, 0).expect("an embedded font parses"))
    }

    /// Height units (what `PxScale` sizes) per em.
    fn height_per_em(&self) -> f32 {
        *self.em.get_or_init(|| {
            let font = self.font();
            font.height_unscaled() / font.units_per_em().unwrap_or(1000.0)
        })
    }
}

/// Regular and bold, each a fallback chain of faces.
#[derive(Debug)]
pub(crate) struct Fonts {
    regular: Vec<Face>,
    bold: Vec<Face>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Weight {
    Regular,
    Bold,
}

/// A glyph placed by the shaping path: which face, which glyph, where its origin sits relative
/// to the pen's start and the baseline (pixels, y down).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Placed {
    pub face: usize,
    pub glyph: u16,
    pub x: f32,
    pub y: f32,
}

impl Fonts {
    pub(crate) fn new() -> Fonts {
        // Noto Sans covers Latin, Cyrillic, Greek and Vietnamese; the faces of further scripts
        // follow it in each chain.
        let chain = |first: &'static [u8], pick: fn(&Pair) -> &'static [u8]| {
            std::iter::once(Face::new(first)).chain(FALLBACKS.iter().map(|f| Face::new(pick(f)))).collect()
        };
        Fonts { regular: chain(ttf_noto_sans::REGULAR, |f| f.0), bold: chain(ttf_noto_sans::BOLD, |f| f.1) }
    }

    fn chain(&self, weight: Weight) -> &[Face] {
        match weight {
            Weight::Regular => &self.regular,
            Weight::Bold => &self.bold,
        }
    }

    /// Which face of the chain draws `c`, if any.
    fn face_of(&self, weight: Weight, c: char) -> Option<usize> {
        self.chain(weight).iter().position(|f| f.font().glyph_id(c).0 != 0)
    }

    /// Face `face` of a chain, parsed.
    pub(crate) fn face(&self, weight: Weight, face: usize) -> &FontRef<'static> {
        self.chain(weight)[face].font()
    }

    /// The scale of face `face` at `px`, its em matched to Noto Sans's.
    pub(crate) fn scale(&self, weight: Weight, face: usize, px: f32) -> PxScale {
        if face == 0 {
            return PxScale::from(px);
        }
        let chain = self.chain(weight);
        PxScale::from(px * chain[face].height_per_em() / chain[0].height_per_em())
    }

    /// `text` ready to draw: control and invisible characters dropped, characters no face has
    /// left out, runs of spaces collapsed. The order stays logical: drawing puts text written
    /// right to left in display order.
    pub(crate) fn clean(&self, text: &str) -> String {
        self.clean_with(text, None)
    }

    /// Whether both weights have a face that draws `c`.
    fn drawable(&self, c: char) -> bool {
        self.face_of(Weight::Regular, c).is_some() && self.face_of(Weight::Bold, c).is_some()
    }

    /// The letters `c` stands for, when no face has it but every character of its NFKC
    /// compatibility form is drawn; `None` to keep `c` as it is. Discord users write names in
    /// "fancy" letters (mathematical bold 𝕯𝖆𝖗𝖐, script 𝓐𝓷𝓷, double-struck 𝔸𝕟𝕟, circled ⓐ),
    /// which no bundled face has and which would otherwise all be lost; their compatibility
    /// forms are plain Latin, Greek or digits. A character a face has keeps its own look (a
    /// full-width Ａ stays full-width), and one whose form would still not draw stays as it was,
    /// to be left out. `None` allocates nothing: names are cleaned at every board drawn.
    fn compatibility_form(&self, c: char) -> Option<Vec<char>> {
        use unicode_normalization::UnicodeNormalization as _;
        if c.is_ascii() || c.is_whitespace() || c.is_control() || is_invisible(c) || self.drawable(c) {
            return None;
        }
        let form: Vec<char> = std::iter::once(c).nfkc().collect();
        (form != [c] && form.iter().all(|&d| d.is_whitespace() || self.drawable(d))).then_some(form)
    }

    /// [`Fonts::clean`], but each run of characters no face has (an emoji sequence is several
    /// code points) becomes one `missing` instead of nothing, when given.
    pub(crate) fn clean_with(&self, text: &str, missing: Option<char>) -> String {
        let mut out = String::new();
        // The zero-width (non-)joiners choose letter forms in shaped scripts (Persian writes
        // ZWNJ inside words); elsewhere they only glue emoji, which no face has.
        let shaped = needs_shaping(text);
        // Stacking marks kept on the last letter: a few are writing (Vietnamese stacks two, Thai
        // a vowel and a tone, Hebrew a point and a dagesh), dozens are "Zalgo" text in any
        // script, which stacks far above and below the line over the board and the card's
        // other lines (nothing clips a glyph to its line). Counted on what is kept, so that a
        // character left out between marks does not start a new stack.
        let mut marks_in_row = 0;
        let is_joiner = |c: char| matches!(c, '\u{200C}' | '\u{200D}');
        // Whether the last character was left out or marked: a joiner after it glued an emoji
        // sequence, not letters.
        let mut after_missing = false;
        let chars = text.chars().take(MAX_CHARS * 4).flat_map(|c| {
            let form = self.compatibility_form(c);
            let keep = form.is_none().then_some(c);
            form.into_iter().flatten().chain(keep)
        });
        for c in chars {
            let c = if c.is_whitespace() { ' ' } else { c };
            let joiner = matches!(c, '\u{200C}' | '\u{200D}');
            if c.is_control() || (is_invisible(c) && !(shaped && joiner)) {
                continue;
            }
            let mark = mark_kind(c);
            if mark == Some(MarkKind::Stacking) && marks_in_row >= MAX_MARKS_IN_ROW {
                continue;
            }
            if c == ' ' {
                after_missing = false;
                marks_in_row = 0;
                if !out.is_empty() && !out.ends_with(' ') {
                    out.push(' ');
                }
            } else if joiner {
                // Only after a letter it may join to the next. A joiner is no letter marks
                // could stack on anew: it leaves the count as it is.
                if !after_missing && out.chars().last().is_some_and(|last| last != ' ' && !is_joiner(last)) {
                    out.push(c);
                }
            } else if self.drawable(c) {
                after_missing = false;
                out.push(c);
                match mark {
                    Some(MarkKind::Stacking) => marks_in_row += 1,
                    // A spacing mark takes room beside its letter, and the marks after it still
                    // belong to that letter (Myanmar မြို့ is a medial, then three marks): it
                    // neither counts nor starts a new stack.
                    Some(MarkKind::Spacing) => {}
                    None => marks_in_row = 0,
                }
            } else {
                after_missing = true;
                while out.ends_with(is_joiner) {
                    out.pop();
                }
                if let Some(mark) = missing
                    && !out.ends_with(mark)
                {
                    out.push(mark);
                    marks_in_row = 0;
                }
            }
            if out.chars().count() >= MAX_CHARS {
                break;
            }
        }
        while out.ends_with(is_joiner) {
            out.pop();
        }
        out.trim().to_owned()
    }

    /// `text` cleaned, or `fallback` (also cleaned) when nothing drawable is left.
    pub(crate) fn name_or(&self, text: &str, fallback: &str) -> String {
        let clean = self.clean(text);
        if clean.is_empty() { self.clean(fallback) } else { clean }
    }

    /// Runs of characters drawn by one face in `range` of `text`, in logical order.
    fn face_runs(&self, weight: Weight, text: &str, range: Range<usize>) -> Vec<(usize, Range<usize>)> {
        let chain = self.chain(weight);
        let mut runs: Vec<(usize, Range<usize>)> = Vec::new();
        let mut current: Option<(usize, usize)> = None;
        for (i, c) in text[range.clone()].char_indices() {
            let i = range.start + i;
            let here = current.map(|(f, _)| f);
            let face = match c {
                // Joiners choose the forms of the letters around them (a Sinhala or Devanagari
                // conjunct, an Arabic joined form): they stay in their run, so that shaping sees
                // the word whole. Shaping draws them as nothing, in any face.
                '\u{200C}' | '\u{200D}' => here.or(Some(0)),
                // A space stays with its run where that face has one; the CJK subsets have none,
                // and theirs would be drawn as a blank em.
                ' ' => here.filter(|&f| chain[f].font().glyph_id(' ').0 != 0).or(Some(0)),
                _ => self.face_of(weight, c),
            };
            let Some(face) = face else { continue };
            match current {
                Some((f, _)) if f == face => {}
                Some((f, start)) => {
                    runs.push((f, start..i));
                    current = Some((face, i));
                }
                None => current = Some((face, i)),
            }
        }
        if let Some((face, start)) = current {
            runs.push((face, start..range.end));
        }
        runs
    }

    /// Runs of the simple path, with each run's advance at `px`.
    fn runs<'t>(&self, weight: Weight, text: &'t str, px: f32) -> Vec<(usize, &'t str, f32)> {
        let chain = self.chain(weight);
        self.face_runs(weight, text, 0..text.len())
            .into_iter()
            .map(|(face, range)| {
                let s = &text[range];
                let scaled = chain[face].font().as_scaled(self.scale(weight, face, px));
                let w: f32 = s.chars().map(|c| scaled.h_advance(scaled.glyph_id(c))).sum();
                (face, s, w)
            })
            .collect()
    }

    /// The glyphs of `text` shaped and in display order, and the width of the whole.
    pub(crate) fn shape(&self, weight: Weight, text: &str, px: f32) -> (Vec<Placed>, f32) {
        let chain = self.chain(weight);
        let mut glyphs = Vec::new();
        let mut pen = 0.0f32;
        let bidi = unicode_bidi::BidiInfo::new(text, None);
        for para in &bidi.paragraphs {
            let (levels, runs) = bidi.visual_runs(para, para.range.clone());
            for run in runs {
                let rtl = levels[run.start].is_rtl();
                let mut pieces = self.face_runs(weight, text, run);
                // Within a right-to-left run, the logically first piece is drawn rightmost.
                if rtl {
                    pieces.reverse();
                }
                for (face, range) in pieces {
                    let mut buffer = rustybuzz::UnicodeBuffer::new();
                    buffer.push_str(&text[range]);
                    buffer.set_direction(if rtl {
                        rustybuzz::Direction::RightToLeft
                    } else {
                        rustybuzz::Direction::LeftToRight
                    });
                    buffer.guess_segment_properties();
                    let shaped = rustybuzz::shape(chain[face].shaper(), &[], buffer);
                    let scale = self.scale(weight, face, px);
                    let font = chain[face].font();
                    // Font units to pixels as ab_glyph scales this face.
                    let k = font.as_scaled(scale).h_scale_factor();
                    for (info, pos) in shaped.glyph_infos().iter().zip(shaped.glyph_positions()) {
                        glyphs.push(Placed {
                            face,
                            glyph: u16::try_from(info.glyph_id).unwrap_or(0),
                            x: pen + pos.x_offset as f32 * k,
                            y: -(pos.y_offset as f32) * k,
                        });
                        pen += pos.x_advance as f32 * k;
                    }
                }
            }
        }
        (glyphs, pen)
    }

    pub(crate) fn width(&self, weight: Weight, text: &str, px: f32) -> f32 {
        if needs_shaping(text) {
            self.shape(weight, text, px).1
        } else {
            self.runs(weight, text, px).iter().map(|r| r.2).sum()
        }
    }

    /// `text` shortened with an ellipsis until it is at most `max` pixels wide.
    pub(crate) fn fit(&self, weight: Weight, text: &str, px: f32, max: f32) -> String {
        if self.width(weight, text, px) <= max {
            return text.to_owned();
        }
        let mut chars: Vec<char> = text.chars().collect();
        while !chars.is_empty() {
            chars.pop();
            let candidate = cut_with_ellipsis(&chars);
            if self.width(weight, &candidate, px) <= max {
                return candidate;
            }
        }
        String::new()
    }

    /// `text` at the largest size from `px` down to `min_px` (whole pixels) at which it is at most
    /// `max` pixels wide, with that size; shortened with an ellipsis at `min_px` when even that
    /// is too wide. For a line whose words matter more than its size (a Russian sentence runs a
    /// third longer than its English one).
    pub(crate) fn shrink_to_fit(&self, weight: Weight, text: &str, px: f32, min_px: f32, max: f32) -> (String, f32) {
        let mut size = px;
        while size > min_px {
            if self.width(weight, text, size) <= max {
                return (text.to_owned(), size);
            }
            size -= 1.0;
        }
        (self.fit(weight, text, min_px, max), min_px)
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
        // Noto's capitals are 0.714 em tall; the baseline sits half of that below the centre.
        let baseline = centre_y + 0.357 * px;
        if needs_shaping(text) {
            return self.draw_shaped(image, weight, text, px, (x, baseline), colour);
        }
        let chain = self.chain(weight);
        let mut pen = x;
        for (face, run, w) in self.runs(weight, text, px) {
            let font = chain[face].font();
            let scale = self.scale(weight, face, px);
            let scaled = font.as_scaled(scale);
            // imageproc puts the baseline at `y + ascent`.
            let top = baseline - scaled.ascent();
            draw_text_mut(
                image,
                Rgba([colour[0], colour[1], colour[2], 255]),
                pen.round() as i32,
                top.round() as i32,
                scale,
                font,
                run,
            );
            pen += w;
        }
        pen - x
    }

    fn draw_shaped(
        &self,
        image: &mut RgbaImage,
        weight: Weight,
        text: &str,
        px: f32,
        (x, baseline): (f32, f32),
        colour: [u8; 3],
    ) -> f32 {
        let chain = self.chain(weight);
        let (glyphs, width) = self.shape(weight, text, px);
        let (w, h) = (image.width() as i32, image.height() as i32);
        for placed in glyphs {
            let font = chain[placed.face].font();
            let glyph = GlyphId(placed.glyph)
                .with_scale_and_position(self.scale(weight, placed.face, px), point(x + placed.x, baseline + placed.y));
            let Some(outline) = font.outline_glyph(glyph) else { continue };
            let bounds = outline.px_bounds();
            outline.draw(|gx, gy, coverage| {
                let (px_x, px_y) = (bounds.min.x as i32 + gx as i32, bounds.min.y as i32 + gy as i32);
                if px_x < 0 || px_y < 0 || px_x >= w || px_y >= h {
                    return;
                }
                let a = coverage.clamp(0.0, 1.0);
                let pixel = image.get_pixel_mut(px_x as u32, px_y as u32);
                for (channel, &c) in pixel.0.iter_mut().zip(&colour) {
                    *channel = (f32::from(*channel) * (1.0 - a) + f32::from(c) * a).round() as u8;
                }
            });
        }
        width
    }
}

/// `chars` with an ellipsis after them, less trailing spaces and joiners (a joiner before the
/// ellipsis would change the form of the letter it followed).
pub(crate) fn cut_with_ellipsis(chars: &[char]) -> String {
    let kept: String = chars.iter().collect();
    kept.trim_end_matches(|c: char| c.is_whitespace() || matches!(c, '\u{200C}' | '\u{200D}')).to_owned() + "…"
}

/// Whether `text` has a character of a script written right to left or with joined or
/// reordered letters, which only shaping draws right.
pub(crate) fn needs_shaping(text: &str) -> bool {
    text.chars().any(|c| {
        matches!(c,
            '\u{0590}'..='\u{08FF}' // Hebrew, Arabic, Syriac, Thaana, N'Ko…
            | '\u{0900}'..='\u{0DFF}' // the Indic scripts
            | '\u{0E00}'..='\u{0EFF}' // Thai, Lao
            | '\u{1000}'..='\u{109F}' // Myanmar
            | '\u{1780}'..='\u{17FF}' // Khmer
            | '\u{FB1D}'..='\u{FDFF}' // Hebrew and Arabic presentation forms
            | '\u{FE70}'..='\u{FEFF}')
    })
}

/// Code points that only modify their neighbours (variation selectors, joiners, direction
/// marks, tags, skin tones) and have no glyph of their own, and the blank "letters" people pick
/// for a name that looks empty (the Hangul fillers, the Braille blank, the combining grapheme
/// joiner, the musical null notehead): a face may hold a glyph for them, but it draws nothing,
/// and the name must fall back.
fn is_invisible(c: char) -> bool {
    matches!(
        c,
        '\u{00AD}'
            | '\u{034F}'
            | '\u{061C}'
            | '\u{115F}'..='\u{1160}'
            | '\u{17B4}'..='\u{17B5}'
            | '\u{180B}'..='\u{180F}'
            | '\u{200B}'..='\u{200F}'
            | '\u{2028}'..='\u{202E}'
            | '\u{2060}'..='\u{206F}'
            | '\u{2800}'
            | '\u{3164}'
            | '\u{FE00}'..='\u{FE0F}'
            | '\u{FEFF}'
            | '\u{FFA0}'
            | '\u{1D159}'
            | '\u{1D173}'..='\u{1D17A}'
            | '\u{E0000}'..='\u{E007F}'
            | '\u{E0100}'..='\u{E01EF}'
            | '\u{1F3FB}'..='\u{1F3FF}'
    )
}

/// Whether anything of `text` would be drawn on a board: a character that is not a space, a
/// control or an invisible one (see [`is_invisible`]). What no face has counts, as the `?` that
/// stands for it.
pub(crate) fn draws_something(text: &str) -> bool {
    text.chars().take(MAX_CHARS * 4).any(|c| !(c.is_whitespace() || c.is_control() || is_invisible(c)))
}

/// The most stacking marks kept on one letter (see [`Fonts::clean`]): enough for every name
/// people write (Arabic shadda, vowel and dagger alef; Hebrew dagesh, shin dot and vowel; Thai
/// vowel and tone; Myanmar's medial and marks on one consonant).
const MAX_MARKS_IN_ROW: usize = 3;

/// How a combining mark sits on its letter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum MarkKind {
    /// Drawn over, under or around the letter, taking no room of its own (general categories
    /// Mn and Me): these pile up into a tower, as "Zalgo" text does in any script.
    Stacking,
    /// Drawn beside the letter, with an advance of its own (Mc: Devanagari's ि, Myanmar's ြ).
    Spacing,
}

/// Whether `c` is a combining mark, by its Unicode general category.
fn mark_kind(c: char) -> Option<MarkKind> {
    use unicode_properties::{GeneralCategory, UnicodeGeneralCategory as _};
    match c.general_category() {
        GeneralCategory::NonspacingMark | GeneralCategory::EnclosingMark => Some(MarkKind::Stacking),
        GeneralCategory::SpacingMark => Some(MarkKind::Spacing),
        _ => None,
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    #[test]
    fn latin_cyrillic_and_greek_are_kept_and_what_no_face_has_is_left_out() {
        let fonts = Fonts::new();
        assert_eq!(fonts.clean("Þórr Ярослав Ἀλέξανδρος"), "Þórr Ярослав Ἀλέξανδρος");
        assert_eq!(fonts.clean("Bob \u{1F6E1}\u{FE0F}"), "Bob");
        assert_eq!(fonts.clean("\u{7}Ann\nLee "), "Ann Lee");
        assert!(!fonts.clean("a\u{1F600}b").contains('?'));
    }

    /// The joiners of an emoji sequence go with it: one `?` on a board, nothing on a card,
    /// whatever script the name is in; a joiner between letters stays.
    #[test]
    fn an_emoji_sequence_leaves_no_joiners_behind() {
        let fonts = Fonts::new();
        let family = "\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}";
        assert_eq!(fonts.clean_with(&format!("محمد {family}"), Some('?')), "محمد ?");
        assert_eq!(fonts.clean(&format!("محمد {family}")), "محمد");
        assert_eq!(fonts.clean_with(&format!("{family}محمد"), Some('?')), "?محمد");
        assert_eq!(fonts.clean("می\u{200C}نا"), "می\u{200C}نا");
    }

    /// "Fancy" letters (Mathematical Alphanumeric Symbols, which name generators for Discord
    /// produce) are in no bundled face: they are kept as the letters their NFKC compatibility
    /// forms are, and only what stands for no drawable letter is left out.
    #[test]
    fn fancy_letters_are_kept_as_the_letters_they_stand_for() {
        let fonts = Fonts::new();
        assert_eq!(fonts.clean("𝓐𝓷𝓷"), "Ann");
        assert_eq!(fonts.clean("𝕯𝖆𝖗𝖐𝕷𝖔𝖗𝖉"), "DarkLord");
        assert_eq!(fonts.clean("𝔸𝕟𝕟𝕒 𝐁𝐨𝐛 𝟏𝟐 𝛂𝛃"), "Anna Bob 12 αβ");
        assert_eq!(fonts.clean_with("𝕯𝖆𝖗𝖐 ꧁༺ Ann ༻꧂", Some('?')), "Dark ? Ann ?");
        assert_eq!(fonts.name_or("𝓐𝓷𝓷", "Player"), "Ann");
        // A character a face has keeps its own look: the full-width forms are in the CJK face.
        assert_eq!(fonts.clean("ＡＢＣ Ｄｅｆ"), "ＡＢＣ Ｄｅｆ");
        // The marks on fancy letters are capped as on any others.
        let piled = format!("𝓪{}", "\u{0301}".repeat(20));
        assert_eq!(fonts.clean(&piled), format!("a{}", "\u{0301}".repeat(MAX_MARKS_IN_ROW)));
    }

    /// No bundled face has Tibetan (README's list of scripts), so a Tibetan name is left out
    /// like any other character no face has, and takes no shaping path for a script never drawn.
    #[test]
    fn tibetan_is_not_among_the_scripts_drawn_or_shaped() {
        let fonts = Fonts::new();
        let name = "བཀྲ་ཤིས";
        assert!(name.chars().all(|c| !fonts.drawable(c)), "a face now has Tibetan: list it in README");
        assert_eq!(fonts.clean_with(name, Some('?')), "?");
        assert!(!needs_shaping(name));
        assert!(needs_shaping("ສົມພອນ"), "Lao, beside it, is shaped");
    }

    #[test]
    fn a_cut_name_ends_in_a_letter_then_the_ellipsis() {
        assert_eq!(cut_with_ellipsis(&"می\u{200C}".chars().collect::<Vec<_>>()), "می…");
        assert_eq!(cut_with_ellipsis(&"Ann ".chars().collect::<Vec<_>>()), "Ann…");
    }

    /// A few marks on a letter are writing (Vietnamese stacks two); dozens are "Zalgo" text,
    /// which would stack over the card's other lines.
    #[test]
    fn combining_marks_are_kept_a_few_at_a_time() {
        let fonts = Fonts::new();
        assert_eq!(fonts.clean("Nguyễn Thị"), "Nguyễn Thị");
        let zalgo = format!("a{}b", "\u{0316}".repeat(78));
        assert_eq!(fonts.clean(&zalgo), format!("a{}b", "\u{0316}".repeat(3)));
        assert_eq!(fonts.clean("e\u{0301}\u{0302}"), "e\u{0301}\u{0302}");
    }

    /// The cap holds in every script, not only for the generic combining diacritics: Arabic
    /// harakat and Quranic marks, Thai vowels and tones, Cyrillic's titlo and enclosing signs,
    /// Hebrew points, Devanagari's signs above.
    #[test]
    fn marks_of_every_script_are_kept_a_few_at_a_time() {
        let fonts = Fonts::new();
        for (script, base, mark) in [
            ("Arabic kasra", "م", '\u{0650}'),
            ("Arabic shadda", "م", '\u{0651}'),
            ("Arabic superscript alef", "م", '\u{0670}'),
            ("Arabic Quranic mark", "م", '\u{06D6}'),
            ("Thai tone", "ก", '\u{0E48}'),
            ("Thai vowel above", "ก", '\u{0E34}'),
            ("Cyrillic titlo", "Б", '\u{0483}'),
            ("Cyrillic hundred thousands sign (enclosing)", "Б", '\u{0488}'),
            ("Hebrew qamats", "ש", '\u{05B8}'),
            ("Devanagari candrabindu", "क", '\u{0901}'),
        ] {
            let piled = format!("{base}{}x", mark.to_string().repeat(40));
            let kept = format!("{base}{}x", mark.to_string().repeat(MAX_MARKS_IN_ROW));
            assert_eq!(fonts.clean(&piled), kept, "{script}");
        }
        // Spacing marks between the stacking ones, joiners, or characters left out (an emoji
        // on a card) do not start a new stack on the same letter.
        let interleaved = "क\u{0901}\u{093E}\u{0901}\u{093E}\u{0901}\u{093E}\u{0901}\u{0902}";
        assert_eq!(fonts.clean(interleaved), "क\u{0901}\u{093E}\u{0901}\u{093E}\u{0901}\u{093E}");
        let joined = format!("م{}", "\u{0651}\u{0651}\u{200D}".repeat(10));
        assert_eq!(fonts.clean(&joined).chars().filter(|&c| c == '\u{0651}').count(), MAX_MARKS_IN_ROW);
        let hidden = format!("a{}", "\u{0301}\u{0301}\u{1F600}".repeat(10));
        assert_eq!(fonts.clean(&hidden), "a\u{0301}\u{0301}\u{0301}");
    }

    /// Names written with their marks in full keep every one: vowelled Arabic, Hebrew with
    /// points, Thai, Vietnamese and Yoruba decomposed (NFD, as some keyboards send them),
    /// Hindi, Bengali, Myanmar (a medial, then three marks on one letter), Khmer.
    #[test]
    fn names_written_with_their_marks_keep_them() {
        let fonts = Fonts::new();
        for name in [
            "مُحَمَّد",
            "عَبْدُ ٱللَّٰهِ",
            "فَاطِمَةُ",
            "שַּׁבָּת",
            "יְהוּדָה",
            "שָׁלוֹם",
            "สมชาย ใจดี",
            "น้ำผึ้ง",
            "กิ่งแก้ว",
            "Nguye\u{0302}\u{0303}n Thi\u{0323}",
            "Ado\u{0323}\u{0300}la\u{0301}",
            "प्रियंका चौहान",
            "सौंदर्या",
            "রবীন্দ্রনাথ",
            "မြို့",
            "ကြိုး",
            "ស្រ្តី",
            "Ива́н",
        ] {
            assert_eq!(fonts.clean(name), name, "{name}");
        }
    }

    #[test]
    fn a_line_too_wide_is_drawn_smaller_before_it_is_cut() {
        let fonts = Fonts::new();
        let line = "Текущая серия: 12 поражений подряд";
        let full = fonts.width(Weight::Bold, line, 26.0);
        let (text, px) = fonts.shrink_to_fit(Weight::Bold, line, 26.0, 18.0, full * 0.85);
        assert_eq!(text, line, "whole, at a smaller size");
        assert!(px < 26.0 && fonts.width(Weight::Bold, line, px) <= full * 0.85, "{px}");
        assert_eq!(fonts.shrink_to_fit(Weight::Bold, line, 26.0, 18.0, full), (line.to_owned(), 26.0));
        let (cut, px) = fonts.shrink_to_fit(Weight::Bold, line, 26.0, 18.0, full * 0.3);
        assert!(cut.ends_with('…') && (px - 18.0).abs() < f32::EPSILON, "{cut} at {px}");
    }

    #[test]
    fn an_empty_or_undrawable_name_falls_back_to_the_callers_words() {
        let fonts = Fonts::new();
        assert_eq!(fonts.name_or("", "Player 1"), "Player 1");
        assert_eq!(fonts.name_or("\u{1F600}\u{200D}", "Игрок 2"), "Игрок 2");
        // Names people make to look empty: each draws nothing, so the fallback stands.
        for blank in [
            "\u{3164}",
            "\u{3164}\u{3164}",
            "\u{115F}\u{1160}",
            "\u{2800}",
            "\u{034F}",
            "\u{FFA0}",
            "\u{061C}",
            "\u{1D159}\u{1D173}",
            "\u{E0100}",
        ] {
            assert_eq!(fonts.name_or(blank, "Player 3"), "Player 3", "{blank:?}");
        }
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

    /// A name in each script the bundled faces add, as people write them.
    pub(crate) const NAMES: [(&str, &str); 22] = [
        ("Arabic", "محمد عبد الله"),
        ("Hebrew", "דוד כהן"),
        ("Devanagari", "अर्जुन शर्मा"),
        ("Thai", "สมชาย ใจดี"),
        ("Chinese", "王小明"),
        ("Japanese", "さくら 田中"),
        ("Korean", "김민준"),
        ("Persian with ZWNJ", "می‌نا"),
        ("Armenian", "Արամ Պետրոսյան"),
        ("Georgian", "გიორგი ბერიძე"),
        ("Bengali", "রবীন্দ্রনাথ ঠাকুর"),
        ("Tamil", "முருகன்"),
        ("Telugu", "శ్రీనివాస్"),
        ("Gujarati", "નરેન્દ્ર"),
        ("Gurmukhi", "ਹਰਪ੍ਰੀਤ ਸਿੰਘ"),
        ("Kannada", "ಕುವೆಂಪು"),
        ("Malayalam", "മോഹൻലാൽ"),
        ("Sinhala", "නිමල්"),
        ("Khmer", "សុខា"),
        ("Lao", "ສົມພອນ"),
        ("Myanmar", "အောင်ဆန်း"),
        ("Ethiopic", "አበበ ቢቂላ"),
    ];

    #[test]
    fn names_in_every_bundled_script_are_kept_whole() {
        let fonts = Fonts::new();
        for (script, name) in NAMES {
            let clean = fonts.clean(name);
            let expected: String =
                name.chars().filter(|&c| c != '\u{200C}' || fonts.face_of(Weight::Bold, c).is_some()).collect();
            assert_eq!(clean, expected, "{script}");
        }
    }

    /// The ink of `text` drawn at 36 px: (pixels inked, leftmost, rightmost column).
    fn ink(fonts: &Fonts, text: &str) -> (usize, u32, u32, f32) {
        let mut image = RgbaImage::from_pixel(900, 80, Rgba([0, 0, 0, 255]));
        let width = fonts.draw(&mut image, Weight::Bold, text, 36.0, (20.0, 40.0), [255, 255, 255]);
        let mut count = 0;
        let (mut left, mut right) = (u32::MAX, 0);
        for (x, _, p) in image.enumerate_pixels() {
            if p.0[0] > 128 {
                count += 1;
                left = left.min(x);
                right = right.max(x);
            }
        }
        (count, left, right, width)
    }

    #[test]
    fn a_name_in_each_script_draws_ink_as_wide_as_its_layout_says() {
        let fonts = Fonts::new();
        for (script, name) in NAMES {
            let clean = fonts.clean(name);
            let (count, left, right, width) = ink(&fonts, &clean);
            let letters = clean.chars().filter(|c| !c.is_whitespace()).count() as f32;
            assert!(count > 200, "{script}: {count} pixels inked");
            // Plausible: each letter between a sixth of an em and one and a half ems wide.
            assert!(width > letters * 6.0 && width < letters * 54.0, "{script}: {width} px for {letters} letters");
            let inked = (right - left) as f32;
            assert!(inked > width * 0.6 && inked < width + 12.0, "{script}: ink {left}..{right}, layout {width}");
            assert!(left >= 18, "{script}: nothing is drawn left of the pen ({left})");
        }
    }

    /// A space between CJK words is Noto Sans's (the CJK subsets have none, and a missing glyph
    /// would take a blank em), and no name lays out a missing glyph.
    #[test]
    fn spaces_in_cjk_names_are_ordinary_spaces() {
        let fonts = Fonts::new();
        for weight in [Weight::Regular, Weight::Bold] {
            for (script, name) in NAMES {
                let (glyphs, _) = fonts.shape(weight, name, 30.0);
                assert!(glyphs.iter().all(|g| g.glyph != 0), "{script}: {glyphs:?}");
            }
            let space = fonts.width(weight, " ", 30.0);
            for (spaced, joined) in [("さくら 田中", "さくら田中"), ("김 민준", "김민준"), ("王 小明", "王小明")]
            {
                let gap = fonts.width(weight, spaced, 30.0) - fonts.width(weight, joined, 30.0);
                assert!((gap - space).abs() < 0.5, "{spaced}: a gap of {gap} px, a space of {space}");
            }
        }
    }

    /// A zero-width joiner keeps its word in one shaping run: Sinhala ශ්‍රී forms its conjunct
    /// (no visible virama), as shaped in one buffer.
    #[test]
    fn joiners_keep_a_word_whole_for_shaping() {
        let fonts = Fonts::new();
        for word in ["ශ්‍රී", "क्‍ष", "ب‍"] {
            let (glyphs, _) = fonts.shape(Weight::Regular, word, 30.0);
            let face = glyphs[0].face;
            assert!(glyphs.iter().all(|g| g.face == face), "{word}: {glyphs:?}");
            let mut buffer = rustybuzz::UnicodeBuffer::new();
            buffer.push_str(word);
            buffer.guess_segment_properties();
            let whole = rustybuzz::shape(fonts.chain(Weight::Regular)[face].shaper(), &[], buffer);
            let expected: Vec<u16> = whole.glyph_infos().iter().map(|g| g.glyph_id as u16).collect();
            let shaped: Vec<u16> = glyphs.iter().map(|g| g.glyph).collect();
            assert_eq!(shaped, expected, "{word}");
        }
    }

    #[test]
    fn arabic_is_shaped_into_joined_forms_in_right_to_left_order() {
        let fonts = Fonts::new();
        let name = "محمد";
        let (glyphs, _) = fonts.shape(Weight::Bold, name, 36.0);
        let arabic = 1;
        assert!(glyphs.iter().all(|g| g.face == arabic), "{glyphs:?}");
        let font = fonts.chain(Weight::Bold)[arabic].font();
        let isolated: Vec<u16> = name.chars().map(|c| font.glyph_id(c).0).collect();
        // Displayed right to left: the first glyph on the left is the last letter, dal.
        let mut by_x = glyphs.clone();
        by_x.sort_by(|a, b| a.x.total_cmp(&b.x));
        assert_eq!(by_x.len(), 4);
        // Every letter but the final dal (which does not join to the left) takes another form
        // than its isolated one; meem, hah and meem join on both or one side.
        let shaped_logical: Vec<u16> = by_x.iter().rev().map(|g| g.glyph).collect();
        for i in 0..3 {
            assert_ne!(
                shaped_logical[i], isolated[i],
                "letter {i} of {name} is joined: {shaped_logical:?} vs {isolated:?}"
            );
        }
        assert_ne!(shaped_logical[3], isolated[3], "the final dal takes its final form");
        // The two meems differ: initial and medial.
        assert_ne!(shaped_logical[0], shaped_logical[2]);
    }

    #[test]
    fn mixed_scripts_keep_latin_left_to_right_and_put_hebrew_in_display_order() {
        let fonts = Fonts::new();
        let (glyphs, width) = fonts.shape(Weight::Regular, "Bob כהן", 30.0);
        assert!(width > 0.0);
        let noto = fonts.chain(Weight::Regular)[0].font();
        let hebrew = fonts.chain(Weight::Regular)[2].font();
        // "Bob" first, left to right; then the Hebrew word from its last letter (final nun) on
        // the left to its first (kaf) on the right.
        assert_eq!((glyphs[0].face, glyphs[0].glyph), (0, noto.glyph_id('B').0));
        let word: Vec<u16> = glyphs.iter().filter(|g| g.face == 2).map(|g| g.glyph).collect();
        let expected: Vec<u16> = ['ן', 'ה', 'כ'].iter().map(|&c| hebrew.glyph_id(c).0).collect();
        assert_eq!(word, expected);
        assert!(glyphs.windows(2).all(|w| w[0].x <= w[1].x), "glyphs advance left to right on screen");
    }

    #[test]
    fn devanagari_forms_its_conjuncts_and_thai_keeps_its_marks() {
        let fonts = Fonts::new();
        // अर्जुन: the r before j becomes a reph drawn above, so shaping changes the glyph run.
        let name = "अर्जुन";
        let (glyphs, _) = fonts.shape(Weight::Regular, name, 30.0);
        let font = fonts.chain(Weight::Regular)[3].font();
        let plain: Vec<u16> = name.chars().map(|c| font.glyph_id(c).0).collect();
        let shaped: Vec<u16> = glyphs.iter().map(|g| g.glyph).collect();
        assert_ne!(shaped, plain, "the conjunct is formed");
        assert!(glyphs.len() < name.chars().count(), "virama and ra fold into the reph");
        // ดี: the vowel above (sara ii) sits over its consonant and takes no room of its own.
        let (glyphs, with_mark) = fonts.shape(Weight::Regular, "ดี", 30.0);
        assert_eq!(glyphs.len(), 2);
        assert!(glyphs.iter().all(|g| g.face == 4), "{glyphs:?}");
        let (_, bare) = fonts.shape(Weight::Regular, "ด", 30.0);
        assert!((with_mark - bare).abs() < 0.5, "the mark adds no width: {bare} vs {with_mark}");
    }

    #[test]
    fn latin_text_takes_the_path_without_shaping() {
        assert!(!needs_shaping("Ragnhild Þórr Ярослав Ἀλέξανδρος 王小明 김민준 …"));
        assert!(needs_shaping("Bob محمد"));
        assert!(needs_shaping("สมชาย"));
    }
}
