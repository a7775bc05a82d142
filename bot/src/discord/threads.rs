//! A thread per game, on servers whose managers turned threads on (`/tafl settings threads`).
//!
//! The thread is started from the board message, so the board stays in the channel (edited in
//! place after every move) and the thread hangs under it: the notices, offers and the summary go
//! into the thread ([`super::play::game_channel`] prefers it), and `/tafl move` typed there finds
//! the game. A thread is a comfort, not a condition: when it cannot be made (the bot lacks the
//! permission, or the game was started inside a thread), the game goes on in the channel.

use poise::serenity_prelude as serenity;

use super::play::now;
use super::retry::with_retries;
use super::{BotError, Data};
use crate::host::GameView;
use crate::present::Lang;
use crate::present::markup::plain_name;
use crate::present::text;

/// Discord's longest channel (and thread) name, in characters.
pub const MAX_NAME: usize = 100;
/// The most characters of one player's name a thread name shows.
const MAX_PLAYER: usize = 32;
/// Discord's error code for a message that already has a thread.
const THREAD_EXISTS: isize = 160_004;

/// The name of a game's thread: `Alice vs Bob · Brandubh #3` (attackers first, as they move
/// first), at most [`MAX_NAME`] characters whatever the players call themselves.
#[must_use]
pub fn thread_name(game: &GameView, lang: Lang) -> String {
    // The bot by its name in the server's language, as everywhere else it is drawn or written.
    let (attacker, defender) = (plain_name(lang, &game.attacker), plain_name(lang, &game.defender));
    name_for(&attacker, &defender, &text::variant_name(&game.variant, lang), game.id, lang)
}

/// [`thread_name`] from its parts. Control characters and runs of spaces in names are
/// flattened; long names are shortened (with `…`) so that the variant and number always fit.
#[must_use]
pub fn name_for(first: &str, second: &str, variant: &str, id: i64, lang: Lang) -> String {
    let number = text::short_number(id, lang);
    let suffix = format!(" · {} {number}", one_line(variant, MAX_NAME / 2));
    let versus = format!(" {} ", crate::present::tr!(lang, "thread-versus"));
    let room = MAX_NAME.saturating_sub(suffix.chars().count() + versus.chars().count()) / 2;
    let limit = room.clamp(1, MAX_PLAYER);
    let name = format!("{}{versus}{}{suffix}", one_line(first, limit), one_line(second, limit));
    name.chars().take(MAX_NAME).collect()
}

/// `text` on one line with single spaces, at most `limit` characters (the last one `…` when it
/// was cut), and `?` when nothing is left.
fn one_line(text: &str, limit: usize) -> String {
    let flat: String = text.chars().map(|c| if c.is_control() { ' ' } else { c }).collect();
    let words = flat.split_whitespace().collect::<Vec<_>>().join(" ");
    if words.is_empty() {
        return "?".to_owned();
    }
    if words.chars().count() <= limit {
        return words;
    }
    let mut short: String = words.chars().take(limit.saturating_sub(1)).collect();
    short.truncate(short.trim_end().len());
    short.push('…');
    short
}

/// Opens the thread of a game that has just started on `message` in `channel`, when its server
/// wants threads, and records it so the game's messages go there. Returns the thread's id, or
/// `None` when its server has threads off. A failure is returned for the outbox to judge like
/// any delivery's: tried again while Discord or the database is unavailable (marked done, a game
/// would have lost its thread to a moment's outage), given up when Discord refuses for good (no
/// permission; the game then stays in the channel).
pub async fn open(
    http: &serenity::Http,
    data: &Data,
    game: &GameView,
    channel: serenity::ChannelId,
    message: serenity::MessageId,
    lang: Lang,
) -> Result<Option<i64>, BotError> {
    if game.place.thread.is_some() || game.place.guild == 0 {
        return Ok(None);
    }
    if !data.host.server_settings(game.place.guild).await?.threads {
        return Ok(None);
    }
    let builder = serenity::CreateThread::new(thread_name(game, lang))
        .auto_archive_duration(serenity::AutoArchiveDuration::OneWeek);
    let thread = match with_retries(|| channel.create_thread_from_message(http, message, builder.clone())).await {
        Ok(thread) => thread.id,
        // An earlier attempt reached Discord but its answer was lost: a thread started from a
        // message has the message's id.
        Err(error) if discord_code(&error) == Some(THREAD_EXISTS) => serenity::ChannelId::new(message.get()),
        Err(error) => return Err(error.into()),
    };
    let thread = thread.get() as i64;
    // Should this fail, the next try finds the thread made (`THREAD_EXISTS`) and records it.
    data.host.set_thread(game.id, thread, now()).await?;
    Ok(Some(thread))
}

/// Whether a channel is a thread (where no thread can be started).
#[must_use]
pub fn is_thread(kind: serenity::ChannelType) -> bool {
    matches!(
        kind,
        serenity::ChannelType::PublicThread | serenity::ChannelType::PrivateThread | serenity::ChannelType::NewsThread
    )
}

/// Discord's JSON error code of a refused request.
fn discord_code(error: &serenity::Error) -> Option<isize> {
    match error {
        serenity::Error::Http(serenity::HttpError::UnsuccessfulRequest(response)) => Some(response.error.code),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_thread_is_named_after_the_players_and_variant() {
        assert_eq!(name_for("Alice", "Bob", "Brandubh", 3, Lang::discord(None)), "Alice vs Bob · Brandubh #3");
        assert_eq!(name_for("Алиса", "Боб", "Brandubh", 3, Lang::discord(Some("ru"))), "Алиса — Боб · Brandubh №3");
    }

    #[test]
    fn a_game_against_the_bot_names_its_thread_after_the_bot_in_the_servers_language() {
        let bot = crate::host::bot_user(tafl_rules::engine::Level::new(3).unwrap());
        let game = GameView::sample(
            4,
            tafl_rules::Variant::Brandubh,
            crate::host::User::new(bot, "Tafl bot (level 3)"),
            crate::host::User::new(2, "Алиса"),
        );
        assert_eq!(thread_name(&game, Lang::discord(Some("ru"))), "Тафл-бот (уровень 3) — Алиса · Брандубх №4");
        assert_eq!(thread_name(&game, Lang::discord(None)), "Tafl bot (level 3) vs Алиса · Brandubh #4");
    }

    #[test]
    fn a_direction_override_in_a_name_does_not_turn_the_title_round() {
        let game = GameView::sample(
            5,
            tafl_rules::Variant::Brandubh,
            crate::host::User::new(1, "\u{202e}Mallory"),
            crate::host::User::new(2, "Bob\u{2067}"),
        );
        assert_eq!(thread_name(&game, Lang::discord(None)), "Mallory vs Bob · Brandubh #5");
    }

    #[test]
    fn names_are_flattened_and_never_empty() {
        assert_eq!(name_for("  Al\nice  ", "\u{7}", "Tablut", 12, Lang::discord(None)), "Al ice vs ? · Tablut #12");
        assert_eq!(name_for("", "   ", "Tablut", 1, Lang::discord(None)), "? vs ? · Tablut #1");
    }

    #[test]
    fn long_names_are_shortened_and_the_variant_and_number_still_fit() {
        let long = "W".repeat(300);
        let name = name_for(&long, &long, "Alea Evangelii", i64::MAX, Lang::discord(None));
        assert!(name.chars().count() <= MAX_NAME, "{} chars: {name}", name.chars().count());
        assert!(name.ends_with(&format!(" · Alea Evangelii #{}", i64::MAX)), "{name}");
        assert!(name.contains("W… vs W"), "{name}");
        // Names of up to 32 characters are kept whole.
        let name = name_for(&"a".repeat(32), &"b".repeat(32), "Copenhagen", 7, Lang::discord(None));
        assert_eq!(name, format!("{} vs {} · Copenhagen #7", "a".repeat(32), "b".repeat(32)));
        // Multi-byte names are counted in characters, not bytes.
        let name = name_for(&"Ж".repeat(80), &"Я".repeat(80), &"V".repeat(200), 5, Lang::discord(Some("ru")));
        assert!(name.chars().count() <= MAX_NAME, "{name}");
        assert!(name.contains("Ж") && name.contains("Я"), "{name}");
    }

    #[test]
    fn threads_are_recognised() {
        assert!(is_thread(serenity::ChannelType::PublicThread));
        assert!(!is_thread(serenity::ChannelType::Text));
    }
}
