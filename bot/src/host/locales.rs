//! The languages of servers and people, for what the bot says when nobody is asking (reminders,
//! time-outs, digests, summaries the scheduler posts). Discord reports a server's locale and a
//! person's client locale with every interaction; the host keeps the latest, and a server's
//! managers may choose another language for the server. Codes are kept as Discord sends them
//! (`ru`, `en-US`); `present` maps them to the nearest language it has.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use super::{GameId, Host, HostError, User, UserId};
use crate::store;

/// How long this process trusts a server's language it read or wrote before reading it again.
/// Changes made in this process are seen at once (the entry is dropped on every write); the
/// limit only bounds how late a change made by another process on the same database is seen.
const SERVER_LANGUAGE_TTL: Duration = Duration::from_mins(1);
/// How long this process trusts that what it wrote of a person or server (a name, a locale) is
/// still what the database holds: another process on the same database may write another value,
/// and an unchanged one is written again after this long.
pub(super) const NOTED_TTL: Duration = Duration::from_mins(10);
/// Entries beyond which the caches start afresh, so that memory stays bounded however many
/// people and servers the bot meets.
const CACHE_LIMIT: usize = 100_000;

/// What this process remembers of languages, so that answering an interaction costs no database
/// read or write for them: every public message needs its server's language, and every
/// interaction reports locales that rarely change.
#[derive(Debug, Default)]
pub(super) struct LanguageCache {
    /// What was last written of each person and server, and when.
    seen: HashMap<Noted, (String, Instant)>,
    /// Servers' languages as read, and when.
    servers: HashMap<i64, (ServerLanguage, Instant)>,
    /// Bumped by every write of a server's language: a read that started before a write must not
    /// put what it read back into the cache after the write dropped it.
    generation: u64,
}

impl LanguageCache {
    fn server(&self, guild: i64, now: Instant) -> Option<ServerLanguage> {
        self.servers
            .get(&guild)
            .filter(|(_, read_at)| now.duration_since(*read_at) < SERVER_LANGUAGE_TTL)
            .map(|(language, _)| language.clone())
    }

    fn forget_server(&mut self, guild: i64) {
        self.servers.remove(&guild);
        self.generation = self.generation.wrapping_add(1);
    }

    fn note<K: std::hash::Hash + Eq, V>(map: &mut HashMap<K, V>, key: K, value: V) {
        if map.len() >= CACHE_LIMIT {
            map.clear();
        }
        map.insert(key, value);
    }
}

/// What an interaction reports that the bot keeps: a person's locale and display name, what a
/// server calls them, and a server's locale.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Noted {
    Locale(UserId),
    Name(UserId),
    /// In a server (its id), noted as `""` when they have no name there (a stored name is never
    /// empty).
    MemberName(i64, UserId),
    ServerLocale(i64),
}

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
pub(super) fn clean(locale: &str) -> Option<&str> {
    let ok = !locale.is_empty() && locale.len() <= 16 && locale.chars().all(|c| c.is_ascii_alphanumeric() || c == '-');
    ok.then_some(locale)
}

impl Host {
    /// A host that trusts what it wrote of a person or server for `ttl` only (tests of several
    /// processes on one database; see [`NOTED_TTL`]).
    #[must_use]
    pub fn with_noted_ttl(mut self, ttl: Duration) -> Host {
        self.noted_ttl = ttl;
        self
    }

    fn languages(&self) -> std::sync::MutexGuard<'_, LanguageCache> {
        self.languages.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// A server's language, as Discord reports it and as its managers chose. Read from the
    /// database once, then from this process's memory (see [`LanguageCache`]).
    pub async fn server_language(&self, guild: i64) -> Result<ServerLanguage, HostError> {
        let generation = {
            let cache = self.languages();
            if let Some(language) = cache.server(guild, Instant::now()) {
                return Ok(language);
            }
            cache.generation
        };
        let read_at = Instant::now();
        let (discord, chosen) = {
            let mut tx = self.db.begin_read().await?;
            store::servers::language(&mut tx, guild).await?
        };
        let language = ServerLanguage { discord, chosen };
        let mut cache = self.languages();
        if cache.generation == generation {
            LanguageCache::note(&mut cache.servers, guild, (language.clone(), read_at));
        }
        Ok(language)
    }

    /// Records what Discord reported with an interaction of `caller`: their display name (so
    /// that leaderboards and summaries show a renamed person's new name without waiting for
    /// their next challenge), their and the server's locales (for the scheduler's messages
    /// later), and `member_names`, what the server calls the caller and the members the
    /// interaction names (`None`: no nickname there, so their display name shows again; see
    /// [`store::member_names`]). Each value is written once per change (this process remembers
    /// what it last wrote), so the cost per interaction is a map lookup, and no write
    /// transaction is opened when nothing changed.
    pub async fn note_caller(
        &self,
        caller: &User,
        user_locale: Option<&str>,
        guild: Option<i64>,
        guild_locale: Option<&str>,
        member_names: &[(UserId, Option<&str>)],
        now: i64,
    ) -> Result<(), HostError> {
        let fresh = |key: Noted, value: Option<String>| {
            let cache = self.languages();
            // Written again once in a while even when unchanged here: another process on the
            // same database may have written another value since (a name changed and back).
            value.filter(|value| {
                cache.seen.get(&key).is_none_or(|(seen, at)| seen != value || at.elapsed() >= self.noted_ttl)
            })
        };
        let user = caller.id;
        let name_new = fresh(Noted::Name(user), Some(super::clean_name(&caller.name)));
        let user_new = fresh(Noted::Locale(user), user_locale.and_then(clean).map(str::to_owned));
        let guild_new = guild.and_then(|g| {
            fresh(Noted::ServerLocale(g), guild_locale.and_then(clean).map(str::to_owned)).map(|l| (g, l))
        });
        // Discord reports members only in a server. In the order of their rows, so that two
        // interactions naming the same two people never wait for each other's rows in a cycle.
        let mut members_new: Vec<(i64, UserId, String)> = guild
            .map(|g| {
                member_names
                    .iter()
                    .filter_map(|&(user, name)| {
                        let name = name.and_then(super::clean_member_name).unwrap_or_default();
                        fresh(Noted::MemberName(g, user), Some(name)).map(|name| (g, user, name))
                    })
                    .collect()
            })
            .unwrap_or_default();
        members_new.sort_unstable_by_key(|&(guild, user, _)| (guild, user));
        members_new.dedup_by_key(|&mut (guild, user, _)| (guild, user));
        if name_new.is_none() && user_new.is_none() && guild_new.is_none() && members_new.is_empty() {
            return Ok(());
        }
        let user_known = transaction!(self.db.begin_write(), |tx| {
            let mut user_known = false;
            if let Some(name) = &name_new {
                user_known = store::users::rename(&mut tx, user, name, now).await?;
            }
            if let Some(locale) = &user_new {
                user_known = store::users::remember_locale(&mut tx, user, locale, now).await?;
            }
            if let Some((guild, locale)) = &guild_new {
                store::servers::remember_locale(&mut tx, *guild, locale, now).await?;
            }
            for (guild, user, name) in &members_new {
                let name = Some(name.as_str()).filter(|name| !name.is_empty());
                store::member_names::set(&mut tx, *guild, *user, name, now).await?;
            }
            Ok(user_known)
        })?;
        let mut cache = self.languages();
        // A person not recorded yet has nowhere to keep a name or a locale: they are written
        // once the person is (with a first challenge or game).
        if user_known {
            if let Some(name) = name_new {
                LanguageCache::note(&mut cache.seen, Noted::Name(user), (name, Instant::now()));
            }
            if let Some(locale) = user_new {
                LanguageCache::note(&mut cache.seen, Noted::Locale(user), (locale, Instant::now()));
            }
        }
        if let Some((guild, locale)) = guild_new {
            cache.forget_server(guild);
            LanguageCache::note(&mut cache.seen, Noted::ServerLocale(guild), (locale, Instant::now()));
        }
        for (guild, user, name) in members_new {
            LanguageCache::note(&mut cache.seen, Noted::MemberName(guild, user), (name, Instant::now()));
        }
        Ok(())
    }

    /// Forgets what the cache holds of a server's language, after a transaction changed it.
    pub(super) fn forget_server_language(&self, guild: i64) {
        self.languages().forget_server(guild);
    }

    /// Sets the language of a server's public messages, or with `None` follows the server's
    /// own locale again. The caller checks the code is a language the bot speaks.
    pub async fn set_server_language(&self, guild: i64, chosen: Option<&str>, now: i64) -> Result<(), HostError> {
        transaction!(self.db.begin_write(), |tx| {
            store::servers::set_language(&mut tx, guild, chosen.and_then(clean), now).await?;
            Ok(())
        })?;
        self.languages().forget_server(guild);
        Ok(())
    }

    /// The server a game is played in, whose language its public messages speak: one row read,
    /// without rebuilding the game.
    pub async fn game_guild(&self, game: GameId) -> Result<i64, HostError> {
        let mut tx = self.db.begin_read().await?;
        store::games::guild(&mut tx, game).await?.ok_or(HostError::NoSuchGame(game))
    }

    /// A person's client locale as last reported, if known.
    pub async fn user_locale(&self, user: UserId) -> Result<Option<String>, HostError> {
        let mut tx = self.db.begin_read().await?;
        Ok(store::users::locale(&mut tx, user).await?)
    }
}
