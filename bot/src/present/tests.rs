//! The languages agree with English, message by message, and every message formats.

use std::collections::{BTreeMap, BTreeSet};

use fluent_bundle::{FluentArgs, FluentValue};
use fluent_syntax::ast;

use super::{Lang, Locales, Markup};

/// Every message and attribute (`id` or `id.attr`) of a language with the variables it uses.
fn messages(sources: &[(String, String)]) -> BTreeMap<String, BTreeSet<String>> {
    let mut out = BTreeMap::new();
    for (file, text) in sources {
        let resource = fluent_syntax::parser::parse(text.as_str())
            .unwrap_or_else(|(_, errors)| panic!("{file} does not parse: {errors:?}"));
        for entry in resource.body {
            if let ast::Entry::Message(message) = entry {
                if let Some(value) = &message.value {
                    out.insert(message.id.name.to_owned(), variables(value));
                }
                for attribute in &message.attributes {
                    out.insert(format!("{}.{}", message.id.name, attribute.id.name), variables(&attribute.value));
                }
            }
        }
    }
    out
}

fn variables(pattern: &ast::Pattern<&str>) -> BTreeSet<String> {
    fn inline(expression: &ast::InlineExpression<&str>, out: &mut BTreeSet<String>) {
        match expression {
            ast::InlineExpression::VariableReference { id } => {
                out.insert(id.name.to_owned());
            }
            ast::InlineExpression::FunctionReference { arguments, .. } => {
                for argument in &arguments.positional {
                    inline(argument, out);
                }
            }
            ast::InlineExpression::Placeable { expression } => expr(expression, out),
            _ => {}
        }
    }
    fn expr(expression: &ast::Expression<&str>, out: &mut BTreeSet<String>) {
        match expression {
            ast::Expression::Inline(expression) => inline(expression, out),
            ast::Expression::Select { selector, variants } => {
                inline(selector, out);
                for variant in variants {
                    walk(&variant.value, out);
                }
            }
        }
    }
    fn walk(pattern: &ast::Pattern<&str>, out: &mut BTreeSet<String>) {
        for element in &pattern.elements {
            if let ast::PatternElement::Placeable { expression } = element {
                expr(expression, out);
            }
        }
    }
    let mut out = BTreeSet::new();
    walk(pattern, &mut out);
    out
}

#[test]
fn every_message_exists_in_every_language_with_the_same_variables() {
    let locales = Locales::embedded().expect("the embedded locales load");
    assert!(locales.all().len() >= 2, "English and Russian at least");
    let reference = messages(locales.reference().sources());
    assert!(reference.len() > 300, "{} messages", reference.len());
    for locale in &locales.all()[1..] {
        let theirs = messages(locale.sources());
        let missing: Vec<_> = reference.keys().filter(|id| !theirs.contains_key(*id)).collect();
        let extra: Vec<_> = theirs.keys().filter(|id| !reference.contains_key(*id)).collect();
        assert!(missing.is_empty(), "{} lacks {missing:?}", locale.code());
        assert!(extra.is_empty(), "{} has messages English lacks: {extra:?}", locale.code());
        for (id, variables) in &reference {
            assert_eq!(&theirs[id], variables, "{}: {id} uses other variables than English", locale.code());
        }
    }
}

/// Sample values for a message's variables: every number that picks a different plural form
/// in some language (0, 1, 2, 5, 11, 21, 22), and a word for the variables that select words.
fn samples(variables: &BTreeSet<String>) -> Vec<FluentArgs<'static>> {
    [0_i64, 1, 2, 5, 11, 21, 22]
        .into_iter()
        .map(|n| {
            let mut args = FluentArgs::new();
            for variable in variables {
                if variable == "encirclement" {
                    args.set(variable.clone(), FluentValue::from(if n % 2 == 0 { "yes" } else { "no" }));
                } else {
                    args.set(variable.clone(), FluentValue::from(n));
                }
            }
            args
        })
        .collect()
}

#[test]
fn every_message_formats_in_every_language_without_gaps() {
    let locales = Locales::embedded().expect("the embedded locales load");
    for &locale in locales.all() {
        for markup in [Markup::Discord, Markup::Console] {
            let lang = Lang::new(locale, markup);
            for (id, variables) in messages(locale.sources()) {
                for args in samples(&variables) {
                    let text = lang
                        .try_format(&id, &args)
                        .unwrap_or_else(|(text, errors)| panic!("{}: {id}: {errors} in {text:?}", locale.code()));
                    assert!(!text.trim().is_empty(), "{}: {id} is empty", locale.code());
                    assert!(!text.contains('{') && !text.contains('}'), "{}: {id}: {text}", locale.code());
                    assert!(!text.contains(['\u{E000}', '\u{E001}']), "{}: {id}: {text}", locale.code());
                }
            }
        }
    }
}

#[test]
fn russian_plurals_follow_the_last_digits() {
    let ru = Lang::console("ru");
    let streak = |n: i64| {
        let mut args = FluentArgs::new();
        args.set("n", n);
        ru.format("profile-streak-win", &args)
    };
    for (n, word) in [(1, "победа"), (2, "победы"), (5, "побед"), (11, "побед"), (21, "победа"), (22, "победы")]
    {
        assert_eq!(streak(n), format!("Текущая серия: {n} {word} подряд"));
    }
}

#[test]
fn a_language_added_as_a_directory_is_spoken_without_any_code_change() {
    let dir = std::env::temp_dir().join(format!("tafl-locales-{}", std::process::id()));
    let german = dir.join("de");
    std::fs::create_dir_all(&german).unwrap();
    std::fs::write(
        german.join("game.ftl"),
        "language-name = Deutsch\nplayed = Du hast `{ $notation }` in Partie #{ $id } gespielt.\n",
    )
    .unwrap();
    let locales = Locales::embedded_with_dir(&dir).unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
    let de = locales.pick("de");
    assert_eq!(de.code(), "de");
    assert_eq!(locales.pick("de-AT").code(), "de", "a regional tag finds its language");
    let lang = Lang::new(de, Markup::Discord);
    assert_eq!(super::text::played("e1-e3", 4, lang), "Du hast `e1-e3` in Partie #4 gespielt.");
    // What the translator has not written yet reads in English rather than as an id.
    assert_eq!(super::text::resigned(4, lang), "You resigned game #4.");
    // The built-in languages are still there.
    assert_eq!(locales.pick("ru").code(), "ru");
}

#[test]
fn a_broken_language_file_is_refused_with_its_name() {
    let dir = std::env::temp_dir().join(format!("tafl-locales-broken-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("fr")).unwrap();
    std::fs::write(dir.join("fr").join("bad.ftl"), "played = { $notation\n").unwrap();
    let error = Locales::embedded_with_dir(&dir).unwrap_err();
    std::fs::remove_dir_all(&dir).unwrap();
    assert!(error.to_string().contains("fr/bad.ftl"), "{error}");
}

#[test]
fn locale_tags_pick_the_nearest_language() {
    let locales = Locales::global();
    assert_eq!(locales.pick("ru").code(), "ru");
    assert_eq!(locales.pick("ru_RU.UTF-8").code(), "ru");
    assert_eq!(locales.pick("en-US").code(), "en");
    assert_eq!(locales.pick("C").code(), "en");
    assert_eq!(locales.pick("").code(), "en");
    assert_eq!(locales.pick("ja").code(), "en", "unknown languages get English");
}
