//! What the bot needs in a channel to host a game there. The challenge card and every answer to
//! a click are answers to interactions, which Discord delivers whatever the channel allows; but
//! the boards and notices of a game are the bot's own messages, posted by the delivery task.
//! Without the permissions to post them, each would be refused for good and given up, and the
//! players would be left with a game they cannot see while its clock runs. So a challenge, an
//! acceptance and a new board are refused at once, with the permissions to grant, from what
//! Discord says the bot may do in the channel (`app_permissions`, sent with every interaction).

use poise::serenity_prelude::Permissions;

use crate::present::{Lang, tr};

/// The permissions of the bot's own messages in a channel (`in_thread`: a thread's) that
/// `granted` lacks; none when Discord did not say what the bot may do.
#[must_use]
pub fn missing_to_host(granted: Option<Permissions>, in_thread: bool) -> Permissions {
    let Some(granted) = granted else { return Permissions::empty() };
    if granted.contains(Permissions::ADMINISTRATOR) {
        return Permissions::empty();
    }
    let send = if in_thread { Permissions::SEND_MESSAGES_IN_THREADS } else { Permissions::SEND_MESSAGES };
    let needed = Permissions::VIEW_CHANNEL | send | Permissions::EMBED_LINKS | Permissions::ATTACH_FILES;
    needed - granted
}

/// The refusal of a challenge or an acceptance naming `missing` as Discord's settings name them,
/// in `lang`.
#[must_use]
pub fn refusal(missing: Permissions, lang: Lang) -> String {
    naming("error-bot-missing-permissions", missing, lang)
}

/// The refusal of a new board of a game going on, in its own channel, naming `missing`. Unlike a
/// challenge's, it does not say to play in another channel: a game going on stays in its channel.
#[must_use]
pub fn board_refusal(missing: Permissions, lang: Lang) -> String {
    naming("error-bot-missing-permissions-board", missing, lang)
}

/// The message `id` of `lang`, given `missing` as `permissions` (their names as Discord's
/// settings show them) and how many they are as `count`.
fn naming(id: &str, missing: Permissions, lang: Lang) -> String {
    let names: Vec<String> = [
        (Permissions::VIEW_CHANNEL, "permission-view-channel"),
        (Permissions::SEND_MESSAGES, "permission-send-messages"),
        (Permissions::SEND_MESSAGES_IN_THREADS, "permission-send-messages-in-threads"),
        (Permissions::EMBED_LINKS, "permission-embed-links"),
        (Permissions::ATTACH_FILES, "permission-attach-files"),
    ]
    .into_iter()
    .filter(|(permission, _)| missing.contains(*permission))
    .map(|(_, id)| tr!(lang, id))
    .collect();
    tr!(lang, id, count = names.len(), permissions = names.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_a_game_needs_is_asked_for_and_nothing_else() {
        let all = Permissions::VIEW_CHANNEL
            | Permissions::SEND_MESSAGES
            | Permissions::SEND_MESSAGES_IN_THREADS
            | Permissions::EMBED_LINKS
            | Permissions::ATTACH_FILES;
        assert!(missing_to_host(Some(all), false).is_empty());
        assert!(missing_to_host(None, false).is_empty(), "Discord said nothing: not refused");
        assert!(missing_to_host(Some(Permissions::ADMINISTRATOR), true).is_empty());
        let no_files = all - Permissions::ATTACH_FILES;
        assert_eq!(missing_to_host(Some(no_files), false), Permissions::ATTACH_FILES);
        // In a thread, sending there is what counts, not sending in the channel.
        let thread_only = all - Permissions::SEND_MESSAGES;
        assert!(missing_to_host(Some(thread_only), true).is_empty());
        assert_eq!(missing_to_host(Some(thread_only), false), Permissions::SEND_MESSAGES);
        assert_eq!(
            missing_to_host(Some(Permissions::empty()), true),
            all - Permissions::SEND_MESSAGES,
            "everything but the channel's send"
        );
    }

    #[test]
    fn the_refusal_names_each_permission_as_discord_does_in_both_languages() {
        let missing = Permissions::ATTACH_FILES | Permissions::EMBED_LINKS;
        assert_eq!(
            refusal(missing, Lang::discord(None)),
            "I cannot host a game in this channel: I need the permissions **Embed Links**, **Attach Files** here to \
             post its boards. A server manager can grant them to me, or you can play in another channel."
        );
        assert_eq!(
            refusal(Permissions::SEND_MESSAGES, Lang::discord(Some("ru"))),
            "Я не могу вести партию в этом канале: чтобы публиковать её доски, мне здесь нужно право \
             «Отправлять сообщения». Попросите администратора сервера выдать его или играйте в другом канале."
        );
    }

    #[test]
    fn a_new_board_is_refused_without_offering_another_channel() {
        assert_eq!(
            board_refusal(Permissions::ATTACH_FILES | Permissions::EMBED_LINKS, Lang::discord(None)),
            "I cannot post this game's board here: I need the permissions **Embed Links**, **Attach Files** here. A \
             server manager can grant them to me."
        );
        assert_eq!(
            board_refusal(Permissions::SEND_MESSAGES_IN_THREADS, Lang::discord(Some("ru"))),
            "Я не могу опубликовать здесь доску этой партии: мне нужно право «Отправлять сообщения в ветках». \
             Попросите администратора сервера выдать его мне."
        );
    }
}
