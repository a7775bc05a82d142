//! The slash commands. Each one is thin: it reads its options, calls plain functions (the host,
//! [`crate::present`], [`super::board`]) and sends the answer. Errors are private, one sentence, in
//! the caller's language ([`super::on_error`]); what everyone sees (boards, notices) is in the
//! server's language.

use poise::CreateReply;
use poise::serenity_prelude as serenity;
use tafl_render::BoardOptions;
use tafl_rules::{Position, Variant};

use super::board::{self, Menu};
use super::causes::causes;
use super::ids::Control;
use super::play::{self, now};
use super::retry::{is_already_acknowledged, with_retries};
use super::settings::settings;
use super::{BotError, Context};
use crate::host::{
    BoardRequest, ChallengeRequest, Clock, GameId, HostError, OfferAction, OfferKind, Place, SideChoice, User,
};
use crate::present::Lang;
use crate::present::text::{self, Label, Refusal};

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
        "claim",
        "draw",
        "takeback",
        "hint",
        "games",
        "summary",
        "export",
        "leaderboard",
        "profile",
        "variants",
        "rules",
        "settings"
    ),
    subcommand_required
)]
#[allow(clippy::unused_async)] // poise calls every command as an async function
pub async fn tafl(_ctx: Context<'_>) -> Result<(), BotError> {
    // Discord never invokes a command group itself, only its subcommands.
    Ok(())
}

/// The preset variants, with one line about each.
#[poise::command(slash_command)]
pub async fn variants(ctx: Context<'_>) -> Result<(), BotError> {
    // Posted for the channel: in the server's language (BOT.md), as leaderboards are.
    let lang = public_lang(ctx).await;
    let embed = serenity::CreateEmbed::new().title(text::variants_title(lang)).description(text::variants_list(lang));
    let reply = CreateReply::default().embed(embed);
    with_retries(|| ctx.send(reply.clone())).await?;
    Ok(())
}

/// Offers the presets whose id or name contains what has been typed.
#[allow(clippy::unused_async)] // poise calls autocomplete callbacks as async functions
async fn autocomplete_variant(ctx: Context<'_>, partial: &str) -> serenity::CreateAutocompleteResponse {
    let choices = text::variant_choices(partial, lang(ctx))
        .into_iter()
        .map(|(label, id)| serenity::AutocompleteChoice::new(label, id))
        .collect();
    serenity::CreateAutocompleteResponse::new().set_choices(choices)
}

/// The rules of a variant in a few lines, with its starting position drawn.
#[poise::command(slash_command)]
pub async fn rules(ctx: Context<'_>, #[autocomplete = "autocomplete_variant"] variant: String) -> Result<(), BotError> {
    // The name was typed (and suggested) in the caller's language, and a refusal is theirs alone;
    // the rules are posted for the channel, in the server's language.
    let typed_in = lang(ctx);
    let Ok(variant) = text::typed_variant(&variant, typed_in).parse::<Variant>() else {
        return Err(BotError::User(text::refusal(Refusal::UnknownVariant, typed_in)));
    };
    let lang = public_lang(ctx).await;
    let position = Position::new(variant.rules()).map_err(|e| BotError::Render(e.to_string()))?;
    // Drawing is CPU work: keep it off the async workers that serve other interactions.
    let png =
        ctx.data().draw(move |renderer| renderer.render_png(&position, &BoardOptions::default())).finish().await?;
    let file_name = format!("{}.png", variant.id());
    let embed = serenity::CreateEmbed::new()
        .title(text::variant_name(variant.id(), lang))
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

/// What the server the command was used in calls `user`: their nickname there, as Discord
/// reports it with the command (the caller's, or a member a user option names), else their
/// display name.
fn name_here(ctx: Context<'_>, user: &serenity::User) -> String {
    let nick = match ctx {
        poise::Context::Application(app) if user.id == app.interaction.user.id => {
            app.interaction.member.as_ref().and_then(|m| m.nick.clone())
        }
        poise::Context::Application(app) => {
            app.interaction.data.resolved.members.get(&user.id).and_then(|m| m.nick.clone())
        }
        poise::Context::Prefix(_) => None,
    };
    // A nickname of only spaces names nobody, as the store has it.
    nick.filter(|nick| !nick.trim().is_empty()).unwrap_or_else(|| user.display_name().to_owned())
}

/// Where the command was used: a channel, or a thread (a forum post too) with its parent
/// channel, which the server's allow-list judges.
fn place(ctx: Context<'_>) -> Place {
    let guild = ctx.guild_id().map_or(0, |g| g.get() as i64);
    let here = ctx.channel_id().get() as i64;
    // Discord names a channel's category as its parent too: only a thread's parent counts.
    let parent = match ctx {
        poise::Context::Application(app) => {
            app.interaction.channel.as_ref().filter(|c| super::threads::is_thread(c.kind)).and_then(|c| c.parent_id)
        }
        poise::Context::Prefix(_) => None,
    };
    match parent {
        Some(parent) => Place { guild, channel: parent.get() as i64, thread: Some(here) },
        None => Place { guild, channel: here, thread: None },
    }
}

/// What Discord says the bot may do in the channel the command was typed in.
fn app_permissions(ctx: Context<'_>) -> Option<serenity::Permissions> {
    match ctx {
        poise::Context::Application(app) => app.interaction.app_permissions,
        poise::Context::Prefix(_) => None,
    }
}

/// Refuses when the bot may not post a game's boards and notices in this channel (see
/// [`super::permissions`]), in the words `refusal` gives.
fn ensure_can_post(ctx: Context<'_>, refusal: fn(serenity::Permissions, Lang) -> String) -> Result<(), BotError> {
    let missing = super::permissions::missing_to_host(app_permissions(ctx), place(ctx).thread.is_some());
    if missing.is_empty() { Ok(()) } else { Err(BotError::User(refusal(missing, lang(ctx)))) }
}

/// Refuses to start a game, or to move one here, where the bot may not post its messages.
fn ensure_can_host(ctx: Context<'_>) -> Result<(), BotError> {
    ensure_can_post(ctx, super::permissions::refusal)
}

/// Answers privately, with `words`, a command that changed `game` (a move, a resignation, a
/// claim, an offer or its answer), and says when the bot may not post the game's messages where
/// it was typed ([`super::permissions::unseen_note`]).
async fn answer_change(ctx: Context<'_>, game: &crate::host::GameView, words: String) -> Result<(), BotError> {
    let note = super::permissions::unseen_note(app_permissions(ctx), ctx.channel_id(), game, lang(ctx));
    let words = match note {
        Some(note) => format!("{words} {note}"),
        None => words,
    };
    send_after_change(ctx, CreateReply::default().content(words).ephemeral(true)).await
}

/// Sends `reply`, the answer to a change already recorded (see [`BotError::after_change`]).
pub(super) async fn send_after_change(ctx: Context<'_>, reply: CreateReply) -> Result<(), BotError> {
    BotError::after_change(with_retries(|| ctx.send(reply.clone())).await.map(drop).map_err(BotError::from))
}

/// The caller's language, for private answers.
fn lang(ctx: Context<'_>) -> Lang {
    Lang::discord(ctx.locale())
}

/// The server's language (the caller's in a DM), for what everyone sees.
async fn public_lang(ctx: Context<'_>) -> Lang {
    let guild = ctx.guild_id().map(|g| g.get() as i64);
    let guild_locale = match ctx {
        poise::Context::Application(app) => app.interaction.guild_locale.as_deref(),
        poise::Context::Prefix(_) => None,
    };
    super::server_lang(ctx.data(), guild, guild_locale, lang(ctx)).await
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

/// The game `/tafl summary` and `/tafl export` mean: the one named, or the caller's game going
/// on in this channel, or when none is, the one of theirs here that ended last. A game just over
/// is what they are asked about, and "you have no game here" was wrong a moment after it ended.
async fn resolve_any_game(ctx: Context<'_>, game: Option<GameId>) -> Result<GameId, BotError> {
    if let Some(id) = game {
        return Ok(id);
    }
    let channel = ctx.channel_id().get() as i64;
    // One read, newest first, finished games too: the first here is the one that ended last.
    let games = ctx.data().host.games(caller(ctx).id, true).await?;
    let here: Vec<_> = games.iter().filter(|g| is_in(g, channel)).collect();
    let going: Vec<GameId> = here.iter().filter(|g| g.ending.is_none()).map(|g| g.id).collect();
    match (going.as_slice(), here.first()) {
        ([only], _) => Ok(*only),
        ([], Some(latest)) => Ok(latest.id),
        _ => Err(BotError::User(text::which_game(&going, lang(ctx)))),
    }
}

/// The game `/tafl board` means without its `game` option: the caller's only game here, else
/// their only game of this server whose channel was deleted. That game is in no channel, and the
/// DM about it tells its players to use `/tafl board` in another channel.
async fn resolve_board_game(ctx: Context<'_>) -> Result<GameId, BotError> {
    let channel = ctx.channel_id().get() as i64;
    let guild = ctx.guild_id().map(|g| g.get() as i64);
    let games = ctx.data().host.games(caller(ctx).id, false).await?;
    let here: Vec<GameId> = games.iter().filter(|g| is_in(g, channel)).map(|g| g.id).collect();
    let stranded: Vec<GameId> =
        games.iter().filter(|g| g.channel_gone && Some(g.place.guild) == guild).map(|g| g.id).collect();
    match (here.as_slice(), stranded.as_slice()) {
        ([only], _) | ([], [only]) => Ok(*only),
        ([], found) | (found, _) => Err(BotError::User(text::which_game(found, lang(ctx)))),
    }
}

/// Whether a game is played in `channel`, or in `channel` as its thread.
fn is_in(game: &crate::host::GameSummary, channel: i64) -> bool {
    game.place.channel == channel || game.place.thread == Some(channel)
}

/// The caller's games going on in this channel or thread.
async fn games_here(ctx: Context<'_>) -> Result<Vec<GameId>, BotError> {
    let channel = ctx.channel_id().get() as i64;
    let games = ctx.data().host.games(caller(ctx).id, false).await?;
    Ok(games.iter().filter(|g| is_in(g, channel)).map(|g| g.id).collect())
}

/// The caller's games going on, for the `game` option: `#12 Copenhagen vs Bob · your move`.
async fn autocomplete_game(ctx: Context<'_>, partial: &str) -> serenity::CreateAutocompleteResponse {
    game_choices(ctx, partial, false).await
}

/// The caller's games, finished ones too (newest first), for `/tafl summary` and `/tafl export`.
async fn autocomplete_any_game(ctx: Context<'_>, partial: &str) -> serenity::CreateAutocompleteResponse {
    game_choices(ctx, partial, true).await
}

async fn game_choices(ctx: Context<'_>, partial: &str, finished_too: bool) -> serenity::CreateAutocompleteResponse {
    let lang = lang(ctx);
    let wanted = partial.trim().trim_start_matches('#');
    let games = ctx.data().host.games(caller(ctx).id, finished_too).await.unwrap_or_default();
    let choices = games
        .iter()
        .filter(|g| g.id.to_string().starts_with(wanted))
        .take(25)
        .map(|g| {
            let name = text::game_choice(g, lang);
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
        Ok(moves) => {
            let lang = lang(ctx);
            moves
                .into_iter()
                .map(|m| serenity::AutocompleteChoice::new(text::move_label(&m, lang), m.notation))
                .collect()
        }
        Err(error) => {
            let why = match &error {
                BotError::Host(error) => text::host_error(error, lang(ctx)),
                BotError::User(message) => message.clone(),
                _ => text::refusal(Refusal::Internal, lang(ctx)),
            };
            // Submitting this entry is refused as bad notation, with the same explanation. A
            // choice's name is plain text of at most 100 characters.
            vec![serenity::AutocompleteChoice::new(crate::present::markup::plain_line(lang(ctx), &why, 100), "?")]
        }
    };
    serenity::CreateAutocompleteResponse::new().set_choices(choices)
}

/// The usual clocks, and what is typed if it reads as one.
#[allow(clippy::unused_async)] // poise calls autocomplete callbacks as async functions
async fn autocomplete_clock(ctx: Context<'_>, partial: &str) -> serenity::CreateAutocompleteResponse {
    let choices = clock_choices(partial, lang(ctx))
        .into_iter()
        .map(|(name, value)| serenity::AutocompleteChoice::new(name, value))
        .collect();
    serenity::CreateAutocompleteResponse::new().set_choices(choices)
}

/// The clock choices for `partial` as (name, value): what is typed if it reads as a clock, then
/// the usual clocks it begins, each clock once (typing `3d` offered "3 days" twice).
fn clock_choices(partial: &str, lang: Lang) -> Vec<(String, String)> {
    let partial = partial.trim();
    let mut choices: Vec<(String, String)> = Vec::new();
    let mut offered: Vec<Clock> = Vec::new();
    if let Ok(clock) = partial.parse::<Clock>()
        && !partial.is_empty()
    {
        // A choice's name holds 100 characters: a long typed clock's words (in Russian) do not.
        choices.push((text::clock_words(clock, lang).chars().take(100).collect(), clock.to_string()));
        offered.push(clock);
    }
    for usual in ["1d", "3d", "7d", "1d+3d", "3d+7d", "none"] {
        let clock: Clock = usual.parse().expect("a usual clock reads");
        if usual.starts_with(partial) && !offered.contains(&clock) {
            choices.push((text::clock_words(clock, lang), usual.to_owned()));
            offered.push(clock);
        }
    }
    choices
}

/// The side a challenger asks for.
#[derive(Clone, Copy, Debug, poise::ChoiceParameter)]
pub enum SideParam {
    #[name = "attackers"]
    Attackers,
    #[name = "defenders"]
    Defenders,
    #[name = "random"]
    Random,
}

/// What to do about a draw offer or takeback request.
#[derive(Clone, Copy, Debug, poise::ChoiceParameter)]
pub enum AnswerParam {
    #[name = "offer"]
    Offer,
    #[name = "accept"]
    Accept,
    #[name = "decline"]
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
#[poise::command(slash_command, guild_only)]
#[allow(clippy::too_many_arguments)] // poise reads each slash option from its own parameter
pub async fn challenge(
    ctx: Context<'_>,
    opponent: Option<serenity::User>,
    #[autocomplete = "autocomplete_variant"] variant: Option<String>,
    side: Option<SideParam>,
    #[autocomplete = "autocomplete_clock"] clock: Option<String>,
    options: Option<String>,
    level: Option<i64>,
    rated: Option<bool>,
) -> Result<(), BotError> {
    let lang = lang(ctx);
    // Naming this bot itself is a game against it; other bots cannot play.
    let against_us = opponent.as_ref().is_some_and(|o| o.id == ctx.framework().bot_id());
    if opponent.as_ref().is_some_and(|o| o.bot) && !against_us {
        return Err(BotError::User(text::refusal(Refusal::BotsCannotPlay, lang)));
    }
    let against_bot = against_us || level.is_some();
    if rated == Some(false) && !against_bot {
        return Err(BotError::Host(HostError::UnratedWithPerson));
    }
    ensure_can_host(ctx)?;
    // Without a clock, the host takes the server's default; it also checks the channel.
    let clock = match clock {
        Some(text) => Some(text.parse::<Clock>().map_err(|e| BotError::Host(HostError::BadClock(e)))?),
        None => None,
    };
    let request = ChallengeRequest {
        challenger: caller(ctx),
        opponent: opponent.as_ref().map(|o| User::new(o.id.get() as i64, o.display_name())),
        variant: variant.map_or_else(|| Variant::Copenhagen.id().to_owned(), |typed| text::typed_variant(&typed, lang)),
        options: options.unwrap_or_default().split_whitespace().map(str::to_owned).collect(),
        side: match side.unwrap_or(SideParam::Random) {
            SideParam::Attackers => SideChoice::Attackers,
            SideParam::Defenders => SideChoice::Defenders,
            SideParam::Random => SideChoice::Random,
        },
        clock,
        place: place(ctx),
    };
    if against_bot {
        // The bot itself named as the opponent is no person: the level says who plays.
        let request = ChallengeRequest { opponent: request.opponent.filter(|_| !against_us), ..request };
        let level = level.unwrap_or(crate::host::bot::DEFAULT_LEVEL);
        let game = ctx.data().host.challenge_bot(&request, level, rated.unwrap_or(true), now()).await?;
        ctx.data().delivery.wake();
        let bot = game.player(game.to_move).clone();
        let bot = if crate::host::is_bot(bot.id) { bot } else { game.player(game.to_move.opponent()).clone() };
        let words = text::bot_game_started(&game, &bot, lang);
        let reply = CreateReply::default().content(words).ephemeral(true);
        // The game is there, and its board comes from the delivery task: "try again" would
        // start a second game.
        return send_after_change(ctx, reply).await;
    }
    let challenge = ctx.data().host.challenge(&request, now()).await?;
    let public = public_lang(ctx).await;
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
        .content(invited.iter().map(|id| play::mention(*id)).collect::<String>())
        .embed(serenity::CreateEmbed::new().title(title).description(description))
        .components(vec![serenity::CreateActionRow::Buttons(buttons)])
        .allowed_mentions(play::mentioning(&invited));
    let card = match with_retries(|| ctx.send(reply.clone())).await {
        // Read back with retries, as after a lost answer: a card left unrecorded by one failed
        // read is never closed when its challenge ends, and offers Accept and Decline for good.
        Ok(_) => original_response(ctx).await,
        // A first try reached Discord and only its answer was lost: the card is there.
        Err(error) if is_already_acknowledged(&error) => original_response(ctx).await,
        // The last try may have failed after Discord showed the card (a timeout, a 5xx on the
        // way back): then it is there, and its challenge stands.
        Err(error) => {
            let Ok(card) = original_response(ctx).await else {
                // Nobody can see the challenge, so nobody could answer it, and its challenger
                // could not withdraw it: it would only count against their open challenges for
                // a day.
                if let Err(cancelled) = ctx.data().host.cancel(challenge.id, challenge.challenger.id, now()).await {
                    tracing::warn!(challenge = challenge.id, error = %cancelled, "could not withdraw a challenge never shown");
                }
                return Err(error.into());
            };
            Ok(card)
        }
    };
    match card {
        Ok(message) => {
            let (channel, id) = (message.channel_id.get() as i64, message.id.get() as i64);
            if let Err(error) = ctx.data().host.set_challenge_message(challenge.id, channel, id).await {
                tracing::warn!(challenge = challenge.id, %error, "could not remember the challenge card");
            }
        }
        Err(error) => {
            tracing::warn!(challenge = challenge.id, error = %causes(&error), "could not read the challenge card back");
        }
    }
    Ok(())
}

/// Whether `game` may be shown to everyone here: a game of this server, or shown by one of its
/// players. Another server's game, asked for by its number by someone else, is shown to them
/// alone: it may be played in a channel of that server closed to most.
fn may_show_here(ctx: Context<'_>, game: &crate::host::GameView) -> bool {
    game.place.guild == place(ctx).guild || game.players().contains(&caller(ctx).id)
}

/// Answers a deferred command by editing its "thinking" answer. A follow-up would do as much
/// the first time, but a follow-up retried after Discord made it and only its answer was lost is
/// a second message (a second summary with its animation); an edit retried is the same edit.
async fn answer_deferred(ctx: Context<'_>, reply: CreateReply) -> Result<(), BotError> {
    let poise::Context::Application(app) = ctx else {
        with_retries(|| ctx.send(reply.clone())).await?;
        return Ok(());
    };
    let edit = reply.to_slash_initial_response_edit(serenity::EditInteractionResponse::new());
    with_retries(|| app.interaction.edit_response(ctx.http(), edit.clone())).await?;
    // The "thinking" answer is the answer now: nothing of it is to be taken back.
    ctx.set_invocation_data(()).await;
    Ok(())
}

/// A command's answer deferred in public ("thinking" where everyone sees it) and not yet given.
/// Discord makes the first follow-up after a deferral fill that message, with its visibility,
/// whatever the follow-up's own flags: an error sent then would show to everyone
/// ([`super::take_back_public_thinking`]).
#[derive(Debug)]
pub struct PublicThinking;

/// Defers the command's answer in public, noting it ([`PublicThinking`]).
async fn defer_publicly(ctx: Context<'_>) -> Result<(), BotError> {
    defer(ctx, false).await?;
    ctx.set_invocation_data(PublicThinking).await;
    Ok(())
}

/// Answers "thinking" (privately when `ephemeral`), retried as every other answer is: tried
/// once, a server error cost the command its answer ("something went wrong"), and a reply lost
/// after Discord made the deferral left it "thinking" for good (its error, sent as a first
/// answer, refused as "already acknowledged"). A retry refused as "already acknowledged" is the
/// deferral made, and poise is told so, so that what follows fills the "thinking" message. A
/// prefix command has nothing to defer, as with poise's own `defer`.
async fn defer(ctx: Context<'_>, ephemeral: bool) -> Result<(), BotError> {
    let poise::Context::Application(app) = ctx else { return Ok(()) };
    match with_retries(|| app.defer_response(ephemeral)).await {
        Ok(()) => {}
        Err(error) if is_already_acknowledged(&error) => {
            app.has_sent_initial_response.store(true, std::sync::atomic::Ordering::SeqCst);
        }
        Err(error) => return Err(error.into()),
    }
    Ok(())
}

/// The answer already given to this command's interaction, read back from Discord (after a try
/// whose answer was lost: poise is then told it was given, so that later answers follow it up).
async fn original_response(ctx: Context<'_>) -> Result<serenity::Message, serenity::Error> {
    let poise::Context::Application(app) = ctx else {
        return Err(serenity::Error::Other("a prefix command has no interaction to read back"));
    };
    let message = with_retries(|| app.interaction.get_response(ctx.http())).await?;
    app.has_sent_initial_response.store(true, std::sync::atomic::Ordering::SeqCst);
    Ok(message)
}

/// The engine's move in the caller's unrated game against the bot, drawn on the board.
#[poise::command(slash_command)]
pub async fn hint(ctx: Context<'_>, #[autocomplete = "autocomplete_game"] game: Option<i64>) -> Result<(), BotError> {
    let game = resolve_game(ctx, game).await?;
    let (view, job) = ctx.data().host.hint_game(game, caller(ctx).id).await?;
    // The search takes up to half a second behind other searches: past Discord's 3 s, unless
    // deferred.
    defer(ctx, true).await?;
    let analysis = ctx.data().bots.hint(caller(ctx).id, now(), job.clone()).await?;
    // A move made while the engine thought (the player's own, typed meanwhile; or a takeback and
    // another move, back at the same ply) leaves the hint about a position that is gone, its move
    // perhaps illegal now: the moves are compared, as a menu's tag is.
    let (current, history) = ctx.data().host.history(game).await?;
    if crate::host::moves_tag(&history) != crate::host::moves_tag(&job.game) {
        return Err(BotError::Host(HostError::StaleBoard { id: game, ply: current.ply, expected: view.ply }));
    }
    // The same moves, but the game ended meanwhile (a resignation, the clock): no hint for it.
    if current.ending.is_some() {
        return Err(BotError::Host(HostError::GameOver { id: game }));
    }
    let style = ctx.data().host.user_settings(caller(ctx).id).await?;
    let png =
        board::hint_picture(ctx.data(), &view, &job.game, analysis.best, lang(ctx), style.orientation, style.theme)
            .await?;
    let file_name = format!("hint-{game}-{}.png", view.ply);
    let embed = serenity::CreateEmbed::new()
        .title(text::board_title(&view, lang(ctx)))
        .description(text::hint(&analysis.best.to_string(), game, lang(ctx)))
        .image(format!("attachment://{file_name}"));
    let reply = CreateReply::default()
        .embed(embed)
        .attachment(serenity::CreateAttachment::bytes(png, file_name))
        .ephemeral(true)
        .allowed_mentions(serenity::CreateAllowedMentions::new());
    answer_deferred(ctx, reply).await
}

/// Play a move, e.g. e1-e3 (autocomplete lists the legal ones).
#[poise::command(slash_command, rename = "move")]
pub async fn move_(
    ctx: Context<'_>,
    #[autocomplete = "autocomplete_move"] notation: String,
    #[autocomplete = "autocomplete_game"] game: Option<i64>,
) -> Result<(), BotError> {
    // The phases of the answer, logged at debug level: where a slow move under load waited.
    let started = std::time::Instant::now();
    let game = resolve_game(ctx, game).await?;
    let played = ctx.data().host.play(game, caller(ctx).id, &notation, None, now()).await?;
    let recorded = started.elapsed();
    ctx.data().delivery.wake();
    answer_change(ctx, &played.game, text::played(&played.notation, game, lang(ctx))).await?;
    tracing::debug!(
        game,
        record_ms = recorded.as_secs_f64() * 1000.0,
        answer_ms = started.elapsed().saturating_sub(recorded).as_secs_f64() * 1000.0,
        "move answered"
    );
    Ok(())
}

/// Show a game's board, with its controls, as a new message.
#[poise::command(slash_command)]
pub async fn board(ctx: Context<'_>, #[autocomplete = "autocomplete_game"] game: Option<i64>) -> Result<(), BotError> {
    let game = match game {
        Some(game) => game,
        None => resolve_board_game(ctx).await?,
    };
    let view = ctx.data().host.show(game).await?;
    let me = caller(ctx).id;
    if !view.is_over() && view.players().contains(&me) {
        // The new board is posted by the delivery task, so that it is recorded as the game's
        // board whatever happens (a crash, a lost answer); the old one then loses its controls.
        // Posted where the game is played: Discord says what the bot may do there only when
        // the command comes from there (an interaction carries the bot's permissions in its own
        // channel alone). A game whose channel was deleted moves here, in its own server, where
        // its board is then posted (the host checks the allow-list).
        let here = ctx.guild_id().map(|_| place(ctx));
        let moving = view.channel_gone && here.is_some_and(|here| here.guild == view.place.guild);
        let game_channel = super::play::game_channel(&view);
        let elsewhere = !moving && ctx.channel_id() != game_channel;
        if moving {
            ensure_can_host(ctx)?;
        } else if !elsewhere {
            ensure_can_post(ctx, super::permissions::board_refusal)?;
        }
        let asked = ctx.data().host.request_board_at(game, me, here, now()).await?;
        ctx.data().delivery.wake();
        // Typed elsewhere, "below" would point at nothing: the answer names where the board goes.
        let there = |already| {
            let thread = view.place.thread.is_some();
            text::board_posted_there(game, game_channel.get(), thread, already, lang(ctx))
        };
        let words = match asked {
            BoardRequest::Moved => text::board_moved(game, lang(ctx)),
            BoardRequest::Asked if elsewhere => there(false),
            BoardRequest::AlreadyAsked if elsewhere => there(true),
            BoardRequest::Asked => text::board_posted(game, lang(ctx)),
            BoardRequest::AlreadyAsked => text::board_on_its_way(game, lang(ctx)),
            BoardRequest::JustPosted { channel, message } => {
                let link = format!("https://discord.com/channels/{}/{channel}/{message}", view.place.guild);
                text::board_just_posted(game, &link, lang(ctx))
            }
        };
        let reply = CreateReply::default().content(words).ephemeral(true);
        // The board is asked for, and comes from the delivery: "try again" would be false.
        return send_after_change(ctx, reply).await;
    }
    // A finished game's board has no controls: shown here, for everyone. A game going on is
    // shown so to someone who does not play it, privately: only its players may post its board
    // anew in its channel (and take the controls off the old one).
    // Private answers are in the reader's language, public ones in the server's (BOT.md).
    let private = !view.is_over() || !may_show_here(ctx, &view);
    let words = if private { lang(ctx) } else { public_lang(ctx).await };
    let style = ctx.data().host.user_settings(me).await?;
    let state = ctx.data().host.board_state(game).await?;
    let board = board::build_styled(ctx.data(), &state, Menu::Pieces(0), words, style.board_style()).await?;
    let reply = CreateReply::default()
        .embed(board.embed.clone())
        .attachment(serenity::CreateAttachment::bytes(board.png.clone(), board.file_name.clone()))
        .allowed_mentions(serenity::CreateAllowedMentions::new())
        .ephemeral(private);
    with_retries(|| ctx.send(reply.clone())).await?;
    Ok(())
}

/// Resign a game.
#[poise::command(slash_command)]
pub async fn resign(ctx: Context<'_>, #[autocomplete = "autocomplete_game"] game: Option<i64>) -> Result<(), BotError> {
    let game = resolve_game(ctx, game).await?;
    let finished = ctx.data().host.resign(game, caller(ctx).id, None, now()).await?;
    ctx.data().delivery.wake();
    answer_change(ctx, &finished.game, text::resigned(game, lang(ctx))).await
}

/// Claim the win in an untimed game left unplayed for two weeks, or end a game paused that long.
#[poise::command(slash_command)]
pub async fn claim(ctx: Context<'_>, #[autocomplete = "autocomplete_game"] game: Option<i64>) -> Result<(), BotError> {
    let game = resolve_game(ctx, game).await?;
    let finished = ctx.data().host.claim(game, caller(ctx).id, now()).await?;
    ctx.data().delivery.wake();
    answer_change(ctx, &finished.game, text::claimed(&finished.game, lang(ctx))).await
}

/// Offer a draw, or accept or decline your opponent's offer.
#[poise::command(slash_command)]
pub async fn draw(
    ctx: Context<'_>,
    action: Option<AnswerParam>,
    #[autocomplete = "autocomplete_game"] game: Option<i64>,
) -> Result<(), BotError> {
    offer(ctx, OfferKind::Draw, action, game).await
}

/// Ask to take back your last move, or answer your opponent's request.
#[poise::command(slash_command)]
pub async fn takeback(
    ctx: Context<'_>,
    action: Option<AnswerParam>,
    #[autocomplete = "autocomplete_game"] game: Option<i64>,
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
        OfferKind::Draw => ctx.data().host.draw(game, user, action, None, now()).await?,
        OfferKind::Takeback => ctx.data().host.takeback(game, user, action, None, now()).await?,
    };
    ctx.data().delivery.wake();
    answer_change(ctx, outcome.game(), text::offer_answer(&outcome, kind, user, lang(ctx))).await
}

/// Your games in progress (or someone else's), with jump links.
#[poise::command(slash_command)]
pub async fn games(ctx: Context<'_>, user: Option<serenity::User>) -> Result<(), BotError> {
    refuse_the_bot_itself(ctx, user.as_ref())?;
    let lang = lang(ctx);
    let me = caller(ctx);
    let other = user.as_ref().map(|u| User::new(u.id.get() as i64, u.display_name())).filter(|u| u.id != me.id);
    let whose = other.as_ref().map_or(text::Whose::Reader, text::Whose::Other);
    let player = other.as_ref().map_or(me.id, |u| u.id);
    let games = ctx.data().host.games(player, false).await?;
    let reply = if games.is_empty() {
        CreateReply::default().content(text::no_games(whose, lang))
    } else {
        // The list holds the first hundred; the title counts them all.
        let total = ctx.data().host.count_games(player, false).await?;
        let title = text::games_title(total.max(games.len()), lang);
        let list = text::game_list(&games, total, now(), whose, lang);
        CreateReply::default().embed(serenity::CreateEmbed::new().title(title).description(list))
    };
    with_retries(|| ctx.send(reply.clone().ephemeral(true))).await?;
    Ok(())
}

/// The summary of a game: result, moves, captures, the animated game and its record.
#[poise::command(slash_command)]
pub async fn summary(
    ctx: Context<'_>,
    #[autocomplete = "autocomplete_any_game"] game: Option<i64>,
) -> Result<(), BotError> {
    let game = resolve_any_game(ctx, game).await?;
    // A game that does not exist is refused privately, before the public "thinking" answer.
    let view = ctx.data().host.show(game).await?;
    // Drawing the animation of a long game can take a while: answer "thinking" first.
    let public = may_show_here(ctx, &view);
    let lang = if public {
        defer_publicly(ctx).await?;
        public_lang(ctx).await
    } else {
        defer(ctx, true).await?;
        lang(ctx)
    };
    let summary = play::summary_message(ctx.data(), game, lang).await?;
    let mut reply =
        CreateReply::default().embed(summary.embed).allowed_mentions(serenity::CreateAllowedMentions::new());
    for file in summary.files {
        reply = reply.attachment(file);
    }
    answer_deferred(ctx, reply).await
}

/// A game's record in OTN, as a file.
#[poise::command(slash_command)]
pub async fn export(
    ctx: Context<'_>,
    #[autocomplete = "autocomplete_any_game"] game: Option<i64>,
) -> Result<(), BotError> {
    let game = resolve_any_game(ctx, game).await?;
    let record = ctx.data().host.export(game).await?;
    let file = serenity::CreateAttachment::bytes(record.into_bytes(), format!("game-{game}.otn"));
    let reply = CreateReply::default().content(text::export_caption(game, lang(ctx))).attachment(file).ephemeral(true);
    with_retries(|| ctx.send(reply.clone())).await?;
    Ok(())
}

/// The best players of a variant family, on this server or everywhere.
#[poise::command(slash_command)]
pub async fn leaderboard(
    ctx: Context<'_>,
    #[autocomplete = "autocomplete_variant"] variant: Option<String>,
    global: Option<bool>,
    against_bot: Option<bool>,
) -> Result<(), BotError> {
    let guild = scope(ctx, global);
    let variant =
        variant.map_or_else(|| Variant::Copenhagen.id().to_owned(), |typed| text::typed_family(&typed, lang(ctx)));
    // The pool of games against the bot: its levels and the people who played them.
    let variant = if against_bot == Some(true) { crate::host::in_bot_pool(&variant) } else { variant };
    let board = ctx.data().host.leaderboard(&variant, guild, 20, now()).await?;
    let public = public_lang(ctx).await;
    let words = crate::present::summary::leaderboard_text(&board, public);
    let trends = ctx.data().host.rating_trends(&board, CARD_TREND).await?;
    let theme = ctx.data().host.user_settings(caller(ctx).id).await?.theme;
    let card = crate::present::cards::leaderboard_card(&board, &trends, public, theme);
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
#[poise::command(slash_command)]
pub async fn profile(ctx: Context<'_>, user: Option<serenity::User>, global: Option<bool>) -> Result<(), BotError> {
    refuse_the_bot_itself(ctx, user.as_ref())?;
    let who = user.as_ref().unwrap_or(ctx.author());
    let whose = who.id.get() as i64;
    let mut profile = ctx.data().host.profile(whose, scope(ctx, global), now()).await?;
    // Discord knows the name today, also of someone who has not played here yet, for whom the
    // store has none ("user 2000…"): on a server's profile, what the server calls them.
    profile.user.name = match scope(ctx, global) {
        Some(_) => name_here(ctx, who),
        None => who.display_name().to_owned(),
    };
    let public = public_lang(ctx).await;
    let words = crate::present::summary::profile_text(&profile, public);
    let history = ctx.data().host.rating_history(whose, scope(ctx, global)).await?;
    // Drawn in the asker's theme, as the boards they post are.
    let theme = ctx.data().host.user_settings(caller(ctx).id).await?.theme;
    let card = crate::present::cards::profile_card(&profile, &history, public, theme);
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

/// The bot's own Discord user is no player: its five levels are (`/tafl challenge` reads it the
/// same way), so its profile or games would be an empty page. Says where its levels are.
fn refuse_the_bot_itself(ctx: Context<'_>, user: Option<&serenity::User>) -> Result<(), BotError> {
    if user.is_some_and(|u| u.id == ctx.framework().bot_id()) {
        return Err(BotError::Host(HostError::TheBotHasLevels));
    }
    Ok(())
}

/// Ratings per sparkline on the leaderboard card.
const CARD_TREND: usize = 20;

/// Draws a card on the blocking pool (a card takes milliseconds of CPU).
async fn draw_card(
    data: &super::Data,
    draw: impl FnOnce(&tafl_render::Renderer) -> Result<Vec<u8>, tafl_render::RenderError> + Send + 'static,
) -> Result<Vec<u8>, BotError> {
    data.draw(draw).finish().await
}

/// The server whose ratings to show: this one, or none (global) when asked or in a DM.
fn scope(ctx: Context<'_>, global: Option<bool>) -> Option<i64> {
    if global == Some(true) { None } else { ctx.guild_id().map(|g| g.get() as i64) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_typed_clock_is_offered_once_first_then_the_usual_ones_it_begins() {
        let english = Lang::discord(None);
        let values = |partial: &str| clock_choices(partial, english).into_iter().map(|(_, v)| v).collect::<Vec<_>>();
        assert_eq!(values("3d"), ["3d", "3d+7d"], "3d is typed and usual: once");
        assert_eq!(values(""), ["1d", "3d", "7d", "1d+3d", "3d+7d", "none"]);
        assert_eq!(values(" 1d"), ["1d", "1d+3d"]);
        assert_eq!(values("12h"), ["12h"]);
        assert_eq!(values("none"), ["none"]);
        assert!(values("soon").is_empty());
        let named = clock_choices("7d12h", english);
        assert_eq!(named[0], ("Time per move: 7 days 12 hours".to_owned(), "7d12h".to_owned()));
    }
}
