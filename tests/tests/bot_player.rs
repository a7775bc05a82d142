//! Games against the bot through the real bot and the fake Discord (issue 14): challenging the
//! bot starts a game at once, every move of the player is answered by a board edit with the
//! bot's move, refusals are one sentence in the caller's language, and hints are drawn. The
//! game, the hint, the load and the restarts run in English and in Russian.

use serde_json::json;
use tafl_e2e::bot_load;
use tafl_e2e::fake_discord::{APPLICATION_ID, FakeDiscord, Fault, Recorded, StoredMessage};
use tafl_e2e::harness::{
    ALICE, BOB, BotProcess, CHANNEL, LOCALES, Player, Table, TestBot, let_time_pass, served, stored_ply, temp_dir,
};
use tafl_e2e::in_english_and_russian;

in_english_and_russian!(
    challenging_the_bot_starts_a_game_at_once_and_it_answers_every_move_on_the_board,
    a_hint_in_an_unrated_game_against_the_bot_is_a_private_picture_and_refused_elsewhere,
    a_timed_game_survives_the_bot_being_down_past_its_deadline_and_the_bot_is_never_reminded,
    games_against_the_bot_at_once_are_all_answered_while_two_people_play,
    a_bot_killed_while_it_searches_plays_its_move_after_a_restart,
);

/// The Latin words that belong in a Russian run: people's names, and the export's format.
const NOT_ENGLISH: &[&str] = &["Alice", "Bob", "OTN", "OpenTafl"];

/// The bot itself, as a player that can be named in a user option.
const THE_BOT: Player = Player { id: APPLICATION_ID, name: "tafl" };

/// Waits until the board of `game` shows `ply` plies (its picture is named after the ply).
async fn board_at(fake: &FakeDiscord, game: i64, ply: usize) -> StoredMessage {
    let name = format!("game-{game}-{ply}.png");
    fake.wait_for_message(&format!("game {game}'s board at ply {ply}"), |m| {
        !m.is_ephemeral() && m.attachments.iter().any(|a| a.filename == name)
    })
    .await
}

/// A legal move for `player` now, from the move autocomplete.
async fn a_legal_move(table: &Table<'_>, player: Player, game: i64) -> String {
    let typed = table.autocomplete(player, "move", &json!({ "game": game }), "notation", "");
    table.fake.wait_for("the move choices", |r| r.path == typed.callback_path()).await;
    let choices = table.fake.autocomplete_choices(&typed).expect("choices");
    choices.first().map(|(_, value)| value.clone()).expect("a legal move")
}

async fn challenging_the_bot_starts_a_game_at_once_and_it_answers_every_move_on_the_board(locale: &'static str) {
    let (fake, bot, _dir) = served("bot-game").await;
    let table = Table { fake: &fake, channel: CHANNEL, locale };
    let challenge = table.command(
        ALICE,
        "challenge",
        &json!({ "opponent": THE_BOT.id, "variant": "brandubh", "side": 1, "level": 1 }),
        &[THE_BOT],
    );
    let answer = fake.wait_for_original(&challenge).await;
    assert!(answer.is_ephemeral(), "{answer:#?}");
    let started = table.says(
        "Game #1 against **Tafl bot (level 1)** has started",
        "Партия №1 началась, ваш соперник — **Тафл-бот (уровень 1)**",
    );
    assert!(answer.content.contains(started), "{}", answer.content);
    // The bot has the attackers and moves first: its move arrives on the board by itself.
    let board = board_at(&fake, 1, 1).await;
    let name = table.says("Tafl bot (level 1)", "Тафл-бот (уровень 1)");
    assert!(board.text().contains(name), "{}", board.text());
    assert!(!board.text().contains("<@-1>"), "the bot is never mentioned as a user: {}", board.text());
    for n in 0..3 {
        let ply = 1 + 2 * n;
        let mv = a_legal_move(&table, ALICE, 1).await;
        let played = table.command(ALICE, "move", &json!({ "notation": mv }), &[]);
        let answer = fake.wait_for_original(&played).await;
        assert!(answer.content.starts_with(table.says("You played", "Вы сыграли")), "{}", answer.content);
        let after = board_at(&fake, 1, ply + 2).await;
        assert_eq!(after.id, board.id, "the bot's answer edits the same board");
    }
    // No notice ever told the bot it was its move.
    let notices: Vec<String> = fake.messages_in(CHANNEL).iter().map(|m| m.content.clone()).collect();
    assert!(notices.iter().all(|c| !c.contains("<@-")), "{notices:#?}");
    // `level` alone starts a game too, at once.
    let second = table.command(BOB, "challenge", &json!({ "variant": "brandubh", "side": 0, "level": 2 }), &[]);
    let answer = fake.wait_for_original(&second).await;
    assert!(answer.content.contains(table.says("Game #2", "Партия №2")), "{}", answer.content);
    board_at(&fake, 2, 0).await;
    // A draw offered to the bot at the start is declined at once, and the private answer names
    // the bot as the one who declined (it named the player who offered).
    let offer = table.command(BOB, "draw", &json!({ "game": 2 }), &[]);
    let answer = fake.wait_for_original(&offer).await;
    let declined = table.says(
        "**Tafl bot (level 2)** declines the draw in game #2.",
        "**Тафл-бот (уровень 2)** отклоняет ничью в партии №2.",
    );
    assert!(answer.is_ephemeral() && answer.content == declined, "{}", answer.content);
    table.assert_no_english(NOT_ENGLISH);
    bot.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_challenges_of_the_bot_get_one_sentence_in_the_callers_language() {
    let (fake, bot, _dir) = served("bot-refusals").await;
    let english = Table { fake: &fake, channel: CHANNEL, locale: "en-US" };
    let russian = Table { fake: &fake, channel: CHANNEL, locale: "ru" };
    for (table, options, users, words) in [
        (&english, json!({ "level": 9 }), vec![], "There is no bot level 9; choose a level from 1 to 5."),
        (&russian, json!({ "level": 0 }), vec![], "Уровня бота 0 нет; выберите уровень от 1 до 5."),
        (&english, json!({ "opponent": BOB.id, "level": 3 }), vec![BOB], "A level is for games against the bot"),
        (&russian, json!({ "opponent": BOB.id, "level": 3 }), vec![BOB], "Уровень задаётся только для партии с ботом"),
        (
            &english,
            json!({ "opponent": BOB.id, "rated": false }),
            vec![BOB],
            "Only games against the bot can be unrated; leave rated:false out, or add a level, like level:1,",
        ),
        // The options named as the Russian client shows them, not as the console types them.
        (
            &russian,
            json!({ "opponent": BOB.id, "rated": false }),
            vec![BOB],
            "уберите рейтинговая:false или укажите уровень, например уровень:1,",
        ),
    ] {
        let refused = table.command(ALICE, "challenge", &options, &users);
        let answer = fake.wait_for_original(&refused).await;
        assert!(answer.is_ephemeral(), "{answer:#?}");
        assert!(answer.content.contains(words), "{options}: {}", answer.content);
        assert!(answer.content.matches(['.', ';']).count() <= 2, "one sentence: {}", answer.content);
    }
    // Another bot cannot play; this one can, and the refusal says so.
    let other_bot = Player { id: 2_000_000_000_000_000_099, name: "Dice" };
    for (table, words) in [
        (&english, "Other bots cannot play; challenge a person or this bot itself,"),
        (&russian, "Другие боты не играют; вызовите человека или самого этого бота"),
    ] {
        let mut payload = table.command_payload(ALICE, "challenge", &json!({ "opponent": other_bot.id }), &[other_bot]);
        payload["data"]["resolved"]["users"][other_bot.id.to_string()]["bot"] = json!(true);
        let refused = fake.push_interaction(payload);
        let answer = fake.wait_for_original(&refused).await;
        assert!(answer.is_ephemeral() && answer.content.contains(words), "{}", answer.content);
    }
    // The bot's own user plays as its five levels: its profile or games point to them.
    for (table, command, words) in [
        (
            &english,
            "profile",
            ["The bot plays at five levels, each with its own rating and games", "against_bot:true."],
        ),
        (&russian, "games", ["Бот играет на пяти уровнях, у каждого свои рейтинг и партии", "против_бота:true."]),
    ] {
        let asked = table.command(ALICE, command, &json!({ "user": THE_BOT.id }), &[THE_BOT]);
        let answer = fake.wait_for_original(&asked).await;
        assert!(answer.is_ephemeral(), "{answer:#?}");
        assert!(words.iter().all(|w| answer.content.contains(w)), "{command}: {}", answer.content);
    }
    assert!(
        fake.messages_in(CHANNEL).iter().all(StoredMessage::is_ephemeral),
        "nothing public was posted: {:#?}",
        fake.messages_in(CHANNEL)
    );
    bot.stop().await;
}

async fn a_hint_in_an_unrated_game_against_the_bot_is_a_private_picture_and_refused_elsewhere(locale: &'static str) {
    let (fake, bot, _dir) = served("bot-hint").await;
    let table = Table { fake: &fake, channel: CHANNEL, locale };
    let rated = table.command(ALICE, "challenge", &json!({ "variant": "brandubh", "side": 0, "level": 1 }), &[]);
    fake.wait_for_original(&rated).await;
    let refused = table.command(ALICE, "hint", &json!({ "game": 1 }), &[]);
    let answer = fake.wait_for_original(&refused).await;
    let no_hints = table.says("Hints are not given in rated games", "В рейтинговых партиях подсказок нет");
    assert!(answer.is_ephemeral() && answer.content.contains(no_hints), "{answer:#?}");
    let how = table.says("with rated:false to get them", "начните партию с ботом, указав рейтинговая:false.");
    assert!(answer.content.contains(how), "the option as the client shows it: {}", answer.content);

    let casual = table.command(
        ALICE,
        "challenge",
        &json!({ "variant": "brandubh", "side": 0, "level": 1, "rated": false }),
        &[],
    );
    fake.wait_for_original(&casual).await;
    let hint = table.command(ALICE, "hint", &json!({ "game": 2 }), &[]);
    let answer = fake.wait_for_original(&hint).await;
    assert!(answer.is_ephemeral(), "{answer:#?}");
    assert!(answer.text().contains(table.says("The engine would play `", "Движок сыграл бы `")), "{}", answer.text());
    let picture = answer.attachments.iter().find(|a| a.filename == "hint-2-0.png").expect("the hint's picture");
    assert!(picture.data.starts_with(b"\x89PNG"));
    // The suggested move is legal: play it.
    let text = answer.text();
    let mv = text.split('`').nth(1).expect("the move in backticks").to_owned();
    let played = table.command(ALICE, "move", &json!({ "notation": mv, "game": 2 }), &[]);
    let answer = fake.wait_for_original(&played).await;
    assert!(answer.content.starts_with(table.says("You played", "Вы сыграли")), "{}", answer.content);
    board_at(&fake, 2, 2).await;

    // A hint asked for, and a move typed while the engine thinks about it (half a second): the
    // hint would be about a position that is gone, so it is refused (as stale, or, when the
    // move came before the hint's first check, as not Alice's turn).
    let export = table.command(ALICE, "export", &json!({ "game": 2 }), &[]);
    let record = fake.wait_for_original(&export).await;
    let record = String::from_utf8_lossy(&record.attachments[0].data).into_owned();
    let game = tafl_rules::otn::GameRecord::parse(&record).expect("a record").replay().expect("it replays");
    assert_eq!(game.ply(), 2, "Alice to move after the bot's reply");
    let legal = game.position().legal_moves()[0].to_string();
    let hint = table.command(ALICE, "hint", &json!({ "game": 2 }), &[]);
    let typed = table.command(ALICE, "move", &json!({ "notation": legal, "game": 2 }), &[]);
    let moved = fake.wait_for_original(&typed).await;
    assert!(moved.content.starts_with(table.says("You played", "Вы сыграли")), "{moved:#?}");
    let answer = fake.wait_for_original(&hint).await;
    let changed = table.says("The board has changed since", "Доска уже изменилась");
    let not_yours = table.says("It is not your turn", "Сейчас не ваш ход");
    assert!(
        answer.is_ephemeral()
            && answer.attachments.is_empty()
            && (answer.content.starts_with(changed) || answer.content.starts_with(not_yours)),
        "{answer:#?}"
    );

    // A hint asked for, and the game resigned while the engine thinks: the moves are the same,
    // but a finished game gets no hint (refused after the search, or before it when the
    // resignation came first).
    board_at(&fake, 2, 4).await;
    let hint = table.command(ALICE, "hint", &json!({ "game": 2 }), &[]);
    let resigned = table.command(ALICE, "resign", &json!({ "game": 2 }), &[]);
    fake.wait_for_original(&resigned).await;
    let answer = fake.wait_for_original(&hint).await;
    let over = table.says("Game #2 is over", "Партия №2 уже окончена");
    assert!(answer.is_ephemeral() && answer.attachments.is_empty() && answer.content.starts_with(over), "{answer:#?}");
    table.assert_no_english(NOT_ENGLISH);
    bot.stop().await;
}

/// A hint answers "thinking" first (the search waits behind other searches), and that deferral
/// is an answer like any other: a server error on it is retried, and a retry refused as
/// "already acknowledged" (the first try reached Discord, only its reply was lost) counts as
/// deferred, so the hint fills the "thinking" message. Deferred once with no retry, the first
/// fault answered "Something went wrong" and the second left the hint "thinking" for good.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hint_whose_thinking_answer_discord_fails_or_loses_is_still_shown() {
    let (fake, bot, _dir) = served("bot-hint-deferral").await;
    let table = Table { fake: &fake, channel: CHANNEL, locale: "en-US" };
    let casual = table.command(
        ALICE,
        "challenge",
        &json!({ "variant": "brandubh", "side": 0, "level": 1, "rated": false }),
        &[],
    );
    fake.wait_for_original(&casual).await;
    board_at(&fake, 1, 0).await;
    for (fault, statuses) in [(Fault::ServerError(500), [500, 204]), (Fault::AppliedThenServerError(500), [500, 400])] {
        let payload = table.command_payload(ALICE, "hint", &json!({ "game": 1 }), &[]);
        let deferral = tafl_e2e::fake_discord::callback_path_of(&payload);
        let is_deferral = move |r: &Recorded| r.path == deferral;
        fake.fail_next(is_deferral.clone(), 1, fault);
        let hint = fake.push_interaction(payload);
        let answer = fake.wait_for_original(&hint).await;
        assert!(answer.is_ephemeral(), "{fault:?}: {answer:#?}");
        assert!(answer.text().contains("The engine would play `"), "{fault:?}: {}", answer.text());
        assert!(answer.attachments.iter().any(|a| a.filename == "hint-1-0.png"), "{fault:?}: {answer:#?}");
        let tried: Vec<u16> = fake.requests().iter().filter(|r| is_deferral(r)).map(|r| r.status).collect();
        assert_eq!(tried, statuses, "{fault:?}: the deferral failed once and was tried again");
    }
    bot.stop().await;
}

/// The bot's turns have no clock, so on a reserve clock the board states the person's reserve
/// alone. Each reply of the bot was banked as a turn of no time, and the board showed its
/// reserve growing by the time per move: 1 hour, 2 hours, 3 hours.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn on_a_reserve_clock_the_board_states_the_persons_reserve_and_none_for_the_bot() {
    let (fake, bot, _dir) = served("bot-reserve").await;
    let table = Table { fake: &fake, channel: CHANNEL, locale: "en-US" };
    let options = json!({ "variant": "brandubh", "side": 0, "level": 1, "clock": "1h+1d" });
    fake.wait_for_original(&table.command(ALICE, "challenge", &options, &[])).await;
    board_at(&fake, 1, 0).await;
    for ply in [2, 4, 6] {
        let mv = a_legal_move(&table, ALICE, 1).await;
        fake.wait_for_original(&table.command(ALICE, "move", &json!({ "notation": mv }), &[])).await;
        let board = board_at(&fake, 1, ply).await;
        let text = board.text();
        let reserves: Vec<&str> = text.lines().filter(|line| line.starts_with("Reserve:")).collect();
        assert!(reserves.len() == 1 && reserves[0].ends_with(" for the attackers"), "ply {ply}: {text}");
        assert!(!text.contains("for the defenders"), "ply {ply}: {text}");
    }
    bot.stop().await;
}

/// Fifty games against the bot at once in English: the load itself. The Russian run plays ten,
/// enough to see every word the load shows (the same boards, answers and cards) in Russian
/// without doubling the suite's longest test; the fifty are the English run's job.
async fn games_against_the_bot_at_once_are_all_answered_while_two_people_play(locale: &'static str) {
    let games = if locale == LOCALES[0] { 50 } else { 10 };
    let fake: &'static FakeDiscord = Box::leak(Box::new(FakeDiscord::start().await));
    let dir = temp_dir("bot-load");
    let bot = TestBot::start(fake, &dir);
    fake.wait_until_ready().await;
    // Level 1 keeps the test short; the benchmark measures the same at higher levels.
    let report = bot_load::run(fake, games, 2, 1, std::time::Duration::ZERO, locale).await;
    assert_eq!(report.games, games);
    assert_eq!(report.player_moves, 2 * games, "every player's move was accepted");
    assert_eq!(report.bot_moves, 3 * games, "every bot move arrived on its board, in every game");
    assert!(!report.people_latencies.is_empty(), "the people played meanwhile");
    // The load's players are `L0`, `L1`…: names, not words.
    Table { fake, channel: CHANNEL, locale }.assert_no_english(NOT_ENGLISH);
    bot.stop().await;
}

async fn a_bot_killed_while_it_searches_plays_its_move_after_a_restart(locale: &'static str) {
    let fake = FakeDiscord::start_tls().await;
    let dir = temp_dir("bot-kill");
    let binary = std::path::Path::new(env!("CARGO_BIN_EXE_tafl-bot-e2e"));
    let process = BotProcess::spawn(binary, &fake, &dir);
    fake.wait_until_ready().await;
    let table = Table { fake: &fake, channel: CHANNEL, locale };
    // Level 5 thinks for 4.5 s: time enough to kill the process in the middle of its search.
    let challenge = table.command(ALICE, "challenge", &json!({ "variant": "copenhagen", "side": 1, "level": 5 }), &[]);
    fake.wait_for_original(&challenge).await;
    board_at(&fake, 1, 0).await;
    process.kill();
    // Not stored either: the move after the restart is searched again, not merely delivered.
    assert_eq!(stored_ply(&dir, 1).await, 0, "the bot had not moved yet when it was killed");

    let connections = fake.connections();
    let process = BotProcess::spawn(binary, &fake, &dir);
    fake.wait_for_connections(connections + 1).await;
    let board = board_at(&fake, 1, 1).await;
    let name = table.says("Tafl bot (level 5)", "Тафл-бот (уровень 5)");
    assert!(board.text().contains(name), "{}", board.text());
    table.assert_no_english(NOT_ENGLISH);
    process.kill();
    let _ = std::fs::remove_dir_all(&dir);
}

/// The bot's turns have no clock (issue 14): a process killed while the bot searches, and down
/// until long after the time per move, must not cost the bot the game on time, and nobody
/// reminds the bot. The scheduler's first tick after the restart comes at once, seconds before
/// the level-5 search can answer, so a bot turn that still had a deadline would be timed out.
async fn a_timed_game_survives_the_bot_being_down_past_its_deadline_and_the_bot_is_never_reminded(
    locale: &'static str,
) {
    let fake = FakeDiscord::start_tls().await;
    let dir = temp_dir("bot-down-timed");
    let binary = std::path::Path::new(env!("CARGO_BIN_EXE_tafl-bot-e2e"));
    let process = BotProcess::spawn(binary, &fake, &dir);
    fake.wait_until_ready().await;
    let table = Table { fake: &fake, channel: CHANNEL, locale };
    // Alice attacks with an hour per move; level 5 thinks for 4.5 s.
    let options = json!({ "variant": "copenhagen", "side": 0, "level": 5, "clock": "1h" });
    let challenge = table.command(ALICE, "challenge", &options, &[]);
    fake.wait_for_original(&challenge).await;
    for ply in [0, 2] {
        board_at(&fake, 1, ply).await;
        let mv = a_legal_move(&table, ALICE, 1).await;
        let played = table.command(ALICE, "move", &json!({ "notation": mv }), &[]);
        let answer = fake.wait_for_original(&played).await;
        assert!(answer.content.starts_with(table.says("You played", "Вы сыграли")), "{}", answer.content);
    }
    board_at(&fake, 1, 3).await;
    process.kill();
    assert_eq!(stored_ply(&dir, 1).await, 3, "the bot had not moved yet when it was killed");
    // Down for two hours: the turn began two hours ago and its hour ran out an hour ago.
    let_time_pass(&dir, 1, 2 * 3600, -3600).await;

    let connections = fake.connections();
    let process = BotProcess::spawn(binary, &fake, &dir);
    fake.wait_for_connections(connections + 1).await;
    let board = board_at(&fake, 1, 4).await;
    assert!(!board.custom_ids().is_empty(), "the game goes on: {}", board.text());
    assert!(board.text().contains(table.says("⏰ Time runs out", "⏰ Время хода истекает")), "{}", board.text());
    let over = fake.all_messages().iter().any(|m| m.attachments.iter().any(|a| a.filename == "game-1.gif"));
    assert!(!over, "no summary: the bot did not lose on time");
    let texts: Vec<String> = fake.all_messages().iter().map(StoredMessage::text).collect();
    assert!(texts.iter().all(|t| !t.contains("<@-")), "nobody mentions the bot: {texts:#?}");
    table.assert_no_english(NOT_ENGLISH);
    process.kill();
    let _ = std::fs::remove_dir_all(&dir);
}

/// The palette (`PLTE` chunk) of an indexed PNG: every picture of one theme has the same one.
fn palette(png: &[u8]) -> Vec<u8> {
    let mut at = 8;
    while at + 8 <= png.len() {
        let len = u32::from_be_bytes(png[at..at + 4].try_into().unwrap()) as usize;
        if &png[at + 4..at + 8] == b"PLTE" {
            return png[at + 8..at + 8 + len].to_vec();
        }
        at += 12 + len;
    }
    panic!("no palette in the picture")
}

/// A hint is a private picture for the one who asked, like the private board of `/tafl board`,
/// which is drawn in the reader's own style (`/tafl settings theme orientation`). A player who
/// chose the high-contrast theme (low vision, a phone in sunlight) gets the hint in it too.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hint_is_drawn_in_the_askers_own_board_style() {
    let (fake, bot, _dir) = served("bot-hint-style").await;
    let table = Table { fake: &fake, channel: CHANNEL, locale: "en-US" };
    let picture = |message: &StoredMessage| message.attachments.first().expect("a picture").data.clone();
    let casual = table.command(
        ALICE,
        "challenge",
        &json!({ "variant": "brandubh", "side": 0, "level": 1, "rated": false }),
        &[],
    );
    fake.wait_for_original(&casual).await;
    let board = board_at(&fake, 1, 0).await;
    // Alice turns on the high-contrast theme; her own board shows it.
    let set = table.command(ALICE, "settings", &json!({ "theme": 1 }), &[]);
    assert!(fake.wait_for_original(&set).await.content.contains("high-contrast"));
    let asked = table.command(ALICE, "board", &json!({ "game": 1 }), &[]);
    assert!(fake.wait_for_original(&asked).await.is_ephemeral());
    let hers = fake.wait_for_message("Alice's board", |m| m.id > board.id && !m.attachments.is_empty()).await;
    assert!(palette(&picture(&hers)) != palette(&picture(&board)), "her board is in her theme");
    let hint = table.command(ALICE, "hint", &json!({ "game": 1 }), &[]);
    let answer = fake.wait_for_original(&hint).await;
    let drawn = answer.attachments.iter().find(|a| a.filename == "hint-1-0.png").expect("the hint's picture");
    assert!(palette(&drawn.data) == palette(&picture(&hers)), "the hint is drawn in Alice's theme, as her board is");
    bot.stop().await;
}
