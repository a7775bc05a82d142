//! The `tafl-bot` binary run as a script would run it: exact output lines, exit statuses, and
//! no panic on hostile input.

use std::io::Write;
use std::process::{Command, Output, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_tafl-bot");

/// Runs `tafl-bot args…` with `stdin` (an empty stdin when `None`).
fn run(args: &[&str], stdin: Option<&[u8]>) -> Output {
    let mut child = Command::new(BIN)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the tafl-bot binary starts");
    let mut pipe = child.stdin.take().expect("stdin is piped");
    let input = stdin.unwrap_or_default().to_vec();
    // Write from a thread: a large input must not dead-lock against a full stdout pipe.
    let writer = std::thread::spawn(move || {
        // The binary may stop reading early (after `timeout` or a bad ply); that is not an error here.
        let _ = pipe.write_all(&input);
    });
    let output = child.wait_with_output().expect("tafl-bot runs to the end");
    writer.join().expect("the stdin writer finishes");
    output
}

fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).expect("stdout is UTF-8")
}

fn stderr(output: &Output) -> String {
    String::from_utf8(output.stderr.clone()).expect("stderr is UTF-8")
}

fn lines(output: &Output) -> Vec<String> {
    stdout(output).lines().map(str::to_owned).collect()
}

/// The command failed the way every error must: status 1, nothing panicked, and stderr is one
/// line that starts with `error: `. Returns that line.
fn assert_one_sentence_error(output: &Output) -> String {
    let err = stderr(output);
    assert_eq!(output.status.code(), Some(1), "exit status; stderr: {err}");
    assert!(!err.contains("panicked"), "a panic: {err}");
    assert_eq!(err.lines().count(), 1, "one line on stderr: {err:?}");
    assert!(err.starts_with("error: "), "stderr starts with `error: `: {err:?}");
    assert!(err.len() < 600, "the message stays short: {} bytes", err.len());
    err
}

const START_11: &str = "/3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3/";

/// The second game of `copenhagen.csv`: ply 5 captures e2.
const SHORT_GAME: [&str; 5] = ["d1-d3", "e5-e2", "g1-g3", "f4-c4", "g3-e3xe2"];

const SHORT_GAME_JSON: [&str; 6] = [
    r#"{"ply":1,"move":"d1-d3","captures":[],"status":"ongoing","reason":null}"#,
    r#"{"ply":2,"move":"e5-e2","captures":[],"status":"ongoing","reason":null}"#,
    r#"{"ply":3,"move":"g1-g3","captures":[],"status":"ongoing","reason":null}"#,
    r#"{"ply":4,"move":"f4-c4","captures":[],"status":"ongoing","reason":null}"#,
    r#"{"ply":5,"move":"g3-e3","captures":["e2"],"status":"ongoing","reason":null}"#,
    r#"{"final":true,"status":"ongoing","reason":null,"to_move":"defenders","legal_moves":70,"position":"/4tt1t3/5t5/3tt6/t1T7t/t4TT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3/"}"#,
];

#[test]
fn variants_lists_the_twelve_presets_one_json_object_per_line() {
    let output = run(&["variants", "--json"], None);
    assert!(output.status.success(), "{}", stderr(&output));
    let lines = lines(&output);
    assert_eq!(lines.len(), 12);
    let ids: Vec<String> = lines
        .iter()
        .map(|line| {
            let value: serde_json::Value = serde_json::from_str(line).expect("each line is JSON");
            assert_eq!(value.as_object().expect("an object").len(), 5, "{line}");
            let at = |key: &str| line.find(&format!("\"{key}\":")).expect("the key is present");
            assert!(at("id") < at("name") && at("name") < at("size"), "key order of {line}");
            assert!(at("size") < at("options") && at("options") < at("rules"), "key order of {line}");
            value["id"].as_str().expect("id is a string").to_owned()
        })
        .collect();
    assert_eq!(
        ids,
        [
            "sea-battle-9",
            "sea-battle-11",
            "sea-battle-13",
            "sea-battle-15",
            "tablut",
            "brandubh",
            "hnefatafl",
            "historical-7",
            "historical-9",
            "historical-11",
            "copenhagen",
            "fetlar"
        ]
    );
}

#[test]
fn variants_json_describes_copenhagen_with_its_otn_rules_string() {
    let output = run(&["variants", "--json"], None);
    let line = lines(&output).into_iter().find(|l| l.contains(r#""id":"copenhagen""#)).expect("a copenhagen line");
    let value: serde_json::Value = serde_json::from_str(&line).expect("JSON");
    assert_eq!(value["name"], "Copenhagen Hnefatafl");
    assert_eq!(value["size"], 11);
    assert_eq!(value["options"], serde_json::json!([]));
    let rules = value["rules"].as_str().expect("rules is a string");
    assert!(rules.contains("dim:11"), "{rules}");
    assert!(rules.ends_with(&format!("start:{START_11}")), "{rules}");
}

#[test]
fn every_rules_string_in_variants_json_reads_back_as_the_preset_rules() {
    let output = run(&["variants", "--json"], None);
    for line in lines(&output) {
        let value: serde_json::Value = serde_json::from_str(&line).expect("JSON");
        let variant: tafl_rules::Variant = value["id"].as_str().expect("an id").parse().expect("a preset id");
        let rules = tafl_rules::otn::parse_rules(value["rules"].as_str().expect("a rules string"));
        assert_eq!(rules.as_ref(), Ok(&variant.rules()), "{line}");
    }
}

#[test]
fn variants_json_lists_the_options_each_preset_accepts() {
    let output = run(&["variants", "--json"], None);
    let options = |id: &str| {
        let line = lines(&output).into_iter().find(|l| l.contains(&format!(r#""id":"{id}""#))).expect("a line");
        serde_json::from_str::<serde_json::Value>(&line).expect("JSON")["options"].clone()
    };
    assert_eq!(options("tablut"), serde_json::json!(["king_armed=true", "king_armed=false"]));
    assert_eq!(options("historical-9"), serde_json::json!(["escape=edge", "escape=corner"]));
    assert_eq!(options("sea-battle-13"), serde_json::json!([]));
}

#[test]
fn variants_without_json_prints_a_table_with_a_header_and_twelve_rows() {
    let output = run(&["variants"], None);
    assert!(output.status.success());
    let lines = lines(&output);
    assert_eq!(lines.len(), 13);
    assert!(lines[0].starts_with("ID"), "{}", lines[0]);
    assert!(lines.iter().any(|l| l.starts_with("copenhagen ") && l.contains("Copenhagen Hnefatafl")));
}

#[test]
fn replay_of_a_short_copenhagen_game_prints_the_exact_json_lines() {
    let mut args = vec!["replay", "--variant", "copenhagen", "--json"];
    args.extend(SHORT_GAME);
    let output = run(&args, None);
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(lines(&output), SHORT_GAME_JSON);
    assert_eq!(stderr(&output), "");
}

#[test]
fn replay_reads_whitespace_separated_moves_from_stdin_when_no_moves_are_given() {
    let input = "d1-d3 e5-e2\n  g1-g3\tf4-c4\r\n\ng3-e3xe2\n";
    let output = run(&["replay", "--variant", "copenhagen", "--json"], Some(input.as_bytes()));
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(lines(&output), SHORT_GAME_JSON);
}

#[test]
fn replay_accepts_the_written_forms_people_use_and_prints_them_canonically() {
    let output = run(&["replay", "--variant", "copenhagen", "--json", "D1-D3", "e5e2", "g1 g3"], None);
    assert!(output.status.success(), "{}", stderr(&output));
    let moves: Vec<String> = lines(&output)
        .iter()
        .take(3)
        .map(|l| serde_json::from_str::<serde_json::Value>(l).expect("JSON")["move"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(moves, ["d1-d3", "e5-e2", "g1-g3"]);
}

#[test]
fn moves_saved_with_a_byte_order_mark_replay_as_written() {
    // Some editors start a UTF-8 file with U+FEFF, invisible: the first move was refused as not
    // starting with a square.
    let output = run(&["replay", "--variant", "brandubh", "--json"], Some("\u{feff}d2-b2 d5-b5\n".as_bytes()));
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(stdout(&output).starts_with(r#"{"ply":1,"move":"d2-b2""#), "{}", stdout(&output));
}

#[test]
fn a_timeout_token_ends_the_input() {
    let input = "d1-d3 e5-e2 timeout this-is-never-read";
    let output = run(&["replay", "--variant", "copenhagen", "--json"], Some(input.as_bytes()));
    assert!(output.status.success(), "{}", stderr(&output));
    let lines = lines(&output);
    assert_eq!(lines.len(), 3);
    assert!(lines[2].starts_with(r#"{"final":true,"status":"ongoing","reason":null,"to_move":"attackers","#));

    let output = run(&["replay", "--variant", "copenhagen", "--json", "d1-d3", "timeout", "a1-a9"], None);
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(lines_count(&output), 2);
}

#[test]
fn a_replay_stopped_at_its_limits_ends_with_an_error_line_too() {
    // 10,004 plies of a shuttle (repetition ignored), one more than replay plays.
    let shuttle = "d2-b2 d3-c3 b2-d2 c3-d3 ".repeat(2_501);
    let output = run(&["replay", "--variant", "brandubh", "--no-repetition", "--json"], Some(shuttle.as_bytes()));
    let err = assert_one_sentence_error(&output);
    assert!(err.contains("10,000 plies"), "{err}");
    let last: serde_json::Value = serde_json::from_str(lines(&output).last().unwrap()).unwrap();
    assert_eq!(last["ply"], 10_001);
    assert_eq!(last["move"], "d2-b2");
    assert!(last["error"].as_str().unwrap().contains("10,000 plies"), "{last}");

    // ai and render take the moves as arguments: refused before they are played, at 10,001.
    let moves: Vec<&str> = shuttle.split_whitespace().take(10_001).collect();
    for tool in
        [&["ai", "--variant", "brandubh", "--depth", "1"][..], &["render", "--variant", "brandubh", "-o", "x.png"]]
    {
        let args: Vec<&str> = tool.iter().chain(&moves).copied().collect();
        let err = assert_one_sentence_error(&run(&args, None));
        assert_eq!(err, format!("error: the game is longer than 10,000 plies, the most {} plays\n", tool[0]));
    }

    // One endless line after a move: the 1 MB limit.
    let mut endless = b"d2-b2 ".to_vec();
    endless.extend(std::iter::repeat_n(b' ', 1_100_000));
    let output = run(&["replay", "--variant", "brandubh", "--json"], Some(&endless));
    assert_one_sentence_error(&output);
    let last: serde_json::Value = serde_json::from_str(lines(&output).last().unwrap()).unwrap();
    assert!(last["error"].as_str().unwrap().contains("1 MB"), "{last}");
}

fn lines_count(output: &Output) -> usize {
    lines(output).len()
}

#[test]
fn replay_without_moves_reports_the_start_position() {
    let output = run(&["replay", "--variant", "copenhagen", "--json"], Some(b""));
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(
        lines(&output),
        [format!(
            r#"{{"final":true,"status":"ongoing","reason":null,"to_move":"attackers","legal_moves":116,"position":"{START_11}"}}"#
        )]
    );
}

#[test]
fn a_wrong_capture_suffix_is_reported_as_an_error_line_with_exit_status_1() {
    let output =
        run(&["replay", "--variant", "copenhagen", "--json", "d1-d3", "e5-e2", "g1-g3", "f4-c4", "g3-e3xe4"], None);
    let err = assert_one_sentence_error(&output);
    let lines = lines(&output);
    assert_eq!(lines.len(), 5, "four plies and the error, no final line");
    assert_eq!(lines[4], r#"{"ply":5,"move":"g3-e3","error":"g3-e3: the move captures e2, not e4"}"#);
    assert!(err.contains("ply 5"), "{err}");
}

#[test]
fn a_mistyped_option_or_command_is_answered_with_what_was_probably_meant() {
    for (args, meant) in [
        (&["render", "--variant", "brandubh", "--out", "x.png"][..], "a similar argument exists: '--output'"),
        (&["ai", "--variant", "brandubh", "--levl", "3"][..], "a similar argument exists: '--level'"),
        (&["aii"][..], "a similar subcommand exists: 'ai'"),
    ] {
        let err = assert_one_sentence_error(&run(args, None));
        assert!(err.contains(meant), "{args:?}: {err}");
    }
}

#[test]
fn a_claimed_capture_that_does_not_happen_is_an_error() {
    let output = run(&["replay", "--variant", "copenhagen", "--json", "h1-h3xh2"], None);
    assert_one_sentence_error(&output);
    assert_eq!(lines(&output), [r#"{"ply":1,"move":"h1-h3","error":"h1-h3: the move captures nothing, not h2"}"#]);
}

#[test]
fn an_illegal_move_is_reported_as_an_error_line_with_exit_status_1() {
    let output = run(&["replay", "--variant", "copenhagen", "--json", "h1-h3", "a1-a9"], None);
    assert_one_sentence_error(&output);
    let lines = lines(&output);
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[1], r#"{"ply":2,"move":"a1-a9","error":"a1-a9: there is no piece on a1"}"#);
}

#[test]
fn a_move_off_the_board_names_the_board_size() {
    let output = run(&["replay", "--variant", "brandubh", "--json", "d7-d9"], None);
    assert_one_sentence_error(&output);
    let line: serde_json::Value = serde_json::from_str(&lines(&output)[0]).expect("JSON");
    assert_eq!(line["error"], "d9 is off the board: this one is 7x7");
}

#[test]
fn a_malformed_move_is_reported_with_the_text_as_given() {
    let output = run(&["replay", "--variant", "copenhagen", "--json", "h1-h3", "hello"], None);
    assert_one_sentence_error(&output);
    let line: serde_json::Value = serde_json::from_str(&lines(&output)[1]).expect("JSON");
    assert_eq!(line["ply"], 2);
    assert_eq!(line["move"], "hello");
    assert!(line["error"].as_str().unwrap().contains("is not a move"), "{line}");
}

#[test]
fn a_move_after_the_end_of_the_game_is_an_error() {
    // Historical rules: away from the throne the king is captured by two attackers on opposite
    // sides, here d6 and f6 around the king on e6.
    let position = "/7/7/7/7/7/1t2Kt1/7/";
    let output =
        run(&["replay", "--variant", "historical-7", "--position", position, "--json", "b6-d6", "f6-f1"], None);
    assert_one_sentence_error(&output);
    assert_eq!(
        lines(&output),
        [
            r#"{"ply":1,"move":"b6-d6","captures":[],"status":"attackers_win","reason":"king_captured"}"#,
            r#"{"ply":2,"move":"f6-f1","error":"the game is over"}"#,
        ]
    );
}

#[test]
fn replay_starts_from_a_given_position_and_side_to_move() {
    let position = "/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/";
    let output = run(
        &["replay", "--variant", "brandubh", "--position", position, "--to-move", "defenders", "--json", "d5-f5"],
        None,
    );
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(
        lines(&output),
        [
            r#"{"ply":1,"move":"d5-f5","captures":[],"status":"ongoing","reason":null}"#,
            r#"{"final":true,"status":"ongoing","reason":null,"to_move":"attackers","legal_moves":38,"position":"/3t3/3t3/3T3/ttTKTtt/5T1/3t3/3t3/"}"#,
        ]
    );
}

#[test]
fn an_escaping_king_ends_the_game_and_the_final_line_says_so() {
    let position = "/7/7/2K4/7/5t1/7/7/";
    let output = run(
        &["replay", "--variant", "historical-7", "--position", position, "--to-move", "defenders", "--json", "c3-a3"],
        None,
    );
    let lines = lines(&output);
    // Edge escape is an option of the historical presets; with corner escape the king is still on the board.
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(lines.len(), 2);
    let output = run(
        &[
            "replay",
            "--variant",
            "historical-7",
            "--opt",
            "escape=edge",
            "--position",
            position,
            "--to-move",
            "defenders",
            "--json",
            "c3-a3",
        ],
        None,
    );
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(
        crate::lines(&output),
        [
            r#"{"ply":1,"move":"c3-a3","captures":[],"status":"defenders_win","reason":"king_escaped"}"#,
            r#"{"final":true,"status":"defenders_win","reason":"king_escaped","to_move":"attackers","legal_moves":0,"position":"/7/7/K6/7/5t1/7/7/"}"#,
        ]
    );
}

#[test]
fn no_repetition_lets_a_position_recur_a_third_time() {
    // Shuffle two pieces back and forth: the start recurs after ply 4 and ply 8.
    let shuffle = ["h1-h2", "f4-f3", "h2-h1", "f3-f4", "h1-h2", "f4-f3", "h2-h1", "f3-f4"];
    let mut args = vec!["replay", "--variant", "copenhagen", "--json"];
    args.extend(shuffle);
    let output = run(&args, None);
    let last = lines(&output).pop().expect("a final line");
    assert!(last.contains(r#""status":"attackers_win","reason":"repetition""#), "{last}");

    args.push("--no-repetition");
    let output = run(&args, None);
    assert!(output.status.success(), "{}", stderr(&output));
    let last = lines(&output).pop().expect("a final line");
    assert!(last.starts_with(r#"{"final":true,"status":"ongoing","reason":null"#), "{last}");
}

#[test]
fn replay_without_json_prints_one_line_per_ply_and_a_summary_with_the_board() {
    let mut args = vec!["replay", "--variant", "copenhagen"];
    args.extend(SHORT_GAME);
    let output = run(&args, None);
    assert!(output.status.success(), "{}", stderr(&output));
    let text = stdout(&output);
    assert!(text.contains("   5. g3-e3xe2"), "{text}");
    assert!(text.contains("ongoing after 5 plies; defenders to move, 70 legal moves"), "{text}");
    assert!(text.contains("    a b c d e f g h i j k"), "{text}");

    let output = run(&["replay", "--variant", "brandubh", "d2-b2"], None);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(stdout(&output).contains("ongoing after 1 ply; defenders to move, "), "{}", stdout(&output));
}

#[test]
fn perft_of_copenhagen_to_depth_two_counts_116_and_6788() {
    let output = run(&["perft", "--variant", "copenhagen", "--depth", "2"], None);
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(lines(&output), ["perft(1) = 116", "perft(2) = 6788"]);

    let output = run(&["perft", "--variant", "copenhagen", "--depth", "2", "--json"], None);
    assert_eq!(lines(&output), [r#"{"depth":1,"nodes":116}"#, r#"{"depth":2,"nodes":6788}"#]);
}

#[test]
fn perft_takes_preset_options() {
    let output = run(&["perft", "--variant", "historical-9", "--opt", "escape=edge", "--depth", "2", "--json"], None);
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(lines(&output), [r#"{"depth":1,"nodes":80}"#, r#"{"depth":2,"nodes":4400}"#]);
}

#[test]
fn an_unknown_variant_is_refused_with_the_list_of_known_ones() {
    for args in [&["replay", "--variant", "chess", "e2-e4"][..], &["perft", "--variant", "chess", "--depth", "1"][..]] {
        let output = run(args, None);
        let err = assert_one_sentence_error(&output);
        assert!(err.contains("\"chess\" is not a variant"), "{err}");
        assert!(err.contains("copenhagen") && err.contains("sea-battle-15"), "{err}");
        assert_eq!(stdout(&output), "");
    }
}

#[test]
fn an_option_the_preset_does_not_have_is_refused_naming_its_options() {
    let output = run(&["replay", "--variant", "tablut", "--opt", "escape=edge"], Some(b""));
    let err = assert_one_sentence_error(&output);
    assert!(err.contains("king_armed"), "{err}");

    let output = run(&["replay", "--variant", "tablut", "--opt", "king_armed=maybe"], Some(b""));
    let err = assert_one_sentence_error(&output);
    assert!(err.contains("true or false"), "{err}");

    let output = run(&["perft", "--variant", "copenhagen", "--opt", "nonsense", "--depth", "1"], None);
    assert_one_sentence_error(&output);
}

#[test]
fn bad_positions_and_sides_are_refused_in_one_sentence() {
    let cases: [&[&str]; 5] = [
        &["replay", "--variant", "brandubh", "--position", "not a position"],
        &["replay", "--variant", "brandubh", "--position", START_11],
        &["replay", "--variant", "brandubh", "--position", "/3t3/3t3/3T3/ttT1Ttt/3T3/3t3/3t3/"],
        &["replay", "--variant", "brandubh", "--to-move", "purple"],
        &["replay", "--variant", "brandubh", "--position", "/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/ü/"],
    ];
    for args in cases {
        let output = run(args, Some(b""));
        let err = assert_one_sentence_error(&output);
        assert_eq!(stdout(&output), "", "{args:?}: {err}");
    }
}

#[test]
fn bad_perft_depths_are_refused_in_one_sentence() {
    for depth in ["0", "13", "4000000000", "-1", "two", ""] {
        let output = run(&["perft", "--variant", "brandubh", "--depth", depth], None);
        assert_one_sentence_error(&output);
    }
}

#[test]
fn malformed_command_lines_give_one_sentence_and_exit_status_1() {
    // Each points to the help that lists the arguments it is about, or says what is missing.
    let cases: [(&[&str], &str); 5] = [
        (&["replay"], "say which rules to play with --variant ID (`tafl-bot variants` lists them)"),
        (&["replay", "--variant"], "`tafl-bot replay --help`"),
        (&["perft", "--variant", "copenhagen"], "`tafl-bot perft --help`"),
        (&["variants", "--colour"], "`tafl-bot variants --help`"),
        (&["fly"], "`tafl-bot --help`"),
    ];
    for (args, help) in cases {
        let output = run(args, None);
        let err = assert_one_sentence_error(&output);
        assert!(err.contains(help), "{args:?}: {err}");
    }
}

#[test]
fn help_is_printed_on_stdout_with_exit_status_0() {
    let output = run(&["--help"], None);
    assert!(output.status.success());
    let text = stdout(&output);
    for command in ["variants", "replay", "perft"] {
        assert!(text.contains(command), "{text}");
    }
    let output = run(&["replay", "--help"], None);
    assert!(output.status.success());
    assert!(stdout(&output).contains("--no-repetition"));
}

#[test]
fn a_ten_kilobyte_garbage_move_gives_a_short_error_and_no_panic() {
    let garbage = "x".repeat(10 * 1024);
    let output = run(&["replay", "--variant", "copenhagen", "--json", &garbage], None);
    assert_one_sentence_error(&output);
    let lines = lines(&output);
    assert_eq!(lines.len(), 1);
    assert!(lines[0].len() < 300, "the error line quotes a prefix only: {}", lines[0]);

    let output = run(&["replay", "--variant", "copenhagen", "--json"], Some(garbage.as_bytes()));
    assert_one_sentence_error(&output);
}

#[test]
fn unicode_and_invalid_utf8_input_give_an_error_and_no_panic() {
    for input in ["h1-h3 ё1-ё3", "h1-h3 e\u{0301}1-e3", "🦀", "h1\u{2013}h3", "a١-a٣"] {
        let output = run(&["replay", "--variant", "copenhagen", "--json"], Some(input.as_bytes()));
        assert_one_sentence_error(&output);
        let last = lines(&output).pop().expect("an error line");
        assert!(last.contains(r#""error":"#), "{input}: {last}");
    }
    let output = run(&["replay", "--variant", "copenhagen", "--json"], Some(b"h1-h3 \xff\xfe-e3"));
    assert_one_sentence_error(&output);

    let output = run(&["replay", "--variant", "copenhagen", "--json", "ж"], None);
    assert_one_sentence_error(&output);
}

#[test]
fn a_ply_with_many_moves_in_one_argument_is_one_malformed_move() {
    let output = run(&["replay", "--variant", "copenhagen", "--json", "h1-h3 f8-i8"], None);
    assert_one_sentence_error(&output);
    assert!(lines(&output)[0].contains(r#""ply":1"#));
}

#[test]
fn render_writes_a_png_of_the_final_position() {
    let path = std::env::temp_dir().join(format!("tafl-bot-cli-test-{}.png", std::process::id()));
    let path_text = path.to_str().expect("a UTF-8 temp path");
    let output = run(&["render", "--variant", "copenhagen", "-o", path_text, "h1-h3", "f8-i8"], None);
    assert!(output.status.success(), "{}", stderr(&output));
    let bytes = std::fs::read(&path).expect("the PNG was written");
    std::fs::remove_file(&path).expect("the PNG can be removed");
    assert!(bytes.starts_with(b"\x89PNG\r\n\x1a\n"), "a PNG signature");
}

#[test]
fn render_without_an_output_file_is_refused_in_one_sentence() {
    let output = run(&["render", "--variant", "copenhagen", "h1-h3"], None);
    let err = assert_one_sentence_error(&output);
    assert!(err.contains("-o board.png"), "{err}");
}

#[test]
fn render_refuses_one_file_for_both_the_board_and_the_animation() {
    let path = std::env::temp_dir().join(format!("tafl-same-{}.png", std::process::id()));
    let path = path.to_str().unwrap();
    let output = run(&["render", "--variant", "copenhagen", "-o", path, "--gif", path, "h1-h3"], None);
    let err = assert_one_sentence_error(&output);
    assert!(err.contains("-o and --gif both name"), "{err}");
    assert!(!std::path::Path::new(path).exists(), "nothing was written");
    // Two spellings of one file that does not exist yet.
    let dir = std::env::temp_dir();
    let name = format!("tafl-same-spelt-{}.png", std::process::id());
    let dotted = format!("{}/./{name}", dir.display());
    let plain = dir.join(&name);
    let output = run(&["render", "--variant", "copenhagen", "-o", plain.to_str().unwrap(), "--gif", &dotted], None);
    let err = assert_one_sentence_error(&output);
    assert!(err.contains("-o and --gif both name"), "{err}");
    assert!(!plain.exists(), "nothing was written");
}

/// A folder where the board's temporary file goes (`x.png.part`, beside `x.png`) was blamed on
/// the board: "cannot write x.png: Is a directory", of a name that is no folder.
#[test]
fn render_names_the_temporary_file_in_the_way() {
    let dir = tempfile::tempdir().expect("a scratch folder");
    let png = dir.path().join("x.png");
    std::fs::create_dir(dir.path().join("x.png.part")).expect("a folder in the way");
    let output = run(&["render", "--variant", "brandubh", "-o", png.to_str().unwrap()], None);
    let err = assert_one_sentence_error(&output);
    assert!(err.contains("cannot write") && err.contains("x.png.part"), "{err}");
    assert!(!png.exists());
    // A missing folder is said of the file asked for, as before.
    let missing = dir.path().join("nowhere").join("y.png");
    let output = run(&["render", "--variant", "brandubh", "-o", missing.to_str().unwrap()], None);
    let err = assert_one_sentence_error(&output);
    assert!(err.contains("y.png:") && !err.contains(".part"), "{err}");
}

/// The board and the animation are written both or neither: a GIF for a missing folder failed
/// the command, yet left the board written.
#[test]
fn render_writes_the_board_and_the_animation_both_or_neither() {
    let dir = tempfile::tempdir().expect("a scratch folder");
    let (png, gif) = (dir.path().join("good.png"), dir.path().join("good.gif"));
    let missing = dir.path().join("nowhere");
    let (lost_png, lost_gif) = (missing.join("x.png"), missing.join("x.gif"));
    for (board, animation) in [(&png, &lost_gif), (&lost_png, &gif)] {
        let argv = ["render", "--variant", "brandubh", "d2-b2", "-o", board.to_str().unwrap()];
        let output = run(&[&argv[..], &["--gif", animation.to_str().unwrap()]].concat(), None);
        let err = assert_one_sentence_error(&output);
        assert!(err.contains("cannot write") && err.contains("nowhere"), "{err}");
        let left: Vec<_> = std::fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name()).collect();
        assert!(left.is_empty(), "nothing written, no temporary file left: {left:?}");
    }
    // What is not a regular file is written through, not renamed onto: a folder, a link to
    // nowhere and a full device were written only after the other file had been put in place,
    // and failed with it there ("…, though good.png was written").
    let folder = dir.path().join("folder");
    std::fs::create_dir(&folder).unwrap();
    let dangling = dir.path().join("dangling");
    std::os::unix::fs::symlink(missing.join("x.gif"), &dangling).unwrap();
    for animation in [folder.as_path(), dangling.as_path(), std::path::Path::new("/dev/full")] {
        let argv = ["render", "--variant", "brandubh", "d2-b2", "-o", png.to_str().unwrap()];
        let output = run(&[&argv[..], &["--gif", animation.to_str().unwrap()]].concat(), None);
        let err = assert_one_sentence_error(&output);
        assert!(err.contains("cannot write") && !err.contains("was written"), "{err}");
        assert!(!png.exists(), "{animation:?}: the board was put in place: {err}");
        let left: Vec<_> = std::fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name()).collect();
        assert_eq!(left.len(), 2, "no temporary file left: {left:?}");
    }
    // One named as the other's temporary file: the board's `x.part.part` was renamed onto the
    // animation's `x.part`, then put in place as `x`, and the command said nothing.
    let (x, x_part) = (dir.path().join("x"), dir.path().join("x.part"));
    for (board, animation) in [(&x_part, &x), (&x, &x_part)] {
        let argv = ["render", "--variant", "brandubh", "d2-b2", "-o", board.to_str().unwrap()];
        let output = run(&[&argv[..], &["--gif", animation.to_str().unwrap()]].concat(), None);
        let err = assert_one_sentence_error(&output);
        assert!(err.contains("is where") && err.contains("is written before"), "{err}");
        assert!(!x.exists() && !x_part.exists(), "{err}");
    }
    let argv =
        ["render", "--variant", "brandubh", "d2-b2", "-o", png.to_str().unwrap(), "--gif", gif.to_str().unwrap()];
    let output = run(&argv, None);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(
        std::fs::read(&png).unwrap().starts_with(b"\x89PNG") && std::fs::read(&gif).unwrap().starts_with(b"GIF89a")
    );
}

#[test]
fn a_bare_tafl_bot_prints_one_sentence_pointing_to_help() {
    let output = run(&[], None);
    let err = assert_one_sentence_error(&output);
    assert!(err.contains("`tafl-bot --help`"), "{err}");
    assert!(stdout(&output).is_empty());
}

#[test]
fn control_characters_in_the_input_are_escaped_in_the_error() {
    let output = run(&["replay", "--variant", "copenhagen", "e1\u{1b}[2J-e3\u{7}"], None);
    let err = assert_one_sentence_error(&output);
    assert!(err.contains("e1\\u{1b}[2J-e3\\u{7}"), "{err}");
    let output = run(&["replay", "--variant", "copenhagen\u{1b}[31m"], None);
    let err = assert_one_sentence_error(&output);
    assert!(!err.contains('\u{1b}'), "{err}");
    // Arguments the option parser refuses: it dropped the character, and quoted a value that
    // was never given ("invalid value '1'" for `1<ESC>`, in range) or a subcommand cut short.
    for (args, quoted) in [
        (&["perft", "--variant", "brandubh", "--depth", "1\u{1b}"][..], "\"1\\u{1b}\""),
        (&["fr\u{1b}ob"][..], "\"fr\\u{1b}ob\""),
    ] {
        let err = assert_one_sentence_error(&run(args, None));
        assert!(
            err.starts_with(&format!("error: the argument {quoted} holds a control character; see `tafl-bot")),
            "{err}"
        );
    }
    // Another argument at fault is clap's to name.
    let err = assert_one_sentence_error(&run(&["replay", "--bogus", "a\tb"], None));
    assert!(err.starts_with("error: unexpected argument '--bogus' found"), "{err}");
}

#[cfg(unix)]
#[test]
fn help_that_cannot_be_written_is_a_failure_said_on_stderr() {
    for (args, what) in [(&["--help"][..], "help"), (&["replay", "--help"], "help"), (&["--version"], "version")] {
        let output = Command::new(BIN)
            .args(args)
            .stdout(std::fs::OpenOptions::new().write(true).open("/dev/full").unwrap())
            .stderr(Stdio::piped())
            .output()
            .unwrap();
        let err = assert_one_sentence_error(&output);
        assert!(
            err.starts_with(&format!("error: cannot write the {what}: No space left on device")),
            "{args:?}: {err}"
        );
    }
}

/// `tafl-bot run` with `DATABASE_URL`, no Discord: the one-sentence error on stderr.
fn run_with_database(url: &str) -> String {
    let output = Command::new(env!("CARGO_BIN_EXE_tafl-bot"))
        .arg("run")
        .env("DATABASE_URL", url)
        .env("DISCORD_TOKEN", "x")
        .env("DATABASE_STATEMENT_TIMEOUT_MS", "2000")
        .env_remove("DISCORD_API_BASE")
        .env_remove("DISCORD_API_RESOLVE")
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_one_sentence_error(&output)
}

#[test]
fn a_database_url_of_another_kind_is_refused_by_name() {
    let err = run_with_database("mysql://user:secret@db.invalid/tafl");
    assert!(err.starts_with("error: DATABASE_URL names a mysql database"), "{err}");
    assert!(err.contains("sqlite://") && err.contains("postgres://"), "says what works: {err}");
    assert!(!err.contains("secret"), "{err}");
}

#[test]
fn an_unreachable_postgresql_database_is_named_without_its_password() {
    let err = run_with_database("postgres://user:secret@db.invalid/tafl");
    assert!(err.starts_with("error: cannot open the database postgres://user:***@db.invalid/tafl: "), "{err}");
    assert!(!err.contains("secret"), "{err}");
    // Why, not a pool's "pool timed out" after half a minute of retries.
    assert!(err.contains("lookup address"), "{err}");
}

#[test]
fn an_sqlite_file_in_a_missing_folder_names_the_folder() {
    let folder = std::env::temp_dir().join(format!("tafl-no-such-folder-{}", std::process::id()));
    let err = run_with_database(&format!("sqlite://{}/tafl.db", folder.display()));
    assert_eq!(
        err.trim_end(),
        format!(
            "error: cannot open the database sqlite://{0}/tafl.db: its folder {0} does not exist; create it, or name a file in a folder that does",
            folder.display()
        )
    );
    assert!(!folder.exists(), "nothing was created");
}

#[test]
fn a_refused_postgresql_connection_says_so() {
    // A loopback port nobody listens on: bound, then freed.
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let err = run_with_database(&format!("postgres://tafl@127.0.0.1:{port}/tafl"));
    // Refused is known at once; a pool retried it for its whole acquire timeout (30 s) and then
    // said only "pool timed out while waiting for an open connection".
    assert!(err.contains("Connection refused"), "{err}");
}

#[test]
fn replay_reads_an_otn_game_record_with_its_own_rules() {
    use tafl_rules::otn::GameRecord;
    use tafl_rules::{Game, Position, Variant};
    // A Tablut game (king armed, 9x9) from the seed-001 family, written as the bot exports it.
    let mut game = Game::new(Position::new(Variant::Tablut.rules()).unwrap());
    for mv in ["e2-h2", "e4-h4", "b5-b4", "f5-f8"] {
        game.play_text(&mv.parse().unwrap()).unwrap();
    }
    let tags = vec![("attackers".to_owned(), "Alice".to_owned()), ("defenders".to_owned(), "Bob".to_owned())];
    let record = GameRecord::from_game(&game, tags).to_string();
    let path = std::env::temp_dir().join(format!("tafl-cli-record-{}.otn", std::process::id()));
    std::fs::write(&path, &record).unwrap();

    let output = run(&["replay", "--json", "--record", path.to_str().unwrap()], None);
    assert!(output.status.success(), "{}", stderr(&output));
    let out = lines(&output);
    assert_eq!(out.len(), 5, "{out:?}");
    let last: serde_json::Value = serde_json::from_str(&out[4]).unwrap();
    assert_eq!(last["position"], game.position().setup().to_string(), "the same position as the game");
    assert_eq!(last["to_move"], "attackers");

    // From stdin, too.
    let output = run(&["replay", "--json", "--record", "-"], Some(record.as_bytes()));
    assert_eq!(lines(&output), out);

    // A record with rules of its own and no --variant is fine; with --variant it is refused.
    let output = run(&["replay", "--record", path.to_str().unwrap(), "--variant", "copenhagen"], None);
    assert!(!output.status.success());
    assert!(stderr(&output).contains("cannot be used with"), "{}", stderr(&output));
    // A file that is not a record: one sentence, exit 1.
    std::fs::write(&path, "this is not a record").unwrap();
    let output = run(&["replay", "--record", path.to_str().unwrap()], None);
    assert_eq!(output.status.code(), Some(1));
    assert!(stderr(&output).contains("is not a game record"), "{}", stderr(&output));
    assert_eq!(stderr(&output).lines().count(), 1);
    // The same on stdin names stdin, not "-".
    let output = run(&["replay", "--record", "-"], Some(b"x"));
    let err = assert_one_sentence_error(&output);
    assert!(err.starts_with("error: the input on stdin is not a game record this bot can read: "), "{err}");
    // Without --variant and without a record, replay says what is missing.
    let output = run(&["replay", "d1-d3"], None);
    assert_eq!(output.status.code(), Some(1));
    assert!(stderr(&output).contains("--variant"), "{}", stderr(&output));
    let _ = std::fs::remove_file(&path);
}

#[test]
fn ai_prints_one_json_line_with_its_keys_in_order_and_refuses_bad_input_in_one_sentence() {
    let output = run(&["ai", "--variant", "brandubh", "--depth", "2", "--json", "d2-b2"], None);
    assert!(output.status.success(), "{}", stderr(&output));
    let line = lines(&output);
    assert_eq!(line.len(), 1, "{line:?}");
    let keys: Vec<&str> = ["\"move\":", "\"score\":", "\"depth\":", "\"nodes\":", "\"millis\":", "\"pv\":"].to_vec();
    let at: Vec<usize> = keys.iter().map(|k| line[0].find(k).unwrap_or_else(|| panic!("{k} in {}", line[0]))).collect();
    assert!(at.windows(2).all(|w| w[0] < w[1]), "{}", line[0]);
    let bad = run(&["ai", "--variant", "brandubh", "--depth", "2", "d2-d9"], None);
    assert_eq!(bad.status.code(), Some(1));
    assert_eq!(stderr(&bad).lines().count(), 1, "{}", stderr(&bad));
    // Each refused move is numbered, and named once: in the error's own words where they name it.
    let blocked = run(&["ai", "--variant", "brandubh", "--depth", "2", "d2-b2", "d3-d1"], None);
    assert_eq!(stderr(&blocked), "error: move 2: d3-d1: the way is blocked by the piece on d1\n");
    let garbled = run(&["ai", "--variant", "brandubh", "--depth", "2", "zz"], None);
    assert_eq!(
        stderr(&garbled),
        "error: move 1: \"zz\" is not a move: it does not start with a square; write moves like e1-e3\n"
    );
    let corner = ["--position", "/5t1/7/7/7/7/7/1K5/", "--to-move", "defenders"];
    let after_the_end =
        run(&[&["ai", "--variant", "brandubh", "--depth", "2"][..], &corner, &["b7-a7", "f1-f2"]].concat(), None);
    assert_eq!(stderr(&after_the_end), "error: move 2 (f1-f2): the game is over\n");
}

#[test]
fn budgets_and_counts_too_large_to_mean_anything_are_refused_in_one_sentence_not_a_crash() {
    // Each used to overflow a multiplication, exhaust memory or trip a clamp's bounds.
    for args in [
        &["ai", "--variant", "brandubh", "--millis", "18446744073709551615"][..],
        &["match", "--variant", "brandubh", "--a", "millis:18446744073709551615", "--b", "greedy"],
        &["match", "--variant", "brandubh", "--a", "greedy", "--b", "greedy", "--games", "4294967295"],
        &["engine", "--max-millis", "20"],
        // Openings as long as the games: nobody would play a move.
        &["match", "--variant", "brandubh", "--a", "greedy", "--b", "greedy", "--max-plies", "0"],
        &[
            "match",
            "--variant",
            "brandubh",
            "--a",
            "greedy",
            "--b",
            "greedy",
            "--random-plies",
            "9",
            "--max-plies",
            "9",
        ],
    ] {
        let output = run(args, Some(b""));
        assert_eq!(output.status.code(), Some(1), "{args:?}: {}", stderr(&output));
        assert_eq!(stderr(&output).lines().count(), 1, "{args:?}: {}", stderr(&output));
    }
    // Every game drawn is an even match, not a bound.
    let drawn = run(
        &[
            "match",
            "--variant",
            "brandubh",
            "--a",
            "greedy",
            "--b",
            "greedy",
            "--random-plies",
            "0",
            "--max-plies",
            "1",
        ],
        None,
    );
    assert!(stdout(&drawn).contains("Elo difference A - B: +0 (every game drawn)"), "{}", stdout(&drawn));
}

/// A start position already over (the attackers have no move) is refused, as `ai` refuses it,
/// instead of scoring games of no moves.
#[test]
fn a_match_from_a_finished_position_is_refused() {
    let output = run(
        &["match", "--variant", "brandubh", "--position", "/7/7/7/3K3/T6/tT5/7/", "--a", "greedy", "--b", "greedy"],
        None,
    );
    let err = assert_one_sentence_error(&output);
    assert!(err.contains("the start position is already over (defenders win"), "{err}");
}

#[test]
fn a_match_gives_the_same_table_whatever_the_number_of_jobs() {
    let table = |jobs: &str| {
        let args =
            ["match", "--variant", "brandubh", "--a", "depth:1", "--b", "greedy", "--games", "4", "--jobs", jobs];
        let output = run(&args, None);
        assert!(output.status.success(), "{}", stderr(&output));
        stdout(&output)
    };
    let one = table("1");
    assert!(one.contains("4 games of brandubh"), "{one}");
    assert!(one.contains("Elo difference A - B"), "{one}");
    let cores = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
    if cores >= 2 {
        assert_eq!(table("2"), one);
    }
    let material =
        run(&["match", "--variant", "brandubh", "--a", "depth:1", "--b", "greedy:material", "--games", "2"], None);
    assert!(
        stdout(&material).contains("2 games of brandubh: A = depth:1, B = greedy:material"),
        "{}",
        stderr(&material)
    );
    let refused = run(&["match", "--variant", "brandubh", "--a", "1", "--b", "2", "--jobs", "0"], None);
    assert_eq!(refused.status.code(), Some(1));
    let range = format!("'0' for '--jobs <N>': give a whole number from 1 to {cores}, the cores here");
    assert!(stderr(&refused).contains(&range), "{}", stderr(&refused));
}

#[test]
fn a_game_the_move_limit_stops_is_said_to_be_scored_a_draw() {
    let args = [
        "match",
        "--variant",
        "copenhagen",
        "--a",
        "greedy",
        "--b",
        "greedy",
        "--games",
        "1",
        "--max-plies",
        "5",
        "--verbose",
    ];
    let output = run(&args, None);
    assert!(output.status.success(), "{}", stderr(&output));
    let out = stdout(&output);
    assert!(out.starts_with("game 1: A as attackers, scored a draw, unfinished after 5 plies ("), "{out}");
}

#[test]
fn a_match_writes_each_games_record_which_replays_to_its_result() {
    use tafl_rules::otn::{GameRecord, result_tag};
    use tafl_rules::{Side, Status};
    let dir = std::env::temp_dir().join(format!("tafl-match-records-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let args = ["match", "--variant", "brandubh", "--a", "depth:1", "--b", "greedy", "--games", "2", "--records"];
    let with_dir = |dir: &std::path::Path| run(&[&args[..], &[dir.to_str().unwrap()]].concat(), None);
    let output = with_dir(&dir);
    assert!(output.status.success(), "{}", stderr(&output));
    let mut names: Vec<String> =
        std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name().into_string().unwrap()).collect();
    names.sort();
    assert_eq!(names, ["game-1.otn", "game-2.otn"]);
    let mut a_wins = 0;
    for (n, name) in names.iter().enumerate() {
        let text = std::fs::read_to_string(dir.join(name)).unwrap();
        let record = GameRecord::parse(&text).unwrap();
        // The whole game, not its opening: these two players always finish well within 400 plies.
        let game = record.replay().unwrap_or_else(|(ply, e)| panic!("{name} ply {ply}: {e:?}"));
        let Status::Finished(outcome) = game.status() else { panic!("{name} replays to an unfinished game: {text}") };
        assert_eq!(record.tag("game"), Some((n + 1).to_string().as_str()));
        assert_eq!(record.tag("result"), Some(result_tag(game.status())), "{name}: {text}");
        assert_eq!(record.tag("termination"), Some(outcome.reason.name()), "{name}: {text}");
        // A plays the attackers in the first game of a pair and the defenders in the second.
        let (a_side, attackers, defenders) = if n == 0 {
            (Side::Attackers, "depth:1 (A)", "greedy (B)")
        } else {
            (Side::Defenders, "greedy (B)", "depth:1 (A)")
        };
        assert_eq!((record.tag("attackers"), record.tag("defenders")), (Some(attackers), Some(defenders)));
        a_wins += u32::from(outcome.winner == Some(a_side));
        let replayed = run(&["replay", "--record", dir.join(name).to_str().unwrap()], None);
        assert!(replayed.status.success(), "{}", stderr(&replayed));
    }
    // The records tell the same story as the table.
    let total = stdout(&output).lines().find(|l| l.starts_with("total")).unwrap().to_owned();
    assert_eq!(total.split_whitespace().nth(2), Some(a_wins.to_string().as_str()), "{}", stdout(&output));

    // A record that cannot be written (a folder stands where it goes): one sentence, exit 1, and
    // no half-written file left behind.
    std::fs::remove_file(dir.join("game-1.otn")).unwrap();
    std::fs::create_dir(dir.join("game-1.otn")).unwrap();
    let refused = with_dir(&dir);
    assert_eq!(refused.status.code(), Some(1));
    assert!(stderr(&refused).contains("cannot write the record"), "{}", stderr(&refused));
    assert_eq!(stderr(&refused).lines().count(), 1, "{}", stderr(&refused));
    assert!(!dir.join("game-1.otn.part").exists(), "the partial record is removed");
    // A records "folder" that is a file: one sentence, exit 1.
    let refused = with_dir(&dir.join("game-2.otn"));
    assert_eq!(refused.status.code(), Some(1));
    assert!(stderr(&refused).contains("cannot create the records folder"), "{}", stderr(&refused));
    assert_eq!(stderr(&refused).lines().count(), 1, "{}", stderr(&refused));
    let _ = std::fs::remove_dir_all(&dir);
}

/// The king on a4 with open lines to two corners and one attacker to move: every move loses, and
/// `ai` says so (it printed score 0 at depth 0, an even game).
#[test]
fn ai_scores_a_position_lost_at_once_as_a_loss() {
    let lost = ["ai", "--variant", "brandubh", "--position", "/7/7/7/K6/7/7/5t1/", "--to-move", "attackers"];
    for budget in [&["--depth", "3"][..], &["--level", "5"], &["--millis", "50"]] {
        let output = run(&[&lost[..], budget, &["--json"]].concat(), None);
        assert!(output.status.success(), "{budget:?}: {}", stderr(&output));
        let value: serde_json::Value = serde_json::from_str(&lines(&output)[0]).expect("JSON");
        assert!(value["score"].as_i64().unwrap() <= -29_000, "{budget:?}: {value}");
        assert_eq!(value["depth"], 1, "{budget:?}: {value}");
        assert_eq!(value["pv"], serde_json::json!([value["move"]]), "{budget:?}: {value}");
    }
}

/// A level outside 1..5 is refused in one sentence naming the levels, 256 too (which clap once
/// refused as "not in 0..=255", the range of the type), in the words of every other number.
#[test]
fn a_level_outside_one_to_five_is_refused_naming_the_levels() {
    for level in ["0", "6", "256", "99999999999999999999", "-1", "one"] {
        let output = run(&["ai", "--variant", "brandubh", "--level", level], None);
        let err = assert_one_sentence_error(&output);
        assert_eq!(
            err,
            format!(
                "error: invalid value '{level}' for '--level <1..5>': give a whole number from 1 to 5; see `tafl-bot ai \
                 --help`\n"
            )
        );
    }
}

/// Every number an option takes is refused, whatever the value, with one sentence naming the
/// option's range. Clap's own messages said "0 is not in 1..=5", "49 is not in 50..=86400000",
/// "number too large to fit in target type" or "invalid digit found in string"; and a negative
/// number was "unexpected argument '-5' found", without the option, with the advice to write
/// `-- -5`, which `ai` would read as a move.
#[test]
fn every_number_out_of_its_range_is_refused_naming_the_range() {
    let ai = ["ai", "--variant", "brandubh"];
    let play = ["match", "--variant", "brandubh", "--a", "greedy", "--b", "greedy"];
    let cores = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
    let jobs = format!("from 1 to {cores}, the cores here");
    let cases: [(&[&str], &str, &str); 11] = [
        (&ai, "--level <1..5>", "from 1 to 5"),
        (&ai, "--millis <N>", "from 1 to 86400000"),
        (&ai, "--depth <N>", "from 1 to 60"),
        (&ai, "--seed <N>", "from 0 to 18446744073709551615"),
        (&["engine"], "--max-millis <N>", "from 50 to 86400000"),
        (&["perft", "--variant", "brandubh"], "--depth <N>", "from 1 to 12"),
        (&play, "--games <N>", "from 1 to 1000000"),
        (&play, "--random-plies <N>", "from 0 to 10000"),
        (&play, "--seed <N>", "from 0 to 18446744073709551615"),
        (&play, "--max-plies <N>", "from 1 to 10000"),
        (&play, "--jobs <N>", &jobs),
    ];
    for (command, option, range) in cases {
        let name = option.split(' ').next().expect("a name");
        let subcommand = command[0];
        for value in ["99999999999999999999", "-5", "x", "100000000"] {
            if (name.ends_with("millis") || name == "--seed") && value == "100000000" {
                continue; // within a day, and a seed
            }
            let args = [command, &[name, value]].concat();
            let err = assert_one_sentence_error(&run(&args, Some(b"")));
            assert_eq!(
                err,
                format!(
                    "error: invalid value '{value}' for '{option}': give a whole number {range}; see `tafl-bot \
                     {subcommand} --help`\n"
                ),
                "{args:?}"
            );
        }
    }
    // Below the range, too: a move longer than none, a search shorter than 50 ms.
    let err = assert_one_sentence_error(&run(&["engine", "--max-millis", "49"], Some(b"")));
    assert!(err.contains("'49' for '--max-millis <N>': give a whole number from 50 to 86400000"), "{err}");
    // The moves after the options are still moves, and a negative number is still no move.
    let output = run(&[&ai[..], &["--depth", "1", "--seed", "3", "d2-b2"]].concat(), None);
    assert!(output.status.success(), "{}", stderr(&output));
    let err = assert_one_sentence_error(&run(&[&ai[..], &["--millis", "-5", "d2-b2"]].concat(), None));
    assert!(err.contains("'-5' for '--millis <N>': give a whole number from 1 to 86400000"), "{err}");
}

/// A search of one node said "1 nodes".
#[test]
fn ai_counts_one_node_in_the_singular() {
    let output = run(
        &[
            "ai",
            "--variant",
            "brandubh",
            "--position",
            "/1tT4/1T5/7/3K3/7/7/7/",
            "--to-move",
            "defenders",
            "--depth",
            "5",
        ],
        None,
    );
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(stdout(&output).contains(", 1 node, "), "{}", stdout(&output));
}

/// Brandubh's rules as a record tag.
const BRANDUBH_RULES_TAG: &str = "[rules:dim:7 esc:c surf:n ka:y ks:m cens:K cenp:K cenhe:tT cenh: sw:n efe:n tfr:d \
                                  start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/]";

/// The record of a game that ended off the board, as `/tafl export` and `local /export` write it
/// (`---` or `timeout` after the last move, or `result` and `termination` tags), replays to that
/// ending, as `/import` reads it, rather than to "ongoing"; the reason is given only where the
/// record gives one.
#[test]
fn replaying_the_record_of_a_game_ended_off_the_board_reports_its_ending() {
    for (tags, moves, summary) in [
        (
            "[result:1]\n[termination:resignation]\n",
            "1. d2-b2 ---",
            "attackers_win (resignation) after 1 ply; defenders to move, 0 legal moves",
        ),
        ("", "1. d2-b2 d3-c3 timeout", "defenders_win (time) after 2 plies; attackers to move, 0 legal moves"),
        (
            "[result:0]\n[termination:agreement]\n",
            "1. d2-b2",
            "draw (agreement) after 1 ply; defenders to move, 0 legal moves",
        ),
        // As `match` writes a game it stopped: a draw, for a reason no game ends by.
        (
            "[result:0]\n[termination:unfinished after 1 ply, scored a draw]\n",
            "1. d2-b2",
            "draw after 1 ply; defenders to move, 0 legal moves",
        ),
        ("[result:?]\n", "1. d2-b2", "ongoing after 1 ply; defenders to move, 25 legal moves"),
        // As `/tafl export` writes a game that ended without a result.
        (
            "[result:?]\n[termination:aborted]\n",
            "1. d2-b2",
            "aborted (aborted) after 1 ply; defenders to move, 0 legal moves",
        ),
        (
            "[result:?]\n[termination:bot_removed]\n",
            "1. d2-b2 d3-c3",
            "aborted (bot_removed) after 2 plies; attackers to move, 0 legal moves",
        ),
    ] {
        let record = format!("{tags}{BRANDUBH_RULES_TAG}\n{moves}\n");
        let output = run(&["replay", "--record", "-"], Some(record.as_bytes()));
        assert!(output.status.success(), "{record}: {}", stderr(&output));
        let out = stdout(&output);
        let plies = moves.split_whitespace().filter(|t| t.contains('-') && *t != "---").count();
        assert_eq!(out.lines().nth(plies), Some(summary), "{record}: {out}");
    }
    let record = format!("[result:1]\n[termination:resignation]\n{BRANDUBH_RULES_TAG}\n1. d2-b2 ---\n");
    let output = run(&["replay", "--json", "--record", "-"], Some(record.as_bytes()));
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(
        lines(&output),
        [
            r#"{"ply":1,"move":"d2-b2","captures":[],"status":"ongoing","reason":null}"#,
            r#"{"final":true,"status":"attackers_win","reason":"resignation","to_move":"defenders","legal_moves":0,"position":"/3t3/1t5/3T3/ttTKTtt/3T3/3t3/3t3/"}"#,
        ]
    );
    // `---` after the attackers' move: the defenders resigned, so a tag naming them the winners
    // contradicts the record, and it is refused as `/import` refuses it, before any ply.
    let record = format!("[result:-1]\n{BRANDUBH_RULES_TAG}\n1. d2-b2 ---\n");
    let output = run(&["replay", "--record", "-"], Some(record.as_bytes()));
    let err = assert_one_sentence_error(&output);
    assert!(err.contains("has a result tag that names another winner than its moves do"), "{err}");
    assert_eq!(stdout(&output), "");
}

/// The moves of a Brandubh game that ends on the board: seeded random play (xorshift) that takes
/// a move ending the game whenever it has one.
fn brandubh_game_ended_on_the_board() -> Vec<String> {
    use tafl_rules::{Game, Position, Variant};
    for seed in 1..1_000u64 {
        let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
        let mut game = Game::new(Position::new(Variant::Brandubh.rules()).unwrap());
        while game.status().is_ongoing() && game.ply() < 200 {
            let moves = game.position().legal_moves();
            let ending = moves.iter().copied().find(|&mv| game.preview(mv).is_ok_and(|p| !p.status.is_ongoing()));
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            game.play(ending.unwrap_or(moves[(state % moves.len() as u64) as usize])).unwrap();
        }
        if !game.status().is_ongoing() {
            return game.moves().iter().map(|m| m.text().to_string()).collect();
        }
    }
    panic!("no Brandubh game ended on the board");
}

/// A record that contradicts its own moves is refused in one sentence before any ply, as
/// `/import` refuses it: a termination on the board that the moves do not reach, or an end
/// marker after moves that already ended the game on the board.
#[test]
fn replaying_a_record_that_contradicts_its_moves_is_refused() {
    let record = format!("[result:1]\n[termination:king_captured]\n{BRANDUBH_RULES_TAG}\n1. d2-b2 d3-c3\n");
    let output = run(&["replay", "--record", "-"], Some(record.as_bytes()));
    let err = assert_one_sentence_error(&output);
    assert!(err.contains("has a termination tag that names an ending on the board its moves do not reach"), "{err}");
    assert_eq!(stdout(&output), "");
    let moves = brandubh_game_ended_on_the_board().join(" ");
    let record = format!("{BRANDUBH_RULES_TAG}\n1. {moves}\n");
    let output = run(&["replay", "--record", "-"], Some(record.as_bytes()));
    assert!(output.status.success(), "{}", stderr(&output));
    let output = run(&["replay", "--record", "-"], Some(format!("{record}---\n").as_bytes()));
    let err = assert_one_sentence_error(&output);
    assert!(err.contains("says the side to move resigned or ran out of time after its moves ended the game"), "{err}");
    assert_eq!(stdout(&output), "");
    // A draw by repetition, replayed without judging repetition, is a draw by its result tag.
    let cycle = "a4-a3 d3-c3 a3-a4 c3-d3";
    let record = format!("[result:0]\n[termination:repetition]\n{BRANDUBH_RULES_TAG}\n1. {cycle} {cycle}\n");
    let output = run(&["replay", "--record", "-"], Some(record.as_bytes()));
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(stdout(&output).contains("draw (repetition) after 8 plies"), "{}", stdout(&output));
    let output = run(&["replay", "--no-repetition", "--record", "-"], Some(record.as_bytes()));
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(stdout(&output).contains("draw after 8 plies"), "{}", stdout(&output));
}

/// At a terminal, `replay --record FILE` said "reading moves from stdin; end with Ctrl-D",
/// although it reads the file and never stdin. Needs util-linux `script` for a terminal; skipped
/// without it.
#[test]
fn replaying_a_record_file_at_a_terminal_does_not_say_it_reads_stdin() {
    let dir = tempfile::tempdir().expect("a scratch folder");
    let record = dir.path().join("game.otn");
    std::fs::write(&record, format!("{BRANDUBH_RULES_TAG}\n1. d2-b2\n")).unwrap();
    let command = format!("{BIN} replay --record {}", record.display());
    let Ok(output) =
        Command::new("script").args(["-q", "-e", "-c", &command, "/dev/null"]).stdin(Stdio::null()).output()
    else {
        return;
    };
    let seen = String::from_utf8_lossy(&output.stdout);
    assert!(seen.contains("d2-b2"), "{seen}");
    assert!(!seen.contains("reading moves from stdin"), "{seen}");
}

/// A number too large for its type was refused with the type's range (`0..=4294967295`), which is
/// not what the option takes; each bounded option names its own range, however large the number.
#[test]
fn a_huge_number_is_refused_with_the_options_own_range_not_its_types() {
    for (args, range) in [
        (&["ai", "--variant", "brandubh", "--depth", "99999999999"][..], "from 1 to 60"),
        (&["ai", "--variant", "brandubh", "--millis", "99999999999999999999"], "from 1 to 86400000"),
        (&["perft", "--variant", "brandubh", "--depth", "99999999999"], "from 1 to 12"),
        (&["match", "--variant", "brandubh", "--a", "1", "--b", "2", "--games", "99999999999"], "from 1 to 1000000"),
    ] {
        let err = assert_one_sentence_error(&run(args, None));
        assert!(!err.contains("4294967295") && !err.contains("18446744073709551615"), "{args:?}: {err}");
        assert!(err.contains(range), "{args:?}: {err}");
    }
    // The same range for a number the type holds, and for no number at all.
    for depth in ["0", "61", "two"] {
        let err = assert_one_sentence_error(&run(&["ai", "--variant", "brandubh", "--depth", depth], None));
        assert!(err.contains("from 1 to 60"), "{depth}: {err}");
    }
}

/// A match of one game said "1 games of brandubh".
#[test]
fn a_one_game_match_says_one_game() {
    let output = run(&["match", "--variant", "brandubh", "--a", "greedy", "--b", "greedy", "--games", "1"], None);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(stdout(&output).starts_with("1 game of brandubh:"), "{}", stdout(&output));
}

/// `tafl-bot engine` sent a board it cannot play (here `OpenTafl`'s Brandubh with the king on a
/// corner) answers `analyze` and `play` with the reason, as `OpenTafl` reads errors: `error 0`,
/// shown, and `error -1`, which ends the game. It searched the start position instead, and
/// played a move of it.
#[test]
fn the_engine_refuses_a_board_it_cannot_play_instead_of_searching_the_one_before() {
    let rules = "dim:7 name:Brandub surf:n atkf:y ks:w cenh: cenhe: start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/";
    let input = format!(
        "rules {rules}\nposition /K6/7/3t3/7/3t3/7/7/\nside attackers\nanalyze 3 1\nplay attackers\nplay\tattackers\n"
    );
    let output = run(&["engine", "--max-millis", "300"], Some(input.as_bytes()));
    assert!(output.status.success(), "{}", stderr(&output));
    let why = "the board /K6/7/3t3/7/3t3/7/7/ is a finished game: the king on a1 has already escaped";
    assert_eq!(
        lines(&output),
        ["hello".to_owned(), format!("error 0 {why}"), format!("error -1 {why}"), format!("error -1 {why}")]
    );
}
