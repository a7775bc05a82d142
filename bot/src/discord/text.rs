//! Everything the bot says, in English and Russian, as plain functions: commands only pick the
//! language and send, so tests can check the words without a Discord context.

use poise::serenity_prelude as serenity;
use tafl_rules::{Escape, KingCapture, Rules, Shieldwall, Variant};

/// The language of a reply, from the Discord locale of whoever asked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lang {
    En,
    Ru,
}

impl Lang {
    /// Russian for `ru`, English for everything else (Discord sends `en-US`, `ru`, `de`, …).
    #[must_use]
    pub fn from_locale(locale: Option<&str>) -> Lang {
        match locale {
            Some(locale) if locale.starts_with("ru") => Lang::Ru,
            _ => Lang::En,
        }
    }
}

/// The title of the `/tafl variants` embed.
#[must_use]
pub fn variants_title(lang: Lang) -> &'static str {
    match lang {
        Lang::En => "Tafl variants",
        Lang::Ru => "Варианты тафла",
    }
}

/// One line per preset: `` `id` — Name: 11×11, what makes it different ``.
#[must_use]
pub fn variants_list(lang: Lang) -> String {
    Variant::ALL.into_iter().map(|variant| variant_line(variant, lang)).collect::<Vec<_>>().join("\n")
}

/// The `/tafl variants` reply. Discord allows 4096 characters in an embed description; twelve
/// lines stay far below that.
pub fn variants_embed(lang: Lang) -> serenity::CreateEmbed {
    serenity::CreateEmbed::new().title(variants_title(lang)).description(variants_list(lang))
}

/// The one-line description of a preset, derived from its rules so that it cannot drift from
/// what the engine plays.
#[must_use]
pub fn variant_line(variant: Variant, lang: Lang) -> String {
    let size = variant.size();
    format!(
        "`{}` — {}: {size}×{size}, {}",
        variant.id(),
        variant.name(),
        rule_summary(&variant.rules(), lang).join(", ")
    )
}

fn rule_summary(rules: &Rules, lang: Lang) -> Vec<&'static str> {
    let ru = lang == Lang::Ru;
    let mut parts = vec![
        match (rules.escape, ru) {
            (Escape::Corner, false) => "the king escapes to a corner",
            (Escape::Corner, true) => "король уходит в угол",
            (Escape::Edge, false) => "the king escapes to the edge",
            (Escape::Edge, true) => "король уходит на край",
        },
        match (rules.king_capture, ru) {
            (KingCapture::Strong, false) => "captured on four sides",
            (KingCapture::Strong, true) => "берётся с четырёх сторон",
            (KingCapture::StrongNearThrone, false) => "captured by four at the throne, by two elsewhere",
            (KingCapture::StrongNearThrone, true) => "берётся вчетвером у трона, вдвоём в поле",
            (KingCapture::Middleweight, false) => "captured when surrounded, edges count",
            (KingCapture::Middleweight, true) => "берётся в окружении, край считается",
        },
        match (rules.king_armed, ru) {
            (true, false) => "armed king",
            (true, true) => "король бьёт",
            (false, false) => "unarmed king",
            (false, true) => "король не бьёт",
        },
    ];
    if matches!(rules.shieldwall, Shieldwall::On { .. }) {
        parts.push(if ru { "стена щитов" } else { "shieldwall" });
    }
    if rules.exit_fort {
        parts.push(if ru { "крепость на краю" } else { "exit fort" });
    }
    if rules.encirclement {
        parts.push(if ru { "окружение" } else { "encirclement" });
    }
    parts
}

/// The presets whose id or name contains what the user typed (case-insensitive), as
/// (label, id) pairs for autocomplete: `Copenhagen Hnefatafl (11×11)` → `copenhagen`.
#[must_use]
pub fn variant_choices(typed: &str) -> Vec<(String, &'static str)> {
    let typed = typed.trim().to_lowercase();
    Variant::ALL
        .into_iter()
        .filter(|v| v.id().contains(&typed) || v.name().to_lowercase().contains(&typed))
        .map(|v| (format!("{} ({}×{})", v.name(), v.size(), v.size()), v.id()))
        .collect()
}

/// The answer to a variant id that is not a preset (typed instead of picked).
#[must_use]
pub fn unknown_variant(lang: Lang) -> &'static str {
    match lang {
        Lang::En => "There is no such variant; please pick one from the list (/tafl variants shows them all).",
        Lang::Ru => "Такого варианта нет; выберите его из списка (все варианты: /тафл варианты).",
    }
}

/// The `/tafl rules` text: the one-line summary and the OTN rules string, for players who know
/// other tafl sites.
#[must_use]
pub fn rules_description(variant: Variant, lang: Lang) -> String {
    let size = variant.size();
    let otn = match lang {
        Lang::En => "OTN rules",
        Lang::Ru => "Правила в OTN",
    };
    format!(
        "{size}×{size}, {}.\n\n{otn}: `{}`",
        rule_summary(&variant.rules(), lang).join(", "),
        tafl_rules::otn::rules_string(&variant.rules())
    )
}

/// The private answer when something failed on our side; the cause goes to the log only.
#[must_use]
pub fn internal_error(lang: Lang) -> &'static str {
    match lang {
        Lang::En => "Something went wrong on our side; please try again in a moment.",
        Lang::Ru => "У нас что-то сломалось; попробуйте ещё раз чуть позже.",
    }
}

/// The private answer to arguments Discord delivered but we could not read.
#[must_use]
pub fn bad_arguments(lang: Lang) -> &'static str {
    match lang {
        Lang::En => "I could not read those options; please pick them from the command's list.",
        Lang::Ru => "Не удалось разобрать параметры; выберите их из списка команды.",
    }
}

/// The private answer to a command this version of the bot does not know (Discord still shows
/// commands of an older version for up to an hour after an update).
#[must_use]
pub fn unknown_command(lang: Lang) -> &'static str {
    match lang {
        Lang::En => "This command is not available any more; please reopen the command list.",
        Lang::Ru => "Этой команды больше нет; откройте список команд заново.",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_variant_list_has_one_line_per_preset_in_both_languages() {
        for lang in [Lang::En, Lang::Ru] {
            let list = variants_list(lang);
            assert_eq!(list.lines().count(), Variant::ALL.len());
            for (line, variant) in list.lines().zip(Variant::ALL) {
                assert!(line.starts_with(&format!("`{}` — ", variant.id())), "{line}");
            }
            assert!(list.chars().count() < 4096, "fits an embed description");
        }
    }

    #[test]
    fn copenhagen_is_described_by_its_rules() {
        assert_eq!(
            variant_line(Variant::Copenhagen, Lang::En),
            "`copenhagen` — Copenhagen Hnefatafl: 11×11, the king escapes to a corner, captured on four sides, \
             armed king, shieldwall, exit fort, encirclement"
        );
        assert!(variant_line(Variant::SeaBattle9, Lang::Ru).contains("король уходит на край"));
    }

    #[test]
    fn variant_choices_match_ids_and_names_in_any_case() {
        let all = variant_choices("");
        assert_eq!(all.len(), Variant::ALL.len());
        let copenhagen = variant_choices("COPEN");
        assert_eq!(copenhagen, [("Copenhagen Hnefatafl (11×11)".to_owned(), "copenhagen")]);
        assert_eq!(variant_choices("sea").len(), 4);
        assert!(variant_choices("chess").is_empty());
    }

    #[test]
    fn russian_locales_get_russian_and_every_other_locale_english() {
        assert_eq!(Lang::from_locale(Some("ru")), Lang::Ru);
        assert_eq!(Lang::from_locale(Some("en-US")), Lang::En);
        assert_eq!(Lang::from_locale(Some("de")), Lang::En);
        assert_eq!(Lang::from_locale(None), Lang::En);
    }
}
