//! A Russian server, end to end: players whose clients speak Russian on a server whose locale is
//! Russian play a game with refusals, offers, a takeback, a reminder, a time-out, the summary
//! and `/tafl games`, and everything the bot shows them is Russian.

use serde_json::json;
use tafl_e2e::fake_discord::FakeDiscord;
use tafl_e2e::harness::{ALICE, BOB, CHANNEL, EVE, Table, TestBot, let_time_pass, private_answer, temp_dir};

/// Names and notation that are Latin letters in any language.
const NOT_ENGLISH: &[&str] = &["Alice", "Bob", "Eve", "OTN", "hello"];

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_russian_server_plays_a_whole_game_in_russian() {
    let fake = FakeDiscord::start().await;
    let dir = temp_dir("russian");
    let bot = TestBot::start(&fake, &dir);
    fake.wait_until_ready().await;
    let server = Table { fake: &fake, channel: CHANNEL, locale: "ru" };

    // The challenge card is public, in the server's language, with Russian buttons.
    let challenge = server.command(
        ALICE,
        "challenge",
        &json!({ "opponent": BOB.id, "variant": "brandubh", "side": 0, "clock": "1d" }),
        &[BOB],
    );
    let card = fake.wait_for_original(&challenge).await;
    assert!(card.text().contains("Вызов №1: Брандубх"), "{}", card.text());
    assert!(card.text().contains("Время на ход: 1 день"), "{}", card.text());
    let labels: Vec<String> = card.button_labels().into_iter().map(|(label, _)| label).collect();
    assert_eq!(labels, ["Принять", "Отклонить"]);

    // Someone else may not accept it.
    let stranger = server.click(EVE, &card, "tafl:accept:1", None);
    let refused = private_answer(&fake, &stranger).await;
    assert!(refused.starts_with("Вызов №1 адресован игроку Bob"), "{refused}");

    let accept = server.click(BOB, &card, "tafl:accept:1", None);
    let board = fake.wait_for_answer(&accept).await;
    assert!(board.text().contains("Брандубх · партия №1"), "{}", board.text());
    assert!(board.text().contains(&format!("Ход 1: ходит <@{}>", ALICE.id)), "{}", board.text());
    assert!(board.text().contains("⏰ Время хода истекает <t:"), "{}", board.text());

    // Refusals: out of turn, bad notation, a blocked move.
    let early = server.command(BOB, "move", &json!({ "notation": "d5-c5" }), &[]);
    assert_eq!(private_answer(&fake, &early).await, "Сейчас не ваш ход: ходит Alice.");
    let bad = server.command(ALICE, "move", &json!({ "notation": "hello" }), &[]);
    assert_eq!(private_answer(&fake, &bad).await, "«hello» — не ход: в начале нет клетки; ходы пишут так: e1-e3.");
    let blocked = server.command(ALICE, "move", &json!({ "notation": "d1-d3" }), &[]);
    let blocked = private_answer(&fake, &blocked).await;
    assert!(blocked.starts_with("d1-d3: путь закрывает фигура на d2."), "{blocked}");
    assert!(blocked.contains("/тафл доска"), "the command named as Russian clients see it: {blocked}");

    // Moves, privately confirmed; the board follows.
    let played = server.command(ALICE, "move", &json!({ "notation": "d2-c2" }), &[]);
    assert_eq!(private_answer(&fake, &played).await, "Вы сыграли `d2-c2` в партии №1.");
    let played = server.command(BOB, "move", &json!({ "notation": "d3-c3" }), &[]);
    assert_eq!(private_answer(&fake, &played).await, "Вы сыграли `d3-c3` в партии №1.");

    // A draw offer, declined; a takeback, granted.
    // Each caller is answered privately in their own words; the opponent is told in public.
    let offer = server.command(ALICE, "draw", &json!({}), &[]);
    let offered = private_answer(&fake, &offer).await;
    assert_eq!(offered, format!("Вы предложили ничью в партии №1; <@{}> ответит на доске.", BOB.id));
    let notice =
        format!("<@{}>, <@{}> предлагает ничью в партии №1: примите или отклоните на доске.", BOB.id, ALICE.id);
    fake.wait_for_message("the offer's public notice", |m| m.content == notice && !m.is_ephemeral()).await;
    let decline = server.command(BOB, "draw", &json!({ "action": 2 }), &[]);
    assert_eq!(private_answer(&fake, &decline).await, "Вы отклонили ничью в партии №1.");
    let ask = server.command(BOB, "takeback", &json!({}), &[]);
    let asked = private_answer(&fake, &ask).await;
    assert_eq!(
        asked,
        format!("Вы попросили вернуть свой последний ход в партии №1; <@{}> ответит на доске.", ALICE.id)
    );
    let own = server.command(BOB, "takeback", &json!({ "action": 1 }), &[]);
    assert!(private_answer(&fake, &own).await.starts_with("Нельзя отвечать на собственную просьбу"));
    let grant = server.command(ALICE, "takeback", &json!({ "action": 1 }), &[]);
    let granted = private_answer(&fake, &grant).await;
    assert_eq!(granted, "Вы согласились: в партии №1 возвращён 1 полуход.");
    // Bob is told it is his move again, without Alice's old move read as a new one.
    let again = fake.wait_for_message("Bob's move again", |m| m.content.contains("после возврата хода")).await;
    assert_eq!(again.content, format!("<@{}>, ваш ход в партии №1 (Брандубх) после возврата хода.", BOB.id));
    let played = server.command(BOB, "move", &json!({ "notation": "d3-c3" }), &[]);
    assert_eq!(private_answer(&fake, &played).await, "Вы сыграли `d3-c3` в партии №1.");

    // /tafl games lists the game in Russian.
    let games = server.command(ALICE, "games", &json!({}), &[]);
    let list = fake.wait_for_original(&games).await;
    assert!(list.is_ephemeral());
    assert!(list.text().contains("Идёт 1 партия"), "{}", list.text());
    assert!(list.text().contains("Брандубх · соперник: Bob") && list.text().contains("**ваш ход**"), "{}", list.text());

    // Nobody is answering when the scheduler speaks: it uses the server's stored language.
    let_time_pass(&dir, 1, 13 * 3600, 11 * 3600).await;
    let reminder = fake.wait_for_message("the reminder", |m| m.content.contains("половина времени прошла")).await;
    assert!(reminder.content.starts_with(&format!("<@{}>, ваш ход в партии №1 (Брандубх)", ALICE.id)));
    let_time_pass(&dir, 1, 24 * 3600 + 1, -1).await;
    let summary =
        fake.wait_for_message("the summary", |m| m.attachments.iter().any(|a| a.filename == "game-1.gif")).await;
    assert!(summary.text().contains("Партия №1 — победа защитников: Bob"), "{}", summary.text());
    assert!(summary.text().contains("У игрока Alice (нападающие) кончилось время."), "{}", summary.text());
    let board = fake.wait_for_message("the final board", |m| m.id == card.id && m.custom_ids().is_empty()).await;
    assert!(board.text().contains("**Победа защитников** — Bob: у игрока Alice кончилось время"), "{}", board.text());

    // The summary again, on request.
    let again = server.command(BOB, "summary", &json!({ "game": 1 }), &[]);
    let again = fake.wait_for_original(&again).await;
    assert!(again.text().contains("Длительность:"), "{}", again.text());

    server.assert_no_english(NOT_ENGLISH);
    assert!(fake.unknown_requests().is_empty(), "{:#?}", fake.unknown_requests());
    bot.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_manager_chooses_the_servers_language_and_private_answers_keep_the_readers() {
    let fake = FakeDiscord::start().await;
    let dir = temp_dir("russian-settings");
    let bot = TestBot::start(&fake, &dir);
    fake.wait_until_ready().await;
    // A Russian-speaking server whose managers want English public messages; Alice reads Russian.
    let server = Table { fake: &fake, channel: CHANNEL, locale: "ru" };
    let set = server.manager_command(ALICE, "settings", &json!({ "language": "en" }));
    let shown = private_answer(&fake, &set).await;
    assert!(shown.starts_with("Сохранено."), "{shown}");
    let member = server.command(BOB, "settings", &json!({ "language": "ru" }), &[]);
    assert!(private_answer(&fake, &member).await.starts_with("Настройки сервера меняют только те"));
    assert!(shown.contains("Язык общих сообщений: English"), "{shown}");
    let unknown = server.manager_command(ALICE, "settings", &json!({ "language": "tlh" }));
    assert_eq!(private_answer(&fake, &unknown).await, "Бот не говорит на языке «tlh»; выберите язык из списка.");

    let challenge = server.command(ALICE, "challenge", &json!({ "opponent": BOB.id, "variant": "brandubh" }), &[BOB]);
    let card = fake.wait_for_original(&challenge).await;
    assert!(card.text().contains("Challenge #1: Brandubh"), "public words follow the chosen language: {}", card.text());
    let bad = server.command(ALICE, "move", &json!({ "notation": "hello" }), &[]);
    assert!(private_answer(&fake, &bad).await.starts_with("У вас нет партии в этом канале"));

    // Back to the server's own language.
    let auto = server.manager_command(ALICE, "settings", &json!({ "language": "auto" }));
    assert!(private_answer(&fake, &auto).await.contains("Язык общих сообщений: Русский (язык сервера)"));
    // A variant's Russian name typed instead of picked from the list is understood.
    let again = server.command(BOB, "challenge", &json!({ "opponent": ALICE.id, "variant": "таблут" }), &[ALICE]);
    assert!(fake.wait_for_original(&again).await.text().contains("Вызов №2: Таблут"));
    bot.stop().await;
}
