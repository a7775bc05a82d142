//! Every parser of user text in the rules crate, fed arbitrary and near-miss input: none panics,
//! and every error is one line without raw control characters (the sentence quotes the input,
//! so ESC or a newline in it must arrive escaped).

use proptest::prelude::*;
use tafl_rules::otn::{self, GameRecord};
use tafl_rules::{MoveText, Setup, Square};

fn assert_one_clean_line(error: &impl std::fmt::Display) {
    let text = error.to_string();
    assert!(!text.is_empty());
    // A control character (a newline, ESC), a line separator or a direction override.
    assert!(!text.chars().any(tafl_rules::escaped_when_quoted), "an unescaped character in: {text:?}");
}

/// Text made of the characters each parser cares about, plus hostile ones.
fn soup(alphabet: &'static str) -> impl Strategy<Value = String> {
    let chars: Vec<char> =
        alphabet.chars().chain("\u{1b}\u{7}\u{0}\n\r\t ж🦀\u{202e}\u{2066}\u{2028}\u{200f}".chars()).collect();
    proptest::collection::vec(proptest::sample::select(chars), 0..80).prop_map(|v| v.into_iter().collect())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn squares_never_panic(text in soup("abcdekzAZ0123456789")) {
        if let Err(e) = text.parse::<Square>() { assert_one_clean_line(&e) }
    }

    #[test]
    fn move_text_never_panics(text in soup("abcdefghijklmnzxX0123456789-/ ")) {
        match text.parse::<MoveText>() {
            Ok(mv) => prop_assert_eq!(mv.to_string().parse::<MoveText>().ok(), Some(mv)),
            Err(e) => assert_one_clean_line(&e),
        }
    }

    #[test]
    fn arbitrary_strings_as_moves_never_panic(text in any::<String>()) {
        if let Err(e) = text.parse::<MoveText>() { assert_one_clean_line(&e) }
    }

    #[test]
    fn otn_positions_never_panic(text in soup("/tTK0123456789/")) {
        if let Err(e) = text.parse::<Setup>() { assert_one_clean_line(&e) }
    }

    #[test]
    fn rules_strings_never_panic(text in soup("dim:esc:cyns0123456789 /tTKka")) {
        if let Err(e) = otn::parse_rules(&text) { assert_one_clean_line(&e) }
    }

    #[test]
    fn game_records_never_panic(
        tags in proptest::collection::vec(soup("abcdefrulsm:[]0123456789 "), 0..4),
        moves in proptest::collection::vec(soup("abcdefghijk0123456789-x."), 0..12),
    ) {
        let mut record = String::from("[rules:dim:7 esc:c start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/]\n");
        for tag in &tags {
            record.push('[');
            record.push_str(tag);
            record.push_str("]\n");
        }
        record.push_str(&moves.join(" "));
        match GameRecord::parse(&record) {
            Ok(parsed) => {
                // Whatever was read replays or is refused with a sentence, never a panic.
                if let Err((_, e)) = parsed.replay() { assert_one_clean_line(&e) }
            }
            Err(e) => assert_one_clean_line(&e),
        }
    }

    #[test]
    fn arbitrary_records_never_panic(text in any::<String>()) {
        if let Err(e) = GameRecord::parse(&text) { assert_one_clean_line(&e) }
    }
}

#[test]
fn squares_beyond_the_largest_board_are_worded_like_squares_off_this_board() {
    let parsed = "z99-z98".parse::<MoveText>().unwrap_err().to_string();
    assert_eq!(parsed, "z99 is off the board: no board is larger than 19x19");
    let position = tafl_rules::Position::new(tafl_rules::Variant::Copenhagen.rules()).unwrap();
    let played = position.check("d1-l1".parse::<MoveText>().unwrap().mv).unwrap_err().to_string();
    assert_eq!(played, "l1 is off the board: this one is 11x11");
}

#[test]
fn a_position_whose_rows_disagree_with_its_height_names_both_counts() {
    let short = "/3t3/3t3/3T3/ttTKTtt/3T3/3t3/".parse::<Setup>().unwrap_err().to_string();
    assert!(
        short.ends_with("row 1 has more than 6 squares, but there are 6 rows (a board is as wide as it is high)"),
        "{short}"
    );
    let narrow = "/3t2/3t3/3T3/ttTKTtt/3T3/3t3/3t3/".parse::<Setup>().unwrap_err().to_string();
    assert!(
        narrow.ends_with("row 1 has 6 squares, but there are 7 rows (a board is as wide as it is high)"),
        "{narrow}"
    );
    let one = "/9t/".parse::<Setup>().unwrap_err().to_string();
    assert!(one.ends_with("it has 1 row; a board has 3 to 26"), "{one}");
}

#[test]
fn a_zero_count_in_a_position_is_refused() {
    for text in [
        "/3t03/3t3/3T3/ttTKTtt/3T3/3t3/3t3/",
        "/03t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/",
        "/3t3/3t3/3T3/ttTKTtt/3T3/3t3/0t3t2/",
    ] {
        let error = text.parse::<Setup>().unwrap_err().to_string();
        assert!(error.contains("counts zero empty squares"), "{text}: {error}");
    }
}
