//! Personal and server settings, stored as JSON objects in `users.settings` and
//! `servers.settings`.
//!
//! Reading is forgiving, so that settings written by an older or newer bot still load: unknown
//! keys are ignored, missing keys take their defaults, and a value that cannot be read (or a
//! damaged object) falls back to the default for that key rather than failing a command.

use serde::{Deserialize, Serialize};
use tafl_render::{Orientation, Theme};

use super::locales::{ServerLanguage, clean};
use super::{Clock, Host, HostError, User, UserId, clean_name};
use crate::store;

/// The most channels a server may restrict the bot to (a Discord server has at most 500
/// channels; a list this long is a mistake, not a configuration).
pub const MAX_CHANNELS: usize = 100;

/// A person's settings.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct UserSettings {
    /// What asks something of them also comes by direct message: "your move" and offers to
    /// answer (in games against people), reminders, a claim that has become possible, and paused
    /// games that may be ended.
    #[serde(deserialize_with = "lenient")]
    pub dm_notifications: bool,
    /// A daily direct message listing the games where it is their turn.
    #[serde(deserialize_with = "lenient")]
    pub digest: bool,
    /// How their boards are drawn: `standard` (a1 bottom-left) or `flipped`.
    #[serde(with = "orientation_name")]
    pub orientation: Orientation,
    /// `classic` or `high-contrast`.
    #[serde(with = "theme_name")]
    pub theme: Theme,
}

/// How a board picture is drawn: a player's choice for the boards they post
/// ([`UserSettings::board_style`]), kept with the game's board message so that every edit of it
/// is drawn alike.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BoardStyle {
    pub orientation: Orientation,
    pub theme: Theme,
}

impl BoardStyle {
    /// The style as stored, by name; a name not known (a damaged row) reads as the default.
    #[must_use]
    pub fn from_names(orientation: &str, theme: &str) -> BoardStyle {
        BoardStyle {
            orientation: parse_orientation(orientation).unwrap_or_default(),
            theme: Theme::from_name(theme).unwrap_or_default(),
        }
    }

    /// The style's names, for storing.
    #[must_use]
    pub fn names(self) -> crate::store::messages::StyleNames<'static> {
        crate::store::messages::StyleNames { orientation: orientation_name(self.orientation), theme: self.theme.name() }
    }
}

impl UserSettings {
    /// The style of the boards this person posts.
    #[must_use]
    pub fn board_style(&self) -> BoardStyle {
        BoardStyle { orientation: self.orientation, theme: self.theme }
    }
}

/// A server's settings, changed by its managers.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct ServerSettings {
    /// Each new game gets its own thread.
    #[serde(deserialize_with = "lenient")]
    pub threads: bool,
    /// The clock of a challenge that names none; `None` leaves such games untimed.
    #[serde(deserialize_with = "lenient")]
    pub default_clock: Option<Clock>,
    /// The channels where games may be played; empty for every channel.
    #[serde(deserialize_with = "lenient")]
    pub channels: Vec<i64>,
}

impl ServerSettings {
    /// Whether games may be played in `channel`.
    #[must_use]
    pub fn allows(&self, channel: i64) -> bool {
        self.channels.is_empty() || self.channels.contains(&channel)
    }
}

/// The name of an orientation in settings and commands.
#[must_use]
pub const fn orientation_name(orientation: Orientation) -> &'static str {
    match orientation {
        Orientation::Standard => "standard",
        Orientation::Flipped => "flipped",
    }
}

/// Reads an orientation name (`standard`, `flipped`; `normal` and `rotated` too).
#[must_use]
pub fn parse_orientation(name: &str) -> Option<Orientation> {
    match name.trim().to_ascii_lowercase().as_str() {
        "standard" | "normal" | "default" => Some(Orientation::Standard),
        "flipped" | "flip" | "rotated" => Some(Orientation::Flipped),
        _ => None,
    }
}

/// A field read as its default when its value has the wrong type.
fn lenient<'de, D, T>(deserializer: D) -> Result<T, D::Error>
where
    D: serde::Deserializer<'de>,
    T: serde::de::DeserializeOwned + Default,
{
    let value = serde_json::Value::deserialize(deserializer)?;
    Ok(serde_json::from_value(value).unwrap_or_default())
}

mod orientation_name {
    use serde::{Deserialize, Deserializer, Serializer};
    use tafl_render::Orientation;

    // serde's `with` calls `serialize(&value, serializer)`: the reference is its signature.
    #[allow(clippy::trivially_copy_pass_by_ref)]
    pub fn serialize<S: Serializer>(orientation: &Orientation, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(super::orientation_name(*orientation))
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Orientation, D::Error> {
        let value = serde_json::Value::deserialize(deserializer)?;
        Ok(value.as_str().and_then(super::parse_orientation).unwrap_or_default())
    }
}

mod theme_name {
    use serde::{Deserialize, Deserializer, Serializer};
    use tafl_render::Theme;

    // serde's `with` calls `serialize(&value, serializer)`: the reference is its signature.
    #[allow(clippy::trivially_copy_pass_by_ref)]
    pub fn serialize<S: Serializer>(theme: &Theme, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(theme.name())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Theme, D::Error> {
        let value = serde_json::Value::deserialize(deserializer)?;
        Ok(value.as_str().and_then(Theme::from_name).unwrap_or_default())
    }
}

/// Settings read from stored JSON: a damaged object gives the defaults (logged).
pub(super) fn read<T: serde::de::DeserializeOwned + Default>(json: &str, what: &str, id: i64) -> T {
    serde_json::from_str(json).unwrap_or_else(|error| {
        tracing::warn!(%error, id, what, "stored settings cannot be read; using the defaults");
        T::default()
    })
}

fn write<T: Serialize>(settings: &T) -> Result<String, HostError> {
    serde_json::to_string(settings).map_err(|error| {
        tracing::error!(%error, "settings cannot be written as JSON");
        HostError::Internal
    })
}

impl Host {
    /// A person's settings; the defaults for someone never seen.
    pub async fn user_settings(&self, user: UserId) -> Result<UserSettings, HostError> {
        let mut tx = self.db.begin_read().await?;
        let row = store::users::find(&mut tx, user).await?;
        Ok(row.map_or_else(UserSettings::default, |row| read(&row.settings, "user", user)))
    }

    /// Replaces a person's settings (remembering them on first use). Turning the digest on
    /// schedules the first one a day later.
    pub async fn set_user_settings(&self, user: &User, settings: &UserSettings, now: i64) -> Result<(), HostError> {
        self.change_user_settings(user, now, |_| *settings).await.map(|_| ())
    }

    /// Changes a person's settings as `change` says, read and written in one transaction, so
    /// that two changes at once cannot undo each other; returns the settings now in force.
    /// `change` is called again when the transaction is run again after a conflict.
    pub async fn change_user_settings(
        &self,
        user: &User,
        now: i64,
        change: impl Fn(UserSettings) -> UserSettings,
    ) -> Result<UserSettings, HostError> {
        transaction!(self.db.begin_write(), |tx| { change_user_in(&mut tx, user, now, &change).await })
    }

    /// A server's settings; the defaults for a server never configured.
    pub async fn server_settings(&self, guild: i64) -> Result<ServerSettings, HostError> {
        let mut tx = self.db.begin_read().await?;
        let json = store::servers::settings(&mut tx, guild).await?;
        Ok(read(&json, "server", guild))
    }

    /// Replaces a server's settings. The channel list is kept sorted without repeats; a list
    /// longer than [`MAX_CHANNELS`] is refused.
    pub async fn set_server_settings(&self, guild: i64, settings: &ServerSettings, now: i64) -> Result<(), HostError> {
        self.change_server_settings(guild, now, |_| Ok::<_, HostError>(settings.clone())).await?.map(|_| ())
    }

    /// Changes a server's settings as `change` says (or not, when it refuses), read and written
    /// in one transaction; returns the settings now in force, or `change`'s refusal.
    pub async fn change_server_settings<E>(
        &self,
        guild: i64,
        now: i64,
        change: impl Fn(&ServerSettings) -> Result<ServerSettings, E>,
    ) -> Result<Result<ServerSettings, E>, HostError> {
        transaction!(
            self.db.begin_write(),
            |tx| { change_server_in(&mut tx, guild, now, &change).await },
            commit_if(Result::is_ok)
        )
    }

    /// What one `/tafl settings` asks: a server's settings and language (its managers'), and the
    /// caller's own settings, saved in one transaction, all or nothing, so that a refusal or a
    /// failure part way leaves every setting as it was. Returns every setting the answer shows,
    /// read in that same transaction (a read after the commit could fail and leave a saved
    /// change answered as a failure), or the server change's refusal. Asking no change reads
    /// them in a read transaction.
    pub async fn change_settings<E>(
        &self,
        user: &User,
        place: SettingsPlace<impl Fn(&ServerSettings) -> Result<ServerSettings, E>>,
        person: Option<impl Fn(UserSettings) -> UserSettings>,
        now: i64,
    ) -> Result<Result<SettingsInForce, E>, HostError> {
        let (guild, server) = match &place {
            SettingsPlace::Dm => (None, None),
            SettingsPlace::Server { guild, change } => (Some(*guild), change.as_ref()),
        };
        if server.is_none() && person.is_none() {
            let mut tx = self.db.begin_read().await?;
            return Ok(Ok(settings_in(&mut tx, user.id, guild).await?));
        }
        let changed = transaction!(
            self.db.begin_write(),
            |tx| {
                if let (Some(guild), Some(server)) = (guild, server) {
                    if let Err(refusal) = change_server_in(&mut tx, guild, now, &server.change).await? {
                        return Ok(Err(refusal));
                    }
                    if let Some(language) = &server.language {
                        store::servers::set_language(&mut tx, guild, language.as_deref().and_then(clean), now).await?;
                    }
                }
                if let Some(change) = &person {
                    change_user_in(&mut tx, user, now, change).await?;
                }
                Ok(Ok(settings_in(&mut tx, user.id, guild).await?))
            },
            commit_if(Result::is_ok)
        );
        if let (Ok(Ok(_)), Some(guild), Some(ServerChange { language: Some(_), .. })) = (&changed, guild, server) {
            self.forget_server_language(guild);
        }
        changed
    }
}

/// Where `/tafl settings` was used, with the server's change its managers asked there.
pub enum SettingsPlace<S> {
    /// In direct messages: only the caller's own settings exist there.
    Dm,
    /// In a server, with a change to its settings when one was asked.
    Server { guild: i64, change: Option<ServerChange<S>> },
}

impl<S> std::fmt::Debug for SettingsPlace<S> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SettingsPlace::Dm => f.write_str("Dm"),
            SettingsPlace::Server { guild, change } => {
                f.debug_struct("Server").field("guild", guild).field("change", change).finish()
            }
        }
    }
}

/// Every setting `/tafl settings` shows: the caller's, and the server's where it was used.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SettingsInForce {
    pub personal: UserSettings,
    pub server: Option<(ServerSettings, ServerLanguage)>,
}

/// The settings in force for `user`, and for `guild`'s server when given, as `tx` sees them.
async fn settings_in(tx: &mut super::Conn, user: UserId, guild: Option<i64>) -> Result<SettingsInForce, HostError> {
    let personal =
        store::users::find(tx, user).await?.map_or_else(UserSettings::default, |row| read(&row.settings, "user", user));
    let server = match guild {
        Some(guild) => {
            let settings = read(&store::servers::settings(tx, guild).await?, "server", guild);
            let (discord, chosen) = store::servers::language(tx, guild).await?;
            Some((settings, ServerLanguage { discord, chosen }))
        }
        None => None,
    };
    Ok(SettingsInForce { personal, server })
}

/// A server's part of [`Host::change_settings`]: its settings as `change` makes them, and its
/// language when `language` is given (`Some(None)`: follow the server's own locale again; the
/// caller checks the code is a language the bot speaks).
pub struct ServerChange<S> {
    pub change: S,
    pub language: Option<Option<String>>,
}

impl<S> std::fmt::Debug for ServerChange<S> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ServerChange").field("language", &self.language).finish_non_exhaustive()
    }
}

/// Changes a person's settings in `tx` (remembering them on first use); turning the digest on
/// schedules the first one a day later.
async fn change_user_in(
    tx: &mut super::Conn,
    user: &User,
    now: i64,
    change: impl FnOnce(UserSettings) -> UserSettings,
) -> Result<UserSettings, HostError> {
    store::users::remember(tx, user.id, &clean_name(&user.name), now).await?;
    store::users::lock(tx, user.id).await?;
    let current = store::users::find(tx, user.id)
        .await?
        .map_or_else(UserSettings::default, |row| read(&row.settings, "user", user.id));
    let settings = change(current);
    let json = write(&settings)?;
    store::users::set_settings(tx, user.id, &json, now).await?;
    // The digest's schedule lives in its own column (found by index): the first one comes a day
    // after turning it on, and turning it on again keeps the schedule it has.
    let due = store::users::digest_due(tx, user.id).await?;
    let due = match (settings.digest, due) {
        (true, Some(due)) => Some(due),
        (true, None) => Some(now.saturating_add(super::scheduler::DIGEST_INTERVAL)),
        (false, _) => None,
    };
    store::users::set_digest_due(tx, user.id, due).await?;
    Ok(settings)
}

/// Changes a server's settings in `tx` (or not, when `change` refuses). The channel list is kept
/// sorted without repeats; a list longer than [`MAX_CHANNELS`] is refused.
async fn change_server_in<E>(
    tx: &mut super::Conn,
    guild: i64,
    now: i64,
    change: impl FnOnce(&ServerSettings) -> Result<ServerSettings, E>,
) -> Result<Result<ServerSettings, E>, HostError> {
    store::servers::lock(tx, guild, now).await?;
    let current: ServerSettings = read(&store::servers::settings(tx, guild).await?, "server", guild);
    let mut settings = match change(&current) {
        Ok(settings) => settings,
        Err(refusal) => return Ok(Err(refusal)),
    };
    settings.channels.sort_unstable();
    settings.channels.dedup();
    if settings.channels.len() > MAX_CHANNELS {
        return Err(HostError::TooManyChannels { max: MAX_CHANNELS });
    }
    let json = write(&settings)?;
    store::servers::set_settings(tx, guild, &json, now).await?;
    Ok(Ok(settings))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn missing_keys_take_their_defaults_and_unknown_keys_are_ignored() {
        let settings: UserSettings = serde_json::from_str(r#"{"digest":true,"colour":"pink"}"#).unwrap();
        assert_eq!(settings, UserSettings { digest: true, ..UserSettings::default() });
        let empty: ServerSettings = serde_json::from_str("{}").unwrap();
        assert_eq!(empty, ServerSettings::default());
        assert!(empty.allows(12345), "no list allows every channel");
    }

    #[test]
    fn settings_are_written_with_readable_names_and_read_back() {
        let user = UserSettings {
            dm_notifications: true,
            digest: false,
            orientation: Orientation::Flipped,
            theme: Theme::HighContrast,
        };
        let json = serde_json::to_string(&user).unwrap();
        assert!(json.contains(r#""orientation":"flipped""#) && json.contains(r#""theme":"high-contrast""#), "{json}");
        assert_eq!(serde_json::from_str::<UserSettings>(&json).unwrap(), user);
        let server =
            ServerSettings { threads: true, default_clock: Some("3d+7d".parse().unwrap()), channels: vec![5, 9] };
        let json = serde_json::to_string(&server).unwrap();
        assert!(json.contains(r#""default_clock":"3d+7d""#), "{json}");
        assert_eq!(serde_json::from_str::<ServerSettings>(&json).unwrap(), server);
        assert!(server.allows(9) && !server.allows(6));
    }

    #[test]
    fn a_value_of_the_wrong_kind_falls_back_to_its_default_only() {
        let settings: UserSettings =
            serde_json::from_str(r#"{"dm_notifications":"yes","digest":true,"theme":"neon","orientation":3}"#).unwrap();
        assert_eq!(settings, UserSettings { digest: true, ..UserSettings::default() });
        let server: ServerSettings =
            serde_json::from_str(r#"{"threads":true,"default_clock":"10 years","channels":"all"}"#).unwrap();
        assert_eq!(server, ServerSettings { threads: true, ..ServerSettings::default() });
    }

    #[test]
    fn a_damaged_object_reads_as_the_defaults() {
        assert_eq!(read::<UserSettings>("not json", "user", 1), UserSettings::default());
        assert_eq!(read::<ServerSettings>("[1,2]", "server", 1), ServerSettings::default());
    }

    #[test]
    fn orientations_have_names() {
        for orientation in [Orientation::Standard, Orientation::Flipped] {
            assert_eq!(parse_orientation(orientation_name(orientation)), Some(orientation));
        }
        assert_eq!(parse_orientation("sideways"), None);
    }
}
