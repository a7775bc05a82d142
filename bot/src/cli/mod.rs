//! The `tafl-bot` command line.
