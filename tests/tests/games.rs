//! Whole games through the real bot and the fake Discord: challenges, slash commands, buttons
//! and menus, refusals, restarts and faults. Every scenario starts its own fake and bot, and runs
//! twice: on an English server and on a Russian one, where nothing the bot shows may be English.

use serde_json::{Value, json};
use tafl_e2e::fake_discord::{FakeDiscord, Fault, GUILD, StoredMessage};
use tafl_e2e::harness::{
    ALICE, BOB, CHANNEL, EVE, Player, Table, TestBot, decisive_game, leave_untouched, let_time_pass, private_answer,
    served, temp_dir,
};
use tafl_e2e::in_english_and_russian;
use tafl_rules::{Side, Status, Variant};

/// Names and typed input, Latin letters in any language.
const NOT_ENGLISH: &[&str] = &["Alice", "Bob", "Eve", "OTN", "OpenTafl"];

in_english_and_russian!(
    two_players_finish_a_game_with_slash_commands_only,
    two_players_finish_a_game_with_buttons_and_menus_only,
    move_autocomplete_offers_legal_moves_filtered_and_labelled,
    a_stranger_cannot_use_the_players_controls_and_changes_nothing,
    a_double_click_plays_the_move_once,
    a_double_click_on_accept_starts_one_game_and_keeps_its_board,
    only_the_players_can_post_a_games_board_anew,
    a_players_board_asked_for_again_in_a_row_is_posted_once,
    an_expired_challenge_cannot_be_accepted_and_its_card_says_so,
    a_withdrawn_challenge_stays_withdrawn_by_its_challenger_after_a_late_accept,
    a_card_whose_answer_was_lost_is_closed_at_expiry_and_one_never_shown_is_withdrawn,
    a_game_ends_by_resignation_and_another_by_agreed_draw,
    after_a_restart_the_old_board_still_works,
    through_rate_limits_server_errors_and_a_dropped_gateway_no_move_is_lost_or_doubled,
    a_player_is_reminded_and_then_loses_on_time_with_the_summary_posted,
    an_untimed_game_left_unplayed_for_two_weeks_is_claimed_with_the_summary_posted,
    a_server_that_removes_the_bot_has_its_clocks_stopped_until_it_is_back,
    after_a_game_the_summary_has_the_gif_and_record_and_the_leaderboard_shows_both_players,
    a_menu_opened_while_the_board_is_being_redrawn_stays_open,
    a_menu_opened_while_the_opponents_click_is_answered_stays_open,
    a_click_kept_waiting_by_a_slow_edit_is_acknowledged_and_answered_after_it,
    a_double_click_kept_waiting_is_acknowledged_and_refused_by_a_follow_up,
    a_click_whose_acknowledgement_reply_is_lost_is_still_answered,
    a_menu_click_overtaken_by_a_move_while_it_waits_is_refused_and_the_board_stays_playable,
    a_menu_from_before_a_takeback_is_refused_when_the_game_is_back_at_its_ply,
);

/// A preset's name as the table's people read it.
fn variant_name(table: &Table<'_>, variant: Variant) -> String {
    tafl_bot::present::text::variant_name(variant.id(), tafl_bot::present::Lang::discord(Some(table.locale)))
}

/// Alice challenges Bob to `variant` as the attackers and Bob accepts with the card's button:
/// returns the board message (the card, turned into the board).
async fn start_game(table: &Table<'_>, variant: Variant) -> StoredMessage {
    let fake = table.fake;
    let challenge =
        table.command(ALICE, "challenge", &json!({ "opponent": BOB.id, "variant": variant.id(), "side": 0 }), &[BOB]);
    let card = fake.wait_for_original(&challenge).await;
    assert!(!card.is_ephemeral(), "the challenge card is public: {card:#?}");
    assert!(card.content.contains(&format!("<@{}>", BOB.id)), "the card mentions Bob: {card:#?}");
    assert!(card.text().contains(&variant_name(table, variant)), "{}", card.text());
    let accept = card.button_labels().into_iter().find(|(label, _)| label == table.says("Accept", "Принять"));
    let accept = accept.expect("an Accept button").1;
    let click = table.click(BOB, &card, &accept, None);
    // The answer to the click is the card itself, turned into the board.
    let board = fake.wait_for_answer(&click).await;
    assert_eq!(board.id, card.id, "one message per game");
    board
}

/// Waits until message `id` shows `ply` plies (its picture is named after the ply).
async fn board_at(fake: &FakeDiscord, id: u64, game: i64, ply: usize) -> StoredMessage {
    let name = format!("game-{game}-{ply}.png");
    fake.wait_for_message(&format!("the board at ply {ply}"), |m| {
        m.id == id && m.attachments.iter().any(|a| a.filename == name)
    })
    .await
}

/// How the summary names the winner: Alice plays the attackers, Bob the defenders.
fn summary_words(table: &Table<'_>, winner: Option<Side>) -> &'static str {
    match winner {
        Some(Side::Attackers) => table.says("Alice wins with the attackers", "победа нападающих: Alice"),
        Some(Side::Defenders) => table.says("Bob wins with the defenders", "победа защитников: Bob"),
        None => table.says("Draw", "Ничья"),
    }
}

/// How a finished board names the winning side.
fn board_result(table: &Table<'_>, winner: Option<Side>) -> &'static str {
    if winner == Some(Side::Attackers) {
        table.says("Attackers win", "Победа нападающих")
    } else {
        table.says("Defenders win", "Победа защитников")
    }
}

fn player_of(n: usize) -> Player {
    // Alice plays the attackers, who move first.
    if n.is_multiple_of(2) { ALICE } else { BOB }
}

async fn two_players_finish_a_game_with_slash_commands_only(locale: &'static str) {
    let fake = FakeDiscord::start().await;
    let dir = temp_dir("slash-game");
    let bot = TestBot::start(&fake, &dir);
    fake.wait_until_ready().await;
    let table = Table { fake: &fake, channel: CHANNEL, locale };

    let (moves, status) = decisive_game(Variant::Brandubh, 40);
    let board = start_game(&table, Variant::Brandubh).await;
    let title = format!("{} · {}", variant_name(&table, Variant::Brandubh), table.says("game #1", "партия №1"));
    assert!(board.text().contains(&title), "{}", board.text());
    assert_eq!(board.attachments.len(), 1, "one picture: {:#?}", board.attachments);
    assert!(board.attachments[0].data.starts_with(b"\x89PNG"), "a PNG");

    for (n, mv) in moves.iter().enumerate() {
        let played = table.command(player_of(n), "move", &json!({ "notation": mv.split('x').next().unwrap() }), &[]);
        let answer = fake.wait_for_original(&played).await;
        assert!(answer.is_ephemeral(), "{answer:#?}");
        assert!(answer.content.starts_with(table.says("You played", "Вы сыграли")), "{}", answer.content);
        board_at(&fake, board.id, 1, n + 1).await;
    }

    let Status::Finished(outcome) = status else { unreachable!() };
    let winner = board_result(&table, outcome.winner);
    let summary =
        fake.wait_for_message("the summary", |m| m.attachments.iter().any(|a| a.filename == "game-1.gif")).await;
    assert!(summary.text().contains(summary_words(&table, outcome.winner)), "{}", summary.text());
    assert!(summary.attachments.iter().any(|a| a.filename == "game-1.otn"), "{:#?}", summary.attachments);
    let board = fake.message(board.id).unwrap();
    assert!(board.custom_ids().is_empty(), "a finished board has no controls: {board:#?}");
    assert!(board.text().contains(winner), "{}", board.text());
    // One board, one summary, at most one notice: the channel is not spammed. (The delivery
    // task deletes a replaced notice right after its successor, in the game's order: give it a
    // moment.)
    let public =
        || -> Vec<StoredMessage> { fake.messages_in(CHANNEL).into_iter().filter(|m| !m.is_ephemeral()).collect() };
    for _ in 0..100 {
        if public().len() <= 3 {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    let public = public();
    assert!(public.len() <= 3, "{public:#?}");
    assert!(fake.unknown_requests().is_empty(), "{:#?}", fake.unknown_requests());
    table.assert_no_english(NOT_ENGLISH);
    bot.stop().await;
}

/// Plays `mv` (`e1-e3`) on the board message with the two menus, as `player`, and returns the
/// board after it.
async fn play_by_menus(
    table: &Table<'_>,
    board: &StoredMessage,
    game: i64,
    ply: usize,
    player: Player,
    mv: &str,
) -> StoredMessage {
    let fake = table.fake;
    let (from, _) = mv.split_once('-').expect("a move");
    let pieces = format!("tafl:piece:{game}:{ply}");
    let to = format!("tafl:to:{game}:{ply}:{from}");
    let click = table.click(player, board, &pieces, Some(from));
    let menu = fake.wait_for_answer(&click).await;
    assert!(menu.id == board.id && menu.has_control(&to), "the destination menu: {menu:#?}");
    let options = menu.select_options(&to);
    assert!(options.iter().any(|(_, value)| value == mv), "{mv} is offered: {options:?}");
    assert!(menu.attachments[0].filename.starts_with(&format!("game-{game}-{ply}")), "{:#?}", menu.attachments);
    // Pressed on the board as it stands: a redraw that closed the menu would fail the test here.
    let _ = table.click(player, &menu, &to, Some(mv));
    board_at(fake, board.id, game, ply + 1).await
}

async fn two_players_finish_a_game_with_buttons_and_menus_only(locale: &'static str) {
    let fake = FakeDiscord::start().await;
    let dir = temp_dir("menu-game");
    let bot = TestBot::start(&fake, &dir);
    fake.wait_until_ready().await;
    let table = Table { fake: &fake, channel: CHANNEL, locale };

    let (moves, status) = decisive_game(Variant::Brandubh, 40);
    let mut board = start_game(&table, Variant::Brandubh).await;
    for (n, mv) in moves.iter().enumerate() {
        let mv = mv.split('x').next().unwrap();
        board = play_by_menus(&table, &board, 1, n, player_of(n), mv).await;
    }
    let Status::Finished(outcome) = status else { unreachable!() };
    assert!(board.text().contains(board_result(&table, outcome.winner)), "{}", board.text());
    assert!(board.custom_ids().is_empty(), "{board:#?}");
    let summary =
        fake.wait_for_message("the summary", |m| m.attachments.iter().any(|a| a.filename == "game-1.gif")).await;
    assert!(summary.text().contains(summary_words(&table, outcome.winner)), "{}", summary.text());
    if let Ok(dir) = std::env::var("TAFL_E2E_DUMP") {
        for message in fake.all_messages() {
            for file in &message.attachments {
                std::fs::write(std::path::Path::new(&dir).join(&file.filename), &file.data).unwrap();
            }
        }
    }
    assert!(fake.unknown_requests().is_empty(), "{:#?}", fake.unknown_requests());
    table.assert_no_english(NOT_ENGLISH);
    bot.stop().await;
}

async fn move_autocomplete_offers_legal_moves_filtered_and_labelled(locale: &'static str) {
    let (fake, bot, _dir) = served("autocomplete").await;
    let table = Table { fake: &fake, channel: CHANNEL, locale };
    start_game(&table, Variant::Brandubh).await;

    let typed = table.autocomplete(ALICE, "move", &json!({}), "notation", "d2");
    fake.wait_for("the move choices", |r| r.path == typed.callback_path()).await;
    let choices = fake.autocomplete_choices(&typed).expect("choices");
    let start = tafl_rules::Position::new(Variant::Brandubh.rules()).unwrap();
    let legal: Vec<String> =
        start.legal_moves().iter().map(ToString::to_string).filter(|m| m.starts_with("d2")).collect();
    let mut values: Vec<String> = choices.iter().map(|(_, value)| value.clone()).collect();
    values.sort();
    assert_eq!(values, legal, "exactly the legal moves from d2");
    assert!(choices.iter().all(|(label, value)| label.starts_with(value.as_str())), "{choices:?}");

    // Bob is not to move: one entry that says so.
    let typed = table.autocomplete(BOB, "move", &json!({}), "notation", "");
    fake.wait_for("Bob's choices", |r| r.path == typed.callback_path()).await;
    let choices = fake.autocomplete_choices(&typed).expect("choices");
    assert_eq!(choices.len(), 1, "{choices:?}");
    assert!(choices[0].0.contains(table.says("not your turn", "не ваш ход")), "{choices:?}");

    // Eve plays no game here.
    let typed = table.autocomplete(EVE, "move", &json!({}), "notation", "d");
    fake.wait_for("Eve's choices", |r| r.path == typed.callback_path()).await;
    let choices = fake.autocomplete_choices(&typed).expect("choices");
    assert!(choices[0].0.contains(table.says("no game in this channel", "нет партии в этом канале")), "{choices:?}");

    // The game option lists the caller's games.
    let typed = table.autocomplete(ALICE, "board", &json!({}), "game", "");
    fake.wait_for("the game choices", |r| r.path == typed.callback_path()).await;
    let choices = fake.autocomplete_choices(&typed).expect("choices");
    let choice = table.says("#1 Brandubh vs Bob · your move", "№1 Брандубх, соперник: Bob · ваш ход");
    assert_eq!(choices, [(choice.to_owned(), "1".to_owned())]);
    table.assert_no_english(NOT_ENGLISH);
    bot.stop().await;
}

async fn a_stranger_cannot_use_the_players_controls_and_changes_nothing(locale: &'static str) {
    let (fake, bot, _dir) = served("stranger").await;
    let table = Table { fake: &fake, channel: CHANNEL, locale };
    let board = start_game(&table, Variant::Brandubh).await;
    let edits = board.edits;

    let click = table.click(EVE, &board, "tafl:piece:1:0", Some("d2"));
    assert_eq!(
        private_answer(&fake, &click).await,
        table.says(
            "Game #1 is not yours: only its two players can do that.",
            "Партия №1 не ваша: это могут делать только её игроки."
        )
    );
    let click = table.click(EVE, &board, "tafl:resign:1:0", None);
    assert_eq!(
        private_answer(&fake, &click).await,
        table.says(
            "Game #1 is not yours: only its two players can do that.",
            "Партия №1 не ваша: это могут делать только её игроки."
        )
    );
    let click = table.click(EVE, &board, "tafl:draw:1:0", None);
    assert_eq!(
        private_answer(&fake, &click).await,
        table.says(
            "Game #1 is not yours: only its two players can do that.",
            "Партия №1 не ваша: это могут делать только её игроки."
        )
    );
    // Bob plays in the game but is not to move.
    let click = table.click(BOB, &board, "tafl:piece:1:0", Some("d2"));
    let not_yours = table.says("It is not your turn: Alice to move.", "Сейчас не ваш ход: ходит Alice.");
    assert_eq!(private_answer(&fake, &click).await, not_yours);

    assert_eq!(fake.message(board.id).unwrap().edits, edits, "the board did not change");
    // Alice still moves normally.
    let after = play_by_menus(&table, &board, 1, 0, ALICE, "d2-c2").await;
    assert!(after.text().contains(table.says("Last move: `d2-c2`", "Последний ход: `d2-c2`")), "{}", after.text());
    table.assert_no_english(NOT_ENGLISH);
    bot.stop().await;
}

async fn a_double_click_on_accept_starts_one_game_and_keeps_its_board(locale: &'static str) {
    let (fake, bot, _dir) = served("double-accept").await;
    let table = Table { fake: &fake, channel: CHANNEL, locale };
    let challenge = table.command(ALICE, "challenge", &json!({ "opponent": BOB.id, "variant": "brandubh" }), &[BOB]);
    let card = fake.wait_for_original(&challenge).await;
    let accept = card.button_labels().into_iter().find(|(label, _)| label == table.says("Accept", "Принять"));
    let accept = accept.expect("an Accept button").1;
    // The refused click used to close the card with an edit of its own; held up on a slow
    // connection, that edit landed after the board and took its picture and controls away.
    let card_edit = format!("/messages/{}", card.id);
    fake.fail_next(
        move |r| r.method == "PATCH" && r.path.ends_with(card_edit.as_str()),
        1,
        Fault::Slow { millis: 300 },
    );
    let first = table.click(BOB, &card, &accept, None);
    let second = table.click(BOB, &card, &accept, None);
    let answers = [fake.wait_for_answer(&first).await, fake.wait_for_answer(&second).await];
    tokio::time::sleep(std::time::Duration::from_millis(400)).await;
    // One click turned the card into the board; the other was refused privately, and left the
    // card, now the game's board, as it was: its picture and its controls.
    let refused: Vec<&str> = answers.iter().filter(|m| m.is_ephemeral()).map(|m| m.content.as_str()).collect();
    let closed = table.says("Challenge #1 can no longer be answered", "На вызов №1 уже нельзя ответить");
    assert!(refused.len() == 1 && refused[0].starts_with(closed), "{refused:?}");
    let board = fake.message(card.id).expect("the card");
    assert!(board.attachments.iter().any(|a| a.filename == "game-1-0.png"), "{board:#?}");
    assert!(board.has_control("tafl:piece:1:0"), "{board:#?}");
    let games = table.command(BOB, "games", &json!({}), &[]);
    let listed = fake.wait_for_original(&games).await;
    assert!(listed.text().contains(table.says("1 game in progress", "Идёт 1 партия")), "{}", listed.text());
    table.assert_no_english(NOT_ENGLISH);
    bot.stop().await;
}

async fn only_the_players_can_post_a_games_board_anew(locale: &'static str) {
    let (fake, bot, _dir) = served("stranger-board").await;
    let table = Table { fake: &fake, channel: CHANNEL, locale };
    let board = start_game(&table, Variant::Brandubh).await;
    // Someone outside the game asking for its board sees it privately, without controls: nothing
    // is posted in the game's channel, and its board keeps its controls.
    let boards = || {
        let posted = fake.messages_in(CHANNEL);
        posted
            .iter()
            .filter(|m| !m.is_ephemeral() && m.attachments.iter().any(|a| a.filename == "game-1-0.png"))
            .count()
    };
    assert_eq!(boards(), 1);
    let look = table.command(EVE, "board", &json!({ "game": 1 }), &[]);
    let shown = fake.wait_for_original(&look).await;
    assert!(shown.is_ephemeral() && shown.custom_ids().is_empty(), "{shown:#?}");
    assert!(shown.attachments.iter().any(|a| a.filename.starts_with("game-1-")), "{shown:#?}");
    assert!(fake.message(board.id).expect("the board").has_control("tafl:piece:1:0"));
    // A player's request for the board, after the stranger's in the game's queue, posts one.
    let repost = table.command(BOB, "board", &json!({ "game": 1 }), &[]);
    fake.wait_for_original(&repost).await;
    fake.wait_for_message("the reposted board", |m| m.id != board.id && m.has_control("tafl:piece:1:0")).await;
    assert_eq!(boards(), 2, "no board was posted for the stranger");
    table.assert_no_english(NOT_ENGLISH);
    bot.stop().await;
}

/// "A new one when the history scrolls away": three `/tafl board` in a row (a double tap, an
/// impatient player) post one board, not three left behind at once; the later answers say so,
/// and the last one links to the board once it is posted.
async fn a_players_board_asked_for_again_in_a_row_is_posted_once(locale: &'static str) {
    let (fake, bot, dir) = served("board-repeats").await;
    let table = Table { fake: &fake, channel: CHANNEL, locale };
    let board = start_game(&table, Variant::Brandubh).await;
    let mut answers = Vec::new();
    for _ in 0..2 {
        answers.push(private_answer(&fake, &table.command(ALICE, "board", &json!({}), &[])).await);
    }
    let posted =
        fake.wait_for_message("the board posted anew", |m| m.id != board.id && m.has_control("tafl:piece:1:0")).await;
    // Recorded as the game's board just after it is posted.
    let mut db = database(&dir).await;
    let recorded = "SELECT count(*) FROM outbox WHERE kind = 'new_board' AND state = 'done'";
    for _ in 0..100 {
        if sqlx::query_scalar::<_, i64>(recorded).fetch_one(&mut db).await.unwrap() == 1 {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    answers.push(private_answer(&fake, &table.command(ALICE, "board", &json!({}), &[])).await);
    assert!(answers[0].contains(table.says("posted below", "опубликована ниже")), "{answers:#?}");
    // The second came while the first was pending, or just after it was posted.
    let on_its_way =
        table.says("You already asked for a new board of game #1", "Вы уже попросили новую доску партии №1");
    let link = format!("https://discord.com/channels/{GUILD}/{CHANNEL}/{}", posted.id);
    assert!(answers[1].contains(on_its_way) || answers[1].ends_with(&link), "{answers:#?}");
    let just_posted = table
        .says("The board of game #1 was posted anew a moment ago", "Доску партии №1 только что опубликовали заново");
    assert!(answers[2].starts_with(just_posted) && answers[2].ends_with(&link), "{answers:#?}");
    tokio::time::sleep(std::time::Duration::from_secs(1)).await;
    let boards: Vec<u64> = fake
        .messages_in(CHANNEL)
        .iter()
        .filter(|m| !m.deleted && !m.is_ephemeral() && m.attachments.iter().any(|a| a.filename == "game-1-0.png"))
        .map(|m| m.id)
        .collect();
    assert_eq!(boards, [board.id, posted.id], "the first board and one posted anew");
    table.assert_no_english(NOT_ENGLISH);
    bot.stop().await;
}

async fn a_double_click_plays_the_move_once(locale: &'static str) {
    let (fake, bot, _dir) = served("double-click").await;
    let table = Table { fake: &fake, channel: CHANNEL, locale };
    let board = start_game(&table, Variant::Brandubh).await;
    let click = table.click(ALICE, &board, "tafl:piece:1:0", Some("d2"));
    let menu = fake.wait_for_answer(&click).await;
    assert!(menu.has_control("tafl:to:1:0:d2"), "{menu:#?}");

    // Two presses of the same option, sent together as a nervous thumb would.
    let first = table.click(ALICE, &menu, "tafl:to:1:0:d2", Some("d2-c2"));
    let second = table.click(ALICE, &menu, "tafl:to:1:0:d2", Some("d2-c2"));
    board_at(&fake, board.id, 1, 1).await;
    // One press updated the board (its answer is the board itself); the other was told, privately,
    // that the board had changed.
    let answers = [fake.wait_for_answer(&first).await, fake.wait_for_answer(&second).await];
    let refused: Vec<&str> = answers.iter().filter(|m| m.is_ephemeral()).map(|m| m.content.as_str()).collect();
    assert_eq!(refused.len(), 1, "{refused:?}");
    assert!(refused[0].starts_with(table.says("The board has changed", "Доска уже изменилась")), "{refused:?}");
    // Bob is to move: the game is at ply 1, not 2.
    let board = fake.message(board.id).unwrap();
    assert!(board.attachments.iter().any(|a| a.filename == "game-1-1.png"), "{board:#?}");
    let to_move = table.says("Move 1: <@{}> to move", "Ход 1: ходит <@{}>").replace("{}", &BOB.id.to_string());
    assert!(board.text().contains(&to_move), "{}", board.text());

    // The lists of games: one's own says whose move it is from one's side; someone else's
    // names the player to move, never "your move".
    let lists = [
        (BOB, None, table.says("**your move**", "**ваш ход**").to_owned()),
        (ALICE, None, table.says("their move", "ход соперника").to_owned()),
        (ALICE, Some(BOB), table.says("**Bob to move**", "**ходит Bob**").to_owned()),
        (BOB, Some(ALICE), table.says("opponent to move", "ход соперника").to_owned()),
    ];
    for (asker, whose, state) in lists {
        let options = whose.map_or(json!({}), |player| json!({ "user": player.id }));
        let listed = table.command(asker, "games", &options, &whose.into_iter().collect::<Vec<_>>());
        let answer = fake.wait_for_original(&listed).await;
        assert!(answer.is_ephemeral() && answer.text().contains(&state), "{state}: {}", answer.text());
        if whose.is_some() {
            assert!(!answer.text().contains(table.says("your move", "ваш ход")), "{}", answer.text());
        }
    }
    let nobody = table.command(ALICE, "games", &json!({ "user": EVE.id }), &[EVE]);
    let none = table.says("Eve has no games in progress.", "У игрока Eve нет идущих партий.");
    assert_eq!(private_answer(&fake, &nobody).await, none);
    table.assert_no_english(NOT_ENGLISH);
    bot.stop().await;
}

/// The challenge card is the answer to the command. When Discord shows it but its answer to
/// the bot is lost, the retry is refused as already acknowledged: the card must still be known,
/// so that it is closed when the challenge expires. When Discord never shows it, nobody could
/// answer or withdraw the challenge: it is withdrawn.
async fn a_card_whose_answer_was_lost_is_closed_at_expiry_and_one_never_shown_is_withdrawn(locale: &'static str) {
    let (fake, bot, dir) = served("card-lost").await;
    let table = Table { fake: &fake, channel: CHANNEL, locale };
    let options = json!({ "opponent": BOB.id, "variant": "tablut" });
    let callback = |payload: &Value| {
        format!(
            "/api/v10/interactions/{}/{}/callback",
            payload["id"].as_str().unwrap(),
            payload["token"].as_str().unwrap()
        )
    };
    let payload = table.command_payload(ALICE, "challenge", &options, &[BOB]);
    let path = callback(&payload);
    fake.fail_next(move |r| r.path == path, 1, Fault::AppliedThenServerError(500));
    let card = fake.wait_for_original(&fake.push_interaction(payload)).await;
    assert!(!card.custom_ids().is_empty(), "the card was shown: {card:#?}");

    let db = tafl_bot::store::Db::open(&format!("sqlite://{}", dir.join("tafl.db").display())).await.unwrap();
    // The bot reads the card back after its retry is refused: once it has recorded it, a day
    // passes.
    let recorded = "SELECT count(*) FROM challenge_messages WHERE challenge_id = 1";
    for _ in 0..100 {
        if sqlx::query_scalar::<_, i64>(recorded).fetch_one(db.pool()).await.unwrap() == 1 {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    assert_eq!(sqlx::query_scalar::<_, i64>(recorded).fetch_one(db.pool()).await.unwrap(), 1, "the card is recorded");
    sqlx::query("UPDATE challenges SET expires_at = expires_at - 86400 - 1").execute(db.pool()).await.unwrap();
    let card = fake.wait_for_message("the closed card", |m| m.id == card.id && m.custom_ids().is_empty()).await;
    assert!(card.text().contains(table.says("expired unanswered", "истёк без ответа")), "{}", card.text());

    // Discord fails every try of the second card: its challenge is withdrawn.
    let payload = table.command_payload(ALICE, "challenge", &options, &[BOB]);
    let path = callback(&payload);
    fake.fail_next(move |r| r.path == path, 3, Fault::ServerError(500));
    let asked = fake.push_interaction(payload);
    let sorry = fake.wait_for_original(&asked).await;
    assert!(sorry.is_ephemeral(), "{sorry:#?}");
    let state: String =
        sqlx::query_scalar("SELECT state FROM challenges WHERE id = 2").fetch_one(db.pool()).await.unwrap();
    assert_eq!(state, "cancelled");

    // Every try of the third fails on the way back, the first after Discord showed the card:
    // read back, it stands.
    let payload = table.command_payload(ALICE, "challenge", &options, &[BOB]);
    let path = callback(&payload);
    fake.fail_next(move |r| r.path == path, 3, Fault::AppliedThenServerError(500));
    let card = fake.wait_for_original(&fake.push_interaction(payload)).await;
    assert!(!card.custom_ids().is_empty(), "{card:#?}");
    let recorded = "SELECT count(*) FROM challenge_messages WHERE challenge_id = 3";
    for _ in 0..100 {
        if sqlx::query_scalar::<_, i64>(recorded).fetch_one(db.pool()).await.unwrap() == 1 {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    let state: String =
        sqlx::query_scalar("SELECT state FROM challenges WHERE id = 3").fetch_one(db.pool()).await.unwrap();
    assert_eq!(state, "open", "the card is there: the challenge stands");
    assert_eq!(sqlx::query_scalar::<_, i64>(recorded).fetch_one(db.pool()).await.unwrap(), 1);
    db.close().await;
    bot.stop().await;
}

async fn an_expired_challenge_cannot_be_accepted_and_its_card_says_so(locale: &'static str) {
    let (fake, bot, dir) = served("expired").await;
    let table = Table { fake: &fake, channel: CHANNEL, locale };
    let challenge = table.command(ALICE, "challenge", &json!({ "opponent": BOB.id, "variant": "tablut" }), &[BOB]);
    let card = fake.wait_for_original(&challenge).await;

    // A day passes: the challenge's time is up.
    let db = tafl_bot::store::Db::open(&format!("sqlite://{}", dir.join("tafl.db").display())).await.unwrap();
    sqlx::query("UPDATE challenges SET expires_at = expires_at - 86400 - 1").execute(db.pool()).await.unwrap();
    db.close().await;

    let click = table.click(BOB, &card, "tafl:accept:1", None);
    let expired = table.says(
        "Challenge #1 has expired; start a new one with /tafl challenge.",
        "Вызов №1 истёк; начните новый: /тафл вызов.",
    );
    assert_eq!(private_answer(&fake, &click).await, expired);
    let card = fake.wait_for_message("the closed card", |m| m.id == card.id && m.custom_ids().is_empty()).await;
    assert!(card.text().contains(table.says("expired unanswered", "истёк без ответа")), "{}", card.text());
    let games = table.command(BOB, "games", &json!({}), &[]);
    let none = table.says(
        "You have no games in progress. Start one with /tafl challenge.",
        "У вас нет идущих партий. Начните партию командой /тафл вызов.",
    );
    assert_eq!(private_answer(&fake, &games).await, none);
    table.assert_no_english(NOT_ENGLISH);
    bot.stop().await;
}

/// Alice withdraws her challenge with the card's Decline; Bob's Accept, pressed on the card as
/// he still saw it, is refused, and the card goes on saying that Alice withdrew it (it once
/// named Bob, once the outbox had closed the card).
async fn a_withdrawn_challenge_stays_withdrawn_by_its_challenger_after_a_late_accept(locale: &'static str) {
    let (fake, bot, dir) = served("withdrawn").await;
    let table = Table { fake: &fake, channel: CHANNEL, locale };
    let challenge = table.command(ALICE, "challenge", &json!({ "opponent": BOB.id, "variant": "tablut" }), &[BOB]);
    let card = fake.wait_for_original(&challenge).await;
    let mut late = tafl_e2e::fake_discord::with_name(fake.component(&card, "tafl:accept:1", &[], BOB.id), BOB.name);
    late["locale"] = json!(locale);
    late["guild_locale"] = json!(locale);

    let withdraw = table.click(ALICE, &card, "tafl:decline:1", None);
    let withdrawn = table.says("Challenge #1 withdrawn by", "отзывает вызов №1");
    let (by_alice, by_bob) = (format!("<@{}>", ALICE.id), format!("<@{}>", BOB.id));
    let answer = fake.wait_for_answer(&withdraw).await.text();
    assert!(answer.contains(withdrawn) && answer.contains(&by_alice), "{answer}");
    // The outbox closes the card too; the late click comes after it.
    let db = tafl_bot::store::Db::open(&format!("sqlite://{}", dir.join("tafl.db").display())).await.unwrap();
    for _ in 0..300 {
        let pending: i64 =
            sqlx::query_scalar("SELECT count(*) FROM outbox WHERE state <> 'done'").fetch_one(db.pool()).await.unwrap();
        if pending == 0 {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    db.close().await;

    let edits = fake.message(card.id).expect("the card").edits;
    let late = fake.push_interaction(late);
    let closed = table.says(
        "Challenge #1 can no longer be answered; start a new one with /tafl challenge.",
        "На вызов №1 уже нельзя ответить; начните новый: /тафл вызов.",
    );
    assert_eq!(private_answer(&fake, &late).await, closed);
    // The refusal closes the card again before it answers: it still names Alice.
    let card = fake.message(card.id).expect("the card");
    assert!(card.edits > edits, "the late click closed the card again");
    let text = card.text();
    assert!(text.contains(withdrawn) && text.contains(&by_alice) && !text.contains(&by_bob), "{text}");
    table.assert_no_english(NOT_ENGLISH);
    bot.stop().await;
}

async fn a_game_ends_by_resignation_and_another_by_agreed_draw(locale: &'static str) {
    let (fake, bot, _dir) = served("resign-draw").await;
    let table = Table { fake: &fake, channel: CHANNEL, locale };

    let board = start_game(&table, Variant::Brandubh).await;
    // Alice is asked whether she resigns, and moves instead: the question is about a board that
    // is gone, and confirming it says she has not resigned (not "play on the current board").
    let ask = table.click(ALICE, &board, "tafl:resign:1:0", None);
    let old_question = fake.wait_for_original(&ask).await;
    let board = play_by_menus(&table, &board, 1, 0, ALICE, "d2-c2").await;
    let late = table.click(ALICE, &old_question, "tafl:resign-yes:1:0", None);
    let answer = fake.wait_for_answer(&late).await;
    let not_resigned = table.says(
        "Game #1 has moved on since you were asked, so you have not resigned; to resign now, press Resign on the current board.",
        "Партия №1 изменилась, пока вы решали, поэтому вы не сдались; чтобы сдаться сейчас, нажмите «Сдаться» на текущей доске.",
    );
    assert_eq!(answer.content, not_resigned);
    assert!(answer.custom_ids().is_empty(), "the old question's button is gone: {answer:#?}");
    let ask = table.click(BOB, &board, "tafl:resign:1:1", None);
    let question = fake.wait_for_original(&ask).await;
    let resign = table.says("Resign game #1?", "Сдать партию №1?");
    assert!(question.is_ephemeral() && question.content.starts_with(resign), "{question:#?}");
    let _ = table.click(BOB, &question, "tafl:resign-yes:1:1", None);
    let summary =
        fake.wait_for_message("the summary", |m| m.attachments.iter().any(|a| a.filename == "game-1.gif")).await;
    assert!(summary.text().contains(summary_words(&table, Some(Side::Attackers))), "{}", summary.text());
    let resigned = table.says("Bob (defenders) resigned", "Bob (защитники) сдаётся");
    assert!(summary.text().contains(resigned), "{}", summary.text());
    let board = fake.wait_for_message("the final board", |m| m.id == board.id && m.custom_ids().is_empty()).await;
    assert!(board.text().contains(table.says("Bob resigned", "Bob сдаётся")), "{}", board.text());
    // Just over, the game is still the one meant here by a command that names none.
    let export = table.command(BOB, "export", &json!({}), &[]);
    let exported = fake.wait_for_original(&export).await;
    assert!(exported.attachments.iter().any(|a| a.filename == "game-1.otn"), "{exported:#?}");

    let board = start_game(&table, Variant::Brandubh).await;
    let offer = table.click(ALICE, &board, "tafl:draw:2:0", None);
    let board = fake.wait_for_answer(&offer).await;
    assert!(board.custom_ids().contains(&"tafl:draw-yes:2:0".to_owned()), "{board:#?}");
    assert!(board.text().contains(table.says("offers a draw", "предлагает ничью")), "{}", board.text());
    let offered = table.says("offers a draw in game #2", "предлагает ничью в партии №2");
    let notice = fake.wait_for_message("the offer notice", |m| m.content.contains(offered)).await;
    assert!(notice.content.starts_with(&format!("<@{}>", BOB.id)), "{}", notice.content);
    // Alice cannot accept her own offer.
    let own = table.click(ALICE, &board, "tafl:draw-yes:2:0", None);
    let own_offer =
        table.says("cannot answer your own draw offer", "Нельзя отвечать на собственное предложение ничьей");
    assert!(private_answer(&fake, &own).await.contains(own_offer));
    let _ = table.click(BOB, &board, "tafl:draw-yes:2:0", None);
    let summary =
        fake.wait_for_message("the draw summary", |m| m.attachments.iter().any(|a| a.filename == "game-2.gif")).await;
    assert!(summary.text().contains(table.says("Drawn by agreement", "Ничья по соглашению")), "{}", summary.text());
    table.assert_no_english(NOT_ENGLISH);
    bot.stop().await;
}

/// Alice opens the destination menu of d2 (game 1, ply 0) while another write of the board is
/// on its way, and it is still open once that write (the request `landed` matches) and her
/// click's answer (the answer itself, or the edit of an acknowledged one) are both done:
/// returns the board then.
async fn menu_stays_open_after(
    table: &Table<'_>,
    board: &StoredMessage,
    landed: impl Fn(&tafl_e2e::fake_discord::Recorded) -> bool,
) -> StoredMessage {
    let fake = table.fake;
    let click = table.click(ALICE, board, "tafl:piece:1:0", Some("d2"));
    let acknowledged_edit = format!("/{}/messages/@original", click.token);
    fake.wait_for("the other write of the board", landed).await;
    let answer = fake
        .wait_for("the click's answer with the board", |r| {
            (r.path == click.callback_path() && r.json.as_ref().is_some_and(|json| json["type"] == 7))
                || (r.method == "PATCH" && r.path.ends_with(&acknowledged_edit))
        })
        .await;
    assert!(answer.status < 300, "{answer:#?}");
    let shown = fake.message(board.id).expect("the board");
    let destinations = "tafl:to:1:0:d2".to_owned();
    assert!(shown.has_control(&destinations), "the menu is open after both: {shown:#?}");
    shown
}

/// A player opens a menu while the delivery's edit of the board (here, with a draw offer the
/// player just made by command) is still on its way: the click waits for that edit, which lands
/// first, and the menu it opens stays open, showing the offer too. Answered at once, the menu
/// would be closed by the edit landing after it.
async fn a_menu_opened_while_the_board_is_being_redrawn_stays_open(locale: &'static str) {
    let first_answer = menu_opened_during_a_slow_board_edit(locale, "menu-during-redraw", 400, false).await;
    assert_eq!(first_answer, json!(7), "a short wait: the click's answer is the board itself");
}

/// Alice makes a draw offer by command, and the delivery's edit of the board that shows it is
/// held back `millis` by the fake; meanwhile she opens the destination menu of d2, which must
/// stay open once both are done. Returns the type of her click's first answer (7, the board
/// itself; 6, an acknowledgement that the board edit follows). With `lose_acknowledgement`, the
/// fake carries out the first acknowledgement and answers it with a 500.
async fn menu_opened_during_a_slow_board_edit(
    locale: &'static str,
    name: &str,
    millis: u64,
    lose_acknowledgement: bool,
) -> serde_json::Value {
    use tafl_e2e::fake_discord::Fault;
    let (fake, bot, _dir) = served(name).await;
    let table = Table { fake: &fake, channel: CHANNEL, locale };
    let board = start_game(&table, Variant::Brandubh).await;
    let board_edit = format!("/messages/{}", board.id);
    let is_board_edit =
        move |r: &tafl_e2e::fake_discord::Recorded| r.method == "PATCH" && r.path.ends_with(&board_edit);
    fake.fail_next(is_board_edit.clone(), 1, Fault::Slow { millis });
    if lose_acknowledgement {
        let is_acknowledgement = |r: &tafl_e2e::fake_discord::Recorded| {
            r.path.ends_with("/callback") && r.json.as_ref().is_some_and(|json| json["type"] == 6)
        };
        fake.fail_next(is_acknowledgement, 1, Fault::AppliedThenServerError(500));
    }

    let offer = table.command(ALICE, "draw", &json!({}), &[]);
    let offered = private_answer(&fake, &offer).await;
    assert!(offered.starts_with(table.says("You offered a draw", "Вы предложили ничью")), "{offered}");
    fake.wait_for_slow_requests(1).await;
    let shown = menu_stays_open_after(&table, &board, |r| is_board_edit(r) && r.status == 200).await;
    assert!(shown.text().contains(table.says("offers a draw", "предлагает ничью")), "{}", shown.text());
    // The click's first answer is the last callback: the command's and the challenge's came before.
    let callbacks: Vec<_> = fake.requests().into_iter().filter(|r| r.path.ends_with("/callback")).collect();
    let first_answer = callbacks.last().and_then(|r| r.json.as_ref()).map(|json| json["type"].clone());
    table.assert_no_english(NOT_ENGLISH);
    bot.stop().await;
    first_answer.unwrap_or_default()
}

/// Bob offers a draw with the board's button, and Alice opens a menu while the answer to Bob's
/// click (the board with the offer) is still on its way: her click waits for his, and her menu,
/// answered last, stays open and shows the offer.
async fn a_menu_opened_while_the_opponents_click_is_answered_stays_open(locale: &'static str) {
    use tafl_e2e::fake_discord::Fault;
    let (fake, bot, _dir) = served("menu-during-click").await;
    let table = Table { fake: &fake, channel: CHANNEL, locale };
    let board = start_game(&table, Variant::Brandubh).await;
    let is_offer_answer = |r: &tafl_e2e::fake_discord::Recorded| {
        r.path.ends_with("/callback")
            && r.json.as_ref().is_some_and(|json| json.to_string().contains("tafl:draw-yes:1:0"))
    };
    fake.fail_next(is_offer_answer, 1, Fault::Slow { millis: 400 });

    let offer = table.click(BOB, &board, "tafl:draw:1:0", None);
    fake.wait_for_slow_requests(1).await;
    let shown = menu_stays_open_after(&table, &board, |r| r.path == offer.callback_path()).await;
    assert!(shown.custom_ids().contains(&"tafl:draw-yes:1:0".to_owned()), "and offers the draw: {shown:#?}");
    table.assert_no_english(NOT_ENGLISH);
    bot.stop().await;
}

/// The delivery's edit of the board is held back longer than a click may wait before its first
/// answer: Alice's click is acknowledged (a deferred update, so Discord's 3 s cannot run out),
/// and her menu comes as the edit of that answer once the slow edit has landed.
async fn a_click_kept_waiting_by_a_slow_edit_is_acknowledged_and_answered_after_it(locale: &'static str) {
    let first_answer = menu_opened_during_a_slow_board_edit(locale, "menu-after-slow-edit", 2_000, false).await;
    assert_eq!(first_answer, json!(6), "a long wait: the click was acknowledged first");
}

/// As above, with Discord's reply to the acknowledgement lost after it took effect (a 500): the
/// retry is told the click is acknowledged already, and the click goes on to its menu.
async fn a_click_whose_acknowledgement_reply_is_lost_is_still_answered(locale: &'static str) {
    let first_answer = menu_opened_during_a_slow_board_edit(locale, "lost-acknowledgement", 2_000, true).await;
    assert_eq!(first_answer, json!(6), "the acknowledgement, tried again");
}

/// A double click whose first press's answer is held back past the moment the second must be
/// acknowledged: the second is acknowledged, waits for the first, and is then refused privately
/// by a follow-up (its first answer is spent); the move is played once.
async fn a_double_click_kept_waiting_is_acknowledged_and_refused_by_a_follow_up(locale: &'static str) {
    use tafl_e2e::fake_discord::Fault;
    let (fake, bot, _dir) = served("slow-double-click").await;
    let table = Table { fake: &fake, channel: CHANNEL, locale };
    let board = start_game(&table, Variant::Brandubh).await;
    let click = table.click(ALICE, &board, "tafl:piece:1:0", Some("d2"));
    let menu = fake.wait_for_answer(&click).await;

    fake.fail_next(|r| r.path.ends_with("/callback"), 1, Fault::Slow { millis: 2_000 });
    let first = table.click(ALICE, &menu, "tafl:to:1:0:d2", Some("d2-c2"));
    fake.wait_for_slow_requests(1).await;
    let second = table.click(ALICE, &menu, "tafl:to:1:0:d2", Some("d2-c2"));
    let refusal = fake.wait_for_message("the refusal of the second press", |m| m.interaction == Some(second.id)).await;
    assert!(refusal.is_ephemeral(), "{refusal:#?}");
    assert!(refusal.content.starts_with(table.says("The board has changed", "Доска уже изменилась")), "{refusal:#?}");
    let acknowledged = fake.wait_for("the second press's first answer", |r| r.path == second.callback_path()).await;
    assert_eq!(acknowledged.json.as_ref().map(|json| json["type"].clone()), Some(json!(6)), "{acknowledged:#?}");
    assert!(!fake.wait_for_answer(&first).await.is_ephemeral(), "the first press moved");
    let board = board_at(&fake, board.id, 1, 1).await;
    let to_move = table.says("Move 1: <@{}> to move", "Ход 1: ходит <@{}>").replace("{}", &BOB.id.to_string());
    assert!(board.text().contains(&to_move), "played once: {}", board.text());
    table.assert_no_english(NOT_ENGLISH);
    bot.stop().await;
}

/// Alice picks d2 while the delivery's edit of the board (her draw offer) is held back, so her
/// click waits for the board, and she types a move meanwhile: once the board is free the click
/// is refused as stale (by a follow-up: it was acknowledged), and the board shows the new
/// position with Bob's pieces menu. The menu used to be checked before the wait and drawn after
/// it: d2's moves from the old position on the new one, on Bob's turn, recorded as the board
/// shown, so no later drawing replaced it (found by the randomized fault test, seed 144057465).
async fn a_menu_click_overtaken_by_a_move_while_it_waits_is_refused_and_the_board_stays_playable(locale: &'static str) {
    use tafl_e2e::fake_discord::Fault;
    let (fake, bot, _dir) = served("menu-overtaken").await;
    let table = Table { fake: &fake, channel: CHANNEL, locale };
    let board = start_game(&table, Variant::Brandubh).await;
    let board_edit = format!("/messages/{}", board.id);
    let is_board_edit =
        move |r: &tafl_e2e::fake_discord::Recorded| r.method == "PATCH" && r.path.ends_with(&board_edit);
    fake.fail_next(is_board_edit, 1, Fault::Slow { millis: 2_500 });
    let offer = table.command(ALICE, "draw", &json!({}), &[]);
    private_answer(&fake, &offer).await;
    fake.wait_for_slow_requests(1).await;

    let click = table.click(ALICE, &board, "tafl:piece:1:0", Some("d2"));
    let acknowledged = fake.wait_for("the click acknowledged", |r| r.path == click.callback_path()).await;
    assert_eq!(acknowledged.json.as_ref().map(|json| json["type"].clone()), Some(json!(6)), "{acknowledged:#?}");
    let typed = table.command(ALICE, "move", &json!({ "notation": "d2-c2" }), &[]);
    assert!(private_answer(&fake, &typed).await.starts_with(table.says("You played", "Вы сыграли")));

    let refusal = fake.wait_for_message("the refusal of the click", |m| m.interaction == Some(click.id)).await;
    assert!(refusal.is_ephemeral(), "{refusal:#?}");
    assert!(refusal.content.starts_with(table.says("The board has changed", "Доска уже изменилась")), "{refusal:#?}");
    let live = |m: &StoredMessage| m.has_control("tafl:piece:1:1");
    let shown = fake.wait_for_message("the board at ply 1 with Bob's pieces", |m| m.id == board.id && live(m)).await;
    assert!(shown.attachments.iter().any(|a| a.filename == "game-1-1.png"), "{shown:#?}");
    // And it stays so: nothing of the click's lands on it afterwards.
    tokio::time::sleep(std::time::Duration::from_millis(500)).await;
    let board = fake.message(board.id).expect("the board");
    assert!(live(&board) && !board.custom_ids().iter().any(|id| id.starts_with("tafl:to:")), "{board:#?}");
    table.assert_no_english(NOT_ENGLISH);
    bot.stop().await;
}

/// Bob opens d3's destinations at ply 1; Alice's move is taken back and she plays another, so
/// the game is at ply 1 again in another position. Bob's client, still showing the old board
/// (its edit not yet arrived), picks d3-d2 there: refused as stale, nothing played. The menus
/// carried only the ply, and the move was played on a position Bob had not seen.
async fn a_menu_from_before_a_takeback_is_refused_when_the_game_is_back_at_its_ply(locale: &'static str) {
    let (fake, bot, _dir) = served("menu-before-takeback").await;
    let table = Table { fake: &fake, channel: CHANNEL, locale };
    let board = start_game(&table, Variant::Brandubh).await;
    let first = table.command(ALICE, "move", &json!({ "notation": "d2-c2" }), &[]);
    assert!(private_answer(&fake, &first).await.starts_with(table.says("You played", "Вы сыграли")));
    let old = fake
        .wait_for_message("the board at ply 1", |m| {
            m.id == board.id && m.custom_ids().iter().any(|id| id.starts_with("tafl:piece:1:1"))
        })
        .await;
    let piece = old.custom_ids().into_iter().find(|id| id.starts_with("tafl:piece:1:1")).expect("a piece menu");
    let opened = table.click(BOB, &old, &piece, Some("d3"));
    let menu = fake.wait_for_answer(&opened).await;
    let to = menu.custom_ids().into_iter().find(|id| id.starts_with("tafl:to:1:1")).expect("d3's destinations");
    // Bob's client keeps this board; his pick on it comes after the takeback and the new move.
    let mut stale = tafl_e2e::fake_discord::with_name(fake.component(&menu, &to, &["d3-d2"], BOB.id), BOB.name);
    stale["locale"] = json!(locale);
    stale["guild_locale"] = json!(locale);

    let asked = table.command(ALICE, "takeback", &json!({}), &[]);
    private_answer(&fake, &asked).await;
    let agreed = table.command(BOB, "takeback", &json!({ "action": 1 }), &[]);
    assert!(private_answer(&fake, &agreed).await.starts_with(table.says("You agreed", "Вы согласились")));
    let second = table.command(ALICE, "move", &json!({ "notation": "d2-e2" }), &[]);
    assert!(private_answer(&fake, &second).await.starts_with(table.says("You played", "Вы сыграли")));

    let click = fake.push_interaction(stale);
    let refusal =
        fake.wait_for_message("the refusal of the old board's pick", |m| m.interaction == Some(click.id)).await;
    assert!(refusal.is_ephemeral(), "{refusal:#?}");
    assert!(refusal.content.starts_with(table.says("The board has changed", "Доска уже изменилась")), "{refusal:#?}");
    // Nothing was played: Bob is still to move after d2-e2.
    let shown =
        fake.wait_for_message("the board after d2-e2", |m| m.id == board.id && m.text().contains("`d2-e2")).await;
    let to_move = table.says("Move 1: <@{}> to move", "Ход 1: ходит <@{}>").replace("{}", &BOB.id.to_string());
    assert!(shown.text().contains(&to_move), "{}", shown.text());
    table.assert_no_english(NOT_ENGLISH);
    bot.stop().await;
}

async fn after_a_restart_the_old_board_still_works(locale: &'static str) {
    let fake = FakeDiscord::start().await;
    let dir = temp_dir("restart");
    let bot = TestBot::start(&fake, &dir);
    fake.wait_until_ready().await;
    let table = Table { fake: &fake, channel: CHANNEL, locale };
    let board = start_game(&table, Variant::Brandubh).await;
    let board = play_by_menus(&table, &board, 1, 0, ALICE, "d2-c2").await;
    bot.stop().await;

    // A new bot process on the same database: nothing in memory survives, the buttons do.
    let connections = fake.connections();
    let bot = TestBot::start(&fake, &dir);
    fake.wait_for_connections(connections + 1).await;
    let board = play_by_menus(&table, &board, 1, 1, BOB, "d3-c3").await;
    assert!(board.text().contains(table.says("Last move: `d3-c3`", "Последний ход: `d3-c3`")), "{}", board.text());
    let typed = table.command(ALICE, "move", &json!({ "notation": "c2-c1" }), &[]);
    assert!(private_answer(&fake, &typed).await.starts_with(table.says("You played", "Вы сыграли")));
    board_at(&fake, board.id, 1, 3).await;
    table.assert_no_english(NOT_ENGLISH);
    bot.stop().await;
}

async fn through_rate_limits_server_errors_and_a_dropped_gateway_no_move_is_lost_or_doubled(locale: &'static str) {
    use tafl_e2e::fake_discord::Fault;
    // The TLS route: serenity's own rate limiter and HTTP client, as in production.
    let fake = FakeDiscord::start_tls().await;
    let dir = temp_dir("faults");
    let bot = TestBot::start(&fake, &dir);
    fake.wait_until_ready().await;
    let table = Table { fake: &fake, channel: CHANNEL, locale };
    let (moves, status) = decisive_game(Variant::Brandubh, 40);
    assert!(moves.len() >= 8, "a game long enough for every fault");

    let mut board = start_game(&table, Variant::Brandubh).await;
    for (n, mv) in moves.iter().enumerate() {
        let mv = mv.split('x').next().unwrap();
        match n {
            1 => fake.fail_next(|r| r.path.ends_with("/callback"), 1, Fault::RateLimited { seconds: 0.2 }),
            2 => fake.fail_next(|r| r.method == "POST" && r.path.ends_with("/messages"), 2, Fault::ServerError(500)),
            3 => fake.fail_next(|r| r.path.ends_with("/callback"), 1, Fault::ServerError(502)),
            5 => {
                let before = fake.connections();
                fake.drop_gateway();
                fake.wait_for_connections(before + 1).await;
            }
            _ => {}
        }
        if n % 3 == 2 {
            // Some moves by slash command, which edit the board through the channel route.
            let played = table.command(player_of(n), "move", &json!({ "notation": mv }), &[]);
            assert!(private_answer(&fake, &played).await.starts_with(table.says("You played", "Вы сыграли")));
            board = board_at(&fake, board.id, 1, n + 1).await;
        } else {
            board = play_by_menus(&table, &board, 1, n, player_of(n), mv).await;
        }
    }
    let Status::Finished(outcome) = status else { unreachable!() };
    let summary =
        fake.wait_for_message("the summary", |m| m.attachments.iter().any(|a| a.filename == "game-1.gif")).await;
    assert!(summary.text().contains(summary_words(&table, outcome.winner)), "{}", summary.text());
    let record = summary.attachments.iter().find(|a| a.filename == "game-1.otn").expect("the record");
    let record = tafl_rules::otn::GameRecord::parse(std::str::from_utf8(&record.data).unwrap()).unwrap();
    let replayed = record.replay().unwrap();
    let played: Vec<String> = replayed.moves().iter().map(|m| m.text().to_string()).collect();
    assert_eq!(played, moves, "every move once, in order");
    let summaries =
        fake.all_messages().iter().filter(|m| m.attachments.iter().any(|a| a.filename == "game-1.gif")).count();
    assert_eq!(summaries, 1, "one summary");
    let statuses: Vec<u16> = fake.requests().iter().map(|r| r.status).collect();
    assert!(
        statuses.contains(&429) && statuses.contains(&500) && statuses.contains(&502),
        "every fault happened: {statuses:?}"
    );
    assert!(fake.requests().iter().all(|r| r.host.as_deref() == Some("discord.com")), "the real URLs were used");
    table.assert_no_english(NOT_ENGLISH);
    bot.stop().await;
}

/// Alice challenges Bob to Brandubh with one day per move, as the attackers, and Bob accepts
/// with the card's button: the card, and the board it became.
async fn timed_game(table: &Table<'_>) -> (StoredMessage, StoredMessage) {
    let fake = table.fake;
    let challenge = table.command(
        ALICE,
        "challenge",
        &json!({ "opponent": BOB.id, "variant": "brandubh", "side": 0, "clock": "1d" }),
        &[BOB],
    );
    let card = fake.wait_for_original(&challenge).await;
    assert!(card.text().contains(table.says("Time per move: 1 day", "Время на ход: 1 день")), "{}", card.text());
    let _ = table.click(BOB, &card, "tafl:accept:1", None);
    let board = fake.wait_for_message("the board", |m| m.id == card.id && m.edits > 0).await;
    (card, board)
}

async fn a_player_is_reminded_and_then_loses_on_time_with_the_summary_posted(locale: &'static str) {
    let (fake, bot, dir) = served("timeout").await;
    let table = Table { fake: &fake, channel: CHANNEL, locale };
    let (card, board) = timed_game(&table).await;
    assert!(board.text().contains(table.says("Time runs out <t:", "Время хода истекает <t:")), "{}", board.text());
    let board = play_by_menus(&table, &board, 1, 0, ALICE, "d2-c2").await;
    play_by_menus(&table, &board, 1, 1, BOB, "d3-c3").await;

    // Alice has used 13 of her 24 hours: the halfway reminder mentions her, with the deadline.
    let_time_pass(&dir, 1, 13 * 3600, 11 * 3600).await;
    let halfway = table.says("half your time is gone", "половина времени прошла");
    let reminder = fake.wait_for_message("the reminder", |m| m.content.contains(halfway)).await;
    assert!(reminder.content.starts_with(&format!("<@{}>", ALICE.id)), "{}", reminder.content);
    assert!(reminder.content.contains(table.says("runs out <t:", "истекает <t:")), "{}", reminder.content);

    // Her time runs out: she loses on time, and the summary says so.
    let_time_pass(&dir, 1, 24 * 3600 + 1, -1).await;
    let summary =
        fake.wait_for_message("the summary", |m| m.attachments.iter().any(|a| a.filename == "game-1.gif")).await;
    assert!(summary.text().contains(summary_words(&table, Some(Side::Defenders))), "{}", summary.text());
    let ran_out = table.says("Alice (attackers) ran out of time", "У игрока Alice (нападающие) кончилось время");
    assert!(summary.text().contains(ran_out), "{}", summary.text());
    let board = fake.wait_for_message("the final board", |m| m.id == card.id && m.custom_ids().is_empty()).await;
    let ran_out = table.says("Alice ran out of time", "у игрока Alice кончилось время");
    assert!(board.text().contains(ran_out), "{}", board.text());
    let reminders = fake.all_messages().iter().filter(|m| m.content.contains(halfway)).count();
    assert_eq!(reminders, 1, "one reminder");
    table.assert_no_english(NOT_ENGLISH);
    bot.stop().await;
}

async fn an_untimed_game_left_unplayed_for_two_weeks_is_claimed_with_the_summary_posted(locale: &'static str) {
    let (fake, bot, dir) = served("claim").await;
    let table = Table { fake: &fake, channel: CHANNEL, locale };
    let board = start_game(&table, Variant::Brandubh).await;
    let board = play_by_menus(&table, &board, 1, 0, ALICE, "d2-c2").await;
    play_by_menus(&table, &board, 1, 1, BOB, "d3-c3").await;

    // Alice has the move: only Bob may claim, and not yet.
    let mine = table.command(ALICE, "claim", &json!({}), &[]);
    let answer = private_answer(&fake, &mine).await;
    let own_move = table.says("It is your move in game #1;", "В партии №1 сейчас ваш ход;");
    assert!(answer.starts_with(own_move), "{answer}");
    let early = table.command(BOB, "claim", &json!({}), &[]);
    let answer = private_answer(&fake, &early).await;
    let (got, then) = if table.is_english() {
        ("In game #1, Alice got the move <t:", "; you can claim the win <t:")
    } else {
        ("Ход в партии №1 перешёл к игроку Alice <t:", "; если хода не будет, победу можно будет забрать <t:")
    };
    assert!(answer.starts_with(got) && answer.contains(then), "{answer}");

    // Two weeks and a day later: the scheduler tells Bob, and his claim wins the game.
    leave_untouched(&dir, 1, 15).await;
    let told = table.says("Alice has not moved in game #1", "ходов от игрока Alice в партии №1");
    let notice = fake.wait_for_message("the claim notice", |m| m.content.contains(told)).await;
    assert!(notice.content.starts_with(&format!("<@{}>, ", BOB.id)), "{}", notice.content);
    let may =
        table.says("for 14 days: you may claim the win with ", "не было 14 дней: вы можете забрать победу командой ");
    assert!(notice.content.contains(may), "{}", notice.content);
    assert_eq!(notice.channel_id, CHANNEL);
    let claim = table.command(BOB, "claim", &json!({}), &[]);
    let answer = private_answer(&fake, &claim).await;
    let claimed = table.says(
        "You claimed game #1: Alice had not moved for 14 days, and the win is yours.",
        "Вы забрали победу в партии №1: ходов от игрока Alice не было 14 дней.",
    );
    assert_eq!(answer, claimed);
    let summary =
        fake.wait_for_message("the summary", |m| m.attachments.iter().any(|a| a.filename == "game-1.gif")).await;
    assert!(summary.text().contains(summary_words(&table, Some(Side::Defenders))), "{}", summary.text());
    let left = table.says(
        "Alice (attackers) had not moved for 14 days, and the win was claimed.",
        "Ходов от игрока Alice (нападающие) не было 14 дней, и соперник забрал победу.",
    );
    assert!(summary.text().contains(left), "{}", summary.text());
    let board = fake.wait_for_message("the final board", |m| m.id == board.id && m.custom_ids().is_empty()).await;
    let left = table.says("Alice left the game unplayed", "партия брошена игроком Alice");
    assert!(board.text().contains(left), "{}", board.text());
    table.assert_no_english(NOT_ENGLISH);
    bot.stop().await;
}

async fn a_server_that_removes_the_bot_has_its_clocks_stopped_until_it_is_back(locale: &'static str) {
    let (fake, bot, dir) = served("removed").await;
    let table = Table { fake: &fake, channel: CHANNEL, locale };
    let (card, board) = timed_game(&table).await;
    let board = play_by_menus(&table, &board, 1, 0, ALICE, "d2-c2").await;
    play_by_menus(&table, &board, 1, 1, BOB, "d3-c3").await;
    // And an untimed game, where Bob waits for Alice's move.
    let untimed = start_game(&table, Variant::Brandubh).await;
    let untimed = play_by_menus(&table, &untimed, 2, 0, ALICE, "d2-c2").await;
    play_by_menus(&table, &untimed, 2, 1, BOB, "d3-c3").await;
    // Bob asks for notices by DM; Alice does not.
    fake.wait_for_original(&table.command(BOB, "settings", &json!({ "dm": true }), &[])).await;
    let db = tafl_bot::store::Db::open(&format!("sqlite://{}", dir.join("tafl.db").display())).await.unwrap();
    let left_at = || async {
        sqlx::query_scalar::<_, Option<i64>>("SELECT left_at FROM servers WHERE id = ?")
            .bind(GUILD as i64)
            .fetch_optional(db.pool())
            .await
            .unwrap()
            .flatten()
    };

    // An outage of the server is not a removal (its handler, if it took it for one, would have
    // written within milliseconds); a removal, even during the outage, pauses its games.
    fake.guild_outage(GUILD);
    tokio::time::sleep(std::time::Duration::from_millis(500)).await;
    assert!(left_at().await.is_none(), "an outage pauses nothing");
    fake.remove_bot(GUILD);
    for _ in 0..100 {
        if left_at().await.is_some() {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    assert!(left_at().await.is_some(), "the removal is recorded");

    // From a DM, Bob's list marks both games paused, and the untimed one cannot be claimed.
    let dm = |subcommand: &str, options: Value| {
        fake.push_interaction(fake.slash_command("tafl", subcommand, &options, BOB.id, locale))
    };
    let list = fake.wait_for_original(&dm("games", json!([]))).await;
    let paused = table.says("⏸ paused: the bot is no longer in its server", "⏸ приостановлена: бота нет на её сервере");
    assert_eq!(list.text().matches(paused).count(), 2, "{}", list.text());
    let claim = dm("claim", json!([{ "name": "game", "type": 4, "value": 2 }]));
    let when = format!("<t:{}:R>", left_at().await.unwrap() + tafl_bot::host::CLAIM_AFTER);
    let refused = table.says(
        "Game #2 is paused while the bot is not in its server, and that time counts against nobody; if the bot is still away {when}, either player may then end the game without a result.",
        "Партия №2 приостановлена, пока бота нет на её сервере, и время в ней ни у кого не идёт; любой из игроков сможет закончить партию без результата {when}, если бот к тому времени не вернётся.",
    );
    assert_eq!(private_answer(&fake, &claim).await, refused.replace("{when}", &when));

    // Two weeks and a day away (the server may be gone for good): Bob ends the untimed game
    // without a result. Its summary waits for the bot's return.
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_secs() as i64;
    let set_left_at = |at: i64| {
        let db = &db;
        async move {
            sqlx::query("UPDATE servers SET left_at = ? WHERE id = ?")
                .bind(at)
                .bind(GUILD as i64)
                .execute(db.pool())
                .await
                .unwrap();
        }
    };
    set_left_at(now - 15 * 86_400).await;
    // Its two weeks came a day ago: Bob is told by DM, once, of both games; Alice is not.
    sqlx::query("UPDATE servers SET paused_notice_at = left_at + ? WHERE id = ?")
        .bind(tafl_bot::host::CLAIM_AFTER)
        .bind(GUILD as i64)
        .execute(db.pool())
        .await
        .unwrap();
    let title = table.says("2 paused games may be ended", "Приостановленные партии можно закончить: 2");
    let told = fake.wait_for_message("the DM about paused games", |m| m.text().contains(title)).await;
    assert_eq!(Some(told.channel_id), fake.dm_channel(BOB.id), "by DM to Bob");
    let intro = table.says(
        "The bot was removed from the server of these games {when}, and has not been added back. The time away counts against nobody, and if the bot is added back, play goes on where it stopped.",
        "Бота удалили с сервера этих партий {when}, и он не вернулся. Пока бота нет, время не идёт ни у кого из игроков, а если бота вернут на сервер, партия продолжится с того же места.",
    );
    assert_eq!(told.content, intro.replace("{when}", &format!("<t:{}:R>", now - 15 * 86_400)));
    let may_end = table.says(
        "either player may end it without a result with",
        "любой из игроков может закончить её без результата командой",
    );
    assert_eq!(told.text().matches(may_end).count(), 2, "{}", told.text());
    let list = fake.wait_for_original(&dm("games", json!([]))).await;
    assert_eq!(list.text().matches(may_end).count(), 2, "{}", list.text());
    let claim = dm("claim", json!([{ "name": "game", "type": 4, "value": 2 }]));
    let ended = table.says(
        "Game #2 is over: the bot has been away from its server for 14 days or more, so the game ends without a result and without a rating.",
        "Партия №2 окончена: бота нет на её сервере уже 14 дней или больше, поэтому она без результата и без рейтинга.",
    );
    assert_eq!(private_answer(&fake, &claim).await, ended);

    // As if the bot had left two days ago, when Alice had 11 of her 24 hours left: her deadline
    // passed long ago, and the scheduler finds the game due. It stays as it is.
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_secs() as i64;
    let (day, hour) = (86_400, 3_600);
    set_left_at(now - 2 * day).await;
    sqlx::query("UPDATE games SET turn_started_at = ?, deadline_at = ?, next_due_at = ? WHERE id = 1")
        .bind(now - 2 * day - 13 * hour)
        .bind(now - 2 * day + 11 * hour)
        .bind(now - 1)
        .execute(db.pool())
        .await
        .unwrap();
    // Two ticks begin (each records its start), so the first one's look at due games is over.
    let last_tick = || async {
        sqlx::query_scalar::<_, i64>("SELECT last_tick_at FROM scheduler WHERE id = 1")
            .fetch_one(db.pool())
            .await
            .unwrap()
    };
    for mark in [1, 2] {
        sqlx::query("UPDATE scheduler SET last_tick_at = ? WHERE id = 1").bind(mark).execute(db.pool()).await.unwrap();
        for _ in 0..100 {
            if last_tick().await != mark {
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        }
        assert!(last_tick().await >= now, "a tick began");
    }
    let game = || async {
        sqlx::query_as::<_, (String, i64)>("SELECT status, deadline_at FROM games WHERE id = 1")
            .fetch_one(db.pool())
            .await
            .unwrap()
    };
    let (status, deadline) = game().await;
    assert_eq!(status, "ongoing", "no time-out while the bot is away");
    assert_eq!(deadline, now - 2 * day + 11 * hour, "and no downtime grace either");
    let halfway = table.says("half your time is gone", "половина времени прошла");
    assert!(!fake.all_messages().iter().any(|m| m.content.contains(halfway)), "no reminder either");

    // Back in the server: Alice's turn has its 11 hours again, and what was due comes (13 of her
    // 24 hours are gone: the halfway reminder); the board shows the new deadline.
    fake.add_bot(GUILD);
    let reminder = fake.wait_for_message("the reminder", |m| m.content.contains(halfway)).await;
    assert!(reminder.content.starts_with(&format!("<@{}>", ALICE.id)), "{}", reminder.content);
    assert!(left_at().await.is_none(), "the return is recorded");
    let (status, deadline) = game().await;
    assert_eq!(status, "ongoing");
    let expected = now + 11 * hour;
    assert!((expected..expected + 60).contains(&deadline), "{deadline} vs {expected}");
    let shown = format!("<t:{deadline}:");
    let board =
        fake.wait_for_message("the board's new deadline", |m| m.id == card.id && m.text().contains(&shown)).await;
    assert!(!board.custom_ids().is_empty(), "still playable");
    assert!(reminder.content.contains(&shown), "{}", reminder.content);
    // The ended game's summary came with the return.
    let title = table.says("Game #2 — no result", "Партия №2 — без результата");
    let summary = fake.wait_for_message("the aborted game's summary", |m| m.text().contains(title)).await;
    let why = table.says(
        "Ended by a player two weeks after the bot was removed from the game's server: no result, no rating.",
        "Партию закончил игрок через две недели после того, как бота удалили с её сервера: без результата и рейтинга.",
    );
    assert!(summary.text().contains(why), "{}", summary.text());
    let told: Vec<_> = fake.all_messages().into_iter().filter(|m| m.text().contains(title)).collect();
    assert_eq!(told.len(), 1, "one DM, to Bob only: {told:#?}");
    db.close().await;
    table.assert_no_english(NOT_ENGLISH);
    bot.stop().await;
}

async fn after_a_game_the_summary_has_the_gif_and_record_and_the_leaderboard_shows_both_players(locale: &'static str) {
    let (fake, bot, _dir) = served("leaderboard").await;
    let table = Table { fake: &fake, channel: CHANNEL, locale };
    let (moves, status) = decisive_game(Variant::Brandubh, 40);
    let mut board = start_game(&table, Variant::Brandubh).await;
    for (n, mv) in moves.iter().enumerate() {
        board = play_by_menus(&table, &board, 1, n, player_of(n), mv.split('x').next().unwrap()).await;
    }
    let Status::Finished(outcome) = status else { unreachable!() };
    let summary =
        fake.wait_for_message("the summary", |m| m.attachments.iter().any(|a| a.filename == "game-1.gif")).await;
    // The GIF decodes, with a frame for the start and one per ply.
    let gif = &summary.attachments.iter().find(|a| a.filename == "game-1.gif").unwrap().data;
    // Graphic control extensions (21 F9 04, four bytes, terminator 00): one per frame.
    let frames = gif.windows(8).filter(|w| w[..3] == [0x21, 0xF9, 0x04] && w[7] == 0).count();
    assert!(gif.starts_with(b"GIF89a"), "a GIF");
    assert_eq!(frames, moves.len() + 1, "one frame per ply and the start");
    let plies = table.says("({} plies)", "({} полуход").replace("{}", &moves.len().to_string());
    assert!(summary.text().contains(&plies), "{}", summary.text());
    assert!(
        summary.text().contains(table.says("Rating (this server)", "Рейтинг (на этом сервере)")),
        "{}",
        summary.text()
    );

    // `/tafl summary` shows the same summary later, once, though Discord's answer to the bot
    // is lost after it showed it.
    let payload = table.command_payload(EVE, "summary", &json!({ "game": 1 }), &[]);
    let token = payload["token"].as_str().unwrap().to_owned();
    let answer = move |r: &tafl_e2e::fake_discord::Recorded| {
        r.path.contains(&token) && (r.method == "PATCH" || (r.method == "POST" && !r.path.ends_with("/callback")))
    };
    fake.fail_next(answer.clone(), 1, Fault::AppliedThenServerError(502));
    let asked = fake.push_interaction(payload);
    fake.wait_for("the summary's answer, tried again", |r| answer(r) && r.status == 200).await;
    let later = fake.wait_for_original(&asked).await;
    let shown = fake.all_messages().into_iter().filter(|m| m.interaction == Some(asked.id) && !m.deleted).count();
    assert_eq!(shown, 1, "one summary: {:#?}", fake.all_messages());
    assert!(!later.is_ephemeral(), "a game of this server, shown to everyone here");
    // Asked for elsewhere (here a DM) by someone who did not play it, the game, its summary
    // and its board are shown to them alone: its channel may be closed to most.
    let game_one = json!([{ "name": "game", "type": 4, "value": 1 }]);
    for subcommand in ["summary", "board"] {
        let elsewhere = fake.push_interaction(fake.slash_command("tafl", subcommand, &game_one, EVE.id, locale));
        let shown = fake.wait_for_original(&elsewhere).await;
        assert!(shown.is_ephemeral(), "{subcommand}: {shown:#?}");
        assert!(!shown.attachments.is_empty(), "{subcommand}: {shown:#?}");
    }
    assert!(later.text().contains(summary_words(&table, outcome.winner)), "{}", later.text());
    assert!(later.attachments.iter().any(|a| a.filename == "game-1.otn"), "{later:#?}");

    // `/tafl export` answers privately with the record as a file, and says what the file is.
    let export = fake.wait_for_original(&table.command(EVE, "export", &json!({ "game": 1 }), &[])).await;
    assert!(export.is_ephemeral());
    let caption = table.says("Game #1 as an OTN record", "Партия №1 в записи OTN");
    assert!(export.text().starts_with(caption), "{}", export.text());
    let record = export.attachments.iter().find(|a| a.filename == "game-1.otn").expect("the record as a file");
    let record = std::str::from_utf8(&record.data).expect("the record is text");
    assert!(record.contains("[variant:brandubh]\n[attackers:Alice]\n[defenders:Bob]"), "{record}");
    let last = moves.last().unwrap();
    assert!(record.trim_end().ends_with(last.as_str()), "the record ends with the game's last move {last}: {record}");

    let asked = table.command(EVE, "leaderboard", &json!({ "variant": "brandubh" }), &[]);
    let leaderboard = fake.wait_for_original(&asked).await;
    let text = leaderboard.text();
    let (winner, loser) = if outcome.winner == Some(Side::Attackers) { ("Alice", "Bob") } else { ("Bob", "Alice") };
    let (first, second) =
        (text.find(winner).expect("the winner is listed"), text.find(loser).expect("the loser is listed"));
    assert!(first < second, "the winner ranks first: {text}");
    assert!(!text.contains("1500"), "both ratings changed from the start: {text}");
    // The family typed as the board's title names it (no suggestion picked) finds the same board.
    let family = table.says("Tablut · Brandubh · Hnefatafl", "таблут · брандубх · хнефатафл");
    let by_name = fake.wait_for_original(&table.command(EVE, "leaderboard", &json!({ "variant": family }), &[])).await;
    assert_eq!(by_name.text(), text, "typed as {family}");

    let asked = table.command(EVE, "profile", &json!({ "user": BOB.id }), &[BOB]);
    let profile = fake.wait_for_original(&asked).await;
    assert!(profile.text().contains("Bob"), "{}", profile.text());
    // Eve has played nothing: her profile still has her name, not the store's "user 2000…".
    let own = fake.wait_for_original(&table.command(EVE, "profile", &json!({}), &[])).await;
    assert!(own.text().starts_with("Eve ("), "{}", own.text());
    table.assert_no_english(NOT_ENGLISH);
    bot.stop().await;
}

/// serenity hands each gateway event to a task of its own, so a kick and an invitation a moment
/// later may be handled, and written, in either order. Here the database's write lock is held
/// while both events arrive, so that both handlers wait for it and then write in whatever order
/// `SQLite` lets them: the server must end up present, whichever wrote last (each handler looks
/// at serenity's cache again after writing). Five rounds, each a fresh chance of the bad order.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_kick_and_a_quick_return_leave_the_server_present_whatever_order_they_are_written_in() {
    use sqlx::{Connection, Executor};
    let (fake, bot, dir) = served("kick-and-return").await;
    let table = Table { fake: &fake, channel: CHANNEL, locale: tafl_e2e::harness::LOCALES[0] };
    start_game(&table, Variant::Brandubh).await;
    let mut conn = database(&dir).await;
    for round in 0..5 {
        conn.execute("BEGIN IMMEDIATE").await.unwrap();
        // The kick's handler reads the cache (the bot is out) before the return reaches it, and
        // waits to write; the return's handler reads it (the bot is in) and waits too.
        fake.remove_bot(GUILD);
        tokio::time::sleep(std::time::Duration::from_millis(150)).await;
        fake.add_bot(GUILD);
        tokio::time::sleep(std::time::Duration::from_millis(300)).await;
        conn.execute("COMMIT").await.unwrap();
        // Both handlers write, look at the cache again and stop well within this; on a busy
        // machine the last write is waited for up to ten seconds more.
        tokio::time::sleep(std::time::Duration::from_millis(1500)).await;
        for _ in 0..200 {
            if left_at(&mut conn).await.is_none() {
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        }
        let left = left_at(&mut conn).await;
        assert_eq!(left, None, "round {round}: the bot is in the server, so it is not left");
    }
    // The handlers did run: a kick alone is recorded, and the return after it.
    fake.remove_bot(GUILD);
    for _ in 0..100 {
        if left_at(&mut conn).await.is_some() {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    assert!(left_at(&mut conn).await.is_some(), "the kick is recorded");
    fake.add_bot(GUILD);
    for _ in 0..100 {
        if left_at(&mut conn).await.is_none() {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    assert_eq!(left_at(&mut conn).await, None, "and so is the return");
    conn.close().await.unwrap();
    bot.stop().await;
}

/// Game 1, timed at a day a move, with a move each: rated, and Alice to move.
async fn rated_timed_game(table: &Table<'_>) {
    let (_, board) = timed_game(table).await;
    let board = play_by_menus(table, &board, 1, 0, ALICE, "d2-c2").await;
    play_by_menus(table, &board, 1, 1, BOB, "d3-c3").await;
}

/// A connection of the test's own to the bot's database in `dir`.
async fn database(dir: &std::path::Path) -> sqlx::SqliteConnection {
    use sqlx::Connection;
    let url = format!("sqlite://{}", dir.join("tafl.db").display());
    sqlx::SqliteConnection::connect(&url).await.unwrap()
}

/// Players act through the gateway: while it is away, nobody can move, so nobody's clock runs
/// out. A deadline that passed during a short outage (under the downtime limit, so no grace)
/// ends the game once the gateway is back.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_one_loses_on_time_while_the_gateway_is_away() {
    use sqlx::Connection;
    let (fake, bot, dir) = served("gateway-away").await;
    let table = Table { fake: &fake, channel: CHANNEL, locale: tafl_e2e::harness::LOCALES[0] };
    rated_timed_game(&table).await;

    let connections = fake.connections();
    fake.take_gateway_away();
    let_time_pass(&dir, 1, 24 * 3600 + 1, -1).await;
    let mut conn = database(&dir).await;
    let status = || sqlx::query_scalar::<_, String>("SELECT status FROM games WHERE id = 1");
    // Fifteen ticks' worth.
    tokio::time::sleep(std::time::Duration::from_millis(1500)).await;
    assert_eq!(status().fetch_one(&mut conn).await.unwrap(), "ongoing", "the clock waits for the gateway");

    fake.bring_gateway_back();
    fake.wait_for_connections(connections + 1).await;
    let summary =
        fake.wait_for_message("the summary", |m| m.attachments.iter().any(|a| a.filename == "game-1.gif")).await;
    assert!(summary.text().contains(summary_words(&table, Some(Side::Defenders))), "{}", summary.text());
    assert_eq!(status().fetch_one(&mut conn).await.unwrap(), "defenders_win");
    conn.close().await.unwrap();
    bot.stop().await;
}

/// A rated timed game whose halfway reminder came due and Discord refuses to post (500, until
/// the faults are cleared); the reminder's words.
async fn halfway_reminder_failing(table: &Table<'_>, dir: &std::path::Path) -> &'static str {
    rated_timed_game(table).await;
    let halfway = table.says("half your time is gone", "половина времени прошла");
    let reminder_post = move |r: &tafl_e2e::fake_discord::Recorded| {
        r.method == "POST"
            && r.path.ends_with(&format!("/channels/{CHANNEL}/messages"))
            && r.json.as_ref().and_then(|j| j["content"].as_str()).is_some_and(|c| c.contains(halfway))
    };
    table.fake.fail_next(reminder_post, usize::MAX, Fault::ServerError(500));
    let_time_pass(dir, 1, 13 * 3600, 11 * 3600).await;
    table.fake.wait_for("a failed reminder", move |r| reminder_post(r) && r.status == 500).await;
    halfway
}

/// A reminder held up (here Discord failing; in life, the downtime that then gives the grace)
/// is posted with the deadline as it stands when it goes out, not the one it was recorded with.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_reminder_held_up_names_the_deadline_as_it_stands_when_posted() {
    use sqlx::Connection;
    let (fake, bot, dir) = served("reminder-held-up").await;
    let table = Table { fake: &fake, channel: CHANNEL, locale: tafl_e2e::harness::LOCALES[0] };
    let halfway = halfway_reminder_failing(&table, &dir).await;

    // Meanwhile the deadline moves (as the grace moves it): four hours from now.
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_secs() as i64;
    let moved = now + 4 * 3600;
    let mut conn = database(&dir).await;
    sqlx::query("UPDATE games SET deadline_at = ? WHERE id = 1").bind(moved).execute(&mut conn).await.unwrap();
    sqlx::query("UPDATE outbox SET not_before_ms = 0 WHERE state = 'pending'").execute(&mut conn).await.unwrap();
    fake.clear_faults();
    let reminder = fake.wait_for_message("the reminder", |m| m.content.contains(halfway)).await;
    assert!(reminder.content.contains(&format!("<t:{moved}:R>")), "{}", reminder.content);
    conn.close().await.unwrap();
    bot.stop().await;
}

/// A halfway reminder held up (Discord failing while the gateway is up) until the turn's last
/// warning came due is dropped: one ping, the last warning, not two at once with one saying half
/// the time is left.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_halfway_reminder_held_up_until_the_last_warning_is_not_posted() {
    use sqlx::Connection;
    let (fake, bot, dir) = served("reminder-superseded").await;
    let table = Table { fake: &fake, channel: CHANNEL, locale: tafl_e2e::harness::LOCALES[0] };
    let halfway = halfway_reminder_failing(&table, &dir).await;

    // Meanwhile the turn goes on to its last warning (a tenth of its 24 hours is left), which
    // waits in the same lane behind the halfway one.
    let last = table.says("last warning", "последнее предупреждение");
    let_time_pass(&dir, 1, 22 * 3600, 2 * 3600).await;
    let mut conn = database(&dir).await;
    let recorded = || sqlx::query_scalar::<_, i64>("SELECT COUNT(*) FROM outbox WHERE kind = 'reminder'");
    for _ in 0..200 {
        if recorded().fetch_one(&mut conn).await.unwrap() == 2 {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    assert_eq!(recorded().fetch_one(&mut conn).await.unwrap(), 2, "the last warning is recorded");
    sqlx::query("UPDATE outbox SET not_before_ms = 0 WHERE state = 'pending'").execute(&mut conn).await.unwrap();
    fake.clear_faults();
    let warning = fake.wait_for_message("the last warning", |m| m.content.contains(last)).await;
    assert!(warning.content.starts_with(&format!("<@{}>", ALICE.id)), "{}", warning.content);
    let halfways: Vec<String> =
        fake.all_messages().iter().filter(|m| m.content.contains(halfway)).map(|m| m.content.clone()).collect();
    assert!(halfways.is_empty(), "the halfway reminder came with the last warning: {halfways:?}");
    conn.close().await.unwrap();
    bot.stop().await;
}

/// A server removes the bot during a short restart (no grace) in which a player's deadline
/// passes: the restarted bot's first tick must wait for `READY`, which marks the server left
/// and pauses the game, dating the removal from the tick before the restart. A tick first
/// timed the game out in a server the bot was no longer in.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_that_removed_the_bot_during_a_restart_is_paused_before_any_clock_is_judged() {
    use sqlx::Connection;
    let (fake, bot, dir) = served("removed-during-restart").await;
    let table = Table { fake: &fake, channel: CHANNEL, locale: tafl_e2e::harness::LOCALES[0] };
    rated_timed_game(&table).await;
    bot.stop().await;

    // While the bot is down the server removes it; the last tick was six minutes ago (under the
    // downtime limit, so no grace), and Alice's deadline passed a minute ago.
    fake.remove_bot_while_away(GUILD);
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_secs() as i64;
    let last_tick = now - 6 * 60;
    let mut conn = database(&dir).await;
    sqlx::query("UPDATE scheduler SET last_tick_at = ?").bind(last_tick).execute(&mut conn).await.unwrap();
    sqlx::query("UPDATE games SET turn_started_at = ?, deadline_at = ?, next_due_at = ? WHERE id = 1")
        .bind(now - 86_400 - 60)
        .bind(now - 60)
        .bind(now - 60)
        .execute(&mut conn)
        .await
        .unwrap();

    let connections = fake.connections();
    let bot = TestBot::start(&fake, &dir);
    fake.wait_for_connections(connections + 1).await;
    for _ in 0..100 {
        if left_at(&mut conn).await.is_some() {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    // Many ticks (ten a second) after READY.
    tokio::time::sleep(std::time::Duration::from_secs(2)).await;
    assert_eq!(left_at(&mut conn).await, Some(last_tick), "the removal counts from the last tick before the restart");
    let status: String =
        sqlx::query_scalar("SELECT status FROM games WHERE id = 1").fetch_one(&mut conn).await.unwrap();
    assert_eq!(status, "ongoing", "paused, not lost on time");
    conn.close().await.unwrap();
    bot.stop().await;
}

/// When the bot left the test server, as the database says.
async fn left_at(conn: &mut sqlx::SqliteConnection) -> Option<i64> {
    sqlx::query_scalar::<_, Option<i64>>("SELECT left_at FROM servers WHERE id = ?")
        .bind(GUILD as i64)
        .fetch_one(conn)
        .await
        .unwrap()
}
