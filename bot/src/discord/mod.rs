//! The Discord front end: poise commands on serenity. Thin by design (ARCHITECTURE.md): commands
//! parse, call the host and [`crate::present`] (every word), and send; all product logic lives in `host`.
//!
//! [`serve`] is the one way to run the bot, used by `tafl-bot run` and by the end-to-end tests
//! (crate `tafl-e2e`) against a fake Discord, so the tests exercise the production set-up.
//!
//! Every command and click is taken on once ([`take_on`]): its interaction id is recorded in the
//! database before it is handled, and a copy of one already recorded (Discord dispatching it again
//! after a resumed session, or to a second process serving the same shard) is dropped unanswered.
//! Commands are taken on by the check of `/tafl` (`take_on_command`), clicks by
//! [`components::handle`]; autocompletes are not.

pub mod board;
pub mod causes;
pub mod commands;
pub mod components;
pub mod config;
pub mod delivery;
pub mod events;
pub mod gateway_log;
pub mod health;
pub mod ids;
pub mod permissions;
pub mod play;
pub mod registration;
pub mod retry;
pub mod scheduler;
pub mod settings;
pub mod threads;
pub mod translations;

/// serenity as poise re-exports it, so callers (and tests) name the same types the bot uses.
pub use poise::serenity_prelude as serenity;

use std::future::Future;
use std::sync::Arc;

use poise::CreateReply;

use crate::present::Lang;
use crate::present::text::{self, Refusal};
use crate::printable::printable;
pub use config::{Api, Config, ConfigError, ShardCount, Shards, Token};

use crate::host::search_pool::SearchPool;
use crate::host::{BotPlayer, Host, User};
use crate::store::Db;

/// What every command can reach: the game host, which owns the database, the renderer, whose
/// sprites are prepared once and shared by every board the bot draws, and the delivery task's
/// lanes and wake-up call. Cheap to clone (all are shared), so the scheduler and delivery loops
/// hold the same ones.
#[derive(Clone, Debug)]
pub struct Data {
    pub host: Host,
    pub renderer: Arc<tafl_render::Renderer>,
    pub delivery: Arc<delivery::Delivery>,
    /// Plays the bot's moves on a bounded search pool (hints use the same pool).
    pub bots: BotPlayer,
    /// One turn to draw, taken by the bot's own work (a delivery, the scheduler) for each
    /// picture, so that its pictures are drawn one at a time: fifty boards drawn at once after
    /// fifty bot moves would share the cores fifty ways with the board of a person's move,
    /// which is drawn without a turn.
    pub background_drawing: Arc<tokio::sync::Semaphore>,
    /// This process's shards whose `READY` has been handled, which the scheduler waits for.
    pub ready: Arc<scheduler::ReadyShards>,
}

impl Data {
    /// The same data for a background loop: its host is [`Host::background`].
    #[must_use]
    pub fn background(&self) -> Data {
        Data { host: self.host.background(), ..self.clone() }
    }

    /// Starts drawing on the blocking pool (a picture is CPU work, milliseconds of it). The
    /// bot's own work draws one picture at a time, its next ones waiting (on no thread) for
    /// their turn; a person's picture never waits for them.
    pub fn draw<T: Send + 'static>(
        &self,
        draw: impl FnOnce(&tafl_render::Renderer) -> Result<T, tafl_render::RenderError> + Send + 'static,
    ) -> Picture<T> {
        let renderer = self.renderer.clone();
        let drawn = move || draw(&renderer).map_err(|e| BotError::Render(e.to_string()));
        if self.host.urgency() == crate::store::Urgency::Interactive {
            // A person's picture goes straight to a thread: no task, no turn, on the move's path.
            return Picture(tokio::task::spawn_blocking(drawn));
        }
        let turn = self.background_drawing.clone();
        Picture(tokio::spawn(async move {
            let _turn = turn.acquire_owned().await.map_err(|e| BotError::Render(e.to_string()))?;
            tokio::task::spawn_blocking(drawn).await.map_err(|e| BotError::Render(e.to_string()))?
        }))
    }
}

/// A picture being drawn ([`Data::draw`]).
#[derive(Debug)]
pub struct Picture<T>(tokio::task::JoinHandle<Result<T, BotError>>);

impl<T> Picture<T> {
    /// The picture, once drawn.
    pub async fn finish(self) -> Result<T, BotError> {
        self.0.await.map_err(|e| BotError::Render(e.to_string()))?
    }

    /// Whether it is drawn (or failed).
    #[must_use]
    pub fn is_finished(&self) -> bool {
        self.0.is_finished()
    }
}

/// Why a command failed. Only [`on_error`] turns it into words, and those never include the
/// cause, which goes to the log.
#[derive(Debug, thiserror::Error)]
pub enum BotError {
    /// Something the user can fix, already in their language; shown to them as it is.
    #[error("{0}")]
    User(String),
    /// Boxed: serenity's error is large, and every command returns this type.
    #[error("Discord request failed: {}", causes::causes(.0.as_ref()))]
    Discord(Box<serenity::Error>),
    /// The host refused (shown in the caller's language) or failed (logged, shown as "try again").
    #[error("{0}")]
    Host(crate::host::HostError),
    /// Drawing a board failed: a bug, since every position the bot holds is valid.
    #[error("drawing the board failed: {0}")]
    Render(String),
    /// The change was recorded, and only Discord's taking of the answer that says so failed.
    /// Logged and not answered: every answer left would be false ("try again" repeats a move
    /// that was made), and the board and the notices show the change, from the delivery.
    #[error("the change was recorded, but Discord did not take its answer: {}", causes::causes(.0.as_ref()))]
    Unanswered(Box<serenity::Error>),
}

impl From<serenity::Error> for BotError {
    fn from(error: serenity::Error) -> BotError {
        BotError::Discord(Box::new(error))
    }
}

impl BotError {
    /// `result` of answering a change already recorded (see [`BotError::Unanswered`]): Discord's
    /// failure to take the answer is that, and a first try whose reply was lost ("already
    /// acknowledged", on a retry) is the answer given.
    pub(crate) fn after_change(result: Result<(), BotError>) -> Result<(), BotError> {
        match result {
            Err(BotError::Discord(error)) if retry::is_already_acknowledged(&error) => Ok(()),
            Err(BotError::Discord(error)) => Err(BotError::Unanswered(error)),
            other => other,
        }
    }
}

pub type Context<'a> = poise::Context<'a, Data, BotError>;

/// Why the bot stopped or could not start, as one sentence for stderr.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    #[error("{0}")]
    Config(#[from] ConfigError),
    #[error("cannot open the database {url}: {source}")]
    Database { url: String, source: crate::store::OpenError },
    /// A URL this build cannot use at all; the sentence names its kind, never the URL, which may
    /// hold a password.
    #[error("{0}")]
    DatabaseKind(crate::store::OpenError),
    /// Discord answered 401, or closed the gateway with 4004: retrying cannot help.
    #[error(
        "Discord rejected the token in DISCORD_TOKEN; get a new one with Reset Token on your application's Bot page at https://discord.com/developers/applications"
    )]
    TokenRejected,
    /// Boxed: serenity's error is large and this one travels up to `main`.
    #[error("the connection to Discord failed: {}", causes::causes(.0.as_ref()))]
    Discord(Box<serenity::Error>),
    #[error(
        "Discord refused to register the slash commands {attempts} times (last: {last}); check the token and the application, then start again"
    )]
    Registration { attempts: u32, last: String },
    /// A 4xx other than 429 to a global registration: trying again cannot help.
    #[error(
        "Discord refused to register the slash commands ({last}); check the application at https://discord.com/developers/applications, then start again"
    )]
    RegistrationRefused { last: String },
    /// A 403 or 404 to the registration in the server `DISCORD_GUILD_ID` names.
    #[error(
        "Discord refused to register the slash commands in the server DISCORD_GUILD_ID={guild} names ({last}): the bot is not in that server, or was added without the applications.commands scope; add it there with both scopes, or unset DISCORD_GUILD_ID to register the commands in every server"
    )]
    GuildRefused { guild: u64, last: String },
    /// The gateway's 4011: the bot is in too many servers for its shards (2,500 a shard). Said
    /// by [`gateway_log`], which ends the process.
    #[error(
        "Discord closed the gateway with 4011 (sharding required): the bot is in too many servers for the shards it \
         runs; set DISCORD_SHARD_COUNT to a larger number in every process (GET /gateway/bot recommends one), or to \
         auto where one process serves every shard"
    )]
    ShardingRequired,
    #[error("cannot serve /healthz on TAFL_HEALTH_ADDR={addr}: {source}")]
    Health { addr: std::net::SocketAddr, source: std::io::Error },
}

impl From<serenity::Error> for RunError {
    fn from(error: serenity::Error) -> RunError {
        if token_rejected(&error) { RunError::TokenRejected } else { RunError::Discord(Box::new(error)) }
    }
}

/// A 401 from the REST API or the gateway's 4004 close: Discord does not accept the token.
fn token_rejected(error: &serenity::Error) -> bool {
    match error {
        serenity::Error::Http(serenity::HttpError::UnsuccessfulRequest(response)) => {
            response.status_code == serenity::StatusCode::UNAUTHORIZED
        }
        serenity::Error::Gateway(serenity::GatewayError::InvalidAuthentication) => true,
        _ => false,
    }
}

/// Tries of command registration before the bot gives up ([`registration::ATTEMPTS`]).
pub const REGISTRATION_ATTEMPTS: u32 = registration::ATTEMPTS;
/// The pause after the first failed request to Discord at start-up; each further one doubles.
const REGISTRATION_PAUSE: std::time::Duration = registration::FIRST_PAUSE;

/// The loops the setup step started once the commands were registered.
#[derive(Debug)]
struct Loops {
    /// The delivery ([`delivery::run`]), which holds claims on outbox lanes.
    delivery: tokio::task::JoinHandle<()>,
    /// The scheduler, the bot player and the reviews.
    others: Vec<tokio::task::JoinHandle<()>>,
}

/// What the setup step hands back to [`serve`]: the loops it started, or why registration
/// failed for good.
type SetupOutcome = Result<Loops, RunError>;

/// The poise framework with every command, the one error handler, and a setup step that
/// registers the commands in `guild` (instant, for development) or globally
/// ([`registration::register`]), and only then starts the scheduler and delivery loops (every
/// `tick`). Its outcome goes to `started`: a bot whose commands could not be registered must
/// stop rather than serve interactions nobody will answer.
#[must_use]
fn framework(
    data: Data,
    guild: Option<serenity::GuildId>,
    tick: std::time::Duration,
    served: std::ops::RangeInclusive<u32>,
    started: tokio::sync::oneshot::Sender<SetupOutcome>,
) -> poise::Framework<Data, BotError> {
    poise::Framework::builder()
        .options(poise::FrameworkOptions {
            commands: {
                let mut commands = commands::all();
                translations::apply_translations(&mut commands, crate::present::Locales::global());
                // On the top-level commands only: poise runs the checks of each level of the
                // command invoked (`/tafl`, then `challenge`), and this one must run once.
                for command in &mut commands {
                    command.checks.push(|ctx| Box::pin(take_on_command(ctx)));
                }
                commands
            },
            on_error,
            event_handler: |framework, event| {
                Box::pin(events::on_event(framework.serenity_context, event, framework.user_data))
            },
            // No owner-only commands: the start-up request for the application's owners would
            // only be one more wait on Discord.
            initialize_owners: false,
            ..Default::default()
        })
        .setup(move |ctx, ready, framework| {
            Box::pin(async move {
                let commands = poise::builtins::create_application_commands(&framework.options().commands);
                let registered = match registration::register(&ctx.http, &data.host, guild, commands).await {
                    Ok(registered) => registered,
                    Err(error) => {
                        let said = error.to_string();
                        // `serve` stops with this error, which says it; `on_error` leaves a
                        // setup error alone.
                        let _ = started.send(Err(error));
                        return Err(BotError::User(said));
                    }
                };
                // Discord's id of /tafl makes command names in messages clickable.
                if let Some(tafl) = registered.iter().find(|c| c.name == "tafl") {
                    crate::present::markup::set_command_id(tafl.id.get());
                }
                tracing::info!(user = %ready.user.name, guild = ?guild.map(serenity::GuildId::get), "commands registered");
                // Boards left behind by the last run get board items; then everything pending
                // is delivered. Deadlines live in the database; the scheduler only looks for
                // what has come due, so stopping either loop anywhere loses nothing.
                if let Err(error) = data.host.redraw_stale_boards(play::now()).await {
                    tracing::warn!(%error, "could not look for boards behind their games");
                }
                // After the boards, so that a notice told again follows its game's board.
                if let Err(error) = data.host.retell_refused(play::now()).await {
                    tracing::warn!(%error, "could not look for notices and summaries Discord refused");
                }
                // The loops' database work goes after people's (`Host::background`).
                let delivery = tokio::spawn(delivery::run(ctx.http.clone(), data.background()));
                let others = vec![
                    tokio::spawn(scheduler::run(
                        data.background(),
                        tick,
                        health::Gateway { shard_manager: framework.shard_manager().clone(), shards: served },
                    )),
                    // Resumes every game where it is the bot's move, then follows new ones.
                    tokio::spawn(data.bots.clone().run()),
                    // Post-game reviews, each waking the delivery that edits its summary.
                    tokio::spawn(crate::host::review::run(
                        data.host.background(),
                        // On the bot's search threads, after every waiting bot move.
                        data.bots.pool().clone(),
                        tick.min(crate::host::review::LOOK_INTERVAL),
                        {
                            let delivery = data.delivery.clone();
                            move || delivery.wake()
                        },
                    )),
                ];
                let _ = started.send(Ok(Loops { delivery, others }));
                Ok(data)
            })
        })
        .build()
}

/// Opens the store, connects to Discord as `config` says and serves until `shutdown` completes
/// (then closes the gateway and the database cleanly).
pub async fn serve(config: Config, shutdown: impl Future<Output = ()> + Send + 'static) -> Result<(), RunError> {
    let http = config.http()?;
    // The stop request is watched from the start: a signal during the token check or while the
    // gateway is unreachable stops the bot as promptly as one while it serves.
    let (stop_requested, stop) = tokio::sync::watch::channel(false);
    let watcher = tokio::spawn(async move {
        shutdown.await;
        let _ = stop_requested.send(true);
    });
    let stopped = |mut stop: tokio::sync::watch::Receiver<bool>| async move {
        // An error means the watcher is gone, which only happens once the stop was requested.
        let _ = stop.wait_for(|stopped| *stopped).await;
    };
    // The health port before anything connects: a port in use is a mistake to report at once.
    // Served from now on, "starting" until the client is built.
    let probe = health::Probe::default();
    let health = match config.health_addr {
        None => None,
        Some(addr) => {
            let listener =
                tokio::net::TcpListener::bind(addr).await.map_err(|source| RunError::Health { addr, source })?;
            Some(tokio::spawn(health::serve(listener, probe.clone())))
        }
    };
    // The database first: a URL this build cannot use is refused before anything else. Opening
    // may wait long (a server that accepts connections but does not answer, another process
    // holding the migrations' lock): a stop request meanwhile ends the run at once, as one
    // before anything started, with success (the operator asked for the stop, and nothing
    // failed). Dropping the half-done opening is safe: the migrations are atomic, so it leaves
    // the database as a kill would, which the next start opens.
    let opened = tokio::select! {
        opened = Db::open_with_settings(&config.database_url, &config.pool) => opened,
        () = stopped(stop.clone()) => {
            watcher.abort();
            tracing::info!("stopped while the database was being opened");
            return Ok(());
        }
    };
    let db = opened.map_err(|source| match source {
        crate::store::OpenError::UnknownScheme { .. } | crate::store::OpenError::NoScheme => {
            RunError::DatabaseKind(source)
        }
        source => RunError::Database { url: crate::store::redacted(&config.database_url), source },
    })?;
    tracing::info!(database = %crate::store::location(&config.database_url), "opened the database");
    // A bad token would otherwise be retried forever by serenity's gateway loop: ask once, and
    // stop with one sentence on a 401. Any other failure (Discord unreachable) is left to the
    // retries below.
    tokio::select! {
        check = http.get_current_user() => match check {
            Err(error) if token_rejected(&error) => {
                watcher.abort();
                db.close().await;
                return Err(RunError::TokenRejected);
            }
            Err(error) => tracing::warn!(error = %causes::causes(&error), "could not check the token yet; connecting anyway"),
            Ok(_) => {}
        },
        () = stopped(stop.clone()) => {
            watcher.abort();
            db.close().await;
            return Ok(());
        }
    }
    // Which shards to serve; `auto` asks Discord how many there should be in all.
    let shards = match config.shards {
        None => None,
        Some(shards) => {
            let count = match shards.count {
                ShardCount::Fixed(count) => count,
                ShardCount::Auto => tokio::select! {
                    count = recommended_shards(&http) => match count {
                        Ok(count) => count,
                        Err(error) => {
                            watcher.abort();
                            db.close().await;
                            return Err(error);
                        }
                    },
                    () = stopped(stop.clone()) => {
                        watcher.abort();
                        db.close().await;
                        return Ok(());
                    }
                },
            };
            match shards.resolve(count) {
                Ok(range) => Some((range, count)),
                Err(error) => {
                    watcher.abort();
                    db.close().await;
                    return Err(error.into());
                }
            }
        }
    };
    // Slash commands and components arrive without privileged intents; GUILDS keeps the cache
    // aware of channels and threads for later features.
    let host = match &shards {
        Some((range, count)) => Host::new(db.clone()).with_shards(*range.start(), *range.end(), *count),
        None => Host::new(db.clone()),
    };
    // The shards this process serves (shard 0 alone without sharding).
    let served = shards.as_ref().map_or(0..=0, |(range, _)| range.clone());
    let delivery: Arc<delivery::Delivery> = Arc::default();
    // The bot's moves are shown like anyone's: its move is in the outbox, and delivery is woken.
    let woken = delivery.clone();
    let bots = BotPlayer::new(host.background(), SearchPool::for_machine(), Arc::new(move |_| woken.wake()));
    // This process's host, to give back its claims on outbox lanes when it stops.
    let claims = host.background();
    let data = Data {
        host,
        renderer: Arc::new(tafl_render::Renderer::new()),
        delivery,
        bots,
        background_drawing: Arc::new(tokio::sync::Semaphore::new(1)),
        ready: Arc::new(scheduler::ReadyShards::new(served.clone().count())),
    };
    let (started, on_started) = tokio::sync::oneshot::channel::<SetupOutcome>();
    // Building the client asks Discord for the gateway's address (and poise for the
    // application's owners), each request waiting up to a minute when Discord hangs: a stop
    // request meanwhile ends the run at once, as during the steps above.
    let building = serenity::ClientBuilder::new_with_http(http, serenity::GatewayIntents::GUILDS).framework(framework(
        data,
        config.guild_id,
        config.tick_interval,
        served.clone(),
        started,
    ));
    let mut client = tokio::select! {
        client = building => client?,
        () = stopped(stop.clone()) => {
            watcher.abort();
            db.close().await;
            return Ok(());
        }
    };
    let shard_manager = client.shard_manager.clone();
    // The loops start once the commands are registered; a registration that failed for good
    // stops the bot.
    let loops: Arc<std::sync::Mutex<Option<Loops>>> = Arc::default();
    let (failed, on_failed) = tokio::sync::oneshot::channel::<RunError>();
    let setup = {
        let loops = loops.clone();
        let shard_manager = shard_manager.clone();
        tokio::spawn(async move {
            match on_started.await {
                Ok(Ok(started)) => *loops.lock().unwrap_or_else(std::sync::PoisonError::into_inner) = Some(started),
                Ok(Err(error)) => {
                    let _ = failed.send(error);
                    shard_manager.shutdown_all().await;
                }
                Err(_) => {}
            }
        })
    };
    // serenity's shutdown waits for a shard that is still trying to connect (Discord
    // unreachable) forever; after a grace period the process stops anyway. The shutdown is
    // started before anything is logged, so that not even a failing log can hold it up.
    let stopping = async {
        stopped(stop.clone()).await;
        tokio::spawn(async move { shard_manager.shutdown_all().await });
        tracing::info!("shutting down");
        tokio::time::sleep(SHUTDOWN_GRACE).await;
        tracing::warn!("the gateway did not close in time; stopping anyway");
    };
    probe.started(health::Gateway { shard_manager: client.shard_manager.clone(), shards: served.clone() }, db.clone());
    let connection = async {
        match &shards {
            None => {
                tracing::info!(api = ?config.api, "connecting to Discord");
                client.start().await
            }
            Some((range, count)) => {
                tracing::info!(api = ?config.api, first = range.start(), last = range.end(), count, "connecting to Discord");
                // serenity starts `start..=end` of this range (its `end` is the last shard
                // served, not one past it): shards 0-1 are `0..1`.
                client.start_shard_range(*range.start()..*range.end(), *count).await
            }
        }
    };
    let result = tokio::select! {
        result = connection => result.map_err(RunError::from),
        () = stopping => Ok(()),
        Ok(error) = on_failed => Err(error),
    };
    watcher.abort();
    setup.abort();
    if let Some(health) = health {
        health.abort();
    }
    let loops = loops.lock().unwrap_or_else(std::sync::PoisonError::into_inner).take();
    if let Some(loops) = loops {
        for task in loops.others {
            task.abort();
        }
        // The lanes this process was delivering go back at once, not when their leases run out
        // (30 s): a restart's successor (another process id) delivers them right away.
        delivery::stop(loops.delivery, &claims).await;
    }
    db.close().await;
    result
}

/// Discord's recommended number of shards (`GET /gateway/bot`), asked until it answers: a
/// Discord unreachable at start-up is waited for, as the gateway itself is, but a rejected token
/// stops the bot.
async fn recommended_shards(http: &serenity::Http) -> Result<u32, RunError> {
    let mut pause = REGISTRATION_PAUSE;
    loop {
        match http.get_bot_gateway().await {
            Ok(gateway) if gateway.shards >= 1 => {
                tracing::info!(shards = gateway.shards, "Discord recommends this many shards");
                return Ok(gateway.shards);
            }
            Ok(gateway) => tracing::warn!(shards = gateway.shards, "Discord recommended no shards; asking again"),
            Err(error) if token_rejected(&error) => return Err(RunError::TokenRejected),
            Err(error) => {
                tracing::warn!(error = %causes::causes(&error), retry_in_ms = pause.as_millis(), "cannot ask Discord how many shards to run");
            }
        }
        tokio::time::sleep(pause).await;
        pause = (pause * 2).min(std::time::Duration::from_secs(30));
    }
}

/// How long a stop request waits for serenity to close the gateway.
const SHUTDOWN_GRACE: std::time::Duration = std::time::Duration::from_secs(3);

/// `tafl-bot run`: configuration from the environment, logs to stderr, and a clean stop on
/// Ctrl-C or SIGTERM.
pub fn run_from_env() -> Result<(), RunError> {
    let config = Config::from_env()?;
    let _logging = init_logging();
    gateway_log::exit_on_sharding_required();
    // One process per SQLite file, for as long as this one runs (see `store::file`).
    let _lock = crate::store::file::sqlite_file(&config.database_url)
        .map(|file| crate::store::file::lock(&file, "tafl-bot run"))
        .transpose()
        .map_err(|source| RunError::Database { url: crate::store::redacted(&config.database_url), source })?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| ConfigError(format!("cannot start the async runtime: {e}")))?;
    let result = runtime.block_on(async {
        let stop = stop_signal().map_err(|e| ConfigError(format!("cannot listen for Ctrl-C and SIGTERM: {e}")))?;
        serve(config, stop).await
    });
    // serenity's shard tasks may still be retrying a connection; do not wait for them.
    runtime.shutdown_timeout(std::time::Duration::from_millis(500));
    result
}

/// The log filter when `RUST_LOG` sets none: our own info lines and only warnings from the
/// libraries.
const DEFAULT_LOG: &str = "warn,tafl_bot=info";

/// The log filter `RUST_LOG` (`value`, as `std::env::var` reads it) sets, and why it was not
/// used when it could not be read. Unset, empty or blank is the default, as for the bot's own
/// variables: `RUST_LOG=` in an environment file means "nothing set", and read as a filter it
/// allowed nothing but errors. A value that is not UTF-8 text was taken for unset, unsaid.
fn log_filter(value: Result<String, std::env::VarError>) -> (tracing_subscriber::EnvFilter, Option<String>) {
    use tracing_subscriber::EnvFilter;
    let value = match value {
        Ok(value) => Some(value),
        Err(std::env::VarError::NotPresent) => None,
        Err(std::env::VarError::NotUnicode(raw)) => {
            let said = format!(
                "RUST_LOG={} cannot be read (it is not UTF-8 text); logging as by default",
                printable(&raw.to_string_lossy())
            );
            return (EnvFilter::new(DEFAULT_LOG), Some(said));
        }
    };
    match value.as_deref().map(str::trim).filter(|v| !v.is_empty()) {
        None => (EnvFilter::new(DEFAULT_LOG), None),
        Some(value) => match EnvFilter::builder().parse(value) {
            Ok(filter) => (filter, None),
            Err(error) => (
                EnvFilter::new(DEFAULT_LOG),
                Some(format!("RUST_LOG={} cannot be read ({error}); logging as by default", printable(value))),
            ),
        },
    }
}

/// Logs to stderr, filtered as `RUST_LOG` says ([`log_filter`]). The lines are written by a
/// thread of their own and dropped when more than [`LOG_BACKLOG`] wait: a stderr pipe nobody
/// reads (a stuck log shipper) blocks its writer, and written from the threads that log, it
/// stopped every one of them, the whole bot and its stop. The guard, kept until the process
/// ends, writes what waits (for at most a second) when it is dropped.
fn init_logging() -> tracing_appender::non_blocking::WorkerGuard {
    use tracing_subscriber::prelude::*;
    let (filter, unreadable) = log_filter(std::env::var("RUST_LOG"));
    // Colours only on a terminal: logs piped to a file or journald stay plain text.
    let ansi = std::io::IsTerminal::is_terminal(&std::io::stderr());
    let (writer, guard) = tracing_appender::non_blocking::NonBlockingBuilder::default()
        .buffered_lines_limit(LOG_BACKLOG)
        .lossy(true)
        .thread_name("tafl-log")
        .finish(std::io::stderr());
    // A second initialisation (e.g. in a test process) keeps the first subscriber.
    // A log line that cannot be written (stderr on a full disk, a closed pipe) is dropped: by
    // default tracing-subscriber reports the failure with `eprintln!`, which panics.
    let log = tracing_subscriber::fmt::layer()
        .with_ansi(ansi)
        .with_writer(writer)
        .log_internal_errors(false)
        .with_filter(filter);
    let _ = tracing_subscriber::registry().with(log).with(gateway_log::layer()).try_init();
    if let Some(unreadable) = unreadable {
        tracing::warn!("{unreadable}");
    }
    guard
}

/// How many log lines may wait for stderr before new ones are dropped.
const LOG_BACKLOG: usize = 10_000;

/// A future that completes on Ctrl-C, or on SIGTERM (what `docker stop` and systemd send).
/// The handlers are installed now, not on first poll, so a signal that arrives while the bot is
/// still connecting is not lost (or fatal, as the default action would be).
fn stop_signal() -> std::io::Result<impl Future<Output = ()> + Send + 'static> {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        let mut interrupt = signal(SignalKind::interrupt())?;
        let mut terminate = signal(SignalKind::terminate())?;
        Ok(async move {
            tokio::select! {
                _ = interrupt.recv() => {},
                _ = terminate.recv() => {},
            }
        })
    }
    #[cfg(not(unix))]
    {
        Ok(async {
            let _ = tokio::signal::ctrl_c().await;
        })
    }
}

/// Takes on the interaction `id` ([`Host::take_interaction`]): `false` for a copy of one already
/// taken on, by this process or another, which is then dropped without an answer (the first copy
/// answers it). Discord may dispatch an interaction again after a resumed gateway session, and
/// during a rolling deploy on `PostgreSQL` two processes may serve the same shard; carried out
/// twice, one `/tafl challenge` made two challenges (the second recorded on the first one's card,
/// which its expiry then closed although it had become a game's board), and the copy of a click
/// answered first with a refusal, the real answer then refused by Discord.
///
/// A database that cannot record it (tried again on another connection when its own was found
/// cut: see [`crate::host::Host::take_interaction`]) lets it through, answered as any other: the
/// interaction's own operation then meets the same database and refuses cleanly ("try again",
/// "the disk is full"), or goes through (a read when the disk is full). Dropping it instead would
/// leave the person with Discord's "The application did not respond" for every command and click
/// while the database is away, to guard against a copy, which is rare, arriving in that very
/// moment.
pub async fn take_on(data: &Data, id: serenity::InteractionId) -> bool {
    let interaction = id.get();
    match data.host.take_interaction(interaction as i64, play::now()).await {
        Ok(taken) => {
            if !taken {
                tracing::info!(interaction, "an interaction delivered again is dropped; its first copy answers it");
            }
            taken
        }
        Err(error) => {
            tracing::warn!(interaction, %error, "could not record an interaction as taken on; answering it anyway");
            true
        }
    }
}

/// The check of every command, run once before it: takes the interaction on ([`take_on`]) and
/// notes its caller ([`note_caller`]), both at once, because while the database is unreachable
/// each waits [`crate::store::UNANSWERED_WAIT`] before it gives up, and the command's own
/// refusal after them must still come within Discord's 3 s. `false`, a copy, ends the
/// interaction unanswered ([`on_error`]). Autocompletes pass: they change nothing, come at
/// every keystroke, and a copy's suggestions are as good as the first's.
async fn take_on_command(ctx: Context<'_>) -> Result<bool, BotError> {
    let poise::Context::Application(app) = ctx else { return Ok(true) };
    if app.interaction_type == poise::CommandInteractionType::Autocomplete {
        return Ok(true);
    }
    let interaction = app.interaction;
    let guild = interaction.guild_id.map(|g| g.get() as i64);
    let guild_locale = interaction.guild_locale.as_deref();
    // The members its user options name, as the server calls them (Discord resolves them).
    let named = interaction.data.resolved.members.iter().map(|(id, member)| (id.get() as i64, member.nick.as_deref()));
    let member_names = member_names(&interaction.user, interaction.member.as_deref(), named);
    let (taken, ()) = tokio::join!(
        take_on(ctx.data(), interaction.id),
        note_caller(ctx.data(), &interaction.user, &interaction.locale, guild, guild_locale, &member_names)
    );
    Ok(taken)
}

/// What the server of an interaction calls its caller (`member`, absent in a DM) and the members
/// it names (`named`), as [`Host::note_caller`] takes them; `None` for no nickname there.
fn member_names<'a>(
    caller: &serenity::User,
    member: Option<&'a serenity::Member>,
    named: impl Iterator<Item = (i64, Option<&'a str>)>,
) -> Vec<(i64, Option<&'a str>)> {
    member.map(|m| (caller.id.get() as i64, m.nick.as_deref())).into_iter().chain(named).collect()
}

/// Records the caller's name, the locales an interaction reports and what its server calls the
/// people in it ([`Host::note_caller`]). A failure is logged and changes nothing about the
/// answer.
pub async fn note_caller(
    data: &Data,
    user: &serenity::User,
    locale: &str,
    guild: Option<i64>,
    guild_locale: Option<&str>,
    member_names: &[(i64, Option<&str>)],
) {
    let caller = User::new(user.id.get() as i64, user.display_name());
    let now = play::now();
    if let Err(error) = data.host.note_caller(&caller, Some(locale), guild, guild_locale, member_names, now).await {
        tracing::warn!(%error, "could not record the caller and locales of an interaction");
    }
}

/// The language of what everyone in a server sees: the one its managers chose, else the
/// server's own locale (as this interaction reports it, or as last stored), else `fallback`
/// (the caller's, e.g. in a DM).
pub async fn server_lang(data: &Data, guild: Option<i64>, guild_locale: Option<&str>, fallback: Lang) -> Lang {
    let Some(guild) = guild else { return fallback };
    match data.host.server_language(guild).await {
        Ok(language) => match language.chosen.as_deref().or(guild_locale).or(language.discord.as_deref()) {
            Some(code) => Lang::discord(Some(code)),
            None => fallback,
        },
        Err(error) => {
            tracing::warn!(%error, guild, "could not read the server's language");
            guild_locale.map_or(fallback, |code| Lang::discord(Some(code)))
        }
    }
}

/// The one error handler: a private, one-sentence answer in the caller's language, and the cause
/// in the log.
fn on_error(error: poise::FrameworkError<'_, Data, BotError>) -> poise::BoxFuture<'_, ()> {
    Box::pin(async move {
        if let poise::FrameworkError::UnknownInteraction { framework, interaction, .. } = &error {
            // A command this version does not have (Discord keeps showing an old registration
            // for a while after an update): still answer, or the user sees "interaction failed".
            tracing::warn!(command = %interaction.data.name, "unknown command");
            let lang = Lang::discord(Some(&interaction.locale));
            let answer = serenity::CreateInteractionResponseMessage::new()
                .content(text::refusal(Refusal::UnknownCommand, lang))
                .ephemeral(true);
            let response = serenity::CreateInteractionResponse::Message(answer);
            if let Err(error) = interaction.create_response(framework.serenity_context, response).await {
                tracing::warn!(error = %causes::causes(&error), "could not answer an unknown command");
            }
            return;
        }
        if let poise::FrameworkError::Setup { .. } = &error {
            // Registration failed for good: `serve` stops with that error, which says why.
            return;
        }
        if let poise::FrameworkError::CommandCheckFailed { error: None, .. } = &error {
            // The one check, `take_on_command`, found a copy of an interaction already taken
            // on: the first copy answers it, and this one must not (it would be refused as
            // already answered, or answer before the first).
            return;
        }
        let Some(ctx) = error.ctx() else {
            tracing::error!(%error, "framework error outside a command");
            return;
        };
        let lang = Lang::discord(ctx.locale());
        let command = ctx.command().qualified_name.clone();
        let message = match &error {
            poise::FrameworkError::ArgumentParse { .. } => {
                tracing::warn!(%command, %error, "unreadable arguments");
                text::refusal(Refusal::BadArguments, lang)
            }
            poise::FrameworkError::CommandStructureMismatch { .. } => {
                tracing::warn!(%command, %error, "command does not match the registered one");
                text::refusal(Refusal::UnknownCommand, lang)
            }
            poise::FrameworkError::Command { error: BotError::User(message), .. } => message.clone(),
            poise::FrameworkError::Command { error: BotError::Host(error), .. } => {
                if *error == crate::host::HostError::Internal {
                    tracing::error!(%command, "command failed inside the host");
                }
                text::host_error(error, lang)
            }
            poise::FrameworkError::GuildOnly { .. } => text::refusal(Refusal::GuildOnly, lang),
            poise::FrameworkError::Command { error: error @ BotError::Unanswered(_), .. } => {
                tracing::warn!(%command, %error, "command answered nothing");
                return;
            }
            _ => {
                tracing::error!(%command, %error, "command failed");
                text::refusal(Refusal::Internal, lang)
            }
        };
        if !take_back_public_thinking(ctx).await {
            return;
        }
        if let Err(error) = send_refusal(ctx, message).await {
            tracing::warn!(%command, error = %causes::causes(&error), "could not send the error message");
        }
    })
}

/// Sends `message`, a command's refusal or error, privately. As the command's first answer, it
/// is retried as every answer is (tried once, one server error left the player with "the
/// application did not respond"), and a retry refused as "already acknowledged" is a first try
/// that reached Discord and lost its reply: the answer given. After a deferral it is a follow-up,
/// tried again only when it never reached Discord ([`retry::with_retries_if_unsent`]).
async fn send_refusal(ctx: Context<'_>, message: String) -> Result<(), serenity::Error> {
    let reply = CreateReply::default().content(message).ephemeral(true);
    let first_answer = match ctx {
        poise::Context::Application(app) => !app.has_sent_initial_response.load(std::sync::atomic::Ordering::SeqCst),
        poise::Context::Prefix(_) => false,
    };
    if !first_answer {
        return retry::with_retries_if_unsent(|| ctx.send(reply.clone())).await.map(drop);
    }
    match retry::with_retries(|| ctx.send(reply.clone())).await {
        Ok(_) => Ok(()),
        Err(error) if retry::is_already_acknowledged(&error) => Ok(()),
        Err(error) => Err(error),
    }
}

/// Before an error is answered: deletes the public "thinking" answer of a command that deferred
/// in public and failed before it answered ([`commands::PublicThinking`]), so that the error
/// comes as a private follow-up of its own instead of filling that message for everyone.
/// `false` when the message could not be deleted: the error would then show to everyone, and is
/// left unsaid (logged); the "thinking" message ends as Discord ends an unanswered one.
async fn take_back_public_thinking(ctx: Context<'_>) -> bool {
    let poise::Context::Application(app) = ctx else { return true };
    if ctx.invocation_data::<commands::PublicThinking>().await.is_none() {
        return true;
    }
    match retry::with_retries(|| app.interaction.delete_response(ctx.http())).await {
        Ok(()) => true,
        // Gone already: a try that timed out had deleted it, and the retry found nothing.
        Err(error) if retry::discord_code(&error) == Some(retry::UNKNOWN_MESSAGE) => true,
        Err(error) => {
            let command = &ctx.command().qualified_name;
            tracing::warn!(%command, error = %causes::causes(&error), "could not take back a public answer to say an error privately");
            false
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;
    use std::time::Duration;

    use super::{Data, delivery};
    use crate::host::search_pool::SearchPool;
    use crate::host::{BotPlayer, Host};
    use crate::store::Db;

    #[test]
    fn an_empty_rust_log_is_the_default_filter() {
        let set = |value: &str| Ok(value.to_owned());
        let default = super::log_filter(Err(std::env::VarError::NotPresent)).0.to_string();
        for empty in ["", "  ", "\t"] {
            let (filter, unreadable) = super::log_filter(set(empty));
            assert_eq!(filter.to_string(), default, "{empty:?}");
            assert!(unreadable.is_none());
        }
        assert_eq!(super::log_filter(set("debug")).0.to_string(), "debug");
        let (filter, unreadable) = super::log_filter(set("tafl_bot=loud"));
        assert_eq!(filter.to_string(), default);
        assert!(unreadable.is_some_and(|said| said.starts_with("RUST_LOG=tafl_bot=loud cannot be read")));
        // Not UTF-8: said, and the default used, rather than taken for unset without a word.
        let raw = std::os::unix::ffi::OsStringExt::from_vec(b"debug\xff".to_vec());
        let (filter, unreadable) = super::log_filter(Err(std::env::VarError::NotUnicode(raw)));
        assert_eq!(filter.to_string(), default);
        assert!(unreadable.is_some_and(|said| said.contains("not UTF-8")), "said");
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn the_bots_pictures_take_turns_and_a_persons_never_waits_for_them() {
        let path = std::env::temp_dir().join(format!("tafl-bot-drawing-{}.db", std::process::id()));
        let _ = std::fs::remove_file(&path);
        let host = Host::new(Db::open_file(&path).await.expect("a database"));
        let bots = BotPlayer::new(host.background(), SearchPool::new(1), Arc::new(|_| {}));
        let data = Data {
            host,
            renderer: Arc::new(tafl_render::Renderer::new()),
            delivery: Arc::<delivery::Delivery>::default(),
            bots,
            background_drawing: Arc::new(tokio::sync::Semaphore::new(1)),
            ready: Arc::new(super::scheduler::ReadyShards::new(1)),
        };
        let background = data.background();
        // A picture of the bot's in progress (it has its turn), until the test lets it finish.
        let (started, on_started) = tokio::sync::oneshot::channel::<()>();
        let (finish, finished) = std::sync::mpsc::channel::<()>();
        let first = background.draw(move |_| {
            let _ = started.send(());
            Ok(finished.recv_timeout(Duration::from_secs(30)).is_ok())
        });
        on_started.await.expect("the first picture starts");
        let second = background.draw(|_| Ok(2));
        let person = data.draw(|_| Ok(1));
        let drawn = tokio::time::timeout(Duration::from_secs(30), person.finish()).await;
        assert_eq!(drawn.expect("a person's picture is drawn meanwhile").expect("drawn"), 1);
        tokio::time::sleep(Duration::from_millis(100)).await;
        assert!(!second.is_finished(), "the bot's second picture waits for its first");
        finish.send(()).expect("the first picture is waiting");
        assert!(first.finish().await.expect("drawn"), "the first picture was let finish");
        let drawn = tokio::time::timeout(Duration::from_secs(30), second.finish()).await;
        assert_eq!(drawn.expect("then the second is drawn").expect("drawn"), 2);
        for suffix in ["", "-wal", "-shm"] {
            let _ = std::fs::remove_file(format!("{}{suffix}", path.display()));
        }
    }
}
