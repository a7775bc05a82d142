//! The scheduler loop of the Discord front end: every few seconds it asks the host what has come
//! due ([`Host::tick`], which hands each item to exactly one process, once) and posts it:
//! reminders in the game's channel (and by DM for those who asked), time-outs with the final
//! board and the summary, expired challenge cards closed, daily digests by DM, and boards whose
//! deadlines moved after downtime redrawn.
//!
//! What the scheduler posts is not an answer to anyone, so it speaks the server's language as
//! stored (the one its managers chose, else the locale Discord last reported), and a digest
//! its reader's last reported locale.

use std::time::Duration;

use poise::serenity_prelude as serenity;

use super::play::{self, now};
use super::retry::with_retries;
use super::{BotError, Data};
use crate::host::{Challenge, ChallengeState, Digest, Due, Reminder, ReminderKind};
use crate::present::Lang;
use crate::present::text;

/// Ticks every `interval` until the task is aborted. A failed tick (the database busy or gone)
/// is logged and tried again at the next one; nothing is lost, since due items stay due until a
/// tick commits.
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
        for item in due {
            if let Err(error) = post(&http, &data, item).await {
                tracing::warn!(%error, "could not post what the scheduler found due");
            }
        }
    }
}

/// Posts one due item, in the language of the server it belongs to (a digest in its reader's).
async fn post(http: &serenity::Http, data: &Data, item: Due) -> Result<(), BotError> {
    let english = Lang::discord(None);
    match item {
        Due::Reminder(reminder) => {
            let lang = super::server_lang(data, Some(reminder.place.guild), None, english).await;
            remind(http, &reminder, lang).await
        }
        Due::TimedOut(finished) => {
            tracing::info!(game = finished.game.id, "a game timed out");
            let lang = super::server_lang(data, Some(finished.game.place.guild), None, english).await;
            play::after_change(http, data, &finished.game, false, lang).await;
            Ok(())
        }
        Due::ChallengeExpired(challenge) => {
            let lang = super::server_lang(data, Some(challenge.place.guild), None, english).await;
            close_card(http, data, &challenge, lang).await
        }
        Due::Digest(digest) => {
            let locale = data.host.user_locale(digest.user.id).await.unwrap_or_default();
            send_digest(http, &digest, Lang::discord(locale.as_deref())).await
        }
        Due::Grace { games, .. } => {
            for game in games {
                let guild = data.host.show(game).await.map(|g| g.place.guild).ok();
                let lang = super::server_lang(data, guild, None, english).await;
                if let Err(error) = play::refresh_board(http, data, game, lang).await {
                    tracing::warn!(game, %error, "could not redraw a board after downtime");
                }
            }
            Ok(())
        }
    }
}

async fn remind(http: &serenity::Http, reminder: &Reminder, lang: Lang) -> Result<(), BotError> {
    let content = text::reminder(reminder, lang);
    let channel = serenity::ChannelId::new(reminder.place.thread.unwrap_or(reminder.place.channel).max(1) as u64);
    let message = serenity::CreateMessage::new()
        .content(content.clone())
        .allowed_mentions(play::mentioning(&[reminder.player.id]));
    with_retries(|| channel.send_message(http, message.clone())).await?;
    if reminder.dm {
        let user = serenity::UserId::new(reminder.player.id.max(1) as u64);
        let link = format!("https://discord.com/channels/{}/{}", reminder.place.guild, channel.get());
        let dm = serenity::CreateMessage::new().content(format!("{content}\n{link}"));
        // A user who closed their DMs still got the mention in the channel.
        if let Err(error) = with_retries(|| user.direct_message(http, dm.clone())).await {
            tracing::info!(user = reminder.player.id, %error, "could not send a reminder by DM");
        }
    }
    if reminder.kind == ReminderKind::LastWarning {
        tracing::debug!(game = reminder.game, "last warning sent");
    }
    Ok(())
}

async fn close_card(http: &serenity::Http, data: &Data, challenge: &Challenge, lang: Lang) -> Result<(), BotError> {
    debug_assert_eq!(challenge.state, ChallengeState::Expired);
    let Some((channel, message)) = data.host.challenge_message(challenge.id).await? else { return Ok(()) };
    let (title, _) = text::challenge_card(challenge, lang);
    let embed = serenity::CreateEmbed::new().title(title).description(text::challenge_closed(
        challenge,
        &challenge.challenger,
        lang,
    ));
    let edit = serenity::EditMessage::new().content("").embed(embed).components(Vec::new());
    let channel = serenity::ChannelId::new(channel.max(1) as u64);
    let message = serenity::MessageId::new(message.max(1) as u64);
    with_retries(|| channel.edit_message(http, message, edit.clone())).await?;
    Ok(())
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
