//! Games against the bot through the real bot and the fake Discord (issue 14): challenging the
//! bot starts a game at once, every move of the player is answered by a board edit with the
//! bot's move, refusals are one sentence in the caller's language, and hints are drawn.

use serde_json::json;
use tafl_e2e::bot_load;
use tafl_e2e::fake_discord::{APPLICATION_ID, FakeDiscord, StoredMessage};
use tafl_e2e::harness::{ALICE, BOB, BotProcess, CHANNEL, Player, Table, TestBot, temp_dir};

/// The bot itself, as a player that can be named in a user option.
const THE_BOT: Player = Player { id: APPLICATION_ID, name: "tafl" };

async fn served(name: &str) -> (FakeDiscord, TestBot, std::path::PathBuf) {
    let fake = FakeDiscord::start().await;
    let dir = temp_dir(name);
    let bot = TestBot::start(&fake, &dir);
    fake.wait_until_ready().await;
    (fake, bot, dir)
}

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

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn challenging_the_bot_starts_a_game_at_once_and_it_answers_every_move_on_the_board() {
    let (fake, bot, _dir) = served("bot-game").await;
    let table = Table { fake: &fake, channel: CHANNEL, locale: "en-US" };
    let challenge = table.command(
        ALICE,
        "challenge",
        &json!({ "opponent": THE_BOT.id, "variant": "brandubh", "side": 1, "level": 1 }),
        &[THE_BOT],
    );
    let answer = fake.wait_for_original(&challenge).await;
    assert!(answer.is_ephemeral(), "{answer:#?}");
    assert!(answer.content.contains("Game #1 against **Tafl bot (level 1)** has started"), "{}", answer.content);
    // The bot has the attackers and moves first: its move arrives on the board by itself.
    let board = board_at(&fake, 1, 1).await;
    assert!(board.text().contains("Tafl bot (level 1)"), "{}", board.text());
    assert!(!board.text().contains("<@-1>"), "the bot is never mentioned as a user: {}", board.text());
    for n in 0..3 {
        let ply = 1 + 2 * n;
        let mv = a_legal_move(&table, ALICE, 1).await;
        let played = table.command(ALICE, "move", &json!({ "notation": mv }), &[]);
        let answer = fake.wait_for_original(&played).await;
        assert!(answer.content.starts_with("You played"), "{}", answer.content);
        let after = board_at(&fake, 1, ply + 2).await;
        assert_eq!(after.id, board.id, "the bot's answer edits the same board");
    }
    // No notice ever told the bot it was its move.
    let notices: Vec<String> = fake.messages_in(CHANNEL).iter().map(|m| m.content.clone()).collect();
    assert!(notices.iter().all(|c| !c.contains("<@-")), "{notices:#?}");
    // `level` alone starts a game too, at once.
    let second = table.command(BOB, "challenge", &json!({ "variant": "brandubh", "side": 0, "level": 2 }), &[]);
    let answer = fake.wait_for_original(&second).await;
    assert!(answer.content.contains("Game #2"), "{}", answer.content);
    board_at(&fake, 2, 0).await;
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
            "Only games against the bot can be unrated",
        ),
    ] {
        let refused = table.command(ALICE, "challenge", &options, &users);
        let answer = fake.wait_for_original(&refused).await;
        assert!(answer.is_ephemeral(), "{answer:#?}");
        assert!(answer.content.contains(words), "{options}: {}", answer.content);
        assert!(answer.content.matches(['.', ';']).count() <= 2, "one sentence: {}", answer.content);
    }
    assert!(
        fake.messages_in(CHANNEL).iter().all(StoredMessage::is_ephemeral),
        "nothing public was posted: {:#?}",
        fake.messages_in(CHANNEL)
    );
    bot.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hint_in_an_unrated_game_against_the_bot_is_a_private_picture_and_refused_elsewhere() {
    let (fake, bot, _dir) = served("bot-hint").await;
    let table = Table { fake: &fake, channel: CHANNEL, locale: "en-US" };
    let rated = table.command(ALICE, "challenge", &json!({ "variant": "brandubh", "side": 0, "level": 1 }), &[]);
    fake.wait_for_original(&rated).await;
    let refused = table.command(ALICE, "hint", &json!({ "game": 1 }), &[]);
    let answer = fake.wait_for_original(&refused).await;
    assert!(answer.is_ephemeral() && answer.content.contains("Hints are not given in rated games"), "{answer:#?}");

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
    assert!(answer.text().contains("The engine would play `"), "{}", answer.text());
    let picture = answer.attachments.iter().find(|a| a.filename == "hint-2-0.png").expect("the hint's picture");
    assert!(picture.data.starts_with(b"\x89PNG"));
    // The suggested move is legal: play it.
    let text = answer.text();
    let mv = text.split('`').nth(1).expect("the move in backticks").to_owned();
    let played = table.command(ALICE, "move", &json!({ "notation": mv, "game": 2 }), &[]);
    let answer = fake.wait_for_original(&played).await;
    assert!(answer.content.starts_with("You played"), "{}", answer.content);
    board_at(&fake, 2, 2).await;
    bot.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fifty_games_against_the_bot_at_once_are_all_answered_while_two_people_play() {
    let fake: &'static FakeDiscord = Box::leak(Box::new(FakeDiscord::start().await));
    let dir = temp_dir("bot-load");
    let bot = TestBot::start(fake, &dir);
    fake.wait_until_ready().await;
    // Level 1 keeps the test short; the benchmark measures the same at higher levels.
    let report = bot_load::run(fake, 50, 2, 1, std::time::Duration::ZERO).await;
    assert_eq!(report.games, 50);
    assert_eq!(report.player_moves, 100, "every player's move was accepted");
    assert_eq!(report.bot_moves, 150, "every bot move arrived on its board, in every game");
    assert!(!report.people_latencies.is_empty(), "the people played meanwhile");
    bot.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bot_killed_while_it_searches_plays_its_move_after_a_restart() {
    let fake = FakeDiscord::start_tls().await;
    let dir = temp_dir("bot-kill");
    let binary = std::path::Path::new(env!("CARGO_BIN_EXE_tafl-bot-e2e"));
    let process = BotProcess::spawn(binary, &fake, &dir);
    fake.wait_until_ready().await;
    let table = Table { fake: &fake, channel: CHANNEL, locale: "en-US" };
    // Level 5 thinks for 4.5 s: time enough to kill the process in the middle of its search.
    let challenge = table.command(ALICE, "challenge", &json!({ "variant": "copenhagen", "side": 1, "level": 5 }), &[]);
    fake.wait_for_original(&challenge).await;
    board_at(&fake, 1, 0).await;
    process.kill();
    let moved = fake.all_messages().iter().any(|m| m.attachments.iter().any(|a| a.filename == "game-1-1.png"));
    assert!(!moved, "the bot had not moved yet when it was killed");

    let connections = fake.connections();
    let process = BotProcess::spawn(binary, &fake, &dir);
    fake.wait_for_connections(connections + 1).await;
    let board = board_at(&fake, 1, 1).await;
    assert!(board.text().contains("Tafl bot (level 5)"), "{}", board.text());
    process.kill();
    let _ = std::fs::remove_dir_all(&dir);
}
