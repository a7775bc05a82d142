//! Cards: one RGBA picture that tells a game's story (summary), a player's record (profile) or
//! a server's best players (leaderboard), drawn with `image` and `imageproc`.
//!
//! The cards hold no words of their own: every title, axis name, side name and sentence comes
//! from the caller, already in the reader's language, in the plain view structs below. Names
//! are untrusted and drawn in any script the bundled faces cover; characters none has are left
//! out, and a name with nothing drawable left becomes the caller's fallback ("Player 1").
//!
//! Boards are not drawn again here: the summary composes in the indexed board of
//! [`crate::Renderer`], scaled down.

mod chart;
pub(crate) mod leaderboard;
pub(crate) mod profile;
pub(crate) mod summary;

use image::RgbaImage;
use tafl_rules::{Game, Position, Side};

use crate::sprites::{Content, shade_badge};
use crate::theme::{Palette, to_f32, to_u8};
use crate::{KingStyle, LastMove, Mark, RenderError, Theme};

/// A player as a card shows them.
#[derive(Clone, Debug, PartialEq)]
pub struct CardPlayer {
    /// Display name; untrusted text is fine.
    pub name: String,
    /// Shown when `name` has nothing drawable, e.g. "Player 1" in the card's language.
    pub fallback: String,
    pub side: Side,
    /// The rating after the game and its change, for rated games.
    pub rating: Option<RatingChange>,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RatingChange {
    pub after: f64,
    pub change: f64,
    /// Marked with a `?` after the rating, as the text marks it, while the rating after the game
    /// is not yet settled.
    pub provisional: bool,
}

/// Pieces taken on one ply, marked on the charts' time axis.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Capture {
    pub ply: u32,
    /// The side whose pieces were taken.
    pub side: Side,
    pub count: u32,
}

/// What the summary charts plot. Index 0 of each series is the start position, index `i` the
/// position after ply `i`; series of different lengths are fine (each is drawn as far as it
/// goes).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GameSeries {
    /// Pieces left: (attackers, defenders without the king).
    pub pieces: Vec<(u32, u32)>,
    /// The king's distance (orthogonal steps, ignoring other pieces) to the nearest escape
    /// square: a corner under corner escape, any edge square under edge escape.
    pub king_distance: Vec<u32>,
    /// The engine's evaluation, positive when the attackers stand better; `None` hides the
    /// chart. Non-finite values are treated as level.
    pub evaluation: Option<Vec<f32>>,
    pub captures: Vec<Capture>,
    /// A ply to mark on the evaluation chart (the review's turning point): a line from the
    /// position before it to the one after, where the evaluation swung.
    pub turning_point: Option<u32>,
}

impl GameSeries {
    /// The series of a played game, by replaying its moves (the evaluation is left out).
    #[must_use]
    pub fn from_game(game: &Game) -> GameSeries {
        let mut position = game.start().clone();
        let count = |p: &Position| {
            let (a, d) = p.counts();
            (a as u32, d as u32)
        };
        let mut pieces = vec![count(&position)];
        let mut distances = vec![king_distance(&position)];
        let mut captures = Vec::new();
        for (i, played) in game.moves().iter().enumerate() {
            let mover = position.to_move();
            position.play_unchecked(played.mv);
            pieces.push(count(&position));
            distances.push(king_distance(&position));
            if !played.captures.is_empty() {
                captures.push(Capture {
                    ply: i as u32 + 1,
                    side: mover.opponent(),
                    count: played.captures.len() as u32,
                });
            }
        }
        GameSeries { pieces, king_distance: distances, evaluation: None, captures, turning_point: None }
    }
}

/// Orthogonal steps from the king to the nearest escape square, ignoring blockers.
#[must_use]
pub fn king_distance(position: &Position) -> u32 {
    let king = position.king();
    let last = u32::from(position.size().saturating_sub(1));
    let (f, r) = (u32::from(king.file()), u32::from(king.rank()));
    if position.rules().has_corners() {
        f.min(last.saturating_sub(f)) + r.min(last.saturating_sub(r))
    } else {
        f.min(last.saturating_sub(f)).min(r).min(last.saturating_sub(r))
    }
}

/// The summary card's words, in the reader's language.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SummaryLabels {
    /// Title of the pieces chart, e.g. "Pieces left".
    pub pieces: String,
    /// Title of the king chart, e.g. "King's distance to escape".
    pub king_distance: String,
    /// Title of the evaluation chart, e.g. "Evaluation".
    pub evaluation: String,
    /// The time axis's name, e.g. "ply".
    pub ply: String,
    pub attackers: String,
    pub defenders: String,
}

/// A finished game as one picture.
#[derive(Clone, Debug)]
pub struct SummaryCard {
    pub theme: Theme,
    pub final_position: Position,
    pub last_move: Option<LastMove>,
    /// Marks on the final board, e.g. [`crate::captured_king`].
    pub marks: Vec<Mark>,
    pub king: KingStyle,
    /// A small line above the players, e.g. "Copenhagen · rated"; may be empty.
    pub title: String,
    /// Attackers first, then defenders.
    pub players: [CardPlayer; 2],
    /// The result and its reason, e.g. "Defenders win · the king escaped".
    pub result_line: String,
    pub moves_line: String,
    pub duration_line: String,
    pub series: GameSeries,
    pub labels: SummaryLabels,
}

/// One rated game's result in a rating history.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RatingPoint {
    /// The game's number among the player's rated games (the x axis).
    pub game: u32,
    pub rating: f64,
    /// The rating deviation; the band is drawn at one deviation either side.
    pub deviation: f64,
}

/// The rating history in one variant family.
#[derive(Clone, Debug, PartialEq)]
pub struct RatingHistory {
    /// The family's name, in the legend.
    pub family: String,
    pub points: Vec<RatingPoint>,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SideRecord {
    pub wins: u32,
    pub losses: u32,
    pub draws: u32,
}

impl SideRecord {
    /// Every game counted; saturating, as the counts come from outside.
    #[must_use]
    pub const fn games(self) -> u32 {
        self.wins.saturating_add(self.losses).saturating_add(self.draws)
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VariantCount {
    pub name: String,
    pub games: u32,
}

/// The profile card's words.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ProfileLabels {
    /// Title of the rating chart, e.g. "Rating".
    pub rating: String,
    /// The x axis's name, e.g. "games".
    pub games: String,
    /// Title of the results panel, e.g. "Results by side".
    pub by_side: String,
    pub attackers: String,
    pub defenders: String,
    /// The row of games against the bot, e.g. "Against the bot".
    pub against_bot: String,
    pub wins: String,
    pub losses: String,
    pub draws: String,
    /// Title of the variants panel, e.g. "Most played".
    pub most_played: String,
    /// Said in the rating chart and the variants panel when there is nothing to draw in them,
    /// e.g. "No rated games yet".
    pub nothing_yet: String,
}

/// A player's record as one picture.
#[derive(Clone, Debug, PartialEq)]
pub struct ProfileCard {
    pub theme: Theme,
    pub name: String,
    pub fallback: String,
    /// A line under the name, e.g. "42 games"; may be empty.
    pub subtitle: String,
    pub history: Vec<RatingHistory>,
    /// Games against people by side.
    pub attackers: SideRecord,
    pub defenders: SideRecord,
    /// Games against a computer player, on either side; a third row when there are any.
    pub against_bot: SideRecord,
    /// The current streak in words, e.g. "3 wins in a row"; may be empty.
    pub streak_line: String,
    /// Most played first; the first five are shown.
    pub most_played: Vec<VariantCount>,
    pub labels: ProfileLabels,
}

/// One player on the leaderboard.
#[derive(Clone, Debug, PartialEq)]
pub struct LeaderboardRow {
    pub rank: u32,
    pub name: String,
    pub fallback: String,
    pub rating: f64,
    /// Marked with a `?` after the rating, as the text marks it, while the rating is not yet
    /// settled (its deviation is high).
    pub provisional: bool,
    pub games: u32,
    /// Recent ratings, oldest first, for the sparkline.
    pub trend: Vec<f64>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LeaderboardLabels {
    /// Column heading over the ratings, e.g. "Rating".
    pub rating: String,
    /// Column heading over the game counts, e.g. "Games".
    pub games: String,
    /// Column heading over the sparklines, e.g. "Trend".
    pub trend: String,
    /// Said instead of the table when nobody is on it, e.g. "No rated games yet".
    pub nothing_yet: String,
}

/// The best players as one picture; the first ten rows are drawn.
#[derive(Clone, Debug, PartialEq)]
pub struct LeaderboardCard {
    pub theme: Theme,
    pub title: String,
    pub subtitle: String,
    pub rows: Vec<LeaderboardRow>,
    pub labels: LeaderboardLabels,
}

/// The colours of a card per theme: the classic card is the board's dark wood, the
/// high-contrast one black, so that the composed board sits in it without a seam.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Colours {
    pub bg: [u8; 3],
    pub panel: [u8; 3],
    pub grid: [u8; 3],
    pub axis: [u8; 3],
    pub text: [u8; 3],
    pub muted: [u8; 3],
    pub attackers: [u8; 3],
    pub defenders: [u8; 3],
    pub king: [u8; 3],
    pub good: [u8; 3],
    pub bad: [u8; 3],
    pub neutral: [u8; 3],
    pub series: [[u8; 3]; 5],
}

impl Colours {
    pub(crate) fn of(theme: Theme) -> Colours {
        match theme {
            Theme::Classic => Colours {
                bg: theme.margin_colour(),
                panel: [0x46, 0x38, 0x2c],
                grid: [0x58, 0x48, 0x3a],
                axis: [0x8c, 0x78, 0x62],
                text: [0xf4, 0xea, 0xd5],
                muted: [0xc2, 0xb2, 0x98],
                attackers: [0xff, 0x8a, 0x5c],
                defenders: [0x86, 0xc8, 0xff],
                king: [0xf0, 0xc0, 0x40],
                good: [0x8e, 0xd0, 0x7e],
                bad: [0xff, 0x74, 0x66],
                neutral: [0x9a, 0x8c, 0x7a],
                series: [
                    [0x86, 0xc8, 0xff],
                    [0xff, 0x8a, 0x5c],
                    [0x8e, 0xd0, 0x7e],
                    [0xf0, 0xc0, 0x40],
                    [0xd8, 0x9c, 0xf0],
                ],
            },
            Theme::HighContrast => Colours {
                bg: [0, 0, 0],
                panel: [0x14, 0x14, 0x14],
                grid: [0x3c, 0x3c, 0x3c],
                axis: [0xb0, 0xb0, 0xb0],
                text: [0xff, 0xff, 0xff],
                muted: [0xd8, 0xd8, 0xd8],
                attackers: [0xff, 0x6a, 0x3d],
                defenders: [0x3d, 0xb4, 0xff],
                king: [0xff, 0xd4, 0x00],
                good: [0x4c, 0xff, 0x4c],
                bad: [0xff, 0x4c, 0x4c],
                neutral: [0xa0, 0xa0, 0xa0],
                series: [
                    [0x3d, 0xb4, 0xff],
                    [0xff, 0x6a, 0x3d],
                    [0x4c, 0xff, 0x4c],
                    [0xff, 0xd4, 0x00],
                    [0xff, 0x6e, 0xff],
                ],
            },
        }
    }

    pub(crate) fn side(&self, side: Side) -> [u8; 3] {
        match side {
            Side::Attackers => self.attackers,
            Side::Defenders => self.defenders,
        }
    }
}

/// A side's icon, `2 * r` pixels wide around `centre`: the same badge as a board's header, its
/// piece drawn as on the board on a tile of the board's light square.
pub(crate) fn side_icon(image: &mut RgbaImage, theme: Theme, centre: (f32, f32), r: f32, side: Side) {
    let palette = Palette::new(theme);
    let content = match side {
        Side::Attackers => Content::Attacker,
        Side::Defenders => Content::Defender,
    };
    let (x0, y0) = ((centre.0 - r).floor().max(0.0) as u32, (centre.1 - r).floor().max(0.0) as u32);
    let (x1, y1) =
        (((centre.0 + r).ceil() as u32).min(image.width()), ((centre.1 + r).ceil() as u32).min(image.height()));
    for y in y0..y1 {
        for x in x0..x1 {
            let p = [x as f32 + 0.5 - centre.0, y as f32 + 0.5 - centre.1];
            let pixel = image.get_pixel_mut(x, y);
            let [red, green, blue] =
                to_u8(shade_badge(&palette, to_f32([pixel[0], pixel[1], pixel[2]]), content, p, 2.0 * r));
            *pixel = image::Rgba([red, green, blue, 255]);
        }
    }
}

/// An opaque card as a PNG: RGB (no alpha channel to carry), the Paeth filter, deflated by
/// zlib-rs at level 2 (see the workspace's `png` dependency). Measured on 100-ply summary cards
/// with an evaluation chart, four variants and themes (release build, fastest of seven, the
/// machine busy; drawing the card takes some 5 ms): png's fdeflate mode 1.2 ms but 151 to 166 KB,
/// over the 150 KB target; zlib-rs at level 2 2.6 to 2.9 ms for 101 to 115 KB; at level 4
/// 3.6 ms and 2 KB less; at level 6 5.6 ms and 4 KB less; `miniz_oxide` at level 2 9 ms for
/// 93 to 109 KB. Adaptive filters saved 1 to 2% for 40% more time; Up alone was 1 KB larger and
/// Sub 14 KB.
pub(crate) fn encode(image: &RgbaImage) -> Result<Vec<u8>, RenderError> {
    let mut rgb = Vec::with_capacity(image.as_raw().len() / 4 * 3);
    for pixel in image.as_raw().chunks_exact(4) {
        rgb.extend_from_slice(&pixel[..3]);
    }
    let failed = |e: png::EncodingError| RenderError::Encode(e.to_string());
    let mut out = Vec::with_capacity(rgb.len() / 8);
    let mut encoder = png::Encoder::new(&mut out, image.width(), image.height());
    encoder.set_color(png::ColorType::Rgb);
    encoder.set_depth(png::BitDepth::Eight);
    encoder.set_deflate_compression(png::DeflateCompression::Level(CARD_LEVEL));
    encoder.set_filter(png::Filter::Paeth);
    let mut writer = encoder.write_header().map_err(failed)?;
    writer.write_image_data(&rgb).map_err(failed)?;
    writer.finish().map_err(failed)?;
    Ok(out)
}

/// The zlib level of cards (see [`encode`]).
const CARD_LEVEL: u8 = 2;

#[cfg(test)]
mod tests {
    use tafl_rules::Piece;

    use super::*;
    use crate::theme::Role;

    /// A side's icon must show its piece's whole outline on every card background: the
    /// high-contrast attacker (a black disc) once read as an empty ring on the black card.
    #[test]
    fn a_side_icon_shows_its_piece_on_a_board_tile_whatever_the_card_colour() {
        for theme in Theme::ALL {
            let bg = Colours::of(theme).bg;
            for side in [Side::Attackers, Side::Defenders] {
                let mut image = RgbaImage::from_pixel(40, 40, image::Rgba([bg[0], bg[1], bg[2], 255]));
                side_icon(&mut image, theme, (20.0, 20.0), 20.0, side);
                let at = |x: u32, y: u32| {
                    let p = image.get_pixel(x, y);
                    [p[0], p[1], p[2]]
                };
                let piece = theme.piece_colour(match side {
                    Side::Attackers => Piece::Attacker,
                    Side::Defenders => Piece::Defender,
                });
                // The attacker's centre is inside its inner ring, the defender's a flat square.
                assert_eq!(at(20, 20), piece, "{theme:?} {side:?}: the piece's body at the centre");
                // Between the piece's edge (0.37 of the icon) and the tile's (0.47): the board.
                assert_eq!(at(20 + 17, 20), theme.rgb(Role::Light), "{theme:?} {side:?}: the tile around the piece");
                assert_eq!(at(0, 0), bg, "{theme:?} {side:?}: the tile's rounded corner leaves the card");
            }
        }
    }
}
