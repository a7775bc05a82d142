//! Scratch directories for tests, removed when the test that made them ends.
//!
//! libtest runs every test on a thread of its own, so a directory held by a thread-local lives
//! exactly as long as its test: the test can hand the plain path to a database, a child process
//! or a helper that reopens it later, and the directory goes when the thread ends, passed or
//! failed. Before this, every run left its databases in the system's temporary folder (2.2 GB on
//! the development machine after a few days of runs). Set `TAFL_KEEP_TEST_FILES=1` to keep them for
//! inspection; the path of each is then printed.
//!
//! Call it from the test's own thread (or a task of its runtime, whose workers end with the
//! test): a directory made on a helper thread goes when that thread ends.

use std::cell::RefCell;
use std::path::PathBuf;

use tempfile::TempDir;

thread_local! {
    /// The directories this thread's test made, removed when the thread ends.
    static HELD: RefCell<Vec<TempDir>> = const { RefCell::new(Vec::new()) };
}

/// A fresh, empty directory in the system's temporary folder, named after `prefix`.
///
/// # Panics
/// If the directory cannot be created.
#[must_use]
pub fn scratch_dir(prefix: &str) -> PathBuf {
    let dir = tempfile::Builder::new()
        .prefix(&format!("{prefix}-"))
        .tempdir()
        .expect("a scratch directory can be created in the temporary folder");
    let path = dir.path().to_path_buf();
    if std::env::var_os("TAFL_KEEP_TEST_FILES").is_some_and(|v| v == "1") {
        eprintln!("kept for inspection: {}", dir.keep().display());
    } else {
        HELD.with_borrow_mut(|held| held.push(dir));
    }
    path
}
