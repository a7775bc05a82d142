//! Killing the process at any moment loses no acknowledged move and leaves no half-written game:
//! `tafl-bot local` plays a long game from a piped script and is killed with SIGKILL after a
//! varying number of acknowledged moves, then restarted on the same database, many times.

mod support;

use std::fmt::Write as _;
use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};

use support::{find_game, temp_path};
use tafl_bot::host::Host;
use tafl_bot::store::Db;
use tafl_rules::{Reason, Variant};

const BIN: &str = env!("CARGO_BIN_EXE_tafl-bot");
const RESTARTS: usize = 25;

/// Runs `tafl-bot local` with `script`, kills it (SIGKILL) once `kill_after` moves were
/// acknowledged, and returns the plies acknowledged.
fn run_and_kill(db: &std::path::Path, script: String, kill_after: usize) -> Vec<usize> {
    let mut child = Command::new(BIN)
        .args(["local", "--no-png", "--quiet", "--db"])
        .arg(db)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        // The child dies mid-script: a broken pipe is expected.
        let _ = stdin.write_all(script.as_bytes());
    });
    let mut acknowledged = Vec::new();
    for line in BufReader::new(child.stdout.take().unwrap()).lines() {
        let Ok(line) = line else { break };
        // "@ann played d1-d3 (game #1, ply 7)"
        if let Some(ply) = line.split(", ply ").nth(1).and_then(|p| p.trim_end_matches(')').parse().ok()) {
            acknowledged.push(ply);
            if acknowledged.len() >= kill_after {
                child.kill().unwrap(); // SIGKILL on Unix
                break;
            }
        }
    }
    let _ = child.wait();
    writer.join().unwrap();
    acknowledged
}

#[test]
fn a_killed_process_loses_no_acknowledged_move_and_play_continues() {
    let db = temp_path("durability");
    let moves = find_game(Variant::Copenhagen, Reason::KingEscaped, 400);
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    let script_from = |ply: usize| {
        let mut script = String::new();
        if ply == 0 {
            script.push_str("/as @ann\n/challenge @ben copenhagen side:attackers\nas @ben /accept\n");
        }
        for (n, mv) in moves.iter().enumerate().skip(ply) {
            let who = if n % 2 == 0 { "ann" } else { "ben" };
            let _ = writeln!(script, "as @{who} /move {mv} game:1");
        }
        script
    };
    let mut ply = 0;
    let mut restarts = 0;
    while ply < moves.len() && restarts < RESTARTS {
        // Kill after 1 to 9 acknowledged moves: somewhere inside the next move's work.
        let acknowledged = run_and_kill(&db, script_from(ply), 1 + restarts % 9);
        restarts += 1;
        let shown = runtime.block_on(async {
            let host = Host::new(Db::open_file(&db).await.expect("the database opens after a kill"));
            // Loading replays and checks every stored move: a half-written game would fail here.
            let shown = host.show(1).await.expect("the game loads after a kill");
            let stored: Vec<String> = sqlx::query_scalar("SELECT notation FROM moves WHERE game_id = 1 ORDER BY ply")
                .fetch_all(host.db().pool())
                .await
                .unwrap();
            assert_eq!(stored.len(), shown.ply, "the ply cache agrees with the move list");
            assert_eq!(stored, moves[..shown.ply], "the stored moves are the script's, in order");
            host.db().close().await;
            shown
        });
        let last_ack = acknowledged.last().copied().unwrap_or(ply);
        assert!(shown.ply >= last_ack, "acknowledged ply {last_ack} is stored (found {})", shown.ply);
        ply = shown.ply;
    }
    assert!(restarts >= 10, "the game outlasted several kills");
    // Finish the game in one last run and check the result.
    let acknowledged = run_and_kill(&db, script_from(ply), usize::MAX);
    assert_eq!(acknowledged.last().copied(), Some(moves.len()));
    let shown = runtime.block_on(async {
        let host = Host::new(Db::open_file(&db).await.unwrap());
        host.show(1).await.unwrap()
    });
    assert!(shown.is_over());
}
