//! Discord failing around the bot's own posts: a server that removes the bot while its gateway
//! is away does not take its games out of their threads, a message Discord made just before an
//! outage longer than its nonce window is not posted a second time after it, and one that no
//! longer applies when Discord is back is deleted: after a long outage, in other words than its
//! last try's, in a busy channel, and where the bot may not read the channel's history.

use std::time::Duration;

use serde_json::json;
use tafl_e2e::fake_discord::{Fault, GUILD, Recorded, StoredMessage};
use tafl_e2e::harness::{ALICE, BOB, CHANNEL, Table, private_answer, served};

async fn db(dir: &std::path::Path) -> tafl_bot::store::Db {
    tafl_bot::store::Db::open(&format!("sqlite://{}", dir.join("tafl.db").display())).await.unwrap()
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
    let board = table.start_brandubh().await;
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

/// The delivery relies on `enforce_nonce` for a create whose reply was lost, but Discord
/// remembers a nonce only for "the past few minutes", while an item failing with 5xx is retried
/// for over six hours (pauses doubling to a minute). A notice that Discord made just before an
/// outage of a few minutes (its reply lost) was made a second time when Discord came back: the
/// player was pinged twice, and the first copy, never recorded, was never deleted with the old
/// notices. Now a try after one that may have made the message looks for it among the channel's
/// messages first; and a notice Discord did not make before the outage is posted once after it.
/// The fake forgets its nonces here as Discord does after those minutes.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_notice_made_just_before_a_discord_outage_is_not_posted_twice_after_it() {
    for made in [true, false] {
        let (fake, bot, _dir) = served(if made { "nonce-window-made" } else { "nonce-window-not-made" }).await;
        let table = Table { fake: &fake, channel: CHANNEL, locale: "en-US" };
        table.start_brandubh().await;
        fake.wait_for_message("Alice's first notice", |m| m.content.contains("your move: game #1")).await;
        let messages = format!("/api/v10/channels/{CHANNEL}/messages");
        let post = {
            let messages = messages.clone();
            move |r: &Recorded| r.method == "POST" && r.path == messages
        };
        // Bob's notice is made and its reply lost (or not made at all); then Discord fails
        // every request in the channel for a while.
        let first = if made { Fault::AppliedThenServerError(500) } else { Fault::ServerError(500) };
        fake.fail_next(post.clone(), 1, first);
        let in_channel = {
            let messages = messages.clone();
            move |r: &Recorded| r.path == messages
        };
        fake.fail_next(in_channel, 10_000, Fault::ServerError(503));
        let played = table.command(ALICE, "move", &json!({ "notation": "d2-c2" }), &[]);
        assert!(private_answer(&fake, &played).await.starts_with("You played"));
        for _ in 0..100 {
            if fake.requests().iter().filter(|r| r.path == messages && r.status == 503).count() >= 4 {
                break;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        // Minutes of outage go by: Discord no longer remembers the nonce. Then it is back.
        fake.forget_nonces();
        fake.clear_faults();
        let back = fake.requests().len();
        let bobs = format!("<@{}>, your move in game #1", BOB.id);
        let for_bob = |m: &StoredMessage| !m.deleted && m.content.starts_with(&bobs);
        // The notice's next try: it finds the message made before the outage, or posts one.
        let mut tried = false;
        for _ in 0..200 {
            tried = fake.requests()[back..].iter().any(|r| r.path == messages && r.status == 200);
            if tried && fake.all_messages().iter().any(for_bob) {
                break;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        // Time for a second post, if one were to come.
        tokio::time::sleep(Duration::from_millis(1500)).await;
        let notices: Vec<u64> = fake.all_messages().into_iter().filter(|m| for_bob(m)).map(|m| m.id).collect();
        bot.stop().await;
        assert!(tried, "made before the outage: {made}");
        assert_eq!(
            notices.len(),
            1,
            "made before the outage: {made}; Bob's notice is shown (and pings him) {} times",
            notices.len()
        );
    }
}

/// A notice that no longer applies when it is tried again (the game moved on while Discord was
/// down) is completed by deleting whatever an earlier try made. That message used to be looked
/// for by a "…" probe posted under the item's nonce, which finds nothing once Discord has
/// forgotten the nonce: the made notice stayed, pinging Bob for a turn long gone, and the probe
/// itself was posted and deleted. Now the words the try sent are kept with the item, and the
/// message is found by them: deleted when made, and nothing posted when not.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_notice_overtaken_during_an_outage_longer_than_the_nonce_window_is_deleted_if_made() {
    for made in [true, false] {
        let (fake, bot, _dir) = served(if made { "obsolete-made" } else { "obsolete-not-made" }).await;
        let table = Table { fake: &fake, channel: CHANNEL, locale: "en-US" };
        table.start_brandubh().await;
        fake.wait_for_message("Alice's first notice", |m| m.content.contains("your move: game #1")).await;
        overtake_bobs_notice(&table, made, None).await;
        // Minutes of outage go by: Discord no longer remembers the nonce. Then it is back.
        fake.forget_nonces();
        let all = back(&table).await;
        bot.stop().await;
        assert_bobs_notice_gone(&all, made);
        let probes: Vec<&StoredMessage> = all.iter().filter(|m| m.content == "…").collect();
        assert!(probes.is_empty(), "made before the outage: {made}; a probe was posted: {probes:?}");
        let alices = format!("<@{}>, your move in game #1", ALICE.id);
        let for_alice = all.iter().filter(|m| !m.deleted && m.content.starts_with(&alices)).count();
        assert_eq!(for_alice, 1, "made before the outage: {made}");
    }
}

/// An item's words can change between its tries (here the server's language; equally a
/// reminder's deadline moved by the downtime grace, or a player's name in a claim notice). A
/// notice made by a try whose answer was lost, retried in other words, and then overtaken, was
/// looked for by the later words only, and left standing (found by the review of the change that
/// looks for messages by their words). Every wording tried is kept now.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_notice_retried_in_other_words_then_overtaken_is_still_deleted() {
    let (fake, bot, _dir) = served("obsolete-other-words").await;
    let table = Table { fake: &fake, channel: CHANNEL, locale: "en-US" };
    table.start_brandubh().await;
    fake.wait_for_message("Alice's first notice", |m| m.content.contains("your move: game #1")).await;
    overtake_bobs_notice(&table, true, Some("ru")).await;
    let all = back(&table).await;
    bot.stop().await;
    assert_bobs_notice_gone(&all, true);
}

/// A look for the message an earlier try made read one page, the 100 messages after the item's
/// first try (less the clock slack), and took "no match on that page" for "not made". In a
/// channel where 100 messages came in between (here within the minute of slack before the try;
/// equally chatter between the first try and a later one that made the message), the notice
/// an earlier try made was past the page, and stayed (found by the review). The channel is now
/// read to the end, and past 500 messages the nonce decides.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_notice_overtaken_in_a_busy_channel_is_still_deleted() {
    let (fake, bot, _dir) = served("obsolete-busy").await;
    let table = Table { fake: &fake, channel: CHANNEL, locale: "en-US" };
    table.start_brandubh().await;
    fake.wait_for_message("Alice's first notice", |m| m.content.contains("your move: game #1")).await;
    chatter(&fake, CHANNEL, 100).await;
    overtake_bobs_notice(&table, true, None).await;
    let all = back(&table).await;
    bot.stop().await;
    assert_bobs_notice_gone(&all, true);
}

/// Discord answers `GET /channels/{id}/messages` with an empty list, not a 403, when the bot
/// lacks Read Message History in the channel (its documentation: "then no messages will be
/// returned"), and the bot does not ask for that permission. An empty list was taken for "not
/// made", and the overtaken notice its first try made was left standing (found by the review).
/// An empty list is now checked against the channel's last message, and the nonce decides
/// when that is hidden too.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_notice_overtaken_where_the_bot_cannot_read_history_is_still_deleted() {
    let (fake, bot, _dir) = served("obsolete-no-history").await;
    let table = Table { fake: &fake, channel: CHANNEL, locale: "en-US" };
    table.start_brandubh().await;
    fake.wait_for_message("Alice's first notice", |m| m.content.contains("your move: game #1")).await;
    fake.deny_history(CHANNEL);
    overtake_bobs_notice(&table, true, None).await;
    let all = back(&table).await;
    bot.stop().await;
    assert_bobs_notice_gone(&all, true);
}

/// Alice moves in the Brandubh game `table` started, and Bob's "your move" notice is made by its
/// first try with Discord's answer lost (or, without `made`, not made at all); then Discord
/// fails every request about the channel's messages but the board's edits. A manager switches
/// the server to `language` meanwhile, when given, and the notice is tried again in its words.
/// Then Bob moves, which overtakes his notice, and a try after that fails too.
async fn overtake_bobs_notice(table: &Table<'_>, made: bool, language: Option<&str>) {
    let fake = table.fake;
    let messages = format!("/api/v10/channels/{CHANNEL}/messages");
    let post = {
        let messages = messages.clone();
        move |r: &Recorded| r.method == "POST" && r.path == messages
    };
    let first = if made { Fault::AppliedThenServerError(500) } else { Fault::ServerError(500) };
    fake.fail_next(post, 1, first);
    let in_channel = move |r: &Recorded| r.path.starts_with(&messages) && r.method != "PATCH";
    fake.fail_next(in_channel.clone(), 10_000, Fault::ServerError(503));
    let failed_since = |since: usize| {
        let in_channel = in_channel.clone();
        move |requests: &[Recorded]| requests[since..].iter().any(|r| in_channel(r) && r.status >= 500)
    };
    let played = table.command(ALICE, "move", &json!({ "notation": "d2-c2" }), &[]);
    assert!(private_answer(fake, &played).await.starts_with("You played"));
    wait_until(fake, failed_since(0)).await;
    if let Some(language) = language {
        let settings = table.manager_command(ALICE, "settings", &json!({ "language": language }));
        let _ = private_answer(fake, &settings).await;
        wait_until(fake, failed_since(fake.requests().len())).await;
    }
    let played = table.command(BOB, "move", &json!({ "notation": "d3-c3" }), &[]);
    let _ = private_answer(fake, &played).await;
    wait_until(fake, failed_since(fake.requests().len())).await;
}

/// Discord is back: waits for the notice of Bob's move to Alice, and a moment more for anything
/// else the delivery would do; every message Discord holds then.
async fn back(table: &Table<'_>) -> Vec<StoredMessage> {
    let fake = table.fake;
    fake.clear_faults();
    let alices = format!("<@{}>, ", ALICE.id);
    // In whichever language the server speaks by now.
    let moved = |m: &StoredMessage| {
        m.content.starts_with(&alices)
            && (m.content.contains("your move in game #1") || m.content.contains("ваш ход в партии №1"))
    };
    fake.wait_for_message("Alice's notice after Bob's move", moved).await;
    tokio::time::sleep(Duration::from_millis(1500)).await;
    fake.all_messages()
}

/// Bob's overtaken notice is not shown: deleted when its first try made it (`made`).
fn assert_bobs_notice_gone(all: &[StoredMessage], made: bool) {
    let bobs = format!("<@{}>, your move in game #1", BOB.id);
    let made_for_bob = all.iter().filter(|m| m.content.starts_with(&bobs)).count();
    assert_eq!(made_for_bob, usize::from(made), "made by the first try: {made}");
    let standing: Vec<&StoredMessage> = all.iter().filter(|m| !m.deleted && m.content.starts_with(&bobs)).collect();
    assert!(standing.is_empty(), "Bob's old notice stands: {standing:?}");
}

/// Waits (10 s at most) until the requests Discord has seen satisfy `done`.
async fn wait_until(fake: &tafl_e2e::fake_discord::FakeDiscord, done: impl Fn(&[Recorded]) -> bool) {
    for _ in 0..200 {
        if done(&fake.requests()) {
            return;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("Discord never saw the requests waited for");
}

/// Posts `count` plain messages in `channel` straight to the fake's API, as a busy channel's
/// chatter.
async fn chatter(fake: &tafl_e2e::fake_discord::FakeDiscord, channel: u64, count: usize) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    for n in 0..count {
        let body = json!({ "content": format!("chatter {n}") }).to_string();
        let mut stream = tokio::net::TcpStream::connect(fake.rest_addr()).await.unwrap();
        let request = format!(
            "POST /api/v10/channels/{channel}/messages HTTP/1.1\r\nHost: fake\r\nAuthorization: Bot x\r\n\
             Content-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
            body.len()
        );
        stream.write_all(request.as_bytes()).await.unwrap();
        let mut answer = Vec::new();
        stream.read_to_end(&mut answer).await.unwrap();
        assert!(answer.starts_with(b"HTTP/1.1 200"), "{}", String::from_utf8_lossy(&answer));
    }
}
