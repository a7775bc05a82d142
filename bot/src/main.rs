//! The `tafl-bot` binary; everything lives in [`tafl_bot::cli`] so that tests can call it.

fn main() -> std::process::ExitCode {
    tafl_bot::cli::main()
}
