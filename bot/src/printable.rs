//! Untrusted text made safe to echo: every reply that repeats what someone typed (a move, a
//! name, a file's contents) passes it through [`printable`], so that ESC, BEL, NUL or a newline
//! in the input can neither drive the terminal nor split a one-line error in two, and a
//! right-to-left override cannot turn the rest of the line round.

use std::borrow::Cow;

/// `text` with each character [`tafl_rules::escaped_when_quoted`] names written as its Rust
/// escape (`\u{1b}`, `\n`, `\0`, `\u{202e}`), and everything else unchanged.
#[must_use]
pub fn printable(text: &str) -> Cow<'_, str> {
    if !text.chars().any(tafl_rules::escaped_when_quoted) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if tafl_rules::escaped_when_quoted(c) {
            out.extend(c.escape_debug());
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::printable;

    #[test]
    fn control_characters_are_escaped_and_the_rest_kept() {
        assert_eq!(printable("e1-e3"), "e1-e3");
        assert_eq!(printable("a\u{1b}[31mb\u{7}\0\n"), "a\\u{1b}[31mb\\u{7}\\0\\n");
        assert_eq!(printable("тафл ♔"), "тафл ♔");
        // Direction overrides and isolates, and the line separators; a direction mark is kept.
        assert_eq!(printable("d2-b2\u{202e}x\u{2066}\u{2028}"), "d2-b2\\u{202e}x\\u{2066}\\u{2028}");
        assert_eq!(printable("\u{200f}محمد"), "\u{200f}محمد");
    }
}
