//! A fake Discord on loopback: the REST routes the bot calls and a gateway that pushes the
//! interactions a test chooses. Every REST request is recorded (method, path, JSON body, multipart
//! parts) so tests assert on what the bot really sent, through serenity's real HTTP and gateway
//! code.
//!
//! Start-up as serenity 0.12.5 and poise 0.7.1 do it: `GET /gateway` (the gateway URL), the
//! websocket (Hello, Identify, READY), `GET /oauth2/applications/@me` (poise looks up the owners),
//! then `PUT /applications/{app}/commands` or `PUT /applications/{app}/guilds/{guild}/commands`.
//!
//! Beyond the log, the fake keeps what the channels show ([`StoredMessage`]): messages created and
//! edited through channel routes, interaction callbacks and the interaction webhook, threads and
//! DM channels. It follows Discord where serenity's requests depend on it:
//! - an `attachments` array in an edit lists what the message keeps (old files by id, uploads by
//!   `files[n]` index); without the key, uploads are added. serenity always sends the array in a
//!   type 7 (update message) callback, empty without files, so such an update drops the files;
//! - a type 5 (deferred) callback creates a "thinking" original ([`LOADING`]), and the first
//!   follow-up after it fills that message instead of creating one (poise answers a deferred
//!   command with a follow-up); after a type 6 or 7 callback `@original` is the component's message;
//! - a thread started from a message has the message's id; without a message it is private (12)
//!   unless the body says `type`;
//! - ephemeral messages are reachable only through their interaction's webhook;
//! - errors carry Discord's codes (10008 Unknown Message, 10015 Unknown Webhook, 10062 Unknown
//!   interaction, 40060 already acknowledged); only routes the fake does not know answer code 0;
//! - a message, autocomplete answer, modal or thread name over one of Discord's limits is
//!   refused as Discord refuses it ([`crate::discord_limits`]: 400 Invalid Form Body naming the
//!   field, 413 for a file too large, 400 50006 for an empty message), and nothing is changed;
//! - each message keeps the `allowed_mentions` of its content, so that a test can ask whom it
//!   pings ([`StoredMessage::pings`]);
//! - the gateway is sharded as Discord shards it: `GET /gateway/bot` recommends
//!   [`FakeDiscord::set_shard_count`] shards (1 by default), each session is the shard its
//!   Identify names (`"shard": [id, count]`, `[0, 1]` without one; an id outside the count is
//!   closed with 4010 Invalid shard, fewer shards in all than [`FakeDiscord::require_shards`]
//!   with 4011 Sharding required), and an interaction from a guild goes only to the sessions of
//!   shard `(guild_id >> 22) % count`, one from a DM only to shard 0's.

use std::collections::{HashMap, HashSet, VecDeque};
use std::convert::Infallible;
use std::net::SocketAddr;
use std::pin::pin;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use http_body_util::{BodyExt, Full};
use hyper::body::{Bytes, Incoming};
use hyper::{Request, Response, StatusCode};
use hyper_util::rt::TokioIo;
use serde_json::{Value, json};
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{Notify, mpsc};
use tokio::task::JoinHandle;
use tokio_rustls::TlsAcceptor;
use tokio_rustls::rustls::pki_types::{PrivateKeyDer, PrivatePkcs8KeyDer};
use tokio_tungstenite::tungstenite::Message;

use crate::discord_limits as limits;

/// The fake application's id, also the id of its bot user.
pub const APPLICATION_ID: u64 = 1_100_000_000_000_000_001;
/// The guild a channel belongs to when no pushed interaction or thread said otherwise.
pub const GUILD: u64 = 1_600_000_000_000_000_001;
/// The category the fake server's text channels are in.
pub const CATEGORY: u64 = 1_500_000_000_000_000_900;
/// The DM channel of [`FakeDiscord::slash_command`] payloads.
pub const DM_CHANNEL: u64 = 1_400_000_000_000_000_001;
/// Message flag: only the user of the interaction sees the message.
pub const EPHEMERAL: u64 = 64;
/// Message flag: a deferred answer still "thinking" (type 5 callback not yet followed up).
pub const LOADING: u64 = 128;
/// How long [`FakeDiscord`] waits for the bot before a test fails with the request log.
pub const PATIENCE: Duration = Duration::from_secs(15);

/// One REST request the bot made.
#[derive(Clone, Debug)]
pub struct Recorded {
    pub method: String,
    /// The `Host` header: `discord.com` on the TLS route, `127.0.0.1:PORT` through the proxy.
    pub host: Option<String>,
    /// Without the query, e.g. `/api/v10/interactions/7/tok/callback`.
    pub path: String,
    /// The query, e.g. `after=12&limit=100`; empty without one.
    pub query: String,
    /// The JSON body, or the `payload_json` part of a multipart body.
    pub json: Option<Value>,
    /// The parts of a `multipart/form-data` body (attachments), in order.
    pub parts: Vec<Part>,
    /// What the fake answered; 404 with `code` 0 marks a route the fake does not know yet.
    pub status: u16,
    /// The JSON body of the answer: `Null` for 204 and for scripted faults.
    pub response: Value,
}

/// One part of a multipart body.
#[derive(Clone, Debug)]
pub struct Part {
    pub name: String,
    pub filename: Option<String>,
    pub content_type: Option<String>,
    pub data: Vec<u8>,
}

/// An interaction pushed through the gateway; its id and token name the REST routes the bot
/// answers on.
#[derive(Clone, Debug)]
pub struct Interaction {
    pub id: u64,
    pub token: String,
    pub payload: Value,
    /// The shards of the gateway sessions it was pushed to (empty when no session serves its
    /// shard, or when it was only registered).
    pub delivered_on: Vec<u64>,
}

impl Interaction {
    /// `POST /interactions/{id}/{token}/callback`: the bot's first answer.
    #[must_use]
    pub fn callback_path(&self) -> String {
        format!("/api/v10/interactions/{}/{}/callback", self.id, self.token)
    }
}

/// The callback path of an interaction's `payload` not pushed yet, for a fault set up to meet its
/// first answer ([`Interaction::callback_path`] once pushed).
#[must_use]
pub fn callback_path_of(payload: &Value) -> String {
    let field = |name: &str| payload[name].as_str().map_or_else(|| payload[name].to_string(), str::to_owned);
    format!("/api/v10/interactions/{}/{}/callback", field("id"), field("token"))
}

/// A scripted failure for REST requests (see [`FakeDiscord::fail_next`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Fault {
    /// 429 with `Retry-After` and `X-RateLimit-Reset-After` of `seconds`, as Discord answers a
    /// request over its bucket's limit.
    RateLimited { seconds: f64 },
    /// A server error (500, 502, 503…) with Discord's JSON error body.
    ServerError(u16),
    /// The request is carried out (a message created, edited or deleted) and then answered with
    /// this server error, as when Discord's answer is lost on the way back: only a nonce keeps
    /// the retry of a create from making a second message.
    AppliedThenServerError(u16),
    /// 401, as Discord answers every request made with a bad token.
    Unauthorized,
    /// A refusal for good with Discord's JSON error `code`: 403 "Missing Permissions" (50013),
    /// 400 "Thread is archived" (50083), 403 "Thread is locked" (160005)…
    Refused { status: u16, code: u64 },
    /// The request waits `millis` before it is carried out and answered as usual, as on a slow
    /// connection; [`FakeDiscord::wait_for_slow_requests`] sees it arrive.
    Slow { millis: u64 },
}

type Matcher = Box<dyn Fn(&Recorded) -> bool + Send + Sync>;

struct FaultRule {
    matches: Matcher,
    remaining: usize,
    fault: Fault,
}

impl std::fmt::Debug for FaultRule {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FaultRule")
            .field("remaining", &self.remaining)
            .field("fault", &self.fault)
            .finish_non_exhaustive()
    }
}

/// An identified (or resumed) gateway session: the shard it is, and how to reach it.
#[derive(Debug)]
struct Session {
    /// `[id, count]` as its Identify named them.
    shard: (u64, u64),
    outbox: mpsc::UnboundedSender<Outgoing>,
}

impl Session {
    /// Whether Discord would send an event of `guild` (`None`: a DM) on this session.
    fn receives(&self, guild: Option<u64>) -> bool {
        shard_of(guild, self.shard.1) == self.shard.0
    }
}

/// The shard an event of `guild` (`None`: a DM) goes to when there are `count` shards.
#[must_use]
pub fn shard_of(guild: Option<u64>, count: u64) -> u64 {
    guild.map_or(0, |guild| (guild >> 22) % count.max(1))
}

/// What a gateway session is told to do next.
#[derive(Debug)]
enum Outgoing {
    Event(String),
    /// Drop the connection without a close frame, as a network failure would.
    Drop,
}

#[derive(Debug, Default)]
struct Shared {
    requests: Mutex<Vec<Recorded>>,
    /// Woken on every recorded request and every gateway identify.
    changed: Notify,
    /// The open gateway sessions that have identified or resumed.
    sessions: Mutex<Vec<Session>>,
    /// What `GET /gateway/bot` recommends; 0 stands for the default, 1.
    shard_count: AtomicU64,
    identifies: AtomicU64,
    resumes: AtomicU64,
    faults: Mutex<Vec<FaultRule>>,
    next_id: AtomicU64,
    gateway_url: Mutex<String>,
    store: Mutex<Store>,
    /// Close every Identify with 4004 (Authentication failed), as Discord does for a bad token.
    reject_identify: std::sync::atomic::AtomicBool,
    /// Close every Identify that names fewer shards in all with 4011 (Sharding required), as
    /// Discord does for a bot in too many servers for its shards; 0: none.
    shards_required: AtomicU64,
    /// The gateway is unreachable ([`FakeDiscord::take_gateway_away`]): connections are dropped
    /// as they come.
    gateway_away: std::sync::atomic::AtomicBool,
    /// The requests held by [`Fault::Slow`] so far, arrived but not necessarily carried out.
    slow_arrived: AtomicU64,
    /// The servers the bot is in besides [`GUILD`]: every server an interaction came from, and
    /// those [`FakeDiscord::add_bot`] added; `READY` lists them.
    guilds: Mutex<std::collections::BTreeSet<u64>>,
    /// The servers that removed the bot ([`FakeDiscord::remove_bot`]), [`GUILD`] too.
    removed: Mutex<std::collections::BTreeSet<u64>>,
    /// Members' nicknames, by server and user ([`FakeDiscord::set_nick`]).
    nicks: Mutex<HashMap<(u64, u64), String>>,
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    // A test that panicked while holding the lock has failed already; keep serving the rest.
    mutex.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

impl Shared {
    fn id(&self) -> u64 {
        1_200_000_000_000_000_000 + self.next_id.fetch_add(1, Ordering::Relaxed)
    }
}

/// A message as a channel shows it: the latest state after every edit.
#[derive(Clone, Debug)]
pub struct StoredMessage {
    pub id: u64,
    pub channel_id: u64,
    pub content: String,
    pub embeds: Vec<Value>,
    /// Action rows as the bot sent them.
    pub components: Vec<Value>,
    pub attachments: Vec<StoredAttachment>,
    /// [`EPHEMERAL`] (64), [`LOADING`] (128) while a deferred answer is thinking, …
    pub flags: u64,
    /// How many times it was edited.
    pub edits: u32,
    pub deleted: bool,
    /// The interaction whose response or follow-up created it.
    pub interaction: Option<u64>,
    /// The `allowed_mentions` that came with its content (see [`StoredMessage::pings`]); `None`
    /// when the body had none, and Discord parsed every mention in the content.
    pub allowed_mentions: Option<Value>,
    /// When it was made, in unix milliseconds: its `timestamp`, and what a snowflake of a moment
    /// given as `after` in a listing is compared with (Discord's ids count time; the fake's do not).
    pub created_ms: i64,
}

/// Whom a message notifies ([`StoredMessage::pings`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Pings {
    /// Users, sorted, each once.
    pub users: Vec<u64>,
    /// Roles, sorted, each once.
    pub roles: Vec<u64>,
    /// `@everyone` or `@here`.
    pub everyone: bool,
}

/// A file attached to a [`StoredMessage`].
#[derive(Clone, Debug)]
pub struct StoredAttachment {
    pub id: u64,
    pub filename: String,
    /// Shared, so that copying a message (every wait looks at the latest state) does not copy
    /// its pictures.
    pub data: Bytes,
}

/// A thread the bot created.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Thread {
    /// As on Discord, a thread started from a message has the message's id.
    pub id: u64,
    pub parent_id: u64,
    pub name: String,
    pub message_id: Option<u64>,
    /// The channel type: 11 public, 12 private (Discord's default without a message).
    pub kind: u64,
}

impl StoredMessage {
    #[must_use]
    pub fn is_ephemeral(&self) -> bool {
        self.flags & EPHEMERAL != 0
    }

    /// Every component of every action row, in order.
    fn all_components(&self) -> impl Iterator<Item = &Value> {
        self.components.iter().filter_map(|row| row["components"].as_array()).flatten()
    }

    /// Every button and select menu `custom_id`, in order.
    #[must_use]
    pub fn custom_ids(&self) -> Vec<String> {
        self.all_components().filter_map(|c| c["custom_id"].as_str()).map(str::to_owned).collect()
    }

    /// `(label, custom_id)` of the buttons that have a custom id (not link buttons), in order.
    #[must_use]
    pub fn button_labels(&self) -> Vec<(String, String)> {
        self.all_components()
            .filter(|c| c["type"] == 2)
            .filter_map(|c| {
                let id = c["custom_id"].as_str()?;
                Some((c["label"].as_str().unwrap_or_default().to_owned(), id.to_owned()))
            })
            .collect()
    }

    /// `(label, value)` of the options of the select menu `custom_id`; empty when there is none.
    #[must_use]
    pub fn select_options(&self, custom_id: &str) -> Vec<(String, String)> {
        self.component(custom_id)
            .into_iter()
            .filter_map(|c| c["options"].as_array())
            .flatten()
            .map(|o| (str_of(&o["label"]), str_of(&o["value"])))
            .collect()
    }

    /// The content and every embed's author, title, description, fields (name, then value) and
    /// footer, one per line, for `contains` asserts.
    #[must_use]
    pub fn text(&self) -> String {
        let mut lines = vec![self.content.clone()];
        for embed in &self.embeds {
            let mut push = |value: &Value| {
                if let Some(text) = value.as_str() {
                    lines.push(text.to_owned());
                }
            };
            push(&embed["author"]["name"]);
            push(&embed["title"]);
            push(&embed["description"]);
            for field in embed["fields"].as_array().into_iter().flatten() {
                push(&field["name"]);
                push(&field["value"]);
            }
            push(&embed["footer"]["text"]);
        }
        lines.retain(|line| !line.is_empty());
        lines.join("\n")
    }

    /// The component `custom_id` of this message. A test may name a move menu without the moves
    /// tag the bot puts after its ply (`tafl:to:1:0:d2` for `tafl:to:1:0.1a2b3c4d:d2`): the
    /// tag is the bot's business, the ply and square are what a test means.
    fn component(&self, custom_id: &str) -> Option<&Value> {
        self.all_components().find(|c| c["custom_id"] == custom_id).or_else(|| {
            self.all_components().find(|c| c["custom_id"].as_str().is_some_and(|id| untagged(id) == custom_id))
        })
    }

    /// Whether the message has the control `custom_id`, named with or without its moves tag.
    #[must_use]
    pub fn has_control(&self, custom_id: &str) -> bool {
        self.component(custom_id).is_some()
    }

    /// Whom the message pings, as Discord decides it: the `<@id>` (or `<@!id>`), `<@&role>`,
    /// `@everyone` and `@here` of its content (mentions in embeds never ping), filtered by its
    /// `allowed_mentions` (Discord's default without one: all of them). `parse` lets every
    /// mention of its kinds through (`"everyone"` covers `@here` too), and the `users` and
    /// `roles` lists those ids alone. A mention written after a backslash counts too: the
    /// backslash stops a client from drawing it, and the fake assumes no more than that. An
    /// ephemeral message pings nobody: only its interaction's user ever sees it.
    #[must_use]
    pub fn pings(&self) -> Pings {
        if self.is_ephemeral() {
            return Pings::default();
        }
        let (users, roles) = (mentions(&self.content, "<@"), mentions(&self.content, "<@&"));
        let everyone = self.content.contains("@everyone") || self.content.contains("@here");
        let Some(allowed) = &self.allowed_mentions else {
            return Pings { users, roles, everyone };
        };
        let parsed = |kind: &str| allowed["parse"].as_array().is_some_and(|p| p.iter().any(|k| k == kind));
        let listed =
            |kind: &str, id: u64| allowed[kind].as_array().is_some_and(|l| l.iter().any(|v| snowflake(v) == Some(id)));
        let pass = |kind: &str, ids: Vec<u64>| -> Vec<u64> {
            ids.into_iter().filter(|id| parsed(kind) || listed(kind, *id)).collect()
        };
        Pings { users: pass("users", users), roles: pass("roles", roles), everyone: everyone && parsed("everyone") }
    }
}

/// The ids of the mentions `<@id>`, `<@!id>` (users, `opening` `<@`) or `<@&id>` (roles) in
/// `content`, sorted and each once.
fn mentions(content: &str, opening: &str) -> Vec<u64> {
    let mut ids: Vec<u64> = content
        .match_indices(opening)
        .filter_map(|(at, _)| {
            let rest = &content[at + opening.len()..];
            // `<@&` is a role, not a user whose mention starts with `&`.
            let rest = if opening == "<@" { rest.strip_prefix('!').unwrap_or(rest) } else { rest };
            let (digits, after) = rest.split_at(rest.find(|c: char| !c.is_ascii_digit()).unwrap_or(rest.len()));
            after.starts_with('>').then(|| digits.parse().ok()).flatten()
        })
        .collect();
    ids.sort_unstable();
    ids.dedup();
    ids
}

/// A `custom_id` without the moves tag after its ply (`.` and 8 hex digits).
fn untagged(custom_id: &str) -> String {
    let parts: Vec<&str> = custom_id.split(':').collect();
    parts
        .iter()
        .enumerate()
        .map(|(i, part)| match part.split_once('.') {
            Some((ply, tag)) if i == 3 && tag.len() == 8 && tag.bytes().all(|b| b.is_ascii_hexdigit()) => ply,
            _ => part,
        })
        .collect::<Vec<_>>()
        .join(":")
}

fn str_of(value: &Value) -> String {
    match value {
        Value::String(text) => text.clone(),
        Value::Null => String::new(),
        other => other.to_string(),
    }
}

/// A snowflake as Discord writes it (a string) or as serenity writes placeholders (a number).
fn snowflake(value: &Value) -> Option<u64> {
    value.as_u64().or_else(|| value.as_str()?.parse().ok())
}

/// What the fake remembers of a pushed interaction, by its token.
#[derive(Clone, Debug)]
struct Pending {
    id: u64,
    channel: u64,
    /// The message a component sits on.
    message: Option<u64>,
    /// The message `@original` names, once there is one.
    original: Option<u64>,
    acknowledged: bool,
    /// When the first answer (the callback) arrived, for latency measurements.
    answered_at: Option<std::time::Instant>,
    /// Woken when that answer arrives, so that a wait for one interaction does not wake on every
    /// other change (a benchmark has a hundred such waits at once).
    answered: Arc<Notify>,
}

/// What the channels show, and what the fake knows about channels and interactions.
#[derive(Debug, Default)]
struct Store {
    /// In creation order.
    messages: Vec<StoredMessage>,
    /// Where each message is in `messages`, by id: lookups stay cheap with thousands of
    /// messages and many tests (or a benchmark's games) waiting at once.
    index: HashMap<u64, usize>,
    interactions: HashMap<String, Pending>,
    threads: Vec<Thread>,
    /// Channels and threads deleted ([`FakeDiscord::delete_channel`]): posts there are refused.
    deleted_channels: HashSet<u64>,
    /// Threads archived ([`FakeDiscord::archive_thread`]): as on Discord, a message posted there
    /// unarchives the thread (unless it is locked), but an edit of a message in it is refused
    /// (50083 "Thread is archived") until a post or `PATCH /channels/{thread}` unarchives it.
    archived: HashSet<u64>,
    /// Threads locked by a moderator ([`FakeDiscord::lock_thread`]): the bot (without Manage
    /// Threads) may neither post nor edit there (160005 "Thread is locked", or 50083 while the
    /// thread is archived too), nor unarchive it.
    locked: HashSet<u64>,
    /// The DM channel of each user.
    dms: HashMap<u64, u64>,
    dm_channels: HashSet<u64>,
    /// The guild of each channel seen in a guild interaction or created as a thread.
    guilds: HashMap<u64, u64>,
    /// The message created with each nonce that came with `enforce_nonce`: Discord answers a
    /// repeat with that message instead of creating another.
    nonces: HashMap<String, u64>,
    choices: HashMap<u64, Vec<(String, String)>>,
    modals: HashMap<u64, Value>,
    /// The `interaction_metadata` of the messages each interaction creates.
    metadata: HashMap<u64, Value>,
    /// Channels where the bot lacks Read Message History ([`FakeDiscord::deny_history`]).
    history_denied: HashSet<u64>,
}

impl Store {
    fn message_mut(&mut self, id: u64) -> Option<&mut StoredMessage> {
        let at = *self.index.get(&id)?;
        self.messages.get_mut(at).filter(|m| !m.deleted)
    }

    /// Message `id`, deleted or not.
    fn message(&self, id: u64) -> Option<&StoredMessage> {
        self.messages.get(*self.index.get(&id)?)
    }

    /// `message` as Discord returns it.
    fn render(&self, message: &StoredMessage) -> Value {
        message_json(message, message.interaction.and_then(|i| self.metadata.get(&i)))
    }

    /// GET, PATCH or DELETE of message `id`, which the route may see.
    fn message_verb(&mut self, shared: &Shared, id: u64, method: &str, body: &Value, parts: &[Part]) -> Answer {
        let Some(stored) = self.message_mut(id) else { return unknown_message() };
        match method {
            "GET" => {}
            "PATCH" => edit_message(shared, stored, body, parts),
            _ => {
                stored.deleted = true;
                return (StatusCode::NO_CONTENT, Value::Null);
            }
        }
        let message = stored.clone();
        (StatusCode::OK, self.render(&message))
    }

    /// The guild of `channel`, or `None` for a DM channel.
    fn guild_of(&self, channel: u64) -> Option<u64> {
        if channel == DM_CHANNEL || self.dm_channels.contains(&channel) {
            None
        } else {
            Some(self.guilds.get(&channel).copied().unwrap_or(GUILD))
        }
    }

    /// Discord's refusal of a post in `channel` when it is a thread locked by a moderator: an
    /// archived one answers "Thread is archived" (a post cannot unarchive it), an open one
    /// "Thread is locked".
    fn closed_thread(&self, channel: u64) -> Option<Answer> {
        if !self.locked.contains(&channel) {
            None
        } else if self.archived.contains(&channel) {
            Some(discord_error(StatusCode::BAD_REQUEST, "Thread is archived", 50_083))
        } else {
            Some(discord_error(StatusCode::FORBIDDEN, "Thread is locked", 160_005))
        }
    }

    /// Discord's refusal of an edit of a message in `channel` when it is an archived or a locked
    /// thread.
    fn closed_to_edits(&self, channel: u64) -> Option<Answer> {
        if self.archived.contains(&channel) {
            Some(discord_error(StatusCode::BAD_REQUEST, "Thread is archived", 50_083))
        } else {
            self.closed_thread(channel)
        }
    }
}

/// The running fake: a REST server and a gateway, both on 127.0.0.1, stopped when dropped.
#[derive(Debug)]
pub struct FakeDiscord {
    rest: SocketAddr,
    gateway: SocketAddr,
    /// The certificate the REST server presents, when it speaks TLS.
    ca_pem: Option<String>,
    shared: Arc<Shared>,
    tasks: Vec<JoinHandle<()>>,
}

impl Drop for FakeDiscord {
    fn drop(&mut self) {
        for task in &self.tasks {
            task.abort();
        }
    }
}

impl FakeDiscord {
    /// Binds both servers on free loopback ports and starts serving REST over plain HTTP (for
    /// `DISCORD_API_BASE`).
    pub async fn start() -> FakeDiscord {
        FakeDiscord::start_with(None).await
    }

    /// Like [`FakeDiscord::start`], but REST speaks TLS as `discord.com` with a certificate made
    /// now (for `DISCORD_API_RESOLVE` and `DISCORD_API_CA`, see [`FakeDiscord::ca_pem`]).
    pub async fn start_tls() -> FakeDiscord {
        FakeDiscord::start_with(Some(discord_com_certificate())).await
    }

    async fn start_with(tls: Option<(String, TlsAcceptor)>) -> FakeDiscord {
        let (ca_pem, acceptor) = tls.unzip();
        let shared = Arc::new(Shared::default());
        let rest_listener = TcpListener::bind("127.0.0.1:0").await.expect("bind the fake REST server");
        let gateway_listener = TcpListener::bind("127.0.0.1:0").await.expect("bind the fake gateway");
        let rest = rest_listener.local_addr().expect("REST address");
        let gateway = gateway_listener.local_addr().expect("gateway address");
        *lock(&shared.gateway_url) = format!("ws://{gateway}");
        let rest_task = tokio::spawn(serve_rest(rest_listener, acceptor, shared.clone()));
        let gateway_task = tokio::spawn(serve_gateway(gateway_listener, shared.clone()));
        FakeDiscord { rest, gateway, ca_pem, shared, tasks: vec![rest_task, gateway_task] }
    }

    /// The value for `DISCORD_API_BASE`.
    #[must_use]
    pub fn api_base(&self) -> String {
        format!("http://{}", self.rest)
    }

    /// Makes `GET /gateway` send the bot to `url` instead of the fake gateway, e.g. a closed port
    /// to play an unreachable gateway.
    pub fn set_gateway_url(&self, url: &str) {
        url.clone_into(&mut lock(&self.shared.gateway_url));
    }

    /// The value for `DISCORD_API_RESOLVE`.
    #[must_use]
    pub fn rest_addr(&self) -> SocketAddr {
        self.rest
    }

    /// The PEM certificate to trust (`DISCORD_API_CA`), when started with [`FakeDiscord::start_tls`].
    #[must_use]
    pub fn ca_pem(&self) -> Option<&str> {
        self.ca_pem.as_deref()
    }

    #[must_use]
    pub fn gateway_addr(&self) -> SocketAddr {
        self.gateway
    }

    /// Every REST request so far, oldest first.
    #[must_use]
    pub fn requests(&self) -> Vec<Recorded> {
        lock(&self.shared.requests).clone()
    }

    /// The requests the fake had no route for: a test that sees one has found a call the fake
    /// must learn.
    #[must_use]
    pub fn unknown_requests(&self) -> Vec<Recorded> {
        self.requests().into_iter().filter(|r| r.status == 404 && r.response["code"] == 0).collect()
    }

    /// Waits for the first request (old or new) that `matches`, failing the test with the request
    /// log after [`PATIENCE`].
    pub async fn wait_for(&self, what: &str, matches: impl Fn(&Recorded) -> bool) -> Recorded {
        let found = self.wait_until(|| lock(&self.shared.requests).iter().find(|r| matches(r)).cloned()).await;
        found.unwrap_or_else(|| panic!("the bot never sent {what}; requests: {:#?}", self.requests()))
    }

    /// Waits until the bot has identified on the gateway and registered its commands: from then
    /// on it answers interactions.
    pub async fn wait_until_ready(&self) -> Recorded {
        self.wait_for("the command registration", |r| r.method == "PUT" && r.path.ends_with("/commands")).await
    }

    async fn wait_until<T>(&self, check: impl Fn() -> Option<T>) -> Option<T> {
        self.wait_until_within(PATIENCE, check).await
    }

    async fn wait_until_within<T>(&self, patience: Duration, check: impl Fn() -> Option<T>) -> Option<T> {
        let deadline = tokio::time::Instant::now() + patience;
        loop {
            let mut notified = pin!(self.shared.changed.notified());
            notified.as_mut().enable();
            if let Some(found) = check() {
                return Some(found);
            }
            if tokio::time::timeout_at(deadline, notified).await.is_err() {
                return check();
            }
        }
    }

    /// Delivers `INTERACTION_CREATE` with `payload` (see [`FakeDiscord::slash_command`]) to every
    /// identified gateway session. From a server, its members (the caller's `member`, and those
    /// in `data.resolved.members`) carry their nicknames there ([`FakeDiscord::set_nick`]), as
    /// Discord fills them in.
    #[must_use = "the interaction names the callback route to wait for"]
    pub fn push_interaction(&self, payload: Value) -> Interaction {
        let payload = self.with_nicks(payload);
        let Interaction { id, token, payload, .. } = self.register_interaction(payload);
        let guild = snowflake(&payload["guild_id"]);
        if let Some(guild) = guild {
            lock(&self.shared.guilds).insert(guild);
        }
        let delivered_on = self.push_event("INTERACTION_CREATE", &payload, guild);
        Interaction { id, token, payload, delivered_on }
    }

    /// Sends the dispatch event `name` with `data` to every identified session of `guild`'s
    /// shard (`None`: a DM's, shard 0); returns the shards it went to.
    fn push_event(&self, name: &str, data: &Value, guild: Option<u64>) -> Vec<u64> {
        let event = json!({ "op": 0, "t": name, "s": null, "d": data });
        let mut sessions = lock(&self.shared.sessions);
        sessions.retain(|session| !session.outbox.is_closed());
        assert!(!sessions.is_empty(), "no bot is connected to the fake gateway");
        let mut delivered_on = Vec::new();
        for session in sessions.iter().filter(|session| session.receives(guild)) {
            // A session that closed since has a dropped receiver; the others still get the event.
            if session.outbox.send(Outgoing::Event(event.to_string())).is_ok() {
                delivered_on.push(session.shard.0);
            }
        }
        delivered_on
    }

    /// Delivers the `INTERACTION_CREATE` of `interaction` again, as it was: the same id and token,
    /// and the fake's record of its answer kept (a second answer is refused as already
    /// acknowledged), as when Discord dispatches one interaction twice (a resumed session).
    /// Returns the shards it went to.
    #[must_use = "an empty list means no session received it"]
    pub fn redeliver(&self, interaction: &Interaction) -> Vec<u64> {
        let guild = snowflake(&interaction.payload["guild_id"]);
        self.push_event("INTERACTION_CREATE", &interaction.payload, guild)
    }

    /// The bot is removed from `guild` (kicked, or the server deleted): `GUILD_DELETE` without
    /// `unavailable`, and no later `READY` lists the server.
    pub fn remove_bot(&self, guild: u64) {
        lock(&self.shared.removed).insert(guild);
        self.push_event("GUILD_DELETE", &json!({ "id": guild.to_string() }), Some(guild));
    }

    /// The bot is removed from `guild` while no bot is connected: no event tells it, and the
    /// next `READY` leaves the server out.
    pub fn remove_bot_while_away(&self, guild: u64) {
        lock(&self.shared.removed).insert(guild);
    }

    /// `guild` goes through an outage: `GUILD_DELETE` with `unavailable`; the bot stays in it.
    pub fn guild_outage(&self, guild: u64) {
        self.push_event("GUILD_DELETE", &json!({ "id": guild.to_string(), "unavailable": true }), Some(guild));
    }

    /// The bot is added to `guild` (again): `GUILD_CREATE`, as Discord sends it when the bot
    /// joins a server, when a server's outage ends and for every server at each connection.
    pub fn add_bot(&self, guild: u64) {
        lock(&self.shared.removed).remove(&guild);
        lock(&self.shared.guilds).insert(guild);
        self.push_event("GUILD_CREATE", &guild_json(guild), Some(guild));
    }

    /// Gives `user` the nickname `nick` in `guild` (`None`: they remove it), as a member or a
    /// moderator does in the server's settings: every interaction pushed from there from now on
    /// carries it.
    pub fn set_nick(&self, guild: u64, user: u64, nick: Option<&str>) {
        let mut nicks = lock(&self.shared.nicks);
        match nick {
            Some(nick) => nicks.insert((guild, user), nick.to_owned()),
            None => nicks.remove(&(guild, user)),
        };
    }

    /// `payload` with the nickname of each member in it, `null` for none (see
    /// [`FakeDiscord::push_interaction`]); one from a DM has no members.
    fn with_nicks(&self, mut payload: Value) -> Value {
        let Some(guild) = snowflake(&payload["guild_id"]) else { return payload };
        let nicks = lock(&self.shared.nicks);
        let nick =
            |user: Option<u64>| user.and_then(|user| nicks.get(&(guild, user))).map_or(Value::Null, |n| json!(n));
        if let Some(member) = payload.get_mut("member").filter(|m| m.is_object()) {
            member["nick"] = nick(snowflake(&member["user"]["id"]));
        }
        if let Some(members) =
            payload.get_mut("data").and_then(|d| d.get_mut("resolved")).and_then(|r| r.get_mut("members"))
        {
            for (id, member) in members.as_object_mut().into_iter().flatten() {
                member["nick"] = nick(id.parse().ok());
            }
        }
        payload
    }

    /// Makes the fake know the interaction `payload` (its channel, its component's message) without
    /// pushing it, so that its callback and webhook routes answer; [`FakeDiscord::push_interaction`]
    /// does this first. For tests that drive the REST routes with their own client.
    #[must_use = "the interaction names the callback route"]
    pub fn register_interaction(&self, payload: Value) -> Interaction {
        let id = snowflake(&payload["id"]).expect("interaction id");
        let token = payload["token"].as_str().expect("interaction token").to_owned();
        let channel = snowflake(&payload["channel_id"]).expect("interaction channel_id");
        let message = snowflake(&payload["message"]["id"]);
        let mut store = lock(&self.shared.store);
        match snowflake(&payload["guild_id"]) {
            Some(guild) => {
                store.guilds.insert(channel, guild);
            }
            None => {
                store.dm_channels.insert(channel);
            }
        }
        let user = payload.get("user").unwrap_or(&payload["member"]["user"]).clone();
        let mut metadata = json!({
            "id": id.to_string(),
            "type": payload["type"],
            "user": user,
            "authorizing_integration_owners": payload["authorizing_integration_owners"],
        });
        if let Some(message) = message {
            metadata["interacted_message_id"] = json!(message.to_string());
        }
        store.metadata.insert(id, metadata);
        let pending = Pending {
            id,
            channel,
            message,
            original: None,
            acknowledged: false,
            answered_at: None,
            answered: Arc::default(),
        };
        store.interactions.insert(token.clone(), pending);
        Interaction { id, token, payload, delivered_on: Vec::new() }
    }

    /// The latest state of message `id` (deleted or not).
    #[must_use]
    pub fn message(&self, id: u64) -> Option<StoredMessage> {
        lock(&self.shared.store).message(id).cloned()
    }

    /// The messages of `channel` that are not deleted, in creation order (ephemeral ones too).
    #[must_use]
    pub fn messages_in(&self, channel: u64) -> Vec<StoredMessage> {
        let store = lock(&self.shared.store);
        store.messages.iter().filter(|m| m.channel_id == channel && !m.deleted).cloned().collect()
    }

    /// Every message so far, deleted ones too, in creation order.
    #[must_use]
    pub fn all_messages(&self) -> Vec<StoredMessage> {
        lock(&self.shared.store).messages.clone()
    }

    /// The message `@original` names for `interaction`: the answer a type 4 or 5 callback created,
    /// or, after a type 6 or 7 callback, the message the component is on.
    #[must_use]
    pub fn original_response(&self, interaction: &Interaction) -> Option<StoredMessage> {
        let store = lock(&self.shared.store);
        let original = store.interactions.get(&interaction.token)?.original?;
        store.message(original).cloned()
    }

    /// When the bot's first answer to `interaction` (its callback) arrived.
    #[must_use]
    pub fn answered_at(&self, interaction: &Interaction) -> Option<std::time::Instant> {
        lock(&self.shared.store).interactions.get(&interaction.token)?.answered_at
    }

    /// The `(name, value)` choices of the bot's autocomplete answer to `interaction`.
    #[must_use]
    pub fn autocomplete_choices(&self, interaction: &Interaction) -> Option<Vec<(String, String)>> {
        lock(&self.shared.store).choices.get(&interaction.id).cloned()
    }

    /// The modal (`data` of a type 9 callback) the bot opened in answer to `interaction`.
    #[must_use]
    pub fn modal(&self, interaction: &Interaction) -> Option<Value> {
        lock(&self.shared.store).modals.get(&interaction.id).cloned()
    }

    /// The threads the bot created, oldest first.
    #[must_use]
    pub fn threads(&self) -> Vec<Thread> {
        lock(&self.shared.store).threads.clone()
    }

    /// Forgets every nonce seen so far, as Discord does a few minutes after a message was made
    /// with one ("checked for uniqueness in the past few minutes"): a create repeated after
    /// that makes a second message.
    pub fn forget_nonces(&self) {
        lock(&self.shared.store).nonces.clear();
    }

    /// Takes Read Message History from the bot in `channel`: as Discord documents for
    /// `GET /channels/{id}/messages`, "if the current user is missing the `READ_MESSAGE_HISTORY`
    /// permission in the channel, then no messages will be returned" (an empty list, no error).
    pub fn deny_history(&self, channel: u64) {
        lock(&self.shared.store).history_denied.insert(channel);
    }

    /// Deletes a channel or thread of [`GUILD`], as a moderator would: from now on a message
    /// posted there is refused with Discord's "Unknown Channel" (10003), and a connected bot is
    /// told by `THREAD_DELETE` (a thread the bot made) or `CHANNEL_DELETE` (any other).
    pub fn delete_channel(&self, channel: u64) {
        let thread = {
            let mut store = lock(&self.shared.store);
            store.deleted_channels.insert(channel);
            let thread = store.threads.iter().find(|thread| thread.id == channel).cloned();
            store.threads.retain(|thread| thread.id != channel);
            thread
        };
        if lock(&self.shared.sessions).is_empty() {
            return;
        }
        let (id, guild) = (channel.to_string(), GUILD.to_string());
        let (name, event) = if let Some(thread) = thread {
            let parent = thread.parent_id.to_string();
            ("THREAD_DELETE", json!({ "id": id, "guild_id": guild, "parent_id": parent, "type": thread.kind }))
        } else {
            let event = json!({
                "id": id, "guild_id": guild, "type": 0, "name": "games", "position": 0,
                "permission_overwrites": [], "nsfw": false, "parent_id": null,
            });
            ("CHANNEL_DELETE", event)
        };
        self.push_event(name, &event, Some(GUILD));
    }

    /// Archives a thread, as Discord does after its auto-archive duration without activity
    /// (or a moderator closing it): "Users cannot edit messages ... in archived threads";
    /// "Sending a message will automatically unarchive the thread, unless the thread has been
    /// locked by a moderator" (Discord's Threads topic). A member who may send messages there
    /// unarchives it with `PATCH /channels/{thread}` `{"archived": false}`, unless it is locked.
    pub fn archive_thread(&self, thread: u64) {
        lock(&self.shared.store).archived.insert(thread);
    }

    /// Locks a thread as a moderator would ("Lock Thread": it stays open to read): a bot without
    /// Manage Threads can no longer create or update messages there, nor unarchive it. Archive
    /// it too ([`FakeDiscord::archive_thread`]) for a moderator's "Close and Lock".
    pub fn lock_thread(&self, thread: u64) {
        lock(&self.shared.store).locked.insert(thread);
    }

    /// Unlocks a thread (a moderator reopening it); it stays archived if it was.
    pub fn unlock_thread(&self, thread: u64) {
        lock(&self.shared.store).locked.remove(&thread);
    }

    /// Whether a thread is archived now.
    #[must_use]
    pub fn is_archived(&self, thread: u64) -> bool {
        lock(&self.shared.store).archived.contains(&thread)
    }

    /// The DM channel the bot opened with `user`.
    #[must_use]
    pub fn dm_channel(&self, user: u64) -> Option<u64> {
        lock(&self.shared.store).dms.get(&user).copied()
    }

    /// Waits for the first message (in its latest state, edits included) that `matches`,
    /// failing the test with every message after [`PATIENCE`].
    pub async fn wait_for_message(&self, what: &str, matches: impl Fn(&StoredMessage) -> bool) -> StoredMessage {
        self.wait_for_message_within(PATIENCE, what, matches).await
    }

    /// [`FakeDiscord::wait_for_message`] with `patience` instead of [`PATIENCE`]: for what the
    /// bot is expected to take long over (fifty searches queued for one thread).
    pub async fn wait_for_message_within(
        &self,
        patience: Duration,
        what: &str,
        matches: impl Fn(&StoredMessage) -> bool,
    ) -> StoredMessage {
        let found = self
            .wait_until_within(patience, || lock(&self.shared.store).messages.iter().find(|m| matches(m)).cloned())
            .await;
        found.unwrap_or_else(|| panic!("the bot never showed {what}; messages: {:#?}", self.all_messages()))
    }

    /// Waits until `interaction` has an original response that is not a "thinking" placeholder
    /// (see [`FakeDiscord::original_response`] for the placeholder itself).
    pub async fn wait_for_original(&self, interaction: &Interaction) -> StoredMessage {
        let found = self.wait_until(|| self.original_response(interaction).filter(|m| m.flags & LOADING == 0)).await;
        found.unwrap_or_else(|| {
            panic!(
                "the bot never answered interaction {}; original: {:#?}; requests: {:#?}",
                interaction.id,
                self.original_response(interaction),
                self.requests()
            )
        })
    }

    /// Waits for the bot's first answer to `interaction` (its callback) and returns the message
    /// it names (see [`FakeDiscord::original_response`]). Unlike
    /// [`FakeDiscord::wait_for_original`] it wakes only for this interaction's answer.
    pub async fn wait_for_answer(&self, interaction: &Interaction) -> StoredMessage {
        let answered = lock(&self.shared.store)
            .interactions
            .get(&interaction.token)
            .map(|pending| pending.answered.clone())
            .expect("an interaction the fake pushed");
        let deadline = tokio::time::Instant::now() + PATIENCE;
        loop {
            let mut notified = pin!(answered.notified());
            notified.as_mut().enable();
            if self.answered_at(interaction).is_some()
                && let Some(message) = self.original_response(interaction)
            {
                return message;
            }
            let woken = tokio::time::timeout_at(deadline, notified).await.is_ok();
            assert!(woken, "the bot never answered interaction {}; requests: {:#?}", interaction.id, self.requests());
        }
    }

    /// The gateway goes away (a network outage): every session is dropped, and new connections
    /// are dropped as they come until [`FakeDiscord::bring_gateway_back`].
    pub fn take_gateway_away(&self) {
        self.shared.gateway_away.store(true, Ordering::Relaxed);
        self.drop_gateway();
    }

    /// Ends [`FakeDiscord::take_gateway_away`]: the bot's next attempt connects.
    pub fn bring_gateway_back(&self) {
        self.shared.gateway_away.store(false, Ordering::Relaxed);
    }

    /// Drops every gateway connection at once, without a close frame.
    pub fn drop_gateway(&self) {
        for session in lock(&self.shared.sessions).drain(..) {
            let _ = session.outbox.send(Outgoing::Drop);
        }
    }

    /// Makes `GET /gateway/bot` recommend `count` shards (Discord's recommendation, which
    /// `DISCORD_SHARD_COUNT=auto` follows).
    pub fn set_shard_count(&self, count: u64) {
        self.shared.shard_count.store(count, Ordering::Relaxed);
    }

    /// The `[id, count]` of every open gateway session, sorted.
    #[must_use]
    pub fn connected_shards(&self) -> Vec<(u64, u64)> {
        let mut sessions = lock(&self.shared.sessions);
        sessions.retain(|session| !session.outbox.is_closed());
        let mut shards: Vec<(u64, u64)> = sessions.iter().map(|session| session.shard).collect();
        shards.sort_unstable();
        shards
    }

    /// Waits until the open sessions are exactly `shards` (`[id, count]`, sorted).
    pub async fn wait_for_shards(&self, shards: &[(u64, u64)]) {
        let reached = self.wait_until(|| (self.connected_shards() == shards).then_some(())).await;
        assert!(reached.is_some(), "the connected shards are {:?}, not {shards:?}", self.connected_shards());
    }

    /// How many times a bot has identified on the gateway (once per fresh session).
    #[must_use]
    pub fn identifies(&self) -> u64 {
        self.shared.identifies.load(Ordering::Relaxed)
    }

    /// How many gateway sessions a bot has opened or resumed in all.
    #[must_use]
    pub fn connections(&self) -> u64 {
        self.identifies() + self.shared.resumes.load(Ordering::Relaxed)
    }

    /// Waits until the bot has identified or resumed `count` times in all, e.g. once more after
    /// [`FakeDiscord::drop_gateway`].
    pub async fn wait_for_connections(&self, count: u64) {
        let reached = self.wait_until(|| (self.connections() >= count).then_some(())).await;
        assert!(reached.is_some(), "the bot connected {} times, not {count}", self.connections());
    }

    /// From now on, closes the gateway on Identify with code 4004, as Discord does for a token it
    /// does not accept.
    pub fn reject_identify(&self) {
        self.shared.reject_identify.store(true, Ordering::Relaxed);
    }

    /// From now on, closes the gateway with code 4011 (Sharding required) on an Identify that
    /// names fewer than `count` shards in all (none: one), as Discord does when the bot is in
    /// too many servers for its shards; `GET /gateway/bot` recommends `count`.
    pub fn require_shards(&self, count: u64) {
        self.shared.shards_required.store(count, Ordering::Relaxed);
        self.set_shard_count(count);
    }

    /// Answers the next `times` requests that `matches` with `fault` instead of the normal
    /// answer. They are recorded as usual, with the fault's status.
    pub fn fail_next(&self, matches: impl Fn(&Recorded) -> bool + Send + Sync + 'static, times: usize, fault: Fault) {
        lock(&self.shared.faults).push(FaultRule { matches: Box::new(matches), remaining: times, fault });
    }

    /// Waits until `count` requests held by [`Fault::Slow`] have arrived, failing the test after
    /// [`PATIENCE`].
    pub async fn wait_for_slow_requests(&self, count: u64) {
        let arrived =
            self.wait_until(|| (self.shared.slow_arrived.load(Ordering::Relaxed) >= count).then_some(())).await;
        arrived.unwrap_or_else(|| panic!("{count} slow requests never arrived; requests: {:#?}", self.requests()));
    }

    /// Forgets every scripted fault not yet used up.
    pub fn clear_faults(&self) {
        lock(&self.shared.faults).clear();
    }

    /// A fresh interaction or message id.
    #[must_use]
    pub fn id(&self) -> u64 {
        self.shared.id()
    }

    /// A `/name subcommand option:value…` interaction from `user` in a DM channel, in `locale`.
    #[must_use]
    pub fn slash_command(&self, name: &str, subcommand: &str, options: &Value, user: u64, locale: &str) -> Value {
        let id = self.id();
        json!({
            "id": id.to_string(),
            "application_id": APPLICATION_ID.to_string(),
            "type": 2,
            "token": format!("interaction-token-{id}"),
            "version": 1,
            "data": {
                "id": "1300000000000000001",
                "name": name,
                "type": 1,
                "options": [{ "name": subcommand, "type": 1, "options": options }],
            },
            "channel_id": DM_CHANNEL.to_string(),
            "user": user_json(user, &format!("player{user}"), false),
            "locale": locale,
            "app_permissions": "0",
            "entitlements": [],
            "authorizing_integration_owners": {},
            "context": 1,
            // serenity 0.12.5 refuses an interaction without it.
            "attachment_size_limit": limits::MAX_FILE_BYTES,
        })
    }
}

impl FakeDiscord {
    /// An `APPLICATION_COMMAND_AUTOCOMPLETE` interaction: like [`FakeDiscord::slash_command`],
    /// with the option being typed marked `"focused": true` in `options`.
    #[must_use]
    pub fn autocomplete(&self, name: &str, subcommand: &str, options: &Value, user: u64, locale: &str) -> Value {
        let mut payload = self.slash_command(name, subcommand, options, user, locale);
        payload["type"] = json!(4);
        payload
    }

    /// A `MESSAGE_COMPONENT` interaction: `user` presses the button `custom_id` on `message`, or
    /// picks `values` in its select menu `custom_id`. It comes from the message's channel: a DM
    /// channel, or else a channel of the guild pushed interactions or threads named for it
    /// ([`GUILD`] by default), where `user` is a member. Panics when the message has no such
    /// enabled component or a value is not an option, as a Discord client would not let it happen.
    /// A message the fake stores is taken in its latest state (edits included), however old the
    /// copy passed, as the user sees the message as it is now; it must not be deleted.
    #[must_use]
    pub fn component(&self, message: &StoredMessage, custom_id: &str, values: &[&str], user: u64) -> Value {
        self.try_component(message, custom_id, values, user).unwrap_or_else(|missing| panic!("{missing}"))
    }

    /// [`FakeDiscord::component`], or why nobody can press it now (the message deleted, or
    /// edited meanwhile to lose the component): for a test whose bot may edit the message at
    /// any moment, as a user's click may come just too late.
    pub fn try_component(
        &self,
        message: &StoredMessage,
        custom_id: &str,
        values: &[&str],
        user: u64,
    ) -> Result<Value, String> {
        let latest = self.message(message.id);
        if let Some(latest) = &latest
            && latest.deleted
        {
            return Err(format!("message {} is deleted: nobody can press {custom_id:?} on it", latest.id));
        }
        let message = latest.as_ref().unwrap_or(message);
        let Some(component) = message.component(custom_id) else {
            return Err(format!("message {} has no component {custom_id:?}: {:#?}", message.id, message.components));
        };
        // The id as the bot made it, moves tag included.
        let custom_id = component["custom_id"].as_str().unwrap_or(custom_id).to_owned();
        let custom_id = custom_id.as_str();
        assert!(component["disabled"] != true, "the component {custom_id:?} is disabled: {component}");
        let component_type = component["type"].as_u64().unwrap_or(2);
        let mut data = json!({ "custom_id": custom_id, "component_type": component_type });
        if component_type == 3 {
            let options = message.select_options(custom_id);
            for value in values {
                assert!(
                    options.iter().any(|(_, v)| v == value),
                    "{value:?} is not an option of {custom_id:?}: {options:?}"
                );
            }
        }
        if component_type != 2 {
            data["values"] = json!(values);
        }
        let id = self.id();
        let (rendered, guild) = {
            let store = lock(&self.shared.store);
            (store.render(message), store.guild_of(message.channel_id))
        };
        let payload = json!({
            "id": id.to_string(),
            "application_id": APPLICATION_ID.to_string(),
            "type": 3,
            "token": format!("interaction-token-{id}"),
            "version": 1,
            "data": data,
            "channel_id": message.channel_id.to_string(),
            "message": rendered,
            "user": user_json(user, &format!("player{user}"), false),
            "locale": "en-US",
            "app_permissions": "0",
            "entitlements": [],
            "authorizing_integration_owners": {},
            "context": 1,
            "attachment_size_limit": limits::MAX_FILE_BYTES,
        });
        Ok(match guild {
            Some(guild) => in_guild(payload, guild, message.channel_id),
            None => payload,
        })
    }
}

impl FakeDiscord {
    /// A `MODAL_SUBMIT` interaction: the user of `opened_by` submits the modal the bot opened in
    /// answer to it, with `values` as `(custom_id, text)` of its text inputs (others are empty).
    /// It comes from where `opened_by` came from. Panics when the bot opened no modal or has no
    /// such input.
    #[must_use]
    pub fn modal_submit(&self, opened_by: &Interaction, values: &[(&str, &str)]) -> Value {
        let modal = self.modal(opened_by).unwrap_or_else(|| panic!("the bot opened no modal for {}", opened_by.id));
        let rows = modal["components"].as_array().cloned().unwrap_or_default();
        let inputs: Vec<&str> = rows
            .iter()
            .filter_map(|r| r["components"].as_array())
            .flatten()
            .filter_map(|c| c["custom_id"].as_str())
            .collect();
        for (custom_id, _) in values {
            assert!(inputs.contains(custom_id), "the modal has no input {custom_id:?}: {inputs:?}");
        }
        let submitted: Vec<Value> = rows
            .iter()
            .map(|row| {
                let inputs = row["components"].as_array().into_iter().flatten().map(|input| {
                    let value = values.iter().find(|(id, _)| input["custom_id"] == *id).map_or("", |(_, v)| v);
                    json!({ "type": 4, "custom_id": input["custom_id"], "value": value })
                });
                json!({ "type": 1, "components": inputs.collect::<Vec<_>>() })
            })
            .collect();
        let id = self.id();
        let mut payload = opened_by.payload.clone();
        payload["id"] = json!(id.to_string());
        payload["token"] = json!(format!("interaction-token-{id}"));
        payload["type"] = json!(5);
        payload["data"] = json!({ "custom_id": modal["custom_id"], "components": submitted });
        if let Some(message) = snowflake(&payload["message"]["id"]).and_then(|m| self.message(m)) {
            payload["message"] = lock(&self.shared.store).render(&message);
        }
        payload
    }
}

/// `payload` (from [`in_guild`]) as sent from thread `thread` of channel `parent`: a thread
/// people opened themselves, as Discord describes it.
#[must_use]
pub fn in_thread(mut payload: Value, parent: u64, thread: u64) -> Value {
    payload["channel_id"] = json!(thread.to_string());
    payload["channel"] = json!({
        "id": thread.to_string(), "type": 11, "name": "a thread", "parent_id": parent.to_string(),
        "thread_metadata": {
            "archived": false, "auto_archive_duration": 10080, "archive_timestamp": "2026-01-01T00:00:00.000000+00:00",
            "locked": false,
        },
    });
    payload
}

/// The bot's permissions in a server's channels, as `app_permissions` carries them: the member
/// permissions the fake gives everyone (viewing, sending in channels and threads, embedding
/// links and attaching files among them).
pub const BOT_PERMISSIONS: &str = "2248473465835073";

/// `payload` (from [`FakeDiscord::slash_command`], [`FakeDiscord::autocomplete`] or
/// [`FakeDiscord::component`]) as sent from a channel of `guild`: the user becomes a guild member,
/// as Discord sends it.
#[must_use]
pub fn in_guild(mut payload: Value, guild: u64, channel: u64) -> Value {
    let user = match payload.get_mut("user") {
        Some(user) => user.take(),
        None => payload["member"]["user"].take(),
    };
    let object = payload.as_object_mut().expect("an interaction object");
    object.remove("user");
    object.insert("guild_id".to_owned(), json!(guild.to_string()));
    object.insert("channel_id".to_owned(), json!(channel.to_string()));
    // Discord describes the channel too; a text channel's parent is its category, which the bot
    // must not take for a thread's parent channel.
    object.insert(
        "channel".to_owned(),
        json!({ "id": channel.to_string(), "type": 0, "name": "games", "parent_id": CATEGORY.to_string() }),
    );
    object.insert("guild_locale".to_owned(), json!("en-US"));
    object.insert("context".to_owned(), json!(0));
    // What the bot may do in the channel, as Discord computes it: everything a game needs
    // (a test that takes some away sets its own).
    object.insert("app_permissions".to_owned(), json!(BOT_PERMISSIONS));
    object.insert(
        "member".to_owned(),
        json!({
            "user": user,
            "roles": [],
            "joined_at": "2026-01-01T00:00:00.000000+00:00",
            "deaf": false,
            "mute": false,
            "flags": 0,
            "permissions": "2248473465835073",
        }),
    );
    payload
}

/// `payload` with the user's display name (`global_name`) set to `name`.
#[must_use]
pub fn with_name(mut payload: Value, name: &str) -> Value {
    if let Some(user) = payload.get_mut("user").filter(|u| u.is_object()) {
        user["global_name"] = json!(name);
    }
    if let Some(user) = payload.get_mut("member").and_then(|m| m.get_mut("user")).filter(|u| u.is_object()) {
        user["global_name"] = json!(name);
    }
    payload
}

fn user_json(id: u64, name: &str, bot: bool) -> Value {
    json!({
        "id": id.to_string(),
        "username": name,
        "discriminator": "0",
        "global_name": null,
        "avatar": null,
        "bot": bot,
    })
}

/// A server as `GUILD_CREATE` carries it, with nothing in it the bot reads.
fn guild_json(guild: u64) -> Value {
    json!({
        "id": guild.to_string(),
        "name": "Tafl club",
        "icon": null,
        "splash": null,
        "discovery_splash": null,
        "owner_id": "1",
        "afk_channel_id": null,
        "afk_timeout": 300,
        "verification_level": 0,
        "default_message_notifications": 0,
        "explicit_content_filter": 0,
        "roles": [],
        "emojis": [],
        "features": [],
        "mfa_level": 0,
        "application_id": null,
        "system_channel_id": null,
        "system_channel_flags": 0,
        "rules_channel_id": null,
        "premium_tier": 0,
        "preferred_locale": "en-US",
        "public_updates_channel_id": null,
        "nsfw_level": 0,
        "stickers": [],
        "premium_progress_bar_enabled": false,
        "joined_at": "2026-01-01T00:00:00.000000+00:00",
        "large": false,
        "member_count": 1,
        "voice_states": [],
        "members": [],
        "channels": [],
        "threads": [],
        "presences": [],
        "stage_instances": [],
        "guild_scheduled_events": [],
    })
}

fn bot_user() -> Value {
    user_json(APPLICATION_ID, "tafl", true)
}

/// A self-signed leaf certificate for `discord.com` (`CA:FALSE`: rustls refuses a CA certificate
/// as a server's own), as PEM for the bot to trust, and the TLS acceptor that presents it.
fn discord_com_certificate() -> (String, TlsAcceptor) {
    let key = rcgen::KeyPair::generate().expect("generate a key");
    let mut params = rcgen::CertificateParams::new(vec!["discord.com".to_owned()]).expect("certificate parameters");
    params.is_ca = rcgen::IsCa::ExplicitNoCa;
    let certificate = params.self_signed(&key).expect("self-sign the certificate");
    let private_key = PrivateKeyDer::Pkcs8(PrivatePkcs8KeyDer::from(key.serialize_der()));
    let provider = Arc::new(tokio_rustls::rustls::crypto::ring::default_provider());
    let mut config = tokio_rustls::rustls::ServerConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .expect("default TLS versions")
        .with_no_client_auth()
        .with_single_cert(vec![certificate.der().clone()], private_key)
        .expect("a usable certificate");
    // reqwest is built without HTTP/2, and hyper here serves HTTP/1.1 only.
    config.alpn_protocols = vec![b"http/1.1".to_vec()];
    (certificate.pem(), TlsAcceptor::from(Arc::new(config)))
}

async fn serve_rest(listener: TcpListener, tls: Option<TlsAcceptor>, shared: Arc<Shared>) {
    while let Ok((stream, _)) = listener.accept().await {
        // As Discord's servers do: without it, Nagle's algorithm and the client's delayed ACK
        // hold some small answers back by 40 ms.
        let _ = stream.set_nodelay(true);
        let shared = shared.clone();
        let tls = tls.clone();
        tokio::spawn(async move {
            match tls {
                None => serve_http(stream, shared).await,
                Some(tls) => {
                    if let Ok(stream) = tls.accept(stream).await {
                        serve_http(stream, shared).await;
                    }
                }
            }
        });
    }
}

async fn serve_http(stream: impl AsyncRead + AsyncWrite + Unpin + Send + 'static, shared: Arc<Shared>) {
    let service = hyper::service::service_fn(move |request| {
        let shared = shared.clone();
        async move { Ok::<_, Infallible>(handle_rest(&shared, request).await) }
    });
    // A connection the bot drops mid-request is its business, not the test's.
    let _ = hyper::server::conn::http1::Builder::new().serve_connection(TokioIo::new(stream), service).await;
}

async fn handle_rest(shared: &Shared, request: Request<Incoming>) -> Response<Full<Bytes>> {
    let method = request.method().to_string();
    let host = request.headers().get(hyper::header::HOST).and_then(|v| v.to_str().ok()).map(str::to_owned);
    let path = request.uri().path().to_owned();
    let query = request.uri().query().unwrap_or_default().to_owned();
    let content_type =
        request.headers().get(hyper::header::CONTENT_TYPE).and_then(|v| v.to_str().ok()).map(str::to_owned);
    let body = match request.into_body().collect().await {
        Ok(body) => body.to_bytes(),
        Err(_) => Bytes::new(),
    };
    let (json, parts) = match content_type.as_deref() {
        Some(ct) if ct.starts_with("multipart/form-data") => {
            let parts = ct.split("boundary=").nth(1).map(|b| multipart(&body, b.trim_matches('"'))).unwrap_or_default();
            let json =
                parts.iter().find(|p| p.name == "payload_json").and_then(|p| serde_json::from_slice(&p.data).ok());
            (json, parts)
        }
        _ => (serde_json::from_slice(&body).ok(), Vec::new()),
    };
    let mut recorded = Recorded { method, host, path, query, json, parts, status: 0, response: Value::Null };
    let mut fault = scripted_fault(shared, &recorded);
    if let Some(Fault::Slow { millis }) = fault {
        shared.slow_arrived.fetch_add(1, Ordering::Relaxed);
        shared.changed.notify_waiters();
        tokio::time::sleep(Duration::from_millis(millis)).await;
        fault = None;
    }
    // The request is logged under the lock held while its effect is made: a test that sees the
    // effect (a message in a channel) then finds the request in the log, not one request short.
    let mut log = lock(&shared.requests);
    let response = if let Some(fault) = fault {
        if let Fault::AppliedThenServerError(status) = fault {
            recorded.response = respond(shared, &recorded).1;
            fault_response(Fault::ServerError(status))
        } else {
            fault_response(fault)
        }
    } else {
        let (status, body) = respond(shared, &recorded);
        let response = if body.is_null() { no_content() } else { reply(status, &body) };
        recorded.response = body;
        response
    };
    recorded.status = response.status().as_u16();
    log.push(recorded);
    drop(log);
    shared.changed.notify_waiters();
    response
}

/// The first scripted fault that applies to `request`, used up by one.
fn scripted_fault(shared: &Shared, request: &Recorded) -> Option<Fault> {
    let mut faults = lock(&shared.faults);
    let rule = faults.iter_mut().find(|rule| rule.remaining > 0 && (rule.matches)(request))?;
    rule.remaining -= 1;
    Some(rule.fault)
}

fn fault_response(fault: Fault) -> Response<Full<Bytes>> {
    match fault {
        Fault::RateLimited { seconds } => {
            let body = json!({ "message": "You are being rate limited.", "retry_after": seconds, "global": false });
            let mut response = reply(StatusCode::TOO_MANY_REQUESTS, &body);
            let headers = response.headers_mut();
            let seconds =
                hyper::header::HeaderValue::from_str(&seconds.to_string()).expect("a number is a header value");
            headers.insert("retry-after", seconds.clone());
            headers.insert("x-ratelimit-reset-after", seconds);
            headers.insert("x-ratelimit-limit", hyper::header::HeaderValue::from_static("5"));
            headers.insert("x-ratelimit-remaining", hyper::header::HeaderValue::from_static("0"));
            headers.insert("x-ratelimit-scope", hyper::header::HeaderValue::from_static("user"));
            response
        }
        Fault::ServerError(status) | Fault::AppliedThenServerError(status) => {
            let status = StatusCode::from_u16(status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
            reply(status, &json!({ "message": "500: Internal Server Error", "code": 0 }))
        }
        Fault::Unauthorized => reply(StatusCode::UNAUTHORIZED, &json!({ "message": "401: Unauthorized", "code": 0 })),
        Fault::Refused { status, code } => {
            let status = StatusCode::from_u16(status).unwrap_or(StatusCode::FORBIDDEN);
            let (status, body) = discord_error(status, "Refused (fake Discord)", code);
            reply(status, &body)
        }
        Fault::Slow { .. } => unreachable!("a slow request is answered as usual, once it has waited"),
    }
}

/// A JSON answer; `Null` answers 204 without a body.
type Answer = (StatusCode, Value);

fn discord_error(status: StatusCode, message: &str, code: u64) -> Answer {
    (status, json!({ "message": message, "code": code }))
}

fn unknown_message() -> Answer {
    discord_error(StatusCode::NOT_FOUND, "Unknown Message", 10_008)
}

fn unknown_route() -> Answer {
    discord_error(StatusCode::NOT_FOUND, "404: Not Found (fake Discord)", 0)
}

/// The fake's answer to one request.
fn respond(shared: &Shared, request: &Recorded) -> Answer {
    let Some(route) = request.path.strip_prefix("/api/v10") else {
        return discord_error(StatusCode::NOT_FOUND, "404: Not Found", 0);
    };
    let segments: Vec<&str> = route.trim_start_matches('/').split('/').collect();
    let gateway_url = lock(&shared.gateway_url).clone();
    let body = request.json.clone().unwrap_or(Value::Null);
    if let Some(refused) = over_limits(&request.method, &segments, &body, &request.parts) {
        return refused;
    }
    let id = |text: &str| text.parse::<u64>().ok();
    match (request.method.as_str(), segments.as_slice()) {
        ("GET", ["gateway"]) => (StatusCode::OK, json!({ "url": gateway_url })),
        ("GET", ["gateway", "bot"]) => (
            StatusCode::OK,
            json!({
                "url": gateway_url,
                "shards": shared.shard_count.load(Ordering::Relaxed).max(1),
                "session_start_limit": { "total": 1000, "remaining": 999, "reset_after": 0, "max_concurrency": 1 },
            }),
        ),
        ("GET", ["users", "@me"]) => (StatusCode::OK, bot_user()),
        ("GET", ["oauth2", "applications", "@me"]) => (
            StatusCode::OK,
            json!({
                "id": APPLICATION_ID.to_string(),
                "name": "tafl",
                "icon": null,
                "description": "",
                "bot_public": true,
                "bot_require_code_grant": false,
                "owner": user_json(1_000_000_000_000_000_001, "owner", false),
                "verify_key": "00",
                "team": null,
                "flags": 0,
            }),
        ),
        // Registration: serenity parses the answer as the list of commands; an empty list is
        // enough for poise.
        ("PUT", ["applications", _, "commands"] | ["applications", _, "guilds", _, "commands"]) => {
            (StatusCode::OK, json!([]))
        }
        ("POST", ["users", "@me", "channels"]) => match snowflake(&body["recipient_id"]) {
            Some(user) => open_dm(shared, user),
            None => discord_error(StatusCode::BAD_REQUEST, "Invalid Form Body", 50_035),
        },
        ("POST", ["channels", channel, "messages"]) => match id(channel) {
            Some(channel) if lock(&shared.store).deleted_channels.contains(&channel) => {
                discord_error(StatusCode::NOT_FOUND, "Unknown Channel", 10_003)
            }
            Some(channel) => {
                let mut store = lock(&shared.store);
                if let Some(refused) = store.closed_thread(channel) {
                    return refused;
                }
                // Sending a message unarchives a thread that is not locked.
                store.archived.remove(&channel);
                let nonce = match &body["nonce"] {
                    Value::String(text) => Some(text.clone()),
                    Value::Number(number) => Some(number.to_string()),
                    _ => None,
                }
                .filter(|_| body["enforce_nonce"] == true);
                if let Some(existing) = nonce.as_ref().and_then(|n| store.nonces.get(n)).copied()
                    && let Some(message) = store.message(existing).cloned()
                {
                    return (StatusCode::OK, store.render(&message));
                }
                // A channel message cannot be ephemeral; Discord keeps only these flags.
                let flags = body["flags"].as_u64().unwrap_or(0) & (4 | 4096);
                let created = create_message(shared, &mut store, channel, &body, &request.parts, flags, None);
                if let Some(nonce) = nonce {
                    store.nonces.insert(nonce, created.id);
                }
                (StatusCode::OK, store.render(&created))
            }
            None => unknown_route(),
        },
        (method @ ("GET" | "PATCH" | "DELETE"), ["channels", channel, "messages", message]) => {
            match (id(channel), id(message)) {
                (Some(channel), Some(message)) => {
                    let mut store = lock(&shared.store);
                    if method == "PATCH"
                        && let Some(refused) = store.closed_to_edits(channel)
                    {
                        return refused;
                    }
                    // Ephemeral messages exist only for their interaction's webhook.
                    if store.message_mut(message).is_some_and(|m| m.channel_id == channel && !m.is_ephemeral()) {
                        store.message_verb(shared, message, method, &body, &request.parts)
                    } else {
                        unknown_message()
                    }
                }
                _ => unknown_route(),
            }
        }
        ("GET", ["channels", channel]) => match id(channel) {
            Some(channel) => get_channel(shared, channel),
            None => unknown_route(),
        },
        ("GET", ["channels", channel, "messages"]) => match id(channel) {
            Some(channel) => list_messages(shared, channel, &request.query),
            None => unknown_route(),
        },
        ("PATCH", ["channels", channel]) => match id(channel) {
            Some(channel) => modify_thread(shared, channel, &body),
            None => unknown_route(),
        },
        ("POST", ["channels", channel, "messages", message, "threads"]) => match (id(channel), id(message)) {
            (Some(channel), Some(message)) => create_thread(shared, channel, Some(message), &body),
            _ => unknown_route(),
        },
        ("POST", ["channels", channel, "threads"]) => match id(channel) {
            Some(channel) => create_thread(shared, channel, None, &body),
            None => unknown_route(),
        },
        ("POST", ["interactions", _, token, "callback"]) => callback(shared, token, &body, &request.parts),
        ("POST", ["webhooks", _, token]) => follow_up(shared, token, &body, &request.parts),
        (method @ ("GET" | "PATCH" | "DELETE"), ["webhooks", _, token, "messages", which]) => {
            let mut store = lock(&shared.store);
            let Some(pending) = store.interactions.get(*token).filter(|p| p.acknowledged).cloned() else {
                return discord_error(StatusCode::NOT_FOUND, "Unknown Webhook", 10_015);
            };
            let target = if *which == "@original" { pending.original } else { id(which) };
            let owned = |m: &StoredMessage| {
                Some(m.id) == pending.original || (m.interaction == Some(pending.id) && m.channel_id == pending.channel)
            };
            match target.filter(|t| store.message_mut(*t).is_some_and(|m| owned(m))) {
                Some(target) => store.message_verb(shared, target, method, &body, &request.parts),
                None => unknown_message(),
            }
        }
        _ => unknown_route(),
    }
}

/// Discord's refusal of a body over one of its limits ([`crate::discord_limits`]) on the routes
/// that carry messages, autocomplete choices, modals and thread names.
fn over_limits(method: &str, segments: &[&str], body: &Value, parts: &[Part]) -> Option<Answer> {
    let new_message =
        |body: &Value, prefix: &str| limits::not_empty(body, parts).and_then(|()| limits::message(body, prefix, parts));
    let checked = match (method, segments) {
        ("POST", ["channels", _, "messages"] | ["webhooks", _, _]) => new_message(body, ""),
        ("PATCH", ["channels", _, "messages", _] | ["webhooks", _, _, "messages", _]) => {
            limits::message(body, "", parts)
        }
        ("POST", ["interactions", _, _, "callback"]) => match body["type"].as_u64() {
            Some(4) => new_message(&body["data"], "data"),
            Some(5 | 7) => limits::message(&body["data"], "data", parts),
            Some(8) => limits::choices(&body["data"]),
            Some(9) => limits::modal(&body["data"]),
            _ => Ok(()),
        },
        ("POST", ["channels", _, "threads"] | ["channels", _, "messages", _, "threads"]) => limits::thread(body),
        _ => Ok(()),
    };
    let (status, answer) = checked.err()?.answer();
    Some((StatusCode::from_u16(status).unwrap_or(StatusCode::BAD_REQUEST), answer))
}

/// The files of a multipart body (`files[n]` parts), each with its index `n` and as Discord
/// stores it: a new attachment id, and the filename the JSON `attachments` entry gives it.
fn uploads(shared: &Shared, body: &Value, parts: &[Part]) -> Vec<(u64, StoredAttachment)> {
    parts
        .iter()
        .filter_map(|part| {
            let index: u64 = part.name.strip_prefix("files[")?.strip_suffix(']')?.parse().ok()?;
            let described = body["attachments"]
                .as_array()
                .into_iter()
                .flatten()
                .find(|entry| snowflake(&entry["id"]) == Some(index))
                .and_then(|entry| entry["filename"].as_str());
            let filename = described.or(part.filename.as_deref()).unwrap_or("file").to_owned();
            Some((index, StoredAttachment { id: shared.id(), filename, data: Bytes::from(part.data.clone()) }))
        })
        .collect()
}

/// Discord's attachment rule: a JSON `attachments` array lists what the message keeps, old
/// attachments by id and new uploads by their part index; without the key, uploads are added to
/// what the message had.
fn attachments_after(
    old: &[StoredAttachment],
    body: &Value,
    mut uploads: Vec<(u64, StoredAttachment)>,
) -> Vec<StoredAttachment> {
    let Some(listed) = body.get("attachments").and_then(Value::as_array) else {
        return old.iter().cloned().chain(uploads.into_iter().map(|(_, a)| a)).collect();
    };
    let mut kept = Vec::new();
    for entry in listed {
        let Some(id) = snowflake(&entry["id"]) else { continue };
        if let Some(existing) = old.iter().find(|a| a.id == id) {
            kept.push(existing.clone());
        } else if let Some(at) = uploads.iter().position(|(index, _)| *index == id) {
            kept.push(uploads.remove(at).1);
        }
    }
    // An upload the array forgot is still attached.
    kept.extend(uploads.into_iter().map(|(_, a)| a));
    kept
}

fn create_message(
    shared: &Shared,
    store: &mut Store,
    channel: u64,
    body: &Value,
    parts: &[Part],
    flags: u64,
    interaction: Option<u64>,
) -> StoredMessage {
    let list = |name: &str| body[name].as_array().cloned().unwrap_or_default();
    let message = StoredMessage {
        id: shared.id(),
        channel_id: channel,
        content: body["content"].as_str().unwrap_or_default().to_owned(),
        embeds: list("embeds"),
        components: list("components"),
        attachments: attachments_after(&[], body, uploads(shared, body, parts)),
        flags,
        edits: 0,
        deleted: false,
        interaction,
        allowed_mentions: body.get("allowed_mentions").cloned(),
        created_ms: unix_ms(),
    };
    store.index.insert(message.id, store.messages.len());
    store.messages.push(message.clone());
    message
}

/// An edit: the fields present replace the old ones. New content without `allowed_mentions`
/// has its mentions parsed as Discord's default does.
fn edit_message(shared: &Shared, stored: &mut StoredMessage, body: &Value, parts: &[Part]) {
    if let Some(content) = body.get("content") {
        content.as_str().unwrap_or_default().clone_into(&mut stored.content);
        stored.allowed_mentions = None;
    }
    if let Some(allowed) = body.get("allowed_mentions") {
        stored.allowed_mentions = Some(allowed.clone());
    }
    if let Some(embeds) = body.get("embeds") {
        stored.embeds = embeds.as_array().cloned().unwrap_or_default();
    }
    if let Some(components) = body.get("components") {
        stored.components = components.as_array().cloned().unwrap_or_default();
    }
    stored.attachments = attachments_after(&stored.attachments, body, uploads(shared, body, parts));
    stored.flags &= !LOADING;
    stored.edits += 1;
}

/// `POST /interactions/{id}/{token}/callback`.
fn callback(shared: &Shared, token: &str, body: &Value, parts: &[Part]) -> Answer {
    let mut store = lock(&shared.store);
    let Some(mut pending) = store.interactions.get(token).cloned() else {
        return discord_error(StatusCode::NOT_FOUND, "Unknown interaction", 10_062);
    };
    if pending.acknowledged {
        return discord_error(StatusCode::BAD_REQUEST, "Interaction has already been acknowledged.", 40_060);
    }
    let data = &body["data"];
    match body["type"].as_u64() {
        Some(kind @ (4 | 5)) => {
            let mut flags = data["flags"].as_u64().unwrap_or(0) & (EPHEMERAL | 4 | 4096);
            if kind == 5 {
                flags |= LOADING;
            }
            let created = create_message(shared, &mut store, pending.channel, data, parts, flags, Some(pending.id));
            pending.original = Some(created.id);
        }
        // After a deferred update or an update, `@original` is the component's message.
        Some(kind @ (6 | 7)) => {
            let Some(message) = pending.message else {
                return discord_error(
                    StatusCode::BAD_REQUEST,
                    "Invalid Form Body (not a component interaction)",
                    50_035,
                );
            };
            if kind == 7 {
                let Some(stored) = store.message_mut(message) else { return unknown_message() };
                edit_message(shared, stored, data, parts);
            }
            pending.original = Some(message);
        }
        Some(8) => {
            let choices = data["choices"].as_array().into_iter().flatten();
            let choices = choices.map(|c| (str_of(&c["name"]), str_of(&c["value"]))).collect();
            store.choices.insert(pending.id, choices);
        }
        Some(9) => {
            store.modals.insert(pending.id, data.clone());
        }
        _ => return discord_error(StatusCode::BAD_REQUEST, "Invalid Form Body", 50_035),
    }
    pending.acknowledged = true;
    pending.answered_at = Some(std::time::Instant::now());
    pending.answered.notify_waiters();
    store.interactions.insert(token.to_owned(), pending);
    (StatusCode::NO_CONTENT, Value::Null)
}

/// `POST /webhooks/{app}/{token}`: a follow-up message. Right after a deferred answer it fills
/// the "thinking" original instead, as Discord does for backwards compatibility.
fn follow_up(shared: &Shared, token: &str, body: &Value, parts: &[Part]) -> Answer {
    let mut store = lock(&shared.store);
    let Some(pending) = store.interactions.get(token).filter(|p| p.acknowledged).cloned() else {
        return discord_error(StatusCode::NOT_FOUND, "Unknown Webhook", 10_015);
    };
    if let Some(thinking) = pending.original.and_then(|o| store.message_mut(o)).filter(|m| m.flags & LOADING != 0) {
        edit_message(shared, thinking, body, parts);
        let filled = thinking.clone();
        return (StatusCode::OK, store.render(&filled));
    }
    let flags = body["flags"].as_u64().unwrap_or(0) & (EPHEMERAL | 4 | 4096);
    let created = create_message(shared, &mut store, pending.channel, body, parts, flags, Some(pending.id));
    (StatusCode::OK, store.render(&created))
}

fn create_thread(shared: &Shared, parent: u64, message: Option<u64>, body: &Value) -> Answer {
    let mut store = lock(&shared.store);
    if let Some(message) = message {
        if store.message_mut(message).is_none_or(|m| m.channel_id != parent) {
            return unknown_message();
        }
        if store.threads.iter().any(|t| t.message_id == Some(message)) {
            return discord_error(
                StatusCode::BAD_REQUEST,
                "A thread has already been created for this message",
                160_004,
            );
        }
    }
    let Some(name) = body["name"].as_str().filter(|n| !n.is_empty()) else {
        return discord_error(StatusCode::BAD_REQUEST, "Invalid Form Body", 50_035);
    };
    // Discord gives a thread started from a message the message's id, and makes a thread without
    // one private unless told otherwise.
    let id = message.unwrap_or_else(|| shared.id());
    let kind = body["type"].as_u64().unwrap_or(if message.is_some() { 11 } else { 12 });
    let guild = store.guild_of(parent).unwrap_or(GUILD);
    store.guilds.insert(id, guild);
    let thread = Thread { id, parent_id: parent, name: name.to_owned(), message_id: message, kind };
    store.threads.push(thread);
    let archive = body["auto_archive_duration"].as_u64().unwrap_or(4320);
    (
        StatusCode::CREATED,
        json!({
            "id": id.to_string(),
            "type": kind,
            "guild_id": guild.to_string(),
            "parent_id": parent.to_string(),
            "name": name,
            "owner_id": APPLICATION_ID.to_string(),
            "last_message_id": null,
            "rate_limit_per_user": body["rate_limit_per_user"].as_u64().unwrap_or(0),
            "message_count": 0,
            "member_count": 1,
            "total_message_sent": 0,
            "flags": 0,
            "thread_metadata": {
                "archived": false,
                "auto_archive_duration": archive,
                "archive_timestamp": TIMESTAMP,
                "locked": false,
                "create_timestamp": TIMESTAMP,
            },
        }),
    )
}

/// `PATCH /channels/{id}` (Modify Channel) for a thread: only `archived: false` is modelled, as
/// the bot sends it to reopen an archived thread before editing a message there. Discord refuses
/// it in a locked thread to a member without Manage Threads, and in a deleted one.
fn modify_thread(shared: &Shared, channel: u64, body: &Value) -> Answer {
    let mut store = lock(&shared.store);
    if store.deleted_channels.contains(&channel) {
        return discord_error(StatusCode::NOT_FOUND, "Unknown Channel", 10_003);
    }
    if store.locked.contains(&channel) {
        return discord_error(StatusCode::FORBIDDEN, "Thread is locked", 160_005);
    }
    if body["archived"] == false {
        store.archived.remove(&channel);
    }
    let known = store.threads.iter().find(|t| t.id == channel).cloned();
    let (parent, name, kind) = known.map_or((None, "thread".to_owned(), 11), |t| (Some(t.parent_id), t.name, t.kind));
    let guild = store.guild_of(channel).unwrap_or(GUILD);
    (
        StatusCode::OK,
        json!({
            "id": channel.to_string(),
            "type": kind,
            "guild_id": guild.to_string(),
            "parent_id": parent.map(|p| p.to_string()),
            "name": name,
            "owner_id": APPLICATION_ID.to_string(),
            "last_message_id": null,
            "rate_limit_per_user": 0,
            "message_count": 0,
            "member_count": 1,
            "total_message_sent": 0,
            "flags": 0,
            "thread_metadata": {
                "archived": store.archived.contains(&channel),
                "auto_archive_duration": 10_080,
                "archive_timestamp": TIMESTAMP,
                "locked": false,
                "create_timestamp": TIMESTAMP,
            },
        }),
    )
}

/// `GET /channels/{id}`: a thread the fake knows, or else a text channel of [`GUILD`] (a DM
/// channel for one the fake opened); Discord's "Unknown Channel" for a deleted one.
fn get_channel(shared: &Shared, channel: u64) -> Answer {
    let store = lock(&shared.store);
    if store.deleted_channels.contains(&channel) {
        return discord_error(StatusCode::NOT_FOUND, "Unknown Channel", 10_003);
    }
    if let Some(thread) = store.threads.iter().find(|t| t.id == channel) {
        let guild = store.guild_of(channel).unwrap_or(GUILD);
        return (
            StatusCode::OK,
            json!({
                "id": channel.to_string(), "type": thread.kind, "guild_id": guild.to_string(),
                "parent_id": thread.parent_id.to_string(), "name": thread.name,
                "owner_id": APPLICATION_ID.to_string(), "rate_limit_per_user": 0, "flags": 0,
                "thread_metadata": {
                    "archived": store.archived.contains(&channel), "auto_archive_duration": 10_080,
                    "archive_timestamp": TIMESTAMP, "locked": store.locked.contains(&channel),
                },
            }),
        );
    }
    if let Some((&user, _)) = store.dms.iter().find(|&(_, &dm)| dm == channel) {
        let recipient = user_json(user, &format!("player{user}"), false);
        return (
            StatusCode::OK,
            json!({ "id": channel.to_string(), "type": 1, "flags": 0, "recipients": [recipient] }),
        );
    }
    let guild = store.guild_of(channel).unwrap_or(GUILD);
    (
        StatusCode::OK,
        json!({
            "id": channel.to_string(), "guild_id": guild.to_string(), "type": 0, "name": "games",
            "position": 0, "permission_overwrites": [], "nsfw": false, "parent_id": null,
        }),
    )
}

/// `GET /channels/{id}/messages` with Discord's `limit` (default 50, at most 100) and one of
/// `after` (the messages just after that id, or made after the moment of a snowflake that is no
/// id of the fake's) or `before`; newest first, as Discord lists them. Deleted and ephemeral
/// messages are not listed.
fn list_messages(shared: &Shared, channel: u64, query: &str) -> Answer {
    let store = lock(&shared.store);
    if store.deleted_channels.contains(&channel) {
        return discord_error(StatusCode::NOT_FOUND, "Unknown Channel", 10_003);
    }
    let param =
        |name: &str| query.split('&').find_map(|pair| pair.strip_prefix(name)?.strip_prefix('=')?.parse::<u64>().ok());
    let limit = param("limit").unwrap_or(50).clamp(1, 100) as usize;
    if store.history_denied.contains(&channel) {
        return (StatusCode::OK, Value::Array(Vec::new()));
    }
    let mut listed: Vec<&StoredMessage> =
        store.messages.iter().filter(|m| m.channel_id == channel && !m.deleted && !m.is_ephemeral()).collect();
    listed.sort_by_key(|m| m.id);
    // An id the fake made is compared as an id; any other as the snowflake of a moment (what
    // Discord's ids are), compared with when each message was made.
    let known = |id: u64| store.index.contains_key(&id);
    let listed: Vec<&StoredMessage> = match (param("after"), param("before")) {
        (Some(after), _) if known(after) => listed.into_iter().filter(|m| m.id > after).take(limit).collect(),
        (Some(after), _) => {
            let since_ms = (after >> 22) as i64 + DISCORD_EPOCH_MS;
            listed.into_iter().filter(|m| m.created_ms > since_ms).take(limit).collect()
        }
        (None, Some(before)) => {
            let older: Vec<_> = listed.into_iter().filter(|m| m.id < before).collect();
            older[older.len().saturating_sub(limit)..].to_vec()
        }
        (None, None) => listed[listed.len().saturating_sub(limit)..].to_vec(),
    };
    let rendered: Vec<Value> = listed.into_iter().rev().map(|m| store.render(m)).collect();
    (StatusCode::OK, Value::Array(rendered))
}

fn open_dm(shared: &Shared, user: u64) -> Answer {
    let mut store = lock(&shared.store);
    let channel = *store.dms.entry(user).or_insert_with(|| shared.id());
    store.dm_channels.insert(channel);
    (
        StatusCode::OK,
        json!({
            "id": channel.to_string(),
            "type": 1,
            "last_message_id": null,
            "flags": 0,
            "recipients": [user_json(user, &format!("player{user}"), false)],
        }),
    )
}

const TIMESTAMP: &str = "2026-01-01T00:00:00.000000+00:00";

/// Discord's epoch (the first second of 2015) in unix milliseconds, from which snowflakes count.
const DISCORD_EPOCH_MS: i64 = 1_420_070_400_000;

fn unix_ms() -> i64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_millis() as i64)
}

/// `ms` (unix milliseconds) as Discord writes a message's `timestamp`.
fn timestamp(ms: i64) -> String {
    tafl_bot::discord::serenity::Timestamp::from_unix_timestamp(ms / 1000)
        .map_or_else(|_| TIMESTAMP.to_owned(), |at| at.to_string())
}

/// A message as Discord returns it.
fn message_json(message: &StoredMessage, metadata: Option<&Value>) -> Value {
    let attachments: Vec<Value> = message
        .attachments
        .iter()
        .map(|a| {
            let url = format!("https://cdn.discordapp.com/attachments/{}/{}/{}", message.channel_id, a.id, a.filename);
            let content_type = match a.filename.rsplit('.').next() {
                Some("png") => "image/png",
                Some("gif") => "image/gif",
                Some("txt") => "text/plain; charset=utf-8",
                _ => "application/octet-stream",
            };
            json!({
                "id": a.id.to_string(),
                "filename": a.filename,
                "size": a.data.len(),
                "url": url,
                "proxy_url": url.replace("cdn.discordapp.com", "media.discordapp.net"),
                "content_type": content_type,
            })
        })
        .collect();
    let mut json = json!({
        "id": message.id.to_string(),
        "channel_id": message.channel_id.to_string(),
        "author": bot_user(),
        "content": message.content,
        "timestamp": timestamp(message.created_ms),
        "edited_timestamp": if message.edits > 0 { json!("2026-01-01T00:00:01.000000+00:00") } else { Value::Null },
        "tts": false,
        "mention_everyone": false,
        "mentions": [],
        "mention_roles": [],
        "attachments": attachments,
        "embeds": message.embeds,
        "components": message.components,
        "pinned": false,
        "type": 0,
        "flags": message.flags,
    });
    if message.interaction.is_some() {
        json["application_id"] = json!(APPLICATION_ID.to_string());
        json["webhook_id"] = json!(APPLICATION_ID.to_string());
    }
    if let Some(metadata) = metadata {
        json["interaction_metadata"] = metadata.clone();
    }
    json
}

fn reply(status: StatusCode, body: &Value) -> Response<Full<Bytes>> {
    let mut response = Response::new(Full::new(Bytes::from(body.to_string())));
    *response.status_mut() = status;
    response
        .headers_mut()
        .insert(hyper::header::CONTENT_TYPE, hyper::header::HeaderValue::from_static("application/json"));
    response
}

fn no_content() -> Response<Full<Bytes>> {
    let mut response = Response::new(Full::new(Bytes::new()));
    *response.status_mut() = StatusCode::NO_CONTENT;
    response
}

/// Splits a `multipart/form-data` body into its parts (enough of RFC 7578 for what reqwest writes).
#[must_use]
pub fn multipart(body: &[u8], boundary: &str) -> Vec<Part> {
    let delimiter = format!("--{boundary}");
    let mut parts = Vec::new();
    let mut sections = split(body, delimiter.as_bytes());
    // Whatever precedes the first delimiter is preamble.
    sections.pop_front();
    for section in sections {
        if section.starts_with(b"--") {
            break;
        }
        let section = section.strip_prefix(b"\r\n").unwrap_or(section);
        let section = section.strip_suffix(b"\r\n").unwrap_or(section);
        let Some(split_at) = find(section, b"\r\n\r\n") else { continue };
        let headers = String::from_utf8_lossy(&section[..split_at]);
        let data = section[split_at + 4..].to_vec();
        let mut part = Part { name: String::new(), filename: None, content_type: None, data };
        for header in headers.split("\r\n") {
            let Some((key, value)) = header.split_once(':') else { continue };
            match key.trim().to_ascii_lowercase().as_str() {
                "content-disposition" => {
                    for param in value.split(';').map(str::trim) {
                        if let Some(name) = param.strip_prefix("name=") {
                            name.trim_matches('"').clone_into(&mut part.name);
                        } else if let Some(filename) = param.strip_prefix("filename=") {
                            part.filename = Some(filename.trim_matches('"').to_owned());
                        }
                    }
                }
                "content-type" => part.content_type = Some(value.trim().to_owned()),
                _ => {}
            }
        }
        parts.push(part);
    }
    parts
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    memchr::memmem::find(haystack, needle)
}

fn split<'a>(mut body: &'a [u8], delimiter: &[u8]) -> VecDeque<&'a [u8]> {
    let mut sections = VecDeque::new();
    let finder = memchr::memmem::Finder::new(delimiter);
    while let Some(at) = finder.find(body) {
        sections.push_back(&body[..at]);
        body = &body[at + delimiter.len()..];
    }
    sections.push_back(body);
    sections
}

async fn serve_gateway(listener: TcpListener, shared: Arc<Shared>) {
    while let Ok((stream, _)) = listener.accept().await {
        if shared.gateway_away.load(Ordering::Relaxed) {
            drop(stream);
            continue;
        }
        // Events are small frames written as they come: send them at once (see `serve_rest`).
        let _ = stream.set_nodelay(true);
        tokio::spawn(gateway_session(stream, shared.clone()));
    }
}

/// Closes a gateway session with `code`, as Discord does, and waits (at most 2 s) for the bot's
/// side of the closing handshake. Dropping the socket at once could reset the connection while
/// a frame of the bot's (a heartbeat) lay unread, and a reset can reach the bot before the close
/// frame does: it would then see a dropped connection and reconnect instead of reading the code.
async fn close<Sink, Source>(sink: &mut Sink, source: &mut Source, code: u16, reason: &'static str)
where
    Sink: futures_util::Sink<Message> + Unpin,
    Source: futures_util::Stream<Item = Result<Message, tokio_tungstenite::tungstenite::Error>> + Unpin,
{
    let frame = tokio_tungstenite::tungstenite::protocol::CloseFrame { code: code.into(), reason: reason.into() };
    if sink.send(Message::Close(Some(frame))).await.is_err() {
        return;
    }
    let drained = async {
        while let Some(Ok(message)) = source.next().await {
            if message.is_close() {
                break;
            }
        }
    };
    let _ = tokio::time::timeout(Duration::from_secs(2), drained).await;
}

/// One websocket session: Hello, then READY after Identify, heartbeat acks, and whatever the
/// test pushes, until the test drops it. A Resume is accepted (`RESUMED`).
async fn gateway_session(stream: TcpStream, shared: Arc<Shared>) {
    let Ok(socket) = tokio_tungstenite::accept_async(stream).await else { return };
    let (mut sink, mut source) = socket.split();
    let (outbox, mut inbox) = mpsc::unbounded_channel::<Outgoing>();
    let hello = json!({ "op": 10, "d": { "heartbeat_interval": 41_250 } });
    if sink.send(Message::Text(hello.to_string())).await.is_err() {
        return;
    }
    let mut sequence = 0_u64;
    loop {
        tokio::select! {
            incoming = source.next() => {
                let Some(Ok(message)) = incoming else { break };
                let Ok(text) = message.to_text() else { continue };
                let Ok(frame) = serde_json::from_str::<Value>(text) else { continue };
                let answer = match frame["op"].as_u64() {
                    Some(1) => Some(json!({ "op": 11 })),
                    Some(2) if shared.reject_identify.load(Ordering::Relaxed) => {
                        shared.identifies.fetch_add(1, Ordering::Relaxed);
                        close(&mut sink, &mut source, 4004, "Authentication failed.").await;
                        shared.changed.notify_waiters();
                        break;
                    }
                    Some(2) => {
                        let named = &frame["d"]["shard"];
                        let (id, count) = (named[0].as_u64().unwrap_or(0), named[1].as_u64().unwrap_or(1));
                        if id >= count {
                            // As Discord answers a shard that is not one of the count.
                            shared.identifies.fetch_add(1, Ordering::Relaxed);
                            close(&mut sink, &mut source, 4010, "Invalid shard.").await;
                            shared.changed.notify_waiters();
                            break;
                        }
                        if count < shared.shards_required.load(Ordering::Relaxed) {
                            shared.identifies.fetch_add(1, Ordering::Relaxed);
                            close(&mut sink, &mut source, 4011, "Sharding required.").await;
                            shared.changed.notify_waiters();
                            break;
                        }
                        let removed = lock(&shared.removed).clone();
                        let guilds: Vec<u64> = std::iter::once(GUILD)
                            .chain(lock(&shared.guilds).iter().copied())
                            .filter(|guild| !removed.contains(guild) && shard_of(Some(*guild), count) == id)
                            .collect();
                        // As Discord does, each server READY lists comes in a GUILD_CREATE of its
                        // own after it (queued before the session is listed, so first).
                        for guild in &guilds {
                            let create = json!({ "op": 0, "t": "GUILD_CREATE", "s": null, "d": guild_json(*guild) });
                            let _ = outbox.send(Outgoing::Event(create.to_string()));
                        }
                        lock(&shared.sessions).push(Session { shard: (id, count), outbox: outbox.clone() });
                        // Counted once the session takes events: a test that waits for the
                        // connection and then pushes an interaction found no session at times.
                        shared.identifies.fetch_add(1, Ordering::Relaxed);
                        Some(ready(&lock(&shared.gateway_url), (id, count), &guilds))
                    }
                    // Nothing is missed while a test is not pushing, so a resume replays nothing.
                    // The session id names the shard it was (see `ready`).
                    Some(6) => {
                        let session = frame["d"]["session_id"].as_str().unwrap_or_default();
                        let mut parts = session.strip_prefix("fake-session-").unwrap_or("0-1").split('-');
                        let mut next = || parts.next().and_then(|n| n.parse::<u64>().ok());
                        let resumed = (next().unwrap_or(0), next().unwrap_or(1));
                        lock(&shared.sessions).push(Session { shard: resumed, outbox: outbox.clone() });
                        shared.resumes.fetch_add(1, Ordering::Relaxed);
                        Some(json!({ "op": 0, "t": "RESUMED", "d": {} }))
                    }
                    _ => None,
                };
                if let Some(mut answer) = answer {
                    if answer["op"] == 0 {
                        sequence += 1;
                        answer["s"] = json!(sequence);
                    }
                    if sink.send(Message::Text(answer.to_string())).await.is_err() {
                        break;
                    }
                    shared.changed.notify_waiters();
                }
            }
            outgoing = inbox.recv() => {
                let Some(Outgoing::Event(text)) = outgoing else { break };
                let mut event: Value = serde_json::from_str(&text).expect("pushed events are JSON");
                sequence += 1;
                event["s"] = json!(sequence);
                if sink.send(Message::Text(event.to_string())).await.is_err() {
                    break;
                }
            }
        }
    }
}

/// `READY` for shard `id` of `count`, listing `guilds` as Discord does: unavailable until their
/// `GUILD_CREATE`, which follows.
fn ready(gateway_url: &str, (id, count): (u64, u64), guilds: &[u64]) -> Value {
    let guilds: Vec<Value> =
        guilds.iter().map(|guild| json!({ "id": guild.to_string(), "unavailable": true })).collect();
    json!({
        "op": 0,
        "t": "READY",
        "s": 1,
        "d": {
            "v": 10,
            "user": bot_user(),
            "guilds": guilds,
            "session_id": format!("fake-session-{id}-{count}"),
            "resume_gateway_url": gateway_url,
            "shard": [id, count],
            "application": { "id": APPLICATION_ID.to_string(), "flags": 0 },
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stored(content: &str, allowed_mentions: Option<Value>) -> StoredMessage {
        StoredMessage {
            id: 1,
            channel_id: 2,
            content: content.to_owned(),
            embeds: Vec::new(),
            components: Vec::new(),
            attachments: Vec::new(),
            flags: 0,
            edits: 0,
            deleted: false,
            interaction: None,
            allowed_mentions,
            created_ms: 0,
        }
    }

    #[test]
    fn without_allowed_mentions_every_mention_pings() {
        let pings = stored("<@5> and <@!3>, <@&7>, <@5> @here", None).pings();
        assert_eq!(pings, Pings { users: vec![3, 5], roles: vec![7], everyone: true });
        // Not mentions: no closing bracket, no digits.
        assert_eq!(stored("<@5 <@> <@&>", None).pings(), Pings::default());
    }

    #[test]
    fn allowed_mentions_let_through_only_what_they_name() {
        let content = "<@5>, <@6>, <@&7> @everyone";
        let listed = Some(json!({ "parse": [], "users": ["5"] }));
        assert_eq!(stored(content, listed).pings(), Pings { users: vec![5], roles: vec![], everyone: false });
        let nothing = Some(json!({ "parse": [] }));
        assert_eq!(stored(content, nothing).pings(), Pings::default());
        let all = Some(json!({ "parse": ["users", "roles", "everyone"] }));
        assert_eq!(stored(content, all.clone()).pings(), Pings { users: vec![5, 6], roles: vec![7], everyone: true });
        let private = StoredMessage { flags: EPHEMERAL, ..stored(content, all) };
        assert_eq!(private.pings(), Pings::default(), "only the interaction's user sees it");
    }

    #[test]
    fn multipart_bodies_split_into_named_parts() {
        let body = b"--XyZ\r\nContent-Disposition: form-data; name=\"payload_json\"\r\n\r\n{\"a\":1}\r\n\
--XyZ\r\nContent-Disposition: form-data; name=\"files[0]\"; filename=\"board.png\"\r\nContent-Type: image/png\r\n\r\n\x89PNG\r\n--XyZ--\r\n";
        let parts = multipart(body, "XyZ");
        assert_eq!(parts.len(), 2);
        assert_eq!(parts[0].name, "payload_json");
        assert_eq!(parts[0].data, b"{\"a\":1}");
        assert_eq!(parts[1].filename.as_deref(), Some("board.png"));
        assert_eq!(parts[1].content_type.as_deref(), Some("image/png"));
        assert_eq!(parts[1].data, b"\x89PNG");
    }
}
