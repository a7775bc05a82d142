//! Replays real recorded games (`../shared/data/records/`, see its README) as an independent
//! check of the engine: every move legal, every recorded capture set equal to the engine's, every
//! game that ends on the board ending with the recorded result.
//!
//! The records are read where they are and never copied into the repository. Set
//! `TAFL_RECORDS_DIR` to read them from elsewhere. Where the folder is absent the tests say so and
//! pass, except under `CI=true`, where a missing folder is a failure.

use std::path::PathBuf;

use tafl_rules::{Game, MoveText, Position, Repetition, Rules, Side, Status, Variant};

fn records_dir() -> Option<PathBuf> {
    let dir = std::env::var_os("TAFL_RECORDS_DIR")
        .map_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/data/records"), PathBuf::from);
    if dir.is_dir() {
        return Some(dir);
    }
    assert!(
        std::env::var("CI").as_deref() != Ok("true"),
        "the game records are missing at {}: CI must replay them",
        dir.display()
    );
    eprintln!("skipping: no game records at {} (set TAFL_RECORDS_DIR)", dir.display());
    None
}

/// One row of a records file: `moves,attacker_captures,defender_captures,status`.
struct Record {
    line: usize,
    moves: Vec<String>,
    // The two capture-count columns count a square listed twice twice, so they say nothing the
    // per-ply capture lists do not; they are not compared.
    status: String,
}

fn read_records(file: &str) -> Option<Vec<Record>> {
    let path = records_dir()?.join(file);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let records = text
        .lines()
        .enumerate()
        .filter(|(_, line)| !line.trim().is_empty())
        .map(|(n, line)| {
            let fields: Vec<&str> = line.split(',').collect();
            assert_eq!(fields.len(), 4, "{file}:{}: expected 4 columns", n + 1);
            Record {
                line: n + 1,
                moves: fields[0].split_whitespace().map(str::to_owned).collect(),
                status: fields[3].trim().to_owned(),
            }
        })
        .collect();
    Some(records)
}

#[derive(Debug, Default)]
struct Tally {
    games: usize,
    plies: usize,
    ended_on_board: usize,
    /// How the games that ended on the board ended, to show which rules the records exercise.
    reasons: std::collections::BTreeMap<String, usize>,
    failures: Vec<String>,
}

/// Replays every record under `rules`, collecting every disagreement rather than stopping at the
/// first, so one run shows the whole picture.
fn replay_all(file: &str, rules: &Rules) -> Option<Tally> {
    let records = read_records(file)?;
    let start = Position::new(rules.clone()).expect("preset rules are valid");
    let mut tally = Tally::default();
    for record in &records {
        tally.games += 1;
        let mut game = Game::new(start.clone());
        let mut failed = false;
        let tokens: Vec<&str> =
            record.moves.iter().map(String::as_str).take_while(|t| !t.eq_ignore_ascii_case("timeout")).collect();
        for (ply, token) in tokens.iter().enumerate() {
            let fail = |what: String| format!("{file}:{} ply {} ({token}): {what}", record.line, ply + 1);
            if !game.status().is_ongoing() {
                tally.failures.push(fail(format!("the game already ended ({:?})", game.status())));
                failed = true;
                break;
            }
            let text: MoveText = match token.parse() {
                Ok(text) => text,
                Err(e) => {
                    tally.failures.push(fail(e.to_string()));
                    failed = true;
                    break;
                }
            };
            // Compare captures on every ply, also where the record lists none (`play_text` checks
            // only written claims, as the CLI must).
            let mut claimed = text.captures.clone();
            claimed.sort_unstable();
            claimed.dedup(); // a captured square is sometimes listed twice
            match game.play(text.mv) {
                Ok(played) if played.captures == claimed => {}
                Ok(played) => {
                    tally.failures.push(fail(format!("the engine captures {:?}", played.captures)));
                    failed = true;
                    break;
                }
                Err(e) => {
                    tally.failures.push(fail(e.to_string()));
                    failed = true;
                    break;
                }
            }
            tally.plies += 1;
        }
        if failed {
            continue;
        }
        let here = format!("{file}:{}", record.line);
        if let Status::Finished(outcome) = game.status() {
            tally.ended_on_board += 1;
            *tally.reasons.entry(outcome.reason.to_string()).or_default() += 1;
            let engine = match outcome.winner {
                Some(Side::Attackers) => "Black",
                Some(Side::Defenders) => "White",
                None => "Draw",
            };
            if engine != record.status {
                tally.failures.push(format!(
                    "{here}: the engine ends the game as {engine} ({}), the record says {:?}",
                    outcome.reason, record.status
                ));
            }
        }
    }
    Some(tally)
}

fn assert_clean(tally: &Tally, expected_games: usize) {
    eprintln!(
        "{} games, {} plies, {} ended on the board {:?}, {} failures",
        tally.games,
        tally.plies,
        tally.ended_on_board,
        tally.reasons,
        tally.failures.len()
    );
    assert!(tally.failures.is_empty(), "{} disagreements:\n{}", tally.failures.len(), tally.failures.join("\n"));
    assert_eq!(tally.games, expected_games, "the number of recorded games changed");
}

#[test]
fn every_recorded_copenhagen_game_replays_with_the_recorded_captures_and_result() {
    let mut rules = Variant::Copenhagen.rules();
    // A few recorded games contain repetitions that were not adjudicated (records README).
    rules.repetition = Repetition::Ignore;
    if let Some(tally) = replay_all("copenhagen.csv", &rules) {
        assert_clean(&tally, 1752);
        // 87,547 recorded tokens, 273 of them `timeout`.
        assert_eq!(tally.plies, 87_274, "every recorded ply is replayed");
    }
}

#[test]
fn every_recorded_brandubh_game_replays_under_historical_7_rules() {
    let mut rules = Variant::Historical7.rules();
    rules.repetition = Repetition::Ignore;
    if let Some(tally) = replay_all("brandubh.csv", &rules) {
        assert_clean(&tally, 525);
        // 11,237 recorded tokens, 11 of them `timeout`.
        assert_eq!(tally.plies, 11_226, "every recorded ply is replayed");
    }
}
