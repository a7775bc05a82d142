//! An error with its causes, for the log: the one way the bot writes a failed Discord request
//! (or a failed connection) in a log line or a sentence.
//!
//! serenity says only "Error while sending HTTP request." for every request that got no
//! answer, and keeps the reason in the error's sources: a name that did not resolve, a refused
//! connection, a certificate that was not trusted, a time-out. Written with its sources, each
//! reads differently: "Error while sending HTTP request: error sending request: client error
//! (Connect): tcp connect error: Connection refused (os error 111)".

use std::error::Error;
use std::fmt;

/// At most this many errors of a chain are written (a chain is never this long; a source that
/// led back to itself would be).
const DEPTH: usize = 12;

/// `error` and its sources, for `%` in a log line or `{}` in a sentence (see the module docs).
#[must_use]
pub fn causes<'a>(error: &'a (dyn Error + 'static)) -> Causes<'a> {
    Causes(error)
}

/// See [`causes`].
#[derive(Clone, Copy)]
pub struct Causes<'a>(&'a (dyn Error + 'static));

impl fmt::Display for Causes<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut written = String::new();
        let mut next = Some(self.0);
        for _ in 0..DEPTH {
            let Some(error) = next else { break };
            let said = said(error);
            // A wrapper that already says its source's words (or a source saying nothing) adds
            // nothing.
            if !said.is_empty() && !written.contains(said.as_str()) {
                if !written.is_empty() {
                    written.push_str(": ");
                }
                written.push_str(&said);
            }
            next = error.source();
        }
        f.write_str(&written)
    }
}

impl fmt::Debug for Causes<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// What one error of a chain says, without a closing full stop (the chain goes on after it) and
/// without the URL a request error names: an interaction's answer has its token in the URL.
fn said(error: &(dyn Error + 'static)) -> String {
    let mut said = error.to_string();
    if let Some(request) = error.downcast_ref::<reqwest::Error>()
        && request.url().is_some()
        && let Some(at) = said.find(" for url (")
    {
        said.truncate(at);
    }
    let said = said.trim().trim_end_matches('.');
    said.to_owned()
}

#[cfg(test)]
mod tests {
    use super::causes;

    #[derive(Debug)]
    struct Layer(&'static str, Option<Box<Layer>>);

    impl std::fmt::Display for Layer {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str(self.0)
        }
    }

    impl std::error::Error for Layer {
        fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
            self.1.as_deref().map(|l| l as &(dyn std::error::Error + 'static))
        }
    }

    #[test]
    fn an_error_is_written_with_each_of_its_causes_once() {
        let error = Layer(
            "Error while sending HTTP request.",
            Some(Box::new(Layer(
                "client error (Connect)",
                Some(Box::new(Layer("dns error", Some(Box::new(Layer("dns error", None)))))),
            ))),
        );
        assert_eq!(causes(&error).to_string(), "Error while sending HTTP request: client error (Connect): dns error");
        assert_eq!(causes(&Layer("alone", None)).to_string(), "alone");
    }

    #[tokio::test]
    async fn a_refused_connection_says_so_and_names_no_url() {
        // A port that was free a moment ago: connections to it are refused.
        let closed = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap();
        let error = reqwest::Client::new()
            .get(format!("http://{closed}/api/v10/interactions/1/secret-token/callback"))
            .send()
            .await
            .expect_err("nothing listens there");
        let error = poise::serenity_prelude::Error::Http(poise::serenity_prelude::HttpError::Request(error));
        let written = causes(&error).to_string();
        assert!(written.starts_with("Error while sending HTTP request: "), "{written}");
        assert!(written.to_lowercase().contains("connection refused"), "{written}");
        assert!(!written.contains("secret-token"), "{written}");
    }
}
