//! Untrusted input from Discord (QUALITY.md: "a stale button, a forged or truncated `custom_id` …
//! each gets a clear private message and changes nothing"): controls sent from messages that do
//! not show them, as a modified client can, and answers that must say the right thing to the
//! right person.

use serde_json::{Value, json};
use tafl_e2e::fake_discord::{Interaction, StoredMessage};
use tafl_e2e::harness::{ALICE, BOB, CHANNEL, EVE, Player, Table, private_answer, served};
use tafl_rules::Variant;

/// Alice (attackers) challenges `opponent` and they accept with the card's button: the board.
async fn start_game(table: &Table<'_>, opponent: Player) -> StoredMessage {
    let fake = table.fake;
    let options = json!({ "opponent": opponent.id, "variant": Variant::Brandubh.id(), "side": 0 });
    let challenge = table.command(ALICE, "challenge", &options, &[opponent]);
    let card = fake.wait_for_original(&challenge).await;
    let accept = card.custom_ids().into_iter().find(|id| id.starts_with("tafl:accept:")).expect("an Accept button");
    let click = table.click(opponent, &card, &accept, None);
    let board = fake.wait_for_answer(&click).await;
    assert_eq!(board.id, card.id);
    board
}

/// A click by `player` on `message`, built from the real control `real` and then sent with the
/// `custom_id` `forged` (and `values`), as a modified client could send it.
fn forged_click(
    table: &Table<'_>,
    player: Player,
    message: &StoredMessage,
    real: &str,
    forged: &str,
    values: &[&str],
) -> Interaction {
    let mut payload: Value = table.fake.component(message, real, values, player.id);
    payload["data"]["custom_id"] = json!(forged);
    payload["locale"] = json!(table.locale);
    payload["guild_locale"] = json!(table.locale);
    table.fake.push_interaction(payload)
}

/// A forged `tafl:accept:<withdrawn challenge>` pressed on a live game's board: the refusal must
/// change nothing. The bot "closes the card" by editing the clicked message, which is the board of
/// another game: its picture and controls are replaced by "challenge withdrawn".
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_forged_accept_of_a_closed_challenge_does_not_wipe_another_games_board() {
    let (fake, bot, _dir) = served("forged-accept").await;
    let table = Table { fake: &fake, channel: CHANNEL, locale: "en-US" };
    let board = start_game(&table, BOB).await;
    // Challenge #2, withdrawn by Alice with its card's button.
    let options = json!({ "opponent": BOB.id, "variant": "brandubh" });
    let challenge = table.command(ALICE, "challenge", &options, &[BOB]);
    let card = fake.wait_for_original(&challenge).await;
    let withdraw = table.click(ALICE, &card, "tafl:decline:2", None);
    fake.wait_for_answer(&withdraw).await;

    let click = forged_click(&table, EVE, &board, "tafl:resign:1:0", "tafl:accept:2", &[]);
    let answer = private_answer(&fake, &click).await;
    assert!(answer.starts_with("This button no longer works"), "a forged control: {answer}");
    let after = fake.message(board.id).expect("the board");
    assert!(after.attachments.iter().any(|a| a.filename == "game-1-0.png"), "the board lost its picture: {after:#?}");
    assert!(after.has_control("tafl:piece:1:0"), "the board lost its controls: {after:#?}");
    bot.stop().await;
}

/// A forged menu control of game 1 pressed on the board of game 2 (by a player of both): the
/// bot answers by redrawing the clicked message as game 1's board, without controls, so game 2's
/// board shows another game and can no longer be played from.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_control_of_one_game_pressed_on_another_games_board_leaves_that_board_alone() {
    let (fake, bot, _dir) = served("forged-menu").await;
    let table = Table { fake: &fake, channel: CHANNEL, locale: "en-US" };
    let first = start_game(&table, BOB).await;
    let second = start_game(&table, EVE).await;
    let piece_menu_of_first =
        first.custom_ids().into_iter().find(|id| id.starts_with("tafl:piece:1:")).expect("game 1's piece menu");

    let click = forged_click(&table, ALICE, &second, "tafl:piece:2:0", &piece_menu_of_first, &["d2"]);
    fake.wait_for("the answer to the forged click", |r| r.path == click.callback_path()).await;
    tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    let after = fake.message(second.id).expect("game 2's board");
    assert!(
        after.attachments.iter().any(|a| a.filename == "game-2-0.png"),
        "game 2's board now shows another game: {:#?}",
        after.attachments
    );
    assert!(after.has_control("tafl:piece:2:0"), "game 2's board lost its controls: {after:#?}");
    bot.stop().await;
}

/// A resignation's confirmation forged from the public board (it belongs on the private
/// question): answered with a stale board, the bot replaced the board's text with Alice's private
/// sentence and took every control off it, for both players, until the next move.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_resignation_confirmed_from_the_board_leaves_the_board_alone() {
    let (fake, bot, _dir) = served("forged-resign-yes").await;
    let table = Table { fake: &fake, channel: CHANNEL, locale: "en-US" };
    let board = start_game(&table, BOB).await;
    let click = forged_click(&table, ALICE, &board, "tafl:resign:1:0", "tafl:resign-yes:1:7", &[]);
    fake.wait_for("the answer to the forged click", |r| r.path == click.callback_path()).await;
    tokio::time::sleep(std::time::Duration::from_millis(500)).await;
    let after = fake.message(board.id).expect("the board");
    assert_eq!(
        (after.content.as_str(), after.has_control("tafl:piece:1:0")),
        ("", true),
        "the public board's text and whether it keeps its controls"
    );
    bot.stop().await;
}

/// Bob presses Resign on a board whose game has just ended (the edit taking the buttons off is
/// still on its way): he is asked "Resign game #1? … cannot be undone" with a button, for a game
/// that is over, instead of being told it is over.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn resign_on_a_board_whose_game_is_over_says_it_is_over_and_asks_nothing() {
    let (fake, bot, _dir) = served("resign-finished").await;
    let table = Table { fake: &fake, channel: CHANNEL, locale: "en-US" };
    let board = start_game(&table, BOB).await;
    // Bob's client shows the Resign button…
    let mut stale = table.fake.component(&board, "tafl:resign:1:0", &[], BOB.id);
    stale["locale"] = json!("en-US");
    // …when Alice resigns with the command.
    let resign = table.command(ALICE, "resign", &json!({}), &[]);
    private_answer(&fake, &resign).await;

    let click = fake.push_interaction(stale);
    let answer = fake.wait_for_original(&click).await;
    assert!(answer.is_ephemeral());
    assert!(answer.custom_ids().is_empty(), "a resignation question for a finished game: {answer:#?}");
    assert!(answer.content.starts_with("Game #1 is over"), "{}", answer.content);
    bot.stop().await;
}

/// `/tafl board` of a game going on, asked by someone who does not play it, is a private answer:
/// BOT.md "private answers use the user's [language]". A Russian reader on an English server gets
/// it in English.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_private_board_is_in_the_readers_language() {
    let (fake, bot, _dir) = served("private-board-lang").await;
    let table = Table { fake: &fake, channel: CHANNEL, locale: "en-US" };
    start_game(&table, BOB).await;
    let mut payload = table.command_payload(EVE, "board", &json!({ "game": 1 }), &[]);
    payload["locale"] = json!("ru");
    let asked = fake.push_interaction(payload);
    let answer = fake.wait_for_original(&asked).await;
    assert!(answer.is_ephemeral(), "{answer:#?}");
    assert!(answer.text().contains("партия №1"), "a private board in the server's language: {}", answer.text());
    bot.stop().await;
}

/// A forged `tafl:accept:<open challenge>` pressed on a live game's board by someone the
/// challenge is not meant for: refused ("meant for Bob"), but the challenge's card is recorded as
/// the clicked message first. When the challenge later closes (withdrawn here; expiry does the
/// same), the delivery "closes its card" by editing the game's board.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_refused_accept_does_not_make_another_message_the_challenges_card() {
    let (fake, bot, _dir) = served("forged-accept-open").await;
    let table = Table { fake: &fake, channel: CHANNEL, locale: "en-US" };
    let board = start_game(&table, BOB).await;
    let options = json!({ "opponent": BOB.id, "variant": "brandubh" });
    let challenge = table.command(ALICE, "challenge", &options, &[BOB]);
    let card = fake.wait_for_original(&challenge).await;

    let click = forged_click(&table, EVE, &board, "tafl:resign:1:0", "tafl:accept:2", &[]);
    let answer = private_answer(&fake, &click).await;
    assert!(answer.starts_with("This button no longer works"), "a forged control: {answer}");
    // Alice withdraws challenge #2 with its own card's button.
    let withdraw = table.click(ALICE, &card, "tafl:decline:2", None);
    fake.wait_for_answer(&withdraw).await;
    tokio::time::sleep(std::time::Duration::from_millis(500)).await;
    let after = fake.message(board.id).expect("the board");
    assert!(after.has_control("tafl:piece:1:0"), "game 1's board was closed as challenge #2's card: {after:#?}");
    bot.stop().await;
}

/// Someone who does not play game 1 types `/tafl resign game:1`: the refusal talks of buttons.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_typed_command_on_someone_elses_game_is_refused_without_talking_of_buttons() {
    let (fake, bot, _dir) = served("not-a-player-typed").await;
    let table = Table { fake: &fake, channel: CHANNEL, locale: "en-US" };
    start_game(&table, BOB).await;
    let resign = table.command(EVE, "resign", &json!({ "game": 1 }), &[]);
    let answer = private_answer(&fake, &resign).await;
    assert_eq!(answer, "Game #1 is not yours: only its two players can do that.");
    bot.stop().await;
}
