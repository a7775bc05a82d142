//! Chart pieces shared by the cards: panels, axes with round ticks, thick anti-aliased lines,
//! bands and markers, on an RGBA image.

use image::{Rgba, RgbaImage};
use imageproc::drawing::{
    draw_antialiased_line_segment_mut, draw_filled_circle_mut, draw_filled_rect_mut, draw_polygon_mut,
};
use imageproc::pixelops::interpolate;
use imageproc::point::Point;
use imageproc::rect::Rect as PxRect;

use super::Colours;
use crate::fonts::{Fonts, Weight};

pub(crate) fn rgba(c: [u8; 3]) -> Rgba<u8> {
    Rgba([c[0], c[1], c[2], 255])
}

/// `top` over `bottom` with opacity `a`, for bands and fills drawn opaque.
pub(crate) fn mix(bottom: [u8; 3], top: [u8; 3], a: f32) -> [u8; 3] {
    let a = a.clamp(0.0, 1.0);
    [0, 1, 2].map(|i| (f32::from(bottom[i]) * (1.0 - a) + f32::from(top[i]) * a).round() as u8)
}

/// A filled rectangle; empty or off-image rectangles draw nothing.
pub(crate) fn fill(image: &mut RgbaImage, (x, y, w, h): (f32, f32, f32, f32), colour: [u8; 3]) {
    let (w, h) = (w.round() as i64, h.round() as i64);
    if w > 0 && h > 0 {
        draw_filled_rect_mut(
            image,
            PxRect::at(x.round() as i32, y.round() as i32).of_size(w as u32, h as u32),
            rgba(colour),
        );
    }
}

pub(crate) fn disc(image: &mut RgbaImage, (x, y): (f32, f32), r: f32, colour: [u8; 3]) {
    draw_filled_circle_mut(image, (x.round() as i32, y.round() as i32), r.round().max(1.0) as i32, rgba(colour));
}

/// A line `thickness` pixels wide (about), drawn as parallel anti-aliased lines.
pub(crate) fn line(image: &mut RgbaImage, a: (f32, f32), b: (f32, f32), colour: [u8; 3], thickness: u32) {
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let len = (dx * dx + dy * dy).sqrt().max(f32::EPSILON);
    let (nx, ny) = (-dy / len, dx / len);
    let t = thickness.max(1) as f32;
    let steps = thickness.max(1);
    for k in 0..steps {
        let off = k as f32 - (t - 1.0) / 2.0;
        let p = |q: (f32, f32)| ((q.0 + nx * off).round() as i32, (q.1 + ny * off).round() as i32);
        draw_antialiased_line_segment_mut(image, p(a), p(b), rgba(colour), interpolate);
    }
}

/// A polyline through `points`, with dots on the points when they are few enough to tell
/// apart (a 3-ply game is three dots joined, not two bare segments).
pub(crate) fn polyline(image: &mut RgbaImage, points: &[(f32, f32)], colour: [u8; 3], thickness: u32) {
    for pair in points.windows(2) {
        line(image, pair[0], pair[1], colour, thickness);
    }
    if points.len() <= 25 {
        for &p in points {
            disc(image, p, thickness as f32 + 1.5, colour);
        }
    }
}

/// A polygon laid over what is drawn with `opacity`, so that bands that overlap both show (an
/// opaque band hid the ones drawn before it); fewer than three distinct points draw nothing.
pub(crate) fn shade(image: &mut RgbaImage, points: &[(f32, f32)], colour: [u8; 3], opacity: f32) {
    let mut mask = image::GrayImage::new(image.width(), image.height());
    polygon_on(&mut mask, points, image::Luma([255]));
    for (x, y, covered) in mask.enumerate_pixels() {
        if covered[0] > 0 {
            let pixel = image.get_pixel_mut(x, y);
            let [r, g, b] = mix([pixel[0], pixel[1], pixel[2]], colour, opacity);
            *pixel = Rgba([r, g, b, pixel[3]]);
        }
    }
}

/// A filled polygon; fewer than three distinct points draw nothing.
pub(crate) fn polygon(image: &mut RgbaImage, points: &[(f32, f32)], colour: [u8; 3]) {
    polygon_on(image, points, rgba(colour));
}

fn polygon_on<P: image::Pixel>(image: &mut image::ImageBuffer<P, Vec<P::Subpixel>>, points: &[(f32, f32)], colour: P) {
    let mut poly: Vec<Point<i32>> = Vec::with_capacity(points.len());
    for &(x, y) in points {
        let p = Point::new(x.round() as i32, y.round() as i32);
        if poly.last() != Some(&p) {
            poly.push(p);
        }
    }
    while poly.len() > 1 && poly.first() == poly.last() {
        poly.pop();
    }
    if poly.len() >= 3 {
        draw_polygon_mut(image, &poly, colour);
    }
}

/// Round tick values covering `lo..=hi` with at most about `max` ticks (steps of 1, 2 or 5
/// times a power of ten, and whole numbers only when `whole`).
pub(crate) fn ticks(lo: f64, hi: f64, max: usize, whole: bool) -> Vec<f64> {
    if !(lo.is_finite() && hi.is_finite()) || hi < lo {
        return Vec::new();
    }
    let span = (hi - lo).max(if whole { 1.0 } else { f64::EPSILON });
    let raw = span / max.max(1) as f64;
    let mag = 10f64.powf(raw.log10().floor());
    let mut step = [1.0, 2.0, 5.0, 10.0].iter().map(|m| m * mag).find(|&s| s >= raw).unwrap_or(10.0 * mag);
    if whole {
        step = step.max(1.0).round();
    }
    let first = (lo / step).ceil() * step;
    (0..=max * 2 + 2).map(|i| first + i as f64 * step).take_while(|&v| v <= hi + step * 1e-9).collect()
}

/// Numbers as drawn on axes: whole numbers without decimals.
pub(crate) fn number(v: f64) -> String {
    if (v - v.round()).abs() < 1e-9 { format!("{}", v.round() as i64) } else { format!("{v:.1}") }
}

/// A chart's plot area and the value ranges it maps.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Plot {
    pub x: f32,
    pub y: f32,
    pub w: f32,
    pub h: f32,
    pub x_range: (f64, f64),
    pub y_range: (f64, f64),
}

impl Plot {
    pub(crate) fn at(&self, xv: f64, yv: f64) -> (f32, f32) {
        let fx = ((xv - self.x_range.0) / (self.x_range.1 - self.x_range.0).max(f64::EPSILON)).clamp(0.0, 1.0);
        let fy = ((yv - self.y_range.0) / (self.y_range.1 - self.y_range.0).max(f64::EPSILON)).clamp(0.0, 1.0);
        (self.x + fx as f32 * self.w, self.y + self.h - fy as f32 * self.h)
    }

    pub(crate) fn bottom(&self) -> f32 {
        self.y + self.h
    }
}

/// What a chart panel shows around its plot: a title, a legend and the axes' ticks.
#[derive(Debug)]
pub(crate) struct Panel<'a> {
    pub rect: (f32, f32, f32, f32),
    pub title: &'a str,
    /// Coloured swatches with their (cleaned) labels, right-aligned on the title row.
    pub legend: Vec<([u8; 3], String)>,
    pub x_range: (f64, f64),
    pub y_range: (f64, f64),
    /// The x axis's name, drawn under the tick labels at the right.
    pub x_name: &'a str,
    pub whole_y: bool,
}

/// A panel with nothing to draw: its background, its title, and `note` in the middle, muted.
pub(crate) fn empty_panel(
    image: &mut RgbaImage,
    fonts: &Fonts,
    colours: &Colours,
    (x, y, w, h): (f32, f32, f32, f32),
    title: &str,
    note: &str,
) {
    fill(image, (x, y, w, h), colours.panel);
    let pad = 14.0;
    let title = fonts.fit(Weight::Bold, title, TITLE_PX, w - 2.0 * pad);
    fonts.draw(image, Weight::Bold, &title, TITLE_PX, (x + pad, y + pad + TITLE_PX / 2.0), colours.text);
    let below = y + pad + TITLE_PX;
    centred_note(image, fonts, colours, (x + pad, below, w - 2.0 * pad, y + h - below), note);
}

/// `note` in the middle of `rect`, muted, shrunk (down to 18 px) to fit its width.
pub(crate) fn centred_note(
    image: &mut RgbaImage,
    fonts: &Fonts,
    colours: &Colours,
    (x, y, w, h): (f32, f32, f32, f32),
    note: &str,
) {
    let (note, px) = fonts.shrink_to_fit(Weight::Regular, note, 26.0, 18.0, w);
    let nw = fonts.width(Weight::Regular, &note, px);
    fonts.draw(image, Weight::Regular, &note, px, (x + (w - nw) / 2.0, y + h / 2.0), colours.muted);
}

pub(crate) const TITLE_PX: f32 = 28.0;
pub(crate) const TICK_PX: f32 = 22.0;

/// A legend entry's swatch and the gaps around it, before its label.
const SWATCH: f32 = 44.0;

/// Draws the panel's background, title, legend, grid and tick labels; returns the plot area.
pub(crate) fn panel(image: &mut RgbaImage, fonts: &Fonts, colours: &Colours, panel: &Panel<'_>) -> Plot {
    let (x, y, w, h) = panel.rect;
    fill(image, panel.rect, colours.panel);
    let pad = 14.0;
    let title_y = y + pad + TITLE_PX / 2.0;
    let inner = w - 2.0 * pad;
    let title_w = fonts.width(Weight::Bold, panel.title, TITLE_PX);
    let legend_w: f32 =
        panel.legend.iter().map(|(_, label)| fonts.width(Weight::Regular, label, TICK_PX) + SWATCH).sum();
    // The legend shares the title's row when both fit; otherwise it takes a row of its own under
    // the title, each label shortened to an equal share (long family names, in Russian above all,
    // once pushed the legend off the card's left edge and the title down to nothing).
    let own_row = !panel.legend.is_empty() && title_w + 24.0 + legend_w > inner;
    // Under the title, as many entries a row as leave each label some 200 px.
    let per_row = ((inner / (200.0 + SWATCH)) as usize).clamp(1, panel.legend.len().max(1));
    let rows = if own_row { panel.legend.len().div_ceil(per_row) } else { 0 };
    let legend_row = rows as f32 * (TICK_PX + 12.0);
    if own_row {
        let share = inner / per_row as f32;
        for (n, (colour, label)) in panel.legend.iter().enumerate() {
            let entry_x = x + pad + (n % per_row) as f32 * share;
            let row_y = title_y + TITLE_PX / 2.0 + 8.0 + TICK_PX / 2.0 + (n / per_row) as f32 * (TICK_PX + 12.0);
            fill(image, (entry_x, row_y - 3.0, 18.0, 6.0), *colour);
            let label = fonts.fit(Weight::Regular, label, TICK_PX, (share - SWATCH).max(0.0));
            fonts.draw(image, Weight::Regular, &label, TICK_PX, (entry_x + 26.0, row_y), colours.text);
        }
    } else {
        let mut legend_x = x + w - pad;
        for (colour, label) in panel.legend.iter().rev() {
            let lw = fonts.width(Weight::Regular, label, TICK_PX);
            legend_x -= lw;
            fonts.draw(image, Weight::Regular, label, TICK_PX, (legend_x, title_y), colours.text);
            legend_x -= 26.0;
            fill(image, (legend_x, title_y - 3.0, 18.0, 6.0), *colour);
            legend_x -= 18.0;
        }
    }
    let title_room = if own_row { inner } else { inner - legend_w };
    let title = fonts.fit(Weight::Bold, panel.title, TITLE_PX, title_room.max(0.0));
    fonts.draw(image, Weight::Bold, &title, TITLE_PX, (x + pad, title_y), colours.text);

    // As many y ticks as fit with room for their labels.
    let plot_h = h - 2.0 * pad - TITLE_PX - 18.0 - legend_row - TICK_PX - 14.0;
    let y_ticks = ticks(panel.y_range.0, panel.y_range.1, ((plot_h / 36.0) as usize).clamp(1, 6), panel.whole_y);
    let label_w = y_ticks.iter().map(|&v| fonts.width(Weight::Regular, &number(v), TICK_PX)).fold(0.0, f32::max);
    let plot = Plot {
        x: x + pad + label_w + 10.0,
        y: y + pad + TITLE_PX + 18.0 + legend_row,
        w: (w - 2.0 * pad - label_w - 10.0 - 8.0).max(1.0),
        h: plot_h.max(1.0),
        x_range: panel.x_range,
        y_range: panel.y_range,
    };
    for &v in &y_ticks {
        let (_, py) = plot.at(panel.x_range.0, v);
        fill(image, (plot.x, py.round(), plot.w, 1.0), colours.grid);
        let text = number(v);
        let tw = fonts.width(Weight::Regular, &text, TICK_PX);
        fonts.draw(image, Weight::Regular, &text, TICK_PX, (plot.x - 8.0 - tw, py), colours.muted);
    }
    let name_w = fonts.width(Weight::Regular, panel.x_name, TICK_PX);
    let label_y = plot.bottom() + 10.0 + TICK_PX / 2.0;
    // Tick labels stop short of the axis name so the two never overlap.
    let room = plot.w - name_w - 16.0;
    let x_ticks = ticks(panel.x_range.0, panel.x_range.1, (plot.w / 90.0) as usize, true);
    for &v in &x_ticks {
        let (px, _) = plot.at(v, panel.y_range.0);
        fill(image, (px.round(), plot.y, 1.0, plot.h), colours.grid);
        let text = number(v);
        let tw = fonts.width(Weight::Regular, &text, TICK_PX);
        if px + tw / 2.0 - plot.x <= room {
            fonts.draw(image, Weight::Regular, &text, TICK_PX, (px - tw / 2.0, label_y), colours.muted);
        }
    }
    fonts.draw(image, Weight::Regular, panel.x_name, TICK_PX, (plot.x + plot.w - name_w, label_y), colours.muted);
    fill(image, (plot.x, plot.bottom(), plot.w, 2.0), colours.axis);
    plot
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ticks_are_round_and_cover_the_range() {
        assert_eq!(ticks(0.0, 10.0, 5, true), vec![0.0, 2.0, 4.0, 6.0, 8.0, 10.0]);
        assert_eq!(ticks(0.0, 3.0, 8, true), vec![0.0, 1.0, 2.0, 3.0]);
        assert_eq!(ticks(0.0, 300.0, 6, true), vec![0.0, 50.0, 100.0, 150.0, 200.0, 250.0, 300.0]);
        assert!(ticks(f64::NAN, 1.0, 4, true).is_empty());
        assert!(ticks(5.0, 1.0, 4, true).is_empty());
    }
}
