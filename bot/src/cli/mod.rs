//! The `tafl-bot` command line: argument parsing here, one module per subcommand.
//!
//! Scripts and tests depend on the exact subcommand names, arguments and JSON lines (see
//! ARCHITECTURE.md, "The CLI"), so each subcommand keeps its output format in its own module and
//! exposes a plain function that takes its arguments and the streams to use, which tests can call
//! without spawning a process.
//!
//! Every failure ends as one sentence on stderr and exit status 1; nothing here panics on input.

pub mod ai;
pub mod engine;
pub mod migrate_db;
pub mod perft;
pub mod render;
pub mod replay;
pub mod variants;

use std::io::{self, IsTerminal, Write};
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use tafl_rules::{Position, Rules, Setup, Side, Variant};

/// Hosts tafl (hnefatafl family) games on Discord, and checks, replays and counts tafl games
/// from the command line.
#[derive(Debug, Parser)]
#[command(name = "tafl-bot", version, about, long_about = None)]
#[command(after_help = "Errors are reported as one sentence on stderr, with exit status 1.")]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

// The doc comments are clap's help texts, read in a terminal: product names go unquoted there.
#[allow(clippy::doc_markdown)]
#[derive(Debug, Subcommand)]
pub enum Command {
    /// List the preset variants: id, name, size, options and OTN rules string.
    Variants(variants::VariantsArgs),
    /// Replay moves and report each ply, the final status and position.
    Replay(replay::ReplayArgs),
    /// Count the move sequences from the start position, one line per depth.
    Perft(perft::PerftArgs),
    /// Draw the final position as a PNG, or the whole game as an animated GIF.
    Render(render::RenderArgs),
    /// The engine's move for the side to move after MOVES (from the start or --position).
    Ai(ai::AiArgs),
    /// Engine against engine, alternating sides: results by side and the Elo difference.
    Match(ai::MatchArgs),
    /// Speak OpenTafl's engine protocol on stdin and stdout.
    Engine(engine::EngineArgs),
    /// Play in the terminal without Discord: the same commands, the same game host.
    Local(crate::local::LocalArgs),
    /// Connect to Discord (`DISCORD_TOKEN`) and serve the slash commands until Ctrl-C or SIGTERM.
    #[command(after_help = RUN_ENVIRONMENT)]
    Run,
    /// Copy every table of an SQLite database into a new, empty PostgreSQL one, in one
    /// transaction, and check every table's count.
    MigrateDb(migrate_db::MigrateDbArgs),
}

/// The end of `tafl-bot run --help`: the variables `run` reads. The README says more of each.
const RUN_ENVIRONMENT: &str = "\
Settings come from the environment:
  DISCORD_TOKEN       the bot's token (required)
  DATABASE_URL        where the games are kept: sqlite://FILE or postgres://USER@HOST/DATABASE;
                      default sqlite://tafl.db, a file tafl.db in the working directory
                      (sqlite:///var/lib/tafl/tafl.db, with three slashes, for an absolute path)
  DISCORD_GUILD_ID    register the commands in this server only, instantly (for trying it out)
  DISCORD_SHARD_COUNT, DISCORD_SHARDS
                      gateway shards in all, and those this process serves (see the README)
  TAFL_HEALTH_ADDR    serve GET /healthz on this address, e.g. 127.0.0.1:8080
  DATABASE_MAX_CONNECTIONS, DATABASE_STATEMENT_TIMEOUT_MS
                      the database pools' size (default 4) and a statement's time limit (10000 ms)
  TAFL_LOCALES_DIR    more languages, or a translation to try, from DIR/xx/*.ftl
  RUST_LOG            the log level (default: the bot's info lines, libraries' warnings)

An SQLite file is served by one process: run locks it (FILE.lock beside it), and a second run,
or a tafl-bot local, on the same file is refused.";

/// Why a subcommand failed. Each variant is reported as one sentence on stderr.
#[derive(Debug, thiserror::Error)]
pub enum CliError {
    /// Bad arguments or input, in words the user can act on.
    #[error("{0}")]
    Input(String),
    /// A move of `replay` that cannot be played; the output stream has already reported it.
    #[error("ply {ply}: {message}")]
    BadPly { ply: usize, mv: String, message: String },
    /// A sentence already worded in its reader's language, its "error:" included (the console
    /// speaks Russian too): printed as it is.
    #[error("{0}")]
    Said(String),
    /// Writing the output or a file, or reading stdin, failed.
    #[error("{context}: {source}")]
    Io { context: std::borrow::Cow<'static, str>, source: io::Error },
}

impl CliError {
    pub(crate) fn write(source: io::Error) -> CliError {
        CliError::Io { context: "cannot write the output".into(), source }
    }
}

/// Runs the command line: parses `std::env::args`, runs the subcommand and maps failures to one
/// sentence on stderr and exit status 1.
#[must_use]
pub fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(error) => return clap_failure(&error),
    };
    let result = {
        let stdout = io::stdout();
        let mut out = stdout.lock();
        run(&cli.command, &mut out).and_then(|()| out.flush().map_err(CliError::write))
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        // The reader went away (`tafl-bot perft … | head -1`): nobody is left to tell.
        Err(CliError::Io { source, .. }) if source.kind() == io::ErrorKind::BrokenPipe => ExitCode::FAILURE,
        Err(error) => {
            let line = match error {
                CliError::Said(said) => said,
                error => format!("error: {error}"),
            };
            // Every error is one line; whatever input it quotes cannot break or colour it.
            complain(&crate::printable::printable(&line));
            ExitCode::FAILURE
        }
    }
}

/// Runs one subcommand, writing its output to `out` (stdin is read only by `replay` without
/// move arguments; `render` writes the files it is given).
pub fn run(command: &Command, out: &mut dyn Write) -> Result<(), CliError> {
    match command {
        Command::Variants(args) => variants::run(args, out),
        Command::Replay(args) => {
            // Stdin is read for the moves when none are given, and for a record named `-`; a
            // record file is read from its file, whatever the moves (`--record` takes none).
            let reads = match &args.record {
                Some(path) => (path.as_os_str() == "-").then_some("the record"),
                None => args.moves.is_empty().then_some("moves"),
            };
            match reads {
                Some(what) => {
                    let stdin = io::stdin();
                    if stdin.is_terminal() {
                        // A bad variant, position or option is said at once, alone, rather than
                        // after a prompt for moves that could never be played.
                        if args.record.is_none() {
                            replay::start_position(args)?;
                        }
                        // Someone typed the command without input: say why nothing happens yet.
                        complain(&format!("reading {what} from stdin; end with Ctrl-D"));
                    }
                    replay::run(args, &mut stdin.lock(), out)
                }
                None => replay::run(args, &mut io::empty(), out),
            }
        }
        Command::Perft(args) => perft::run(args, out),
        Command::Render(args) => render::run(args).map_err(CliError::Input),
        Command::Ai(args) => ai::run(args, out),
        Command::Match(args) => ai::run_match(args, out),
        Command::Engine(args) => engine::run(args, &mut io::stdin().lock(), out),
        Command::Local(args) => crate::local::run(args, out),
        Command::Run => crate::discord::run_from_env().map_err(|e| CliError::Input(e.to_string())),
        Command::MigrateDb(args) => migrate_db::run(args, out),
    }
}

/// Help and version go to stdout with status 0; a malformed command line becomes one sentence
/// (clap's own message without the usage block) and status 1, like every other error.
fn clap_failure(error: &clap::Error) -> ExitCode {
    use clap::error::ErrorKind;
    if matches!(error.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) {
        // A closed stdout (`| head -1`) wants no more; any other failure (a full disk) is said,
        // as every command says it.
        return match error.print() {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
            Err(e) => {
                let what = if error.kind() == ErrorKind::DisplayVersion { "the version" } else { "the help" };
                complain(&format!("error: cannot write {what}: {e}"));
                ExitCode::FAILURE
            }
        };
    }
    if error.kind() == ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand {
        // A bare `tafl-bot` (or a subcommand without its arguments): one line, not the help.
        complain(
            "error: say what to do, e.g. `tafl-bot run` or `tafl-bot local`; `tafl-bot --help` lists the commands",
        );
        return ExitCode::FAILURE;
    }
    // clap's message drops control characters from the values it quotes, with what it takes for
    // the rest of a colour code: `--depth 1<ESC>` read "invalid value '1'", `fr<ESC>ob` "'frb'".
    // When what it quotes is what is left of such an argument, the argument is named as given.
    let args: Vec<std::ffi::OsString> = std::env::args_os().skip(1).collect();
    let message = one_sentence(&error.render().to_string());
    let quoted: Vec<&str> = message.split('\'').skip(1).step_by(2).collect();
    let controlled = args
        .iter()
        .map(|arg| arg.to_string_lossy())
        .find(|arg| arg.chars().any(char::is_control) && quoted.iter().any(|q| !q.is_empty() && is_left_of(q, arg)));
    let said = match controlled {
        Some(arg) => format!("the argument \"{}\" holds a control character", crate::printable::printable(&arg)),
        None => crate::printable::printable(&message).into_owned(),
    };
    complain(&format!("error: {said}; see `{} --help`", command_of(args.into_iter())));
    ExitCode::FAILURE
}

/// Whether `shown` is `given` with some of its characters left out, in order.
fn is_left_of(shown: &str, given: &str) -> bool {
    let mut given = given.chars();
    shown.chars().all(|c| given.any(|g| g == c))
}

/// The command whose help lists the arguments an error is about: `tafl-bot render` when the
/// command line starts with that subcommand, else `tafl-bot`.
fn command_of(mut args: impl Iterator<Item = std::ffi::OsString>) -> String {
    use clap::CommandFactory;
    let first = args.next();
    let first = first.as_ref().and_then(|arg| arg.to_str()).unwrap_or_default();
    match Cli::command().find_subcommand(first) {
        Some(sub) if first != "help" => format!("tafl-bot {}", sub.get_name()),
        _ => "tafl-bot".to_owned(),
    }
}

/// Writes one line to stderr. A stderr that cannot be written (`2>/dev/full`, a closed pipe) is
/// not worth a panic: the exit status still tells what happened. Nor is one that does not take
/// the line (a full pipe nobody reads, as a stuck log shipper leaves it): the line is written by
/// a thread of its own and waited for [`STDERR_WAIT`] at most, so that an error exit still
/// exits (written from the failing thread, the line blocked `tafl-bot run` for good).
pub(crate) fn complain(line: &str) {
    let line = format!("{line}\n");
    let (written, done) = std::sync::mpsc::channel();
    let to_write = line.clone();
    let writer = std::thread::Builder::new().name("tafl-stderr".to_owned()).spawn(move || {
        let _ = io::stderr().write_all(to_write.as_bytes());
        let _ = written.send(());
    });
    match writer {
        Ok(_) => {
            let _ = done.recv_timeout(STDERR_WAIT);
        }
        // No thread to be had: written here, as before.
        Err(_) => {
            let _ = io::stderr().write_all(line.as_bytes());
        }
    }
}

/// How long [`complain`] waits for stderr to take a line.
const STDERR_WAIT: std::time::Duration = std::time::Duration::from_secs(1);

/// Clap's first paragraph on one line: `error: the following required arguments were not
/// provided:\n  --variant <ID>` becomes `the following required arguments were not provided: --variant <ID>`.
/// Clap's tips follow it (`unexpected argument '--out' found; a similar argument exists:
/// '--output'`): they name what was probably meant.
fn one_sentence(rendered: &str) -> String {
    let mut paragraphs = rendered.split("\n\n");
    let first = paragraphs.next().unwrap_or(rendered);
    let first = first.trim().strip_prefix("error:").unwrap_or(first);
    let tips = paragraphs.filter_map(|p| p.trim().strip_prefix("tip:"));
    std::iter::once(first)
        .chain(tips)
        .map(|p| p.split_whitespace().collect::<Vec<_>>().join(" "))
        .collect::<Vec<_>>()
        .join("; ")
}

/// Where a game starts: a preset with its options, and optionally a custom position. Shared by
/// `replay` and `render` so both read these arguments and word their errors the same way.
#[derive(Debug, Clone, clap::Args)]
pub struct StartArgs {
    /// The preset, e.g. copenhagen (`tafl-bot variants` lists them).
    // Required, except that `replay --record` takes it from the record (its own help says so):
    // optional here because of that one exception, and each command checks for it itself.
    #[arg(long, value_name = "ID")]
    pub variant: Option<String>,
    /// A preset option, e.g. escape=edge; may be repeated.
    #[arg(long = "opt", value_name = "KEY=VALUE")]
    pub options: Vec<String>,
    /// Start from this OTN position instead of the preset's, e.g. /3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/.
    #[arg(long, value_name = "OTN")]
    pub position: Option<String>,
    /// The side to move first.
    #[arg(long, value_name = "attackers|defenders", default_value = "attackers")]
    pub to_move: String,
}

impl StartArgs {
    /// The preset's rules with the options applied.
    pub fn rules(&self) -> Result<Rules, CliError> {
        Ok(rules_for(self.variant()?, &self.options)?.1)
    }

    /// The `--variant` given.
    pub fn variant(&self) -> Result<&str, CliError> {
        self.variant.as_deref().ok_or_else(|| {
            CliError::Input("say which rules to play with --variant ID (`tafl-bot variants` lists them)".to_owned())
        })
    }

    /// The `--position` setup (the rules' own start when absent) and the side to move, parsed but
    /// not yet validated against the rules.
    pub fn setup(&self, rules: &Rules) -> Result<(Setup, Side), CliError> {
        let to_move = Side::from_name(&self.to_move).ok_or_else(|| {
            CliError::Input(format!(
                "\"{}\" is not a side; --to-move takes attackers or defenders",
                shorten(self.to_move.trim(), 24)
            ))
        })?;
        let setup = match &self.position {
            Some(text) => text.parse::<Setup>().map_err(|e| CliError::Input(e.to_string()))?,
            None => rules.start.clone(),
        };
        Ok((setup, to_move))
    }

    /// The validated start position under `rules`.
    pub fn position(&self, rules: Rules) -> Result<Position, CliError> {
        let (setup, to_move) = self.setup(&rules)?;
        Position::from_setup(rules, &setup, to_move).map_err(|e| CliError::Input(e.to_string()))
    }
}

/// The preset named `id` with `--opt KEY=VALUE` options applied; errors name the known variants
/// or the options the preset has.
pub fn rules_for(id: &str, options: &[String]) -> Result<(Variant, Rules), CliError> {
    let variant: Variant = id.parse().map_err(|e: tafl_rules::RulesError| CliError::Input(e.to_string()))?;
    let rules = variant.rules_with_texts(options).map_err(|e| CliError::Input(e.to_string()))?;
    Ok((variant, rules))
}

/// At most `limit` characters of untrusted text with control characters escaped, so that an
/// error about a 10 KB token (or one holding ESC or a newline) stays one readable line.
pub(crate) fn shorten(text: &str, limit: usize) -> String {
    let mut cut: String = text.chars().take(limit).collect();
    if text.chars().count() > limit {
        cut.push('…');
    }
    crate::printable::printable(&cut).into_owned()
}

/// Writes `bytes` to `path`, replacing a file of that name, so that a kill, a full disk or a
/// power cut leaves the old file or the whole new one, never a truncated one: written beside as
/// `<name>.part`, flushed to the disk, renamed, and the folder flushed too (the rename lives in
/// its entries). A `.part` left by a failure is removed.
pub(crate) fn write_whole(path: &std::path::Path, bytes: &[u8]) -> io::Result<()> {
    stage(path, bytes)?.commit()
}

/// The first half of [`write_whole`]: `bytes` written and flushed beside `path`, not yet in its
/// place, so that a command writing several files can put them all in place only once every
/// one was written (`render -o board.png --gif game.gif`).
pub(crate) fn stage<'a>(path: &std::path::Path, bytes: &'a [u8]) -> io::Result<Staged<'a>> {
    // A link is kept: its target is written whole. What is not a regular file (`/dev/stdout`, a
    // pipe) is written through, as named, when committed: a rename would replace it. It is
    // opened now, so that one that cannot be written (a folder, a link to nowhere) fails before
    // any other file is put in place.
    if let Ok(meta) = std::fs::symlink_metadata(path) {
        if meta.file_type().is_symlink()
            && let Ok(target) = std::fs::canonicalize(path)
            && target.is_file()
        {
            return stage(&target, bytes);
        }
        if !meta.is_file() {
            let file = std::fs::OpenOptions::new().write(true).open(path)?;
            return Ok(Staged { path: path.to_owned(), pending: Pending::Through(file, bytes) });
        }
    }
    let partial = partial_of(path);
    // Made before the file, so that a failure from here on removes what was written.
    let staged = Staged { path: path.to_owned(), pending: Pending::Partial(partial.clone()) };
    let mut file = std::fs::File::create(&partial).map_err(|e| {
        // What stands where the temporary file goes is named: "cannot write x.png: Is a
        // directory" blamed x.png for a folder x.png.part. A missing folder is said as it was.
        if std::fs::symlink_metadata(&partial).is_ok() {
            io::Error::new(e.kind(), format!("cannot create its temporary file {}: {e}", partial.display()))
        } else {
            e
        }
    })?;
    file.write_all(bytes)?;
    file.sync_all()?;
    Ok(staged)
}

/// Where [`write_whole`] writes `path` before renaming it into place: `<path>.part`.
pub(crate) fn partial_of(path: &std::path::Path) -> std::path::PathBuf {
    let mut partial = path.as_os_str().to_owned();
    partial.push(".part");
    std::path::PathBuf::from(partial)
}

/// Puts every staged file in place, those written through first: a device or pipe may still
/// refuse the bytes (`/dev/full`), where a rename beside its file hardly fails, so that a
/// failure leaves none of the renamed files in place. On a failure after some file was put in
/// place the error says which.
pub(crate) fn commit_all(
    staged: Vec<Staged<'_>>,
) -> Result<(), (std::path::PathBuf, io::Error, Vec<std::path::PathBuf>)> {
    let (through, renamed): (Vec<_>, Vec<_>) =
        staged.into_iter().partition(|s| matches!(s.pending, Pending::Through(..)));
    let mut done = Vec::new();
    for file in through.into_iter().chain(renamed) {
        let path = file.path.clone();
        file.commit().map_err(|e| (path.clone(), e, done.clone()))?;
        done.push(path);
    }
    Ok(())
}

/// A file [`stage`]d: in place once [`Staged::commit`]ted; its temporary file is removed when
/// it is dropped before.
#[derive(Debug)]
pub(crate) struct Staged<'a> {
    path: std::path::PathBuf,
    pending: Pending<'a>,
}

#[derive(Debug)]
enum Pending<'a> {
    /// Written whole beside, to be renamed.
    Partial(std::path::PathBuf),
    /// Not a regular file, opened: written through when committed.
    Through(std::fs::File, &'a [u8]),
    Done,
}

impl Staged<'_> {
    /// Puts the file in place.
    pub(crate) fn commit(mut self) -> io::Result<()> {
        match std::mem::replace(&mut self.pending, Pending::Done) {
            Pending::Through(mut file, bytes) => file.write_all(bytes).and_then(|()| file.flush()),
            Pending::Partial(partial) => {
                let put = || -> io::Result<()> {
                    std::fs::rename(&partial, &self.path)?;
                    #[cfg(unix)]
                    {
                        let folder = self
                            .path
                            .parent()
                            .filter(|f| !f.as_os_str().is_empty())
                            .unwrap_or(std::path::Path::new("."));
                        std::fs::File::open(folder)?.sync_all()?;
                    }
                    Ok(())
                };
                put().inspect_err(|_| {
                    let _ = std::fs::remove_file(&partial);
                })
            }
            Pending::Done => Ok(()),
        }
    }
}

impl Drop for Staged<'_> {
    fn drop(&mut self) {
        if let Pending::Partial(partial) = &self.pending {
            let _ = std::fs::remove_file(partial);
        }
    }
}

/// A clap parser of a whole number from `min` to `max`, which answers any other value, however
/// large, with that range: a plain `u32` refused 99999999999 as "not in 0..=4294967295", the
/// range of its type rather than of the option (`--level` checks its range in clap for the same
/// reason). Clap puts the value and the option before it: "invalid value '99999999999' for
/// '--depth <N>': give a whole number from 1 to 60".
pub(crate) fn number_from<T>(min: T, max: T) -> impl Fn(&str) -> Result<T, String> + Clone + Send + Sync + 'static
where
    T: std::str::FromStr + PartialOrd + std::fmt::Display + Copy + Send + Sync + 'static,
{
    move |text: &str| {
        text.parse::<T>()
            .ok()
            .filter(|n| (min..=max).contains(n))
            .ok_or_else(|| format!("give a whole number from {min} to {max}"))
    }
}

/// `n` and the noun in the right number: "1 ply", "5 plies".
pub(crate) fn count(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `run --help` names every variable `run` reads, so an operator never has to read the code
    /// to find one. The set is what `Config::from_vars` asks for (with a token, so that it reads
    /// on), plus those read elsewhere; the test hooks for a fake Discord are the README's alone.
    #[test]
    fn run_help_names_every_variable_run_reads() {
        let asked = std::cell::RefCell::new(Vec::new());
        let _ = crate::discord::Config::from_vars(|name| {
            asked.borrow_mut().push(name.to_owned());
            (name == "DISCORD_TOKEN").then(|| "token".to_owned())
        });
        let mut names = asked.into_inner();
        names.extend([crate::present::locale::EXTRA_LOCALES_VAR.to_owned(), "RUST_LOG".to_owned()]);
        let test_hooks = ["DISCORD_API_BASE", "DISCORD_API_RESOLVE", "DISCORD_API_CA"];
        for name in names.iter().filter(|n| !test_hooks.contains(&n.as_str())) {
            assert!(RUN_ENVIRONMENT.contains(name.as_str()), "{name} is missing from run --help");
        }
        assert!(names.len() >= 10, "{names:?}");
    }

    #[test]
    fn a_file_is_replaced_whole_and_no_partial_stays() {
        let dir = std::env::temp_dir().join(format!("tafl-write-whole-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("a folder");
        let path = dir.join("board.png");
        std::fs::write(&path, b"old and longer").expect("the old file");
        write_whole(&path, b"new").expect("written");
        assert_eq!(std::fs::read(&path).expect("readable"), b"new");
        assert!(!dir.join("board.png.part").exists());
        // A folder that is not there: an error, and nothing left behind.
        let missing = dir.join("nowhere").join("board.png");
        assert!(write_whole(&missing, b"new").is_err());
        assert!(!dir.join("nowhere").exists());
        // A link is written through, not replaced by a file.
        #[cfg(unix)]
        {
            let link = dir.join("latest.png");
            std::os::unix::fs::symlink(&path, &link).expect("a link");
            write_whole(&link, b"newer").expect("written");
            assert!(std::fs::symlink_metadata(&link).expect("there").file_type().is_symlink());
            assert_eq!(std::fs::read(&path).expect("readable"), b"newer");
        }
        std::fs::remove_dir_all(&dir).expect("cleaned up");
    }

    /// A staged file is in place only once committed; dropped before, it leaves nothing, not
    /// even its temporary file, and an old file of that name is as it was.
    #[test]
    fn a_staged_file_dropped_uncommitted_leaves_nothing_behind() {
        let dir = tempfile::tempdir().expect("a scratch folder");
        let path = dir.path().join("board.png");
        let staged = stage(&path, b"new").expect("staged");
        assert!(!path.exists() && dir.path().join("board.png.part").exists());
        drop(staged);
        assert_eq!(std::fs::read_dir(dir.path()).expect("listed").count(), 0);
        std::fs::write(&path, b"old").expect("the old file");
        drop(stage(&path, b"new").expect("staged"));
        assert_eq!(std::fs::read(&path).expect("readable"), b"old");
        stage(&path, b"new").expect("staged").commit().expect("put in place");
        assert_eq!(std::fs::read(&path).expect("readable"), b"new");
        assert_eq!(std::fs::read_dir(dir.path()).expect("listed").count(), 1);
    }

    /// The help texts come from doc comments, where the linter wants product names in code
    /// quotes; a terminal shows the quotes as they are.
    #[test]
    fn help_texts_name_products_without_code_quotes() {
        use clap::CommandFactory;
        let mut cli = Cli::command();
        let mut texts = vec![cli.render_long_help().to_string()];
        for sub in cli.get_subcommands_mut() {
            texts.push(sub.render_long_help().to_string());
        }
        for name in ["OpenTafl", "SQLite", "PostgreSQL", "Discord"] {
            for text in &texts {
                assert!(!text.contains(&format!("`{name}")), "{name} in quotes:\n{text}");
            }
        }
        assert!(texts.iter().any(|t| t.contains("Speak OpenTafl's engine protocol")));
    }

    #[test]
    fn an_error_points_to_the_help_of_its_own_subcommand() {
        let help = |args: &[&str]| command_of(args.iter().map(std::ffi::OsString::from));
        assert_eq!(help(&["render", "--out", "x.png"]), "tafl-bot render");
        assert_eq!(help(&["match", "--a", "5"]), "tafl-bot match");
        assert_eq!(help(&["migrate-db"]), "tafl-bot migrate-db");
        assert_eq!(help(&["frob", "render"]), "tafl-bot");
        assert_eq!(help(&["--colour"]), "tafl-bot");
        assert_eq!(help(&[]), "tafl-bot");
    }

    #[test]
    fn clap_messages_become_one_line_without_the_usage_block() {
        let rendered = "error: the following required arguments were not provided:\n  --variant <ID>\n\nUsage: x\n";
        assert_eq!(one_sentence(rendered), "the following required arguments were not provided: --variant <ID>");
    }

    #[test]
    fn the_command_line_definition_is_consistent() {
        use clap::CommandFactory;
        Cli::command().debug_assert();
    }
}
