//! `/tafl settings` and threads per game through the real bot and the fake Discord: a manager
//! turns threads on and a game lives in its own thread; non-managers cannot change the server;
//! personal settings round-trip and style the boards a player shows; bad input is refused in one
//! sentence and changes nothing. Every scenario runs twice: with a server and people speaking
//! English, and speaking Russian, where nothing the bot shows may be English prose.

use serde_json::{Value, json};
use tafl_e2e::fake_discord::{
    FakeDiscord, Fault, GUILD, Interaction, Recorded, StoredMessage, in_guild, in_thread, with_name,
};
use tafl_e2e::harness::{
    ALICE, BOB, CHANNEL, EVE, Player, Table, TestBot, assert_no_mass_pings, assert_pings, leave_untouched,
    private_answer, temp_dir,
};
use tafl_e2e::in_english_and_russian;

in_english_and_russian!(
    with_threads_on_a_game_lives_in_its_own_thread_under_the_board,
    when_the_thread_cannot_be_made_the_game_goes_on_in_the_channel,
    a_thread_discord_fails_to_make_for_a_while_is_made_once_it_is_back,
    when_a_games_thread_is_deleted_the_game_goes_on_in_the_channel,
    when_a_games_thread_is_locked_the_game_and_its_board_go_on_in_the_channel,
    a_game_begun_in_a_thread_closed_to_the_bot_never_moves_to_its_channel,
    a_board_in_a_thread_that_archived_overnight_still_shows_the_next_move,
    a_board_posted_anew_in_the_games_thread_still_shows_moves_after_the_thread_archived,
    a_board_in_a_locked_thread_people_opened_catches_up_once_the_thread_reopens,
    a_challenge_expiring_in_an_archived_thread_has_its_card_closed,
    a_thread_made_but_whose_answer_was_lost_is_adopted_not_made_twice,
    the_channels_board_of_a_thread_game_shows_its_end_after_the_board_was_posted_anew,
    only_managers_change_the_server_settings,
    personal_settings_round_trip_and_style_the_boards_a_player_shows,
    a_bad_default_clock_is_refused_and_a_good_one_times_new_challenges,
    challenges_are_refused_in_channels_the_managers_did_not_allow,
    a_challenge_in_a_thread_is_judged_by_its_channel_and_played_in_the_thread,
    the_settings_command_is_registered_with_typed_options_in_both_languages,
    a_channel_where_the_bot_cannot_post_boards_refuses_games_until_it_may,
    what_asks_something_of_a_player_who_wants_dms_reaches_them_by_dm,
    a_dm_that_is_the_one_way_left_is_tried_again_after_an_outage,
    a_dm_after_the_games_thread_is_deleted_links_to_the_channel_the_notice_went_to,
    a_dm_after_the_games_thread_is_locked_links_to_the_channel_the_notice_went_to,
    an_offer_answered_before_its_notice_is_delivered_is_not_sent_by_dm,
    a_deleted_channel_leaves_the_channels_for_games_unless_it_was_the_last,
    a_dm_is_the_one_way_left_when_a_thread_people_opened_is_closed_to_the_bot,
    a_game_whose_channel_is_deleted_goes_on_where_a_player_asks_for_its_board,
    a_forum_can_be_put_on_the_channels_for_games,
    a_move_where_the_bot_can_no_longer_post_says_so,
    a_move_clicked_where_the_bot_can_no_longer_post_says_so,
    a_board_asked_for_in_another_channel_is_not_said_to_be_below,
    a_board_refused_for_want_of_permission_does_not_offer_another_channel,
    the_player_to_move_is_told_once_the_bot_may_post_again,
    a_summary_refused_for_want_of_permission_is_posted_once_the_bot_may,
    a_notice_pings_its_addressee_alone_whatever_the_players_call_themselves,
);

/// The Latin words that belong in a Russian run: people's names and what they typed.
const NOT_ENGLISH: &[&str] = &["Alice", "Bob", "Eve", "soon", "none"];

/// Discord's Manage Server permission bit.
const MANAGE_GUILD: u64 = 1 << 5;
/// The permissions the fake gives members by default (no Manage Server among them).
const MEMBER: u64 = 2_248_473_465_835_073;
/// A thread people opened under [`CHANNEL`] (or a forum post).
const THREAD: u64 = 1_500_000_000_000_000_103;
/// Far longer than a delivery takes, far shorter than the sweep's hour of rest.
const WAIT: std::time::Duration = std::time::Duration::from_secs(12);
/// A second text channel of the fake server.
const OTHER_CHANNEL: u64 = 1_500_000_000_000_000_002;

/// A fake and a bot on a fresh database, ready for interactions.
async fn served(name: &str) -> (FakeDiscord, TestBot) {
    let fake = FakeDiscord::start().await;
    let dir = temp_dir(name);
    let bot = TestBot::start(&fake, &dir);
    fake.wait_until_ready().await;
    (fake, bot)
}

/// An option of `/tafl settings`: booleans are type 5, integers (choice indices) type 4, strings
/// type 3, and [`channel`] options type 7.
fn option(name: &str, value: Value) -> Value {
    let kind = match &value {
        Value::Bool(_) => 5,
        Value::Number(_) => 4,
        _ => 3,
    };
    let mut option = json!({ "name": name, "type": kind });
    option["value"] = value;
    option
}

/// A channel option naming a text channel of the server.
fn channel(name: &str, id: u64) -> Value {
    json!({ "name": name, "type": 7, "value": id.to_string() })
}

/// Who sends a settings command, and from where.
#[derive(Clone, Copy)]
struct From {
    player: Player,
    manager: bool,
    /// `None` for a direct message to the bot.
    channel: Option<u64>,
    /// The sender's language.
    locale: &'static str,
    /// The server's language as Discord sends it (`guild_locale`), in a server channel.
    server: Option<&'static str>,
}

impl From {
    /// `player`, a member who may not manage the server, in the table's channel and language.
    fn member(table: &Table<'_>, player: Player) -> From {
        From { player, manager: false, channel: Some(table.channel), locale: table.locale, server: Some(table.locale) }
    }

    fn manager(table: &Table<'_>, player: Player) -> From {
        From { manager: true, ..From::member(table, player) }
    }
}

/// `/tafl settings options…` as `from` sends it; channel options are resolved as text channels,
/// as Discord resolves them.
fn settings(fake: &FakeDiscord, from: From, options: &[Value]) -> Interaction {
    let list = Value::Array(options.to_vec());
    let payload = fake.slash_command("tafl", "settings", &list, from.player.id, from.locale);
    let mut payload = match from.channel {
        Some(channel) => {
            let mut payload = with_name(in_guild(payload, GUILD, channel), from.player.name);
            let permissions = if from.manager { MEMBER | MANAGE_GUILD } else { MEMBER & !MANAGE_GUILD };
            payload["member"]["permissions"] = json!(permissions.to_string());
            payload
        }
        None => with_name(payload, from.player.name),
    };
    let channels: serde_json::Map<String, Value> = options
        .iter()
        .filter(|o| o["type"] == 7)
        .filter_map(|o| o["value"].as_str())
        .map(|id| (id.to_owned(), json!({ "id": id, "name": "games", "type": 0, "permissions": "0" })))
        .collect();
    if !channels.is_empty() {
        payload["data"]["resolved"] = json!({ "channels": channels });
    }
    if let (Some(_), Some(server)) = (from.channel, from.server) {
        payload["guild_locale"] = json!(server);
    }
    fake.push_interaction(payload)
}

/// `player` turns `dm` on in `table`'s channel.
async fn asks_for_dms(table: &Table<'_>, player: Player) {
    let dm = settings(table.fake, From::member(table, player), &[option("dm", json!(true))]);
    assert!(private_answer(table.fake, &dm).await.starts_with(table.says("Saved.", "Сохранено.")));
}

/// Alice challenges Bob to Brandubh as the attackers in `table`'s channel and Bob accepts with
/// the card's button: returns the board message (the card, turned into the board).
async fn start_game(table: &Table<'_>) -> StoredMessage {
    let fake = table.fake;
    let challenge =
        table.command(ALICE, "challenge", &json!({ "opponent": BOB.id, "variant": "brandubh", "side": 0 }), &[BOB]);
    let card = fake.wait_for_original(&challenge).await;
    assert!(!card.is_ephemeral(), "the challenge card is public: {card:#?}");
    let accept = table.says("Accept", "Принять");
    let accept = card.button_labels().into_iter().find(|(label, _)| label == accept).expect("an Accept button").1;
    let _ = table.click(BOB, &card, &accept, None);
    fake.wait_for_message("the card turned into the board", |m| m.id == card.id && m.edits > 0).await
}

/// Waits until message `id` shows `ply` plies (its picture is named after the ply).
async fn board_at(fake: &FakeDiscord, id: u64, game: i64, ply: usize) -> StoredMessage {
    let name = format!("game-{game}-{ply}.png");
    fake.wait_for_message(&format!("the board at ply {ply}"), |m| {
        m.id == id && m.attachments.iter().any(|a| a.filename == name)
    })
    .await
}

async fn with_threads_on_a_game_lives_in_its_own_thread_under_the_board(locale: &'static str) {
    let (fake, bot) = served("threads").await;
    let table = Table { fake: &fake, channel: CHANNEL, locale };

    let turned_on = settings(&fake, From::manager(&table, EVE), &[option("threads", json!(true))]);
    let answer = private_answer(&fake, &turned_on).await;
    assert!(answer.starts_with(table.says("Saved.\n", "Сохранено.\n")), "{answer}");
    assert!(answer.contains(table.says("A thread for each game: on", "Ветка для каждой партии: вкл.")), "{answer}");

    let board = start_game(&table).await;
    assert_eq!(board.channel_id, CHANNEL, "the board stays in the channel");
    let begun = table.says("your move: game #1 (Brandubh) has begun", "ваш ход: партия №1 (Брандубх) началась");
    let notice = fake.wait_for_message("Alice's first notice", |m| m.content.contains(begun)).await;
    let threads = fake.threads();
    assert_eq!(threads.len(), 1, "{threads:#?}");
    let thread = &threads[0];
    assert_eq!(thread.name, table.says("Alice vs Bob · Brandubh #1", "Alice — Bob · Брандубх №1"));
    assert_eq!((thread.parent_id, thread.message_id, thread.kind), (CHANNEL, Some(board.id), 11), "{thread:#?}");
    assert_eq!(notice.channel_id, thread.id, "the notice goes into the thread");

    // A move typed inside the thread finds the game; the board in the channel is edited in place.
    let in_thread = Table { fake: &fake, channel: thread.id, locale };
    let played = in_thread.command(ALICE, "move", &json!({ "notation": "d2-c2" }), &[]);
    assert!(private_answer(&fake, &played).await.starts_with(table.says("You played `d2-c2`", "Вы сыграли `d2-c2`")));
    let board = board_at(&fake, board.id, 1, 1).await;
    assert_eq!(board.channel_id, CHANNEL);
    let your_move = table.says("your move in game #1", "ваш ход в партии №1");
    let notice = fake.wait_for_message("Bob's notice", |m| m.content.contains(your_move)).await;
    assert_eq!(notice.channel_id, thread.id);
    assert!(notice.content.starts_with(&format!("<@{}>", BOB.id)), "{}", notice.content);

    // An offer, and the summary, go into the thread too.
    let offer = in_thread.command(BOB, "draw", &json!({}), &[]);
    let answer = private_answer(&fake, &offer).await;
    assert!(
        answer.starts_with(table.says("You offered a draw in game #1", "Вы предложили ничью в партии №1")),
        "{answer}"
    );
    let offers = table.says("offers a draw in game #1", "предлагает ничью в партии №1");
    let offered = fake.wait_for_message("the offer notice", |m| m.content.contains(offers)).await;
    assert_eq!(offered.channel_id, thread.id);
    let board = fake
        .wait_for_message("the offer on the board", |m| {
            m.id == board.id && m.custom_ids().contains(&"tafl:draw-yes:1:1".to_owned())
        })
        .await;
    let _ = table.click(ALICE, &board, "tafl:draw-yes:1:1", None);
    let summary =
        fake.wait_for_message("the summary", |m| m.attachments.iter().any(|a| a.filename == "game-1.gif")).await;
    assert_eq!(summary.channel_id, thread.id, "the summary goes into the thread");
    assert!(summary.text().contains(table.says("by agreement", "по соглашению")), "{}", summary.text());
    let board = fake.wait_for_message("the final board", |m| m.id == board.id && m.custom_ids().is_empty()).await;
    assert_eq!(board.channel_id, CHANNEL);

    // The channel itself holds only the board (and the private answers).
    let public: Vec<u64> =
        fake.messages_in(CHANNEL).iter().filter(|m| !m.is_ephemeral() && !m.deleted).map(|m| m.id).collect();
    assert_eq!(public, [board.id], "{:#?}", fake.messages_in(CHANNEL));
    assert_eq!(fake.threads().len(), 1, "one thread per game");
    assert!(fake.unknown_requests().is_empty(), "{:#?}", fake.unknown_requests());
    table.assert_no_english(NOT_ENGLISH);
    if !table.is_english() {
        let english = tafl_bot::present::check::english_words(&thread.name, NOT_ENGLISH);
        assert!(english.is_empty(), "English in the thread's name: {english:?}");
    }
    bot.stop().await;
}

async fn when_the_thread_cannot_be_made_the_game_goes_on_in_the_channel(locale: &'static str) {
    let (fake, bot) = served("no-thread").await;
    let table = Table { fake: &fake, channel: CHANNEL, locale };
    threads_on(&table).await;

    // Discord refuses the thread for good (the bot may not create threads there).
    fake.fail_next(|r| r.method == "POST" && r.path.ends_with("/threads"), 3, Fault::ServerError(403));
    let board = start_game(&table).await;
    let notice = first_notice(&table).await;
    assert_eq!(notice.channel_id, CHANNEL, "without a thread the notice goes to the channel");
    assert!(fake.threads().is_empty());
    let played = table.command(ALICE, "move", &json!({ "notation": "d2-c2" }), &[]);
    assert!(private_answer(&fake, &played).await.starts_with(table.says("You played", "Вы сыграли")));
    board_at(&fake, board.id, 1, 1).await;
    let your_move = table.says("your move in game #1", "ваш ход в партии №1");
    let notice = fake.wait_for_message("Bob's notice", |m| m.content.contains(your_move)).await;
    assert_eq!(notice.channel_id, CHANNEL);
    table.assert_no_english(NOT_ENGLISH);
    bot.stop().await;
}

async fn a_thread_discord_fails_to_make_for_a_while_is_made_once_it_is_back(locale: &'static str) {
    let (fake, bot) = served("thread-later").await;
    let table = Table { fake: &fake, channel: CHANNEL, locale };
    threads_on(&table).await;

    // Five server errors: more than one delivery's quick retries, fewer than the outbox's.
    fake.fail_next(|r| r.method == "POST" && r.path.ends_with("/threads"), 5, Fault::ServerError(503));
    let board = start_game(&table).await;
    let notice = first_notice(&table).await;
    let threads = fake.threads();
    assert_eq!(threads.len(), 1, "{threads:?}");
    assert_ne!(notice.channel_id, CHANNEL, "the notice waited for the thread and went there");
    assert_eq!(notice.channel_id, threads[0].id);
    let tries = fake.requests().iter().filter(|r| r.method == "POST" && r.path.ends_with("/threads")).count();
    assert_eq!(tries, 6, "five refused, the sixth made it");
    board_at(&fake, board.id, 1, 0).await;
    table.assert_no_english(NOT_ENGLISH);
    bot.stop().await;
}

/// A manager of the server turns a thread per game on.
async fn threads_on(table: &Table<'_>) {
    let turned_on = settings(table.fake, From::manager(table, EVE), &[option("threads", json!(true))]);
    assert!(private_answer(table.fake, &turned_on).await.starts_with(table.says("Saved.", "Сохранено.")));
}

/// The notice that game #1 has begun, with Alice to move, wherever it went.
async fn first_notice(table: &Table<'_>) -> StoredMessage {
    let begun = table.says("your move: game #1", "ваш ход: партия №1");
    table.fake.wait_for_message("Alice's first notice", |m| m.content.contains(begun)).await
}

/// With a thread per game turned on, a game started at `table`: its board, and the thread
/// its first notice went to.
async fn game_with_a_thread(table: &Table<'_>) -> (StoredMessage, u64) {
    let fake = table.fake;
    threads_on(table).await;
    let board = start_game(table).await;
    let notice = first_notice(table).await;
    let thread = fake.threads()[0].id;
    assert_eq!(notice.channel_id, thread);
    (board, thread)
}

async fn when_a_games_thread_is_deleted_the_game_goes_on_in_the_channel(locale: &'static str) {
    let (fake, bot) = served("thread-deleted").await;
    let table = Table { fake: &fake, channel: CHANNEL, locale };
    let (board, thread) = game_with_a_thread(&table).await;

    // A moderator deletes the thread; the game goes on, its messages back in the channel.
    fake.delete_channel(thread);
    let played = table.command(ALICE, "move", &json!({ "notation": "d2-c2" }), &[]);
    assert!(private_answer(&fake, &played).await.starts_with(table.says("You played", "Вы сыграли")));
    board_at(&fake, board.id, 1, 1).await;
    let your_move = table.says("your move in game #1", "ваш ход в партии №1");
    let notice = fake.wait_for_message("Bob's notice", |m| m.content.contains(your_move)).await;
    assert_eq!(notice.channel_id, CHANNEL, "in the channel, the thread being gone");
    table.assert_no_english(NOT_ENGLISH);
    bot.stop().await;
}

/// The board message of game 1 showing ply `ply`, anywhere, if one does within [`WAIT`].
async fn a_board_at(fake: &FakeDiscord, ply: usize) -> Option<StoredMessage> {
    let name = format!("game-1-{ply}.png");
    let deadline = tokio::time::Instant::now() + WAIT;
    loop {
        let found = fake
            .all_messages()
            .into_iter()
            .find(|m| !m.deleted && !m.is_ephemeral() && m.attachments.iter().any(|a| a.filename == name));
        if found.is_some() || tokio::time::Instant::now() > deadline {
            return found;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
}

/// The statuses Discord answered the bot's edits of message `id` with, for a failure's message.
fn edits_of(fake: &FakeDiscord, id: u64) -> Vec<u16> {
    let path = format!("/messages/{id}");
    fake.requests().iter().filter(|r| r.method == "PATCH" && r.path.ends_with(&path)).map(|r| r.status).collect()
}

/// A game with a thread whose board a player posted anew (`/tafl board`, "when the history
/// scrolls away"): the new board lives in the thread. Returns the board and the thread.
async fn board_posted_in_the_thread(table: &Table<'_>) -> (StoredMessage, u64) {
    let fake = table.fake;
    let (_, thread) = game_with_a_thread(table).await;
    let posted = table.command(ALICE, "board", &json!({}), &[]);
    fake.wait_for_original(&posted).await;
    let board =
        fake.wait_for_message("the board posted anew", |m| m.channel_id == thread && !m.attachments.is_empty()).await;
    (board, thread)
}

async fn when_a_games_thread_is_locked_the_game_and_its_board_go_on_in_the_channel(locale: &'static str) {
    let (fake, bot) = served("thread-locked").await;
    let table = Table { fake: &fake, channel: CHANNEL, locale };
    let (board, thread) = board_posted_in_the_thread(&table).await;

    // A moderator locks the thread: Discord refuses the bot's posts and edits there for good
    // ("Thread is locked"), and its reopening. The game goes on, its messages back in the
    // channel, and none is lost: the board, which can no longer be edited, is posted anew there.
    fake.lock_thread(thread);
    let played = table.command(ALICE, "move", &json!({ "notation": "d2-c2" }), &[]);
    assert!(private_answer(&fake, &played).await.starts_with(table.says("You played", "Вы сыграли")));
    let your_move = table.says("your move in game #1", "ваш ход в партии №1");
    let notice = fake.wait_for_message("Bob's notice", |m| m.content.contains(your_move)).await;
    assert_eq!(notice.channel_id, CHANNEL, "in the channel, the thread being locked");
    let shown = a_board_at(&fake, 1).await.expect("a board showing Alice's move");
    assert_eq!(shown.channel_id, CHANNEL, "the board came back to the channel");
    assert!(!shown.custom_ids().is_empty(), "with its controls");
    assert!(edits_of(&fake, board.id).contains(&403), "the board in the thread was tried first");

    // The game goes on there: Bob moves on the new board, which follows.
    let played = table.command(BOB, "move", &json!({ "notation": "d3-c3" }), &[]);
    let answer = private_answer(&fake, &played).await;
    assert!(answer.starts_with(table.says("You played", "Вы сыграли")), "{answer}");
    board_at(&fake, shown.id, 1, 2).await;
    table.assert_no_english(NOT_ENGLISH);
    bot.stop().await;
}

/// A correspondence game challenged in a thread people opened (a forum post, a "games" thread):
/// its board is the card in that thread. A day without a message there, and Discord archives the
/// thread (24 h is the usual auto-archive duration; the bot chose none). The next move's board
/// edit is refused ("Thread is archived"): the bot reopens the thread and edits the board.
async fn a_board_in_a_thread_that_archived_overnight_still_shows_the_next_move(locale: &'static str) {
    let (fake, bot) = served("archived-people-thread").await;
    let table = Table { fake: &fake, channel: CHANNEL, locale };
    let typed = |player: Player, subcommand: &str, options: &Value, users: &[Player]| {
        fake.push_interaction(in_thread(table.command_payload(player, subcommand, options, users), CHANNEL, THREAD))
    };
    let options = json!({ "opponent": BOB.id, "variant": "brandubh", "side": 0 });
    let card = fake.wait_for_original(&typed(ALICE, "challenge", &options, &[BOB])).await;
    assert_eq!(card.channel_id, THREAD);
    let accept = table.says("Accept", "Принять");
    let accept = card.button_labels().into_iter().find(|(label, _)| label == accept).expect("an Accept button").1;
    let _ = table.click(BOB, &card, &accept, None);
    first_notice(&table).await;

    // A day passes with no message in the thread: Discord archives it.
    fake.archive_thread(THREAD);
    // Alice moves (typed in the parent channel: commands cannot be used in an archived thread).
    let played = table.command(ALICE, "move", &json!({ "notation": "d2-c2" }), &[]);
    assert!(private_answer(&fake, &played).await.starts_with(table.says("You played", "Вы сыграли")));
    let board = a_board_at(&fake, 1).await;
    assert_eq!(
        board.map(|b| b.id),
        Some(card.id),
        "the card shows Alice's move; its edits: {:?}",
        edits_of(&fake, card.id)
    );
    let reopened =
        fake.requests().iter().any(|r| r.method == "PATCH" && r.path == format!("/api/v10/channels/{THREAD}"));
    assert!(reopened, "the bot reopened the thread to edit its board");
    let your_move = table.says("your move in game #1", "ваш ход в партии №1");
    let notice = fake.wait_for_message("Bob's notice", |m| m.content.contains(your_move)).await;
    assert_eq!(notice.channel_id, THREAD);
    table.assert_no_english(NOT_ENGLISH);
    bot.stop().await;
}

/// With threads on, a player posts the board anew: it goes into the game's thread. A week with
/// no message there (a 7-day clock, an untimed game) and the thread is archived; the next move's
/// board edit is refused, and the bot reopens the thread to make it.
async fn a_board_posted_anew_in_the_games_thread_still_shows_moves_after_the_thread_archived(locale: &'static str) {
    let (fake, bot) = served("archived-bot-thread").await;
    let table = Table { fake: &fake, channel: CHANNEL, locale };
    let (board, thread) = board_posted_in_the_thread(&table).await;
    fake.archive_thread(thread);
    let played = table.command(ALICE, "move", &json!({ "notation": "d2-c2" }), &[]);
    assert!(private_answer(&fake, &played).await.starts_with(table.says("You played", "Вы сыграли")));
    let shown = a_board_at(&fake, 1).await;
    assert_eq!(
        shown.map(|b| b.id),
        Some(board.id),
        "the board in the thread follows; its edits: {:?}",
        edits_of(&fake, board.id)
    );
    let your_move = table.says("your move in game #1", "ваш ход в партии №1");
    let notice = fake.wait_for_message("Bob's notice", |m| m.content.contains(your_move)).await;
    assert_eq!(notice.channel_id, thread, "the game stays in its thread");
    bot.stop().await;
}

/// A game challenged in a thread people opened, and a moderator locks the thread. The game never
/// moves to the parent channel (README): its board stays as it was, refused, and no board nor
/// notice appears in the channel. Once the thread is unlocked, the next move shows on the board.
async fn a_board_in_a_locked_thread_people_opened_catches_up_once_the_thread_reopens(locale: &'static str) {
    let (fake, bot) = served("locked-people-thread").await;
    let table = Table { fake: &fake, channel: CHANNEL, locale };
    let typed = |player: Player, subcommand: &str, options: &Value, users: &[Player]| {
        fake.push_interaction(in_thread(table.command_payload(player, subcommand, options, users), CHANNEL, THREAD))
    };
    let options = json!({ "opponent": BOB.id, "variant": "brandubh", "side": 0 });
    let card = fake.wait_for_original(&typed(ALICE, "challenge", &options, &[BOB])).await;
    let accept = table.says("Accept", "Принять");
    let accept = card.button_labels().into_iter().find(|(label, _)| label == accept).expect("an Accept button").1;
    let _ = table.click(BOB, &card, &accept, None);
    first_notice(&table).await;

    fake.lock_thread(THREAD);
    let played = table.command(ALICE, "move", &json!({ "notation": "d2-c2" }), &[]);
    assert!(private_answer(&fake, &played).await.starts_with(table.says("You played", "Вы сыграли")));
    fake.wait_for("the board's edit, refused", |r| {
        r.method == "PATCH" && r.path.ends_with(&format!("/messages/{}", card.id)) && r.status == 403
    })
    .await;
    let posts_in_thread = |r: &Recorded| r.method == "POST" && r.path == format!("/api/v10/channels/{THREAD}/messages");
    fake.wait_for("Bob's notice, refused", |r| posts_in_thread(r) && r.status == 403).await;
    let in_channel: Vec<StoredMessage> =
        fake.all_messages().into_iter().filter(|m| m.channel_id == CHANNEL && !m.is_ephemeral()).collect();
    assert!(in_channel.is_empty(), "nothing in the parent channel: {in_channel:#?}");

    // The moderator reopens the thread; Bob's move shows on the board there.
    fake.unlock_thread(THREAD);
    let played = table.command(BOB, "move", &json!({ "notation": "d3-c3" }), &[]);
    assert!(private_answer(&fake, &played).await.starts_with(table.says("You played", "Вы сыграли")));
    board_at(&fake, card.id, 1, 2).await;
    bot.stop().await;
}

/// A challenge card in a thread people opened expires unanswered after a day: a day in which
/// nobody wrote in the thread, so Discord archived it. Closing the card (an edit) reopens the
/// thread: the expired card loses its Accept and Decline buttons.
async fn a_challenge_expiring_in_an_archived_thread_has_its_card_closed(locale: &'static str) {
    let fake = FakeDiscord::start().await;
    let dir = temp_dir("expired-in-archived-thread");
    let bot = TestBot::start(&fake, &dir);
    fake.wait_until_ready().await;
    let table = Table { fake: &fake, channel: CHANNEL, locale };
    let payload =
        table.command_payload(ALICE, "challenge", &json!({ "opponent": BOB.id, "variant": "brandubh" }), &[BOB]);
    let card = fake.wait_for_original(&fake.push_interaction(in_thread(payload, CHANNEL, THREAD))).await;
    assert_eq!(card.channel_id, THREAD);
    let db = tafl_bot::store::Db::open(&format!("sqlite://{}", dir.join("tafl.db").display())).await.unwrap();
    let recorded = "SELECT count(*) FROM challenge_messages WHERE challenge_id = 1";
    for _ in 0..100 {
        if sqlx::query_scalar::<_, i64>(recorded).fetch_one(db.pool()).await.unwrap() == 1 {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    // A day passes: the thread is archived, and the challenge expires.
    fake.archive_thread(THREAD);
    sqlx::query("UPDATE challenges SET expires_at = expires_at - 86400 - 1").execute(db.pool()).await.unwrap();
    db.close().await;
    let deadline = tokio::time::Instant::now() + WAIT;
    let closed = loop {
        let now = fake.message(card.id).expect("the card");
        if now.custom_ids().is_empty() || tokio::time::Instant::now() > deadline {
            break now;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    };
    assert!(
        closed.custom_ids().is_empty(),
        "the expired card still offers {:?}; its edits were answered {:?}",
        closed.custom_ids(),
        edits_of(&fake, card.id)
    );
    assert!(!fake.is_archived(THREAD), "the thread was reopened to close the card");
    table.assert_no_english(NOT_ENGLISH);
    bot.stop().await;
}

/// With threads on, the board in the channel is the thread's starter message: what the channel
/// shows of the game. Once a player posts the board anew (`/tafl board`), the new one goes into
/// the thread and the channel's board loses its buttons; when the game ends, the channel's board
/// shows the end too, not "Alice to move" with her deadline for ever.
async fn the_channels_board_of_a_thread_game_shows_its_end_after_the_board_was_posted_anew(locale: &'static str) {
    let (fake, bot) = served("retired-starter").await;
    let table = Table { fake: &fake, channel: CHANNEL, locale };
    let (first, _) = game_with_a_thread(&table).await;
    let posted = table.command(ALICE, "board", &json!({}), &[]);
    fake.wait_for_original(&posted).await;
    let thread = fake.threads()[0].id;
    let board =
        fake.wait_for_message("the board posted anew", |m| m.channel_id == thread && !m.attachments.is_empty()).await;
    let retired =
        fake.wait_for_message("the channel's board, retired", |m| m.id == first.id && m.custom_ids().is_empty()).await;
    let resigned = table.command(ALICE, "resign", &json!({}), &[]);
    private_answer(&fake, &resigned).await;
    fake.wait_for_message("the summary", |m| m.attachments.iter().any(|a| a.filename == "game-1.gif")).await;
    let last = fake.wait_for_message("the final board", |m| m.id == board.id && m.custom_ids().is_empty()).await;
    assert_ne!(last.text(), retired.text(), "the final board says how the game ended");
    let starter = fake
        .wait_for_message("the channel's board showing the end", |m| m.id == first.id && m.text() == last.text())
        .await;
    assert!(!starter.deleted && starter.custom_ids().is_empty());
    assert_eq!(starter.channel_id, CHANNEL);
    table.assert_no_english(NOT_ENGLISH);
    bot.stop().await;
}

/// Discord makes the thread but its answer is lost; the retry meets "a thread has already been
/// created for this message" (160004) and adopts it: one thread, notices in it.
async fn a_thread_made_but_whose_answer_was_lost_is_adopted_not_made_twice(locale: &'static str) {
    let (fake, bot) = served("thread-lost-answer").await;
    let table = Table { fake: &fake, channel: CHANNEL, locale };
    threads_on(&table).await;
    fake.fail_next(|r| r.method == "POST" && r.path.ends_with("/threads"), 1, Fault::AppliedThenServerError(502));
    let board = start_game(&table).await;
    let notice = first_notice(&table).await;
    let threads = fake.threads();
    assert_eq!(threads.len(), 1, "{threads:#?}");
    assert_eq!(threads[0].id, board.id);
    assert_eq!(notice.channel_id, threads[0].id);
    bot.stop().await;
}

/// A game challenged in a thread people opened (a private one, perhaps) lives there: when the
/// thread is closed to the bot, its notices are refused, but they never go to the parent
/// channel, before people who could not see the thread.
async fn a_game_begun_in_a_thread_closed_to_the_bot_never_moves_to_its_channel(locale: &'static str) {
    let (fake, bot) = served("thread-begun-closed").await;
    let table = Table { fake: &fake, channel: CHANNEL, locale };
    let typed = |player: Player, subcommand: &str, options: &Value, users: &[Player]| {
        fake.push_interaction(in_thread(table.command_payload(player, subcommand, options, users), CHANNEL, THREAD))
    };
    let options = json!({ "opponent": BOB.id, "variant": "brandubh", "side": 0 });
    let card = fake.wait_for_original(&typed(ALICE, "challenge", &options, &[BOB])).await;
    assert_eq!(card.channel_id, THREAD);
    // The bot loses its access to the thread (a private thread it was never added to).
    let posts_in_thread =
        move |r: &Recorded| r.method == "POST" && r.path == format!("/api/v10/channels/{THREAD}/messages");
    fake.fail_next(posts_in_thread, usize::MAX, Fault::Refused { status: 403, code: 50_001 });
    let accept = table.says("Accept", "Принять");
    let accept = card.button_labels().into_iter().find(|(label, _)| label == accept).expect("an Accept button").1;
    let _ = table.click(BOB, &card, &accept, None);
    fake.wait_for("the first notice, refused", |r| posts_in_thread(r) && r.status == 403).await;
    let played = typed(ALICE, "move", &json!({ "notation": "d2-c2" }), &[]);
    assert!(private_answer(&fake, &played).await.starts_with(table.says("You played", "Вы сыграли")));
    board_at(&fake, card.id, 1, 1).await;
    let refused = |fake: &FakeDiscord| fake.requests().iter().filter(|r| posts_in_thread(r) && r.status == 403).count();
    for _ in 0..100 {
        if refused(&fake) >= 2 {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    assert!(refused(&fake) >= 2, "Bob's notice was tried in the thread too");
    let in_channel: Vec<StoredMessage> = fake.all_messages().into_iter().filter(|m| m.channel_id == CHANNEL).collect();
    assert!(in_channel.is_empty(), "nothing in the parent channel: {in_channel:#?}");
    bot.stop().await;
}

async fn only_managers_change_the_server_settings(locale: &'static str) {
    let (fake, bot) = served("not-manager").await;
    let table = Table { fake: &fake, channel: CHANNEL, locale };

    // Eve may not manage the server: nothing changes, not even her own part of the request.
    let refused = settings(
        &fake,
        From::member(&table, EVE),
        &[option("dm", json!(true)), option("threads", json!(true)), channel("allow_channel", OTHER_CHANNEL)],
    );
    assert_eq!(
        private_answer(&fake, &refused).await,
        table.says(
            "Only members who can manage this server change its settings; your own settings (dm, digest, \
             orientation, theme) are yours to change.",
            "Настройки сервера меняют только те, кто может управлять сервером; свои настройки (лс, сводка, \
             ориентация, тема) вы меняете сами."
        )
    );
    let shown = settings(&fake, From::member(&table, EVE), &[]);
    let shown = private_answer(&fake, &shown).await;
    assert!(!shown.contains(table.says("Saved.", "Сохранено.")), "{shown}");
    let lines = if table.is_english() {
        [
            "Reminders and notices by direct message: off",
            "A thread for each game: off",
            "Channels for games: every channel",
        ]
    } else {
        [
            "Напоминания и уведомления в личные сообщения: выкл.",
            "Ветка для каждой партии: выкл.",
            "Каналы для партий: все",
        ]
    };
    for line in lines {
        assert!(shown.contains(line), "{line:?} in {shown}");
    }
    start_game(&table).await;
    let begun = table.says("your move: game #1", "ваш ход: партия №1");
    fake.wait_for_message("the first notice", |m| m.content.contains(begun)).await;
    assert!(fake.threads().is_empty(), "threads are still off");

    // Server settings cannot be changed from a direct message, personal ones can.
    let dm = From { channel: None, ..From::manager(&table, ALICE) };
    let refused = settings(&fake, dm, &[option("threads", json!(true))]);
    let in_server = table.says("Server settings are changed in the server", "Настройки сервера меняют на сервере");
    assert!(private_answer(&fake, &refused).await.starts_with(in_server));
    let saved = settings(&fake, dm, &[option("digest", json!(true))]);
    let saved = private_answer(&fake, &saved).await;
    let digest_on = table.says("Daily digest: on", "Ежедневная сводка: вкл.");
    let server = table.says("This server", "Этот сервер");
    assert!(saved.contains(digest_on) && !saved.contains(server), "{saved}");
    table.assert_no_english(NOT_ENGLISH);

    // A member reading the other language is answered in theirs (on a server whose language
    // Discord does not send).
    let other = if table.is_english() { "ru" } else { "en-US" };
    let refused = settings(
        &fake,
        From { locale: other, server: None, ..From::member(&table, EVE) },
        &[option("default_clock", json!("3d"))],
    );
    let refused = private_answer(&fake, &refused).await;
    let expected = if table.is_english() {
        "Настройки сервера меняют только те"
    } else {
        "Only members who can manage"
    };
    assert!(refused.starts_with(expected), "{refused}");
    bot.stop().await;
}

async fn personal_settings_round_trip_and_style_the_boards_a_player_shows(locale: &'static str) {
    let (fake, bot) = served("personal").await;
    let table = Table { fake: &fake, channel: CHANNEL, locale };

    let set = settings(
        &fake,
        From::member(&table, BOB),
        &[
            option("dm", json!(true)),
            option("digest", json!(true)),
            option("orientation", json!(1)),
            option("theme", json!(1)),
        ],
    );
    let saved = private_answer(&fake, &set).await;
    let expected = if table.is_english() {
        [
            "Reminders and notices by direct message: on",
            "Daily digest: on",
            "Board orientation: flipped",
            "Board theme: high-contrast",
        ]
    } else {
        [
            "Напоминания и уведомления в личные сообщения: вкл.",
            "Ежедневная сводка: вкл.",
            "Ориентация доски: перевёрнутая",
            "Тема доски: контрастная",
        ]
    };
    let yours = table.says("**Your settings**", "**Ваши настройки**");
    assert!(saved.starts_with(&format!("{}\n{yours}", table.says("Saved.", "Сохранено."))), "{saved}");
    for line in expected {
        assert!(saved.contains(line), "{line:?} in {saved}");
    }
    let shown = settings(&fake, From::member(&table, BOB), &[]);
    let shown = private_answer(&fake, &shown).await;
    assert!(shown.starts_with(yours), "{shown}");
    for line in expected {
        assert!(shown.contains(line), "{line:?} in {shown}");
    }
    // Changing one setting keeps the others.
    let one = settings(&fake, From::member(&table, BOB), &[option("dm", json!(false))]);
    let one = private_answer(&fake, &one).await;
    let dm_off = table
        .says("Reminders and notices by direct message: off", "Напоминания и уведомления в личные сообщения: выкл.");
    assert!(one.contains(dm_off) && one.contains(expected[3]), "{one}");
    // Alice's settings are her own.
    let alice = settings(&fake, From::member(&table, ALICE), &[]);
    let classic = table.says("Board theme: classic", "Тема доски: классическая");
    assert!(private_answer(&fake, &alice).await.contains(classic));

    // `/tafl board` draws the position in the style of whoever asks.
    let board = start_game(&table).await;
    let picture = |message: &StoredMessage| message.attachments.first().expect("a picture").data.clone();
    // The new board comes as a message of its own, after a private answer.
    let asked = table.command(ALICE, "board", &json!({}), &[]);
    assert!(fake.wait_for_original(&asked).await.is_ephemeral());
    let alices = fake.wait_for_message("Alice's board", |m| m.id > board.id && !m.attachments.is_empty()).await;
    assert_eq!(picture(&alices), picture(&board), "Alice sees the default style");
    let asked = table.command(BOB, "board", &json!({}), &[]);
    assert!(fake.wait_for_original(&asked).await.is_ephemeral());
    let bobs = fake.wait_for_message("Bob's board", |m| m.id > alices.id && !m.attachments.is_empty()).await;
    assert!(picture(&bobs).starts_with(b"\x89PNG"));
    assert_ne!(picture(&bobs), picture(&alices), "Bob sees his own style");
    // Bob's board is the game's now, and stays in his style at every move: it went back to the
    // default at the first edit.
    let played = table.command(ALICE, "move", &json!({ "notation": "d2-c2" }), &[]);
    fake.wait_for_original(&played).await;
    let edited = board_at(&fake, bobs.id, 1, 1).await;
    let spectators_board = |style: Vec<Value>| {
        let (fake, table) = (&fake, &table);
        async move {
            let set = settings(fake, From::member(table, EVE), &style);
            private_answer(fake, &set).await;
            let asked = table.command(EVE, "board", &json!({ "game": 1 }), &[]);
            let shown = fake.wait_for_original(&asked).await;
            assert!(shown.is_ephemeral(), "a spectator is shown a game going on privately");
            picture(&shown)
        }
    };
    let default = spectators_board(Vec::new()).await;
    assert_ne!(picture(&edited), default, "the edit kept Bob's style");
    let bobs_style = spectators_board(vec![option("orientation", json!(1)), option("theme", json!(1))]).await;
    assert_eq!(picture(&edited), bobs_style, "drawn as Bob's style draws ply 1");
    table.assert_no_english(NOT_ENGLISH);
    bot.stop().await;
}

async fn a_bad_default_clock_is_refused_and_a_good_one_times_new_challenges(locale: &'static str) {
    let (fake, bot) = served("default-clock").await;
    let table = Table { fake: &fake, channel: CHANNEL, locale };

    let bad = settings(
        &fake,
        From::manager(&table, ALICE),
        &[option("threads", json!(true)), option("default_clock", json!("soon"))],
    );
    let answer = private_answer(&fake, &bad).await;
    let unreadable = table.says(
        "\"soon\" is not a clock; write a time per move such as 1d, 3d, 12h",
        "«soon» — непонятная запись часов; напишите время на ход, например 1d, 3d, 12h",
    );
    assert!(answer.starts_with(unreadable), "{answer}");
    assert!(answer.contains("3d+7d") && answer.ends_with(table.says("or none.", "или none.")), "{answer}");
    let too_long = settings(&fake, From::manager(&table, ALICE), &[option("default_clock", json!("90d"))]);
    assert!(private_answer(&fake, &too_long).await.contains(table.says("30 days", "30 дней")));
    let shown = settings(&fake, From::manager(&table, ALICE), &[]);
    let shown = private_answer(&fake, &shown).await;
    let (no_clock, no_threads) = if table.is_english() {
        ("Default clock: `none`", "A thread for each game: off")
    } else {
        ("Часы по умолчанию: `none`", "Ветка для каждой партии: выкл.")
    };
    assert!(shown.contains(no_clock) && shown.contains(no_threads), "{shown}");

    let good = settings(&fake, From::manager(&table, ALICE), &[option("default_clock", json!("3d+7d"))]);
    let answer = private_answer(&fake, &good).await;
    let words = table.says(
        "Time per move: 3 days, unused time saved up to 7 days",
        "Время на ход: 3 дня, неиспользованное время копится, но не больше, чем 7 дней",
    );
    let default = table.says("Default clock: `3d+7d`", "Часы по умолчанию: `3d+7d`");
    assert!(answer.contains(&format!("{default}. {words}")), "{answer}");
    let challenge = table.command(ALICE, "challenge", &json!({ "opponent": BOB.id }), &[BOB]);
    let card = fake.wait_for_original(&challenge).await;
    assert!(card.text().contains(words), "{}", card.text());
    let untimed = settings(&fake, From::manager(&table, ALICE), &[option("default_clock", json!("none"))]);
    assert!(private_answer(&fake, &untimed).await.contains(no_clock));
    table.assert_no_english(NOT_ENGLISH);
    bot.stop().await;
}

async fn challenges_are_refused_in_channels_the_managers_did_not_allow(locale: &'static str) {
    let (fake, bot) = served("channels").await;
    let here = Table { fake: &fake, channel: CHANNEL, locale };
    let there = Table { fake: &fake, channel: OTHER_CHANNEL, locale };
    let refused = here.says(
        "Games are not played in this channel on this server; ask a manager, or use an allowed channel.",
        "На этом сервере в этом канале не играют; спросите администратора сервера или перейдите в разрешённый канал.",
    );
    let channels = here.says("Channels for games:", "Каналы для партий:");

    let allowed = settings(&fake, From::manager(&here, EVE), &[channel("allow_channel", OTHER_CHANNEL)]);
    let answer = private_answer(&fake, &allowed).await;
    assert!(answer.contains(&format!("{channels} <#{OTHER_CHANNEL}>")), "{answer}");
    let challenge = here.command(ALICE, "challenge", &json!({ "opponent": BOB.id }), &[BOB]);
    assert_eq!(private_answer(&fake, &challenge).await, refused);
    let challenge = there.command(ALICE, "challenge", &json!({ "opponent": BOB.id }), &[BOB]);
    assert!(!fake.wait_for_original(&challenge).await.is_ephemeral(), "a card in the allowed channel");

    // The last allowed channel cannot be closed: that would open every channel.
    let last = settings(&fake, From::manager(&here, EVE), &[channel("disallow_channel", OTHER_CHANNEL)]);
    let only = if here.is_english() {
        format!(
            "<#{OTHER_CHANNEL}> is the only channel allowed for games; allow another one first, or all of them with \
             all_channels."
        )
    } else {
        format!(
            "<#{OTHER_CHANNEL}> — единственный канал для партий; сначала разрешите другой или все сразу параметром \
             все_каналы."
        )
    };
    assert_eq!(private_answer(&fake, &last).await, only);
    // Moving the games from one channel to another.
    let moved = settings(
        &fake,
        From::manager(&here, EVE),
        &[channel("allow_channel", CHANNEL), channel("disallow_channel", OTHER_CHANNEL)],
    );
    assert!(private_answer(&fake, &moved).await.ends_with(&format!("{channels} <#{CHANNEL}>")));
    let challenge = there.command(BOB, "challenge", &json!({ "opponent": ALICE.id }), &[ALICE]);
    assert_eq!(private_answer(&fake, &challenge).await, refused);
    let challenge = here.command(BOB, "challenge", &json!({ "opponent": ALICE.id }), &[ALICE]);
    assert!(!fake.wait_for_original(&challenge).await.is_ephemeral());

    // Every channel again.
    let all = settings(&fake, From::manager(&here, EVE), &[option("all_channels", json!(true))]);
    let every = here.says("Channels for games: every channel", "Каналы для партий: все");
    assert!(private_answer(&fake, &all).await.contains(every));
    let challenge = there.command(EVE, "challenge", &json!({}), &[]);
    assert!(!fake.wait_for_original(&challenge).await.is_ephemeral());
    here.assert_no_english(NOT_ENGLISH);
    bot.stop().await;
}

/// A thread people opened under a channel is not in the allow-list itself: its channel is what
/// the managers allowed or not. A game challenged in a thread is played in that thread, and no
/// thread is made inside it even with a thread per game on.
async fn a_challenge_in_a_thread_is_judged_by_its_channel_and_played_in_the_thread(locale: &'static str) {
    const HERE_THREAD: u64 = 1_500_000_000_000_000_101;
    const THERE_THREAD: u64 = 1_500_000_000_000_000_102;
    let fake = FakeDiscord::start().await;
    let dir = temp_dir("thread-challenge");
    let bot = TestBot::start(&fake, &dir);
    fake.wait_until_ready().await;
    let here = Table { fake: &fake, channel: CHANNEL, locale };
    let there = Table { fake: &fake, channel: OTHER_CHANNEL, locale };
    let set = settings(
        &fake,
        From::manager(&here, EVE),
        &[option("threads", json!(true)), channel("allow_channel", OTHER_CHANNEL)],
    );
    assert!(private_answer(&fake, &set).await.contains(&format!("<#{OTHER_CHANNEL}>")));
    // `/tafl …` typed in `thread` under `table`'s channel.
    let typed =
        |table: &Table<'_>, thread: u64, player: Player, subcommand: &str, options: &Value, users: &[Player]| {
            fake.push_interaction(in_thread(
                table.command_payload(player, subcommand, options, users),
                table.channel,
                thread,
            ))
        };

    let refused = here.says(
        "Games are not played in this channel on this server; ask a manager, or use an allowed channel.",
        "На этом сервере в этом канале не играют; спросите администратора сервера или перейдите в разрешённый канал.",
    );
    let challenge = typed(&here, HERE_THREAD, ALICE, "challenge", &json!({ "opponent": BOB.id }), &[BOB]);
    assert_eq!(private_answer(&fake, &challenge).await, refused, "a thread of a channel not allowed");

    let options = json!({ "opponent": BOB.id, "variant": "brandubh", "side": 0 });
    let challenge = typed(&there, THERE_THREAD, ALICE, "challenge", &options, &[BOB]);
    let card = fake.wait_for_original(&challenge).await;
    assert!(!card.is_ephemeral(), "a card in a thread of the allowed channel: {card:#?}");
    assert_eq!(card.channel_id, THERE_THREAD);
    let accept = here.says("Accept", "Принять");
    let accept = card.button_labels().into_iter().find(|(label, _)| label == accept).expect("an Accept button").1;
    let _ = there.click(BOB, &card, &accept, None);
    let begun = here.says("your move: game #1 (Brandubh) has begun", "ваш ход: партия №1 (Брандубх) началась");
    let notice = fake.wait_for_message("Alice's first notice", |m| m.content.contains(begun)).await;
    assert_eq!(notice.channel_id, THERE_THREAD, "the game is played in the thread");

    let played = typed(&there, THERE_THREAD, ALICE, "move", &json!({ "notation": "d2-c2" }), &[]);
    let answer = private_answer(&fake, &played).await;
    assert!(answer.starts_with(here.says("You played `d2-c2`", "Вы сыграли `d2-c2`")), "{answer}");
    let board = board_at(&fake, card.id, 1, 1).await;
    assert_eq!(board.channel_id, THERE_THREAD, "the card became the board, in the thread");
    let your_move = here.says("your move in game #1", "ваш ход в партии №1");
    let notice = fake.wait_for_message("Bob's notice", |m| m.content.contains(your_move)).await;
    assert_eq!(notice.channel_id, THERE_THREAD);
    assert!(fake.threads().is_empty(), "no thread is made in a thread: {:#?}", fake.threads());
    // Nor asked for: the game was never given a thread to open.
    let db = tafl_bot::store::Db::open(&format!("sqlite://{}", dir.join("tafl.db").display())).await.unwrap();
    let asked: i64 =
        sqlx::query_scalar("SELECT COUNT(*) FROM outbox WHERE kind = 'thread'").fetch_one(db.pool()).await.unwrap();
    db.close().await;
    assert_eq!(asked, 0);
    let public = |channel: u64| fake.messages_in(channel).iter().filter(|m| !m.is_ephemeral()).count();
    assert_eq!((public(CHANNEL), public(OTHER_CHANNEL)), (0, 0), "nothing in the channels themselves");
    assert!(fake.unknown_requests().is_empty(), "{:#?}", fake.unknown_requests());
    here.assert_no_english(NOT_ENGLISH);
    bot.stop().await;
}

/// The registration is the same whatever the language of whoever reads it; the Russian run
/// checks the Russian names, descriptions and choices Discord shows a Russian client, and that
/// none of them is English.
async fn the_settings_command_is_registered_with_typed_options_in_both_languages(locale: &'static str) {
    let fake = FakeDiscord::start().await;
    let dir = temp_dir("settings-registration");
    let bot = TestBot::start(&fake, &dir);
    let registration = fake.wait_until_ready().await;
    let commands = registration.json.expect("a JSON list of commands");
    let subcommands = commands[0]["options"].as_array().expect("subcommands");
    let command = subcommands.iter().find(|o| o["name"] == "settings").expect("a settings subcommand");
    // What a client in `locale` shows of `value` (a command, option or choice): its name and
    // description in that language, or the default ones.
    let shown = |value: &Value, field: &str| -> String {
        let localized = &value[format!("{field}_localizations")][locale];
        localized.as_str().or_else(|| value[field].as_str()).unwrap_or_default().to_owned()
    };
    assert_eq!(shown(command, "name"), if locale == "ru" { "настройки" } else { "settings" });
    let options = command["options"].as_array().expect("options");
    let mut texts = vec![shown(command, "description")];
    let kind = |name: &str| {
        let option = options.iter().find(|o| o["name"] == name).unwrap_or_else(|| panic!("an option {name}"));
        assert_eq!(option["required"], false, "{option}");
        assert!(
            option["name_localizations"]["ru"].is_string() && option["description_localizations"]["ru"].is_string()
        );
        option.clone()
    };
    for name in ["dm", "digest", "threads", "all_channels"] {
        assert_eq!(kind(name)["type"], 5, "{name} is a boolean");
    }
    assert_eq!(kind("default_clock")["type"], 3);
    for name in ["orientation", "theme"] {
        let option = kind(name);
        assert_eq!(option["type"], 4, "{name} is a choice, sent as its index");
        assert_eq!(option["choices"].as_array().map(Vec::len), Some(2), "{option}");
    }
    assert_eq!(
        shown(&kind("theme")["choices"][1], "name"),
        if locale == "ru" { "контрастная" } else { "high-contrast" }
    );
    for name in ["allow_channel", "disallow_channel"] {
        let option = kind(name);
        assert_eq!(option["type"], 7, "{name} is a channel");
        // Text, announcement, forum (its posts), voice and stage (their chats).
        assert_eq!(option["channel_types"], json!([0, 5, 15, 2, 13]), "the channels games are played in: {option}");
    }
    for option in options {
        texts.push(shown(option, "name"));
        texts.push(shown(option, "description"));
        for choice in option["choices"].as_array().into_iter().flatten() {
            texts.push(shown(choice, "name"));
        }
    }
    if locale == "ru" {
        // Option names are single words joined by `_`: the check reads them as notation, so
        // each is checked to be Cyrillic on its own.
        for option in options {
            let name = shown(option, "name");
            assert!(name.chars().all(|c| c == '_' || ('а'..='я').contains(&c) || c == 'ё'), "{name}");
        }
        // `none` is a value to type (like `3d+7d`), the same in every language.
        let english = tafl_bot::present::check::english_words(&texts.join("\n"), &["none"]);
        assert!(english.is_empty(), "English in the Russian settings command: {english:?}\n{texts:#?}");
    }
    bot.stop().await;
}

/// Discord's permission bits a game's messages need.
const SEND_MESSAGES: u64 = 1 << 11;
const EMBED_LINKS: u64 = 1 << 14;
const ATTACH_FILES: u64 = 1 << 15;

/// A challenge card is an answer to its command, which Discord shows whatever the channel
/// allows; a game's boards and notices are not. So where the bot may not post them, the game
/// would go on unseen while its clock runs: challenges (against a person or the bot), an
/// acceptance and nothing else are refused, naming what to grant, and nothing is stored.
async fn a_channel_where_the_bot_cannot_post_boards_refuses_games_until_it_may(locale: &'static str) {
    let (fake, bot) = served("missing-permissions").await;
    let here = Table { fake: &fake, channel: CHANNEL, locale };
    let with_permissions = |mut payload: Value, granted: u64| {
        payload["app_permissions"] = json!(granted.to_string());
        fake.push_interaction(payload)
    };
    let no_pictures = MEMBER & !(EMBED_LINKS | ATTACH_FILES);
    let refused = here.says(
        "I cannot host a game in this channel: I need the permissions **Embed Links**, **Attach Files** here to post its boards. A server manager can grant them to me, or you can play in another channel.",
        "Я не могу вести партию в этом канале: чтобы публиковать её доски, мне здесь нужны права «Встраивать ссылки», «Прикреплять файлы». Попросите администратора сервера выдать их или играйте в другом канале.",
    );
    let options = json!({ "opponent": BOB.id, "variant": "brandubh" });
    let challenge = with_permissions(here.command_payload(ALICE, "challenge", &options, &[BOB]), no_pictures);
    assert_eq!(private_answer(&fake, &challenge).await, refused);
    let against_bot = json!({ "level": 1, "variant": "brandubh" });
    let challenge = with_permissions(here.command_payload(ALICE, "challenge", &against_bot, &[]), no_pictures);
    assert_eq!(private_answer(&fake, &challenge).await, refused);

    // Allowed when it is posted; by the time Bob accepts, the bot may no longer send messages.
    let card = fake.wait_for_original(&here.command(ALICE, "challenge", &options, &[BOB])).await;
    assert!(!card.is_ephemeral());
    let accept = here.says("Accept", "Принять");
    let accept = card.button_labels().into_iter().find(|(label, _)| label == accept).expect("an Accept button").1;
    let mut click = with_name(fake.component(&card, &accept, &[], BOB.id), BOB.name);
    click["locale"] = json!(locale);
    let accepted = with_permissions(click, MEMBER & !SEND_MESSAGES);
    let refused = here.says(
        "I cannot host a game in this channel: I need the permission **Send Messages** here to post its boards. A server manager can grant it to me, or you can play in another channel.",
        "Я не могу вести партию в этом канале: чтобы публиковать её доски, мне здесь нужно право «Отправлять сообщения». Попросите администратора сервера выдать его или играйте в другом канале.",
    );
    assert_eq!(private_answer(&fake, &accepted).await, refused);
    let games = fake.wait_for_original(&here.command(ALICE, "games", &json!({}), &[])).await;
    assert!(
        games.text().contains(here.says("You have no games in progress", "У вас нет идущих партий")),
        "{}",
        games.text()
    );

    // Granted again: the same card's Accept starts the game.
    let _ = here.click(BOB, &card, &accept, None);
    let begun = here.says("your move: game #1 (Brandubh) has begun", "ваш ход: партия №1 (Брандубх) началась");
    fake.wait_for_message("Alice's first notice", |m| m.content.contains(begun)).await;
    bot.stop().await;
}

/// `dm` on: the notices that ask something of the player (their move, an offer to answer, a
/// reminder) come by DM too, with a link to the game's channel; the other player's do not. When
/// the game's channel is deleted, the DM is the one way left to reach them, and still goes out.
async fn what_asks_something_of_a_player_who_wants_dms_reaches_them_by_dm(locale: &'static str) {
    let fake = FakeDiscord::start().await;
    let dir = temp_dir("dm-notices");
    let bot = TestBot::start(&fake, &dir);
    fake.wait_until_ready().await;
    let table = Table { fake: &fake, channel: CHANNEL, locale };
    asks_for_dms(&table, ALICE).await;
    // Only DMs are posted outside the game's channel (the fake is locked while it matches).
    let alice_dm =
        |fragment: &'static str| move |m: &StoredMessage| m.channel_id != CHANNEL && m.content.contains(fragment);
    let link = format!("https://discord.com/channels/{GUILD}/{CHANNEL}");

    let options = json!({ "opponent": BOB.id, "variant": "brandubh", "side": 0, "clock": "1d" });
    let card = fake.wait_for_original(&table.command(ALICE, "challenge", &options, &[BOB])).await;
    let _ = table.click(BOB, &card, "tafl:accept:1", None);
    let begun = table.says("your move: game #1", "ваш ход: партия №1");
    let first = fake.wait_for_message("Alice's first move by DM", alice_dm(begun)).await;
    assert_eq!(Some(first.channel_id), fake.dm_channel(ALICE.id), "to Alice");
    assert!(first.content.ends_with(&link), "{}", first.content);
    let played = table.command(ALICE, "move", &json!({ "notation": "d2-c2" }), &[]);
    private_answer(&fake, &played).await;
    let bobs = table.says("your move in game #1", "ваш ход в партии №1");
    fake.wait_for_message("Bob's move in the channel", |m| m.channel_id == CHANNEL && m.content.contains(bobs)).await;

    // Bob offers a draw: Alice, who must answer, hears of it by DM; of her decline nobody does.
    let offer = table.command(BOB, "draw", &json!({}), &[]);
    private_answer(&fake, &offer).await;
    let offered = table.says("offers a draw in game #1", "предлагает ничью в партии №1");
    fake.wait_for_message("the offer by DM", alice_dm(offered)).await;
    let decline = table.command(ALICE, "draw", &json!({ "action": 2 }), &[]);
    private_answer(&fake, &decline).await;
    let declined = table.says("declines the draw", "отклоняет ничью");
    fake.wait_for_message("the decline in the channel", |m| m.content.contains(declined)).await;
    let played = table.command(BOB, "move", &json!({ "notation": "d3-c3" }), &[]);
    private_answer(&fake, &played).await;
    let again = table.says("your move in game #1", "ваш ход в партии №1");
    fake.wait_for_message("Alice's next move by DM", alice_dm(again)).await;

    // The channel is deleted by a moderator: Alice is told how the game goes on, and the halfway
    // reminder, which has nowhere to be posted, reaches her by DM, linking to no deleted channel.
    fake.delete_channel(CHANNEL);
    let gone = table.says("Game #1's channel was deleted", "Канал партии №1 удалён");
    fake.wait_for_message("the channel's deletion by DM", alice_dm(gone)).await;
    tafl_e2e::harness::let_time_pass(&dir, 1, 13 * 3600, 11 * 3600).await;
    let halfway = table.says("half your time is gone", "половина времени прошла");
    let reminder = fake.wait_for_message("the reminder by DM", alice_dm(halfway)).await;
    assert!(!reminder.content.contains(&link), "{}", reminder.content);

    let dms = fake.messages_in(fake.dm_channel(ALICE.id).expect("Alice's DMs"));
    assert_eq!(dms.len(), 5, "her two moves, the offer, the channel's deletion and the reminder: {dms:#?}");
    assert!(dms.iter().all(|m| !m.content.contains(declined)), "the decline asks nothing of her");
    assert_eq!(fake.dm_channel(BOB.id), None, "Bob did not ask for DMs");
    table.assert_no_english(NOT_ENGLISH);
    bot.stop().await;
}

/// The game's channel is deleted, and Discord fails the first try of the DM that is now the one
/// way to tell Bob of his move: the notice is tried again, and the DM arrives once.
async fn a_dm_that_is_the_one_way_left_is_tried_again_after_an_outage(locale: &'static str) {
    let (fake, bot) = served("dm-retried").await;
    let table = Table { fake: &fake, channel: CHANNEL, locale };
    asks_for_dms(&table, BOB).await;
    start_game(&table).await;
    first_notice(&table).await;
    fake.delete_channel(CHANNEL);
    let gone = table.says("Game #1's channel was deleted", "Канал партии №1 удалён");
    fake.wait_for_message("Bob's DM that the channel is gone", |m| m.content.starts_with(gone)).await;
    let channel_posts = format!("/api/v10/channels/{CHANNEL}/messages");
    let dm_post = move |r: &Recorded| r.method == "POST" && r.path.ends_with("/messages") && r.path != channel_posts;
    fake.fail_next(dm_post.clone(), 1, Fault::ServerError(503));
    let played = table.command(ALICE, "move", &json!({ "notation": "d2-c2" }), &[]);
    assert!(private_answer(&fake, &played).await.starts_with(table.says("You played", "Вы сыграли")));
    let your_move = table.says("your move in game #1", "ваш ход в партии №1");
    fake.wait_for_message("Bob's DM", |m| m.channel_id != CHANNEL && m.content.contains(your_move)).await;
    let tries = fake.requests().iter().filter(|r| dm_post(r)).count();
    assert_eq!(tries, 3, "the channel's deletion, then the failed DM and its retry");
    let bobs = fake.messages_in(fake.dm_channel(BOB.id).expect("Bob's DMs"));
    assert_eq!(bobs.iter().filter(|m| m.content.contains(your_move)).count(), 1, "{bobs:#?}");
    bot.stop().await;
}

/// The game's thread is deleted: Bob's "your move" goes to the game's channel, and his DM links
/// there, not to the thread that is gone.
async fn a_dm_after_the_games_thread_is_deleted_links_to_the_channel_the_notice_went_to(locale: &'static str) {
    dm_after_the_thread_closes(locale, "dm-thread-deleted", FakeDiscord::delete_channel).await;
}

/// The game's own thread is locked (not deleted): the notice goes back to the channel, and so
/// does the DM's link. The DM waits for the channel's post instead of going out with the refused
/// try, linking to the locked thread (the retry's nonce would then return that DM).
async fn a_dm_after_the_games_thread_is_locked_links_to_the_channel_the_notice_went_to(locale: &'static str) {
    dm_after_the_thread_closes(locale, "dm-thread-locked", FakeDiscord::lock_thread).await;
}

/// Bob asked for DMs; `close` takes the game's thread away from the bot before Alice moves. His
/// notice goes to the channel, and his one DM links there.
async fn dm_after_the_thread_closes(locale: &'static str, name: &str, close: impl Fn(&FakeDiscord, u64)) {
    let (fake, bot) = served(name).await;
    let table = Table { fake: &fake, channel: CHANNEL, locale };
    asks_for_dms(&table, BOB).await;
    let (board, thread) = game_with_a_thread(&table).await;
    close(&fake, thread);
    let played = table.command(ALICE, "move", &json!({ "notation": "d2-c2" }), &[]);
    assert!(private_answer(&fake, &played).await.starts_with(table.says("You played", "Вы сыграли")));
    board_at(&fake, board.id, 1, 1).await;
    let your_move = table.says("your move in game #1", "ваш ход в партии №1");
    fake.wait_for_message("Bob's notice", |m| m.channel_id == CHANNEL && m.content.contains(your_move)).await;
    let dm = fake
        .wait_for_message("Bob's DM", |m| {
            m.channel_id != CHANNEL && m.channel_id != thread && m.content.contains(your_move)
        })
        .await;
    assert!(dm.content.ends_with(&format!("https://discord.com/channels/{GUILD}/{CHANNEL}")), "{}", dm.content);
    assert_eq!(fake.messages_in(dm.channel_id).len(), 1, "one DM");
    bot.stop().await;
}

/// Discord fails the notice of Bob's draw offer for a while, and Alice declines it from the board
/// meanwhile: when the notice goes out at last, it asks nothing of her, and no DM says it does.
async fn an_offer_answered_before_its_notice_is_delivered_is_not_sent_by_dm(locale: &'static str) {
    let (fake, bot) = served("dm-offer-answered").await;
    let table = Table { fake: &fake, channel: CHANNEL, locale };
    asks_for_dms(&table, ALICE).await;
    start_game(&table).await;
    let begun = table.says("your move: game #1", "ваш ход: партия №1");
    fake.wait_for_message("Alice's first DM", |m| m.channel_id != CHANNEL && m.content.contains(begun)).await;
    let offered = table.says("offers a draw in game #1", "предлагает ничью в партии №1");
    let offer_post = move |r: &Recorded| {
        r.method == "POST"
            && r.path == format!("/api/v10/channels/{CHANNEL}/messages")
            && r.json.as_ref().is_some_and(|j| j["content"].as_str().is_some_and(|c| c.contains(offered)))
    };
    // Five tries fail: 100 + 200 + 400 + 800 ms of pauses, time enough to decline.
    fake.fail_next(offer_post, 5, Fault::ServerError(503));
    let offer = table.command(BOB, "draw", &json!({}), &[]);
    private_answer(&fake, &offer).await;
    let decline = table.command(ALICE, "draw", &json!({ "action": 2 }), &[]);
    private_answer(&fake, &decline).await;
    let declined = table.says("declines the draw", "отклоняет ничью");
    fake.wait_for_message("the decline", |m| m.channel_id == CHANNEL && m.content.contains(declined)).await;
    let notice = fake
        .wait_for_message("the offer's late notice", |m| m.channel_id == CHANNEL && m.content.contains(offered))
        .await;
    assert!(!notice.deleted);
    let dms = fake.messages_in(fake.dm_channel(ALICE.id).expect("Alice's DMs"));
    assert!(dms.iter().all(|m| !m.content.contains(offered)), "no DM for an answered offer: {dms:#?}");
    bot.stop().await;
}

/// A moderator deletes a channel allowed for games: it leaves the list (a deleted channel cannot
/// be picked to disallow it). The last one stays: an empty list would allow every channel.
async fn a_deleted_channel_leaves_the_channels_for_games_unless_it_was_the_last(locale: &'static str) {
    const THIRD_CHANNEL: u64 = 1_500_000_000_000_000_003;
    let (fake, bot) = served("deleted-channel").await;
    let table = Table { fake: &fake, channel: CHANNEL, locale };
    for id in [OTHER_CHANNEL, THIRD_CHANNEL] {
        let allow = settings(&fake, From::manager(&table, EVE), &[channel("allow_channel", id)]);
        assert!(private_answer(&fake, &allow).await.starts_with(table.says("Saved.", "Сохранено.")));
    }
    let (other, third) = (format!("<#{OTHER_CHANNEL}>"), format!("<#{THIRD_CHANNEL}>"));
    let shown = || async { private_answer(&fake, &settings(&fake, From::member(&table, BOB), &[])).await };
    assert!(shown().await.contains(&format!("{other}, {third}")));

    fake.delete_channel(OTHER_CHANNEL);
    let mut answer = shown().await;
    for _ in 0..50 {
        if !answer.contains(&other) {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        answer = shown().await;
    }
    assert!(!answer.contains(&other) && answer.contains(&third), "{answer}");

    // The last allowed channel deleted: games stay restricted until the managers allow another.
    fake.delete_channel(THIRD_CHANNEL);
    tokio::time::sleep(std::time::Duration::from_millis(500)).await;
    assert!(shown().await.contains(&third));
    let challenge = table.command(ALICE, "challenge", &json!({ "opponent": BOB.id, "variant": "brandubh" }), &[BOB]);
    let refused = table.says(
        "Games are not played in this channel on this server; ask a manager, or use an allowed channel.",
        "На этом сервере в этом канале не играют; спросите администратора сервера или перейдите в разрешённый канал.",
    );
    assert_eq!(private_answer(&fake, &challenge).await, refused);
    bot.stop().await;
}

/// A game challenged in a thread people opened, which then closes to the bot: the game stays
/// there (people who could not see it must not be overtaken), its notices are refused, and a
/// player who asked for DMs is told by DM.
async fn a_dm_is_the_one_way_left_when_a_thread_people_opened_is_closed_to_the_bot(locale: &'static str) {
    let (fake, bot) = served("thread-closed-dm").await;
    let table = Table { fake: &fake, channel: CHANNEL, locale };
    asks_for_dms(&table, BOB).await;
    let typed = |player: Player, subcommand: &str, options: &Value, users: &[Player]| {
        fake.push_interaction(in_thread(table.command_payload(player, subcommand, options, users), CHANNEL, THREAD))
    };
    let options = json!({ "opponent": BOB.id, "variant": "brandubh", "side": 0 });
    let card = fake.wait_for_original(&typed(ALICE, "challenge", &options, &[BOB])).await;
    let posts_in_thread =
        move |r: &Recorded| r.method == "POST" && r.path == format!("/api/v10/channels/{THREAD}/messages");
    fake.fail_next(posts_in_thread, usize::MAX, Fault::Refused { status: 403, code: 50_001 });
    let accept = table.says("Accept", "Принять");
    let accept = card.button_labels().into_iter().find(|(label, _)| label == accept).expect("an Accept button").1;
    let _ = table.click(BOB, &card, &accept, None);
    fake.wait_for("the first notice, refused", |r| posts_in_thread(r) && r.status == 403).await;
    let played = typed(ALICE, "move", &json!({ "notation": "d2-c2" }), &[]);
    assert!(private_answer(&fake, &played).await.starts_with(table.says("You played", "Вы сыграли")));
    let your_move = table.says("your move in game #1", "ваш ход в партии №1");
    let dm = fake
        .wait_for_message("Bob's DM, the one way left", |m| {
            m.channel_id != CHANNEL && m.channel_id != THREAD && m.content.contains(your_move)
        })
        .await;
    assert_eq!(Some(dm.channel_id), fake.dm_channel(BOB.id));
    bot.stop().await;
}

/// A moderator deletes the channel of a game going on: its player who asked for DMs is told, once,
/// how it goes on; moves by command still work, and their notices reach him by DM (nothing is
/// posted in the deleted channel); `/tafl games` links nowhere; `/tafl board` is refused in a
/// channel closed to games and, in an allowed one, moves the game there with a board to play on.
/// Before, the game went on unseen, and `/tafl board` answered "posted below" and posted nothing.
async fn a_game_whose_channel_is_deleted_goes_on_where_a_player_asks_for_its_board(locale: &'static str) {
    const CLOSED_CHANNEL: u64 = 1_500_000_000_000_000_003;
    let (fake, bot) = served("channel-deleted-game").await;
    let table = Table { fake: &fake, channel: CHANNEL, locale };
    for id in [CHANNEL, OTHER_CHANNEL] {
        let allow = settings(&fake, From::manager(&table, EVE), &[channel("allow_channel", id)]);
        assert!(private_answer(&fake, &allow).await.starts_with(table.says("Saved.", "Сохранено.")));
    }
    asks_for_dms(&table, BOB).await;
    let old_board = start_game(&table).await;
    let begun = table.says("your move: game #1", "ваш ход: партия №1");
    fake.wait_for_message("Alice's first notice", |m| m.channel_id == CHANNEL && m.content.contains(begun)).await;

    fake.delete_channel(CHANNEL);
    let gone = table.says(
        "Game #1's channel was deleted; use ",
        "Канал партии №1 удалён; чтобы продолжить её в другом канале, используйте там команду ",
    );
    let told = fake.wait_for_message("Bob's DM that the channel is gone", |m| m.content.starts_with(gone)).await;
    let bobs_dms = told.channel_id;
    assert_eq!(Some(bobs_dms), fake.dm_channel(BOB.id), "by DM, to Bob");
    assert_eq!(fake.dm_channel(ALICE.id), None, "Alice did not ask for DMs");

    // A move typed anywhere is played; Bob hears of his turn by DM, the one way left.
    let closed = Table { fake: &fake, channel: CLOSED_CHANNEL, locale };
    let played = closed.command(ALICE, "move", &json!({ "notation": "d2-c2", "game": 1 }), &[]);
    assert!(private_answer(&fake, &played).await.starts_with(table.says("You played", "Вы сыграли")));
    let your_move = table.says("your move in game #1", "ваш ход в партии №1");
    let dm =
        fake.wait_for_message("Bob's move by DM", |m| m.channel_id == bobs_dms && m.content.contains(your_move)).await;
    assert!(!dm.content.contains("discord.com/channels"), "no link to the deleted channel: {}", dm.content);
    let listed = fake.wait_for_original(&closed.command(ALICE, "games", &json!({}), &[])).await;
    let deleted =
        table.says("channel deleted: go on in another channel with ", "канал удалён: продолжить можно командой ");
    assert!(listed.text().contains(deleted), "{}", listed.text());
    assert!(!listed.text().contains(&format!("/{GUILD}/{CHANNEL}")), "{}", listed.text());

    // Not in a channel closed to games: the refusal says why.
    let refused = closed.command(ALICE, "board", &json!({}), &[]);
    assert_eq!(
        private_answer(&fake, &refused).await,
        table.says(
            "Games are not played in this channel on this server; ask a manager, or use an allowed channel.",
            "На этом сервере в этом канале не играют; спросите администратора сервера или перейдите в разрешённый канал.",
        )
    );

    // In an allowed one, the game moves there: its board comes with its controls, and plays.
    let there = Table { fake: &fake, channel: OTHER_CHANNEL, locale };
    let moved = there.command(BOB, "board", &json!({}), &[]);
    let answer = private_answer(&fake, &moved).await;
    assert_eq!(
        answer,
        table.says(
            "Game #1 now goes on in this channel; its board is posted below.",
            "Партия №1 теперь идёт в этом канале; её доска опубликована ниже.",
        )
    );
    let board = fake
        .wait_for_message("the board in the new channel", |m| {
            m.channel_id == OTHER_CHANNEL && !m.is_ephemeral() && m.has_control("tafl:piece:1:1")
        })
        .await;
    // Recorded as the game's board, the old one is retired (in vain: it went with its channel).
    let retired = format!("/api/v10/channels/{CHANNEL}/messages/{}", old_board.id);
    fake.wait_for("the old board's retirement", |r| r.method == "PATCH" && r.path == retired).await;
    let click = there.click(BOB, &board, "tafl:piece:1:1", Some("d3"));
    let menu = fake.wait_for_answer(&click).await;
    assert!(menu.has_control("tafl:to:1:1:d3"), "{menu:#?}");
    let _ = there.click(BOB, &menu, "tafl:to:1:1:d3", Some("d3-c3"));
    board_at(&fake, board.id, 1, 2).await;
    let alices = fake
        .wait_for_message("Alice's move in the new channel", |m| {
            m.channel_id == OTHER_CHANNEL && m.content.contains(your_move) && m.content.contains(&ALICE.id.to_string())
        })
        .await;
    assert!(!alices.is_ephemeral());

    // Nothing was posted in the deleted channel once the bot knew it was gone.
    let refused_posts: Vec<_> = fake
        .requests()
        .into_iter()
        .filter(|r| r.method == "POST" && r.path == format!("/api/v10/channels/{CHANNEL}/messages") && r.status == 404)
        .collect();
    assert!(refused_posts.is_empty(), "{refused_posts:#?}");
    let bobs = fake.messages_in(bobs_dms);
    assert_eq!(bobs.iter().filter(|m| m.content.starts_with(gone)).count(), 1, "told once: {bobs:#?}");
    table.assert_no_english(NOT_ENGLISH);
    bot.stop().await;
}

/// Forum posts host games, judged by their forum (README: "A challenge made in a thread (one
/// people opened, or a forum post) is played in that thread … the allow-list judges the thread's
/// parent channel"). A manager who restricts games to some channels must then be able to name the
/// forum; `allow_channel` accepted text and announcement channels only.
async fn a_forum_can_be_put_on_the_channels_for_games(locale: &'static str) {
    const FORUM: u64 = 1_500_000_000_000_000_130;
    const POST: u64 = 1_500_000_000_000_000_131;
    let (fake, bot) = served("forum-allowed").await;
    let table = Table { fake: &fake, channel: CHANNEL, locale };
    let list = json!([{ "name": "allow_channel", "type": 7, "value": FORUM.to_string() }]);
    let payload = fake.slash_command("tafl", "settings", &list, EVE.id, locale);
    let mut payload = with_name(in_guild(payload, GUILD, CHANNEL), EVE.name);
    payload["member"]["permissions"] = json!((MEMBER | MANAGE_GUILD).to_string());
    payload["guild_locale"] = json!(locale);
    let forum = json!({ "id": FORUM.to_string(), "name": "tafl-games", "type": 15, "permissions": "0" });
    payload["data"]["resolved"] = json!({ "channels": { FORUM.to_string(): forum } });
    let answer = private_answer(&fake, &fake.push_interaction(payload)).await;
    assert!(answer.starts_with(table.says("Saved.", "Сохранено.")), "the forum cannot be allowed: {answer}");
    assert!(answer.contains(&format!("<#{FORUM}>")), "{answer}");
    // A challenge in one of the forum's posts is then allowed, and one in the channel is not.
    let options = json!({ "opponent": BOB.id, "variant": "brandubh" });
    let challenge =
        fake.push_interaction(in_thread(table.command_payload(ALICE, "challenge", &options, &[BOB]), FORUM, POST));
    let card = fake.wait_for_original(&challenge).await;
    assert!(!card.is_ephemeral(), "refused in a post of the allowed forum: {}", card.content);
    assert_eq!(card.channel_id, POST);
    let refused = table.command(ALICE, "challenge", &options, &[BOB]);
    assert!(private_answer(&fake, &refused).await.starts_with(table.says("Games are not played", "На этом сервере")));
    table.assert_no_english(NOT_ENGLISH);
    bot.stop().await;
}

/// What a move's private answer adds when the bot may not send messages in the game's channel.
fn unseen_here(table: &Table<'_>) -> &'static str {
    table.says(
        "I cannot post this game's messages here (I need the permission **Send Messages**), so this may not show on its board or in its notices; a server manager can grant it to me.",
        "Я не могу публиковать здесь сообщения этой партии (мне нужно право «Отправлять сообщения»), поэтому это может не появиться ни на её доске, ни в её уведомлениях; попросите администратора сервера выдать его мне.",
    )
}

/// Refuses, for good, the bot's posts in [`CHANNEL`] and its edits of messages, as Discord does
/// once Send Messages is taken away.
fn refuse_posts_and_edits(fake: &FakeDiscord) {
    let refused = Fault::Refused { status: 403, code: 50_013 };
    fake.fail_next(
        |r: &Recorded| r.method == "POST" && r.path == format!("/api/v10/channels/{CHANNEL}/messages"),
        usize::MAX,
        refused,
    );
    let edits = |r: &Recorded| r.method == "PATCH" && r.path.starts_with("/api/v10/channels/");
    fake.fail_next(edits, usize::MAX, refused);
}

/// The owner takes Send Messages away in a game's channel. A move typed there is played (refusing
/// it would leave the clock running on a player who cannot move), and its answer says that its
/// board and the opponent's notice cannot follow, as Discord says with the command
/// (`app_permissions`). Before, it was answered "You played" alone.
async fn a_move_where_the_bot_can_no_longer_post_says_so(locale: &'static str) {
    let (fake, bot) = served("move-unseen").await;
    let table = Table { fake: &fake, channel: CHANNEL, locale };
    start_game(&table).await;
    first_notice(&table).await;
    refuse_posts_and_edits(&fake);
    let mut payload = table.command_payload(ALICE, "move", &json!({ "notation": "d2-c2" }), &[]);
    payload["app_permissions"] = json!((MEMBER & !SEND_MESSAGES).to_string());
    let answer = private_answer(&fake, &fake.push_interaction(payload)).await;
    let played = table.says("You played `d2-c2` in game #1.", "Вы сыграли `d2-c2` в партии №1.");
    assert_eq!(answer, format!("{played} {}", unseen_here(&table)));
    // Typed in another channel, what Discord says is about that channel, not the game's: nothing
    // is added, even where the bot may not post either.
    let elsewhere = Table { fake: &fake, channel: OTHER_CHANNEL, locale };
    let mut payload = elsewhere.command_payload(BOB, "move", &json!({ "notation": "d3-c3", "game": 1 }), &[]);
    payload["app_permissions"] = json!((MEMBER & !SEND_MESSAGES).to_string());
    let answer = private_answer(&fake, &fake.push_interaction(payload)).await;
    assert_eq!(answer, table.says("You played `d3-c3` in game #1.", "Вы сыграли `d3-c3` в партии №1."));
    table.assert_no_english(NOT_ENGLISH);
    bot.stop().await;
}

/// The same with the board's menus: the click's answer shows the move on the board (an answer to
/// the click, which Discord shows whatever the channel allows), and a private follow-up says
/// that the opponent's notice cannot be posted.
async fn a_move_clicked_where_the_bot_can_no_longer_post_says_so(locale: &'static str) {
    let (fake, bot) = served("click-unseen").await;
    let table = Table { fake: &fake, channel: CHANNEL, locale };
    let board = start_game(&table).await;
    first_notice(&table).await;
    let picked = table.click(ALICE, &board, "tafl:piece:1:0", Some("d2"));
    let menu = fake.wait_for_answer(&picked).await;
    refuse_posts_and_edits(&fake);
    let mut payload =
        with_name(fake.try_component(&menu, "tafl:to:1:0:d2", &["d2-c2"], ALICE.id).expect("the menu"), ALICE.name);
    payload["locale"] = json!(locale);
    payload["guild_locale"] = json!(locale);
    payload["app_permissions"] = json!((MEMBER & !SEND_MESSAGES).to_string());
    let clicked = fake.push_interaction(payload);
    board_at(&fake, board.id, 1, 1).await;
    let note = fake
        .wait_for_message("the private word that the move is not shown", |m| m.interaction == Some(clicked.id))
        .await;
    assert!(note.is_ephemeral(), "{note:#?}");
    assert_eq!(note.content, unseen_here(&table));
    assert_eq!(
        fake.messages_in(CHANNEL).iter().filter(|m| m.interaction == Some(picked.id)).count(),
        0,
        "the click that only opened a menu gets no word"
    );
    table.assert_no_english(NOT_ENGLISH);
    bot.stop().await;
}

/// A player types `/tafl board` in another channel of the server: the board goes to the game's
/// channel (it is played there), and the answer says so, naming it. Before, the answer said the
/// board was posted "below", where nothing came.
async fn a_board_asked_for_in_another_channel_is_not_said_to_be_below(locale: &'static str) {
    let (fake, bot) = served("board-elsewhere").await;
    let table = Table { fake: &fake, channel: CHANNEL, locale };
    start_game(&table).await;
    first_notice(&table).await;
    let elsewhere = Table { fake: &fake, channel: OTHER_CHANNEL, locale };
    let asked = elsewhere.command(ALICE, "board", &json!({ "game": 1 }), &[]);
    let answer = private_answer(&fake, &asked).await;
    let posted = fake
        .wait_for_message("the new board", |m| {
            m.content.is_empty() && !m.attachments.is_empty() && m.interaction.is_none()
        })
        .await;
    assert_eq!(posted.channel_id, CHANNEL);
    assert_eq!(
        answer,
        format!(
            "{} <#{CHANNEL}>{}",
            table.says("The board of game #1 is posted in its channel", "Доска партии №1 опубликована в канале"),
            table.says("; its old message loses its buttons.", "; у старого сообщения кнопки пропадут."),
        )
    );
    table.assert_no_english(NOT_ENGLISH);
    bot.stop().await;
}

/// The owner takes Send Messages away in the channel of a game going on; a player asks for its
/// board there. It is refused naming the permission, but not with the challenge's "… or you can
/// play in another channel": a game going on cannot move to another channel (only one whose
/// channel was deleted does).
async fn a_board_refused_for_want_of_permission_does_not_offer_another_channel(locale: &'static str) {
    let (fake, bot) = served("board-refused").await;
    let table = Table { fake: &fake, channel: CHANNEL, locale };
    start_game(&table).await;
    first_notice(&table).await;
    let mut payload = table.command_payload(ALICE, "board", &json!({}), &[]);
    payload["app_permissions"] = json!((MEMBER & !SEND_MESSAGES).to_string());
    let answer = private_answer(&fake, &fake.push_interaction(payload)).await;
    assert_eq!(
        answer,
        table.says(
            "I cannot post this game's board in this channel: I need the permission **Send Messages** here; a server manager can grant it to me.",
            "Я не могу опубликовать здесь доску этой партии: мне нужно право «Отправлять сообщения»; попросите администратора сервера выдать его мне.",
        )
    );
    table.assert_no_english(NOT_ENGLISH);
    bot.stop().await;
}

/// Moves the given-up outbox items of the bot's database in `dir` an hour and a half into the
/// past, as if the sweep's hour of rest after a refusal had passed.
async fn rest_given_up(dir: &std::path::Path) {
    let db = tafl_bot::store::Db::open(&format!("sqlite://{}", dir.join("tafl.db").display())).await.unwrap();
    sqlx::query("UPDATE outbox SET finished_at = finished_at - 5400 WHERE state = 'given_up'")
        .execute(db.pool())
        .await
        .unwrap();
    db.close().await;
}

/// Lets the bot sweep again after what it refused had its rest once more: the given-up items
/// rest another hour and a half, and the scheduler ticks (sweeping at each) for two seconds
/// more. Returns the items of `kind` the bot recorded since `after` (an item's id), by state.
async fn swept_again(dir: &std::path::Path, kind: &str, after: i64) -> Vec<(String, i64)> {
    rest_given_up(dir).await;
    let db = tafl_bot::store::Db::open(&format!("sqlite://{}", dir.join("tafl.db").display())).await.unwrap();
    let last_tick = "SELECT last_tick_at FROM scheduler WHERE id = 1";
    let from: i64 = sqlx::query_scalar(last_tick).fetch_one(db.pool()).await.unwrap();
    let deadline = tokio::time::Instant::now() + WAIT;
    while sqlx::query_scalar::<_, i64>(last_tick).fetch_one(db.pool()).await.unwrap() < from + 2 {
        assert!(tokio::time::Instant::now() < deadline, "the scheduler stopped ticking");
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    let recorded =
        "SELECT state, count(*) FROM outbox WHERE kind = $1 AND id > $2 AND state <> 'given_up' GROUP BY state";
    let states = sqlx::query_as(recorded).bind(kind).bind(after).fetch_all(db.pool()).await.unwrap();
    db.close().await;
    states
}

/// The newest outbox item of `kind` the bot gave up, once it has (Discord's refusal is seen before
/// the bot records what it did with it).
async fn given_up_item(dir: &std::path::Path, kind: &str) -> i64 {
    let db = tafl_bot::store::Db::open(&format!("sqlite://{}", dir.join("tafl.db").display())).await.unwrap();
    let newest = "SELECT max(id) FROM outbox WHERE kind = $1 AND state = 'given_up'";
    let deadline = tokio::time::Instant::now() + WAIT;
    let id = loop {
        let id: Option<i64> = sqlx::query_scalar(newest).bind(kind).fetch_one(db.pool()).await.unwrap();
        match id {
            Some(id) => break id,
            None if tokio::time::Instant::now() < deadline => {
                tokio::time::sleep(std::time::Duration::from_millis(50)).await;
            }
            None => panic!("no {kind} item was given up"),
        }
    };
    db.close().await;
    id
}

/// A post of the bot's own in [`CHANNEL`].
fn channel_post(r: &Recorded) -> bool {
    r.method == "POST" && r.path == format!("/api/v10/channels/{CHANNEL}/messages")
}

/// An edit of the message `id`.
fn board_edit(id: u64) -> impl Fn(&Recorded) -> bool + Copy + Send + Sync + 'static {
    move |r: &Recorded| r.method == "PATCH" && r.path.ends_with(&format!("/messages/{id}"))
}

/// The owner takes Send Messages away in [`CHANNEL`]: Discord refuses the bot's posts there and
/// the edits of the board `board` (403, Missing Permissions) until the faults are cleared.
fn refuse_posting(fake: &FakeDiscord, board: u64) {
    let refused = Fault::Refused { status: 403, code: 50_013 };
    fake.fail_next(channel_post, usize::MAX, refused);
    fake.fail_next(board_edit(board), usize::MAX, refused);
}

/// BOT.md: "What players see catches up: after a crash, a race or a Discord error, the board
/// shows the current position with working controls, the player to move is told once". The
/// owner takes Send Messages away for a while; Alice moves meanwhile, and Bob's notice is
/// refused. Once it is given back, after the sweep's hour of rest, the board catches up and
/// Bob is told it is his move: once, and not again at the sweeps after.
async fn the_player_to_move_is_told_once_the_bot_may_post_again(locale: &'static str) {
    let fake = FakeDiscord::start().await;
    let dir = temp_dir("regranted");
    let bot = TestBot::start(&fake, &dir);
    fake.wait_until_ready().await;
    let table = Table { fake: &fake, channel: CHANNEL, locale };
    let board = start_game(&table).await;
    first_notice(&table).await;

    let (posts, edits) = (channel_post, board_edit(board.id));
    refuse_posting(&fake, board.id);
    let played = table.command(ALICE, "move", &json!({ "notation": "d2-c2" }), &[]);
    assert!(private_answer(&fake, &played).await.starts_with(table.says("You played", "Вы сыграли")));
    fake.wait_for("Bob's notice, refused", |r| posts(r) && r.status == 403).await;
    fake.wait_for("the board's edit, refused", |r| edits(r) && r.status == 403).await;
    let refused_notice = given_up_item(&dir, "your_move").await;

    // Granted again; an hour later the sweep redraws the board and tells Bob.
    fake.clear_faults();
    rest_given_up(&dir).await;
    board_at(&fake, board.id, 1, 1).await;
    let your_move = table.says("your move in game #1", "ваш ход в партии №1");
    let told = |r: &Recorded| {
        posts(r)
            && r.status == 200
            && r.json.as_ref().is_some_and(|j| j["content"].as_str().unwrap_or("").contains(your_move))
    };
    fake.wait_for_message_within(WAIT, "Bob's notice once the bot may post again", |m| {
        m.channel_id == CHANNEL && m.content.contains(your_move)
    })
    .await;
    assert_eq!(fake.requests().iter().filter(|r| told(r)).count(), 1, "Bob is told once");
    let recorded = swept_again(&dir, "your_move", refused_notice).await;
    assert_eq!(recorded, [("done".to_owned(), 1)], "the notice is recorded again once");
    assert_eq!(fake.requests().iter().filter(|r| told(r)).count(), 1, "and not told again");
    table.assert_no_english(NOT_ENGLISH);
    bot.stop().await;
}

/// A game ends while the bot may not post in its channel: its summary is refused and given up.
/// Once the permission is given back, the final board is drawn (the sweep looks at games
/// finished in the last day) and the summary is posted, once, as a server that re-adds the bot
/// gets the summaries Discord refused (`host/presence.rs`).
async fn a_summary_refused_for_want_of_permission_is_posted_once_the_bot_may(locale: &'static str) {
    let fake = FakeDiscord::start().await;
    let dir = temp_dir("summary-regranted");
    let bot = TestBot::start(&fake, &dir);
    fake.wait_until_ready().await;
    let table = Table { fake: &fake, channel: CHANNEL, locale };
    let board = start_game(&table).await;
    first_notice(&table).await;

    let posts = channel_post;
    refuse_posting(&fake, board.id);
    let resigned = table.command(ALICE, "resign", &json!({}), &[]);
    private_answer(&fake, &resigned).await;
    fake.wait_for("the summary, refused", |r| posts(r) && r.status == 403).await;
    let refused_summary = given_up_item(&dir, "summary").await;

    fake.clear_faults();
    rest_given_up(&dir).await;
    fake.wait_for_message("the final board", |m| m.id == board.id && m.custom_ids().is_empty()).await;
    let summary = |m: &StoredMessage| m.attachments.iter().any(|a| a.filename == "game-1.gif");
    fake.wait_for_message_within(WAIT, "the summary once the bot may post again", summary).await;
    let summaries = || fake.all_messages().into_iter().filter(|m| summary(m)).count();
    assert_eq!(summaries(), 1, "one summary");
    let recorded = swept_again(&dir, "summary", refused_summary).await;
    assert_eq!(recorded, [("done".to_owned(), 1)], "the summary is recorded again once");
    assert_eq!(summaries(), 1, "and not posted again");
    table.assert_no_english(NOT_ENGLISH);
    bot.stop().await;
}

/// Alice calls herself `@everyone @here`, with a role's mention and Eve's after it. The challenge
/// card, each notice and each DM copy of one pings exactly the player it addresses: the claim
/// notice that names her to Bob shows her name as written, and pings Bob alone, in the channel
/// and by DM.
async fn a_notice_pings_its_addressee_alone_whatever_the_players_call_themselves(locale: &'static str) {
    let loud = Player { id: ALICE.id, name: "@everyone @here <@&1700000000000000001> <@2000000000000000003>" };
    let fake = FakeDiscord::start().await;
    let dir = temp_dir("pings");
    let bot = TestBot::start(&fake, &dir);
    fake.wait_until_ready().await;
    let table = Table { fake: &fake, channel: CHANNEL, locale };
    asks_for_dms(&table, loud).await;
    asks_for_dms(&table, BOB).await;
    // DMs are the only messages outside the channel.
    let (in_channel, by_dm) =
        (|m: &StoredMessage| m.channel_id == CHANNEL, |m: &StoredMessage| m.channel_id != CHANNEL);

    let options = json!({ "opponent": BOB.id, "variant": "brandubh", "side": 0 });
    let card = fake.wait_for_original(&table.command(loud, "challenge", &options, &[BOB])).await;
    assert_pings(&card, &[BOB]);
    let _ = table.click(BOB, &card, "tafl:accept:1", None);
    let begun = table.says("your move: game #1", "ваш ход: партия №1");
    let first = fake.wait_for_message("Alice's first notice", |m| in_channel(m) && m.content.contains(begun)).await;
    let first_dm = fake.wait_for_message("its DM", |m| by_dm(m) && m.content.contains(begun)).await;
    assert_pings(&first, &[loud]);
    assert_pings(&first_dm, &[loud]);

    // Bob's draw offer mentions him to Alice, and pings her alone.
    private_answer(&fake, &table.command(loud, "move", &json!({ "notation": "d2-c2" }), &[])).await;
    private_answer(&fake, &table.command(BOB, "draw", &json!({}), &[])).await;
    let offered = table.says("offers a draw in game #1", "предлагает ничью в партии №1");
    let offer = fake.wait_for_message("the offer", |m| in_channel(m) && m.content.contains(offered)).await;
    let offer_dm = fake.wait_for_message("the offer by DM", |m| by_dm(m) && m.content.contains(offered)).await;
    assert_pings(&offer, &[loud]);
    assert_pings(&offer_dm, &[loud]);
    private_answer(&fake, &table.command(loud, "draw", &json!({ "action": 2 }), &[])).await;
    let declined = table.says("declines the draw", "отклоняет ничью");
    assert_pings(&fake.wait_for_message("the decline", |m| m.content.contains(declined)).await, &[]);
    private_answer(&fake, &table.command(BOB, "move", &json!({ "notation": "d3-c3" }), &[])).await;

    // Alice leaves the game for fifteen days: Bob is told he may claim it, by her name.
    leave_untouched(&dir, 1, 15).await;
    let absent = table.says("has not moved in game #1", "ходов от игрока");
    let claimable = fake.wait_for_message("the claim notice", |m| in_channel(m) && m.content.contains(absent)).await;
    let claimable_dm = fake.wait_for_message("its DM", |m| by_dm(m) && m.content.contains(absent)).await;
    for notice in [&claimable, &claimable_dm] {
        assert!(notice.content.contains(" @everyone @here \\<@&"), "her name as written: {}", notice.content);
        assert_pings(notice, &[BOB]);
    }
    assert_no_mass_pings(&fake);
    bot.stop().await;
}
