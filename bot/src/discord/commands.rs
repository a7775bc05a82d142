//! The slash commands. Each one is thin: it reads its options, calls plain functions (the host,
//! [`super::text`]) and sends the answer; nothing here is worth testing without Discord.

use poise::CreateReply;

use super::retry::with_retries;
use super::text::{self, Lang};
use super::{BotError, Context};

/// Every command the bot registers, in one place, so registration and dispatch cannot disagree.
#[must_use]
pub fn all() -> Vec<poise::Command<super::Data, BotError>> {
    vec![tafl()]
}

/// Play tafl (hnefatafl and its relatives) on Discord.
#[poise::command(
    slash_command,
    subcommands("variants"),
    subcommand_required,
    name_localized("ru", "тафл"),
    description_localized("ru", "Тафл (хнефатафл и его родня) в Discord.")
)]
#[allow(clippy::unused_async)] // poise calls every command as an async function
pub async fn tafl(_ctx: Context<'_>) -> Result<(), BotError> {
    // Discord never invokes a command group itself, only its subcommands.
    Ok(())
}

/// The preset variants, with one line about each.
#[poise::command(
    slash_command,
    name_localized("ru", "варианты"),
    description_localized("ru", "Готовые варианты правил, по строке о каждом.")
)]
pub async fn variants(ctx: Context<'_>) -> Result<(), BotError> {
    let lang = Lang::from_locale(ctx.locale());
    let reply = CreateReply::default().embed(text::variants_embed(lang));
    with_retries(|| ctx.send(reply.clone())).await?;
    Ok(())
}
