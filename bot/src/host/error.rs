//! The one error type of the host. Each variant carries what a person needs to be told (ids,
//! names, the rules engine's own typed error) and no words: `present` turns it into a sentence
//! in the reader's language that says what to do next. Causes inside the bot (database errors,
//! a corrupt row) are logged and shown only as "try again". The `Display` texts are for logs.

use tafl_rules::{IllegalMove, ParseError, RulesError, Side};
use thiserror::Error;

use super::board::OfferKind;
use super::clock::ClockError;
use super::types::{ChallengeState, OfferAction, User};
pub use crate::store::StorageFault;

/// Why the host refused or could not do something. On every variant, nothing was changed, but
/// for a lost database connection ([`StorageFault::ConnectionLost`]), which may have come after
/// the change was committed.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum HostError {
    /// An unknown variant or option, or options that make no playable rule set.
    #[error("bad setup: {0}")]
    BadSetup(RulesError),
    /// A clock that cannot be played.
    #[error("bad clock: {0}")]
    BadClock(ClockError),
    /// Neither a preset nor a rating family (the name as typed, shortened).
    #[error("unknown rating family {input:?}")]
    UnknownFamily { input: String },
    #[error("challenge to oneself")]
    ChallengeYourself,
    #[error("already {0} open challenges")]
    TooManyChallenges(i64),
    /// `count` challenges to `opponent` in the last day started no game; another may be made
    /// at `again_at`.
    #[error("{count} challenges to {} in a day started no game", opponent.id)]
    TooManyChallengesTo { opponent: User, count: i64, again_at: i64 },
    /// `count` challenges made in the last day started no game; another may be made at
    /// `again_at`.
    #[error("{count} challenges in a day started no game")]
    TooManyChallengesToday { count: i64, again_at: i64 },
    #[error("already {0} games against the bot")]
    TooManyBotGames(i64),
    #[error("channel not allowed for games")]
    ChannelNotAllowed,
    #[error("no challenge {0}")]
    NoSuchChallenge(i64),
    #[error("challenge {id} is {state:?}")]
    ChallengeClosed { id: i64, state: ChallengeState },
    #[error("challenge {id} expired")]
    ChallengeExpired { id: i64 },
    #[error("challenge {id} is meant for {opponent}")]
    NotYourChallenge { id: i64, opponent: String },
    #[error("own challenge {id}")]
    OwnChallenge { id: i64 },
    #[error("challenge {id} belongs to {challenger}")]
    NotChallenger { id: i64, challenger: String },
    #[error("challenge {id} is open, nothing to decline")]
    DeclineOpen { id: i64 },
    #[error("no game {0}")]
    NoSuchGame(i64),
    #[error("not a player of game {0}")]
    NotAPlayer(i64),
    #[error("game {id} is over")]
    GameOver { id: i64 },
    #[error("not the turn of the caller in game {id}: {to_move:?} ({}) to move", .player.name)]
    NotYourTurn { id: i64, to_move: Side, player: User },
    #[error("stale board: game {id} at ply {ply}, not {expected}")]
    StaleBoard { id: i64, ply: usize, expected: usize },
    /// Badly written notation.
    #[error("bad notation: {0}")]
    BadMove(ParseError),
    /// A well-written move that is illegal here.
    #[error("illegal move: {0}")]
    IllegalMove(IllegalMove),
    #[error("no {kind:?} offer to {action:?} in game {id}")]
    NoOffer { id: i64, kind: OfferKind, action: OfferAction },
    #[error("{kind:?} already offered in game {id}")]
    AlreadyOffered { id: i64, kind: OfferKind },
    /// An offer made again before anyone moved, after the last one was declined or withdrawn:
    /// each offer notifies the opponent, and one player must not be able to ping the other
    /// without end (BOT.md).
    #[error("{kind:?} offered again in game {id} before a move")]
    OfferedThisMove { id: i64, kind: OfferKind },
    #[error("takeback pending in game {id}")]
    TakebackPending { id: i64 },
    #[error("nothing to take back in game {0}")]
    NothingToTakeBack(i64),
    /// A claim in a game with a clock, which ends on time by itself.
    #[error("claim in timed game {id}")]
    ClaimTimed { id: i64 },
    /// A claim by the player to move: only the one waiting for a move may claim.
    #[error("claim on the caller's own move in game {id}")]
    ClaimOnYourMove { id: i64 },
    /// A claim before the opponent's turn has lasted long enough: `player`'s turn began at
    /// `since`, and the game may be claimed from `claimable_at` (unix seconds); `aborts`: the
    /// claim will abort the game (fewer than two plies), not win it.
    #[error("claim too soon in game {id}: {} to move since {since}, claimable at {claimable_at}", .player.name)]
    ClaimTooSoon { id: i64, player: User, since: i64, claimable_at: i64, aborts: bool },
    /// A claim that reached the host while the scheduler of the game's server was behind (the
    /// bot, or the process of the game's shard, was down for longer than the downtime limit):
    /// `player`, to move, could not move meanwhile, so the claim waits for the grace after
    /// downtime, and for a warning given now when the outage swallowed theirs. It may be made
    /// from `claimable_at` (unix seconds); `aborts` as for [`HostError::ClaimTooSoon`].
    #[error("claim in game {id} after the bot was away: {} to move, claimable at {claimable_at}", .player.name)]
    ClaimAfterOutage { id: i64, player: User, claimable_at: i64, aborts: bool },
    /// A claim while the bot is to move: it moves by itself, and its delay wins nobody a game.
    #[error("claim of the bot's turn in game {id}")]
    ClaimFromBot { id: i64 },
    /// A claim in a game of a server the bot was removed from, before `claimable_at`: the game
    /// is paused, and the time the bot is away counts for nobody; from `claimable_at` (unix
    /// seconds) either player may end it without a result.
    #[error("claim in game {id}, paused while the bot is away from its server, before {claimable_at}")]
    ClaimPaused { id: i64, claimable_at: i64 },
    /// A move in a game of a server the bot was removed from: nothing is played there until
    /// the bot is back (its moves would start a turn nobody can see).
    #[error("game {id} is paused while the bot is away from its server")]
    Paused { id: i64 },
    /// A new board asked for outside the server of a game whose channel was deleted (in a DM,
    /// in another server, or from the console): only a channel of its own server can take the
    /// game in.
    #[error("game {id} has no channel, and the board was asked for outside its server")]
    ChannelGone { id: i64 },
    #[error("own {kind:?} offer in game {id}")]
    OwnOffer { id: i64, kind: OfferKind },
    /// A server naming more channels for games than it may.
    #[error("more than {max} channels")]
    TooManyChannels { max: usize },
    /// An OTN record that cannot be read or replayed.
    #[error("bad record: {0}")]
    BadRecord(RecordFault),
    /// The database could not store the change (nothing was saved, or, when the connection
    /// was lost, perhaps it was); the words say why, so that "try again" is not promised when
    /// it cannot help until someone frees the disk.
    #[error("storage fault: {0:?}")]
    Storage(StorageFault),
    /// A bot level outside 1 to 5 (as given).
    #[error("no bot level {0}")]
    BadLevel(i64),
    /// A level given together with a person to play: levels are for games against the bot.
    #[error("a level with a human opponent")]
    LevelWithPerson,
    /// Only games against the bot can be unrated.
    #[error("an unrated game between people")]
    UnratedWithPerson,
    /// The bot takes no moves back in a rated game.
    #[error("the bot refuses takebacks in rated game {id}")]
    BotRefusesTakeback { id: i64 },
    /// Hints are for games against the bot only.
    #[error("hint outside a game against the bot")]
    HintNotAgainstBot,
    /// Hints would make a rated game meaningless.
    #[error("hint in a rated game")]
    HintInRatedGame,
    /// The person's last hint is still being searched (one at a time each).
    #[error("a hint is already being searched for this person")]
    HintPending,
    /// A profile or game list asked of the bot itself, which plays as five levels, each rated
    /// on its own (the front ends know which name or user is the bot).
    #[error("the bot itself has no profile; its levels do")]
    TheBotHasLevels,
    #[error("internal error")]
    Internal,
}

/// Why an OTN record cannot be imported.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum RecordFault {
    /// Not well-formed OTN.
    #[error("{0}")]
    Unreadable(ParseError),
    /// More plies than a game may have.
    #[error("{plies} plies")]
    TooLong { plies: usize },
    /// The record's rules cannot be played.
    #[error("unplayable rules: {0}")]
    Rules(String),
    /// A move of the record is illegal at its ply (numbered from 1).
    #[error("ply {ply}: {source}")]
    Move { ply: usize, source: IllegalMove },
    /// A result tag that names a different winner from the record's moves or end marker.
    #[error("the result tag contradicts the game")]
    ContradictoryResult,
    /// A `termination` tag naming an ending on the board (`king_captured`, …) that the moves do
    /// not reach: taken as a resignation, it would make up how the game ended.
    #[error("the termination tag names an ending the moves do not reach")]
    ContradictoryTermination,
    /// `---` or `timeout` after moves that already end the game on the board.
    #[error("an end marker after the game ended on the board")]
    EndAfterFinish,
    /// An unfinished record without a result tag.
    #[error("no result")]
    NoResult,
}

impl From<sqlx::Error> for HostError {
    fn from(error: sqlx::Error) -> HostError {
        tracing::error!(%error, "database error");
        StorageFault::of(&error).map_or(HostError::Internal, HostError::Storage)
    }
}

impl HostError {
    /// A stored game that cannot be rebuilt: logged with its cause, shown as `Internal`.
    pub(crate) fn corrupt(game_id: i64, cause: &str) -> HostError {
        tracing::error!(game_id, cause, "a stored game cannot be rebuilt");
        HostError::Internal
    }
}
