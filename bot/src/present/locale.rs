//! The languages the bot speaks: one Fluent bundle per directory under `bot/locales/`, built
//! once per process, and [`Lang`], the handle every piece of text is formatted through.
//!
//! English is the reference: every other language is laid over it, so a message a translator
//! has not written yet still reads (in English) instead of showing its id. The tests in
//! `present::tests` make sure no shipped language relies on that.

use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use fluent_bundle::concurrent::FluentBundle;
use fluent_bundle::{FluentArgs, FluentResource, FluentValue};
use unic_langid::LanguageIdentifier;

use super::markup::{self, Markup};

mod embedded {
    include!(concat!(env!("OUT_DIR"), "/locales.rs"));
}

/// The reference language: complete by definition, and the fallback for anything unknown.
pub const REFERENCE: &str = "en";

/// An environment variable naming a directory of extra locales (`<dir>/<language>/*.ftl`),
/// read once at start-up: a translator can try a language without rebuilding the bot.
pub const EXTRA_LOCALES_VAR: &str = "TAFL_LOCALES_DIR";

/// One language: its code (the directory name, e.g. `ru` or `pt-BR`, which is also Discord's
/// locale code) and its bundle.
pub struct Locale {
    code: String,
    bundle: FluentBundle<FluentResource>,
    /// The files as written, for the tests that compare languages message by message.
    sources: Vec<(String, String)>,
}

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> LocaleError + '_ {
    move |source| LocaleError::Io { path: path.to_owned(), source }
}

impl fmt::Debug for Locale {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Locale").field("code", &self.code).finish_non_exhaustive()
    }
}

impl Locale {
    /// The language's code, as in `bot/locales/<code>/`.
    #[must_use]
    pub fn code(&self) -> &str {
        &self.code
    }

    /// The `.ftl` files of this language as `(file name, text)`.
    #[must_use]
    pub fn sources(&self) -> &[(String, String)] {
        &self.sources
    }

    /// Message `id` (or attribute `id.attr`, without arguments) only if this language's own
    /// files define the message: English words under another language's name would hide
    /// Discord's English default without translating it. The command metadata registered with
    /// Discord and the option names in messages ([`super::markup::option`]) both come from here,
    /// so a message names an option exactly as the reader's client shows it.
    #[must_use]
    pub fn own(&'static self, id: &str) -> Option<String> {
        let message = id.split('.').next().unwrap_or(id);
        let defined = self.sources.iter().any(|(_, text)| {
            text.lines().any(|line| line.starts_with(message) && line[message.len()..].trim_start().starts_with('='))
        });
        let lang = Lang::new(self, Markup::Discord);
        (defined && lang.has(id)).then(|| lang.format(id, &FluentArgs::new()))
    }
}

/// Why a set of locales could not be loaded. Only ever met at start-up (embedded files are
/// checked by the tests; a directory named by [`EXTRA_LOCALES_VAR`] may be broken).
#[derive(Debug, thiserror::Error)]
pub enum LocaleError {
    #[error("cannot read {path}: {source}")]
    Io { path: PathBuf, source: std::io::Error },
    #[error("{file}: not a valid Fluent file: {errors}")]
    Syntax { file: String, errors: String },
    #[error("\"{0}\" is not a language code (like en, ru or pt-BR)")]
    BadCode(String),
    #[error("{file}: {errors}")]
    Bundle { file: String, errors: String },
}

/// Every language the bot speaks, English first.
#[derive(Debug)]
pub struct Locales {
    all: Vec<&'static Locale>,
}

impl Locales {
    /// The process's languages: the embedded ones plus those of [`EXTRA_LOCALES_VAR`], built
    /// on first use. A broken extra directory is logged and left out, never fatal.
    pub fn global() -> &'static Locales {
        static GLOBAL: OnceLock<Locales> = OnceLock::new();
        GLOBAL.get_or_init(|| {
            let extra = std::env::var_os(EXTRA_LOCALES_VAR).map(PathBuf::from);
            if let Some(dir) = extra {
                match Locales::embedded_with_dir(&dir) {
                    Ok(locales) => return locales,
                    Err(error) => tracing::error!(%error, "extra locales left out"),
                }
            }
            Locales::embedded().expect("the embedded locales are valid (checked by the tests)")
        })
    }

    /// The languages built into the binary.
    pub fn embedded() -> Result<Locales, LocaleError> {
        let files = embedded::EMBEDDED
            .iter()
            .map(|(code, files)| {
                (
                    (*code).to_owned(),
                    files.iter().map(|(name, text)| ((*name).to_owned(), (*text).to_owned())).collect(),
                )
            })
            .collect();
        Locales::build(files)
    }

    /// The built-in languages plus every `<dir>/<code>/*.ftl`; a directory with a built-in code
    /// adds to (and overrides messages of) that language.
    pub fn embedded_with_dir(dir: &Path) -> Result<Locales, LocaleError> {
        let mut files: Vec<(String, Vec<(String, String)>)> = embedded::EMBEDDED
            .iter()
            .map(|(code, files)| {
                (
                    (*code).to_owned(),
                    files.iter().map(|(name, text)| ((*name).to_owned(), (*text).to_owned())).collect(),
                )
            })
            .collect();
        let mut languages: Vec<_> = std::fs::read_dir(dir).map_err(io(dir))?.filter_map(Result::ok).collect();
        languages.sort_by_key(std::fs::DirEntry::file_name);
        for language in languages.into_iter().filter(|l| l.path().is_dir()) {
            let code = language.file_name().to_string_lossy().into_owned();
            let path = language.path();
            let mut ftl: Vec<_> = std::fs::read_dir(&path)
                .map_err(io(&path))?
                .filter_map(Result::ok)
                .filter(|f| f.path().extension().is_some_and(|e| e == "ftl"))
                .collect();
            ftl.sort_by_key(std::fs::DirEntry::file_name);
            let mut texts = Vec::new();
            for file in ftl {
                let text = std::fs::read_to_string(file.path()).map_err(io(&file.path()))?;
                texts.push((format!("{code}/{}", file.file_name().to_string_lossy()), text));
            }
            match files.iter_mut().find(|(c, _)| *c == code) {
                Some((_, existing)) => existing.extend(texts),
                None => files.push((code, texts)),
            }
        }
        Locales::build(files)
    }

    fn build(files: Vec<(String, Vec<(String, String)>)>) -> Result<Locales, LocaleError> {
        let parse = |name: &str, text: &str| {
            FluentResource::try_new(text.to_owned()).map_err(|(_, errors)| LocaleError::Syntax {
                file: name.to_owned(),
                errors: errors.iter().map(|e| format!("{e:?}")).collect::<Vec<_>>().join("; "),
            })
        };
        let reference = files.iter().find(|(code, _)| code == REFERENCE).map(|(_, f)| f.clone()).unwrap_or_default();
        let mut all = Vec::new();
        for (code, sources) in files {
            let id: LanguageIdentifier = code.parse().map_err(|_| LocaleError::BadCode(code.clone()))?;
            let mut bundle = FluentBundle::new_concurrent(vec![id]);
            // Discord and terminals show text as it is; Unicode isolation marks would only be
            // invisible noise around every name and number.
            bundle.set_use_isolating(false);
            bundle
                .add_function("CMD", |positional, _named| match positional.first() {
                    Some(FluentValue::String(name)) => FluentValue::String(markup::command_token(name).into()),
                    _ => FluentValue::Error,
                })
                .map_err(|e| LocaleError::Bundle { file: code.clone(), errors: format!("{e:?}") })?;
            if code != REFERENCE {
                for (name, text) in &reference {
                    bundle.add_resource_overriding(parse(name, text)?);
                }
            }
            for (name, text) in &sources {
                let resource = parse(name, text)?;
                if code == REFERENCE {
                    bundle.add_resource(resource).map_err(|errors| LocaleError::Bundle {
                        file: name.clone(),
                        errors: errors.iter().map(|e| format!("{e:?}")).collect::<Vec<_>>().join("; "),
                    })?;
                } else {
                    bundle.add_resource_overriding(resource);
                }
            }
            let locale: &'static Locale = Box::leak(Box::new(Locale { code, bundle, sources }));
            all.push(locale);
        }
        all.sort_by_key(|l| (l.code != REFERENCE, l.code.clone()));
        if all.first().is_none_or(|l| l.code != REFERENCE) {
            return Err(LocaleError::BadCode(format!("{REFERENCE} (missing)")));
        }
        Ok(Locales { all })
    }

    /// Every language, English first.
    #[must_use]
    pub fn all(&self) -> &[&'static Locale] {
        &self.all
    }

    /// The English locale.
    #[must_use]
    pub fn reference(&self) -> &'static Locale {
        self.all[0]
    }

    /// The language for a locale tag (Discord's `ru`, `en-US`, `pt-BR`; a POSIX `ru_RU.UTF-8`):
    /// the exact language if the bot has it, else the same base language, else English.
    #[must_use]
    pub fn pick(&self, tag: &str) -> &'static Locale {
        let tag = tag.split(['.', '@']).next().unwrap_or("").replace('_', "-");
        let base = |code: &str| code.split('-').next().unwrap_or("").to_ascii_lowercase();
        self.all
            .iter()
            .find(|l| l.code.eq_ignore_ascii_case(&tag))
            .or_else(|| self.all.iter().find(|l| base(&l.code) == base(&tag)))
            .copied()
            .unwrap_or_else(|| self.reference())
    }

    /// The exact language of a code, if the bot has it.
    #[must_use]
    pub fn find(&self, code: &str) -> Option<&'static Locale> {
        self.all.iter().find(|l| l.code.eq_ignore_ascii_case(code)).copied()
    }
}

/// How to speak to one reader: a language, and the markup of the front end they read it in.
/// Cheap to copy; every function of `present` that makes text takes one.
#[derive(Clone, Copy, Debug)]
pub struct Lang {
    locale: &'static Locale,
    markup: Markup,
}

impl PartialEq for Lang {
    fn eq(&self, other: &Lang) -> bool {
        std::ptr::eq(self.locale, other.locale) && self.markup == other.markup
    }
}

impl Eq for Lang {}

impl Lang {
    #[must_use]
    pub fn new(locale: &'static Locale, markup: Markup) -> Lang {
        Lang { locale, markup }
    }

    /// Discord text for a Discord locale (`None`: English).
    #[must_use]
    pub fn discord(locale: Option<&str>) -> Lang {
        Lang::new(Locales::global().pick(locale.unwrap_or(REFERENCE)), Markup::Discord)
    }

    /// Console text for a language code or POSIX locale.
    #[must_use]
    pub fn console(locale: &str) -> Lang {
        Lang::new(Locales::global().pick(locale), Markup::Console)
    }

    /// The same reader in another language.
    #[must_use]
    pub fn with_locale(self, locale: &'static Locale) -> Lang {
        Lang { locale, ..self }
    }

    #[must_use]
    pub fn locale(self) -> &'static Locale {
        self.locale
    }

    #[must_use]
    pub fn code(self) -> &'static str {
        &self.locale.code
    }

    #[must_use]
    pub fn markup(self) -> Markup {
        self.markup
    }

    /// Formats message `id` (or attribute `id.attr`). Problems (a missing message or argument)
    /// are logged and the text shows the gap, so a slip never hides a whole answer.
    #[must_use]
    pub fn format(self, id: &str, args: &FluentArgs) -> String {
        match self.try_format(id, args) {
            Ok(text) => text,
            Err((text, errors)) => {
                tracing::warn!(id, locale = self.code(), errors, "a message could not be formatted cleanly");
                text
            }
        }
    }

    /// [`Lang::format`], with the problems returned instead of logged (for the tests).
    pub fn try_format(self, id: &str, args: &FluentArgs) -> Result<String, (String, String)> {
        let (message_id, attribute) = match id.split_once('.') {
            Some((message, attribute)) => (message, Some(attribute)),
            None => (id, None),
        };
        let bundle = &self.locale.bundle;
        let pattern = bundle.get_message(message_id).and_then(|m| match attribute {
            Some(attribute) => m.get_attribute(attribute).map(|a| a.value()),
            None => m.value(),
        });
        let Some(pattern) = pattern else {
            return Err((id.to_owned(), format!("no message {id}")));
        };
        let mut errors = Vec::new();
        let text = bundle.format_pattern(pattern, Some(args), &mut errors);
        let text = markup::finish(self, &text);
        if errors.is_empty() {
            Ok(text)
        } else {
            Err((text, errors.iter().map(|e| format!("{e:?}")).collect::<Vec<_>>().join("; ")))
        }
    }

    /// Whether the language has message `id` (or attribute `id.attr`) of its own or from English.
    #[must_use]
    pub fn has(self, id: &str) -> bool {
        let (message_id, attribute) = match id.split_once('.') {
            Some((message, attribute)) => (message, Some(attribute)),
            None => (id, None),
        };
        self.locale.bundle.get_message(message_id).is_some_and(|m| match attribute {
            Some(attribute) => m.get_attribute(attribute).is_some(),
            None => m.value().is_some(),
        })
    }
}
