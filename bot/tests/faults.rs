//! The real binary under faults of its surroundings: a full disk (a file-size limit on the
//! process), an unwritable stderr, and endless input.

mod support;

use std::io::{BufRead, BufReader, Read, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};

use support::{find_game, temp_path};
use tafl_rules::{Reason, Variant};

const BIN: &str = env!("CARGO_BIN_EXE_tafl-bot");

/// Sets the soft file-size limit of a running process (`prlimit` from util-linux): writes past
/// `limit` bytes of any file then fail with EFBIG, as on a full disk.
fn set_file_size_limit(pid: u32, limit: &str) {
    let status = Command::new("prlimit")
        .arg(format!("--pid={pid}"))
        .arg(format!("--fsize={limit}:"))
        .status()
        .expect("prlimit (util-linux) runs");
    assert!(status.success(), "prlimit --fsize={limit}: failed");
}

struct Console {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<std::process::ChildStdout>,
}

impl Console {
    /// `tafl-bot local` on `db`, with SIGXFSZ ignored (as servers run) so that a write past the
    /// file-size limit fails instead of killing the process.
    fn start(db: &Path) -> Console {
        let mut child = Command::new("sh")
            .args(["-c", "trap '' XFSZ; exec \"$0\" \"$@\"", BIN, "local", "--no-png", "--quiet", "--db"])
            .arg(db)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let stdin = child.stdin.take().unwrap();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        Console { child, stdin, stdout }
    }

    /// Sends one command and returns the line that answers it: a `… played …` line or an
    /// `error: …` line (boards and other lines in between are skipped).
    fn send(&mut self, command: &str, answered: impl Fn(&str) -> bool) -> String {
        writeln!(self.stdin, "{command}").unwrap();
        self.stdin.flush().unwrap();
        loop {
            let mut line = String::new();
            assert!(self.stdout.read_line(&mut line).unwrap() > 0, "the console ended after {command}");
            let line = line.trim_end();
            if line.starts_with("error:") || answered(line) {
                return line.to_owned();
            }
        }
    }

    fn play(&mut self, who: &str, mv: &str) -> String {
        self.send(&format!("as @{who} /move {mv} game:1"), |line| line.contains(" played "))
    }
}

#[test]
fn a_full_disk_refuses_moves_with_its_own_sentence_and_writes_resume_once_space_returns() {
    let db = temp_path("disk-full");
    let moves = find_game(Variant::Copenhagen, Reason::KingEscaped, 400);
    let mut console = Console::start(&db);
    console.send("/as @ann", |l| l.starts_with("you are now"));
    console.send("/challenge @ben copenhagen side:attackers", |l| l.starts_with("@ben may answer"));
    console.send("as @ben /accept", |l| l.contains("accepted challenge"));
    let who = |ply: usize| if ply.is_multiple_of(2) { "ann" } else { "ben" };
    for (ply, mv) in moves.iter().enumerate().take(3) {
        assert!(console.play(who(ply), mv).contains(" played "));
    }

    // The disk fills up: every write fails, and each attempt says so instead of "try again".
    set_file_size_limit(console.child.id(), "0");
    for _ in 0..3 {
        let answer = console.play(who(3), &moves[3]);
        assert!(
            answer.contains("could not write to its disk") || answer.contains("disk is full"),
            "a storage fault is named: {answer}"
        );
        assert!(answer.contains("nothing was saved"), "{answer}");
    }
    assert!(
        console.send("/board 1", |l| l.starts_with("game #1, ply")).ends_with("ply 3: @ben to move with the defenders")
    );

    // Space returns: the very next move is saved, and so are the ones after it.
    set_file_size_limit(console.child.id(), "unlimited");
    for (ply, mv) in moves.iter().enumerate().skip(3).take(4) {
        let answer = console.play(who(ply), mv);
        assert!(answer.ends_with(&format!("ply {})", ply + 1)), "move {} is saved: {answer}", ply + 1);
    }
    console.send("/quit", |_| true);
    drop(console.stdin);
    // The three refused moves make the piped session end with status 1.
    assert_eq!(console.child.wait().unwrap().code(), Some(1));

    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    let stored: Vec<String> = runtime.block_on(async {
        let db = tafl_bot::store::Db::open_file(&db).await.unwrap();
        sqlx::query_scalar("SELECT notation FROM moves WHERE game_id = 1 ORDER BY ply")
            .fetch_all(db.pool())
            .await
            .unwrap()
    });
    assert_eq!(stored, moves[..7]);
}

/// Runs the binary with `args`, `stdin` as input and stderr on /dev/full; returns the status code
/// and stdout.
fn run_with_full_stderr(args: &[&str], stdin: Stdio) -> (Option<i32>, String) {
    let full = std::fs::OpenOptions::new().write(true).open("/dev/full").expect("/dev/full exists");
    let output = Command::new(BIN).args(args).stdin(stdin).stderr(full).output().unwrap();
    (output.status.code(), String::from_utf8_lossy(&output.stdout).into_owned())
}

#[test]
fn an_unwritable_stderr_never_panics_a_command() {
    // Failures whose one sentence cannot be written still exit 1, not 101.
    for args in [
        &["replay", "--variant", "nope", "e1-e3"][..],
        &["replay", "--variant", "copenhagen", "z99-z98"],
        &["render", "--variant", "nope", "-o", "/nonexistent/x.png"],
        &["perft", "--variant", "copenhagen"],
        &["no-such-command"],
        &[],
    ] {
        let (code, _) = run_with_full_stderr(args, Stdio::null());
        assert_eq!(code, Some(1), "tafl-bot {args:?} with stderr on /dev/full");
    }
    // A run that succeeds still succeeds.
    let (code, stdout) = run_with_full_stderr(&["replay", "--variant", "brandubh", "d6-c6"], Stdio::null());
    assert_eq!(code, Some(0));
    assert!(stdout.contains("d6-c6"), "{stdout}");
    // The console logs to stderr (RUST_LOG=debug logs every move) and still plays.
    let db = temp_path("full-stderr");
    let mut child = Command::new(BIN)
        .args(["local", "--no-png", "--quiet", "--db"])
        .arg(&db)
        .env("RUST_LOG", "debug")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(std::fs::OpenOptions::new().write(true).open("/dev/full").unwrap())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"/as @ann\n/challenge @ben brandubh side:attackers\nas @ben /accept\n/move d6-c6\n/resign\n")
        .unwrap();
    let mut stdout = String::new();
    child.stdout.take().unwrap().read_to_string(&mut stdout).unwrap();
    let status = child.wait().unwrap();
    assert!(stdout.contains("played d6-c6"), "{stdout}");
    assert_eq!(status.code(), Some(0), "{stdout}");
}

/// Runs the binary with `args` and stdin from /dev/zero, under a 1 GB address-space limit (the
/// unbounded readers grew to several GB in seconds); returns the status code and stderr and
/// stdout.
fn run_on_zeros(args: &[&str], stdin_zero: bool) -> (Option<i32>, String, String) {
    let script = "ulimit -v 1048576; exec \"$0\" \"$@\"";
    let output = Command::new("sh")
        .args(["-c", script, BIN])
        .args(args)
        .stdin(if stdin_zero { Stdio::from(std::fs::File::open("/dev/zero").unwrap()) } else { Stdio::null() })
        .output()
        .unwrap();
    (
        output.status.code(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
        String::from_utf8_lossy(&output.stdout).into_owned(),
    )
}

#[test]
fn endless_inputs_stop_at_their_limit_with_one_sentence() {
    let (code, stderr, _) = run_on_zeros(&["replay", "--record", "/dev/zero"], false);
    assert_eq!(code, Some(1), "{stderr}");
    assert_eq!(
        stderr.trim(),
        "error: cannot read the record /dev/zero: it is larger than 1 MB, the most the bot reads"
    );

    // Stdin is named so, not "-".
    let (code, stderr, _) = run_on_zeros(&["replay", "--record", "-"], true);
    assert_eq!(code, Some(1), "{stderr}");
    assert_eq!(stderr.trim(), "error: cannot read the record on stdin: it is larger than 1 MB, the most the bot reads");

    let (code, stderr, _) = run_on_zeros(&["replay", "--variant", "copenhagen"], true);
    assert_eq!(code, Some(1), "{stderr}");
    assert_eq!(
        stderr.trim(),
        "error: the moves on stdin are longer than 1 MB, the most replay reads; a game fits in far less"
    );

    let db = temp_path("zeros");
    let db = db.to_str().unwrap();
    let (code, stderr, _) = run_on_zeros(&["local", "--no-png", "--quiet", "--db", db], true);
    assert_eq!(code, Some(1), "{stderr}");
    assert!(
        stderr.trim().ends_with("a command line is longer than 64 KB, the most the console reads; the session ends"),
        "{stderr}"
    );

    let mut child = Command::new("sh")
        .args(["-c", "ulimit -v 1048576; exec \"$0\" \"$@\"", BIN, "local", "--no-png", "--quiet", "--db", db])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(b"/import /dev/zero @ann @ben\n").unwrap();
    let mut stdout = String::new();
    child.stdout.take().unwrap().read_to_string(&mut stdout).unwrap();
    child.wait().unwrap();
    assert_eq!(stdout.trim(), "error: cannot read /dev/zero: it is larger than 1 MB, the most the bot reads");
}
