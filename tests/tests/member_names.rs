//! Players named as a server names them: a member's nickname there, which Discord carries in
//! every interaction from the server (the caller's, and those of the members a user option
//! names), names them on what the bot shows in that server: boards, notices, threads, summaries
//! and its leaderboard. Without one, and in another server, a DM or a global view, their display
//! name shows. Every scenario runs on an English server and on a Russian one.
//!
//! A board names its players in its picture. Whom a picture names is checked against the board
//! of the same position in a server where nobody has a nickname, between people whose display
//! names are the nicknames: drawn from the same names, the two pictures are the same bytes.

use serde_json::{Value, json};
use tafl_e2e::fake_discord::{FakeDiscord, GUILD, Interaction, StoredMessage, with_name};
use tafl_e2e::harness::{
    ALICE, BOB, CHANNEL, EVE, Player, Table, decisive_game, everything_shown, leave_untouched, private_answer, served,
};
use tafl_e2e::in_english_and_russian;
use tafl_rules::Variant;

/// Names and typed input, Latin letters in any language.
const NOT_ENGLISH: &[&str] = &["Alice", "Bob", "Eve", "OTN", "OpenTafl"];

/// A second server, where nobody has a nickname, and its channel.
const OTHER_GUILD: u64 = 1_600_000_000_000_000_002;
const OTHER_CHANNEL: u64 = 1_500_000_000_000_000_009;

/// People whose display names are the nicknames Alice and Bob get on the first server.
const SASHA: Player = Player { id: 2_000_000_000_000_000_011, name: "Саша" };
const SANYA: Player = Player { id: 2_000_000_000_000_000_012, name: "Саня" };
const KAPITAN: Player = Player { id: 2_000_000_000_000_000_013, name: "Капитан" };

in_english_and_russian!(
    a_nickname_names_its_player_on_the_board_thread_notice_and_summary_of_its_server,
    a_nickname_given_changed_or_removed_shows_on_the_next_board,
    a_servers_leaderboard_uses_its_nicknames_and_other_servers_and_dms_the_display_names,
);

/// Pushes `payload`, made at `table`: from [`OTHER_GUILD`] when `table` is its channel (a
/// table's commands come from [`GUILD`]).
fn push(table: &Table<'_>, mut payload: Value) -> Interaction {
    if table.channel == OTHER_CHANNEL {
        payload["guild_id"] = json!(OTHER_GUILD.to_string());
    }
    table.fake.push_interaction(payload)
}

/// `attacker` challenges `defender` at `table` to Brandubh as the attackers, and `defender`
/// accepts with the card's button: returns the board (the card, turned into the board).
async fn start_game(table: &Table<'_>, attacker: Player, defender: Player) -> StoredMessage {
    let fake = table.fake;
    let options = json!({ "opponent": defender.id, "variant": "brandubh", "side": 0 });
    let challenge = push(table, table.command_payload(attacker, "challenge", &options, &[defender]));
    let card = fake.wait_for_original(&challenge).await;
    let accept = card.button_labels().into_iter().find(|(label, _)| label == table.says("Accept", "Принять"));
    let click = table.click(defender, &card, &accept.expect("an Accept button").1, None);
    let board = fake.wait_for_answer(&click).await;
    assert_eq!(board.id, card.id, "one message per game");
    board
}

/// The game a board shows (its picture is named `game-{id}-{ply}.png`).
fn game_of(board: &StoredMessage) -> i64 {
    let name = &board.attachments[0].filename;
    name.split('-').nth(1).and_then(|id| id.parse().ok()).unwrap_or_else(|| panic!("a board's picture: {name}"))
}

/// A board's picture.
fn picture(board: &StoredMessage) -> &[u8] {
    &board.attachments[0].data
}

/// `player` plays `mv` on `board` by command at `table`; returns the board after it.
async fn play(table: &Table<'_>, board: &StoredMessage, player: Player, mv: &str) -> StoredMessage {
    let game = game_of(board);
    let options = json!({ "notation": mv.split('x').next().unwrap(), "game": game });
    let typed = push(table, table.command_payload(player, "move", &options, &[]));
    private_answer(table.fake, &typed).await;
    let plies = board_ply(board) + 1;
    let name = format!("game-{game}-{plies}.png");
    let id = board.id;
    table
        .fake
        .wait_for_message(&format!("the board at ply {plies}"), |m| {
            m.id == id && m.attachments.iter().any(|a| a.filename == name)
        })
        .await
}

/// The plies a board shows.
fn board_ply(board: &StoredMessage) -> usize {
    let name = &board.attachments[0].filename;
    let ply = name.trim_end_matches(".png").rsplit('-').next();
    ply.and_then(|ply| ply.parse().ok()).unwrap_or_else(|| panic!("a board's picture: {name}"))
}

/// Asserts that a board's picture is `expected`, a picture naming `names` (without printing
/// the two PNGs).
fn assert_names(picture: &[u8], expected: &[u8], names: &str) {
    assert!(picture == expected, "the board's picture does not name {names}");
}

/// `moves` played from the start by `attacker` and `defender` in a game of [`OTHER_GUILD`]:
/// the picture of its board after them, which names them by their display names.
async fn drawn_elsewhere(
    fake: &FakeDiscord,
    locale: &'static str,
    attacker: Player,
    defender: Player,
    moves: &[String],
) -> Vec<u8> {
    let there = Table { fake, channel: OTHER_CHANNEL, locale };
    let mut board = start_game(&there, attacker, defender).await;
    for (n, mv) in moves.iter().enumerate() {
        let player = if n % 2 == 0 { attacker } else { defender };
        board = play(&there, &board, player, mv).await;
    }
    picture(&board).to_vec()
}

async fn a_nickname_names_its_player_on_the_board_thread_notice_and_summary_of_its_server(locale: &'static str) {
    let (fake, bot, dir) = served("nick-everywhere").await;
    let table = Table { fake: &fake, channel: CHANNEL, locale };
    let threads = table.manager_command(EVE, "settings", &json!({ "threads": true }));
    private_answer(&fake, &threads).await;
    fake.set_nick(GUILD, ALICE.id, Some("Саша"));

    let board = start_game(&table, ALICE, BOB).await;
    assert_eq!(game_of(&board), 1);
    let first = picture(&board).to_vec();
    let begun = table.says("your move: game #1", "ваш ход: партия №1");
    let notice = fake.wait_for_message("Alice's first notice", |m| m.content.contains(begun)).await;
    let threads = fake.threads();
    assert_eq!(threads.len(), 1, "{threads:#?}");
    assert_eq!(threads[0].name, table.says("Саша vs Bob · Brandubh #1", "Саша — Bob · Брандубх №1"));
    assert_eq!(notice.channel_id, threads[0].id, "{notice:#?}");
    let board = play(&table, &board, ALICE, "d2-c2").await;
    let board = play(&table, &board, BOB, "d3-c3").await;
    let early = private_answer(&fake, &table.command(BOB, "claim", &json!({}), &[])).await;
    let got = table.says("In game #1, Саша got the move", "Ход в партии №1 перешёл к игроку Саша");
    assert!(early.starts_with(got), "{early}");

    // Two weeks and a day without a move: the notice, the summary and the final board say who.
    leave_untouched(&dir, 1, 15).await;
    let told = table.says("Саша has not moved in game #1", "ходов от игрока Саша в партии №1");
    let notice = fake.wait_for_message("the claim notice", |m| m.content.contains(told)).await;
    assert_eq!(notice.channel_id, threads[0].id, "{notice:#?}");
    let claimed = private_answer(&fake, &table.command(BOB, "claim", &json!({}), &[])).await;
    assert!(claimed.contains("Саша"), "{claimed}");
    let summary =
        fake.wait_for_message("the summary", |m| m.attachments.iter().any(|a| a.filename == "game-1.gif")).await;
    let left = table.says(
        "Саша (attackers) had not moved for 14 days, and the win was claimed.",
        "Ходов от игрока Саша (нападающие) не было 14 дней, и соперник забрал победу.",
    );
    assert!(summary.text().contains(left), "{}", summary.text());
    let record = summary.attachments.iter().find(|a| a.filename == "game-1.otn").expect("the record");
    let record = std::str::from_utf8(&record.data).unwrap();
    assert!(record.contains("[attackers:Саша]\n[defenders:Bob]"), "{record}");
    let board = fake.wait_for_message("the final board", |m| m.id == board.id && m.custom_ids().is_empty()).await;
    let left = table.says("Саша left the game unplayed", "партия брошена игроком Саша");
    assert!(board.text().contains(left), "{}", board.text());
    // Her display name is shown nowhere in the server: mentions name her as Discord does.
    let shown = everything_shown(&fake);
    assert!(!shown.contains("Alice"), "{shown}");
    table.assert_no_english(NOT_ENGLISH);

    // The first board's picture names her so too.
    assert_names(&first, &drawn_elsewhere(&fake, locale, SASHA, BOB, &[]).await, "Саша and Bob");
    bot.stop().await;
}

async fn a_nickname_given_changed_or_removed_shows_on_the_next_board(locale: &'static str) {
    let (fake, bot, _dir) = served("nick-changes").await;
    let table = Table { fake: &fake, channel: CHANNEL, locale };
    let (moves, _) = decisive_game(Variant::Brandubh, 40);
    fake.set_nick(GUILD, ALICE.id, Some("Саша"));
    let board = start_game(&table, ALICE, BOB).await;
    assert_names(picture(&board), &drawn_elsewhere(&fake, locale, SASHA, BOB, &[]).await, "Саша and Bob");

    // A new nickname comes with her next interaction, and the next board shows it.
    fake.set_nick(GUILD, ALICE.id, Some("Саня"));
    let board = play(&table, &board, ALICE, &moves[0]).await;
    assert_names(picture(&board), &drawn_elsewhere(&fake, locale, SANYA, BOB, &moves[..1]).await, "Саня and Bob");
    let board = play(&table, &board, BOB, &moves[1]).await;

    // Bob's comes with a command of Alice's that names him, before he says a word himself.
    fake.set_nick(GUILD, BOB.id, Some("Капитан"));
    let profile = table.command(ALICE, "profile", &json!({ "user": BOB.id }), &[BOB]);
    let profile = fake.wait_for_original(&profile).await;
    assert!(profile.text().starts_with("Капитан ("), "{}", profile.text());
    let board = play(&table, &board, ALICE, &moves[2]).await;
    let expected = drawn_elsewhere(&fake, locale, SANYA, KAPITAN, &moves[..3]).await;
    assert_names(picture(&board), &expected, "Саня and Капитан");

    // Removed, her display name is back from her next interaction.
    fake.set_nick(GUILD, ALICE.id, None);
    private_answer(&fake, &table.command(ALICE, "games", &json!({}), &[])).await;
    let board = play(&table, &board, BOB, &moves[3]).await;
    let expected = drawn_elsewhere(&fake, locale, ALICE, KAPITAN, &moves[..4]).await;
    assert_names(picture(&board), &expected, "Alice and Капитан");
    table.assert_no_english(NOT_ENGLISH);
    bot.stop().await;
}

async fn a_servers_leaderboard_uses_its_nicknames_and_other_servers_and_dms_the_display_names(locale: &'static str) {
    let (fake, bot, _dir) = served("nick-leaderboard").await;
    let table = Table { fake: &fake, channel: CHANNEL, locale };
    fake.set_nick(GUILD, ALICE.id, Some("Саша"));
    let board = start_game(&table, ALICE, BOB).await;
    let board = play(&table, &board, ALICE, "d2-c2").await;
    let board = play(&table, &board, BOB, "d3-c3").await;
    let ask = table.click(BOB, &board, "tafl:resign:1:2", None);
    let question = fake.wait_for_original(&ask).await;
    let _ = table.click(BOB, &question, "tafl:resign-yes:1:2", None);
    let summary =
        fake.wait_for_message("the summary", |m| m.attachments.iter().any(|a| a.filename == "game-1.gif")).await;
    let won = table.says("Саша wins with the attackers", "победа нападающих: Саша");
    assert!(summary.text().contains(won), "{}", summary.text());
    // Both her rating changes, this server's and the global one, are shown in the server.
    assert_eq!(summary.text().matches("Саша 1").count(), 2, "{}", summary.text());
    assert!(!summary.text().contains("Alice"), "{}", summary.text());

    let shown = |payload: Value| async {
        let asked = fake.push_interaction(payload);
        fake.wait_for_original(&asked).await.text()
    };
    let brandubh = json!({ "variant": "brandubh" });
    let here = shown(table.command_payload(EVE, "leaderboard", &brandubh, &[])).await;
    assert!(here.contains("Саша") && here.contains("Bob") && !here.contains("Alice"), "{here}");
    let global =
        shown(table.command_payload(EVE, "leaderboard", &json!({ "variant": "brandubh", "global": true }), &[]));
    let global = global.await;
    assert!(global.contains("Alice") && !global.contains("Саша"), "{global}");
    let own = shown(table.command_payload(ALICE, "profile", &json!({}), &[])).await;
    assert!(own.starts_with("Саша ("), "{own}");

    // In a DM, her name is her display name.
    let option = json!([{ "name": "variant", "type": 3, "value": "brandubh" }]);
    let dm = shown(with_name(fake.slash_command("tafl", "leaderboard", &option, ALICE.id, locale), ALICE.name)).await;
    assert!(dm.contains("Alice") && !dm.contains("Саша"), "{dm}");
    let dm = shown(with_name(fake.slash_command("tafl", "profile", &json!([]), ALICE.id, locale), ALICE.name)).await;
    assert!(dm.starts_with("Alice ("), "{dm}");

    // In a server where she has no nickname, her game names her by her display name.
    let there = Table { fake: &fake, channel: OTHER_CHANNEL, locale };
    let board = start_game(&there, ALICE, BOB).await;
    let game = game_of(&board);
    let export = push(&there, there.command_payload(ALICE, "export", &json!({ "game": game }), &[]));
    let export = fake.wait_for_original(&export).await;
    let record = export.attachments.iter().find(|a| a.filename == format!("game-{game}.otn")).expect("the record");
    let record = std::str::from_utf8(&record.data).unwrap();
    assert!(record.contains("[attackers:Alice]\n[defenders:Bob]"), "{record}");
    let sasha = drawn_elsewhere(&fake, locale, SASHA, BOB, &[]).await;
    assert!(picture(&board) != sasha.as_slice(), "the board there does not name her Саша");
    table.assert_no_english(NOT_ENGLISH);
    bot.stop().await;
}
