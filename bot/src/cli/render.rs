//! `tafl-bot render`: draws the final position of a move list as a PNG, or the whole game as an
//! animated GIF, with the same renderer the bot uses.
//!
//! Self-contained on purpose (it needs only `tafl-rules` and `tafl-render`), so the command
//! line can register it without this module knowing the rest of the CLI; every failure is one
//! sentence returned as the error.

use std::path::PathBuf;

use tafl_render::{BoardOptions, GifOptions, LastMove, Orientation, Renderer, Theme};

use crate::present::text::side_plain_name;
use crate::present::{Lang, summary, tr};
use tafl_rules::Position;

use super::{StartArgs, shorten};

/// Arguments of `tafl-bot render`.
#[derive(Debug, clap::Args)]
pub struct RenderArgs {
    #[command(flatten)]
    pub start: StartArgs,
    /// Moves to play first, e.g. d1-d4 or d1-d4xe4 (several may share one argument).
    #[arg(value_name = "MOVES")]
    pub moves: Vec<String>,
    /// Write the final position here as a PNG.
    #[arg(short = 'o', long = "output", value_name = "board.png")]
    pub output: Option<PathBuf>,
    /// Write the whole game here as an animated GIF.
    #[arg(long, value_name = "game.gif")]
    pub gif: Option<PathBuf>,
    /// classic or high-contrast.
    #[arg(long, default_value = "classic")]
    pub theme: String,
    /// Draw the board turned round (a1 top-right).
    #[arg(long)]
    pub flip: bool,
    /// The attackers' player, named above the board (either name adds that header and a footer
    /// saying whose move it is; a side left unnamed, or named blank, is called Attackers or
    /// Defenders).
    #[arg(long = "attackers-name", value_name = "NAME")]
    pub attackers_name: Option<String>,
    /// The defenders' player, named above the board.
    #[arg(long = "defenders-name", value_name = "NAME")]
    pub defenders_name: Option<String>,
}

/// Whether two paths name one file, whether or not it exists yet: `x.png` and `./x.png`, or a
/// link and its target.
fn same_file(a: &std::path::Path, b: &std::path::Path) -> bool {
    let existing = |p: &std::path::Path| std::fs::canonicalize(p).ok();
    // A file not written yet: its folder, which must exist, resolved, and its name.
    let to_be = |p: &std::path::Path| {
        let folder = p.parent().filter(|f| !f.as_os_str().is_empty()).unwrap_or(std::path::Path::new("."));
        Some(std::fs::canonicalize(folder).ok()?.join(p.file_name()?))
    };
    a == b || existing(a).is_some_and(|k| existing(b) == Some(k)) || to_be(a).is_some_and(|k| to_be(b) == Some(k))
}

/// Draws what `args` ask for and writes the files. Returns one sentence on failure.
pub fn run(args: &RenderArgs) -> Result<(), String> {
    if args.output.is_none() && args.gif.is_none() {
        return Err("nothing to write: give -o board.png, --gif game.gif, or both".to_owned());
    }
    if let (Some(png), Some(gif)) = (&args.output, &args.gif) {
        if same_file(png, gif) {
            // One would silently overwrite the other.
            return Err(format!(
                "-o and --gif both name {}; give the board and the animation different files",
                shorten(&png.display().to_string(), 60)
            ));
        }
        // Each is written beside itself as `<name>.part` first: `-o x.part --gif x` had the
        // board's file renamed onto the animation's, and put the board in place as `x`.
        for (file, other) in [(png, gif), (gif, png)] {
            if same_file(file, &super::partial_of(other)) {
                return Err(format!(
                    "{} is where {} is written before it is put in place; give the board and the animation other names",
                    shorten(&file.display().to_string(), 60),
                    shorten(&other.display().to_string(), 60)
                ));
            }
        }
    }
    let rules = args.start.rules().map_err(|e| e.to_string())?;
    let theme = Theme::from_name(&args.theme)
        .ok_or_else(|| format!("--theme takes classic or high-contrast, not \"{}\"", shorten(&args.theme, 24)))?;
    let renderer = Renderer::new();
    let (setup, to_move) = args.start.setup(&rules).map_err(|e| e.to_string())?;
    if args.start.position.is_some() {
        // Validate through the renderer so that an empty or king-less board says so plainly.
        renderer.render_setup_png(&rules, &setup, to_move, &BoardOptions::default()).map_err(|e| e.to_string())?;
    }
    let start = Position::from_setup(rules, &setup, to_move).map_err(|e| e.to_string())?;
    let moves: Vec<&str> = args.moves.iter().flat_map(|m| m.split_whitespace()).collect();
    if moves.len() > crate::limits::MAX_PLIES {
        return Err(crate::limits::too_many_plies("render"));
    }
    let game = tafl_render::replay(start, &moves).map_err(|e| e.to_string())?;
    let orientation = if args.flip { Orientation::Flipped } else { Orientation::Standard };
    // A blank name (`--attackers-name ""`, as a script passes an unset variable, or one of only
    // invisible characters such as U+3164) is no name: the side is called Attackers or
    // Defenders, as the help says, not drawn as a blank header.
    let name_of = |name: &Option<String>| {
        name.as_deref().map(str::trim).filter(|name| tafl_render::is_drawable_name(name)).map(str::to_owned)
    };
    let (attackers_name, defenders_name) = (name_of(&args.attackers_name), name_of(&args.defenders_name));
    let named = attackers_name.is_some() || defenders_name.is_some();
    // The caption speaks the language of the terminal (`LANG`), like the console.
    let lang = Lang::console(&std::env::var("LANG").unwrap_or_default());
    let attackers = attackers_name.unwrap_or_else(|| side_plain_name(tafl_rules::Side::Attackers, lang));
    let defenders = defenders_name.unwrap_or_else(|| side_plain_name(tafl_rules::Side::Defenders, lang));

    // Both pictures are drawn first and written beside their files, then put in place: a GIF
    // that could not be written (a missing folder) left the PNG written under a failure.
    let png = match &args.output {
        Some(path) => {
            let options = BoardOptions {
                theme,
                orientation,
                last_move: game.moves().last().map(LastMove::from),
                // A finished game always gets its result; a running one only when names are given.
                caption: (named || !game.status().is_ongoing())
                    .then(|| summary::rules_caption(&game, &attackers, &defenders, lang)),
                marks: tafl_render::captured_king(&game).into_iter().collect(),
                ..BoardOptions::default()
            };
            Some((path, renderer.render_png(game.position(), &options).map_err(|e| e.to_string())?))
        }
        None => None,
    };
    let gif = match &args.gif {
        Some(path) => {
            let first_footer = tr!(
                lang,
                match game.start().to_move() {
                    tafl_rules::Side::Attackers => "caption-start",
                    tafl_rules::Side::Defenders => "caption-start-defenders",
                }
            );
            let last_footer = summary::rules_caption(&game, &attackers, &defenders, lang).footer;
            let options = GifOptions {
                theme,
                orientation,
                attackers,
                defenders,
                first_footer,
                last_footer,
                ..GifOptions::default()
            };
            Some((path, renderer.render_gif(&game, &options).map_err(|e| e.to_string())?))
        }
        None => None,
    };
    let cannot = |path: &std::path::Path, e: std::io::Error| format!("cannot write {}: {e}", path.display());
    // A file staged and not put in place is removed when its `Staged` is dropped, on any return.
    let mut staged = Vec::new();
    for (path, bytes) in png.iter().chain(&gif) {
        staged.push(super::stage(path, bytes).map_err(|e| cannot(path, e))?);
    }
    // Both were written beside (or opened, for a device); what fails now is a write through
    // to a device, done first, or a rename, rare: a file already in place is said to be.
    super::commit_all(staged).map_err(|(path, e, done)| match &done[..] {
        [] => cannot(&path, e),
        [done, ..] => format!("{}, though {} was written", cannot(&path, e), done.display()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Debug, Parser)]
    struct Cli {
        #[command(flatten)]
        args: RenderArgs,
    }

    fn parse(argv: &[&str]) -> RenderArgs {
        Cli::try_parse_from(std::iter::once("render").chain(argv.iter().copied())).expect("arguments parse").args
    }

    fn temp(name: &str) -> PathBuf {
        std::env::temp_dir().join(format!("tafl-render-cli-{}-{name}", std::process::id()))
    }

    #[test]
    fn render_writes_a_png_and_a_gif_of_the_moves() {
        let (png, gif) = (temp("board.png"), temp("game.gif"));
        let args = parse(&[
            "--variant",
            "brandubh",
            "d1-b1 d3-c3",
            "b1-b2",
            "-o",
            png.to_str().unwrap(),
            "--gif",
            gif.to_str().unwrap(),
        ]);
        run(&args).expect("renders");
        assert!(std::fs::read(&png).unwrap().starts_with(b"\x89PNG"));
        assert!(std::fs::read(&gif).unwrap().starts_with(b"GIF89a"));
        let _ = (std::fs::remove_file(png), std::fs::remove_file(gif));
    }

    /// A blank name is no name: `--attackers-name ""` drew an empty header over the board,
    /// where the help promises that an unnamed side is called Attackers.
    #[test]
    fn a_blank_name_draws_as_an_unnamed_side() {
        let draw = |names: &[&str], name: &str| {
            let path = temp(name);
            let argv = [&["--variant", "brandubh", "d2-b2", "-o", path.to_str().unwrap()][..], names].concat();
            run(&parse(&argv)).expect("renders");
            let png = std::fs::read(&path).expect("the board");
            let _ = std::fs::remove_file(&path);
            png
        };
        assert_eq!(draw(&["--attackers-name", ""], "blank.png"), draw(&[], "unnamed.png"));
        assert_eq!(
            draw(&["--attackers-name", "  ", "--defenders-name", "Bob"], "blank-and-bob.png"),
            draw(&["--defenders-name", "Bob"], "bob.png")
        );
        assert_eq!(
            draw(&["--defenders-name", " Bob "], "spaced-bob.png"),
            draw(&["--defenders-name", "Bob"], "bob2.png")
        );
        assert_ne!(draw(&["--defenders-name", "Bob"], "bob3.png"), draw(&[], "unnamed2.png"), "a name draws a header");
        // Names of only invisible characters draw nothing either: the Hangul filler, the
        // Braille blank, a zero-width space.
        for (blank, file) in [("\u{3164}", "filler.png"), ("\u{2800}", "braille.png"), ("\u{200B}\u{200D}", "zw.png")] {
            assert_eq!(
                draw(&["--attackers-name", blank, "--defenders-name", "Bob"], file),
                draw(&["--defenders-name", "Bob"], "bob4.png"),
                "{blank:?}"
            );
        }
    }

    #[test]
    fn render_refuses_bad_input_with_one_sentence() {
        let out = temp("never.png");
        let out = out.to_str().unwrap();
        let cases: [(&[&str], &str); 6] = [
            (&["--variant", "chess", "-o", out], "not a variant"),
            (&["--variant", "brandubh", "a1-a9", "-o", out], "ply 1"),
            (&["--variant", "brandubh"], "nothing to write"),
            (&["--variant", "copenhagen", "--position", "/11/11/11/11/11/11/11/11/11/11/11/", "-o", out], "empty"),
            (&["--variant", "brandubh", "--to-move", "nobody", "-o", out], "--to-move"),
            (&["--variant", "brandubh", "--theme", "neon", "-o", out], "--theme"),
        ];
        for (argv, expected) in cases {
            let err = run(&parse(argv)).expect_err("refused");
            assert!(err.contains(expected), "{argv:?}: {err}");
            assert!(!err.contains('\n'), "{err}");
        }
        assert!(!std::path::Path::new(out).exists());
    }
}
