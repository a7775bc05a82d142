//! Regressions found by an outside review of `tafl-bot local`: scripts a person could type, where
//! a command did something other than what was typed without saying so. Each test names the
//! behaviour a player expects: a command that cannot tell what was meant refuses in one sentence,
//! and a refused command changes nothing.

mod support;

/// Runs an English `tafl-bot local` session on a fresh database with `script` piped in, and
/// returns its stdout (the echoed commands and the replies).
fn session(script: &str) -> String {
    session_in("en", script)
}

/// [`session`] in the language `lang`.
fn session_in(lang: &str, script: &str) -> String {
    support::local(&support::temp_path("console"), &["--no-png", "--lang", lang], script)
}

/// The reply to the command echoed as `you> {command}`: the lines after it, up to the next
/// echoed command.
fn reply<'a>(out: &'a str, command: &str) -> Vec<&'a str> {
    let echo = format!("> {command}");
    let mut lines = out.lines().skip_while(|l| !l.ends_with(&echo));
    lines.next().unwrap_or_else(|| panic!("{command:?} was not run:\n{out}"));
    lines.take_while(|l| !l.contains("> /") && !l.contains("> as @")).collect()
}

/// `/challenge @bob brandubh variant:tablut` names two variants, and is refused as a second bare
/// variant (`/challenge @bob brandubh tablut`) is, naming both; it went out for Tablut.
#[test]
fn a_second_variant_written_with_variant_colon_is_refused_like_a_bare_one() {
    let out = session("/challenge @bob brandubh tablut\n/challenge @bob brandubh variant:tablut\n");
    let bare = reply(&out, "/challenge @bob brandubh tablut");
    assert!(bare[0].starts_with("error:"), "the bare second variant is refused: {bare:?}");
    let keyed = reply(&out, "/challenge @bob brandubh variant:tablut");
    assert_eq!(keyed, ["error: choose one variant: brandubh or variant:tablut, not both"]);
}

/// The same for the other options a challenge takes once: `side:attackers side:defenders`,
/// `clock:1d clock:3d` and `rated:false rated:true` are refused, naming both (each made a
/// challenge with the last one; against the bot, `rated:false rated:true` started a rated game).
/// Nothing is made: the session has no challenge and no game afterwards.
#[test]
fn a_challenge_option_given_twice_with_two_values_is_refused() {
    let commands = [
        ("/challenge @bob brandubh side:attackers side:defenders", "choose one side: side:attackers or side:defenders"),
        ("/challenge @bob brandubh clock:1d clock:3d", "choose one clock: clock:1d or clock:3d"),
        (
            "/challenge @ai level:1 brandubh rated:false rated:true",
            "say once whether the game is rated: rated:false or rated:true",
        ),
        ("/challenge @ai level:1 level:2", "choose one level for the engine: level:1 or level:2"),
    ];
    let script: Vec<&str> = commands.iter().map(|(command, _)| *command).chain(["/challenges", "/games all"]).collect();
    let out = session(&(script.join("\n") + "\n"));
    for (command, refusal) in commands {
        let said = reply(&out, command);
        assert_eq!(said, [format!("error: {refusal}, not both")], "{command} was taken with its last value");
    }
    assert_eq!(reply(&out, "/challenges"), ["no open challenges"]);
    assert_eq!(reply(&out, "/games all"), ["@you has no games"]);
}

/// `/import FILE @ann @ben` answers "imported as game #2" and makes it the session's last game:
/// a bare `/summary`, `/export` or `/board` right after, which read anyone's game (`/summary 2`
/// works), is about that game, not an older game of the one typing. A command that acts in a
/// game (`/resign`) still means one of the typer's own.
#[test]
fn after_an_import_between_others_a_bare_summary_is_about_the_imported_game() {
    let out = session(
        "/challenge @bob brandubh side:attackers\nas @bob /accept\n/import RECORD @ann @ben\n/summary\n/export\n/board\n/resign\n"
            .replace("RECORD", &record_file("summary"))
            .as_str(),
    );
    let imported = out.lines().find(|l| l.starts_with("imported as game #")).unwrap_or_else(|| panic!("{out}"));
    assert!(imported.starts_with("imported as game #2"), "{imported}");
    let summary = reply(&out, "/summary");
    assert!(summary[0].starts_with("Game #2"), "the summary of another game: {summary:?}");
    let export = reply(&out, "/export");
    assert!(export.contains(&"[attackers:ann]"), "the record of another game: {export:?}");
    let board = reply(&out, "/board");
    assert!(board.iter().any(|l| l.starts_with("game #2 is over")), "the board of another game: {board:?}");
    let resigned = reply(&out, "/resign");
    assert_eq!(resigned[0], "@you resigned game #1.");
}

/// `/games bob` (the `@` forgotten) lists bob's games, as `/profile bob` reads the name (it
/// listed the typer's own games, as if they were bob's); `all` is read in any case, and a second
/// player or an option is refused rather than dropped unread.
#[test]
fn games_with_a_name_without_its_at_sign_is_not_answered_with_ones_own_games() {
    let out = session(
        "/challenge @carol brandubh\nas @carol /accept\nas @bob /challenge @dave brandubh\nas @dave /accept\nas @bob /resign\n\
         /games bob\n/games All @bob\n/games @bob @carol\n/games @bob all:true\n",
    );
    let listed = reply(&out, "/games bob");
    assert_eq!(listed, ["@bob has no ongoing games"], "/games bob answered with @you's own games");
    let all = reply(&out, "/games All @bob");
    assert!(all.len() == 1 && all[0].starts_with("game #2: ") && all[0].contains("@dave"), "{all:?}");
    assert_eq!(
        reply(&out, "/games @bob @carol"),
        ["error: /games lists one player's games: name @bob or @carol, not both"]
    );
    assert_eq!(reply(&out, "/games @bob all:true"), ["error: \"all:true\" is not an option of /games; type /help"]);
}

/// A finished Brandubh record between two named players, written to a temporary file that
/// lives as long as the test process; `test` names it, so that tests running at once never read
/// a file another is writing.
fn record_file(test: &str) -> String {
    let path = std::env::temp_dir().join(format!("audit-console-{test}-{}.otn", std::process::id()));
    std::fs::write(
        &path,
        "[attackers:ann]\n[defenders:ben]\n[result:1]\n[rules:dim:7 esc:c surf:n ka:y ks:m cens:K cenp:K \
         cenhe:tT cenh: sw:n efe:n tfr:d start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/]\n1. d2-c2 d5-f5\n",
    )
    .expect("the record is written");
    path.display().to_string()
}

/// A refused command changes nothing (QUALITY.md), and `/profile @name` says "there is no
/// player" for a name never used: a refused `/challenge` (a variant or an option the host
/// refuses, a level with a person) or `/import` (an unreadable record, a bad second name) stores
/// none of the players it names, so no profile made by a typo appears.
#[test]
fn a_refused_challenge_or_import_adds_no_player() {
    let out = session(
        "/challenge @typo nosuchvariant\n/challenge @typo brandubh nosuchoption=1\n/challenge @typo level:3\n\
         /profile @typo\n/import /nonexistent.otn @ghost @ghoul\n/import RECORD @ghost @ghoul\n\
         /import GOOD @ghost @bad!name\n/profile @ghost\n"
            .replace("RECORD", &unreadable_record())
            .replace("GOOD", &record_file("refused"))
            .as_str(),
    );
    for command in
        ["/challenge @typo nosuchvariant", "/challenge @typo brandubh nosuchoption=1", "/challenge @typo level:3"]
    {
        assert!(reply(&out, command)[0].starts_with("error:"), "{command}: {out}");
    }
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

/// `/move d2-c2 game:1 game:2` names two games and is refused, naming both, as `/resign 1 2` is:
/// a command that plays a move must not guess which game was meant (the move was played in game
/// #1). `/moves` reads its `game:` the same way. No move is played: game #1 is still at ply 0.
#[test]
fn a_move_naming_two_games_is_refused() {
    let out = session(
        "/challenge @bob brandubh side:attackers\nas @bob /accept\n/challenge @carol brandubh side:attackers\n\
         as @carol /accept\n/resign 1 2\n/move d2-c2 game:1 game:2\n/moves d2 game:2 game:1\n/board 1\n",
    );
    assert!(reply(&out, "/resign 1 2")[0].starts_with("error:"), "{out}");
    let played = reply(&out, "/move d2-c2 game:1 game:2");
    assert_eq!(
        played,
        ["error: name one game: game:1 or game:2, not both"],
        "a move was played in one of the two games"
    );
    assert_eq!(reply(&out, "/moves d2 game:2 game:1"), ["error: name one game: game:2 or game:1, not both"]);
    assert!(reply(&out, "/board 1").iter().any(|l| l.starts_with("game #1, ply 0:")), "{out}");
}

/// `/rules` reads a variant's name in quotes, as `/leaderboard` reads a family's (one helper
/// strips them for both): `/rules "Sea Battle 9x9"` and, in Russian, `/rules «Таблут»` were
/// refused.
#[test]
fn rules_and_leaderboard_read_a_name_in_quotes() {
    let out = session("/rules \"Sea Battle 9x9\"\n/leaderboard \"Sea Battle\"\n");
    let rules = reply(&out, "/rules \"Sea Battle 9x9\"");
    assert!(rules[0].starts_with("Sea Battle 9×9"), "{rules:?}");
    assert!(!reply(&out, "/leaderboard \"Sea Battle\"")[0].starts_with("error:"), "{out}");
    let out = session_in("ru", "/rules «Таблут»\n/leaderboard «Таблут»\n");
    let rules = reply(&out, "/rules «Таблут»");
    assert!(rules[0].starts_with("Таблут"), "{rules:?}");
    assert!(!reply(&out, "/leaderboard «Таблут»")[0].starts_with("ошибка:"), "{out}");
}
