//! Checks that do not depend on exact pixels: images decode, have the layout's size, show
//! pieces where they stand, animate one frame per ply; bad input is a typed error.

mod common;

use std::io::Cursor;

use common::{Lang, from_otn, scripted_game, start, summary_card};
use image::AnimationDecoder as _;
use tafl_render::{
    BoardOptions, Caption, GifOptions, KingStyle, LastMove, MIN_ASPECT, Mark, MarkKind, Orientation, RenderError,
    Renderer, Theme, is_drawable_name,
};
use tafl_rules::{Game, IllegalMove, Move, Outcome, Piece, Position, Reason, Setup, Side, Square, Status, Variant};

fn sq(name: &str) -> Square {
    name.parse().expect("test squares are valid")
}

fn decode(bytes: &[u8]) -> image::RgbImage {
    image::load_from_memory_with_format(bytes, image::ImageFormat::Png).expect("PNG decodes").to_rgb8()
}

fn gif_frames(bytes: &[u8]) -> Vec<image::RgbaImage> {
    let decoder = image::codecs::gif::GifDecoder::new(Cursor::new(bytes)).expect("GIF header decodes");
    decoder
        .into_frames()
        .collect_frames()
        .expect("GIF frames decode")
        .into_iter()
        .map(image::Frame::into_buffer)
        .collect()
}

fn pixel(img: &image::RgbImage, (x, y): (u32, u32)) -> [u8; 3] {
    img.get_pixel(x, y).0
}

/// A point inside a piece's body but clear of its inner marks (crown, ring, ship).
fn body_point(renderer: &Renderer, position: &Position, options: &BoardOptions, square: Square) -> (u32, u32) {
    let layout = renderer.layout(position.size(), options.orientation, options.caption.is_some()).unwrap();
    let r = layout.square_rect(square).unwrap();
    (r.x + r.w / 2, r.y + r.h / 2 + r.h * 3 / 10)
}

#[test]
fn every_preset_decodes_at_the_size_its_layout_promises() {
    let renderer = Renderer::new();
    for variant in Variant::ALL {
        let position = start(variant);
        for caption in [
            None,
            Some(Caption {
                attackers: "A".into(),
                defenders: "B".into(),
                footer: "Move 1 · Attackers to move".into(),
                to_move: Some(Side::Attackers),
            }),
        ] {
            let options = BoardOptions { caption, ..BoardOptions::default() };
            let img = decode(&renderer.render_png(&position, &options).unwrap());
            let layout = renderer.layout(position.size(), Orientation::Standard, options.caption.is_some()).unwrap();
            assert_eq!((img.width(), img.height()), (layout.width, layout.height), "{variant}");
            assert!(img.width() * MIN_ASPECT.1 >= img.height() * MIN_ASPECT.0, "{variant} is slightly wider than tall");
        }
    }
}

#[test]
fn the_kings_square_has_the_kings_colour_and_attackers_theirs_in_both_themes_and_orientations() {
    let renderer = Renderer::new();
    let position = start(Variant::Brandubh);
    for theme in Theme::ALL {
        for orientation in [Orientation::Standard, Orientation::Flipped] {
            let options = BoardOptions { theme, orientation, ..BoardOptions::default() };
            let img = decode(&renderer.render_png(&position, &options).unwrap());
            let king = body_point(&renderer, &position, &options, position.king());
            assert_eq!(pixel(&img, king), theme.piece_colour(Piece::King), "{theme:?} {orientation:?}");
            let layout = renderer.layout(7, orientation, false).unwrap();
            let attacker = layout.square_rect(sq("d1")).unwrap().centre();
            assert_eq!(pixel(&img, attacker), theme.piece_colour(Piece::Attacker), "{theme:?} {orientation:?}");
            let defender = layout.square_rect(sq("d3")).unwrap().centre();
            assert_eq!(pixel(&img, defender), theme.piece_colour(Piece::Defender), "{theme:?} {orientation:?}");
        }
    }
}

#[test]
fn flipping_the_board_moves_a_corner_piece_to_the_opposite_corner() {
    let renderer = Renderer::new();
    let position = start(Variant::Brandubh);
    let standard = renderer.layout(7, Orientation::Standard, false).unwrap();
    let flipped = renderer.layout(7, Orientation::Flipped, false).unwrap();
    let (a, b) = (standard.square_rect(sq("d1")).unwrap(), flipped.square_rect(sq("d1")).unwrap());
    assert!(a.y > b.y, "d1 is at the bottom, then at the top");
    let img = decode(
        &renderer
            .render_png(&position, &BoardOptions { orientation: Orientation::Flipped, ..BoardOptions::default() })
            .unwrap(),
    );
    assert_eq!(pixel(&img, b.centre()), Theme::Classic.piece_colour(Piece::Attacker));
}

#[test]
fn the_last_moves_destination_is_tinted_around_the_piece() {
    let renderer = Renderer::new();
    let game = tafl_render::replay(start(Variant::Copenhagen), &["d1-d4"]).unwrap();
    for theme in Theme::ALL {
        let options =
            BoardOptions { theme, last_move: game.moves().last().map(LastMove::from), ..BoardOptions::default() };
        let img = decode(&renderer.render_png(game.position(), &options).unwrap());
        let r = renderer.layout(11, Orientation::Standard, false).unwrap().square_rect(sq("d4")).unwrap();
        assert_eq!(pixel(&img, (r.x + 1, r.y + 1)), theme.last_move_colour(), "{theme:?}");
    }
}

#[test]
fn a_board_is_never_blank_and_stays_small() {
    let renderer = Renderer::new();
    let png = renderer.render_png(&start(Variant::Copenhagen), &BoardOptions::default()).unwrap();
    assert!(png.len() < 40 * 1024, "{} bytes", png.len());
    let img = decode(&png);
    let mut colours: Vec<[u8; 3]> = img.pixels().map(|p| p.0).collect();
    colours.sort_unstable();
    colours.dedup();
    assert!(colours.len() > 10, "only {} colours", colours.len());
}

#[test]
fn the_sea_battle_king_is_drawn_as_a_ship_and_other_kings_with_a_crown() {
    let renderer = Renderer::new();
    let position = start(Variant::SeaBattle9);
    let auto = renderer.render_png(&position, &BoardOptions::default()).unwrap();
    let ship =
        renderer.render_png(&position, &BoardOptions { king: KingStyle::Ship, ..BoardOptions::default() }).unwrap();
    let crown =
        renderer.render_png(&position, &BoardOptions { king: KingStyle::Crown, ..BoardOptions::default() }).unwrap();
    assert_eq!(decode(&auto), decode(&ship));
    assert_ne!(decode(&auto), decode(&crown));
    let tablut = start(Variant::Tablut);
    let auto = renderer.render_png(&tablut, &BoardOptions::default()).unwrap();
    let crown =
        renderer.render_png(&tablut, &BoardOptions { king: KingStyle::Crown, ..BoardOptions::default() }).unwrap();
    assert_eq!(decode(&auto), decode(&crown));
}

#[test]
fn a_gif_has_the_start_and_one_frame_per_ply_and_all_frames_decode_at_full_size() {
    let renderer = Renderer::new();
    let game = scripted_game(Variant::Copenhagen, 30);
    let gif = renderer.render_gif(&game, &GifOptions::default()).unwrap();
    let frames = gif_frames(&gif);
    assert_eq!(frames.len(), game.ply() + 1);
    let layout = renderer.layout(11, Orientation::Standard, true).unwrap();
    for frame in &frames {
        assert_eq!(frame.dimensions(), (layout.width, layout.height));
    }
    assert!(frames.windows(2).all(|w| w[0] != w[1]), "every ply changes the picture");
}

#[test]
fn the_last_gif_frame_equals_the_png_of_the_final_position_with_the_result() {
    let renderer = Renderer::new();
    let position = from_otn(Variant::Copenhagen.rules(), "/11/11/K10/t10/11/4t6/11/11/11/11/6t4/", Side::Defenders);
    let mut game = Game::new(position);
    game.play(Move::new(sq("a3"), sq("a1"))).unwrap();
    assert!(!game.status().is_ongoing());
    for theme in Theme::ALL {
        let options = GifOptions {
            theme,
            attackers: "Ann".into(),
            defenders: "Bo".into(),
            first_footer: "Start".into(),
            last_footer: "Defenders win · king escaped".into(),
            ..GifOptions::default()
        };
        let frames = gif_frames(&renderer.render_gif(&game, &options).unwrap());
        assert_eq!(frames.len(), 2);
        let board = BoardOptions {
            theme,
            last_move: game.moves().last().map(LastMove::from),
            caption: Some(Caption {
                attackers: "Ann".into(),
                defenders: "Bo".into(),
                footer: "Defenders win · king escaped".into(),
                to_move: None,
            }),
            ..BoardOptions::default()
        };
        let png = decode(&renderer.render_png(game.position(), &board).unwrap());
        let last = image::DynamicImage::ImageRgba8(frames[1].clone()).to_rgb8();
        assert!(last == png, "{theme:?}: the GIF's last frame differs from the PNG");
    }
}

/// The rows `[from, to)` of an image, to compare the header, board and footer separately.
fn rows(img: &image::RgbImage, from: u32, to: u32) -> Vec<[u8; 3]> {
    (from..to).flat_map(|y| (0..img.width()).map(move |x| img.get_pixel(x, y).0)).collect()
}

#[test]
fn the_footer_shows_the_callers_words_and_only_an_ongoing_game_underlines_a_name() {
    let renderer = Renderer::new();
    let position = start(Variant::Brandubh);
    let draw = |footer: &str, to_move: Option<Side>| {
        let caption = Caption { attackers: "Ann".into(), defenders: "Bo".into(), footer: footer.into(), to_move };
        decode(
            &renderer
                .render_png(&position, &BoardOptions { caption: Some(caption), ..BoardOptions::default() })
                .unwrap(),
        )
    };
    let layout = renderer.layout(position.size(), Orientation::Standard, true).unwrap();
    let (header, footer) = (layout.header, layout.height - layout.footer);
    let resigned = draw("Defenders win · resignation", None);
    let russian = draw("Победа защитников · сдача", None);
    let ongoing = draw("Move 3 · Attackers to move", Some(Side::Attackers));
    let escaped = draw("Defenders win · king escaped", None);
    // The board itself never changes with the caption.
    for other in [&russian, &ongoing, &escaped] {
        assert!(rows(&resigned, header, footer) == rows(other, header, footer));
    }
    // A finished game underlines nobody.
    assert!(rows(&resigned, 0, header) == rows(&escaped, 0, header));
    assert!(rows(&resigned, 0, header) != rows(&ongoing, 0, header));
    // The words are the caller's: different words, different footers.
    let footers = [&resigned, &russian, &ongoing, &escaped].map(|img| rows(img, footer, img.height()));
    for (i, a) in footers.iter().enumerate() {
        for b in &footers[i + 1..] {
            assert!(a != b, "two different footers look the same");
        }
    }
}

#[test]
fn a_gif_has_the_callers_captions_on_its_first_and_last_frames() {
    let renderer = Renderer::new();
    let game = scripted_game(Variant::Brandubh, 4);
    assert!(game.status().is_ongoing());
    let options = GifOptions {
        attackers: "Ann".into(),
        defenders: "Bo".into(),
        first_footer: "Начало · ходят нападающие".into(),
        last_footer: "Attackers win · time".into(),
        ..GifOptions::default()
    };
    let frames = gif_frames(&renderer.render_gif(&game, &options).unwrap());
    assert_eq!(frames.len(), 5);
    let png = |position: &Position, footer: &str, last_move: Option<LastMove>| {
        let caption = Caption { attackers: "Ann".into(), defenders: "Bo".into(), footer: footer.into(), to_move: None };
        let board = BoardOptions { last_move, caption: Some(caption), ..BoardOptions::default() };
        decode(&renderer.render_png(position, &board).unwrap())
    };
    let first = image::DynamicImage::ImageRgba8(frames[0].clone()).to_rgb8();
    assert!(first == png(game.start(), "Начало · ходят нападающие", None), "the first frame has the first caption");
    let last = image::DynamicImage::ImageRgba8(frames[4].clone()).to_rgb8();
    let final_png = png(game.position(), "Attackers win · time", game.moves().last().map(LastMove::from));
    assert!(last == final_png, "the GIF's last frame differs from the PNG with the result");
    // The frames between say nothing under the board: the start's words are not theirs.
    let mut position = game.start().clone();
    for (i, played) in game.moves()[..3].iter().enumerate() {
        position.play_unchecked(played.mv);
        let frame = image::DynamicImage::ImageRgba8(frames[i + 1].clone()).to_rgb8();
        assert!(frame == png(&position, "", Some(LastMove::from(played))), "frame {} has an empty footer", i + 1);
    }
}

#[test]
fn a_long_game_gif_shows_every_nth_ply_up_to_its_frame_budget_and_ends_on_the_same_frame() {
    let renderer = Renderer::new();
    let game = scripted_game(Variant::Copenhagen, 95);
    let every = gif_frames(&renderer.render_gif(&game, &GifOptions::default()).unwrap());
    let options = GifOptions { max_frames: 30, ..GifOptions::default() };
    let sampled = gif_frames(&renderer.render_gif(&game, &options).unwrap());
    // Every 4th ply (95 / 30, rounded up): plies 4, 8, … 92, then the last, 95.
    assert_eq!(sampled.len(), 1 + 23 + 1);
    assert_eq!(sampled.first(), every.first());
    assert_eq!(sampled.last(), every.last());
    assert_eq!(sampled[1], every[4]);
    assert_eq!(sampled[23], every[92]);
}

#[test]
fn a_game_without_moves_is_a_one_frame_gif() {
    let renderer = Renderer::new();
    let game = Game::new(start(Variant::Brandubh));
    assert_eq!(gif_frames(&renderer.render_gif(&game, &GifOptions::default()).unwrap()).len(), 1);
}

#[test]
fn a_hundred_ply_game_gif_stays_under_two_megabytes() {
    let renderer = Renderer::new();
    let game = scripted_game(Variant::Copenhagen, 100);
    let gif = renderer.render_gif(&game, &GifOptions::default()).unwrap();
    assert!(gif.len() < 2 * 1024 * 1024, "{} bytes", gif.len());
}

#[test]
fn a_board_larger_than_supported_is_refused() {
    let renderer = Renderer::new();
    let setup: Setup = format!("/{}", "21/".repeat(21)).parse().unwrap();
    let err =
        renderer.render_setup_png(&Variant::Copenhagen.rules(), &setup, Side::Attackers, &BoardOptions::default());
    assert_eq!(err, Err(RenderError::BadSize { size: 21 }));
    assert_eq!(renderer.layout(20, Orientation::Standard, false), Err(RenderError::BadSize { size: 20 }));
    assert_eq!(renderer.layout(3, Orientation::Standard, false), Err(RenderError::BadSize { size: 3 }));
}

#[test]
fn an_empty_board_and_a_kingless_position_are_refused() {
    let renderer = Renderer::new();
    let rules = Variant::Copenhagen.rules();
    let empty = Setup::empty(11);
    assert_eq!(
        renderer.render_setup_png(&rules, &empty, Side::Attackers, &BoardOptions::default()),
        Err(RenderError::EmptyBoard)
    );
    let kingless: Setup = "/11/11/11/11/11/5t5/11/11/11/11/11/".parse().unwrap();
    assert_eq!(
        renderer.render_setup_png(&rules, &kingless, Side::Attackers, &BoardOptions::default()),
        Err(RenderError::NoKing)
    );
    let two_kings: Setup = "/11/11/11/11/3K3K3/5t5/11/11/11/11/11/".parse().unwrap();
    let err = renderer.render_setup_png(&rules, &two_kings, Side::Attackers, &BoardOptions::default()).unwrap_err();
    assert!(matches!(err, RenderError::Position(_)), "{err:?}");
    let wrong_size = start(Variant::Brandubh).setup();
    let err = renderer.render_setup_png(&rules, &wrong_size, Side::Attackers, &BoardOptions::default()).unwrap_err();
    assert!(matches!(err, RenderError::Position(_)), "{err:?}");
    assert!(!err.to_string().is_empty());
}

#[test]
fn a_valid_setup_renders_like_its_position() {
    let renderer = Renderer::new();
    let position = start(Variant::Brandubh);
    let via_setup = renderer
        .render_setup_png(position.rules(), &position.setup(), Side::Attackers, &BoardOptions::default())
        .unwrap();
    assert_eq!(via_setup, renderer.render_png(&position, &BoardOptions::default()).unwrap());
}

#[test]
fn an_illegal_or_malformed_move_list_names_the_ply() {
    let err = tafl_render::replay(start(Variant::Brandubh), &["d1-b1", "a1-a9"]).unwrap_err();
    assert!(matches!(err, RenderError::IllegalMove { ply: 2, .. }), "{err:?}");
    let err = tafl_render::replay(start(Variant::Brandubh), &["banana"]).unwrap_err();
    assert!(matches!(err, RenderError::Notation { ply: 1, .. }), "{err:?}");
    let err = tafl_render::replay(start(Variant::Brandubh), &["d3-c3"]).unwrap_err();
    assert!(matches!(err, RenderError::IllegalMove { ply: 1, source: IllegalMove::NotYourPiece { .. } }), "{err:?}");
    assert!(err.to_string().starts_with("ply 1: "), "{err}");
}

#[test]
fn marks_and_last_moves_off_the_board_or_not_straight_are_refused() {
    let renderer = Renderer::new();
    let position = start(Variant::Brandubh);
    let off = BoardOptions { marks: vec![Mark { square: sq("h8"), kind: MarkKind::Dot }], ..BoardOptions::default() };
    assert_eq!(renderer.render_png(&position, &off), Err(RenderError::OffBoard { square: sq("h8"), size: 7 }));
    let last = |from, to, captures: Vec<Square>| BoardOptions {
        last_move: Some(LastMove { mv: Move::new(sq(from), sq(to)), captures }),
        ..BoardOptions::default()
    };
    assert_eq!(
        renderer.render_png(&position, &last("a1", "b2", vec![])),
        Err(RenderError::NotAMove { mv: Move::new(sq("a1"), sq("b2")) })
    );
    assert_eq!(
        renderer.render_png(&position, &last("a1", "a1", vec![])),
        Err(RenderError::NotAMove { mv: Move::new(sq("a1"), sq("a1")) })
    );
    assert!(matches!(renderer.render_png(&position, &last("a1", "a9", vec![])), Err(RenderError::OffBoard { .. })));
    assert!(matches!(
        renderer.render_png(&position, &last("a1", "a2", vec![sq("z26")])),
        Err(RenderError::OffBoard { .. })
    ));
}

#[test]
fn hostile_names_render_without_panicking() {
    let renderer = Renderer::new();
    let position = start(Variant::Brandubh);
    for name in ["", " ", "\u{0}\u{7}\n", &"W".repeat(5000), "👑🛡️⚔️", "مرحبا", "\u{202E}evil", "名前"]
    {
        let options = BoardOptions {
            caption: Some(Caption {
                attackers: name.into(),
                defenders: name.into(),
                footer: name.into(),
                to_move: Some(Side::Attackers),
            }),
            ..BoardOptions::default()
        };
        decode(&renderer.render_png(&position, &options).unwrap());
    }
}

/// Discord users write names in "fancy" letters (Mathematical Alphanumeric Symbols from name
/// generators): no bundled face has them, and a board drew `? ? Ann ?` for `𝕯𝖆𝖗𝖐 ꧁༺ Ann ༻꧂`, a
/// card the fallback "Player". They are drawn as the letters they stand for, exactly as if typed
/// plainly; what stands for no letter (the ornaments ꧁༺) is still one `?` on a board.
#[test]
fn names_in_fancy_letters_are_drawn_as_the_plain_letters() {
    let renderer = Renderer::new();
    let position = start(Variant::Brandubh);
    let board = |attackers: &str, defenders: &str| {
        let caption = Caption {
            attackers: attackers.into(),
            defenders: defenders.into(),
            footer: "Move 1".into(),
            to_move: Some(Side::Attackers),
        };
        renderer.render_png(&position, &BoardOptions { caption: Some(caption), ..BoardOptions::default() }).unwrap()
    };
    assert!(board("𝓐𝓷𝓷", "𝕯𝖆𝖗𝖐 𝔏𝔬𝔯𝔡") == board("Ann", "Dark Lord"), "script and Fraktur letters");
    assert!(board("𝐁𝐨𝐛 𝟏𝟐", "𝔸𝕟𝕟𝕒") == board("Bob 12", "Anna"), "bold digits and double-struck letters");
    assert!(board("꧁༺ Ann ༻꧂", "Bo") == board("? Ann ?", "Bo"), "ornaments are no letters");
    assert!(board("𝓐𝓷𝓷", "Bo") != board("?", "Bo"));
    let game = scripted_game(Variant::Brandubh, 6);
    let card = |name: &str| {
        let card = summary_card(&game, [name, "Bo"], Lang::English, Theme::Classic, false);
        renderer.render_summary_card(&card).unwrap()
    };
    assert!(card("𝓐𝓷𝓷 𝕯𝖆𝖗𝖐") == card("Ann Dark"), "a card draws the letters, not the fallback");
}

/// A name of only invisible characters (the Hangul filler U+3164, a common Discord "blank
/// name"; the Braille blank; zero-width spaces and joiners; spaces; variation selectors) cleans
/// to nothing, and a board's header would show a bare icon, underlined as the side to move. The
/// renderer has no words for a fallback: it says such a name is not drawable, and the caller
/// names the side instead (`bot/src/present/summary.rs` `caption`, as the cards show "Player 1").
#[test]
fn a_name_of_invisible_characters_is_not_drawable_and_a_fallback_is_drawn_instead() {
    let renderer = Renderer::new();
    let position = start(Variant::Brandubh);
    let board = |attackers: &str| {
        let options = BoardOptions {
            caption: Some(Caption {
                attackers: attackers.into(),
                defenders: "Bob".into(),
                footer: "Move 1".into(),
                to_move: Some(Side::Attackers),
            }),
            ..BoardOptions::default()
        };
        renderer.render_png(&position, &options).unwrap()
    };
    let bare = board("");
    for blank in [
        "\u{3164}",
        "\u{3164}\u{3164}\u{3164}",
        "\u{2800}",
        "\u{200B}",
        "\u{200D}\u{200D}",
        "   ",
        "\u{3000}\u{00A0}",
        "\u{FE0F}\u{FE0F}",
        "\u{E0100}",
        "\u{115F}\u{1160}\u{FFA0}",
        "\u{1D159}",
    ] {
        assert!(!is_drawable_name(blank), "{blank:?}");
        assert!(board(blank) == bare, "{blank:?} draws nothing");
    }
    // The caller's fallback is drawn: the header names the side.
    assert!(board("Attackers") != bare);
    // A name with anything visible is drawable, emoji too (a board marks them with `?`).
    for name in ["Ann", "\u{3164}Ann\u{3164}", "😀", "محمد", "\u{0301}"] {
        assert!(is_drawable_name(name), "{name:?}");
        assert!(board(name) != bare, "{name:?} is drawn");
    }
}

/// A hint (`bot/src/present/summary.rs` `hint_board`) draws the engine's move on the position
/// before it, with the captures it would make: the pieces it would take still stand there, and
/// each is drawn with the captures' red cross over it, in both themes, whichever side it takes.
/// Nothing else in the picture changes.
#[test]
fn a_hint_marks_the_pieces_its_move_would_take() {
    let renderer = Renderer::new();
    for (side, otn, text, taken) in [
        // Attackers to move: d2-a2 takes the defender on a3 against the attacker on a4.
        (Side::Attackers, "/7/3t3/T6/t2K3/7/7/7/", "d2-a2", "a3"),
        // Defenders to move: b7-b4 takes the attacker on b3 against the defender on b2.
        (Side::Defenders, "/5t1/1T5/1t5/3K3/7/7/1T5/", "b7-b4", "b3"),
    ] {
        let position = from_otn(Variant::Brandubh.rules(), otn, side);
        let mv: Move = text.parse().unwrap();
        let mut game = Game::new(position.clone());
        let captures = game.play(mv).unwrap().captures.clone();
        assert_eq!(captures, vec![sq(taken)], "{text} takes {taken}");
        for theme in Theme::ALL {
            let hint = |captures: Vec<Square>| {
                let options = BoardOptions {
                    theme,
                    last_move: Some(LastMove { mv, captures }),
                    marks: vec![Mark { square: mv.to, kind: MarkKind::Dot }],
                    ..BoardOptions::default()
                };
                decode(&renderer.render_png(&position, &options).unwrap())
            };
            let (marked, unmarked) = (hint(captures.clone()), hint(Vec::new()));
            let layout = renderer.layout(7, Orientation::Standard, false).unwrap();
            let square = layout.square_rect(sq(taken)).unwrap();
            let inside = |x: u32, y: u32| {
                (square.x..square.x + square.w).contains(&x) && (square.y..square.y + square.h).contains(&y)
            };
            let changed: Vec<(u32, u32)> = marked
                .enumerate_pixels()
                .filter(|&(x, y, p)| p != unmarked.get_pixel(x, y))
                .map(|(x, y, _)| (x, y))
                .collect();
            assert!(changed.len() > 100, "{theme:?}, {text}: the piece on {taken} is marked");
            assert!(changed.iter().all(|&(x, y)| inside(x, y)), "{theme:?}, {text}: only {taken} changes");
            // The piece still shows: its body's colour is there beside the cross.
            let body = theme.piece_colour(position.piece_at(sq(taken)).unwrap());
            let body_pixels = (square.y..square.y + square.h)
                .flat_map(|y| (square.x..square.x + square.w).map(move |x| (x, y)))
                .filter(|&(x, y)| marked.get_pixel(x, y).0 == body)
                .count();
            assert!(body_pixels > 50, "{theme:?}, {text}: the taken piece is still drawn ({body_pixels} px)");
        }
    }
}

/// A name of one letter carrying 30 marks (32 characters, as Discord allows) stacked them far
/// below the header, over the coordinates and the board's top row, and a footer's stacked over
/// the bottom rows: the marks on one letter are capped in every script, not only the generic
/// combining diacritics. Arabic kasras and Thai vowels below a name, Arabic shaddas and Thai
/// tone marks above a footer, Hebrew points, Cyrillic titlos and Devanagari signs.
#[test]
fn stacked_script_marks_stay_in_the_header_and_footer() {
    let renderer = Renderer::new();
    for variant in [Variant::Brandubh, Variant::Copenhagen, Variant::SeaBattle15] {
        let position = start(variant);
        let board = |attackers: &str, footer: &str| {
            let options = BoardOptions {
                caption: Some(Caption {
                    attackers: attackers.into(),
                    defenders: "Bob".into(),
                    footer: footer.into(),
                    to_move: Some(Side::Attackers),
                }),
                ..BoardOptions::default()
            };
            decode(&renderer.render_png(&position, &options).unwrap())
        };
        let layout = renderer.layout(position.size(), Orientation::Standard, true).unwrap();
        // Only the band between header and footer: the coordinates and the board.
        let middle = |img: &image::RgbImage| rows(img, layout.header, layout.height - layout.footer);
        let plain = middle(&board("مد", "Move 1"));
        let piled = |base: &str, mark: char, rest: &str| format!("{base}{}{rest}", mark.to_string().repeat(30));
        for (what, attackers, footer) in [
            ("kasras below a name", piled("م", '\u{0650}', "د"), "Move 1".to_owned()),
            ("Thai vowels below a name", piled("ก", '\u{0E38}', ""), "Move 1".to_owned()),
            ("Hebrew points below a name", piled("ש", '\u{05B8}', "לום"), "Move 1".to_owned()),
            ("shaddas above a footer", "مد".to_owned(), piled("م", '\u{0651}', "د")),
            ("Thai tone marks above a footer", "مد".to_owned(), piled("ก", '\u{0E48}', "")),
            ("Cyrillic titlos above a footer", "مد".to_owned(), piled("Б", '\u{0483}', "ob")),
            ("Devanagari signs above a footer", "مد".to_owned(), piled("क", '\u{0901}', "")),
        ] {
            assert!(middle(&board(&attackers, &footer)) == plain, "{what} drawn over the {variant:?} board");
        }
    }
}

#[test]
fn one_renderer_can_be_shared_between_threads() {
    let renderer = std::sync::Arc::new(Renderer::new());
    let handles: Vec<_> = Variant::ALL
        .into_iter()
        .map(|variant| {
            let renderer = std::sync::Arc::clone(&renderer);
            std::thread::spawn(move || {
                renderer.render_png(&start(variant), &BoardOptions::default()).map(|png| png.len())
            })
        })
        .collect();
    for handle in handles {
        assert!(handle.join().expect("no panic").expect("renders") > 0);
    }
}

/// Historical 7x7: away from the throne two attackers capture the king.
fn king_capture_game() -> Game {
    let start = from_otn(Variant::Historical7.rules(), "/7/7/7/7/1tK4/5T1/3t3/", Side::Defenders);
    tafl_render::replay(start, &["f6-f5", "d7-d5"]).expect("the capture is legal")
}

/// Whether the border of `square` (a few pixels inside its edge) is mostly the danger red.
fn framed_red(img: &image::RgbaImage, layout: &tafl_render::Layout, square: Square) -> bool {
    let r = layout.square_rect(square).unwrap();
    let red = |x: u32, y: u32| {
        let p = img.get_pixel(x, y).0;
        p[0] > 180 && p[1] < 90 && p[2] < 90
    };
    let edge: Vec<(u32, u32)> = (r.x + 4..r.x + r.w - 4).flat_map(|x| [(x, r.y + 1), (x, r.y + r.h - 2)]).collect();
    edge.iter().filter(|&&(x, y)| red(x, y)).count() * 10 >= edge.len() * 9
}

#[test]
fn the_captured_king_is_marked_on_the_last_gif_frame_and_on_the_final_board() {
    let renderer = Renderer::new();
    let game = king_capture_game();
    let king = game.position().king();
    assert_eq!(
        game.status(),
        Status::Finished(Outcome { winner: Some(Side::Attackers), reason: Reason::KingCaptured })
    );

    let frames = gif_frames(&renderer.render_gif(&game, &GifOptions::default()).unwrap());
    let layout = renderer.layout(7, Orientation::Standard, true).unwrap();
    assert!(framed_red(frames.last().unwrap(), &layout, king), "the last frame marks the captured king");
    assert!(!framed_red(&frames[frames.len() - 2], &layout, king), "earlier frames do not");

    let mark = tafl_render::captured_king(&game).expect("a captured king has a mark");
    assert_eq!(mark, Mark { square: king, kind: MarkKind::Danger });
    let options = BoardOptions { marks: vec![mark], ..BoardOptions::default() };
    let board =
        image::DynamicImage::ImageRgb8(decode(&renderer.render_png(game.position(), &options).unwrap())).to_rgba8();
    let layout = renderer.layout(7, Orientation::Standard, false).unwrap();
    assert!(framed_red(&board, &layout, king), "the final board marks the captured king");

    // A game won otherwise has no such mark.
    let escaped = tafl_render::replay(
        from_otn(Variant::Brandubh.rules(), "/7/5T1/2K4/6t/4t2/7/3t3/", Side::Defenders),
        &["c3-b3", "g4-g2", "b3-b1", "e5-e2xf2", "b1-a1"],
    )
    .unwrap();
    assert_eq!(tafl_render::captured_king(&escaped), None);
}

#[test]
fn a_provisional_rating_is_marked_on_the_leaderboard_card_as_in_the_text() {
    use common::{Lang, leaderboard_card};
    let renderer = Renderer::new();
    let settled = leaderboard_card(Lang::English, Theme::Classic);
    let mut provisional = settled.clone();
    provisional.rows[1].provisional = true;
    let (a, b) = (
        image::load_from_memory(&renderer.render_leaderboard_card(&settled).unwrap()).unwrap().to_rgb8(),
        image::load_from_memory(&renderer.render_leaderboard_card(&provisional).unwrap()).unwrap().to_rgb8(),
    );
    assert_eq!(a.dimensions(), b.dimensions());
    let differ: Vec<(u32, u32)> =
        a.enumerate_pixels().filter(|(x, y, p)| b.get_pixel(*x, *y) != *p).map(|(x, y, _)| (x, y)).collect();
    assert!(!differ.is_empty(), "the mark is drawn");
    // Only beside the second row's rating: nothing else moved.
    let (xs, ys): (Vec<u32>, Vec<u32>) = differ.into_iter().unzip();
    let (x0, x1) = (xs.iter().min().unwrap(), xs.iter().max().unwrap());
    let (y0, y1) = (ys.iter().min().unwrap(), ys.iter().max().unwrap());
    assert!(x1 - x0 < 30 && y1 - y0 < 40, "a small mark: x {x0}..{x1}, y {y0}..{y1}");
}

#[test]
fn cards_take_any_text_and_any_series_without_panicking() {
    use common::{Lang, leaderboard_card, profile_card, summary_card};
    let renderer = Renderer::new();
    let hostile = [
        "x".repeat(10_000),
        "\u{202E}שלום עולם\u{202C}".to_owned(),
        "مرحبا بالعالم".to_owned(),
        "👨‍👩‍👧‍👦🏳️‍🌈".to_owned(),
        "\u{0}\u{7}\u{1b}[31m\r\n\t".to_owned(),
        "山田太郎 and Ярослав".to_owned(),
        String::new(),
    ];
    let game = scripted_game(Variant::Copenhagen, 20);
    for name in &hostile {
        let mut card = summary_card(&game, [name, name], Lang::English, Theme::Classic, true);
        card.result_line.clone_from(name);
        card.title.clone_from(name);
        card.labels.ply.clone_from(name);
        renderer.render_summary_card(&card).unwrap();
        let mut profile = profile_card(10, name, Lang::Russian, Theme::HighContrast);
        profile.streak_line.clone_from(name);
        profile.history[0].family.clone_from(name);
        renderer.render_profile_card(&profile).unwrap();
        let mut board = leaderboard_card(Lang::English, Theme::Classic);
        board.rows[0].name.clone_from(name);
        board.title.clone_from(name);
        renderer.render_leaderboard_card(&board).unwrap();
    }

    // Odd series: empty, mismatched lengths, non-finite evaluations, huge values.
    let mut card = summary_card(&game, ["A", "B"], Lang::English, Theme::Classic, false);
    card.series.pieces.clear();
    card.series.king_distance = vec![u32::MAX, 0, 3];
    card.series.evaluation = Some(vec![f32::NAN, f32::INFINITY, -1e30, 0.0]);
    card.series.captures = vec![tafl_render::Capture { ply: u32::MAX, side: Side::Attackers, count: u32::MAX }];
    renderer.render_summary_card(&card).unwrap();
    let mut profile = profile_card(0, "", Lang::English, Theme::Classic);
    profile.history.push(tafl_render::RatingHistory {
        family: "odd".into(),
        points: vec![tafl_render::RatingPoint { game: u32::MAX, rating: f64::NAN, deviation: f64::INFINITY }],
    });
    renderer.render_profile_card(&profile).unwrap();
    let mut board = leaderboard_card(Lang::English, Theme::Classic);
    board.rows.clear();
    renderer.render_leaderboard_card(&board).unwrap();
    board.rows = (0..50).map(|_| leaderboard_card(Lang::English, Theme::Classic).rows[0].clone()).collect();
    let png = renderer.render_leaderboard_card(&board).unwrap();
    let img = image::load_from_memory(&png).unwrap();
    assert_eq!(
        img.height(),
        image::load_from_memory(
            &renderer.render_leaderboard_card(&leaderboard_card(Lang::English, Theme::Classic)).unwrap()
        )
        .unwrap()
        .height(),
        "ten rows at most"
    );
}

/// QUALITY.md: a summary card of a 100-ply game and a profile card of 500 games are under
/// 150 KB each. Every preset (the board size sets the card's busiest part), both themes and both
/// languages, with the evaluation chart and long names; the benchmark's one card had stood at
/// 146 KB while most others were over (up to 174 KB).
#[test]
fn every_card_stays_under_its_size_target() {
    use common::{Lang, leaderboard_card, profile_card, summary_card};
    const TARGET: usize = 150 * 1024;
    let renderer = Renderer::new();
    let names = ["Анна-Мария Длинноимённая", "Nguyễn Văn Anh"];
    let mut largest = (0, String::new());
    for variant in Variant::ALL {
        let game = scripted_game(variant, 100);
        for theme in Theme::ALL {
            for lang in [Lang::English, Lang::Russian] {
                let card = summary_card(&game, names, lang, theme, true);
                let size = renderer.render_summary_card(&card).unwrap().len();
                let label = format!("summary card, {variant:?}, {theme:?}, {lang:?}");
                largest = largest.max((size, label));
            }
        }
    }
    for theme in Theme::ALL {
        for lang in [Lang::English, Lang::Russian] {
            let size = renderer.render_profile_card(&profile_card(500, names[0], lang, theme)).unwrap().len();
            largest = largest.max((size, format!("profile card, {theme:?}, {lang:?}")));
            let size = renderer.render_leaderboard_card(&leaderboard_card(lang, theme)).unwrap().len();
            largest = largest.max((size, format!("leaderboard card, {theme:?}, {lang:?}")));
        }
    }
    let (size, label) = largest;
    println!("largest card: {label}, {:.1} KB", size as f64 / 1024.0);
    assert!(size < TARGET, "{label}: {size} bytes");
}
