//! The presets of VARIANTS.md §3 and their options.

use std::fmt;
use std::str::FromStr;

use crate::error::RulesError;
use crate::position::Setup;
use crate::rules::{Escape, KingCapture, Repetition, Rules, Shieldwall, Throne};

/// A preset rule set. The id (`copenhagen`, `sea-battle-11`, …) is its name everywhere: the CLI,
/// the database, slash commands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Variant {
    SeaBattle9,
    SeaBattle11,
    SeaBattle13,
    SeaBattle15,
    Tablut,
    Brandubh,
    Hnefatafl,
    Historical7,
    Historical9,
    Historical11,
    Copenhagen,
    Fetlar,
}

/// An option chosen when a game is created (`--opt KEY=VALUE`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum VariantOption {
    /// `king_armed=true|false` (seed 001 presets).
    KingArmed(bool),
    /// `escape=edge|corner` (historical presets).
    Escape(Escape),
}

impl VariantOption {
    /// Parses `KEY=VALUE` for `variant`, refusing options the preset does not have.
    pub fn parse(variant: Variant, text: &str) -> Result<VariantOption, RulesError> {
        let (key, value) = text
            .split_once('=')
            .map(|(k, v)| (k.trim(), v.trim()))
            .ok_or_else(|| RulesError::OptionSyntax { input: crate::square::shorten(text) })?;
        let key = key.to_ascii_lowercase().replace('-', "_");
        let value_lc = value.to_ascii_lowercase();
        let has = variant.option_keys();
        let bad_value = |key, expected| RulesError::BadOptionValue {
            variant: variant.id(),
            key,
            value: crate::square::shorten(value),
            expected,
        };
        match key.as_str() {
            "king_armed" if has.contains(&"king_armed") => match value_lc.as_str() {
                "true" | "yes" | "y" | "on" => Ok(VariantOption::KingArmed(true)),
                "false" | "no" | "n" | "off" => Ok(VariantOption::KingArmed(false)),
                _ => Err(bad_value("king_armed", "true or false")),
            },
            "escape" if has.contains(&"escape") => match value_lc.as_str() {
                "edge" => Ok(VariantOption::Escape(Escape::Edge)),
                "corner" => Ok(VariantOption::Escape(Escape::Corner)),
                _ => Err(bad_value("escape", "edge or corner")),
            },
            _ => Err(RulesError::UnknownOption {
                variant: variant.id(),
                key: crate::square::shorten(&key),
                has: match key.as_str() {
                    // Say what the preset fixes, so the player learns the rule, not just "no".
                    "king_armed" => format!(
                        "the king is {} in {}, and {}",
                        if variant.rules().king_armed { "armed" } else { "not armed" },
                        variant.id(),
                        variant.describe_options()
                    ),
                    "escape" => format!(
                        "the king escapes to {} in {}, and {}",
                        if variant.rules().escape == Escape::Edge { "the edge" } else { "a corner" },
                        variant.id(),
                        variant.describe_options()
                    ),
                    _ => variant.describe_options(),
                },
            }),
        }
    }

    /// The option's key, as written before the `=`.
    #[must_use]
    pub fn key(self) -> &'static str {
        match self {
            VariantOption::KingArmed(_) => "king_armed",
            VariantOption::Escape(_) => "escape",
        }
    }

    /// The canonical `key=value` text.
    #[must_use]
    pub fn text(self) -> String {
        match self {
            VariantOption::KingArmed(armed) => format!("king_armed={armed}"),
            VariantOption::Escape(Escape::Edge) => "escape=edge".to_owned(),
            VariantOption::Escape(Escape::Corner) => "escape=corner".to_owned(),
        }
    }
}

const BRANDUBH_CROSS: &str = "/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/";
const TABLUT_CROSS: &str = "/3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3/";
const DIAMOND_11: &str = "/3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3/";
const SERIF_11: &str = "/3ttttt3/5t5/5T5/t4T4t/t4T4t/ttTTTKTTTtt/t4T4t/t4T4t/5T5/5t5/3ttttt3/";
const SERIF_13: &str = "/3ttttttt3/6t6/6T6/t5T5t/t5T5t/t5T5t/ttTTTTKTTTTtt/t5T5t/t5T5t/t5T5t/6T6/6t6/3ttttttt3/";
const SERIF_15: &str =
    "/3ttttttttt3/7t7/7T7/t6T6t/t6T6t/t6T6t/t6T6t/ttTTTTTKTTTTTtt/t6T6t/t6T6t/t6T6t/t6T6t/7T7/7t7/3ttttttttt3/";

impl Variant {
    pub const ALL: [Variant; 12] = [
        Variant::SeaBattle9,
        Variant::SeaBattle11,
        Variant::SeaBattle13,
        Variant::SeaBattle15,
        Variant::Tablut,
        Variant::Brandubh,
        Variant::Hnefatafl,
        Variant::Historical7,
        Variant::Historical9,
        Variant::Historical11,
        Variant::Copenhagen,
        Variant::Fetlar,
    ];

    #[must_use]
    pub const fn id(self) -> &'static str {
        match self {
            Variant::SeaBattle9 => "sea-battle-9",
            Variant::SeaBattle11 => "sea-battle-11",
            Variant::SeaBattle13 => "sea-battle-13",
            Variant::SeaBattle15 => "sea-battle-15",
            Variant::Tablut => "tablut",
            Variant::Brandubh => "brandubh",
            Variant::Hnefatafl => "hnefatafl",
            Variant::Historical7 => "historical-7",
            Variant::Historical9 => "historical-9",
            Variant::Historical11 => "historical-11",
            Variant::Copenhagen => "copenhagen",
            Variant::Fetlar => "fetlar",
        }
    }

    /// The display name.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Variant::SeaBattle9 => "Sea Battle 9x9",
            Variant::SeaBattle11 => "Sea Battle 11x11",
            Variant::SeaBattle13 => "Sea Battle 13x13",
            Variant::SeaBattle15 => "Sea Battle 15x15",
            Variant::Tablut => "Tablut",
            Variant::Brandubh => "Brandubh",
            Variant::Hnefatafl => "Hnefatafl",
            Variant::Historical7 => "Historical 7x7",
            Variant::Historical9 => "Historical 9x9",
            Variant::Historical11 => "Historical 11x11",
            Variant::Copenhagen => "Copenhagen Hnefatafl",
            Variant::Fetlar => "Fetlar Hnefatafl",
        }
    }

    /// The seed document family (000 Sea Battle, 001 seed-001 tafl, 003/004 historical) or the
    /// anchor rules (Copenhagen, Fetlar). Ratings and rule tests are grouped by family.
    #[must_use]
    pub const fn family(self) -> &'static str {
        match self {
            Variant::SeaBattle9 | Variant::SeaBattle11 | Variant::SeaBattle13 | Variant::SeaBattle15 => "sea-battle",
            Variant::Tablut | Variant::Brandubh | Variant::Hnefatafl => "seed-001",
            Variant::Historical7 | Variant::Historical9 | Variant::Historical11 => "historical",
            Variant::Copenhagen => "copenhagen",
            Variant::Fetlar => "fetlar",
        }
    }

    #[must_use]
    pub const fn size(self) -> u8 {
        match self {
            Variant::Brandubh | Variant::Historical7 => 7,
            Variant::SeaBattle9 | Variant::Tablut | Variant::Historical9 => 9,
            Variant::SeaBattle11
            | Variant::Hnefatafl
            | Variant::Historical11
            | Variant::Copenhagen
            | Variant::Fetlar => 11,
            Variant::SeaBattle13 => 13,
            Variant::SeaBattle15 => 15,
        }
    }

    /// The option keys this preset accepts.
    #[must_use]
    pub const fn option_keys(self) -> &'static [&'static str] {
        match self.family().as_bytes() {
            b"seed-001" => &["king_armed"],
            b"historical" => &["escape"],
            _ => &[],
        }
    }

    fn describe_options(self) -> String {
        match self.option_keys() {
            [] => "it has no options".to_owned(),
            keys => format!("its options are: {}", keys.join(", ")),
        }
    }

    /// The preset's rules with its defaults.
    #[must_use]
    pub fn rules(self) -> Rules {
        let start = |otn: &str| otn.parse::<Setup>().expect("preset layouts are valid OTN");
        let sea_battle = |layout| Rules {
            start: start(layout),
            escape: Escape::Edge,
            throne: None,
            king_armed: false,
            king_capture: KingCapture::Strong,
            shieldwall: Shieldwall::On { corners_may_close: false },
            exit_fort: false,
            encirclement: true,
            repetition: Repetition::MoverLoses,
        };
        let seed_001 = |layout| Rules {
            start: start(layout),
            escape: Escape::Corner,
            throne: Some(Throne::KING_ONLY),
            king_armed: true,
            king_capture: KingCapture::Middleweight,
            shieldwall: Shieldwall::Off,
            exit_fort: false,
            encirclement: false,
            repetition: Repetition::Draw,
        };
        let historical = |layout, escape| Rules {
            start: start(layout),
            escape,
            throne: Some(Throne::HISTORICAL),
            king_armed: true,
            king_capture: KingCapture::StrongNearThrone,
            shieldwall: Shieldwall::Off,
            exit_fort: false,
            encirclement: true,
            repetition: Repetition::DefendersLose,
        };
        let anchor = |shieldwall, exit_fort, repetition| Rules {
            start: start(DIAMOND_11),
            escape: Escape::Corner,
            throne: Some(Throne::HISTORICAL),
            king_armed: true,
            king_capture: KingCapture::Strong,
            shieldwall,
            exit_fort,
            encirclement: true,
            repetition,
        };
        match self {
            Variant::SeaBattle9 => sea_battle(TABLUT_CROSS),
            Variant::SeaBattle11 => sea_battle(SERIF_11),
            Variant::SeaBattle13 => sea_battle(SERIF_13),
            Variant::SeaBattle15 => sea_battle(SERIF_15),
            Variant::Tablut => seed_001(TABLUT_CROSS),
            Variant::Brandubh => seed_001(BRANDUBH_CROSS),
            Variant::Hnefatafl => seed_001(DIAMOND_11),
            Variant::Historical7 => historical(BRANDUBH_CROSS, Escape::Corner),
            Variant::Historical9 => historical(TABLUT_CROSS, Escape::Edge),
            Variant::Historical11 => historical(DIAMOND_11, Escape::Corner),
            Variant::Copenhagen => anchor(Shieldwall::On { corners_may_close: true }, true, Repetition::DefendersLose),
            Variant::Fetlar => anchor(Shieldwall::Off, false, Repetition::Draw),
        }
    }

    /// The preset's rules with options applied.
    pub fn rules_with(self, options: &[VariantOption]) -> Result<Rules, RulesError> {
        // The same option twice with two values is a mistake to point out, not a choice to
        // make: which one wins would depend on how the options are ordered once stored.
        for (n, option) in options.iter().enumerate() {
            if let Some(other) = options[..n].iter().find(|o| o.key() == option.key() && *o != option) {
                return Err(RulesError::ContradictoryOptions { first: other.text(), second: option.text() });
            }
        }
        let mut rules = self.rules();
        for option in options {
            match *option {
                VariantOption::KingArmed(armed) if self.option_keys().contains(&"king_armed") => {
                    rules.king_armed = armed;
                }
                VariantOption::Escape(escape) if self.option_keys().contains(&"escape") => rules.escape = escape,
                _ => {
                    return Err(RulesError::UnknownOption {
                        variant: self.id(),
                        key: option.text(),
                        has: self.describe_options(),
                    });
                }
            }
        }
        Ok(rules)
    }

    /// Parses `KEY=VALUE` option texts and applies them.
    pub fn rules_with_texts<S: AsRef<str>>(self, options: &[S]) -> Result<Rules, RulesError> {
        let parsed =
            options.iter().map(|text| VariantOption::parse(self, text.as_ref())).collect::<Result<Vec<_>, _>>()?;
        self.rules_with(&parsed)
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}

impl FromStr for Variant {
    type Err = RulesError;

    fn from_str(s: &str) -> Result<Variant, RulesError> {
        let wanted = s.trim().to_ascii_lowercase().replace('_', "-");
        Variant::ALL.into_iter().find(|v| v.id() == wanted).ok_or_else(|| RulesError::UnknownVariant {
            input: crate::square::shorten(s.trim()),
            known: Variant::ALL.map(Variant::id).join(", "),
        })
    }
}
