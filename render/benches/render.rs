//! Renderer speed and size, printed as figures (`cargo bench -p tafl-render`).
//!
//! Targets (QUALITY.md): one 11x11 board drawn and encoded in under 2 ms and 30 KB; a 100-ply
//! Copenhagen game as a GIF in under 150 ms and 2 MB; a summary card of a 100-ply game and a
//! profile card of 500 rated games in under 15 ms and 150 KB each. The renderer is prepared first, as in the
//! bot, so the figures are the cost per image.

#[path = "../tests/common/mod.rs"]
mod common;

use std::hint::black_box;
use std::time::{Duration, Instant};

use tafl_render::{BoardOptions, Caption, GifOptions, LastMove, Renderer, Theme};
use tafl_rules::Variant;

/// Runs `f` repeatedly for about `budget` and returns the fastest and the median time of one run
/// and its output. The fastest is the figure to compare with targets on a shared 2-core machine,
/// where other builds inflate the median.
fn measure<T>(budget: Duration, mut f: impl FnMut() -> T) -> ((Duration, Duration), T) {
    let mut times = Vec::new();
    let started = Instant::now();
    let mut out = f();
    while started.elapsed() < budget || times.len() < 5 {
        let t = Instant::now();
        out = black_box(f());
        times.push(t.elapsed());
    }
    times.sort_unstable();
    ((times[0], times[times.len() / 2]), out)
}

fn main() {
    let renderer = Renderer::new();
    renderer.prepare_all();
    let budget = Duration::from_secs(2);

    let game = common::scripted_game(Variant::Copenhagen, 60);
    let position = game.position();
    for (label, theme, names) in [
        ("11x11 board, classic", Theme::Classic, None),
        ("11x11 board, high contrast", Theme::HighContrast, None),
        ("11x11 board with caption", Theme::Classic, Some(["Ragnhild", "Thorvald"])),
        // The fallback faces and the shaping path (Japanese, Arabic joined right to left).
        ("11x11 caption, kana + Arabic", Theme::Classic, Some(["さくら 田中", "محمد عبد الله"])),
    ] {
        let options = BoardOptions {
            theme,
            last_move: game.moves().last().map(LastMove::from),
            caption: names.map(|[attackers, defenders]| Caption {
                attackers: attackers.into(),
                defenders: defenders.into(),
                footer: "Move 31 · Defenders to move".into(),
                to_move: Some(game.position().to_move()),
            }),
            ..BoardOptions::default()
        };
        let (t, png) = measure(budget, || renderer.render_png(position, &options).expect("renders"));
        report(label, t, png.len(), "(target < 2 ms, < 30 KB)");
    }

    let game = common::scripted_game(Variant::Copenhagen, 100);
    let options = GifOptions { attackers: "Ragnhild".into(), defenders: "Thorvald".into(), ..GifOptions::default() };
    let (t, gif) = measure(budget, || renderer.render_gif(&game, &options).expect("renders"));
    report("100-ply Copenhagen GIF", t, gif.len(), "(target < 150 ms, < 2 MB)");

    for (label, evaluation) in [("summary card, 100 plies", false), ("summary card + evaluation", true)] {
        let card =
            common::summary_card(&game, ["Ragnhild", "Ярослав"], common::Lang::English, Theme::Classic, evaluation);
        let (t, png) = measure(budget, || renderer.render_summary_card(&card).expect("renders"));
        report(label, t, png.len(), "(target < 15 ms, < 150 KB)");
    }
    // Names that take the fallback faces and the shaping path (Arabic joined right to left, Han).
    let card = common::summary_card(&game, ["محمد عبد الله", "王小明"], common::Lang::English, Theme::Classic, true);
    let (t, png) = measure(budget, || renderer.render_summary_card(&card).expect("renders"));
    report("summary card, Arabic + Han", t, png.len(), "(target < 15 ms, < 150 KB)");
    let card = common::profile_card(500, "Ragnhild", common::Lang::English, Theme::Classic);
    let (t, png) = measure(budget, || renderer.render_profile_card(&card).expect("renders"));
    report("profile card, 500 games", t, png.len(), "(target < 15 ms, < 150 KB)");
    let card = common::leaderboard_card(common::Lang::English, Theme::Classic);
    let (t, png) = measure(budget, || renderer.render_leaderboard_card(&card).expect("renders"));
    report("leaderboard card, top 10", t, png.len(), "");
    let card = common::scripts_leaderboard_card(common::Lang::English, Theme::Classic);
    let (t, png) = measure(budget, || renderer.render_leaderboard_card(&card).expect("renders"));
    report("leaderboard, every script", t, png.len(), "");

    let started = Instant::now();
    black_box(Renderer::new()).prepare_all();
    println!("{:<28} {:>8.3} ms   (once per process)", "prepare all sizes and themes", ms(started.elapsed()));
}

fn report(label: &str, (fastest, median): (Duration, Duration), bytes: usize, target: &str) {
    println!(
        "{label:<28} fastest {:>8.3} ms  median {:>8.3} ms {:>8.1} KB   {target}",
        ms(fastest),
        ms(median),
        kb(bytes)
    );
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

fn kb(bytes: usize) -> f64 {
    bytes as f64 / 1024.0
}
