//! `tafl-bot replay`: plays moves from the arguments (or stdin) through the engine and reports
//! every ply, so that records from other tools can be checked and positions reached from a
//! script. The JSON lines are an interface other tools parse; their keys and order are fixed by
//! ARCHITECTURE.md.

use std::io::{BufRead, Write};

use serde::Serialize;
use tafl_rules::otn::GameRecord;
use tafl_rules::{Game, MoveText, PlayedMove, Position, Reason, Repetition, Status};

use super::{CliError, StartArgs, shorten};
use crate::host::{EndReason, RecordFault};
use crate::limits::{self, MAX_INPUT_BYTES, MAX_PLIES};
use crate::printable::printable;

#[derive(Debug, clap::Args)]
pub struct ReplayArgs {
    #[command(flatten)]
    pub start: StartArgs,
    /// Ignore the repetition rule (historic records often contain unadjudicated repetitions).
    #[arg(long)]
    pub no_repetition: bool,
    /// One JSON object per line: each ply, then a final summary.
    #[arg(long)]
    pub json: bool,
    /// Moves such as h1-h3 or g3-e3xe2, one per argument; read whitespace-separated from stdin
    /// when none are given. A `timeout` token ends the input.
    #[arg(value_name = "MOVES")]
    pub moves: Vec<String>,
    /// An OTN game record (as `tafl-bot local /export` and the bot's `/tafl export` write it):
    /// its rules, start and moves replace `--variant`, `--position` and the moves; `-` reads it
    /// from stdin.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["variant", "options", "position", "to_move", "moves"])]
    pub record: Option<std::path::PathBuf>,
}

/// A ply that was played.
#[derive(Debug, Serialize)]
pub struct PlyLine {
    pub ply: usize,
    /// Canonical `from-to`, without captures.
    #[serde(rename = "move")]
    pub mv: String,
    /// Sorted canonical squares.
    pub captures: Vec<String>,
    pub status: &'static str,
    pub reason: Option<&'static str>,
}

/// A ply that could not be played; it is the last line of the output.
#[derive(Debug, Serialize)]
pub struct ErrorLine {
    pub ply: usize,
    /// Canonical `from-to` when the text is a move, else (a prefix of) the text as given.
    #[serde(rename = "move")]
    pub mv: String,
    pub error: String,
}

/// Where the moves left the game.
#[derive(Debug, Serialize)]
pub struct FinalLine {
    #[serde(rename = "final")]
    pub is_final: bool,
    pub status: &'static str,
    pub reason: Option<&'static str>,
    pub to_move: &'static str,
    /// Moves the side to move may play: zero once the game is over, since no move is accepted.
    pub legal_moves: usize,
    /// OTN position record.
    pub position: String,
}

/// The token that ends a recorded game on time (`copenhagen.csv` uses it).
const TIMEOUT: &str = "timeout";

/// Replays `args.moves`, or the whitespace-separated tokens of `input` when there are none.
pub fn run(args: &ReplayArgs, input: &mut dyn BufRead, out: &mut dyn Write) -> Result<(), CliError> {
    if let Some(path) = &args.record {
        return replay_record(args, path, input, out);
    }
    let mut game = Game::new(start_position(args)?);
    let mut report = Report { json: args.json, out };
    if args.moves.is_empty() {
        // All of stdin together is bounded, so that `replay < /dev/zero` (one endless line)
        // stops at the limit instead of filling memory.
        let mut input = std::io::Read::take(input, MAX_INPUT_BYTES as u64 + 1);
        let mut line = Vec::new();
        loop {
            line.clear();
            let read = input
                .read_until(b'\n', &mut line)
                .map_err(|source| CliError::Io { context: "cannot read the moves from stdin".into(), source })?;
            if read == 0 {
                break;
            }
            if input.limit() == 0 {
                let message = "the moves on stdin are longer than 1 MB, the most replay reads; a game fits in far less";
                // With --json the last line says why, as for a ply that cannot be played.
                report.error(game.ply() + 1, "", message)?;
                return Err(CliError::Input(message.to_owned()));
            }
            // Bytes that are not UTF-8 become U+FFFD and then fail as a malformed move. A file
            // saved with a byte-order mark starts with it, invisible: it is no part of a move.
            let text = String::from_utf8_lossy(&line);
            let text = text.trim_start_matches(crate::limits::BOM);
            if play_tokens(&mut game, text.split_whitespace(), &mut report)? {
                break;
            }
        }
    } else {
        play_tokens(&mut game, args.moves.iter().map(String::as_str), &mut report)?;
    }
    report.finish(&game)
}

/// Replays an OTN game record ply by ply, under its own rules and start.
fn replay_record(
    args: &ReplayArgs,
    path: &std::path::Path,
    input: &mut dyn BufRead,
    out: &mut dyn Write,
) -> Result<(), CliError> {
    // `-` is stdin, and named so: "- is not a game record" read as a typo.
    let stdin = path.as_os_str() == "-";
    let shown = printable(&path.display().to_string()).into_owned();
    let (record_name, input_name) = if stdin {
        ("the record on stdin".to_owned(), "the input on stdin".to_owned())
    } else {
        (format!("the record {shown}"), shown)
    };
    let text = if stdin { limits::read_text(input) } else { limits::read_file(path) }
        .map_err(|e| CliError::Input(format!("cannot read {record_name}: {e}")))?;
    let record = GameRecord::parse(&text).map_err(|e| {
        CliError::Input(format!("{input_name} is not a game record this bot can read: {}", printable(&e.to_string())))
    })?;
    if record.moves.len() > MAX_PLIES {
        return Err(CliError::Input(format!(
            "{record_name} has {} plies; replay reads games of at most 10,000 plies",
            record.moves.len()
        )));
    }
    let mut rules = record.rules.clone();
    if args.no_repetition {
        rules.repetition = Repetition::Ignore;
    }
    let start =
        Position::new(rules).map_err(|e| CliError::Input(format!("the record's rules cannot be played: {e}")))?;
    let start = match &record.start {
        Some((setup, side)) => start.with_setup(setup, *side).map_err(|e| CliError::Input(e.to_string()))?,
        None => start,
    };
    // How the record says the game ended, read as `/import` reads it, checked before any ply is
    // reported, as the record's other faults are: a result tag that names another winner than
    // the moves, a termination on the board that the moves do not reach, an end marker after
    // the game ended on the board. A record whose moves cannot all be played has no ending to
    // read; the replay below reports its bad ply.
    let mut played = record.clone();
    played.rules.repetition = start.rules().repetition;
    if args.no_repetition {
        // Repetition is not judged here, so a game the record says ended by it cannot reach
        // that ending; its result tag still says how it ended.
        played.tags.retain(|(key, value)| !(key == "termination" && value.trim() == Reason::Repetition.name()));
    }
    let ending = match played.replay() {
        Ok(game) => crate::host::recorded_ending(&game, &played).map_err(|fault| {
            let record = &record_name;
            CliError::Input(match fault {
                RecordFault::ContradictoryTermination => format!(
                    "{record} has a termination tag that names an ending on the board its moves do not reach; correct \
                     the tag or leave it out"
                ),
                RecordFault::EndAfterFinish => format!(
                    "{record} says the side to move resigned or ran out of time after its moves ended the game on the \
                     board; remove the --- or timeout after the last move"
                ),
                _ => format!(
                    "{record} has a result tag that names another winner than its moves do; correct the tag or leave \
                     it out"
                ),
            })
        })?,
        Err(_) => None,
    };
    // The ending of a game that ended on the board is the board's own, which the replay reports.
    let ending = ending.filter(|ending| !matches!(ending.reason, EndReason::Board(_)));
    // The reason only as the record gives it: `/import` must store one, and takes a result tag
    // without a `termination` it can use as a resignation (or an agreement), which the record
    // does not say ("unfinished after 400 plies, scored a draw", as `match` writes).
    let ended = ending.map(|ending| {
        let said = record.end.is_some()
            || record.tag("termination").map(str::trim).and_then(EndReason::parse) == Some(ending.reason);
        (ending.status_name(), said.then(|| ending.reason.name()))
    });
    let mut game = Game::new(start);
    let moves: Vec<String> = record.moves.iter().map(ToString::to_string).collect();
    let mut report = Report { json: args.json, out };
    play_tokens(&mut game, moves.iter().map(String::as_str), &mut report)?;
    report.finish_as(&game, ended)
}

/// The preset's start, or `--position` with `--to-move`, under the chosen rules.
pub fn start_position(args: &ReplayArgs) -> Result<Position, CliError> {
    let mut rules = args.start.rules()?;
    if args.no_repetition {
        rules.repetition = Repetition::Ignore;
    }
    args.start.position(rules)
}

/// Plays tokens until they run out or one is `timeout`; returns whether `timeout` was seen.
fn play_tokens<'a>(
    game: &mut Game,
    tokens: impl Iterator<Item = &'a str>,
    report: &mut Report<'_>,
) -> Result<bool, CliError> {
    for token in tokens {
        if token.trim().eq_ignore_ascii_case(TIMEOUT) {
            return Ok(true);
        }
        let ply = game.ply() + 1;
        if ply > MAX_PLIES {
            let message = limits::too_many_plies("replay");
            report.error(ply, &shorten(token.trim(), 24), &message)?;
            return Err(CliError::Input(message));
        }
        let played = match token.parse::<MoveText>() {
            Err(e) => Err((shorten(token.trim(), 24), e.to_string())),
            Ok(text) => game.play_text(&text).cloned().map_err(|e| (text.mv.to_string(), e.to_string())),
        };
        match played {
            Ok(played) => report.ply(ply, &played)?,
            Err((mv, message)) => {
                report.error(ply, &mv, &message)?;
                return Err(CliError::BadPly { ply, mv, message });
            }
        }
    }
    Ok(false)
}

/// Writes the replay as text for people or as JSON lines for tools.
struct Report<'a> {
    json: bool,
    out: &'a mut dyn Write,
}

impl Report<'_> {
    fn ply(&mut self, ply: usize, played: &PlayedMove) -> Result<(), CliError> {
        if self.json {
            return self.json_line(&PlyLine {
                ply,
                mv: played.mv.to_string(),
                captures: played.captures.iter().map(ToString::to_string).collect(),
                status: played.status.name(),
                reason: played.status.reason().map(Reason::name),
            });
        }
        writeln!(self.out, "{ply:>4}. {:<16} {}", played.text().to_string(), describe(played.status))
            .map_err(CliError::write)
    }

    fn error(&mut self, ply: usize, mv: &str, message: &str) -> Result<(), CliError> {
        if self.json {
            return self.json_line(&ErrorLine { ply, mv: mv.to_owned(), error: message.to_owned() });
        }
        // Text mode: the reason goes to stderr with the exit status (see `CliError::BadPly`).
        Ok(())
    }

    fn finish(&mut self, game: &Game) -> Result<(), CliError> {
        self.finish_as(game, None)
    }

    /// The final line; `ended` is the status and reason with which a record says its game ended
    /// off the board (a resignation, a time-out, a result tag), replacing the board's "ongoing".
    fn finish_as(&mut self, game: &Game, ended: Option<(&'static str, Option<&'static str>)>) -> Result<(), CliError> {
        let position = game.position();
        let status = game.status();
        let (name, reason) = ended.unwrap_or((status.name(), status.reason().map(Reason::name)));
        let over = ended.is_some() || !status.is_ongoing();
        let legal_moves = if over { 0 } else { position.count_legal_moves() };
        if self.json {
            return self.json_line(&FinalLine {
                is_final: true,
                status: name,
                reason,
                to_move: position.to_move().name(),
                legal_moves,
                position: position.setup().to_string(),
            });
        }
        writeln!(
            self.out,
            "{} after {}; {} to move, {}\n{}\n{position}",
            describe_as(name, reason),
            super::count(game.ply(), "ply", "plies"),
            position.to_move(),
            super::count(legal_moves, "legal move", "legal moves"),
            position.setup(),
        )
        .map_err(CliError::write)
    }

    fn json_line(&mut self, line: &impl Serialize) -> Result<(), CliError> {
        serde_json::to_writer(&mut *self.out, line).map_err(|e| CliError::write(e.into()))?;
        writeln!(self.out).map_err(CliError::write)
    }
}

/// `ongoing`, or `defenders_win (king_escaped)`.
fn describe(status: Status) -> String {
    describe_as(status.name(), status.reason().map(Reason::name))
}

/// A status and its reason as [`describe`] writes them: `attackers_win (resignation)`.
fn describe_as(status: &str, reason: Option<&str>) -> String {
    match reason {
        None => status.to_owned(),
        Some(reason) => format!("{status} ({reason})"),
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    fn args(json: bool, position: Option<String>, moves: Vec<String>) -> ReplayArgs {
        ReplayArgs {
            start: StartArgs {
                variant: Some("copenhagen".to_owned()),
                options: Vec::new(),
                position,
                to_move: "attackers".to_owned(),
            },
            no_repetition: false,
            json,
            moves,
            record: None,
        }
    }

    /// Runs a replay in memory; returns the output lines and whether it succeeded.
    fn replay(args: &ReplayArgs, stdin: &[u8]) -> (Vec<String>, bool) {
        let mut out = Vec::new();
        let ok = run(args, &mut &stdin[..], &mut out).is_ok();
        (String::from_utf8(out).expect("output is UTF-8").lines().map(str::to_owned).collect(), ok)
    }

    /// Every line is a JSON object; all but the last are plies; the last is the final line on
    /// success and an error line on failure.
    fn assert_well_formed(lines: &[String], ok: bool) {
        let (last, plies) = lines.split_last().expect("at least one line");
        for (n, line) in plies.iter().enumerate() {
            let value: serde_json::Value = serde_json::from_str(line).expect("a JSON line");
            assert_eq!(value["ply"], n + 1, "{line}");
            assert!(value["status"].is_string(), "{line}");
        }
        let last: serde_json::Value = serde_json::from_str(last).expect("a JSON line");
        assert!(last.get(if ok { "final" } else { "error" }).is_some(), "{last}");
    }

    #[test]
    fn timeout_stops_reading_the_rest_of_stdin() {
        let (lines, ok) = replay(&args(true, None, Vec::new()), b"h1-h3\ntimeout\nnot-even-a-move");
        assert!(ok);
        assert_eq!(lines.len(), 2);
    }

    proptest! {
        #[test]
        fn arbitrary_stdin_never_panics_and_always_ends_with_a_final_or_error_line(
            stdin in proptest::collection::vec(any::<u8>(), 0..200),
        ) {
            let (lines, ok) = replay(&args(true, None, Vec::new()), &stdin);
            assert_well_formed(&lines, ok);
        }

        #[test]
        fn move_like_tokens_never_panic(moves in proptest::collection::vec("[a-mA-M][0-9]{1,2}[- ]?[a-m][0-9]{1,2}(x[a-m][0-9]{1,2})?", 1..12)) {
            let (lines, ok) = replay(&args(true, None, moves), b"");
            assert_well_formed(&lines, ok);
        }

        #[test]
        fn arbitrary_positions_are_refused_or_replayed_never_panic(position in "/([tTK1-9]{1,12}/){1,14}") {
            let args = args(true, Some(position), vec!["f6-f7".to_owned()]);
            if start_position(&args).is_ok() {
                let (lines, ok) = replay(&args, b"");
                assert_well_formed(&lines, ok);
            }
        }
    }
}
