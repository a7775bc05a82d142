//! The languages of servers and people, for what the bot says when nobody is asking (reminders,
//! time-outs, digests, summaries the scheduler posts). Discord reports a server's locale and a
//! person's client locale with every interaction; the host keeps the latest, and a server's
//! managers may choose another language for the server. Codes are kept as Discord sends them
//! (`ru`, `en-US`); `present` maps them to the nearest language it has.

use super::{Host, HostError, UserId};
use crate::store;

/// What the bot knows of a server's language.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ServerLanguage {
    /// The server's own locale, as Discord last reported it.
    pub discord: Option<String>,
    /// The language its managers chose with `/tafl settings language`.
    pub chosen: Option<String>,
}

impl ServerLanguage {
    /// The language public messages use: the chosen one, else the server's own.
    #[must_use]
    pub fn code(&self) -> Option<&str> {
        self.chosen.as_deref().or(self.discord.as_deref())
    }
}

/// A locale code as stored: Discord's codes are short tags of letters, digits and `-`; anything
/// else (or longer) is not a locale and is not stored.
fn clean(locale: &str) -> Option<&str> {
    let ok = !locale.is_empty() && locale.len() <= 16 && locale.chars().all(|c| c.is_ascii_alphanumeric() || c == '-');
    ok.then_some(locale)
}

impl Host {
    /// A server's language, as Discord reports it and as its managers chose.
    pub async fn server_language(&self, guild: i64) -> Result<ServerLanguage, HostError> {
        let mut tx = self.db.begin_read().await?;
        let (discord, chosen) = store::servers::language(&mut tx, guild).await?;
        Ok(ServerLanguage { discord, chosen })
    }

    /// Records the locales Discord reported with an interaction. Each value is written once per
    /// change (this process remembers what it last wrote), so the cost per interaction is a map
    /// lookup.
    pub async fn note_locales(
        &self,
        user: UserId,
        user_locale: Option<&str>,
        guild: Option<i64>,
        guild_locale: Option<&str>,
        now: i64,
    ) -> Result<(), HostError> {
        let fresh = |key: (bool, i64), value: Option<&str>| {
            let value = value.and_then(clean)?;
            let seen = self.seen_locales.lock().expect("the locale cache is never poisoned");
            (seen.get(&key).map(String::as_str) != Some(value)).then(|| value.to_owned())
        };
        let user_new = fresh((false, user), user_locale);
        let guild_new = guild.and_then(|g| fresh((true, g), guild_locale).map(|l| (g, l)));
        if user_new.is_none() && guild_new.is_none() {
            return Ok(());
        }
        let mut tx = self.db.begin_write().await?;
        if let Some(locale) = &user_new {
            store::users::remember_locale(&mut tx, user, locale, now).await?;
        }
        if let Some((guild, locale)) = &guild_new {
            store::servers::remember_locale(&mut tx, *guild, locale, now).await?;
        }
        tx.commit().await?;
        let mut seen = self.seen_locales.lock().expect("the locale cache is never poisoned");
        if let Some(locale) = user_new {
            seen.insert((false, user), locale);
        }
        if let Some((guild, locale)) = guild_new {
            seen.insert((true, guild), locale);
        }
        Ok(())
    }

    /// Sets the language of a server's public messages, or with `None` follows the server's
    /// own locale again. The caller checks the code is a language the bot speaks.
    pub async fn set_server_language(&self, guild: i64, chosen: Option<&str>, now: i64) -> Result<(), HostError> {
        let mut tx = self.db.begin_write().await?;
        store::servers::set_language(&mut tx, guild, chosen.and_then(clean), now).await?;
        tx.commit().await?;
        Ok(())
    }

    /// A person's client locale as last reported, if known.
    pub async fn user_locale(&self, user: UserId) -> Result<Option<String>, HostError> {
        let mut tx = self.db.begin_read().await?;
        Ok(store::users::locale(&mut tx, user).await?)
    }
}
