//! The `SQLite` file as the operating system sees it: which file a URL names, where it is, and
//! why it cannot be written when `SQLite` says only "unable to open database file" or "attempt to
//! write a readonly database".

use std::fs::OpenOptions;
use std::io::ErrorKind;
use std::path::{Path, PathBuf};

use super::OpenError;

/// Why a file or folder cannot be written, from the operating system's error.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WriteCause {
    /// The file or folder's permissions refuse this user.
    Permission,
    /// The file system is mounted read-only.
    ReadOnlyFileSystem,
    /// Any other refusal, in the operating system's words.
    Other(String),
}

impl WriteCause {
    fn of(error: &std::io::Error) -> WriteCause {
        match error.kind() {
            ErrorKind::PermissionDenied => WriteCause::Permission,
            ErrorKind::ReadOnlyFilesystem => WriteCause::ReadOnlyFileSystem,
            _ => WriteCause::Other(error.to_string()),
        }
    }

    /// What the cause is, then what to do, for a sentence about a file (`folder`: false) or a
    /// folder.
    #[must_use]
    pub fn explained(&self, folder: bool) -> String {
        let what = if folder { "folder" } else { "file" };
        match self {
            WriteCause::Permission => format!(
                "its permissions do not let the user tafl-bot runs as write it; make the {what} writable by that user (chown or chmod), or name a file elsewhere"
            ),
            WriteCause::ReadOnlyFileSystem => {
                "it is on a read-only file system; mount it read-write, or name a file on a writable one".to_owned()
            }
            WriteCause::Other(error) => format!("{error}; make it writable, or name a file elsewhere"),
        }
    }
}

/// The file an `SQLite` URL (or, with `url` a plain file name, that name) opens, when it names
/// one: `None` for `PostgreSQL`, other schemes, and in-memory databases.
#[must_use]
pub fn sqlite_file(url: &str) -> Option<PathBuf> {
    use std::str::FromStr;
    if super::Backend::of_url(url) != Some(super::Backend::Sqlite) || super::sqlite_names_no_file(url) {
        return None;
    }
    let options = sqlx::sqlite::SqliteConnectOptions::from_str(url).ok()?;
    Some(options.get_filename().to_owned())
}

/// The folder of `file`, `.` for a bare name.
pub(crate) fn folder_of(file: &Path) -> PathBuf {
    file.parent().filter(|folder| !folder.as_os_str().is_empty()).unwrap_or(Path::new(".")).to_owned()
}

/// `path` made absolute against the working directory (not resolving links), for sentences that
/// must say which file they mean whatever directory the reader is in.
#[must_use]
pub fn absolute(path: &Path) -> PathBuf {
    std::path::absolute(path).unwrap_or_else(|_| path.to_owned())
}

/// Why `SQLite` could not open or write the database `file`, found by asking the operating system
/// what `SQLite` would have: open the file for writing (when it exists), else create a file in
/// its folder (removed again). `None` when both work: the cause is something else.
pub(crate) fn why_not_writable(file: &Path) -> Option<OpenError> {
    if file.exists() {
        if let Err(error) = OpenOptions::new().write(true).open(file) {
            return Some(OpenError::FileNotWritable { file: absolute(file), cause: WriteCause::of(&error) });
        }
        // Its -wal and -shm files, when they exist, are written as the file itself is.
        for suffix in ["-wal", "-shm"] {
            let mut beside = file.as_os_str().to_owned();
            beside.push(suffix);
            let beside = PathBuf::from(beside);
            if beside.exists()
                && let Err(error) = OpenOptions::new().write(true).open(&beside)
            {
                return Some(OpenError::FileNotWritable { file: absolute(&beside), cause: WriteCause::of(&error) });
            }
        }
    }
    // The database (when new) and its -wal and -shm files are created in its folder.
    let folder = folder_of(file);
    let probe = folder.join(format!(".tafl-write-probe-{}", std::process::id()));
    match OpenOptions::new().write(true).create_new(true).open(&probe) {
        Ok(_) => {
            let _ = std::fs::remove_file(&probe);
            None
        }
        Err(error) if error.kind() == ErrorKind::AlreadyExists => None,
        Err(error) if matches!(error.kind(), ErrorKind::StorageFull | ErrorKind::QuotaExceeded) => {
            Some(OpenError::DiskFull { file: absolute(file) })
        }
        Err(error) => Some(OpenError::FolderNotWritable { folder: absolute(&folder), cause: WriteCause::of(&error) }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_sqlite_url_names_its_file() {
        assert_eq!(sqlite_file("sqlite:///var/lib/tafl/tafl.db"), Some(PathBuf::from("/var/lib/tafl/tafl.db")));
        assert_eq!(sqlite_file("sqlite://tafl.db?mode=rwc"), Some(PathBuf::from("tafl.db")));
        assert_eq!(sqlite_file("sqlite::memory:"), None);
        assert_eq!(sqlite_file("postgres://tafl@db/tafl"), None);
        assert!(absolute(Path::new("tafl.db")).is_absolute());
    }
}
