//! Game hosting without Discord: challenges, games, moves, draws, takebacks, endings, records.
//!
//! Every operation takes plain values (ids, texts, the current time) and returns plain values
//! saying what changed and who must be told; the Discord front end and the local console are thin
//! layers over it. Each operation runs in one database transaction, and every write transaction
//! starts with `BEGIN IMMEDIATE`, so two processes answering two clicks at once are serialised:
//! the second sees the first's move and is refused ("the board has changed"), never applied twice.
//! On every refusal the transaction is rolled back before the answer, so nothing changes
//! (`transaction!`).
//!
//! The current time is a parameter (`now`, unix seconds) so that tests and the scheduler
//! ([`Host::tick`]) can inject it.

/// Runs the body of a write operation (a block evaluating to `Result<_, HostError>`) in a write
/// transaction begun by `$begin` (a `Db` method whose future gives a `WriteTx`), named `$tx` in
/// the body.
///
/// The transaction commits when the body returns `Ok`, and is rolled back before the answer when
/// it returns `Err`, refusals included (and, with `commit_if`, when the body's value is a refusal
/// of the caller's own kind). A refusal must not merely drop its transaction: sqlx rolls a
/// dropped one back only when its pool next pings the connection, from a task of its own, and
/// until then the rows the body locked stay locked (on `PostgreSQL` a scheduler tick, `SKIP
/// LOCKED`, passes their game by; on `SQLite` the file's write lock outlasts this process's turn
/// to write, and the next writer waits for it).
///
/// The whole body runs again when `PostgreSQL` ended its transaction to break a deadlock or a
/// serialisation conflict with another process (nothing of it was saved then): at most
/// [`CONFLICT_RETRIES`] more times, after a short random pause so that the two do not meet again
/// in step. A conflict that outlasts them is reported as a busy database. `SQLite`, with one
/// writer at a time, never reports one.
///
/// A macro rather than a function taking an async closure: the futures of async closures are
/// not `Send` for every lifetime, which `tokio::spawn` needs.
macro_rules! transaction {
    ($begin:expr, |$tx:ident| $body:block) => {
        transaction!($begin, |$tx| $body, commit_if(|_| true))
    };
    ($begin:expr, |$tx:ident| $body:block, commit_if($keep:expr)) => {{
        let mut retries = 0;
        loop {
            let result: Result<_, $crate::host::HostError> = async {
                let mut $tx = $begin.await?;
                // Boxed: the body's state would otherwise sit beside the transaction and the
                // retry loop's in every caller's future (a move's grew past 16 KiB).
                let result: Result<_, $crate::host::HostError> = Box::pin(async { $body }).await;
                if matches!(&result, Ok(value) if ($keep)(value)) {
                    $tx.commit().await?;
                } else {
                    // A statement the database could not save is noted for `/healthz`.
                    if let Err($crate::host::HostError::Storage(fault)) = &result {
                        $tx.failed(*fault);
                    }
                    // The refusal is the answer. A rollback that fails found its connection
                    // broken, and a server ends the transaction of a connection that closed.
                    let _ = $tx.rollback().await;
                }
                result
            }
            .await;
            match result {
                Err($crate::host::HostError::Storage($crate::host::StorageFault::Conflict))
                    if retries < $crate::host::CONFLICT_RETRIES =>
                {
                    retries += 1;
                    tracing::debug!(retries, "a transaction met a concurrent one; running the operation again");
                    tokio::time::sleep($crate::host::conflict_pause(retries)).await;
                }
                Err($crate::host::HostError::Storage($crate::host::StorageFault::Conflict)) => {
                    tracing::warn!(retries, "a transaction kept meeting concurrent ones; giving up");
                    break Err($crate::host::HostError::Storage($crate::host::StorageFault::Busy));
                }
                done => break done,
            }
        }
    }};
}

mod board;
pub mod bot;
mod cards;
pub mod clock;
mod error;
pub mod glicko2;
mod interactions;
mod legal;
mod locales;
pub mod outbox;
mod presence;
mod ratings;
mod registration;
pub mod review;
pub mod scheduler;
pub mod search_pool;
pub mod settings;
mod summary;
mod types;

use std::collections::HashMap;
use std::hash::BuildHasher;
use std::sync::{Arc, Mutex};

use tafl_rules::otn::{self, GameRecord, RecordEnd};
use tafl_rules::{Game, MoveText, Position, Setup, Side, Status, Variant, VariantOption};

pub use board::{
    BoardState, Drawn, OfferKind, OfferStanding, OpenOffer, PieceChoice, SeenBoard, destinations, movable_pieces,
};
pub use bot::{BotPlayer, BotTurn, bot_level, bot_user, is_bot};
pub use cards::{FamilyHistory, HistoryPoint, MAX_HISTORY, RatingHistory};
pub use clock::{Clock, ClockError};
pub use error::{HostError, RecordFault, StorageFault};
pub use interactions::INTERACTIONS_KEPT_SECS;
pub use locales::ServerLanguage;
pub use outbox::{BoardRequest, OfferEvent, Pending, Show};
pub use presence::Listed;
pub use ratings::{BOT_POOL, MAX_LEADERBOARD, in_bot_pool, rating_families, rating_family, split_pool};
pub use review::{Review, ReviewState, Reviewing, TurningPoint};
pub use scheduler::{Claimable, Digest, Due, PausedGames, Reminder, ReminderKind};
pub use settings::{BoardStyle, ServerChange, ServerSettings, SettingsInForce, SettingsPlace, UserSettings};
pub use summary::captures_by_side;
pub use types::{
    Accepted, Awaiting, CLAIM_AFTER, Challenge, ChallengeId, ChallengeRequest, ChallengeState, Conclusion, EndReason,
    Ending, FamilyRating, Finished, GameId, GameSummary, GameView, Leaderboard, LeaderboardEntry, MoveChoice,
    MoveEffect, OfferAction, OfferOutcome, PLIES_TO_COUNT, Place, Played, PlayerResult, Profile, RatingChange, Scope,
    SideChoice, SideRecord, Streak, Summary, User, UserId,
};

use crate::store::games::NewGame;
use crate::store::{self, ChallengeRow, Db, GameRow};

/// How long a challenge waits for an answer by default: a day, as BOT.md says.
pub const CHALLENGE_TTL: i64 = 24 * 60 * 60;
/// How many open challenges one person may have at once, so nobody floods a channel.
pub const MAX_OPEN_CHALLENGES: i64 = 10;
/// How many challenges one person may make another in [`CHALLENGE_TTL`] that were shown and
/// started no game (declined, withdrawn, expired or open): each card mentions the one
/// challenged, and withdrawing one and making it again mentioned them without end. Challenges
/// they accept do not count, so friends play as many games as they like, nor do cards Discord
/// never showed (nobody was mentioned).
pub const MAX_UNANSWERED_TO_ONE: i64 = 3;
/// How many challenges one person may make in [`CHALLENGE_TTL`], to anyone or open to all, that
/// were shown and started no game. [`MAX_OPEN_CHALLENGES`] alone let one make ten, withdraw
/// them and make ten more without end: each a card in the channel that nobody but the bot can
/// delete. Accepted ones do not count.
pub const MAX_UNANSWERED_A_DAY: i64 = 30;

/// The game host: owns the database and applies the product's rules to it.
#[derive(Clone, Debug)]
pub struct Host {
    db: Db,
    challenge_ttl: i64,
    /// Compiled start positions by OTN rules string (see [`Host::start_of`]).
    starts: Arc<Mutex<HashMap<String, Position>>>,
    /// The scheduler's idea of downtime and the grace it then gives (see [`scheduler`]).
    downtime: i64,
    grace: i64,
    /// This process's last tick (see [`scheduler::OwnTick`]), which vouches for the time since
    /// when the recorded last tick lies in the clock's future.
    own_tick: Arc<scheduler::OwnTick>,
    /// The shards another process ticks too, and since when (see [`Host::shards_served_twice`]).
    served_twice: Arc<scheduler::ServedTwice>,
    /// Locales last written and servers' languages last read (see [`locales::LanguageCache`]).
    languages: Arc<Mutex<locales::LanguageCache>>,
    /// How long a name or locale written here is trusted to be the database's (see
    /// [`locales::NOTED_TTL`]).
    noted_ttl: std::time::Duration,
    /// Signalled after a commit that gave the bot the move, so that [`BotPlayer`] starts its
    /// search at once rather than at its next look at the database.
    bot_signal: Arc<tokio::sync::Notify>,
    /// Whose claims on outbox lanes are this process's (see [`Host::process_id`]).
    process: Arc<str>,
    /// How long a claim on an outbox lane lasts unless renewed ([`outbox::OUTBOX_LEASE`]).
    outbox_lease: std::time::Duration,
    /// The lanes this process keeps, renewed together (see [`Host::keep_lane`]).
    kept: Arc<outbox::Kept>,
    /// The Discord shards whose servers' items this process delivers; `None`: every server's
    /// (see [`Host::with_shards`]).
    shards: Option<store::outbox::ServedShards>,
}

/// What [`Host::play_on_board`] shows the game as a move leaves it, before the move is saved,
/// with the style its board message is drawn in.
pub type Forecast<'a> = &'a mut (dyn FnMut(&GameView, &Game, BoardStyle) + Send);

/// A game rebuilt from its row and its move list.
struct Loaded {
    row: GameRow,
    game: Game,
}

impl Host {
    #[must_use]
    pub fn new(db: Db) -> Host {
        let db_backend = db.backend();
        Host {
            db,
            challenge_ttl: CHALLENGE_TTL,
            starts: Arc::default(),
            downtime: scheduler::DOWNTIME,
            grace: scheduler::GRACE,
            own_tick: Arc::default(),
            served_twice: Arc::default(),
            languages: Arc::default(),
            noted_ttl: locales::NOTED_TTL,
            bot_signal: Arc::default(),
            process: outbox::process_id(db_backend),
            outbox_lease: outbox::OUTBOX_LEASE,
            kept: Arc::default(),
            shards: None,
        }
    }

    /// A host whose challenges expire after `seconds`.
    #[must_use]
    pub fn with_challenge_ttl(mut self, seconds: i64) -> Host {
        self.challenge_ttl = seconds;
        self
    }

    #[must_use]
    pub fn db(&self) -> &Db {
        &self.db
    }

    /// The same host for the bot's own loops (the outbox's delivery, the scheduler, the bot's
    /// moves, reviews): its database work goes on connections of its own and after people's
    /// writes (see [`crate::store::Urgency`]). Everything else is shared.
    #[must_use]
    pub fn background(&self) -> Host {
        Host { db: self.db.with_urgency(crate::store::Urgency::Background), ..self.clone() }
    }

    /// Whose work this host does: a person's, or the bot's own ([`Host::background`]).
    #[must_use]
    pub fn urgency(&self) -> crate::store::Urgency {
        self.db.urgency()
    }

    /// Records a person's current display name (creating them on first sight).
    pub async fn remember_user(&self, user: &User, now: i64) -> Result<(), HostError> {
        transaction!(self.db.begin_write(), |tx| {
            store::users::remember(&mut tx, user.id, &clean_name(&user.name), now).await?;
            Ok(())
        })
    }

    /// Records the thread the front end created for a game, so its messages go there.
    pub async fn set_thread(&self, game_id: GameId, thread_id: i64, now: i64) -> Result<(), HostError> {
        transaction!(self.db.begin_write(), |tx| {
            if !store::games::set_thread(&mut tx, game_id, thread_id, now).await? {
                return Err(HostError::NoSuchGame(game_id));
            }
            Ok(())
        })
    }

    /// The thread the bot opened for a game, if it has one (a game challenged in a thread people
    /// opened has none of the bot's).
    pub async fn own_thread(&self, game_id: GameId) -> Result<Option<i64>, HostError> {
        let mut tx = self.db.begin_read().await?;
        Ok(store::games::own_thread(&mut tx, game_id).await?)
    }

    /// Forgets the thread of a game whose thread was deleted, or (`opened_only`) one the bot
    /// opened that is closed to it (locked, or its permissions there taken away), so that its
    /// messages go to its channel again; returns whether it forgot one. A game challenged in a
    /// thread people opened keeps it when it is only closed: a private thread's game must not go
    /// on before people who could not see it.
    pub async fn leave_thread(&self, game_id: GameId, opened_only: bool, now: i64) -> Result<bool, HostError> {
        transaction!(self.db.begin_write(), |tx| {
            let left = store::games::clear_thread(&mut tx, game_id, opened_only, now).await?;
            Ok(left)
        })
    }

    /// Records that `channel` was deleted (Discord said so, or refused a post there as an
    /// unknown channel): every ongoing game played in it, or in a thread under it (a thread goes
    /// with its channel), has no channel from now on, and each one's players who asked for DMs
    /// are to be told once, in the same transaction ([`Show::ChannelGone`]). The games go on,
    /// clocks included: moves by command still work, and a player's `/tafl board` in another
    /// channel of the server moves a game there ([`Host::request_board_at`]). Returns the games
    /// marked now; none when the channel held none, or they were marked before.
    pub async fn channel_deleted(&self, channel: i64, now: i64) -> Result<Vec<GameId>, HostError> {
        let marked = transaction!(self.db.begin_write(), |tx| {
            let mut marked = Vec::new();
            // In the games' order, each locked before its item is recorded (see `outbox`), so
            // that two processes marking one channel never wait for each other in a cycle.
            for game in store::games::ongoing_in_channel(&mut tx, channel).await? {
                store::games::lock(&mut tx, game).await?;
                if store::games::mark_channel_gone(&mut tx, game, now).await? {
                    outbox::record(&mut tx, &Show::ChannelGone { game }, now).await?;
                    marked.push(game);
                }
            }
            Ok(marked)
        })?;
        if !marked.is_empty() {
            tracing::info!(channel, games = ?marked, "a channel with games going on was deleted");
        }
        Ok(marked)
    }

    // ----- challenges -----

    /// Challenges one person, or anyone when `opponent` is `None`. The variant and options are
    /// checked by the rules crate now, so that accepting can never fail on them.
    pub async fn challenge(&self, request: &ChallengeRequest, now: i64) -> Result<Challenge, HostError> {
        let (variant, options) = validate_setup(&request.variant, &request.options)?;
        if request.opponent.as_ref().is_some_and(|o| o.id == request.challenger.id) {
            return Err(HostError::ChallengeYourself);
        }
        let challenge = transaction!(self.db.begin_write(), |tx| {
            let (_, clock) = server_terms(&mut tx, request).await?;
            // Locked before counting, as for games against the bot (see `challenge_bot`).
            store::users::remember(&mut tx, request.challenger.id, &clean_name(&request.challenger.name), now).await?;
            store::users::lock(&mut tx, request.challenger.id).await?;
            let open = store::challenges::open_count_by(&mut tx, request.challenger.id, now).await?;
            if open >= MAX_OPEN_CHALLENGES {
                return Err(HostError::TooManyChallenges(open));
            }
            let since = now - CHALLENGE_TTL;
            let made = store::challenges::unanswered_by(&mut tx, request.challenger.id, since).await?;
            if made.len() as i64 >= MAX_UNANSWERED_A_DAY {
                let leaving = made.len() + 1 - MAX_UNANSWERED_A_DAY as usize;
                let again_at = made[leaving - 1] + CHALLENGE_TTL;
                return Err(HostError::TooManyChallengesToday { count: made.len() as i64, again_at });
            }
            if let Some(opponent) = &request.opponent {
                store::users::remember(&mut tx, opponent.id, &clean_name(&opponent.name), now).await?;
                let made = store::challenges::unanswered_to(&mut tx, request.challenger.id, opponent.id, since).await?;
                let count = made.len() as i64;
                if count >= MAX_UNANSWERED_TO_ONE {
                    // Another may be made once all but the limit's last one have left the day.
                    let leaving = made.len() + 1 - MAX_UNANSWERED_TO_ONE as usize;
                    let again_at = made[leaving - 1] + CHALLENGE_TTL;
                    // Named as the server calls them, as their challenges are.
                    let name = store::users::name(&mut tx, opponent.id, request.place.guild).await?;
                    let opponent = User { id: opponent.id, name };
                    return Err(HostError::TooManyChallengesTo { opponent, count, again_at });
                }
            }
            let id = store::challenges::insert(
                &mut tx,
                &store::challenges::NewChallenge {
                    guild_id: request.place.guild,
                    channel_id: request.place.channel,
                    thread_id: request.place.thread,
                    challenger_id: request.challenger.id,
                    opponent_id: request.opponent.as_ref().map(|o| o.id),
                    variant: variant.id(),
                    options: &options,
                    side: request.side.name(),
                    clock_seconds: clock.seconds_per_move(),
                    reserve_cap: clock.reserve_cap(),
                    expires_at: now.saturating_add(self.challenge_ttl),
                },
                now,
            )
            .await?;
            reload_challenge(&mut tx, id).await
        })?;
        tracing::info!(challenge = challenge.id, variant = variant.id(), "challenge made");
        Ok(challenge)
    }

    /// Accepts a challenge: only its named opponent, or anyone but the challenger for an open one.
    /// Starts the game, with sides drawn at random when the challenger asked for that.
    pub async fn accept(&self, id: ChallengeId, user: &User, now: i64) -> Result<Accepted, HostError> {
        self.accept_with(id, user, now, &mut |_| {}).await
    }

    /// [`Host::accept`], calling `before_commit` with the new game's id before the game is
    /// committed (again if the transaction is retried). A click that answers with the game's
    /// board keeps the delivery off the game's lane there: once the game is committed, the
    /// delivery may draw the same board at once, and its edit, landing after the player's next
    /// click, would close the menu that click opened.
    pub async fn accept_with(
        &self,
        id: ChallengeId,
        user: &User,
        now: i64,
        before_commit: &mut (dyn FnMut(GameId) + Send),
    ) -> Result<Accepted, HostError> {
        let accepted = transaction!(self.db.begin_write(), |tx| {
            let row = open_challenge(&mut tx, id, now).await?;
            if row.challenger_id == user.id {
                return Err(HostError::OwnChallenge { id });
            }
            if let Some(opponent) = row.opponent_id
                && opponent != user.id
            {
                return Err(HostError::NotYourChallenge {
                    id,
                    opponent: store::users::name(&mut tx, opponent, row.guild_id).await?,
                });
            }
            // The server's managers may have closed the channel to games since the challenge.
            let server: ServerSettings =
                settings::read(&store::servers::settings(&mut tx, row.guild_id).await?, "server", row.guild_id);
            if !server.allows(row.channel_id) {
                return Err(HostError::ChannelNotAllowed);
            }
            store::users::remember(&mut tx, user.id, &clean_name(&user.name), now).await?;
            let (variant, options) = validate_setup(&row.variant, &split_options(&row.options))?;
            let rules = variant
                .rules_with_texts(&split_options(&options))
                .map_err(|e| HostError::corrupt(0, &format!("challenge {id}: {e}")))?;
            let challenger_side = match row.side.as_str() {
                "attackers" => Side::Attackers,
                "defenders" => Side::Defenders,
                _ => coin_flip(id, now),
            };
            let (attacker_id, defender_id) = match challenger_side {
                Side::Attackers => (row.challenger_id, user.id),
                Side::Defenders => (user.id, row.challenger_id),
            };
            let rules_text = otn::rules_string(&rules);
            let game_id = store::games::insert(
                &mut tx,
                &NewGame {
                    guild_id: row.guild_id,
                    channel_id: row.channel_id,
                    thread_id: row.thread_id,
                    variant: variant.id(),
                    options: &options,
                    rules: &rules_text,
                    start_position: None,
                    start_to_move: None,
                    attacker_id,
                    defender_id,
                    clock_seconds: row.clock_seconds,
                    reserve_cap: row.reserve_cap,
                    turn: scheduler::first_turn(Clock::from_row(row.clock_seconds, row.reserve_cap), now, false),
                    imported: false,
                    rated: true,
                    bot_turn_at: None,
                },
                now,
            )
            .await?;
            store::challenges::close(&mut tx, id, "accepted", Some(game_id), now).await?;
            let challenge = reload_challenge(&mut tx, id).await?;
            let loaded = self.load(&mut tx, game_id).await?;
            let game = view(&loaded);
            // The challenge card becomes the game's board: one message per game.
            if let Some((channel, message)) = store::messages::challenge(&mut tx, id).await? {
                let style = BoardStyle::default().names();
                store::messages::set_board(&mut tx, game_id, channel, message, None, false, style, now).await?;
            }
            outbox::record(&mut tx, &Show::Board { game: game_id, ply: 0 }, now).await?;
            // A game accepted in a thread is played there: no thread is made in a thread.
            if server.threads && row.guild_id != 0 && row.thread_id.is_none() {
                outbox::record(&mut tx, &Show::Thread { game: game_id }, now).await?;
            }
            outbox::record(
                &mut tx,
                &Show::YourMove { game: game_id, ply: 0, after_takeback: false, again: false },
                now,
            )
            .await?;
            before_commit(game_id);
            Ok(Accepted { notify: vec![challenge.challenger.id], challenge, game })
        })?;
        tracing::info!(challenge = id, game = accepted.game.id, "challenge accepted");
        Ok(accepted)
    }

    /// Declines a challenge meant for `user`.
    pub async fn decline(&self, id: ChallengeId, user: UserId, now: i64) -> Result<Challenge, HostError> {
        transaction!(self.db.begin_write(), |tx| {
            let row = open_challenge(&mut tx, id, now).await?;
            match row.opponent_id {
                None if row.challenger_id == user => {
                    return Err(HostError::OwnChallenge { id });
                }
                None => return Err(HostError::DeclineOpen { id }),
                Some(opponent) if opponent != user => {
                    if row.challenger_id == user {
                        return Err(HostError::OwnChallenge { id });
                    }
                    return Err(HostError::NotYourChallenge {
                        id,
                        opponent: store::users::name(&mut tx, opponent, row.guild_id).await?,
                    });
                }
                Some(_) => {}
            }
            store::challenges::close(&mut tx, id, "declined", None, now).await?;
            outbox::record(&mut tx, &Show::ChallengeClosed { challenge: id, by: user }, now).await?;
            let challenge = reload_challenge(&mut tx, id).await?;
            Ok(challenge)
        })
    }

    /// Withdraws a challenge; only its challenger may.
    pub async fn cancel(&self, id: ChallengeId, user: UserId, now: i64) -> Result<Challenge, HostError> {
        transaction!(self.db.begin_write(), |tx| {
            let row = store::challenges::find(&mut tx, id).await?.ok_or(HostError::NoSuchChallenge(id))?;
            if row.challenger_id != user {
                return Err(HostError::NotChallenger {
                    id,
                    challenger: store::users::name(&mut tx, row.challenger_id, row.guild_id).await?,
                });
            }
            let row = open_challenge(&mut tx, id, now).await?;
            store::challenges::close(&mut tx, row.id, "cancelled", None, now).await?;
            outbox::record(&mut tx, &Show::ChallengeClosed { challenge: id, by: user }, now).await?;
            let challenge = reload_challenge(&mut tx, id).await?;
            Ok(challenge)
        })
    }

    /// Expires every open challenge whose time is up, returning them so that their cards can be
    /// updated and their challengers told. Meant to be called by a scheduler loop.
    pub async fn expire_challenges(&self, now: i64) -> Result<Vec<Challenge>, HostError> {
        transaction!(self.db.begin_write(), |tx| {
            let rows = store::challenges::expire(&mut tx, now, i64::MAX).await?;
            let mut expired = Vec::with_capacity(rows.len());
            for row in &rows {
                outbox::record(&mut tx, &Show::ChallengeClosed { challenge: row.id, by: row.challenger_id }, now)
                    .await?;
                expired.push(challenge_view(&mut tx, row).await?);
            }
            Ok(expired)
        })
    }

    /// The open challenges `user` made or may answer.
    pub async fn challenges(&self, user: UserId, now: i64) -> Result<Vec<Challenge>, HostError> {
        let mut tx = self.db.begin_read().await?;
        let rows = store::challenges::open_for(&mut tx, user, now).await?;
        let mut list = Vec::with_capacity(rows.len());
        for row in &rows {
            list.push(challenge_view(&mut tx, row).await?);
        }
        Ok(list)
    }

    /// One challenge.
    pub async fn challenge_by_id(&self, id: ChallengeId) -> Result<Challenge, HostError> {
        let mut tx = self.db.begin_read().await?;
        let row = store::challenges::find(&mut tx, id).await?.ok_or(HostError::NoSuchChallenge(id))?;
        challenge_view(&mut tx, &row).await
    }

    // ----- playing -----

    /// Plays a move for `user`. `expected_ply` is the ply of the board the player saw (from a
    /// button or a form); when the game has moved on since, the move is refused rather than
    /// applied to a board the player did not see. `None` skips that check (a typed command).
    pub async fn play(
        &self,
        game_id: GameId,
        user: UserId,
        text: &str,
        expected_ply: Option<usize>,
        now: i64,
    ) -> Result<Played, HostError> {
        let seen = expected_ply.map(SeenBoard::at_ply);
        Ok(self.play_checked(game_id, user, text, seen, None, None, now).await?.0)
    }

    /// [`Host::play`] on the board `seen` (its moves tag, when known, refuses the move too when
    /// the game came back to that ply by other moves), also returning the game's [`BoardState`]
    /// after the move, read in the move's own transaction: for a front end that answers the
    /// click with the new board, which then needs no read of its own.
    ///
    /// `foresee` is shown the game as the move leaves it as soon as the move is found legal,
    /// before it is written, so that the front end can start drawing the new board while the
    /// move is saved (drawing is the larger half of answering a click). It is not called for a
    /// move that ends the game (whose ending is only known once it is recorded), and it may be
    /// called again should the transaction be run again: what it saw is only a forecast, to be
    /// checked against the [`BoardState`] returned.
    pub async fn play_on_board(
        &self,
        game_id: GameId,
        user: UserId,
        text: &str,
        seen: Option<SeenBoard>,
        now: i64,
        foresee: Forecast<'_>,
    ) -> Result<(Played, BoardState), HostError> {
        let (played, state) = self.play_checked(game_id, user, text, seen, None, Some(foresee), now).await?;
        Ok((played, state.ok_or(HostError::Internal)?))
    }

    /// [`Host::play`], also refused when the moves played so far are not `expected_moves` (the
    /// bot's move, searched for one board: a takeback and a new move can bring back its ply).
    #[allow(clippy::too_many_arguments)]
    async fn play_checked(
        &self,
        game_id: GameId,
        user: UserId,
        text: &str,
        seen: Option<SeenBoard>,
        expected_moves: Option<&str>,
        mut foresee: Option<Forecast<'_>>,
        now: i64,
    ) -> Result<(Played, Option<BoardState>), HostError> {
        let (played, state, bot_turn) = transaction!(self.db.begin_write(), |tx| {
            let mut loaded = self.load_for_update(&mut tx, game_id).await?;
            let side = player_side(&loaded, user)?;
            ensure_ongoing(&loaded)?;
            if let Some(seen) = seen {
                seen.check(game_id, &loaded.game)?;
            }
            let ply = loaded.game.ply();
            if let Some(expected) = expected_moves {
                if expected != movetext(&loaded.game) {
                    return Err(HostError::StaleBoard { id: game_id, ply, expected: ply });
                }
                // The bot's move, searched before its server removed it (see `host/presence.rs`).
                if loaded.row.server_left_at.is_some() {
                    return Err(HostError::Paused { id: game_id });
                }
            }
            let to_move = ensure_turn(&mut tx, &loaded, &side).await?;
            let text: MoveText =
                legal::as_typed(text).parse().map_err(|e: tafl_rules::ParseError| HostError::BadMove(e))?;
            let played = loaded.game.play_text(&text).map_err(HostError::IllegalMove)?.clone();
            // The board message, read once: its style for the forecast, and the state returned.
            let board_message =
                if foresee.is_some() { Some(store::messages::board(&mut tx, game_id).await?) } else { None };
            if let Some(forecast) = foresee.as_deref_mut()
                && played.status.is_ongoing()
            {
                let style = board::style_of(board_message.as_ref().and_then(Option::as_ref));
                forecast(&view(&loaded), &loaded.game, style);
            }
            let notation = played.text().to_string();
            let new_ply = loaded.game.ply() as i64;
            if let Err(error) = store::moves::insert(&mut tx, game_id, new_ply, &notation, Some(user), now).await {
                // The primary key caught a second move for this ply: another writer got there first.
                if is_unique_violation(&error) {
                    return Err(HostError::StaleBoard { id: game_id, ply: ply + 1, expected: ply });
                }
                return Err(error.into());
            }
            store::games::append_move(&mut tx, game_id, new_ply, &notation, now).await?;
            if loaded.row.open_offers > 0 {
                store::offers::lapse_on_move(&mut tx, game_id, user, now).await?;
            }
            let mut notify = vec![side_player(&loaded.row, to_move.opponent())];
            let mut bot_turn = false;
            if let Status::Finished(outcome) = played.status {
                let ending = Ending { winner: outcome.winner, reason: EndReason::Board(outcome.reason) };
                end_game(&mut tx, &mut loaded, ending, None, now).await?;
                notify = players(&loaded.row);
            } else {
                // Untimed games too: an untimed turn's start is when a claim becomes possible.
                let turn = scheduler::turn_after_move(&loaded.row, to_move, now);
                store::games::set_turn(&mut tx, game_id, &turn).await?;
                set_turn_in_row(&mut loaded.row, &turn);
                let ply = loaded.game.ply();
                outbox::record(&mut tx, &Show::Board { game: game_id, ply }, now).await?;
                // The bot needs no notice: its turn is noted for the bot player instead.
                bot_turn = bot::note_turn(&mut tx, &mut loaded, now).await?;
                if !bot_turn {
                    outbox::record(
                        &mut tx,
                        &Show::YourMove { game: game_id, ply, after_takeback: false, again: false },
                        now,
                    )
                    .await?;
                }
            }
            loaded.row.ply = new_ply;
            let game = view(&loaded);
            // Boxed, so that a plain move does not carry the reads it skips in its future.
            let state = match board_message {
                Some(message) => Some(Box::pin(board::state_with(&mut tx, &loaded, message)).await?),
                None => None,
            };
            Ok((Played { game, notation, notify }, state, bot_turn))
        })?;
        if bot_turn {
            self.bot_signal.notify_one();
        }
        tracing::debug!(game = game_id, ply = played.game.ply, notation = %played.notation, "move played");
        Ok((played, state))
    }

    /// Resigns `user`'s game: the opponent wins. `expected_ply` is the ply of the board the
    /// player saw, as for [`Host::play`].
    pub async fn resign(
        &self,
        game_id: GameId,
        user: UserId,
        expected_ply: Option<usize>,
        now: i64,
    ) -> Result<Finished, HostError> {
        let finished = transaction!(self.db.begin_write(), |tx| {
            let loaded = self.load_for_update(&mut tx, game_id).await?;
            let sides = player_side(&loaded, user)?;
            ensure_ongoing(&loaded)?;
            ensure_ply(&loaded, expected_ply)?;
            // Someone playing both sides (an imported or test game) resigns for the side to move.
            let side = if sides.len() == 1 { sides[0] } else { loaded.game.position().to_move() };
            let ending = Ending { winner: Some(side.opponent()), reason: EndReason::Resignation };
            let finished = finish_in(&mut tx, loaded, ending, Some(user), now).await?;
            Ok(finished)
        })?;
        self.wake_bot_after(&finished.game);
        Ok(finished)
    }

    /// Wakes the bot player after a change that may have ended a turn of the bot it is searching
    /// or waiting to search (a resignation, a claim, a draw or a takeback in a game against it):
    /// its next look drops that search. Without this, the look came at the player's next tick
    /// (5 s), and a search waiting in the queue meanwhile ran to the end when a thread came
    /// free, seconds of a thread that other players' bot moves waited for.
    fn wake_bot_after(&self, game: &GameView) {
        if is_bot(game.attacker.id) || is_bot(game.defender.id) {
            self.bot_signal.notify_one();
        }
    }

    /// Claims `user`'s untimed game that their opponent has left: once the opponent's turn has
    /// lasted [`CLAIM_AFTER`], the player waiting for a move wins (the game
    /// is abandoned), or, when fewer than two plies were played, the game is aborted (no result,
    /// unrated), as a clock running out would. A timed game ends on time by itself, so it cannot
    /// be claimed.
    ///
    /// A game paused because its server removed the bot (see `presence`) counts against nobody,
    /// so nobody wins it by claim; but a server may never take the bot back (it was deleted),
    /// and its games must not stay open for good. Once the bot has been away for
    /// [`CLAIM_AFTER`], either player may end such a game, timed or not:
    /// without a result and unrated ([`EndReason::BotRemoved`]).
    pub async fn claim(&self, game_id: GameId, user: UserId, now: i64) -> Result<Finished, HostError> {
        let finished = transaction!(self.db.begin_write(), |tx| { self.claim_in(&mut tx, game_id, user, now).await })?;
        self.wake_bot_after(&finished.game);
        Ok(finished)
    }

    /// [`Host::claim`] in `tx`, which the caller commits when it succeeds.
    async fn claim_in(
        &self,
        tx: &mut store::WriteTx,
        game_id: GameId,
        user: UserId,
        now: i64,
    ) -> Result<Finished, HostError> {
        let loaded = self.load_for_update(&mut *tx, game_id).await?;
        let sides = player_side(&loaded, user)?;
        ensure_ongoing(&loaded)?;
        let row = &loaded.row;
        if let Some(left_at) = row.server_left_at {
            let claimable_at = left_at.saturating_add(types::CLAIM_AFTER);
            if now < claimable_at {
                return Err(HostError::ClaimPaused { id: game_id, claimable_at });
            }
            let ending = Ending { winner: None, reason: EndReason::BotRemoved };
            return finish_in(&mut *tx, loaded, ending, None, now).await;
        }
        if row.clock_seconds.is_some() {
            return Err(HostError::ClaimTimed { id: game_id });
        }
        let to_move = loaded.game.position().to_move();
        if sides.contains(&to_move) {
            return Err(HostError::ClaimOnYourMove { id: game_id });
        }
        let absent = side_player(row, to_move);
        // The bot moves by itself; when it is late, the host is at fault, not a player (see
        // the scheduler's docs), and nobody wins by it.
        if is_bot(absent) {
            return Err(HostError::ClaimFromBot { id: game_id });
        }
        // Every turn records its start (migration 0016 gave ongoing games theirs), as the
        // scheduler and the game lists measure it.
        let since = row.turn_started_at.unwrap_or(row.updated_at);
        let claimable_at = since.saturating_add(types::CLAIM_AFTER);
        let name = if to_move == Side::Attackers { &row.attacker_name } else { &row.defender_name };
        let player = User { id: absent, name: name.clone() };
        let aborts = loaded.game.ply() < types::PLIES_TO_COUNT;
        if let Some(claimable_at) = self.claim_after_grace(&mut *tx, row, now).await? {
            // Rolled back: the scheduler gives the grace (and the warning) at its first tick.
            return Err(HostError::ClaimAfterOutage { id: game_id, player, claimable_at, aborts });
        }
        if now < claimable_at {
            return Err(HostError::ClaimTooSoon { id: game_id, player, since, claimable_at, aborts });
        }
        scheduler::end_for_absence(&mut *tx, loaded, scheduler::Absence::Abandoned, now).await
    }

    /// When the untimed game of `row` may be claimed once the scheduler has given the grace
    /// after downtime, if that is later than now: the scheduler judging its clocks has not run
    /// since an outage (see [`Host::claims_wait_for_grace`]), and its first tick would move the
    /// claim (README: "After downtime, a claim that became possible during the outage or within
    /// the hour waits for the same grace as a deadline"). Worked out by that tick's own update,
    /// in the claim's transaction, which the caller rolls back.
    async fn claim_after_grace(&self, conn: &mut Conn, row: &GameRow, now: i64) -> Result<Option<i64>, HostError> {
        if !self.claims_wait_for_grace(conn, row.guild_id, now).await? {
            return Ok(None);
        }
        let until = now.saturating_add(self.grace);
        let claims = (types::CLAIM_AFTER, scheduler::CLAIM_WARNING);
        store::games::extend_claims(conn, (now, until), claims, store::outbox::ServedShards::ALL, Some(row.id)).await?;
        let moved = store::games::find(conn, row.id).await?.and_then(|moved| moved.turn_started_at);
        Ok(moved
            .filter(|&moved| Some(moved) != row.turn_started_at)
            .map(|moved| moved.saturating_add(types::CLAIM_AFTER)))
    }

    /// Ends a game for a reason decided outside the board: time (the side to move loses) or an
    /// ending a moderator or the scheduler records. Refuses games already over.
    pub async fn finish(&self, game_id: GameId, ending: Ending, now: i64) -> Result<Finished, HostError> {
        transaction!(self.db.begin_write(), |tx| {
            let loaded = self.load_for_update(&mut tx, game_id).await?;
            ensure_ongoing(&loaded)?;
            // A game without a result has neither winner nor loser, whatever the caller said.
            let ending = if ending.has_result() { ending } else { Ending { winner: None, ..ending } };
            let loser = ending.winner.map(|w| side_player(&loaded.row, w.opponent()));
            let finished = finish_in(&mut tx, loaded, ending, loser, now).await?;
            Ok(finished)
        })
    }

    /// The side to move runs out of time and loses; a game where fewer than two plies were
    /// played is aborted instead (no result, unrated). The scheduler does this at the deadline.
    pub async fn time_out(&self, game_id: GameId, now: i64) -> Result<Finished, HostError> {
        transaction!(self.db.begin_write(), |tx| {
            let loaded = self.load_for_update(&mut tx, game_id).await?;
            ensure_ongoing(&loaded)?;
            let finished = scheduler::end_for_absence(&mut tx, loaded, scheduler::Absence::Time, now).await?;
            Ok(finished)
        })
    }

    /// Offers, accepts or declines a draw. Offering when the opponent has already offered
    /// accepts their offer. A decline by the one who offered withdraws the offer.
    pub async fn draw(
        &self,
        game_id: GameId,
        user: UserId,
        action: OfferAction,
        expected_ply: Option<usize>,
        now: i64,
    ) -> Result<OfferOutcome, HostError> {
        let outcome = transaction!(self.db.begin_write(), |tx| {
            let loaded = self.load_for_update(&mut tx, game_id).await?;
            player_side(&loaded, user)?;
            ensure_ongoing(&loaded)?;
            ensure_ply(&loaded, expected_ply)?;
            let open = store::offers::open(&mut tx, game_id, "draw").await?;
            let opponent = opponent_of(&loaded.row, user);
            if action == OfferAction::Offer && open.is_none() {
                ensure_not_refused(&mut tx, &loaded, OfferKind::Draw, user).await?;
            }
            if action == OfferAction::Offer && open.is_none() && is_bot(opponent) {
                return bot_answers_draw(&mut tx, loaded, user, opponent, now).await;
            }
            let outcome = match (action, open) {
                (OfferAction::Offer, Some(offer)) if offer.by_user == user => {
                    return Err(HostError::AlreadyOffered { id: game_id, kind: OfferKind::Draw });
                }
                (OfferAction::Offer | OfferAction::Accept, Some(offer)) if offer.by_user != user => {
                    store::offers::resolve(&mut tx, offer.id, "accepted", now).await?;
                    let event = OfferEvent::Accepted { plies_taken_back: 0 };
                    record_offer(&mut tx, game_id, OfferKind::Draw, event, user, Vec::new(), now).await?;
                    let ending = Ending { winner: None, reason: EndReason::Agreement };
                    let finished = finish_in(&mut tx, loaded, ending, None, now).await?;
                    OfferOutcome::Accepted {
                        game: finished.game,
                        by: user,
                        notify: finished.notify,
                        plies_taken_back: 0,
                    }
                }
                (OfferAction::Offer, _) => {
                    let made =
                        store::offers::insert(&mut tx, game_id, "draw", user, loaded.game.ply() as i64, now).await?;
                    record_offered(&mut tx, game_id, OfferKind::Draw, made, user, opponent, now).await?;
                    outbox::record(&mut tx, &Show::Board { game: game_id, ply: loaded.game.ply() }, now).await?;
                    OfferOutcome::Offered { game: view(&loaded), by: user, notify: opponent }
                }
                (OfferAction::Accept, Some(_)) => {
                    return Err(HostError::OwnOffer { id: game_id, kind: OfferKind::Draw });
                }
                (OfferAction::Accept | OfferAction::Decline, None) => {
                    return Err(HostError::NoOffer { id: game_id, kind: OfferKind::Draw, action });
                }
                (OfferAction::Decline, Some(offer)) => decline(&mut tx, &loaded, &offer, user, opponent, now).await?,
            };
            Ok(outcome)
        })?;
        if matches!(outcome, OfferOutcome::Accepted { .. }) {
            self.wake_bot_after(outcome.game());
        }
        Ok(outcome)
    }

    /// Requests, accepts or declines a takeback. Accepting takes back moves until it is the
    /// requester's turn again: their last move, and the opponent's reply if there was one.
    pub async fn takeback(
        &self,
        game_id: GameId,
        user: UserId,
        action: OfferAction,
        expected_ply: Option<usize>,
        now: i64,
    ) -> Result<OfferOutcome, HostError> {
        let outcome = transaction!(self.db.begin_write(), |tx| {
            let mut loaded = self.load_for_update(&mut tx, game_id).await?;
            player_side(&loaded, user)?;
            ensure_ongoing(&loaded)?;
            ensure_ply(&loaded, expected_ply)?;
            let open = store::offers::open(&mut tx, game_id, "takeback").await?;
            let opponent = opponent_of(&loaded.row, user);
            let outcome = match (action, open) {
                (OfferAction::Offer, Some(offer)) if offer.by_user == user => {
                    return Err(HostError::AlreadyOffered { id: game_id, kind: OfferKind::Takeback });
                }
                (OfferAction::Offer, Some(_)) => return Err(HostError::TakebackPending { id: game_id }),
                (OfferAction::Offer, None) => {
                    if takeback_plies(&loaded, user).is_none() {
                        return Err(HostError::NothingToTakeBack(game_id));
                    }
                    ensure_not_refused(&mut tx, &loaded, OfferKind::Takeback, user).await?;
                    if is_bot(opponent) && !bot::accepts_takeback(loaded.row.rated) {
                        return Err(HostError::BotRefusesTakeback { id: game_id });
                    }
                    let made = store::offers::insert(&mut tx, game_id, "takeback", user, loaded.game.ply() as i64, now)
                        .await?;
                    if is_bot(opponent) {
                        // The bot agrees at once (unrated games only, checked above).
                        let offer =
                            store::offers::open(&mut tx, game_id, "takeback").await?.ok_or(HostError::Internal)?;
                        return take_back(&mut tx, &mut loaded, &offer, opponent, now).await;
                    }
                    record_offered(&mut tx, game_id, OfferKind::Takeback, made, user, opponent, now).await?;
                    outbox::record(&mut tx, &Show::Board { game: game_id, ply: loaded.game.ply() }, now).await?;
                    OfferOutcome::Offered { game: view(&loaded), by: user, notify: opponent }
                }
                (OfferAction::Accept, Some(offer)) if offer.by_user != user => {
                    take_back(&mut tx, &mut loaded, &offer, user, now).await?
                }
                (OfferAction::Accept, Some(_)) => {
                    return Err(HostError::OwnOffer { id: game_id, kind: OfferKind::Takeback });
                }
                (OfferAction::Accept | OfferAction::Decline, None) => {
                    return Err(HostError::NoOffer { id: game_id, kind: OfferKind::Takeback, action });
                }
                (OfferAction::Decline, Some(offer)) => decline(&mut tx, &loaded, &offer, user, opponent, now).await?,
            };
            Ok(outcome)
        })?;
        if matches!(outcome, OfferOutcome::Accepted { .. }) {
            self.wake_bot_after(outcome.game());
        }
        Ok(outcome)
    }

    // ----- reading -----

    /// A game as it stands.
    pub async fn show(&self, game_id: GameId) -> Result<GameView, HostError> {
        let mut tx = self.db.begin_read().await?;
        let loaded = self.load(&mut tx, game_id).await?;
        Ok(view(&loaded))
    }

    /// A user's games, most recently active first: the ongoing ones, or all when `all`.
    pub async fn games(&self, user: UserId, all: bool) -> Result<Vec<GameSummary>, HostError> {
        let mut tx = self.db.begin_read().await?;
        let rows = store::games::of_user(&mut tx, user, !all, 100).await?;
        let mut list = Vec::with_capacity(rows.len());
        for row in &rows {
            list.push(summary(row, user));
        }
        Ok(list)
    }

    /// The games a digest lists for `user`: where it is their move and the game is not paused,
    /// the nearest deadline first (then untimed games, most recently active first), at most
    /// [`scheduler::MAX_DIGEST_GAMES`]. A list cut to what a message holds keeps the games
    /// closest to being lost on time.
    pub async fn games_awaiting(&self, user: UserId) -> Result<Awaiting, HostError> {
        let mut tx = self.db.begin_read().await?;
        awaiting(&mut tx, user).await
    }

    /// `user`'s games in `guild` that have been paused (the bot was removed from the server)
    /// long enough for either player to end them without a result at `now`, most recently
    /// active first, at most [`scheduler::MAX_DIGEST_GAMES`]: what their DM lists.
    pub async fn paused_games(&self, user: UserId, guild: i64, now: i64) -> Result<Vec<GameSummary>, HostError> {
        let mut tx = self.db.begin_read().await?;
        paused_games(&mut tx, user, guild, now).await
    }

    /// How many games [`Host::games`] has for `user` in all, of which it lists the newest 100.
    pub async fn count_games(&self, user: UserId, all: bool) -> Result<usize, HostError> {
        let mut conn = self.db.pool().acquire().await?;
        let count = store::games::count_of_user(&mut conn, user, !all).await?;
        Ok(usize::try_from(count).unwrap_or(0))
    }

    /// The legal moves `user` may play now in a game, filtered by a typed prefix (`e1`, `e1-e`,
    /// `E1E`), at most `limit`, winning moves and captures first.
    pub async fn legal_moves(
        &self,
        game_id: GameId,
        user: UserId,
        prefix: &str,
        limit: usize,
    ) -> Result<Vec<MoveChoice>, HostError> {
        let mut tx = self.db.begin_read().await?;
        let loaded = self.load(&mut tx, game_id).await?;
        let side = player_side(&loaded, user)?;
        ensure_ongoing(&loaded)?;
        ensure_turn(&mut tx, &loaded, &side).await?;
        Ok(legal::choices(&loaded.game, prefix, limit))
    }

    /// The OTN record of a game, with players, variant and result as tags.
    pub async fn export(&self, game_id: GameId) -> Result<String, HostError> {
        let mut tx = self.db.begin_read().await?;
        let loaded = self.load(&mut tx, game_id).await?;
        let view = view(&loaded);
        let mut tags = vec![
            ("game".to_owned(), game_id.to_string()),
            ("variant".to_owned(), view.variant.clone()),
            ("attackers".to_owned(), view.attacker.name.clone()),
            ("defenders".to_owned(), view.defender.name.clone()),
        ];
        if !view.options.is_empty() {
            tags.push(("options".to_owned(), view.options.clone()));
        }
        let mut end = None;
        match view.ending {
            Some(ending) => {
                tags.push(("result".to_owned(), otn::result_tag(ending.status()).to_owned()));
                tags.push(("termination".to_owned(), ending.reason.name().to_owned()));
                let loser_to_move = ending.winner == Some(view.to_move.opponent());
                end = match ending.reason {
                    EndReason::Resignation if loser_to_move => Some(RecordEnd::Resigned),
                    EndReason::Time if loser_to_move => Some(RecordEnd::Timeout),
                    _ => None,
                };
            }
            None => tags.push(("result".to_owned(), "?".to_owned())),
        }
        let mut record = GameRecord::from_game(&loaded.game, tags);
        record.end = end;
        Ok(record.to_string())
    }

    /// Imports a finished game from an OTN record, for its summary and export. The record must
    /// say how the game ended: on the board, with `---` or `timeout`, with a `result` tag, or
    /// without a result by its `termination` (`aborted`, `bot_removed`); see [`recorded_ending`].
    /// Its `variant` and `options` tags name the preset when they agree with its rules.
    pub async fn import(
        &self,
        record: &str,
        attacker: &User,
        defender: &User,
        place: Place,
        now: i64,
    ) -> Result<GameView, HostError> {
        let (parsed, game, ending) = read_import(record)?;
        let rules_text = otn::rules_string(&parsed.rules);
        let (variant, options) = recorded_variant(&parsed, &rules_text);
        let start_position = parsed.start.as_ref().map(|(setup, _)| setup.to_string());
        let start_to_move = parsed.start.as_ref().map(|(_, side)| side.name());
        transaction!(self.db.begin_write(), |tx| {
            store::users::remember(&mut tx, attacker.id, &clean_name(&attacker.name), now).await?;
            store::users::remember(&mut tx, defender.id, &clean_name(&defender.name), now).await?;
            let game_id = store::games::insert(
                &mut tx,
                &NewGame {
                    guild_id: place.guild,
                    channel_id: place.channel,
                    thread_id: place.thread,
                    variant,
                    options: &options,
                    rules: &rules_text,
                    start_position: start_position.as_deref(),
                    start_to_move,
                    attacker_id: attacker.id,
                    defender_id: defender.id,
                    clock_seconds: None,
                    reserve_cap: None,
                    turn: store::games::Turn::default(),
                    imported: true,
                    rated: false,
                    bot_turn_at: None,
                },
                now,
            )
            .await?;
            for (n, played) in game.moves().iter().enumerate() {
                store::moves::insert(&mut tx, game_id, n as i64 + 1, &played.text().to_string(), None, now).await?;
            }
            store::games::set_moves(&mut tx, game_id, game.ply() as i64, &movetext(&game), now).await?;
            let loser = ending.winner.map(|w| if w == Side::Attackers { defender.id } else { attacker.id });
            let loser = if matches!(ending.reason, EndReason::Board(_)) { None } else { loser };
            store::games::finish(&mut tx, game_id, ending.status_name(), ending.reason.name(), loser, now).await?;
            let loaded = self.load(&mut tx, game_id).await?;
            Ok(view(&loaded))
        })
    }
}

/// Whether [`Host::import`] takes `record`: every refusal it can give but the storage's, checked
/// without storing anything, so that a caller can look before it stores the players.
pub fn check_import(record: &str) -> Result<(), HostError> {
    read_import(record).map(|_| ())
}

/// Whether a challenge may be made with `variant` and `options` (the rules crate's checks that
/// [`Host::challenge`] and [`Host::challenge_bot`] make first), without storing anything.
pub fn check_setup(variant: &str, options: &[String]) -> Result<(), HostError> {
    validate_setup(variant, options).map(|_| ())
}

/// The record `/import` reads, replayed, and how it ended; refused as [`Host::import`] refuses.
fn read_import(record: &str) -> Result<(GameRecord, Game, Ending), HostError> {
    let parsed = GameRecord::parse(record).map_err(|e| HostError::BadRecord(RecordFault::Unreadable(e)))?;
    if parsed.moves.len() > crate::limits::MAX_PLIES {
        return Err(HostError::BadRecord(RecordFault::TooLong { plies: parsed.moves.len() }));
    }
    let game = parsed.replay().map_err(|(ply, e)| {
        HostError::BadRecord(match e {
            tafl_rules::otn::RecordError::Rules(why) => RecordFault::Rules(why),
            tafl_rules::otn::RecordError::Move(source) => RecordFault::Move { ply, source },
        })
    })?;
    let ending = recorded_ending(&game, &parsed)
        .map_err(HostError::BadRecord)?
        .ok_or(HostError::BadRecord(RecordFault::NoResult))?;
    Ok((parsed, game, ending))
}

// ----- helpers shared by the operations -----

/// How many times an operation is run again after `PostgreSQL` ended its transaction to break a
/// deadlock or a serialisation conflict (see `transaction!`).
pub const CONFLICT_RETRIES: u32 = 5;

/// How the record of `game` (replayed from `record`) says the game ended, as `/import` takes it
/// and `tafl-bot replay --record` reports it: on the board; by `---` or `timeout`, the side to
/// move having resigned or run out of time; by its `result` tag, with the `termination` tag's
/// reason when that reason can end a game so (a resignation for a win, an agreement for a draw
/// otherwise); or without a result, when there is none (`[result:?]` or no tag) and the
/// `termination` is `aborted` or `bot_removed`, as `/export` writes such a game. `None` when the
/// record does not say (no end, no result tag, or `[result:?]` without such a termination).
///
/// Refused: a result tag that names another winner than the moves and the end do, a
/// `termination` naming an ending on the board that the moves do not reach, and an end marker
/// after moves that already end the game on the board.
pub fn recorded_ending(game: &Game, record: &GameRecord) -> Result<Option<Ending>, RecordFault> {
    let to_move = game.position().to_move();
    // The result tag's winner (`Some(None)`: a draw), when it names one.
    let tagged = match record.tag("result").map(str::trim) {
        Some("1") => Some(Some(Side::Attackers)),
        Some("-1") => Some(Some(Side::Defenders)),
        Some("0") => Some(None),
        _ => None,
    };
    let termination = record.tag("termination").map(str::trim).and_then(EndReason::parse);
    // Only the board itself ends a game so: the tag cannot make up a capture or an escape.
    if let Some(EndReason::Board(reason)) = termination
        && game.status().reason() != Some(reason)
    {
        return Err(RecordFault::ContradictoryTermination);
    }
    let ending = match (game.status(), record.end) {
        (Status::Finished(_), Some(_)) => return Err(RecordFault::EndAfterFinish),
        (Status::Finished(outcome), None) => {
            Ending { winner: outcome.winner, reason: EndReason::Board(outcome.reason) }
        }
        (Status::Ongoing, Some(RecordEnd::Resigned)) => {
            Ending { winner: Some(to_move.opponent()), reason: EndReason::Resignation }
        }
        (Status::Ongoing, Some(RecordEnd::Timeout)) => {
            Ending { winner: Some(to_move.opponent()), reason: EndReason::Time }
        }
        (Status::Ongoing, None) => {
            let Some(winner) = tagged else {
                // A game that ended without a result says so by its termination alone.
                return Ok(termination
                    .filter(|reason| !reason.has_result())
                    .map(|reason| Ending { winner: None, reason }));
            };
            let default = if winner.is_some() { EndReason::Resignation } else { EndReason::Agreement };
            // A termination that cannot end the game so (a draw by resignation, a win by
            // agreement) is not taken at its word.
            let reason = termination
                .filter(|reason| match reason {
                    EndReason::Agreement => winner.is_none(),
                    EndReason::Resignation => winner.is_some(),
                    // Only the side to move runs out of time or leaves a game, and a game left
                    // before the second move is aborted, not won.
                    EndReason::Time => winner == Some(to_move.opponent()),
                    EndReason::Abandoned => winner == Some(to_move.opponent()) && game.ply() >= types::PLIES_TO_COUNT,
                    EndReason::Board(_) | EndReason::Aborted | EndReason::BotRemoved => false,
                })
                .unwrap_or(default);
            Ending { winner, reason }
        }
    };
    if tagged.is_some_and(|winner| winner != ending.winner) {
        return Err(RecordFault::ContradictoryResult);
    }
    Ok(Some(ending))
}

/// The preset and options a record's game was played under, as `/import` stores them: those of
/// its `variant` and `options` tags (as `/export` writes them) when they give its rules; else the
/// preset whose rules are the record's, without options; else `custom`. Tags that do not give
/// the record's rules (another tool's name for a variant, or its own rules for it) are a label,
/// and the rules, which the moves were played under, decide.
fn recorded_variant(record: &GameRecord, rules_text: &str) -> (&'static str, String) {
    let tagged = record.tag("variant").and_then(|variant| {
        let options = split_options(record.tag("options").unwrap_or_default());
        let (variant, options) = validate_setup(variant, &options).ok()?;
        let rules = variant.rules_with_texts(&split_options(&options)).ok()?;
        (otn::rules_string(&rules) == rules_text).then_some((variant.id(), options))
    });
    tagged.unwrap_or_else(|| {
        let preset = Variant::ALL.into_iter().find(|v| otn::rules_string(&v.rules()) == rules_text);
        (preset.map_or("custom", Variant::id), String::new())
    })
}

/// The pause before retry `n` (from 1): 2^n ms plus up to as much again at random, so 2-4 ms
/// first and 32-64 ms before the fifth.
pub(crate) fn conflict_pause(n: u32) -> std::time::Duration {
    let base_us = 1_000u64 << n.min(10);
    // A fresh `RandomState` is seeded anew each time: enough randomness for a jitter.
    let jitter_us = std::collections::hash_map::RandomState::new().hash_one(n) % base_us;
    std::time::Duration::from_micros(base_us + jitter_us)
}

type Conn = sqlx::AnyConnection;

impl Host {
    /// [`Host::load`] for an operation that will write the game: its row is locked first (see
    /// `store::games::lock`), so that what was read stays true until the commit.
    async fn load_for_update(&self, conn: &mut Conn, game_id: GameId) -> Result<Loaded, HostError> {
        store::games::lock(conn, game_id).await?;
        self.load(conn, game_id).await
    }

    /// Rebuilds a game from its row and move list. A row that cannot be rebuilt is a bug or a
    /// damaged database: logged, and reported to the player as an internal error.
    async fn load(&self, conn: &mut Conn, game_id: GameId) -> Result<Loaded, HostError> {
        let row = store::games::find(conn, game_id).await?.ok_or(HostError::NoSuchGame(game_id))?;
        // The cached move text when it agrees with the ply count, else the move list itself.
        let cached: Vec<&str> = row.movetext.split_whitespace().collect();
        let listed;
        let moves: Vec<&str> = if cached.len() as i64 == row.ply {
            cached
        } else {
            tracing::debug!(game_id, "the move-text cache is stale; reading the move list");
            listed = store::moves::list(conn, game_id).await?;
            listed.iter().map(String::as_str).collect()
        };
        let mut position = self.start_of(&row.rules).map_err(|e| HostError::corrupt(game_id, &e))?;
        if let Some(start) = &row.start_position {
            let setup: Setup =
                start.parse().map_err(|e: tafl_rules::ParseError| HostError::corrupt(game_id, &e.to_string()))?;
            let side = row.start_to_move.as_deref().and_then(Side::from_name).unwrap_or(Side::Attackers);
            position = position.with_setup(&setup, side).map_err(|e| HostError::corrupt(game_id, &e.to_string()))?;
        }
        let mut game = Game::new(position);
        for (n, notation) in moves.iter().enumerate() {
            let text: MoveText =
                notation.parse().map_err(|e: tafl_rules::ParseError| HostError::corrupt(game_id, &e.to_string()))?;
            game.play_text(&text).map_err(|e| HostError::corrupt(game_id, &format!("ply {}: {e}", n + 1)))?;
        }
        Ok(Loaded { row, game })
    }

    /// The start position of an OTN rules string. Compiling rules costs more than replaying a
    /// game, and a bot hosts a handful of rule sets, so each is compiled once and shared.
    fn start_of(&self, rules: &str) -> Result<Position, String> {
        let mut cache = self.starts.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(position) = cache.get(rules) {
            return Ok(position.clone());
        }
        let parsed = otn::parse_rules(rules).map_err(|e| e.to_string())?;
        let position = Position::new(parsed).map_err(|e| e.to_string())?;
        if cache.len() >= 256 {
            cache.clear(); // imported custom rules could otherwise grow it without bound
        }
        cache.insert(rules.to_owned(), position.clone());
        Ok(position)
    }
}

fn view(loaded: &Loaded) -> GameView {
    let row = &loaded.row;
    let attacker = User { id: row.attacker_id, name: row.attacker_name.clone() };
    let defender = User { id: row.defender_id, name: row.defender_name.clone() };
    GameView {
        id: row.id,
        place: Place { guild: row.guild_id, channel: row.channel_id, thread: row.thread_id },
        variant: row.variant.clone(),
        options: row.options.clone(),
        attacker,
        defender,
        ply: loaded.game.ply(),
        to_move: loaded.game.position().to_move(),
        ending: Ending::from_row(&row.status, row.reason.as_deref()),
        last_move: loaded.game.moves().last().map(tafl_rules::PlayedMove::text),
        position: loaded.game.position().clone(),
        clock: Clock::from_row(row.clock_seconds, row.reserve_cap),
        deadline_at: row.deadline_at.filter(|_| row.status == "ongoing"),
        attacker_reserve: row.attacker_reserve,
        defender_reserve: row.defender_reserve,
        imported: row.imported,
        rated: row.rated,
        channel_gone: row.channel_gone_at.is_some(),
    }
}

/// `user`'s games awaiting their move, as a digest lists them (see [`Host::games_awaiting`]).
async fn awaiting(conn: &mut Conn, user: UserId) -> Result<Awaiting, HostError> {
    let rows = store::games::awaiting(conn, user, scheduler::MAX_DIGEST_GAMES).await?;
    // The query picks the rows; the summary's own reading of whose turn it is has the last word.
    let games: Vec<GameSummary> = rows.iter().map(|row| summary(row, user)).filter(GameSummary::awaits_me).collect();
    // Only a full list may have left games out.
    let total = if (rows.len() as i64) < scheduler::MAX_DIGEST_GAMES {
        games.len()
    } else {
        usize::try_from(store::games::count_awaiting(conn, user).await?).unwrap_or(usize::MAX)
    };
    Ok(Awaiting { games, total })
}

/// `user`'s games in `guild`, paused since the bot was removed from it, that either player may
/// end without a result at `now` (see [`Host::paused_games`]).
async fn paused_games(conn: &mut Conn, user: UserId, guild: i64, now: i64) -> Result<Vec<GameSummary>, HostError> {
    let rows = store::games::paused_of_user(conn, user, guild, scheduler::MAX_DIGEST_GAMES).await?;
    Ok(rows.iter().map(|row| summary(row, user)).filter(|game| game.may_end_paused(now)).collect())
}

/// One line of `user`'s game list.
fn summary(row: &GameRow, user: UserId) -> GameSummary {
    let side = if row.attacker_id == user { Side::Attackers } else { Side::Defenders };
    let opponent_id = side_player(row, side.opponent());
    let name = if side == Side::Attackers { &row.defender_name } else { &row.attacker_name };
    let to_move = scheduler::to_move(row);
    let untimed_person = row.clock_seconds.is_none() && !is_bot(side_player(row, to_move));
    let claimable_at = row.turn_started_at.filter(|_| row.status == "ongoing" && untimed_person);
    let paused_since = row.server_left_at.filter(|_| row.status == "ongoing");
    GameSummary {
        id: row.id,
        place: Place { guild: row.guild_id, channel: row.channel_id, thread: row.thread_id },
        variant: row.variant.clone(),
        side,
        opponent: User { id: opponent_id, name: name.clone() },
        ply: usize::try_from(row.ply).unwrap_or(0),
        to_move,
        ending: Ending::from_row(&row.status, row.reason.as_deref()),
        clock: Clock::from_row(row.clock_seconds, row.reserve_cap),
        deadline_at: row.deadline_at.filter(|_| row.status == "ongoing"),
        claimable_at: claimable_at.map(|start| start.saturating_add(CLAIM_AFTER)),
        paused_since,
        channel_gone: row.channel_gone_at.is_some() && row.status == "ongoing",
    }
}

/// Copies a new turn into a loaded row, so the view returned shows it.
fn set_turn_in_row(row: &mut GameRow, turn: &store::games::Turn) {
    row.attacker_reserve = turn.attacker_reserve;
    row.defender_reserve = turn.defender_reserve;
    row.turn_started_at = turn.turn_started_at;
    row.deadline_at = turn.deadline_at;
    row.reminders_sent = turn.reminders_sent;
    row.next_due_at = turn.next_due_at;
}

async fn finish_in(
    conn: &mut Conn,
    mut loaded: Loaded,
    ending: Ending,
    loser: Option<UserId>,
    now: i64,
) -> Result<Finished, HostError> {
    end_game(conn, &mut loaded, ending, loser, now).await?;
    tracing::info!(game = loaded.row.id, result = ending.status_name(), reason = ending.reason.name(), "game finished");
    Ok(Finished { notify: players(&loaded.row), game: view(&loaded) })
}

/// Records the end of a hosted game in the transaction that ends it: the row, lapsed offers,
/// and the ratings. Every ending of a hosted game (a move that ends it, resignation, time,
/// agreement, an ending the scheduler records) comes through here, so none is left unrated.
/// Imports write finished games directly and are never rated.
async fn end_game(
    conn: &mut Conn,
    loaded: &mut Loaded,
    ending: Ending,
    loser: Option<UserId>,
    now: i64,
) -> Result<(), HostError> {
    let id = loaded.row.id;
    store::games::finish(conn, id, ending.status_name(), ending.reason.name(), loser, now).await?;
    store::offers::lapse_all(conn, id, now).await?;
    // The final board (without controls) and the summary, whatever ended the game.
    outbox::record(conn, &Show::Board { game: id, ply: loaded.game.ply() }, now).await?;
    outbox::record(conn, &Show::Summary { game: id }, now).await?;
    // The engine's review of the game, asked for with its end so that no restart forgets it. A
    // game that ended before each side had moved is not reviewed: its only move (a level-1
    // bot's opening, say, before a resignation) would be named the turning point of a game that
    // never began.
    if loaded.game.ply() >= types::PLIES_TO_COUNT {
        store::reviews::enqueue(conn, id, now).await?;
    }
    ending.status_name().clone_into(&mut loaded.row.status);
    loaded.row.reason = Some(ending.reason.name().to_owned());
    loaded.row.loser_id = loser;
    loaded.row.finished_at = Some(now);
    ratings::rate_game(conn, &loaded.row, loaded.game.ply(), ending, now).await
}

/// Applies an accepted takeback request `offer`, accepted by `user`: takes back moves until it
/// is the requester's turn again.
async fn take_back(
    conn: &mut Conn,
    loaded: &mut Loaded,
    offer: &store::offers::OfferRow,
    user: UserId,
    now: i64,
) -> Result<OfferOutcome, HostError> {
    let game_id = loaded.row.id;
    let plies = takeback_plies(loaded, offer.by_user).ok_or(HostError::NothingToTakeBack(game_id))?;
    for _ in 0..plies {
        loaded.game.take_back();
    }
    let ply = loaded.game.ply() as i64;
    store::moves::truncate(conn, game_id, ply).await?;
    store::games::set_moves(conn, game_id, ply, &movetext(&loaded.game), now).await?;
    store::offers::resolve(conn, offer.id, "accepted", now).await?;
    // An open draw offer answered a position that is no longer on the board: accepted now, it
    // would end a game in one it was never made in. (The board drawn below shows it gone.)
    store::offers::lapse_all(conn, game_id, now).await?;
    // Moves will be played before the game is at the plies of earlier refusals again.
    store::offers::forgive_refusals(conn, game_id).await?;
    loaded.row.ply = ply;
    // A takeback begins a fresh turn, untimed ones included (see `play_checked`).
    let to_move = loaded.game.position().to_move();
    let turn = scheduler::turn_after_takeback(&loaded.row, to_move, now);
    store::games::set_turn(conn, game_id, &turn).await?;
    set_turn_in_row(&mut loaded.row, &turn);
    let event = OfferEvent::Accepted { plies_taken_back: plies };
    record_offer(conn, game_id, OfferKind::Takeback, event, user, vec![offer.by_user], now).await?;
    let ply = loaded.game.ply();
    outbox::record(conn, &Show::Board { game: game_id, ply }, now).await?;
    // A search the bot had started for the board taken back is refused when it ends.
    if !bot::note_turn(conn, loaded, now).await? {
        // Not "`e4-e1` was played": that move is old, and would read as the opponent's new one.
        outbox::record(conn, &Show::YourMove { game: game_id, ply, after_takeback: true, again: false }, now).await?;
    }
    Ok(OfferOutcome::Accepted { game: view(loaded), by: user, notify: vec![offer.by_user], plies_taken_back: plies })
}

/// Refuses an offer of `kind` that `user` already saw declined or withdrew at this ply.
async fn ensure_not_refused(conn: &mut Conn, loaded: &Loaded, kind: OfferKind, user: UserId) -> Result<(), HostError> {
    let id = loaded.row.id;
    if store::offers::refused_at(conn, id, kind.stored(), user, loaded.game.ply() as i64).await? {
        return Err(HostError::OfferedThisMove { id, kind });
    }
    Ok(())
}

/// The bot's answer to `user`'s draw offer, given at once in the offer's transaction: agreed
/// when a short search finds it lost, or its evaluation says it is clearly worse off than at
/// the start ([`bot::accepts_draw`]), else declined.
async fn bot_answers_draw(
    conn: &mut Conn,
    loaded: Loaded,
    user: UserId,
    bot: UserId,
    now: i64,
) -> Result<OfferOutcome, HostError> {
    let game_id = loaded.row.id;
    let bot_side = if loaded.row.attacker_id == bot { Side::Attackers } else { Side::Defenders };
    store::offers::insert(conn, game_id, "draw", user, loaded.game.ply() as i64, now).await?;
    let offer = store::offers::open(conn, game_id, "draw").await?.ok_or(HostError::Internal)?;
    if bot::accepts_draw(&loaded.game, bot_side) {
        store::offers::resolve(conn, offer.id, "accepted", now).await?;
        let event = OfferEvent::Accepted { plies_taken_back: 0 };
        record_offer(conn, game_id, OfferKind::Draw, event, bot, Vec::new(), now).await?;
        let ending = Ending { winner: None, reason: EndReason::Agreement };
        let finished = finish_in(conn, loaded, ending, None, now).await?;
        return Ok(OfferOutcome::Accepted {
            game: finished.game,
            by: bot,
            notify: finished.notify,
            plies_taken_back: 0,
        });
    }
    store::offers::refuse(conn, offer.id, "declined", loaded.game.ply() as i64, now).await?;
    let event = OfferEvent::Declined { withdrawn: false };
    record_offer(conn, game_id, OfferKind::Draw, event, bot, vec![user], now).await?;
    outbox::record(conn, &Show::Board { game: game_id, ply: loaded.game.ply() }, now).await?;
    Ok(OfferOutcome::Declined { game: view(&loaded), by: bot, notify: user, withdrawn: false })
}

/// The sides `user` plays in a game (both, in a game against oneself), or a refusal.
fn player_side(loaded: &Loaded, user: UserId) -> Result<Vec<Side>, HostError> {
    let mut sides = Vec::with_capacity(2);
    if loaded.row.attacker_id == user {
        sides.push(Side::Attackers);
    }
    if loaded.row.defender_id == user {
        sides.push(Side::Defenders);
    }
    if sides.is_empty() { Err(HostError::NotAPlayer(loaded.row.id)) } else { Ok(sides) }
}

/// Refuses an action taken on a board older than the game (`expected` is the ply the player
/// saw; `None` for a typed command, which acts on the game as it stands).
fn ensure_ply(loaded: &Loaded, expected: Option<usize>) -> Result<(), HostError> {
    let ply = loaded.game.ply();
    match expected {
        Some(expected) if expected != ply => Err(HostError::StaleBoard { id: loaded.row.id, ply, expected }),
        _ => Ok(()),
    }
}

/// Records the notice of an offer made or answered.
/// Declines `offer` (or withdraws it, when `user` made it), records the event and redraws the board
/// in the same transaction: the one way draw offers and takeback requests end unaccepted.
async fn decline(
    conn: &mut Conn,
    loaded: &Loaded,
    offer: &store::OfferRow,
    user: UserId,
    opponent: UserId,
    now: i64,
) -> Result<OfferOutcome, HostError> {
    let game_id = loaded.row.id;
    let withdrawn = offer.by_user == user;
    let state = if withdrawn { "withdrawn" } else { "declined" };
    store::offers::refuse(&mut *conn, offer.id, state, loaded.game.ply() as i64, now).await?;
    let kind = if offer.kind == "draw" { OfferKind::Draw } else { OfferKind::Takeback };
    record_offer(&mut *conn, game_id, kind, OfferEvent::Declined { withdrawn }, user, vec![opponent], now).await?;
    outbox::record(&mut *conn, &Show::Board { game: game_id, ply: loaded.game.ply() }, now).await?;
    Ok(OfferOutcome::Declined { game: view(loaded), by: user, notify: opponent, withdrawn })
}

async fn record_offer(
    conn: &mut Conn,
    game: GameId,
    offer: OfferKind,
    event: OfferEvent,
    by: UserId,
    notify: Vec<UserId>,
    now: i64,
) -> Result<(), HostError> {
    outbox::record(conn, &Show::Offer { game, offer, event, by, notify, made: None }, now).await
}

/// Records the notice of offer `made`, of `kind`, by `by` to `opponent`: delivered late, it is
/// judged by that offer's own state, not by a newer one's.
async fn record_offered(
    conn: &mut Conn,
    game: GameId,
    offer: OfferKind,
    made: i64,
    by: UserId,
    opponent: UserId,
    now: i64,
) -> Result<(), HostError> {
    let show = Show::Offer { game, offer, event: OfferEvent::Offered, by, notify: vec![opponent], made: Some(made) };
    outbox::record(conn, &show, now).await
}

fn ensure_ongoing(loaded: &Loaded) -> Result<(), HostError> {
    match Ending::from_row(&loaded.row.status, loaded.row.reason.as_deref()) {
        None => Ok(()),
        Some(ending) => {
            tracing::debug!(game = loaded.row.id, reason = ending.reason.name(), "the game is already over");
            Err(HostError::GameOver { id: loaded.row.id })
        }
    }
}

/// The side to move, when it is one of `sides` (the caller's); otherwise the refusal, which
/// names who is to move (the bot's levels by their level, in the reader's words).
async fn ensure_turn(conn: &mut Conn, loaded: &Loaded, sides: &[Side]) -> Result<Side, HostError> {
    let to_move = loaded.game.position().to_move();
    if sides.contains(&to_move) {
        return Ok(to_move);
    }
    let id = side_player(&loaded.row, to_move);
    let player = User { id, name: store::users::name(conn, id, loaded.row.guild_id).await? };
    Err(HostError::NotYourTurn { id: loaded.row.id, to_move, player })
}

fn side_player(row: &GameRow, side: Side) -> UserId {
    match side {
        Side::Attackers => row.attacker_id,
        Side::Defenders => row.defender_id,
    }
}

fn opponent_of(row: &GameRow, user: UserId) -> UserId {
    if row.attacker_id == user { row.defender_id } else { row.attacker_id }
}

fn players(row: &GameRow) -> Vec<UserId> {
    if row.attacker_id == row.defender_id { vec![row.attacker_id] } else { vec![row.attacker_id, row.defender_id] }
}

/// How many plies a takeback for `requester` removes ([`types::takeback_plies`]).
fn takeback_plies(loaded: &Loaded, requester: UserId) -> Option<usize> {
    let row = &loaded.row;
    let side = if row.attacker_id == requester { Side::Attackers } else { Side::Defenders };
    let (ply, to_move) = (loaded.game.ply(), loaded.game.position().to_move());
    types::takeback_plies(ply, to_move, side, row.attacker_id == row.defender_id)
}

/// The server's terms for a new challenge or game against the bot at `request.place`: its
/// settings (read once, for the caller's later choices such as a thread per game), after the
/// channel is checked against the server's allow-list, and the clock to play with: the one asked
/// for, else the server's default, else none. The one place both ways of starting a game check.
async fn server_terms(conn: &mut Conn, request: &ChallengeRequest) -> Result<(ServerSettings, Clock), HostError> {
    let guild = request.place.guild;
    let server: ServerSettings = settings::read(&store::servers::settings(conn, guild).await?, "server", guild);
    if !server.allows(request.place.channel) {
        return Err(HostError::ChannelNotAllowed);
    }
    let clock = request.clock.or(server.default_clock).unwrap_or_default();
    Ok((server, clock))
}

async fn open_challenge(conn: &mut Conn, id: ChallengeId, now: i64) -> Result<ChallengeRow, HostError> {
    // Every caller closes the challenge: lock it first, so that it is closed once.
    store::challenges::lock(conn, id).await?;
    let row = store::challenges::find(conn, id).await?.ok_or(HostError::NoSuchChallenge(id))?;
    match ChallengeState::parse(&row.state) {
        ChallengeState::Open if row.expires_at <= now => Err(HostError::ChallengeExpired { id }),
        ChallengeState::Open => Ok(row),
        state => Err(HostError::ChallengeClosed { id, state }),
    }
}

async fn reload_challenge(conn: &mut Conn, id: ChallengeId) -> Result<Challenge, HostError> {
    let row = store::challenges::find(conn, id).await?.ok_or(HostError::Internal)?;
    challenge_view(conn, &row).await
}

async fn challenge_view(conn: &mut Conn, row: &ChallengeRow) -> Result<Challenge, HostError> {
    let challenger =
        User { id: row.challenger_id, name: store::users::name(conn, row.challenger_id, row.guild_id).await? };
    let opponent = match row.opponent_id {
        Some(id) => Some(User { id, name: store::users::name(conn, id, row.guild_id).await? }),
        None => None,
    };
    Ok(Challenge {
        id: row.id,
        challenger,
        opponent,
        variant: row.variant.clone(),
        options: row.options.clone(),
        side: row.side.parse().unwrap_or(SideChoice::Random),
        clock: Clock::from_row(row.clock_seconds, row.reserve_cap),
        place: Place { guild: row.guild_id, channel: row.channel_id, thread: row.thread_id },
        state: ChallengeState::parse(&row.state),
        game_id: row.game_id,
        expires_at: row.expires_at,
    })
}

/// Checks a variant and its options with the rules crate, returning the preset and the
/// options in canonical form (`escape=edge king_armed=false`).
fn validate_setup(variant: &str, options: &[String]) -> Result<(Variant, String), HostError> {
    let variant: Variant = variant.parse().map_err(|e: tafl_rules::RulesError| HostError::BadSetup(e))?;
    let mut parsed = Vec::with_capacity(options.len());
    for text in options {
        parsed.push(VariantOption::parse(variant, text).map_err(HostError::BadSetup)?);
    }
    let rules = variant.rules_with(&parsed).map_err(HostError::BadSetup)?;
    Position::new(rules).map_err(HostError::BadSetup)?;
    let mut texts: Vec<String> = parsed.iter().map(|o| o.text()).collect();
    texts.sort();
    texts.dedup();
    Ok((variant, texts.join(" ")))
}

/// The canonical move text of a game, as cached in `games.movetext`.
fn movetext(game: &Game) -> String {
    game.moves().iter().map(|m| m.text().to_string()).collect::<Vec<_>>().join(" ")
}

/// A short tag of the moves a game has had, for the move controls drawn for one board. A
/// takeback and new moves can bring a game back to a ply in another position, and a board still
/// showing the old one (its edit not yet delivered, a client not yet refreshed) would otherwise
/// have its menus accepted against the new one: the ply alone does not tell them apart.
#[must_use]
pub fn moves_tag(game: &Game) -> u32 {
    // FNV-1a: stable across processes and versions, which a control made before a restart needs.
    movetext(game).bytes().fold(0x811c_9dc5_u32, |hash, byte| (hash ^ u32::from(byte)).wrapping_mul(0x0100_0193))
}

fn split_options(options: &str) -> Vec<String> {
    options.split_whitespace().map(str::to_owned).collect()
}

/// Heads or tails for a random side: hashed with a per-process random key, so it needs no
/// random-number crate and cannot be predicted from the challenge.
fn coin_flip(id: ChallengeId, now: i64) -> Side {
    let hash = std::collections::hash_map::RandomState::new().hash_one((id, now));
    if hash & 1 == 0 { Side::Attackers } else { Side::Defenders }
}

/// A display name fit to store: [`clean_member_name`], never empty.
fn clean_name(name: &str) -> String {
    clean_member_name(name).unwrap_or_else(|| "someone".to_owned())
}

/// A name fit to store: control characters removed, at most 64 characters, trimmed; `None` when
/// nothing is left (a server name of only spaces is no name there: the display name shows).
fn clean_member_name(name: &str) -> Option<String> {
    let cleaned: String = name.chars().filter(|c| !c.is_control()).take(64).collect();
    let cleaned = cleaned.trim();
    (!cleaned.is_empty()).then(|| cleaned.to_owned())
}

fn is_unique_violation(error: &sqlx::Error) -> bool {
    matches!(error, sqlx::Error::Database(db) if db.is_unique_violation())
}
