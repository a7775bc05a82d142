//! The `SQLite` file as the operating system sees it: which file a URL names, and where it is.

use std::path::{Path, PathBuf};

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

/// `path` made absolute against the working directory (not resolving links), for sentences that
/// must say which file they mean whatever directory the reader is in.
#[must_use]
pub fn absolute(path: &Path) -> PathBuf {
    std::path::absolute(path).unwrap_or_else(|_| path.to_owned())
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
