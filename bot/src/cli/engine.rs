//! `tafl-bot engine`: the `OpenTafl` Engine Protocol (OTEP) on stdin and stdout, so that `OpenTafl`
//! (and the computer tournaments built on it) can use this engine.
//!
//! Implemented from `OpenTafl`'s `opentafl-engine-protocol.txt`: the engine says `hello`, takes
//! `rules`, `position`, `side`, `clock`, `start`, `play`, `opponent-move`, `analyze` and `finish`,
//! and answers `move`, `analysis` and `error 0` (rules it cannot play). Moves travel in simple
//! notation (`a4-a1`); captures written after them are accepted. Unknown commands are ignored,
//! as the protocol's commands are unacknowledged.

use std::io::{BufRead, Write};

use tafl_rules::engine::{Level, Limits, Searcher};
use tafl_rules::{Game, MoveText, Position, Setup, Side, otn};

use super::CliError;

#[derive(Debug, clap::Args)]
pub struct EngineArgs {
    /// The most milliseconds one move may take, whatever the clock allows.
    #[arg(long, value_name = "N", default_value_t = Level::new(Level::MAX).expect("level 5").budget().millis)]
    pub max_millis: u64,
}

/// The longest line read: a 19x19 position record is well under 1 KB.
const MAX_LINE: u64 = 16 * 1024;

/// The engine's view of the game `OpenTafl` runs.
struct Session {
    game: Option<Game>,
    side: Side,
    /// Our remaining main time and overtime period, in seconds, from the last `clock`.
    clock: Option<(f64, f64)>,
    searcher: Searcher,
    max_millis: u64,
}

pub fn run(args: &EngineArgs, input: &mut dyn BufRead, out: &mut dyn Write) -> Result<(), CliError> {
    let mut session = Session {
        game: None,
        side: Side::Attackers,
        clock: None,
        searcher: Searcher::new(),
        max_millis: args.max_millis,
    };
    say(out, "hello")?;
    let mut line = Vec::new();
    loop {
        line.clear();
        let read = std::io::Read::take(&mut *input, MAX_LINE)
            .read_until(b'\n', &mut line)
            .map_err(|source| CliError::Io { context: "cannot read from OpenTafl".into(), source })?;
        if read == 0 {
            return Ok(());
        }
        let text = String::from_utf8_lossy(&line);
        if !session.command(text.trim(), out)? {
            return Ok(());
        }
    }
}

fn say(out: &mut dyn Write, text: &str) -> Result<(), CliError> {
    writeln!(out, "{text}").and_then(|()| out.flush()).map_err(CliError::write)
}

impl Session {
    /// Handles one command; false once the game is finished.
    fn command(&mut self, line: &str, out: &mut dyn Write) -> Result<bool, CliError> {
        let (name, rest) = line.split_once(' ').unwrap_or((line, ""));
        let rest = rest.trim();
        match name {
            "rules" => {
                self.game = otn::parse_rules(rest).ok().and_then(|rules| Position::new(rules).ok()).map(Game::new);
                if self.game.is_none() {
                    say(out, "error 0")?;
                }
            }
            "side" => {
                if let Some(side) = Side::from_name(rest) {
                    self.side = side;
                }
            }
            "position" => self.resync(rest, self.side),
            "clock" => {
                let fields: Vec<f64> = rest.split_whitespace().filter_map(|f| f.parse().ok()).collect();
                let ours = if self.side == Side::Attackers { fields.first() } else { fields.get(1) };
                self.clock = ours.map(|&main| (main, fields.get(2).copied().unwrap_or(0.0)));
            }
            "opponent-move" => {
                let mut parts = rest.split_whitespace();
                let played = parts.next().and_then(|m| m.parse::<MoveText>().ok()).and_then(|text| {
                    let game = self.game.as_mut()?;
                    // Captures are checked when given; a list we read differently falls back to
                    // the move alone.
                    if game.play_text(&text).is_ok() || game.play(text.mv).is_ok() { Some(()) } else { None }
                });
                // Out of step with `OpenTafl` (or a capture list we read differently): take its
                // board as the truth, with us to move.
                if played.is_none()
                    && let Some(position) = parts.next()
                {
                    self.resync(position, self.side);
                }
            }
            "play" => {
                if let Some(side) = Side::from_name(rest) {
                    self.side = side;
                }
                let millis = self.move_millis();
                match self.game.as_ref().and_then(|game| self.searcher.analyse(game, &Limits::millis(millis))) {
                    Some(analysis) => {
                        if let Some(game) = self.game.as_mut() {
                            // Keep our own game in step; `OpenTafl` does not echo our move back.
                            let _ = game.play(analysis.best);
                        }
                        say(out, &format!("move {}", analysis.best))?;
                    }
                    None => say(out, "error 0")?,
                }
            }
            "analyze" => {
                let mut fields = rest.split_whitespace();
                let _count = fields.next();
                let seconds: f64 = fields.next().and_then(|s| s.parse().ok()).unwrap_or(1.0);
                let millis = ((seconds * 1000.0) as u64).clamp(10, self.max_millis);
                if let Some(analysis) =
                    self.game.as_ref().and_then(|game| self.searcher.analyse(game, &Limits::millis(millis)))
                {
                    let line: Vec<String> = analysis.pv.iter().map(ToString::to_string).collect();
                    say(out, &format!("analysis 1 {} {}", line.join("|"), analysis.score))?;
                }
            }
            "finish" | "goodbye" => return Ok(false),
            // `hello`, `start`, `simple-moves` and anything newer need no answer.
            _ => {}
        }
        Ok(true)
    }

    /// Replaces our game by `OpenTafl`'s board, keeping the rules.
    fn resync(&mut self, record: &str, to_move: Side) {
        let Some(game) = &self.game else { return };
        if let Ok(setup) = record.parse::<Setup>()
            && let Ok(position) = game.start().with_setup(&setup, to_move)
        {
            self.game = Some(Game::new(position));
        }
    }

    /// This move's time: a thirtieth of the main time left plus most of an overtime period,
    /// never more than `max_millis`; `max_millis` without a clock.
    fn move_millis(&self) -> u64 {
        let Some((main, overtime)) = self.clock else { return self.max_millis };
        // The protocol's -1: this game has no main time (and no clock at all unless overtime).
        if main < 0.0 && overtime <= 0.0 {
            return self.max_millis;
        }
        let seconds = if main > 0.0 { main / 30.0 + overtime * 0.8 } else { overtime * 0.8 };
        ((seconds * 1000.0) as u64).clamp(50, self.max_millis)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn session(input: &str) -> String {
        let mut out = Vec::new();
        run(&EngineArgs { max_millis: 200 }, &mut input.as_bytes(), &mut out).expect("in-memory streams");
        String::from_utf8(out).expect("ASCII")
    }

    #[test]
    fn the_engine_greets_plays_a_legal_move_and_follows_the_opponent() {
        let rules = otn::rules_string(&tafl_rules::Variant::Brandubh.rules());
        let output = session(&format!("rules {rules}\nside attackers\nstart\nplay attackers\n"));
        let lines: Vec<&str> = output.lines().collect();
        assert_eq!(lines[0], "hello");
        let mv = lines[1].strip_prefix("move ").expect("a move");
        let mut game = Game::new(Position::new(tafl_rules::Variant::Brandubh.rules()).expect("a preset"));
        game.play(mv.parse::<MoveText>().expect("simple notation").mv).expect("a legal move");

        // As defenders after the opponent's opening move: the reply is legal after it.
        let output = session(&format!(
            "rules {rules}\nside defenders\nstart\nopponent-move d2-b2 /3t3/3t3/3T3/ttTKTtt/3T3/1t5/3t3/\nplay defenders\n"
        ));
        let reply = output.lines().nth(1).and_then(|l| l.strip_prefix("move ")).expect("a move");
        let mut game = Game::new(Position::new(tafl_rules::Variant::Brandubh.rules()).expect("a preset"));
        game.play("d2-b2".parse::<MoveText>().expect("a move").mv).expect("legal");
        game.play(reply.parse::<MoveText>().expect("simple notation").mv).expect("the engine's reply is legal");
    }

    #[test]
    fn the_time_for_a_move_follows_the_clock_and_an_untimed_game_gets_the_full_budget() {
        let mut session = Session {
            game: None,
            side: Side::Defenders,
            clock: None,
            searcher: Searcher::with_table_bits(10),
            max_millis: 4_500,
        };
        let mut after = |clock: &str| {
            session.command(clock, &mut Vec::new()).expect("in memory");
            session.move_millis()
        };
        // OpenTafl says -1 for the main time of a game without a clock.
        assert_eq!(after("clock -1 -1 0 0 0"), 4_500);
        // The defenders' 60 seconds: two seconds a move.
        assert_eq!(after("clock 300 60 0 0 0"), 2_000);
        // Main time spent, overtime periods of 5 seconds: most of one.
        assert_eq!(after("clock 300 0 5 3 3"), 4_000);
        assert_eq!(after("clock 300 3 5 3 3"), 4_100);
        assert_eq!(after("clock 9000 9000 0 0 0"), 4_500, "never more than the budget");
    }

    #[test]
    fn rules_it_cannot_read_are_answered_with_error_0() {
        let output = session("rules nonsense\nplay attackers\nfinish 1\n");
        assert_eq!(output.lines().collect::<Vec<_>>(), ["hello", "error 0", "error 0"]);
    }
}
