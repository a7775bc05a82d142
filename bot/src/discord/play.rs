//! What the commands, the buttons and the delivery task share about a game's messages: where
//! they go, whom they mention, and the summary.

use poise::serenity_prelude as serenity;

use super::{BotError, Data};
use crate::host::{GameId, GameView};
use crate::present::Lang;

/// The current time as the host wants it.
#[must_use]
pub fn now() -> i64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs() as i64)
}

/// The channel (or thread) where a game is played.
#[must_use]
pub fn game_channel(game: &GameView) -> serenity::ChannelId {
    serenity::ChannelId::new(game.place.thread.unwrap_or(game.place.channel).max(1) as u64)
}

/// Allowed mentions that ping exactly `users` (never roles or everyone, whatever a name says).
pub fn mentioning(users: &[i64]) -> serenity::CreateAllowedMentions {
    serenity::CreateAllowedMentions::new().users(users.iter().map(|id| serenity::UserId::new((*id).max(1) as u64)))
}

/// The summary of a game: result and reason, players, moves and captures, duration, rating
/// changes, the animated game and its OTN record.
pub async fn summary_message(
    data: &Data,
    game_id: GameId,
    lang: Lang,
) -> Result<(serenity::CreateEmbed, Vec<serenity::CreateAttachment>), BotError> {
    let summary = data.host.summary(game_id).await?;
    let record = data.host.export(game_id).await?;
    let options = crate::present::summary::gif_options(&summary, lang);
    let frames = summary.record.clone();
    let card = super::cards::summary_card(&summary, lang, tafl_render::Theme::default());
    let (gif, card) = data
        .draw(move |renderer| Ok((renderer.render_gif(&frames, &options)?, renderer.render_summary_card(&card)?)))
        .finish()
        .await?;
    let gif_name = format!("game-{game_id}.gif");
    let card_name = format!("game-{game_id}-summary.png");
    let words = crate::present::summary::summary_text(&summary, lang);
    // The card tells the game's story in one picture, so it is the embed's image; the
    // animation and the record come with it as files.
    let embed = serenity::CreateEmbed::new()
        .title(words.title)
        .description(words.description)
        .image(format!("attachment://{card_name}"));
    let files = vec![
        serenity::CreateAttachment::bytes(card, card_name),
        serenity::CreateAttachment::bytes(gif, gif_name),
        serenity::CreateAttachment::bytes(record.into_bytes(), format!("game-{game_id}.otn")),
    ];
    Ok((embed, files))
}

/// A Discord mention of a user by id, for message contents that notify them.
#[must_use]
pub fn mention(user: i64) -> String {
    format!("<@{user}>")
}
