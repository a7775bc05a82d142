//! What serenity tells of the gateway only in its log.
//!
//! Discord closes the gateway with 4011 ("Sharding required") when the bot is in too many
//! servers for the shards it runs (2,500 a shard). serenity 0.12 ends its client only for a
//! rejected token and refused intents; for 4011 its shard logs an error and identifies again,
//! over and over, each identify one of the bot's daily 1,000, while `tafl-bot run` stays up and
//! serves nothing. Its log line is the only trace, so a layer of the log watches for it, and
//! `serve` stops the run with a sentence saying what to set ([`sharding_required`]).
//!
//! The layer is installed with the log (`run_from_env`), and with its own filter: `RUST_LOG`
//! may silence serenity's lines without blinding it.

use tokio::sync::Notify;
use tracing::field::{Field, Visit};
use tracing::{Event, Level, Subscriber};
use tracing_subscriber::filter::Targets;
use tracing_subscriber::layer::{Context, Filter, Layer};
use tracing_subscriber::registry::LookupSpan;

/// Told when serenity reports a gateway closed with 4011; a permit waits for `serve` if it is
/// not listening yet. Process-wide, as the log it watches is.
static SHARDING_REQUIRED: Notify = Notify::const_new();

/// Completes once serenity has reported a gateway closed with 4011 ("Sharding required").
pub async fn sharding_required() {
    SHARDING_REQUIRED.notified().await;
}

/// The log layer that watches serenity's gateway errors; see the module's comment.
#[must_use]
pub fn layer<S: Subscriber + for<'span> LookupSpan<'span>>() -> impl Layer<S> {
    ShardingRequired.with_filter(errors_of_the_gateway())
}

/// serenity's gateway errors, whatever `RUST_LOG` says.
fn errors_of_the_gateway<S>() -> impl Filter<S> {
    Targets::new().with_target("serenity::gateway", Level::ERROR)
}

struct ShardingRequired;

impl<S: Subscriber> Layer<S> for ShardingRequired {
    fn on_event(&self, event: &Event<'_>, _: Context<'_, S>) {
        let mut message = Message(String::new());
        event.record(&mut message);
        if says_sharding_required(&message.0) {
            SHARDING_REQUIRED.notify_one();
        }
    }
}

/// Whether a serenity gateway error is a close with 4011. serenity 0.12.5 (pinned) logs it
/// twice: "Shard has too many guilds." as the shard reads the close, then "Shard handler
/// received err: Gateway(OverloadedShard)" from its runner; either is enough.
fn says_sharding_required(message: &str) -> bool {
    message.contains("Shard has too many guilds") || message.contains("OverloadedShard")
}

/// An event's message, as its `message` field formats it.
struct Message(String);

impl Visit for Message {
    fn record_debug(&mut self, field: &Field, value: &dyn std::fmt::Debug) {
        if field.name() == "message" {
            self.0 = format!("{value:?}");
        }
    }

    fn record_str(&mut self, field: &Field, value: &str) {
        if field.name() == "message" {
            value.clone_into(&mut self.0);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn serenitys_two_lines_for_4011_are_recognised_and_its_others_are_not() {
        let info = "ShardInfo { id: ShardId(0), total: 1 }";
        assert!(says_sharding_required(&format!("[{info}] Shard has too many guilds.")));
        assert!(says_sharding_required("Shard handler received err: Gateway(OverloadedShard)"));
        for other in [
            format!("[{info}] Sent invalid shard data."),
            "Shard handler received err: Gateway(InvalidShardData)".to_owned(),
            format!("[{info}] Sent invalid authentication, please check the token."),
        ] {
            assert!(!says_sharding_required(&other), "{other}");
        }
    }
}
