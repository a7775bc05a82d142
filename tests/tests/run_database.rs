//! `tafl-bot run` and its database, as the operator who starts it meets them: what it says
//! about where the games are kept, and that no password is printed.

#![cfg(unix)]

use std::io::Read;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

use tafl_e2e::harness::temp_dir;

const BINARY: &str = env!("CARGO_BIN_EXE_tafl-bot-e2e");

/// Waits (at most `limit`) for `child` to exit; its status and stderr (None: still running,
/// killed).
fn exit_within(mut child: std::process::Child, limit: Duration) -> (Option<std::process::ExitStatus>, String) {
    let reader = child.stderr.take().map(|mut pipe| {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            let _ = pipe.read_to_end(&mut bytes);
            String::from_utf8_lossy(&bytes).into_owned()
        })
    });
    let deadline = std::time::Instant::now() + limit;
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait") {
            break Some(status);
        }
        if std::time::Instant::now() >= deadline {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    (status, reader.map(|r| r.join().unwrap()).unwrap_or_default())
}

/// `tafl-bot run` with a token and `DATABASE_URL=url`, against a Discord nobody answers: for a
/// start refused before it reaches Discord. stderr is piped.
fn run_with_database(url: &str, dir: &Path) -> Command {
    let mut command = Command::new(BINARY);
    command.arg("run");
    with_database(&mut command, url, dir);
    command
}

/// The environment of [`run_with_database`].
fn with_database(command: &mut Command, url: &str, dir: &Path) {
    command
        .current_dir(dir)
        .env("DISCORD_TOKEN", "t")
        .env("DATABASE_URL", url)
        .env("DISCORD_API_BASE", "http://127.0.0.1:1")
        .env_remove("DISCORD_API_RESOLVE")
        .env_remove("DISCORD_GUILD_ID")
        .env_remove("DISCORD_SHARDS")
        .env_remove("DISCORD_SHARD_COUNT")
        .env_remove("TAFL_HEALTH_ADDR")
        .env("RUST_LOG", "warn")
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
}

/// The one sentence a refused start ends with: its exit status is 1 and its last line starts
/// with `error:`.
fn refusal(status: Option<std::process::ExitStatus>, stderr: &str) -> String {
    assert_eq!(status.and_then(|s| s.code()), Some(1), "not refused with status 1: {status:?}; stderr:\n{stderr}");
    let last = stderr.lines().last().unwrap_or_default().to_owned();
    assert!(last.starts_with("error: "), "{stderr}");
    last
}

/// README: "a password is never printed". `postgres://…?password=…` is a form sqlx accepts (as
/// libpq does); the start-up error printed it, as did the console's and `migrate-db`'s. A
/// password-like parameter sqlx does not read (`sslpassword`) was logged by sqlx itself, value
/// and all, as an unrecognised parameter: it is refused by name.
#[test]
fn a_password_given_as_a_url_parameter_is_never_printed() {
    let dir = temp_dir("password-parameter");
    let url = "postgres://tafl@127.0.0.1:1/tafl?sslmode=disable&password=hunter2";
    let (status, stderr) = exit_within(run_with_database(url, &dir).spawn().unwrap(), Duration::from_secs(20));
    let said = refusal(status, &stderr);
    assert!(!stderr.contains("hunter2"), "the password is printed: {stderr}");
    assert!(said.contains("postgres://tafl@127.0.0.1:1/tafl?sslmode=disable&password=***"), "{said}");

    let unread = "postgres://tafl@127.0.0.1:1/tafl?sslpassword=hunter2";
    let mut run = run_with_database(unread, &dir);
    run.env("RUST_LOG", "trace");
    let (status, stderr) = exit_within(run.spawn().unwrap(), Duration::from_secs(20));
    let said = refusal(status, &stderr);
    assert!(!stderr.contains("hunter2"), "the password is printed: {stderr}");
    assert!(said.contains("sslpassword parameter is not one tafl-bot reads"), "{said}");

    for args in [
        vec!["local", "--no-png", "--lang", "en", "--db", url],
        vec!["migrate-db", "--from", url, "--to", "postgres://tafl@127.0.0.1:1/tafl"],
        vec!["migrate-db", "--from", "sqlite://tafl.db", "--to", url],
    ] {
        let output = Command::new(BINARY).args(&args).current_dir(&dir).stdin(Stdio::null()).output().unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(1), "{args:?}: {stderr}");
        assert!(!stderr.contains("hunter2"), "{args:?}: the password is printed: {stderr}");
    }
}

/// The binary a server owner installs documented none of the variables `run` reads: `tafl-bot
/// run --help` said only "Connect to Discord (`DISCORD_TOKEN`)…". `DATABASE_URL`, and its
/// default (a file `tafl.db` in the working directory), are in the help.
#[test]
fn run_help_names_where_the_games_are_kept() {
    let output = Command::new(BINARY).args(["run", "--help"]).output().unwrap();
    let help = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{help}");
    for said in ["DATABASE_URL", "sqlite://tafl.db", "working directory", "sqlite:///", "TAFL_HEALTH_ADDR"] {
        assert!(help.contains(said), "{said}: {help}");
    }
}

/// `DATABASE_URL=/var/lib/tafl/tafl.db`, a plain path (which `tafl-bot local --db` takes), was
/// answered with "starts with no kind of database before its colon": there is no colon.
#[test]
fn a_plain_path_as_database_url_is_told_how_to_write_it() {
    let dir = temp_dir("plain-path");
    let (status, stderr) =
        exit_within(run_with_database("/var/lib/tafl/tafl.db", &dir).spawn().unwrap(), Duration::from_secs(20));
    let said = refusal(status, &stderr);
    assert_eq!(
        said,
        "error: DATABASE_URL /var/lib/tafl/tafl.db is a file name, not a URL; write it as sqlite:///var/lib/tafl/tafl.db"
    );
}

/// `sqlite://var/lib/tafl/tafl.db` (two slashes: a path relative to the working directory, meant
/// absolute) whose folder is missing there: the sentence says where it was looked for, and how
/// to write an absolute path.
#[test]
fn a_relative_sqlite_path_whose_folder_is_missing_suggests_three_slashes() {
    let dir = temp_dir("relative-path");
    let (status, stderr) =
        exit_within(run_with_database("sqlite://var/lib/tafl/tafl.db", &dir).spawn().unwrap(), Duration::from_secs(20));
    let said = refusal(status, &stderr);
    let working = std::fs::canonicalize(&dir).unwrap();
    assert_eq!(
        said,
        format!(
            "error: cannot open the database sqlite://var/lib/tafl/tafl.db: its folder var/lib/tafl does not exist in \
             the working directory {} (a path after sqlite:// is relative to it; an absolute one takes three slashes, \
             as in sqlite:///var/lib/tafl/tafl.db); create the folder, or name a file in a folder that does exist",
            working.display()
        )
    );
    assert!(!dir.join("var").exists(), "nothing is created");
}
