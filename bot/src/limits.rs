//! The documented limits on what the bot and its tools read, so that endless or huge input
//! (`/dev/zero`, a 5 GB file) is refused with one sentence and memory stays bounded.
//!
//! | what | limit |
//! | --- | --- |
//! | an OTN record (a file, stdin, `/import`) | [`MAX_INPUT_BYTES`] (1 MB) |
//! | the moves `replay` reads from stdin | [`MAX_INPUT_BYTES`] (1 MB) in all |
//! | one line typed in the console | [`MAX_LINE_BYTES`] (64 KB) |
//! | a game (replayed, imported, or given to `ai` or `render`) | [`MAX_PLIES`] (10,000 plies) |
//! | the game `engine` follows | [`MAX_PLIES`]; past them it goes on from the board alone |
//!
//! The longest recorded tafl games are a few hundred plies; a 10,000-ply record in OTN is about
//! 100 KB, so neither limit stands in the way of a real game.

use std::io::{self, Read};

/// The most bytes read from a record or from stdin: 1 MB.
pub const MAX_INPUT_BYTES: usize = 1_000_000;

/// The most bytes of one console line: 64 KB.
pub const MAX_LINE_BYTES: usize = 64 * 1024;

/// The most plies in a game that is replayed or imported.
pub const MAX_PLIES: usize = 10_000;

/// The byte-order mark, U+FEFF, that some editors (on Windows) put at the start of UTF-8 text:
/// invisible, and no part of what was written. The record reader drops it too.
pub const BOM: char = '\u{feff}';

/// The refusal of a game longer than [`MAX_PLIES`] by the command-line tool `tool`.
#[must_use]
pub fn too_many_plies(tool: &str) -> String {
    format!("the game is longer than 10,000 plies, the most {tool} plays")
}

/// Why bounded text could not be read.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    #[error("it is larger than 1 MB, the most the bot reads")]
    TooLarge,
    #[error("{0}")]
    Io(#[from] io::Error),
}

/// Reads all of `reader`, up to [`MAX_INPUT_BYTES`]; bytes that are not UTF-8 become U+FFFD
/// (and then fail as whatever the text should have been). Stops reading one byte past the limit.
pub fn read_text(reader: impl Read) -> Result<String, ReadError> {
    let mut bytes = Vec::new();
    reader.take(MAX_INPUT_BYTES as u64 + 1).read_to_end(&mut bytes)?;
    if bytes.len() > MAX_INPUT_BYTES {
        return Err(ReadError::TooLarge);
    }
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}

/// Reads the file at `path` as [`read_text`] does (a device such as `/dev/zero` included).
pub fn read_file(path: &std::path::Path) -> Result<String, ReadError> {
    read_text(std::fs::File::open(path)?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_up_to_the_limit_is_read_and_one_byte_more_is_refused() {
        assert_eq!(read_text(io::repeat(b'a').take(MAX_INPUT_BYTES as u64)).unwrap().len(), MAX_INPUT_BYTES);
        assert!(matches!(read_text(io::repeat(b'a')), Err(ReadError::TooLarge)));
    }
}
