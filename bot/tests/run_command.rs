//! `tafl-bot run` as a process: what a person sees when the setup is incomplete.

use std::process::Command;

#[test]
fn run_without_a_token_says_so_in_one_sentence_and_exits_1() {
    let output = Command::new(env!("CARGO_BIN_EXE_tafl-bot"))
        .arg("run")
        .env_remove("DISCORD_TOKEN")
        .env("DATABASE_URL", "sqlite://never-created.db")
        .output()
        .expect("run tafl-bot");
    assert_eq!(output.status.code(), Some(1));
    assert!(output.stdout.is_empty());
    let stderr = String::from_utf8(output.stderr).expect("UTF-8");
    assert_eq!(stderr.lines().count(), 1, "one line: {stderr}");
    assert!(stderr.starts_with("error: DISCORD_TOKEN is not set"), "{stderr}");
    assert!(!std::path::Path::new("never-created.db").exists(), "nothing is created before the check");
}

#[test]
fn run_with_a_bad_guild_id_names_the_variable_and_hides_the_token() {
    let output = Command::new(env!("CARGO_BIN_EXE_tafl-bot"))
        .arg("run")
        .env("DISCORD_TOKEN", "secret-token-value")
        .env("DISCORD_GUILD_ID", "my-server")
        .output()
        .expect("run tafl-bot");
    assert_eq!(output.status.code(), Some(1));
    let stderr = String::from_utf8(output.stderr).expect("UTF-8");
    assert!(stderr.contains("DISCORD_GUILD_ID"), "{stderr}");
    assert!(!stderr.contains("secret-token-value"), "{stderr}");
}

/// A value that is not UTF-8 was taken for unset: `DATABASE_URL` opened a new default database
/// in the working directory (the operator's games seemed gone), and `DISCORD_SHARDS` served
/// every shard. It is named, and nothing is opened.
#[cfg(unix)]
#[test]
fn run_with_a_setting_that_is_not_utf8_names_it_and_opens_nothing() {
    use std::os::unix::ffi::OsStrExt;
    let dir = std::env::temp_dir().join(format!("tafl-run-not-utf8-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for name in ["DATABASE_URL", "DISCORD_SHARDS", "TAFL_HEALTH_ADDR"] {
        let output = Command::new(env!("CARGO_BIN_EXE_tafl-bot"))
            .arg("run")
            .current_dir(&dir)
            .env("DISCORD_TOKEN", "secret-token-value")
            .env(name, std::ffi::OsStr::from_bytes(b"caf\xe9"))
            .output()
            .expect("run tafl-bot");
        assert_eq!(output.status.code(), Some(1), "{name}");
        let stderr = String::from_utf8(output.stderr).expect("UTF-8");
        assert_eq!(stderr, format!("error: {name} is not valid UTF-8; write its value in UTF-8\n"));
        assert!(std::fs::read_dir(&dir).unwrap().next().is_none(), "{name}: nothing is created");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `tafl-bot run` in `dir` with a token and `DATABASE_URL=url`, nothing else that would change
/// how it starts: for a start refused before it reaches Discord.
fn run_with_database(url: &str, dir: &std::path::Path) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_tafl-bot"))
        .arg("run")
        .current_dir(dir)
        .env("DISCORD_TOKEN", "secret-token-value")
        .env("DATABASE_URL", url)
        .env_remove("DISCORD_GUILD_ID")
        .env_remove("TAFL_HEALTH_ADDR")
        .env_remove("RUST_LOG")
        .output()
        .expect("run tafl-bot")
}

/// A `DATABASE_URL` without a file (`sqlite::memory:`, `sqlite://`) gave each pool connection a
/// database of its own, the migrated one aside, and games that a restart would lose: the bot
/// stops at once with one sentence naming the problem, before it creates anything.
#[test]
fn run_with_an_sqlite_url_without_a_file_refuses_it_in_one_sentence() {
    let dir = tempfile::tempdir().expect("a scratch folder");
    for url in ["sqlite::memory:", "sqlite://", "sqlite://:memory:"] {
        let output = run_with_database(url, dir.path());
        let stderr = String::from_utf8(output.stderr).expect("UTF-8");
        assert_eq!(output.status.code(), Some(1), "{url}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{url}: one line: {stderr}");
        let said = format!("error: cannot open the database {url}: it names no database file");
        assert!(stderr.starts_with(&said), "{url}: {stderr}");
    }
    let left: Vec<_> = std::fs::read_dir(dir.path()).unwrap().map(|entry| entry.unwrap().file_name()).collect();
    assert!(left.is_empty(), "nothing is created: {left:?}");
}

/// `DATABASE_URL=://…` was refused as "a  database" (an empty kind named): the sentence says
/// that no kind is given, and never shows the URL, which may hold a password.
#[test]
fn run_with_a_database_url_without_a_scheme_says_so() {
    let dir = tempfile::tempdir().expect("a scratch folder");
    let output = run_with_database("://tafl:s3cret@db/tafl", dir.path());
    let stderr = String::from_utf8(output.stderr).expect("UTF-8");
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    assert_eq!(
        stderr,
        "error: DATABASE_URL starts with no kind of database before its colon; use sqlite://FILE (e.g. sqlite://tafl.db) or postgres://USER@HOST/DATABASE\n"
    );
}

/// `DATABASE_URL` naming a file that is not tafl-bot's database: a text file got sqlx's
/// "(code: 26) file is not a database", and another program's database with no migration
/// history got tafl-bot's whole schema written into it. Each is refused in one sentence that
/// names what the file is, and left as it was.
#[tokio::test]
async fn run_on_a_file_that_is_not_tafl_bots_database_says_what_it_is_and_changes_nothing() {
    let dir = tempfile::tempdir().expect("a scratch folder");
    let notes = dir.path().join("notes.db");
    std::fs::write(&notes, "These are my notes, not a database. ".repeat(40)).unwrap();
    let other = dir.path().join("other.db");
    let options = sqlx::sqlite::SqliteConnectOptions::new().filename(&other).create_if_missing(true);
    let pool = sqlx::sqlite::SqlitePoolOptions::new().max_connections(1).connect_with(options).await.unwrap();
    sqlx::query("CREATE TABLE todos (id INTEGER PRIMARY KEY, title TEXT NOT NULL)").execute(&pool).await.unwrap();
    pool.close().await;
    for (file, why) in [
        (
            &notes,
            format!(
                "the file {} is not an SQLite database, or is a damaged one; name tafl-bot's database file \
                 (restored from a backup if it was damaged), or a file that does not exist yet to start a new database",
                notes.display()
            ),
        ),
        (
            &other,
            "it holds tables but is not tafl-bot's database (it has no _sqlx_migrations table); name tafl-bot's own \
             database, or a new one"
                .to_owned(),
        ),
    ] {
        let before = std::fs::read(file).unwrap();
        let url = format!("sqlite://{}", file.display());
        let output = run_with_database(&url, dir.path());
        assert_eq!(output.status.code(), Some(1));
        assert_eq!(
            String::from_utf8(output.stderr).unwrap(),
            format!("error: cannot open the database {url}: {why}\n")
        );
        assert_eq!(std::fs::read(file).unwrap(), before, "{} is as it was", file.display());
    }
}

/// Another program holding the database's write lock (an `sqlite3` shell left in a
/// transaction, a backup tool) stopped `run` with sqlx's "(code: 5) database is locked" after
/// the busy timeout, and no word of what to do. It is one sentence naming the file and what
/// holds it.
#[tokio::test]
async fn run_on_a_database_another_program_holds_locked_says_so() {
    let dir = tempfile::tempdir().expect("a scratch folder");
    let file = dir.path().join("tafl.db");
    tafl_bot::store::Db::open_file(&file).await.unwrap().close().await;
    // Another program writing, its transaction left open.
    let options = sqlx::sqlite::SqliteConnectOptions::new().filename(&file);
    let mut other = sqlx::ConnectOptions::connect(&options).await.unwrap();
    sqlx::query("BEGIN EXCLUSIVE").execute(&mut other).await.unwrap();
    let url = format!("sqlite://{}", file.display());
    let output = Command::new(env!("CARGO_BIN_EXE_tafl-bot"))
        .arg("run")
        .current_dir(dir.path())
        .env("DISCORD_TOKEN", "secret-token-value")
        .env("DATABASE_URL", &url)
        .env("DATABASE_STATEMENT_TIMEOUT_MS", "300")
        .env_remove("DISCORD_GUILD_ID")
        .env_remove("TAFL_HEALTH_ADDR")
        .env_remove("RUST_LOG")
        .output()
        .expect("run tafl-bot");
    sqlx::query("ROLLBACK").execute(&mut other).await.unwrap();
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(
        String::from_utf8(output.stderr).unwrap(),
        format!(
            "error: cannot open the database {url}: another program holds {} locked (SQLite's \"database is \
             locked\"); end that program's transaction, or stop it, and start again\n",
            file.display()
        )
    );
}
