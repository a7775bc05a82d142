//! The leaderboard card: the top ten with their ratings, game counts and rating trends as
//! sparklines.

use image::RgbaImage;

use super::chart::{self, Plot};
use super::{Colours, LeaderboardCard};
use crate::fonts::{Fonts, Weight};

pub(crate) const WIDTH: u32 = 1200;
const PAD: f32 = 28.0;
const ROW_H: f32 = 58.0;
const ROWS: usize = 10;
const HEAD_H: f32 = 130.0;

pub(crate) fn height(rows: usize) -> u32 {
    (HEAD_H + ROW_H * rows.clamp(1, ROWS) as f32 + PAD).round() as u32
}

pub(crate) fn draw(fonts: &Fonts, card: &LeaderboardCard) -> RgbaImage {
    let colours = Colours::of(card.theme);
    let rows = &card.rows[..card.rows.len().min(ROWS)];
    let mut image = RgbaImage::from_pixel(WIDTH, height(rows.len()), chart::rgba(colours.bg));
    let full = WIDTH as f32 - 2.0 * PAD;
    let title = fonts.fit(Weight::Bold, &fonts.clean(&card.title), 44.0, full);
    fonts.draw(&mut image, Weight::Bold, &title, 44.0, (PAD, PAD + 22.0), colours.text);
    let subtitle = fonts.fit(Weight::Regular, &fonts.clean(&card.subtitle), 24.0, full);
    fonts.draw(&mut image, Weight::Regular, &subtitle, 24.0, (PAD, PAD + 64.0), colours.muted);

    if rows.is_empty() {
        // No table: one row's band that says why.
        chart::fill(&mut image, (PAD, HEAD_H, full, ROW_H), colours.panel);
        let note = fonts.clean(&card.labels.nothing_yet);
        chart::centred_note(&mut image, fonts, &colours, (PAD, HEAD_H, full, ROW_H), &note);
        return image;
    }

    // Columns: rank, name, rating, games, trend.
    let spark_w = 240.0;
    let spark_x = WIDTH as f32 - PAD - 14.0 - spark_w;
    let games_r = spark_x - 30.0;
    let rating_r = games_r - 110.0;
    let name_x = PAD + 72.0;
    let heading_y = HEAD_H - 14.0;
    let head = |image: &mut RgbaImage, text: &str, right: f32| {
        let text = fonts.clean(text);
        let tw = fonts.width(Weight::Regular, &text, 20.0);
        fonts.draw(image, Weight::Regular, &text, 20.0, (right - tw, heading_y), colours.muted);
    };
    head(&mut image, &card.labels.rating, rating_r);
    head(&mut image, &card.labels.games, games_r);
    let trend = fonts.fit(Weight::Regular, &fonts.clean(&card.labels.trend), 20.0, spark_w);
    fonts.draw(&mut image, Weight::Regular, &trend, 20.0, (spark_x, heading_y), colours.muted);

    for (i, row) in rows.iter().enumerate() {
        let y = HEAD_H + i as f32 * ROW_H;
        let cy = y + ROW_H / 2.0;
        if i % 2 == 0 {
            chart::fill(&mut image, (PAD, y, full, ROW_H), colours.panel);
        }
        let rank = row.rank.to_string();
        let rw = fonts.width(Weight::Bold, &rank, 30.0);
        let medal = match row.rank {
            1 => colours.king,
            2 | 3 => colours.text,
            _ => colours.muted,
        };
        fonts.draw(&mut image, Weight::Bold, &rank, 30.0, (PAD + 52.0 - rw, cy), medal);
        let rating = if row.rating.is_finite() { format!("{}", row.rating.round() as i64) } else { "–".to_owned() };
        let tw = fonts.width(Weight::Bold, &rating, 30.0);
        fonts.draw(&mut image, Weight::Bold, &rating, 30.0, (rating_r - tw, cy), colours.text);
        if row.provisional {
            // Beside the column's right edge, so that settled and provisional ratings align.
            fonts.draw(&mut image, Weight::Bold, "?", 30.0, (rating_r + 2.0, cy), colours.muted);
        }
        let games = row.games.to_string();
        let gw = fonts.width(Weight::Regular, &games, 26.0);
        fonts.draw(&mut image, Weight::Regular, &games, 26.0, (games_r - gw, cy), colours.muted);
        let name = fonts.name_or(&row.name, &row.fallback);
        let name = fonts.fit(Weight::Bold, &name, 30.0, rating_r - tw - 30.0 - name_x);
        fonts.draw(&mut image, Weight::Bold, &name, 30.0, (name_x, cy), colours.text);
        sparkline(&mut image, &colours, &row.trend, (spark_x, y + 10.0, spark_w, ROW_H - 20.0));
    }
    image
}

/// The trend as a line scaled to its own range, green when it ends higher than it began, red
/// when lower; a single rating is a dot.
fn sparkline(image: &mut RgbaImage, colours: &Colours, trend: &[f64], (x, y, w, h): (f32, f32, f32, f32)) {
    let values: Vec<f64> = trend.iter().copied().filter(|v| v.is_finite()).collect();
    let (Some(&first), Some(&last)) = (values.first(), values.last()) else { return };
    let lo = values.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let (lo, hi) = if hi - lo < 1.0 { (lo - 1.0, hi + 1.0) } else { (lo, hi) };
    let plot = Plot { x, y, w, h, x_range: (0.0, (values.len() - 1).max(1) as f64), y_range: (lo, hi) };
    let colour = if last > first {
        colours.good
    } else if last < first {
        colours.bad
    } else {
        colours.muted
    };
    let points: Vec<(f32, f32)> = values.iter().enumerate().map(|(i, &v)| plot.at(i as f64, v)).collect();
    for pair in points.windows(2) {
        chart::line(image, pair[0], pair[1], colour, 2);
    }
    if let Some(&end) = points.last() {
        chart::disc(image, end, 4.0, colour);
    }
}
