//! The `SQLite` file as the operating system sees it: the lock that keeps a second process off it,
//! and why it cannot be written when `SQLite` says only "unable to open database file" or
//! "attempt to write a readonly database".
//!
//! # One process per file
//!
//! A second `tafl-bot run` on the same file would answer every interaction a second time and
//! deliver the same outbox again (both claim the outbox's lanes as the one `SQLite` process,
//! and each releases those claims when it starts). So `run`, and the console, take an exclusive
//! lock on `<file>.lock` beside the database for as long as they run, and a second process is
//! refused in one sentence. The lock is the operating system's (`flock` on Unix), released when
//! the process ends however it ends, so a crash never leaves the file locked; the lock file
//! itself is kept (removing it would let a process lock a new file while another holds the old
//! one). It holds the holder's name and process id, for the refusal to name them. The library's
//! [`super::Db::open`] takes no lock: tests open one file with two handles on purpose, and
//! `migrate-db` only reads a live bot's file.

use std::fs::{File, OpenOptions, TryLockError};
use std::io::{ErrorKind, Read, Write};
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

/// An exclusive lock on an `SQLite` file's `<file>.lock`, held until dropped (or the process ends).
#[derive(Debug)]
pub struct FileLock {
    /// Kept open: closing the file would release the lock.
    _file: File,
    path: PathBuf,
}

impl FileLock {
    /// The lock file.
    #[must_use]
    pub fn path(&self) -> &Path {
        &self.path
    }
}

/// The lock file beside the database `file`: `tafl.db.lock` for `tafl.db`.
#[must_use]
pub fn lock_path(file: &Path) -> PathBuf {
    let mut name = file.as_os_str().to_owned();
    name.push(".lock");
    PathBuf::from(name)
}

/// The file an `SQLite` URL (or, with `url` a plain file name, that name) opens, when it names
/// one: `None` for `PostgreSQL`, other schemes, and in-memory databases.
#[must_use]
pub fn sqlite_file(url: &str) -> Option<PathBuf> {
    if super::Backend::of_url(url) != Some(super::Backend::Sqlite) || super::sqlite_names_no_file(url) {
        return None;
    }
    let options = super::sqlite_options(url).ok()?;
    let name = options.get_filename();
    // SQLite opens a `file:` URI (sqlx allows them) as the file of its path: the lock and every
    // word about the file must name that file, not a file called `file:…` (a second run through
    // `sqlite://file:DIR/tafl.db` took another lock and served the same file).
    Some(name.to_str().and_then(uri_path).unwrap_or_else(|| name.to_owned()))
}

/// The file an `SQLite` URI (`file:data.db`, `file:/srv/tafl.db?mode=rwc`, `file:///srv/tafl.db`,
/// `file://localhost/srv/tafl.db`) names, its path percent-decoded; `None` for a name that is no
/// URI, or whose authority is another host (`SQLite` refuses those).
fn uri_path(name: &str) -> Option<PathBuf> {
    let rest = name.strip_prefix("file:")?;
    let rest = rest.split(['?', '#']).next().unwrap_or_default();
    let path = match rest.strip_prefix("//") {
        Some(authority_and_path) => {
            let (authority, path) = authority_and_path.split_at(authority_and_path.find('/')?);
            if !(authority.is_empty() || authority == "localhost") {
                return None;
            }
            path
        }
        None => rest,
    };
    let decoded = percent_encoding::percent_decode_str(path).decode_utf8().ok()?;
    Some(PathBuf::from(decoded.into_owned()))
}

/// Takes the lock of the `SQLite` database `file` for `holder` (`tafl-bot run`), or says why not:
/// another process holds it ([`OpenError::InUse`]), or the lock file cannot be made beside the
/// database (the folder cannot be written; [`OpenError::FolderNotWritable`]). `None` when there
/// is nothing to lock yet: a name of no file, or a folder that does not exist, which opening the
/// database then reports in its own words.
pub fn lock(file: &Path, holder: &str) -> Result<Option<FileLock>, OpenError> {
    if super::file_name_names_no_file(&file.to_string_lossy()) {
        return Ok(None);
    }
    let folder = folder_of(file);
    if !folder.is_dir() {
        return Ok(None);
    }
    // The lock is beside the real file: a second process opening it through a symbolic link
    // (to the file or to a folder on its path) meets the same lock, not a new one by the link.
    let real = std::fs::canonicalize(file)
        .or_else(|_| std::fs::canonicalize(&folder).map(|folder| folder.join(file.file_name().unwrap_or_default())))
        .unwrap_or_else(|_| file.to_owned());
    let path = lock_path(&real);
    let (mut opened, writable) =
        match OpenOptions::new().read(true).write(true).create(true).truncate(false).open(&path) {
            Ok(opened) => (opened, true),
            // A lock file this user may only read (left by a run as another user) locks as well.
            Err(error) if path.is_file() => match File::open(&path) {
                Ok(opened) => (opened, false),
                Err(_) => return Err(OpenError::FileNotWritable { file: path, cause: WriteCause::of(&error) }),
            },
            Err(error) => {
                return Err(OpenError::FolderNotWritable { folder: absolute(&folder), cause: WriteCause::of(&error) });
            }
        };
    match opened.try_lock() {
        Ok(()) => {}
        Err(TryLockError::WouldBlock) => {
            let mut said = String::new();
            let _ = opened.read_to_string(&mut said);
            let holder = said.lines().next().filter(|line| line.starts_with("tafl-bot ")).map(str::to_owned);
            return Err(OpenError::InUse { lock: absolute(&path), holder });
        }
        Err(TryLockError::Error(error)) => {
            return Err(OpenError::Database(sqlx::Error::Io(std::io::Error::new(
                error.kind(),
                format!("cannot lock {}: {error}", path.display()),
            ))));
        }
    }
    if writable {
        // Who holds it, for the refusal of the next one; a failure only makes that sentence vaguer.
        let _ = opened.set_len(0);
        let _ = writeln!(opened, "{holder} (pid {})", std::process::id());
    }
    Ok(Some(FileLock { _file: opened, path }))
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
    fn a_file_uri_names_the_file_of_its_path() {
        assert_eq!(uri_path("file:data.db"), Some(PathBuf::from("data.db")));
        assert_eq!(uri_path("file:/srv/tafl.db?mode=rwc"), Some(PathBuf::from("/srv/tafl.db")));
        assert_eq!(uri_path("file:///srv/t%20afl.db"), Some(PathBuf::from("/srv/t afl.db")));
        assert_eq!(uri_path("file://localhost/srv/tafl.db#x"), Some(PathBuf::from("/srv/tafl.db")));
        assert_eq!(uri_path("file://elsewhere/srv/tafl.db"), None);
        assert_eq!(uri_path("/srv/tafl.db"), None);
        assert_eq!(sqlite_file("sqlite://file:/srv/tafl.db"), Some(PathBuf::from("/srv/tafl.db")));
        assert_eq!(sqlite_file("sqlite:///srv/tafl.db"), Some(PathBuf::from("/srv/tafl.db")));
    }

    #[test]
    fn a_second_lock_on_one_file_is_refused_naming_the_first_holder() {
        let dir = tempfile::tempdir().expect("a scratch folder");
        let file = dir.path().join("tafl.db");
        let first = lock(&file, "tafl-bot run").expect("the first lock").expect("a file to lock");
        assert_eq!(first.path(), dir.path().join("tafl.db.lock"));
        match lock(&file, "tafl-bot local") {
            Err(OpenError::InUse { holder, .. }) => {
                assert_eq!(holder, Some(format!("tafl-bot run (pid {})", std::process::id())));
            }
            other => panic!("a second lock was not refused: {other:?}"),
        }
        drop(first);
        assert!(lock(&file, "tafl-bot local").expect("free again").is_some(), "released when dropped");
    }

    #[cfg(unix)]
    #[test]
    fn a_file_opened_through_a_link_meets_the_lock_of_the_file_itself() {
        let dir = tempfile::tempdir().expect("a scratch folder");
        let file = dir.path().join("tafl.db");
        std::fs::write(&file, b"").unwrap();
        std::fs::create_dir(dir.path().join("other")).unwrap();
        std::os::unix::fs::symlink(&file, dir.path().join("other/link.db")).unwrap();
        std::os::unix::fs::symlink(dir.path(), dir.path().join("folder-link")).unwrap();
        let first = lock(&file, "tafl-bot run").expect("the first lock").expect("a file to lock");
        for by_link in [dir.path().join("other/link.db"), dir.path().join("folder-link/tafl.db")] {
            assert!(
                matches!(lock(&by_link, "tafl-bot run"), Err(OpenError::InUse { .. })),
                "{} took a lock of its own",
                by_link.display()
            );
        }
        assert!(!dir.path().join("other/link.db.lock").exists());
        drop(first);
        // A file not made yet is locked beside where it will be, through a linked folder too.
        let new = lock(&dir.path().join("folder-link/new.db"), "tafl-bot run").unwrap().expect("a file to lock");
        assert_eq!(new.path(), std::fs::canonicalize(dir.path()).unwrap().join("new.db.lock"));
    }

    #[test]
    fn names_of_no_file_and_missing_folders_lock_nothing() {
        let dir = tempfile::tempdir().expect("a scratch folder");
        assert!(lock(Path::new(":memory:"), "tafl-bot run").unwrap().is_none());
        assert!(lock(&dir.path().join("missing/tafl.db"), "tafl-bot run").unwrap().is_none());
        assert!(!dir.path().join("missing").exists());
        assert_eq!(sqlite_file("sqlite:///var/lib/tafl/tafl.db"), Some(PathBuf::from("/var/lib/tafl/tafl.db")));
        assert_eq!(sqlite_file("sqlite://tafl.db?mode=rwc"), Some(PathBuf::from("tafl.db")));
        // The scheme in any case: sqlx took `SQLite:` for part of the file's name.
        assert_eq!(sqlite_file("SQLite:tafl.db"), Some(PathBuf::from("tafl.db")));
        assert_eq!(sqlite_file("SQLITE:///var/lib/tafl/tafl.db"), Some(PathBuf::from("/var/lib/tafl/tafl.db")));
        assert_eq!(sqlite_file("sqlite::memory:"), None);
        assert_eq!(sqlite_file("postgres://tafl@db/tafl"), None);
    }
}
