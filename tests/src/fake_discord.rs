//! A fake Discord on loopback: the REST routes the bot calls and a gateway that pushes the
//! interactions a test chooses. Every REST request is recorded (method, path, JSON body, multipart
//! parts) so tests assert on what the bot really sent, through serenity's real HTTP and gateway
//! code.
//!
//! Start-up as serenity 0.12.5 and poise 0.7.1 do it: `GET /gateway` (the gateway URL), the
//! websocket (Hello, Identify, READY), `GET /oauth2/applications/@me` (poise looks up the owners),
//! then `PUT /applications/{app}/commands` or `PUT /applications/{app}/guilds/{guild}/commands`.

use std::collections::VecDeque;
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

/// The fake application's id, also the id of its bot user.
pub const APPLICATION_ID: u64 = 1_100_000_000_000_000_001;
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
    /// The JSON body, or the `payload_json` part of a multipart body.
    pub json: Option<Value>,
    /// The parts of a `multipart/form-data` body (attachments), in order.
    pub parts: Vec<Part>,
    /// What the fake answered; 404 marks a route the fake does not know yet.
    pub status: u16,
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
}

impl Interaction {
    /// `POST /interactions/{id}/{token}/callback`: the bot's first answer.
    #[must_use]
    pub fn callback_path(&self) -> String {
        format!("/api/v10/interactions/{}/{}/callback", self.id, self.token)
    }
}

/// A scripted failure for REST requests (see [`FakeDiscord::fail_next`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Fault {
    /// 429 with `Retry-After` and `X-RateLimit-Reset-After` of `seconds`, as Discord answers a
    /// request over its bucket's limit.
    RateLimited { seconds: f64 },
    /// A server error (500, 502, 503…) with Discord's JSON error body.
    ServerError(u16),
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
    /// The outboxes of the open gateway sessions that have identified.
    sessions: Mutex<Vec<mpsc::UnboundedSender<Outgoing>>>,
    identifies: AtomicU64,
    resumes: AtomicU64,
    faults: Mutex<Vec<FaultRule>>,
    next_id: AtomicU64,
    gateway_url: Mutex<String>,
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
        self.requests().into_iter().filter(|r| r.status == 404).collect()
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
        let deadline = tokio::time::Instant::now() + PATIENCE;
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

    /// Delivers `INTERACTION_CREATE` with `payload` (see [`slash_command`]) to every identified
    /// gateway session.
    #[must_use = "the interaction names the callback route to wait for"]
    pub fn push_interaction(&self, payload: Value) -> Interaction {
        let id = payload["id"].as_str().and_then(|id| id.parse().ok()).expect("interaction id");
        let token = payload["token"].as_str().expect("interaction token").to_owned();
        let event = json!({ "op": 0, "t": "INTERACTION_CREATE", "s": null, "d": payload });
        let mut sessions = lock(&self.shared.sessions);
        sessions.retain(|session| !session.is_closed());
        assert!(!sessions.is_empty(), "no bot is connected to the fake gateway");
        for session in sessions.iter() {
            // A session that closed since has a dropped receiver; the others still get the event.
            let _ = session.send(Outgoing::Event(event.to_string()));
        }
        Interaction { id, token, payload }
    }

    /// Drops every gateway connection at once, without a close frame.
    pub fn drop_gateway(&self) {
        for session in lock(&self.shared.sessions).drain(..) {
            let _ = session.send(Outgoing::Drop);
        }
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

    /// Answers the next `times` requests that `matches` with `fault` instead of the normal
    /// answer. They are recorded as usual, with the fault's status.
    pub fn fail_next(&self, matches: impl Fn(&Recorded) -> bool + Send + Sync + 'static, times: usize, fault: Fault) {
        lock(&self.shared.faults).push(FaultRule { matches: Box::new(matches), remaining: times, fault });
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
            "channel_id": "1400000000000000001",
            "user": user_json(user, &format!("player{user}"), false),
            "locale": locale,
            "app_permissions": "0",
            "entitlements": [],
            "authorizing_integration_owners": {},
            "context": 1,
            // serenity 0.12.5 refuses an interaction without it.
            "attachment_size_limit": 26_214_400,
        })
    }
}

/// `payload` (from [`FakeDiscord::slash_command`]) as sent from a channel of `guild`: the user
/// becomes a guild member, as Discord sends it.
#[must_use]
pub fn in_guild(mut payload: Value, guild: u64, channel: u64) -> Value {
    let user = payload["user"].take();
    let object = payload.as_object_mut().expect("an interaction object");
    object.remove("user");
    object.insert("guild_id".to_owned(), json!(guild.to_string()));
    object.insert("channel_id".to_owned(), json!(channel.to_string()));
    object.insert("guild_locale".to_owned(), json!("en-US"));
    object.insert("context".to_owned(), json!(0));
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
    let mut recorded = Recorded { method, host, path, json, parts, status: 0 };
    let response = match scripted_fault(shared, &recorded) {
        Some(fault) => fault_response(fault),
        None => respond(shared, &recorded),
    };
    recorded.status = response.status().as_u16();
    lock(&shared.requests).push(recorded);
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
        Fault::ServerError(status) => {
            let status = StatusCode::from_u16(status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
            reply(status, &json!({ "message": "500: Internal Server Error", "code": 0 }))
        }
    }
}

/// The fake's answer to one request.
fn respond(shared: &Shared, request: &Recorded) -> Response<Full<Bytes>> {
    let Some(route) = request.path.strip_prefix("/api/v10") else {
        return reply(StatusCode::NOT_FOUND, &json!({ "message": "404: Not Found", "code": 0 }));
    };
    let segments: Vec<&str> = route.trim_start_matches('/').split('/').collect();
    let gateway_url = lock(&shared.gateway_url).clone();
    match (request.method.as_str(), segments.as_slice()) {
        ("GET", ["gateway"]) => reply(StatusCode::OK, &json!({ "url": gateway_url })),
        ("GET", ["gateway", "bot"]) => reply(
            StatusCode::OK,
            &json!({
                "url": gateway_url,
                "shards": 1,
                "session_start_limit": { "total": 1000, "remaining": 999, "reset_after": 0, "max_concurrency": 1 },
            }),
        ),
        ("GET", ["users", "@me"]) => reply(StatusCode::OK, &bot_user()),
        ("GET", ["oauth2", "applications", "@me"]) => reply(
            StatusCode::OK,
            &json!({
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
            reply(StatusCode::OK, &json!([]))
        }
        ("POST", ["interactions", _, _, "callback"]) | ("DELETE", ["webhooks", _, _, "messages", _]) => no_content(),
        // Follow-ups, and reading or editing the original answer or a follow-up.
        ("POST", ["webhooks", _, _]) | ("GET" | "PATCH", ["webhooks", _, _, "messages", _]) => {
            reply(StatusCode::OK, &message(shared, request.json.as_ref()))
        }
        _ => reply(StatusCode::NOT_FOUND, &json!({ "message": "404: Not Found (fake Discord)", "code": 0 })),
    }
}

/// A message as Discord returns it, echoing the content and embeds the bot sent.
fn message(shared: &Shared, body: Option<&Value>) -> Value {
    let field = |name: &str, default: Value| body.and_then(|b| b.get(name)).cloned().unwrap_or(default);
    json!({
        "id": shared.id().to_string(),
        "channel_id": "1400000000000000001",
        "author": bot_user(),
        "content": field("content", json!("")),
        "timestamp": "2026-01-01T00:00:00.000000+00:00",
        "edited_timestamp": null,
        "tts": false,
        "mention_everyone": false,
        "mentions": [],
        "mention_roles": [],
        "attachments": [],
        "embeds": field("embeds", json!([])),
        "components": field("components", json!([])),
        "pinned": false,
        "type": 0,
        "flags": field("flags", json!(0)),
    })
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
    haystack.windows(needle.len()).position(|window| window == needle)
}

fn split<'a>(mut body: &'a [u8], delimiter: &[u8]) -> VecDeque<&'a [u8]> {
    let mut sections = VecDeque::new();
    while let Some(at) = find(body, delimiter) {
        sections.push_back(&body[..at]);
        body = &body[at + delimiter.len()..];
    }
    sections.push_back(body);
    sections
}

async fn serve_gateway(listener: TcpListener, shared: Arc<Shared>) {
    while let Ok((stream, _)) = listener.accept().await {
        tokio::spawn(gateway_session(stream, shared.clone()));
    }
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
                    Some(2) => {
                        lock(&shared.sessions).push(outbox.clone());
                        shared.identifies.fetch_add(1, Ordering::Relaxed);
                        Some(ready(&lock(&shared.gateway_url)))
                    }
                    // Nothing is missed while a test is not pushing, so a resume replays nothing.
                    Some(6) => {
                        lock(&shared.sessions).push(outbox.clone());
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

fn ready(gateway_url: &str) -> Value {
    json!({
        "op": 0,
        "t": "READY",
        "s": 1,
        "d": {
            "v": 10,
            "user": bot_user(),
            "guilds": [],
            "session_id": "fake-session",
            "resume_gateway_url": gateway_url,
            "shard": [0, 1],
            "application": { "id": APPLICATION_ID.to_string(), "flags": 0 },
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

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
