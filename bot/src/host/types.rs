//! The plain values the host takes and returns.

use std::fmt;
use std::str::FromStr;

use tafl_rules::{MoveText, Position, Reason, Side, Square, Status};

use super::Clock;
use super::bot::{self, is_bot};

/// A person: a Discord snowflake (or a fake id in the local console).
pub type UserId = i64;
/// A game number, as shown to players (`game #12`).
pub type GameId = i64;
/// A challenge number (`challenge #3`).
pub type ChallengeId = i64;

/// A person with the display name to remember for summaries.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct User {
    pub id: UserId,
    pub name: String,
}

impl User {
    #[must_use]
    pub fn new(id: UserId, name: &str) -> User {
        User { id, name: name.to_owned() }
    }
}

/// Where a game or challenge lives: a server, a channel, and optionally a thread.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Place {
    pub guild: i64,
    /// A channel (text, announcement, voice or stage); for a game or challenge in a thread (a
    /// forum post too), the thread's parent. The server's
    /// allow-list judges this channel.
    pub channel: i64,
    /// The thread its messages go to, if any.
    pub thread: Option<i64>,
}

/// The side a challenger asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SideChoice {
    Attackers,
    Defenders,
    Random,
}

impl SideChoice {
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            SideChoice::Attackers => "attackers",
            SideChoice::Defenders => "defenders",
            SideChoice::Random => "random",
        }
    }
}

/// Text that names no side, as typed (shortened to 32 characters).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0:?} is not a side")]
pub struct NotASide(pub String);

impl FromStr for SideChoice {
    type Err = NotASide;

    fn from_str(s: &str) -> Result<SideChoice, NotASide> {
        if s.trim().eq_ignore_ascii_case("random") {
            return Ok(SideChoice::Random);
        }
        match Side::from_name(s) {
            Some(Side::Attackers) => Ok(SideChoice::Attackers),
            Some(Side::Defenders) => Ok(SideChoice::Defenders),
            None => Err(NotASide(s.chars().take(32).collect())),
        }
    }
}

/// A request to challenge someone (or anyone) to a game.
#[derive(Clone, Debug)]
pub struct ChallengeRequest {
    pub challenger: User,
    /// `None` for an open challenge that anyone may accept.
    pub opponent: Option<User>,
    /// A preset id, e.g. `copenhagen`.
    pub variant: String,
    /// `key=value` options of the preset.
    pub options: Vec<String>,
    pub side: SideChoice,
    /// The correspondence clock ([`Clock::UNTIMED`] for none); `None` takes the server's
    /// default clock (untimed when it has none).
    pub clock: Option<Clock>,
    pub place: Place,
}

/// What became of a challenge.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChallengeState {
    Open,
    Accepted,
    Declined,
    Cancelled,
    Expired,
}

impl ChallengeState {
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            ChallengeState::Open => "open",
            ChallengeState::Accepted => "accepted",
            ChallengeState::Declined => "declined",
            ChallengeState::Cancelled => "cancelled",
            ChallengeState::Expired => "expired",
        }
    }

    pub(crate) fn parse(s: &str) -> ChallengeState {
        match s {
            "accepted" => ChallengeState::Accepted,
            "declined" => ChallengeState::Declined,
            "cancelled" => ChallengeState::Cancelled,
            "expired" => ChallengeState::Expired,
            _ => ChallengeState::Open,
        }
    }
}

/// A challenge as players see it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Challenge {
    pub id: ChallengeId,
    pub challenger: User,
    pub opponent: Option<User>,
    pub variant: String,
    pub options: String,
    pub side: SideChoice,
    pub clock: Clock,
    pub place: Place,
    pub state: ChallengeState,
    pub game_id: Option<GameId>,
    pub expires_at: i64,
}

/// A game counts once each side has moved, that is after this many plies. One that ends sooner
/// is neither rated nor reviewed, and one whose time runs out sooner is aborted rather than
/// lost: nothing was decided in it.
pub const PLIES_TO_COUNT: usize = 2;

/// How long the player to move in an untimed game may leave it unplayed before their opponent
/// may claim the win (two weeks): long enough for a holiday, short enough that a game nobody
/// will finish does not stay open for good. Migration 0016 writes it out (1,209,600 s), and the
/// commands' descriptions say "two weeks".
pub const CLAIM_AFTER: i64 = 14 * 86_400;

/// Why a game ended: a reason of the rules, or one that happens off the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EndReason {
    Board(Reason),
    Resignation,
    Agreement,
    Time,
    /// Ended before both sides had moved (the first player to move ran out of time, or left an
    /// untimed game unplayed): no result, never rated.
    Aborted,
    /// Won by claim: the loser left an untimed game unplayed for [`CLAIM_AFTER`] seconds.
    Abandoned,
    /// Ended by a player's claim once the bot had been away for [`CLAIM_AFTER`] seconds from the
    /// server that removed it (the game was paused meanwhile): no result, never rated.
    BotRemoved,
}

impl EndReason {
    /// The snake-case name stored in the database.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            EndReason::Board(reason) => reason.name(),
            EndReason::Resignation => "resignation",
            EndReason::Agreement => "agreement",
            EndReason::Time => "time",
            EndReason::Aborted => "aborted",
            EndReason::Abandoned => "abandoned",
            EndReason::BotRemoved => "bot_removed",
        }
    }

    /// Whether a game that ends so has a result (a win or a draw). Only such games are rated.
    #[must_use]
    pub const fn has_result(self) -> bool {
        !matches!(self, EndReason::Aborted | EndReason::BotRemoved)
    }

    /// Every reason, for tests and documentation.
    pub const ALL: [EndReason; 12] = [
        EndReason::Board(Reason::KingCaptured),
        EndReason::Board(Reason::KingEscaped),
        EndReason::Board(Reason::ExitFort),
        EndReason::Board(Reason::Encirclement),
        EndReason::Board(Reason::Repetition),
        EndReason::Board(Reason::NoMoves),
        EndReason::Resignation,
        EndReason::Agreement,
        EndReason::Time,
        EndReason::Aborted,
        EndReason::Abandoned,
        EndReason::BotRemoved,
    ];

    #[must_use]
    pub fn parse(name: &str) -> Option<EndReason> {
        EndReason::ALL.into_iter().find(|r| r.name() == name)
    }
}

impl fmt::Display for EndReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// How a finished game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ending {
    /// `None` for a draw.
    pub winner: Option<Side>,
    pub reason: EndReason,
}

impl Ending {
    /// Whether the game has a result (a win or a draw): see [`EndReason::has_result`].
    #[must_use]
    pub const fn has_result(self) -> bool {
        self.reason.has_result()
    }

    /// `ongoing`-style status name: `attackers_win`, `defenders_win`, `draw` or `aborted` (no
    /// result).
    #[must_use]
    pub const fn status_name(self) -> &'static str {
        if !self.has_result() {
            return "aborted";
        }
        match self.winner {
            Some(Side::Attackers) => "attackers_win",
            Some(Side::Defenders) => "defenders_win",
            None => "draw",
        }
    }

    pub(crate) fn from_row(status: &str, reason: Option<&str>) -> Option<Ending> {
        let winner = match status {
            "attackers_win" => Some(Side::Attackers),
            "defenders_win" => Some(Side::Defenders),
            "draw" => None,
            // No result: aborted early, or ended while the bot was away (`bot_removed`).
            "aborted" => {
                let reason = reason.and_then(EndReason::parse).filter(|r| !r.has_result());
                return Some(Ending { winner: None, reason: reason.unwrap_or(EndReason::Aborted) });
            }
            _ => return None,
        };
        let reason = reason.and_then(EndReason::parse).unwrap_or(EndReason::Agreement);
        Some(Ending { winner, reason })
    }

    /// The rules crate's status of this ending, for OTN result tags.
    #[must_use]
    /// A game without a result: `Ongoing`, whose OTN result tag is `?`.
    pub fn status(self) -> Status {
        if !self.has_result() {
            return Status::Ongoing;
        }
        let reason = match self.reason {
            EndReason::Board(reason) => reason,
            // OTN has no word for these; the result tag only needs the winner.
            _ => Reason::NoMoves,
        };
        Status::Finished(tafl_rules::Outcome { winner: self.winner, reason })
    }
}

/// A game as players see it: who plays, where it stands, and the position itself.
#[derive(Clone, Debug)]
pub struct GameView {
    pub id: GameId,
    pub place: Place,
    pub variant: String,
    pub options: String,
    pub attacker: User,
    pub defender: User,
    /// Plies played.
    pub ply: usize,
    /// The side to move (the side that would move, once finished).
    pub to_move: Side,
    /// `None` while the game goes on.
    pub ending: Option<Ending>,
    pub last_move: Option<MoveText>,
    pub position: Position,
    pub clock: Clock,
    /// When the player to move runs out of time (unix seconds); `None` when untimed or over.
    pub deadline_at: Option<i64>,
    /// Each side's saved time in seconds (reserve clocks; 0 otherwise).
    pub attacker_reserve: i64,
    pub defender_reserve: i64,
    pub imported: bool,
    /// Whether the game counts for ratings (games against the bot may be casual).
    pub rated: bool,
    /// The game's channel was deleted, and no player has moved the game to another one yet
    /// ([`Host::channel_deleted`](super::Host::channel_deleted)): nothing can be posted where
    /// it is played.
    pub channel_gone: bool,
}

/// How many plies a takeback asked by the player of `side` removes: their last move, plus the
/// opponent's reply when it is their turn again (one ply when one person plays both sides).
/// `None` when they have not moved yet.
#[must_use]
pub fn takeback_plies(ply: usize, to_move: Side, side: Side, solo: bool) -> Option<usize> {
    let plies = if to_move == side && !solo { 2 } else { 1 };
    (ply >= plies).then_some(plies)
}

#[cfg(test)]
impl GameView {
    /// A game of `variant` at its start, untimed, on one server's channel: the presentation's
    /// unit tests change what they need.
    pub(crate) fn sample(id: GameId, variant: tafl_rules::Variant, attacker: User, defender: User) -> GameView {
        GameView {
            id,
            place: Place { guild: 1, channel: 2, thread: None },
            variant: variant.id().to_owned(),
            options: String::new(),
            attacker,
            defender,
            ply: 0,
            to_move: Side::Attackers,
            ending: None,
            last_move: None,
            position: Position::new(variant.rules()).expect("a preset's start"),
            clock: Clock::UNTIMED,
            deadline_at: None,
            attacker_reserve: 0,
            defender_reserve: 0,
            imported: false,
            rated: true,
            channel_gone: false,
        }
    }
}

impl GameView {
    /// The player of `side`.
    #[must_use]
    pub fn player(&self, side: Side) -> &User {
        match side {
            Side::Attackers => &self.attacker,
            Side::Defenders => &self.defender,
        }
    }

    /// Whose turn it is, while the game goes on.
    #[must_use]
    pub fn player_to_move(&self) -> Option<&User> {
        self.ending.is_none().then(|| self.player(self.to_move))
    }

    /// Whether someone may ask to take back now: a person who has made a move, and against the
    /// bot only in a casual game (it refuses in rated ones). The board offers the button only
    /// then: at ply 1 of a game where the bot moved first it could only be refused.
    #[must_use]
    pub fn takeback_possible(&self) -> bool {
        let bot_plays = is_bot(self.attacker.id) || is_bot(self.defender.id);
        if self.is_over() || (bot_plays && !bot::accepts_takeback(self.rated)) {
            return false;
        }
        let solo = self.attacker.id == self.defender.id;
        [Side::Attackers, Side::Defenders]
            .into_iter()
            .filter(|&side| !is_bot(self.player(side).id))
            .any(|side| takeback_plies(self.ply, self.to_move, side, solo).is_some())
    }

    /// How many plies a takeback `user` asks for now removes ([`takeback_plies`]): two when
    /// the opponent has replied since their move, which the request must say, as it undoes the
    /// answerer's own move. `None` for someone who is not a player or has nothing to take back.
    #[must_use]
    pub fn takeback_plies_of(&self, user: UserId) -> Option<usize> {
        let side = [Side::Attackers, Side::Defenders].into_iter().find(|&side| self.player(side).id == user)?;
        takeback_plies(self.ply, self.to_move, side, self.attacker.id == self.defender.id)
    }

    #[must_use]
    pub fn is_over(&self) -> bool {
        self.ending.is_some()
    }

    /// The saved time of `side` (reserve clocks).
    #[must_use]
    pub const fn reserve(&self, side: Side) -> i64 {
        match side {
            Side::Attackers => self.attacker_reserve,
            Side::Defenders => self.defender_reserve,
        }
    }

    /// Seconds left for the player to move at `now` (0 once past), `None` when untimed or over.
    #[must_use]
    pub fn time_left(&self, now: i64) -> Option<i64> {
        self.deadline_at.map(|deadline| (deadline - now).max(0))
    }

    /// Both players' ids, attacker first.
    #[must_use]
    pub fn players(&self) -> Vec<UserId> {
        if self.attacker.id == self.defender.id {
            vec![self.attacker.id]
        } else {
            vec![self.attacker.id, self.defender.id]
        }
    }
}

/// The games where it is a person's move, as a digest lists them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Awaiting {
    /// The nearest deadline first (untimed games last), at most
    /// [`MAX_DIGEST_GAMES`](super::scheduler::MAX_DIGEST_GAMES).
    pub games: Vec<GameSummary>,
    /// How many there are in all, listed or not.
    pub total: usize,
}

/// One line of a player's game list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameSummary {
    pub id: GameId,
    pub place: Place,
    pub variant: String,
    pub side: Side,
    pub opponent: User,
    pub ply: usize,
    pub to_move: Side,
    pub ending: Option<Ending>,
    pub clock: Clock,
    /// When the player to move runs out of time (unix seconds); `None` when untimed or over.
    pub deadline_at: Option<i64>,
    /// When the player waiting may claim this untimed game (unix seconds, [`CLAIM_AFTER`]
    /// after the turn began); `None` when timed, over, or the bot is to move.
    pub claimable_at: Option<i64>,
    /// Since when the bot has been away from the game's server (unix seconds), if it was
    /// removed: the game is paused until it returns, its clock stopped (see
    /// [`Host::server_left`](super::Host::server_left)).
    pub paused_since: Option<i64>,
    /// The game's channel was deleted and nobody has moved the game since (see
    /// [`GameView::channel_gone`]): a list links to no channel for it.
    pub channel_gone: bool,
}

impl GameSummary {
    #[must_use]
    pub fn my_turn(&self) -> bool {
        self.ending.is_none() && self.to_move == self.side
    }

    /// Whether the game waits for the list's owner: their move, and not paused (a digest lists
    /// these).
    #[must_use]
    pub fn awaits_me(&self) -> bool {
        self.my_turn() && !self.paused()
    }

    /// Whether the game is paused: the bot was removed from its server.
    #[must_use]
    pub const fn paused(&self) -> bool {
        self.paused_since.is_some()
    }

    /// Whether either player may end this paused game without a result at `now`: the bot has
    /// been away from its server for [`CLAIM_AFTER`].
    #[must_use]
    pub fn may_end_paused(&self, now: i64) -> bool {
        self.ending.is_none() && self.paused_since.is_some_and(|since| since.saturating_add(CLAIM_AFTER) <= now)
    }

    /// Whether the list's owner, waiting for the other's move, may claim the game at `now`.
    #[must_use]
    pub fn claimable_by_me(&self, now: i64) -> bool {
        self.ending.is_none() && !self.my_turn() && !self.paused() && self.claimable_at.is_some_and(|at| at <= now)
    }

    /// Seconds left for the player to move at `now` (0 once past), `None` when untimed or over.
    #[must_use]
    pub fn time_left(&self, now: i64) -> Option<i64> {
        self.deadline_at.map(|deadline| (deadline - now).max(0))
    }
}

/// A move was played.
#[derive(Clone, Debug)]
pub struct Played {
    pub game: GameView,
    /// Canonical notation with captures, `e1-e3xe2`.
    pub notation: String,
    /// Who must be told: the player to move now, or both players when the game ended.
    pub notify: Vec<UserId>,
}

/// An accepted challenge and the game it started.
#[derive(Clone, Debug)]
pub struct Accepted {
    pub challenge: Challenge,
    pub game: GameView,
    /// The challenger, who is waiting for the answer.
    pub notify: Vec<UserId>,
}

/// A game that ended off the board (resignation, agreement, time).
#[derive(Clone, Debug)]
pub struct Finished {
    pub game: GameView,
    pub notify: Vec<UserId>,
}

/// What a draw or takeback answer did.
#[derive(Clone, Debug)]
pub enum OfferOutcome {
    /// The offer, made `by` a player, is waiting for the opponent, who must be told.
    Offered { game: GameView, by: UserId, notify: UserId },
    /// Accepted `by` the opponent: for a draw, the game is over; for a takeback, moves were
    /// taken back.
    Accepted { game: GameView, by: UserId, notify: Vec<UserId>, plies_taken_back: usize },
    /// Declined `by` the opponent, or withdrawn `by` the offerer.
    Declined { game: GameView, by: UserId, notify: UserId, withdrawn: bool },
}

impl OfferOutcome {
    #[must_use]
    pub fn game(&self) -> &GameView {
        match self {
            OfferOutcome::Offered { game, .. }
            | OfferOutcome::Accepted { game, .. }
            | OfferOutcome::Declined { game, .. } => game,
        }
    }

    /// Who did what this outcome tells: not always the caller, since the bot answers an offer
    /// made to it at once.
    #[must_use]
    pub fn by(&self) -> UserId {
        match self {
            OfferOutcome::Offered { by, .. }
            | OfferOutcome::Accepted { by, .. }
            | OfferOutcome::Declined { by, .. } => *by,
        }
    }
}

/// Answer to a draw offer or takeback request.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OfferAction {
    Offer,
    Accept,
    Decline,
}

/// A legal move for autocomplete and the move menus: what to send, and what it does, so the
/// front end can label it (`e1-e3 x e2`, `f6-f1 escape!`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveChoice {
    /// `e1-e3`, what the player submits.
    pub notation: String,
    /// The pieces it captures, in the engine's order.
    pub captures: Vec<Square>,
    pub effect: Option<MoveEffect>,
}

/// What a move does beyond moving and capturing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveEffect {
    /// It wins the game for the side that makes it, for this reason.
    Wins(Reason),
    /// It ends the game drawn: a third repetition where the preset scores it a draw (nothing
    /// else draws a game by a move).
    Draws,
    /// It loses the game for the side that makes it: a third repetition where the preset
    /// scores it so (Copenhagen's defenders, Sea Battle's mover).
    Loses,
    /// The king could escape with the defenders' next move: the attackers must answer.
    EscapeThreat,
}

/// Where a rating counts: everywhere, or on one Discord server.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Scope {
    Global,
    /// A server (guild) id.
    Server(i64),
}

impl Scope {
    /// The scope of a server, or the global one for `None`.
    #[must_use]
    pub fn of(guild: Option<i64>) -> Scope {
        match guild {
            Some(id) if id != 0 => Scope::Server(id),
            _ => Scope::Global,
        }
    }

    /// As stored: 0 for global (Discord snowflakes are never 0), else the server id.
    pub(crate) const fn id(self) -> i64 {
        match self {
            Scope::Global => 0,
            Scope::Server(id) => id,
        }
    }

    pub(crate) const fn from_id(id: i64) -> Scope {
        if id == 0 { Scope::Global } else { Scope::Server(id) }
    }
}

/// What one rated game did to one player's rating in one scope.
#[derive(Clone, Debug, PartialEq)]
pub struct RatingChange {
    pub user: User,
    /// The variant family rated (see [`crate::host::rating_family`]).
    pub family: String,
    pub scope: Scope,
    pub before: f64,
    pub after: f64,
    pub deviation_before: f64,
    pub deviation_after: f64,
}

impl RatingChange {
    /// Rating points won (positive) or lost (negative).
    #[must_use]
    pub fn delta(&self) -> f64 {
        self.after - self.before
    }

    /// Whether the rating was provisional before the game (its deviation grown over the time
    /// since the player's last game), as profiles mark it.
    #[must_use]
    pub fn provisional_before(&self) -> bool {
        super::glicko2::is_provisional(self.deviation_before)
    }

    /// Whether the rating is provisional after the game.
    #[must_use]
    pub fn provisional_after(&self) -> bool {
        super::glicko2::is_provisional(self.deviation_after)
    }
}

/// A rating as players see it.
#[derive(Clone, Debug, PartialEq)]
pub struct FamilyRating {
    pub family: String,
    pub rating: f64,
    pub deviation: f64,
    /// Rated games in this family and scope.
    pub games: i64,
    /// Still uncertain (a high deviation): shown as `1520?`, as lichess does.
    pub provisional: bool,
}

/// One line of a leaderboard.
#[derive(Clone, Debug, PartialEq)]
pub struct LeaderboardEntry {
    /// 1 for the best.
    pub rank: usize,
    pub user: User,
    pub rating: FamilyRating,
}

/// The best players of a variant family in a scope.
#[derive(Clone, Debug, PartialEq)]
pub struct Leaderboard {
    pub family: String,
    pub scope: Scope,
    pub entries: Vec<LeaderboardEntry>,
}

/// Wins, losses and draws on one side.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SideRecord {
    pub wins: u32,
    pub losses: u32,
    pub draws: u32,
}

impl SideRecord {
    #[must_use]
    pub const fn games(self) -> u32 {
        self.wins + self.losses + self.draws
    }

    /// Adds one game's result.
    pub const fn count(&mut self, result: PlayerResult) {
        match result {
            PlayerResult::Win => self.wins += 1,
            PlayerResult::Loss => self.losses += 1,
            PlayerResult::Draw => self.draws += 1,
        }
    }
}

/// A game's result for one player.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlayerResult {
    Win,
    Loss,
    Draw,
}

/// The same result in a player's most recent rated games, e.g. three wins in a row.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Streak {
    pub result: PlayerResult,
    pub length: u32,
}

/// A player's ratings and record in a scope. Only rated games count, so games against oneself,
/// games abandoned before ply 2 and imported games are left out.
#[derive(Clone, Debug, PartialEq)]
pub struct Profile {
    pub user: User,
    pub scope: Scope,
    /// One per family played, most games first.
    pub ratings: Vec<FamilyRating>,
    /// Games against people as the attackers.
    pub as_attacker: SideRecord,
    /// Games against people as the defenders.
    pub as_defender: SideRecord,
    /// Games against the bot's levels, on either side.
    pub against_bot: SideRecord,
    /// Of games against people; `None` before the first.
    pub streak: Option<Streak>,
}

impl Profile {
    /// Rated games against people and against the bot.
    #[must_use]
    pub const fn games(&self) -> u32 {
        self.against_people() + self.against_bot.games()
    }

    /// Rated games against people, on both sides.
    #[must_use]
    pub const fn against_people(&self) -> u32 {
        self.as_attacker.games() + self.as_defender.games()
    }
}

/// How a game stands or ended, with the facts a summary puts into words.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Conclusion {
    InProgress {
        to_move: Side,
    },
    /// The king reached `at` (an edge or corner square).
    KingEscaped {
        at: Square,
    },
    /// The king was captured where he stood, at `at`.
    KingCaptured {
        at: Square,
    },
    /// The king, at `at`, is in an exit fort.
    ExitFort {
        at: Square,
    },
    Encirclement,
    /// A position occurred for the third time; the ending's winner says who, if anyone, won.
    Repetition,
    /// `side` had no legal move.
    NoMoves {
        side: Side,
    },
    /// `side` resigned (`None` only for an imported record that does not say who).
    Resignation {
        side: Option<Side>,
    },
    /// `side` ran out of time (`None` as for resignation).
    Time {
        side: Option<Side>,
    },
    Agreement,
    /// `side` left an untimed game unplayed, and the opponent claimed the win (`None` as for
    /// resignation).
    Abandoned {
        side: Option<Side>,
    },
    /// The clock ran out (or an untimed game was left) before the second move: no result, and
    /// no rating.
    Aborted,
    /// A player ended the game while the bot was away from its server, two weeks after it was
    /// removed: no result, and no rating.
    BotRemoved,
}

/// Everything the end-of-game summary shows, for finished and running games alike.
#[derive(Clone, Debug)]
pub struct Summary {
    /// Players, sides, variant, place, result (`ending`), final position.
    pub game: GameView,
    /// The whole game from its start, to animate as a GIF.
    pub record: tafl_rules::Game,
    pub conclusion: Conclusion,
    /// Plies played, and full moves (an attacker move and the reply; a lone last ply counts).
    pub plies: usize,
    pub full_moves: usize,
    /// Pieces each side captured (the king is never captured as a piece).
    pub captured_by_attackers: usize,
    pub captured_by_defenders: usize,
    pub created_at: i64,
    pub finished_at: Option<i64>,
    /// Seconds from the game's creation to its end; `None` while it goes on, and for an
    /// imported game (a record has no dates).
    pub duration: Option<i64>,
    /// Global scope first, attacker first; empty for a game not rated (or not yet finished).
    pub rating_changes: Vec<RatingChange>,
    /// A result that would have been rated but for ending before each side had moved (a
    /// resignation or an agreed draw at ply 0 or 1): the summary says why it has no rating line.
    pub ended_too_soon_to_rate: bool,
    /// The engine's review of a finished game; `None` when there is none (a game in progress,
    /// an imported one, one that ended before reviews existed).
    pub review: Option<super::review::ReviewState>,
}

impl Summary {
    /// The winning side; `None` for a draw or a game in progress.
    #[must_use]
    pub fn winner(&self) -> Option<Side> {
        self.game.ending.and_then(|e| e.winner)
    }
}
