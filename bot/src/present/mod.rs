//! Every word users read, in their language: the presentation layer between `host` and the two
//! front ends (`discord/` and `local/`).
//!
//! The words live in Fluent files, one directory per language under `bot/locales/` (see
//! [`locale`]); this module turns host values (games, summaries, refusals) into text and view
//! values ([`summary::EmbedText`], the board caption) that the front ends only lay out. What
//! differs between the front ends (mentions, timestamps, escaping, command names) stays behind
//! [`markup`].

pub mod cards;
pub mod check;
pub mod locale;
pub mod markup;
pub mod summary;
pub mod text;

pub use locale::{Lang, Locale, LocaleError, Locales};
pub use markup::Markup;

/// Formats a message: `tr!(lang, "board-title", variant = name, id = 7)`. Arguments take
/// anything Fluent turns into a value (strings and numbers); numbers select plural forms.
macro_rules! tr {
    ($lang:expr, $id:expr $(, $key:ident = $value:expr)* $(,)?) => {{
        #[allow(unused_mut)]
        let mut args = ::fluent_bundle::FluentArgs::new();
        $(args.set(stringify!($key), $crate::present::Arg::arg($value));)*
        $lang.format($id, &args)
    }};
}
pub(crate) use tr;

/// A value a message can take. Fluent numbers are `f64`; integers beyond 2^53 (Discord ids,
/// `i64::MAX` game numbers) would lose digits, so they travel as text.
pub trait Arg<'a> {
    fn arg(self) -> fluent_bundle::FluentValue<'a>;
}

impl<'a> Arg<'a> for &'a str {
    fn arg(self) -> fluent_bundle::FluentValue<'a> {
        text_arg(self.into())
    }
}

impl<'a> Arg<'a> for &'a String {
    fn arg(self) -> fluent_bundle::FluentValue<'a> {
        text_arg(self.as_str().into())
    }
}

impl<'a> Arg<'a> for String {
    fn arg(self) -> fluent_bundle::FluentValue<'a> {
        text_arg(self.into())
    }
}

/// A text value without the private-use characters that mark a command in a formatted message
/// ([`markup::command_token`]), each shown as U+FFFD. Names are people's to choose, and Discord
/// allows private-use characters in them: `\u{E000}resign\u{E001}` as a name became a clickable
/// `/tafl resign` wherever the name was written. A value that is itself a message formatted
/// before holds none: formatting replaced its commands already.
fn text_arg(text: std::borrow::Cow<'_, str>) -> fluent_bundle::FluentValue<'_> {
    if text.contains([markup::OPEN, markup::CLOSE]) {
        text.replace([markup::OPEN, markup::CLOSE], "\u{FFFD}").into()
    } else {
        text.into()
    }
}

macro_rules! integer_arg {
    ($($t:ty)*) => {$(
        impl<'a> Arg<'a> for $t {
            fn arg(self) -> fluent_bundle::FluentValue<'a> {
                const EXACT: i128 = 1 << 53;
                if (-EXACT..=EXACT).contains(&(self as i128)) {
                    (self as f64).into()
                } else {
                    self.to_string().into()
                }
            }
        }
    )*};
}
integer_arg!(i64 u64 usize i32 u32 u8 u16);

#[cfg(test)]
mod tests;
