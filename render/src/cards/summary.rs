//! The summary card: the final board on the left, the players, result, moves and duration on
//! the right above the pieces chart, and the king's distance (and the engine's evaluation, when
//! given) across the bottom.

use image::RgbaImage;

use super::chart::{self, Panel, Plot};
use super::fonts::{Fonts, Weight};
use super::{CardPlayer, Colours, GameSeries, SummaryCard, side_icon};
use crate::draw::Canvas;
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

fn rating_text(change: f64) -> String {
    let c = if change.is_finite() { change.round() as i64 } else { 0 };
    match c {
        0 => "±0".to_owned(),
        c if c > 0 => format!("+{c}"),
        c => format!("−{}", -c),
    }
}

fn finite(v: f64) -> f64 {
    if v.is_finite() { v } else { 0.0 }
}

pub(crate) fn draw(fonts: &Fonts, card: &SummaryCard, board: &RgbaImage) -> RgbaImage {
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
    let king: Vec<(f32, f32)> =
        s.king_distance.iter().enumerate().map(|(i, &d)| plot.at(i as f64, f64::from(d))).collect();
    chart::polyline(&mut image, &king, colours.king, thickness);

    if let Some(eval) = &s.evaluation {
        let values: Vec<f64> = eval.iter().map(|&v| finite(f64::from(v))).collect();
        let m = values.iter().fold(0.0f64, |m, v| m.max(v.abs())).max(0.5);
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
    }
    image
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
        let change = rating_text(rating.change);
        let colour = match change.chars().next() {
            Some('+') => colours.good,
            Some('−') => colours.bad,
            _ => colours.muted,
        };
        let cw = fonts.width(Weight::Bold, &change, 30.0);
        fonts.draw(image, Weight::Bold, &change, 30.0, (right - cw, cy), colour);
        right -= cw + 12.0;
        let after = format!("{}", finite(rating.after).round() as i64);
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

/// The evaluation as areas above (attackers better) and below (defenders better) the zero
/// line, with the line itself on top.
fn evaluation(image: &mut RgbaImage, colours: &Colours, plot: &Plot, values: &[f64], thickness: u32) {
    if values.is_empty() {
        return;
    }
    let zero = plot.at(0.0, 0.0).1;
    let last = (values.len() - 1) as f64;
    for (sign, colour) in [(1.0, colours.attackers), (-1.0, colours.defenders)] {
        let mut area = vec![plot.at(0.0, 0.0)];
        area.extend(values.iter().enumerate().map(|(i, &v)| plot.at(i as f64, if v * sign > 0.0 { v } else { 0.0 })));
        area.push(plot.at(last, 0.0));
        chart::polygon(image, &area, chart::mix(colours.panel, colour, 0.45));
    }
    chart::fill(image, (plot.x, zero.round(), plot.w, 1.0), colours.axis);
    let line: Vec<(f32, f32)> = values.iter().enumerate().map(|(i, &v)| plot.at(i as f64, v)).collect();
    chart::polyline(image, &line, colours.text, thickness.saturating_sub(1).max(1));
}
