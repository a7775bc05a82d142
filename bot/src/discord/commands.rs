//! The slash commands. Each one is thin: it reads its options, calls plain functions (the host,
//! [`super::text`], [`super::board`]) and sends the answer. Errors are private, one sentence, in
//! the caller's language ([`super::on_error`]); what everyone sees (boards, notices) is in the
//! server's language.

use poise::CreateReply;
use poise::serenity_prelude as serenity;
use tafl_render::BoardOptions;
use tafl_rules::{Position, Variant};

use super::board::{self, Menu};
use super::components::announce_offer;
use super::ids::Control;
use super::play::{self, now};
use super::retry::with_retries;
use super::settings::settings;
use super::text::{self, Label, Lang};
use super::{BotError, Context};
use crate::host::{ChallengeRequest, Clock, GameId, OfferAction, OfferKind, Place, SideChoice, User};

/// Every command the bot registers, in one place, so registration and dispatch cannot disagree.
#[must_use]
pub fn all() -> Vec<poise::Command<super::Data, BotError>> {
    vec![tafl()]
}

/// Play tafl (hnefatafl and its relatives) on Discord.
#[poise::command(
    slash_command,
    subcommands(
        "challenge",
        "move_",
        "board",
        "resign",
        "draw",
        "takeback",
        "games",
        "summary",
        "export",
        "leaderboard",
        "profile",
        "variants",
        "rules",
        "settings"
    ),
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

/// The caller as the host knows them.
fn caller(ctx: Context<'_>) -> User {
    User::new(ctx.author().id.get() as i64, ctx.author().display_name())
}

/// The caller's language, for private answers.
fn lang(ctx: Context<'_>) -> Lang {
    Lang::from_locale(ctx.locale())
}

/// The server's language (the caller's in a DM), for what everyone sees.
fn public_lang(ctx: Context<'_>) -> Lang {
    match ctx {
        poise::Context::Application(app) => {
            Lang::from_locale(app.interaction.guild_locale.as_deref().or(Some(app.interaction.locale.as_str())))
        }
        poise::Context::Prefix(_) => Lang::En,
    }
}

/// The game a command means: the one named, or the caller's only game in this channel.
async fn resolve_game(ctx: Context<'_>, game: Option<GameId>) -> Result<GameId, BotError> {
    if let Some(id) = game {
        return Ok(id);
    }
    let here = games_here(ctx).await?;
    match here.as_slice() {
        [only] => Ok(*only),
        _ => Err(BotError::User(text::which_game(&here, lang(ctx)))),
    }
}

/// The caller's games going on in this channel or thread.
async fn games_here(ctx: Context<'_>) -> Result<Vec<GameId>, BotError> {
    let channel = ctx.channel_id().get() as i64;
    let games = ctx.data().host.games(caller(ctx).id, false).await?;
    Ok(games.iter().filter(|g| g.place.channel == channel || g.place.thread == Some(channel)).map(|g| g.id).collect())
}

/// The caller's games going on, for the `game` option: `#12 Copenhagen vs Bob (your move)`.
async fn autocomplete_game(ctx: Context<'_>, partial: &str) -> serenity::CreateAutocompleteResponse {
    let lang = lang(ctx);
    let wanted = partial.trim().trim_start_matches('#');
    let games = ctx.data().host.games(caller(ctx).id, false).await.unwrap_or_default();
    let choices = games
        .iter()
        .filter(|g| g.id.to_string().starts_with(wanted))
        .take(25)
        .map(|g| {
            let turn = match (g.my_turn(), lang) {
                (true, Lang::En) => "your move",
                (false, Lang::En) => "their move",
                (true, Lang::Ru) => "ваш ход",
                (false, Lang::Ru) => "ход соперника",
            };
            let name = format!("#{} {} vs {} ({turn})", g.id, text::variant_name(&g.variant), g.opponent.name);
            serenity::AutocompleteChoice::new(name.chars().take(100).collect::<String>(), g.id)
        })
        .collect();
    serenity::CreateAutocompleteResponse::new().set_choices(choices)
}

/// The value of the integer option `name` in a command's raw options (subcommands included), as
/// autocomplete sees the options typed so far.
fn integer_option(options: &[serenity::CommandDataOption], name: &str) -> Option<i64> {
    options.iter().find_map(|option| match &option.value {
        serenity::CommandDataOptionValue::Integer(value) if option.name == name => Some(*value),
        serenity::CommandDataOptionValue::SubCommand(inner)
        | serenity::CommandDataOptionValue::SubCommandGroup(inner) => integer_option(inner, name),
        _ => None,
    })
}

/// The legal moves for the `notation` option, filtered by what is typed and labelled with
/// captures and threats; when the caller cannot move, one entry that says why.
async fn autocomplete_move(ctx: Context<'_>, partial: &str) -> serenity::CreateAutocompleteResponse {
    let named = match ctx {
        poise::Context::Application(app) => integer_option(&app.interaction.data.options, "game"),
        poise::Context::Prefix(_) => None,
    };
    let result = async {
        let game = resolve_game(ctx, named).await?;
        Ok::<_, BotError>(ctx.data().host.legal_moves(game, caller(ctx).id, partial, 25).await?)
    }
    .await;
    let choices = match result {
        Ok(moves) => moves.into_iter().map(|m| serenity::AutocompleteChoice::new(m.label, m.notation)).collect(),
        Err(error) => {
            let why = match &error {
                BotError::Host(error) => text::host_error(error, lang(ctx)),
                BotError::User(message) => message.clone(),
                _ => text::internal_error(lang(ctx)).to_owned(),
            };
            // Submitting this entry is refused as bad notation, with the same explanation.
            vec![serenity::AutocompleteChoice::new(why.chars().take(100).collect::<String>(), "?")]
        }
    };
    serenity::CreateAutocompleteResponse::new().set_choices(choices)
}

/// The usual clocks, and what is typed if it reads as one.
#[allow(clippy::unused_async)] // poise calls autocomplete callbacks as async functions
async fn autocomplete_clock(ctx: Context<'_>, partial: &str) -> serenity::CreateAutocompleteResponse {
    let lang = lang(ctx);
    let mut choices = Vec::new();
    if let Ok(clock) = partial.parse::<Clock>()
        && !partial.trim().is_empty()
    {
        let name = text::clock_line(clock, lang).unwrap_or_else(|| text::untimed(lang).to_owned());
        choices.push(serenity::AutocompleteChoice::new(name, clock.to_string()));
    }
    for usual in ["1d", "3d", "7d", "1d+3d", "3d+7d", "none"] {
        let clock: Clock = usual.parse().expect("a usual clock reads");
        if choices.len() < 25 && (partial.trim().is_empty() || usual.starts_with(partial.trim())) {
            let name = text::clock_line(clock, lang).unwrap_or_else(|| text::untimed(lang).to_owned());
            choices.push(serenity::AutocompleteChoice::new(name, usual));
        }
    }
    serenity::CreateAutocompleteResponse::new().set_choices(choices)
}

/// The side a challenger asks for.
#[derive(Clone, Copy, Debug, poise::ChoiceParameter)]
pub enum SideParam {
    #[name = "attackers"]
    #[name_localized("ru", "нападающие")]
    Attackers,
    #[name = "defenders"]
    #[name_localized("ru", "защитники")]
    Defenders,
    #[name = "random"]
    #[name_localized("ru", "жребий")]
    Random,
}

/// What to do about a draw offer or takeback request.
#[derive(Clone, Copy, Debug, poise::ChoiceParameter)]
pub enum AnswerParam {
    #[name = "offer"]
    #[name_localized("ru", "предложить")]
    Offer,
    #[name = "accept"]
    #[name_localized("ru", "принять")]
    Accept,
    #[name = "decline"]
    #[name_localized("ru", "отклонить")]
    Decline,
}

impl From<AnswerParam> for OfferAction {
    fn from(answer: AnswerParam) -> OfferAction {
        match answer {
            AnswerParam::Offer => OfferAction::Offer,
            AnswerParam::Accept => OfferAction::Accept,
            AnswerParam::Decline => OfferAction::Decline,
        }
    }
}

/// Challenge someone (or anyone) to a game.
#[poise::command(
    slash_command,
    guild_only,
    name_localized("ru", "вызов"),
    description_localized("ru", "Вызвать игрока (или любого желающего) на партию.")
)]
pub async fn challenge(
    ctx: Context<'_>,
    #[description = "Who to play; leave out for an open challenge anyone may accept"]
    #[name_localized("ru", "соперник")]
    #[description_localized("ru", "С кем играть; без соперника вызов открыт для всех")]
    opponent: Option<serenity::User>,
    #[description = "The preset, e.g. copenhagen (the default)"]
    #[name_localized("ru", "вариант")]
    #[description_localized("ru", "Вариант, например copenhagen (по умолчанию)")]
    #[autocomplete = "autocomplete_variant"]
    variant: Option<String>,
    #[description = "Your side (random by default)"]
    #[name_localized("ru", "сторона")]
    #[description_localized("ru", "Ваша сторона (по умолчанию жребий)")]
    side: Option<SideParam>,
    #[description = "Time per move: 1d, 3d, 7d, 1d12h, 3d+7d (with a reserve), none"]
    #[name_localized("ru", "часы")]
    #[description_localized("ru", "Время на ход: 1d, 3d, 7d, 1d12h, 3d+7d (с запасом), none")]
    #[autocomplete = "autocomplete_clock"]
    clock: Option<String>,
    #[description = "Options of the preset, e.g. king=unarmed"]
    #[name_localized("ru", "опции")]
    #[description_localized("ru", "Опции варианта, например king=unarmed")]
    options: Option<String>,
) -> Result<(), BotError> {
    let lang = lang(ctx);
    if opponent.as_ref().is_some_and(|o| o.bot) {
        return Err(BotError::User(match lang {
            Lang::En => {
                "Bots cannot play; challenge a person, or leave the opponent out for an open challenge.".to_owned()
            }
            Lang::Ru => "Боты не играют; вызовите человека или оставьте вызов открытым.".to_owned(),
        }));
    }
    let guild = ctx.guild_id().map_or(0, |g| g.get() as i64);
    let settings = ctx.data().host.server_settings(guild).await?;
    if !settings.allows(ctx.channel_id().get() as i64) {
        return Err(BotError::User(text::channel_not_allowed(lang).to_owned()));
    }
    let clock = match clock {
        Some(text) => text.parse::<Clock>().map_err(|e| BotError::User(text::sentence(&e)))?,
        None => settings.default_clock.unwrap_or_default(),
    };
    let request = ChallengeRequest {
        challenger: caller(ctx),
        opponent: opponent.as_ref().map(|o| User::new(o.id.get() as i64, o.display_name())),
        variant: variant.unwrap_or_else(|| Variant::Copenhagen.id().to_owned()).trim().to_owned(),
        options: options.unwrap_or_default().split_whitespace().map(str::to_owned).collect(),
        side: match side.unwrap_or(SideParam::Random) {
            SideParam::Attackers => SideChoice::Attackers,
            SideParam::Defenders => SideChoice::Defenders,
            SideParam::Random => SideChoice::Random,
        },
        clock,
        place: Place { guild, channel: ctx.channel_id().get() as i64, thread: None },
    };
    let challenge = ctx.data().host.challenge(&request, now()).await?;
    let public = public_lang(ctx);
    let (title, description) = text::challenge_card(&challenge, public);
    let buttons = vec![
        serenity::CreateButton::new(Control::Accept(challenge.id).to_string())
            .label(text::label(Label::Accept, public))
            .style(serenity::ButtonStyle::Success),
        serenity::CreateButton::new(Control::Decline(challenge.id).to_string())
            .label(text::label(Label::Decline, public))
            .style(serenity::ButtonStyle::Secondary),
    ];
    let invited: Vec<i64> = challenge.opponent.iter().map(|o| o.id).collect();
    let reply = CreateReply::default()
        .content(invited.iter().map(|id| text::mention(*id)).collect::<String>())
        .embed(serenity::CreateEmbed::new().title(title).description(description))
        .components(vec![serenity::CreateActionRow::Buttons(buttons)])
        .allowed_mentions(play::mentioning(&invited));
    let handle = with_retries(|| ctx.send(reply.clone())).await?;
    match handle.message().await {
        Ok(message) => {
            let (channel, id) = (message.channel_id.get() as i64, message.id.get() as i64);
            if let Err(error) = ctx.data().host.set_challenge_message(challenge.id, channel, id).await {
                tracing::warn!(challenge = challenge.id, %error, "could not remember the challenge card");
            }
        }
        Err(error) => tracing::warn!(challenge = challenge.id, %error, "could not read the challenge card back"),
    }
    Ok(())
}

/// Play a move, e.g. e1-e3 (autocomplete lists the legal ones).
#[poise::command(
    slash_command,
    rename = "move",
    name_localized("ru", "ход"),
    description_localized("ru", "Сделать ход, например e1-e3 (подсказка перечислит возможные).")
)]
pub async fn move_(
    ctx: Context<'_>,
    #[description = "The move, e.g. e1-e3"]
    #[name_localized("ru", "ход")]
    #[description_localized("ru", "Ход, например e1-e3")]
    #[autocomplete = "autocomplete_move"]
    notation: String,
    #[description = "The game, when you play several here"]
    #[name_localized("ru", "партия")]
    #[description_localized("ru", "Партия, если их здесь несколько")]
    #[autocomplete = "autocomplete_game"]
    game: Option<i64>,
) -> Result<(), BotError> {
    let game = resolve_game(ctx, game).await?;
    let played = ctx.data().host.play(game, caller(ctx).id, &notation, None, now()).await?;
    let reply = CreateReply::default().content(text::played(&played.notation, game, lang(ctx))).ephemeral(true);
    with_retries(|| ctx.send(reply.clone())).await?;
    play::after_change(ctx.http(), ctx.data(), &played.game, false, public_lang(ctx)).await;
    Ok(())
}

/// Show a game's board, with its controls, as a new message.
#[poise::command(
    slash_command,
    name_localized("ru", "доска"),
    description_localized("ru", "Показать доску партии с кнопками новым сообщением.")
)]
pub async fn board(
    ctx: Context<'_>,
    #[description = "The game, when you play several here"]
    #[name_localized("ru", "партия")]
    #[description_localized("ru", "Партия, если их здесь несколько")]
    #[autocomplete = "autocomplete_game"]
    game: Option<i64>,
) -> Result<(), BotError> {
    let game = resolve_game(ctx, game).await?;
    let style = ctx.data().host.user_settings(caller(ctx).id).await?;
    let board =
        board::build_styled(ctx.data(), game, Menu::Pieces(0), public_lang(ctx), style.orientation, style.theme)
            .await?;
    let reply = CreateReply::default()
        .embed(board.embed.clone())
        .components(board.components.clone())
        .attachment(serenity::CreateAttachment::bytes(board.png.clone(), board.file_name.clone()))
        .allowed_mentions(serenity::CreateAllowedMentions::new());
    let handle = with_retries(|| ctx.send(reply.clone())).await?;
    if board.game.is_over() {
        return Ok(());
    }
    // The new message becomes the board that moves update; the old one loses its controls.
    let message = handle.message().await?;
    let old = ctx.data().host.board_message(game).await?;
    ctx.data().host.set_board_message(game, message.channel_id.get() as i64, message.id.get() as i64, now()).await?;
    if let Some(old) = old.filter(|old| old.message_id != message.id.get() as i64) {
        let channel = serenity::ChannelId::new(old.channel_id.max(1) as u64);
        let edit = serenity::EditMessage::new().components(Vec::new());
        if let Err(error) =
            channel.edit_message(ctx.http(), serenity::MessageId::new(old.message_id.max(1) as u64), edit).await
        {
            tracing::debug!(game, %error, "could not retire the old board");
        }
    }
    Ok(())
}

/// Resign a game.
#[poise::command(slash_command, name_localized("ru", "сдаться"), description_localized("ru", "Сдать партию."))]
pub async fn resign(
    ctx: Context<'_>,
    #[description = "The game, when you play several here"]
    #[name_localized("ru", "партия")]
    #[description_localized("ru", "Партия, если их здесь несколько")]
    #[autocomplete = "autocomplete_game"]
    game: Option<i64>,
) -> Result<(), BotError> {
    let game = resolve_game(ctx, game).await?;
    let finished = ctx.data().host.resign(game, caller(ctx).id, now()).await?;
    let reply = CreateReply::default().content(text::resigned(game, lang(ctx))).ephemeral(true);
    with_retries(|| ctx.send(reply.clone())).await?;
    play::after_change(ctx.http(), ctx.data(), &finished.game, false, public_lang(ctx)).await;
    Ok(())
}

/// Offer a draw, or accept or decline your opponent's offer.
#[poise::command(
    slash_command,
    name_localized("ru", "ничья"),
    description_localized("ru", "Предложить ничью или ответить на предложение соперника.")
)]
pub async fn draw(
    ctx: Context<'_>,
    #[description = "offer (the default), accept or decline"]
    #[name_localized("ru", "действие")]
    #[description_localized("ru", "предложить (по умолчанию), принять или отклонить")]
    action: Option<AnswerParam>,
    #[description = "The game, when you play several here"]
    #[name_localized("ru", "партия")]
    #[description_localized("ru", "Партия, если их здесь несколько")]
    #[autocomplete = "autocomplete_game"]
    game: Option<i64>,
) -> Result<(), BotError> {
    offer(ctx, OfferKind::Draw, action, game).await
}

/// Ask to take back your last move, or answer your opponent's request.
#[poise::command(
    slash_command,
    name_localized("ru", "возврат"),
    description_localized("ru", "Попросить вернуть свой ход или ответить на просьбу соперника.")
)]
pub async fn takeback(
    ctx: Context<'_>,
    #[description = "offer (the default), accept or decline"]
    #[name_localized("ru", "действие")]
    #[description_localized("ru", "предложить (по умолчанию), принять или отклонить")]
    action: Option<AnswerParam>,
    #[description = "The game, when you play several here"]
    #[name_localized("ru", "партия")]
    #[description_localized("ru", "Партия, если их здесь несколько")]
    #[autocomplete = "autocomplete_game"]
    game: Option<i64>,
) -> Result<(), BotError> {
    offer(ctx, OfferKind::Takeback, action, game).await
}

async fn offer(
    ctx: Context<'_>,
    kind: OfferKind,
    action: Option<AnswerParam>,
    game: Option<i64>,
) -> Result<(), BotError> {
    let game = resolve_game(ctx, game).await?;
    let action = action.map_or(OfferAction::Offer, OfferAction::from);
    let user = caller(ctx).id;
    let outcome = match kind {
        OfferKind::Draw => ctx.data().host.draw(game, user, action, now()).await?,
        OfferKind::Takeback => ctx.data().host.takeback(game, user, action, now()).await?,
    };
    let reply = CreateReply::default().content(text::offer_notice(&outcome, kind, user, lang(ctx))).ephemeral(true);
    with_retries(|| ctx.send(reply.clone())).await?;
    let public = public_lang(ctx);
    if let Err(error) = play::refresh_board(ctx.http(), ctx.data(), game, public).await {
        tracing::warn!(game, %error, "could not update the board message");
    }
    announce_offer(ctx.http(), ctx.data(), &outcome, kind, user, public).await;
    Ok(())
}

/// Your games in progress (or someone else's), with jump links.
#[poise::command(
    slash_command,
    name_localized("ru", "партии"),
    description_localized("ru", "Ваши текущие партии (или другого игрока) со ссылками.")
)]
pub async fn games(
    ctx: Context<'_>,
    #[description = "Whose games (yours by default)"]
    #[name_localized("ru", "игрок")]
    #[description_localized("ru", "Чьи партии (по умолчанию ваши)")]
    user: Option<serenity::User>,
) -> Result<(), BotError> {
    let lang = lang(ctx);
    let whose = user.as_ref().map_or(caller(ctx).id, |u| u.id.get() as i64);
    let games = ctx.data().host.games(whose, false).await?;
    let reply = if games.is_empty() {
        CreateReply::default().content(text::no_games(lang))
    } else {
        // An embed description holds 4096 characters: about 25 lines with links.
        let lines: Vec<String> = games.iter().take(25).map(|g| text::game_line(g, now(), lang)).collect();
        let title = match lang {
            Lang::En => format!("Games in progress: {}", games.len()),
            Lang::Ru => format!("Текущие партии: {}", games.len()),
        };
        CreateReply::default().embed(serenity::CreateEmbed::new().title(title).description(lines.join("\n")))
    };
    with_retries(|| ctx.send(reply.clone().ephemeral(true))).await?;
    Ok(())
}

/// The summary of a game: result, moves, captures, the animated game and its record.
#[poise::command(
    slash_command,
    name_localized("ru", "итог"),
    description_localized("ru", "Итог партии: результат, ходы, взятия, анимация и запись.")
)]
pub async fn summary(
    ctx: Context<'_>,
    #[description = "The game number"]
    #[name_localized("ru", "партия")]
    #[description_localized("ru", "Номер партии")]
    #[autocomplete = "autocomplete_game"]
    game: Option<i64>,
) -> Result<(), BotError> {
    let game = resolve_game(ctx, game).await?;
    // Drawing the animation of a long game can take a while: answer "thinking" first.
    ctx.defer().await?;
    let (embed, files) = play::summary_message(ctx.data(), game, public_lang(ctx)).await?;
    let mut reply = CreateReply::default().embed(embed).allowed_mentions(serenity::CreateAllowedMentions::new());
    for file in files {
        reply = reply.attachment(file);
    }
    with_retries(|| ctx.send(reply.clone())).await?;
    Ok(())
}

/// A game's record in OTN, as a file.
#[poise::command(
    slash_command,
    name_localized("ru", "запись"),
    description_localized("ru", "Запись партии в OTN файлом.")
)]
pub async fn export(
    ctx: Context<'_>,
    #[description = "The game number"]
    #[name_localized("ru", "партия")]
    #[description_localized("ru", "Номер партии")]
    #[autocomplete = "autocomplete_game"]
    game: Option<i64>,
) -> Result<(), BotError> {
    let game = resolve_game(ctx, game).await?;
    let record = ctx.data().host.export(game).await?;
    let file = serenity::CreateAttachment::bytes(record.into_bytes(), format!("game-{game}.otn"));
    let reply = CreateReply::default().attachment(file).ephemeral(true);
    with_retries(|| ctx.send(reply.clone())).await?;
    Ok(())
}

/// The best players of a variant family, on this server or everywhere.
#[poise::command(
    slash_command,
    name_localized("ru", "рейтинг"),
    description_localized("ru", "Лучшие игроки семейства вариантов на сервере или везде.")
)]
pub async fn leaderboard(
    ctx: Context<'_>,
    #[description = "The preset or family, e.g. copenhagen (the default)"]
    #[name_localized("ru", "вариант")]
    #[description_localized("ru", "Вариант или семейство, например copenhagen (по умолчанию)")]
    #[autocomplete = "autocomplete_variant"]
    variant: Option<String>,
    #[description = "Ratings from every server instead of this one"]
    #[name_localized("ru", "везде")]
    #[description_localized("ru", "Рейтинги со всех серверов, а не только с этого")]
    global: Option<bool>,
) -> Result<(), BotError> {
    let guild = scope(ctx, global);
    let variant = variant.unwrap_or_else(|| Variant::Copenhagen.id().to_owned());
    let board = ctx.data().host.leaderboard(&variant, guild, 20).await?;
    let words = super::summary::leaderboard_text(&board, lang(ctx));
    let trends = ctx.data().host.rating_trends(&board, CARD_TREND).await?;
    let card = super::cards::leaderboard_card(&board, &trends, lang(ctx), tafl_render::Theme::default());
    let png = draw_card(ctx.data(), move |r| r.render_leaderboard_card(&card)).await?;
    let reply = CreateReply::default()
        .embed(
            serenity::CreateEmbed::new()
                .title(words.title)
                .description(words.description)
                .image("attachment://leaderboard.png"),
        )
        .attachment(serenity::CreateAttachment::bytes(png, "leaderboard.png"))
        .allowed_mentions(serenity::CreateAllowedMentions::new());
    with_retries(|| ctx.send(reply.clone())).await?;
    Ok(())
}

/// A player's ratings and results by side, on this server or everywhere.
#[poise::command(
    slash_command,
    name_localized("ru", "профиль"),
    description_localized("ru", "Рейтинги и результаты игрока за каждую сторону.")
)]
pub async fn profile(
    ctx: Context<'_>,
    #[description = "Whose profile (yours by default)"]
    #[name_localized("ru", "игрок")]
    #[description_localized("ru", "Чей профиль (по умолчанию ваш)")]
    user: Option<serenity::User>,
    #[description = "Ratings from every server instead of this one"]
    #[name_localized("ru", "везде")]
    #[description_localized("ru", "Рейтинги со всех серверов, а не только с этого")]
    global: Option<bool>,
) -> Result<(), BotError> {
    let whose = user.as_ref().map_or(caller(ctx).id, |u| u.id.get() as i64);
    let profile = ctx.data().host.profile(whose, scope(ctx, global)).await?;
    let words = super::summary::profile_text(&profile, lang(ctx));
    let history = ctx.data().host.rating_history(whose, scope(ctx, global)).await?;
    let card = super::cards::profile_card(&profile, &history, lang(ctx), tafl_render::Theme::default());
    let png = draw_card(ctx.data(), move |r| r.render_profile_card(&card)).await?;
    let reply = CreateReply::default()
        .embed(
            serenity::CreateEmbed::new()
                .title(words.title)
                .description(words.description)
                .image("attachment://profile.png"),
        )
        .attachment(serenity::CreateAttachment::bytes(png, "profile.png"))
        .allowed_mentions(serenity::CreateAllowedMentions::new());
    with_retries(|| ctx.send(reply.clone())).await?;
    Ok(())
}

/// Ratings per sparkline on the leaderboard card.
const CARD_TREND: usize = 20;

/// Draws a card on the blocking pool (a card takes milliseconds of CPU).
async fn draw_card(
    data: &super::Data,
    draw: impl FnOnce(&tafl_render::Renderer) -> Result<Vec<u8>, tafl_render::RenderError> + Send + 'static,
) -> Result<Vec<u8>, BotError> {
    let renderer = data.renderer.clone();
    tokio::task::spawn_blocking(move || draw(&renderer))
        .await
        .map_err(|e| BotError::Render(e.to_string()))?
        .map_err(|e| BotError::Render(e.to_string()))
}

/// The server whose ratings to show: this one, or none (global) when asked or in a DM.
fn scope(ctx: Context<'_>, global: Option<bool>) -> Option<i64> {
    if global == Some(true) { None } else { ctx.guild_id().map(|g| g.get() as i64) }
}
