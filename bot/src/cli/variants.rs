//! `tafl-bot variants [--json]`: the presets, so that scripts and people can see what the bot
//! hosts and which `--opt` values each preset takes.

use std::io::Write;

use serde::Serialize;
use tafl_rules::Variant;

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
            rules: tafl_rules::otn::rules_string(&variant.rules()),
        }
    }
}

/// The `KEY=VALUE` texts a preset accepts, default value first. A key added to the engine before
/// this list learns its values is shown bare rather than hidden.
#[must_use]
pub fn option_texts(variant: Variant) -> Vec<String> {
    let rules = variant.rules();
    let mut texts = Vec::new();
    for &key in variant.option_keys() {
        let values: &[&str] = match key {
            "king_armed" if rules.king_armed => &["true", "false"],
            "king_armed" => &["false", "true"],
            "escape" if rules.has_corners() => &["corner", "edge"],
            "escape" => &["edge", "corner"],
            _ => {
                texts.push(key.to_owned());
                continue;
            }
        };
        texts.extend(values.iter().map(|value| format!("{key}={value}")));
    }
    texts
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
