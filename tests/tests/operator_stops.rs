//! `tafl-bot run` as an operator meets it (found by an operator's review): a stop that comes
//! while Discord or the database hangs, a stderr nobody reads, `/healthz` while it starts, and one process per `SQLite` file
//! however its URL names the file. Each test runs the real binary against the fake Discord. Each
//! comment quotes what the README promises and tells how the code broke it when the test was
//! written (each failed then); the fixes are in the commit that brought the tests.

#![cfg(unix)]

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::json;
use tafl_e2e::fake_discord::{FakeDiscord, Fault};

fn temp_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("tafl-e2e-audit-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("create the test directory");
    dir
}

/// `tafl-bot run` on `database_url` against the Discord at `api_base`, with none of the
/// environment's sharding, health or name-resolution settings, its output discarded: each test
/// adds what it needs.
fn run_command(database_url: &str, api_base: &str) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_tafl-bot-e2e"));
    command
        .arg("run")
        .env("DISCORD_TOKEN", "process-secret-token")
        .env("DATABASE_URL", database_url)
        .env("DISCORD_API_BASE", api_base)
        .env_remove("DISCORD_API_RESOLVE")
        .env_remove("DISCORD_SHARDS")
        .env_remove("DISCORD_SHARD_COUNT")
        .env_remove("TAFL_HEALTH_ADDR")
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    command
}

fn run_against(fake: &FakeDiscord, dir: &std::path::Path, log: &str, stderr: Stdio) -> std::process::Child {
    run_command(&format!("sqlite://{}", dir.join("tafl.db").display()), &fake.api_base())
        .env("DISCORD_GUILD_ID", "77")
        .env("RUST_LOG", log)
        .stderr(stderr)
        .spawn()
        .expect("start tafl-bot run")
}

fn sigterm(child: &std::process::Child) {
    let terminated = Command::new("kill").args(["-TERM", &child.id().to_string()]).status().expect("run kill");
    assert!(terminated.success());
}

/// Waits at most `limit` for `child` to exit; `None` (and the child killed) when it did not.
async fn exited_within(child: &mut std::process::Child, limit: Duration) -> Option<std::process::ExitStatus> {
    let deadline = Instant::now() + limit;
    loop {
        if let Some(status) = child.try_wait().expect("wait for tafl-bot") {
            return Some(status);
        }
        if Instant::now() >= deadline {
            let _ = child.kill();
            let _ = child.wait();
            return None;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// Whether `done` becomes true within `limit`.
async fn within(limit: Duration, done: impl Fn() -> bool) -> bool {
    let deadline = Instant::now() + limit;
    while Instant::now() < deadline {
        if done() {
            return true;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    done()
}

/// README: "Ctrl-C or SIGTERM disconnects cleanly, within a few seconds even when Discord is
/// unreachable, a request to it hangs, …". The token check (`GET /users/@me`) and `auto`'s
/// shard lookup race the stop request, but serenity's `ClientBuilder` then asks
/// `GET /gateway` inside `.await?` in `serve` (bot/src/discord/mod.rs, the
/// `ClientBuilder::new_with_http(…).framework(…).await?`), outside any `select!` with the stop:
/// a SIGTERM while that request hangs waits for the 60 s request timeout.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigterm_while_the_gateway_lookup_hangs_stops_run_within_seconds() {
    let fake = FakeDiscord::start().await;
    let dir = temp_dir("gateway-lookup-hangs");
    // The gateway lookup hangs for two minutes (the bot gives up on it after 60 s).
    fake.fail_next(|r| r.path == "/api/v10/gateway", 1, Fault::Slow { millis: 120_000 });
    let mut child = run_against(&fake, &dir, "info", Stdio::null());
    fake.wait_for_slow_requests(1).await;
    sigterm(&child);
    let started = Instant::now();
    let status = exited_within(&mut child, Duration::from_secs(10)).await;
    let _ = std::fs::remove_dir_all(&dir);
    let status = status
        .unwrap_or_else(|| panic!("tafl-bot run ignored SIGTERM for {:?} while GET /gateway hung", started.elapsed()));
    assert!(status.success(), "exit status {status:?}");
}

/// README: "Ctrl-C or SIGTERM disconnects cleanly, within a few seconds even when … stderr cannot
/// be written (log lines that cannot be written are dropped)". A stderr that is a pipe nobody
/// reads (a stalled journald or log shipper, `tafl-bot run 2>&1 | stuck-consumer`) does not fail
/// a write: it blocks it. The log writer is a plain blocking `std::io::stderr` on the runtime's
/// worker threads (`init_logging`, bot/src/discord/mod.rs), so once the pipe's 64 KB are full every
/// thread that logs stops in `write(2)`: the bot answers nothing, and SIGTERM is never acted on.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stderr_pipe_nobody_reads_neither_freezes_the_bot_nor_its_stop() {
    let fake = FakeDiscord::start().await;
    let dir = temp_dir("stderr-pipe-full");
    // Piped and never read: the read end stays open in `child.stderr`, so writes block once the
    // pipe is full rather than fail.
    let mut child = run_against(&fake, &dir, "debug", Stdio::piped());
    let unread = child.stderr.take().expect("the pipe");
    // debug logging fills 64 KB within the start-up (sqlx logs every migration's SQL); give it
    // time, then use the bot.
    let seen = |path: &str| fake.requests().iter().any(|r| r.path.ends_with(path));
    let ready = within(Duration::from_secs(20), || seen("/guilds/77/commands")).await;
    let answered = ready && {
        let interaction = fake.push_interaction(fake.slash_command("tafl", "variants", &json!([]), 42, "en-US"));
        let path = interaction.callback_path();
        within(Duration::from_secs(10), || seen(&path)).await
    };
    sigterm(&child);
    let status = exited_within(&mut child, Duration::from_secs(10)).await;
    drop(unread);
    let _ = std::fs::remove_dir_all(&dir);
    assert!(
        status.is_some(),
        "SIGTERM did not stop tafl-bot run within 10 s (registered its commands: {ready}, answered: {answered})"
    );
    assert!(
        ready && answered,
        "the bot froze on its full stderr pipe (registered its commands: {ready}, answered: {answered})"
    );
}

/// An error exit ends with its one sentence on stderr, written by the failing thread itself: to a
/// pipe nobody reads, already full (a stuck log shipper), that write blocked, and `run` never
/// exited, its error never seen either. The sentence now waits for stderr a moment at most.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_error_exit_with_a_full_stderr_pipe_nobody_reads_still_exits() {
    use std::io::Write;
    let fake = FakeDiscord::start().await;
    fake.fail_next(|_| true, usize::MAX, Fault::Unauthorized);
    let dir = temp_dir("error-exit-full-pipe");
    let (unread, writer) = std::io::pipe().expect("a pipe");
    let mut filler = writer.try_clone().expect("a second writer");
    // Fills the pipe, then blocks until `unread` is dropped.
    let filling = std::thread::spawn(move || filler.write_all(&vec![b'.'; 1 << 20]));
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert!(!filling.is_finished(), "the pipe is full");
    // No log lines: the refusal is the only thing written.
    let mut child = run_against(&fake, &dir, "off", Stdio::from(writer));
    let status = exited_within(&mut child, Duration::from_secs(10)).await;
    drop(unread);
    let _ = filling.join();
    let _ = std::fs::remove_dir_all(&dir);
    let status = status.expect("tafl-bot run exited within 10 s of its error");
    assert_eq!(status.code(), Some(1), "{status:?}");
}

/// A TCP relay to `target` that can be frozen: once [`Relay::freeze`] is called, every byte in
/// either direction is held (the connections stay open), as when the database machine is paused
/// or the network between them is cut without a reset.
struct Relay {
    addr: std::net::SocketAddr,
    frozen: std::sync::Arc<std::sync::atomic::AtomicBool>,
}

impl Relay {
    async fn start(target: std::net::SocketAddr) -> Relay {
        use std::sync::atomic::Ordering;
        use tokio::io::{AsyncReadExt, AsyncWriteExt};
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let frozen = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let relay_frozen = frozen.clone();
        tokio::spawn(async move {
            while let Ok((client, _)) = listener.accept().await {
                let Ok(server) = tokio::net::TcpStream::connect(target).await else { continue };
                let (client_read, client_write) = client.into_split();
                let (server_read, server_write) = server.into_split();
                for (mut from, mut to, frozen) in [
                    (
                        Box::new(client_read) as Box<dyn tokio::io::AsyncRead + Unpin + Send>,
                        Box::new(server_write) as Box<dyn tokio::io::AsyncWrite + Unpin + Send>,
                        relay_frozen.clone(),
                    ),
                    (Box::new(server_read), Box::new(client_write), relay_frozen.clone()),
                ] {
                    tokio::spawn(async move {
                        let mut buffer = vec![0u8; 16 * 1024];
                        loop {
                            let Ok(n) = from.read(&mut buffer).await else { return };
                            if n == 0 {
                                return;
                            }
                            while frozen.load(Ordering::SeqCst) {
                                tokio::time::sleep(Duration::from_millis(50)).await;
                            }
                            if to.write_all(&buffer[..n]).await.is_err() {
                                return;
                            }
                        }
                    });
                }
            }
        });
        Relay { addr, frozen }
    }

    fn freeze(&self) {
        self.frozen.store(true, std::sync::atomic::Ordering::SeqCst);
    }
}

/// README: "Ctrl-C or SIGTERM disconnects cleanly, within a few seconds …", and a stop while the
/// database is being opened by "a `PostgreSQL` server that does not answer" ends `run` at once.
/// Once running, the same server going silent (a paused VM, a network cut without a reset) while
/// a command waits on it makes the stop wait for it: `serve` ends with `db.close().await`
/// (bot/src/discord/mod.rs, end of `serve`; `Db::close` in bot/src/store/mod.rs), and sqlx's
/// `Pool::close` waits for every checked-out connection to come back, which the command's
/// connection, waiting on the server, never does.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigterm_while_a_command_waits_on_a_silent_postgres_stops_run_within_seconds() {
    let Some(db) = tafl_e2e::postgres::database().await else { return };
    let (scheme_user, rest) = db.url.split_once('@').expect("a user in the URL");
    let (server, path) = rest.split_once('/').expect("a database in the URL");
    let target: std::net::SocketAddr = server.parse().expect("an address and port");
    let relay = Relay::start(target).await;
    let url = format!("{scheme_user}@{}/{path}", relay.addr);
    let fake = FakeDiscord::start().await;
    let dir = temp_dir("silent-postgres-stop");
    let mut child = run_command(&url, &fake.api_base())
        .env("DISCORD_GUILD_ID", "77")
        .env("RUST_LOG", "info")
        .stderr(std::fs::File::create(dir.join("bot.log")).unwrap())
        .spawn()
        .expect("start tafl-bot run");
    fake.wait_until_ready().await;
    tokio::time::sleep(Duration::from_secs(1)).await;
    relay.freeze();
    // A command whose database work now waits on the silent server.
    let _challenge = fake.push_interaction(fake.slash_command(
        "tafl",
        "challenge",
        &json!([{ "name": "opponent", "type": 6, "value": "2002" }]),
        1001,
        "en-US",
    ));
    tokio::time::sleep(Duration::from_secs(3)).await;
    sigterm(&child);
    let started = Instant::now();
    let status = exited_within(&mut child, Duration::from_secs(15)).await;
    let log = std::fs::read_to_string(dir.join("bot.log")).unwrap_or_default();
    let _ = std::fs::remove_dir_all(&dir);
    let status = status.unwrap_or_else(|| {
        panic!(
            "tafl-bot run still ran {:?} after SIGTERM while `PostgreSQL` was silent; its log:\n{log}",
            started.elapsed()
        )
    });
    assert!(status.success(), "exit status {status:?}; log:\n{log}");
}

/// README: "`run` locks an `SQLite` file for as long as it runs … a second `run` … on the same
/// file is refused in one sentence naming the process that holds it". sqlx opens `SQLite` files
/// with URIs allowed, so `sqlite://file:DIR/tafl.db` opens `DIR/tafl.db` (the store knows it:
/// `file_name_names_no_file` reads `file:` URIs for `:memory:`), but `store::file::sqlite_file`
/// takes the name as it is written and locks `file:DIR/tafl.db.lock` (relative to the working
/// directory): the second process is not refused, and both serve the one file (each answering
/// every interaction and delivering the outbox). Its log line also names a file that does not
/// exist (the file `…/file:…/tafl.db`).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_second_run_on_the_same_file_through_a_file_uri_is_refused() {
    let dir = temp_dir("file-uri-lock");
    let db = dir.join("tafl.db");
    let spawn = |url: String| run_command(&url, "http://127.0.0.1:1").current_dir(&dir).spawn().unwrap();
    let mut first = spawn(format!("sqlite://{}", db.display()));
    assert!(within(Duration::from_secs(20), || dir.join("tafl.db.lock").exists() && db.exists()).await);
    tokio::time::sleep(Duration::from_secs(2)).await;
    let mut second = spawn(format!("sqlite://file:{}", db.display()));
    let refused = exited_within(&mut second, Duration::from_secs(10)).await;
    sigterm(&first);
    let _ = exited_within(&mut first, Duration::from_secs(10)).await;
    let _ = std::fs::remove_dir_all(&dir);
    assert!(
        refused.is_some_and(|status| status.code() == Some(1)),
        "a second run on {} through sqlite://file: was not refused (still running after 10 s: {})",
        db.display(),
        refused.is_none()
    );
}

/// README: `TAFL_HEALTH_ADDR` "serves GET /healthz: 200 … or 503 unavailable … while a shard is
/// not connected, the database does not answer within 2 s …; at most 16 connections at once,
/// each closed after one answer or 5 s". The port is bound before the database is opened
/// (`serve`, bot/src/discord/mod.rs: "a port in use is a mistake to report at once"), but it is
/// served only once the database is open, the token checked and serenity's client built: for
/// all that time (a migration waiting for another process's lock, a `PostgreSQL` server that does
/// not answer, a Discord that hangs: up to minutes) a probe's connection is accepted by the
/// kernel and then neither answered nor closed.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn healthz_answers_or_closes_within_5_s_while_the_database_is_being_opened() {
    use std::io::{Read as _, Write as _};
    let silent = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let db_addr = silent.local_addr().unwrap();
    let _held = tokio::spawn(async move {
        let mut kept = Vec::new();
        while let Ok((stream, _)) = silent.accept().await {
            kept.push(stream);
        }
    });
    let health = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap();
    let dir = temp_dir("healthz-while-opening");
    let mut child = run_command(&format!("postgres://tafl@{db_addr}/tafl?sslmode=disable"), "http://127.0.0.1:1")
        .current_dir(&dir)
        .env("TAFL_HEALTH_ADDR", health.to_string())
        .spawn()
        .unwrap();
    tokio::time::sleep(Duration::from_secs(2)).await;
    let probe = tokio::task::spawn_blocking(move || {
        let started = Instant::now();
        let mut stream = std::net::TcpStream::connect(health).expect("the health port is bound");
        stream.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
        stream.write_all(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n").unwrap();
        let mut answer = Vec::new();
        let read = stream.read_to_end(&mut answer);
        (started.elapsed(), read.is_ok(), String::from_utf8_lossy(&answer).into_owned())
    })
    .await
    .unwrap();
    sigterm(&child);
    let _ = exited_within(&mut child, Duration::from_secs(10)).await;
    let _ = std::fs::remove_dir_all(&dir);
    let (took, closed, answer) = probe;
    assert!(
        closed && took < Duration::from_secs(6),
        "/healthz neither answered nor closed the connection for {took:?} (answer: {answer:?})"
    );
    assert!(answer.starts_with("HTTP/1.1 503"), "{answer}");
    assert!(answer.contains("unavailable: starting"), "{answer}");
}
