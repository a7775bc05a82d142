//! Golden images: a handful of boards compared pixel for pixel with committed PNGs in
//! `tests/golden/`.
//!
//! After an intended change of the drawing, look at the new images and regenerate them with
//!
//! ```text
//! UPDATE_GOLDEN=1 cargo test -p tafl-render --test golden
//! ```
//!
//! then look at them again (`git diff --stat render/tests/golden` shows which changed). On a
//! mismatch the test writes the image it drew to `target/tmp/golden-actual/` to compare.

mod common;

use std::path::PathBuf;

use common::{
    Lang, empty_leaderboard_card, from_otn, leaderboard_card, profile_card, scripted_game, scripts_leaderboard_card,
    start, summary_card,
};
use image::AnimationDecoder as _;
use tafl_render::{BoardOptions, Caption, GifOptions, LastMove, Mark, MarkKind, Orientation, Renderer, Theme};
use tafl_rules::{Game, Move, Rules, Side, Square, Variant};

fn sq(name: &str) -> Square {
    name.parse().expect("test squares are valid")
}

fn mv(text: &str) -> Move {
    text.parse().expect("test moves are valid")
}

/// Each golden case: a file name and the PNG drawn for it.
/// Names without an extension are PNGs.
fn cases() -> Vec<(&'static str, Vec<u8>)> {
    let r = Renderer::new();
    let mut out = Vec::new();
    let mut png = |name, position: &tafl_rules::Position, options: BoardOptions| {
        out.push((name, r.render_png(position, &options).expect("golden positions render")));
    };

    png("brandubh-7-start", &start(Variant::Brandubh), BoardOptions::default());

    let tablut = game_after(Variant::Tablut, &["e2-d2", "e3-f3", "e8-h8"]);
    png("tablut-9-high-contrast-last-move", tablut.position(), with_last(&tablut, Theme::HighContrast));

    let copenhagen = scripted_game(Variant::Copenhagen, 40);
    let mut options = with_last(&copenhagen, Theme::Classic);
    options.marks = vec![
        Mark { square: copenhagen.position().king(), kind: MarkKind::Danger },
        Mark { square: sq("a11"), kind: MarkKind::Dot },
        Mark { square: sq("k1"), kind: MarkKind::Dot },
    ];
    png("copenhagen-11-marks", copenhagen.position(), options);

    let mut flipped = with_last(&copenhagen, Theme::HighContrast);
    flipped.orientation = Orientation::Flipped;
    png("copenhagen-11-flipped-high-contrast", copenhagen.position(), flipped);

    png("sea-battle-13-start", &start(Variant::SeaBattle13), BoardOptions::default());

    let sea15 = scripted_game(Variant::SeaBattle15, 12);
    png("sea-battle-15-high-contrast", sea15.position(), with_last(&sea15, Theme::HighContrast));

    // A finished game: the king runs to a corner.
    let rules = Variant::Copenhagen.rules();
    let position = from_otn(rules, "/11/11/K10/t10/11/4t6/11/11/11/11/6t4/", Side::Defenders);
    let mut game = Game::new(position);
    game.play(mv("a3-a1")).expect("the king may run to the corner");
    let mut finished = with_last(&game, Theme::Classic);
    finished.caption = Some(Caption {
        attackers: "Ragnhild".into(),
        defenders: "Þorvaldr the Far-Travelled Merchant of Birka".into(),
        footer: "Move 31 · Defenders win · king escaped".into(),
        to_move: None,
    });
    png("copenhagen-11-finished-caption", game.position(), finished);

    // A custom 19x19 board with a caption while the game goes on.
    let big = Rules { start: nineteen(), ..Variant::Copenhagen.rules() };
    let position = tafl_rules::Position::new(big).expect("the 19x19 layout is valid");
    let options = BoardOptions {
        caption: Some(Caption {
            attackers: "Attackers".into(),
            defenders: "Bob 🛡️".into(),
            footer: "Move 1 · Attackers to move".into(),
            to_move: Some(Side::Attackers),
        }),
        ..BoardOptions::default()
    };
    png("custom-19-caption", &position, options);

    // Names in scripts Noto Sans lacks, drawn from the cards' faces: Japanese against Arabic
    // (shaped, right to left), a Russian footer.
    let brandubh = game_after(Variant::Brandubh, &["d6-f6", "d5-e5"]);
    let mut scripts = with_last(&brandubh, Theme::Classic);
    scripts.caption = Some(Caption {
        attackers: "さくら 田中".into(),
        defenders: "محمد عبد الله".into(),
        footer: "Ход 3 · ходят нападающие".into(),
        to_move: Some(Side::Attackers),
    });
    png("brandubh-7-names-in-scripts", brandubh.position(), scripts);

    // A short game as a GIF: the start, one frame per ply, the result on the last frame.
    let start = from_otn(Variant::Brandubh.rules(), "/7/5T1/2K4/6t/4t2/7/3t3/", Side::Defenders);
    let game =
        tafl_render::replay(start, &["c3-b3", "g4-g2", "b3-b1", "e5-e2xf2", "b1-a1"]).expect("the escape is legal");
    assert!(!game.status().is_ongoing());
    let options = GifOptions {
        attackers: "Ragnhild".into(),
        defenders: "Thorvald".into(),
        last_footer: "Defenders win · king escaped".into(),
        ..GifOptions::default()
    };
    out.push(("brandubh-7-game.gif", r.render_gif(&game, &options).expect("golden games render")));

    // A game that ends with the king captured: the last frame and the final board mark him.
    let captured = king_capture_game();
    let mut options = with_last(&captured, Theme::Classic);
    options.marks = tafl_render::captured_king(&captured).into_iter().collect();
    out.push(("historical-7-king-captured", r.render_png(captured.position(), &options).expect("renders")));
    let options = GifOptions {
        attackers: "Attackers".into(),
        defenders: "Defenders".into(),
        last_footer: "Attackers win · king captured".into(),
        ..GifOptions::default()
    };
    out.push(("historical-7-king-captured.gif", r.render_gif(&captured, &options).expect("renders")));

    cards(&r, &mut out);
    out
}

/// Summary, profile and leaderboard cards: short and long games, both themes, English and
/// Russian words, names in Latin, Cyrillic, Greek, Vietnamese, Chinese, Japanese, Korean,
/// Arabic, Hebrew, Devanagari and Thai, and names no bundled face can draw (emoji, empty), which
/// fall back to the caller's "Player 1/2".
fn cards(r: &Renderer, out: &mut Vec<(&'static str, Vec<u8>)>) {
    let short = scripted_game(Variant::Brandubh, 3);
    let long = scripted_game(Variant::Copenhagen, 300);
    let captured = king_capture_game();
    let summaries = [
        (
            "summary-short-classic-en",
            summary_card(&short, ["Ragnhild", "Þorvaldr"], Lang::English, Theme::Classic, false),
        ),
        (
            "summary-short-high-contrast-ru",
            summary_card(&short, ["Ярослав", "Ἀλέξανδρος"], Lang::Russian, Theme::HighContrast, false),
        ),
        (
            "summary-long-classic-ru",
            summary_card(&long, ["Анна-Мария", "Nguyễn Văn Anh"], Lang::Russian, Theme::Classic, true),
        ),
        (
            "summary-long-high-contrast-en",
            summary_card(&long, ["山田太郎", "محمد"], Lang::English, Theme::HighContrast, false),
        ),
        (
            "summary-king-captured-classic-en",
            summary_card(&captured, ["Zoë 🛡️", ""], Lang::English, Theme::Classic, false),
        ),
    ];
    for (name, card) in summaries {
        out.push((name, r.render_summary_card(&card).expect("summary cards render")));
    }
    let profiles = [
        ("profile-classic-en", profile_card(120, "Ragnhild", Lang::English, Theme::Classic)),
        ("profile-high-contrast-ru", profile_card(500, "Ярослав", Lang::Russian, Theme::HighContrast)),
        ("profile-few-games-classic-ru", profile_card(3, "Σοφία", Lang::Russian, Theme::Classic)),
        ("profile-no-games-classic-ru", profile_card(0, "Новичок", Lang::Russian, Theme::Classic)),
        ("profile-against-bot-classic-en", against_bot(profile_card(120, "Ragnhild", Lang::English, Theme::Classic))),
        (
            "profile-against-bot-high-contrast-ru",
            against_bot(profile_card(40, "Ярослав", Lang::Russian, Theme::HighContrast)),
        ),
        ("profile-only-bot-classic-en", only_bot(profile_card(12, "Ragnhild", Lang::English, Theme::Classic))),
        (
            "profile-five-families-classic-ru",
            five_families(profile_card(300, "Ярослав", Lang::Russian, Theme::Classic)),
        ),
    ];
    for (name, card) in profiles {
        out.push((name, r.render_profile_card(&card).expect("profile cards render")));
    }
    for (name, lang, theme) in [
        ("leaderboard-classic-en", Lang::English, Theme::Classic),
        ("leaderboard-high-contrast-ru", Lang::Russian, Theme::HighContrast),
    ] {
        out.push((name, r.render_leaderboard_card(&leaderboard_card(lang, theme)).expect("leaderboards render")));
    }
    let empty = empty_leaderboard_card(Lang::English, Theme::Classic);
    out.push(("leaderboard-empty-classic-en", r.render_leaderboard_card(&empty).expect("leaderboards render")));
    let scripts = scripts_leaderboard_card(Lang::English, Theme::Classic);
    out.push(("leaderboard-scripts-classic-en", r.render_leaderboard_card(&scripts).expect("leaderboards render")));
    // A summary whose players write right to left and in Devanagari, with a turning point.
    let mut card = summary_card(&short, ["אברהם", "अर्जुन"], Lang::English, Theme::Classic, true);
    card.series.turning_point = Some(2);
    out.push(("summary-scripts-turning-point-classic-en", r.render_summary_card(&card).expect("renders")));
}

/// Historical 7x7: away from the throne the king is captured by two attackers; the last move
/// closes the pincer.
pub(crate) fn king_capture_game() -> Game {
    let start = from_otn(Variant::Historical7.rules(), "/7/7/7/7/1tK4/5T1/3t3/", Side::Defenders);
    let game = tafl_render::replay(start, &["f6-f5", "d7-d5"]).expect("the capture is legal");
    assert_eq!(game.status().name(), "attackers_win", "the king is captured");
    game
}

fn nineteen() -> tafl_rules::Setup {
    "/5ttttttttt5/9t9/19/19/t8T8t/t8T8t/t8T8t/t8T8t/t8T8t/tt4TTTKTTT4tt/t8T8t/t8T8t/t8T8t/t8T8t/t8T8t/19/19/9t9/5ttttttttt5/"
        .parse()
        .expect("valid OTN")
}

fn game_after(variant: Variant, moves: &[&str]) -> Game {
    tafl_render::replay(start(variant), moves).expect("scripted moves are legal")
}

fn with_last(game: &Game, theme: Theme) -> BoardOptions {
    BoardOptions { theme, last_move: game.moves().last().map(LastMove::from), ..BoardOptions::default() }
}

/// Every frame's pixels: one for a PNG, all frames (composed) for a GIF.
fn decode(bytes: &[u8]) -> Vec<image::RgbaImage> {
    if bytes.starts_with(b"GIF") {
        let decoder = image::codecs::gif::GifDecoder::new(std::io::Cursor::new(bytes)).expect("GIF decodes");
        decoder
            .into_frames()
            .collect_frames()
            .expect("GIF frames decode")
            .into_iter()
            .map(image::Frame::into_buffer)
            .collect()
    } else {
        vec![image::load_from_memory_with_format(bytes, image::ImageFormat::Png).expect("PNG decodes").to_rgba8()]
    }
}

#[test]
fn boards_match_the_committed_golden_images() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/golden");
    let actual_dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("golden-actual");
    std::fs::create_dir_all(&actual_dir).expect("target dir is writable");
    let update = std::env::var_os("UPDATE_GOLDEN").is_some_and(|v| v == "1");
    let mut mismatches = Vec::new();
    for (name, png) in cases() {
        let file = if name.contains('.') { name.to_owned() } else { format!("{name}.png") };
        let path = dir.join(&file);
        std::fs::write(actual_dir.join(&file), &png).expect("target dir is writable");
        if update {
            std::fs::write(&path, &png).expect("golden dir is writable");
            continue;
        }
        match std::fs::read(&path) {
            Ok(expected) if decode(&expected) == decode(&png) => {}
            Ok(_) => mismatches.push(format!("{name}: pixels differ")),
            Err(e) => mismatches.push(format!("{name}: {e}")),
        }
    }
    assert!(
        mismatches.is_empty(),
        "golden images differ: {mismatches:?}; the new images are in {}; if the change is intended, \
         run UPDATE_GOLDEN=1 cargo test -p tafl-render --test golden",
        actual_dir.display()
    );
}

/// A profile that also has games against the bot, counted in a row of their own.
fn against_bot(mut card: tafl_render::ProfileCard) -> tafl_render::ProfileCard {
    card.against_bot = tafl_render::SideRecord { wins: 17, losses: 9, draws: 2 };
    card
}

/// A profile with five families under the bot's own (long, Russian) names: too wide for the
/// title's row, the legend takes rows of its own under it (it once ran off the card's left edge
/// and left no room for the title); the bands overlap and all show.
fn five_families(mut card: tafl_render::ProfileCard) -> tafl_render::ProfileCard {
    let names = [
        "Копенгагенский хнефатафл",
        "Таблут · Брандубх · Хнефатафл",
        "Исторический тафл",
        "Морской бой",
        "Копенгагенский хнефатафл · против бота",
    ];
    let base = card.history[0].points.clone();
    card.history = names
        .iter()
        .enumerate()
        .map(|(n, name)| tafl_render::RatingHistory {
            family: (*name).into(),
            points: base
                .iter()
                .map(|p| tafl_render::RatingPoint { rating: p.rating + 60.0 * n as f64 - 120.0, ..*p })
                .collect(),
        })
        .collect();
    card
}

/// A profile of someone who has only played the bot: its row alone in the results panel.
fn only_bot(card: tafl_render::ProfileCard) -> tafl_render::ProfileCard {
    let mut card = against_bot(card);
    card.attackers = tafl_render::SideRecord::default();
    card.defenders = tafl_render::SideRecord::default();
    card.labels.by_side = "Results".into();
    // The streak counts games against people: there is none.
    card.streak_line = String::new();
    card
}
