//! The bot as a player: games against the engine at levels 1 to 5.
//!
//! Each level is a user with a negative id (`-1` to `-5`, see migration 0008), so a game against
//! the bot is an ordinary game: moves, offers, clocks, summaries and ratings need nothing new.
//! What is particular to the bot is decided here, each in the transaction of its action:
//!
//! - a game against the bot starts at once, without a challenge to accept;
//! - whenever the bot gets the move (the game starts with it, or a person moved), the game's
//!   `bot_turn_at` is set in the same transaction; [`BotPlayer`] searches those games on the
//!   [`SearchPool`] in the order their turns began, and plays the move with the ply and move
//!   list it searched, so a move searched for a board that has since changed (a takeback, a
//!   resignation) is refused like a stale click;
//! - takebacks: the bot agrees in unrated games and refuses in rated ones;
//! - draw offers: the bot agrees when a short search finds it lost, or when its evaluation of
//!   the position, from its side, is more than [`DRAW_MARGIN`] below the start's (clearly worse
//!   off than at the start) and no search finds it winning.

use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use tokio::sync::oneshot;

use tafl_rules::engine::{self, Analysis, Level, Limits};
use tafl_rules::{Game, Move, Position, Side};

use super::search_pool::{Budget, Job, SearchPool};
use super::types::{ChallengeRequest, GameId, GameView, Played, SideChoice, UserId};
use super::{Conn, Host, HostError, Loaded, SeenBoard, outbox};
use crate::host::outbox::Show;
use crate::store::{self, GameRow, games::NewGame};

/// The user id of a level: `-1` for level 1 … `-5` for level 5.
#[must_use]
pub fn bot_user(level: Level) -> UserId {
    -i64::from(level.number())
}

/// The level a user id stands for, if it is one of the bot's.
#[must_use]
pub fn bot_level(user: UserId) -> Option<Level> {
    u8::try_from(-user).ok().and_then(Level::new)
}

/// Whether `user` is one of the bot's levels.
#[must_use]
pub fn is_bot(user: UserId) -> bool {
    bot_level(user).is_some()
}

/// The bot accepts a draw when its evaluation, from its own side, is more than this many points
/// (one attacker is 100) below the start's: clearly worse off. The static evaluation moves a
/// lot in quiet openings: in level-5 play after two random plies, before any capture, a side's
/// score fell up to 48 to 174 points below the start's in eleven presets (316 for Sea Battle
/// 15's attackers; six games a preset), so a smaller margin gave draws away in even games (at 20,
/// the defenders' bot agreed at ply 1 of a Sea Battle 13 game). Otherwise the
/// bot plays on.
pub const DRAW_MARGIN: i32 = 200;

/// How long the bot's turn in a server on another process's shards waits before this process
/// searches it too (its own process may be down; see [`Host::with_shards`]). Longer than the
/// outbox's 15 s: a turn may wait in its process's queue behind other games' searches of
/// seconds each, and a turn searched by two processes costs a whole search twice (the second
/// move is refused as stale).
///
/// It is also how long the claim of the process that takes such a turn over lasts
/// ([`Host::take_bot_turn`]): a search is seconds, and the bot player takes over at most as many
/// turns at a time as its pool has threads, so its claim outlasts the wait and the search; if it
/// dies, the turn waits one grace more, as it did for its own process.
pub const FOREIGN_TURN_GRACE: Duration = Duration::from_mins(1);

/// How many games against the bot one person may have going at once. Every turn of the bot's
/// takes a search thread for up to 4.5 s (level 5), so a hundred games started at once would
/// hold every other player's bot moves behind them for minutes.
pub const MAX_BOT_GAMES: i64 = 10;

/// The level of a game against the bot when the bot is named without one.
pub const DEFAULT_LEVEL: i64 = 3;

/// The budget of a hint: level 3's time, the best move without a beginner's mistakes.
const HINT_MILLIS: u64 = 500;

/// A game in which the bot must move: what to search and what to check before playing.
#[derive(Clone, Debug)]
pub struct BotTurn {
    pub game_id: GameId,
    pub level: Level,
    /// When its turn began (unix seconds): the order in which turns are served.
    pub since: i64,
    /// The ply and the moves the search starts from; the move is refused if either changed.
    pub ply: usize,
    pub moves: String,
    pub game: Game,
    /// Whether the game is of a server on another process's shards, a turn this process takes
    /// over: it must claim it first ([`Host::take_bot_turn`]).
    pub foreign: bool,
}

/// The level playing `side` of a game row, if the bot plays it.
fn bot_of(row: &GameRow, side: Side) -> Option<Level> {
    bot_level(super::side_player(row, side))
}

/// The level playing in a game row, if any.
pub(super) fn bot_in(row: &GameRow) -> Option<Level> {
    bot_level(row.attacker_id).or_else(|| bot_level(row.defender_id))
}

/// Records in `conn` whether the bot must move now in a game that goes on (or stops waiting for
/// it), and returns whether it must.
pub(super) async fn note_turn(conn: &mut Conn, loaded: &mut Loaded, now: i64) -> Result<bool, HostError> {
    let bot_to_move =
        loaded.game.status().is_ongoing() && bot_of(&loaded.row, loaded.game.position().to_move()).is_some();
    let since = bot_to_move.then_some(now);
    if since.is_some() || loaded.row.bot_turn_at.is_some() {
        store::games::set_bot_turn(conn, loaded.row.id, since).await?;
        loaded.row.bot_turn_at = since;
    }
    Ok(bot_to_move)
}

/// Whether the bot, playing `side`, accepts a draw in `game`: when a short search finds the
/// game decided by force, by that (a loss it takes the half point for, a win it plays on for);
/// otherwise when its static evaluation from its own side stands more than [`DRAW_MARGIN`]
/// below the evaluation of the game's start.
///
/// The evaluation is not centred on an even game: every preset's start scores the attackers 50
/// to 500 points up (the king far from his escape squares counts for them). Judged by the bare
/// score, the defenders' bot agreed to a draw on the first move of every game, a free half point
/// against level 5 in a rated game, and the attackers' bot almost never. Measured against the
/// start, the bot plays on in an even game and in a better one, and shares one it is losing.
/// The static score cannot see a win or a loss one or two moves away (the king's capture at
/// hand, or an escape the bot cannot stop); the search does. Its score is not used otherwise:
/// the margin was measured on the static one, and a short search's scores swing with the
/// horizon.
#[must_use]
pub fn accepts_draw(game: &Game, side: Side) -> bool {
    let mut searcher = engine::Searcher::with_table_bits(DRAW_SEARCH_TABLE_BITS);
    if let Some(analysis) = searcher.analyse(game, &Limits::nodes(DRAW_SEARCH_NODES)) {
        let forced = engine::score_for(game.position(), side, analysis.score);
        if forced.abs() >= engine::WIN_BOUND {
            return forced < 0;
        }
    }
    let standing = |position: &Position| engine::score_for(position, side, engine::evaluate(position));
    standing(game.position()) < standing(game.start()) - DRAW_MARGIN
}

/// Nodes of the search that looks for a forced result before a draw offer is answered. The
/// offer is answered inside its transaction on an async worker, so it must be short: 0.6 to
/// 2.7 ms on average by preset in the release build, 3.5 ms at worst in Sea Battle 15, about a
/// database write (`cargo bench -p tafl-bot --bench host -- draw`).
const DRAW_SEARCH_NODES: u64 = 2_000;

/// Its table: 2^10 entries (24 KB), cleared in microseconds, plenty for 2,000 nodes.
const DRAW_SEARCH_TABLE_BITS: u32 = 10;

/// Whether the bot agrees to take back moves: only in unrated games, where a takeback cannot
/// buy rating points.
#[must_use]
pub const fn accepts_takeback(rated: bool) -> bool {
    !rated
}

fn now_secs() -> i64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs() as i64)
}

impl Host {
    /// Starts a game against the bot at `level` at once (there is no one to accept), with the
    /// challenger's variant, options, side and clock. `rated: false` makes a casual game, where
    /// the bot takes moves back and hints are allowed.
    pub async fn challenge_bot(
        &self,
        request: &ChallengeRequest,
        level: i64,
        rated: bool,
        now: i64,
    ) -> Result<GameView, HostError> {
        let level = u8::try_from(level).ok().and_then(Level::new).ok_or(HostError::BadLevel(level))?;
        if request.opponent.is_some() {
            return Err(HostError::LevelWithPerson);
        }
        let (variant, options) = super::validate_setup(&request.variant, &request.options)?;
        let rules = variant
            .rules_with_texts(&super::split_options(&options))
            .map_err(|e| HostError::corrupt(0, &format!("bot game: {e}")))?;
        let (game, bot_moves) = transaction!(self.db.begin_write(), |tx| {
            let (server, clock) = super::server_terms(&mut tx, request).await?;
            let person = request.challenger.id;
            // The person's row is locked before counting, so that two of their challenges at
            // once (two processes, or two transactions on PostgreSQL) cannot both see room for
            // one more. A refusal rolls the remembered name back with the rest.
            store::users::remember(&mut tx, person, &super::clean_name(&request.challenger.name), now).await?;
            store::users::lock(&mut tx, person).await?;
            let going = store::games::ongoing_against_bot(&mut tx, person).await?;
            if going >= MAX_BOT_GAMES {
                return Err(HostError::TooManyBotGames(going));
            }
            let person_side = match request.side {
                SideChoice::Attackers => Side::Attackers,
                SideChoice::Defenders => Side::Defenders,
                SideChoice::Random => super::coin_flip(person, now),
            };
            let bot = bot_user(level);
            let (attacker_id, defender_id) = match person_side {
                Side::Attackers => (person, bot),
                Side::Defenders => (bot, person),
            };
            let game_id = store::games::insert(
                &mut tx,
                &NewGame {
                    guild_id: request.place.guild,
                    channel_id: request.place.channel,
                    thread_id: request.place.thread,
                    variant: variant.id(),
                    options: &options,
                    rules: &tafl_rules::otn::rules_string(&rules),
                    start_position: None,
                    start_to_move: None,
                    attacker_id,
                    defender_id,
                    clock_seconds: clock.seconds_per_move(),
                    reserve_cap: clock.reserve_cap(),
                    turn: super::scheduler::first_turn(clock, now, attacker_id == bot),
                    imported: false,
                    rated,
                    bot_turn_at: None,
                },
                now,
            )
            .await?;
            let mut loaded = self.load(&mut tx, game_id).await?;
            let bot_moves = note_turn(&mut tx, &mut loaded, now).await?;
            outbox::record(&mut tx, &Show::Board { game: game_id, ply: 0 }, now).await?;
            if server.threads && request.place.guild != 0 && request.place.thread.is_none() {
                outbox::record(&mut tx, &Show::Thread { game: game_id }, now).await?;
            }
            if !bot_moves {
                outbox::record(
                    &mut tx,
                    &Show::YourMove { game: game_id, ply: 0, after_takeback: false, again: false },
                    now,
                )
                .await?;
            }
            Ok((super::view(&loaded), bot_moves))
        })?;
        if bot_moves {
            self.bot_signal.notify_one();
        }
        tracing::info!(game = game.id, level = level.number(), rated, "game against the bot started");
        Ok(game)
    }

    /// The games where the bot must move, the longest waiting first, at most `limit`; with
    /// shards ([`Host::with_shards`]), those of this process's servers and any waiting longer
    /// than [`FOREIGN_TURN_GRACE`] that no other process has taken over
    /// ([`Host::take_bot_turn`]).
    pub async fn bot_turns(&self, limit: usize) -> Result<Vec<BotTurn>, HostError> {
        self.bot_turns_except(limit, &HashSet::new()).await
    }

    /// [`Host::bot_turns`] but for the games in `skip` (those already being searched), which
    /// are neither loaded nor returned: the bot player looks again after every move of fifty
    /// games, and rebuilding each waiting game at every look was most of its reads.
    pub async fn bot_turns_except(&self, limit: usize, skip: &HashSet<GameId>) -> Result<Vec<BotTurn>, HostError> {
        let mut tx = self.db.begin_read().await?;
        let grace = i64::try_from(FOREIGN_TURN_GRACE.as_secs()).unwrap_or(i64::MAX);
        let now = now_secs();
        let served = self.shards.map(|shards| (shards, now.saturating_sub(grace)));
        let due = store::games::bot_turns(&mut tx, limit as i64, served, (&self.process, now)).await?;
        let mut turns = Vec::with_capacity(due.len());
        for (game_id, since) in due.into_iter().filter(|(game_id, _)| !skip.contains(game_id)) {
            // A game that cannot be rebuilt (logged by `load`) must not stop the others.
            let Ok(loaded) = self.load(&mut tx, game_id).await else { continue };
            let to_move = loaded.game.position().to_move();
            let Some(level) = bot_of(&loaded.row, to_move) else { continue };
            if !loaded.game.status().is_ongoing() {
                continue;
            }
            turns.push(BotTurn {
                game_id,
                level,
                since,
                ply: loaded.game.ply(),
                moves: super::movetext(&loaded.game),
                game: loaded.game,
                foreign: self.shards.is_some_and(|shards| !shards.serves(loaded.row.guild_id)),
            });
        }
        Ok(turns)
    }

    /// Takes `turn` on at `now`: true when this process may search it. A turn of this
    /// process's own servers (or of no server) is always its own, without a statement; a
    /// foreign one ([`BotTurn::foreign`]) is claimed for this process until
    /// [`FOREIGN_TURN_GRACE`] after `now`, so that the other processes, which list it too once
    /// its grace has passed, leave it alone; false when another process holds it or the turn is
    /// over. Taking a turn this process holds renews its claim. The claim ends with the turn
    /// (the move, a takeback, the game's end) or when it runs out.
    pub async fn take_bot_turn(&self, turn: &BotTurn, now: i64) -> Result<bool, HostError> {
        if !turn.foreign {
            return Ok(true);
        }
        let until = now.saturating_add(i64::try_from(FOREIGN_TURN_GRACE.as_secs()).unwrap_or(i64::MAX));
        let taken = transaction!(self.db.begin_write(), |tx| {
            Ok(store::games::take_bot_turn(&mut tx, turn.game_id, turn.since, &self.process, until, now).await?)
        })?;
        if taken {
            tracing::info!(game = turn.game_id, "took over the bot's turn in a game of another process's shards");
        }
        Ok(taken)
    }

    /// Of the games `ids`, those where the bot must move now, with the ply and the moment its
    /// turn began.
    pub async fn bot_turns_of(&self, ids: &[GameId]) -> Result<HashMap<GameId, (usize, i64)>, HostError> {
        let mut tx = self.db.begin_read().await?;
        let due = store::games::bot_turns_of(&mut tx, ids).await?;
        Ok(due
            .into_iter()
            .map(|(game, ply, since)| (game, (usize::try_from(ply).unwrap_or(usize::MAX), since)))
            .collect())
    }

    /// Plays the bot's move `mv` searched for `turn`. Refused, like a stale click, when the game
    /// is no longer where the search started (another move, a takeback, an ending).
    pub async fn play_bot(&self, turn: &BotTurn, mv: Move, now: i64) -> Result<Played, HostError> {
        let user = bot_user(turn.level);
        let (played, _) = self
            .play_checked(
                turn.game_id,
                user,
                &mv.to_string(),
                Some(SeenBoard::at_ply(turn.ply)),
                Some(&turn.moves),
                None,
                now,
            )
            .await?;
        Ok(played)
    }

    /// The game a hint is for: `user`'s unrated game against the bot, on their move. Refused in
    /// rated games, games between people, finished games, and on the bot's move.
    pub async fn hint_game(&self, game_id: GameId, user: UserId) -> Result<(GameView, Job), HostError> {
        let mut tx = self.db.begin_read().await?;
        let loaded = self.load(&mut tx, game_id).await?;
        let sides = super::player_side(&loaded, user)?;
        super::ensure_ongoing(&loaded)?;
        if bot_in(&loaded.row).is_none() {
            return Err(HostError::HintNotAgainstBot);
        }
        if loaded.row.rated {
            return Err(HostError::HintInRatedGame);
        }
        super::ensure_turn(&mut tx, &loaded, &sides).await?;
        let job = Job { game: loaded.game.clone(), budget: Budget::Limits(Limits::millis(HINT_MILLIS)) };
        Ok((super::view(&loaded), job))
    }
}

/// Plays the bot's moves: finds the games where it must move (at start-up, whenever woken, and
/// every [`BotPlayer::TICK`] as a safety net), searches each on the pool in the order its turn
/// began, and plays the result. Cheap to clone.
///
/// At every look it also checks the turns it is busy with against the database: a search for a
/// turn that is over (the person resigned, took a move back and played another, ran out of
/// time) is cancelled, so it neither holds the queue for other games nor delays the game's new
/// turn. A search still waiting for a thread never starts; one already running finishes and its
/// move is refused as stale.
#[derive(Clone)]
pub struct BotPlayer {
    host: Host,
    pool: SearchPool,
    flights: Arc<Mutex<HashMap<GameId, Flight>>>,
    /// Numbers the flights, so that a search ending after its game moved on leaves the next
    /// flight of that game alone.
    next_flight: Arc<AtomicU64>,
    /// How long a turn whose search or move failed rests before it is tried again.
    retry_after: Duration,
    /// Called after each move the bot played (the front end wakes its delivery).
    on_move: Arc<dyn Fn(&Played) + Send + Sync>,
    /// The people whose hint is being searched: one at a time each (see [`BotPlayer::hint`]).
    hinting: Arc<Mutex<HashSet<UserId>>>,
}

/// A person's hint being searched; dropping it lets them ask again.
struct Hinting {
    hinting: Arc<Mutex<HashSet<UserId>>>,
    user: UserId,
}

impl Hinting {
    /// `None` when `user` already waits for a hint.
    fn take(hinting: &Arc<Mutex<HashSet<UserId>>>, user: UserId) -> Option<Hinting> {
        let fresh = hinting.lock().unwrap_or_else(PoisonError::into_inner).insert(user);
        fresh.then(|| Hinting { hinting: Arc::clone(hinting), user })
    }
}

impl Drop for Hinting {
    fn drop(&mut self) {
        self.hinting.lock().unwrap_or_else(PoisonError::into_inner).remove(&self.user);
    }
}

/// A turn the bot player is busy with.
struct Flight {
    /// The turn, as the database tells turns apart: a takeback and a new move come back to
    /// the same ply, but their turn begins later (in another second; one within the same second
    /// is caught when the move is played, as stale).
    ply: usize,
    since: i64,
    number: u64,
    state: FlightState,
    /// A turn of another process's shards, taken over ([`Host::take_bot_turn`]).
    foreign: bool,
}

enum FlightState {
    /// Its search is queued or running; dropping the sender (kept for that alone) cancels it.
    Searching { _cancel: oneshot::Sender<()> },
    /// Its search found nothing or its move was refused (a full disk, say): it is tried again
    /// at this instant, not at once, so a lasting fault costs a warning a while rather than a
    /// busy loop at the head of the queue.
    Resting(Instant),
}

impl std::fmt::Debug for BotPlayer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BotPlayer").field("pool", &self.pool).finish_non_exhaustive()
    }
}

/// The most games looked at in one pass; the rest are found at the next.
const BATCH: usize = 500;

impl BotTurn {
    /// The search for this turn at its level. The seed is the game's alone: the engine mixes in
    /// the ply, so each move of the game draws afresh, and the same turn after a restart plays
    /// the same move at the softmax levels.
    #[must_use]
    pub fn job(&self) -> Job {
        let seed = (self.game_id as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        Job { game: self.game.clone(), budget: Budget::Level { level: self.level, seed } }
    }
}

impl BotPlayer {
    /// How often the player looks for games when nothing wakes it.
    pub const TICK: Duration = Duration::from_secs(5);

    /// How long a turn whose search or move failed waits before it is tried again.
    pub const RETRY_AFTER: Duration = Duration::from_secs(30);

    #[must_use]
    pub fn new(host: Host, pool: SearchPool, on_move: Arc<dyn Fn(&Played) + Send + Sync>) -> BotPlayer {
        BotPlayer {
            host,
            pool,
            flights: Arc::default(),
            next_flight: Arc::default(),
            retry_after: Self::RETRY_AFTER,
            on_move,
            hinting: Arc::default(),
        }
    }

    /// The same player with another pause after a failed turn (tests shorten it).
    #[must_use]
    pub fn retrying_after(mut self, pause: Duration) -> BotPlayer {
        self.retry_after = pause;
        self
    }

    /// The pool its searches run on.
    #[must_use]
    pub fn pool(&self) -> &SearchPool {
        &self.pool
    }

    /// Searches `job`, a hint [`Host::hint_game`] gave `user`, on the pool among the bot's moves
    /// (in the order asked, `key`). One hint per person at a time: a hint costs a bot move's
    /// search, and asked again and again (each `/tafl hint` queued before the first answered),
    /// it held up every other player's game against the bot by half a second a hint. A second
    /// ask while the first is searched is refused with [`HostError::HintPending`].
    pub async fn hint(&self, user: UserId, key: i64, job: Job) -> Result<Analysis, HostError> {
        let _asking = Hinting::take(&self.hinting, user).ok_or(HostError::HintPending)?;
        match self.pool.search(key, job).await {
            Ok(Some(analysis)) => Ok(analysis),
            // A position with no move is never a hint's (`hint_game` asks for the person's move
            // in an ongoing game); a search that failed is logged by the pool.
            Ok(None) | Err(_) => Err(HostError::Internal),
        }
    }

    /// How many turns rest after a failed search or a refused move, waiting to be tried again.
    #[must_use]
    pub fn resting(&self) -> usize {
        self.flights().values().filter(|flight| matches!(flight.state, FlightState::Resting(_))).count()
    }

    /// Asks the player to look for games now. The host does so itself after every change that
    /// gives the bot the move.
    pub fn wake(&self) {
        self.host.bot_signal.notify_one();
    }

    /// Looks for games and plays until the task is aborted.
    pub async fn run(self) {
        loop {
            if let Err(error) = self.start_searches().await {
                tracing::warn!(%error, "could not look for the bot's games; trying again");
            }
            tokio::select! {
                () = self.host.bot_signal.notified() => {}
                () = tokio::time::sleep(Self::TICK) => {}
            }
        }
    }

    fn flights(&self) -> std::sync::MutexGuard<'_, HashMap<GameId, Flight>> {
        self.flights.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Cancels the searches of turns that are over, ends the rests that have passed, then
    /// submits a search for every game where the bot must move and none runs or rests yet;
    /// returns how many were started.
    ///
    /// A turn of another process's shards ([`BotTurn::foreign`]) is claimed first
    /// ([`Host::take_bot_turn`]) and left alone when another process holds it; and at most as
    /// many as the pool has threads are taken over at a time, so that the processes that are
    /// up share another's backlog among them instead of the first to look claiming all of it.
    pub async fn start_searches(&self) -> Result<usize, HostError> {
        self.drop_finished_turns().await?;
        let (busy, mut foreign): (HashSet<GameId>, usize) = {
            let flights = self.flights();
            (flights.keys().copied().collect(), flights.values().filter(|flight| flight.foreign).count())
        };
        let turns = self.host.bot_turns_except(BATCH, &busy).await?;
        let mut started = 0;
        for turn in turns {
            if turn.foreign {
                if foreign >= self.pool.size() || !self.host.take_bot_turn(&turn, now_secs()).await? {
                    continue;
                }
                foreign += 1;
            }
            let (cancel, cancelled) = oneshot::channel();
            let number = self.next_flight.fetch_add(1, Ordering::Relaxed);
            {
                let mut flights = self.flights();
                if flights.contains_key(&turn.game_id) {
                    continue;
                }
                let state = FlightState::Searching { _cancel: cancel };
                let flight = Flight { ply: turn.ply, since: turn.since, number, state, foreign: turn.foreign };
                flights.insert(turn.game_id, flight);
            }
            started += 1;
            let receiver = self.pool.submit(turn.since, turn.job());
            let player = self.clone();
            tokio::spawn(async move {
                let analysis = tokio::select! {
                    result = receiver => result.ok().and_then(Result::ok).flatten(),
                    // The turn is over: the receiver goes with this task, so a search still
                    // queued never starts.
                    _ = cancelled => return,
                };
                let done = player.finish(&turn, analysis).await;
                player.land(turn.game_id, number, done);
                // Another turn of the same game (after a takeback and a new move) may be waiting.
                player.wake();
            });
        }
        Ok(started)
    }

    /// Forgets every flight whose turn the database no longer has (which cancels its search)
    /// and every rest that has passed.
    async fn drop_finished_turns(&self) -> Result<(), HostError> {
        let known: HashSet<GameId> = self.flights().keys().copied().collect();
        if known.is_empty() {
            return Ok(());
        }
        let ids: Vec<GameId> = known.iter().copied().collect();
        let due = self.host.bot_turns_of(&ids).await?;
        let now = Instant::now();
        self.flights().retain(|game, flight| {
            if !known.contains(game) {
                return true;
            }
            let same_turn = due.get(game) == Some(&(flight.ply, flight.since));
            let live = match flight.state {
                FlightState::Searching { .. } => true,
                FlightState::Resting(until) => until > now,
            };
            same_turn && live
        });
        Ok(())
    }

    /// Ends flight `number` of `game`: forgotten when its turn is done with, resting when it
    /// failed. A later flight of the game is left alone.
    fn land(&self, game: GameId, number: u64, done: bool) {
        let mut flights = self.flights();
        let Some(flight) = flights.get_mut(&game).filter(|flight| flight.number == number) else { return };
        if done {
            flights.remove(&game);
        } else {
            flight.state = FlightState::Resting(Instant::now() + self.retry_after);
        }
    }

    /// Plays the move searched for `turn`; returns whether the turn is done with (played, or
    /// gone since), `false` when it must be tried again.
    async fn finish(&self, turn: &BotTurn, analysis: Option<Analysis>) -> bool {
        let Some(analysis) = analysis else {
            tracing::warn!(game = turn.game_id, "the engine found no move; trying again later");
            return false;
        };
        match self.host.play_bot(turn, analysis.best, now_secs()).await {
            Ok(played) => {
                tracing::debug!(game = turn.game_id, notation = %played.notation, "the bot moved");
                (self.on_move)(&played);
                true
            }
            // A paused game's turn is searched again when the bot is back in its server.
            Err(HostError::StaleBoard { .. } | HostError::GameOver { .. } | HostError::Paused { .. }) => {
                tracing::debug!(game = turn.game_id, "the game changed during the bot's search; its move is dropped");
                true
            }
            Err(error) => {
                tracing::warn!(game = turn.game_id, %error, "the bot's move was refused; trying again later");
                false
            }
        }
    }

    /// Plays every bot move due now and every one those moves lead to, waiting for each:
    /// for the console and tests, which show the position after the bot answered. The moves are
    /// played at `now`, the caller's clock: the console's runs ahead of the system's after
    /// `/wait`, and a move stamped with the system's time would start the player's clock in the
    /// past.
    pub async fn settle(&self, now: i64) -> Result<Vec<Played>, HostError> {
        let mut played = Vec::new();
        loop {
            let turns = self.host.bot_turns(BATCH).await?;
            if turns.is_empty() {
                return Ok(played);
            }
            let mut any = false;
            for turn in turns {
                if !self.host.take_bot_turn(&turn, now).await? {
                    continue;
                }
                let Ok(Some(analysis)) = self.pool.search(turn.since, turn.job()).await else { continue };
                if let Ok(p) = self.host.play_bot(&turn, analysis.best, now).await {
                    (self.on_move)(&p);
                    played.push(p);
                    any = true;
                }
            }
            if !any {
                return Ok(played);
            }
        }
    }
}
