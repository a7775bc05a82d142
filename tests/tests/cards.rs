//! The cards through the real bot and the fake Discord: every game summary carries its summary
//! card as the embed's picture, and `/tafl profile` and `/tafl leaderboard` answer with theirs.

use serde_json::json;
use tafl_e2e::fake_discord::StoredMessage;
use tafl_e2e::harness::{ALICE, BOB, CHANNEL, Player, Table, TestBot, decisive_game, temp_dir};
use tafl_e2e::in_english_and_russian;
use tafl_rules::Variant;

in_english_and_russian!(a_finished_games_summary_profile_and_leaderboard_carry_their_cards);

/// A PNG attachment's width and height, from its header.
fn png_size(data: &[u8]) -> (u32, u32) {
    assert!(data.starts_with(b"\x89PNG\r\n\x1a\n"), "a PNG");
    let be = |at: usize| u32::from_be_bytes(data[at..at + 4].try_into().unwrap());
    (be(16), be(20))
}

/// The message's attachment named `name`, which its first embed shows as its picture.
fn card<'m>(message: &'m StoredMessage, name: &str) -> &'m [u8] {
    let file = message.attachments.iter().find(|a| a.filename == name);
    let file = file.unwrap_or_else(|| panic!("no {name}: {:#?}", message.attachments));
    assert_eq!(message.embeds[0]["image"]["url"], format!("attachment://{name}"), "{:#?}", message.embeds);
    assert_eq!(png_size(&file.data).0, 1200, "cards are 1200 pixels wide");
    &file.data
}

fn player_of(n: usize) -> Player {
    if n.is_multiple_of(2) { ALICE } else { BOB }
}

async fn a_finished_games_summary_profile_and_leaderboard_carry_their_cards(locale: &'static str) {
    let fake = tafl_e2e::fake_discord::FakeDiscord::start().await;
    let dir = temp_dir("cards");
    let bot = TestBot::start(&fake, &dir);
    fake.wait_until_ready().await;
    let table = Table { fake: &fake, channel: CHANNEL, locale };

    let challenge =
        table.command(ALICE, "challenge", &json!({ "opponent": BOB.id, "variant": "brandubh", "side": 0 }), &[BOB]);
    let offer = fake.wait_for_original(&challenge).await;
    let accept = offer.button_labels().into_iter().find(|(label, _)| label == table.says("Accept", "Принять"));
    let accept = accept.expect("an Accept button").1;
    let _ = fake.wait_for_answer(&table.click(BOB, &offer, &accept, None)).await;
    let (moves, _) = decisive_game(Variant::Brandubh, 40);
    for (n, mv) in moves.iter().enumerate() {
        let played = table.command(player_of(n), "move", &json!({ "notation": mv.split('x').next().unwrap() }), &[]);
        let _ = fake.wait_for_original(&played).await;
    }

    let summary = fake
        .wait_for_message("the summary", |m| m.attachments.iter().any(|a| a.filename == "game-1-summary.png"))
        .await;
    let (_, height) = png_size(card(&summary, "game-1-summary.png"));
    assert!(height > 600, "a board and two charts: {height}");
    assert!(summary.attachments.iter().any(|a| a.filename == "game-1.gif"), "the animation comes too");

    let profile = fake.wait_for_original(&table.command(ALICE, "profile", &json!({}), &[])).await;
    card(&profile, "profile.png");
    assert!(profile.text().contains("Alice"), "{}", profile.text());

    let board =
        fake.wait_for_original(&table.command(ALICE, "leaderboard", &json!({ "variant": "brandubh" }), &[])).await;
    card(&board, "leaderboard.png");

    // Alice reads in high contrast: the cards she asks for are drawn so, as her boards are.
    let theme = table.command(ALICE, "settings", &json!({ "theme": 1 }), &[]);
    let _ = fake.wait_for_original(&theme).await;
    let again = fake.wait_for_original(&table.command(ALICE, "profile", &json!({}), &[])).await;
    assert!(card(&again, "profile.png") != card(&profile, "profile.png"), "the profile in her theme");
    let again =
        fake.wait_for_original(&table.command(ALICE, "leaderboard", &json!({ "variant": "brandubh" }), &[])).await;
    assert!(card(&again, "leaderboard.png") != card(&board, "leaderboard.png"), "the leaderboard in her theme");
    assert!(fake.unknown_requests().is_empty(), "{:#?}", fake.unknown_requests());
    table.assert_no_english(&["Alice", "Bob"]);
    bot.stop().await;
}
