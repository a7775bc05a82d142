//! `tafl-bot run` and its database, as the operator who starts it meets them: one process per
//! `SQLite` file, a file or folder it cannot write, a full disk, what it says about where the
//! games are kept, and that no password is printed.
//!
//! The tests of files the bot may not write start it as `nobody` (uid 65534), which only root
//! can do: without root they are skipped with one line, except under `CI=true` (CI runs as
//! root), where they fail rather than pass without testing anything.

#![cfg(unix)]

use std::os::unix::fs::PermissionsExt;
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

use serde_json::json;
use tafl_e2e::fake_discord::FakeDiscord;
use tafl_e2e::harness::{ALICE, BOB, BotProcess, CHANNEL, Table, exit_within, temp_dir};
use tafl_rules::Variant;

const BINARY: &str = env!("CARGO_BIN_EXE_tafl-bot-e2e");

/// The user the tests of unwritable files run the bot as.
const NOBODY: u32 = 65_534;

/// `tafl-bot run` with a token and `DATABASE_URL=url`, against a Discord nobody answers: for a
/// start refused before it reaches Discord. stderr is piped.
fn run_with_database(url: &str, dir: &Path) -> Command {
    let mut command = Command::new(BINARY);
    command.arg("run");
    with_database(&mut command, url, dir);
    command
}

/// [`run_with_database`] with a file-size limit of 4 KB (one page of the database), as on a full
/// disk: writes past it fail (SIGXFSZ ignored, as servers run).
fn run_on_a_full_disk(url: &str, dir: &Path) -> Command {
    let mut command = Command::new("sh");
    command.args(["-c", "trap '' XFSZ; exec prlimit --fsize=4096 -- \"$0\" run", BINARY]);
    with_database(&mut command, url, dir);
    command
}

/// The environment of [`run_with_database`].
fn with_database(command: &mut Command, url: &str, dir: &Path) {
    command
        .current_dir(dir)
        .env("DISCORD_TOKEN", "t")
        .env("DATABASE_URL", url)
        .env("DISCORD_API_BASE", "http://127.0.0.1:1")
        .env_remove("DISCORD_API_RESOLVE")
        .env_remove("DISCORD_GUILD_ID")
        .env_remove("DISCORD_SHARDS")
        .env_remove("DISCORD_SHARD_COUNT")
        .env_remove("TAFL_HEALTH_ADDR")
        .env("RUST_LOG", "warn")
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
}

/// The one sentence a refused start ends with: its exit status is 1 and its last line starts
/// with `error:`.
fn refusal(status: Option<std::process::ExitStatus>, stderr: &str) -> String {
    assert_eq!(status.and_then(|s| s.code()), Some(1), "not refused with status 1: {status:?}; stderr:\n{stderr}");
    let last = stderr.lines().last().unwrap_or_default().to_owned();
    assert!(last.starts_with("error: "), "{stderr}");
    last
}

/// Whether this process may start others as another user; `false` (after saying so) when the
/// test is to be skipped. Under `CI=true` a missing root fails the test instead.
fn root_or_skip() -> bool {
    use std::os::unix::fs::MetadataExt;
    // The owner of /proc/self is the process's effective user.
    if std::fs::metadata("/proc/self").is_ok_and(|m| m.uid() == 0) {
        return true;
    }
    let ci = std::env::var("CI").is_ok_and(|v| v.eq_ignore_ascii_case("true") || v == "1");
    assert!(!ci, "CI=true: this test starts the bot as another user, which needs root (CI runs as root)");
    eprintln!("skipped: needs root, to start the bot as a user who may not write its files");
    false
}

/// What a console session in `lang` on `db`, as `nobody` in `db`'s folder, says on stderr as it
/// refuses the database (exit 1).
fn console_as_nobody(lang: &str, db: &Path) -> String {
    let output = Command::new(BINARY)
        .args(["local", "--no-png", "--lang", lang, "--db"])
        .arg(db)
        .current_dir(db.parent().unwrap())
        .uid(NOBODY)
        .gid(NOBODY)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&output.stderr).into_owned();
    assert_eq!(output.status.code(), Some(1), "{said}");
    said
}

/// A scratch folder every user may enter (the bot runs as `nobody` in it), removed by the caller.
fn shared_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("tafl-e2e-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o755)).unwrap();
    dir
}

/// Creates and migrates an `SQLite` database at `db`, as root would (a restore, a `sudo cp`).
async fn make_database(db: &Path) {
    tafl_bot::store::Db::open(&format!("sqlite://{}", db.display())).await.unwrap().close().await;
}

/// README: "one `SQLite` file means exactly one `tafl-bot run`" (a second would answer every
/// interaction again and deliver every outbox item twice). A second `tafl-bot run` started by
/// mistake on the same file (a systemd unit and a manual run, a deploy that starts the new one
/// before the old one stopped) used to serve beside the first without a word: one /tafl
/// challenge made two challenges. It is refused at start-up, and so is the console.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_second_run_on_the_same_sqlite_file_is_refused() {
    let fake = FakeDiscord::start_tls().await;
    let dir = temp_dir("second-run");
    let db = dir.join("tafl.db");
    let first = BotProcess::spawn(Path::new(BINARY), &fake, &dir);
    fake.wait_until_ready().await;
    let ca = dir.join("ca.pem");
    let second = Command::new(BINARY)
        .arg("run")
        .env("DISCORD_TOKEN", "fake-token")
        .env("DATABASE_URL", format!("sqlite://{}", db.display()))
        .env("DISCORD_API_RESOLVE", fake.rest_addr().to_string())
        .env("DISCORD_API_CA", &ca)
        .env_remove("DISCORD_API_BASE")
        .env_remove("DISCORD_GUILD_ID")
        .env("RUST_LOG", "warn,tafl_bot=info")
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start a second tafl-bot run");
    let (status, stderr) =
        tokio::task::spawn_blocking(move || exit_within(second, Duration::from_secs(20))).await.unwrap();
    let said = refusal(status, &stderr);
    let expected = format!(
        "error: cannot open the database sqlite://{}: another tafl-bot run (pid {}) is using it (it holds the lock {}.lock)",
        db.display(),
        first.id(),
        db.display()
    );
    assert!(said.starts_with(&expected), "{said}");
    assert_eq!(stderr.lines().count(), 1, "one sentence, nothing logged before it: {stderr}");
    assert_eq!(fake.connections(), 1, "the second process never connected");

    // The console would empty the bot's outbox and run its clocks.
    let console = Command::new(BINARY)
        .args(["local", "--no-png", "--lang", "en", "--db"])
        .arg(&db)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let console_said = String::from_utf8_lossy(&console.stderr);
    assert_eq!(console.status.code(), Some(1), "{console_said}");
    assert!(
        console_said.starts_with(&format!(
            "error: cannot open the database {}: another program uses it (tafl-bot run (pid {})",
            db.display(),
            first.id()
        )),
        "{console_said}"
    );

    // One /tafl challenge is one challenge.
    let table = Table { fake: &fake, channel: CHANNEL, locale: "en-US" };
    let challenge = table.command(
        ALICE,
        "challenge",
        &json!({ "opponent": BOB.id, "variant": Variant::Brandubh.id(), "side": 0 }),
        &[BOB],
    );
    let _card = fake.wait_for_original(&challenge).await;
    let pool = sqlx::SqlitePool::connect(&format!("sqlite://{}", db.display())).await.unwrap();
    let challenges: i64 = sqlx::query_scalar("SELECT count(*) FROM challenges").fetch_one(&pool).await.unwrap();
    pool.close().await;
    assert_eq!(challenges, 1);

    // The start-up log says where the games are kept: the file's absolute path.
    let log = std::fs::read_to_string(dir.join("bot.log")).unwrap();
    let opened = log.lines().find(|line| line.contains("opened the database")).unwrap_or_default();
    assert!(opened.contains(&format!("(the file {})", db.display())), "{log}");
    first.kill();
}

/// README: "a password is never printed". `postgres://…?password=…` is a form sqlx accepts (as
/// libpq does); the start-up error printed it, as did the console's and `migrate-db`'s. A
/// password-like parameter sqlx does not read (`sslpassword`) was logged by sqlx itself, value
/// and all, as an unrecognised parameter: it is refused by name.
#[test]
fn a_password_given_as_a_url_parameter_is_never_printed() {
    let dir = temp_dir("password-parameter");
    let url = "postgres://tafl@127.0.0.1:1/tafl?sslmode=disable&password=hunter2";
    let (status, stderr) = exit_within(run_with_database(url, &dir).spawn().unwrap(), Duration::from_secs(20));
    let said = refusal(status, &stderr);
    assert!(!stderr.contains("hunter2"), "the password is printed: {stderr}");
    assert!(said.contains("postgres://tafl@127.0.0.1:1/tafl?sslmode=disable&password=***"), "{said}");

    let unread = "postgres://tafl@127.0.0.1:1/tafl?sslpassword=hunter2";
    let mut run = run_with_database(unread, &dir);
    run.env("RUST_LOG", "trace");
    let (status, stderr) = exit_within(run.spawn().unwrap(), Duration::from_secs(20));
    let said = refusal(status, &stderr);
    assert!(!stderr.contains("hunter2"), "the password is printed: {stderr}");
    assert!(said.contains("sslpassword parameter is not one tafl-bot reads"), "{said}");

    for args in [
        vec!["local", "--no-png", "--lang", "en", "--db", url],
        vec!["migrate-db", "--from", url, "--to", "postgres://tafl@127.0.0.1:1/tafl"],
        vec!["migrate-db", "--from", "sqlite://tafl.db", "--to", url],
    ] {
        let output = Command::new(BINARY).args(&args).current_dir(&dir).stdin(Stdio::null()).output().unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(1), "{args:?}: {stderr}");
        assert!(!stderr.contains("hunter2"), "{args:?}: the password is printed: {stderr}");
    }

    // A '/' in the password ends the URL's server name: the URL parser read "hun" as a port and
    // said only "invalid port number". A '?' after a password's digits (or none) parses: "tafl"
    // was looked up as the server, and sqlx logged the rest of the password as a parameter.
    for (url, character) in
        [("postgres://tafl:hun/ter2@127.0.0.1:1/tafl", '/'), ("postgres://tafl:?ter2@127.0.0.1:1/tafl", '?')]
    {
        let mut run = run_with_database(url, &dir);
        run.env("RUST_LOG", "trace");
        let (status, stderr) = exit_within(run.spawn().unwrap(), Duration::from_secs(20));
        let said = refusal(status, &stderr);
        assert!(!stderr.contains("ter2"), "the password is printed: {stderr}");
        assert!(said.contains(&format!("has a '{character}' in its password")) && said.contains("/ as %2F"), "{said}");
        for (args, expected) in [
            (
                &["migrate-db", "--from", "sqlite://tafl.db", "--to", url][..],
                format!("--to is not a valid database URL: it has a '{character}' in its password"),
            ),
            (
                &["local", "--no-png", "--lang", "en", "--db", url][..],
                format!("its password has a '{character}', which a URL reads as the end"),
            ),
        ] {
            let output = Command::new(BINARY)
                .args(args)
                .env("RUST_LOG", "trace")
                .current_dir(&dir)
                .stdin(Stdio::null())
                .output()
                .unwrap();
            let stderr = String::from_utf8_lossy(&output.stderr);
            assert_eq!(output.status.code(), Some(1), "{args:?}: {stderr}");
            assert!(!stderr.contains("ter2"), "{args:?}: the password is printed: {stderr}");
            assert!(stderr.contains(&expected) && stderr.contains("/ as %2F"), "{args:?}: {stderr}");
        }
    }
}

/// A database file the bot's user cannot write (owned by root after a restore or a `sudo cp`):
/// `SQLite` opened it read-only without a word, the bot served, every change a player made failed
/// as "Something went wrong on our side", and `/healthz` said "ok". It stops at start-up with one
/// sentence naming the file and the cause.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_database_file_the_bot_cannot_write_stops_run_at_start_up() {
    if !root_or_skip() {
        return;
    }
    let dir = shared_dir("unwritable-file");
    let db = dir.join("tafl.db");
    make_database(&db).await;
    // The folder is the bot's to write (its lock, its -wal and -shm files); the file is not.
    std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o777)).unwrap();
    std::fs::set_permissions(&db, std::fs::Permissions::from_mode(0o644)).unwrap();
    let mut run = run_with_database(&format!("sqlite://{}", db.display()), &dir);
    run.uid(NOBODY).gid(NOBODY);
    let (status, stderr) =
        tokio::task::spawn_blocking(move || exit_within(run.spawn().unwrap(), Duration::from_secs(20))).await.unwrap();
    let russian = console_as_nobody("ru", &db);
    let _ = std::fs::remove_dir_all(&dir);
    assert!(status.is_some(), "the bot serves on a database it cannot write; its log:\n{stderr}");
    assert_eq!(
        russian,
        format!(
            "ошибка: не удаётся открыть базу данных {}: в файл {} нельзя записывать, и ни одна партия не сохранится: \
             права доступа к нему не позволяют изменять его пользователю, от имени которого запущен tafl-bot; дайте \
             ему право записи (chown или chmod) или укажите файл в другом месте\n",
            db.display(),
            db.display()
        )
    );
    let said = refusal(status, &stderr);
    assert!(
        said.starts_with(&format!(
            "error: cannot open the database sqlite://{}: the file {} cannot be written, so no game could be saved: \
             its permissions do not let the user tafl-bot runs as write it",
            db.display(),
            db.display()
        )),
        "{said}"
    );
}

/// `SQLite` says "unable to open database file" (14) for a new database in a folder the bot may
/// not write, and "attempt to write a readonly database" (1544) for a writable file in such a
/// folder, whose -wal and -shm files it cannot create: each is one sentence naming the folder
/// and the cause, from `run` and from the console alike.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_folder_the_bot_cannot_write_stops_run_at_start_up() {
    if !root_or_skip() {
        return;
    }
    let dir = shared_dir("unwritable-folder");
    let db = dir.join("tafl.db");
    let url = format!("sqlite://{}", db.display());
    let said_of = |url: &str| {
        let mut run = run_with_database(url, &dir);
        run.uid(NOBODY).gid(NOBODY);
        let (status, stderr) = exit_within(run.spawn().unwrap(), Duration::from_secs(20));
        refusal(status, &stderr)
    };
    let cause = format!(
        "the folder {} cannot be written, and SQLite creates the database and its -wal and -shm files there: \
         its permissions do not let the user tafl-bot runs as write it",
        dir.display()
    );
    // A fresh start.
    let said = said_of(&url);
    assert!(said.starts_with(&format!("error: cannot open the database {url}: {cause}")), "{said}");
    assert!(!db.exists());
    // A database the bot may write, in a folder it may not: the lock cannot be made there.
    make_database(&db).await;
    std::fs::set_permissions(&db, std::fs::Permissions::from_mode(0o666)).unwrap();
    let said = said_of(&url);
    assert!(said.starts_with(&format!("error: cannot open the database {url}: {cause}")), "{said}");
    // Nor can SQLite's -wal and -shm files, when the lock file is there and writable: SQLite's
    // own refusal (1544) says the same, to `run` and to the console.
    let lock = dir.join("tafl.db.lock");
    std::fs::write(&lock, "").unwrap();
    std::fs::set_permissions(&lock, std::fs::Permissions::from_mode(0o666)).unwrap();
    let said = said_of(&url);
    assert!(said.starts_with(&format!("error: cannot open the database {url}: {cause}")), "{said}");
    let (english, russian) = (console_as_nobody("en", &db), console_as_nobody("ru", &db));
    let _ = std::fs::remove_dir_all(&dir);
    assert!(english.starts_with(&format!("error: cannot open the database {}: {cause}", db.display())), "{english}");
    // The Russian console said the cause in English, inside its translated sentence.
    assert_eq!(
        russian,
        format!(
            "ошибка: не удаётся открыть базу данных {}: в папку {} нельзя записывать, а SQLite создаёт в ней файл базы и \
             файлы -wal и -shm: права доступа к ней не позволяют писать туда пользователю, от имени которого запущен \
             tafl-bot; дайте ему право записи (chown или chmod) или укажите файл в другом месте\n",
            db.display(),
            dir.display()
        )
    );
}

/// A full disk at start-up: `SQLITE_FULL` (13) for a new database, `SQLITE_IOERR_SHMSIZE`
/// (4874) for an existing one, whose shared-memory file cannot grow. Each is one sentence
/// naming the file and the cause. The full disk is a file-size limit on the process (4 KB, one
/// page of the database), with SIGXFSZ ignored as servers run.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_full_disk_at_start_up_is_named_as_the_cause() {
    let dir = temp_dir("full-disk");
    let db = dir.join("tafl.db");
    let url = format!("sqlite://{}", db.display());
    let said_of = |url: &str| {
        let (status, stderr) = exit_within(run_on_a_full_disk(url, &dir).spawn().unwrap(), Duration::from_secs(20));
        refusal(status, &stderr)
    };
    let expected = format!(
        "error: cannot open the database {url}: the disk that holds {} is full, so SQLite cannot write the database",
        db.display()
    );
    let said = said_of(&url);
    assert!(said.starts_with(&expected), "a new database: {said}");
    for file in ["tafl.db", "tafl.db-wal", "tafl.db-shm"] {
        let _ = std::fs::remove_file(dir.join(file));
    }
    make_database(&db).await;
    let said = said_of(&url);
    assert!(said.starts_with(&expected), "an existing database: {said}");
    // The console says the same in its session's language.
    let console = |lang: &str| {
        let mut command = Command::new("sh");
        command
            .args(["-c", "trap '' XFSZ; exec prlimit --fsize=4096 -- \"$0\" local --no-png --lang \"$1\" --db \"$2\""])
            .arg(BINARY)
            .arg(lang)
            .arg(&db)
            .env_remove("RUST_LOG")
            .stdin(Stdio::null());
        let output = command.output().unwrap();
        let said = String::from_utf8_lossy(&output.stderr).into_owned();
        assert_eq!(output.status.code(), Some(1), "{said}");
        said
    };
    assert_eq!(
        console("ru"),
        format!(
            "ошибка: не удаётся открыть базу данных {}: диск, на котором лежит {}, заполнен, и SQLite не может записать \
             ни базу, ни её файлы -wal и -shm; освободите на нём место и запустите консоль снова\n",
            db.display(),
            db.display()
        )
    );
    assert!(
        console("en").starts_with(&format!("error: cannot open the database {}: the disk that holds", db.display()))
    );
}

/// The binary a server owner installs documented none of the variables `run` reads: `tafl-bot
/// run --help` said only "Connect to Discord (`DISCORD_TOKEN`)…". `DATABASE_URL`, and its
/// default (a file `tafl.db` in the working directory), are in the help.
#[test]
fn run_help_names_where_the_games_are_kept() {
    let output = Command::new(BINARY).args(["run", "--help"]).output().unwrap();
    let help = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{help}");
    for said in ["DATABASE_URL", "sqlite://tafl.db", "working directory", "sqlite:///", "TAFL_HEALTH_ADDR"] {
        assert!(help.contains(said), "{said}: {help}");
    }
}

/// `DATABASE_URL=/var/lib/tafl/tafl.db`, a plain path (which `tafl-bot local --db` takes), was
/// answered with "starts with no kind of database before its colon": there is no colon.
#[test]
fn a_plain_path_as_database_url_is_told_how_to_write_it() {
    let dir = temp_dir("plain-path");
    let (status, stderr) =
        exit_within(run_with_database("/var/lib/tafl/tafl.db", &dir).spawn().unwrap(), Duration::from_secs(20));
    let said = refusal(status, &stderr);
    assert_eq!(
        said,
        "error: DATABASE_URL /var/lib/tafl/tafl.db is a file name, not a URL; write it as sqlite:///var/lib/tafl/tafl.db"
    );
}

/// `sqlite://var/lib/tafl/tafl.db` (two slashes: a path relative to the working directory, meant
/// absolute) whose folder is missing there: the sentence says where it was looked for, and how
/// to write an absolute path.
#[test]
fn a_relative_sqlite_path_whose_folder_is_missing_suggests_three_slashes() {
    let dir = temp_dir("relative-path");
    let (status, stderr) =
        exit_within(run_with_database("sqlite://var/lib/tafl/tafl.db", &dir).spawn().unwrap(), Duration::from_secs(20));
    let said = refusal(status, &stderr);
    let working = std::fs::canonicalize(&dir).unwrap();
    assert_eq!(
        said,
        format!(
            "error: cannot open the database sqlite://var/lib/tafl/tafl.db: its folder var/lib/tafl does not exist in \
             the working directory {} (a path after sqlite:// is relative to it; an absolute one takes three slashes, \
             as in sqlite:///var/lib/tafl/tafl.db); create the folder, or name a file in a folder that does exist",
            working.display()
        )
    );
    assert!(!dir.join("var").exists(), "nothing is created");
}
