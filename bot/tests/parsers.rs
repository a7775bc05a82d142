//! The bot's parsers of user text, fed arbitrary and near-miss input: clock strings, the
//! `custom_id`s of buttons and menus (forged or truncated ones arrive from Discord), and whole
//! console command lines. None panics, and every error is one line without raw control
//! characters.

mod support;

use proptest::prelude::*;
use support::temp_path;
use tafl_bot::discord::ids::{Control, PageValue};
use tafl_bot::host::{Clock, Host};
use tafl_bot::local::Session;
use tafl_bot::store::Db;

fn assert_one_clean_line(text: &str) {
    assert!(!text.is_empty());
    assert!(!text.chars().any(char::is_control), "a control character in: {text:?}");
}

/// A refused clock as a person reads it, in English and Russian.
fn assert_clock_refusal_is_clean(error: &tafl_bot::host::ClockError) {
    for locale in [None, Some("ru")] {
        assert_one_clean_line(&tafl_bot::present::text::clock_error(error, tafl_bot::present::Lang::discord(locale)));
    }
}

/// Text made of the characters a parser cares about, plus hostile ones.
fn soup(alphabet: &'static str) -> impl Strategy<Value = String> {
    let chars: Vec<char> = alphabet.chars().chain("\u{1b}\u{7}\u{0}\n\r\t ж🦀\u{202e}".chars()).collect();
    proptest::collection::vec(proptest::sample::select(chars), 0..60).prop_map(|v| v.into_iter().collect())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn clock_strings_never_panic(text in soup("0123456789dhmsw+ none дчм")) {
        if let Err(e) = text.parse::<Clock>() { assert_clock_refusal_is_clean(&e) }
    }

    #[test]
    fn arbitrary_clock_strings_never_panic(text in any::<String>()) {
        if let Err(e) = text.parse::<Clock>() { assert_clock_refusal_is_clean(&e) }
    }

    #[test]
    fn custom_ids_never_panic_and_what_parses_writes_back_the_same(
        text in soup("tafl:acceptdeclinepiecetobackresign-yesnodrawtakeback0123456789abcdefghijk"),
    ) {
        if let Ok(control) = text.parse::<Control>() {
            prop_assert_eq!(control.to_string().parse::<Control>().ok(), Some(control));
        }
        let _ = PageValue::parse(&text);
    }

    #[test]
    fn near_miss_custom_ids_never_panic(
        action in "(accept|decline|piece|to|back|resign|resign-yes|draw|draw-yes|takeback-no|x)",
        fields in proptest::collection::vec("(-?[0-9]{0,21}|[a-z][0-9]{1,3}|)", 0..5),
    ) {
        let text = format!("tafl:{action}:{}", fields.join(":"));
        if let Ok(control) = text.parse::<Control>() {
            prop_assert_eq!(control.to_string().parse::<Control>().ok(), Some(control));
        }
    }
}

/// Durations as the bot writes them read back as a clock or a `/wait`, in every language: the
/// console prints days in Russian as `дн.` (`1 дн. 12 ч`), and Russians abbreviate so.
#[test]
fn russian_durations_as_the_bot_writes_them_read_back() {
    use tafl_bot::host::clock::parse_duration;
    use tafl_bot::present::Lang;
    use tafl_bot::present::text::compact_duration;
    const DAY: i64 = 86_400;
    let printed = compact_duration(DAY + 12 * 3600, Lang::console("ru"));
    assert_eq!(printed, "1 дн. 12 ч");
    assert_eq!(parse_duration(&printed), Some(DAY + 12 * 3600), "{printed}");
    assert_eq!(parse_duration("3 дн."), Some(3 * DAY));
    assert_eq!(parse_duration("3дн.12ч"), Some(3 * DAY + 12 * 3600));
    assert_eq!("3 дн.".parse::<Clock>().ok().and_then(Clock::seconds_per_move), Some(3 * DAY));
    assert_eq!("1 дн.+3 дн.".parse::<Clock>().ok().and_then(Clock::reserve_cap), Some(3 * DAY));
    let mut seconds = 1;
    while seconds < 400 * DAY {
        for locale in ["en", "ru"] {
            let printed = compact_duration(seconds, Lang::console(locale));
            assert_eq!(parse_duration(&printed), Some(seconds), "{printed}");
        }
        seconds = seconds * 7 + 13;
    }
    // A dot anywhere but right after a unit word is still refused.
    for text in ["3. дн", "3 .дн", "1.5h", "3 дн..", ".3д", "3 дн. ."] {
        assert_eq!(parse_duration(text), None, "{text}");
    }
}

/// A console session on a fresh database, with a game going, for the command-line fuzzing.
fn session_with_a_game(runtime: &tokio::runtime::Runtime) -> Session {
    runtime.block_on(async {
        let host = Host::new(Db::open_file(&temp_path("parsers")).await.unwrap());
        let mut session = Session::new(host, None);
        for line in ["/as @ann", "/challenge @ben brandubh side:attackers", "as @ben /accept"] {
            session.execute(line).await;
        }
        session
    })
}

#[test]
fn console_command_lines_never_panic_and_errors_are_one_clean_line() {
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    // `TestRunner::run` takes an `Fn`; the session changes with every command.
    let session = tokio::sync::Mutex::new(session_with_a_game(&runtime));
    let commands = "(as @[a-z\u{1b}]{0,4} )?/(move|moves|board|games|challenge|accept|decline|cancel|resign|draw|takeback|export|summary|profile|leaderboard|wait|as|import|nope)";
    let line = (commands, soup("@abcdefg0123456789:-x =#/ ")).prop_map(|(c, rest)| format!("{c} {rest}"));
    let mut runner = proptest::test_runner::TestRunner::new(ProptestConfig::with_cases(300));
    runner
        .run(&line, |line| {
            let reply = runtime.block_on(async { session.lock().await.execute(&line).await });
            assert!(!reply.text.is_empty(), "no answer to {line:?}");
            if let Some(error) = reply.text.strip_prefix("error: ") {
                // The console prints errors through `printable`; the sentence itself may quote
                // input only through the escaping shorteners, so it is one line already.
                assert_one_clean_line(error.trim_end());
            }
            Ok(())
        })
        .unwrap();
}
