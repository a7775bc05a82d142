//! Many games against the bot at once, with two people playing each other meanwhile (issue 14's
//! load scenario), shared by the end-to-end test (which checks that every move is answered) and
//! the benchmark (which prints the people's move latency and the bot's memory).

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use serde_json::json;
use tafl_rules::engine::Level;
use tafl_rules::{Game, Position, Status, Variant};

use crate::fake_discord::{FakeDiscord, PATIENCE, StoredMessage};
use crate::harness::{Player, Table};

/// What a load run saw.
#[derive(Debug, Default)]
pub struct LoadReport {
    /// Games against the bot started.
    pub games: usize,
    /// Moves the bot played, counted from the boards.
    pub bot_moves: usize,
    /// Moves the people against the bot played.
    pub player_moves: usize,
    /// The time from each move of the two people playing each other to the bot's answer.
    pub people_latencies: Vec<Duration>,
    pub elapsed: Duration,
}

/// A player of the load, numbered.
fn player(n: usize) -> Player {
    Player { id: 3_100_000_000_000_000_000 + n as u64, name: Box::leak(format!("L{n}").into_boxed_str()) }
}

const PEOPLE_CHANNEL: u64 = 1_710_000_000_000_000_000;

fn channel_of(game: usize) -> u64 {
    1_710_000_000_000_000_001 + game as u64
}

/// `plies` random legal moves of Copenhagen that do not end the game.
fn random_moves(seed: u64, plies: usize) -> Vec<String> {
    let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    loop {
        let mut game = Game::new(Position::new(Variant::Copenhagen.rules()).expect("a preset"));
        while game.ply() < plies && game.status() == Status::Ongoing {
            let moves = game.position().legal_moves();
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            game.play(moves[(state % moves.len() as u64) as usize]).expect("a legal move");
        }
        if game.status() == Status::Ongoing {
            return game.moves().iter().map(|m| m.mv.to_string()).collect();
        }
    }
}

/// Waits until a board of `game` shows `ply` plies (its picture is named after the ply).
async fn board_at(fake: &FakeDiscord, patience: Duration, channel: u64, game: i64, ply: usize) -> StoredMessage {
    let name = format!("game-{game}-{ply}.png");
    fake.wait_for_message_within(patience, &format!("game {game}'s board at ply {ply}"), |m| {
        m.channel_id == channel && m.attachments.iter().any(|a| a.filename == name)
    })
    .await
}

/// Starts `games` games against the bot at `level` (the bot has the attackers and moves
/// first), all at once, then plays `rounds` moves in each, every player thinking between none
/// and twice `think` after the bot's move (none: back to back); meanwhile two people play each
/// other a move every 100 ms. Everyone's client speaks `locale` (a Discord locale, such as
/// `en-US` or `ru`). Each wait fails the run (a panic) if the bot does not answer within the
/// fake's patience.
pub async fn run(
    fake: &'static FakeDiscord,
    games: usize,
    rounds: usize,
    level: i64,
    think: Duration,
    locale: &'static str,
) -> LoadReport {
    let mut report = LoadReport { games, ..LoadReport::default() };
    let people = Table { fake, channel: PEOPLE_CHANNEL, locale };
    let (a, b) = (player(0), player(1));
    let challenge =
        people.command(a, "challenge", &json!({ "opponent": b.id, "variant": "copenhagen", "side": 0 }), &[b]);
    let card = fake.wait_for_original(&challenge).await;
    let accept = card.custom_ids().into_iter().find(|id| id.starts_with("tafl:accept:")).expect("an Accept button");
    let _ = people.click(b, &card, &accept, None);
    let board = fake.wait_for_message("the people's board", |m| m.id == card.id && m.edits > 0).await;
    // The game named in its controls (`tafl:piece:GAME:PLY`): a run may leave games in the channel.
    let people_game: i64 = board
        .custom_ids()
        .iter()
        .find_map(|id| id.strip_prefix("tafl:piece:")?.split(':').next()?.parse().ok())
        .expect("the people's game on its board");

    let started = Instant::now();
    // Every challenge at once: fifty searches queue up behind the cores.
    let mut pushed = Vec::with_capacity(games);
    for g in 0..games {
        let table = Table { fake, channel: channel_of(g), locale };
        let options = json!({ "variant": "copenhagen", "side": 1, "level": level, "rated": false });
        pushed.push(table.command(player(2 + g), "challenge", &options, &[]));
    }
    let mut ids = Vec::with_capacity(games);
    for interaction in &pushed {
        let answer = fake.wait_for_original(interaction).await;
        // `Game #12 against…` / `Партия №12 началась…`
        let id: i64 = answer
            .content
            .split(['#', '№'])
            .nth(1)
            .and_then(|rest| rest.split_whitespace().next())
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("a game number in {:?}", answer.content));
        ids.push(id);
    }

    // Every game's bot move may wait for all the others' searches (one search thread here): give
    // each wait that long, twice over, and never less than the fake's own patience.
    let level_time = Level::new(u8::try_from(level).unwrap_or(1))
        .map_or(Duration::ZERO, |l| Duration::from_millis(l.budget().millis));
    let patience = (level_time * 2 * u32::try_from(games).unwrap_or(u32::MAX)).max(PATIENCE);
    let done = Arc::new(AtomicBool::new(false));
    let probe = {
        let done = done.clone();
        tokio::spawn(async move { people_play(fake, [a, b], people_game, locale, &done).await })
    };
    let tasks: Vec<_> = ids
        .iter()
        .enumerate()
        .map(|(g, &id)| tokio::spawn(async move { play_the_bot(fake, g, id, rounds, think, locale, patience).await }))
        .collect();
    for task in tasks {
        let (bot, mine) = task.await.expect("a game's task");
        report.bot_moves += bot;
        report.player_moves += mine;
    }
    report.elapsed = started.elapsed();
    done.store(true, Ordering::Relaxed);
    report.people_latencies = probe.await.expect("the people's task");
    report
}

/// One game against the bot: waits for each of its moves, answers with the first legal move
/// the autocomplete offers; returns the moves of the bot and of the player.
async fn play_the_bot(
    fake: &'static FakeDiscord,
    g: usize,
    game: i64,
    rounds: usize,
    think: Duration,
    locale: &'static str,
    patience: Duration,
) -> (usize, usize) {
    let channel = channel_of(g);
    let table = Table { fake, channel, locale };
    let me = player(2 + g);
    let (mut bot, mut mine) = (0, 0);
    for round in 0..rounds {
        let ply = 1 + 2 * round;
        board_at(fake, patience, channel, game, ply).await;
        bot += 1;
        if !think.is_zero() {
            // Spread over the games, so that fifty players do not all move at one instant.
            let mut h =
                (game as u64 ^ (ply as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            h ^= h >> 31;
            tokio::time::sleep(think.mul_f64(2.0 * (h % 1000) as f64 / 1000.0)).await;
        }
        let typed = table.autocomplete(me, "move", &json!({ "game": game }), "notation", "");
        fake.wait_for("the move choices", |r| r.path == typed.callback_path()).await;
        let choices = fake.autocomplete_choices(&typed).expect("choices");
        let mv = choices.first().map(|(_, value)| value.clone()).expect("a legal move");
        let played = table.command(me, "move", &json!({ "notation": mv, "game": game }), &[]);
        let answer = fake.wait_for_answer(&played).await;
        assert!(answer.content.starts_with(table.says("You played", "Вы сыграли")), "game {game}: {}", answer.content);
        mine += 1;
    }
    // The bot's answer to the last move.
    board_at(fake, patience, channel, game, 2 * rounds + 1).await;
    (bot + 1, mine)
}

/// The two people's game: a move every 100 ms until `done`, each timed from its push on the
/// gateway to the bot's answer reaching the fake.
async fn people_play(
    fake: &'static FakeDiscord,
    players: [Player; 2],
    game: i64,
    locale: &'static str,
    done: &AtomicBool,
) -> Vec<Duration> {
    let table = Table { fake, channel: PEOPLE_CHANNEL, locale };
    let moves = random_moves(11, 400);
    let mut latencies = Vec::new();
    for (ply, mv) in moves.iter().enumerate() {
        if done.load(Ordering::Relaxed) {
            break;
        }
        let started = Instant::now();
        let played = table.command(players[ply % 2], "move", &json!({ "notation": mv, "game": game }), &[]);
        let answer = fake.wait_for_answer(&played).await;
        let answered = fake.answered_at(&played).expect("the answer was recorded");
        assert!(answer.content.starts_with(table.says("You played", "Вы сыграли")), "{}", answer.content);
        latencies.push(answered.saturating_duration_since(started));
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    latencies
}

/// The quantile `q` (0 to 1) of sorted durations, in milliseconds.
#[must_use]
pub fn quantile_ms(sorted: &[Duration], q: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    sorted[((sorted.len() - 1) as f64 * q).round() as usize].as_secs_f64() * 1000.0
}
