//! How the bot answers interactions when Discord fails around them (an answer lost or refused
//! after the work was done, a read-back that fails once, a follow-up whose reply is lost), clicks
//! racing on one board with faults thrown in (seeded), and odd input. Most of these came from an
//! outside review, and each failed on the code it was written against.

use std::time::Duration;

use serde_json::{Value, json};
use tafl_e2e::fake_discord::{Fault, Recorded, StoredMessage};
use tafl_e2e::harness::{ALICE, BOB, CHANNEL, Rng, Table, private_answer, served};

/// The bot's one-sentence "something went wrong; please try again", in `locale`.
fn internal_refusal(locale: &str) -> String {
    let lang = tafl_bot::present::Lang::discord(Some(locale));
    tafl_bot::present::text::refusal(tafl_bot::present::text::Refusal::Internal, lang)
}

async fn db(dir: &std::path::Path) -> tafl_bot::store::Db {
    tafl_bot::store::Db::open(&format!("sqlite://{}", dir.join("tafl.db").display())).await.unwrap()
}

/// Matches every request about the interaction of `payload` (its callback, its webhook).
fn about(payload: &Value) -> impl Fn(&Recorded) -> bool + Clone + Send + Sync + 'static {
    let id = format!("/api/v10/interactions/{}/", payload["id"].as_str().expect("an id"));
    let token = format!("/{}", payload["token"].as_str().expect("a token"));
    move |r: &Recorded| r.path.starts_with(&id) || (r.path.starts_with("/api/v10/webhooks/") && r.path.contains(&token))
}

/// The challenge card is the command's answer; the bot then reads it back
/// (`GET …/messages/@original`) to record which message it is, and that read is retried as
/// every answer is. One server error on it still leaves the card recorded, so that when the
/// challenge expires a day later the card says so and loses its buttons. Read once (poise's
/// `ReplyHandle::message`), the card was never recorded and offered Accept and Decline for good.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_challenge_card_whose_read_back_fails_once_is_closed_when_its_challenge_expires() {
    let (fake, bot, dir) = served("audit-card-read-back").await;
    let table = Table { fake: &fake, channel: CHANNEL, locale: "en-US" };
    let payload =
        table.command_payload(ALICE, "challenge", &json!({ "opponent": BOB.id, "variant": "brandubh" }), &[BOB]);
    let requests = about(&payload);
    let read_back = move |r: &Recorded| requests(r) && r.method == "GET" && r.path.ends_with("/messages/@original");
    fake.fail_next(read_back.clone(), 1, Fault::ServerError(500));
    let card = fake.wait_for_original(&fake.push_interaction(payload)).await;
    assert!(card.has_control("tafl:accept:1"), "the card is shown: {card:#?}");
    fake.wait_for("the bot's read of its card", read_back).await;
    tokio::time::sleep(Duration::from_millis(500)).await;

    // A day passes: the challenge expires, and its card should say so, without buttons.
    let db = db(&dir).await;
    sqlx::query("UPDATE challenges SET expires_at = expires_at - 86400 - 1").execute(db.pool()).await.unwrap();
    let mut closed = false;
    for _ in 0..60 {
        let state: String =
            sqlx::query_scalar("SELECT state FROM challenges WHERE id = 1").fetch_one(db.pool()).await.unwrap();
        closed = state == "expired" && fake.message(card.id).is_some_and(|m| m.custom_ids().is_empty());
        if closed {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let state: String =
        sqlx::query_scalar("SELECT state FROM challenges WHERE id = 1").fetch_one(db.pool()).await.unwrap();
    let card = fake.message(card.id).expect("the card");
    db.close().await;
    bot.stop().await;
    assert_eq!(state, "expired");
    assert!(
        closed,
        "the challenge expired, but its card still offers it as open: {:?} {:?}",
        card.text(),
        card.custom_ids()
    );
}

/// `/tafl board` (by a player) and `/tafl settings` (with changes) change something, then
/// answer. When Discord refuses every try of that answer (three 500s), the change stands (the
/// new board is posted, the settings are saved) and the player is not told "Something went
/// wrong on our side; please try again" once Discord is back: the answer is left unsaid and
/// logged, as `/tafl move`'s is (`send_after_change`). Answered with `?`, the refusal reached
/// `on_error`, which called the change a failure.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_board_or_settings_change_whose_answer_discord_refuses_is_not_called_a_failure() {
    let (fake, bot, _dir) = served("audit-board-unanswered").await;
    let table = Table { fake: &fake, channel: CHANNEL, locale: "en-US" };
    let board = table.start_brandubh().await;
    let refused_every_try = |answer: &dyn Fn(&Recorded) -> bool| {
        let tries: Vec<u16> = fake.requests().iter().filter(|r| answer(r)).map(|r| r.status).collect();
        tries.len() >= 3 && tries[..3].iter().all(|&status| status == 500)
    };

    // `/tafl board`: every try of its answer refused; a later request would get through.
    let payload = table.command_payload(ALICE, "board", &json!({}), &[]);
    let asked = about(&payload);
    fake.fail_next(asked.clone(), 3, Fault::ServerError(500));
    let _ = fake.push_interaction(payload);
    let posted = fake
        .wait_for_message("the new board", |m| m.id != board.id && m.has_control("tafl:piece:1:0") && !m.is_ephemeral())
        .await;
    assert_eq!(posted.channel_id, CHANNEL);

    // `/tafl settings dm:true`: saved, every try of its answer refused.
    let payload = table.command_payload(BOB, "settings", &json!({ "dm": true }), &[]);
    let saved = about(&payload);
    fake.fail_next(saved.clone(), 3, Fault::ServerError(500));
    let _ = fake.push_interaction(payload);

    for answer in [&asked as &dyn Fn(&Recorded) -> bool, &saved] {
        for _ in 0..100 {
            if fake.requests().iter().filter(|r| answer(r)).count() >= 3 {
                break;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
    tokio::time::sleep(Duration::from_millis(1500)).await;
    assert!(refused_every_try(&asked) && refused_every_try(&saved), "the faults were met");
    let failure = internal_refusal("en-US");
    let said: Vec<(u64, String)> = fake
        .all_messages()
        .into_iter()
        .filter(|m| m.content.contains(&failure))
        .map(|m| (m.interaction.unwrap_or(0), m.content))
        .collect();
    bot.stop().await;
    assert!(said.is_empty(), "a change that was made is called a failure: {said:?}");
}

/// A click kept waiting for the board is acknowledged, and its refusal is a follow-up
/// (`Click::follow_up`). A follow-up is a new message every time Discord takes it, so when
/// Discord makes it and its reply is lost (a 500 on the way back), it is not sent again: the
/// player reads the refusal once. Edits and callbacks are retried (a callback retried is refused
/// as already acknowledged); a follow-up only when it never reached Discord. Retried on the 500,
/// it was shown twice.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_follow_up_whose_reply_is_lost_is_shown_once() {
    let (fake, bot, _dir) = served("audit-follow-up-twice").await;
    let table = Table { fake: &fake, channel: CHANNEL, locale: "en-US" };
    let board = table.start_brandubh().await;
    let click = table.click(ALICE, &board, "tafl:piece:1:0", Some("d2"));
    let menu = fake.wait_for_answer(&click).await;

    // The first press's answer is slow, so the second press is acknowledged, waits, and is
    // refused by a follow-up; Discord makes that follow-up and answers the bot with a 500.
    fake.fail_next(|r| r.path.ends_with("/callback"), 1, Fault::Slow { millis: 2_000 });
    let first = table.click(ALICE, &menu, "tafl:to:1:0:d2", Some("d2-c2"));
    fake.wait_for_slow_requests(1).await;
    let mut payload = fake.component(&menu, "tafl:to:1:0:d2", &["d2-c2"], ALICE.id);
    payload["locale"] = json!("en-US");
    payload["guild_locale"] = json!("en-US");
    let token = format!("/{}", payload["token"].as_str().unwrap());
    let follow_up =
        move |r: &Recorded| r.method == "POST" && r.path.starts_with("/api/v10/webhooks/") && r.path.ends_with(&token);
    fake.fail_next(follow_up.clone(), 1, Fault::AppliedThenServerError(500));
    let second = fake.push_interaction(payload);
    fake.wait_for("the refusal's follow-up", follow_up).await;
    assert!(!fake.wait_for_answer(&first).await.is_ephemeral(), "the first press moved");
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let refusals: Vec<String> = fake
        .all_messages()
        .into_iter()
        .filter(|m| m.interaction == Some(second.id) && m.is_ephemeral())
        .map(|m| m.content)
        .collect();
    bot.stop().await;
    assert_eq!(refusals.len(), 1, "the second press is refused once: {refusals:#?}");
}

/// What one racing interaction was, for the failure messages.
#[derive(Debug, Clone)]
struct Racer {
    what: String,
    interaction: tafl_e2e::fake_discord::Interaction,
}

/// The game `id` as the database has it: ply, status, and the moves replayed.
async fn stored_game(db: &tafl_bot::store::Db, id: i64) -> (i64, String, tafl_rules::Game) {
    let (ply, status): (i64, String) =
        sqlx::query_as("SELECT ply, status FROM games WHERE id = $1").bind(id).fetch_one(db.pool()).await.unwrap();
    let moves: Vec<String> = sqlx::query_scalar("SELECT notation FROM moves WHERE game_id = $1 ORDER BY ply")
        .bind(id)
        .fetch_all(db.pool())
        .await
        .unwrap();
    let mut game = tafl_rules::Game::new(tafl_rules::Position::new(tafl_rules::Variant::Brandubh.rules()).unwrap());
    for mv in &moves {
        game.play_text(&mv.parse().unwrap()).unwrap();
    }
    (ply, status, game)
}

/// Whether `message` is the board of game `id` drawn at `ply`, with controls when `live`.
fn board_shows(message: &StoredMessage, id: i64, ply: i64, live: bool) -> bool {
    let picture = format!("game-{id}-{ply}.png");
    let drawn = message.attachments.iter().any(|a| a.filename == picture);
    let controls = message.custom_ids();
    let menus = controls.iter().any(|c| {
        ["piece", "to", "back"].iter().any(|kind| {
            c.strip_prefix(&format!("tafl:{kind}:{id}:"))
                .is_some_and(|rest| rest.split(['.', ':']).next() == Some(&ply.to_string()))
        })
    });
    drawn && if live { menus } else { controls.is_empty() }
}

/// Random races of clicks (and a typed move) on one board, with Discord faults thrown in: the
/// player to move picks a destination while, at the same moment, the same destination is picked
/// again, another move is typed, either player confirms a resignation, the opponent offers a
/// draw or asks to take back, and a stranger picks a move. Afterwards: every interaction was
/// answered (none left to "This interaction failed", none told "Something went wrong"), at most
/// one move landed, and the board shows the game as the database has it.
///
/// `TAFL_AUDIT_SEED=N` repeats a run.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn random_races_on_one_board_answer_everyone_once_and_leave_the_board_as_the_game_stands() {
    use tafl_e2e::harness::EVE;
    let seed = std::env::var("TAFL_AUDIT_SEED").ok().and_then(|s| s.parse().ok()).unwrap_or_else(|| {
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_nanos() as u64
    }) | 1;
    println!("randomized race test: seed {seed} (rerun with TAFL_AUDIT_SEED={seed})");
    let rounds: usize = std::env::var("TAFL_AUDIT_ROUNDS").ok().and_then(|s| s.parse().ok()).unwrap_or(24);
    let mut rng = Rng(seed);
    let (fake, bot, dir) = served("audit-random-races").await;
    let table = Table { fake: &fake, channel: CHANNEL, locale: "en-US" };
    let db = db(&dir).await;
    let failure = internal_refusal("en-US");
    let mut games = 0i64;
    let mut board: Option<StoredMessage> = None;
    let mut log: Vec<String> = Vec::new();
    for round in 0..rounds {
        fake.clear_faults();
        if board.is_some() {
            let (_, status, _) = stored_game(&db, games).await;
            if status != "ongoing" {
                board = None;
            }
        }
        if board.is_none() {
            board = Some(table.start_brandubh().await);
            games += 1;
        }
        let id = games;
        let board_id = board.as_ref().unwrap().id;
        let (ply, _, game) = stored_game(&db, id).await;
        let here = format!("seed {seed}, round {round}, game {id} at ply {ply}");
        let to_move = game.position().to_move();
        let (mover, other) = if to_move == tafl_rules::Side::Attackers { (ALICE, BOB) } else { (BOB, ALICE) };
        let shown = fake
            .wait_for_message(&format!("the live board ({here})"), |m| {
                m.id == board_id && board_shows(m, id, ply, true)
            })
            .await;
        let legal = game.position().legal_moves();
        let mv = legal[rng.below(legal.len())];
        let from = mv.to_string().split('-').next().unwrap().to_owned();
        // The mover opens the destinations of the piece.
        let Ok(open) = table.try_click(mover, &shown, &format!("tafl:piece:{id}:{ply}"), Some(&from)) else {
            continue;
        };
        let menu = fake.wait_for_answer(&open).await;
        if menu.is_ephemeral() {
            log.push(format!("{here}: the menu was refused: {}", menu.content));
            continue;
        }
        let menu = fake.message(board_id).unwrap();
        let to = format!("tafl:to:{id}:{ply}");
        let Some(to) = menu.custom_ids().into_iter().find(|c| c.starts_with(&to)) else { continue };
        let destinations: Vec<String> =
            menu.select_options(&to).into_iter().map(|(_, v)| v).filter(|v| !v.starts_with("page:")).collect();
        let mut payloads: Vec<(String, Value)> = Vec::new();
        let pick = |player: tafl_e2e::harness::Player, value: &str| {
            let mut payload = fake.component(&menu, &to, &[value], player.id);
            payload["locale"] = json!("en-US");
            payload["guild_locale"] = json!("en-US");
            payload
        };
        let chosen = mv.to_string();
        let chosen = if destinations.contains(&chosen) { chosen } else { destinations[0].clone() };
        payloads.push((format!("{} picks {chosen}", mover.name), pick(mover, &chosen)));
        // Resignation questions are asked before the race; their confirmations race.
        let mut extra = 1 + rng.below(3);
        while extra > 0 {
            extra -= 1;
            match rng.below(7) {
                0 => payloads.push((format!("{} picks {chosen} again", mover.name), pick(mover, &chosen))),
                1 => {
                    let another = destinations[rng.below(destinations.len())].clone();
                    payloads.push((format!("{} picks {another}", mover.name), pick(mover, &another)));
                }
                2 => {
                    let typed = legal[rng.below(legal.len())].to_string();
                    let mut payload =
                        table.command_payload(mover, "move", &json!({ "notation": typed, "game": id }), &[]);
                    payload["guild_locale"] = json!("en-US");
                    payloads.push((format!("{} types {typed}", mover.name), payload));
                }
                3 | 4 => {
                    let who = if rng.below(2) == 0 { mover } else { other };
                    let Ok(ask) = table.try_click(who, &menu, &format!("tafl:resign:{id}:{ply}"), None) else {
                        continue;
                    };
                    let question = fake.wait_for_answer(&ask).await;
                    let Ok(mut payload) =
                        fake.try_component(&question, &format!("tafl:resign-yes:{id}:{ply}"), &[], who.id)
                    else {
                        continue;
                    };
                    payload["locale"] = json!("en-US");
                    payload["guild_locale"] = json!("en-US");
                    payloads.push((format!("{} confirms resigning", who.name), payload));
                }
                5 => {
                    let kind = if rng.below(2) == 0 { "draw" } else { "takeback" };
                    let Ok(mut payload) = fake.try_component(&menu, &format!("tafl:{kind}:{id}:{ply}"), &[], other.id)
                    else {
                        continue;
                    };
                    payload["locale"] = json!("en-US");
                    payload["guild_locale"] = json!("en-US");
                    payloads.push((format!("{} offers a {kind}", other.name), payload));
                }
                6 if rng.below(2) == 0 => {
                    let who = if rng.below(2) == 0 { mover } else { other };
                    let mut payload = table.command_payload(who, "board", &json!({ "game": id }), &[]);
                    payload["guild_locale"] = json!("en-US");
                    payloads.push((format!("{} asks for the board anew", who.name), payload));
                }
                _ => payloads.push((format!("Eve picks {chosen}"), pick(EVE, &chosen))),
            }
        }
        // A fault for one of them, or for the board's edits.
        match rng.below(5) {
            0 => {
                let (_, payload) = &payloads[rng.below(payloads.len())];
                let path = tafl_e2e::fake_discord::callback_path_of(payload);
                fake.fail_next(move |r| r.path == path, 1, Fault::AppliedThenServerError(500));
            }
            1 => {
                // A click's or a typed command's answer, its refusal included.
                let (_, payload) = &payloads[rng.below(payloads.len())];
                let path = tafl_e2e::fake_discord::callback_path_of(payload);
                fake.fail_next(move |r| r.path == path, 1, Fault::ServerError(500));
            }
            2 => {
                let edit = format!("/messages/{board_id}");
                let millis = 300 + 300 * rng.below(5) as u64;
                fake.fail_next(move |r| r.method == "PATCH" && r.path.ends_with(&edit), 1, Fault::Slow { millis });
            }
            _ => {}
        }
        // Shuffled, then pushed together.
        for i in (1..payloads.len()).rev() {
            payloads.swap(i, rng.below(i + 1));
        }
        let racers: Vec<Racer> = payloads
            .into_iter()
            .map(|(what, payload)| Racer { what, interaction: fake.push_interaction(payload) })
            .collect();
        let names: Vec<&str> = racers.iter().map(|r| r.what.as_str()).collect();
        log.push(format!("{here}: {names:?}"));
        for racer in &racers {
            let mut answered = false;
            for _ in 0..200 {
                answered = fake.answered_at(&racer.interaction).is_some();
                if answered {
                    break;
                }
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
            let tries: Vec<u16> = fake
                .requests()
                .iter()
                .filter(|r| r.path == racer.interaction.callback_path())
                .map(|r| r.status)
                .collect();
            assert!(
                answered,
                "{here}: {} was never answered (its callbacks: {tries:?})\n{}",
                racer.what,
                log.join("\n")
            );
        }
        // Refusals that come as follow-ups, and the delivery, settle.
        tokio::time::sleep(Duration::from_millis(700)).await;
        let (after, status, _) = stored_game(&db, id).await;
        assert!(after == ply || after == ply + 1, "{here}: the race left the game at ply {after}\n{}", log.join("\n"));
        let live = status == "ongoing";
        let with_controls = |m: &StoredMessage| {
            !m.deleted
                && !m.is_ephemeral()
                && m.custom_ids().iter().any(|c| c.starts_with("tafl:") && c.split(':').nth(2) == Some(&id.to_string()))
        };
        let mut board_id = board_id;
        let settled = tokio::time::timeout(Duration::from_secs(10), async {
            loop {
                let stored: Option<i64> =
                    sqlx::query_scalar("SELECT message_id FROM board_messages WHERE game_id = $1")
                        .bind(id)
                        .fetch_optional(db.pool())
                        .await
                        .unwrap();
                if let Some(stored) = stored {
                    board_id = stored as u64;
                }
                let others = fake.all_messages().into_iter().filter(|m| m.id != board_id && with_controls(m)).count();
                if others == 0 && fake.message(board_id).is_some_and(|m| board_shows(&m, id, after, live)) {
                    return;
                }
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
        })
        .await;
        let now = fake.message(board_id).unwrap();
        let others: Vec<(u64, Vec<String>)> = fake
            .all_messages()
            .into_iter()
            .filter(|m| m.id != board_id && with_controls(m))
            .map(|m| (m.id, m.custom_ids()))
            .collect();
        if let Some(shown) = &mut board {
            *shown = now.clone();
        }
        assert!(
            settled.is_ok(),
            "{here}: the board does not show the game as stored (ply {after}, {status}): {:?} {:?}; other boards with controls: {others:?}\n{}",
            now.attachments.iter().map(|a| &a.filename).collect::<Vec<_>>(),
            now.custom_ids(),
            log.join("\n")
        );
        for racer in &racers {
            let said: Vec<String> = fake
                .all_messages()
                .into_iter()
                .filter(|m| m.interaction == Some(racer.interaction.id) && m.is_ephemeral())
                .map(|m| m.content)
                .collect();
            assert!(
                said.iter().all(|s| !s.contains(&failure)),
                "{here}: {} was told something went wrong: {said:?}\n{}",
                racer.what,
                log.join("\n")
            );
            assert!(
                said.len() <= 1,
                "{here}: {} was answered {} times: {said:#?}\n{}",
                racer.what,
                said.len(),
                log.join("\n")
            );
            // A click acknowledged first (a deferred update) must be answered afterwards: by the
            // edit of its board, or by a private follow-up.
            let token = format!("/{}", racer.interaction.token);
            let requests = fake.requests();
            let deferred = requests.iter().any(|r| {
                r.path == racer.interaction.callback_path()
                    && r.status < 300
                    && r.json.as_ref().is_some_and(|j| j["type"] == 6)
            });
            let followed = requests.iter().any(|r| {
                r.path.starts_with("/api/v10/webhooks/")
                    && r.path.contains(&token)
                    && r.status < 300
                    && r.method != "GET"
            });
            assert!(
                !deferred || followed,
                "{here}: {} was acknowledged and then never answered\n{}",
                racer.what,
                log.join("\n")
            );
        }
    }
    fake.clear_faults();
    println!("{}", log.join("\n"));
    db.close().await;
    bot.stop().await;
}

/// A typed command that is refused (here a badly written move) is answered by `on_error`,
/// retried as a click's refusal (`Click::refuse`) and every command's own answer are: one server
/// error from Discord and the refusal still reaches the player. Sent once, it left them with
/// "The application did not respond" (found by the randomized race test, seed
/// 1796678429767085387 with `TAFL_AUDIT_ROUNDS=40`).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_refused_command_is_answered_after_one_server_error() {
    let (fake, bot, _dir) = served("audit-refusal-retried").await;
    let table = Table { fake: &fake, channel: CHANNEL, locale: "en-US" };
    table.start_brandubh().await;
    let payload = table.command_payload(ALICE, "move", &json!({ "notation": "zz-top" }), &[]);
    let path = tafl_e2e::fake_discord::callback_path_of(&payload);
    let callback = path.clone();
    fake.fail_next(move |r| r.path == callback, 1, Fault::ServerError(500));
    let typed = fake.push_interaction(payload);
    let mut answered = false;
    for _ in 0..60 {
        answered = fake.answered_at(&typed).is_some();
        if answered {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let tries: Vec<u16> = fake.requests().iter().filter(|r| r.path == path).map(|r| r.status).collect();
    bot.stop().await;
    assert!(answered, "the refusal of a badly written move never reached the player: its tries {tries:?}");
}

/// Huge and odd option values get a private answer within Discord's limits, change nothing, and
/// panic nothing.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn huge_and_odd_command_options_are_refused_privately() {
    let (fake, bot, dir) = served("audit-odd-options").await;
    let table = Table { fake: &fake, channel: CHANNEL, locale: "en-US" };
    table.start_brandubh().await;
    let huge = "\u{202e}x\u{0}y`@everyone <@&1>".repeat(300);
    let cases = [
        ("move", json!({ "notation": huge.clone() })),
        ("move", json!({ "notation": "a1-a2", "game": 999_999 })),
        ("move", json!({ "notation": "a1-a2", "game": -5 })),
        ("board", json!({ "game": 0 })),
        ("resign", json!({ "game": 999_999 })),
        ("draw", json!({ "game": 999_999 })),
        ("challenge", json!({ "opponent": BOB.id, "variant": huge.clone() })),
        ("challenge", json!({ "opponent": BOB.id, "variant": "brandubh", "options": huge.clone() })),
        ("challenge", json!({ "opponent": BOB.id, "variant": "brandubh", "clock": huge.clone() })),
        ("challenge", json!({ "opponent": BOB.id, "variant": "brandubh", "level": 99 })),
        ("leaderboard", json!({ "variant": huge.clone() })),
        ("rules", json!({ "variant": huge.clone() })),
        ("summary", json!({ "game": 999_999 })),
        ("export", json!({ "game": i64::MAX })),
    ];
    for (command, options) in cases {
        let users = if options.get("opponent").is_some() { vec![BOB] } else { vec![] };
        let asked = table.command(ALICE, command, &options, &users);
        let answer = private_answer(&fake, &asked).await;
        assert!(!answer.is_empty() && answer.chars().count() <= 2000, "{command}: {answer}");
        assert!(!answer.contains(&internal_refusal("en-US")), "{command} {options}: {answer}");
    }
    let db = db(&dir).await;
    let (challenges, ply): (i64, i64) = (
        sqlx::query_scalar("SELECT count(*) FROM challenges").fetch_one(db.pool()).await.unwrap(),
        sqlx::query_scalar("SELECT ply FROM games WHERE id = 1").fetch_one(db.pool()).await.unwrap(),
    );
    db.close().await;
    bot.stop().await;
    assert_eq!((challenges, ply), (1, 0), "nothing changed");
}
