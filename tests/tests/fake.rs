//! The fake Discord itself, driven by serenity's own HTTP client (what the bot uses) and checked
//! against serenity's own interaction parsing: if the fake answered or pushed something serenity
//! refuses, the bot would fail in ways the scenario tests could not explain.

use serde_json::{Value, json};
use tafl_bot::discord::serenity;
use tafl_e2e::fake_discord::{
    APPLICATION_ID, DM_CHANNEL, FakeDiscord, GUILD, LOADING, Pings, StoredMessage, in_guild, with_name,
};

use serenity::{
    ChannelId, ChannelType, CreateActionRow, CreateAttachment, CreateAutocompleteResponse, CreateButton, CreateEmbed,
    CreateInputText, CreateInteractionResponse, CreateInteractionResponseFollowup, CreateInteractionResponseMessage,
    CreateMessage, CreateModal, CreateSelectMenu, CreateSelectMenuKind, CreateSelectMenuOption, CreateThread,
    EditAttachments, EditInteractionResponse, EditMessage, EditThread, Http, InputTextStyle, MessageId, UserId,
};

const CHANNEL: u64 = 1_500_000_000_000_000_001;
const PNG: &[u8] = b"\x89PNG\r\n\x1a\nboard";
const GIF: &[u8] = b"GIF89a-moves";

fn http(fake: &FakeDiscord) -> Http {
    serenity::HttpBuilder::new("fake-token")
        .proxy(fake.api_base())
        .ratelimiter_disabled(true)
        .application_id(serenity::ApplicationId::new(APPLICATION_ID))
        .build()
}

/// A board as the bot will post it: an embed, the board as a file, buttons and a select menu.
fn board() -> CreateMessage {
    let buttons = CreateActionRow::Buttons(vec![
        CreateButton::new("game:1:resign").label("Resign"),
        CreateButton::new("game:1:draw").label("Offer draw").disabled(true),
        CreateButton::new_link("https://example.invalid/rules").label("Rules"),
    ]);
    let options =
        vec![CreateSelectMenuOption::new("a1 → a4", "a1-a4"), CreateSelectMenuOption::new("b2 → b5", "b2-b5")];
    let select =
        CreateActionRow::SelectMenu(CreateSelectMenu::new("game:1:move", CreateSelectMenuKind::String { options }));
    CreateMessage::new()
        .content("Your move")
        .embed(
            CreateEmbed::new()
                .title("Brandubh")
                .description("Attackers to move")
                .footer(serenity::CreateEmbedFooter::new("move 1")),
        )
        .components(vec![buttons, select])
        .add_file(CreateAttachment::bytes(PNG, "board.png"))
}

fn discord_code(error: &serenity::Error) -> Option<isize> {
    match error {
        serenity::Error::Http(serenity::HttpError::UnsuccessfulRequest(response)) => Some(response.error.code),
        _ => None,
    }
}

fn files(message: &StoredMessage) -> Vec<(&str, &[u8])> {
    message.attachments.iter().map(|a| (a.filename.as_str(), &a.data[..])).collect()
}

fn parse(payload: &Value) -> serenity::Interaction {
    serde_json::from_value(payload.clone()).unwrap_or_else(|e| panic!("serenity refuses {payload:#}: {e}"))
}

fn component_of(payload: &Value) -> serenity::ComponentInteraction {
    match parse(payload) {
        serenity::Interaction::Component(component) => component,
        other => panic!("not a component interaction: {other:?}"),
    }
}

async fn post_board(fake: &FakeDiscord, http: &Http, channel: u64) -> StoredMessage {
    let sent = ChannelId::new(channel).send_message(http, board()).await.expect("the fake takes the board");
    fake.message(sent.id.get()).expect("the board is stored")
}

#[tokio::test]
async fn a_channel_message_is_stored_with_its_embed_file_and_components() {
    let fake = FakeDiscord::start().await;
    let http = http(&fake);

    let sent = ChannelId::new(CHANNEL).send_message(&http, board()).await.expect("serenity parses the message");

    let stored = fake.message(sent.id.get()).expect("stored");
    assert_eq!(stored.channel_id, CHANNEL);
    assert_eq!(stored.text(), "Your move\nBrandubh\nAttackers to move\nmove 1");
    assert_eq!(files(&stored), [("board.png", PNG)]);
    assert_eq!(stored.custom_ids(), ["game:1:resign", "game:1:draw", "game:1:move"]);
    assert_eq!(
        stored.button_labels(),
        [("Resign".to_owned(), "game:1:resign".to_owned()), ("Offer draw".to_owned(), "game:1:draw".to_owned())]
    );
    assert_eq!(stored.select_options("game:1:move")[1], ("b2 → b5".to_owned(), "b2-b5".to_owned()));
    assert!(!stored.is_ephemeral());
    assert_eq!((stored.edits, stored.deleted, stored.interaction), (0, false, None));
    // What serenity got back describes the same message.
    assert_eq!(sent.channel_id.get(), CHANNEL);
    assert_eq!(sent.attachments[0].id.get(), stored.attachments[0].id);
    assert_eq!(sent.attachments[0].size as usize, PNG.len());
    assert_eq!(sent.components.len(), 2);
    assert_eq!(fake.messages_in(CHANNEL).iter().map(|m| m.id).collect::<Vec<_>>(), [stored.id]);
    assert!(fake.unknown_requests().is_empty(), "{:#?}", fake.unknown_requests());
}

#[tokio::test]
async fn edits_keep_add_and_replace_attachments_as_discord_does() {
    let fake = FakeDiscord::start().await;
    let http = http(&fake);
    let channel = ChannelId::new(CHANNEL);
    let board = post_board(&fake, &http, CHANNEL).await;
    let id = MessageId::new(board.id);

    // No `attachments` key: the file stays.
    channel.edit_message(&http, id, EditMessage::new().content("Defenders to move")).await.expect("edit");
    let edited = fake.message(board.id).unwrap();
    assert_eq!((edited.content.as_str(), edited.edits), ("Defenders to move", 1));
    assert_eq!(files(&edited), [("board.png", PNG)]);
    assert_eq!(edited.custom_ids(), board.custom_ids(), "components not sent are kept");

    // Keep the board, add a file.
    let keep_and_add = EditAttachments::new()
        .keep(serenity::AttachmentId::new(board.attachments[0].id))
        .add(CreateAttachment::bytes(GIF, "moves.gif"));
    let answer = channel.edit_message(&http, id, EditMessage::new().attachments(keep_and_add)).await.expect("edit");
    let edited = fake.message(board.id).unwrap();
    assert_eq!(files(&edited), [("board.png", PNG), ("moves.gif", GIF)]);
    assert_eq!(edited.attachments[0].id, board.attachments[0].id, "a kept file keeps its id");
    assert_eq!(answer.attachments.len(), 2);

    // A new attachment alone replaces the others; the components can be cleared.
    let replace =
        EditMessage::new().new_attachment(CreateAttachment::bytes(b"new".to_vec(), "board2.png")).components(vec![]);
    channel.edit_message(&http, id, replace).await.expect("edit");
    let edited = fake.message(board.id).unwrap();
    assert_eq!(files(&edited), [("board2.png", b"new".as_slice())]);
    assert!(edited.custom_ids().is_empty());

    channel.edit_message(&http, id, EditMessage::new().remove_all_attachments()).await.expect("edit");
    let edited = fake.message(board.id).unwrap();
    assert!(edited.attachments.is_empty());
    assert_eq!(edited.edits, 4);
    assert_eq!(edited.content, "Defenders to move");
}

#[tokio::test]
async fn a_deleted_message_is_gone_and_unknown_afterwards() {
    let fake = FakeDiscord::start().await;
    let http = http(&fake);
    let channel = ChannelId::new(CHANNEL);
    let board = post_board(&fake, &http, CHANNEL).await;
    let id = MessageId::new(board.id);
    assert_eq!(channel.message(&http, id).await.expect("read back").content, "Your move");

    channel.delete_message(&http, id).await.expect("delete");

    assert!(fake.message(board.id).unwrap().deleted);
    assert!(fake.messages_in(CHANNEL).is_empty());
    let error = channel.edit_message(&http, id, EditMessage::new().content("x")).await.expect_err("deleted");
    assert_eq!(discord_code(&error), Some(10_008), "Unknown Message: {error:?}");
    let error = ChannelId::new(CHANNEL + 1).message(&http, MessageId::new(board.id)).await.expect_err("elsewhere");
    assert_eq!(discord_code(&error), Some(10_008));
    assert!(fake.unknown_requests().is_empty(), "an unknown message is not an unknown route");
}

/// Discord's Threads topic: no edits in an archived thread (50083) until a post or Modify Channel
/// `archived: false` reopens it; in a locked one no posts, edits nor reopening by the bot
/// (160005, or 50083 while it is archived too).
#[tokio::test]
async fn archived_threads_refuse_edits_until_reopened_and_locked_ones_refuse_the_bot() {
    let fake = FakeDiscord::start().await;
    let http = http(&fake);
    let board = post_board(&fake, &http, CHANNEL).await;
    let thread = ChannelId::new(CHANNEL)
        .create_thread_from_message(&http, MessageId::new(board.id), CreateThread::new("Game 1"))
        .await
        .expect("a thread");
    let inside = post_board(&fake, &http, thread.id.get()).await;
    let edit = || EditMessage::new().content("Edited");
    let id = MessageId::new(inside.id);

    fake.archive_thread(thread.id.get());
    let refused = thread.id.edit_message(&http, id, edit()).await.expect_err("archived");
    assert_eq!(discord_code(&refused), Some(50_083));
    // The starter message lives in the channel, not in the thread: it stays editable.
    ChannelId::new(CHANNEL).edit_message(&http, MessageId::new(board.id), edit()).await.expect("the starter");
    let reopened = thread.id.edit_thread(&http, EditThread::new().archived(false)).await.expect("reopened");
    assert_eq!(reopened.id, thread.id);
    assert!(!fake.is_archived(thread.id.get()));
    thread.id.edit_message(&http, id, edit()).await.expect("editable again");
    fake.archive_thread(thread.id.get());
    post_board(&fake, &http, thread.id.get()).await;
    assert!(!fake.is_archived(thread.id.get()), "a post reopens it");

    fake.lock_thread(thread.id.get());
    let post = thread.id.send_message(&http, CreateMessage::new().content("x")).await.expect_err("locked");
    assert_eq!(discord_code(&post), Some(160_005));
    assert_eq!(discord_code(&thread.id.edit_message(&http, id, edit()).await.expect_err("locked")), Some(160_005));
    fake.archive_thread(thread.id.get());
    let post = thread.id.send_message(&http, CreateMessage::new().content("x")).await.expect_err("closed");
    assert_eq!(discord_code(&post), Some(50_083), "locked and archived: a post cannot reopen it");
    let reopen = thread.id.edit_thread(&http, EditThread::new().archived(false)).await.expect_err("locked");
    assert_eq!(discord_code(&reopen), Some(160_005));
    assert!(fake.is_archived(thread.id.get()));
    fake.unlock_thread(thread.id.get());
    thread.id.edit_thread(&http, EditThread::new().archived(false)).await.expect("unlocked, reopened");
    thread.id.edit_message(&http, id, edit()).await.expect("and editable");
    assert!(fake.unknown_requests().is_empty(), "{:#?}", fake.unknown_requests());
}

#[tokio::test]
async fn threads_from_a_message_and_without_one_are_guild_channels() {
    let fake = FakeDiscord::start().await;
    let http = http(&fake);
    // The channel belongs to guild 77, as a pushed interaction from it says.
    let _ =
        fake.register_interaction(in_guild(fake.slash_command("tafl", "play", &json!([]), 42, "en-US"), 77, CHANNEL));
    let board = post_board(&fake, &http, CHANNEL).await;

    let builder = CreateThread::new("Game 1").kind(ChannelType::PublicThread);
    let thread = ChannelId::new(CHANNEL)
        .create_thread_from_message(&http, MessageId::new(board.id), builder)
        .await
        .expect("serenity parses the thread");
    assert_eq!(thread.id.get(), board.id, "Discord gives the thread the message's id");
    assert_eq!((thread.parent_id, thread.guild_id.get()), (Some(ChannelId::new(CHANNEL)), 77));
    assert_eq!((thread.name.as_str(), thread.kind), ("Game 1", ChannelType::PublicThread));
    let again = ChannelId::new(CHANNEL)
        .create_thread_from_message(&http, MessageId::new(board.id), CreateThread::new("x"))
        .await;
    assert_eq!(discord_code(&again.expect_err("one thread per message")), Some(160_004));

    let lobby = ChannelId::new(CHANNEL).create_thread(&http, CreateThread::new("Lobby")).await.expect("a thread");
    assert_eq!(lobby.kind, ChannelType::PrivateThread, "Discord's default without a message");

    let threads = fake.threads();
    assert_eq!(threads.len(), 2);
    assert_eq!((threads[0].id, threads[0].parent_id, threads[0].message_id), (board.id, CHANNEL, Some(board.id)));
    assert_eq!((threads[1].name.as_str(), threads[1].message_id, threads[1].kind), ("Lobby", None, 12));

    // Messages in the thread, and components on them come from guild 77.
    let in_thread = post_board(&fake, &http, thread.id.get()).await;
    assert_eq!(fake.messages_in(thread.id.get()).len(), 1);
    assert_eq!(fake.messages_in(CHANNEL).len(), 1, "the thread's messages are not the parent's");
    let press = component_of(&fake.component(&in_thread, "game:1:resign", &[], 42));
    assert_eq!(press.guild_id.map(serenity::GuildId::get), Some(77));
}

#[tokio::test]
async fn channels_and_their_messages_are_read_as_discord_lists_them() {
    let fake = FakeDiscord::start().await;
    let http = http(&fake);
    let posted: Vec<u64> = {
        let mut posted = Vec::new();
        for text in ["one", "two", "three", "four"] {
            posted.push(ChannelId::new(CHANNEL).say(&http, text).await.expect("posted").id.get());
        }
        posted
    };
    let channel = ChannelId::new(CHANNEL).to_channel(&http).await.expect("serenity parses the channel");
    assert_eq!(channel.guild().map(|c| (c.kind, c.guild_id.get())), Some((ChannelType::Text, GUILD)));
    let board = post_board(&fake, &http, CHANNEL).await;
    let thread = ChannelId::new(CHANNEL)
        .create_thread_from_message(&http, MessageId::new(board.id), CreateThread::new("Game 1"))
        .await
        .expect("a thread");
    let read = thread.id.to_channel(&http).await.expect("serenity parses the thread").guild().expect("a thread");
    assert_eq!((read.kind, read.parent_id), (ChannelType::PublicThread, Some(ChannelId::new(CHANNEL))));
    let dm = UserId::new(42).create_dm_channel(&http).await.expect("a DM channel");
    assert!(dm.id.to_channel(&http).await.expect("serenity parses the DM channel").private().is_some());

    // Newest first; `after` lists the messages just after an id, `before` those just before.
    let ids = |listed: Vec<serenity::Message>| listed.into_iter().map(|m| m.id.get()).collect::<Vec<_>>();
    let after = serenity::GetMessages::new().after(MessageId::new(posted[0])).limit(2);
    assert_eq!(ids(ChannelId::new(CHANNEL).messages(&http, after).await.expect("listed")), [posted[2], posted[1]]);
    let before = serenity::GetMessages::new().before(MessageId::new(posted[3])).limit(2);
    assert_eq!(ids(ChannelId::new(CHANNEL).messages(&http, before).await.expect("listed")), [posted[2], posted[1]]);
    let newest = ids(ChannelId::new(CHANNEL).messages(&http, serenity::GetMessages::new().limit(2)).await.unwrap());
    assert_eq!(newest, [board.id, posted[3]]);
    ChannelId::new(CHANNEL).delete_message(&http, MessageId::new(posted[1])).await.expect("deleted");
    let after = serenity::GetMessages::new().after(MessageId::new(posted[0])).limit(2);
    assert_eq!(ids(ChannelId::new(CHANNEL).messages(&http, after).await.unwrap()), [posted[3], posted[2]]);

    fake.delete_channel(CHANNEL);
    let gone = ChannelId::new(CHANNEL).to_channel(&http).await.expect_err("deleted");
    assert_eq!(discord_code(&gone), Some(10_003));
}

#[tokio::test]
async fn a_dm_channel_is_one_per_user_and_takes_messages() {
    let fake = FakeDiscord::start().await;
    let http = http(&fake);

    let first = UserId::new(42).create_dm_channel(&http).await.expect("serenity parses the DM channel");
    let again = UserId::new(42).create_dm_channel(&http).await.expect("again");
    let other = UserId::new(43).create_dm_channel(&http).await.expect("another user");

    assert_eq!(first.id, again.id);
    assert_ne!(first.id, other.id);
    assert_eq!(first.recipient.id.get(), 42);
    assert_eq!(fake.dm_channel(42), Some(first.id.get()));
    assert_eq!(fake.dm_channel(44), None);
    first.id.send_message(&http, CreateMessage::new().content("Your turn")).await.expect("a DM");
    let dms = fake.messages_in(first.id.get());
    assert_eq!(dms.iter().map(|m| m.content.as_str()).collect::<Vec<_>>(), ["Your turn"]);
    // A button in a DM comes from the user, not a guild member.
    let press =
        component_of(&fake.component(&post_board(&fake, &http, first.id.get()).await, "game:1:resign", &[], 42));
    assert_eq!((press.guild_id, press.user.id.get()), (None, 42));
}

#[tokio::test]
async fn component_payloads_parse_as_serenity_component_interactions() {
    let fake = FakeDiscord::start().await;
    let http = http(&fake);
    let board = post_board(&fake, &http, CHANNEL).await;

    let press = component_of(&with_name(fake.component(&board, "game:1:resign", &[], 42), "Ragnar"));
    assert_eq!(press.data.custom_id, "game:1:resign");
    assert!(matches!(press.data.kind, serenity::ComponentInteractionDataKind::Button));
    assert_eq!((press.channel_id.get(), press.message.id.get()), (CHANNEL, board.id));
    assert_eq!(press.guild_id.map(serenity::GuildId::get), Some(GUILD), "a channel of the default guild");
    assert_eq!(press.member.as_ref().map(|m| m.user.id.get()), Some(42));
    assert_eq!((press.user.id.get(), press.user.global_name.as_deref()), (42, Some("Ragnar")));
    assert_eq!(press.message.attachments[0].filename, "board.png");
    assert_eq!(press.locale, "en-US");

    let pick = component_of(&fake.component(&board, "game:1:move", &["b2-b5"], 7));
    match &pick.data.kind {
        serenity::ComponentInteractionDataKind::StringSelect { values } => assert_eq!(values, &["b2-b5"]),
        other => panic!("not a string select: {other:?}"),
    }

    // In the DM channel slash commands come from there is no guild.
    let dm_board = post_board(&fake, &http, DM_CHANNEL).await;
    let dm = component_of(&fake.component(&dm_board, "game:1:resign", &[], 42));
    assert_eq!((dm.guild_id, dm.member.is_none(), dm.user.id.get()), (None, true, 42));
    // …unless moved to a guild.
    let moved = component_of(&in_guild(fake.component(&dm_board, "game:1:resign", &[], 42), 77, CHANNEL));
    assert_eq!((moved.guild_id.map(serenity::GuildId::get), moved.user.id.get()), (Some(77), 42));
}

#[tokio::test]
#[should_panic(expected = "disabled")]
async fn a_disabled_button_cannot_be_pressed() {
    let fake = FakeDiscord::start().await;
    let board = post_board(&fake, &http(&fake), CHANNEL).await;
    let _ = fake.component(&board, "game:1:draw", &[], 42);
}

#[tokio::test]
async fn a_component_is_pressed_on_the_latest_state_of_its_message() {
    let fake = FakeDiscord::start().await;
    let http = http(&fake);
    let stale = post_board(&fake, &http, CHANNEL).await;
    let rematch = CreateActionRow::Buttons(vec![CreateButton::new("game:1:rematch").label("Rematch")]);
    let edit = EditMessage::new().content("Game over").components(vec![rematch]);
    ChannelId::new(CHANNEL).edit_message(&http, MessageId::new(stale.id), edit).await.expect("edit");

    let press = component_of(&fake.component(&stale, "game:1:rematch", &[], 42));

    assert_eq!(press.message.content, "Game over");
    let gone = std::panic::catch_unwind(|| fake.component(&stale, "game:1:resign", &[], 42));
    assert!(gone.is_err(), "a button removed by an edit cannot be pressed");
}

#[tokio::test]
#[should_panic(expected = "is not an option")]
async fn a_select_value_must_be_an_option() {
    let fake = FakeDiscord::start().await;
    let board = post_board(&fake, &http(&fake), CHANNEL).await;
    let _ = fake.component(&board, "game:1:move", &["z9-z1"], 42);
}

#[tokio::test]
async fn a_component_answer_updates_its_message_and_follow_ups_are_new_messages() {
    let fake = FakeDiscord::start().await;
    let http = http(&fake);
    let board = post_board(&fake, &http, CHANNEL).await;
    let payload = fake.component(&board, "game:1:resign", &[], 42);
    let interaction = fake.register_interaction(payload.clone());
    let press = component_of(&payload);

    let update = CreateInteractionResponseMessage::new()
        .content("Attackers resigned")
        .components(vec![CreateActionRow::Buttons(vec![CreateButton::new("game:1:rematch").label("Rematch")])]);
    press.create_response(&http, CreateInteractionResponse::UpdateMessage(update)).await.expect("type 7");

    let updated = fake.message(board.id).unwrap();
    assert_eq!((updated.content.as_str(), updated.edits), ("Attackers resigned", 1));
    assert_eq!(updated.custom_ids(), ["game:1:rematch"]);
    assert_eq!(updated.embeds, board.embeds, "embeds not sent are kept");
    // serenity always sends `attachments` in a type 7 answer (empty without files): Discord then
    // drops the message's files.
    assert!(updated.attachments.is_empty(), "{:?}", files(&updated));
    assert_eq!(fake.original_response(&interaction).map(|m| m.id), Some(board.id));

    // `@original` of a component interaction is the component's message.
    let edit = EditInteractionResponse::new().new_attachment(CreateAttachment::bytes(PNG, "final.png"));
    let answer = press.edit_response(&http, edit).await.expect("edit the original");
    assert_eq!(answer.id.get(), board.id);
    assert_eq!(files(&fake.message(board.id).unwrap()), [("final.png", PNG)]);

    let note = CreateInteractionResponseFollowup::new().content("Only you see this").ephemeral(true);
    let followup = press.create_followup(&http, note).await.expect("a follow-up");
    let stored = fake.message(followup.id.get()).unwrap();
    assert!(stored.is_ephemeral());
    match followup.interaction_metadata.as_deref() {
        Some(serenity::MessageInteractionMetadata::Component(metadata)) => {
            assert_eq!((metadata.user.id.get(), metadata.interacted_message_id.get()), (42, board.id));
        }
        other => panic!("a component's follow-up names its interaction: {other:?}"),
    }
    assert_eq!((stored.channel_id, stored.interaction), (CHANNEL, Some(interaction.id)));
    let public =
        press.create_followup(&http, CreateInteractionResponseFollowup::new().content("Game over")).await.unwrap();
    assert!(!fake.message(public.id.get()).unwrap().is_ephemeral());
    press
        .edit_followup(&http, public.id, CreateInteractionResponseFollowup::new().content("Game over!"))
        .await
        .expect("edit a follow-up");
    assert_eq!(fake.message(public.id.get()).unwrap().content, "Game over!");

    let twice = press.create_response(&http, CreateInteractionResponse::Acknowledge).await;
    assert_eq!(discord_code(&twice.expect_err("one answer per interaction")), Some(40_060));
    // Ephemeral messages are not reachable through the channel.
    let hidden = ChannelId::new(CHANNEL).message(&http, followup.id).await;
    assert_eq!(discord_code(&hidden.expect_err("ephemeral")), Some(10_008));
    let shown: Vec<String> = fake.messages_in(CHANNEL).iter().map(|m| m.content.clone()).collect();
    assert_eq!(shown, ["Attackers resigned", "Only you see this", "Game over!"]);
    assert!(fake.unknown_requests().is_empty(), "{:#?}", fake.unknown_requests());
}

fn command_of(payload: &Value) -> serenity::CommandInteraction {
    match parse(payload) {
        serenity::Interaction::Command(command) | serenity::Interaction::Autocomplete(command) => command,
        other => panic!("not a command interaction: {other:?}"),
    }
}

#[tokio::test]
async fn a_slash_command_answer_with_a_file_is_its_original_response() {
    let fake = FakeDiscord::start().await;
    let http = http(&fake);
    let payload = in_guild(fake.slash_command("tafl", "rules", &json!([]), 42, "en-US"), 77, CHANNEL);
    let interaction = fake.register_interaction(payload.clone());
    let command = command_of(&payload);

    let answer = CreateInteractionResponseMessage::new()
        .embed(CreateEmbed::new().title("Brandubh"))
        .add_file(CreateAttachment::bytes(PNG, "brandubh.png"));
    command.create_response(&http, CreateInteractionResponse::Message(answer)).await.expect("type 4");

    let original = fake.wait_for_original(&interaction).await;
    assert_eq!((original.channel_id, original.interaction), (CHANNEL, Some(interaction.id)));
    assert_eq!((original.text().as_str(), files(&original)), ("Brandubh", vec![("brandubh.png", PNG)]));
    let read = command.get_response(&http).await.expect("GET @original");
    assert_eq!(read.id.get(), original.id);
    assert_eq!(read.embeds[0].title.as_deref(), Some("Brandubh"));
    match read.interaction_metadata.as_deref() {
        Some(serenity::MessageInteractionMetadata::Command(metadata)) => {
            assert_eq!((metadata.id.get(), metadata.user.id.get()), (interaction.id, 42));
        }
        other => panic!("a command's answer names its interaction: {other:?}"),
    }

    command.delete_response(&http).await.expect("DELETE @original");
    assert!(fake.message(original.id).unwrap().deleted);
    assert_eq!(discord_code(&command.get_response(&http).await.expect_err("deleted")), Some(10_008));
}

#[tokio::test]
async fn a_deferred_answer_thinks_until_the_first_follow_up_fills_it() {
    let fake = FakeDiscord::start().await;
    let http = http(&fake);
    let payload = fake.slash_command("tafl", "play", &json!([]), 42, "en-US");
    let interaction = fake.register_interaction(payload.clone());
    let command = command_of(&payload);

    let defer = CreateInteractionResponse::Defer(CreateInteractionResponseMessage::new().ephemeral(true));
    command.create_response(&http, defer).await.expect("type 5");
    let thinking = fake.original_response(&interaction).expect("a placeholder");
    assert_eq!((thinking.content.as_str(), thinking.flags & LOADING != 0), ("", true));
    assert!(thinking.is_ephemeral());
    assert_eq!(thinking.channel_id, DM_CHANNEL);

    // poise answers a deferred command with a follow-up, which Discord turns into the original.
    let first =
        command.create_followup(&http, CreateInteractionResponseFollowup::new().content("Game created")).await.unwrap();
    let filled = fake.wait_for_original(&interaction).await;
    assert_eq!((first.id.get(), filled.id), (thinking.id, thinking.id));
    assert_eq!(filled.content, "Game created");
    let second =
        command.create_followup(&http, CreateInteractionResponseFollowup::new().content("More")).await.unwrap();
    assert_ne!(second.id.get(), thinking.id);
    command.edit_response(&http, EditInteractionResponse::new().content("Game 1 created")).await.expect("edit");
    assert_eq!(fake.original_response(&interaction).unwrap().content, "Game 1 created");
}

#[tokio::test]
async fn autocomplete_payloads_parse_and_their_choices_are_stored() {
    let fake = FakeDiscord::start().await;
    let http = http(&fake);
    let options = json!([{ "name": "variant", "type": 3, "value": "histor", "focused": true }]);
    let payload = with_name(in_guild(fake.autocomplete("tafl", "rules", &options, 42, "ru"), 77, CHANNEL), "Ragnar");

    let parsed = parse(&payload);
    let serenity::Interaction::Autocomplete(autocomplete) = parsed else { panic!("not autocomplete: {parsed:?}") };
    let focused = autocomplete.data.autocomplete().expect("a focused option");
    assert_eq!((focused.name, focused.value), ("variant", "histor"));
    assert_eq!((autocomplete.guild_id.map(serenity::GuildId::get), autocomplete.locale.as_str()), (Some(77), "ru"));
    assert_eq!(autocomplete.user.global_name.as_deref(), Some("Ragnar"));

    let interaction = fake.register_interaction(payload);
    let choices =
        CreateAutocompleteResponse::new().add_string_choice("Historical 7×7", "historical-7").add_int_choice("Nine", 9);
    autocomplete.create_response(&http, CreateInteractionResponse::Autocomplete(choices)).await.expect("type 8");
    let stored = fake.autocomplete_choices(&interaction).expect("choices");
    assert_eq!(stored, [("Historical 7×7".to_owned(), "historical-7".to_owned()), ("Nine".to_owned(), "9".to_owned())]);
    assert!(fake.all_messages().is_empty(), "an autocomplete answer is no message");
}

#[tokio::test]
async fn a_modal_and_a_deferred_update_change_no_message() {
    let fake = FakeDiscord::start().await;
    let http = http(&fake);
    let board = post_board(&fake, &http, CHANNEL).await;
    let modal_payload = fake.component(&board, "game:1:resign", &[], 42);
    let modal_interaction = fake.register_interaction(modal_payload.clone());
    let input = CreateInputText::new(InputTextStyle::Short, "Reason", "reason");
    let modal = CreateModal::new("resign:1", "Resign?").components(vec![CreateActionRow::InputText(input)]);
    component_of(&modal_payload).create_response(&http, CreateInteractionResponse::Modal(modal)).await.expect("type 9");
    assert_eq!(fake.modal(&modal_interaction).expect("a modal")["custom_id"], "resign:1");
    let submitted = fake.modal_submit(&modal_interaction, &[("reason", "lost")]);
    let serenity::Interaction::Modal(submit) = parse(&submitted) else { panic!("not a modal submit: {submitted:#}") };
    assert_eq!((submit.data.custom_id.as_str(), submit.user.id.get()), ("resign:1", 42));
    assert_eq!(submit.message.as_ref().map(|m| m.id.get()), Some(board.id));
    let serenity::ActionRowComponent::InputText(input) = &submit.data.components[0].components[0] else {
        panic!("not a text input: {:?}", submit.data.components)
    };
    assert_eq!((input.custom_id.as_str(), input.value.as_deref()), ("reason", Some("lost")));

    let payload = fake.component(&board, "game:1:move", &["a1-a4"], 42);
    let interaction = fake.register_interaction(payload.clone());
    component_of(&payload).create_response(&http, CreateInteractionResponse::Acknowledge).await.expect("type 6");
    let untouched = fake.message(board.id).unwrap();
    assert_eq!((untouched.edits, files(&untouched)), (0, vec![("board.png", PNG)]));
    assert_eq!(fake.original_response(&interaction).map(|m| m.id), Some(board.id));
    assert_eq!(fake.all_messages().len(), 1);
}

#[tokio::test]
async fn an_unknown_interaction_is_refused() {
    let fake = FakeDiscord::start().await;
    let http = http(&fake);
    let payload = fake.slash_command("tafl", "play", &json!([]), 42, "en-US");
    let command = command_of(&payload);
    let answer = command.create_response(&http, CreateInteractionResponse::Acknowledge).await;
    assert_eq!(discord_code(&answer.expect_err("never pushed")), Some(10_062));
    let follow_up = command.create_followup(&http, CreateInteractionResponseFollowup::new().content("x")).await;
    assert_eq!(discord_code(&follow_up.expect_err("never answered")), Some(10_015));
}

#[tokio::test]
async fn wait_for_message_sees_later_edits() {
    let fake = FakeDiscord::start().await;
    let http = std::sync::Arc::new(http(&fake));
    let board = post_board(&fake, &http, CHANNEL).await;
    let editor = http.clone();
    let edit = tokio::spawn(async move {
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        let builder = EditMessage::new().content("Defenders to move");
        ChannelId::new(CHANNEL).edit_message(&editor, MessageId::new(board.id), builder).await.expect("edit");
    });

    let seen = fake.wait_for_message("the edited board", |m| m.content == "Defenders to move").await;

    assert_eq!((seen.id, seen.edits), (board.id, 1));
    edit.await.expect("the edit task");
}

#[tokio::test]
async fn a_repeated_nonce_returns_the_message_made_and_a_fault_can_come_after_the_work() {
    use tafl_e2e::fake_discord::Fault;
    let fake = FakeDiscord::start().await;
    let http = http(&fake);
    let channel = ChannelId::new(CHANNEL);
    let once = || {
        CreateMessage::new()
            .content("Your move")
            .nonce(serenity::Nonce::String("n7.1796".to_owned()))
            .enforce_nonce(true)
    };
    // Made, and Discord's answer lost: the message exists although the bot saw a 500.
    fake.fail_next(|r| r.method == "POST", 1, Fault::AppliedThenServerError(500));
    let error = channel.send_message(&http, once()).await.expect_err("a server error");
    assert!(
        matches!(&error, serenity::Error::Http(serenity::HttpError::UnsuccessfulRequest(r)) if r.status_code == 500)
    );
    assert_eq!(fake.messages_in(CHANNEL).len(), 1, "the request was carried out");
    // The retry with the same nonce gets that message, not a second one.
    let again = channel.send_message(&http, once()).await.expect("the same message");
    assert_eq!(fake.messages_in(CHANNEL).len(), 1);
    assert_eq!(again.id.get(), fake.messages_in(CHANNEL)[0].id);
    // Without `enforce_nonce`, or with another nonce, a message is new.
    channel.send_message(&http, once().enforce_nonce(false)).await.unwrap();
    let other =
        CreateMessage::new().content("x").nonce(serenity::Nonce::String("n8.1796".to_owned())).enforce_nonce(true);
    channel.send_message(&http, other).await.unwrap();
    assert_eq!(fake.messages_in(CHANNEL).len(), 3);
}

/// What serenity made of a refusal: the HTTP status, Discord's code, and each error's field and
/// words (`content: Must be 2000 or fewer in length.`).
fn refusal(error: &serenity::Error) -> (u16, isize, Vec<String>) {
    let serenity::Error::Http(serenity::HttpError::UnsuccessfulRequest(response)) = error else {
        panic!("not a refusal from Discord: {error:?}");
    };
    let errors = response.error.errors.iter().map(|e| format!("{}: {}", e.path, e.message)).collect();
    (response.status_code.as_u16(), response.error.code, errors)
}

/// serenity's builders check a few limits before sending; the bodies here go as JSON, as a
/// builder that forgot a limit would send them, so that Discord's (the fake's) check is the one
/// that answers.
#[tokio::test]
async fn a_message_over_discords_limits_is_refused_whole_naming_the_field() {
    let fake = FakeDiscord::start().await;
    let http = http(&fake);
    let channel = ChannelId::new(CHANNEL);

    // 2000 characters are Discord's most; 2000 shields (four bytes each in UTF-8) still fit.
    let most = json!({ "content": "🛡".repeat(2000) });
    let posted = http.send_message(channel, Vec::new(), &most).await.expect("2000 characters fit");
    let over = json!({ "content": "a".repeat(2001) });
    let refused = http.send_message(channel, Vec::new(), &over).await.expect_err("2001 do not");
    assert_eq!(refusal(&refused), (400, 50_035, vec!["content: Must be 2000 or fewer in length.".to_owned()]));
    assert_eq!(fake.messages_in(CHANNEL).len(), 1, "nothing is made of a refused message");

    // An edit over a limit changes nothing: a field's value holds 1024 characters.
    let field =
        |value: String| json!({ "embeds": [{ "title": "Summary", "fields": [{ "name": "Moves", "value": value }] }] });
    let refused = http.edit_message(channel, posted.id, &field("x".repeat(1025)), Vec::new()).await.unwrap_err();
    assert_eq!(refusal(&refused).2, ["embeds.0.fields.0.value: Must be 1024 or fewer in length."]);
    assert_eq!(fake.message(posted.id.get()).expect("stored").edits, 0);
    http.edit_message(channel, posted.id, &field("x".repeat(1024)), Vec::new()).await.expect("1024 fit");

    // The embeds of a message share 6000 characters.
    let two = json!({ "embeds": [{ "description": "d".repeat(4096) }, { "description": "e".repeat(2000) }] });
    let refused = http.send_message(channel, Vec::new(), &two).await.unwrap_err();
    assert_eq!(refusal(&refused).2, ["embeds: Embed size exceeds maximum size of 6000"]);

    // A button's label holds 80 characters; a select menu 25 options.
    let button = json!({ "type": 2, "style": 1, "custom_id": "b", "label": "l".repeat(81) });
    let long_label = json!({ "components": [{ "type": 1, "components": [button] }] });
    let refused = http.send_message(channel, Vec::new(), &long_label).await.unwrap_err();
    assert_eq!(refusal(&refused).2, ["components.0.components.0.label: Must be 80 or fewer in length."]);
    let options: Vec<Value> = (0..26).map(|n| json!({ "label": n.to_string(), "value": n.to_string() })).collect();
    let menu = json!({ "type": 3, "custom_id": "m", "options": options });
    let refused =
        http.send_message(channel, Vec::new(), &json!({ "components": [{ "type": 1, "components": [menu] }] })).await;
    assert_eq!(
        refusal(&refused.unwrap_err()).2,
        ["components.0.components.0.options: Must be between 0 and 25 in length."]
    );

    // A message that shows nothing is refused with its own code.
    let refused = http.send_message(channel, Vec::new(), &json!({ "content": "" })).await.unwrap_err();
    assert_eq!(refusal(&refused).1, 50_006);
    assert_eq!(fake.messages_in(CHANNEL).len(), 1);
    assert!(fake.unknown_requests().is_empty(), "{:#?}", fake.unknown_requests());
}

#[tokio::test]
async fn answers_threads_and_files_over_discords_limits_are_refused() {
    let fake = FakeDiscord::start().await;
    let http = http(&fake);
    let refused = ChannelId::new(CHANNEL).create_thread(&http, CreateThread::new("t".repeat(101))).await.unwrap_err();
    assert_eq!(refusal(&refused), (400, 50_035, vec!["name: Must be between 1 and 100 in length.".to_owned()]));
    assert!(fake.threads().is_empty());

    // An autocomplete answer holds 25 choices of at most 100 characters.
    let command = fake.register_interaction(fake.autocomplete("tafl", "rules", &json!([]), 42, "en-US"));
    let callback = |data: Value| json!({ "type": 8, "data": data });
    let choices: Vec<Value> = (0..26).map(|n| json!({ "name": n.to_string(), "value": n.to_string() })).collect();
    let id = serenity::InteractionId::new(command.id);
    let too_many = callback(json!({ "choices": choices }));
    let refused = http.create_interaction_response(id, &command.token, &too_many, Vec::new()).await.unwrap_err();
    assert_eq!(refusal(&refused).2, ["data.choices: Must be between 0 and 25 in length."]);
    let long = json!({ "choices": [{ "name": "n".repeat(101), "value": "v" }] });
    let refused = http.create_interaction_response(id, &command.token, &callback(long), Vec::new()).await.unwrap_err();
    assert_eq!(refusal(&refused).2, ["data.choices.0.name: Must be 100 or fewer in length."]);
    assert!(fake.autocomplete_choices(&command).is_none(), "a refused answer is no answer");

    // A file over 20 MiB, Discord's limit for a bot without boosts, is too large.
    let big = CreateAttachment::bytes(vec![0_u8; 20 * 1024 * 1024 + 1], "game-1.gif");
    let refused = http.send_message(ChannelId::new(CHANNEL), vec![big], &json!({ "content": "" })).await.unwrap_err();
    let (status, code, _) = refusal(&refused);
    assert_eq!((status, code), (413, 40_005));
    let fits = CreateAttachment::bytes(vec![0_u8; 20 * 1024 * 1024], "game-1.gif");
    http.send_message(ChannelId::new(CHANNEL), vec![fits], &json!({})).await.expect("20 MiB fit");
}

#[tokio::test]
async fn a_message_pings_whom_its_allowed_mentions_let_through() {
    let fake = FakeDiscord::start().await;
    let http = http(&fake);
    let channel = ChannelId::new(CHANNEL);
    let content = "<@5>, @everyone offers a draw to <@6> and <@&7>";
    let only_five = CreateMessage::new()
        .content(content)
        .allowed_mentions(serenity::CreateAllowedMentions::new().users([UserId::new(5)]));
    let sent = channel.send_message(&http, only_five).await.expect("sent");
    let stored = fake.message(sent.id.get()).expect("stored");
    assert_eq!(stored.pings(), Pings { users: vec![5], roles: vec![], everyone: false });

    // Without allowed_mentions Discord parses every mention.
    let sent = channel.send_message(&http, CreateMessage::new().content(content)).await.expect("sent");
    let stored = fake.message(sent.id.get()).expect("stored");
    assert_eq!(stored.pings(), Pings { users: vec![5, 6], roles: vec![7], everyone: true });
    // An edit of the content without them is parsed so too; with them, as they say.
    let edit = EditMessage::new()
        .content("<@6>")
        .allowed_mentions(serenity::CreateAllowedMentions::new().users([UserId::new(6)]));
    channel.edit_message(&http, sent.id, edit).await.expect("edited");
    assert_eq!(fake.message(sent.id.get()).expect("stored").pings().users, [6]);
}
