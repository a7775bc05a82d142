//! The real bot (the same `discord::serve` that `tafl-bot run` uses) served in the test process
//! against a [`FakeDiscord`], with its own database file; and the players and table of a game.

use std::path::{Path, PathBuf};
use std::time::Duration;

use serde_json::{Value, json};
use tafl_bot::discord::{self, Api, Config, RunError, Token};
use tokio::sync::oneshot;
use tokio::task::JoinHandle;

use crate::fake_discord::{FakeDiscord, GUILD, Interaction, Pings, StoredMessage, in_guild, with_name};

/// How often a test bot's scheduler ticks: short, so that a test sees a time-out at once.
pub const TICK: Duration = Duration::from_millis(100);

/// A bot served in this process.
#[derive(Debug)]
pub struct TestBot {
    stop: oneshot::Sender<()>,
    task: JoinHandle<Result<(), RunError>>,
}

/// A fresh directory for one test's database and files, removed when the test ends
/// ([`crate::scratch`]).
#[must_use]
pub fn temp_dir(name: &str) -> PathBuf {
    crate::scratch::scratch_dir(&format!("tafl-e2e-{name}"))
}

impl TestBot {
    /// Serves the bot on the database in `dir` (created if missing), through `DISCORD_API_BASE`
    /// when the fake speaks plain HTTP, or `DISCORD_API_RESOLVE` + `DISCORD_API_CA` over TLS.
    #[must_use]
    pub fn start(fake: &FakeDiscord, dir: &Path) -> TestBot {
        TestBot::start_in(fake, dir, None)
    }

    /// Like [`TestBot::start`], registering the commands in `guild` (`DISCORD_GUILD_ID`).
    #[must_use]
    pub fn start_in(fake: &FakeDiscord, dir: &Path, guild: Option<u64>) -> TestBot {
        TestBot::start_ticking(fake, dir, guild, TICK)
    }

    /// Like [`TestBot::start`], with the scheduler and the review loop looking for due work as
    /// often as in a deployed bot ([`tafl_bot::host::scheduler::TICK_INTERVAL`]) rather than
    /// every [`TICK`]: for benchmarks, where a test's ten ticks a second (about 80 SQL
    /// statements, several of them writes) would be load that no real bot carries.
    #[must_use]
    pub fn start_as_deployed(fake: &FakeDiscord, dir: &Path) -> TestBot {
        TestBot::start_ticking(fake, dir, None, tafl_bot::host::scheduler::TICK_INTERVAL)
    }

    fn start_ticking(fake: &FakeDiscord, dir: &Path, guild: Option<u64>, tick_interval: Duration) -> TestBot {
        let config = Config {
            token: Token::new("fake-token"),
            database_url: format!("sqlite://{}", dir.join("tafl.db").display()),
            guild_id: guild.map(discord::serenity::GuildId::new),
            api: match fake.ca_pem() {
                None => Api::Proxy { base: fake.api_base() },
                Some(pem) => {
                    let ca = dir.join("ca.pem");
                    std::fs::write(&ca, pem).expect("write the CA file");
                    Api::Resolve { addr: fake.rest_addr(), ca: Some(ca) }
                }
            },
            tick_interval,
            shards: None,
            health_addr: None,
            pool: tafl_bot::store::PoolSettings::default(),
            // Short, so that a test of a request Discord never answers need not wait 30 s.
            request_timeout: Duration::from_secs(5),
        };
        let (stop, stopped) = oneshot::channel::<()>();
        let task = tokio::spawn(discord::serve(config, async {
            let _ = stopped.await;
        }));
        TestBot { stop, task }
    }

    /// Asks the bot to stop and checks that it stopped cleanly within 10 seconds.
    pub async fn stop(self) {
        let _ = self.stop.send(());
        let result = tokio::time::timeout(Duration::from_secs(10), self.task)
            .await
            .expect("the bot stops within 10 s")
            .expect("the bot task does not panic");
        result.expect("the bot stops without an error");
    }
}

/// A person on the fake server.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Player {
    pub id: u64,
    pub name: &'static str,
}

pub const ALICE: Player = Player { id: 2_000_000_000_000_000_001, name: "Alice" };
pub const BOB: Player = Player { id: 2_000_000_000_000_000_002, name: "Bob" };
pub const EVE: Player = Player { id: 2_000_000_000_000_000_003, name: "Eve" };

/// The server channel where the tests play.
pub const CHANNEL: u64 = 1_500_000_000_000_000_001;

/// A channel of the fake server with the fake Discord behind it: sends commands and clicks as
/// players would.
#[derive(Debug)]
pub struct Table<'a> {
    pub fake: &'a FakeDiscord,
    pub channel: u64,
    pub locale: &'static str,
}

impl Table<'_> {
    /// `/tafl <subcommand> options…` typed by `player` in this channel. `options` is a JSON
    /// object of option names and values; a user option's value is a [`Player`]'s id, and the
    /// player is put in the interaction's `resolved` data as a user and a member of the server,
    /// as Discord does.
    #[must_use = "the interaction names the answer to wait for"]
    pub fn command(&self, player: Player, subcommand: &str, options: &Value, users: &[Player]) -> Interaction {
        let payload = self.command_payload(player, subcommand, options, users);
        self.fake.push_interaction(payload)
    }

    /// The payload of [`Table::command`], without pushing it.
    #[must_use]
    pub fn command_payload(&self, player: Player, subcommand: &str, options: &Value, users: &[Player]) -> Value {
        let list = option_list(options);
        let payload = self.fake.slash_command("tafl", subcommand, &list, player.id, self.locale);
        let mut payload = with_name(in_guild(payload, GUILD, self.channel), player.name);
        payload["locale"] = json!(self.locale);
        payload["guild_locale"] = json!(self.locale);
        if !users.is_empty() {
            let resolved: serde_json::Map<String, Value> = users
                .iter()
                .map(|u| {
                    let user = json!({
                        "id": u.id.to_string(), "username": u.name.to_lowercase(), "discriminator": "0",
                        "global_name": u.name, "avatar": null, "bot": false,
                    });
                    (u.id.to_string(), user)
                })
                .collect();
            // Their nicknames are filled in as the interaction is pushed (`FakeDiscord::set_nick`).
            let members: serde_json::Map<String, Value> = users
                .iter()
                .map(|u| {
                    let member = json!({
                        "roles": [], "joined_at": "2026-01-01T00:00:00.000000+00:00", "flags": 0,
                        "permissions": "2248473465835073",
                    });
                    (u.id.to_string(), member)
                })
                .collect();
            payload["data"]["resolved"] = json!({ "users": resolved, "members": members });
        }
        payload
    }

    /// Autocomplete of `/tafl <subcommand>` with `focused` being typed as `partial`.
    #[must_use = "the interaction names the answer to wait for"]
    pub fn autocomplete(
        &self,
        player: Player,
        subcommand: &str,
        options: &Value,
        focused: &str,
        partial: &str,
    ) -> Interaction {
        let mut list = option_list(options);
        list.as_array_mut()
            .expect("a list")
            .push(json!({ "name": focused, "type": 3, "value": partial, "focused": true }));
        let payload = self.fake.autocomplete("tafl", subcommand, &list, player.id, self.locale);
        let mut payload = with_name(in_guild(payload, GUILD, self.channel), player.name);
        payload["guild_locale"] = json!(self.locale);
        self.fake.push_interaction(payload)
    }

    /// `player` presses the button `custom_id`, or picks `value` in the select menu `custom_id`,
    /// on `message`.
    #[must_use = "the interaction names the answer to wait for"]
    pub fn click(&self, player: Player, message: &StoredMessage, custom_id: &str, value: Option<&str>) -> Interaction {
        self.try_click(player, message, custom_id, value).unwrap_or_else(|missing| panic!("{missing}"))
    }

    /// [`Table::click`], or why the control is not there to press: the bot edited the message
    /// meanwhile (see [`FakeDiscord::try_component`]).
    pub fn try_click(
        &self,
        player: Player,
        message: &StoredMessage,
        custom_id: &str,
        value: Option<&str>,
    ) -> Result<Interaction, String> {
        let values: Vec<&str> = value.into_iter().collect();
        let mut payload = with_name(self.fake.try_component(message, custom_id, &values, player.id)?, player.name);
        payload["locale"] = json!(self.locale);
        payload["guild_locale"] = json!(self.locale);
        Ok(self.fake.push_interaction(payload))
    }

    /// `/tafl <subcommand>` from a member who may manage the server (Manage Server, as Discord
    /// computes it).
    #[must_use = "the interaction names the answer to wait for"]
    pub fn manager_command(&self, player: Player, subcommand: &str, options: &Value) -> Interaction {
        const MANAGE_GUILD: u64 = 1 << 5;
        let mut payload = self.command_payload(player, subcommand, options, &[]);
        let permissions: u64 = payload["member"]["permissions"].as_str().and_then(|p| p.parse().ok()).unwrap_or(0);
        payload["member"]["permissions"] = json!((permissions | MANAGE_GUILD).to_string());
        self.fake.push_interaction(payload)
    }

    /// Whether the people here (and the server) speak English.
    #[must_use]
    pub fn is_english(&self) -> bool {
        self.locale.starts_with("en")
    }

    /// The words a test expects, in the table's language: `english` or `russian`.
    #[must_use]
    pub fn says<'w>(&self, english: &'w str, russian: &'w str) -> &'w str {
        if self.is_english() { english } else { russian }
    }

    /// Alice challenges Bob to Brandubh as the attackers here and Bob accepts with the card's
    /// Accept button: returns the board (the card, turned into the board by the click's answer).
    pub async fn start_brandubh(&self) -> StoredMessage {
        let options = json!({ "opponent": BOB.id, "variant": "brandubh", "side": 0 });
        let challenge = self.command(ALICE, "challenge", &options, &[BOB]);
        let card = self.fake.wait_for_original(&challenge).await;
        let accept = self.says("Accept", "Принять");
        let accept = card.button_labels().into_iter().find(|(label, _)| label == accept).expect("an Accept button").1;
        let click = self.click(BOB, &card, &accept, None);
        let board = self.fake.wait_for_answer(&click).await;
        assert_eq!(board.id, card.id, "the card becomes the board");
        board
    }

    /// Checks that nothing the bot showed anyone here has English prose in it, unless the table
    /// speaks English. `names` are the Latin words that belong (people's names, typed input).
    pub fn assert_no_english(&self, names: &[&str]) {
        if self.is_english() {
            return;
        }
        let shown = everything_shown(self.fake);
        let english = tafl_bot::present::check::english_words(&shown, names);
        assert!(english.is_empty(), "English words on a {} server: {english:?}\n{shown}", self.locale);
    }

    /// [`Table::assert_no_english`] for this table's channel alone (public messages and private
    /// answers there), for a test whose other tables speak English.
    pub fn assert_no_english_here(&self, names: &[&str]) {
        if self.is_english() {
            return;
        }
        let here = self.fake.all_messages().into_iter().filter(|m| m.channel_id == self.channel);
        let shown = shown_in(here);
        assert!(!shown.trim().is_empty(), "nothing was shown in channel {}", self.channel);
        let english = tafl_bot::present::check::english_words(&shown, names);
        assert!(english.is_empty(), "English words in a {} channel: {english:?}\n{shown}", self.locale);
    }
}

/// The locales the scenarios run in: a server and people speaking English, and the same in
/// Russian.
pub const LOCALES: [&str; 2] = ["en-US", "ru"];

/// Runs each named scenario (`async fn name(locale: &'static str)`) as two tests, `name::english`
/// and `name::russian`, each with its own fake Discord and bot.
#[macro_export]
macro_rules! in_english_and_russian {
    ($($scenario:ident),* $(,)?) => {$(
        mod $scenario {
            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn english() {
                super::$scenario($crate::harness::LOCALES[0]).await;
            }
            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn russian() {
                super::$scenario($crate::harness::LOCALES[1]).await;
            }
        }
    )*};
}

/// The answer to `interaction`, once it arrives, checked to be private (ephemeral).
pub async fn private_answer(fake: &FakeDiscord, interaction: &Interaction) -> String {
    let answer = fake.wait_for_original(interaction).await;
    assert!(answer.is_ephemeral(), "the answer is private: {answer:#?}");
    answer.content
}

/// Asserts that `message` pings exactly `players`, each once: no one else, no role, and never
/// `@everyone` or `@here`, whatever the players call themselves.
pub fn assert_pings(message: &StoredMessage, players: &[Player]) {
    let mut users: Vec<u64> = players.iter().map(|p| p.id).collect();
    users.sort_unstable();
    users.dedup();
    let expected = Pings { users, roles: Vec::new(), everyone: false };
    assert_eq!(
        message.pings(),
        expected,
        "whom {:?} pings (allowed_mentions {:?})",
        message.content,
        message.allowed_mentions
    );
}

/// Asserts that no message the bot sent pings a role, `@everyone` or `@here`.
pub fn assert_no_mass_pings(fake: &FakeDiscord) {
    for message in fake.all_messages() {
        let pings = message.pings();
        assert!(
            pings.roles.is_empty() && !pings.everyone,
            "{:?} pings {pings:?} (allowed_mentions {:?})",
            message.content,
            message.allowed_mentions
        );
    }
}

/// Every word the bot showed anyone: message texts, button labels and menu options.
#[must_use]
pub fn everything_shown(fake: &FakeDiscord) -> String {
    shown_in(fake.all_messages())
}

/// The words of `messages`: texts, button labels and menu options.
fn shown_in(messages: impl IntoIterator<Item = StoredMessage>) -> String {
    let mut out = String::new();
    for message in messages {
        out.push_str(&message.text());
        out.push('\n');
        for (label, _) in message.button_labels() {
            out.push_str(&label);
            out.push('\n');
        }
        for id in message.custom_ids() {
            for (label, _) in message.select_options(&id) {
                out.push_str(&label);
                out.push('\n');
            }
        }
    }
    out
}

/// A fake Discord and a bot on a fresh database in a scratch directory named after `name`,
/// ready for interactions; the directory holds the bot's database.
pub async fn served(name: &str) -> (FakeDiscord, TestBot, PathBuf) {
    let fake = FakeDiscord::start().await;
    let dir = temp_dir(name);
    let bot = TestBot::start(&fake, &dir);
    fake.wait_until_ready().await;
    (fake, bot, dir)
}

/// Moves game `id`'s clock in the bot's database in `dir`: its turn began `gone` seconds ago and
/// runs out in `left` seconds, as if that much time had passed (the scheduler reads the same
/// columns).
pub async fn let_time_pass(dir: &Path, id: i64, gone: i64, left: i64) {
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs() as i64);
    let db = tafl_bot::store::Db::open(&format!("sqlite://{}", dir.join("tafl.db").display()))
        .await
        .expect("the bot's database opens");
    sqlx::query("UPDATE games SET turn_started_at = ?, deadline_at = ?, next_due_at = ? WHERE id = ?")
        .bind(now - gone)
        .bind(now + left)
        .bind(now - 1)
        .bind(id)
        .execute(db.pool())
        .await
        .expect("the clock is moved");
    db.close().await;
}

/// The plies game `id` has in the bot's database in `dir` (the process stopped): what was
/// committed, whatever Discord was shown.
pub async fn stored_ply(dir: &Path, id: i64) -> i64 {
    let db = tafl_bot::store::Db::open(&format!("sqlite://{}", dir.join("tafl.db").display()))
        .await
        .expect("the bot's database opens");
    let ply = sqlx::query_scalar("SELECT ply FROM games WHERE id = ?")
        .bind(id)
        .fetch_one(db.pool())
        .await
        .expect("the game is stored");
    db.close().await;
    ply
}

/// Game `id` in the bot's database in `dir`, untimed, left without a move for `days` days: its
/// turn and its moves moved that far back, and the scheduler's look due (the abandonment
/// rules read the turn's start; the summary reads the moves' times).
pub async fn leave_untouched(dir: &Path, id: i64, days: i64) {
    let db = tafl_bot::store::Db::open(&format!("sqlite://{}", dir.join("tafl.db").display()))
        .await
        .expect("the bot's database opens");
    sqlx::query(
        "UPDATE games SET turn_started_at = turn_started_at - ? * 86400, next_due_at = turn_started_at - 86400 \
         WHERE id = ?",
    )
    .bind(days)
    .bind(id)
    .execute(db.pool())
    .await
    .expect("the turn is moved back");
    sqlx::query("UPDATE moves SET played_at = played_at - ? * 86400 WHERE game_id = ?")
        .bind(days)
        .bind(id)
        .execute(db.pool())
        .await
        .expect("the moves are moved back");
    db.close().await;
}

/// `{"notation": "e1-e3", "game": 3}` as Discord's option list (strings type 3, integers 4,
/// booleans 5, user ids as type 6).
fn option_list(options: &Value) -> Value {
    let list: Vec<Value> = options
        .as_object()
        .map(|map| {
            map.iter()
                .map(|(name, value)| match value {
                    Value::Number(n) if n.as_u64().is_some_and(|n| n > 1_000_000_000_000) => {
                        json!({ "name": name, "type": 6, "value": n.to_string() })
                    }
                    Value::Number(_) => json!({ "name": name, "type": 4, "value": value }),
                    Value::Bool(_) => json!({ "name": name, "type": 5, "value": value }),
                    _ => json!({ "name": name, "type": 3, "value": value }),
                })
                .collect()
        })
        .unwrap_or_default();
    Value::Array(list)
}

/// A game of `variant` that ends on the board within `max_plies`, as move texts (`e1-e3xe2`):
/// random play where a side takes a winning move when it has one, tried with seeds in turn.
#[must_use]
pub fn decisive_game(variant: tafl_rules::Variant, max_plies: usize) -> (Vec<String>, tafl_rules::Status) {
    use tafl_rules::{Game, Position, Status};
    for seed in 1..5_000u64 {
        let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
        let mut next = move |below: usize| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state % below as u64) as usize
        };
        let mut game = Game::new(Position::new(variant.rules()).expect("a preset is valid"));
        while game.status() == Status::Ongoing && game.ply() < max_plies {
            let moves = game.position().legal_moves();
            let to_move = game.position().to_move();
            let winning = moves.iter().copied().find(|&mv| {
                let mut trial = game.position().clone();
                matches!(trial.play_unchecked(mv).status, Status::Finished(o) if o.winner == Some(to_move))
            });
            let mv = winning.unwrap_or_else(|| moves[next(moves.len())]);
            game.play(mv).expect("a legal move");
        }
        if let Status::Finished(outcome) = game.status()
            && outcome.winner.is_some()
        {
            return (game.moves().iter().map(|m| m.text().to_string()).collect(), game.status());
        }
    }
    panic!("no decisive {variant} game within {max_plies} plies");
}

/// `tafl-bot run` as a process of its own, against a [`FakeDiscord`] over TLS (serenity's
/// ratelimiter on, as in production), on the database in `dir`: a bot that can be killed with
/// SIGKILL, leaving nothing but its database behind.
#[derive(Debug)]
pub struct BotProcess {
    child: std::process::Child,
}

impl BotProcess {
    /// Starts `binary` (the tests' `CARGO_BIN_EXE_tafl-bot-e2e`) with `run`.
    #[must_use]
    pub fn spawn(binary: &Path, fake: &FakeDiscord, dir: &Path) -> BotProcess {
        BotProcess::spawn_with(binary, fake, dir, &[])
    }

    /// [`BotProcess::spawn`] with more environment variables (`DISCORD_SHARDS`, `TAFL_HEALTH_ADDR`…);
    /// they override the defaults, so `DATABASE_URL` in `env` replaces the `SQLite` file in `dir`
    /// (e.g. with a `PostgreSQL` database that several processes share).
    #[must_use]
    pub fn spawn_with(binary: &Path, fake: &FakeDiscord, dir: &Path, env: &[(&str, &str)]) -> BotProcess {
        BotProcess::spawn_as(std::process::Command::new(binary), fake, dir, env)
    }

    /// [`BotProcess::spawn_with`] with SIGXFSZ ignored, as servers run: a write past a file-size
    /// limit set on the process (`prlimit --fsize`, the tests' full disk) then fails with EFBIG
    /// instead of killing it. The shell `exec`s the bot, so the process id is the bot's.
    #[must_use]
    pub fn spawn_ignoring_xfsz(binary: &Path, fake: &FakeDiscord, dir: &Path, env: &[(&str, &str)]) -> BotProcess {
        let mut shell = std::process::Command::new("sh");
        shell.args(["-c", "trap '' XFSZ; exec \"$0\" \"$@\""]).arg(binary);
        BotProcess::spawn_as(shell, fake, dir, env)
    }

    fn spawn_as(
        mut command: std::process::Command,
        fake: &FakeDiscord,
        dir: &Path,
        env: &[(&str, &str)],
    ) -> BotProcess {
        let ca = dir.join("ca.pem");
        std::fs::write(&ca, fake.ca_pem().expect("a TLS fake")).expect("write the CA file");
        let log = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(dir.join("bot.log"))
            .expect("open the bot's log file");
        let child = command
            .arg("run")
            .env("DISCORD_TOKEN", "fake-token")
            .env("DATABASE_URL", format!("sqlite://{}", dir.join("tafl.db").display()))
            .env("DISCORD_API_RESOLVE", fake.rest_addr().to_string())
            .env("DISCORD_API_CA", &ca)
            .env_remove("DISCORD_API_BASE")
            .env_remove("DISCORD_GUILD_ID")
            // `TAFL_E2E_BOT_LOG` sets the bot's log filter, e.g. `tafl_bot::discord=debug` to see
            // the phases of each move in its `bot.log`.
            .env("RUST_LOG", std::env::var("TAFL_E2E_BOT_LOG").unwrap_or_else(|_| "warn,tafl_bot=info".to_owned()))
            .env_remove("DISCORD_SHARDS")
            .env_remove("DISCORD_SHARD_COUNT")
            .env_remove("TAFL_HEALTH_ADDR")
            .envs(env.iter().copied())
            .stdout(std::process::Stdio::null())
            .stderr(log)
            .spawn()
            .expect("start tafl-bot run");
        BotProcess { child }
    }

    /// The process id, e.g. to read its memory from `/proc`.
    #[must_use]
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// SIGKILL: the process dies wherever it is, as in a crash or an OOM kill.
    pub fn kill(mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// The process id, to send it a signal.
    #[must_use]
    pub fn id(&self) -> u32 {
        self.child.id()
    }

    /// Waits (up to `limit`) for the process to exit on its own; `None` if it is still running.
    pub fn wait_for_exit(&mut self, limit: Duration) -> Option<std::process::ExitStatus> {
        let deadline = std::time::Instant::now() + limit;
        while std::time::Instant::now() < deadline {
            if let Ok(Some(status)) = self.child.try_wait() {
                return Some(status);
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        None
    }
}

impl Drop for BotProcess {
    fn drop(&mut self) {
        // A test that failed half-way must not leave a bot running.
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Waits (at most `limit`) for `child` to exit; its status and stderr (None: still running,
/// killed).
#[must_use]
pub fn exit_within(mut child: std::process::Child, limit: Duration) -> (Option<std::process::ExitStatus>, String) {
    let reader = child.stderr.take().map(|mut pipe| {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            let _ = std::io::Read::read_to_end(&mut pipe, &mut bytes);
            String::from_utf8_lossy(&bytes).into_owned()
        })
    });
    let deadline = std::time::Instant::now() + limit;
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait") {
            break Some(status);
        }
        if std::time::Instant::now() >= deadline {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    (status, reader.map(|r| r.join().unwrap()).unwrap_or_default())
}

/// A small seeded random number generator (xorshift), so that a randomized test's failing run
/// can be repeated from its printed seed.
#[derive(Debug)]
pub struct Rng(pub u64);

impl Rng {
    /// A number below `n` (0 for `n` 0).
    pub fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n.max(1) as u64) as usize
    }
}
