//! The summary card: the final board on the left, the players, result, moves and duration on
//! the right above the pieces chart, and the king's distance (and the engine's evaluation, when
//! given) across the bottom.

use image::RgbaImage;

use super::chart::{self, Panel, Plot};
use super::{CardPlayer, Colours, GameSeries, RatingChange, SummaryCard, side_icon};
use crate::draw::Canvas;
use crate::fonts::{Fonts, Weight};
use crate::theme::Palette;
use crate::{Layout, Theme};

pub(crate) const WIDTH: u32 = 1200;
const PAD: f32 = 28.0;
/// The board is scaled down by a whole factor to at most this many pixels a side.
const BOARD_MAX: u32 = 440;
const CHART_H: f32 = 270.0;

/// The board canvas (coordinates band included, aspect padding cut off) scaled down by a whole
/// factor with a box filter: exact, cheap, and sharp enough since every board is drawn at
/// about 800 pixels.
pub(crate) fn board_image(canvas: &Canvas, layout: &Layout, palette: &Palette) -> RgbaImage {
    let x0 = layout.board_x.saturating_sub(layout.band);
    let side = (layout.board_px() + 2 * layout.band).min(canvas.width - x0).min(canvas.height);
    let k = side.div_ceil(BOARD_MAX).max(1);
    let out_side = side / k;
    let lut: Vec<[u32; 3]> = (0..=255u8).map(|i| palette.rgb_of(i).map(u32::from)).collect();
    let mut out = RgbaImage::new(out_side, out_side);
    let n = k * k;
    for oy in 0..out_side {
        for ox in 0..out_side {
            let mut sum = [0u32; 3];
            for dy in 0..k {
                let row = ((oy * k + dy) * canvas.width + x0 + ox * k) as usize;
                for &index in &canvas.pixels[row..row + k as usize] {
                    let c = lut[usize::from(index)];
                    sum[0] += c[0];
                    sum[1] += c[1];
                    sum[2] += c[2];
                }
            }
            out.put_pixel(ox, oy, image::Rgba([(sum[0] / n) as u8, (sum[1] / n) as u8, (sum[2] / n) as u8, 255]));
        }
    }
    out
}

/// A rating after a game and its change as the text writes them (`1500?` while provisional;
/// `+0` rather than `±0`, which reads as a deviation beside a rating), and whether it went up,
/// down or nowhere.
fn rating_texts(rating: &RatingChange) -> (String, String, std::cmp::Ordering) {
    let mark = if rating.provisional { "?" } else { "" };
    let after = format!("{}{mark}", finite(rating.after).round() as i64);
    let c = if rating.change.is_finite() { rating.change.round() as i64 } else { 0 };
    let change = if c < 0 { format!("−{}", -c) } else { format!("+{c}") };
    (after, change, c.cmp(&0))
}

fn finite(v: f64) -> f64 {
    if v.is_finite() { v } else { 0.0 }
}

/// Where the charts' plot areas ended up, so that tests can find a series' points.
#[derive(Clone, Copy, Debug)]
#[cfg_attr(not(test), allow(dead_code))]
pub(crate) struct Plots {
    pub pieces: Plot,
    pub king: Plot,
}

pub(crate) fn draw(fonts: &Fonts, card: &SummaryCard, board: &RgbaImage) -> (RgbaImage, Plots) {
    let colours = Colours::of(card.theme);
    let (bw, bh) = (board.width() as f32, board.height() as f32);
    let rx = PAD * 2.0 + bw;
    let rw = WIDTH as f32 - rx - PAD;
    let full = WIDTH as f32 - 2.0 * PAD;
    let s = &card.series;

    // Beside the board: the title, the players, the result and the facts, centred on the
    // board's height. Under it: pieces and king charts side by side, then the evaluation
    // across the whole width when there is one.
    let title = fonts.clean(&card.title);
    let text_h = if title.is_empty() { 0.0 } else { 48.0 } + 2.0 * 64.0 + 16.0 + 52.0 + 44.0;
    let charts_top = PAD + bh + 24.0;
    let height = charts_top + CHART_H + s.evaluation.as_ref().map_or(0.0, |_| 20.0 + CHART_H) + PAD;
    let mut image = RgbaImage::from_pixel(WIDTH, height.round() as u32, chart::rgba(colours.bg));
    image::imageops::replace(&mut image, board, PAD as i64, PAD as i64);

    let mut y = PAD + ((bh - text_h) / 2.0).max(0.0);
    if !title.is_empty() {
        let title = fonts.fit(Weight::Regular, &title, 26.0, rw);
        fonts.draw(&mut image, Weight::Regular, &title, 26.0, (rx, y + 16.0), colours.muted);
        y += 48.0;
    }
    for player in &card.players {
        draw_player(&mut image, fonts, card.theme, &colours, player, (rx, y + 30.0), rw);
        y += 64.0;
    }
    y += 16.0;
    let result = fonts.fit(Weight::Bold, &fonts.clean(&card.result_line), 32.0, rw);
    fonts.draw(&mut image, Weight::Bold, &result, 32.0, (rx, y + 20.0), colours.text);
    y += 52.0;
    let facts: Vec<String> =
        [&card.moves_line, &card.duration_line].iter().map(|s| fonts.clean(s)).filter(|s| !s.is_empty()).collect();
    let facts = fonts.fit(Weight::Regular, &facts.join("  ·  "), 28.0, rw);
    fonts.draw(&mut image, Weight::Regular, &facts, 28.0, (rx, y + 18.0), colours.muted);

    let plies = [s.pieces.len(), s.king_distance.len(), s.evaluation.as_ref().map_or(0, Vec::len)]
        .into_iter()
        .max()
        .unwrap_or(0)
        .saturating_sub(1)
        .max(1);
    let x_range = (0.0, plies as f64);
    let labels = &card.labels;
    let ply = fonts.clean(&labels.ply);
    let half = (full - 20.0) / 2.0;
    let thickness = if plies > 150 { 2 } else { 3 };

    // Pieces left per side.
    let top = s.pieces.iter().map(|&(a, d)| a.max(d)).max().unwrap_or(1).max(1);
    let plot = chart::panel(
        &mut image,
        fonts,
        &colours,
        &Panel {
            rect: (PAD, charts_top, half, CHART_H),
            title: &fonts.clean(&labels.pieces),
            legend: vec![
                (colours.attackers, fonts.clean(&labels.attackers)),
                (colours.defenders, fonts.clean(&labels.defenders)),
            ],
            x_range,
            y_range: (0.0, f64::from(top)),
            x_name: &ply,
            whole_y: true,
        },
    );
    captures(&mut image, &colours, &plot, s);
    let pieces_plot = plot;
    let attackers: Vec<(f32, f32)> =
        s.pieces.iter().enumerate().map(|(i, &(a, _))| plot.at(i as f64, f64::from(a))).collect();
    let defenders: Vec<(f32, f32)> =
        s.pieces.iter().enumerate().map(|(i, &(_, d))| plot.at(i as f64, f64::from(d))).collect();
    chart::polyline(&mut image, &attackers, colours.attackers, thickness);
    chart::polyline(&mut image, &defenders, colours.defenders, thickness);

    // The king's distance to escape.
    let far = s.king_distance.iter().copied().max().unwrap_or(1).max(1);
    let plot = chart::panel(
        &mut image,
        fonts,
        &colours,
        &Panel {
            rect: (PAD + half + 20.0, charts_top, half, CHART_H),
            title: &fonts.clean(&labels.king_distance),
            legend: Vec::new(),
            x_range,
            y_range: (0.0, f64::from(far)),
            x_name: &ply,
            whole_y: true,
        },
    );
    captures(&mut image, &colours, &plot, s);
    let king_plot = plot;
    let king: Vec<(f32, f32)> =
        s.king_distance.iter().enumerate().map(|(i, &d)| plot.at(i as f64, f64::from(d))).collect();
    chart::polyline(&mut image, &king, colours.king, thickness);

    if let Some(eval) = &s.evaluation {
        let values: Vec<f64> = eval.iter().map(|&v| finite(f64::from(v))).collect();
        let m = evaluation_scale(&values);
        let values: Vec<f64> = values.iter().map(|v| v.clamp(-m, m)).collect();
        let plot = chart::panel(
            &mut image,
            fonts,
            &colours,
            &Panel {
                rect: (PAD, charts_top + CHART_H + 20.0, full, CHART_H),
                title: &fonts.clean(&labels.evaluation),
                legend: vec![
                    (colours.attackers, fonts.clean(&labels.attackers)),
                    (colours.defenders, fonts.clean(&labels.defenders)),
                ],
                x_range,
                y_range: (-m, m),
                x_name: &ply,
                whole_y: false,
            },
        );
        captures(&mut image, &colours, &plot, s);
        evaluation(&mut image, &colours, &plot, &values, thickness);
        if let Some(ply) = s.turning_point.filter(|&p| p >= 1 && (p as usize) < values.len()) {
            turning_point(&mut image, &colours, &plot, &values, ply as usize);
        }
    }
    (image, Plots { pieces: pieces_plot, king: king_plot })
}

fn draw_player(
    image: &mut RgbaImage,
    fonts: &Fonts,
    theme: Theme,
    colours: &Colours,
    player: &CardPlayer,
    (x, cy): (f32, f32),
    w: f32,
) {
    side_icon(image, theme, (x + 20.0, cy), 20.0, player.side);
    let mut right = x + w;
    if let Some(rating) = player.rating {
        let (after, change, way) = rating_texts(&rating);
        let colour = match way {
            std::cmp::Ordering::Greater => colours.good,
            std::cmp::Ordering::Less => colours.bad,
            std::cmp::Ordering::Equal => colours.muted,
        };
        let cw = fonts.width(Weight::Bold, &change, 30.0);
        fonts.draw(image, Weight::Bold, &change, 30.0, (right - cw, cy), colour);
        right -= cw + 12.0;
        let aw = fonts.width(Weight::Regular, &after, 30.0);
        fonts.draw(image, Weight::Regular, &after, 30.0, (right - aw, cy), colours.muted);
        right -= aw + 20.0;
    }
    let name = fonts.name_or(&player.name, &player.fallback);
    let name = fonts.fit(Weight::Bold, &name, 36.0, (right - x - 54.0).max(0.0));
    fonts.draw(image, Weight::Bold, &name, 36.0, (x + 54.0, cy), colours.text);
}

/// Captures as short bars standing on the time axis, in the colour of the side that lost the
/// pieces, taller for multiple captures.
fn captures(image: &mut RgbaImage, colours: &Colours, plot: &Plot, s: &GameSeries) {
    for capture in &s.captures {
        let (x, _) = plot.at(f64::from(capture.ply), plot.y_range.0);
        let h = 10.0 + 4.0 * capture.count.saturating_sub(1).min(3) as f32;
        chart::fill(image, (x - 1.5, plot.bottom() - h, 3.0, h), colours.side(capture.side));
    }
}

/// The half-height of the evaluation chart. A game decided on the board ends at the scores'
/// cap (ten attackers), and scaled to it every ordinary swing of the game (within half an
/// attacker or so) was a flat line on zero, the chart saying "level, then a sudden end". When
/// the extremes stand far beyond everything else (four times), the chart is scaled to the rest
/// and the extremes are drawn at its edge, as a forced result is.
fn evaluation_scale(values: &[f64]) -> f64 {
    let largest = values.iter().fold(0.0f64, |m, v| m.max(v.abs()));
    let rest = values.iter().filter(|v| v.abs() < largest).fold(0.0f64, |m, v| m.max(v.abs()));
    let scale = if rest * 4.0 < largest { rest * 1.25 } else { largest };
    scale.max(0.5)
}

/// The evaluation as areas above (attackers better) and below (defenders better) the zero
/// line, with the line itself on top.
fn evaluation(image: &mut RgbaImage, colours: &Colours, plot: &Plot, values: &[f64], thickness: u32) {
    if values.is_empty() {
        return;
    }
    let zero = plot.at(0.0, 0.0).1;
    for (sign, colour) in [(1.0, colours.attackers), (-1.0, colours.defenders)] {
        let area: Vec<(f32, f32)> = side_area(values, sign).into_iter().map(|(x, y)| plot.at(x, y)).collect();
        chart::polygon(image, &area, chart::mix(colours.panel, colour, 0.45));
    }
    chart::fill(image, (plot.x, zero.round(), plot.w, 1.0), colours.axis);
    let line: Vec<(f32, f32)> = values.iter().enumerate().map(|(i, &v)| plot.at(i as f64, v)).collect();
    chart::polyline(image, &line, colours.text, thickness.saturating_sub(1).max(1));
}

/// The outline, in the chart's values (ply, score), of the area between the zero line and the
/// part of the evaluation on `sign`'s side of it (1: above, -1: below). Where the evaluation
/// crosses zero between two plies the outline meets the zero line at the crossing itself, so
/// that neither side's area reaches past it: clamped only at the plies, a swing from +1 to -10
/// would shade the attackers' colour the whole ply after the crossing.
fn side_area(values: &[f64], sign: f64) -> Vec<(f64, f64)> {
    let on_side = |v: f64| if v * sign > 0.0 { v } else { 0.0 };
    let mut area = vec![(0.0, 0.0)];
    for (i, &v) in values.iter().enumerate() {
        if i > 0 {
            let before = values[i - 1];
            if before * v < 0.0 {
                area.push(((i - 1) as f64 + before / (before - v), 0.0));
            }
        }
        area.push((i as f64, on_side(v)));
    }
    area.push((values.len().saturating_sub(1) as f64, 0.0));
    area
}

/// The turning point: a thin rule at its ply across the chart, the swing itself (from the
/// position before the move to the one after) in the warning colour, and a dot where it landed.
fn turning_point(image: &mut RgbaImage, colours: &Colours, plot: &Plot, values: &[f64], ply: usize) {
    let (x, _) = plot.at(ply as f64, 0.0);
    chart::fill(image, (x - 1.0, plot.y, 2.0, plot.h), chart::mix(colours.panel, colours.bad, 0.6));
    chart::line(image, plot.at((ply - 1) as f64, values[ply - 1]), plot.at(ply as f64, values[ply]), colours.bad, 3);
    chart::disc(image, plot.at(ply as f64, values[ply]), 6.0, colours.bad);
}

#[cfg(test)]
mod tests {
    use tafl_rules::{Game, Position, Side, Variant};

    use super::*;
    use crate::cards::{CardPlayer, GameSeries, SummaryLabels};
    use crate::{KingStyle, Renderer, Theme};

    /// As the summary's text writes them: a provisional rating with its `?`, no change as `+0`.
    #[test]
    fn ratings_read_as_the_text_writes_them() {
        use std::cmp::Ordering::{Equal, Greater, Less};
        let texts = |after, change, provisional| rating_texts(&RatingChange { after, change, provisional });
        assert_eq!(texts(1500.2, 0.3, true), ("1500?".into(), "+0".into(), Equal));
        assert_eq!(texts(1512.6, 12.6, false), ("1513".into(), "+13".into(), Greater));
        assert_eq!(texts(1487.4, -12.6, false), ("1487".into(), "−13".into(), Less));
        assert_eq!(texts(f64::NAN, f64::INFINITY, false), ("0".into(), "+0".into(), Equal));
    }

    fn card(game: &Game, theme: Theme) -> SummaryCard {
        let player = |side| CardPlayer { name: String::new(), fallback: "Player".into(), side, rating: None };
        SummaryCard {
            theme,
            final_position: game.position().clone(),
            last_move: None,
            marks: Vec::new(),
            king: KingStyle::Auto,
            title: String::new(),
            players: [player(Side::Attackers), player(Side::Defenders)],
            result_line: "result".into(),
            moves_line: "moves".into(),
            duration_line: "time".into(),
            series: GameSeries::from_game(game),
            labels: SummaryLabels::default(),
        }
    }

    fn drawn(game: &Game, theme: Theme) -> (RgbaImage, Plots, Colours) {
        let r = Renderer::new();
        let c = card(game, theme);
        let canvas =
            r.draw(&c.final_position, &crate::BoardOptions { theme, ..crate::BoardOptions::default() }).unwrap();
        let layout = r.layout(c.final_position.size(), crate::Orientation::Standard, false).unwrap();
        let board = board_image(&canvas, &layout, r.palette(theme));
        let (image, plots) = draw(r.card_fonts(), &c, &board);
        (image, plots, Colours::of(theme))
    }

    /// Whether a pixel within `r` of `at` has exactly `colour` (the line's core).
    fn near(image: &RgbaImage, (x, y): (f32, f32), r: i64, colour: [u8; 3]) -> bool {
        (-r..=r).any(|dy| {
            (-r..=r).any(|dx| {
                let (px, py) = (x.round() as i64 + dx, y.round() as i64 + dy);
                px >= 0 && py >= 0 && image.get_pixel_checked(px as u32, py as u32).is_some_and(|p| p.0[..3] == colour)
            })
        })
    }

    /// A known Brandubh game of 12 plies, the same on every run: each ply takes a piece when
    /// it can, and otherwise plays a fixed pick from the legal moves.
    fn known_game() -> Game {
        let mut game = Game::new(Position::new(Variant::Brandubh.rules()).unwrap());
        while game.ply() < 12 && game.status().is_ongoing() {
            let moves = game.position().legal_moves();
            let taking = moves.iter().copied().find(|&mv| {
                let mut trial = game.position().clone();
                !trial.play_unchecked(mv).captures.is_empty() && trial.counts().0 > 0
            });
            game.play(taking.unwrap_or(moves[(game.ply() * 7) % moves.len()])).unwrap();
        }
        game
    }

    #[test]
    fn each_sides_evaluation_area_ends_where_the_line_crosses_zero() {
        // From +1 at ply 4 to -10 at ply 5: the line crosses zero at ply 4 + 1/11.
        let values = [3.0, 1.0, 1.0, 1.0, 1.0, -10.0, -10.0];
        let crossing = 4.0 + 1.0 / 11.0;
        let above = side_area(&values, 1.0);
        let below = side_area(&values, -1.0);
        for area in [&above, &below] {
            assert!(area.iter().any(|&(x, y)| (x - crossing).abs() < 1e-9 && y == 0.0), "{area:?}");
        }
        // Past the crossing the attackers' area lies on the zero line; before it, the defenders'.
        assert!(above.iter().filter(|&&(x, _)| x > crossing).all(|&(_, y)| y == 0.0), "{above:?}");
        assert!(below.iter().filter(|&&(x, _)| x < crossing).all(|&(_, y)| y == 0.0), "{below:?}");
        assert!(above.contains(&(0.0, 3.0)) && below.contains(&(6.0, -10.0)));
        // A score of exactly zero is no crossing: nothing is added.
        assert_eq!(side_area(&[2.0, 0.0, -2.0], 1.0).len(), 5);
        assert_eq!(side_area(&[], 1.0), vec![(0.0, 0.0), (0.0, 0.0)]);
    }

    #[test]
    fn the_chart_lines_pass_through_each_plys_counts_and_distances() {
        let game = known_game();
        let series = GameSeries::from_game(&game);
        assert_eq!(series.pieces.len(), game.ply() + 1);
        for theme in Theme::ALL {
            let (image, plots, colours) = drawn(&game, theme);
            for (ply, &(a, d)) in series.pieces.iter().enumerate() {
                let at = |v: u32| plots.pieces.at(ply as f64, f64::from(v));
                assert!(near(&image, at(a), 2, colours.attackers), "attackers' line at ply {ply} ({a})");
                assert!(near(&image, at(d), 2, colours.defenders), "defenders' line at ply {ply} ({d})");
            }
            for (ply, &k) in series.king_distance.iter().enumerate() {
                assert!(near(&image, plots.king.at(ply as f64, f64::from(k)), 2, colours.king), "king at ply {ply}");
            }
            // Halfway between two points of equal value the line is there; one unit off it is not.
            let (a0, _) = series.pieces[0];
            assert!(!near(&image, plots.pieces.at(0.5, f64::from(a0) - 1.0), 1, colours.attackers));
        }
    }

    #[test]
    fn a_forced_result_does_not_flatten_the_rest_of_the_evaluation() {
        // Swings within 0.4 attackers, then the cap at the end: scaled to the swings.
        let mut game: Vec<f64> = (0..38).map(|i| 0.4 * (f64::from(i) / 3.0).sin()).collect();
        game.push(10.0);
        let m = evaluation_scale(&game);
        assert!((0.49..0.51).contains(&m), "{m}");
        // An ordinary game is scaled to its largest value, and a level one to half an attacker.
        assert!((evaluation_scale(&[0.0, 1.0, -3.0, 2.0]) - 3.0).abs() < 1e-9);
        assert!((evaluation_scale(&[0.0, 0.1, -0.1]) - 0.5).abs() < 1e-9);
        assert!((evaluation_scale(&[]) - 0.5).abs() < 1e-9);
        // Nothing but the cap (a game won at once): drawn at the edge all the same.
        assert!((evaluation_scale(&[10.0, 10.0]) - 0.5).abs() < 1e-9);
    }

    #[test]
    fn captures_stand_on_the_time_axis_in_the_colour_of_the_side_that_lost_them() {
        let game = known_game();
        let series = GameSeries::from_game(&game);
        assert!(!series.captures.is_empty(), "the known game has a capture");
        let (image, plots, colours) = drawn(&game, Theme::Classic);
        for capture in &series.captures {
            let (x, y) = plots.pieces.at(f64::from(capture.ply), 0.0);
            assert!(near(&image, (x, y - 5.0), 1, colours.side(capture.side)), "capture at ply {}", capture.ply);
        }
        assert!(!near(&image, plots.pieces.at(0.0, 0.0), 0, colours.attackers), "no mark where nothing was taken");
    }

    #[test]
    fn series_of_a_game_count_pieces_and_the_kings_distance_by_the_escape_rule() {
        let game = known_game();
        let series = GameSeries::from_game(&game);
        assert_eq!(series.pieces[0], (8, 4));
        let taken: u32 = series.captures.iter().map(|c| c.count).sum();
        let (a, d) = *series.pieces.last().unwrap();
        assert_eq!(taken, 12 - a - d, "every piece that left the board is a marked capture");
        assert_eq!(series.king_distance[0], 6, "the Brandubh king is 3+3 steps from a corner");
        let sea = Position::new(Variant::SeaBattle9.rules()).unwrap();
        assert_eq!(crate::king_distance(&sea), 4, "edge escape: four squares to the nearest edge");
    }
}
