//! The slash commands. Each one is thin: it reads its options, calls plain functions (the host,
//! [`super::text`]) and sends the answer; nothing here is worth testing without Discord.

use poise::CreateReply;
use poise::serenity_prelude as serenity;
use tafl_render::BoardOptions;
use tafl_rules::{Position, Variant};

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
    subcommands("variants", "rules"),
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

/// Offers the presets whose id or name contains what has been typed.
#[allow(clippy::unused_async)] // poise calls autocomplete callbacks as async functions
async fn autocomplete_variant(_ctx: Context<'_>, partial: &str) -> serenity::CreateAutocompleteResponse {
    let choices = text::variant_choices(partial)
        .into_iter()
        .map(|(label, id)| serenity::AutocompleteChoice::new(label, id))
        .collect();
    serenity::CreateAutocompleteResponse::new().set_choices(choices)
}

/// The rules of a variant in a few lines, with its starting position drawn.
#[poise::command(
    slash_command,
    name_localized("ru", "правила"),
    description_localized("ru", "Правила варианта в нескольких строках и начальная позиция.")
)]
pub async fn rules(
    ctx: Context<'_>,
    #[description = "The preset, e.g. copenhagen"]
    #[name_localized("ru", "вариант")]
    #[description_localized("ru", "Вариант, например copenhagen")]
    #[autocomplete = "autocomplete_variant"]
    variant: String,
) -> Result<(), BotError> {
    let lang = Lang::from_locale(ctx.locale());
    let Ok(variant) = variant.trim().parse::<Variant>() else {
        return Err(BotError::User(text::unknown_variant(lang).to_owned()));
    };
    let renderer = ctx.data().renderer.clone();
    // Drawing is CPU work: keep it off the async workers that serve other interactions.
    let png = tokio::task::spawn_blocking(move || {
        let position = Position::new(variant.rules()).map_err(|e| e.to_string())?;
        renderer.render_png(&position, &BoardOptions::default()).map_err(|e| e.to_string())
    })
    .await
    .map_err(|e| BotError::Render(e.to_string()))?
    .map_err(BotError::Render)?;
    let file_name = format!("{}.png", variant.id());
    let embed = serenity::CreateEmbed::new()
        .title(variant.name())
        .description(text::rules_description(variant, lang))
        .image(format!("attachment://{file_name}"));
    let reply = CreateReply::default().embed(embed).attachment(serenity::CreateAttachment::bytes(png, file_name));
    with_retries(|| ctx.send(reply.clone())).await?;
    Ok(())
}
