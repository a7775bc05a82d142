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
///
/// The two pictures are drawn apart, and one that fails to draw (a renderer bug: every game the
/// bot holds is valid) is left out and logged. The words and the record still go out: a
/// summary is given up when it fails, so failing it whole would lose the game's result.
pub async fn summary_message(data: &Data, game_id: GameId, lang: Lang) -> Result<SummaryMessage, BotError> {
    let summary = data.host.summary(game_id).await?;
    let record = data.host.export(game_id).await?;
    let options = crate::present::summary::gif_options(&summary, lang);
    let frames = summary.record.clone();
    let card = crate::present::cards::summary_card(&summary, lang, tafl_render::Theme::default());
    let card = data.draw(move |renderer| renderer.render_summary_card(&card));
    let gif = data.draw(move |renderer| renderer.render_gif(&frames, &options));
    let drawn = |picture: Result<Vec<u8>, BotError>, what: &str| {
        picture
            .inspect_err(|error| tracing::error!(game = game_id, %error, "the summary goes out without its {what}"))
            .ok()
    };
    let card = drawn(card.finish().await, "card");
    let gif = drawn(gif.finish().await, "animation");
    let words = crate::present::summary::summary_text(&summary, lang);
    Ok(summary_parts(game_id, words, card, gif, record))
}

/// A game's summary as a message: the embed, and the files that go with it.
#[derive(Debug)]
pub struct SummaryMessage {
    pub embed: serenity::CreateEmbed,
    pub files: Vec<serenity::CreateAttachment>,
    /// Whether both pictures were drawn. An edit replaces every file of a message, so a summary
    /// posted whole is not edited with one that lacks a picture.
    pub whole: bool,
}

/// The summary's embed and files from its parts, each picture only when it was drawn.
fn summary_parts(
    game_id: GameId,
    words: crate::present::summary::EmbedText,
    card: Option<Vec<u8>>,
    gif: Option<Vec<u8>>,
    record: String,
) -> SummaryMessage {
    let whole = card.is_some() && gif.is_some();
    let mut embed = serenity::CreateEmbed::new().title(words.title).description(words.description);
    let mut files = Vec::new();
    // The card tells the game's story in one picture, so it is the embed's image; the
    // animation and the record come with it as files.
    if let Some(card) = card {
        let card_name = format!("game-{game_id}-summary.png");
        embed = embed.image(format!("attachment://{card_name}"));
        files.push(serenity::CreateAttachment::bytes(card, card_name));
    }
    if let Some(gif) = gif {
        files.push(serenity::CreateAttachment::bytes(gif, format!("game-{game_id}.gif")));
    }
    files.push(serenity::CreateAttachment::bytes(record.into_bytes(), format!("game-{game_id}.otn")));
    SummaryMessage { embed, files, whole }
}

/// A Discord mention of a user by id, for message contents that notify them.
#[must_use]
pub fn mention(user: i64) -> String {
    format!("<@{user}>")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::present::summary::EmbedText;

    fn parts(card: bool, gif: bool) -> (serde_json::Value, Vec<String>) {
        let words = EmbedText { title: "Game 7: Alice wins".into(), description: "King captured.".into() };
        let SummaryMessage { embed, files, whole } =
            summary_parts(7, words, card.then(|| vec![1, 2, 3]), gif.then(|| vec![4, 5]), "[Result \"1-0\"]".into());
        assert_eq!(whole, card && gif, "whole only with both pictures, so that no edit drops one");
        let embed = serde_json::to_value(&embed).expect("an embed serialises");
        (embed, files.into_iter().map(|f| f.filename).collect())
    }

    #[test]
    fn a_summary_shows_its_card_and_sends_the_animation_and_the_record() {
        let (embed, files) = parts(true, true);
        assert_eq!(embed["title"], "Game 7: Alice wins");
        assert_eq!(embed["image"]["url"], "attachment://game-7-summary.png");
        assert_eq!(files, ["game-7-summary.png", "game-7.gif", "game-7.otn"]);
    }

    /// A picture that failed to draw is left out; the words and the record still go out.
    #[test]
    fn a_picture_that_failed_to_draw_is_left_out_and_the_words_stay() {
        let (embed, files) = parts(false, true);
        assert_eq!(embed["description"], "King captured.");
        assert!(embed.get("image").is_none(), "no image points at a file not sent: {embed}");
        assert_eq!(files, ["game-7.gif", "game-7.otn"]);
        let (embed, files) = parts(true, false);
        assert_eq!(embed["image"]["url"], "attachment://game-7-summary.png");
        assert_eq!(files, ["game-7-summary.png", "game-7.otn"]);
        let (embed, files) = parts(false, false);
        assert_eq!(embed["title"], "Game 7: Alice wins");
        assert_eq!(files, ["game-7.otn"]);
    }
}
