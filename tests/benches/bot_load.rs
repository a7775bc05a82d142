//! Fifty games against the bot at once while two people play each other:
//! `cargo bench -p tafl-e2e --bench bot_load [-- LEVEL ROUNDS]` (level 3, 3 rounds by default),
//! twice: each player answering the bot after about a second (between none and two), and all
//! fifty answering at once, back to back (far more than people playing; it measures queueing).
//!
//! The bot is `tafl-bot run` in a process of its own (against the fake Discord over TLS, as in
//! production), so that its peak memory is its own: `VmHWM` from `/proc/PID/status`, printed with
//! its resident memory at the end. The people's moves are timed from the fake pushing the
//! interaction to the bot's answer arriving, while every game against the bot waits for or
//! receives the bot's moves: that is what "the async runtime stays responsive" means here.

use std::time::Duration;

use tafl_e2e::bot_load::{self, quantile_ms};
use tafl_e2e::fake_discord::FakeDiscord;
use tafl_e2e::harness::{BotProcess, temp_dir};

const BINARY: &str = env!("CARGO_BIN_EXE_tafl-bot-e2e");
const GAMES: usize = 50;

/// `VmHWM` (peak) and `VmRSS` (now) of a process, in MB.
fn memory_mb(pid: u32) -> (f64, f64) {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    let field = |name: &str| {
        status
            .lines()
            .find(|l| l.starts_with(name))
            .and_then(|l| l.split_whitespace().nth(1))
            .and_then(|kb| kb.parse::<f64>().ok())
            .map_or(0.0, |kb| kb / 1024.0)
    };
    (field("VmHWM:"), field("VmRSS:"))
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).filter(|a| !a.starts_with('-')).collect();
    let level: i64 = args.first().and_then(|a| a.parse().ok()).unwrap_or(3);
    let rounds: usize = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(3);
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().expect("a runtime");
    runtime.block_on(async {
        let fake: &'static FakeDiscord = Box::leak(Box::new(FakeDiscord::start_tls().await));
        let dir = temp_dir("bot-load-bench");
        let bot = BotProcess::spawn(std::path::Path::new(BINARY), fake, &dir);
        fake.wait_until_ready().await;
        let (idle_peak, _) = memory_mb(bot.pid());
        for (label, think) in [("about a second to think", Duration::from_secs(1)), ("back to back", Duration::ZERO)] {
            let report = bot_load::run(fake, GAMES, rounds, level, think, "en-US").await;
            let mut latencies = report.people_latencies.clone();
            latencies.sort();
            println!(
                "{GAMES} games against the bot at level {level}, {label}: {} bot moves, {} player moves in {:.1} s",
                report.bot_moves,
                report.player_moves,
                report.elapsed.as_secs_f64()
            );
            println!(
                "  people's moves meanwhile: {} moves, median {:.2} ms, p90 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
                latencies.len(),
                quantile_ms(&latencies, 0.5),
                quantile_ms(&latencies, 0.9),
                quantile_ms(&latencies, 0.99),
                quantile_ms(&latencies, 1.0)
            );
        }
        let (peak, now) = memory_mb(bot.pid());
        println!("bot process memory: peak {peak:.1} MB resident (idle after start-up {idle_peak:.1} MB), {now:.1} MB at the end");
        bot.kill();
        tokio::time::sleep(Duration::from_millis(50)).await;
        if std::env::var_os("TAFL_E2E_BOT_LOG").is_some() {
            // Asked for the bot's log: keep it.
            println!("bot log: {}", dir.join("bot.log").display());
        } else {
            let _ = std::fs::remove_dir_all(&dir);
        }
    });
}
