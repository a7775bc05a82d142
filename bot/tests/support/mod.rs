//! Helpers shared by the host, concurrency and console tests: temporary database files, a
//! snapshot of every table (to prove a refusal changed nothing), and short games found with the
//! rules engine.
#![allow(dead_code)]

use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};

use tafl_bot::host::{ChallengeRequest, Clock, GameView, Host, Place, SideChoice, User};
use tafl_bot::store::Db;
use tafl_rules::{Game, Position, Reason, Side, Status, Variant};

pub const NOW: i64 = 1_800_000_000;
pub const PLACE: Place = Place { guild: 1, channel: 2, thread: None };

pub fn alice() -> User {
    User::new(101, "alice")
}
pub fn bob() -> User {
    User::new(102, "bob")
}
pub fn carol() -> User {
    User::new(103, "carol")
}

/// A fresh, empty path for a database file, removed with its directory at the end of the run
/// by the OS's temp cleaning; unique per process and call.
pub fn temp_path(name: &str) -> PathBuf {
    static COUNTER: AtomicUsize = AtomicUsize::new(0);
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("tafl-bot-tests-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("the temp directory can be created");
    let path = dir.join(format!("{name}-{n}.db"));
    let _ = std::fs::remove_file(&path);
    path
}

/// A host on a fresh database file, opened exactly as the bot opens its own.
pub async fn host() -> Host {
    Host::new(Db::open_file(&temp_path("host")).await.expect("the database opens"))
}

/// Every row of every table as text, to compare before and after a refusal.
pub async fn snapshot(host: &Host) -> String {
    let pool = host.db().pool();
    let mut out = String::new();
    for sql in [
        "SELECT group_concat(id || '|' || name || '|' || settings || '|' || updated_at || '|' || coalesce(digest_due_at, '-'), ';') FROM users",
        "SELECT group_concat(id || '|' || state || '|' || coalesce(game_id, '-') || '|' || coalesce(closed_at, '-'), ';') FROM challenges",
        "SELECT group_concat(id || '|' || status || '|' || coalesce(reason, '-') || '|' || ply || '|' || updated_at || '|' || coalesce(loser_id, '-') \
         || '|' || coalesce(deadline_at, '-') || '|' || coalesce(turn_started_at, '-') || '|' || reminders_sent || '|' || coalesce(next_due_at, '-') \
         || '|' || attacker_reserve || '|' || defender_reserve, ';') FROM games",
        "SELECT group_concat(game_id || '|' || ply || '|' || notation, ';') FROM moves",
        "SELECT group_concat(id || '|' || kind || '|' || state || '|' || by_user || '|' || at_ply, ';') FROM offers",
        "SELECT group_concat(id || '|' || settings || '|' || updated_at, ';') FROM servers",
        "SELECT group_concat(last_tick_at, ';') FROM scheduler",
    ] {
        let row: Option<String> = sqlx::query_scalar(sql).fetch_one(pool).await.expect("the snapshot query runs");
        out.push_str(&row.unwrap_or_default());
        out.push('\n');
    }
    out
}

pub fn request(challenger: &User, opponent: Option<&User>, variant: &str, side: SideChoice) -> ChallengeRequest {
    ChallengeRequest {
        challenger: challenger.clone(),
        opponent: opponent.cloned(),
        variant: variant.to_owned(),
        options: Vec::new(),
        side,
        clock: Some(Clock::UNTIMED),
        place: PLACE,
    }
}

/// Starts a game of `variant` with alice as attackers and bob as defenders.
pub async fn game(host: &Host, variant: &str) -> GameView {
    let challenge =
        host.challenge(&request(&alice(), Some(&bob()), variant, SideChoice::Attackers), NOW).await.unwrap();
    host.accept(challenge.id, &bob(), NOW + 1).await.unwrap().game
}

/// A small deterministic random-number generator (xorshift), so that searches are repeatable.
pub struct Rng(pub u64);

impl Rng {
    pub fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

/// A short game of `variant` that ends on the board for `reason`: random play where each side
/// takes a winning move when it has one, tried with seeds until one ends that way. Returns the
/// moves in canonical notation with captures.
pub fn find_game(variant: Variant, reason: Reason, max_plies: usize) -> Vec<String> {
    for seed in 1..2_000u64 {
        let mut rng = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
        let mut game = Game::new(Position::new(variant.rules()).unwrap());
        while game.status().is_ongoing() && game.ply() < max_plies {
            let moves = game.position().legal_moves();
            let winning = moves.iter().copied().find(|&mv| {
                let mut trial = game.position().clone();
                matches!(trial.play_unchecked(mv).status, Status::Finished(o) if o.winner == Some(game.position().to_move()))
            });
            let mv = winning.unwrap_or_else(|| moves[rng.below(moves.len())]);
            game.play(mv).unwrap();
        }
        if game.status().reason() == Some(reason) {
            return game.moves().iter().map(|m| m.text().to_string()).collect();
        }
    }
    panic!("no {variant} game ending by {reason} found");
}

/// The side that plays ply `n` (from 1) of a game from the usual start.
pub fn mover(n: usize) -> Side {
    if n.is_multiple_of(2) { Side::Defenders } else { Side::Attackers }
}

/// What a person is told about a refusal, in English as the console says it (commands as
/// `/challenge`), the words the host's typed errors turn into.
#[must_use]
#[allow(dead_code)] // not every test binary that includes this module uses it
pub fn said(error: &tafl_bot::host::HostError) -> String {
    tafl_bot::present::text::host_error(error, tafl_bot::present::Lang::console("en"))
}
