//! What the words of a move cost, printed: `cargo bench -p tafl-bot --bench present`.
//!
//! * building every language's Fluent bundles (done once per process);
//! * formatting everything a move shows (the board message's title and text, the picture's
//!   caption, the "your move" notice, the private confirmation), in English and Russian, on
//!   Discord and in the console.

#[path = "../tests/support/mod.rs"]
mod support;

use std::time::Instant;

use support::{NOW, alice, bob, request, temp_path};
use tafl_bot::host::{Host, SideChoice};
use tafl_bot::present::{Lang, Locales, Markup, summary, text};
use tafl_bot::store::Db;

/// Rounds of formatting per language and front end.
const ROUNDS: u32 = 20_000;

fn main() {
    let start = Instant::now();
    let locales = Locales::embedded().expect("the embedded locales load");
    let built = start.elapsed();
    println!(
        "building the bundles of {} languages: {:.2} ms (once per process)",
        locales.all().len(),
        built.as_secs_f64() * 1e3
    );

    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    let (game, history) = runtime.block_on(async {
        let db = Db::open_file(&temp_path("bench-present")).await.unwrap();
        let host = Host::new(db);
        let c =
            host.challenge(&request(&alice(), Some(&bob()), "copenhagen", SideChoice::Attackers), NOW).await.unwrap();
        let id = host.accept(c.id, &bob(), NOW).await.unwrap().game.id;
        for (n, mv) in ["d1-d3", "f4-f3", "h1-h3", "f3-g3"].iter().enumerate() {
            let user = if n % 2 == 0 { alice().id } else { bob().id };
            host.play(id, user, mv, None, NOW).await.unwrap();
        }
        let game = host.show(id).await.unwrap();
        let history = host.summary(id).await.unwrap().record;
        (game, history)
    });

    for code in ["en", "ru"] {
        for markup in [Markup::Discord, Markup::Console] {
            let lang = Lang::new(Locales::global().pick(code), markup);
            let start = Instant::now();
            let mut bytes = 0;
            for _ in 0..ROUNDS {
                bytes += text::board_title(&game, lang).len();
                bytes += text::board_description(&game, &history, &[], lang).len();
                bytes += summary::caption(&game, lang).footer.len();
                bytes += text::your_move(&game, false, lang).len();
                bytes += text::played("d1-d3", game.id, lang).len();
            }
            let per_move = start.elapsed().as_secs_f64() / f64::from(ROUNDS);
            println!(
                "the words of one move, {code}, {markup:?}: {:.1} µs ({} bytes)",
                per_move * 1e6,
                bytes / ROUNDS as usize
            );
        }
    }
}
