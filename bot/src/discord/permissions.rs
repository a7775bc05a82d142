//! What the bot needs in a channel to host a game there. The challenge card and every answer to
//! a click are answers to interactions, which Discord delivers whatever the channel allows; but
//! the boards and notices of a game are the bot's own messages, posted by the delivery task.
//! Without the permissions to post them, each would be refused for good and given up, and the
//! players would be left with a game they cannot see while its clock runs. So a challenge, an
//! acceptance and a new board are refused at once, with the permissions to grant, from what
//! Discord says the bot may do in the channel (`app_permissions`, sent with every interaction).

use poise::serenity_prelude::{ChannelId, Permissions};

use crate::host::{GameView, Show};
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

/// The sentence added to the private answer of what changed `game` (a move, a resignation, an
/// answer to an offer) from `here`, when Discord says (`granted`) that the bot may not post the
/// game's messages there. What was done stands: refused, a move would leave the player's clock
/// running until the permission came back. But its board and its notices are refused until then,
/// and nothing else would tell the player why their opponent never heard of it. Only where the
/// game's notices go (its thread, or its channel): elsewhere, what Discord says is about another
/// channel.
#[must_use]
pub fn unseen_note(granted: Option<Permissions>, here: ChannelId, game: &GameView, lang: Lang) -> Option<String> {
    if here != super::play::game_channel(game) {
        return None;
    }
    let missing = missing_to_host(granted, game.place.thread.is_some());
    (!missing.is_empty()).then(|| naming("unseen-here", missing, lang))
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

/// What the bot needs where an outbox item is shown (`in_thread`: its request went into a
/// thread, where sending is a permission of its own), for the log line of an item Discord refused
/// for want of permission, so that an owner knows what to grant; none for a DM. Discord lets the
/// bot edit and delete its own messages without Send Messages, but not attach files or embeds.
#[must_use]
pub fn needed_for(show: &Show, in_thread: bool) -> Permissions {
    let send = if in_thread { Permissions::SEND_MESSAGES_IN_THREADS } else { Permissions::SEND_MESSAGES };
    let picture = Permissions::EMBED_LINKS | Permissions::ATTACH_FILES;
    let seen = Permissions::VIEW_CHANNEL;
    match show {
        // Posted, or edited: a board is posted anew when its message is gone.
        Show::Board { .. } | Show::NewBoard { .. } | Show::Summary { .. } => seen | send | picture,
        Show::Review { .. } => seen | picture,
        Show::Thread { .. } => seen | Permissions::CREATE_PUBLIC_THREADS,
        Show::YourMove { .. } | Show::Offer { .. } | Show::Reminder { .. } | Show::Claimable { .. } => seen | send,
        Show::ChallengeClosed { .. } => seen | Permissions::EMBED_LINKS,
        Show::RetireBoard { .. } | Show::Delete { .. } => seen,
        Show::Digest { .. } | Show::PausedGames { .. } | Show::ChannelGone { .. } => Permissions::empty(),
    }
}

/// `permissions` as Discord's settings name them, in English, for an operator's log line:
/// "View Channel, Send Messages and Attach Files".
#[must_use]
pub fn english_names(permissions: Permissions) -> String {
    let names: Vec<&str> = [
        (Permissions::VIEW_CHANNEL, "View Channel"),
        (Permissions::SEND_MESSAGES, "Send Messages"),
        (Permissions::SEND_MESSAGES_IN_THREADS, "Send Messages in Threads"),
        (Permissions::CREATE_PUBLIC_THREADS, "Create Public Threads"),
        (Permissions::EMBED_LINKS, "Embed Links"),
        (Permissions::ATTACH_FILES, "Attach Files"),
    ]
    .into_iter()
    .filter(|(permission, _)| permissions.contains(*permission))
    .map(|(_, name)| name)
    .collect();
    match names.split_last() {
        None => String::new(),
        Some((last, [])) => (*last).to_owned(),
        Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
    }
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
    fn an_item_refused_for_want_of_permission_names_what_its_kind_needs() {
        let names = |show: &Show, in_thread: bool| english_names(needed_for(show, in_thread));
        let notice = Show::YourMove { game: 1, ply: 3, after_takeback: false, again: false };
        assert_eq!(names(&notice, false), "View Channel and Send Messages");
        assert_eq!(names(&notice, true), "View Channel and Send Messages in Threads");
        assert_eq!(
            names(&Show::Board { game: 1, ply: 3 }, false),
            "View Channel, Send Messages, Embed Links and Attach Files"
        );
        assert_eq!(
            names(&Show::Summary { game: 1 }, true),
            "View Channel, Send Messages in Threads, Embed Links and Attach Files"
        );
        assert_eq!(names(&Show::Review { game: 1 }, false), "View Channel, Embed Links and Attach Files");
        assert_eq!(names(&Show::Thread { game: 1 }, false), "View Channel and Create Public Threads");
        assert_eq!(names(&Show::ChallengeClosed { challenge: 2, by: 5 }, false), "View Channel and Embed Links");
        assert_eq!(names(&Show::Delete { game: 1, channel: 2, message: 3 }, false), "View Channel");
        // A DM needs no permission in any channel.
        assert!(needed_for(&Show::Digest { user: 5 }, false).is_empty());
        assert_eq!(english_names(Permissions::empty()), "");
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
            "I cannot post this game's board in this channel: I need the permissions **Embed Links**, **Attach \
             Files** here; a server manager can grant them to me."
        );
        assert_eq!(
            board_refusal(Permissions::SEND_MESSAGES_IN_THREADS, Lang::discord(Some("ru"))),
            "Я не могу опубликовать здесь доску этой партии: мне нужно право «Отправлять сообщения в ветках»; \
             попросите администратора сервера выдать его мне."
        );
    }

    /// Said where the game's notices go, when Discord says they cannot be posted there; not
    /// elsewhere, where what Discord says is about another channel.
    #[test]
    fn a_change_is_said_to_go_unseen_only_where_the_games_messages_go() {
        use crate::host::{GameView, Place, User};
        let game = GameView::sample(1, tafl_rules::Variant::Brandubh, User::new(10, "Alice"), User::new(11, "Bob"));
        let (channel, thread) = (ChannelId::new(2), ChannelId::new(3));
        let english = Lang::discord(None);
        let no_send = Some(Permissions::all() - Permissions::ADMINISTRATOR - Permissions::SEND_MESSAGES);
        assert_eq!(
            unseen_note(no_send, channel, &game, english).as_deref(),
            Some(
                "I cannot post this game's messages here (I need the permission **Send Messages**), so this may not \
                 show on its board or in its notices; a server manager can grant it to me."
            )
        );
        assert_eq!(unseen_note(no_send, ChannelId::new(9), &game, english), None, "typed in another channel");
        assert_eq!(unseen_note(Some(Permissions::all()), channel, &game, english), None);
        assert_eq!(unseen_note(None, channel, &game, english), None, "Discord said nothing");
        // A game in a thread: what counts is sending in threads, there.
        let threaded = GameView { place: Place { thread: Some(3), ..game.place }, ..game };
        assert_eq!(unseen_note(no_send, thread, &threaded, english), None);
        assert_eq!(unseen_note(no_send, channel, &threaded, english), None, "its parent channel");
        let no_thread_send =
            Some(Permissions::all() - Permissions::ADMINISTRATOR - Permissions::SEND_MESSAGES_IN_THREADS);
        let russian = unseen_note(no_thread_send, thread, &threaded, Lang::discord(Some("ru")));
        assert_eq!(
            russian.as_deref(),
            Some(
                "Я не могу публиковать здесь сообщения этой партии (мне нужно право «Отправлять сообщения в \
                 ветках»), поэтому это может не появиться ни на её доске, ни в её уведомлениях; попросите \
                 администратора сервера выдать его мне."
            )
        );
    }
}
