//! Board images: a position (with the last move, marks and player names) to PNG bytes; a game
//! to an animated GIF.
//!
//! The shape follows lichess's GIF service: everything that can be prepared once is prepared
//! once per [`Renderer`] (the font, a fixed palette per theme, sprites of every square per
//! board size and theme, the coordinate frame), drawing copies those sprites into an indexed
//! canvas, and encoding is a separate step. A renderer is `Send + Sync`; keep one for the life
//! of the process and share it.
//!
//! * [`Renderer::render_png`] draws a [`Position`] with [`BoardOptions`].
//! * [`Renderer::render_gif`] animates a [`Game`] with [`GifOptions`], one frame per ply.
//! * [`Renderer::render_setup_png`] draws an unvalidated [`Setup`] (an editor's position),
//!   refusing what cannot be drawn with a [`RenderError`].
//! * [`Renderer::render_summary_card`], [`Renderer::render_profile_card`] and
//!   [`Renderer::render_leaderboard_card`] draw RGBA cards with charts (the `cards` module),
//!   from plain view structs whose every word comes from the caller.
//!
//! Nothing here panics on input: boards out of range, squares off the board and illegal moves
//! are typed errors, and an image is never blank.

mod cards;
mod draw;
mod encode;
mod fonts;
mod layout;
mod sprites;
mod text;
mod theme;

use std::sync::OnceLock;

use tafl_rules::{
    Game, IllegalMove, Move, MoveText, ParseError, Piece, Position, Rules, RulesError, Setup, Side, Square,
};
use thiserror::Error;

pub use cards::{
    Capture, CardPlayer, GameSeries, LeaderboardCard, LeaderboardLabels, LeaderboardRow, ProfileCard, ProfileLabels,
    RatingChange, RatingHistory, RatingPoint, SideRecord, SummaryCard, SummaryLabels, VariantCount, king_distance,
};
pub use layout::{Layout, MIN_ASPECT, Orientation, Rect};
pub use theme::Theme;

use draw::{Canvas, CaptionText, Scene};
use sprites::Sprites;
use text::Font;
use theme::Palette;

/// The largest board drawn (the rules' own limit, 19x19).
pub const MAX_SIZE: u8 = tafl_rules::MAX_SIZE;
/// The smallest board drawn.
pub const MIN_SIZE: u8 = tafl_rules::MIN_SIZE;

/// Why an image could not be made. Each message is one sentence a player or caller can act on.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum RenderError {
    #[error("a {size}x{size} board cannot be drawn: boards are from {min}x{min} to {max}x{max}", min = MIN_SIZE, max = MAX_SIZE)]
    BadSize { size: u8 },
    #[error("the board is empty: there is nothing to draw")]
    EmptyBoard,
    #[error("the position has no king")]
    NoKing,
    #[error("the position cannot be drawn: {0}")]
    Position(#[from] RulesError),
    #[error("{square} is off the {size}x{size} board")]
    OffBoard { square: Square, size: u8 },
    #[error("{mv} is not a move along a rank or file, so it cannot be marked as the last move")]
    NotAMove { mv: Move },
    #[error("ply {ply}: {source}")]
    Notation { ply: usize, source: ParseError },
    #[error("ply {ply}: {source}")]
    IllegalMove { ply: usize, source: IllegalMove },
    #[error("the image could not be encoded: {0}")]
    Encode(String),
}

/// The last move, marked on its from-square, path and to-square, with its captures: a faint
/// outline and cross where a taken piece stood, or, for a move drawn before it is played (a
/// hint), a red cross over each piece it would take.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LastMove {
    pub mv: Move,
    pub captures: Vec<Square>,
}

impl From<&tafl_rules::PlayedMove> for LastMove {
    fn from(played: &tafl_rules::PlayedMove) -> LastMove {
        LastMove { mv: played.mv, captures: played.captures.clone() }
    }
}

/// How a caller's mark looks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MarkKind {
    /// A dot on an empty square, e.g. where the king can escape to (a frame on an occupied
    /// square).
    Dot,
    /// A red frame, e.g. a king in danger.
    Danger,
    /// A blue frame, e.g. a selected piece.
    Info,
}

/// An extra mark on a square.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Mark {
    pub square: Square,
    pub kind: MarkKind,
}

/// How the king is drawn.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum KingStyle {
    /// A ship (the knorr) when the rules have neither throne nor corners, as in Sea Battle;
    /// a crown otherwise.
    #[default]
    Auto,
    Crown,
    Ship,
}

/// The header (player names with side icons, the side to move underlined) and footer (e.g.
/// the move number and whose turn, or the result). Every word is the caller's, already in the
/// reader's language: the renderer holds none of its own.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Caption {
    /// Display names. Untrusted text is fine: control characters are dropped, each script the
    /// cards draw is drawn here too (shaped where it must be), characters no bundled face has
    /// (emoji) become one `?`, long names are shortened. A name with nothing to draw (see
    /// [`is_drawable_name`]) leaves the side's icon alone: give a fallback instead.
    pub attackers: String,
    pub defenders: String,
    /// The footer line, cleaned and shortened like names.
    pub footer: String,
    /// The side whose name is underlined as the one to move; `None` once the game is over.
    pub to_move: Option<Side>,
}

/// What a board image shows besides the pieces.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BoardOptions {
    pub theme: Theme,
    pub orientation: Orientation,
    pub last_move: Option<LastMove>,
    pub marks: Vec<Mark>,
    pub caption: Option<Caption>,
    pub king: KingStyle,
}

/// How a game is animated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GifOptions {
    pub theme: Theme,
    pub orientation: Orientation,
    /// Names for the header, as in [`Caption`].
    pub attackers: String,
    pub defenders: String,
    /// The footer of the first frame (the start position), in the caller's words.
    pub first_footer: String,
    /// The footer of the last frame (the result, or whose turn it is), in the caller's words.
    pub last_footer: String,
    pub king: KingStyle,
    /// How long each ply is shown.
    pub frame_ms: u32,
    /// How long the start position is shown, so the viewer can find their bearings.
    pub first_ms: u32,
    /// How long the final position (with the result) is shown before the loop restarts.
    pub last_ms: u32,
    /// The most frames after the start position. A longer game shows every n-th ply (and its
    /// last), so that its GIF stays within what Discord accepts (10 MB): at one frame a ply,
    /// about 2.8 KB each on 11×11, 3,000 plies came to 8.4 MB. A frame of several plies changes
    /// more of the board: at 600 frames a 3,000-ply Copenhagen game of random moves comes to
    /// 3.3 MB (5.4 KB a frame) and a 10,000-ply game on 19×19 to 3.2 MB.
    pub max_frames: usize,
}

impl Default for GifOptions {
    fn default() -> GifOptions {
        GifOptions {
            theme: Theme::default(),
            orientation: Orientation::default(),
            attackers: String::new(),
            defenders: String::new(),
            first_footer: String::new(),
            last_footer: String::new(),
            king: KingStyle::default(),
            frame_ms: 800,
            first_ms: 2000,
            last_ms: 5000,
            max_frames: 600,
        }
    }
}

const SIZES: usize = ((MAX_SIZE - MIN_SIZE) / 2 + 1) as usize;

/// Draws boards. Prepares lazily and once: the palette of each theme at creation, the sprites
/// of a board size and theme (and its coordinate frame per orientation) on first use.
#[derive(Debug)]
pub struct Renderer {
    /// The boards' text, drawn from the same faces as the cards' (each parsed on first use, so
    /// that a process drawing only Latin names never parses the others).
    font: Font,
    palettes: [Palette; 2],
    prepared: Vec<OnceLock<Prepared>>,
}

#[derive(Debug)]
struct Prepared {
    sprites: Sprites,
    bases: [OnceLock<Canvas>; 2],
}

impl Default for Renderer {
    fn default() -> Renderer {
        Renderer::new()
    }
}

impl Renderer {
    #[must_use]
    pub fn new() -> Renderer {
        Renderer {
            font: Font::new(),
            palettes: Theme::ALL.map(Palette::new),
            prepared: (0..SIZES * Theme::ALL.len()).map(|_| OnceLock::new()).collect(),
        }
    }

    /// Prepares the sprites of every board size and theme now instead of on first use, e.g. at
    /// start-up so the first board of a game is as fast as every other.
    pub fn prepare_all(&self) {
        for size in (MIN_SIZE..=MAX_SIZE).step_by(2) {
            for theme in Theme::ALL {
                for orientation in [Orientation::Standard, Orientation::Flipped] {
                    if let Ok(layout) = self.layout(size, orientation, false) {
                        let _ = self.base(&layout, theme);
                    }
                }
            }
        }
    }

    /// The geometry of an image of a `size` board, e.g. to find a square's pixels.
    pub fn layout(&self, size: u8, orientation: Orientation, caption: bool) -> Result<Layout, RenderError> {
        check_size(size)?;
        Ok(Layout::new(size, orientation, caption))
    }

    /// A position as an indexed PNG.
    pub fn render_png(&self, position: &Position, options: &BoardOptions) -> Result<Vec<u8>, RenderError> {
        let canvas = self.draw(position, options)?;
        encode::png(&canvas, self.palette(options.theme))
    }

    /// An unvalidated placement as a PNG, validated first: the checks of the rules plus those
    /// of drawing (size, an empty board, a missing king) as typed errors.
    pub fn render_setup_png(
        &self,
        rules: &Rules,
        setup: &Setup,
        to_move: Side,
        options: &BoardOptions,
    ) -> Result<Vec<u8>, RenderError> {
        check_size(setup.size())?;
        if setup.pieces().next().is_none() {
            return Err(RenderError::EmptyBoard);
        }
        if !setup.pieces().any(|(_, p)| p == Piece::King) {
            return Err(RenderError::NoKing);
        }
        let position = Position::from_setup(rules.clone(), setup, to_move)?;
        self.render_png(&position, options)
    }

    /// A game as an animated GIF: the start position, then one frame per ply with the move
    /// marked (every n-th ply beyond [`GifOptions::max_frames`]), the first footer under the
    /// start only, none under the plies, and the result in the footer of the last frame. Frames after the first hold only the rectangle that changed, with
    /// unchanged pixels transparent.
    pub fn render_gif(&self, game: &Game, options: &GifOptions) -> Result<Vec<u8>, RenderError> {
        let mut position = game.start().clone();
        let size = position.size();
        let layout = self.layout(size, options.orientation, true)?;
        let (base, sprites) = self.base(&layout, options.theme)?;
        let palette = self.palette(options.theme);
        let plies = game.moves();
        // The header stays still (no turn underline) so that frames only hold the board's changes.
        let caption = Caption {
            attackers: options.attackers.clone(),
            defenders: options.defenders.clone(),
            footer: if plies.is_empty() { options.last_footer.clone() } else { options.first_footer.clone() },
            to_move: None,
        };
        let final_footer = self.font.clean(&options.last_footer);
        let mut scene = draw::scene(&layout, &position, None, &[], options.king)?;
        scene.caption = Some(CaptionText::new(&self.font, &caption));
        let mut canvas = draw::image(&layout, base, sprites, palette, &self.font, &scene);
        let mut gif = encode::Gif::new(layout.width, layout.height, palette)?;
        let first_delay = if plies.is_empty() { options.last_ms } else { options.first_ms };
        gif.full(&canvas, first_delay)?;

        let stride = plies.len().div_ceil(options.max_frames.max(1)).max(1);
        // The start's footer ("Start · Attackers to move") is true of the first frame only: the
        // first frame after it clears it (frames keep the pixels they do not change), and the
        // last one writes the result.
        let mut footer_cleared = false;
        for (i, played) in plies.iter().enumerate() {
            position.play_unchecked(played.mv);
            let last = i + 1 == plies.len();
            if !last && (i + 1) % stride != 0 {
                continue;
            }
            let marks: Vec<Mark> = if last { captured_king(game).into_iter().collect() } else { Vec::new() };
            let next = draw::scene(&layout, &position, Some(&LastMove::from(played)), &marks, options.king)?;
            let changed: Vec<usize> = (0..next.cells.len()).filter(|&c| next.cells[c] != scene.cells[c]).collect();
            let mut rect = changed.iter().map(|&c| draw::cell_rect(&layout, c)).reduce(Rect::union);
            let clear_footer = !last && !footer_cleared;
            if clear_footer {
                let footer = layout.footer_rect();
                rect = Some(rect.map_or(footer, |r| r.union(footer)));
            }
            if last {
                let footer = layout.footer_rect();
                rect = Some(rect.map_or(footer, |r| r.union(footer)));
                for &(sq, _) in &next.frames {
                    if let Some(r) = layout.square_rect(sq) {
                        rect = rect.map(|rect| rect.union(r));
                    }
                }
            }
            let rect = rect.unwrap_or(Rect { x: 0, y: 0, w: 1, h: 1 });
            let before = encode::snapshot(&canvas, rect);
            for &c in &changed {
                draw::draw_cell(&mut canvas, &layout, sprites, c, next.cells[c]);
            }
            if clear_footer {
                draw::draw_footer(&mut canvas, &layout, palette, &self.font, "");
                footer_cleared = true;
            }
            if last {
                draw::draw_frames(&mut canvas, &layout, palette, &next.frames);
                draw::draw_footer(&mut canvas, &layout, palette, &self.font, &final_footer);
            }
            gif.partial(&canvas, rect, &before, if last { options.last_ms } else { options.frame_ms })?;
            scene.cells = next.cells;
        }
        gif.finish()
    }

    /// A finished game as one PNG card: the final board, players, result and charts.
    pub fn render_summary_card(&self, card: &SummaryCard) -> Result<Vec<u8>, RenderError> {
        let options = BoardOptions {
            theme: card.theme,
            last_move: card.last_move.clone(),
            marks: card.marks.clone(),
            king: card.king,
            ..BoardOptions::default()
        };
        let canvas = self.draw(&card.final_position, &options)?;
        let layout = self.layout(card.final_position.size(), Orientation::Standard, false)?;
        let board = cards::summary::board_image(&canvas, &layout, self.palette(card.theme));
        cards::encode(&cards::summary::draw(self.card_fonts(), card, &board).0)
    }

    /// A player's profile as one PNG card.
    pub fn render_profile_card(&self, card: &ProfileCard) -> Result<Vec<u8>, RenderError> {
        cards::encode(&cards::profile::draw(self.card_fonts(), card))
    }

    /// A leaderboard as one PNG card (the first ten rows).
    pub fn render_leaderboard_card(&self, card: &LeaderboardCard) -> Result<Vec<u8>, RenderError> {
        cards::encode(&cards::leaderboard::draw(self.card_fonts(), card))
    }

    fn card_fonts(&self) -> &fonts::Fonts {
        self.font.faces()
    }

    /// A position drawn into an indexed canvas (not yet encoded).
    fn draw(&self, position: &Position, options: &BoardOptions) -> Result<Canvas, RenderError> {
        let layout = self.layout(position.size(), options.orientation, options.caption.is_some())?;
        let (base, sprites) = self.base(&layout, options.theme)?;
        let mut scene: Scene =
            draw::scene(&layout, position, options.last_move.as_ref(), &options.marks, options.king)?;
        scene.caption = options.caption.as_ref().map(|c| CaptionText::new(&self.font, c));
        Ok(draw::image(&layout, base, sprites, self.palette(options.theme), &self.font, &scene))
    }

    fn palette(&self, theme: Theme) -> &Palette {
        &self.palettes[theme.index()]
    }

    fn base(&self, layout: &Layout, theme: Theme) -> Result<(&Canvas, &Sprites), RenderError> {
        check_size(layout.size)?;
        let slot = usize::from((layout.size - MIN_SIZE) / 2) * Theme::ALL.len() + theme.index();
        let palette = self.palette(theme);
        let prepared = self.prepared[slot].get_or_init(|| Prepared {
            sprites: Sprites::new(palette, layout.cell(), layout.font_px * 5 / 4),
            bases: [OnceLock::new(), OnceLock::new()],
        });
        let base = prepared.bases[layout.orientation.index()].get_or_init(|| draw::base(layout, palette, &self.font));
        Ok((base, &prepared.sprites))
    }
}

fn check_size(size: u8) -> Result<(), RenderError> {
    if (MIN_SIZE..=MAX_SIZE).contains(&size) && size % 2 == 1 { Ok(()) } else { Err(RenderError::BadSize { size }) }
}

/// A red frame on the king's square when the game ended with the king captured (he stays on
/// the board in the rules, so without it the final board would not show why the game ended).
#[must_use]
pub fn captured_king(game: &Game) -> Option<Mark> {
    match game.status() {
        tafl_rules::Status::Finished(outcome) if outcome.reason == tafl_rules::Reason::KingCaptured => {
            Some(Mark { square: game.position().king(), kind: MarkKind::Danger })
        }
        _ => None,
    }
}

/// Whether a board draws anything of `name` in its header. A name of only spaces, control and
/// invisible characters (the Hangul filler U+3164 or the Braille blank U+2800 that people pick to
/// look nameless on Discord, zero-width spaces and joiners, variation selectors) is drawn as
/// nothing, a bare icon; the renderer has no words of its own, so the caller puts its fallback in
/// the [`Caption`] instead, e.g. the side's name, as the cards show a player's `fallback`.
/// Characters no bundled face has (emoji) count: a board marks them with a `?`.
#[must_use]
pub fn is_drawable_name(name: &str) -> bool {
    fonts::draws_something(name)
}

/// Plays written moves (`e1-e3`, with optional capture claims `xe2`) from `start`, for callers
/// that draw a game given as text, such as `tafl-bot render`. The first move that is badly
/// written or illegal is the error, numbered from ply 1.
pub fn replay<S: AsRef<str>>(start: Position, moves: &[S]) -> Result<Game, RenderError> {
    let mut game = Game::new(start);
    for (i, text) in moves.iter().enumerate() {
        let ply = i + 1;
        let parsed: MoveText = text.as_ref().parse().map_err(|source| RenderError::Notation { ply, source })?;
        game.play_text(&parsed).map_err(|source| RenderError::IllegalMove { ply, source })?;
    }
    Ok(game)
}
