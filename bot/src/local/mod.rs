//! `tafl-bot local`: play in the terminal, without Discord, through the very same [`Host`].
//!
//! Lines typed (or piped) on stdin are the commands players will type in Discord, with people
//! as `@names`: `/challenge @bob copenhagen side:defenders`, `as @bob /accept`, `/move e1-e3`.
//! Each name gets a stable fake id stored in the database, so a session can be resumed. Refusals
//! print the host's own sentence and the session goes on; at the end of piped input (or
//! `/quit`) the exit status is 1 if any command failed, 0 otherwise. Boards are printed as text and written as PNG files.

mod commands;

use std::io::{self, BufRead, IsTerminal, Write};
use std::path::{Path, PathBuf};

use clap::Args;

pub use commands::{COMMANDS, Session};

use crate::cli::CliError;
use crate::host::Host;
use crate::limits::MAX_LINE_BYTES;
use crate::present::{Lang, tr};
use crate::printable::printable;
use crate::store::Db;
use crate::store::OpenError;
use crate::store::file::WriteCause;
use crate::store::migrate::{MigrateError, NotOurs};

/// Arguments of `tafl-bot local`.
#[derive(Debug, Args)]
pub struct LocalArgs {
    /// The database file (created and migrated when missing, kept between sessions), or a
    /// database URL: `sqlite://FILE` or `postgres://USER@HOST/DATABASE`.
    #[arg(long, default_value = "tafl-local.db")]
    pub db: PathBuf,
    /// Where board images are written, one PNG per position shown.
    #[arg(long, default_value = "local-boards")]
    pub boards: PathBuf,
    /// Print text boards only; write no PNG files.
    #[arg(long)]
    pub no_png: bool,
    /// Do not echo piped commands (they are echoed so that a transcript reads like a session).
    #[arg(long)]
    pub quiet: bool,
    /// The language of the session (en, ru, or any other the bot has); by default the
    /// terminal's, from `LANG`.
    #[arg(long)]
    pub lang: Option<String>,
}

impl LocalArgs {
    /// The session's language: `--lang`, else `LANG` (`ru_RU.UTF-8` is Russian), else English.
    #[must_use]
    pub fn language(&self) -> Lang {
        let tag = self.lang.clone().or_else(|| std::env::var("LANG").ok()).unwrap_or_default();
        Lang::console(&tag)
    }
}

/// Runs a session on stdin and stdout.
pub fn run(args: &LocalArgs, out: &mut dyn Write) -> Result<(), CliError> {
    // Logs (database trouble, unwritable board files) go to stderr, so stdout stays the session;
    // RUST_LOG=debug shows every move. Ignored when a subscriber is already set (tests).
    // Set up before the first look at the languages: a broken translation in TAFL_LOCALES_DIR is
    // reported through the log, and a `--lang` refused for it must come after that reason.
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("warn"));
    // A log line that cannot be written is dropped (see `discord::init_logging`).
    // Colours only on a terminal: a log piped to a file keeps plain text.
    let _ = tracing_subscriber::fmt()
        .with_writer(io::stderr)
        .with_ansi(io::stderr().is_terminal())
        .with_env_filter(filter)
        .log_internal_errors(false)
        .try_init();
    let base = |code: &str| code.split(['-', '_', '.']).next().unwrap_or("").to_ascii_lowercase();
    if let Some(asked) = &args.lang
        && base(crate::present::Locales::global().pick(asked).code()) != base(asked)
    {
        let known: Vec<&str> = crate::present::Locales::global().all().iter().map(|l| l.code()).collect();
        return Err(CliError::Input(format!(
            "the console does not speak \"{}\"; choose one of: {}",
            crate::cli::shorten(asked, 16),
            known.join(", ")
        )));
    }
    let stdin = io::stdin();
    let interactive = stdin.is_terminal();
    run_with(args, &mut stdin.lock(), out, interactive)
}

/// Runs a session reading commands from `input`; `interactive` prints prompts instead of
/// echoing the commands.
pub fn run_with(
    args: &LocalArgs,
    input: &mut dyn BufRead,
    out: &mut dyn Write,
    interactive: bool,
) -> Result<(), CliError> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| CliError::Input(format!("cannot start the async runtime: {e}")))?;
    runtime.block_on(async {
        let lang = args.language();
        // Held for the whole session: a `tafl-bot run` (or another console) on the same file
        // would deliver and time out what this one does.
        let _lock = lock(&args.db, lang)?;
        refuse_discord(&args.db, lang).await?;
        let host = Host::new(open(&args.db, lang).await?);
        let boards = (!args.no_png).then(|| args.boards.clone());
        let mut session = Session::new(host, boards).with_lang(lang);
        session.resume_clock().await.map_err(|message| console_error(lang, &message))?;
        let write = CliError::write;
        if interactive {
            writeln!(out, "{}", tr!(lang, "console-welcome", path = args.db.display().to_string())).map_err(write)?;
        }
        let mut line = String::new();
        let mut failures = 0usize;
        loop {
            if interactive {
                write!(out, "{}> ", session.current_name()).map_err(write)?;
                out.flush().map_err(write)?;
            }
            line.clear();
            let read = read_line(input, &mut line)
                .map_err(|source| CliError::Io { context: "cannot read stdin".into(), source })?;
            if read == 0 {
                if interactive {
                    // Ctrl-D at the prompt: end its line, or the shell's prompt follows on it.
                    writeln!(out).map_err(write)?;
                }
                break;
            }
            // Checked first: a line cut short there lacks its newline, which the terminal showed.
            if read > MAX_LINE_BYTES {
                // Endless input (`< /dev/zero`) has no next line to go on with.
                session.close().await;
                return Err(console_error(lang, &tr!(lang, "console-line-too-long")));
            }
            if interactive && !line.ends_with('\n') {
                // A command ended with Ctrl-D rather than Enter: the terminal moved to no new
                // line, and the reply followed the command on the prompt's line.
                writeln!(out).map_err(write)?;
            }
            // A script saved with a byte-order mark (some Windows editors write one) starts with
            // it, invisible: its first command was refused as not starting with `/`.
            let command = line.trim_start_matches(crate::limits::BOM).trim();
            if command.is_empty() || command.starts_with('#') {
                continue;
            }
            if !interactive && !args.quiet {
                writeln!(out, "{}> {}", session.current_name(), printable(command)).map_err(write)?;
            }
            let reply = session.execute(command).await;
            // Errors are one line, whatever they quote; boards and lists are the bot's own text.
            let text = if reply.failed {
                failures += 1;
                printable(reply.text.trim_end()).into_owned()
            } else {
                reply.text
            };
            out.write_all(text.as_bytes()).map_err(write)?;
            if !text.ends_with('\n') {
                writeln!(out).map_err(write)?;
            }
            out.flush().map_err(write)?;
            if reply.quit {
                break;
            }
        }
        session.close().await;
        // A script whose commands failed must not look like a success to whoever ran it.
        if failures > 0 && !interactive {
            return Err(console_error(lang, &tr!(lang, "console-session-failed", failures = failures)));
        }
        Ok(())
    })
}

/// The session's last word, an error in its language, "ошибка: …" as its commands' errors are.
fn console_error(lang: Lang, message: &str) -> CliError {
    CliError::Said(tr!(lang, "console-error", message = message))
}

/// `--db` as a URL, when it is shaped like one. Anything so shaped goes to `Db::open`, which
/// refuses the kinds it does not store games in by their scheme (`mysql://user:secret@host/db`);
/// opened as a file name instead, its error printed the whole URL, password included.
fn as_url(path: &Path) -> Option<&str> {
    path.to_str().filter(|text| text.contains("://") || crate::store::Backend::of_url(text).is_some())
}

/// The `SQLite` file `--db` names, if it names one.
fn sqlite_file(path: &Path) -> Option<PathBuf> {
    match as_url(path) {
        Some(url) => crate::store::file::sqlite_file(url),
        None => Some(path.to_owned()),
    }
}

/// How `--db` is shown: as given, a URL's password hidden.
fn shown(path: &Path) -> String {
    as_url(path).map_or_else(|| path.display().to_string(), crate::store::redacted)
}

/// Takes the lock of an `SQLite` `--db` (see [`crate::store::file`]), or refuses a file another
/// process uses: a `tafl-bot run` would answer Discord's players from it while the console empties
/// their outbox, and two consoles would each run the other's clocks. A lock that cannot be made
/// beside the file (a folder the console may not write) is refused as opening would refuse it.
fn lock(path: &Path, lang: Lang) -> Result<Option<crate::store::file::FileLock>, CliError> {
    let Some(file) = sqlite_file(path) else { return Ok(None) };
    match crate::store::file::lock(&file, "tafl-bot local") {
        Ok(lock) => Ok(lock),
        Err(error) => Err(console_error(lang, &refusal(lang, &shown(path), &error))),
    }
}

/// Refuses a Discord bot's database, before opening (and so migrating) it: the console empties
/// the outbox after every command, of what the bot's players are still to be shown, and `/wait`
/// runs the scheduler's clock ahead, which would time their games out early. A database that
/// cannot be looked into is refused too, as [`open`] would refuse it: the console does not play
/// in one it could not check.
async fn refuse_discord(path: &Path, lang: Lang) -> Result<(), CliError> {
    let url = as_url(path);
    if url.is_some_and(|url| crate::store::Backend::of_url(url).is_none()) {
        return Ok(());
    }
    let name = || url.map_or_else(|| path.display().to_string(), crate::store::redacted);
    // Refused before sqlx reads it, as opening it would refuse it (sqlx would log a password's
    // remains, or the value of a parameter it does not read).
    if let Some(refused) = url
        .filter(|url| crate::store::Backend::of_url(url) == Some(crate::store::Backend::Postgres))
        .and_then(crate::store::refused_postgres_url)
    {
        return Err(console_error(lang, &refusal(lang, &name(), &refused)));
    }
    match crate::store::holds_discord_as_is(url, path).await {
        Ok(true) => Err(console_error(lang, &tr!(lang, "console-db-of-discord", name = name()))),
        Ok(false) => Ok(()),
        Err(error) => {
            tracing::info!(%error, db = %name(), "cannot look into the database before opening it");
            // An SQLite file's refusal in the words of its cause, as opening it would say.
            let error = match sqlite_file(path) {
                Some(file) => crate::store::explained(error, &file),
                None => OpenError::Database(error),
            };
            Err(console_error(lang, &refusal(lang, &name(), &error)))
        }
    }
}

/// Opens `--db`: a file name, or a database URL (`sqlite://…`, `postgres://…`).
async fn open(path: &Path, lang: Lang) -> Result<Db, CliError> {
    let url = as_url(path);
    let opened = match url {
        Some(url) => Db::open(url).await,
        None => Db::open_file(path).await,
    };
    opened.map_err(|e| {
        // A URL may hold a password: never shown.
        let name = url.map_or_else(|| path.display().to_string(), crate::store::redacted);
        // The sentence below says all of it; the log line (off by default, `RUST_LOG=info`) is
        // for a session whose stderr is read by a program.
        tracing::info!(error = %e, db = %name, "cannot open the database");
        console_error(lang, &refusal(lang, &name, &e))
    })
}

/// Why the database `name` cannot be opened, in the session's language: every refusal an
/// operator's `run` states in English, the console's player reads in theirs. Only what is quoted
/// (the operating system's or the database's own words) stays as it was said.
fn refusal(lang: Lang, name: &str, error: &OpenError) -> String {
    match error {
        OpenError::NoFolder { folder, .. } => {
            tr!(lang, "console-db-no-folder", name = name, folder = folder.display().to_string())
        }
        OpenError::IsFolder { instead } => {
            tr!(lang, "console-db-is-folder", name = name, file = instead.display().to_string())
        }
        OpenError::UnknownScheme { scheme } => tr!(lang, "console-db-unknown-scheme", scheme = scheme),
        OpenError::NoFile => tr!(lang, "console-db-no-file", name = name),
        OpenError::NoScheme => tr!(lang, "console-db-no-scheme", name = name),
        OpenError::InUse { lock, holder } => {
            let holder = holder.as_deref().unwrap_or("tafl-bot");
            tr!(lang, "console-db-in-use", name = name, holder = holder, lock = lock.display().to_string())
        }
        OpenError::FolderNotWritable { folder, cause } => {
            let (cause, error) = write_cause(cause);
            let folder = folder.display().to_string();
            tr!(lang, "console-db-folder-not-writable", name = name, folder = folder, cause = cause, error = error)
        }
        OpenError::FileNotWritable { file, cause } => {
            let (cause, error) = write_cause(cause);
            let file = file.display().to_string();
            tr!(lang, "console-db-file-not-writable", name = name, file = file, cause = cause, error = error)
        }
        OpenError::DiskFull { file } => {
            tr!(lang, "console-db-disk-full", name = name, file = file.display().to_string())
        }
        OpenError::UnencodedPassword { character } => {
            tr!(lang, "console-db-unencoded-password", name = name, character = character.to_string())
        }
        OpenError::BackupDiskFull { file, size } => {
            let file = file.display().to_string();
            let size = crate::store::megabytes(*size).to_string();
            tr!(lang, "console-db-backup-disk-full", name = name, file = file, size = size)
        }
        OpenError::NotADatabase { file } => {
            tr!(lang, "console-db-not-a-database", name = name, file = file.display().to_string())
        }
        OpenError::Locked { file } => tr!(lang, "console-db-locked", name = name, file = file.display().to_string()),
        OpenError::Migrate(error) => migration_refusal(lang, name, error),
        _ => tr!(lang, "console-db-unavailable", name = name, error = error.to_string()),
    }
}

/// [`refusal`] for the migrator's: each is tafl-bot's own sentence, so each is translated; only
/// the database's words inside them stay as they were. Versions go as text: a number would be
/// formatted as one (20240105093000 with separators in some languages).
fn migration_refusal(lang: Lang, name: &str, error: &MigrateError) -> String {
    use crate::store::describe;
    match error {
        MigrateError::NotOurs(why) => {
            let why = match why {
                NotOurs::NoHistory => "no-history",
                NotOurs::OtherHistory => "other-history",
            };
            tr!(lang, "console-db-not-ours", name = name, why = why)
        }
        MigrateError::Newer { found, known } => {
            tr!(lang, "console-db-newer", name = name, found = found.to_string(), known = known.to_string())
        }
        MigrateError::Changed { version } => {
            tr!(lang, "console-db-migration-changed", name = name, version = version.to_string())
        }
        MigrateError::Dirty { version } => {
            tr!(lang, "console-db-migration-unfinished", name = name, version = version.to_string())
        }
        MigrateError::Backup(error) => tr!(lang, "console-db-backup-failed", name = name, error = describe(error)),
        MigrateError::Failed { version, description, source } => tr!(
            lang,
            "console-db-migration-failed",
            name = name,
            version = version.to_string(),
            description = description,
            error = describe(source)
        ),
        MigrateError::Migrator(error) => {
            tr!(lang, "console-db-migrations-failed", name = name, error = error.to_string())
        }
        MigrateError::Database(error) => tr!(lang, "console-db-unavailable", name = name, error = describe(error)),
    }
}

/// A [`WriteCause`] as the messages select on it: its kind, and the operating system's words
/// for any other.
fn write_cause(cause: &WriteCause) -> (&'static str, &str) {
    match cause {
        WriteCause::Permission => ("permission", ""),
        WriteCause::ReadOnlyFileSystem => ("read-only", ""),
        WriteCause::Other(error) => ("other", error),
    }
}

/// Reads one line, accepting invalid UTF-8 as replacement characters. Stops once the line is
/// longer than [`MAX_LINE_BYTES`] and returns more than that count, so the caller can refuse it.
fn read_line(input: &mut dyn BufRead, line: &mut String) -> io::Result<usize> {
    const LIMIT: usize = MAX_LINE_BYTES;
    let mut bytes = Vec::new();
    let mut total = 0;
    loop {
        let buf = input.fill_buf()?;
        if buf.is_empty() {
            break;
        }
        let (chunk, done) = match buf.iter().position(|&b| b == b'\n') {
            Some(i) => (&buf[..=i], true),
            None => (buf, false),
        };
        let n = chunk.len();
        if bytes.len() < LIMIT {
            bytes.extend_from_slice(&chunk[..n.min(LIMIT - bytes.len())]);
        }
        total += n;
        input.consume(n);
        if done || total > LIMIT {
            break;
        }
    }
    line.push_str(&String::from_utf8_lossy(&bytes));
    Ok(total)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every refusal of the migrator is the console's sentence in the session's language, the
    /// English one `run` gives: only the database's own words inside (sqlx's) stay as they were
    /// said.
    #[test]
    fn the_migrators_refusals_are_translated() {
        let quoted = || sqlx::Error::Protocol("сбой".to_owned());
        let refusals = [
            MigrateError::NotOurs(NotOurs::NoHistory),
            MigrateError::NotOurs(NotOurs::OtherHistory),
            MigrateError::Newer { found: 20_240_105_093_000, known: 37 },
            MigrateError::Changed { version: 2 },
            MigrateError::Dirty { version: 2 },
            MigrateError::Backup(quoted()),
            MigrateError::Failed { version: 3, description: "часы".to_owned(), source: quoted() },
            MigrateError::Database(quoted()),
        ];
        let (en, ru) = (Lang::console("en"), Lang::console("ru"));
        for error in refusals {
            let english = error.to_string();
            let error = OpenError::Migrate(error);
            assert_eq!(refusal(en, "tafl.db", &error), format!("cannot open the database tafl.db: {english}"));
            let russian = refusal(ru, "tafl.db", &error);
            assert!(russian.starts_with("не удаётся открыть базу данных tafl.db: "), "{russian}");
            // sqlx's words about the database stay as it said them.
            let ours = russian.replace(&crate::store::describe(&quoted()), "");
            let english_words: Vec<&str> = ours
                .split(|c: char| !c.is_ascii_alphabetic())
                .filter(|word| word.len() > 2 && !["tafl", "bot", "sqlx", "migrations", "SQLite"].contains(word))
                .collect();
            assert!(english_words.is_empty(), "{russian}");
            // A version is written as it is, without a number's separators.
            assert!(!russian.contains("20 240") && !russian.contains('\u{a0}'), "{russian}");
        }
    }

    #[test]
    fn a_database_another_program_holds_locked_is_said_in_both_languages() {
        let error = OpenError::Locked { file: "/srv/tafl.db".into() };
        let (en, ru) = (Lang::console("en"), Lang::console("ru"));
        assert_eq!(refusal(en, "tafl.db", &error), format!("cannot open the database tafl.db: {error}"));
        assert_eq!(
            refusal(ru, "tafl.db", &error),
            "не удаётся открыть базу данных tafl.db: другая программа держит /srv/tafl.db заблокированной (SQLite \
             отвечает «database is locked»); завершите её транзакцию или остановите её и запустите консоль снова"
        );
    }

    /// An English console on a database in `dir`, without pictures.
    fn english_console(dir: &std::path::Path) -> LocalArgs {
        LocalArgs {
            db: dir.join("console.db"),
            boards: dir.join("boards"),
            no_png: true,
            quiet: false,
            lang: Some("en".to_owned()),
        }
    }

    /// Ctrl-D at the prompt ended the session on the prompt's line, where the shell's own prompt
    /// then followed ("you> $ ").
    #[test]
    fn the_end_of_input_at_the_prompt_ends_its_line() {
        let dir = tempfile::tempdir().expect("a scratch folder");
        let args = english_console(dir.path());
        let mut out = Vec::new();
        run_with(&args, &mut &b"/games\n"[..], &mut out, true).expect("a session");
        let out = String::from_utf8(out).expect("UTF-8");
        assert!(out.ends_with("\nyou> \n"), "{out:?}");
        // A line cut short as too long lacks its newline too, but the terminal showed it: no
        // blank line before the refusal.
        let long = vec![b'/'; MAX_LINE_BYTES + 10];
        let mut cut = Vec::new();
        let _ = run_with(&args, &mut &long[..], &mut cut, true);
        assert!(!String::from_utf8_lossy(&cut).contains("> \n"), "{:?}", String::from_utf8_lossy(&cut));
        // Piped input has no prompt to end.
        let mut piped = Vec::new();
        run_with(&args, &mut &b"/games\n"[..], &mut piped, false).expect("a session");
        let piped = String::from_utf8(piped).expect("UTF-8");
        assert!(!piped.contains("\n\n"), "{piped:?}");
    }

    /// A command ended with Ctrl-D instead of Enter (no newline) printed its reply on the
    /// prompt's line: "you> /moveserror: you have no game going".
    #[test]
    fn a_command_ended_without_a_newline_is_answered_on_a_line_of_its_own() {
        let dir = tempfile::tempdir().expect("a scratch folder");
        let args = english_console(dir.path());
        let mut out = Vec::new();
        run_with(&args, &mut &b"/moves"[..], &mut out, true).expect("a session");
        let out = String::from_utf8(out).expect("UTF-8");
        let reply = out.lines().find(|l| l.contains("no game going")).unwrap_or_default();
        assert!(reply.starts_with("error:"), "{out:?}");
        assert!(out.ends_with("\nyou> \n"), "{out:?}");
        // Piped input is echoed by the console itself, on a line of its own already.
        let mut piped = Vec::new();
        let _ = run_with(&args, &mut &b"/moves"[..], &mut piped, false);
        let piped = String::from_utf8(piped).expect("UTF-8");
        assert!(!piped.contains("\n\n"), "{piped:?}");
    }
}
