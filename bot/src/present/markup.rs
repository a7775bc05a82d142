//! The one seam where the front ends' text differs: mentions, timestamps, escaping of names and
//! mentions of commands and their options. Messages in the `.ftl` files name commands as
//! `{ CMD("board") }`; formatting leaves a token there that [`finish`] turns into Discord's
//! clickable `</tafl board:ID>` (or the localised `/тафл доска` before the command's id is known)
//! or the console's `/board`. Options come as variables (`{ $unrated }`) that the caller fills
//! with [`option`] or [`command_choice`]: `рейтинговая:false` for a Russian Discord client,
//! `rated:false` in the console, so every language's message has the same variables.

use std::sync::OnceLock;

use fluent_bundle::FluentArgs;

use super::Lang;
use crate::host::User;

/// Which front end a text is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Markup {
    /// Discord markdown: `<@id>` mentions, `<t:…:R>` timestamps, escaped names.
    Discord,
    /// Plain terminal text: `@name`, dates in UTC, console command names.
    Console,
}

pub(crate) const OPEN: char = '\u{E000}';
pub(crate) const CLOSE: char = '\u{E001}';

/// The id Discord gave the `/tafl` command when it was registered, for clickable mentions.
static COMMAND_ID: OnceLock<u64> = OnceLock::new();

/// Records the id of the registered `/tafl` command; later command mentions become clickable.
pub fn set_command_id(id: u64) {
    let _ = COMMAND_ID.set(id);
}

/// What `CMD("board")` formats to before [`finish`]: private-use characters no translation or
/// user input contains, so the replacement cannot hit anything else.
pub(crate) fn command_token(path: &str) -> String {
    format!("{OPEN}{path}{CLOSE}")
}

/// Replaces the command tokens of a formatted message with the front end's command mention.
pub(crate) fn finish(lang: Lang, text: &str) -> String {
    if !text.contains(OPEN) {
        return text.to_owned();
    }
    let mut out = String::with_capacity(text.len() + 16);
    let mut rest = text;
    while let Some(start) = rest.find(OPEN) {
        out.push_str(&rest[..start]);
        let after = &rest[start + OPEN.len_utf8()..];
        let Some(end) = after.find(CLOSE) else {
            rest = after;
            break;
        };
        out.push_str(&command(lang, &after[..end]));
        rest = &after[end + CLOSE.len_utf8()..];
    }
    out.push_str(rest);
    out
}

/// A command by its English path (`board`, `settings language`) as the reader types it.
#[must_use]
pub fn command(lang: Lang, path: &str) -> String {
    match lang.markup() {
        Markup::Console => format!("/{path}"),
        Markup::Discord => {
            if let Some(id) = COMMAND_ID.get() {
                return format!("</tafl {path}:{id}>");
            }
            typed_command(lang, path)
        }
    }
}

/// A Discord command as the reader's client names it (`/тафл доска`), without its id.
fn typed_command(lang: Lang, path: &str) -> String {
    // Subcommands are messages (`tafl-settings`), options their attributes
    // (`tafl-settings.language`), as in the command metadata.
    let args = FluentArgs::new();
    let mut words = vec![lang.format("tafl", &args)];
    let mut id = String::from("tafl");
    for part in path.split(' ') {
        let sub = format!("{id}-{part}");
        let option = format!("{id}.{part}");
        if lang.has(&sub) {
            words.push(lang.format(&sub, &args));
            id = sub;
        } else if lang.has(&option) {
            words.push(lang.format(&option, &args));
        } else {
            words.push(part.to_owned());
        }
    }
    format!("/{}", words.join(" "))
}

/// A Discord message as one line of plain text, for where Discord shows no markdown (the name
/// of an autocomplete choice): clickable command mentions become the command as the reader's
/// client names it, escaped names lose their backslashes, bold and code marks go, and a text
/// longer than `max` characters is cut after a word, with an ellipsis.
#[must_use]
pub fn plain_line(lang: Lang, text: &str, max: usize) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(start) = rest.find("</tafl ") {
        out.push_str(&rest[..start]);
        let after = &rest[start + "</tafl ".len()..];
        if let Some((path, end)) = after.find('>').and_then(|end| Some((after[..end].rsplit_once(':')?.0, end))) {
            out.push_str(&typed_command(lang, path));
            rest = &after[end + 1..];
        } else {
            out.push_str("</tafl ");
            rest = after;
        }
    }
    out.push_str(rest);
    // One pass, so that an escaped mark stays (a name's `*`) and an unescaped one goes.
    let mut unescaped = String::with_capacity(out.len());
    let mut chars = out.chars().map(|c| if c.is_control() { ' ' } else { c }).peekable();
    while let Some(c) = chars.next() {
        match (c, chars.peek().copied()) {
            ('\\', Some(next)) if !next.is_alphanumeric() && !next.is_whitespace() => {
                unescaped.push(next);
                chars.next();
            }
            ('*', Some('*')) => {
                chars.next();
            }
            ('`', _) => {}
            _ => unescaped.push(c),
        }
    }
    // One line: runs of spaces (and the newlines and tabs made spaces above) as one.
    let unescaped = unescaped.split(' ').filter(|word| !word.is_empty()).collect::<Vec<_>>().join(" ");
    if unescaped.is_empty() {
        // Discord refuses an empty choice name.
        return "…".to_owned();
    }
    if unescaped.chars().count() <= max {
        return unescaped;
    }
    let cut: String = unescaped.chars().take(max.saturating_sub(1)).collect();
    // After the last whole word, unless that would leave too little to read.
    let words = cut.rfind(' ').filter(|&at| cut[..at].chars().count() > max / 2).map_or(cut.as_str(), |at| &cut[..at]);
    format!("{}…", words.trim_end_matches([' ', ',', ';', ':']))
}

/// An option of a command (`challenge rated`) as the reader types it: `name:value`, or the
/// name alone when `value` is `None`. In Discord the name is the one registered for the reader's
/// locale (see [`super::Locale::own`]; Discord's default, the English name, where the language
/// has none), so a Russian client reads `рейтинговая:false`; the console's options are English
/// in every language (`rated:false`), as they are typed there.
#[must_use]
pub fn option(lang: Lang, command: &str, option: &str, value: Option<&str>) -> String {
    let name = match lang.markup() {
        Markup::Console => option.to_owned(),
        Markup::Discord => {
            let id = format!("tafl-{}.{option}", command.replace(' ', "-"));
            lang.locale().own(&id).unwrap_or_else(|| option.to_owned())
        }
    };
    match value {
        Some(value) => format!("{name}:{value}"),
        None => name,
    }
}

/// A command with one of its choices made, as the reader types it: in Discord the choice is an
/// option (`/тафл ничья действие:отклонить`, names and choice as the reader's client shows
/// them); the console takes it as a word after the command (`/draw decline`).
#[must_use]
pub fn command_choice(lang: Lang, path: &str, option_name: &str, choice: &str) -> String {
    match lang.markup() {
        Markup::Console => format!("/{path} {choice}"),
        Markup::Discord => {
            let shown = lang.locale().own(&format!("choice-{choice}")).unwrap_or_else(|| choice.to_owned());
            format!("{} {}", command(lang, path), option(lang, path, option_name, Some(&shown)))
        }
    }
}

/// A text written for Discord (the rules, the variants' list), for a terminal: without the
/// markdown that marks bold and code, which a terminal would print as it is.
#[must_use]
pub fn plain(text: &str) -> String {
    text.replace("**", "").replace('`', "")
}

/// A person, as the front end names them: a Discord mention (which shows their name and
/// notifies only where allowed), or `@name` in the console.
#[must_use]
pub fn mention(lang: Lang, user: &User) -> String {
    // The bot's levels are no Discord users: named, in bold, in the reader's language.
    if let Some(level) = crate::host::bot_level(user.id) {
        let name = super::tr!(lang, "bot-player", level = level.number());
        return match lang.markup() {
            Markup::Discord => format!("**{name}**"),
            Markup::Console => format!("@{name}"),
        };
    }
    match lang.markup() {
        Markup::Discord => format!("<@{}>", user.id),
        Markup::Console => format!("@{}", name(lang, &user.name)),
    }
}

/// A player's name without mentioning them: the bot's levels in the reader's language,
/// people as their display name, escaped as [`name`] does; in the console as `@name`, the way
/// people are written there everywhere else.
#[must_use]
pub fn player_name(lang: Lang, user: &User) -> String {
    match crate::host::bot_level(user.id) {
        Some(_) => plain_name(lang, user),
        None => person(lang, &user.name),
    }
}

/// A person's display name as [`player_name`] writes it: escaped for Discord, `@name` in the
/// console.
#[must_use]
pub fn person(lang: Lang, raw: &str) -> String {
    match lang.markup() {
        Markup::Discord => name(lang, raw),
        Markup::Console => format!("@{}", name(lang, raw)),
    }
}

/// A player's name where text is drawn or shown verbatim (board captions, cards, the GIF,
/// autocomplete labels, thread titles): the bot's levels in the reader's language (their stored
/// name is English), people as they call themselves, no markdown escaped. Control characters,
/// line separators and direction overrides and isolates are dropped as [`name`] drops them: a
/// thread title or a suggestion must not be turned round by the name in it.
#[must_use]
pub fn plain_name(lang: Lang, user: &User) -> String {
    match crate::host::bot_level(user.id) {
        Some(level) => super::tr!(lang, "bot-player", level = level.number()),
        None => user.name.chars().filter(|&c| !tafl_rules::escaped_when_quoted(c)).collect(),
    }
}

/// A moment: Discord shows `<t:…:R>` as "in 3 days" in the reader's own language and time
/// zone; the console prints the date and time in UTC.
#[must_use]
pub fn timestamp(lang: Lang, unix: i64) -> String {
    match lang.markup() {
        Markup::Discord => format!("<t:{unix}:R>"),
        Markup::Console => utc(unix),
    }
}

/// A display name as typed, safe in the front end: in Discord markdown the characters that
/// format text (and `<`, which starts mentions and timestamps) are escaped, so `**x**` shows
/// as typed. Control characters, line separators and direction overrides and isolates
/// ([`tafl_rules::escaped_when_quoted`]) are dropped everywhere: a name must not break the
/// line it stands in, nor turn the rest of it round.
#[must_use]
pub fn name(lang: Lang, raw: &str) -> String {
    let mut out = String::with_capacity(raw.len());
    for c in raw.chars().filter(|&c| !tafl_rules::escaped_when_quoted(c)) {
        if lang.markup() == Markup::Discord
            && matches!(c, '\\' | '*' | '_' | '~' | '`' | '|' | '>' | '#' | '[' | ']' | '<')
        {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// `2026-12-01 12:00 UTC`, from Unix seconds (the civil-from-days algorithm of H. Hinnant).
fn utc(unix: i64) -> String {
    let days = unix.div_euclid(86_400);
    let seconds = unix.rem_euclid(86_400);
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}-{month:02}-{day:02} {:02}:{:02} UTC", seconds / 3600, seconds % 3600 / 60)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unix_seconds_read_as_utc_dates() {
        assert_eq!(utc(0), "1970-01-01 00:00 UTC");
        assert_eq!(utc(1_700_000_000), "2023-11-14 22:13 UTC");
        assert_eq!(utc(951_782_400), "2000-02-29 00:00 UTC");
    }

    #[test]
    fn names_are_escaped_for_discord_and_cleaned_for_the_console() {
        let discord = Lang::discord(None);
        let console = Lang::console("en");
        assert_eq!(name(discord, "**x**"), "\\*\\*x\\*\\*");
        assert_eq!(name(console, "**x**\u{7}"), "**x**");
        // A direction override or a line separator in a name turned or broke the line around it;
        // a direction mark is kept.
        for lang in [discord, console] {
            assert_eq!(name(lang, "al\u{202e}ice\u{2028}\u{2066}"), "alice");
            assert_eq!(name(lang, "\u{200f}محمد"), "\u{200f}محمد");
        }
        assert_eq!(mention(console, &User::new(6, "al\u{202e}ice")), "@alice");
        // Shown verbatim (a thread title, a suggestion), the markdown stays and the override goes.
        assert_eq!(plain_name(discord, &User::new(6, "*al\u{202e}ice*\u{2069}")), "*alice*");
        assert_eq!(plain_name(discord, &User::new(7, "\u{200f}محمد")), "\u{200f}محمد");
        let bob = User::new(5, "bob");
        assert_eq!(mention(discord, &bob), "<@5>");
        assert_eq!(mention(console, &bob), "@bob");
    }

    #[test]
    fn commands_are_named_in_the_readers_language_and_front_end() {
        assert_eq!(command(Lang::console("ru"), "board"), "/board");
        // Before registration gives the command an id, Discord readers get the localised name.
        if COMMAND_ID.get().is_none() {
            assert_eq!(command(Lang::discord(Some("ru")), "board"), "/тафл доска");
            assert_eq!(command(Lang::discord(Some("en-US")), "settings language"), "/tafl settings language");
        }
    }

    /// A display name is text whatever characters it holds. The private-use marks that stand for
    /// a command until [`finish`] are ordinary characters to Discord, and `finish` runs over the
    /// formatted message, names included: a player called "\u{E000}resign\u{E001}" read as a
    /// clickable `/tafl resign` in the public notice that names them (here the claim notice; the
    /// summary, reminders and leaderboards alike).
    #[test]
    fn a_name_holding_the_command_marks_is_not_turned_into_a_command() {
        let mallory = User::new(5, "\u{E000}resign\u{E001}");
        let game = crate::host::GameView::sample(1, tafl_rules::Variant::Brandubh, mallory, User::new(6, "bob"));
        for lang in [Lang::discord(None), Lang::discord(Some("ru")), Lang::console("en")] {
            let notice = crate::present::text::claimable(&game, lang);
            // One command belongs there: the claim the notice tells Bob about.
            let commands =
                notice.matches("/tafl").count() + notice.matches("/тафл").count() + notice.matches("/claim").count();
            assert_eq!(commands, 1, "{notice}");
            assert!(notice.contains("\u{FFFD}resign\u{FFFD}"), "{notice}");
        }
    }

    /// An autocomplete choice shows plain text: a clickable command reads as the reader's
    /// client names it, an escaped name as typed, and a long text ends after a word.
    #[test]
    fn discord_text_becomes_one_plain_line_for_a_choice() {
        let ru = Lang::discord(Some("ru"));
        let text = "У вас нет партии в этом канале; укажите номер партии в параметре «партия» (ваши партии покажет </tafl games:1234567890>).";
        assert_eq!(
            plain_line(ru, text, 200),
            "У вас нет партии в этом канале; укажите номер партии в параметре «партия» (ваши партии покажет /тафл партии)."
        );
        let short = plain_line(ru, text, 80);
        assert!(short.chars().count() <= 80 && short.ends_with('…'), "{short}");
        assert!(!short.contains('<') && short.contains("укажите номер"), "{short}");
        assert!(short.trim_end_matches('…').ends_with("«партия»"), "cut after a whole word: {short}");
        let en = Lang::discord(None);
        assert_eq!(
            plain_line(en, &format!("{} is **over**: see `e4`", name(en, "some_name*")), 100),
            "some_name* is over: see e4"
        );
        assert_eq!(plain_line(en, "a </tafl broken", 100), "a </tafl broken");
        assert_eq!(plain_line(en, &"x".repeat(300), 100).chars().count(), 100, "one long word is cut inside it");
        assert_eq!(plain_line(en, &format!("a{}b\nc", " ".repeat(200)), 100), "a b c");
        assert_eq!(plain_line(en, "", 100), "…", "never empty");
    }
}
