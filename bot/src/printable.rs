//! Untrusted text made safe to echo: every reply that repeats what someone typed (a move, a
//! name, a file's contents) passes it through [`printable`], so that ESC, BEL, NUL or a newline
//! in the input can neither drive the terminal nor split a one-line error in two.

use std::borrow::Cow;

/// `text` with each control character written as its Rust escape (`\u{1b}`, `\n`, `\0`), and
/// everything else unchanged.
#[must_use]
pub fn printable(text: &str) -> Cow<'_, str> {
    if !text.chars().any(char::is_control) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if c.is_control() {
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
    }
}
