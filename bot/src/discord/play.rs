//! What follows a change to a game, whichever control or command made it: the board message is
//! brought up to date, the player to move is notified, and a finished game gets its summary.
//! Shared by the slash commands and the buttons, so both behave the same.

use poise::serenity_prelude as serenity;
use tafl_render::GifOptions;

use super::board::{self, Menu};
use super::retry::with_retries;
use super::{BotError, Data};
use crate::host::{GameId, GameView};
use crate::present::Lang;
use crate::present::text;

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

/// After a move, an offer or an ending: redraws the stored board message (unless the caller has
/// just answered with the new board on that very message), then tells the player to move, or
/// posts the summary of a finished game. Failures here are logged, not shown: the change itself
/// is already saved, and `/tafl board` shows it.
pub async fn after_change(http: &serenity::Http, data: &Data, game: &GameView, board_is_current: bool, lang: Lang) {
    if !board_is_current && let Err(error) = refresh_board(http, data, game.id, lang).await {
        tracing::warn!(game = game.id, %error, "could not update the board message");
    }
    let result = if game.is_over() {
        post_summary(http, data, game.id, lang).await
    } else {
        notify(http, data, game, lang).await
    };
    if let Err(error) = result {
        tracing::warn!(game = game.id, %error, "could not post the notice or summary");
    }
}

/// Edits the stored board message to show the game as it stands; posts a new board (and
/// remembers it) when there is none or it was deleted.
pub async fn refresh_board(http: &serenity::Http, data: &Data, game_id: GameId, lang: Lang) -> Result<(), BotError> {
    let board = board::build(data, game_id, Menu::Pieces(0), lang).await?;
    if let Some(stored) = data.host.board_message(game_id).await.map_err(BotError::Host)? {
        let channel = serenity::ChannelId::new(stored.channel_id.max(1) as u64);
        let message = serenity::MessageId::new(stored.message_id.max(1) as u64);
        match with_retries(|| channel.edit_message(http, message, board.edit())).await {
            Ok(_) => return Ok(()),
            Err(error) if is_unknown(&error) => {
                tracing::info!(game = game_id, "the board message is gone; posting a new one");
            }
            Err(error) => return Err(error.into()),
        }
    }
    post_board(http, data, &board).await
}

/// Posts a board as a new message in its game's channel and makes it the game's board.
pub async fn post_board(http: &serenity::Http, data: &Data, board: &board::Board) -> Result<(), BotError> {
    let channel = game_channel(&board.game);
    let message = with_retries(|| channel.send_message(http, board.message())).await?;
    data.host
        .set_board_message(board.game.id, channel.get() as i64, message.id.get() as i64, now())
        .await
        .map_err(BotError::Host)
}

/// Mentions the player to move, and deletes the previous notice of the game so that a channel
/// holds at most one per game.
async fn notify(http: &serenity::Http, data: &Data, game: &GameView, lang: Lang) -> Result<(), BotError> {
    let Some(player) = game.player_to_move() else { return Ok(()) };
    let channel = game_channel(game);
    let message =
        serenity::CreateMessage::new().content(text::your_move(game, lang)).allowed_mentions(mentioning(&[player.id]));
    let sent = with_retries(|| channel.send_message(http, message.clone())).await?;
    if let Some(previous) =
        data.host.replace_notice(game.id, sent.id.get() as i64, now()).await.map_err(BotError::Host)?
    {
        let previous = serenity::MessageId::new(previous.max(1) as u64);
        if let Err(error) = channel.delete_message(http, previous).await {
            tracing::debug!(game = game.id, %error, "could not delete the previous notice");
        }
    }
    Ok(())
}

/// Posts a short line to the game's channel, mentioning `users`.
pub async fn announce(http: &serenity::Http, game: &GameView, content: String, users: &[i64]) -> Result<(), BotError> {
    let channel = game_channel(game);
    let message = serenity::CreateMessage::new().content(content).allowed_mentions(mentioning(users));
    with_retries(|| channel.send_message(http, message.clone())).await?;
    Ok(())
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
    let (first_footer, last_footer) =
        crate::present::summary::gif_footers(&summary.game, summary.record.start().to_move(), lang);
    let options = GifOptions {
        attackers: summary.game.attacker.name.clone(),
        defenders: summary.game.defender.name.clone(),
        first_footer,
        last_footer,
        ..GifOptions::default()
    };
    let renderer = data.renderer.clone();
    let frames = summary.record.clone();
    let gif = tokio::task::spawn_blocking(move || renderer.render_gif(&frames, &options))
        .await
        .map_err(|e| BotError::Render(e.to_string()))?
        .map_err(|e| BotError::Render(e.to_string()))?;
    let gif_name = format!("game-{game_id}.gif");
    let words = crate::present::summary::summary_text(&summary, lang);
    let embed = serenity::CreateEmbed::new()
        .title(words.title)
        .description(words.description)
        .image(format!("attachment://{gif_name}"));
    let files = vec![
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

/// Posts the summary of a finished game in its channel, mentioning both players.
async fn post_summary(http: &serenity::Http, data: &Data, game_id: GameId, lang: Lang) -> Result<(), BotError> {
    let (embed, files) = summary_message(data, game_id, lang).await?;
    let game = data.host.show(game_id).await.map_err(BotError::Host)?;
    let players = game.players();
    let content = players.iter().map(|id| mention(*id)).collect::<Vec<_>>().join(" ");
    let message = serenity::CreateMessage::new()
        .content(content)
        .embed(embed)
        .add_files(files)
        .allowed_mentions(mentioning(&players));
    with_retries(|| game_channel(&game).send_message(http, message.clone())).await?;
    Ok(())
}

/// Discord's "Unknown Message" or "Unknown Channel": the message was deleted.
fn is_unknown(error: &serenity::Error) -> bool {
    matches!(error, serenity::Error::Http(serenity::HttpError::UnsuccessfulRequest(response))
        if response.status_code == reqwest::StatusCode::NOT_FOUND)
}
