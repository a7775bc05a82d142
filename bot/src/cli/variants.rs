//! `tafl-bot variants [--json]`: the presets, so that scripts and people can see what the bot
//! hosts and which `--opt` values each preset takes.

use std::io::Write;

use serde::Serialize;
use tafl_rules::{Rules, Variant};

use super::CliError;

#[derive(Debug, clap::Args)]
pub struct VariantsArgs {
    /// One JSON object per line: {"id","name","size","options","rules"}.
    #[arg(long)]
    pub json: bool,
}

/// One line of `variants --json`. Field order is the output's key order.
#[derive(Debug, Serialize)]
pub struct VariantLine {
    pub id: &'static str,
    pub name: &'static str,
    pub size: u8,
    /// Every `KEY=VALUE` that `--opt` accepts for this preset.
    pub options: Vec<String>,
    /// The closest OTN rules string.
    pub rules: String,
}

impl VariantLine {
    #[must_use]
    pub fn new(variant: Variant) -> VariantLine {
        VariantLine {
            id: variant.id(),
            name: variant.name(),
            size: variant.size(),
            options: option_texts(variant),
            rules: rules_string(&variant.rules()),
        }
    }
}

/// The `KEY=VALUE` texts a preset accepts, default value first.
#[must_use]
pub fn option_texts(variant: Variant) -> Vec<String> {
    let rules = variant.rules();
    variant
        .option_keys()
        .iter()
        .flat_map(|&key| {
            let values: [&str; 2] = match key {
                "king_armed" if rules.king_armed => ["true", "false"],
                "king_armed" => ["false", "true"],
                "escape" if rules.has_corners() => ["corner", "edge"],
                "escape" => ["edge", "corner"],
                _ => unreachable!("every option key of a preset is listed here: {key}"),
            };
            values.map(|value| format!("{key}={value}"))
        })
        .collect()
}

/// The OTN rules string of a rule set.
///
/// INTERIM: `tafl_rules::otn::rules_string` is being written; until it lands this prints only the
/// keys whose OTN meaning is certain (board size, escape, armed king, start position). Replace the
/// body with `tafl_rules::otn::rules_string(rules)` then.
fn rules_string(rules: &Rules) -> String {
    format!(
        "dim:{} esc:{} ka:{} start:{}",
        rules.size(),
        if rules.has_corners() { "c" } else { "e" },
        if rules.king_armed { "y" } else { "n" },
        rules.start
    )
}

pub fn run(args: &VariantsArgs, out: &mut dyn Write) -> Result<(), CliError> {
    let lines: Vec<VariantLine> = Variant::ALL.into_iter().map(VariantLine::new).collect();
    if args.json {
        for line in &lines {
            serde_json::to_writer(&mut *out, line).map_err(|e| CliError::write(e.into()))?;
            writeln!(out).map_err(CliError::write)?;
        }
        return Ok(());
    }
    let id_width = lines.iter().map(|l| l.id.len()).max().unwrap_or(0);
    let name_width = lines.iter().map(|l| l.name.len()).max().unwrap_or(0);
    let options = |l: &VariantLine| if l.options.is_empty() { "-".to_owned() } else { l.options.join(" ") };
    let options_width = lines.iter().map(|l| options(l).len()).max().unwrap_or(0);
    writeln!(out, "{:id_width$}  {:name_width$}  SIZE   {:options_width$}  RULES", "ID", "NAME", "OPTIONS")
        .map_err(CliError::write)?;
    for l in &lines {
        let size = format!("{0}x{0}", l.size);
        writeln!(
            out,
            "{:id_width$}  {:name_width$}  {size:5}  {:options_width$}  {}",
            l.id,
            l.name,
            options(l),
            l.rules
        )
        .map_err(CliError::write)?;
    }
    Ok(())
}
