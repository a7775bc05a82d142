//! Colours: what each theme paints, and the fixed palette every image of a theme is drawn in.
//!
//! Images are indexed (palette) PNGs and GIFs, so every colour an image can contain is decided
//! here, once per theme. Anti-aliased edges need the in-between shades of the two colours that
//! meet at the edge; those shades are precomputed as ramps for the pairs that actually meet
//! (piece outline on each square colour, text on the margin, ...), which keeps the palette far
//! under 256 entries while edges stay smooth.

use tafl_rules::Piece;

/// The colour scheme of an image.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Theme {
    /// Warm wood tones with a blue last-move mark: calm for a board looked at all day.
    #[default]
    Classic,
    /// Black, white and saturated marks, for small screens in sunlight and low vision.
    HighContrast,
}

impl Theme {
    pub const ALL: [Theme; 2] = [Theme::Classic, Theme::HighContrast];

    /// The name used in settings and on the command line.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Theme::Classic => "classic",
            Theme::HighContrast => "high-contrast",
        }
    }

    /// Parses a theme name (`classic`, `high-contrast`; `_` and `contrast` are accepted too).
    #[must_use]
    pub fn from_name(name: &str) -> Option<Theme> {
        match name.trim().to_ascii_lowercase().replace('_', "-").as_str() {
            "classic" | "default" | "wood" => Some(Theme::Classic),
            "high-contrast" | "contrast" | "hc" => Some(Theme::HighContrast),
            _ => None,
        }
    }

    pub(crate) const fn index(self) -> usize {
        match self {
            Theme::Classic => 0,
            Theme::HighContrast => 1,
        }
    }

    /// The body colour of a piece (the king's is the colour around his crown), so that callers
    /// and tests can check an image without knowing how it is drawn.
    #[must_use]
    pub fn piece_colour(self, piece: Piece) -> [u8; 3] {
        self.rgb(match piece {
            Piece::Attacker => Role::AttackerFill,
            Piece::Defender | Piece::King => Role::DefenderFill,
        })
    }

    /// The colour around the board, e.g. for a Discord embed's accent.
    #[must_use]
    pub fn margin_colour(self) -> [u8; 3] {
        self.rgb(Role::Margin)
    }

    /// The tint of the last move's destination square.
    #[must_use]
    pub fn last_move_colour(self) -> [u8; 3] {
        self.rgb(Role::To)
    }

    pub(crate) fn rgb(self, role: Role) -> [u8; 3] {
        let classic = match role {
            Role::Margin => [0x3a, 0x2e, 0x24],
            Role::Text => [0xf4, 0xea, 0xd5],
            Role::Grid => [0x8c, 0x6e, 0x48],
            Role::Light => [0xec, 0xd9, 0xb1],
            Role::Dark => [0xdf, 0xc9, 0x9c],
            Role::Special => [0xbf, 0x95, 0x5e],
            Role::Pattern => [0x5d, 0x40, 0x22],
            Role::From => [0xa8, 0xc9, 0xdc],
            Role::Path => [0xcb, 0xdd, 0xe2],
            Role::To | Role::TurnBar => [0x86, 0xb4, 0xd2],
            Role::Ink => [0x1a, 0x14, 0x10],
            Role::AttackerFill => [0x33, 0x2c, 0x28],
            Role::AttackerRim => [0x7a, 0x6d, 0x62],
            Role::DefenderFill => [0xfb, 0xf7, 0xee],
            Role::Crown => [0xe0, 0xa8, 0x1e],
            Role::Ghost => [0xa8, 0x3a, 0x2a],
            Role::Dot | Role::Info => [0x1d, 0x6f, 0xb8],
            Role::Danger => [0xd2, 0x2b, 0x22],
        };
        match self {
            Theme::Classic => classic,
            Theme::HighContrast => match role {
                Role::Margin | Role::Grid | Role::Pattern | Role::Ink | Role::AttackerFill => [0, 0, 0],
                Role::Text | Role::Light | Role::DefenderFill => [0xff, 0xff, 0xff],
                Role::Dark => [0xe4, 0xe4, 0xe4],
                Role::Special => [0xff, 0xd4, 0x00],
                Role::From => [0x7c, 0xc8, 0xff],
                Role::Path => [0xbf, 0xe4, 0xff],
                Role::To | Role::TurnBar => [0x2e, 0x9b, 0xff],
                Role::AttackerRim => [0x9a, 0x9a, 0x9a],
                Role::Crown => [0xff, 0xb0, 0x00],
                Role::Ghost => [0xe0, 0x00, 0x00],
                Role::Dot | Role::Info => [0x00, 0x50, 0xff],
                Role::Danger => [0xff, 0x00, 0x00],
            },
        }
    }
}

/// What a pixel is part of. Sprites and text name roles, never RGB values, so that a theme is
/// one table and every role has a palette entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Role {
    Margin,
    Text,
    Grid,
    Light,
    Dark,
    /// Throne and corner squares.
    Special,
    /// The lines drawn on throne and corner squares.
    Pattern,
    From,
    Path,
    To,
    /// Outlines of pieces and glyphs.
    Ink,
    AttackerFill,
    AttackerRim,
    DefenderFill,
    Crown,
    /// Marks where the last move captured (or, in a hint, would capture).
    Ghost,
    Dot,
    Danger,
    Info,
    TurnBar,
}

impl Role {
    const ALL: [Role; 20] = [
        Role::Margin,
        Role::Text,
        Role::Grid,
        Role::Light,
        Role::Dark,
        Role::Special,
        Role::Pattern,
        Role::From,
        Role::Path,
        Role::To,
        Role::Ink,
        Role::AttackerFill,
        Role::AttackerRim,
        Role::DefenderFill,
        Role::Crown,
        Role::Ghost,
        Role::Dot,
        Role::Danger,
        Role::Info,
        Role::TurnBar,
    ];
}

/// In-between shades per ramp; with the two ends that makes 7 levels of coverage, enough for
/// edges that look smooth at phone resolution.
pub(crate) const STEPS: usize = 5;

/// The colour pairs that meet at anti-aliased edges: (foreground, background).
const RAMPS: [(Role, Role); 27] = [
    (Role::Ink, Role::Light),
    (Role::Ink, Role::Dark),
    (Role::Ink, Role::Special),
    (Role::Ink, Role::From),
    (Role::Ink, Role::Path),
    (Role::Ink, Role::To),
    (Role::Ink, Role::Margin),
    (Role::AttackerFill, Role::Ink),
    (Role::DefenderFill, Role::Ink),
    (Role::AttackerRim, Role::AttackerFill),
    (Role::Crown, Role::Ink),
    (Role::Pattern, Role::Special),
    (Role::Pattern, Role::From),
    (Role::Pattern, Role::Path),
    (Role::Pattern, Role::To),
    (Role::Ghost, Role::Light),
    (Role::Ghost, Role::Dark),
    (Role::Ghost, Role::Special),
    (Role::Dot, Role::Light),
    (Role::Dot, Role::Dark),
    (Role::Dot, Role::Special),
    (Role::Text, Role::Margin),
    (Role::Ink, Role::DefenderFill),
    (Role::AttackerFill, Role::Light),
    (Role::AttackerFill, Role::Dark),
    (Role::Danger, Role::Margin),
    (Role::Crown, Role::DefenderFill),
];

/// The fixed palette of one theme. Index [`Palette::transparent`] is reserved for unchanged
/// pixels of GIF frames and never drawn.
#[derive(Debug)]
pub(crate) struct Palette {
    rgb: Vec<[u8; 3]>,
    base: [u8; Role::ALL.len()],
    ramps: Vec<((Role, Role), [u8; STEPS])>,
}

impl Palette {
    pub(crate) fn new(theme: Theme) -> Palette {
        let mut rgb: Vec<[u8; 3]> = Vec::with_capacity(256);
        let mut add = |c: [u8; 3]| -> u8 {
            if let Some(i) = rgb.iter().position(|&e| e == c) {
                i as u8
            } else {
                rgb.push(c);
                (rgb.len() - 1) as u8
            }
        };
        let mut base = [0u8; Role::ALL.len()];
        for role in Role::ALL {
            base[role as usize] = add(theme.rgb(role));
        }
        let mut ramps = Vec::with_capacity(RAMPS.len());
        for (fg, bg) in RAMPS {
            let mut steps = [0u8; STEPS];
            for (k, step) in steps.iter_mut().enumerate() {
                let a = (k + 1) as f32 / (STEPS + 1) as f32;
                *step = add(to_u8(mix(to_f32(theme.rgb(bg)), to_f32(theme.rgb(fg)), a)));
            }
            ramps.push(((fg, bg), steps));
        }
        debug_assert!(rgb.len() < 256, "one index stays free for GIF transparency");
        Palette { rgb, base, ramps }
    }

    pub(crate) fn index(&self, role: Role) -> u8 {
        self.base[role as usize]
    }

    /// The palette entry for `fg` covering `coverage` (0..=1) of a pixel of `bg`.
    pub(crate) fn blend(&self, fg: Role, bg: Role, coverage: f32) -> u8 {
        let level = (coverage.clamp(0.0, 1.0) * (STEPS + 1) as f32).round() as usize;
        if level == 0 {
            return self.index(bg);
        }
        if level > STEPS {
            return self.index(fg);
        }
        match self.ramps.iter().find(|(pair, _)| *pair == (fg, bg)) {
            Some((_, steps)) => steps[level - 1],
            None => self.nearest(mix(self.rgb_f32(bg), self.rgb_f32(fg), coverage)),
        }
    }

    /// The colour of a palette entry; indices past the palette (the GIF's transparent one) are
    /// black.
    pub(crate) fn rgb_of(&self, index: u8) -> [u8; 3] {
        self.rgb.get(usize::from(index)).copied().unwrap_or([0, 0, 0])
    }

    pub(crate) fn rgb_f32(&self, role: Role) -> [f32; 3] {
        to_f32(self.rgb[self.index(role) as usize])
    }

    /// The closest palette entry; used while preparing sprites, never per drawn pixel.
    pub(crate) fn nearest(&self, c: [f32; 3]) -> u8 {
        let mut best = (f32::MAX, 0u8);
        for (i, e) in self.rgb.iter().enumerate() {
            // Weighted towards green, as the eye is; cheap and good enough for 1-pixel edges.
            let d = 2.0 * (f32::from(e[0]) - c[0]).powi(2)
                + 4.0 * (f32::from(e[1]) - c[1]).powi(2)
                + 3.0 * (f32::from(e[2]) - c[2]).powi(2);
            if d < best.0 {
                best = (d, i as u8);
            }
        }
        best.1
    }

    pub(crate) fn transparent(&self) -> u8 {
        self.rgb.len() as u8
    }

    pub(crate) fn len(&self) -> usize {
        self.rgb.len()
    }

    /// The entries as `r, g, b` bytes, padded with black to `entries` entries.
    pub(crate) fn bytes(&self, entries: usize) -> Vec<u8> {
        let mut out: Vec<u8> = self.rgb.iter().flatten().copied().collect();
        out.resize(entries.max(self.rgb.len()) * 3, 0);
        out
    }
}

pub(crate) fn to_f32(c: [u8; 3]) -> [f32; 3] {
    c.map(f32::from)
}

pub(crate) fn to_u8(c: [f32; 3]) -> [u8; 3] {
    c.map(|v| v.round().clamp(0.0, 255.0) as u8)
}

/// `a` of `top` over `bottom`.
pub(crate) fn mix(bottom: [f32; 3], top: [f32; 3], a: f32) -> [f32; 3] {
    [bottom[0] + (top[0] - bottom[0]) * a, bottom[1] + (top[1] - bottom[1]) * a, bottom[2] + (top[2] - bottom[2]) * a]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_theme_palette_leaves_room_for_gif_transparency() {
        for theme in Theme::ALL {
            let palette = Palette::new(theme);
            assert!(palette.len() < 256, "{theme:?} has {} colours", palette.len());
        }
    }

    #[test]
    fn theme_names_round_trip() {
        for theme in Theme::ALL {
            assert_eq!(Theme::from_name(theme.name()), Some(theme));
        }
        assert_eq!(Theme::from_name("neon"), None);
    }
}
