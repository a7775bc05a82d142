//! Races and double actions: one interaction delivered twice (a resumed gateway session, or two
//! processes serving one shard during a rolling deploy) is taken on once, and two interactions
//! racing for one thing each get their answer.

use serde_json::json;
use tafl_e2e::harness::{ALICE, BOB, CHANNEL, EVE, Table, served};

async fn db(dir: &std::path::Path) -> tafl_bot::store::Db {
    tafl_bot::store::Db::open(&format!("sqlite://{}", dir.join("tafl.db").display())).await.unwrap()
}

async fn count(db: &tafl_bot::store::Db, sql: &'static str) -> i64 {
    sqlx::query_scalar::<_, i64>(sql).fetch_one(db.pool()).await.unwrap()
}

/// Discord dispatches one `/tafl challenge` twice (the same interaction id and token, as a
/// resumed gateway session may). The second delivery made a second challenge that nobody can
/// see, recorded on the first one's card (read back after its answer was refused as already
/// acknowledged). When that invisible challenge expired a day later, its "closed" edit landed on
/// the card, which had meanwhile become the game's board: the board lost its picture and every
/// control, in a game going on.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_challenge_delivered_twice_makes_one_challenge_and_its_expiry_never_closes_the_board() {
    let (fake, bot, dir) = served("races-challenge-twice").await;
    let table = Table { fake: &fake, channel: CHANNEL, locale: "en-US" };
    let challenge = table.command(ALICE, "challenge", &json!({ "opponent": BOB.id, "variant": "brandubh" }), &[BOB]);
    let card = fake.wait_for_original(&challenge).await;
    // The same interaction again.
    assert!(!fake.redeliver(&challenge).is_empty());
    tokio::time::sleep(std::time::Duration::from_secs(1)).await;
    let db = db(&dir).await;
    let made = count(&db, "SELECT count(*) FROM challenges").await;

    // Bob accepts the card he sees: it becomes the game's board.
    let click = table.click(BOB, &card, "tafl:accept:1", None);
    let board = fake.wait_for_answer(&click).await;
    assert!(board.has_control("tafl:piece:1:0"), "{board:#?}");
    // A day passes: whatever challenge is still open expires.
    sqlx::query("UPDATE challenges SET expires_at = expires_at - 86400 - 1 WHERE state = 'open'")
        .execute(db.pool())
        .await
        .unwrap();
    tokio::time::sleep(std::time::Duration::from_secs(2)).await;
    let board = fake.message(board.id).expect("the board");
    let mapped = count(&db, "SELECT count(*) FROM challenge_messages").await;
    db.close().await;
    bot.stop().await;
    assert!(
        board.has_control("tafl:piece:1:0"),
        "the game's board lost its controls to an invisible challenge's expiry: {}\n{:#?}",
        board.text(),
        board.custom_ids()
    );
    assert_eq!(made, 1, "one command, one challenge ({mapped} challenge cards recorded)");
}

/// The same for a game against the bot: `/tafl challenge level:1` dispatched twice started two
/// games, the second one's confirmation silently dropped as already acknowledged.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_against_the_bot_asked_for_by_an_interaction_delivered_twice_starts_once() {
    let (fake, bot, dir) = served("races-bot-twice").await;
    let table = Table { fake: &fake, channel: CHANNEL, locale: "en-US" };
    let asked = table.command(EVE, "challenge", &json!({ "level": 1, "variant": "brandubh" }), &[]);
    fake.wait_for_original(&asked).await;
    assert!(!fake.redeliver(&asked).is_empty());
    tokio::time::sleep(std::time::Duration::from_secs(1)).await;
    let db = db(&dir).await;
    let games = count(&db, "SELECT count(*) FROM games").await;
    db.close().await;
    bot.stop().await;
    assert_eq!(games, 1, "one command, one game against the bot");
}

/// The Accept click dispatched twice at once: the copy, refused at once ("can no longer be
/// answered"), may answer the interaction before the first copy has drawn the board, which then
/// cannot answer: Bob is told his accept failed although the game has started.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_accept_delivered_twice_is_answered_with_the_board_not_a_refusal() {
    let (fake, bot, _dir) = served("races-accept-twice").await;
    let table = Table { fake: &fake, channel: CHANNEL, locale: "en-US" };
    let challenge = table.command(ALICE, "challenge", &json!({ "opponent": BOB.id, "variant": "brandubh" }), &[BOB]);
    let card = fake.wait_for_original(&challenge).await;
    let click = table.click(BOB, &card, "tafl:accept:1", None);
    assert!(!fake.redeliver(&click).is_empty());
    let answer = fake.wait_for_answer(&click).await;
    tokio::time::sleep(std::time::Duration::from_secs(1)).await;
    let card_now = fake.message(card.id).expect("the card");
    bot.stop().await;
    assert!(card_now.has_control("tafl:piece:1:0"), "the card became the board: {card_now:#?}");
    assert!(!answer.is_ephemeral(), "Bob's accept, which started game 1, was answered: {:?}", answer.content);
}

/// The other side: a database that cannot record an interaction (here a trigger refuses every
/// row, as a full disk or a fault would) costs nobody their answer. The command and the click
/// are carried out as any other, not dropped as if they were copies.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_interaction_the_database_cannot_record_is_answered_all_the_same() {
    let (fake, bot, dir) = served("races-unrecorded").await;
    let db = db(&dir).await;
    sqlx::query("CREATE TRIGGER refused BEFORE INSERT ON interactions BEGIN SELECT RAISE(ABORT, 'refused'); END")
        .execute(db.pool())
        .await
        .unwrap();
    let table = Table { fake: &fake, channel: CHANNEL, locale: "en-US" };
    let challenge = table.command(ALICE, "challenge", &json!({ "opponent": BOB.id, "variant": "brandubh" }), &[BOB]);
    let card = fake.wait_for_original(&challenge).await;
    let click = table.click(BOB, &card, "tafl:accept:1", None);
    let board = fake.wait_for_answer(&click).await;
    let recorded = count(&db, "SELECT count(*) FROM interactions").await;
    db.close().await;
    bot.stop().await;
    assert!(card.has_control("tafl:accept:1"), "the challenge was made: {card:#?}");
    assert!(board.has_control("tafl:piece:1:0"), "{board:#?}");
    assert_eq!(recorded, 0);
}

/// Two clicks on one card are two interactions, not one delivered twice: an open challenge
/// accepted by two people at once starts one game, and the one who lost the race is told so
/// privately (neither click is dropped as a copy of the other).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_open_challenge_accepted_by_two_at_once_starts_one_game_and_answers_both() {
    let (fake, bot, dir) = served("races-open-two").await;
    let table = Table { fake: &fake, channel: CHANNEL, locale: "en-US" };
    let challenge = table.command(ALICE, "challenge", &json!({ "variant": "brandubh" }), &[]);
    let card = fake.wait_for_original(&challenge).await;
    let bob = table.click(BOB, &card, "tafl:accept:1", None);
    let eve = table.click(EVE, &card, "tafl:accept:1", None);
    let answers = [fake.wait_for_answer(&bob).await, fake.wait_for_answer(&eve).await];
    tokio::time::sleep(std::time::Duration::from_millis(500)).await;
    let db = db(&dir).await;
    let games = count(&db, "SELECT count(*) FROM games").await;
    db.close().await;
    bot.stop().await;
    assert_eq!(games, 1);
    assert_eq!(answers.iter().filter(|a| a.is_ephemeral()).count(), 1, "{answers:#?}");
    assert!(fake.message(card.id).unwrap().has_control("tafl:piece:1:0"));
}
