//! What players see catches up with the game (the outbox and its delivery task), through the real
//! bot and the fake Discord: a bot killed between a move's commit and its board edit, `/tafl
//! board` racing a move, answers lost after Discord created a message, command registration that
//! fails, refusals that stay private, daily digests, and a randomized run of faults and of clicks
//! racing typed moves. The scenarios run on an English server and on a Russian one.

use std::collections::HashMap;
use std::path::Path;
use std::time::Duration;

use serde_json::{Value, json};
use tafl_e2e::fake_discord::{EPHEMERAL, FakeDiscord, Fault, LOADING, Recorded, StoredMessage};
use tafl_e2e::harness::{ALICE, BOB, BotProcess, CHANNEL, Player, Rng, Table, TestBot, temp_dir};
use tafl_e2e::in_english_and_russian;
use tafl_rules::{Game, Position, Variant};

const BINARY: &str = env!("CARGO_BIN_EXE_tafl-bot-e2e");

/// People's names and the names of the export's format, Latin letters in any language.
const NAMES: &[&str] = &["Alice", "Bob", "OTN", "OpenTafl"];

in_english_and_russian!(
    a_bot_killed_between_a_move_and_its_board_edit_catches_up_after_a_restart,
    board_racing_a_move_leaves_one_board_with_controls_at_the_current_ply,
    an_answer_lost_after_the_notice_or_summary_was_made_leaves_no_duplicate,
    a_new_board_found_by_its_nonce_after_a_takeback_at_its_ply_is_brought_up_to_date,
    a_daily_digest_comes_by_dm_once_even_when_discords_answer_is_lost,
    a_summary_of_a_game_that_does_not_exist_is_refused_privately,
    a_summary_that_fails_after_its_public_thinking_answer_says_so_privately,
    a_takeback_request_that_lapsed_before_its_notice_is_not_announced,
    a_late_offer_notice_asks_for_an_answer_only_while_its_own_offer_is_open,
    a_move_whose_answer_discord_refuses_is_not_called_a_failure,
    through_random_moves_boards_restarts_and_faults_every_game_ends_up_shown_right,
);

/// Alice asks to take her move back while the notice of her request cannot be posted; Bob moves
/// before it can, which lapses the request unanswered. The notice announced it all the same ("…
/// asks to take back their last move: answer on the board"), with nothing to answer and no
/// answer's notice to follow. Whether the first try failed outright or made the message and lost
/// Discord's answer, and whether or not the bot may read the channel's history, no such notice is
/// left in the channel.
async fn a_takeback_request_that_lapsed_before_its_notice_is_not_announced(locale: &'static str) {
    for (fault, history) in [
        (Fault::ServerError(500), true),
        (Fault::AppliedThenServerError(502), true),
        (Fault::ServerError(500), false),
        (Fault::AppliedThenServerError(502), false),
    ] {
        let fake = FakeDiscord::start().await;
        let dir = temp_dir("lapsed-offer-notice");
        let bot = TestBot::start(&fake, &dir);
        fake.wait_until_ready().await;
        if !history {
            // Without Read Message History.
            let history = |r: &Recorded| r.method == "GET" && r.path.ends_with("/messages");
            fake.fail_next(history, usize::MAX, Fault::Refused { status: 403, code: 50_001 });
        }
        let table = Table { fake: &fake, channel: CHANNEL, locale };
        table.start_brandubh().await;
        let play = |player: Player, mv: &'static str| {
            let table = &table;
            async move {
                let played = table.command(player, "move", &json!({ "notation": mv }), &[]);
                let answer = table.fake.wait_for_original(&played).await;
                assert!(answer.content.starts_with(table.says("You played", "Вы сыграли")), "{}", answer.content);
            }
        };
        play(ALICE, "b4-b3").await;
        let asks = table.says("asks to take back", "просит вернуть");
        let is_request = move |r: &Recorded| {
            r.method == "POST"
                && r.json.as_ref().is_some_and(|j| j["content"].as_str().is_some_and(|c| c.contains(asks)))
        };
        // Held back until Bob has moved, which lapses the request; the retries then find it so.
        fake.fail_next(is_request, 1, fault);
        fake.fail_next(is_request, usize::MAX, Fault::ServerError(500));
        let request = table.command(ALICE, "takeback", &json!({}), &[]);
        let requested = fake.wait_for_original(&request).await.content;
        assert!(requested.starts_with(table.says("You asked to take back", "Вы попросили вернуть")), "{requested}");
        fake.wait_for("the request's notice, refused", |r| is_request(r) && r.status >= 500).await;
        play(BOB, "c4-b4").await;
        let your_move = table.says("your move in game #1", "ваш ход в партии №1");
        // Alice's own: Bob's notice of her move says the same words.
        let alices = format!("<@{}>", ALICE.id);
        fake.wait_for_message("Alice's notice of Bob's move", |m| {
            m.content.starts_with(&alices) && m.content.contains(your_move)
        })
        .await;
        fake.clear_faults();
        // The outbox is done with the request's notice: nothing of it is pending or given up.
        let db = tafl_bot::store::Db::open(&format!("sqlite://{}", dir.join("tafl.db").display())).await.unwrap();
        let mut undone = -1;
        for _ in 0..200 {
            undone = sqlx::query_scalar("SELECT count(*) FROM outbox WHERE state <> 'done'")
                .fetch_one(db.pool())
                .await
                .unwrap();
            if undone == 0 {
                break;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        let offers: Vec<String> = sqlx::query_scalar("SELECT state FROM offers").fetch_all(db.pool()).await.unwrap();
        db.close().await;
        bot.stop().await;
        let case = format!("{fault:?}, history readable: {history}");
        assert_eq!(undone, 0, "{case}: every item delivered");
        assert_eq!(offers, ["lapsed"]);
        let announced: Vec<String> = fake
            .all_messages()
            .into_iter()
            .filter(|m| !m.deleted && !m.is_ephemeral() && m.content.contains(asks))
            .map(|m| m.content)
            .collect();
        assert!(announced.is_empty(), "{case}: a lapsed request is announced as waiting: {announced:#?}");
        // Whether the failed try made the notice is found among the channel's messages by its
        // words. Without the history, by posting again under its nonce: a try that made nothing
        // makes the probe, which notifies nobody and is deleted before the lane goes on (it
        // stayed up, notifying the channel, until the game's later items were out).
        let probes: Vec<StoredMessage> = fake.all_messages().into_iter().filter(|m| m.content == "…").collect();
        let by_nonce = !history && matches!(fault, Fault::ServerError(_));
        assert_eq!(probes.len(), usize::from(by_nonce), "{case}: {probes:#?}");
        for probe in &probes {
            assert!(probe.deleted && probe.flags & 4096 != 0, "{case}: {probe:#?}");
            let requests = fake.requests();
            let posted = requests.iter().position(|r| {
                r.method == "POST" && r.json.as_ref().is_some_and(|j| j["content"] == "…") && r.status == 200
            });
            let deleted = requests
                .iter()
                .position(|r| r.method == "DELETE" && r.path.ends_with(&format!("/messages/{}", probe.id)));
            let (posted, deleted) = (posted.expect("the probe's post"), deleted.expect("the probe's deletion"));
            assert!(
                requests[posted + 1..deleted].iter().all(|r| r.method != "POST" && r.method != "PATCH"),
                "{case}: the probe is deleted before anything else is shown"
            );
        }
    }
}

/// Alice offers a draw while its notice cannot be posted; Bob declines, both move, and Alice
/// offers again. The first notice, posted at last, was judged by the newest offer (open) and
/// pinged Bob with "accept or decline on the board" for an offer he had declined. Each notice is
/// judged by its own offer: the late one says what was offered and pings nobody, the second asks.
async fn a_late_offer_notice_asks_for_an_answer_only_while_its_own_offer_is_open(locale: &'static str) {
    let fake = FakeDiscord::start().await;
    let dir = temp_dir("late-offer-notice");
    let bot = TestBot::start(&fake, &dir);
    fake.wait_until_ready().await;
    let table = Table { fake: &fake, channel: CHANNEL, locale };
    table.start_brandubh().await;
    let command = |player: Player, name: &'static str, options: Value, said: (&'static str, &'static str)| {
        let table = &table;
        async move {
            let asked = table.command(player, name, &options, &[]);
            let answer = table.fake.wait_for_original(&asked).await;
            assert!(answer.content.starts_with(table.says(said.0, said.1)), "/{name}: {}", answer.content);
        }
    };
    let offers = table.says("offers a draw", "предлагает ничью");
    let is_offer = move |r: &Recorded| {
        r.method == "POST" && r.json.as_ref().is_some_and(|j| j["content"].as_str().is_some_and(|c| c.contains(offers)))
    };
    command(ALICE, "move", json!({ "notation": "b4-b3" }), ("You played", "Вы сыграли")).await;
    fake.fail_next(is_offer, usize::MAX, Fault::ServerError(500));
    command(ALICE, "draw", json!({}), ("You offered a draw", "Вы предложили ничью")).await;
    fake.wait_for("the offer's notice, refused", |r| is_offer(r) && r.status >= 500).await;
    // `action` is a choice: 2 is decline.
    command(BOB, "draw", json!({ "action": 2 }), ("You declined", "Вы отклонили")).await;
    command(BOB, "move", json!({ "notation": "c4-b4" }), ("You played", "Вы сыграли")).await;
    command(ALICE, "draw", json!({}), ("You offered a draw", "Вы предложили ничью")).await;
    fake.clear_faults();
    let notices = || -> Vec<StoredMessage> {
        fake.all_messages().into_iter().filter(|m| !m.is_ephemeral() && m.content.contains(offers)).collect()
    };
    for _ in 0..200 {
        if notices().len() == 2 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    bot.stop().await;
    let notices = notices();
    assert_eq!(notices.len(), 2, "{notices:#?}");
    let (late, open) = (&notices[0], &notices[1]);
    let alice = format!("<@{}>", ALICE.id);
    let said = table.says("{alice} offers a draw in game #1.", "{alice} предлагает ничью в партии №1.");
    assert_eq!(late.content, said.replace("{alice}", &alice));
    assert!(late.pings().users.is_empty(), "the declined offer pings nobody: {late:#?}");
    assert!(open.content.contains(table.says("accept or decline", "примите или отклоните")), "{open:#?}");
    assert_eq!(open.pings().users, [BOB.id], "{open:#?}");
}

/// Discord takes a board edit and never answers (a connection that silently died). The request
/// waited without end, and with it every later board and notice of the game, with nothing
/// logged. It now fails after the client's timeout and is tried again like a 5xx.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_request_discord_never_answers_holds_its_game_up_only_until_the_timeout() {
    let fake = FakeDiscord::start().await;
    let dir = temp_dir("unanswered-request");
    let bot = TestBot::start(&fake, &dir);
    fake.wait_until_ready().await;
    let table = Table { fake: &fake, channel: CHANNEL, locale: "en-US" };
    let board = table.start_brandubh().await;
    let hangs = move |r: &Recorded| r.method == "PATCH" && r.path.ends_with(&format!("/messages/{}", board.id));
    fake.fail_next(hangs, 1, Fault::Slow { millis: 600_000 });
    let started = std::time::Instant::now();
    let played = table.command(ALICE, "move", &json!({ "notation": "b4-b3" }), &[]);
    assert!(fake.wait_for_original(&played).await.content.starts_with("You played"));
    fake.wait_for_slow_requests(1).await;
    let patience = Duration::from_secs(40);
    let bobs_turn = |m: &StoredMessage| m.content.contains("your move in game #1") && m.pings().users == [BOB.id];
    fake.wait_for_message_within(patience, "Bob's notice", bobs_turn).await;
    fake.wait_for_message_within(patience, "the board after the move", |m| is_live_board(m, 1, 1)).await;
    eprintln!("caught up {:?} after the move", started.elapsed());
    bot.stop().await;
}

/// A move is recorded, and only Discord's taking of its answer fails (a 500 to each of the bot's
/// tries). The player was then told "Something went wrong on our side; please try again", and
/// trying again was refused as not their turn, while the board showed the move. No answer is
/// better than a false one: the board shows the move, and nothing says it failed. Typed (Alice),
/// and made with the board's menus (Bob). A retry refused as answered already is the answer; a
/// resignation refused (its board left behind) is no change, and its click is still answered.
async fn a_move_whose_answer_discord_refuses_is_not_called_a_failure(locale: &'static str) {
    let fake = FakeDiscord::start().await;
    let dir = temp_dir("unanswered-move");
    let bot = TestBot::start(&fake, &dir);
    fake.wait_until_ready().await;
    let table = Table { fake: &fake, channel: CHANNEL, locale };
    let board = table.start_brandubh().await;
    let answer_of = |payload: &serde_json::Value| {
        let prefix = format!("/api/v10/interactions/{}/", payload["id"].as_str().expect("an id"));
        move |r: &Recorded| r.path.starts_with(&prefix)
    };
    // Every try of the bot's answer refused; a further request would get through.
    let refused_every_try = |answer: &dyn Fn(&Recorded) -> bool| {
        let tries: Vec<u16> = fake.requests().iter().filter(|r| answer(r)).map(|r| r.status).collect();
        !tries.is_empty() && tries.iter().all(|&status| status == 500)
    };

    let payload = table.command_payload(ALICE, "move", &json!({ "notation": "b4-b3" }), &[]);
    let typed = answer_of(&payload);
    fake.fail_next(typed.clone(), 3, Fault::ServerError(500));
    let _ = fake.push_interaction(payload);
    let board = fake.wait_for_message("the board after b4-b3", |m| m.id == board.id && is_live_board(m, 1, 1)).await;

    let pieces = table.click(BOB, &board, "tafl:piece:1:1", Some("c4"));
    let menu = fake.wait_for_answer(&pieces).await;
    let mut payload = fake.component(&menu, "tafl:to:1:1:c4", &["c4-b4"], BOB.id);
    payload["locale"] = json!(locale);
    payload["guild_locale"] = json!(locale);
    let clicked = answer_of(&payload);
    fake.fail_next(clicked.clone(), 3, Fault::ServerError(500));
    let _ = fake.push_interaction(payload);
    fake.wait_for_message("the board after c4-b4", |m| m.id == board.id && is_live_board(m, 1, 2)).await;

    // The retries spent, and time for an answer after them.
    for answer in [&typed as &dyn Fn(&Recorded) -> bool, &clicked] {
        while fake.requests().iter().filter(|r| answer(r)).count() < 3 {
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
    tokio::time::sleep(Duration::from_millis(1500)).await;
    assert!(refused_every_try(&typed), "the typed move was answered after its answer failed");
    assert!(refused_every_try(&clicked), "the menu's move was answered after its answer failed");
    let lang = tafl_bot::present::Lang::discord(Some(locale));
    let failure = tafl_bot::present::text::refusal(tafl_bot::present::text::Refusal::Internal, lang);
    let said: Vec<String> =
        fake.all_messages().into_iter().filter(|m| m.content.contains(&failure)).map(|m| m.content).collect();
    assert!(said.is_empty(), "a recorded move is called a failure: {said:?}");
    let board = fake.message(board.id).unwrap();
    assert!(board.text().contains(table.says("Last move: `c4-b4`", "Последний ход: `c4-b4`")), "{}", board.text());

    // Discord took the first try and its reply was lost: the retry is refused as answered
    // already (40060), which is the answer given, not a failure to answer again.
    let payload = table.command_payload(ALICE, "move", &json!({ "notation": "g4-g3" }), &[]);
    let lost = answer_of(&payload);
    fake.fail_next(lost.clone(), 1, Fault::AppliedThenServerError(500));
    let played = fake.push_interaction(payload);
    let answer = fake.wait_for_original(&played).await;
    assert!(answer.content.starts_with(table.says("You played", "Вы сыграли")), "{}", answer.content);
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let tries: Vec<u16> = fake.requests().iter().filter(|r| lost(r)).map(|r| r.status).collect();
    assert_eq!(tries, [500, 400], "the applied answer, then the retry refused as answered, and nothing more");

    // A resignation confirmed on a board the game has left is not made: when its answer fails,
    // the click is still answered (it was left without any, as if a change had been made).
    let board = fake.wait_for_message("the board at ply 3", |m| m.id == board.id && is_live_board(m, 1, 3)).await;
    let ask = table.click(BOB, &board, "tafl:resign:1:3", None);
    let question = fake.wait_for_answer(&ask).await;
    let moved = table.command(BOB, "move", &json!({ "notation": "e4-e5" }), &[]);
    fake.wait_for_original(&moved).await;
    let mut payload = fake.component(&question, "tafl:resign-yes:1:3", &[], BOB.id);
    payload["locale"] = json!(locale);
    payload["guild_locale"] = json!(locale);
    let confirmed = answer_of(&payload);
    fake.fail_next(confirmed.clone(), 3, Fault::ServerError(500));
    let _ = fake.push_interaction(payload);
    fake.wait_for("an answer after the failed ones", |r| confirmed(r) && r.status < 300).await;
    bot.stop().await;
}

/// Whether `message` is the board of game `game` at `ply` with its controls.
fn is_live_board(message: &StoredMessage, game: i64, ply: usize) -> bool {
    !message.deleted
        && message.attachments.iter().any(|a| a.filename == format!("game-{game}-{ply}.png"))
        && message.has_control(&format!("tafl:piece:{game}:{ply}"))
}

/// Whether `message` is the live board of game `id` showing `game`'s position: its ply and its
/// last move. A takeback and new moves reach a ply again in another position, and the board may
/// show the old one at that ply until the delivery catches up.
fn shows_position(message: &StoredMessage, id: i64, game: &Game) -> bool {
    is_live_board(message, id, game.ply())
        && game.moves().last().is_none_or(|last| message.text().contains(&format!("`{}", last.mv)))
}

/// Every message of game `game` with live controls (any ply).
fn boards_with_controls(fake: &FakeDiscord, game: i64) -> Vec<StoredMessage> {
    let prefix = format!("tafl:piece:{game}:");
    fake.all_messages()
        .into_iter()
        .filter(|m| !m.deleted && !m.is_ephemeral() && m.custom_ids().iter().any(|id| id.starts_with(&prefix)))
        .collect()
}

/// Whether `message` is a "your move" notice of game `game` (`…, your move in game #3 (…)` or
/// `…, your move: game #3 (…) has begun.`), in English or Russian (`…, ваш ход в партии №3 (…)`).
fn is_notice(message: &StoredMessage, game: i64) -> bool {
    let text = &message.content;
    !message.deleted
        && !message.is_ephemeral()
        && (text.contains("your move") || text.contains("ваш ход"))
        && (text.contains(&format!("game #{game} (")) || text.contains(&format!("№{game} (")))
}

/// Whether `message` is a notice of game `game` for `player`.
fn is_notice_for(message: &StoredMessage, game: i64, player: Player) -> bool {
    is_notice(message, game) && message.content.starts_with(&format!("<@{}>", player.id))
}

/// The "your move" notices of game `game` still in the channel.
fn notices(fake: &FakeDiscord, game: i64) -> Vec<StoredMessage> {
    fake.all_messages().into_iter().filter(|m| is_notice(m, game)).collect()
}

/// How many summaries game `game` has.
fn summaries(fake: &FakeDiscord, game: i64) -> usize {
    let gif = format!("game-{game}.gif");
    fake.all_messages().iter().filter(|m| !m.deleted && m.attachments.iter().any(|a| a.filename == gif)).count()
}

/// Public messages the bot created through channel routes twice with the same content and the
/// same nonce, or without one: what a retried post without a nonce would leave behind. Two
/// messages of the same words for two things that happened (two takeback requests) have the
/// nonces of two outbox items. Boards are left out: two `/tafl board` at the same ply rightly
/// post the same picture twice (the older one without controls), and [`boards_with_controls`]
/// checks them.
fn duplicates(fake: &FakeDiscord) -> Vec<StoredMessage> {
    // The nonce each message was created with (its post's answer names it, even when the fake
    // lost that answer on purpose).
    let mut nonces: HashMap<u64, String> = HashMap::new();
    for request in fake.requests() {
        let created = request.response["id"].as_str().and_then(|id| id.parse().ok());
        let nonce = request.json.as_ref().and_then(|json| json["nonce"].as_str().map(str::to_owned));
        if request.method == "POST"
            && let (Some(created), Some(nonce)) = (created, nonce)
        {
            nonces.insert(created, nonce);
        }
    }
    let mut seen: HashMap<(u64, String, String, Option<String>), u64> = HashMap::new();
    let mut twice = Vec::new();
    for message in fake.all_messages() {
        let is_board = message
            .attachments
            .iter()
            .any(|a| Path::new(&a.filename).extension().is_some_and(|e| e.eq_ignore_ascii_case("png")));
        if message.interaction.is_some() || message.is_ephemeral() || message.deleted || is_board {
            continue;
        }
        let names: Vec<&str> = message.attachments.iter().map(|a| a.filename.as_str()).collect();
        let key = (message.channel_id, message.text(), names.join(","), nonces.get(&message.id).cloned());
        if seen.insert(key, message.id).is_some() {
            twice.push(message);
        }
    }
    twice
}

fn board_edit_of(id: u64) -> impl Fn(&Recorded) -> bool + Send + Sync + 'static {
    move |r: &Recorded| r.method == "PATCH" && r.path.ends_with(&format!("/messages/{id}"))
}

fn prints_log(dir: &Path) -> String {
    std::fs::read_to_string(dir.join("bot.log")).unwrap_or_default()
}

async fn a_bot_killed_between_a_move_and_its_board_edit_catches_up_after_a_restart(locale: &'static str) {
    let fake = FakeDiscord::start_tls().await;
    let dir = temp_dir("kill-before-edit");
    let bot = BotProcess::spawn(Path::new(BINARY), &fake, &dir);
    fake.wait_until_ready().await;
    let table = Table { fake: &fake, channel: CHANNEL, locale };
    let board = table.start_brandubh().await;
    fake.wait_for_message("the first notice", |m| is_notice_for(m, 1, ALICE)).await;

    // Every edit of the board fails from now on; the move is saved and answered all the same.
    fake.fail_next(board_edit_of(board.id), usize::MAX, Fault::ServerError(500));
    let played = table.command(ALICE, "move", &json!({ "notation": "d2-c2" }), &[]);
    let answer = fake.wait_for_original(&played).await;
    assert!(answer.content.starts_with(table.says("You played", "Вы сыграли")), "{}", answer.content);
    fake.wait_for("a failed board edit", |r| board_edit_of(board.id)(r) && r.status == 500).await;
    // Killed during the retry pause: nothing after the commit reached Discord.
    bot.kill();
    assert!(is_live_board(&fake.message(board.id).unwrap(), 1, 0), "the board still shows the start");
    assert!(notices(&fake, 1).iter().all(|m| !is_notice_for(m, 1, BOB)), "Bob is not told yet");

    // Discord is fine again; a new process on the same database.
    fake.clear_faults();
    let connections = fake.connections();
    let bot = BotProcess::spawn(Path::new(BINARY), &fake, &dir);
    fake.wait_for_connections(connections + 1).await;
    let board = fake.wait_for_message("the board at ply 1", |m| m.id == board.id && is_live_board(m, 1, 1)).await;
    let told = fake.wait_for_message("Bob's notice", |m| is_notice_for(m, 1, BOB)).await;
    wait_a_little_for(|| notices(&fake, 1).len() == 1).await;
    assert_eq!(notices(&fake, 1).len(), 1, "one notice: {:#?}", notices(&fake, 1));
    assert_eq!(notices(&fake, 1)[0].id, told.id);
    // The board's controls work: Bob picks a piece on it.
    let piece = board.custom_ids().into_iter().find(|id| id.starts_with("tafl:piece:1:1")).expect("a piece menu");
    let value = board.select_options(&piece)[0].1.clone();
    let click = table.click(BOB, &board, &piece, Some(&value));
    let shown = fake.wait_for_answer(&click).await;
    assert!(!shown.is_ephemeral(), "the menu opens on the board, not as a refusal: {shown:#?}");
    assert!(shown.custom_ids().iter().any(|id| id.starts_with("tafl:to:1:1")), "{:#?}", shown.custom_ids());
    assert!(duplicates(&fake).is_empty(), "{:#?}", duplicates(&fake));
    table.assert_no_english(NAMES);
    bot.kill();
    let _ = std::fs::remove_dir_all(&dir);
}

async fn board_racing_a_move_leaves_one_board_with_controls_at_the_current_ply(locale: &'static str) {
    let fake = FakeDiscord::start().await;
    let dir = temp_dir("board-race");
    let bot = TestBot::start(&fake, &dir);
    fake.wait_until_ready().await;
    let table = Table { fake: &fake, channel: CHANNEL, locale };
    let first = table.start_brandubh().await;
    // Bob asks for a new board while Alice moves.
    let shown = table.command(BOB, "board", &json!({}), &[]);
    let played = table.command(ALICE, "move", &json!({ "notation": "d2-c2" }), &[]);
    fake.wait_for_original(&played).await;
    let answer = fake.wait_for_original(&shown).await;
    let posted = table.says("posted below", "опубликована ниже");
    assert!(answer.is_ephemeral() && answer.content.contains(posted), "{answer:#?}");
    let live = fake.wait_for_message("a new board at ply 1", |m| m.id != first.id && is_live_board(m, 1, 1)).await;
    // The old one loses its controls, whichever order the two took.
    fake.wait_for_message("the old board without controls", |m| m.id == first.id && m.components.is_empty()).await;
    let controls = boards_with_controls(&fake, 1);
    assert_eq!(controls.iter().map(|m| m.id).collect::<Vec<_>>(), vec![live.id], "{controls:#?}");
    fake.wait_for_message("Bob's notice", |m| is_notice_for(m, 1, BOB)).await;
    table.assert_no_english(NAMES);
    bot.stop().await;
}

async fn an_answer_lost_after_the_notice_or_summary_was_made_leaves_no_duplicate(locale: &'static str) {
    let fake = FakeDiscord::start().await;
    let dir = temp_dir("lost-answer");
    let bot = TestBot::start(&fake, &dir);
    fake.wait_until_ready().await;
    let table = Table { fake: &fake, channel: CHANNEL, locale };
    table.start_brandubh().await;
    fake.wait_for_message("the first notice", |m| is_notice_for(m, 1, ALICE)).await;

    // The notice for Bob is created, and Discord's answer is lost twice.
    let your_move = table.says("your move", "ваш ход");
    let notice_post = move |r: &Recorded| {
        let bob = format!("<@{}>, {your_move}", BOB.id);
        r.method == "POST"
            && r.path.ends_with("/messages")
            && r.json.as_ref().is_some_and(|j| j["content"].as_str().is_some_and(|c| c.starts_with(&bob)))
    };
    let before = fake.requests().len();
    fake.fail_next(notice_post, 2, Fault::AppliedThenServerError(500));
    let played = table.command(ALICE, "move", &json!({ "notation": "d2-c2" }), &[]);
    fake.wait_for_original(&played).await;
    found_again_since(&fake, before, CHANNEL, notice_post).await;
    let requests = fake.requests();
    let tries: Vec<&Recorded> = requests.iter().filter(|r| notice_post(r)).collect();
    let nonces: Vec<&serde_json::Value> = tries.iter().map(|r| &r.json.as_ref().unwrap()["nonce"]).collect();
    assert!(nonces.iter().all(|n| *n == nonces[0]) && nonces[0].is_string(), "one nonce per notice: {nonces:?}");
    assert!(tries.iter().all(|r| r.json.as_ref().unwrap()["enforce_nonce"] == true));
    wait_a_little_for(|| notices(&fake, 1).len() == 1).await;
    let for_bob = notices(&fake, 1);
    assert_eq!(for_bob.len(), 1, "one notice for Bob: {for_bob:#?}");
    let made = tries[0].response["id"].as_str().map(str::to_owned);
    assert_eq!(Some(for_bob[0].id.to_string()), made, "the message the first try made");

    // Bob resigns; the summary is created and its answer lost.
    let summary_post = |r: &Recorded| {
        r.method == "POST"
            && r.path.ends_with("/messages")
            && r.parts.iter().any(|p| p.filename.as_deref() == Some("game-1.gif"))
    };
    let before = fake.requests().len();
    fake.fail_next(summary_post, 1, Fault::AppliedThenServerError(503));
    let resigned = table.command(BOB, "resign", &json!({}), &[]);
    fake.wait_for_original(&resigned).await;
    found_again_since(&fake, before, CHANNEL, summary_post).await;
    assert_eq!(summaries(&fake, 1), 1, "one summary");
    // Bob's "your move" notice is no longer true: it goes once the summary is up.
    wait_a_little_for(|| notices(&fake, 1).is_empty()).await;
    assert!(notices(&fake, 1).is_empty(), "{:#?}", notices(&fake, 1));
    assert!(duplicates(&fake).is_empty(), "{:#?}", duplicates(&fake));
    table.assert_no_english(NAMES);
    bot.stop().await;
}

/// `/tafl board` posts a new board; Discord makes it but its answer is lost, and the retries fail
/// while a takeback and another move bring the game back to the same ply in another position.
/// The retry that gets through is answered, by its nonce, with the message made first, which
/// shows the old position: recorded as showing the game (its picture's ply is the game's), it
/// stayed so, the later board items done with it. Found by the randomized test (seed
/// 1796437013650296951, Russian; not reproducible by the seed, a matter of timing).
async fn a_new_board_found_by_its_nonce_after_a_takeback_at_its_ply_is_brought_up_to_date(locale: &'static str) {
    let fake = FakeDiscord::start().await;
    let dir = temp_dir("nonce-board-takeback");
    let bot = TestBot::start(&fake, &dir);
    fake.wait_until_ready().await;
    let table = Table { fake: &fake, channel: CHANNEL, locale };
    let first = table.start_brandubh().await;
    let mut game = Game::new(Position::new(Variant::Brandubh.rules()).unwrap());
    let play = |player: Player, mv: &'static str| {
        let table = &table;
        async move {
            let played = table.command(player, "move", &json!({ "notation": mv }), &[]);
            let answer = table.fake.wait_for_original(&played).await;
            assert!(answer.content.starts_with(table.says("You played", "Вы сыграли")), "{}", answer.content);
        }
    };
    for (player, mv) in [(ALICE, "b4-b3"), (BOB, "c4-b4")] {
        play(player, mv).await;
        game.play(mv.parse().unwrap()).unwrap();
    }
    fake.wait_for_message("the board at ply 2", |m| shows_position(m, 1, &game)).await;

    // The new board is made and its answer lost; then every try fails until the game is back.
    let board_post = |r: &Recorded| {
        r.method == "POST"
            && r.path.ends_with("/messages")
            && r.parts.iter().any(|p| p.filename.as_deref().is_some_and(|f| f.starts_with("game-1-")))
    };
    fake.fail_next(board_post, 1, Fault::AppliedThenServerError(502));
    fake.fail_next(board_post, usize::MAX, Fault::ServerError(500));
    let shown = table.command(ALICE, "board", &json!({}), &[]);
    fake.wait_for_original(&shown).await;
    let made = fake.wait_for("the new board made, its answer lost", |r| board_post(r) && r.status == 502).await;
    let made: u64 = made.response["id"].as_str().and_then(|id| id.parse().ok()).unwrap_or_else(|| {
        // The fault answers for the request; the message it made is the newest board.
        fake.all_messages().iter().filter(|m| m.id != first.id && is_live_board(m, 1, 2)).map(|m| m.id).max().unwrap()
    });
    assert!(is_live_board(&fake.message(made).unwrap(), 1, 2), "the new board shows c4-b4 at ply 2");

    // Bob takes c4-b4 back with Alice's consent and plays d5-c5: ply 2 again.
    let request = table.command(BOB, "takeback", &json!({}), &[]);
    let requested = fake.wait_for_original(&request).await.content;
    assert!(requested.starts_with(table.says("You asked to take back", "Вы попросили вернуть")), "{requested}");
    let accept = table.command(ALICE, "takeback", &json!({ "action": 1 }), &[]);
    let accepted = fake.wait_for_original(&accept).await.content;
    assert!(accepted.starts_with(table.says("You agreed", "Вы согласились")), "{accepted}");
    play(BOB, "d5-c5").await;
    let mut game = Game::new(Position::new(Variant::Brandubh.rules()).unwrap());
    for mv in ["b4-b3", "d5-c5"] {
        game.play(mv.parse().unwrap()).unwrap();
    }
    fake.clear_faults();

    // The retry finds the message made first; the board ends up showing d5-c5 all the same.
    let live = fake.wait_for_message("the board showing d5-c5", |m| shows_position(m, 1, &game)).await;
    assert_eq!(live.id, made, "the board is the message the nonce found");
    wait_a_little_for(|| boards_with_controls(&fake, 1).len() == 1).await;
    let controls = boards_with_controls(&fake, 1);
    assert_eq!(controls.iter().map(|m| m.id).collect::<Vec<_>>(), vec![made], "{controls:#?}");
    table.assert_no_english(NAMES);
    bot.stop().await;
}

async fn a_daily_digest_comes_by_dm_once_even_when_discords_answer_is_lost(locale: &'static str) {
    let fake = FakeDiscord::start().await;
    let dir = temp_dir("digest");
    let bot = TestBot::start(&fake, &dir);
    fake.wait_until_ready().await;
    let table = Table { fake: &fake, channel: CHANNEL, locale };
    table.start_brandubh().await;
    let asked = table.command(ALICE, "settings", &json!({ "digest": true }), &[]);
    let digest_on = table.says("Daily digest: on", "Ежедневная сводка: вкл.");
    assert!(fake.wait_for_original(&asked).await.content.contains(digest_on));

    let title = table.says("Your move in 1 game", "Ваш ход в 1 партии");
    let digest_post = move |r: &Recorded| {
        r.method == "POST"
            && r.path.ends_with("/messages")
            && r.json.as_ref().is_some_and(|j| j["embeds"][0]["title"] == title)
    };
    fake.fail_next(digest_post, 1, Fault::AppliedThenServerError(500));
    // A day has passed: Alice's digest is due.
    let db = tafl_bot::store::Db::open(&format!("sqlite://{}", dir.join("tafl.db").display())).await.unwrap();
    sqlx::query("UPDATE users SET digest_due_at = 1 WHERE id = ?")
        .bind(ALICE.id as i64)
        .execute(db.pool())
        .await
        .unwrap();
    db.close().await;
    let first = fake.wait_for("the digest's first try", digest_post).await;
    let dm = fake.dm_channel(ALICE.id).expect("a DM channel with Alice");
    assert!(first.path.contains(&dm.to_string()), "{}", first.path);
    found_again_since(&fake, 0, dm, digest_post).await;
    let requests = fake.requests();
    let tries: Vec<&Recorded> = requests.iter().filter(|r| digest_post(r)).collect();
    assert!(tries.iter().all(|r| r.json.as_ref().unwrap()["nonce"] == tries[0].json.as_ref().unwrap()["nonce"]));
    let digests: Vec<StoredMessage> =
        fake.all_messages().into_iter().filter(|m| m.channel_id == dm && !m.deleted).collect();
    assert_eq!(digests.len(), 1, "one digest: {digests:#?}");
    assert!(
        digests[0].text().contains(table.says("Brandubh vs Bob", "Брандубх · соперник: Bob")),
        "{}",
        digests[0].text()
    );
    table.assert_no_english(NAMES);
    bot.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn command_registration_is_retried_and_a_bot_that_cannot_register_exits() {
    let registration = |r: &Recorded| r.method == "PUT" && r.path.ends_with("/commands");
    // Three refusals, then Discord accepts: the bot serves.
    let fake = FakeDiscord::start_tls().await;
    fake.fail_next(registration, 3, Fault::ServerError(500));
    let dir = temp_dir("register-retry");
    let bot = BotProcess::spawn(Path::new(BINARY), &fake, &dir);
    fake.wait_for("a successful registration", |r| registration(r) && r.status == 200).await;
    assert_eq!(fake.requests().iter().filter(|r| registration(r)).count(), 4);
    let asked = fake.push_interaction(fake.slash_command("tafl", "variants", &json!([]), 42, "en-US"));
    fake.wait_for_answer(&asked).await;
    bot.kill();

    // Refused every time: the process exits with one sentence instead of serving nothing.
    let fake = FakeDiscord::start_tls().await;
    fake.fail_next(registration, usize::MAX, Fault::ServerError(500));
    let dir = temp_dir("register-fail");
    let mut bot = BotProcess::spawn(Path::new(BINARY), &fake, &dir);
    let status = tokio::task::spawn_blocking(move || {
        let status = bot.wait_for_exit(Duration::from_secs(30));
        (bot, status)
    });
    let (_bot, status) = status.await.unwrap();
    let status = status.unwrap_or_else(|| panic!("the bot kept running; log: {}", prints_log(&dir)));
    assert!(!status.success(), "{status:?}");
    let log = prints_log(&dir);
    let last = log.lines().last().unwrap_or_default();
    assert!(last.contains("refused to register the slash commands 5 times"), "{log}");
    let tries = fake.requests().iter().filter(|r| registration(r)).count();
    assert_eq!(tries, 5, "five tries");
}

async fn a_summary_of_a_game_that_does_not_exist_is_refused_privately(locale: &'static str) {
    let fake = FakeDiscord::start().await;
    let dir = temp_dir("private-refusal");
    let bot = TestBot::start(&fake, &dir);
    fake.wait_until_ready().await;
    let table = Table { fake: &fake, channel: CHANNEL, locale };
    let asked = table.command(ALICE, "summary", &json!({ "game": 424_242 }), &[]);
    let answer = fake.wait_for_original(&asked).await;
    assert!(answer.is_ephemeral(), "{answer:#?}");
    assert!(answer.content.contains("424242"), "{}", answer.content);
    let callback = fake.wait_for("the answer", |r| r.path == asked.callback_path()).await;
    assert_eq!(callback.json.as_ref().unwrap()["data"]["flags"].as_u64().unwrap_or(0) & EPHEMERAL, EPHEMERAL);
    let public: Vec<StoredMessage> =
        fake.messages_in(CHANNEL).into_iter().filter(|m| !m.is_ephemeral() || m.flags & LOADING != 0).collect();
    assert!(public.is_empty(), "nothing public: {public:#?}");
    table.assert_no_english(NAMES);
    bot.stop().await;
}

/// `/tafl summary` answers "thinking" for everyone while it draws. The database fails the
/// summary's read after that (its rating changes are gone): the error is private, as every
/// error is, and no public "thinking" is left. Discord makes the first follow-up after a
/// deferral fill the deferred message, with that message's visibility, so the error cannot
/// simply follow up.
async fn a_summary_that_fails_after_its_public_thinking_answer_says_so_privately(locale: &'static str) {
    let fake = FakeDiscord::start().await;
    let dir = temp_dir("summary-fails-late");
    let bot = TestBot::start(&fake, &dir);
    fake.wait_until_ready().await;
    let table = Table { fake: &fake, channel: CHANNEL, locale };
    table.start_brandubh().await;
    let payload = table.command_payload(ALICE, "summary", &json!({ "game": 1 }), &[]);
    // The deferral is held on its way, so that the database fails between it and the read.
    let (id, token) = (payload["id"].as_str().unwrap(), payload["token"].as_str().unwrap());
    let deferral = format!("/api/v10/interactions/{id}/{token}/callback");
    let held = move |r: &Recorded| r.path == deferral && r.json.as_ref().is_some_and(|j| j["type"] == 5);
    fake.fail_next(held, 1, Fault::Slow { millis: 1500 });
    let asked = fake.push_interaction(payload);
    fake.wait_for_slow_requests(1).await;
    let db = tafl_bot::store::Db::open(&format!("sqlite://{}", dir.join("tafl.db").display())).await.unwrap();
    sqlx::query("ALTER TABLE rating_changes RENAME TO rating_changes_gone").execute(db.pool()).await.unwrap();

    let went_wrong = table.says("Something went wrong on our side", "У нас что-то сломалось");
    let answered = |m: &StoredMessage| m.interaction == Some(asked.id) && !m.deleted && m.flags & LOADING == 0;
    let answer = fake.wait_for_message("the error", answered).await;
    assert!(answer.is_ephemeral(), "the error is private: {answer:#?}");
    assert!(answer.content.starts_with(went_wrong), "{}", answer.content);
    let public: Vec<StoredMessage> = fake
        .all_messages()
        .into_iter()
        .filter(|m| m.interaction == Some(asked.id) && !m.deleted && !m.is_ephemeral())
        .collect();
    assert!(public.is_empty(), "nothing of it is left for everyone: {public:#?}");
    sqlx::query("ALTER TABLE rating_changes_gone RENAME TO rating_changes").execute(db.pool()).await.unwrap();
    db.close().await;

    // Discord refuses the summary itself (as it refuses one over its limits): the same.
    let asked = table.command(ALICE, "summary", &json!({ "game": 1 }), &[]);
    let summary_edit = |r: &Recorded| r.method == "PATCH" && r.path.ends_with("/messages/@original");
    fake.fail_next(summary_edit, 1, Fault::Refused { status: 400, code: 50_035 });
    let answered = |m: &StoredMessage| m.interaction == Some(asked.id) && !m.deleted && m.flags & LOADING == 0;
    let answer = fake.wait_for_message("the error", answered).await;
    assert!(answer.is_ephemeral() && answer.content.starts_with(went_wrong), "{answer:#?}");
    let thinking = fake.all_messages().into_iter().find(|m| m.interaction == Some(asked.id) && !m.is_ephemeral());
    assert!(thinking.is_some_and(|m| m.deleted), "the public \"thinking\" is taken back");
    table.assert_no_english(NAMES);
    bot.stop().await;
}

/// `/tafl summary` answers "thinking" for everyone while it draws, and that deferral is retried
/// as every answer is: after a server error, and after Discord made it and only its reply was
/// lost, when the retry is refused as "already acknowledged" and the deferral counts as made.
/// The summary then fills the public "thinking" message. Deferred once with no retry, the lost
/// reply left "thinking" for everyone for good (the error's own answer refused as already
/// acknowledged), and the server error answered with an error instead of the summary.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_summary_whose_thinking_answer_discord_fails_or_loses_is_still_shown() {
    let fake = FakeDiscord::start().await;
    let dir = temp_dir("summary-deferral");
    let bot = TestBot::start(&fake, &dir);
    fake.wait_until_ready().await;
    let table = Table { fake: &fake, channel: CHANNEL, locale: "en-US" };
    table.start_brandubh().await;
    for (fault, statuses) in [(Fault::AppliedThenServerError(500), [500, 400]), (Fault::ServerError(503), [503, 204])] {
        let payload = table.command_payload(ALICE, "summary", &json!({ "game": 1 }), &[]);
        let deferral = tafl_e2e::fake_discord::callback_path_of(&payload);
        let is_deferral = move |r: &Recorded| r.path == deferral;
        fake.fail_next(is_deferral.clone(), 1, fault);
        let asked = fake.push_interaction(payload);
        let answer = fake.wait_for_original(&asked).await;
        assert!(!answer.is_ephemeral() && !answer.deleted, "{fault:?}: shown to everyone: {answer:#?}");
        assert!(answer.attachments.iter().any(|a| a.filename == "game-1.gif"), "{fault:?}: {answer:#?}");
        let tried: Vec<u16> = fake.requests().iter().filter(|r| is_deferral(r)).map(|r| r.status).collect();
        assert_eq!(tried, statuses, "{fault:?}: the deferral failed once and was tried again");
        let answers = fake.all_messages().into_iter().filter(|m| m.interaction == Some(asked.id)).count();
        assert_eq!(answers, 1, "{fault:?}: one answer, no error beside it");
    }
    bot.stop().await;
}

/// What the randomized run does next.
#[derive(Clone, Copy, Debug)]
enum Step {
    Move,
    Resign,
    Board,
    Restart,
    RateLimit,
    ServerError,
    LostAnswer,
    SlowEdit,
    DropGateway,
    Race,
    Takeback,
}

async fn through_random_moves_boards_restarts_and_faults_every_game_ends_up_shown_right(locale: &'static str) {
    let seed = std::env::var("TAFL_FAULT_SEED").ok().and_then(|s| s.parse().ok()).unwrap_or_else(|| {
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_nanos() as u64
    }) | 1;
    println!("randomized fault test: seed {seed} (rerun with TAFL_FAULT_SEED={seed})");
    let mut rng = Rng(seed);
    let fake = FakeDiscord::start_tls().await;
    let dir = temp_dir("random-faults");
    let mut bot = Some(BotProcess::spawn(Path::new(BINARY), &fake, &dir));
    fake.wait_until_ready().await;
    let table = Table { fake: &fake, channel: CHANNEL, locale };

    // Three games between Alice and Bob, each followed by our own copy of the rules, and a fourth
    // of Alice against the bot (level 1: a tenth of a second to think), whose moves the test
    // learns from the game's export.
    let mut games: Vec<Game> = Vec::new();
    let mut resigned = Vec::new();
    for _ in 0..3 {
        table.start_brandubh().await;
        games.push(Game::new(Position::new(Variant::Brandubh.rules()).unwrap()));
        resigned.push(false);
    }
    let against_bot = start_bot_game(&table).await;
    games.push(Game::new(Position::new(Variant::Brandubh.rules()).unwrap()));
    resigned.push(false);
    let steps = 80;
    for step in 0..steps {
        let kind = match rng.below(27) {
            0..=8 => Step::Move,
            9 => Step::Resign,
            10..=11 => Step::Board,
            12 => Step::Restart,
            13..=14 => Step::RateLimit,
            15..=16 => Step::ServerError,
            17..=18 => Step::LostAnswer,
            19..=20 => Step::SlowEdit,
            21 => Step::DropGateway,
            22..=24 => Step::Race,
            _ => Step::Takeback,
        };
        if matches!(kind, Step::RateLimit | Step::ServerError | Step::LostAnswer | Step::SlowEdit) {
            // One burst of faults at a time: a dozen piled up would only test the backoff's
            // patience (it doubles up to a minute), not the outcome.
            fake.clear_faults();
        }
        let at = rng.below(games.len());
        let id = at as i64 + 1;
        let with_bot = id == against_bot;
        if with_bot && !resigned[at] {
            // The bot's answer to Alice's last move, whenever it came (a restart may have
            // killed its search; the next process plays it).
            games[at] = after_the_bot(&table, id, &format!("step {step}, seed {seed}")).await;
        }
        match kind {
            Step::Race | Step::Takeback if with_bot => {}
            Step::Resign => {
                if resigned[at] || games[at].status() != tafl_rules::Status::Ongoing {
                    continue;
                }
                let who = if with_bot { ALICE } else { BOB };
                let resign = table.command(who, "resign", &json!({ "game": id }), &[]);
                let answer = fake.wait_for_original(&resign).await;
                let said = table.says("resigned", "сдали");
                assert!(answer.content.contains(said), "step {step}, seed {seed}: {}", answer.content);
                resigned[at] = true;
            }
            Step::Move => {
                let game = &mut games[at];
                if resigned[at] || game.status() != tafl_rules::Status::Ongoing {
                    continue;
                }
                let moves = game.position().legal_moves();
                let mv = moves[rng.below(moves.len())];
                let player: Player = if game.position().to_move() == tafl_rules::Side::Attackers { ALICE } else { BOB };
                let text = mv.to_string();
                let by_menus = rng.below(2) == 0 && play_by_menus(&table, id, game, player, &text).await;
                if !by_menus {
                    let typed = table.command(player, "move", &json!({ "notation": text, "game": id }), &[]);
                    let answer = fake.wait_for_original(&typed).await;
                    let confirmed = table.says("You played", "Вы сыграли");
                    assert!(answer.content.starts_with(confirmed), "step {step}, seed {seed}: {}", answer.content);
                }
                game.play(mv).unwrap();
                // The bot's reply is learned before the game's next step.
            }
            Step::Race => {
                let game = &mut games[at];
                if resigned[at] || game.status() != tafl_rules::Status::Ongoing {
                    continue;
                }
                let moves = game.position().legal_moves();
                let clicked = moves[rng.below(moves.len())].to_string();
                let typed = moves[rng.below(moves.len())].to_string();
                let player: Player = if game.position().to_move() == tafl_rules::Side::Attackers { ALICE } else { BOB };
                let whole_move = rng.below(2) == 0;
                let what = format!("step {step}, seed {seed}: game {id} at ply {}", game.ply());
                let landed = race_a_click_and_a_typed_move(&table, id, game, player, &clicked, whole_move, &typed)
                    .await
                    .unwrap_or_else(|answer| panic!("{what}: neither move was played: {answer}"));
                game.play(*moves.iter().find(|mv| mv.to_string() == landed).unwrap()).unwrap();
            }
            Step::Takeback => {
                let game = &games[at];
                if resigned[at] || game.status() != tafl_rules::Status::Ongoing || game.ply() == 0 {
                    continue;
                }
                let player_of = |side| if side == tafl_rules::Side::Attackers { ALICE } else { BOB };
                let to_move = game.position().to_move();
                // Whoever moved last, or the player to move when they have moved before.
                let asks = if game.ply() >= 2 && rng.below(2) == 0 { to_move } else { to_move.opponent() };
                let legal = game.position().legal_moves();
                let typed = legal[rng.below(legal.len())].to_string();
                let what = format!("step {step}, seed {seed}: game {id} at ply {}", game.ply());
                let (asker, answerer) = (player_of(asks), player_of(asks.opponent()));
                games[at] = race_a_takeback_and_a_move(&table, id, asker, answerer, player_of(to_move), &typed)
                    .await
                    .unwrap_or_else(|why| panic!("{what}: {why}"));
            }
            Step::Board => {
                let shown = table.command(ALICE, "board", &json!({ "game": id }), &[]);
                fake.wait_for_original(&shown).await;
            }
            Step::Restart => {
                if let Some(bot) = bot.take() {
                    bot.kill();
                }
                let registered = registrations(&fake);
                bot = Some(BotProcess::spawn(Path::new(BINARY), &fake, &dir));
                wait_for_registrations(&fake, registered + 1).await;
            }
            Step::RateLimit => {
                let times = 1 + rng.below(2);
                fake.fail_next(
                    |r| r.method != "PUT" && !r.path.contains("gateway"),
                    times,
                    Fault::RateLimited { seconds: 0.1 },
                );
            }
            Step::ServerError => {
                let times = 1 + rng.below(2);
                fake.fail_next(
                    |r| r.method != "PUT" && !r.path.ends_with("/callback") && !r.path.contains("gateway"),
                    times,
                    Fault::ServerError(500),
                );
            }
            Step::LostAnswer => {
                fake.fail_next(
                    |r| r.method == "POST" && r.path.ends_with("/messages") && r.path.starts_with("/api/v10/channels"),
                    1,
                    Fault::AppliedThenServerError(502),
                );
            }
            Step::SlowEdit => {
                // The next edit of a message (a delivery's board, or a click's answer) takes up
                // to 2.4 s: the steps after it meet an edit still under way, and a restart may
                // kill the bot in the middle of one.
                let millis = 300 + 300 * rng.below(8) as u64;
                fake.fail_next(|r| r.method == "PATCH" && r.path.contains("/messages/"), 1, Fault::Slow { millis });
            }
            Step::DropGateway => {
                let connections = fake.connections();
                fake.drop_gateway();
                fake.wait_for_connections(connections + 1).await;
            }
        }
    }
    fake.clear_faults();

    // Afterwards (within a few delivery cycles), every game is shown as it stands.
    let bot_at = usize::try_from(against_bot - 1).unwrap();
    if !resigned[bot_at] {
        games[bot_at] = after_the_bot(&table, against_bot, &format!("the end, seed {seed}")).await;
    }
    let plies: Vec<usize> = games.iter().map(Game::ply).collect();
    println!("seed {seed}: the games end at plies {plies:?} (the last against the bot), resigned {resigned:?}");
    for (at, game) in games.iter().enumerate() {
        let id = at as i64 + 1;
        let ply = game.ply();
        let what = format!("game {id} at ply {ply} (seed {seed})");
        if !resigned[at] && game.status() == tafl_rules::Status::Ongoing {
            fake.wait_for_message(&format!("the board of {what}"), |m| shows_position(m, id, game)).await;
            // Older boards lose their controls in the same lane, a moment later (and a board
            // found live may be one that a later `/tafl board` replaces).
            wait_a_little_for(|| boards_with_controls(&fake, id).len() == 1).await;
            let controls = boards_with_controls(&fake, id);
            assert_eq!(controls.len(), 1, "{what}: {controls:#?}");
            assert!(shows_position(&controls[0], id, game), "{what}: {controls:#?}");
            let to_move = if game.position().to_move() == tafl_rules::Side::Attackers { ALICE } else { BOB };
            fake.wait_for_message(&format!("the notice of {what}"), |m| is_notice_for(m, id, to_move)).await;
            wait_a_little_for(|| notices(&fake, id).len() == 1).await;
            assert_eq!(notices(&fake, id).len(), 1, "{what}: {:#?}", notices(&fake, id));
        } else {
            fake.wait_for_message(&format!("the summary of {what}"), |m| {
                m.attachments.iter().any(|a| a.filename == format!("game-{id}.gif"))
            })
            .await;
            assert_eq!(summaries(&fake, id), 1, "{what}");
            wait_a_little_for(|| notices(&fake, id).is_empty()).await;
            assert!(notices(&fake, id).is_empty(), "{what}: the last notice goes: {:#?}", notices(&fake, id));
        }
    }
    assert!(duplicates(&fake).is_empty(), "seed {seed}: {:#?}", duplicates(&fake));
    table.assert_no_english(NAMES);
    if let Some(bot) = bot.take() {
        bot.kill();
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Plays `text` in game `id` by the menus of its board once the board shows `game` and is the
/// only one with controls; false (nothing played) when the board lost its controls before or
/// between the two clicks, as when a `/tafl board` asked for earlier is posted meanwhile.
async fn play_by_menus(table: &Table<'_>, id: i64, game: &Game, player: Player, text: &str) -> bool {
    let fake = table.fake;
    let ply = game.ply();
    let board = fake.wait_for_message("the board to play on", |m| shows_position(m, id, game)).await;
    wait_a_little_for(|| boards_with_controls(fake, id).len() == 1).await;
    let Some(board) = boards_with_controls(fake, id).into_iter().find(|m| shows_position(m, id, game)).or(Some(board))
    else {
        return false;
    };
    let (from, _) = text.split_once('-').unwrap();
    // The board found may lose its controls at any moment, between the two clicks as before the
    // first (the delivery task takes them off a board that a `/tafl board` replaced): a player
    // would see no menu to pick from, and the fake refuses a click on what is not there.
    let piece = format!("tafl:piece:{id}:{ply}");
    let Ok(click) = table.try_click(player, &board, &piece, Some(from)) else {
        return false;
    };
    let menu = fake.wait_for_answer(&click).await;
    let to = format!("tafl:to:{id}:{ply}:{from}");
    let Ok(click) = table.try_click(player, &menu, &to, Some(text)) else {
        return false;
    };
    let answer = fake.wait_for_answer(&click).await;
    assert!(!answer.is_ephemeral(), "{}", answer.content);
    true
}

/// The player to move clicks on the board of game `id` showing `game` (the piece of `clicked`, and with
/// `whole_move` its destination too) while typing `typed`, the last click and the command pushed
/// together: two devices, or a click that waits for the board's pen while the command does not.
/// Exactly one move may land, at most: the typed one is always played when the click only opens
/// a menu; when the click plays too, the later of the two is refused (a stale board, or not
/// the player's turn any more). Returns the move played, or the typed answer when none was.
async fn race_a_click_and_a_typed_move(
    table: &Table<'_>,
    id: i64,
    game: &Game,
    player: Player,
    clicked: &str,
    whole_move: bool,
    typed: &str,
) -> Result<String, String> {
    let fake = table.fake;
    let type_it = || table.command(player, "move", &json!({ "notation": typed, "game": id }), &[]);
    let ply = game.ply();
    let board = fake.wait_for_message("the board to race on", |m| shows_position(m, id, game)).await;
    let (from, _) = clicked.split_once('-').unwrap();
    let piece = format!("tafl:piece:{id}:{ply}");
    let mut click = None;
    if whole_move {
        // The menu first, then its destination against the typed move.
        if let Ok(opened) = table.try_click(player, &board, &piece, Some(from)) {
            let menu = fake.wait_for_answer(&opened).await;
            let to = format!("tafl:to:{id}:{ply}:{from}");
            click = table.try_click(player, &menu, &to, Some(clicked)).ok();
        }
    } else {
        // A new menu against the typed move: the move always lands, the menu opens or is refused.
        click = table.try_click(player, &board, &piece, Some(from)).ok();
    }
    let typed_move = type_it();
    let answer = fake.wait_for_original(&typed_move).await;
    if answer.content.starts_with(table.says("You played", "Вы сыграли")) {
        if let (true, Some(click)) = (whole_move, &click) {
            // Its move came second: refused privately, not played as well.
            let refusal = fake.wait_for_message("the refusal of the clicked move", |m| m.interaction == Some(click.id));
            assert!(refusal.await.is_ephemeral(), "the typed {typed} and the clicked {clicked} were both played");
        }
        return Ok(typed.to_owned());
    }
    // The click played first: the typed move came a turn late, or after the game ended.
    if !(whole_move && click.is_some()) {
        return Err(answer.content);
    }
    assert!(answer.is_ephemeral(), "{answer:#?}");
    let last = format!("`{clicked}");
    let name = format!("game-{id}-{}.png", ply + 1);
    fake.wait_for_message("the board after the clicked move", |m| {
        !m.deleted && m.attachments.iter().any(|a| a.filename == name) && m.text().contains(&last)
    })
    .await;
    Ok(clicked.to_owned())
}

/// `asks` requests a takeback in game `id`; then `answers` accepts it while `to_move` types
/// `typed`, both pushed together. Each lands or is refused as a whole: the game as
/// the bot exports it afterwards has the ply it had, plus one if the move was played, less the
/// plies the acceptance says it took back. Returns that game, the test's copy from then on.
async fn race_a_takeback_and_a_move(
    table: &Table<'_>,
    id: i64,
    asks: Player,
    answers: Player,
    to_move: Player,
    typed: &str,
) -> Result<Game, String> {
    let fake = table.fake;
    let before = exported(table, id).await.ply();
    let request = table.command(asks, "takeback", &json!({ "game": id }), &[]);
    let requested = fake.wait_for_original(&request).await.content;
    if !requested.starts_with(table.says("You asked to take back", "Вы попросили вернуть")) {
        // Refused (a request already open, say): nothing changed.
        let after = exported(table, id).await;
        return if after.ply() == before {
            Ok(after)
        } else {
            Err(format!("a refused request moved the game: {requested}"))
        };
    }
    let accept = table.command(answers, "takeback", &json!({ "action": 1, "game": id }), &[]);
    let played = table.command(to_move, "move", &json!({ "notation": typed, "game": id }), &[]);
    let accepted = fake.wait_for_original(&accept).await.content;
    let played = fake.wait_for_original(&played).await.content;
    let taken: usize = if accepted.starts_with(table.says("You agreed", "Вы согласились")) {
        // The numbers said are the game's and the plies'.
        let mut numbers: Vec<usize> =
            accepted.split(|c: char| !c.is_ascii_digit()).filter_map(|n| n.parse().ok()).collect();
        if let Some(at) = numbers.iter().position(|&n| n as i64 == id) {
            numbers.remove(at);
        }
        numbers.into_iter().find(|&n| n == 1 || n == 2).ok_or(accepted.clone())?
    } else {
        0
    };
    let landed = usize::from(played.starts_with(table.says("You played", "Вы сыграли")));
    let after = exported(table, id).await;
    if after.ply() + taken == before + landed {
        Ok(after)
    } else {
        Err(format!(
            "from ply {before}, {landed} move and {taken} taken back gave ply {}: {accepted} / {played}",
            after.ply()
        ))
    }
}

/// Alice challenges the bot to an unrated Brandubh game at level 1, as the attackers: the game's
/// number.
async fn start_bot_game(table: &Table<'_>) -> i64 {
    let challenge = table.command(
        ALICE,
        "challenge",
        &json!({ "variant": Variant::Brandubh.id(), "side": 0, "level": 1, "rated": false }),
        &[],
    );
    let answer = table.fake.wait_for_original(&challenge).await;
    // "Game #4 against …" / "Партия №4 началась…": the first number said.
    let number = answer.content.split(|c: char| !c.is_ascii_digit()).find_map(|n| n.parse().ok());
    number.unwrap_or_else(|| panic!("a game number: {}", answer.content))
}

/// Game `id` against the bot, in which Alice has the attackers, once the bot has answered her
/// last move (the attackers are to move again) or the game is over.
async fn after_the_bot(table: &Table<'_>, id: i64, what: &str) -> Game {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(30);
    loop {
        let game = exported(table, id).await;
        if game.status() != tafl_rules::Status::Ongoing || game.position().to_move() == tafl_rules::Side::Attackers {
            return game;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "{what}: the bot never answered in game {id} at ply {}",
            game.ply()
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Game `id` as `/tafl export` gives it, replayed.
async fn exported(table: &Table<'_>, id: i64) -> Game {
    let fake = table.fake;
    let export = table.command(ALICE, "export", &json!({ "game": id }), &[]);
    let answer = fake.wait_for_original(&export).await;
    let name = format!("game-{id}.otn");
    let file = answer.attachments.iter().find(|a| a.filename == name).unwrap_or_else(|| panic!("{answer:#?}"));
    let record = tafl_rules::otn::GameRecord::parse(&String::from_utf8_lossy(&file.data)).expect("an OTN record");
    record.replay().expect("the record replays")
}

/// How many times a bot has registered its commands.
fn registrations(fake: &FakeDiscord) -> usize {
    fake.requests().iter().filter(|r| r.method == "PUT" && r.status == 200).count()
}

/// Waits until the bot has registered its commands `count` times in all: from then on it
/// answers interactions.
async fn wait_for_registrations(fake: &FakeDiscord, count: usize) {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(15);
    while registrations(fake) < count {
        assert!(tokio::time::Instant::now() < deadline, "the bot did not register its commands again");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// Gives the delivery task a moment for `done` (an old notice being deleted) before asserting.
/// Waits until a request after the `from`-th found again the message an earlier try made, whose
/// answer was lost: a look among `channel`'s messages (the next try of such an item looks there
/// first), or a post matching `post` that Discord answered, by its nonce, with the message made.
async fn found_again_since(fake: &FakeDiscord, from: usize, channel: u64, post: impl Fn(&Recorded) -> bool) {
    let listing = format!("/api/v10/channels/{channel}/messages");
    let found = |r: &Recorded| r.status == 200 && ((r.method == "GET" && r.path == listing) || post(r));
    wait_a_little_for(|| fake.requests().get(from..).is_some_and(|after| after.iter().any(found))).await;
    assert!(fake.requests()[from..].iter().any(found), "the message made was not looked for again");
}

async fn wait_a_little_for(done: impl Fn() -> bool) {
    for _ in 0..100 {
        if done() {
            return;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}
