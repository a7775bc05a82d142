//! The profile card: the player's name, their rating history per variant family with the
//! deviation band, results by side, the current streak and the most played variants.

use image::RgbaImage;
use tafl_rules::Side;

use super::chart::{self, Panel};
use super::{Colours, ProfileCard, SideRecord, side_icon};
use crate::fonts::{Fonts, Weight};

pub(crate) const WIDTH: u32 = 1200;
pub(crate) const HEIGHT: u32 = 720;
const PAD: f32 = 28.0;
const CHART_W: f32 = 730.0;

pub(crate) fn draw(fonts: &Fonts, card: &ProfileCard) -> RgbaImage {
    let colours = Colours::of(card.theme);
    let mut image = RgbaImage::from_pixel(WIDTH, HEIGHT, chart::rgba(colours.bg));
    let full = WIDTH as f32 - 2.0 * PAD;

    let name = fonts.fit(Weight::Bold, &fonts.name_or(&card.name, &card.fallback), 44.0, full);
    fonts.draw(&mut image, Weight::Bold, &name, 44.0, (PAD, PAD + 22.0), colours.text);
    let subtitle = fonts.fit(Weight::Regular, &fonts.clean(&card.subtitle), 26.0, full);
    fonts.draw(&mut image, Weight::Regular, &subtitle, 26.0, (PAD, PAD + 70.0), colours.muted);

    let top = 128.0;
    rating_chart(&mut image, fonts, &colours, card, (PAD, top, CHART_W, HEIGHT as f32 - top - PAD));

    let x = PAD + CHART_W + 20.0;
    let w = WIDTH as f32 - x - PAD;
    // A third, tighter row for games against the bot still leaves three variants below; the
    // bot's row alone takes a shorter panel.
    let by_side_h = match result_rows(card).len() {
        1 => 178.0,
        2 => 250.0,
        _ => 296.0,
    };
    by_side(&mut image, fonts, &colours, card, (x, top, w, by_side_h));
    let streak = fonts.clean(&card.streak_line);
    let mut y = top + by_side_h + 16.0;
    if !streak.is_empty() {
        chart::fill(&mut image, (x, y, w, 56.0), colours.panel);
        let (streak, px) = fonts.shrink_to_fit(Weight::Bold, &streak, 26.0, 18.0, w - 28.0);
        fonts.draw(&mut image, Weight::Bold, &streak, px, (x + 14.0, y + 28.0), colours.text);
        y += 56.0 + 16.0;
    }
    most_played(&mut image, fonts, &colours, card, (x, y, w, HEIGHT as f32 - PAD - y));
    image
}

fn rating_chart(
    image: &mut RgbaImage,
    fonts: &Fonts,
    colours: &Colours,
    card: &ProfileCard,
    rect: (f32, f32, f32, f32),
) {
    let histories: Vec<_> = card.history.iter().filter(|h| !h.points.is_empty()).take(colours.series.len()).collect();
    if histories.is_empty() {
        let (title, note) = (fonts.clean(&card.labels.rating), fonts.clean(&card.labels.nothing_yet));
        chart::empty_panel(image, fonts, colours, rect, &title, &note);
        return;
    }
    let points = || histories.iter().flat_map(|h| h.points.iter()).filter(|p| p.rating.is_finite());
    let dev = |d: f64| if d.is_finite() { d.clamp(0.0, 1000.0) } else { 0.0 };
    let lo = points().map(|p| p.rating - dev(p.deviation)).fold(f64::INFINITY, f64::min);
    let hi = points().map(|p| p.rating + dev(p.deviation)).fold(f64::NEG_INFINITY, f64::max);
    let (lo, hi) = if lo.is_finite() && hi.is_finite() { (lo, hi) } else { (1400.0, 1600.0) };
    let margin = ((hi - lo) * 0.05).max(10.0);
    let first = points().map(|p| p.game).min().unwrap_or(1);
    let last = points().map(|p| p.game).max().unwrap_or(1).max(first + 1);
    let legend = histories.iter().enumerate().map(|(i, h)| (colours.series[i], fonts.clean(&h.family))).collect();
    let plot = chart::panel(
        image,
        fonts,
        colours,
        &Panel {
            rect,
            title: &fonts.clean(&card.labels.rating),
            legend,
            x_range: (f64::from(first), f64::from(last)),
            y_range: (((lo - margin) / 10.0).floor() * 10.0, ((hi + margin) / 10.0).ceil() * 10.0),
            x_name: &fonts.clean(&card.labels.games),
            whole_y: true,
        },
    );
    // Bands first, lines over them, so no band hides another family's line.
    for (i, history) in histories.iter().enumerate() {
        let valid: Vec<_> = history.points.iter().filter(|p| p.rating.is_finite()).collect();
        let mut band: Vec<(f32, f32)> =
            valid.iter().map(|p| plot.at(f64::from(p.game), p.rating + dev(p.deviation))).collect();
        band.extend(valid.iter().rev().map(|p| plot.at(f64::from(p.game), p.rating - dev(p.deviation))));
        if let [only] = valid[..] {
            // One game: the band is a bar, as wide as the dot, from one deviation to the other.
            let (x, top) = plot.at(f64::from(only.game), only.rating + dev(only.deviation));
            let (_, bottom) = plot.at(f64::from(only.game), only.rating - dev(only.deviation));
            let corners = [(x - 5.0, top), (x + 5.0, top), (x + 5.0, bottom), (x - 5.0, bottom)];
            chart::shade(image, &corners, colours.series[i], 0.3);
        }
        chart::shade(image, &band, colours.series[i], 0.3);
    }
    for (i, history) in histories.iter().enumerate() {
        let line: Vec<(f32, f32)> = history
            .points
            .iter()
            .filter(|p| p.rating.is_finite())
            .map(|p| plot.at(f64::from(p.game), p.rating))
            .collect();
        chart::polyline(image, &line, colours.series[i], if line.len() > 150 { 2 } else { 3 });
    }
}

fn by_side(
    image: &mut RgbaImage,
    fonts: &Fonts,
    colours: &Colours,
    card: &ProfileCard,
    (x, y, w, h): (f32, f32, f32, f32),
) {
    chart::fill(image, (x, y, w, h), colours.panel);
    let labels = &card.labels;
    let title = fonts.fit(Weight::Bold, &fonts.clean(&labels.by_side), chart::TITLE_PX, w - 28.0);
    fonts.draw(image, Weight::Bold, &title, chart::TITLE_PX, (x + 14.0, y + 27.0), colours.text);
    // The legend: wins, draws, losses, in the bars' colours.
    let mut lx = x + 14.0;
    for (colour, word) in
        [(colours.good, &labels.wins), (colours.neutral, &labels.draws), (colours.bad, &labels.losses)]
    {
        let word = fonts.clean(word);
        chart::fill(image, (lx, y + 62.0, 16.0, 16.0), colour);
        lx += 22.0;
        lx += fonts.draw(image, Weight::Regular, &word, chart::TICK_PX, (lx, y + 70.0), colours.muted) + 18.0;
    }
    let rows = result_rows(card);
    let (first, pitch) = if rows.len() > 2 { (94.0, 64.0) } else { (100.0, 72.0) };
    for (i, (side, record, word)) in rows.into_iter().enumerate() {
        let row = y + first + i as f32 * pitch;
        // The bot's row is of either side, so it has no side's piece before its name.
        let word_x = match side {
            Some(side) => {
                side_icon(image, card.theme, (x + 30.0, row + 14.0), 14.0, side);
                x + 54.0
            }
            None => x + 14.0,
        };
        let word = fonts.fit(Weight::Bold, &fonts.clean(word), 24.0, x + w - 16.0 - word_x);
        fonts.draw(image, Weight::Bold, &word, 24.0, (word_x, row + 14.0), colours.text);
        bar(image, fonts, colours, record, (x + 14.0, row + 34.0, w - 28.0, 30.0));
    }
}

/// The rows of the results panel: a side's piece (none for the bot's row, of either side), the
/// record and its name. The sides' rows are of games against people: someone who has only played
/// the bot gets the bot's row alone, not two empty bars.
fn result_rows(card: &ProfileCard) -> Vec<(Option<Side>, SideRecord, &String)> {
    let labels = &card.labels;
    let people = card.attackers.games().saturating_add(card.defenders.games());
    let mut rows = Vec::new();
    if people > 0 || card.against_bot.games() == 0 {
        rows.push((Some(Side::Attackers), card.attackers, &labels.attackers));
        rows.push((Some(Side::Defenders), card.defenders, &labels.defenders));
    }
    if card.against_bot.games() > 0 {
        rows.push((None, card.against_bot, &labels.against_bot));
    }
    rows
}

/// Wins, draws and losses as one stacked bar with the counts written in the segments wide
/// enough to hold them.
fn bar(
    image: &mut RgbaImage,
    fonts: &Fonts,
    colours: &Colours,
    record: SideRecord,
    (x, y, w, h): (f32, f32, f32, f32),
) {
    let total = u64::from(record.wins) + u64::from(record.draws) + u64::from(record.losses);
    if total == 0 {
        chart::fill(image, (x, y, w, h), colours.grid);
        fonts.draw(image, Weight::Bold, "0", 20.0, (x + 8.0, y + h / 2.0), colours.muted);
        return;
    }
    let mut at = x;
    let counts = [record.wins, record.draws, record.losses];
    for ((count, sw), colour) in
        counts.into_iter().zip(segments(counts, w)).zip([colours.good, colours.neutral, colours.bad])
    {
        if count == 0 {
            continue;
        }
        chart::fill(image, (at, y, sw, h), colour);
        let text = count.to_string();
        let tw = fonts.width(Weight::Bold, &text, 20.0);
        if tw + 8.0 <= sw {
            fonts.draw(image, Weight::Bold, &text, 20.0, (at + (sw - tw) / 2.0, y + h / 2.0), [0x10, 0x10, 0x10]);
        }
        at += sw;
    }
}

/// The least width of a segment with a count, so that one draw among thousands of wins still
/// shows.
const MIN_SEGMENT: f32 = 3.0;

/// The widths of the segments of `counts` in a bar `w` wide: in proportion, each non-zero one at
/// least [`MIN_SEGMENT`], what that adds taken from the widest, so that the bar stays `w` wide
/// (100,000 wins, a draw and a loss once ran 6 px past the panel).
fn segments(counts: [u32; 3], w: f32) -> [f32; 3] {
    let total: u64 = counts.iter().map(|&c| u64::from(c)).sum();
    if total == 0 {
        return [0.0; 3];
    }
    let mut widths = counts.map(|c| w * c as f32 / total as f32);
    let widest = (0..3).max_by(|&a, &b| widths[a].total_cmp(&widths[b])).unwrap_or(0);
    for (i, &count) in counts.iter().enumerate() {
        if count > 0 && i != widest && widths[i] < MIN_SEGMENT {
            widths[widest] -= MIN_SEGMENT - widths[i];
            widths[i] = MIN_SEGMENT;
        }
    }
    widths
}

fn most_played(
    image: &mut RgbaImage,
    fonts: &Fonts,
    colours: &Colours,
    card: &ProfileCard,
    (x, y, w, h): (f32, f32, f32, f32),
) {
    if h < 60.0 {
        return;
    }
    if card.most_played.is_empty() {
        let (title, note) = (fonts.clean(&card.labels.most_played), fonts.clean(&card.labels.nothing_yet));
        chart::empty_panel(image, fonts, colours, (x, y, w, h), &title, &note);
        return;
    }
    chart::fill(image, (x, y, w, h), colours.panel);
    let title = fonts.fit(Weight::Bold, &fonts.clean(&card.labels.most_played), chart::TITLE_PX, w - 28.0);
    fonts.draw(image, Weight::Bold, &title, chart::TITLE_PX, (x + 14.0, y + 27.0), colours.text);
    let most = card.most_played.iter().map(|v| v.games).max().unwrap_or(1).max(1);
    let rows = ((h - 60.0) / 40.0).floor().max(0.0) as usize;
    for (i, variant) in card.most_played.iter().take(rows.min(5)).enumerate() {
        let row = y + 60.0 + i as f32 * 40.0;
        let count = variant.games.to_string();
        let cw = fonts.width(Weight::Bold, &count, 22.0);
        fonts.draw(image, Weight::Bold, &count, 22.0, (x + w - 14.0 - cw, row + 12.0), colours.text);
        let name = fonts.fit(Weight::Regular, &fonts.clean(&variant.name), 22.0, w - 42.0 - cw);
        fonts.draw(image, Weight::Regular, &name, 22.0, (x + 14.0, row + 12.0), colours.text);
        let bw = (w - 28.0) * variant.games as f32 / most as f32;
        chart::fill(image, (x + 14.0, row + 28.0, bw.max(2.0), 5.0), colours.series[0]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_record_bar_fills_its_width_exactly_and_shows_every_count() {
        let w = 366.0;
        for counts in [[100_000, 1, 1], [1, 1, 4_000_000_000], [10, 2, 8], [3, 0, 0], [0, 1, 0], [1, 0, 99_999]] {
            let widths = segments(counts, w);
            let sum: f32 = widths.iter().sum();
            assert!((sum - w).abs() < 0.01, "{counts:?}: {widths:?} sum to {sum}");
            for (count, width) in counts.into_iter().zip(widths) {
                assert!(count == 0 || width >= MIN_SEGMENT, "{counts:?}: {widths:?}");
                assert!(count > 0 || width == 0.0, "{counts:?}: {widths:?}");
            }
        }
        // Wide enough segments keep their proportions.
        let close = |a: [f32; 3], b: [f32; 3]| a.iter().zip(b).all(|(x, y)| (x - y).abs() < 0.001);
        assert!(close(segments([10, 2, 8], 200.0), [100.0, 20.0, 80.0]));
        assert!(close(segments([0, 0, 0], 200.0), [0.0; 3]));
    }
}
