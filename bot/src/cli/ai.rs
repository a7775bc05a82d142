//! `tafl-bot ai` (the engine's move for a position) and `tafl-bot match` (engine against
//! engine). The JSON line of `ai` is an interface scripts parse: its keys and order are fixed.

use std::io::Write;
use std::time::Instant;

use serde::Serialize;
use tafl_rules::engine::{self, Greed, Level, Limits, Searcher};
use tafl_rules::otn::{self, GameRecord};
use tafl_rules::{Game, MoveText, Side, Status};

use super::{CliError, StartArgs, shorten};
use crate::limits::MAX_PLIES;

#[derive(Debug, clap::Args)]
pub struct AiArgs {
    #[command(flatten)]
    pub start: StartArgs,
    /// Play like level 1 (a beginner) to 5 (full strength within 5 s); the default is 5.
    // Every number here is read by `number_from`, so that any value out of range, 256 or
    // 99999999999999999999 or -5 too, gets one sentence naming the option's own range (clap's
    // own said "0 is not in 1..=5" or "number too large to fit in target type"). A negative
    // number is taken as the option's value, to be refused so, not as an unknown argument.
    #[arg(
        long,
        value_name = "1..5",
        conflicts_with_all = ["millis", "depth"],
        allow_negative_numbers = true,
        value_parser = super::number_from(Level::MIN, Level::MAX)
    )]
    pub level: Option<u8>,
    /// Search for this many milliseconds at full strength.
    #[arg(
        long,
        value_name = "N",
        conflicts_with = "depth",
        allow_negative_numbers = true,
        value_parser = super::number_from(1, MAX_MILLIS)
    )]
    pub millis: Option<u64>,
    /// Search to this depth (plies) at full strength.
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = super::number_from(1, MAX_DEPTH))]
    pub depth: Option<u32>,
    /// The seed of the weak levels' random choices: the same seed, the same move.
    #[arg(
        long,
        value_name = "N",
        default_value_t = 0,
        allow_negative_numbers = true,
        value_parser = super::number_from(0, u64::MAX)
    )]
    pub seed: u64,
    /// One JSON line: {"move","score","depth","nodes","millis","pv"}.
    #[arg(long)]
    pub json: bool,
    /// Moves played from the start (or from --position) before the engine moves.
    #[arg(value_name = "MOVES")]
    pub moves: Vec<String>,
}

/// The answer of `ai --json`.
#[derive(Debug, Serialize)]
pub struct AiLine {
    #[serde(rename = "move")]
    pub mv: String,
    /// Points for the side to move; one attacker is 100; beyond ±29,000 a forced result.
    pub score: i32,
    pub depth: u32,
    pub nodes: u64,
    pub millis: u64,
    pub pv: Vec<String>,
}

/// "move 2: d3-d1: the way is blocked by the piece on d1". Most errors name the move already;
/// the others get it in brackets ("move 5 (d1-d3): the game is over").
fn at_move(n: usize, token: &str, error: &dyn std::fmt::Display) -> CliError {
    let token = shorten(token, 24);
    let message = error.to_string();
    if message.contains(&token) {
        CliError::Input(format!("move {}: {message}", n + 1))
    } else {
        CliError::Input(format!("move {} ({token}): {message}", n + 1))
    }
}

/// The deepest `--depth` accepted: beyond it the search's own ply limit decides anyway.
pub const MAX_DEPTH: u32 = 60;

/// The longest search asked for by time: a day. Longer is surely a slip of the keyboard.
pub const MAX_MILLIS: u64 = 24 * 60 * 60 * 1000;

/// The most nodes a `match` player may search a move in (`nodes:N`): about a day at the engine's
/// speed, as [`MAX_MILLIS`] is a day. More is surely a slip of the keyboard.
pub const MAX_NODES: u64 = 100_000_000_000;

/// The most games one `match` plays (its results are kept until the end).
pub const MAX_GAMES: u32 = 1_000_000;

pub fn run(args: &AiArgs, out: &mut dyn Write) -> Result<(), CliError> {
    let rules = args.start.rules()?;
    let mut game = Game::new(args.start.position(rules)?);
    if args.moves.len() > MAX_PLIES {
        return Err(CliError::Input(crate::limits::too_many_plies("ai")));
    }
    for (n, token) in args.moves.iter().enumerate() {
        let text: MoveText = token.parse().map_err(|e: tafl_rules::ParseError| at_move(n, token, &e))?;
        game.play_text(&text).map_err(|e| at_move(n, token, &e))?;
    }
    if let Status::Finished(outcome) = game.status() {
        return Err(CliError::Input(format!(
            "the game is already over ({}), so there is no move to find",
            Status::Finished(outcome).name().replace('_', " ")
        )));
    }
    let start = Instant::now();
    let mut searcher = Searcher::new();
    let analysis = match (args.level, args.millis, args.depth) {
        (_, Some(millis), _) => {
            if !(1..=MAX_MILLIS).contains(&millis) {
                return Err(CliError::Input(format!("--millis must be from 1 to {MAX_MILLIS} (a day), not {millis}")));
            }
            searcher.analyse(&game, &Limits::millis(millis))
        }
        (_, _, Some(depth)) => {
            if !(1..=MAX_DEPTH).contains(&depth) {
                return Err(CliError::Input(format!("--depth must be from 1 to {MAX_DEPTH}, not {depth}")));
            }
            searcher.analyse(&game, &Limits::depth(depth))
        }
        (level, None, None) => {
            let level = parse_level(level.unwrap_or(Level::MAX))?;
            searcher.choose(&game, level, args.seed)
        }
    };
    let analysis = analysis.ok_or_else(|| CliError::Input("the side to move has no move".to_owned()))?;
    let millis = start.elapsed().as_millis() as u64;
    let line = AiLine {
        mv: analysis.best.to_string(),
        score: analysis.score,
        depth: analysis.depth,
        nodes: analysis.nodes,
        millis,
        pv: analysis.pv.iter().map(ToString::to_string).collect(),
    };
    if args.json {
        serde_json::to_writer(&mut *out, &line).map_err(|e| CliError::write(e.into()))?;
        writeln!(out).map_err(CliError::write)?;
    } else {
        writeln!(
            out,
            "{} (score {}, depth {}, {}, {} ms; line {})",
            line.mv,
            line.score,
            line.depth,
            super::count(usize::try_from(line.nodes).unwrap_or(usize::MAX), "node", "nodes"),
            line.millis,
            line.pv.join(" ")
        )
        .map_err(CliError::write)?;
    }
    Ok(())
}

fn parse_level(n: u8) -> Result<Level, CliError> {
    Level::new(n).ok_or_else(|| CliError::Input(format!("--level must be from 1 to 5, not {n}")))
}

#[derive(Debug, clap::Args)]
pub struct MatchArgs {
    #[command(flatten)]
    pub start: StartArgs,
    /// Player A: a level 1..5 at its time, LEVEL@nodes at its node budget (reproducible),
    /// millis:N, nodes:N, depth:N, greedy (the one-ply player, judging by the evaluation) or
    /// greedy:material (the one-ply player counting men only).
    #[arg(long, value_name = "PLAYER")]
    pub a: String,
    /// Player B, as for --a.
    #[arg(long, value_name = "PLAYER")]
    pub b: String,
    /// Games to play; A and B swap sides every game.
    // The numbers are read as `ai`'s are (see `AiArgs::level`).
    #[arg(
        long,
        value_name = "N",
        default_value_t = 2,
        allow_negative_numbers = true,
        value_parser = super::number_from(1, MAX_GAMES)
    )]
    pub games: u32,
    /// Random plies that open each pair of games (the same opening for both colours), so that
    /// deterministic players do not repeat one game.
    #[arg(
        long,
        value_name = "N",
        default_value_t = 2,
        allow_negative_numbers = true,
        value_parser = super::number_from(0, MAX_PLIES as u32)
    )]
    pub random_plies: u32,
    /// The seed of the openings and the weak levels' choices.
    #[arg(
        long,
        value_name = "N",
        default_value_t = 1,
        allow_negative_numbers = true,
        value_parser = super::number_from(0, u64::MAX)
    )]
    pub seed: u64,
    /// A game still going after this many plies (random ones included, so more than
    /// --random-plies) is scored a draw.
    // At most the longest game `replay` and `/import` read, so that every record written replays.
    #[arg(
        long,
        value_name = "N",
        default_value_t = 400,
        allow_negative_numbers = true,
        value_parser = super::number_from(1, MAX_PLIES)
    )]
    pub max_plies: usize,
    /// Print each game's result as it ends.
    #[arg(long)]
    pub verbose: bool,
    /// Games played at once, each on a thread of its own (at most one per core, or time budgets
    /// measure a shared core). The results do not depend on it.
    #[arg(long, value_name = "N", default_value_t = 1, allow_negative_numbers = true, value_parser = jobs)]
    pub jobs: usize,
    /// Write each game's OTN record to DIR/game-N.otn as it ends, tagged with the players, the
    /// seed and the result, to study games move by move (`tafl-bot replay --record FILE`).
    #[arg(long, value_name = "DIR")]
    pub records: Option<std::path::PathBuf>,
}

/// The cores here: the most games a match plays at once.
fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, std::num::NonZero::get)
}

/// Reads `--jobs`: a whole number from 1 to the cores here, which the message names as such.
fn jobs(text: &str) -> Result<usize, String> {
    let cores = cores();
    super::number_from(1, cores)(text).map_err(|_| format!("give a whole number from 1 to {cores}, the cores here"))
}

/// One side of a match.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Player {
    Level(Level, Limits),
    Search(Limits),
    Greedy(Greed),
}

impl Player {
    pub fn parse(text: &str) -> Result<Player, CliError> {
        let bad = || {
            CliError::Input(format!(
                "\"{}\" is not a player; use a level 1..5, LEVEL@nodes, millis:N, nodes:N, depth:N, greedy or greedy:material",
                shorten(text, 24)
            ))
        };
        let number = |s: &str| s.parse::<u64>().ok().filter(|&n| n > 0).ok_or_else(bad);
        match text {
            "greedy" => return Ok(Player::Greedy(Greed::Evaluation)),
            "greedy:material" => return Ok(Player::Greedy(Greed::Material)),
            _ => {}
        }
        if let Some(n) = text.strip_prefix("millis:") {
            let millis = number(n).ok().filter(|&ms| ms <= MAX_MILLIS).ok_or_else(bad)?;
            return Ok(Player::Search(Limits::millis(millis)));
        }
        if let Some(n) = text.strip_prefix("nodes:") {
            let nodes = number(n).ok().filter(|&nodes| nodes <= MAX_NODES).ok_or_else(bad)?;
            return Ok(Player::Search(Limits::nodes(nodes)));
        }
        if let Some(n) = text.strip_prefix("depth:") {
            let depth = u32::try_from(number(n)?).ok().filter(|&d| d <= MAX_DEPTH).ok_or_else(bad)?;
            return Ok(Player::Search(Limits::depth(depth)));
        }
        let (level, fixed_nodes) = match text.strip_suffix("@nodes") {
            Some(level) => (level, true),
            None => (text, false),
        };
        let level = level.parse::<u8>().ok().and_then(Level::new).ok_or_else(bad)?;
        Ok(Player::Level(level, if fixed_nodes { level.node_limits() } else { level.limits() }))
    }

    fn play(self, searcher: &mut Searcher, game: &Game, seed: u64) -> Option<tafl_rules::Move> {
        match self {
            Player::Level(level, limits) => searcher.choose_within(game, level, &limits, seed).map(|a| a.best),
            Player::Search(limits) => searcher.analyse(game, &limits).map(|a| a.best),
            Player::Greedy(greed) => engine::greedy(game, greed, seed),
        }
    }
}

/// Wins, draws and losses of player A when playing one side.
#[derive(Clone, Copy, Debug, Default)]
struct Tally {
    wins: u32,
    draws: u32,
    losses: u32,
}

impl Tally {
    fn games(self) -> u32 {
        self.wins + self.draws + self.losses
    }
}

pub fn run_match(args: &MatchArgs, out: &mut dyn Write) -> Result<(), CliError> {
    let a = Player::parse(&args.a)?;
    let b = Player::parse(&args.b)?;
    if !(1..=MAX_GAMES).contains(&args.games) {
        return Err(CliError::Input(format!("--games must be from 1 to {MAX_GAMES}, not {}", args.games)));
    }
    let cores = cores();
    if args.jobs == 0 || args.jobs > cores {
        return Err(CliError::Input(format!("--jobs must be from 1 to {cores} (the cores here), not {}", args.jobs)));
    }
    if args.max_plies <= args.random_plies as usize {
        return Err(CliError::Input(format!(
            "--max-plies ({}) must be more than --random-plies ({}), or the players never move",
            args.max_plies, args.random_plies
        )));
    }
    let rules = args.start.rules()?;
    let start = args.start.position(rules)?;
    if let Status::Finished(outcome) = Game::new(start.clone()).status() {
        return Err(CliError::Input(format!(
            "the start position is already over ({}), so there is no game to play",
            Status::Finished(outcome).name().replace('_', " ")
        )));
    }
    if let Some(dir) = &args.records {
        std::fs::create_dir_all(dir).map_err(|source| CliError::Io {
            context: format!("cannot create the records folder {}", dir.display()).into(),
            source,
        })?;
    }
    let began = Instant::now();
    // Games are handed out in order and their results kept by number, so that the table is the
    // same whatever the number of jobs; each finished game is reported at once.
    let next = std::sync::atomic::AtomicU32::new(0);
    let (done, finished) = std::sync::mpsc::channel::<(u32, Result<Played, CliError>)>();
    let mut results: Vec<Option<Played>> = (0..args.games).map(|_| None).collect();
    std::thread::scope(|scope| -> Result<(), CliError> {
        for _ in 0..args.jobs {
            let done = done.clone();
            let (next, start) = (&next, &start);
            scope.spawn(move || {
                loop {
                    let n = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    if n >= args.games {
                        return;
                    }
                    if done.send((n, play_game(args, a, b, start, n))).is_err() {
                        return;
                    }
                }
            });
        }
        drop(done);
        for (n, result) in finished {
            let played = result?;
            if let (Some(dir), Some(record)) = (&args.records, &played.record) {
                write_record(dir, n, args.games, record)?;
            }
            if args.verbose {
                // A game the move limit stopped is scored a draw, and said so.
                let how = match played.status {
                    Status::Ongoing => "scored a draw, unfinished".to_owned(),
                    status @ Status::Finished(_) => status.name().replace('_', " "),
                };
                writeln!(
                    out,
                    "game {}: A as {}, {how} after {} ({:.0} s so far)",
                    n + 1,
                    played.a_side,
                    super::count(played.plies, "ply", "plies"),
                    began.elapsed().as_secs_f64()
                )
                .map_err(CliError::write)?;
                out.flush().map_err(CliError::write)?;
            }
            results[n as usize] = Some(played);
        }
        Ok(())
    })?;
    let mut as_attackers = Tally::default();
    let mut as_defenders = Tally::default();
    let mut scores = Vec::with_capacity(results.len());
    for played in results.into_iter().flatten() {
        let winner = match played.status {
            Status::Finished(outcome) => outcome.winner,
            Status::Ongoing => None,
        };
        let tally = if played.a_side == Side::Attackers { &mut as_attackers } else { &mut as_defenders };
        let score = match winner {
            Some(w) if w == played.a_side => {
                tally.wins += 1;
                1.0
            }
            None => {
                tally.draws += 1;
                0.5
            }
            Some(_) => {
                tally.losses += 1;
                0.0
            }
        };
        scores.push(score);
    }
    write_table(out, args, as_attackers, as_defenders, &scores)
}

/// How one game of a match went.
#[derive(Clone, Debug)]
struct Played {
    a_side: Side,
    status: Status,
    plies: usize,
    /// The game's OTN record, when the match writes records.
    record: Option<String>,
}

/// Game `n` of the match (0-based): A plays the attackers in even games; each pair of games opens
/// with the same random plies.
fn play_game(args: &MatchArgs, a: Player, b: Player, start: &tafl_rules::Position, n: u32) -> Result<Played, CliError> {
    let a_side = if n.is_multiple_of(2) { Side::Attackers } else { Side::Defenders };
    let mut game = Game::new(start.clone());
    let opening_seed = args.seed.wrapping_mul(0x9e37_79b9).wrapping_add(u64::from(n / 2));
    for ply in 0..args.random_plies {
        if !game.status().is_ongoing() {
            break;
        }
        let moves = game.position().legal_moves();
        let pick = splitmix(opening_seed ^ u64::from(ply) << 32) as usize % moves.len();
        game.play(moves[pick]).expect("a listed move is legal");
    }
    let mut searchers = (Searcher::new(), Searcher::new());
    while game.status().is_ongoing() && game.ply() < args.max_plies {
        let a_moves = game.position().to_move() == a_side;
        let seed = args.seed ^ u64::from(n) << 20;
        let mv = if a_moves { a.play(&mut searchers.0, &game, seed) } else { b.play(&mut searchers.1, &game, seed) };
        let Some(mv) = mv else { break };
        game.play(mv).map_err(|e| CliError::Input(format!("the engine chose an illegal move {mv}: {e}")))?;
    }
    let record = args.records.as_ref().map(|_| {
        let (a, b) = (format!("{} (A)", args.a), format!("{} (B)", args.b));
        let (attackers, defenders) = if a_side == Side::Attackers { (a, b) } else { (b, a) };
        let termination = match game.status() {
            Status::Finished(outcome) => outcome.reason.name().to_owned(),
            Status::Ongoing => format!("unfinished after {}, scored a draw", super::count(game.ply(), "ply", "plies")),
        };
        let tags = [
            ("game", (n + 1).to_string()),
            ("attackers", attackers),
            ("defenders", defenders),
            ("seed", args.seed.to_string()),
            ("result", otn::result_tag(game.status()).to_owned()),
            ("termination", termination),
        ];
        GameRecord::from_game(&game, tags.into_iter().map(|(k, v)| (k.to_owned(), v)).collect()).to_string()
    });
    Ok(Played { a_side, status: game.status(), plies: game.ply(), record })
}

/// Writes game `n`'s record as `dir/game-N.otn` (N zero-padded to the width of `games`, so the
/// files sort in game order), replacing a file of that name. It is written whole beside under
/// another name, flushed to the disk, renamed, and the folder flushed too, so that a kill, a
/// full disk or a power cut leaves the old file or the complete new one, never a truncated
/// record that reads as a shorter game.
fn write_record(dir: &std::path::Path, n: u32, games: u32, record: &str) -> Result<(), CliError> {
    let width = games.to_string().len();
    let path = dir.join(format!("game-{:0width$}.otn", n + 1));
    super::write_whole(&path, record.as_bytes()).map_err(|source| CliError::Io {
        context: format!("cannot write the record {}", path.display()).into(),
        source,
    })
}

fn write_table(out: &mut dyn Write, args: &MatchArgs, att: Tally, def: Tally, scores: &[f64]) -> Result<(), CliError> {
    let w = |out: &mut dyn Write, text: String| writeln!(out, "{text}").map_err(CliError::write);
    let games = super::count(scores.len(), "game", "games");
    w(out, format!("{games} of {}: A = {}, B = {}", args.start.variant()?, args.a, args.b))?;
    w(out, "A plays      games  wins  draws  losses".to_owned())?;
    for (name, t) in [("attackers", att), ("defenders", def)] {
        w(out, format!("{name:<12} {:>5} {:>5} {:>6} {:>7}", t.games(), t.wins, t.draws, t.losses))?;
    }
    let total = Tally { wins: att.wins + def.wins, draws: att.draws + def.draws, losses: att.losses + def.losses };
    w(out, format!("{:<12} {:>5} {:>5} {:>6} {:>7}", "total", total.games(), total.wins, total.draws, total.losses))?;
    let (elo, low, high) = elo(scores);
    let score = 100.0 * mean(scores);
    // Decided by the scores, not by an Elo of 0: one decisive game has a bound of +0 too (half
    // a game short of 1 out of 1 is even).
    if scores.iter().all(|&s| (s - 0.5).abs() < f64::EPSILON) {
        // Every game drawn: even, as far as these games tell.
        return w(out, format!("A scores {score:.1}%; Elo difference A - B: +0 (every game drawn)"));
    }
    if scores.iter().all(|&s| (s - scores[0]).abs() < f64::EPSILON) {
        // Every game won by one player: no spread, so only a bound can be given.
        let bound = if score > 50.0 { "at least" } else { "at most" };
        return w(
            out,
            format!("A scores {score:.1}%; Elo difference A - B: {bound} {elo:+.0} (no spread to estimate from)"),
        );
    }
    let (low, high) = (elo_bound(low), elo_bound(high));
    w(out, format!("A scores {score:.1}%; Elo difference A - B: {elo:+.0} (95% interval {low} to {high})"))
}

/// An interval's bound as the table prints it: `+315`, or `+∞` (`-∞`) when the bound's score
/// reaches a perfect (nil) score, which no finite Elo difference expects.
fn elo_bound(bound: f64) -> String {
    if bound.is_infinite() {
        if bound > 0.0 { "+∞".to_owned() } else { "-∞".to_owned() }
    } else {
        format!("{bound:+.0}")
    }
}

fn mean(scores: &[f64]) -> f64 {
    scores.iter().sum::<f64>() / scores.len() as f64
}

/// The Elo difference that expects the mean score, with a 95% interval from the scores'
/// standard error. A perfect (or nil) score has no finite estimate: it is taken as half a game
/// short of perfect, so the figure is a lower (or upper) bound. The interval's bounds are not
/// clamped so: a bound whose score reaches 1 (or 0) is infinite, as no finite difference
/// expects it (clamped, the upper bound of a near-perfect score was the clamped figure itself,
/// an interval ending at its own estimate).
#[must_use]
pub fn elo(scores: &[f64]) -> (f64, f64, f64) {
    let n = scores.len() as f64;
    let p = mean(scores);
    let variance = scores.iter().map(|s| (s - p).powi(2)).sum::<f64>() / n;
    let margin = 1.96 * (variance / n).sqrt();
    // `+ 0.0` turns the -0 of an even score into 0, which prints as "+0"; a score of 1 (0)
    // gives +∞ (-∞).
    let to_elo = |x: f64| -400.0 * (1.0 / x.clamp(0.0, 1.0) - 1.0).log10() + 0.0;
    (to_elo(p.clamp(0.5 / n, 1.0 - 0.5 / n)), to_elo(p - margin), to_elo(p + margin))
}

/// A stateless mix of a seed into a well-spread number (`SplitMix64`'s finaliser), for the
/// openings' random picks.
fn splitmix(seed: u64) -> u64 {
    let mut z = seed.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elo_is_zero_for_an_even_score_and_grows_with_it() {
        let even = [1.0, 0.0, 0.5, 0.5];
        assert!(elo(&even).0.abs() < 1e-9);
        let (e, low, high) = elo(&[1.0, 1.0, 1.0, 0.0]);
        assert!((e - 190.8).abs() < 0.5, "75% is about +191 Elo, not {e}");
        assert!(low < e && e < high);
    }

    /// The bounds are not clamped as the estimate is: 39 wins and a draw in 40 games is +759
    /// (half a game short of perfect), and its upper bound is unbounded rather than +759 again.
    #[test]
    fn a_near_perfect_score_has_an_unbounded_upper_bound_above_its_estimate() {
        let mut scores = vec![1.0; 39];
        scores.push(0.5);
        let (e, low, high) = elo(&scores);
        assert!((e - 759.0).abs() < 1.0, "half a game short of 40 out of 40 is about +759, not {e}");
        assert!(low < e && low.is_finite(), "{low}");
        assert!(high.is_infinite() && high > 0.0, "{high}");
        assert_eq!(elo_bound(high), "+∞");
        // The mirror: a near-nil score has no lower bound.
        let (e, low, high) = elo(&scores.iter().map(|s| 1.0 - s).collect::<Vec<_>>());
        assert!((e + 759.0).abs() < 1.0 && high.is_finite(), "{e} {high}");
        assert_eq!(elo_bound(low), "-∞");
        // 92.5% of 40 (35 wins, 4 draws, a loss): +436, whose upper bound is +803, not the
        // +759 of the clamp.
        let mut scores = vec![1.0; 35];
        scores.extend([0.5, 0.5, 0.5, 0.5, 0.0]);
        let (e, low, high) = elo(&scores);
        assert!((e - 436.0).abs() < 1.0 && (low - 315.0).abs() < 1.0, "{e} {low}");
        assert_eq!(elo_bound(high), "+803");
    }

    /// A match of `games` games of Brandubh between levels 1 and 2.
    fn match_args(games: usize) -> MatchArgs {
        MatchArgs {
            start: StartArgs {
                variant: Some("brandubh".to_owned()),
                options: vec![],
                position: None,
                to_move: "attackers".to_owned(),
            },
            a: "1".to_owned(),
            b: "2".to_owned(),
            games: games as u32,
            random_plies: 2,
            seed: 1,
            max_plies: 400,
            verbose: false,
            jobs: 1,
            records: None,
        }
    }

    /// The Elo line of the table after `scores` (A's: 1 a win, 0.5 a draw, 0 a loss).
    fn elo_line(scores: &[f64]) -> String {
        let args = match_args(scores.len());
        let mut att = Tally::default();
        for &s in scores {
            if s > 0.75 {
                att.wins += 1;
            } else if s < 0.25 {
                att.losses += 1;
            } else {
                att.draws += 1;
            }
        }
        let mut out = Vec::new();
        write_table(&mut out, &args, att, Tally::default(), scores).expect("in memory");
        let table = String::from_utf8(out).expect("UTF-8");
        table.lines().last().expect("an Elo line").to_owned()
    }

    /// The table's first line counts the games in the right number: it said "1 games".
    #[test]
    fn the_table_counts_its_games_in_words_that_agree() {
        let headline = |scores: &[f64]| {
            let mut out = Vec::new();
            write_table(&mut out, &match_args(scores.len()), Tally::default(), Tally::default(), scores)
                .expect("in memory");
            String::from_utf8(out).expect("UTF-8").lines().next().expect("a headline").to_owned()
        };
        assert_eq!(headline(&[1.0]), "1 game of brandubh: A = 1, B = 2");
        assert_eq!(headline(&[1.0, 0.0]), "2 games of brandubh: A = 1, B = 2");
    }

    /// One decisive game used to read as "every game drawn": its range of estimates is a
    /// single point, the even score, as when every game is drawn.
    #[test]
    fn the_table_says_every_game_drawn_only_when_every_game_was() {
        assert_eq!(elo_line(&[1.0]), "A scores 100.0%; Elo difference A - B: at least +0 (no spread to estimate from)");
        assert_eq!(elo_line(&[0.0]), "A scores 0.0%; Elo difference A - B: at most +0 (no spread to estimate from)");
        for drawn in [&[0.5][..], &[0.5, 0.5, 0.5]] {
            assert_eq!(elo_line(drawn), "A scores 50.0%; Elo difference A - B: +0 (every game drawn)");
        }
        assert_eq!(
            elo_line(&[1.0, 1.0]),
            "A scores 100.0%; Elo difference A - B: at least +191 (no spread to estimate from)"
        );
        assert_eq!(
            elo_line(&[0.0, 0.0]),
            "A scores 0.0%; Elo difference A - B: at most -191 (no spread to estimate from)"
        );
        // Two games tell nothing either way: the interval has no bound (it printed -191 to +191,
        // the clamp of the estimate).
        assert_eq!(elo_line(&[1.0, 0.0]), "A scores 50.0%; Elo difference A - B: +0 (95% interval -∞ to +∞)");
    }

    #[test]
    fn players_parse_and_bad_ones_are_named() {
        assert_eq!(Player::parse("greedy").unwrap(), Player::Greedy(Greed::Evaluation));
        assert_eq!(Player::parse("greedy:material").unwrap(), Player::Greedy(Greed::Material));
        assert_eq!(Player::parse("millis:250").unwrap(), Player::Search(Limits::millis(250)));
        let five = Level::new(5).unwrap();
        assert_eq!(Player::parse("5@nodes").unwrap(), Player::Level(five, five.node_limits()));
        for bad in
            ["6", "0", "millis:0", "nodes:x", "nodes:100000000001", "depth:999", "strong", "greedy:", "greedy:men"]
        {
            let message = Player::parse(bad).unwrap_err().to_string();
            assert!(message.contains("is not a player"), "{bad}: {message}");
        }
    }
}
