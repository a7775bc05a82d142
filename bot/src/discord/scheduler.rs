//! The scheduler loop of the Discord front end: every few seconds it asks the host what has come
//! due ([`crate::host::Host::tick`], which hands each item to exactly one process, once): reminders,
//! time-outs, expired challenge cards and boards whose deadlines moved after downtime are in the
//! outbox for the delivery task; daily digests are sent from here.
//!
//! What the scheduler posts is not an answer to anyone, so it speaks the server's language as
//! stored (the one its managers chose, else the locale Discord last reported), and a digest
//! its reader's last reported locale.

use std::time::Duration;

use poise::serenity_prelude as serenity;

use super::play::now;
use super::retry::with_retries;
use super::{BotError, Data};
use crate::host::{Digest, Due};
use crate::present::Lang;
use crate::present::text;

/// Ticks every `interval` until the task is aborted. A failed tick (the database busy or gone)
/// is logged and tried again at the next one; nothing is lost, since due items stay due until a
/// tick commits. What a tick finds is recorded in the outbox in the tick's own transaction
/// (reminders, time-outs, expired cards, boards after downtime) and delivered by the delivery
/// task, which each tick wakes after looking for boards left behind; only digests are sent here.
pub async fn run(http: std::sync::Arc<serenity::Http>, data: Data, interval: Duration) {
    let mut ticker = tokio::time::interval(interval);
    ticker.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        ticker.tick().await;
        let due = match data.host.tick(now()).await {
            Ok(due) => due,
            Err(error) => {
                tracing::warn!(%error, "the scheduler's tick failed; trying again at the next one");
                continue;
            }
        };
        if let Err(error) = data.host.redraw_stale_boards(now()).await {
            tracing::warn!(%error, "could not look for boards behind their games");
        }
        data.delivery.wake();
        for item in due {
            if let Due::Digest(digest) = item {
                let locale = data.host.user_locale(digest.user.id).await.unwrap_or_default();
                if let Err(error) = send_digest(&http, &digest, Lang::discord(locale.as_deref())).await {
                    tracing::warn!(%error, "could not send a digest");
                }
            }
        }
    }
}

async fn send_digest(http: &serenity::Http, digest: &Digest, lang: Lang) -> Result<(), BotError> {
    let user = serenity::UserId::new(digest.user.id.max(1) as u64);
    let lines: Vec<String> = digest.games.iter().take(25).map(|g| text::game_line(g, now(), lang)).collect();
    let embed =
        serenity::CreateEmbed::new().title(text::digest_title(digest.games.len(), lang)).description(lines.join("\n"));
    let message = serenity::CreateMessage::new().embed(embed);
    with_retries(|| user.direct_message(http, message.clone())).await?;
    Ok(())
}
