//! Properties over many inputs: whatever legal game, marks and options a caller passes, the
//! renderer answers with an image of the promised size or a typed error, never a panic.

mod common;

use std::sync::OnceLock;

use proptest::prelude::*;
use tafl_render::{
    BoardOptions, Caption, LastMove, Mark, MarkKind, Orientation, RenderError, Renderer, Theme, is_drawable_name,
};
use tafl_rules::{Game, Square, Variant};

fn renderer() -> &'static Renderer {
    static RENDERER: OnceLock<Renderer> = OnceLock::new();
    RENDERER.get_or_init(Renderer::new)
}

fn game(variant: Variant, picks: &[usize]) -> Game {
    let mut game = Game::new(common::start(variant));
    for &pick in picks {
        if !game.status().is_ongoing() {
            break;
        }
        let moves = game.position().legal_moves();
        game.play(moves[pick % moves.len()]).expect("legal moves are legal");
    }
    game
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn any_legal_position_with_any_marks_renders_or_names_the_bad_square(
        variant in 0..Variant::ALL.len(),
        picks in proptest::collection::vec(0usize..1000, 0..40),
        marks in proptest::collection::vec((0u8..22, 0u8..22, 0..3u8), 0..6),
        theme in 0..2usize,
        flipped: bool,
        caption: bool,
        name in "\\PC{0,40}",
    ) {
        let variant = Variant::ALL[variant];
        let game = game(variant, &picks);
        let size = game.position().size();
        let marks: Vec<Mark> = marks
            .into_iter()
            .filter_map(|(f, r, k)| Square::new(f, r).map(|square| (square, k)))
            .map(|(square, k)| Mark { square, kind: [MarkKind::Dot, MarkKind::Danger, MarkKind::Info][usize::from(k)] })
            .collect();
        let off_board = marks.iter().find(|m| !m.square.is_on_board(size)).map(|m| m.square);
        let options = BoardOptions {
            theme: Theme::ALL[theme],
            orientation: if flipped { Orientation::Flipped } else { Orientation::Standard },
            last_move: game.moves().last().map(LastMove::from),
            marks,
            caption: caption.then(|| Caption { attackers: name.clone(), defenders: name.clone(), footer: name, to_move: Some(game.position().to_move()) }),
            ..BoardOptions::default()
        };
        match (renderer().render_png(game.position(), &options), off_board) {
            (Ok(png), None) => {
                let img = image::load_from_memory_with_format(&png, image::ImageFormat::Png).expect("PNG decodes");
                let layout = renderer().layout(size, options.orientation, caption).expect("preset sizes are drawable");
                prop_assert_eq!((img.width(), img.height()), (layout.width, layout.height));
            }
            (Err(RenderError::OffBoard { square, .. }), Some(first)) => prop_assert_eq!(square, first),
            (result, off) => prop_assert!(false, "{:?} with off-board mark {:?}", result.map(|p| p.len()), off),
        }
    }

    /// `is_drawable_name` says what the board does: a name it calls drawable changes the header
    /// (the caller keeps it), any other draws as an empty name (the caller names the side).
    #[test]
    fn a_name_is_drawable_exactly_when_the_board_draws_something_of_it(
        name in proptest::collection::vec(proptest::sample::select(vec![
            '\u{3164}', '\u{2800}', '\u{200B}', '\u{200C}', '\u{200D}', '\u{FE0F}', '\u{E0100}', '\u{061C}',
            '\u{1D159}', '\u{115F}', ' ', '\u{3000}', '\u{7}', '\n', 'a', 'م', '\u{0301}', '\u{0651}', '😀',
        ]), 0..8),
    ) {
        let name: String = name.into_iter().collect();
        let position = common::start(Variant::Brandubh);
        let board = |attackers: &str| {
            let caption = Caption {
                attackers: attackers.into(),
                defenders: "Bob".into(),
                footer: "Move 1".into(),
                to_move: Some(tafl_rules::Side::Attackers),
            };
            renderer().render_png(&position, &BoardOptions { caption: Some(caption), ..BoardOptions::default() }).unwrap()
        };
        prop_assert_eq!(is_drawable_name(&name), board(&name) != board(""), "{:?}", name);
    }
}
