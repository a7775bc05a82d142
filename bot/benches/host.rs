//! Benchmarks of the game host on `SQLite` on disk, printing figures (QUALITY.md asks for them to
//! be rerunnable): `cargo bench -p tafl-bot --bench host`.
//!
//! * moves per second through `Host::play` (one transaction per move: load the game, replay
//!   its moves, check the new one, write it), on a single-threaded runtime;
//! * resident memory of the process with 10,000 games in the database, after touching all;
//! * moves per second with several processes on one database: the benchmark runs itself again as
//!   1, 2 and 4 worker processes (`host --moves-worker URL GAMES TASKS SEED`), each with its own
//!   host and pool, playing games of its own through `Host::play` at once. `PostgreSQL` (a
//!   throwaway cluster with its durable defaults, from the tests' harness) with
//!   `synchronous_commit` on and off, beside one process on `SQLite` on disk. Without `PostgreSQL`
//!   the table has the `SQLite` row only, and one line says why.
//!
//! * the bot's answer to a draw offer (`bot::accepts_draw`: a short search, run in the offer's
//!   transaction on an async worker), per preset, on positions of random games.
//!
//! `cargo bench -p tafl-bot --bench host -- processes` (or `moves`, `memory`, `draw`) runs one
//! section.

#[path = "../tests/support/mod.rs"]
mod support;

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use support::{NOW, Rng, alice, bob, postgres, request, temp_path};
use tafl_bot::host::{Host, SideChoice};
use tafl_bot::store::{Db, PoolSettings};
use tafl_rules::{Game, Position, Variant};

/// Random games of `variant`, each at least `plies` long, as move texts.
fn random_games(variant: Variant, count: usize, plies: usize, seed: u64) -> Vec<Vec<String>> {
    let mut rng = Rng(seed);
    let mut games = Vec::new();
    while games.len() < count {
        let mut game = Game::new(Position::new(variant.rules()).unwrap());
        while game.status().is_ongoing() && game.ply() < plies {
            let moves = game.position().legal_moves();
            game.play(moves[rng.below(moves.len())]).unwrap();
        }
        if game.ply() == plies && game.status().is_ongoing() {
            games.push(game.moves().iter().map(|m| m.mv.to_string()).collect());
        }
    }
    games
}

/// The seed of the random games (any non-zero value).
const SEED: u64 = 0x2545_F491_4F6C_DD1D;

fn resident_kib() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| s.lines().find(|l| l.starts_with("VmRSS:")).map(str::to_owned))
        .and_then(|l| l.split_whitespace().nth(1).and_then(|n| n.parse().ok()))
        .unwrap_or(0)
}

async fn new_game(host: &Host, variant: &str) -> i64 {
    let c = host.challenge(&request(&alice(), Some(&bob()), variant, SideChoice::Attackers), NOW).await.unwrap();
    host.accept(c.id, &bob(), NOW).await.unwrap().game.id
}

async fn moves_per_second() {
    const GAMES: usize = 100;
    const PLIES: usize = 60;
    let path = temp_path("bench-moves");
    let host = Host::new(Db::open_file(&path).await.unwrap());
    let scripts = random_games(Variant::Copenhagen, GAMES, PLIES, SEED);
    let mut ids = Vec::new();
    for _ in 0..GAMES {
        ids.push(new_game(&host, "copenhagen").await);
    }
    let mut latencies = Vec::with_capacity(GAMES * PLIES);
    let start = Instant::now();
    // Round-robin over the games, as many players would move: every game grows to PLIES plies.
    for ply in 0..PLIES {
        let user = if ply % 2 == 0 { alice().id } else { bob().id };
        for (id, script) in ids.iter().zip(&scripts) {
            let t = Instant::now();
            host.play(*id, user, &script[ply], Some(ply), NOW).await.unwrap();
            latencies.push(t.elapsed());
        }
    }
    let elapsed = start.elapsed();
    latencies.sort();
    let total = GAMES * PLIES;
    let pct = |p: f64| latencies[((latencies.len() as f64 * p) as usize).min(latencies.len() - 1)];
    println!(
        "host.play, copenhagen, SQLite on disk (WAL): {total} moves in {:.2} s = {:.0} moves/s; \
         latency p50 {:?}, p99 {:?}, max {:?} (games grow from 0 to {PLIES} plies)",
        elapsed.as_secs_f64(),
        total as f64 / elapsed.as_secs_f64(),
        pct(0.5),
        pct(0.99),
        latencies[latencies.len() - 1],
    );
    // Reading a game (as /board and autocomplete do): load and replay 60 plies.
    let start = Instant::now();
    for id in &ids {
        host.show(*id).await.unwrap();
    }
    let per_show = start.elapsed() / GAMES as u32;
    let start = Instant::now();
    for id in &ids {
        let mut conn = host.db().pool().acquire().await.unwrap();
        tafl_bot::store::moves::list(&mut conn, *id).await.unwrap();
    }
    let per_list = start.elapsed() / GAMES as u32;
    println!("host.show of a {PLIES}-ply game: {per_show:?} each, of which reading its move list {per_list:?}");
    host.db().close().await;
}

async fn memory_with_many_games() {
    const GAMES: usize = 10_000;
    let path = temp_path("bench-memory");
    let host = Host::new(Db::open_file(&path).await.unwrap());
    let before = resident_kib();
    let start = Instant::now();
    let mut ids = Vec::with_capacity(GAMES);
    for _ in 0..GAMES {
        let id = new_game(&host, "copenhagen").await;
        host.play(id, alice().id, "d1-d3", Some(0), NOW).await.unwrap();
        ids.push(id);
    }
    let created = start.elapsed();
    for id in &ids {
        host.show(*id).await.unwrap();
    }
    let after = resident_kib();
    let file = std::fs::metadata(&path).map_or(0, |m| m.len());
    println!(
        "{GAMES} games created (challenge, accept, one move each) in {:.1} s; resident memory {} MiB before, \
         {} MiB after creating and showing every game; database file {} MiB",
        created.as_secs_f64(),
        before / 1024,
        after / 1024,
        file / (1024 * 1024),
    );
    host.db().close().await;
}

/// Plies of each game in the multi-process runs: long enough that replaying the game is part of a
/// move's cost, as in `sqlite_limits`.
const WORKER_PLIES: usize = 40;

/// One worker process: opens `url` with the pool the environment asks for (as `tafl-bot run`
/// does), creates `games` games, says `ready`, waits for `go` on stdin, then plays them to
/// [`WORKER_PLIES`] plies with `tasks` tasks at once (each task round-robin over its own games,
/// as many players moving), and prints `done` and every move's latency in microseconds.
fn worker(args: &[String]) {
    let [url, games, tasks, seed] = args else {
        panic!("usage: host --moves-worker URL GAMES TASKS SEED");
    };
    let games: usize = games.parse().expect("GAMES is a number");
    let tasks: usize = tasks.parse().expect("TASKS is a number");
    let seed: u64 = seed.parse().expect("SEED is a number");
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().unwrap();
    let settings = PoolSettings::from_vars(|name| std::env::var(name).ok()).expect("valid pool settings");
    let (host, work) = runtime.block_on(async {
        let host = Host::new(Db::open_with_settings(url, &settings).await.expect("the database opens"));
        let scripts = random_games(Variant::Copenhagen, games, WORKER_PLIES, seed);
        let mut work: Vec<Vec<(i64, Vec<String>)>> = vec![Vec::new(); tasks.min(games).max(1)];
        for (n, script) in scripts.into_iter().enumerate() {
            let id = new_game(&host, "copenhagen").await;
            let slot = n % work.len();
            work[slot].push((id, script));
        }
        (Arc::new(host), work)
    });
    println!("ready");
    std::io::stdout().flush().unwrap();
    let mut line = String::new();
    std::io::stdin().read_line(&mut line).unwrap();
    assert_eq!(line.trim(), "go", "the parent says go");
    let cpu_before = process_cpu("self", false);
    let (latencies, cpu) = runtime.block_on(async {
        let handles: Vec<_> = work
            .into_iter()
            .map(|games| {
                let host = host.clone();
                tokio::spawn(async move {
                    let mut latencies = Vec::with_capacity(games.len() * WORKER_PLIES);
                    for ply in 0..WORKER_PLIES {
                        let user = if ply % 2 == 0 { alice().id } else { bob().id };
                        for (id, script) in &games {
                            let t = Instant::now();
                            host.play(*id, user, &script[ply], Some(ply), NOW).await.unwrap();
                            latencies.push(t.elapsed().as_micros());
                        }
                    }
                    latencies
                })
            })
            .collect();
        let mut latencies = Vec::new();
        for handle in handles {
            latencies.extend(handle.await.unwrap());
        }
        let cpu = process_cpu("self", false) - cpu_before;
        host.db().close().await;
        (latencies, cpu)
    });
    let text: Vec<String> = latencies.iter().map(ToString::to_string).collect();
    println!("done {cpu} {}", text.join(" "));
}

/// CPU seconds (user and system, all threads) that process `pid` (or `self`) has used, with
/// those of its exited children when `with_children`; 0 when it cannot be read. `/proc` counts
/// in ticks of 1/100 s (`USER_HZ`, 100 on Linux whatever the kernel's own tick).
fn process_cpu(pid: &str, with_children: bool) -> f64 {
    let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else { return 0.0 };
    // The fields after the command name, which is in parentheses and may hold spaces: the
    // state is field 3 of proc(5), so field n is at n - 3 here.
    let fields: Vec<&str> = stat.rsplit_once(')').map_or("", |(_, rest)| rest).split_whitespace().collect();
    let field = |n: usize| fields.get(n - 3).and_then(|f| f.parse::<f64>().ok()).unwrap_or(0.0);
    let own = field(14) + field(15);
    let children = if with_children { field(16) + field(17) } else { 0.0 };
    (own + children) / 100.0
}

/// CPU seconds the `PostgreSQL` cluster whose postmaster is `postmaster` has used: the postmaster
/// with the backends it has reaped, and its live children (backends and background workers).
fn cluster_cpu(postmaster: u32) -> f64 {
    let mut total = process_cpu(&postmaster.to_string(), true);
    for entry in std::fs::read_dir("/proc").into_iter().flatten().flatten() {
        let name = entry.file_name();
        let Some(pid) = name.to_str().filter(|n| n.bytes().all(|b| b.is_ascii_digit())) else { continue };
        let parent = std::fs::read_to_string(format!("/proc/{pid}/stat"))
            .ok()
            .and_then(|stat| stat.rsplit_once(')').and_then(|(_, rest)| rest.split_whitespace().nth(1)?.parse().ok()));
        if parent == Some(postmaster) {
            total += process_cpu(pid, false);
        }
    }
    total
}

/// The postmaster of the harness's cluster: the first line of `postmaster.pid`.
fn postmaster_of(server: &postgres::Server) -> Option<u32> {
    let cluster = server.cluster()?;
    let text = std::fs::read_to_string(cluster.dir.join("data/postmaster.pid")).ok()?;
    text.lines().next()?.trim().parse().ok()
}

/// The 1-minute load average.
fn load() -> f64 {
    std::fs::read_to_string("/proc/loadavg")
        .ok()
        .and_then(|s| s.split_whitespace().next().and_then(|l| l.parse().ok()))
        .unwrap_or(f64::NAN)
}

/// One row of the table.
struct Row {
    label: String,
    processes: usize,
    moves: usize,
    seconds: f64,
    p50: Duration,
    p99: Duration,
    /// CPU seconds the worker processes spent playing, and the database server meanwhile (`None`
    /// when it runs elsewhere or is `SQLite`, inside the workers).
    bot_cpu: f64,
    server_cpu: Option<f64>,
    load_before: f64,
    load_after: f64,
}

/// Runs `processes` workers on the (already migrated) database at `url`, `games` games in all:
/// the moves per second counted from the moment all are told to go until the last one is done.
fn run_processes(label: &str, url: &str, postmaster: Option<u32>, processes: usize, games: usize, tasks: usize) -> Row {
    let exe = std::env::current_exe().expect("the benchmark knows its own program");
    let mut children: Vec<(Child, ChildStdin, BufReader<ChildStdout>)> = (0..processes)
        .map(|n| {
            let mut child = Command::new(&exe)
                .args(["--moves-worker", url, &(games / processes).to_string(), &tasks.to_string()])
                .arg((SEED + n as u64).to_string())
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .spawn()
                .expect("a worker process starts");
            let stdin = child.stdin.take().unwrap();
            let stdout = BufReader::new(child.stdout.take().unwrap());
            (child, stdin, stdout)
        })
        .collect();
    let mut line = String::new();
    for (_, _, stdout) in &mut children {
        line.clear();
        stdout.read_line(&mut line).unwrap();
        assert_eq!(line.trim(), "ready", "a worker process failed while creating its games");
    }
    let load_before = load();
    let server_before = postmaster.map(cluster_cpu);
    let start = Instant::now();
    for (_, stdin, _) in &mut children {
        stdin.write_all(b"go\n").unwrap();
        stdin.flush().unwrap();
    }
    let mut latencies = Vec::new();
    let mut bot_cpu = 0.0;
    for (_, _, stdout) in &mut children {
        line.clear();
        stdout.read_line(&mut line).unwrap();
        let mut rest =
            line.trim().strip_prefix("done").expect("a worker process failed while playing").split_whitespace();
        bot_cpu += rest.next().and_then(|cpu| cpu.parse::<f64>().ok()).expect("a worker reports its CPU time");
        latencies.extend(rest.map(|n| Duration::from_micros(n.parse().unwrap())));
    }
    let seconds = start.elapsed().as_secs_f64();
    let server_cpu = postmaster.map(cluster_cpu).zip(server_before).map(|(after, before)| after - before);
    let load_after = load();
    for (mut child, _, _) in children {
        assert!(child.wait().unwrap().success(), "a worker process failed");
    }
    latencies.sort();
    let at = |p: f64| latencies[((latencies.len() as f64 * p) as usize).min(latencies.len() - 1)];
    Row {
        label: label.to_owned(),
        processes,
        moves: latencies.len(),
        seconds,
        p50: at(0.5),
        p99: at(0.99),
        bot_cpu,
        server_cpu,
        load_before,
        load_after,
    }
}

/// The moves the database holds: every move the workers reported is there, once.
async fn count_moves(db: &Db) -> i64 {
    sqlx::query_scalar("SELECT count(*) FROM moves").fetch_one(db.pool()).await.unwrap()
}

/// The table: one process on `SQLite`, then 1, 2 and 4 processes on `PostgreSQL`.
fn processes_table(runtime: &tokio::runtime::Runtime, full: bool) {
    const TASKS: usize = 4;
    // Divisible by 1, 2 and 4 processes of TASKS tasks each.
    let games = if full { 192 } else { 4 };
    let mut rows = Vec::new();
    let path = temp_path("bench-processes");
    let url = format!("sqlite://{}", path.display());
    let db = runtime.block_on(Db::open(&url)).unwrap();
    let row = run_processes("SQLite on disk (WAL, synchronous=NORMAL)", &url, None, 1, games, TASKS);
    assert_eq!(runtime.block_on(count_moves(&db)), row.moves as i64, "every move is stored once");
    runtime.block_on(db.close());
    rows.push(row);
    if let Some(server) = postgres::durable_server() {
        for synchronous_commit in ["on", "off"] {
            for processes in [1, 2, 4] {
                let database = runtime.block_on(postgres::database_on(server));
                let db = runtime.block_on(Db::open(&database.url)).unwrap();
                let (fsync, full_pages): (String, String) = runtime.block_on(async {
                    sqlx::query_as("SELECT current_setting('fsync'), current_setting('full_page_writes')")
                        .fetch_one(db.pool())
                        .await
                        .unwrap()
                });
                // As an operator would set it: for the bot's database, taken by each new session.
                runtime.block_on(async {
                    sqlx::query(sqlx::AssertSqlSafe(format!(
                        "ALTER DATABASE \"{}\" SET synchronous_commit = {synchronous_commit}",
                        database.name
                    )))
                    .execute(db.pool())
                    .await
                    .unwrap();
                });
                let label = format!(
                    "PostgreSQL, synchronous_commit={synchronous_commit} (fsync={fsync}, full_page_writes={full_pages})"
                );
                let row = run_processes(&label, &database.url, postmaster_of(server), processes, games, TASKS);
                assert_eq!(runtime.block_on(count_moves(&db)), row.moves as i64, "every move is stored once");
                runtime.block_on(db.close());
                rows.push(row);
            }
        }
    } else {
        println!("PostgreSQL rows skipped: PostgreSQL is not installed (see README: Debian's postgresql package)");
    }
    let pool = PoolSettings::from_vars(|name| std::env::var(name).ok()).unwrap().max_connections;
    println!(
        "\nhost.play from several processes at once ({games} {WORKER_PLIES}-ply Copenhagen games per row, \
         shared among the processes; {TASKS} tasks moving at once in each process, a pool of {pool} \
         connections each; {} cores):",
        std::thread::available_parallelism().map_or(0, std::num::NonZero::get)
    );
    println!(
        "{:<70} {:>9} {:>6} {:>7} {:>8} {:>9} {:>9} {:>10} {:>10} {:>13}",
        "database", "processes", "moves", "seconds", "moves/s", "p50", "p99", "bot CPU", "server CPU", "load (1 min)"
    );
    for row in rows {
        let per_move = |cpu: f64| format!("{:.0}µs/move", cpu * 1e6 / row.moves as f64);
        println!(
            "{:<70} {:>9} {:>6} {:>7.2} {:>8.0} {:>9} {:>9} {:>10} {:>10} {:>6.2}->{:<6.2}",
            row.label,
            row.processes,
            row.moves,
            row.seconds,
            row.moves as f64 / row.seconds,
            format!("{:.1?}", row.p50),
            format!("{:.1?}", row.p99),
            per_move(row.bot_cpu),
            row.server_cpu.map_or("-".to_owned(), per_move),
            row.load_before,
            row.load_after,
        );
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.get(1).is_some_and(|a| a == "--moves-worker") {
        worker(&args[2..]);
        return;
    }
    // `cargo test --benches` runs this with `--bench` absent: keep that a quick smoke run.
    let full = args.iter().any(|a| a == "--bench");
    // `cargo bench -p tafl-bot --bench host -- processes` runs only the sections so named.
    let filters: Vec<&String> = args[1..].iter().filter(|a| !a.starts_with("--")).collect();
    let wanted = |section: &str| filters.is_empty() || filters.iter().any(|f| section.contains(f.as_str()));
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    if wanted("moves") {
        runtime.block_on(moves_per_second());
    }
    if wanted("memory") {
        runtime.block_on(memory_with_many_games());
    }
    if wanted("processes") {
        processes_table(&runtime, full);
    }
    if wanted("draw") {
        draw_offers(if full { 20 } else { 2 });
    }
}

/// How long the bot takes to judge a draw offer, after `plies` random plies of every preset.
fn draw_offers(games: usize) {
    println!("the bot's answer to a draw offer (a search of 2,000 nodes), {games} positions a preset:");
    for variant in Variant::ALL {
        let mut times = Vec::new();
        for moves in random_games(variant, games, 30, 7) {
            let mut game = Game::new(Position::new(variant.rules()).unwrap());
            for mv in &moves {
                game.play_text(&mv.parse().unwrap()).unwrap();
            }
            for side in [tafl_rules::Side::Attackers, tafl_rules::Side::Defenders] {
                let started = Instant::now();
                std::hint::black_box(tafl_bot::host::bot::accepts_draw(&game, side));
                times.push(started.elapsed().as_secs_f64() * 1000.0);
            }
        }
        let mean = times.iter().sum::<f64>() / times.len() as f64;
        let worst = times.iter().copied().fold(0.0, f64::max);
        println!("  {:<14} mean {mean:>6.2} ms, worst {worst:>6.2} ms", variant.id());
    }
}
