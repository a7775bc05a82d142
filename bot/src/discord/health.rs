//! `/healthz`, for an orchestrator (systemd, Kubernetes, a load balancer) to tell a live process
//! from a stuck one: 200 when every gateway shard this process serves is connected and the
//! database answers, 503 otherwise, with one line saying which. Off unless `TAFL_HEALTH_ADDR`
//! names an address; it answers nothing else, so it is safe on a private port and nothing it
//! says is secret.
//!
//! HTTP is hyper's (already under reqwest), so no request is parsed here by hand.

use std::convert::Infallible;
use std::ops::RangeInclusive;
use std::sync::Arc;
use std::time::Duration;

use http_body_util::Full;
use hyper::body::{Bytes, Incoming};
use hyper::{Request, Response, StatusCode};
use hyper_util::rt::TokioIo;
use poise::serenity_prelude as serenity;
use tokio::net::TcpListener;

use crate::store::Db;

/// How long the database may take to answer `SELECT 1` before the process counts as unhealthy.
const DATABASE_PATIENCE: Duration = Duration::from_secs(2);
/// The most connections served at once; more are closed as they come. A probe needs one: this
/// keeps clients that open many and send nothing from taking the process's file descriptors
/// (which the gateway and the database need too).
const MAX_CONNECTIONS: usize = 16;
/// The longest one connection is served, request and answer (whose check waits at most
/// [`DATABASE_PATIENCE`]): a client that sends its request slowly, or never, is cut off.
const CONNECTION_DEADLINE: Duration = Duration::from_secs(5);

/// This process's gateway shards, as serenity's shard manager sees them: what `/healthz` and the
/// scheduler (whose clocks wait while players cannot reach the bot) look at.
#[derive(Clone)]
pub struct Gateway {
    pub shard_manager: Arc<serenity::ShardManager>,
    pub shards: RangeInclusive<u32>,
}

impl std::fmt::Debug for Gateway {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Gateway").field("shards", &self.shards).finish_non_exhaustive()
    }
}

impl Gateway {
    /// Each shard that is not connected now (reconnecting, restarting after a dropped
    /// connection, or never started), with what it is doing: none when all are.
    pub async fn away(&self) -> Vec<(u32, String)> {
        let runners = self.shard_manager.runners.lock().await;
        let mut away = Vec::new();
        for id in self.shards.clone() {
            match runners.get(&serenity::ShardId(id)).map(|runner| runner.stage) {
                Some(serenity::ConnectionStage::Connected) => {}
                Some(stage) => away.push((id, format!("is {stage}"))),
                None => away.push((id, "has not started".to_owned())),
            }
        }
        away
    }
}

/// What `/healthz` looks at: nothing yet while `run` starts (the database being opened, the
/// token checked, the client built, each of which may wait minutes on a server that does not
/// answer), then the gateway and the database. Served from the start, so that a probe meanwhile
/// gets its 503 rather than a connection nobody answers.
#[derive(Clone, Debug, Default)]
pub struct Probe {
    started: Arc<std::sync::OnceLock<Started>>,
}

#[derive(Debug)]
struct Started {
    gateway: Gateway,
    db: Db,
}

impl Probe {
    /// From now on the probe looks at `gateway` and `db`.
    pub fn started(&self, gateway: Gateway, db: Db) {
        let _ = self.started.set(Started { gateway, db });
    }

    /// `Ok` with a line for 200, `Err` with the reason for 503.
    pub async fn check(&self) -> Result<String, String> {
        let Some(Started { gateway, db }) = self.started.get() else {
            return Err("unavailable: starting (opening the database, reaching Discord)\n".to_owned());
        };
        let mut problems: Vec<String> =
            gateway.away().await.into_iter().map(|(shard, why)| format!("shard {shard} {why}")).collect();
        let database = tokio::time::timeout(DATABASE_PATIENCE, sqlx::query("SELECT 1").execute(db.pool())).await;
        match database {
            Ok(Ok(_)) => {}
            Ok(Err(error)) => problems.push(format!("the database fails: {error}")),
            Err(_) => problems.push(format!("the database did not answer within {} s", DATABASE_PATIENCE.as_secs())),
        }
        // Reads answering is not enough: moves are writes.
        if let Some((why, ago)) = db.refused_write() {
            problems.push(format!("the last write, {} s ago, was not saved: {why}", ago.as_secs()));
        }
        let shards = format!("shards {}-{}", gateway.shards.start(), gateway.shards.end());
        if problems.is_empty() {
            Ok(format!("ok: {shards} connected, database answers and saves\n"))
        } else {
            Err(format!("unavailable: {}\n", problems.join("; ")))
        }
    }
}

/// Serves `/healthz` on `listener` until the task is aborted: one request a connection, at
/// most [`MAX_CONNECTIONS`] at once, each for at most [`CONNECTION_DEADLINE`].
pub async fn serve(listener: TcpListener, probe: Probe) {
    let room = Arc::new(tokio::sync::Semaphore::new(MAX_CONNECTIONS));
    loop {
        let Ok((stream, _)) = listener.accept().await else {
            // Out of file descriptors or similar: try again shortly rather than spin.
            tokio::time::sleep(Duration::from_millis(100)).await;
            continue;
        };
        let Ok(place) = room.clone().try_acquire_owned() else {
            // Closed at once: a real probe comes again, and waiting would hold the descriptor.
            tracing::debug!("/healthz has {MAX_CONNECTIONS} connections open; one more is closed");
            continue;
        };
        let probe = probe.clone();
        tokio::spawn(async move {
            let service = hyper::service::service_fn(move |request| {
                let probe = probe.clone();
                async move { Ok::<_, Infallible>(answer(&probe, &request).await) }
            });
            let connection = hyper::server::conn::http1::Builder::new()
                .keep_alive(false)
                .serve_connection(TokioIo::new(stream), service);
            // A client that hangs up mid-request, or is cut off, is its own business.
            let _ = tokio::time::timeout(CONNECTION_DEADLINE, connection).await;
            drop(place);
        });
    }
}

async fn answer(probe: &Probe, request: &Request<Incoming>) -> Response<Full<Bytes>> {
    let (status, body) = if request.uri().path() != "/healthz" {
        (StatusCode::NOT_FOUND, "not found: the only path here is /healthz\n".to_owned())
    } else if request.method() != hyper::Method::GET && request.method() != hyper::Method::HEAD {
        (StatusCode::METHOD_NOT_ALLOWED, "method not allowed: use GET\n".to_owned())
    } else {
        match probe.check().await {
            Ok(line) => (StatusCode::OK, line),
            Err(line) => {
                tracing::debug!(reason = %line.trim_end(), "health check failed");
                (StatusCode::SERVICE_UNAVAILABLE, line)
            }
        }
    };
    let mut response = Response::new(Full::new(Bytes::from(body)));
    *response.status_mut() = status;
    response
        .headers_mut()
        .insert(hyper::header::CONTENT_TYPE, hyper::header::HeaderValue::from_static("text/plain; charset=utf-8"));
    response
}
