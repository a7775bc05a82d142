//! What went wrong with the storage itself, rather than with a request: read from `SQLite`'s
//! result codes and `PostgreSQL`'s SQLSTATEs, for the host (its refusals and retries) and for
//! `/healthz` (see [`super::WriteHealth`]).

use thiserror::Error;

/// A fault of the server's storage rather than of the request.
#[derive(Debug, Error, Clone, Copy, PartialEq, Eq)]
pub enum StorageFault {
    #[error("disk full")]
    DiskFull,
    #[error("input/output error")]
    Io,
    #[error("database busy")]
    Busy,
    /// `PostgreSQL` ended the transaction to break a deadlock or a serialisation conflict with
    /// another one: running the whole operation again succeeds. The host does so a few times
    /// (`transaction!` in the host) and then reports [`StorageFault::Busy`].
    #[error("conflict with a concurrent transaction")]
    Conflict,
    /// The connection to the `PostgreSQL` server broke (the server restarted or shut down, a
    /// network cut, a session ended by an administrator). Unlike every other fault, the change
    /// may have been saved: the connection can die after the server committed and before the
    /// answer arrived. Not retried, for that reason.
    #[error("database connection lost")]
    ConnectionLost,
}

impl StorageFault {
    /// The fault behind a database error, from `SQLite`'s primary result code or `PostgreSQL`'s
    /// SQLSTATE; `None` for errors that are not about storage (a constraint, a bug).
    #[must_use]
    pub fn of(error: &sqlx::Error) -> Option<StorageFault> {
        match error {
            // A socket's error: `SQLite`'s disk errors come as its result codes (below), so an
            // I/O error is `PostgreSQL`'s connection breaking, never a disk.
            sqlx::Error::Io(_) => Some(StorageFault::ConnectionLost),
            sqlx::Error::PoolTimedOut => Some(StorageFault::Busy),
            sqlx::Error::Database(db) if db.try_downcast_ref::<sqlx::postgres::PgDatabaseError>().is_some() => {
                // https://www.postgresql.org/docs/current/errcodes-appendix.html
                let code = db.code()?;
                match &*code {
                    "40001" | "40P01" => Some(StorageFault::Conflict), // serialization_failure, deadlock_detected
                    "53100" => Some(StorageFault::DiskFull),
                    // read_only_sql_transaction: a write on a server that takes none (a standby
                    // after a failover, `default_transaction_read_only`): nothing can be written
                    "25006" => Some(StorageFault::Io),
                    // query_canceled (the statement timeout), lock_not_available, too_many_connections…
                    "57014" | "55P03" => Some(StorageFault::Busy),
                    _ if code.starts_with("53") => Some(StorageFault::Busy),
                    // io_error, data_corrupted, index_corrupted: the server's disk
                    "58030" | "XX001" | "XX002" => Some(StorageFault::Io),
                    // the server shutting down or ending the session (an idle transaction's
                    // timeout too), the connection failing
                    "25P03" => Some(StorageFault::ConnectionLost),
                    _ if code.starts_with("57P") || code.starts_with("08") => Some(StorageFault::ConnectionLost),
                    _ => None,
                }
            }
            sqlx::Error::Database(db) => {
                let code: i64 = db.code()?.parse().ok()?;
                // https://www.sqlite.org/rescode.html: the primary code is the low byte. Two
                // extended codes pass: another connection recovering the WAL
                // (SQLITE_READONLY_RECOVERY) and a failed allocation (SQLITE_IOERR_NOMEM).
                if matches!(code, 264 | 3082) {
                    return Some(StorageFault::Busy);
                }
                match code & 0xff {
                    13 => Some(StorageFault::DiskFull), // SQLITE_FULL
                    // SQLITE_IOERR, SQLITE_CANTOPEN, SQLITE_CORRUPT, and SQLITE_READONLY (a file
                    // or folder the bot may not write, a read-only file system): the disk cannot
                    // be written
                    10 | 14 | 11 | 8 => Some(StorageFault::Io),
                    5 | 6 => Some(StorageFault::Busy), // SQLITE_BUSY, SQLITE_LOCKED
                    _ => None,
                }
            }
            _ => None,
        }
    }
}

impl StorageFault {
    /// Why nothing can be saved, when this fault says so: a full disk, or a database that
    /// cannot be written (a read-only file or file system, a disk error, a standby server after
    /// a failover). Contention and a lost connection are not: the next write may be saved.
    #[must_use]
    pub const fn unwritable(self) -> Option<&'static str> {
        match self {
            StorageFault::DiskFull => Some("the disk is full"),
            StorageFault::Io => Some("the database cannot be written"),
            StorageFault::Busy | StorageFault::Conflict | StorageFault::ConnectionLost => None,
        }
    }
}
