//! `tafl-bot perft`: move counts from a preset's start position, the standard check that two
//! move generators agree (VARIANTS.md §5 lists the agreed values).

use std::io::Write;

use serde::Serialize;
use tafl_rules::Position;

use super::{CliError, rules_for};

/// The deepest count accepted. Copenhagen depth 6 already takes hours; the limit mainly keeps an
/// absurd depth from recursing until the stack runs out.
pub const MAX_DEPTH: u32 = 12;

#[derive(Debug, clap::Args)]
pub struct PerftArgs {
    /// The preset, e.g. copenhagen (`tafl-bot variants` lists them).
    #[arg(long, value_name = "ID")]
    pub variant: String,
    /// A preset option, e.g. escape=edge; may be repeated.
    #[arg(long = "opt", value_name = "KEY=VALUE")]
    pub options: Vec<String>,
    /// Count every depth from 1 to N.
    // The range is clap's to check, so that a number past the type's range is refused by this
    // one (see `number_from`).
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = super::number_from(1, MAX_DEPTH))]
    pub depth: u32,
    /// One JSON object per line: {"depth","nodes"}.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Serialize)]
pub struct PerftLine {
    pub depth: u32,
    pub nodes: u64,
}

pub fn run(args: &PerftArgs, out: &mut dyn Write) -> Result<(), CliError> {
    if !(1..=MAX_DEPTH).contains(&args.depth) {
        return Err(CliError::Input(format!("--depth must be from 1 to {MAX_DEPTH}, not {}", args.depth)));
    }
    let (_, rules) = rules_for(&args.variant, &args.options)?;
    let position = Position::new(rules).map_err(|e| CliError::Input(e.to_string()))?;
    for depth in 1..=args.depth {
        let nodes = tafl_rules::perft(&position, depth);
        if args.json {
            serde_json::to_writer(&mut *out, &PerftLine { depth, nodes }).map_err(|e| CliError::write(e.into()))?;
            writeln!(out).map_err(CliError::write)?;
        } else {
            writeln!(out, "perft({depth}) = {nodes}").map_err(CliError::write)?;
        }
        // Deep counts take long: show each one as soon as it is known.
        out.flush().map_err(CliError::write)?;
    }
    Ok(())
}
