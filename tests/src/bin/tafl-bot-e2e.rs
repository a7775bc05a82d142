//! The `tafl-bot` command line, built inside this package so that its tests can run it as a
//! process (`CARGO_BIN_EXE_tafl-bot-e2e`): Cargo builds and names only a package's own binaries
//! for its tests. It is the same `main` as `bot/src/main.rs`.

fn main() -> std::process::ExitCode {
    tafl_bot::cli::main()
}
