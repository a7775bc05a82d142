//! A check for tests of other languages: the English words left in a text. Notation, ids,
//! commands, file names and people's names are Latin letters too, so a word counts only when it
//! stands alone as a word of at least two letters and is not on the caller's list of names.

/// Latin-alphabet words in `text` that are not notation: a whitespace-separated token counts
/// only if, stripped of surrounding punctuation, it is made of ASCII letters alone (so `e1-e3`,
/// `side:attackers`, `/move`, `@bob`, `game-1.png`, `3d+7d` and `king_captured` are not words),
/// has two letters or more, and is not in `allowed` (compared case-insensitively).
#[must_use]
pub fn english_words(text: &str, allowed: &[&str]) -> Vec<String> {
    let mut found = Vec::new();
    for token in text.split_whitespace() {
        if token.starts_with(['/', '@', '`', '<', '#', '[']) || token.contains(['/', '@', '_', '=', ':', '|', '`']) {
            continue;
        }
        let word = token.trim_matches(|c: char| !c.is_alphanumeric());
        let is_word = word.chars().count() >= 2 && word.chars().all(|c| c.is_ascii_alphabetic());
        if is_word && !allowed.iter().any(|a| a.eq_ignore_ascii_case(word)) {
            found.push(word.to_owned());
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn english_prose_is_found_and_notation_is_not() {
        let text = "Ход 3: ходит @bob; сыгран `e1-e3 x e2`, side:attackers, /move d1-d3, game-1.png, 3d+7d";
        assert!(english_words(text, &[]).is_empty(), "{:?}", english_words(text, &[]));
        assert_eq!(english_words("It is your move, ann.", &["ann"]), ["It", "is", "your", "move"]);
        assert_eq!(english_words("Партия №1 (Copenhagen)", &[]), ["Copenhagen"]);
    }
}
