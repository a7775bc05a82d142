//! Whole games through the real bot and the fake Discord: challenges, slash commands, buttons
//! and menus, refusals, restarts and faults. Every scenario starts its own fake and bot.

use serde_json::json;
use tafl_e2e::fake_discord::{FakeDiscord, StoredMessage};
use tafl_e2e::harness::{ALICE, BOB, CHANNEL, EVE, Player, Table, TestBot, decisive_game, temp_dir};
use tafl_rules::{Side, Status, Variant};

/// Alice challenges Bob to `variant` as the attackers and Bob accepts with the card's button:
/// returns the board message (the card, turned into the board).
async fn start_game(table: &Table<'_>, variant: Variant) -> StoredMessage {
    let fake = table.fake;
    let challenge =
        table.command(ALICE, "challenge", &json!({ "opponent": BOB.id, "variant": variant.id(), "side": 0 }), &[BOB]);
    let card = fake.wait_for_original(&challenge).await;
    assert!(!card.is_ephemeral(), "the challenge card is public: {card:#?}");
    assert!(card.content.contains(&format!("<@{}>", BOB.id)), "the card mentions Bob: {card:#?}");
    assert!(card.text().contains(variant.name()), "{}", card.text());
    let accept = card.button_labels().into_iter().find(|(label, _)| label == "Accept").expect("an Accept button").1;
    let click = table.click(BOB, &card, &accept, None);
    let board = fake.wait_for_message("the card turned into the board", |m| m.id == card.id && m.edits > 0).await;
    let _ = click;
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

fn player_of(n: usize) -> Player {
    // Alice plays the attackers, who move first.
    if n % 2 == 0 { ALICE } else { BOB }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_players_finish_a_game_with_slash_commands_only() {
    let fake = FakeDiscord::start().await;
    let dir = temp_dir("slash-game");
    let bot = TestBot::start(&fake, &dir);
    fake.wait_until_ready().await;
    let table = Table { fake: &fake, channel: CHANNEL, locale: "en-US" };

    let (moves, status) = decisive_game(Variant::Brandubh, 40);
    let board = start_game(&table, Variant::Brandubh).await;
    assert!(board.text().contains("Brandubh · game #1"), "{}", board.text());
    assert_eq!(board.attachments.len(), 1, "one picture: {:#?}", board.attachments);
    assert!(board.attachments[0].data.starts_with(b"\x89PNG"), "a PNG");

    for (n, mv) in moves.iter().enumerate() {
        let played = table.command(player_of(n), "move", &json!({ "notation": mv.split('x').next().unwrap() }), &[]);
        let answer = fake.wait_for_original(&played).await;
        assert!(answer.is_ephemeral(), "{answer:#?}");
        assert!(answer.content.starts_with("You played"), "{}", answer.content);
        board_at(&fake, board.id, 1, n + 1).await;
    }

    let Status::Finished(outcome) = status else { unreachable!() };
    let winner = if outcome.winner == Some(Side::Attackers) { "Attackers win" } else { "Defenders win" };
    let summary =
        fake.wait_for_message("the summary", |m| m.attachments.iter().any(|a| a.filename == "game-1.gif")).await;
    assert!(summary.text().contains(winner), "{}", summary.text());
    assert!(summary.attachments.iter().any(|a| a.filename == "game-1.otn"), "{:#?}", summary.attachments);
    let board = fake.message(board.id).unwrap();
    assert!(board.custom_ids().is_empty(), "a finished board has no controls: {board:#?}");
    assert!(board.text().contains(winner), "{}", board.text());
    // One board, one summary, at most one notice: the channel is not spammed.
    let public: Vec<StoredMessage> = fake.messages_in(CHANNEL).into_iter().filter(|m| !m.is_ephemeral()).collect();
    assert!(public.len() <= 3, "{public:#?}");
    assert!(fake.unknown_requests().is_empty(), "{:#?}", fake.unknown_requests());
    bot.stop().await;
    let _ = EVE;
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
    let click = table.click(player, board, &pieces, Some(from));
    let to = format!("tafl:to:{game}:{ply}:{from}");
    let menu =
        fake.wait_for_message("the destination menu", |m| m.id == board.id && m.custom_ids().contains(&to)).await;
    let _ = click;
    let options = menu.select_options(&to);
    assert!(options.iter().any(|(_, value)| value == mv), "{mv} is offered: {options:?}");
    assert!(menu.attachments[0].filename.starts_with(&format!("game-{game}-{ply}")), "{:#?}", menu.attachments);
    let _ = table.click(player, &menu, &to, Some(mv));
    board_at(fake, board.id, game, ply + 1).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_players_finish_a_game_with_buttons_and_menus_only() {
    let fake = FakeDiscord::start().await;
    let dir = temp_dir("menu-game");
    let bot = TestBot::start(&fake, &dir);
    fake.wait_until_ready().await;
    let table = Table { fake: &fake, channel: CHANNEL, locale: "en-US" };

    let (moves, status) = decisive_game(Variant::Brandubh, 40);
    let mut board = start_game(&table, Variant::Brandubh).await;
    for (n, mv) in moves.iter().enumerate() {
        let mv = mv.split('x').next().unwrap();
        board = play_by_menus(&table, &board, 1, n, player_of(n), mv).await;
    }
    let Status::Finished(outcome) = status else { unreachable!() };
    let winner = if outcome.winner == Some(Side::Attackers) { "Attackers win" } else { "Defenders win" };
    assert!(board.text().contains(winner), "{}", board.text());
    assert!(board.custom_ids().is_empty(), "{board:#?}");
    let summary =
        fake.wait_for_message("the summary", |m| m.attachments.iter().any(|a| a.filename == "game-1.gif")).await;
    assert!(summary.text().contains(winner), "{}", summary.text());
    if let Ok(dir) = std::env::var("TAFL_E2E_DUMP") {
        for message in fake.all_messages() {
            for file in &message.attachments {
                std::fs::write(std::path::Path::new(&dir).join(&file.filename), &file.data).unwrap();
            }
        }
    }
    assert!(fake.unknown_requests().is_empty(), "{:#?}", fake.unknown_requests());
    bot.stop().await;
}
