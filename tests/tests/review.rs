//! The post-game review through the real bot and the fake Discord: after a game ends, the
//! summary is posted at once, and edited in place once the engine has reviewed the game, with
//! the turning point in words and the evaluation chart on its card; in English and in Russian.

use serde_json::json;
use tafl_bot::host::review::{PLY_LIMITS, review};
use tafl_e2e::fake_discord::StoredMessage;
use tafl_e2e::harness::{ALICE, BOB, CHANNEL, Player, Table, TestBot, decisive_game, temp_dir};
use tafl_e2e::in_english_and_russian;
use tafl_rules::{Game, MoveText, Position, Side, Variant};

in_english_and_russian!(a_finished_games_summary_is_edited_with_its_turning_point_and_evaluation_chart);

/// The height of a PNG, from its header.
fn png_height(data: &[u8]) -> u32 {
    assert!(data.starts_with(b"\x89PNG"), "a PNG");
    u32::from_be_bytes([data[20], data[21], data[22], data[23]])
}

fn card(message: &StoredMessage) -> &[u8] {
    &message.attachments.iter().find(|a| a.filename == "game-1-summary.png").expect("the summary card").data
}

async fn a_finished_games_summary_is_edited_with_its_turning_point_and_evaluation_chart(locale: &'static str) {
    let fake = tafl_e2e::fake_discord::FakeDiscord::start().await;
    let dir = temp_dir("review-game");
    let _bot = TestBot::start(&fake, &dir);
    fake.wait_until_ready().await;
    let table = Table { fake: &fake, channel: CHANNEL, locale };

    let challenge = table.command(
        ALICE,
        "challenge",
        &json!({ "opponent": BOB.id, "variant": Variant::Brandubh.id(), "side": 0 }),
        &[BOB],
    );
    let card_message = fake.wait_for_original(&challenge).await;
    let accept = card_message.button_labels().into_iter().find(|(label, _)| label == table.says("Accept", "Принять"));
    let accept = accept.expect("Accept").1;
    fake.wait_for_answer(&table.click(BOB, &card_message, &accept, None)).await;

    let (moves, status) = decisive_game(Variant::Brandubh, 40);
    for (n, mv) in moves.iter().enumerate() {
        let by: Player = if n % 2 == 0 { ALICE } else { BOB };
        let played = table.command(by, "move", &json!({ "notation": mv.split('x').next().unwrap() }), &[]);
        let answer = fake.wait_for_original(&played).await;
        assert!(answer.content.starts_with(table.says("You played", "Вы сыграли")), "{}", answer.content);
    }
    assert!(!status.is_ongoing());

    // What the engine finds in this game: the review's node budget makes it the same here as in
    // the bot.
    let mut game = Game::new(Position::new(Variant::Brandubh.rules()).unwrap());
    for mv in &moves {
        game.play_text(&mv.parse::<MoveText>().unwrap()).unwrap();
    }
    let expected = review(&game, &PLY_LIMITS);
    let turning = expected.turning_point.as_ref().expect("a decided random game has a turning point");
    let words = if table.is_english() {
        let side = match turning.side {
            Side::Attackers => "the attackers played",
            Side::Defenders => "the defenders played",
        };
        format!(
            "Turning point: ply {}, {side} {}; the engine preferred {}.",
            turning.ply, turning.played, turning.better
        )
    } else {
        let side = match turning.side {
            Side::Attackers => "нападающие сыграли",
            Side::Defenders => "защитники сыграли",
        };
        format!(
            "Перелом партии: {}-й полуход, {side} {}; движок предпочёл бы {}.",
            turning.ply, turning.played, turning.better
        )
    };

    let summary =
        fake.wait_for_message("the summary", |m| m.attachments.iter().any(|a| a.filename == "game-1.gif")).await;
    let edited = fake
        .wait_for_message("the summary edited with the turning point", |m| {
            m.id == summary.id && m.text().contains(&words)
        })
        .await;
    assert!(!edited.text().contains(table.says("in progress…", "идёт…")), "{}", edited.text());
    assert!(edited.edits >= 1, "edited in place, not posted again: {edited:#?}");
    // The card now has the evaluation chart under the others: taller than a card without it.
    let before = if summary.text().contains(&words) { None } else { Some(png_height(card(&summary))) };
    let after = png_height(card(&edited));
    if let Some(before) = before {
        assert!(after > before + 100, "the card grew by the evaluation chart: {before} -> {after}");
    }
    assert!(edited.attachments.iter().any(|a| a.filename == "game-1.gif"), "the animation is kept");
    assert!(edited.attachments.iter().any(|a| a.filename == "game-1.otn"), "the record is kept");
    // One summary message: the review edits it, nothing new is posted.
    let summaries =
        fake.all_messages().into_iter().filter(|m| m.attachments.iter().any(|a| a.filename == "game-1.gif"));
    assert_eq!(summaries.count(), 1);
    table.assert_no_english(&["Alice", "Bob"]);
}
