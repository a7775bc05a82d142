//! Audit of `tafl-bot local` (outside review): scripts a person could type, each showing a
//! command that does something other than what was typed without saying so. These tests fail
//! on the code as reviewed; each names the behaviour a player would expect.

use std::io::Write;
use std::process::{Command, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_tafl-bot");

/// Runs an English `tafl-bot local` session on a fresh database with `script` piped in, and
/// returns its stdout (the echoed commands and the replies).
fn session(script: &str) -> String {
    let dir = tempfile::tempdir().expect("a scratch folder");
    let mut child = Command::new(BIN)
        .arg("local")
        .arg("--db")
        .arg(dir.path().join("audit.db"))
        .arg("--no-png")
        .env("LANG", "C.UTF-8")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("tafl-bot starts");
    let mut stdin = child.stdin.take().expect("stdin");
    let input = script.to_owned();
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(input.as_bytes());
    });
    let output = child.wait_with_output().expect("the session ends");
    writer.join().expect("written");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
    String::from_utf8(output.stdout).expect("UTF-8")
}

/// The reply to the command echoed as `you> {command}`: the lines after it, up to the next
/// echoed command.
fn reply<'a>(out: &'a str, command: &str) -> Vec<&'a str> {
    let echo = format!("> {command}");
    let mut lines = out.lines().skip_while(|l| !l.ends_with(&echo));
    lines.next().unwrap_or_else(|| panic!("{command:?} was not run:\n{out}"));
    lines.take_while(|l| !l.contains("> /") && !l.contains("> as @")).collect()
}

/// `/challenge @bob brandubh variant:tablut` names two variants. A second bare variant
/// (`/challenge @bob brandubh tablut`) is refused, and so are a second opponent and a second
/// level ("refused rather than silently taking the place of the first", says the parser), but
/// a second variant written `variant:` silently replaced the first: the challenge went out for
/// Tablut.
#[test]
fn a_second_variant_written_with_variant_colon_is_refused_like_a_bare_one() {
    let out = session("/challenge @bob brandubh tablut\n/challenge @bob brandubh variant:tablut\n");
    let bare = reply(&out, "/challenge @bob brandubh tablut");
    assert!(bare[0].starts_with("error:"), "the bare second variant is refused: {bare:?}");
    let keyed = reply(&out, "/challenge @bob brandubh variant:tablut");
    assert!(keyed[0].starts_with("error:"), "a challenge went out for one of the two variants: {keyed:?}");
}

/// The same for the other options a challenge takes once: `side:attackers side:defenders`,
/// `clock:1d clock:3d` and `rated:false rated:true` each made a challenge with the last one,
/// without a word about the first. Against the bot, `rated:false rated:true` started a rated
/// game.
#[test]
fn a_challenge_option_given_twice_with_two_values_is_refused() {
    let commands = [
        "/challenge @bob brandubh side:attackers side:defenders",
        "/challenge @bob brandubh clock:1d clock:3d",
        "/challenge @ai level:1 brandubh rated:false rated:true",
    ];
    let out = session(&(commands.join("\n") + "\n"));
    for command in commands {
        let said = reply(&out, command);
        assert!(said[0].starts_with("error:"), "{command} was taken with its last value: {said:?}");
    }
}

/// `/import FILE @ann @ben` answers "imported as game #2", and sets the session's last game to
/// it; a bare `/summary`, `/export` or `/board` right after should be about that game. They
/// showed game #1, an older game of the one typing, with no word that it is another game: the
/// last game counts only when the one typing plays in it, though these three commands read any
/// game (`/summary 2` works).
#[test]
fn after_an_import_between_others_a_bare_summary_is_about_the_imported_game() {
    let out = session(
        "/challenge @bob brandubh side:attackers\nas @bob /accept\n/resign\n/import RECORD @ann @ben\n/summary\n/export\n"
            .replace("RECORD", &record_file())
            .as_str(),
    );
    let imported = out.lines().find(|l| l.starts_with("imported as game #")).unwrap_or_else(|| panic!("{out}"));
    assert!(imported.starts_with("imported as game #2"), "{imported}");
    let summary = reply(&out, "/summary");
    assert!(summary[0].starts_with("Game #2"), "the summary of another game: {summary:?}");
    let export = reply(&out, "/export");
    assert!(export.contains(&"[attackers:ann]"), "the record of another game: {export:?}");
}

/// `/games bob` (the `@` forgotten) listed the games of the one typing, as if they were bob's:
/// every word but `all` and an `@name` is dropped unread. It should list bob's games or say
/// that `bob` is not understood.
#[test]
fn games_with_a_name_without_its_at_sign_is_not_answered_with_ones_own_games() {
    let out = session(
        "/challenge @carol brandubh\nas @carol /accept\nas @bob /challenge @dave brandubh\nas @dave /accept\n/games bob\n",
    );
    let listed = reply(&out, "/games bob");
    assert!(
        listed[0].starts_with("error:") || listed.iter().any(|l| l.contains("@dave")),
        "/games bob answered with @you's own games: {listed:?}"
    );
}

/// A finished Brandubh record between two named players, written to a temporary file that
/// lives as long as the test process.
fn record_file() -> String {
    let path = std::env::temp_dir().join(format!("audit-console-{}.otn", std::process::id()));
    std::fs::write(
        &path,
        "[attackers:ann]\n[defenders:ben]\n[result:1]\n[rules:dim:7 esc:c surf:n ka:y ks:m cens:K cenp:K \
         cenhe:tT cenh: sw:n efe:n tfr:d start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/]\n1. d2-c2 d5-f5\n",
    )
    .expect("the record is written");
    path.display().to_string()
}

/// A refused command changes nothing (QUALITY.md), and `/profile @name` says "there is no
/// player" for a name never used. But `/challenge @typo nosuchvariant` and an `/import` of an
/// unreadable record, both refused, stored their players first: `/profile @typo` then showed
/// the profile of a player who never played, made by a typo.
#[test]
fn a_refused_challenge_or_import_adds_no_player() {
    let out = session(
        "/challenge @typo nosuchvariant\n/profile @typo\n/import /nonexistent.otn @ghost @ghoul\n/import RECORD @ghost @ghoul\n/profile @ghost\n"
            .replace("RECORD", &unreadable_record())
            .as_str(),
    );
    assert!(reply(&out, "/challenge @typo nosuchvariant")[0].starts_with("error:"), "{out}");
    let typo = reply(&out, "/profile @typo");
    assert_eq!(typo, ["error: there is no player @typo"], "a refused challenge stored its opponent");
    let ghost = reply(&out, "/profile @ghost");
    assert_eq!(ghost, ["error: there is no player @ghost"], "a refused import stored its players");
}

/// A record whose first turn is written without a space after its number, which the reader
/// refuses.
fn unreadable_record() -> String {
    let path = std::env::temp_dir().join(format!("audit-console-bad-{}.otn", std::process::id()));
    std::fs::write(
        &path,
        "[result:1]\n[rules:dim:7 esc:c surf:n ka:y ks:m cens:K cenp:K cenhe:tT cenh: sw:n efe:n tfr:d \
         start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/]\n1.d2-c2 d5-f5\n",
    )
    .expect("the record is written");
    path.display().to_string()
}

/// `/move d2-c2 game:1 game:2` names two games; the move was played in game #1 without a word
/// about game #2. A command that plays a move must not guess which game was meant (`/resign 1
/// 2` is refused for that reason).
#[test]
fn a_move_naming_two_games_is_refused() {
    let out = session(
        "/challenge @bob brandubh side:attackers\nas @bob /accept\n/challenge @carol brandubh side:attackers\n\
         as @carol /accept\n/resign 1 2\n/move d2-c2 game:1 game:2\n",
    );
    assert!(reply(&out, "/resign 1 2")[0].starts_with("error:"), "{out}");
    let played = reply(&out, "/move d2-c2 game:1 game:2");
    assert!(played[0].starts_with("error:"), "a move was played in one of the two games: {played:?}");
}
