//! Slash-command names, descriptions, option names and choice names from the same Fluent files
//! as every other word (poise's `apply_translations` pattern): `tafl-move` is the `move`
//! subcommand, its `.description`, its options `.notation` and `.notation-description`, and
//! `choice-attackers` a choice. English gives the descriptions Discord shows by default; every
//! other language whose code Discord knows becomes that locale's localizations.

use std::borrow::Cow;

use super::{BotError, Data};
use crate::present::{Locale, Locales};

/// The locales Discord accepts for localizations
/// (<https://discord.com/developers/docs/reference#locales>).
const DISCORD_LOCALES: [&str; 34] = [
    "id", "da", "de", "en-GB", "en-US", "es-ES", "es-419", "fr", "hr", "it", "lt", "hu", "nl", "no", "pl", "pt-BR",
    "ro", "fi", "sv-SE", "vi", "tr", "cs", "el", "bg", "ru", "uk", "hi", "th", "zh-CN", "ja", "zh-TW", "ko", "he",
    "ar",
];

/// The Discord locales a language serves: its own code if Discord knows it (`ru`, `pt-BR`), else
/// every Discord locale of the same base language (`es` serves `es-ES` and `es-419`).
#[must_use]
pub fn discord_locales(code: &str) -> Vec<&'static str> {
    if let Some(exact) = DISCORD_LOCALES.iter().find(|l| l.eq_ignore_ascii_case(code)) {
        return vec![exact];
    }
    let base = code.split('-').next().unwrap_or(code).to_ascii_lowercase();
    DISCORD_LOCALES.iter().copied().filter(|l| l.split('-').next().is_some_and(|b| b == base)).collect()
}

/// Applies the words of every language to the commands (and their subcommands).
pub fn apply_translations(commands: &mut [poise::Command<Data, BotError>], locales: &Locales) {
    for command in commands {
        apply(command, "tafl", locales);
    }
}

fn text(locale: &'static Locale, id: &str) -> Option<String> {
    locale.own(id)
}

fn apply(command: &mut poise::Command<Data, BotError>, id: &str, locales: &Locales) {
    let english = locales.reference();
    if let Some(description) = text(english, &format!("{id}.description")) {
        command.description = Some(Cow::Owned(description));
    }
    for &locale in &locales.all()[1..] {
        for code in discord_locales(locale.code()) {
            if let Some(name) = text(locale, id) {
                command.name_localizations.to_mut().push((code.into(), name.into()));
            }
            if let Some(description) = text(locale, &format!("{id}.description")) {
                command.description_localizations.to_mut().push((code.into(), description.into()));
            }
        }
    }
    for parameter in &mut command.parameters {
        let name = parameter.name.to_string();
        if let Some(description) = text(english, &format!("{id}.{name}-description")) {
            parameter.description = Some(Cow::Owned(description));
        }
        for &locale in &locales.all()[1..] {
            for code in discord_locales(locale.code()) {
                if let Some(localized) = text(locale, &format!("{id}.{name}")) {
                    parameter.name_localizations.to_mut().push((code.into(), localized.into()));
                }
                if let Some(description) = text(locale, &format!("{id}.{name}-description")) {
                    parameter.description_localizations.to_mut().push((code.into(), description.into()));
                }
            }
        }
        for choice in parameter.choices.to_mut() {
            let choice_id = format!("choice-{}", choice.name);
            for &locale in &locales.all()[1..] {
                for code in discord_locales(locale.code()) {
                    if let Some(localized) = text(locale, &choice_id) {
                        choice.localizations.to_mut().push((code.into(), localized.into()));
                    }
                }
            }
        }
    }
    for sub in &mut command.subcommands {
        let sub_id = format!("{id}-{}", sub.name);
        apply(sub, &sub_id, locales);
    }
}

#[cfg(test)]
mod tests {
    use fluent_bundle::FluentArgs;

    use super::*;
    use crate::present::{Lang, Markup};

    fn translated(locales: &Locales) -> Vec<poise::Command<Data, BotError>> {
        let mut commands = super::super::commands::all();
        apply_translations(&mut commands, locales);
        commands
    }

    /// Every command, subcommand, option and choice: (Fluent key of its name, default name,
    /// localizations of the name, default description, localizations of the description).
    type Entry = (String, String, Vec<(String, String)>, Option<String>, Vec<(String, String)>);

    fn entries(commands: &[poise::Command<Data, BotError>], parent: Option<&str>) -> Vec<Entry> {
        fn pairs(list: &[(Cow<'static, str>, Cow<'static, str>)]) -> Vec<(String, String)> {
            list.iter().map(|(a, b)| (a.to_string(), b.to_string())).collect()
        }
        let mut out = Vec::new();
        for command in commands {
            let path = parent.map_or_else(|| command.name.to_string(), |p| format!("{p}-{}", command.name));
            out.push((
                path.clone(),
                command.name.to_string(),
                pairs(&command.name_localizations),
                command.description.as_ref().map(ToString::to_string),
                pairs(&command.description_localizations),
            ));
            for p in &command.parameters {
                out.push((
                    format!("{path}.{}", p.name),
                    p.name.to_string(),
                    pairs(&p.name_localizations),
                    p.description.as_ref().map(ToString::to_string),
                    pairs(&p.description_localizations),
                ));
                for c in p.choices.iter() {
                    out.push((
                        format!("choice-{}", c.name),
                        c.name.to_string(),
                        pairs(&c.localizations),
                        None,
                        Vec::new(),
                    ));
                }
            }
            out.extend(entries(&command.subcommands, Some(&path)));
        }
        out
    }

    fn valid_name(name: &str) -> bool {
        let count = name.chars().count();
        (1..=32).contains(&count)
            && name.chars().all(|c| c == '-' || c == '_' || c.is_alphanumeric())
            && name.to_lowercase() == name
    }

    #[test]
    fn every_name_and_description_passes_discords_rules_in_every_language() {
        let commands = translated(Locales::global());
        let all = entries(&commands, None);
        assert!(all.len() > 50, "{} entries", all.len());
        for (path, name, names, description, descriptions) in &all {
            assert!(valid_name(name), "{path}: {name:?}");
            for (locale, localized) in names {
                assert!(valid_name(localized), "{path} in {locale}: {localized:?}");
            }
            for text in description.iter().chain(descriptions.iter().map(|(_, d)| d)) {
                let count = text.chars().count();
                assert!((1..=100).contains(&count), "{path}: {count} characters: {text}");
            }
            if path.starts_with("choice-") {
                assert!(names.iter().any(|(l, _)| l == "ru"), "{path} has a Russian name");
            } else {
                assert!(description.is_some(), "{path} has an English description");
                assert!(
                    names.iter().any(|(l, _)| l == "ru") && descriptions.iter().any(|(l, _)| l == "ru"),
                    "{path} has Russian words"
                );
            }
        }
    }

    #[test]
    fn every_option_a_description_gives_as_an_example_is_one_a_preset_takes() {
        // "e.g. king_armed=false": an example a player copies must work (it said king=unarmed).
        let all = entries(&translated(Locales::global()), None);
        let mut examples = 0;
        for (path, _, _, description, descriptions) in &all {
            for text in description.iter().chain(descriptions.iter().map(|(_, d)| d)) {
                for word in text.split_whitespace().filter(|w| w.contains('=')) {
                    let option = word.trim_end_matches([',', '.', ')']);
                    let takes = tafl_rules::Variant::ALL.iter().any(|v| v.rules_with_texts(&[option]).is_ok());
                    assert!(takes, "{path}: no preset takes {option:?}: {text}");
                    examples += 1;
                }
            }
        }
        assert!(examples >= 2, "the options' description gives an example in each language");
    }

    #[test]
    fn the_english_file_names_every_command_as_the_bot_reads_it() {
        // Options are read by their default (English) names, so the file must not rename them.
        let english = Lang::new(Locales::global().reference(), Markup::Discord);
        for (key, name, ..) in entries(&super::super::commands::all(), None) {
            assert_eq!(english.format(&key, &FluentArgs::new()), name, "{key}");
        }
    }

    #[test]
    fn russian_clients_see_russian_command_names() {
        let commands = translated(Locales::global());
        let tafl = &commands[0];
        assert!(tafl.name_localizations.iter().any(|(l, n)| l == "ru" && n == "тафл"));
        let challenge = tafl.subcommands.iter().find(|c| c.name == "challenge").unwrap();
        assert!(challenge.name_localizations.iter().any(|(l, n)| l == "ru" && n == "вызов"));
        let side = challenge.parameters.iter().find(|p| p.name == "side").unwrap();
        let random = side.choices.iter().find(|c| c.name == "random").unwrap();
        assert!(random.localizations.iter().any(|(l, n)| l == "ru" && n == "жребий"));
    }

    #[test]
    fn messages_name_options_and_choices_exactly_as_they_are_registered() {
        // What a refusal calls an option is what the reader's client shows: the same text.
        let locales = Locales::global();
        let commands = translated(locales);
        for &locale in locales.all() {
            let lang = Lang::new(locale, Markup::Discord);
            let code = discord_locales(locale.code()).first().copied().unwrap_or("en-US");
            let shown = |default: &str, localized: &[(Cow<'static, str>, Cow<'static, str>)]| {
                localized.iter().find(|(l, _)| l == code).map_or_else(|| default.to_owned(), |(_, n)| n.to_string())
            };
            for sub in &commands[0].subcommands {
                for parameter in &sub.parameters {
                    let registered = shown(&parameter.name, &parameter.name_localizations);
                    let named = crate::present::markup::option(lang, &sub.name, &parameter.name, None);
                    assert_eq!(named, registered, "{}: {} {}", locale.code(), sub.name, parameter.name);
                    for choice in parameter.choices.iter() {
                        let registered = shown(&choice.name, &choice.localizations);
                        let typed =
                            crate::present::markup::command_choice(lang, &sub.name, &parameter.name, &choice.name);
                        assert!(typed.ends_with(&format!(":{registered}")), "{}: {typed}", locale.code());
                    }
                }
            }
        }
    }

    #[test]
    fn a_language_from_a_directory_reaches_the_command_list() {
        let dir = std::env::temp_dir().join(format!("tafl-command-locales-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("de")).unwrap();
        std::fs::write(
            dir.join("de").join("commands.ftl"),
            "tafl-board = brett\n    .description = Zeigt das Brett.\n",
        )
        .unwrap();
        let locales = Locales::embedded_with_dir(&dir).unwrap();
        std::fs::remove_dir_all(&dir).unwrap();
        let commands = translated(&locales);
        let board = commands[0].subcommands.iter().find(|c| c.name == "board").unwrap();
        assert!(
            board.name_localizations.iter().any(|(l, n)| l == "de" && n == "brett"),
            "{:?}",
            board.name_localizations
        );
        assert!(board.description_localizations.iter().any(|(l, d)| l == "de" && d == "Zeigt das Brett."));
        // What German does not translate keeps Discord's English default.
        let resign = commands[0].subcommands.iter().find(|c| c.name == "resign").unwrap();
        assert!(resign.name_localizations.iter().all(|(l, _)| l != "de"));
        assert_eq!(discord_locales("es"), ["es-ES", "es-419"]);
        assert_eq!(discord_locales("ru"), ["ru"]);
    }
}
