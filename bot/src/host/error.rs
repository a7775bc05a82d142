//! The one error type of the host. Every variant is shown to a person as one sentence that says
//! what to do next; causes inside the bot (database errors, a corrupt row) are logged and shown
//! only as "try again".

use thiserror::Error;

/// Why the host refused or could not do something. On every variant, nothing was changed.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum HostError {
    /// An unknown variant, option, or a bad clock: the rules crate's own sentence.
    #[error("{0}")]
    BadSetup(String),
    #[error("you cannot challenge yourself; name another player, or leave the opponent out for an open challenge")]
    ChallengeYourself,
    #[error("you already have {0} open challenges; cancel one or wait for answers before making another")]
    TooManyChallenges(i64),
    #[error("there is no challenge #{0}; check the number, or start one with /challenge")]
    NoSuchChallenge(i64),
    #[error("challenge #{id} is {state} and can no longer be answered; start a new one with /challenge")]
    ChallengeClosed { id: i64, state: &'static str },
    #[error("challenge #{id} has expired; start a new one with /challenge")]
    ChallengeExpired { id: i64 },
    #[error("challenge #{id} is meant for {opponent}, not for you; start your own with /challenge")]
    NotYourChallenge { id: i64, opponent: String },
    #[error("you cannot accept your own challenge #{id}; wait for an opponent, or /cancel it")]
    OwnChallenge { id: i64 },
    #[error("only {challenger}, who made challenge #{id}, can cancel it")]
    NotChallenger { id: i64, challenger: String },
    #[error("challenge #{id} is open to anyone, so there is nothing to decline; just leave it")]
    DeclineOpen { id: i64 },
    #[error("there is no game #{0}; see your games with /games")]
    NoSuchGame(i64),
    #[error("you are not playing in game #{0}; only its two players can do that")]
    NotAPlayer(i64),
    #[error("game #{id} is over ({result}); start a new one with /challenge")]
    GameOver { id: i64, result: String },
    #[error("it is not your turn in game #{id}: the {to_move} ({player}) move next; wait for their move")]
    NotYourTurn { id: i64, to_move: &'static str, player: String },
    #[error(
        "the board has changed: game #{id} is now at ply {ply}, not {expected}; look at the board with /board and try again"
    )]
    StaleBoard { id: i64, ply: usize, expected: usize },
    /// Badly written notation: the parser's sentence, which says how to write a move.
    #[error("{0}")]
    BadMove(String),
    /// A well-written move that is illegal here: the engine's sentence.
    #[error("{0}; see the legal moves with /board or the move autocomplete")]
    IllegalMove(String),
    #[error("there is no {kind} to {action} in game #{id}")]
    NoOffer { id: i64, kind: &'static str, action: &'static str },
    #[error("you already {what} in game #{id}; wait for your opponent's answer")]
    AlreadyOffered { id: i64, what: &'static str },
    #[error("your opponent asked first: answer their takeback request in game #{id} with /takeback accept or decline")]
    TakebackPending { id: i64 },
    #[error("there is no move of yours to take back in game #{0}")]
    NothingToTakeBack(i64),
    #[error("you cannot answer your own {kind} in game #{id}; wait for your opponent, or withdraw it with decline")]
    OwnOffer { id: i64, kind: &'static str },
    /// A setting that cannot be stored: the sentence says why and what to do.
    #[error("{0}")]
    BadSetting(String),
    /// An OTN record that cannot be read or replayed.
    #[error("{0}")]
    BadRecord(String),
    /// The database could not store the change (nothing was saved); the words say why, so
    /// that "try again" is not promised when it cannot help until someone frees the disk.
    #[error("{0}")]
    Storage(StorageFault),
    #[error("something went wrong on our side; please try again in a moment")]
    Internal,
}

/// A fault of the server's storage rather than of the request.
#[derive(Debug, Error, Clone, Copy, PartialEq, Eq)]
pub enum StorageFault {
    #[error("the server's disk is full, so nothing was saved; try again once the bot's operator has freed space")]
    DiskFull,
    #[error(
        "the server could not write to its disk, so nothing was saved; try again later, and tell the bot's operator if it goes on"
    )]
    Io,
    #[error("the server's database is busy, so nothing was saved; try again in a moment")]
    Busy,
}

impl StorageFault {
    /// The fault behind a database error, from `SQLite`'s primary result code; `None` for errors
    /// that are not about storage (a constraint, a bug).
    #[must_use]
    pub fn of(error: &sqlx::Error) -> Option<StorageFault> {
        match error {
            sqlx::Error::Io(_) => Some(StorageFault::Io),
            sqlx::Error::PoolTimedOut => Some(StorageFault::Busy),
            sqlx::Error::Database(db) => {
                let code: i64 = db.code()?.parse().ok()?;
                // https://www.sqlite.org/rescode.html: the primary code is the low byte.
                match code & 0xff {
                    13 => Some(StorageFault::DiskFull),     // SQLITE_FULL
                    10 | 14 | 11 => Some(StorageFault::Io), // SQLITE_IOERR, SQLITE_CANTOPEN, SQLITE_CORRUPT
                    5 | 6 => Some(StorageFault::Busy),      // SQLITE_BUSY, SQLITE_LOCKED
                    _ => None,
                }
            }
            _ => None,
        }
    }
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
