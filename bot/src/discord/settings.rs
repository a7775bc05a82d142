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
use super::text::{self, Lang};
use super::{BotError, Context};
use crate::host::{Clock, ServerSettings, User, UserSettings};

/// How a person's boards are turned.
#[derive(Clone, Copy, Debug, PartialEq, Eq, poise::ChoiceParameter)]
pub enum OrientationParam {
    #[name = "standard"]
    #[name_localized("ru", "обычная")]
    Standard,
    #[name = "flipped"]
    #[name_localized("ru", "перевёрнутая")]
    Flipped,
}

/// A person's board colours.
#[derive(Clone, Copy, Debug, PartialEq, Eq, poise::ChoiceParameter)]
pub enum ThemeParam {
    #[name = "classic"]
    #[name_localized("ru", "классическая")]
    Classic,
    #[name = "high-contrast"]
    #[name_localized("ru", "контрастная")]
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
            let clock: Clock = clock.parse().map_err(|e: String| text::sentence(&e))?;
            new.default_clock = (!clock.is_untimed()).then_some(clock);
        }
        match self.all_channels {
            Some(true) if self.allow_channel.is_some() || self.disallow_channel.is_some() => {
                return Err(words(lang, Words::AllAndOne));
            }
            Some(true) => new.channels.clear(),
            Some(false) => return Err(words(lang, Words::AllFalse)),
            None => {}
        }
        for channel in [self.allow_channel, self.disallow_channel].into_iter().flatten() {
            if !matches!(channel.kind, serenity::ChannelType::Text | serenity::ChannelType::News) {
                return Err(words(lang, Words::NotText(channel.id)));
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
}

/// Your settings, and the server's for its managers; without options, shows them.
#[poise::command(
    slash_command,
    name_localized("ru", "настройки"),
    description_localized("ru", "Ваши настройки и настройки сервера (для модераторов); без опций показывает их.")
)]
#[allow(clippy::too_many_arguments)] // one per option, as poise reads them
pub async fn settings(
    ctx: Context<'_>,
    #[description = "Reminders and your-turn notices by direct message too"]
    #[name_localized("ru", "лс")]
    #[description_localized("ru", "Напоминания и «ваш ход» также в личные сообщения")]
    dm: Option<bool>,
    #[description = "A daily direct message listing the games where it is your move"]
    #[name_localized("ru", "сводка")]
    #[description_localized("ru", "Ежедневное личное сообщение со списком партий, где ваш ход")]
    digest: Option<bool>,
    #[description = "How boards you show are turned: standard (a1 bottom left) or flipped"]
    #[name_localized("ru", "ориентация")]
    #[description_localized("ru", "Как повёрнуты показанные вами доски: обычно (a1 внизу слева) или перевёрнуто")]
    orientation: Option<OrientationParam>,
    #[description = "Colours of boards you show: classic or high-contrast"]
    #[name_localized("ru", "тема")]
    #[description_localized("ru", "Цвета показанных вами досок: классические или контрастные")]
    theme: Option<ThemeParam>,
    #[description = "Server, managers only: each new game gets its own thread"]
    #[name_localized("ru", "ветки")]
    #[description_localized("ru", "Сервер, только модераторы: у каждой новой партии своя ветка")]
    threads: Option<bool>,
    #[description = "Server, managers only: the clock of challenges without one: 3d, 3d+7d, none…"]
    #[name_localized("ru", "часы_по_умолчанию")]
    #[description_localized("ru", "Сервер, только модераторы: часы вызовов без часов: 3d, 3d+7d, none…")]
    default_clock: Option<String>,
    #[description = "Server, managers only: allow games in this channel (then only in allowed ones)"]
    #[name_localized("ru", "разрешить_канал")]
    #[description_localized("ru", "Сервер, только модераторы: разрешить партии в канале (тогда только в разрешённых)")]
    #[channel_types("Text", "News")]
    allow_channel: Option<serenity::PartialChannel>,
    #[description = "Server, managers only: no longer allow games in this channel"]
    #[name_localized("ru", "запретить_канал")]
    #[description_localized("ru", "Сервер, только модераторы: больше не разрешать партии в этом канале")]
    #[channel_types("Text", "News")]
    disallow_channel: Option<serenity::PartialChannel>,
    #[description = "Server, managers only: true allows games in every channel again"]
    #[name_localized("ru", "все_каналы")]
    #[description_localized("ru", "Сервер, только модераторы: true снова разрешает партии во всех каналах")]
    all_channels: Option<bool>,
) -> Result<(), BotError> {
    let lang = Lang::from_locale(ctx.locale());
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
    };
    let host = &ctx.data().host;
    let user = User::new(ctx.author().id.get() as i64, ctx.author().display_name());
    let guild = ctx.guild_id().map(|g| g.get() as i64);
    // Each change is read and written in one transaction of the host's, so two at once cannot
    // undo each other.
    let server = if changes.server() {
        let Some(guild) = guild else { return Err(BotError::User(words(lang, Words::NotInServer))) };
        if !is_manager(ctx) {
            return Err(BotError::User(words(lang, Words::NotManager)));
        }
        let stored = host.change_server_settings(guild, now(), |current| changes.apply_server(current, lang)).await?;
        Some(stored.map_err(BotError::User)?)
    } else {
        match guild {
            Some(guild) => Some(host.server_settings(guild).await?),
            None => None,
        }
    };
    let personal = if changes.personal() {
        host.change_user_settings(&user, now(), |current| changes.apply_personal(current)).await?
    } else {
        host.user_settings(user.id).await?
    };
    let saved = changes.personal() || changes.server();
    let reply = CreateReply::default().content(shown(personal, server.as_ref(), saved, lang)).ephemeral(true);
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

/// The settings as the answer shows them, after "Saved." when something was asked to change.
fn shown(personal: UserSettings, server: Option<&ServerSettings>, saved: bool, lang: Lang) -> String {
    let ru = lang == Lang::Ru;
    let on_off = |on: bool| match (on, ru) {
        (true, false) => "on",
        (false, false) => "off",
        (true, true) => "вкл.",
        (false, true) => "выкл.",
    };
    let mut lines = Vec::new();
    if saved {
        lines.push(if ru { "Сохранено." } else { "Saved." }.to_owned());
    }
    let orientation = match (personal.orientation, ru) {
        (Orientation::Standard, false) => "standard (a1 bottom left)",
        (Orientation::Flipped, false) => "flipped",
        (Orientation::Standard, true) => "обычная (a1 внизу слева)",
        (Orientation::Flipped, true) => "перевёрнутая",
    };
    let theme = match (personal.theme, ru) {
        (Theme::Classic, false) => "classic",
        (Theme::HighContrast, false) => "high-contrast",
        (Theme::Classic, true) => "классическая",
        (Theme::HighContrast, true) => "контрастная",
    };
    if ru {
        lines.push("**Ваши настройки**".to_owned());
        lines.push(format!("Уведомления в личные сообщения: {}", on_off(personal.dm_notifications)));
        lines.push(format!("Ежедневная сводка: {}", on_off(personal.digest)));
        lines.push(format!("Ориентация доски: {orientation}"));
        lines.push(format!("Тема доски: {theme}"));
    } else {
        lines.push("**Your settings**".to_owned());
        lines.push(format!("Notices by direct message: {}", on_off(personal.dm_notifications)));
        lines.push(format!("Daily digest: {}", on_off(personal.digest)));
        lines.push(format!("Board orientation: {orientation}"));
        lines.push(format!("Board theme: {theme}"));
    }
    if let Some(server) = server {
        let clock = server.default_clock.unwrap_or_default();
        let clock_words = text::clock_line(clock, lang).unwrap_or_else(|| text::untimed(lang).to_owned());
        let channels = if server.channels.is_empty() {
            if ru { "все".to_owned() } else { "every channel".to_owned() }
        } else {
            server.channels.iter().map(|id| format!("<#{id}>")).collect::<Vec<_>>().join(", ")
        };
        if ru {
            lines.push("**Этот сервер** (меняют модераторы)".to_owned());
            lines.push(format!("Ветка для каждой партии: {}", on_off(server.threads)));
            lines.push(format!("Часы по умолчанию: `{clock}` ({clock_words})"));
            lines.push(format!("Каналы для партий: {channels}"));
        } else {
            lines.push("**This server** (managers change these)".to_owned());
            lines.push(format!("A thread for each game: {}", on_off(server.threads)));
            lines.push(format!("Default clock: `{clock}` ({clock_words})"));
            lines.push(format!("Channels for games: {channels}"));
        }
    }
    lines.join("\n")
}

/// The refusals of this command.
#[derive(Clone, Copy, Debug)]
enum Words {
    NotInServer,
    NotManager,
    NotText(i64),
    AllowAndDisallow(i64),
    EveryChannel,
    LastChannel(i64),
    AllAndOne,
    AllFalse,
}

fn words(lang: Lang, which: Words) -> String {
    match (which, lang) {
        (Words::NotInServer, Lang::En) => {
            "Server settings are changed in the server; your own settings (dm, digest, orientation, theme) work here."
                .to_owned()
        }
        (Words::NotInServer, Lang::Ru) => {
            "Настройки сервера меняют на сервере; здесь работают ваши личные (лс, сводка, ориентация, тема).".to_owned()
        }
        (Words::NotManager, Lang::En) => "Only members who can manage this server change its settings; \
             your own settings (dm, digest, orientation, theme) are yours to change."
            .to_owned(),
        (Words::NotManager, Lang::Ru) => "Настройки сервера меняют только те, кто может управлять сервером; \
             свои настройки (лс, сводка, ориентация, тема) вы меняете сами."
            .to_owned(),
        (Words::NotText(id), Lang::En) => format!("<#{id}> is not a text channel; games are played in text channels."),
        (Words::NotText(id), Lang::Ru) => format!("<#{id}> — не текстовый канал; партии играют в текстовых каналах."),
        (Words::AllowAndDisallow(id), Lang::En) => format!("Either allow or disallow <#{id}>, not both at once."),
        (Words::AllowAndDisallow(id), Lang::Ru) => {
            format!("Канал <#{id}> можно либо разрешить, либо запретить, не всё сразу.")
        }
        (Words::EveryChannel, Lang::En) => "Games are allowed in every channel; to limit them, allow the channels \
             for games with allow_channel, and the others close."
            .to_owned(),
        (Words::EveryChannel, Lang::Ru) => "Партии разрешены во всех каналах; чтобы ограничить их, разрешите нужные \
             каналы опцией разрешить_канал, и остальные закроются."
            .to_owned(),
        (Words::LastChannel(id), Lang::En) => format!(
            "<#{id}> is the only channel allowed for games; allow another one first, or all of them with all_channels."
        ),
        (Words::LastChannel(id), Lang::Ru) => format!(
            "<#{id}> — единственный канал для партий; сначала разрешите другой или все сразу опцией все_каналы."
        ),
        (Words::AllAndOne, Lang::En) => "Allow every channel, or allow or disallow one, not both at once.".to_owned(),
        (Words::AllAndOne, Lang::Ru) => {
            "Разрешите все каналы или разрешите либо запретите один, не всё сразу.".to_owned()
        }
        (Words::AllFalse, Lang::En) => {
            "To limit games to some channels, allow those channels with allow_channel.".to_owned()
        }
        (Words::AllFalse, Lang::Ru) => {
            "Чтобы ограничить партии некоторыми каналами, разрешите их опцией разрешить_канал.".to_owned()
        }
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
        let after = changes.apply_server(&before, Lang::En).unwrap();
        assert!(after.threads);
        assert_eq!(after.default_clock.unwrap().to_string(), "3d+7d");
        // "none" stores no default clock.
        let none = Changes { default_clock: Some("none".into()), ..Changes::default() };
        assert_eq!(none.apply_server(&after, Lang::En).unwrap().default_clock, None);
        let bad = Changes { threads: Some(true), default_clock: Some("soon".into()), ..Changes::default() };
        let error = bad.apply_server(&before, Lang::En).unwrap_err();
        assert!(error.starts_with("\"soon\" is not a clock; write a time per move such as 1d"), "{error}");
        assert!(error.ends_with('.'), "{error}");
    }

    #[test]
    fn channels_are_allowed_and_disallowed_but_never_all_closed() {
        let every = ServerSettings::default();
        let allow = |id| Changes { allow_channel: Some(channel(id)), ..Changes::default() };
        let disallow = |id| Changes { disallow_channel: Some(channel(id)), ..Changes::default() };
        let one = allow(5).apply_server(&every, Lang::En).unwrap();
        assert_eq!(one.channels, [5]);
        let two = allow(3).apply_server(&one, Lang::En).unwrap();
        assert_eq!(two.channels, [3, 5]);
        assert_eq!(allow(3).apply_server(&two, Lang::En).unwrap().channels, [3, 5], "allowing twice is once");
        assert_eq!(disallow(3).apply_server(&two, Lang::En).unwrap().channels, [5]);
        assert_eq!(disallow(9).apply_server(&two, Lang::En).unwrap().channels, [3, 5]);
        let error = disallow(5).apply_server(&one, Lang::En).unwrap_err();
        assert!(error.contains("only channel allowed"), "{error}");
        let error = disallow(5).apply_server(&every, Lang::En).unwrap_err();
        assert!(error.starts_with("Games are allowed in every channel"), "{error}");
        let both =
            Changes { allow_channel: Some(channel(5)), disallow_channel: Some(channel(5)), ..Changes::default() };
        assert!(both.apply_server(&two, Lang::En).unwrap_err().contains("not both"));
        let all = Changes { all_channels: Some(true), ..Changes::default() };
        assert!(all.apply_server(&two, Lang::En).unwrap().channels.is_empty());
        let all_and_one = Changes { all_channels: Some(true), allow_channel: Some(channel(1)), ..Changes::default() };
        assert!(all_and_one.apply_server(&two, Lang::Ru).is_err());
        let not_all = Changes { all_channels: Some(false), ..Changes::default() };
        assert!(not_all.apply_server(&every, Lang::En).unwrap_err().contains("allow_channel"));
        let voice = Changes {
            allow_channel: Some(Channel { id: 7, kind: serenity::ChannelType::Voice }),
            ..Changes::default()
        };
        assert!(voice.apply_server(&every, Lang::En).unwrap_err().contains("not a text channel"));
    }

    #[test]
    fn settings_are_shown_in_both_languages() {
        let personal = UserSettings { digest: true, orientation: Orientation::Flipped, ..UserSettings::default() };
        let server = ServerSettings { threads: true, default_clock: Some("3d".parse().unwrap()), channels: vec![5, 9] };
        let en = shown(personal, Some(&server), true, Lang::En);
        assert!(en.starts_with("Saved.\n**Your settings**"), "{en}");
        assert!(en.contains("Daily digest: on") && en.contains("Board orientation: flipped"), "{en}");
        assert!(en.contains("A thread for each game: on") && en.contains("Default clock: `3d`"), "{en}");
        assert!(en.contains("Channels for games: <#5>, <#9>"), "{en}");
        let ru = shown(personal, None, false, Lang::Ru);
        assert!(ru.starts_with("**Ваши настройки**") && ru.contains("Ежедневная сводка: вкл."), "{ru}");
        assert!(!ru.contains("сервер"), "no server part in a DM: {ru}");
        let every = shown(personal, Some(&ServerSettings::default()), false, Lang::En);
        assert!(every.contains("Channels for games: every channel") && every.contains("Default clock: `none`"));
    }

    #[test]
    fn the_command_fits_discords_limits() {
        let command = settings();
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
