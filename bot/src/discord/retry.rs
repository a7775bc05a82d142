//! Retrying Discord's server errors. serenity's ratelimiter already retries 429s (honouring
//! `Retry-After`), but a 5xx or a refused connection comes straight back as an error, and one
//! bad second at Discord would otherwise cost a player their answer.
//!
//! Retrying is safe for an interaction's first answer (its callback): if a first attempt did
//! reach Discord, the second is refused as "already acknowledged" and nothing is shown twice. It
//! is safe for edits, which a second time change nothing more. It is not for a follow-up, which
//! is a new message each time Discord takes it: after a server error or a timeout Discord may have
//! made it and only its reply was lost, and a retry would show it twice. A follow-up is tried
//! again only when it never reached Discord ([`with_retries_if_unsent`]).

use std::future::Future;
use std::time::Duration;

use poise::serenity_prelude as serenity;

/// Attempts in all, including the first.
const ATTEMPTS: u32 = 3;
/// The first pause; each further one is four times longer (100 ms, 400 ms), so all attempts fit
/// well inside Discord's three seconds for a first answer.
const FIRST_PAUSE: Duration = Duration::from_millis(100);

/// Runs `attempt` until it succeeds, fails for a reason a retry cannot fix, or has been tried
/// [`ATTEMPTS`] times.
pub async fn with_retries<T, Fut>(attempt: impl FnMut() -> Fut) -> Result<T, serenity::Error>
where
    Fut: Future<Output = Result<T, serenity::Error>>,
{
    retry_while(is_transient, FIRST_PAUSE, attempt).await
}

/// Runs `attempt`, a request that makes a new message each time Discord carries it out (a
/// follow-up), again only when it failed before it reached Discord: no connection could be made.
/// After a server error or a timeout Discord may have made the message and lost only its reply,
/// and nothing tells whether it did (Discord lists no follow-ups, and takes no nonce for them):
/// the player gets the message once, or, when Discord failed before making it, not at all, but
/// never twice. A 429 made nothing, and serenity's ratelimiter retries it already.
pub async fn with_retries_if_unsent<T, Fut>(attempt: impl FnMut() -> Fut) -> Result<T, serenity::Error>
where
    Fut: Future<Output = Result<T, serenity::Error>>,
{
    retry_while(is_unsent, FIRST_PAUSE, attempt).await
}

/// Runs `attempt` until it succeeds, fails with an error `transient` does not accept, or has
/// been tried [`ATTEMPTS`] times, pausing `first_pause` after the first failure and four times
/// longer after each further one.
pub async fn retry_while<T, E, Fut>(
    transient: impl Fn(&E) -> bool,
    first_pause: Duration,
    mut attempt: impl FnMut() -> Fut,
) -> Result<T, E>
where
    E: std::error::Error + 'static,
    Fut: Future<Output = Result<T, E>>,
{
    let mut pause = first_pause;
    for _ in 1..ATTEMPTS {
        match attempt().await {
            Err(error) if transient(&error) => {
                tracing::warn!(error = %super::causes::causes(&error), retry_in_ms = pause.as_millis(), "failed; retrying");
                tokio::time::sleep(pause).await;
                pause *= 4;
            }
            done => return done,
        }
    }
    attempt().await
}

/// A server error or a connection that could not be made: worth another try.
fn is_transient(error: &serenity::Error) -> bool {
    match error {
        serenity::Error::Http(serenity::HttpError::UnsuccessfulRequest(response)) => {
            response.status_code.is_server_error()
        }
        serenity::Error::Http(serenity::HttpError::Request(request)) => request.is_connect() || request.is_timeout(),
        _ => false,
    }
}

/// A request that never reached Discord: the connection could not be made.
fn is_unsent(error: &serenity::Error) -> bool {
    matches!(error, serenity::Error::Http(serenity::HttpError::Request(request)) if request.is_connect())
}

/// Discord's "Unknown Message" (10008): the message is not there (any more).
pub const UNKNOWN_MESSAGE: isize = 10_008;

/// Discord's JSON error code of a refused request.
pub fn discord_code(error: &serenity::Error) -> Option<isize> {
    match error {
        serenity::Error::Http(serenity::HttpError::UnsuccessfulRequest(response)) => Some(response.error.code),
        _ => None,
    }
}

/// "Interaction has already been acknowledged" (40060): what a retried answer meets when its
/// first try reached Discord and only the reply was lost.
pub fn is_already_acknowledged(error: &serenity::Error) -> bool {
    discord_code(error) == Some(40_060)
}

#[cfg(test)]
mod tests {
    use std::io::{Read, Write};
    use std::sync::atomic::{AtomicU32, Ordering};
    use std::time::Duration;

    use poise::serenity_prelude as serenity;

    use super::{with_retries, with_retries_if_unsent};

    /// One POST to `url`, its failure as serenity reports it.
    async fn post(client: &reqwest::Client, url: &str, tries: &AtomicU32) -> Result<(), serenity::Error> {
        tries.fetch_add(1, Ordering::SeqCst);
        let response = client
            .post(url)
            .send()
            .await
            .map_err(|error| serenity::Error::Http(serenity::HttpError::Request(error)))?;
        if response.status().is_success() {
            return Ok(());
        }
        let error = ::serenity::http::ErrorResponse::from_response(response, reqwest::Method::POST).await;
        Err(serenity::Error::Http(serenity::HttpError::UnsuccessfulRequest(error)))
    }

    /// A server that answers every request with a 500, as Discord does when it made a follow-up
    /// and lost the reply, or failed before making it: the bot cannot tell which.
    fn failing_server() -> String {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let address = listener.local_addr().unwrap();
        std::thread::spawn(move || {
            for stream in listener.incoming() {
                let Ok(mut stream) = stream else { return };
                let mut request = [0u8; 4096];
                let _ = stream.read(&mut request);
                let body = r#"{"code":0,"message":"500: Internal Server Error"}"#;
                let _ = write!(
                    stream,
                    "HTTP/1.1 500 Internal Server Error\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
                    body.len()
                );
            }
        });
        format!("http://{address}/api/v10/webhooks/1/token")
    }

    #[tokio::test]
    async fn a_follow_up_is_sent_again_only_when_it_never_reached_discord() {
        let client = reqwest::Client::builder().timeout(Duration::from_millis(300)).build().unwrap();
        let client = &client;
        let tries = AtomicU32::new(0);
        let tries = &tries;

        // Refused: nothing was sent, nothing made; tried again (three tries in all).
        let closed = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap();
        let closed = format!("http://{closed}/api/v10/webhooks/1/token");
        let closed = closed.as_str();
        assert!(with_retries_if_unsent(|| post(client, closed, tries)).await.is_err());
        assert_eq!(tries.swap(0, Ordering::SeqCst), 3, "a refused connection is tried again");

        // A server error: Discord may have made the follow-up. An answer or an edit is tried
        // again; a follow-up is not.
        let failing = failing_server();
        let failing = failing.as_str();
        assert!(with_retries(|| post(client, failing, tries)).await.is_err());
        assert_eq!(tries.swap(0, Ordering::SeqCst), 3, "an answer is tried again after a server error");
        assert!(with_retries_if_unsent(|| post(client, failing, tries)).await.is_err());
        assert_eq!(tries.swap(0, Ordering::SeqCst), 1, "a follow-up is not tried again after a server error");

        // Sent, and no reply in time: the same.
        let silent = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let url = format!("http://{}/api/v10/webhooks/1/token", silent.local_addr().unwrap());
        let url = url.as_str();
        assert!(with_retries_if_unsent(|| post(client, url, tries)).await.is_err());
        assert_eq!(tries.swap(0, Ordering::SeqCst), 1, "a follow-up is not tried again after a timeout");
        drop(silent);
    }
}
