//! `/tafl settings`: a person's own settings (notices by DM, the daily digest, how their boards
//! are drawn) and, for the server's managers, the server's (a thread per game, the default clock,
//! the channels where games are played). Without options it shows them. Every answer is private
//! and in the caller's language.
//!
//! A command that asks for several changes makes all of them or none: everything is checked
//! (permission, clock, channels) before anything is written.

use poise::CreateReply;
use poise::serenity_prelude as serenity;
use tafl_render::{Orientation, Theme};

use super::play::now;
use super::retry::with_retries;
use super::{BotError, Context};
use crate::host::{
    Clock, ServerChange, ServerLanguage, ServerSettings, SettingsInForce, SettingsPlace, User, UserSettings,
};
use crate::present::text;
use crate::present::{Lang, Locales, Markup, tr};

/// How a person's boards are turned.
#[derive(Clone, Copy, Debug, PartialEq, Eq, poise::ChoiceParameter)]
pub enum OrientationParam {
    #[name = "standard"]
    Standard,
    #[name = "flipped"]
    Flipped,
}

/// A person's board colours.
#[derive(Clone, Copy, Debug, PartialEq, Eq, poise::ChoiceParameter)]
pub enum ThemeParam {
    #[name = "classic"]
    Classic,
    #[name = "high-contrast"]
    HighContrast,
}

/// A channel named in a command, as Discord describes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Channel {
    id: i64,
    kind: serenity::ChannelType,
}

impl From<&serenity::PartialChannel> for Channel {
    fn from(channel: &serenity::PartialChannel) -> Channel {
        Channel { id: channel.id.get() as i64, kind: channel.kind }
    }
}

/// Whether games are played in channels of `kind` (in their posts, for a forum), so that the
/// allow-list may name them: the kinds of channel a challenge is judged by. A challenge is
/// judged by the channel it is typed in, a voice or stage channel's text chat included, or for a
/// thread (a forum post too) by its parent. Threads themselves are never judged, so never named.
/// The `allow_channel` and `disallow_channel` options offer these kinds alone.
fn hosts_games(kind: serenity::ChannelType) -> bool {
    use serenity::ChannelType::{Forum, News, Stage, Text, Voice};
    matches!(kind, Text | News | Forum | Voice | Stage)
}

/// What one `/tafl settings` asks to change; `None` leaves a setting as it is.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Changes {
    dm: Option<bool>,
    digest: Option<bool>,
    orientation: Option<Orientation>,
    theme: Option<Theme>,
    threads: Option<bool>,
    default_clock: Option<String>,
    allow_channel: Option<Channel>,
    disallow_channel: Option<Channel>,
    all_channels: Option<bool>,
    /// A language code, or `auto` for the server's own.
    language: Option<String>,
}

impl Changes {
    fn personal(&self) -> bool {
        self.dm.is_some() || self.digest.is_some() || self.orientation.is_some() || self.theme.is_some()
    }

    fn server(&self) -> bool {
        self.threads.is_some()
            || self.default_clock.is_some()
            || self.allow_channel.is_some()
            || self.disallow_channel.is_some()
            || self.all_channels.is_some()
            || self.language.is_some()
    }

    /// A person's settings with the changes made.
    fn apply_personal(&self, settings: UserSettings) -> UserSettings {
        UserSettings {
            dm_notifications: self.dm.unwrap_or(settings.dm_notifications),
            digest: self.digest.unwrap_or(settings.digest),
            orientation: self.orientation.unwrap_or(settings.orientation),
            theme: self.theme.unwrap_or(settings.theme),
        }
    }

    /// A server's settings with the changes made, or the one sentence that says why they cannot
    /// be (and nothing changes).
    fn apply_server(&self, settings: &ServerSettings, lang: Lang) -> Result<ServerSettings, String> {
        let mut new = settings.clone();
        if let Some(threads) = self.threads {
            new.threads = threads;
        }
        if let Some(clock) = &self.default_clock {
            let clock: Clock = clock.parse().map_err(|e| text::clock_error(&e, lang))?;
            new.default_clock = (!clock.is_untimed()).then_some(clock);
        }
        match self.all_channels {
            Some(true) if self.allow_channel.is_some() || self.disallow_channel.is_some() => {
                return Err(words(lang, Words::AllAndOne));
            }
            Some(true) => new.channels.clear(),
            // "Not every channel: this one" says what allow_channel alone says.
            Some(false) if self.allow_channel.is_some() => {}
            Some(false) => return Err(words(lang, Words::AllFalse)),
            None => {}
        }
        for channel in [self.allow_channel, self.disallow_channel].into_iter().flatten() {
            if !hosts_games(channel.kind) {
                return Err(words(lang, Words::NotForGames(channel.id)));
            }
        }
        if let (Some(allow), Some(disallow)) = (self.allow_channel, self.disallow_channel)
            && allow.id == disallow.id
        {
            return Err(words(lang, Words::AllowAndDisallow(allow.id)));
        }
        if let Some(allow) = self.allow_channel
            && !new.channels.contains(&allow.id)
        {
            new.channels.push(allow.id);
        }
        if let Some(disallow) = self.disallow_channel {
            if new.channels.is_empty() {
                return Err(words(lang, Words::EveryChannel));
            }
            new.channels.retain(|id| *id != disallow.id);
            if new.channels.is_empty() {
                return Err(words(lang, Words::LastChannel(disallow.id)));
            }
        }
        new.channels.sort_unstable();
        Ok(new)
    }

    /// The language asked for, or the sentence that refuses it.
    fn language(&self, lang: Lang) -> Result<LanguageChange, String> {
        let Some(asked) = self.language.as_deref().map(str::trim) else { return Ok(LanguageChange::Keep) };
        if asked.eq_ignore_ascii_case(AUTO) {
            return Ok(LanguageChange::ServersOwn);
        }
        match Locales::global().find(asked) {
            Some(locale) => Ok(LanguageChange::To(locale.code().to_owned())),
            None => Err(tr!(lang, "settings-unknown-language", input = asked.chars().take(32).collect::<String>())),
        }
    }
}

/// What `/tafl settings language` asks for.
#[derive(Clone, Debug, PartialEq, Eq)]
enum LanguageChange {
    /// Nothing: the option was not given.
    Keep,
    /// Follow the server's own locale again.
    ServersOwn,
    /// A language the bot speaks, by code.
    To(String),
}

/// The `language` value that follows the server's own locale.
const AUTO: &str = "auto";

/// The languages the bot speaks, each named in itself, and "the server's own".
#[allow(clippy::unused_async)] // poise calls autocomplete callbacks as async functions
async fn autocomplete_language(ctx: Context<'_>, partial: &str) -> serenity::CreateAutocompleteResponse {
    let lang = Lang::discord(ctx.locale());
    let typed = partial.trim().to_lowercase();
    let mut choices = vec![serenity::AutocompleteChoice::new(tr!(lang, "language-auto"), AUTO)];
    for &locale in Locales::global().all() {
        let name = tr!(Lang::new(locale, Markup::Discord), "language-name");
        if typed.is_empty() || locale.code().to_lowercase().starts_with(&typed) || name.to_lowercase().contains(&typed)
        {
            choices.push(serenity::AutocompleteChoice::new(format!("{name} ({})", locale.code()), locale.code()));
        }
    }
    choices.truncate(25);
    serenity::CreateAutocompleteResponse::new().set_choices(choices)
}

/// Your settings, and the server's for its managers; without options, shows them.
#[poise::command(slash_command)]
#[allow(clippy::too_many_arguments)] // one per option, as poise reads them
pub async fn settings(
    ctx: Context<'_>,
    dm: Option<bool>,
    digest: Option<bool>,
    orientation: Option<OrientationParam>,
    theme: Option<ThemeParam>,
    #[autocomplete = "autocomplete_language"] language: Option<String>,
    threads: Option<bool>,
    default_clock: Option<String>,
    // The kinds `hosts_games` accepts.
    #[channel_types("Text", "News", "Forum", "Voice", "Stage")] allow_channel: Option<serenity::PartialChannel>,
    #[channel_types("Text", "News", "Forum", "Voice", "Stage")] disallow_channel: Option<serenity::PartialChannel>,
    all_channels: Option<bool>,
) -> Result<(), BotError> {
    let lang = Lang::discord(ctx.locale());
    let changes = Changes {
        dm,
        digest,
        orientation: orientation.map(|o| match o {
            OrientationParam::Standard => Orientation::Standard,
            OrientationParam::Flipped => Orientation::Flipped,
        }),
        theme: theme.map(|t| match t {
            ThemeParam::Classic => Theme::Classic,
            ThemeParam::HighContrast => Theme::HighContrast,
        }),
        threads,
        default_clock,
        allow_channel: allow_channel.as_ref().map(Channel::from),
        disallow_channel: disallow_channel.as_ref().map(Channel::from),
        all_channels,
        language,
    };
    let host = &ctx.data().host;
    let user = User::new(ctx.author().id.get() as i64, ctx.author().display_name());
    let guild = ctx.guild_id().map(|g| g.get() as i64);
    // Every change is read and written in one transaction of the host's: two at once cannot
    // undo each other, and a refusal or a failure part way saves none of them.
    let place = match guild {
        Some(guild) if changes.server() => {
            if !is_manager(ctx) {
                return Err(BotError::User(words(lang, Words::NotManager)));
            }
            let language = match changes.language(lang).map_err(BotError::User)? {
                LanguageChange::Keep => None,
                LanguageChange::ServersOwn => Some(None),
                LanguageChange::To(code) => Some(Some(code)),
            };
            let change = |current: &ServerSettings| changes.apply_server(current, lang);
            SettingsPlace::Server { guild, change: Some(ServerChange { change, language }) }
        }
        Some(guild) => SettingsPlace::Server { guild, change: None },
        None if changes.server() => return Err(BotError::User(words(lang, Words::NotInServer))),
        None => SettingsPlace::Dm,
    };
    let person_change = changes.personal().then_some(|current: UserSettings| changes.apply_personal(current));
    let SettingsInForce { personal, server } =
        host.change_settings(&user, place, person_change, now()).await?.map_err(BotError::User)?;
    let saved = changes.personal() || changes.server();
    let server = server.as_ref().map(|(settings, language)| (settings, language));
    let reply = CreateReply::default().content(shown(personal, server, saved, lang)).ephemeral(true);
    if saved {
        // Saved: an answer Discord does not take is no reason to say "try again".
        return super::commands::send_after_change(ctx, reply).await;
    }
    with_retries(|| ctx.send(reply.clone())).await?;
    Ok(())
}

/// Whether the caller may change the server's settings: the member's permissions in the
/// interaction (as Discord computed them for this channel) include Manage Server.
fn is_manager(ctx: Context<'_>) -> bool {
    let poise::Context::Application(app) = ctx else { return false };
    app.interaction
        .member
        .as_ref()
        .and_then(|member| member.permissions)
        .is_some_and(|permissions| permissions.manage_guild() || permissions.administrator())
}

/// How many allowed channels the settings answer names; the others are counted. Each `<#id>`
/// takes some 23 characters, and the answer must stay within Discord's 2,000 whatever the list
/// (the limit of `MAX_CHANNELS` named in full did not: past about 65 the answer was refused, and
/// nobody on the server could see or change their settings).
const CHANNELS_SHOWN: usize = 20;

/// The settings as the answer shows them, after "Saved." when something was asked to change.
fn shown(
    personal: UserSettings,
    server: Option<(&ServerSettings, &ServerLanguage)>,
    saved: bool,
    lang: Lang,
) -> String {
    let on_off = |on: bool| tr!(lang, if on { "settings-on" } else { "settings-off" });
    let mut lines = Vec::new();
    if saved {
        lines.push(tr!(lang, "settings-saved"));
    }
    let orientation = tr!(
        lang,
        match personal.orientation {
            Orientation::Standard => "orientation-standard",
            Orientation::Flipped => "orientation-flipped",
        }
    );
    let theme = tr!(
        lang,
        match personal.theme {
            Theme::Classic => "theme-classic",
            Theme::HighContrast => "theme-high-contrast",
        }
    );
    lines.push(tr!(lang, "settings-yours"));
    lines.push(tr!(lang, "settings-dm", value = on_off(personal.dm_notifications)));
    lines.push(tr!(lang, "settings-digest", value = on_off(personal.digest)));
    lines.push(tr!(lang, "settings-orientation", value = orientation));
    lines.push(tr!(lang, "settings-theme", value = theme));
    if let Some((server, language)) = server {
        let clock = server.default_clock.unwrap_or_default();
        let channels = if server.channels.is_empty() {
            tr!(lang, "settings-every-channel")
        } else {
            let named =
                server.channels.iter().take(CHANNELS_SHOWN).map(|id| format!("<#{id}>")).collect::<Vec<_>>().join(", ");
            match server.channels.len().saturating_sub(CHANNELS_SHOWN) {
                0 => named,
                more => tr!(lang, "settings-channels-cut", channels = named, count = more),
            }
        };
        let spoken = Locales::global().pick(language.code().unwrap_or(crate::present::locale::REFERENCE));
        let name = tr!(Lang::new(spoken, Markup::Discord), "language-name");
        lines.push(tr!(lang, "settings-server"));
        lines.push(if language.chosen.is_some() {
            tr!(lang, "settings-language", language = name)
        } else {
            tr!(lang, "settings-language", language = tr!(lang, "settings-language-auto", language = name))
        });
        lines.push(tr!(lang, "settings-threads", value = on_off(server.threads)));
        lines.push(tr!(
            lang,
            "settings-default-clock",
            clock = clock.to_string(),
            words = text::clock_words(clock, lang)
        ));
        lines.push(tr!(lang, "settings-channels", channels = channels));
    }
    lines.join("\n")
}

/// The refusals of this command.
#[derive(Clone, Copy, Debug)]
enum Words {
    NotInServer,
    NotManager,
    NotForGames(i64),
    AllowAndDisallow(i64),
    EveryChannel,
    LastChannel(i64),
    AllAndOne,
    AllFalse,
}

fn words(lang: Lang, which: Words) -> String {
    let channel = |id: i64| format!("<#{id}>");
    // Options named as the reader's client shows them (their registered localized names).
    let option = |name: &str| crate::present::markup::option(lang, "settings", name, None);
    let personal = || ["dm", "digest", "orientation", "theme"].map(option).join(", ");
    match which {
        Words::NotInServer => tr!(lang, "settings-not-in-server", personal = personal()),
        Words::NotManager => tr!(lang, "settings-not-manager", personal = personal()),
        Words::NotForGames(id) => tr!(lang, "settings-not-for-games", channel = channel(id)),
        Words::AllowAndDisallow(id) => tr!(lang, "settings-allow-and-disallow", channel = channel(id)),
        Words::EveryChannel => tr!(lang, "settings-every-channel-already", allow_channel = option("allow_channel")),
        Words::LastChannel(id) => {
            tr!(lang, "settings-last-channel", channel = channel(id), all_channels = option("all_channels"))
        }
        Words::AllAndOne => tr!(lang, "settings-all-and-one"),
        Words::AllFalse => tr!(lang, "settings-all-false", allow_channel = option("allow_channel")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEXT: serenity::ChannelType = serenity::ChannelType::Text;

    fn channel(id: i64) -> Channel {
        Channel { id, kind: TEXT }
    }

    #[test]
    fn personal_changes_touch_only_what_is_named() {
        let before = UserSettings { dm_notifications: true, ..UserSettings::default() };
        let changes = Changes { theme: Some(Theme::HighContrast), ..Changes::default() };
        assert!(changes.personal() && !changes.server());
        let after = changes.apply_personal(before);
        assert_eq!(
            after,
            UserSettings { dm_notifications: true, theme: Theme::HighContrast, ..UserSettings::default() }
        );
        assert!(!Changes::default().personal() && !Changes::default().server());
    }

    #[test]
    fn server_changes_are_checked_before_anything_changes() {
        let before = ServerSettings::default();
        let changes = Changes { threads: Some(true), default_clock: Some("3d+7d".into()), ..Changes::default() };
        let after = changes.apply_server(&before, lang_en()).unwrap();
        assert!(after.threads);
        assert_eq!(after.default_clock.unwrap().to_string(), "3d+7d");
        // "none" stores no default clock.
        let none = Changes { default_clock: Some("none".into()), ..Changes::default() };
        assert_eq!(none.apply_server(&after, lang_en()).unwrap().default_clock, None);
        let bad = Changes { threads: Some(true), default_clock: Some("soon".into()), ..Changes::default() };
        let error = bad.apply_server(&before, lang_en()).unwrap_err();
        assert!(error.starts_with("\"soon\" is not a clock; write a time per move such as 1d"), "{error}");
        assert!(error.ends_with('.'), "{error}");
        let ru_error = bad.apply_server(&before, lang_ru()).unwrap_err();
        assert!(ru_error.starts_with("«soon» — непонятная запись часов"), "{ru_error}");
    }

    #[test]
    fn channels_are_allowed_and_disallowed_but_never_all_closed() {
        let every = ServerSettings::default();
        let allow = |id| Changes { allow_channel: Some(channel(id)), ..Changes::default() };
        let disallow = |id| Changes { disallow_channel: Some(channel(id)), ..Changes::default() };
        let one = allow(5).apply_server(&every, lang_en()).unwrap();
        assert_eq!(one.channels, [5]);
        let two = allow(3).apply_server(&one, lang_en()).unwrap();
        assert_eq!(two.channels, [3, 5]);
        assert_eq!(allow(3).apply_server(&two, lang_en()).unwrap().channels, [3, 5], "allowing twice is once");
        assert_eq!(disallow(3).apply_server(&two, lang_en()).unwrap().channels, [5]);
        assert_eq!(disallow(9).apply_server(&two, lang_en()).unwrap().channels, [3, 5]);
        let error = disallow(5).apply_server(&one, lang_en()).unwrap_err();
        assert!(error.contains("only channel allowed"), "{error}");
        let error = disallow(5).apply_server(&every, lang_en()).unwrap_err();
        assert!(error.starts_with("Games are allowed in every channel"), "{error}");
        let both =
            Changes { allow_channel: Some(channel(5)), disallow_channel: Some(channel(5)), ..Changes::default() };
        assert!(both.apply_server(&two, lang_en()).unwrap_err().contains("not both"));
        let all = Changes { all_channels: Some(true), ..Changes::default() };
        assert!(all.apply_server(&two, lang_en()).unwrap().channels.is_empty());
        let all_and_one = Changes { all_channels: Some(true), allow_channel: Some(channel(1)), ..Changes::default() };
        assert!(all_and_one.apply_server(&two, lang_ru()).is_err());
        let not_all = Changes { all_channels: Some(false), ..Changes::default() };
        assert!(not_all.apply_server(&every, lang_en()).unwrap_err().contains("with allow_channel."));
        let said = not_all.apply_server(&every, lang_ru()).unwrap_err();
        assert!(said.ends_with("параметром разрешить_канал."), "the option as Russian clients show it: {said}");
        // "Not every channel: this one" is what allowing it alone says.
        let not_all_but_one =
            Changes { all_channels: Some(false), allow_channel: Some(channel(5)), ..Changes::default() };
        assert_eq!(not_all_but_one.apply_server(&every, lang_en()).unwrap().channels, [5]);
        assert_eq!(not_all_but_one.apply_server(&two, lang_en()).unwrap().channels, [3, 5]);
        // Games are played in a forum's posts and a voice channel's chat too; not in a category.
        let allow_kind = |kind| Changes { allow_channel: Some(Channel { id: 7, kind }), ..Changes::default() };
        for kind in [serenity::ChannelType::Forum, serenity::ChannelType::Voice, serenity::ChannelType::Stage] {
            assert_eq!(allow_kind(kind).apply_server(&every, lang_en()).unwrap().channels, [7], "{kind:?}");
        }
        let category = allow_kind(serenity::ChannelType::Category).apply_server(&every, lang_en()).unwrap_err();
        assert_eq!(category, "Games cannot be played in <#7>; name a text, voice or announcement channel, or a forum.");
        let thread = allow_kind(serenity::ChannelType::PublicThread).apply_server(&every, lang_ru()).unwrap_err();
        assert_eq!(
            thread,
            "В канале <#7> играть нельзя; укажите текстовый или голосовой канал, канал объявлений или форум."
        );
    }

    #[test]
    fn settings_are_shown_in_both_languages() {
        let personal = UserSettings { digest: true, orientation: Orientation::Flipped, ..UserSettings::default() };
        let server = ServerSettings { threads: true, default_clock: Some("3d".parse().unwrap()), channels: vec![5, 9] };
        let language = ServerLanguage { discord: Some("ru".into()), chosen: None };
        let en = shown(personal, Some((&server, &language)), true, lang_en());
        assert!(en.starts_with("Saved.\n**Your settings**"), "{en}");
        assert!(en.contains("Daily digest: on") && en.contains("Board orientation: flipped"), "{en}");
        assert!(en.contains("A thread for each game: on") && en.contains("Default clock: `3d`"), "{en}");
        assert!(en.contains("Channels for games: <#5>, <#9>"), "{en}");
        assert!(en.contains("Language of public messages: Русский (the server's own)"), "{en}");
        let russian = shown(personal, None, false, lang_ru());
        assert!(russian.starts_with("**Ваши настройки**") && russian.contains("Ежедневная сводка: вкл."), "{russian}");
        assert!(!russian.contains("сервер"), "no server part in a DM: {russian}");
        let chosen = ServerLanguage { discord: Some("ru".into()), chosen: Some("en".into()) };
        let every = shown(personal, Some((&ServerSettings::default(), &chosen)), false, lang_en());
        assert!(every.contains("Language of public messages: English\n"), "{every}");
        assert!(every.contains("Channels for games: every channel") && every.contains("Default clock: `none`"));
    }

    #[test]
    fn the_answer_fits_discord_with_every_channel_the_server_may_allow() {
        let personal = UserSettings::default();
        let ids = (0..crate::host::settings::MAX_CHANNELS as i64).map(|n| 1_500_000_000_000_001_000 + n);
        let server = ServerSettings { channels: ids.collect(), ..ServerSettings::default() };
        let language = ServerLanguage { discord: Some("ru".into()), chosen: None };
        for (lang, more) in [(lang_en(), " and 80 more"), (lang_ru(), " и ещё 80")] {
            let answer = shown(personal, Some((&server, &language)), true, lang);
            assert!(answer.chars().count() <= 2_000, "{} characters: {answer}", answer.chars().count());
            assert_eq!(answer.matches("<#").count(), CHANNELS_SHOWN, "{answer}");
            assert!(answer.contains(&format!("<#1500000000000001019>{more}")), "{answer}");
        }
    }

    fn lang_en() -> Lang {
        Lang::discord(Some("en-US"))
    }

    fn lang_ru() -> Lang {
        Lang::discord(Some("ru"))
    }

    #[test]
    fn a_language_is_one_the_bot_speaks_or_auto() {
        let asked = |code: &str| Changes { language: Some(code.into()), ..Changes::default() };
        assert!(asked("ru").server());
        assert_eq!(asked("ru").language(lang_en()), Ok(LanguageChange::To("ru".into())));
        assert_eq!(asked("RU").language(lang_en()), Ok(LanguageChange::To("ru".into())));
        assert_eq!(asked("auto").language(lang_en()), Ok(LanguageChange::ServersOwn));
        assert_eq!(Changes::default().language(lang_en()), Ok(LanguageChange::Keep));
        let refused = asked("klingon").language(lang_ru()).unwrap_err();
        assert!(refused.starts_with("Бот не говорит на языке «klingon»"), "{refused}");
    }

    #[test]
    fn the_command_fits_discords_limits() {
        // As registered: with its words from the locale files.
        let mut commands = super::super::commands::all();
        super::super::translations::apply_translations(&mut commands, Locales::global());
        let command = commands[0].subcommands.iter().find(|c| c.name == "settings").unwrap();
        let name_ok = |name: &str| {
            (1..=32).contains(&name.chars().count())
                && name.chars().all(|c| c == '_' || c == '-' || c.is_alphanumeric() && !c.is_uppercase())
        };
        let description_ok = |text: &str| (1..=100).contains(&text.chars().count());
        assert!(description_ok(command.description.as_deref().unwrap_or_default()));
        for (locale, text) in command.description_localizations.iter() {
            assert!(description_ok(text), "{locale}: {text}");
        }
        for (_, name) in command.name_localizations.iter() {
            assert!(name_ok(name), "{name}");
        }
        assert!(command.parameters.len() <= 25);
        for parameter in &command.parameters {
            assert!(name_ok(&parameter.name), "{}", parameter.name);
            assert!(description_ok(parameter.description.as_deref().unwrap_or_default()), "{}", parameter.name);
            for (_, name) in parameter.name_localizations.iter() {
                assert!(name_ok(name), "{name}");
            }
            for (_, text) in parameter.description_localizations.iter() {
                assert!(description_ok(text), "{}: {text}", parameter.name);
            }
            for choice in parameter.choices.iter() {
                assert!(choice.name.chars().count() <= 100);
            }
        }
    }
}
