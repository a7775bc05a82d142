//! What serenity tells of the gateway only in its log.
//!
//! Discord closes the gateway with 4011 ("Sharding required") when the bot is in too many
//! servers for the shards it runs (2,500 a shard). serenity 0.12.5 ends its client only for a
//! rejected token and refused intents. For 4011 its shard logs an error and goes on reading the
//! closed connection in a loop that never yields: `tafl-bot run` stayed up serving nothing, one
//! runtime worker spun for good, and the runtime could no longer be relied on to end the run
//! (a shutdown of that shard spins the same way). Its log line is the only trace, so a layer of
//! the log watches for it, and a thread of its own, outside the runtime, says what to set and
//! ends the process with status 1 ([`exit_on_sharding_required`]). Ending so is as safe as a
//! kill, which every write of the bot survives, and no gateway session was open to close.
//!
//! The layer is installed with the log (`run_from_env`), and with its own filter: `RUST_LOG`
//! may silence serenity's lines without blinding it.

use std::sync::OnceLock;
use std::sync::mpsc::{SyncSender, sync_channel};

use tracing::field::{Field, Visit};
use tracing::{Event, Level, Subscriber};
use tracing_subscriber::filter::Targets;
use tracing_subscriber::layer::{Context, Filter, Layer};
use tracing_subscriber::registry::LookupSpan;

use super::RunError;

/// Told when serenity reports a gateway closed with 4011, once the exit thread listens.
static SHARDING_REQUIRED: OnceLock<SyncSender<()>> = OnceLock::new();

/// Starts the thread that ends the process, with [`RunError::ShardingRequired`]'s sentence and
/// status 1, once serenity reports a gateway closed with 4011. Once per process.
pub fn exit_on_sharding_required() {
    let (told, told_of) = sync_channel::<()>(1);
    if SHARDING_REQUIRED.set(told).is_err() {
        return;
    }
    let watching = std::thread::Builder::new().name("tafl-4011".to_owned()).spawn(move || {
        if told_of.recv().is_ok() {
            crate::cli::complain(&format!("error: {}", RunError::ShardingRequired));
            std::process::exit(1);
        }
    });
    if let Err(error) = watching {
        tracing::warn!(%error, "cannot watch for Discord's 4011 (sharding required); it would go unsaid");
    }
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
        if says_sharding_required(&message.0)
            && let Some(told) = SHARDING_REQUIRED.get()
        {
            // Full: told already.
            let _ = told.try_send(());
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
