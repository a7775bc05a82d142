//! `tafl-bot engine`: the `OpenTafl` Engine Protocol (OTEP) on stdin and stdout, so that `OpenTafl`
//! (and the computer tournaments built on it) can use this engine.
//!
//! Implemented from `OpenTafl`'s current `opentafl-engine-protocol.txt` and checked against its
//! host (`ExternalEngineHost.java`, `GameState.java`): the engine says `hello`, takes `rules`,
//! `position`, `side`, `clock`, `start`, `play`, `opponent-move`, `analyze`, `move` (our move
//! taken), `error` (our move refused), `finish` (a game over) and `goodbye` (the end), and
//! answers `move`, `analysis` and `error -1 REASON` (a critical error: rules or a board it cannot
//! play, no move to play), which ends the game in `OpenTafl` instead of leaving it waiting; an
//! `analyze` with nothing to analyse is answered `error 0 REASON`, which `OpenTafl` shows without
//! resigning (`ExternalEngineHost.handleErrorCommand` ignores other codes). Moves travel
//! in simple notation (`a4-a1`); captures written after them are accepted. Unknown commands are
//! ignored, as the protocol's commands are unacknowledged. A line longer than 16 KB is its
//! command without an argument (the rest of the line is skipped).
//!
//! What the host does beyond the document: a refused move is answered with `error N`, then the
//! game's moves and board again and another `play`, so the refused move is taken back here and
//! not offered again in that position; `position` comes before the `side` to move, and `clock`
//! before the `play` that names our side, so `play` and `analyze` search for the side they are
//! about, with that side's time; a third repetition is judged after the turn has passed
//! ([`as_opentafl_plays`]); after a refusal, `opponent-move` carries every move since the last
//! one of ours it took, joined by `|` ([`Session::follow`]); and `rules` comes before the engine
//! player can resign, so rules it cannot play are refused at the next `play`
//! ([`Session::unplayable`]).

use std::io::{BufRead, Write};

use tafl_rules::engine::{Level, Limits, Searcher};
use tafl_rules::{Game, Move, MoveText, Position, Setup, SetupError, Side, otn};

use super::CliError;
use crate::limits::MAX_PLIES;

#[derive(Debug, clap::Args)]
pub struct EngineArgs {
    /// The most milliseconds one move may take, whatever the clock allows (50 to a day).
    // Read as `ai`'s numbers are (see `AiArgs::level`): one sentence naming the range.
    #[arg(
        long,
        value_name = "N",
        default_value_t = Level::new(Level::MAX).expect("level 5").budget().millis,
        allow_negative_numbers = true,
        value_parser = super::number_from(50, super::ai::MAX_MILLIS)
    )]
    pub max_millis: u64,
}

/// Why there is no game to play or analyse when no `rules` came at all.
const NO_RULES: &str = "no rules this engine can play were given";

/// The longest line read: a 19x19 position record is well under 1 KB.
const MAX_LINE: u64 = 16 * 1024;

/// The engine's view of the game `OpenTafl` runs.
struct Session {
    game: Option<Game>,
    side: Side,
    /// The last `clock`, read for our side when we move: `OpenTafl` may send it before the
    /// `play` that names the side we play.
    clock: Option<String>,
    searcher: Searcher,
    max_millis: u64,
    /// The longest game followed move by move ([`MAX_PLIES`]; see [`Session::follow`]).
    max_plies: usize,
    /// Our last move and the game before it, until `OpenTafl` takes it (an opponent's move or a
    /// new board) or refuses it (`error`).
    ours: Option<(Game, Move)>,
    /// Moves `OpenTafl` refused, and the position where it did.
    refused: Option<(Position, Vec<Move>)>,
    /// Why the last `rules` cannot be played, said at the next `play` or `analyze`, not at once:
    /// `OpenTafl` sends `rules` when it sets its engine player up, before it gives that player
    /// the callback through which an `error -1` resigns (`ExternalEnginePlayer.resign` calls it
    /// without a null check), so a refusal answered at once could throw in its reading thread
    /// rather than end the game. By `play` the game has started and the refusal ends it.
    unplayable: Option<String>,
    /// Why the last board `OpenTafl` sent cannot be played here (a king on a corner, no king, a
    /// man on the throne, no attackers, a record that cannot be read): our game is then no
    /// longer its game, so `play` and `analyze` answer with this reason instead of searching the
    /// board before it. The next board taken, or new rules, clears it.
    board_refused: Option<String>,
}

/// Our time from a `clock` command: `clock ATTACKERS DEFENDERS OVERTIME-SECONDS
/// ATTACKER-OVERTIMES DEFENDER-OVERTIMES`, as `OpenTafl`'s `ExternalEngineHost.clockUpdate`
/// writes it from its `GameClock`: each side's main time left in milliseconds, or with `*` the
/// time left of its current overtime period; the length of one period in whole seconds; and each
/// side's periods left, the current one included.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Clock {
    /// Milliseconds of main time left, or of the current overtime period when `in_overtime`;
    /// negative when the game has no main time (the document's -1).
    left_ms: f64,
    in_overtime: bool,
    /// The length of one overtime period.
    period_ms: f64,
    /// Overtime periods left.
    periods: u32,
}

impl Clock {
    fn parse(text: &str, side: Side) -> Option<Clock> {
        let fields: Vec<&str> = text.split_whitespace().collect();
        let (ours, periods) = if side == Side::Attackers { (0, 3) } else { (1, 4) };
        let raw = *fields.get(ours)?;
        let (number, in_overtime) = raw.strip_suffix('*').map_or((raw, false), |n| (n, true));
        let left_ms = number.parse::<f64>().ok().filter(|v| v.is_finite())?;
        let period_seconds = fields.get(2).and_then(|f| f.parse::<f64>().ok()).filter(|v| v.is_finite() && *v > 0.0);
        Some(Clock {
            left_ms,
            in_overtime,
            period_ms: period_seconds.map_or(0.0, |s| s * 1000.0),
            periods: fields.get(periods).and_then(|f| f.parse().ok()).unwrap_or(0),
        })
    }
}

pub fn run(args: &EngineArgs, input: &mut dyn BufRead, out: &mut dyn Write) -> Result<(), CliError> {
    let mut session = Session::new(Side::Attackers, Searcher::new(), args.max_millis);
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
        let text = text.trim();
        // A line cut at MAX_LINE: the rest of it, up to its newline, is dropped, or it would be
        // read as the next command (a tail `goodbye` would end the session). The line's argument
        // is not all here, so the command gets none: it answers as to an argument it cannot read
        // (`rules` with `error -1`).
        let command = if line.ends_with(b"\n") || read < MAX_LINE as usize {
            text
        } else {
            input
                .skip_until(b'\n')
                .map_err(|source| CliError::Io { context: "cannot read from OpenTafl".into(), source })?;
            text.split_once(char::is_whitespace).map_or(text, |(name, _)| name)
        };
        if !session.command(command, out)? {
            return Ok(());
        }
    }
}

fn say(out: &mut dyn Write, text: &str) -> Result<(), CliError> {
    writeln!(out, "{text}").and_then(|()| out.flush()).map_err(CliError::write)
}

/// A critical error (`error -1`): `OpenTafl` shows `why` and ends the game, which cannot go on
/// here.
fn refuse(out: &mut dyn Write, why: &str) -> Result<(), CliError> {
    say_error(out, -1, why)
}

/// `error CODE WHY`, on one line, as every command is.
fn say_error(out: &mut dyn Write, code: i32, why: &str) -> Result<(), CliError> {
    let why: String = why.chars().map(|c| if c.is_control() { ' ' } else { c }).collect();
    say(out, &format!("error {code} {why}"))
}

/// Why `game` has no move to search.
fn no_move(game: &Game) -> String {
    match game.status() {
        tafl_rules::Status::Finished(outcome) => match outcome.winner {
            Some(side) => format!("the game is over and the {} won", side.name()),
            None => "the game is over, drawn".to_owned(),
        },
        tafl_rules::Status::Ongoing => "every legal move was refused".to_owned(),
    }
}

/// Why `OpenTafl`'s board cannot be played, in one sentence. The last board of a finished game
/// (the king on a corner, or taken off the board, as `OpenTafl` takes him) is what it sends to
/// analyse a replay's end; that is said so, and refused like any board this engine cannot play.
fn board_refusal(setup: &Setup, error: &SetupError) -> String {
    match error {
        SetupError::KingEscaped { .. } => format!("the board {setup} is a finished game: {error}"),
        SetupError::KingCount { count: 0 } => format!("the board {setup} has no king, so its game is over"),
        _ => format!("the board {setup} cannot be played: {error}"),
    }
}

/// `rules` as `OpenTafl` plays them. Its host judges a third repetition after the turn has
/// passed (`GameState.checkVictory`, called once `updateGameState` has switched sides), so its
/// `tfr:w` ("wins") gives the game to the player who must answer the repetition, and `tfr:l` to
/// the player who made it: the reverse of the OTN list's wording, which `otn::parse_rules`
/// follows for records. The engine must judge as the host that ends the game.
fn as_opentafl_plays(mut rules: tafl_rules::Rules) -> tafl_rules::Rules {
    use tafl_rules::Repetition;
    rules.repetition = match rules.repetition {
        Repetition::MoverWins => Repetition::MoverLoses,
        Repetition::MoverLoses => Repetition::MoverWins,
        other => other,
    };
    rules
}

impl Session {
    /// A session before any command: no game, no clock.
    fn new(side: Side, searcher: Searcher, max_millis: u64) -> Session {
        Session {
            game: None,
            side,
            clock: None,
            searcher,
            max_millis,
            max_plies: MAX_PLIES,
            ours: None,
            refused: None,
            unplayable: None,
            board_refused: None,
        }
    }

    /// Handles one command; false once `OpenTafl` says `goodbye`.
    fn command(&mut self, line: &str, out: &mut dyn Write) -> Result<bool, CliError> {
        // Any whitespace, repeated or not, separates the command from its fields (which are read
        // the same way): a tab read as part of the name made `play\tattackers` an unknown
        // command, ignored, and left `OpenTafl` waiting for a move.
        let (name, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
        let rest = rest.trim();
        match name {
            "rules" => {
                // `atkf:n` (the defenders first, as OpenTafl's own Fetlar and Copenhagen strings
                // say) is played: the game starts with that side to move, and `play` names the
                // side anyway. `otn::parse_rules` refuses it for stored games and records, which
                // keep no side to move of their own.
                let game = otn::parse_rules_and_first_side(rest)
                    .map_err(|e| e.to_string())
                    .and_then(|(rules, first)| {
                        let start = rules.start.clone();
                        let position = Position::new(as_opentafl_plays(rules)).map_err(|e| e.to_string())?;
                        position.with_setup(&start, first).map_err(|e| e.to_string())
                    })
                    .map(Game::new);
                self.new_game();
                // Rules it cannot play are refused at the next `play` (see `unplayable`). New
                // rules start a new board, so a board refused under the last ones is forgotten.
                (self.game, self.unplayable, self.board_refused) = match game {
                    Ok(game) => (Some(game), None, None),
                    Err(why) => (None, Some(format!("these rules cannot be played: {why}")), None),
                };
            }
            "side" => {
                if let Some(side) = Side::from_name(rest) {
                    self.side = side;
                }
            }
            "position" => self.resync(rest, self.side),
            "clock" => self.clock = Some(rest.to_owned()),
            "opponent-move" => {
                let mut parts = rest.split_whitespace();
                let moves = parts.next().unwrap_or_default();
                self.ours = None;
                match parts.next().map(str::parse::<Setup>) {
                    Some(Ok(board)) => self.follow(moves, Some(&board)),
                    // The board is the truth, and we cannot read it: where the game is, is unknown.
                    Some(Err(e)) => self.board_refused = Some(e.to_string()),
                    None => self.follow(moves, None),
                }
            }
            "move" => {
                // `OpenTafl` took our move and sends the board after it: a later `error` is not
                // about this move. Its board wins when ours differs (and is refused when it
                // cannot be played); one that cannot be read is passed over, as our game has
                // played the move it confirms.
                self.ours = None;
                if let (Some(game), Ok(setup)) = (&self.game, rest.parse::<Setup>())
                    && game.position().setup() != setup
                {
                    let to_move = game.position().to_move();
                    self.set_board(&setup, to_move);
                }
            }
            "error" => {
                // Our last move was refused. `OpenTafl` sends the board again and asks anew;
                // the same search would offer the same move.
                if let Some((before, mv)) = self.ours.take() {
                    match &mut self.refused {
                        Some((at, moves)) if at == before.position() => moves.push(mv),
                        _ => self.refused = Some((before.position().clone(), vec![mv])),
                    }
                    self.game = Some(before);
                }
            }
            "play" => {
                if let Some(side) = Side::from_name(rest) {
                    self.side = side;
                }
                // Critical, as below: a move searched on the board before it would be a move
                // from another game.
                if self.game.is_some()
                    && let Some(why) = &self.board_refused
                {
                    return refuse(out, why).map(|()| true);
                }
                self.set_to_move(self.side);
                let millis = self.move_millis();
                let refused = match (&self.refused, &self.game) {
                    (Some((at, moves)), Some(game)) if at == game.position() => moves.as_slice(),
                    _ => &[],
                };
                let analysis = self
                    .game
                    .as_ref()
                    .and_then(|game| self.searcher.analyse_excluding(game, &Limits::millis(millis), refused));
                match (analysis, self.game.as_mut()) {
                    (Some(analysis), Some(game)) => {
                        // Keep our own game in step; `OpenTafl` does not echo our move back.
                        let before = game.clone();
                        if game.play(analysis.best).is_ok() {
                            self.ours = Some((before, analysis.best));
                        }
                        say(out, &format!("move {}", analysis.best))?;
                    }
                    (None, Some(game)) => {
                        refuse(out, &format!("no move to play for the {}: {}", self.side.name(), no_move(game)))?;
                    }
                    // Critical: `OpenTafl` ends the game. A non-critical error would leave it
                    // waiting for a move that never comes.
                    (_, None) => refuse(out, self.unplayable.as_deref().unwrap_or(NO_RULES))?,
                }
            }
            "analyze" => {
                // `OpenTafl` sends the board, then the side to move, then this.
                self.set_to_move(self.side);
                let mut fields = rest.split_whitespace();
                let _count = fields.next();
                let seconds: f64 = fields.next().and_then(|s| s.parse().ok()).unwrap_or(1.0);
                let millis = ((seconds * 1000.0) as u64).clamp(10, self.max_millis);
                let Some(game) = &self.game else {
                    // Non-critical: analysis is beside the game.
                    return say_error(out, 0, self.unplayable.as_deref().unwrap_or(NO_RULES)).map(|()| true);
                };
                // Non-critical too: `OpenTafl` shows an `error 0` and goes on, where `error -1`
                // would resign the game (or, for its analysis engine, which has no game to
                // resign, throw in its reading thread).
                if let Some(why) = &self.board_refused {
                    return say_error(out, 0, why).map(|()| true);
                }
                match self.searcher.analyse(game, &Limits::millis(millis)) {
                    Some(analysis) => {
                        let line: Vec<String> = analysis.pv.iter().map(ToString::to_string).collect();
                        // `OpenTafl`'s evaluations count for the attackers (its own client sends
                        // them so); the search's score is the side to move's.
                        let score =
                            if self.side == Side::Attackers { analysis.score } else { analysis.score.saturating_neg() };
                        say(out, &format!("analysis 1 {} {score}", line.join("|")))?;
                    }
                    None => say(out, &format!("error 0 nothing to analyse: {}", no_move(game)))?,
                }
            }
            // The game is over; the engine stays, as `OpenTafl` may start another game with it
            // (its "play here" from a replay) or keep it for analysis. Only `goodbye` ends it.
            "finish" => self.new_game(),
            "goodbye" => return Ok(false),
            // `hello`, `start`, `simple-moves` and anything newer need no answer.
            _ => {}
        }
        Ok(true)
    }

    /// Forgets what belonged to the last game: our move in flight, the moves refused, and the
    /// clock (`OpenTafl` sends none in an untimed game, so the last game's would stay).
    fn new_game(&mut self) {
        (self.ours, self.refused, self.clock) = (None, None, None);
    }

    /// Follows `opponent-move MOVES BOARD`. MOVES is the opponent's move, or, once `OpenTafl`
    /// has refused a move of ours, every move of the game since the last one of ours it took,
    /// joined by `|` (`ExternalEngineHost.notifyMovesMade`; `OpenTafl`'s own client plays each in
    /// turn). They are played in turn, so that the game keeps its history: rebuilt from the board,
    /// it forgets the positions it has seen, and with them a repetition coming.
    ///
    /// The board after them is the truth (the document: "always the state of the board at the end
    /// of the move list"), with us to move. When the moves do not lead to it, because they are
    /// ones we have played already (after a refusal our game is back before our move), the board
    /// being ours keeps our game; otherwise we are out of step, read a capture list differently,
    /// or judged a capture otherwise, and the game is rebuilt from the board.
    ///
    /// A game of [`MAX_PLIES`] goes on from its position alone, as a rebuilt one does: the game
    /// is cloned at every move, and an opponent that never stops would grow it without end.
    ///
    /// After a refused board our game is not `OpenTafl`'s, so moves are not followed from it:
    /// only a board that can be played puts us back in step.
    fn follow(&mut self, moves: &str, board: Option<&Setup>) {
        if self.board_refused.is_some() {
            if let Some(board) = board {
                self.set_board(board, self.side);
            }
            return;
        }
        if let Some(game) = &self.game
            && game.ply() >= self.max_plies
        {
            let (setup, to_move) = (game.position().setup(), game.position().to_move());
            self.set_board(&setup, to_move);
        }
        let Some(game) = &self.game else { return };
        let on = |game: &Game| board.is_none_or(|board| game.position().setup() == *board);
        let mut next = game.clone();
        let played = moves.split('|').all(|token| {
            // Captures are checked when given; a list we read differently falls back to the move
            // alone.
            token.parse::<MoveText>().is_ok_and(|text| next.play_text(&text).is_ok() || next.play(text.mv).is_ok())
        });
        if played && on(&next) {
            self.game = Some(next);
        } else if let Some(board) = board
            && !(on(game) && game.position().to_move() == self.side)
        {
            self.set_board(board, self.side);
        }
    }

    /// Replaces our game by `OpenTafl`'s board, keeping the rules. The same board as ours keeps
    /// our game, its history included, as `move` does; a move of ours in flight was taken. A
    /// board that cannot be read is refused, as one the rules refuse is (see `board_refused`).
    fn resync(&mut self, record: &str, to_move: Side) {
        self.ours = None;
        match record.parse::<Setup>() {
            Ok(setup) if self.game.as_ref().is_some_and(|game| game.position().setup() == setup) => {
                self.board_refused = None;
            }
            Ok(setup) => self.set_board(&setup, to_move),
            Err(e) => self.board_refused = Some(e.to_string()),
        }
    }

    /// Makes `side` the side to move on our board, which is out of step when it is not: the
    /// board came with the other side to move, or a move was missed. A refused board has no
    /// board of ours to turn, and a finished game has no move for either side, which `no_move`
    /// says (its last board, the king on a corner, say, could not be set up again).
    fn set_to_move(&mut self, side: Side) {
        if self.board_refused.is_none()
            && let Some(game) = &self.game
            && game.status().is_ongoing()
            && game.position().to_move() != side
        {
            let setup = game.position().setup();
            self.set_board(&setup, side);
        }
    }

    /// Replaces our game by `setup` with `to_move`, keeping the rules; a move of ours in flight
    /// was taken. A board the rules refuse is remembered as refused (see `board_refused`), and
    /// our game is then kept only for its rules.
    fn set_board(&mut self, setup: &Setup, to_move: Side) {
        let Some(game) = &self.game else { return };
        match game.start().with_setup(setup, to_move) {
            Ok(position) => {
                self.game = Some(Game::new(position));
                self.board_refused = None;
            }
            Err(e) => self.board_refused = Some(board_refusal(setup, &e)),
        }
        self.ours = None;
    }

    /// This move's time: in overtime, most of what is left of the period; otherwise a thirtieth
    /// of the main time left plus most of a period while periods are left. At least 50 ms where
    /// the clock leaves that much with the same margin, and never more than `max_millis`, which
    /// is also the time without a clock.
    fn move_millis(&self) -> u64 {
        let Some(clock) = self.clock.as_deref().and_then(|text| Clock::parse(text, self.side)) else {
            return self.max_millis;
        };
        // `left`: the time this move may take before it loses on time (the current period in
        // overtime; the main time and, while periods are left, one period after it).
        let (millis, left) = if clock.in_overtime {
            (clock.left_ms * 0.8, clock.left_ms)
        } else if clock.left_ms > 0.0 {
            let period = if clock.periods > 0 { clock.period_ms } else { 0.0 };
            (clock.left_ms / 30.0 + period * 0.8, clock.left_ms + period)
        } else if clock.period_ms > 0.0 {
            (clock.period_ms * 0.8, clock.period_ms)
        } else {
            return self.max_millis;
        };
        // The floor keeps a thirtieth of a short main time from being a uselessly short search,
        // but a floor beyond the time left would lose the game on time.
        let floor = 50f64.min(left.max(0.0) * 0.8);
        (millis.max(floor) as u64).min(self.max_millis)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Past its longest game the session goes on from the position it reached, forgetting the
    /// moves before it, and follows the next move from there.
    #[test]
    fn a_game_past_the_longest_goes_on_from_its_position() {
        let rules = otn::rules_string(&tafl_rules::Variant::Brandubh.rules());
        let mut session = Session::new(Side::Attackers, Searcher::new(), 50);
        session.max_plies = 4;
        let mut sink = Vec::new();
        for line in [format!("rules {rules}"), "side defenders".to_owned(), "start".to_owned()] {
            session.command(&line, &mut sink).expect("in memory");
        }
        // Six plies without a capture, as OpenTafl sends them after a refusal: every move joined.
        let mut game = Game::new(Position::new(tafl_rules::Variant::Brandubh.rules()).expect("a preset"));
        let mut moves = Vec::new();
        while moves.len() < 6 {
            let quiet = game.position().legal_moves().into_iter().find(|&mv| {
                game.preview(mv).is_ok_and(|played| played.captures.is_empty() && played.status.is_ongoing())
            });
            let mv = quiet.expect("a quiet move");
            game.play(mv).expect("legal");
            moves.push(mv.to_string());
        }
        let (first, last) = moves.split_at(5);
        let board = |game: &Game| game.position().setup().to_string();
        let mut before = Game::new(game.start().clone());
        for mv in first {
            before.play(mv.parse::<MoveText>().expect("a move").mv).expect("legal");
        }
        session
            .command(&format!("opponent-move {} {}", first.join("|"), board(&before)), &mut sink)
            .expect("in memory");
        assert_eq!(session.game.as_ref().map(Game::ply), Some(5), "followed move by move");
        session.command(&format!("opponent-move {} {}", last[0], board(&game)), &mut sink).expect("in memory");
        let followed = session.game.as_ref().expect("a game");
        assert_eq!(followed.ply(), 1, "the game went on from the position of ply 5");
        assert_eq!(followed.start(), before.position());
        assert_eq!(followed.position(), game.position());
    }

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
        let mut session = Session::new(Side::Defenders, Searcher::with_table_bits(10), 4_500);
        let mut after = |clock: &str| {
            session.command(clock, &mut Vec::new()).expect("in memory");
            session.move_millis()
        };
        assert_eq!(after("hello"), 4_500, "no clock: the full budget");
        // OpenTafl sends milliseconds. The defenders' 60 seconds: two seconds a move.
        assert_eq!(after("clock 300000 60000 0 0 0"), 2_000);
        // With overtime periods of 2 seconds left, most of one comes on top.
        assert_eq!(after("clock 300000 30000 2 3 2"), 1_000 + 1_600);
        assert_eq!(after("clock 300000 30000 2 3 0"), 1_000, "none left");
        // Main time spent: what is left of the current period, marked `*`.
        assert_eq!(after("clock 300000 3000* 5 3 2"), 2_400);
        assert_eq!(after("clock 2000* 300000 5 2 3"), 4_500, "the attackers' overtime is not ours");
        // The protocol document's -1, no main time: most of a period, or the budget without one.
        assert_eq!(after("clock -1 -1 5 3 3"), 4_000);
        assert_eq!(after("clock -1 -1 0 0 0"), 4_500);
        assert_eq!(after("clock 9000000 9000000 0 0 0"), 4_500, "never more than the budget");
        // A short main time: a thirtieth of 1.2 s is 40 ms, less than the 50 ms floor, which the
        // clock allows.
        assert_eq!(after("clock 300000 1200 0 0 0"), 50, "at least 50 ms where time allows");
        // Never more than the clock leaves: 50 ms would lose on time with 40 ms left.
        assert_eq!(after("clock 300000 40* 5 0 0"), 32, "most of the 40 ms left of the period");
        assert_eq!(after("clock 300000 40 0 0 0"), 32, "most of the 40 ms of main time left");
        assert_eq!(after("clock 300000 0* 5 0 0"), 0, "no time left: the shortest search");
        assert_eq!(after("clock nonsense"), 4_500, "an unreadable clock is no clock");
    }

    /// Plays `line` (moves in simple notation) from the start of Brandubh.
    fn brandubh_after(line: &[&str]) -> Game {
        let mut game = Game::new(Position::new(tafl_rules::Variant::Brandubh.rules()).expect("a preset"));
        for mv in line {
            game.play(mv.parse::<MoveText>().expect("simple notation").mv).expect("a legal move");
        }
        game
    }

    fn moves_said(output: &str) -> Vec<String> {
        output.lines().filter_map(|l| l.strip_prefix("move ")).map(str::to_owned).collect()
    }

    #[test]
    fn a_refused_move_is_taken_back_and_not_offered_again_in_that_position() {
        let rules = otn::rules_string(&tafl_rules::Variant::Brandubh.rules());
        let board = "/3t3/1t5/3T3/ttTKTtt/3T3/3t3/3t3/";
        let opening = format!("rules {rules}\nside defenders\nstart\nopponent-move d2-b2 {board}\n");
        // As OpenTafl does after refusing a move: `error`, then every move of the game since our
        // last accepted one (here the opponent's d2-b2, which our board has played already)
        // with its board, the clock, and `play` again; twice.
        let refusal = format!("error 2\nopponent-move d2-b2 {board}\nclock 300000 300000 0 0 0\nplay defenders\n");
        let output = session(&format!("{opening}play defenders\n{refusal}{refusal}"));
        let said = moves_said(&output);
        assert_eq!(said.len(), 3, "{output}");
        assert!(said[0] != said[1] && said[1] != said[2] && said[0] != said[2], "{said:?}");
        for mv in &said {
            brandubh_after(&["d2-b2", mv]);
        }
        // A move taken is no longer ours to take back: OpenTafl confirms it with the board after
        // it (`move`), or the opponent's reply comes; a later error is not about it. One session
        // each, fed after its own first move: a timed search on a busy machine need not find
        // the same move twice.
        for taken in ["reply", "move"] {
            let mut session = Session::new(Side::Defenders, Searcher::with_table_bits(10), 200);
            let mut output = Vec::new();
            let mut feed = |session: &mut Session, lines: &str| {
                for line in lines.lines() {
                    session.command(line, &mut output).expect("in memory");
                }
                moves_said(&String::from_utf8(output.clone()).expect("ASCII"))
            };
            let first = feed(&mut session, &format!("{opening}play defenders"))[0].clone();
            let after_reply = brandubh_after(&["d2-b2", &first, "b2-b1"]).position().setup();
            let after_first = brandubh_after(&["d2-b2", &first]).position().setup();
            let rest = if taken == "reply" {
                format!("opponent-move b2-b1 {after_reply}\nerror 2\nplay defenders")
            } else {
                format!("move {after_first}\nerror 5\nopponent-move b2-b1\nplay defenders")
            };
            let replies = feed(&mut session, &rest);
            assert_eq!(replies.len(), 2, "{replies:?}");
            brandubh_after(&["d2-b2", &first, "b2-b1", &replies[1]]);
        }
    }

    #[test]
    fn play_and_analyze_search_for_the_side_they_name() {
        let rules = otn::rules_string(&tafl_rules::Variant::Brandubh.rules());
        // `play defenders` with the attackers to move on our board: a defenders' move on it.
        let output = session(&format!("rules {rules}\nside attackers\nplay defenders\n"));
        let said = moves_said(&output);
        let start = brandubh_after(&[]);
        let position = start.start().with_setup(&start.position().setup(), Side::Defenders);
        let mut game = Game::new(position.expect("the start with the defenders to move"));
        game.play(said[0].parse::<MoveText>().expect("simple notation").mv).expect("a defenders' move");
        // As OpenTafl analyses: the board, then the side to move, then `analyze`.
        let board = "/3t3/1t1t3/3T3/ttTKTt1/3T3/3t3/3t3/";
        let output =
            session(&format!("rules {rules}\nside attackers\nposition {board}\nside defenders\nanalyze 1 1\n"));
        let line = output.lines().find_map(|l| l.strip_prefix("analysis 1 ")).expect("an analysis");
        let first = line.split(['|', ' ']).next().expect("a move");
        let setup: Setup = board.parse().expect("a position");
        let position = game.start().with_setup(&setup, Side::Defenders).expect("a legal board");
        Game::new(position).play(first.parse::<MoveText>().expect("a move").mv).expect("a defenders' move");
    }

    #[test]
    fn opentafls_own_copenhagen_rules_are_played() {
        let rules = "dim:11 name:Copenhagen atkf:y tfr:w sw:s efe:y start:/3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3/";
        let output = session(&format!("rules {rules}\nside attackers\nstart\nplay attackers\n"));
        let mv = output.lines().nth(1).and_then(|l| l.strip_prefix("move ")).expect("a move, not error 0");
        let mut game = Game::new(Position::new(tafl_rules::Variant::Copenhagen.rules()).expect("a preset"));
        game.play(mv.parse::<MoveText>().expect("simple notation").mv).expect("a legal move");
    }

    /// `OpenTafl` judges a third repetition once the turn has passed, so its `tfr:w` wins for
    /// the player who must answer it: the engine plays its Copenhagen with the mover losing, and
    /// `tfr:l` the other way.
    #[test]
    fn opentafls_repetition_rule_is_judged_as_opentafl_judges_it() {
        use tafl_rules::Repetition;
        let start = "start:/3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3/";
        let repetition_of = |tfr: &str| {
            let mut session = Session::new(Side::Attackers, Searcher::with_table_bits(10), 200);
            let line = format!("rules dim:11 name:Copenhagen atkf:y tfr:{tfr} sw:s efe:y {start}");
            session.command(&line, &mut Vec::new()).expect("in memory");
            session.game.expect("playable rules").position().rules().repetition
        };
        assert_eq!(repetition_of("w"), Repetition::MoverLoses);
        assert_eq!(repetition_of("l"), Repetition::MoverWins);
        assert_eq!(repetition_of("d"), Repetition::Draw);
    }

    #[test]
    fn opentafls_own_brandubh_with_its_weak_king_is_played() {
        // OpenTafl's built-in Brandubh as its RulesSerializer writes it: the king is taken by two,
        // on the throne too, so e2-e4 or e6-e4 wins here (a middleweight king would hold).
        let rules = "dim:7 name:Brandub surf:n atkf:y ks:w cenh: cenhe: start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/";
        let board = "/7/4t2/7/2tK3/7/4t2/7/";
        let output =
            session(&format!("rules {rules}\nside attackers\nposition {board}\nside attackers\nplay attackers\n"));
        let mv = output.lines().nth(1).and_then(|l| l.strip_prefix("move ")).expect("a move, not error 0");
        let setup: Setup = board.parse().expect("a position");
        let start = Position::new(otn::parse_rules(rules).expect("its rules")).expect("valid");
        let mut game = Game::new(start.with_setup(&setup, Side::Attackers).expect("a legal board"));
        game.play(mv.parse::<MoveText>().expect("simple notation").mv).expect("a legal move");
        assert!(matches!(game.status(), tafl_rules::Status::Finished(o) if o.winner == Some(Side::Attackers)), "{mv}");
    }

    /// A long-lived engine plays a game of Copenhagen, then one of Fetlar on the same board: the
    /// second game's search must not read the first's table, whose entries were scored under
    /// other rules. (The protocol's searches are timed; the searches here, with the session's
    /// own searcher, are depth-limited so that their answers are exact.)
    #[test]
    fn new_rules_start_from_an_empty_table() {
        let board = "/3ttttt3/5t5/5TT3t/t10/3tT1T1t1t/tt1TK1TT2t/t1t2TT3t/tT9/4Tt5/2T8/3tttt1t2/";
        let mut session = Session::new(Side::Attackers, Searcher::new(), 200);
        let mut game_of = |variant: tafl_rules::Variant| {
            let rules = otn::rules_string(&variant.rules());
            for line in [format!("rules {rules}"), format!("position {board}"), "side attackers".to_owned()] {
                session.command(&line, &mut Vec::new()).expect("in memory");
            }
            let game = session.game.clone().expect("a game");
            let analysis = session.searcher.analyse(&game, &Limits::depth(3)).expect("a move");
            (game, analysis)
        };
        game_of(tafl_rules::Variant::Copenhagen);
        let (fetlar, reused) = game_of(tafl_rules::Variant::Fetlar);
        assert_eq!(fetlar.position().rules(), &tafl_rules::Variant::Fetlar.rules());
        let fresh = Searcher::new().analyse(&fetlar, &Limits::depth(3)).expect("a move");
        assert_eq!((reused.best, reused.score), (fresh.best, fresh.score), "{reused:?}");
    }

    /// A line longer than `MAX_LINE` is one command whose argument cannot be read: its tail is
    /// not read as the next command (here a `goodbye` that would end the session), an over-long
    /// `rules` is refused like any rules that cannot be read, and an over-long `position` like
    /// any board that cannot be read.
    #[test]
    fn an_over_long_line_is_one_unreadable_command() {
        let rules = otn::rules_string(&tafl_rules::Variant::Brandubh.rules());
        let padding = " ".repeat(MAX_LINE as usize);
        let output = session(&format!("rules {rules}\nside attackers\nclock {padding}goodbye\nplay attackers\n"));
        let said = moves_said(&output);
        assert_eq!(said.len(), 1, "{output}");
        brandubh_after(&[&said[0]]);
        let output = session(&format!("rules {rules}\nside attackers\nposition {padding}finish\nplay attackers\n"));
        let lines: Vec<&str> = output.lines().collect();
        assert_eq!(lines, ["hello", "error -1 \"\" is not an OTN position: it must start and end with '/'"]);
        let output = session(&format!("rules {rules}{padding}\nplay attackers\n"));
        let lines: Vec<&str> = output.lines().collect();
        assert_eq!(lines.len(), 2, "{output}");
        assert!(lines[1].starts_with("error -1 these rules cannot be played: "), "{output}");
        // A line of MAX_LINE bytes, its newline included, is whole.
        let line = format!("rules {rules}");
        let longest = format!("{line}{}\n", " ".repeat(MAX_LINE as usize - line.len() - 1));
        let output = session(&format!("{longest}play attackers\n"));
        assert_eq!(moves_said(&output).len(), 1, "{output}");
    }

    /// Rules it cannot play are a critical error (`error -1`, which ends the game in
    /// `OpenTafl`) with the reason: a non-critical `error 0` left `OpenTafl` waiting for a move.
    /// It is said at `play`, not in answer to `rules`, which `OpenTafl` sends before its player
    /// can resign; every `play` after it says it again, and `analyze` says it as `error 0`.
    #[test]
    fn rules_it_cannot_play_are_a_critical_error_with_the_reason() {
        let output = session("rules nonsense\nside attackers\nstart\nplay attackers\nplay attackers\n");
        let lines: Vec<&str> = output.lines().collect();
        assert_eq!(lines.len(), 3, "{output}");
        assert_eq!(lines[0], "hello");
        assert!(
            lines[1].starts_with("error -1 these rules cannot be played: ") && lines[1].contains("nonsense"),
            "{output}"
        );
        assert_eq!(lines[2], lines[1]);
        assert_eq!(session("rules nonsense\nside attackers\nstart\n"), "hello\n", "nothing until play");
        // Berserk pieces, say, are refused by name.
        let output = session("rules dim:7 ber:c start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/\nanalyze 1 1\n");
        let said = output.lines().nth(1).expect("an answer to analyze");
        assert!(said.starts_with("error 0 these rules cannot be played: ") && said.contains("ber:c"), "{output}");
        // Rules it can play, sent after them, are played.
        let rules = otn::rules_string(&tafl_rules::Variant::Brandubh.rules());
        let output = session(&format!("rules nonsense\nrules {rules}\nplay attackers\n"));
        assert_eq!(moves_said(&output).len(), 1, "{output}");
        // A finished game has no move to play.
        let output = session(&format!(
            "rules {rules}\nside defenders\nposition /1K5/7/3t3/7/3t3/7/7/\nopponent-move b1-a1 /K6/7/3t3/7/3t3/7/7/\nplay attackers\n"
        ));
        assert_eq!(
            output.lines().nth(1),
            Some("error -1 no move to play for the attackers: the game is over and the defenders won"),
            "{output}"
        );
    }

    /// `finish` ends a game, not the engine: `OpenTafl` may start another game with the same
    /// process or keep it for analysis. `goodbye` (or the end of input) ends it.
    #[test]
    fn finish_ends_the_game_and_goodbye_ends_the_engine() {
        let rules = otn::rules_string(&tafl_rules::Variant::Brandubh.rules());
        let game = format!("rules {rules}\nside attackers\nplay attackers\n");
        let output = session(&format!("{game}finish 2\n{game}goodbye\n{game}"));
        let said = moves_said(&output);
        assert_eq!(said.len(), 2, "{output}");
        for mv in &said {
            brandubh_after(&[mv]);
        }
    }

    /// The board `opponent-move` sends is the truth even when the move replays: here `OpenTafl`
    /// also took a piece our board keeps.
    #[test]
    fn the_board_after_an_opponents_move_wins_over_ours() {
        let rules = otn::rules_string(&tafl_rules::Variant::Brandubh.rules());
        let mut session = Session::new(Side::Defenders, Searcher::with_table_bits(10), 200);
        let theirs = "/3t3/1t5/3T3/ttTK1tt/3T3/3t3/3t3/";
        for line in [format!("rules {rules}"), format!("opponent-move d2-b2 {theirs}")] {
            session.command(&line, &mut Vec::new()).expect("in memory");
        }
        let game = session.game.as_ref().expect("a game");
        assert_eq!(game.position().setup(), theirs.parse::<Setup>().expect("a position"));
        assert_eq!(game.position().to_move(), Side::Defenders);
        // The same board as ours keeps our game, its history included.
        let ours = "/3t3/1t5/3T3/ttTKTtt/3T3/3t3/3t3/";
        session.command(&format!("rules {rules}"), &mut Vec::new()).expect("in memory");
        session.command(&format!("opponent-move d2-b2 {ours}"), &mut Vec::new()).expect("in memory");
        assert_eq!(session.game.as_ref().expect("a game").moves().len(), 1);
    }

    /// After refusing a move, `OpenTafl` sends every move since the last one of ours it took,
    /// joined by `|`. They are played in turn: read as one move they did not parse, and the game
    /// was rebuilt from the board, forgetting its positions and so the repetition coming.
    #[test]
    fn moves_joined_by_bars_are_played_in_turn_and_the_history_is_kept() {
        let rules = otn::rules_string(&tafl_rules::Variant::Brandubh.rules());
        let shuffle = ["d2-c2", "d3-c3", "c2-d2", "c3-d3", "d2-c2", "d3-c3", "c2-d2"];
        let board = brandubh_after(&shuffle).position().setup();
        let mut session = Session::new(Side::Defenders, Searcher::with_table_bits(10), 200);
        for line in [format!("rules {rules}"), format!("opponent-move {} {board}", shuffle.join("|"))] {
            session.command(&line, &mut Vec::new()).expect("in memory");
        }
        let game = session.game.as_ref().expect("a game");
        assert_eq!(game.moves().len(), shuffle.len());
        assert_eq!(game.position().setup(), board);
        // c3-d3 brings the start back a third time: Brandubh's repetition draw, seen coming.
        let repeat = game.preview("c3-d3".parse::<MoveText>().expect("a move").mv).expect("legal");
        assert!(
            matches!(repeat.status, tafl_rules::Status::Finished(o) if o.reason == tafl_rules::Reason::Repetition),
            "{repeat:?}"
        );
        // A list that does not lead to the board sent with it: the board wins.
        let theirs = "/3t3/1t5/3T3/ttTKTtt/3T3/3t3/3t3/";
        session.command(&format!("opponent-move d1-d2|a4-a1 {theirs}"), &mut Vec::new()).expect("in memory");
        let game = session.game.as_ref().expect("a game");
        assert_eq!((game.moves().len(), game.position().setup()), (0, theirs.parse().expect("a position")));
    }

    /// A board that is ours keeps our game and its history: `position` with our own board, and
    /// `opponent-move` with moves we have played already (after a refusal our game is back
    /// before our move, and `OpenTafl` sends the moves since the last one of ours it took).
    #[test]
    fn our_own_board_keeps_our_game_and_its_history() {
        let rules = otn::rules_string(&tafl_rules::Variant::Brandubh.rules());
        let board = brandubh_after(&["d2-b2"]).position().setup();
        let mut session = Session::new(Side::Defenders, Searcher::with_table_bits(10), 200);
        let mut said = Vec::new();
        for (line, plies) in [
            (format!("rules {rules}"), 0),
            ("side defenders".to_owned(), 0),
            (format!("opponent-move d2-b2 {board}"), 1),
            ("play defenders".to_owned(), 2),
            ("error 2".to_owned(), 1),
            (format!("opponent-move d2-b2 {board}"), 1),
            (format!("position {board}"), 1),
            ("side defenders".to_owned(), 1),
        ] {
            session.command(&line, &mut said).expect("in memory");
            let game = session.game.as_ref().expect("a game");
            assert_eq!(game.moves().len(), plies, "after {line}");
        }
        assert_eq!(session.game.as_ref().expect("a game").position().setup(), board);
        // Another board is the truth and replaces ours.
        let other = brandubh_after(&["d2-c2"]).position().setup();
        session.command(&format!("position {other}"), &mut said).expect("in memory");
        let game = session.game.as_ref().expect("a game");
        assert_eq!((game.moves().len(), game.position().setup()), (0, other));
    }

    /// A new game starts without the last one's clock: `OpenTafl` sends none in an untimed game.
    #[test]
    fn a_new_game_forgets_the_last_ones_clock() {
        let rules = otn::rules_string(&tafl_rules::Variant::Brandubh.rules());
        for end in ["finish 2", "rules"] {
            let mut session = Session::new(Side::Attackers, Searcher::with_table_bits(10), 4_500);
            session.command("clock 1200 300000 0 0 0", &mut Vec::new()).expect("in memory");
            assert_eq!(session.move_millis(), 50, "1.2 s left: the floor");
            let end = if end == "rules" { format!("rules {rules}") } else { end.to_owned() };
            session.command(&end, &mut Vec::new()).expect("in memory");
            assert_eq!(session.move_millis(), 4_500, "after {end:?}: the full budget");
        }
    }

    /// `OpenTafl` sends the clock before the `play` that names our side: the time is read for
    /// the side we play, not the one we last heard of.
    #[test]
    fn the_clock_is_read_for_the_side_we_play() {
        let mut session = Session::new(Side::Attackers, Searcher::with_table_bits(10), 4_500);
        session.command("clock 300000 60000 0 0 0", &mut Vec::new()).expect("in memory");
        assert_eq!(session.move_millis(), 4_500, "the attackers' 300 s: the cap");
        session.command("side defenders", &mut Vec::new()).expect("in memory");
        assert_eq!(session.move_millis(), 2_000, "the defenders' 60 s: two seconds a move");
    }

    /// Analysis scores count for the attackers, as `OpenTafl`'s own evaluations do.
    #[test]
    fn analysis_scores_count_for_the_attackers() {
        let rules = otn::rules_string(&tafl_rules::Variant::Brandubh.rules());
        // The king on b1 escapes to a1 at once: the defenders are winning, whoever is to move.
        let board = "/1K5/7/3t3/7/3t3/7/7/";
        let score = |side: &str| {
            let output = session(&format!("rules {rules}\nposition {board}\nside {side}\nanalyze 1 1\n"));
            let line = output.lines().find_map(|l| l.strip_prefix("analysis 1 ")).map(str::to_owned);
            line.and_then(|l| l.rsplit(' ').next()?.parse::<i32>().ok()).expect("an analysis with a score")
        };
        assert!(score("defenders") < 0, "the defenders escape: bad for the attackers");
        assert!(score("attackers") < 0, "the attackers cannot stop it either");
        let output = session("analyze 1 1\n");
        assert_eq!(output.lines().nth(1), Some("error 0 no rules this engine can play were given"));
    }

    /// The OTN specification's own Fetlar and Copenhagen strings carry `atkf:n` (the defenders
    /// move first). `play` tells the engine the side to move, so it plays them; an `error -1`
    /// would make `OpenTafl` resign its game.
    #[test]
    fn rules_where_the_defenders_move_first_are_played() {
        let rules = "dim:11 atkf:n start:/3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3/";
        let output = session(&format!("rules {rules}\nside defenders\nstart\nplay defenders\n"));
        let moves = moves_said(&output);
        assert_eq!(moves.len(), 1, "{output}");
        assert!(!output.contains("error -1"), "{output}");
        // A defenders' move from the start.
        let (read, first) = otn::parse_rules_and_first_side(rules).expect("the rules read");
        assert_eq!(first, Side::Defenders);
        let start = Position::new(read.clone()).unwrap().with_setup(&read.start, Side::Defenders).unwrap();
        let mv: MoveText = moves[0].parse().expect("a move");
        assert!(start.legal_moves().contains(&mv.mv), "{output}");
    }

    /// `OpenTafl`'s Brandubh as its `RulesSerializer` writes it, which the reviews fed the engine.
    const OPENTAFL_BRANDUBH: &str =
        "dim:7 name:Brandub surf:n atkf:y ks:w cenh: cenhe: start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/";

    /// The lines the engine answers `input` with, after its `hello`.
    fn answers(input: &str) -> Vec<String> {
        let output = session(input);
        let mut lines = output.lines().map(str::to_owned);
        assert_eq!(lines.next().as_deref(), Some("hello"), "{output}");
        lines.collect()
    }

    /// A board the engine cannot play is refused with the reason: at `play` with a critical
    /// `error -1`, at `analyze` with `error 0`. It was ignored, and the board before it searched,
    /// so that `play` answered with a move of another game.
    #[test]
    fn a_board_it_cannot_play_is_refused_not_searched_as_the_board_before_it() {
        let rules = OPENTAFL_BRANDUBH;
        // The review's cases: a king on a corner (`position`), no king, and a king on a corner
        // after the opponent's move.
        let said = answers(&format!(
            "rules {rules}\nposition /K6/7/3t3/7/3t3/7/7/\nside attackers\nanalyze 3 1\nplay attackers\n"
        ));
        let why = "the board /K6/7/3t3/7/3t3/7/7/ is a finished game: the king on a1 has already escaped";
        assert_eq!(said, [format!("error 0 {why}"), format!("error -1 {why}")]);
        let said = answers(&format!(
            "rules {rules}\nposition /3t3/3t3/3T3/ttT1Ttt/3T3/3t3/3t3/\nside defenders\nanalyze 1 1\nplay defenders\n"
        ));
        let why = "the board /3t3/3t3/3T3/ttT1Ttt/3T3/3t3/3t3/ has no king, so its game is over";
        assert_eq!(said, [format!("error 0 {why}"), format!("error -1 {why}")]);
        let said =
            answers(&format!("rules {rules}\nside attackers\nopponent-move d2-d1 /7/7/7/7/7/7/K6/\nplay attackers\n"));
        let why = "the board /7/7/7/7/7/7/K6/ is a finished game: the king on a7 has already escaped";
        assert_eq!(said, [format!("error -1 {why}")]);
        // A man on the throne, no attackers, and a board that cannot be read, each by its reason;
        // by `position` and by `opponent-move` alike.
        for (board, why) in [
            (
                "/3t3/3t3/3T3/ttTtTtt/3T3/3tK2/3t3/",
                "the board /3t3/3t3/3T3/ttTtTtt/3T3/3tK2/3t3/ cannot be played: the attacker on d4 stands where only the king may stop",
            ),
            ("/7/7/3T3/3K3/7/7/7/", "the board /7/7/3T3/3K3/7/7/7/ cannot be played: the position has no attackers"),
            ("/7/7/", "\"/7/7/\" is not an OTN position: it has 2 rows; a board has 3 to 26"),
        ] {
            for sent in [format!("position {board}"), format!("opponent-move d2-b2 {board}")] {
                let said = answers(&format!("rules {rules}\n{sent}\nside defenders\nanalyze 1 1\nplay defenders\n"));
                assert_eq!(said, [format!("error 0 {why}"), format!("error -1 {why}")], "{sent}");
            }
        }
    }

    /// A refused board stays refused until a board the engine can play comes (by `position` or
    /// with an opponent's move; moves alone are not followed from the board before it) or new
    /// rules do.
    #[test]
    fn a_refused_board_is_forgotten_once_a_board_it_can_play_comes() {
        let rules = OPENTAFL_BRANDUBH;
        let refused = "position /K6/7/3t3/7/3t3/7/7/";
        let after = "/3t3/1t5/3T3/ttTKTtt/3T3/3t3/3t3/";
        for (then, opening) in [
            // Our own board again (the start, which the refusal did not replace), and another.
            ("position /3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/\nside attackers\nplay attackers".to_owned(), &[][..]),
            (format!("position {after}\nside defenders\nplay defenders"), &["d2-b2"][..]),
            (format!("opponent-move d2-b2\nopponent-move d2-b2 {after}\nplay defenders"), &["d2-b2"][..]),
            (format!("rules {rules}\nplay attackers"), &[][..]),
        ] {
            let said = answers(&format!("rules {rules}\n{refused}\n{then}\n"));
            let mv = said.last().and_then(|l| l.strip_prefix("move ")).unwrap_or_else(|| panic!("{then}: {said:?}"));
            brandubh_after(&[opening, &[mv]].concat());
        }
        // The opponent's move alone, without a board, is not played on the board before the
        // refused one.
        let said = answers(&format!("rules {rules}\n{refused}\nopponent-move d2-b2\nplay defenders\n"));
        assert_eq!(said.len(), 1, "{said:?}");
        assert!(said[0].starts_with("error -1 the board /K6/7/3t3/7/3t3/7/7/ is a finished game"), "{said:?}");
    }

    /// The last board of a finished game, which `OpenTafl` sends to analyse a replay's end, gets
    /// an error with the reason whichever way it comes, never a move: refused by `position`
    /// (above), and over when a move of the game reaches it, for either side to move.
    #[test]
    fn a_finished_game_reached_by_a_move_has_nothing_to_play_or_analyse_for_either_side() {
        let rules = OPENTAFL_BRANDUBH;
        let game = format!(
            "rules {rules}\nside defenders\nposition /1K5/7/3t3/7/3t3/7/7/\nopponent-move b1-a1 /K6/7/3t3/7/3t3/7/7/\n"
        );
        for side in ["attackers", "defenders"] {
            let said = answers(&format!("{game}side {side}\nanalyze 1 1\nplay {side}\n"));
            let over = "the game is over and the defenders won";
            assert_eq!(
                said,
                [
                    format!("error 0 nothing to analyse: {over}"),
                    format!("error -1 no move to play for the {side}: {over}")
                ]
            );
        }
    }

    /// Commands and their fields are separated by any whitespace, repeated or not: with a tab,
    /// `play\tattackers` was an unknown command, unanswered, and `OpenTafl` waited for ever.
    #[test]
    fn commands_and_their_fields_may_be_separated_by_any_whitespace() {
        let rules = otn::rules_string(&tafl_rules::Variant::Brandubh.rules()).replace(' ', " \t ");
        let after = "/3t3/1t5/3T3/ttTKTtt/3T3/3t3/3t3/";
        let said =
            answers(&format!("rules\t{rules}\nside\tdefenders\nopponent-move\td2-b2 \t{after}\nplay\t\tdefenders\n"));
        assert_eq!(said.len(), 1, "{said:?}");
        brandubh_after(&["d2-b2", said[0].strip_prefix("move ").expect("a move")]);
        let said = answers(&format!("rules  {rules}\nposition\t{after}\nside  defenders\nanalyze\t1  1\n"));
        assert_eq!(said.len(), 1, "{said:?}");
        assert!(said[0].starts_with("analysis 1 "), "{said:?}");
        let said = answers("play\tattackers\n");
        assert_eq!(said, ["error -1 no rules this engine can play were given"]);
    }

    /// Rules strings `OpenTafl` may send that this engine cannot play are refused with what is
    /// really unsupported: its own Tablut's empty `cens:` keeps the king off the throne (it was
    /// said to let other pieces stop there), and a key given twice has no one reading (`cen:
    /// cen:a1` had a throne from the last copy and its square from the first).
    #[test]
    fn rules_it_cannot_play_are_refused_for_what_they_really_ask() {
        let tablut = "dim:9 name:Tablut esc:e atkf:y ks:c nj:n cor: cens: cenh: start:/3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3/";
        let said = answers(&format!("rules {tablut}\nplay attackers\n"));
        assert_eq!(
            said,
            [
                "error -1 these rules cannot be played: the OTN rules string is invalid: cens: asks for a king who may not stop on the throne, nor come back to it, which this bot does not play"
            ]
        );
        let twice = format!("dim:7 cen: cen:a1 start:{}", "/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/");
        let said = answers(&format!("rules {twice}\nplay attackers\n"));
        assert_eq!(
            said,
            [
                "error -1 these rules cannot be played: the OTN rules string is invalid: cen: is given twice; give each key once"
            ]
        );
    }
}
