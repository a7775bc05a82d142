//! Discord failing around the bot's own posts: a server that removes the bot while its gateway
//! is away does not take its games out of their threads.

use std::time::Duration;

use serde_json::json;
use tafl_e2e::fake_discord::{Fault, GUILD, Recorded, StoredMessage};
use tafl_e2e::harness::{ALICE, BOB, CHANNEL, Table, private_answer, served};

async fn db(dir: &std::path::Path) -> tafl_bot::store::Db {
    tafl_bot::store::Db::open(&format!("sqlite://{}", dir.join("tafl.db").display())).await.unwrap()
}

/// Alice (attackers) challenges Bob to Brandubh and Bob accepts with the card's button: the board.
async fn start_game(table: &Table<'_>) -> StoredMessage {
    let fake = table.fake;
    let options = json!({ "opponent": BOB.id, "variant": "brandubh", "side": 0 });
    let challenge = table.command(ALICE, "challenge", &options, &[BOB]);
    let card = fake.wait_for_original(&challenge).await;
    let accept = card.custom_ids().into_iter().find(|id| id.starts_with("tafl:accept:")).expect("an Accept button");
    let click = table.click(BOB, &card, &accept, None);
    let board = fake.wait_for_answer(&click).await;
    assert_eq!(board.id, card.id);
    board
}

/// The bot is removed from a server while its gateway is away (or before the
/// `GUILD_DELETE` reaches it): Discord refuses every request in that server with 403 "Missing
/// Access" (50001). A "your move" notice then refused in the thread the bot opened for the game
/// is read as "the thread is closed to the bot" (`thread_refused`, `closes_thread` in
/// delivery.rs), and the game leaves its thread for good (`Host::leave_thread`), although its
/// channel refuses just the same and the thread was never closed. Once the server takes the bot
/// back, the game's notices, offers and summary go to the channel instead of its thread.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_that_removes_the_bot_does_not_take_its_games_out_of_their_threads() {
    let (fake, bot, dir) = served("audit-kick-thread").await;
    let table = Table { fake: &fake, channel: CHANNEL, locale: "en-US" };
    let threads = table.manager_command(ALICE, "settings", &json!({ "threads": true }));
    assert!(private_answer(&fake, &threads).await.starts_with("Saved."));
    let board = start_game(&table).await;
    let begun = fake.wait_for_message("Alice's first notice", |m| m.content.contains("your move: game #1")).await;
    let thread = fake.threads()[0].id;
    assert_eq!(begun.channel_id, thread);

    // Alice moves; Discord fails the notice to Bob for a moment (the delivery retries it).
    let in_thread = move |r: &Recorded| r.method == "POST" && r.path == format!("/api/v10/channels/{thread}/messages");
    fake.fail_next(in_thread, 1000, Fault::ServerError(500));
    let played = table.command(ALICE, "move", &json!({ "notation": "d2-c2" }), &[]);
    assert!(private_answer(&fake, &played).await.starts_with("You played"));
    fake.wait_for("the notice's first try", |r| in_thread(r) && r.status == 500).await;

    // Meanwhile the gateway drops and the server removes the bot: every request there is refused.
    let connections = fake.connections();
    fake.take_gateway_away();
    fake.remove_bot_while_away(GUILD);
    fake.clear_faults();
    fake.fail_next(|r| r.path.starts_with("/api/v10/channels/"), 10_000, Fault::Refused { status: 403, code: 50_001 });
    let in_channel = |r: &Recorded| r.method == "POST" && r.path == format!("/api/v10/channels/{CHANNEL}/messages");
    let refused_in_thread =
        fake.wait_for("the notice refused in the thread", move |r| in_thread(r) && r.status == 403).await;
    assert_eq!(refused_in_thread.status, 403);
    // Time for whatever the bot does with the refusal.
    tokio::time::sleep(Duration::from_secs(2)).await;
    let moved_to_channel = fake.requests().iter().any(|r| in_channel(r) && r.status == 403);

    // The gateway comes back without the server; later the server takes the bot back.
    fake.clear_faults();
    fake.bring_gateway_back();
    fake.wait_for_connections(connections + 1).await;
    tokio::time::sleep(Duration::from_secs(1)).await;
    fake.add_bot(GUILD);
    tokio::time::sleep(Duration::from_secs(1)).await;
    let db = db(&dir).await;
    let thread_now: Option<i64> =
        sqlx::query_scalar("SELECT thread_id FROM games WHERE id = 1").fetch_one(db.pool()).await.unwrap();
    db.close().await;

    // Bob moves: Alice's notice belongs in the game's thread.
    let played = table.command(BOB, "move", &json!({ "notation": "d3-c3" }), &[]);
    let answer = private_answer(&fake, &played).await;
    let notice = fake
        .wait_for_message("Alice's notice after Bob's move", |m| {
            m.content.contains("your move in game #1") && m.content.starts_with(&format!("<@{}>", ALICE.id))
        })
        .await;
    bot.stop().await;
    let _ = board;
    assert!(answer.starts_with("You played"), "{answer}");
    assert_eq!(
        (thread_now, notice.channel_id),
        (Some(thread as i64), thread),
        "the game left its thread because the server had removed the bot for a while (the notice was \
         then tried in the channel: {moved_to_channel})"
    );
}
