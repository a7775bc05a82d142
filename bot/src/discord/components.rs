//! The buttons and select menus: challenge cards (accept, decline) and boards (the move menus,
//! resign, draw, takeback). Discord sends them as component interactions, which poise leaves
//! to the event handler; everything a control needs is in its `custom_id` (see [`super::ids`]),
//! so a control works the same after a restart, and the host refuses one drawn for an older
//! board.
//!
//! Who sees what: answers about the clicker's own action (errors, the resignation question) are
//! private and in the clicker's language; the board and the notices are public and in the
//! server's language.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use poise::serenity_prelude as serenity;
use tafl_rules::Square;

use super::board::{self, Menu};
use super::causes::causes;
use super::delivery::Hold;
use super::ids::{Control, PageValue, Target};
use super::play::now;
use super::retry::{is_already_acknowledged, with_retries, with_retries_if_unsent};
use super::{BotError, Data};
use crate::host::{
    self, BoardState, ChallengeState, Drawn, GameId, HostError, OfferAction, OfferKind, SeenBoard, User,
};
use crate::present::Lang;
use crate::present::text::{self, Label, Refusal};

/// One click, from start to end: every failure is answered privately in one sentence.
pub async fn handle(ctx: &serenity::Context, data: &Data, component: &serenity::ComponentInteraction) {
    let lang = Lang::discord(Some(&component.locale));
    let guild = component.guild_id.map(|g| g.get() as i64);
    let guild_locale = component.guild_locale.as_deref();
    // Together, not one after the other: while the database is unreachable each waits
    // `store::UNANSWERED_WAIT` before it gives up, and the click's own operation after them must
    // still be refused within Discord's 3 s.
    let member_names = super::member_names(&component.user, component.member.as_ref(), std::iter::empty());
    let (taken, (), public) = tokio::join!(
        super::take_on(data, component.id),
        super::note_caller(data, &component.user, &component.locale, guild, guild_locale, &member_names),
        super::server_lang(data, guild, guild_locale, lang)
    );
    if !taken {
        // A copy of a click already taken on: its first copy answers it.
        return;
    }
    let click = Click {
        http: &ctx.http,
        data,
        component,
        user: User::new(component.user.id.get() as i64, component.user.display_name()),
        lang,
        public,
        deferred: AtomicBool::new(false),
    };
    let Ok(control) = component.data.custom_id.parse::<Control>() else {
        tracing::warn!(custom_id = %component.data.custom_id, "unknown control");
        click.refuse(text::refusal(Refusal::UnknownControl, lang)).await;
        return;
    };
    // Several answers edit the clicked message (a closed card, a menu drawn on the board, the
    // answered resignation question), so it must be one that shows a control of the same place
    // ([`Target`]): a modified client can send any `custom_id` from any message, and one game's
    // menu sent from another's board replaced that board, a resignation's confirmation sent from
    // the board emptied it. Any board of the game will do: a stale one is answered as such.
    if !carries(&component.message, control.target()) {
        tracing::warn!(custom_id = %component.data.custom_id, message = %component.message.id, "a control not on its message");
        click.refuse(text::refusal(Refusal::UnknownControl, lang)).await;
        return;
    }
    tracing::debug!(?control, user = click.user.id, "control");
    if let Err(error) = click.run(control).await {
        let message = match &error {
            BotError::Host(error) => text::host_error(error, lang),
            BotError::User(message) => message.clone(),
            BotError::Unanswered(_) => {
                tracing::warn!(?control, %error, "a control answered nothing");
                return;
            }
            other => {
                tracing::error!(?control, error = %other, "a control failed");
                text::refusal(Refusal::Internal, lang)
            }
        };
        click.refuse(message).await;
    }
}

/// Whether `message` shows a control of `target`.
fn carries(message: &serenity::Message, target: Target) -> bool {
    message
        .components
        .iter()
        .flat_map(|row| &row.components)
        .filter_map(|component| match component {
            serenity::ActionRowComponent::Button(serenity::Button {
                data: serenity::ButtonKind::NonLink { custom_id, .. },
                ..
            }) => Some(custom_id.as_str()),
            serenity::ActionRowComponent::SelectMenu(menu) => menu.custom_id.as_deref(),
            _ => None,
        })
        .filter_map(|id| id.parse::<Control>().ok())
        .any(|shown| shown.target() == target)
}

/// A click being answered.
struct Click<'a> {
    http: &'a serenity::Http,
    data: &'a Data,
    component: &'a serenity::ComponentInteraction,
    user: User,
    /// The clicker's language.
    lang: Lang,
    /// The server's language, for what everyone sees.
    public: Lang,
    /// Whether the click was acknowledged before its answer (see [`Click::hold_board`]): the
    /// answer is then an edit of the acknowledged response, and a refusal a follow-up.
    deferred: AtomicBool,
}

/// How long a click waits for its board's pen before acknowledging the click: Discord gives an
/// interaction 3 s for its first answer. The writer before it normally takes some tens of
/// milliseconds (a render and one edit).
const PEN_WAIT: Duration = Duration::from_secs(1);
/// How long an acknowledged click waits on for the pen (a writer stuck behind a rate limit)
/// before it answers without it.
const PEN_PATIENCE: Duration = Duration::from_secs(15);

impl Click<'_> {
    /// Carries out a control. An `Err` means nothing was answered yet, or only acknowledged (the
    /// caller answers it, see [`Click::refuse`]). What follows the answer (the other player's
    /// notice, the summary) is recorded with the change and sent by [`super::delivery`], which
    /// retries and logs its own failures.
    async fn run(&self, control: Control) -> Result<(), BotError> {
        match control {
            Control::Accept(id) => self.accept(id).await,
            Control::Decline(id) => self.decline(id).await,
            Control::Piece { game, board } => match self.choice()? {
                Choice::Page(page) => self.pieces(game, board, page).await,
                Choice::Value(square) => {
                    let from: Square = square.parse().map_err(|_| self.bad_choice())?;
                    self.destinations(game, board, from, 0).await
                }
            },
            Control::Destination { game, board, from } => match self.choice()? {
                Choice::Page(page) => self.destinations(game, board, from, page).await,
                Choice::Value(notation) => self.play(game, board, &notation).await,
            },
            Control::Back { game, board } => self.pieces(game, board, 0).await,
            Control::Resign { game, ply } => self.ask_to_resign(game, ply).await,
            Control::ConfirmResign { game, ply } => self.resign(game, ply).await,
            Control::Offer { kind, action, game, ply } => self.offer(kind, action, game, ply).await,
        }
    }

    async fn accept(&self, id: i64) -> Result<(), BotError> {
        // The clicked card becomes the game's board in the accepting transaction: recorded
        // first, should the command that posted it not have recorded it yet, so that the
        // delivery task never posts a second board for the game.
        // The game would be played here: its boards and notices need the bot's own messages.
        let in_thread = self.component.channel.as_ref().is_some_and(|c| super::threads::is_thread(c.kind));
        let missing = super::permissions::missing_to_host(self.component.app_permissions, in_thread);
        if !missing.is_empty() {
            return Err(BotError::User(super::permissions::refusal(missing, self.lang)));
        }
        let (channel, message) = (self.component.channel_id.get() as i64, self.component.message.id.get() as i64);
        self.data.host.set_challenge_message(id, channel, message).await?;
        // The card is drawn as the board here, with the delivery kept off the game's lane from
        // before the game exists to the end of this answer (the thread and the notice to the
        // first player come from the delivery afterwards).
        let mut hold = None;
        let delivery = &self.data.delivery;
        let mut hold_lane = |game| hold = Some(delivery.hold(game));
        let accepted = match self.data.host.accept_with(id, &self.user, now(), &mut hold_lane).await {
            Ok(accepted) => accepted,
            Err(error @ (HostError::ChallengeExpired { .. } | HostError::ChallengeClosed { .. })) => {
                // The card still offers buttons that can no longer work: close it for everyone.
                // Unless the challenge was accepted: then the card is the game's board (a second
                // click on Accept, or two people accepting an open challenge at once), which
                // must keep its picture and controls.
                if !matches!(error, HostError::ChallengeClosed { state: ChallengeState::Accepted, .. }) {
                    self.close_card(id).await;
                }
                return Err(error.into());
            }
            Err(error) => return Err(error.into()),
        };
        let game = accepted.game.id;
        let _hold = hold;
        let state = self.data.host.board_state(game).await?;
        let board = board::build(self.data, &state, Menu::Pieces(0), self.public).await?;
        BotError::after_change(self.update(board.response()).await)?;
        if let Err(error) = self
            .data
            .host
            .replace_board(game, channel, message, Some(Drawn::of(&board.game)), state.covers, board.style, now())
            .await
        {
            tracing::warn!(game, %error, "could not remember the board message");
        }
        Ok(())
    }

    async fn decline(&self, id: i64) -> Result<(), BotError> {
        let challenge = self.data.host.challenge_by_id(id).await?;
        let closed = if challenge.challenger.id == self.user.id {
            self.data.host.cancel(id, self.user.id, now()).await?
        } else {
            self.data.host.decline(id, self.user.id, now()).await?
        };
        // The delivery task would close the card too; answering with it at once is quicker.
        let (title, _) = text::challenge_card(&closed, self.public);
        let embed = serenity::CreateEmbed::new().title(title).description(text::challenge_closed(
            &closed,
            &self.user,
            self.public,
        ));
        let answer = serenity::CreateInteractionResponseMessage::new()
            .content("")
            .embed(embed)
            .components(Vec::new())
            .allowed_mentions(serenity::CreateAllowedMentions::new());
        BotError::after_change(self.update(answer).await)
    }

    /// Edits a challenge card whose challenge is over (expired, or answered elsewhere) to say so,
    /// without buttons. Best effort: the clicker's answer matters more.
    async fn close_card(&self, id: i64) {
        let Ok(mut challenge) = self.data.host.challenge_by_id(id).await else { return };
        if challenge.state == ChallengeState::Open && challenge.expires_at <= now() {
            // Past its time but not yet marked by the scheduler.
            challenge.state = ChallengeState::Expired;
        }
        let (title, _) = text::challenge_card(&challenge, self.public);
        // Only the challenger withdraws, and only the one challenged declines.
        let by = match (challenge.state, &challenge.opponent) {
            (ChallengeState::Declined, Some(opponent)) => opponent.clone(),
            _ => challenge.challenger.clone(),
        };
        let embed =
            serenity::CreateEmbed::new().title(title).description(text::challenge_closed(&challenge, &by, self.public));
        let edit = serenity::EditMessage::new().content("").embed(embed).components(Vec::new());
        let message = &self.component.message;
        if let Err(error) = with_retries(|| message.channel_id.edit_message(self.http, message.id, edit.clone())).await
        {
            tracing::warn!(challenge = id, %error, "could not close the challenge card");
        }
    }

    /// Opens the pieces menu at `page`. `seen` is the board clicked.
    async fn pieces(&self, game: GameId, seen: SeenBoard, page: usize) -> Result<(), BotError> {
        let (_hold, state) = self.board_to_move(game, seen).await?;
        self.show_state(game, state, Menu::Pieces(page), None).await
    }

    /// Opens the destination menu of the piece on `from`.
    async fn destinations(&self, game: GameId, seen: SeenBoard, from: Square, page: usize) -> Result<(), BotError> {
        let (_hold, state) = self.board_to_move(game, seen).await?;
        let moves = host::destinations(&state.history, from);
        if moves.is_empty() {
            return Err(BotError::User(text::no_piece_moves(from, self.lang)));
        }
        self.show_state(game, state, Menu::Destinations { from, moves, page }, None).await
    }

    /// Takes the board's pen, then reads the game for a menu of the clicker's move on the board
    /// `seen`.
    /// The pen first: a drawing of this board under way (the delivery's, or another click's
    /// answer) lands before the menu, which it would close if it landed after. The read second:
    /// a change made while the click waited (a move typed meanwhile) refuses the click as stale.
    /// Checked before the wait, the menu was drawn on the newer position, with the old
    /// position's moves, on the board everyone sees, and recorded as shown, so the delivery did
    /// not replace it.
    async fn board_to_move(&self, game: GameId, seen: SeenBoard) -> Result<(Hold, BoardState), BotError> {
        let hold = self.hold_board(game).await?;
        let state = self.data.host.board_to_move(game, self.user.id, seen).await?;
        Ok((hold, state))
    }

    async fn play(&self, game: GameId, seen: SeenBoard, notation: &str) -> Result<(), BotError> {
        let hold = self.hold_board(game).await?;
        // The new board is drawn while the move is saved; the drawing is used if the game turns
        // out as forecast (it does, unless something raced the move).
        let mut foreseen = None;
        let (played, state) = self
            .data
            .host
            .play_on_board(game, self.user.id, notation, Some(seen), now(), &mut |view, history, style| {
                foreseen = Some(board::Drawing::foresee(self.data, view, history, self.public, style));
            })
            .await?;
        BotError::after_change(self.show_state(game, state, Menu::Pieces(0), foreseen).await)?;
        // The board is answered: the note need not keep its pen from the delivery.
        drop(hold);
        self.note_if_unseen(&played.game).await;
        Ok(())
    }

    /// Redraws the clicked board, as it stands, with `menu` open, for a caller that holds the
    /// game's board already.
    async fn show_held(&self, game: GameId, menu: Menu) -> Result<(), BotError> {
        let state = self.data.host.board_state(game).await?;
        self.show_state(game, state, menu, None).await
    }

    /// Redraws the clicked board with `menu` open, as `state` has it, with the picture `foreseen`
    /// if it is this one, and records what it shows. A click on an older board message (one
    /// that `/tafl board` replaced while it still had controls) shows the position there without
    /// controls: only the game's board carries them.
    async fn show_state(
        &self,
        game: GameId,
        state: BoardState,
        menu: Menu,
        foreseen: Option<board::Drawing>,
    ) -> Result<(), BotError> {
        let clicked = self.component.message.id.get() as i64;
        let stored = state.message.as_ref();
        let is_board = stored.is_some_and(|s| s.message_id == clicked);
        let mut board = board::build_foreseen(self.data, &state, menu, self.public, foreseen).await?;
        if !is_board {
            board.components.clear();
        }
        self.answer_board(&board).await?;
        let drawn = Drawn::of(&board.game);
        let current = stored.is_some_and(|s| s.shown_ply == Some(drawn.ply as i64) && s.shown_over == drawn.over);
        if is_board
            && (state.covers.is_some() || !current)
            && let Err(error) = self.data.host.board_shown(game, clicked, drawn, state.covers, now()).await
        {
            // The delivery task redraws the board at its next look.
            tracing::warn!(game, %error, "could not record the board shown");
        }
        Ok(())
    }

    async fn ask_to_resign(&self, game: GameId, ply: usize) -> Result<(), BotError> {
        self.check_board(game, ply).await?;
        let button = serenity::CreateButton::new(Control::ConfirmResign { game, ply }.to_string())
            .label(text::label(Label::ConfirmResign, self.lang))
            .style(serenity::ButtonStyle::Danger);
        let answer = serenity::CreateInteractionResponseMessage::new()
            .content(text::confirm_resign(game, self.lang))
            .components(vec![serenity::CreateActionRow::Buttons(vec![button])])
            .ephemeral(true);
        self.respond(serenity::CreateInteractionResponse::Message(answer)).await
    }

    /// Resigns on the board the question was asked about: refused when the game has moved on
    /// since, like a move.
    async fn resign(&self, game: GameId, ply: usize) -> Result<(), BotError> {
        let (said, resigned) = match self.data.host.resign(game, self.user.id, Some(ply), now()).await {
            Ok(finished) => match self.unseen_note(&finished.game) {
                Some(note) => (format!("{} {note}", text::resigned(game, self.lang)), true),
                None => (text::resigned(game, self.lang), true),
            },
            // "Play on the current board" is no answer to a resignation: the question itself
            // says it did not happen, and its button goes, being about a board that is gone.
            Err(HostError::StaleBoard { .. }) => (text::resign_stale(game, self.lang), false),
            Err(error) => return Err(error.into()),
        };
        let answer = serenity::CreateInteractionResponseMessage::new().content(said).components(Vec::new());
        self.data.delivery.wake();
        let answered = self.update(answer).await;
        // Only a resignation made is a change whose answer may go unsaid; either answer is given
        // when a retry finds it acknowledged already.
        match answered {
            Err(BotError::Discord(error)) if is_already_acknowledged(&error) => Ok(()),
            answered if resigned => BotError::after_change(answered),
            answered => answered,
        }
    }

    async fn offer(&self, kind: OfferKind, action: OfferAction, game: GameId, ply: usize) -> Result<(), BotError> {
        let hold = self.hold_board(game).await?;
        let outcome = match kind {
            OfferKind::Draw => self.data.host.draw(game, self.user.id, action, Some(ply), now()).await?,
            OfferKind::Takeback => self.data.host.takeback(game, self.user.id, action, Some(ply), now()).await?,
        };
        BotError::after_change(self.show_held(game, Menu::Pieces(0)).await)?;
        drop(hold);
        self.note_if_unseen(outcome.game()).await;
        Ok(())
    }

    /// What [`super::permissions::unseen_note`] says of a change to `game` made by this click.
    fn unseen_note(&self, game: &host::GameView) -> Option<String> {
        super::permissions::unseen_note(self.component.app_permissions, self.component.channel_id, game, self.lang)
    }

    /// Tells the clicker privately, after the board answered the click, when the notices that
    /// should follow the change to `game` cannot be posted here. The board itself shows it: it is
    /// the click's answer, which Discord shows whatever the channel allows.
    async fn note_if_unseen(&self, game: &host::GameView) {
        if let Some(note) = self.unseen_note(game) {
            self.follow_up(note).await;
        }
    }

    /// Refuses a control of a game the clicker does not play, or of a board that is out of date.
    async fn check_board(&self, game: GameId, ply: usize) -> Result<(), BotError> {
        let view = self.data.host.show(game).await?;
        if !view.players().contains(&self.user.id) {
            return Err(HostError::NotAPlayer(game).into());
        }
        // A game that ended as the board was being clicked (its edit without buttons on the
        // way): no question about resigning it.
        if view.is_over() {
            return Err(HostError::GameOver { id: game }.into());
        }
        if view.ply != ply {
            return Err(HostError::StaleBoard { id: game, ply: view.ply, expected: ply }.into());
        }
        Ok(())
    }

    fn choice(&self) -> Result<Choice, BotError> {
        let serenity::ComponentInteractionDataKind::StringSelect { values } = &self.component.data.kind else {
            return Err(self.bad_choice());
        };
        let value = values.first().ok_or_else(|| self.bad_choice())?;
        Ok(match PageValue::parse(value) {
            Some(PageValue(page)) => Choice::Page(page),
            None => Choice::Value(value.clone()),
        })
    }

    fn bad_choice(&self) -> BotError {
        BotError::User(text::refusal(Refusal::UnknownControl, self.lang))
    }

    /// Holds the game's lane and takes its board's pen for this click's answer (see
    /// [`super::delivery`]): at once when no other answer or drawing of the board is under way,
    /// else after it. A wait longer than [`PEN_WAIT`] is acknowledged first (a deferred update,
    /// which keeps the board as it is), and given up after [`PEN_PATIENCE`] more: the click then
    /// answers without the pen.
    async fn hold_board(&self, game: GameId) -> Result<Hold, BotError> {
        let mut hold = self.data.delivery.hold(game);
        if !hold.take_pen(PEN_WAIT).await {
            let acknowledge = serenity::CreateInteractionResponse::Acknowledge;
            match with_retries(|| self.component.create_response(self.http, acknowledge.clone())).await {
                Ok(()) => {}
                // The first try did it and its reply was lost: the click is acknowledged.
                Err(error) if is_already_acknowledged(&error) => {}
                Err(error) => return Err(error.into()),
            }
            self.deferred.store(true, Ordering::Relaxed);
            if !hold.take_pen(PEN_PATIENCE).await {
                tracing::warn!(game, "the game's board is still being written; the click answers anyway");
            }
        }
        Ok(hold)
    }

    /// Shows `board` on the clicked message: the click's answer, or the edit of its
    /// acknowledged answer.
    async fn answer_board(&self, board: &board::Board) -> Result<(), BotError> {
        if self.deferred.load(Ordering::Relaxed) {
            with_retries(|| self.component.edit_response(self.http, board.edit_response())).await?;
            Ok(())
        } else {
            self.update(board.response()).await
        }
    }

    /// Replaces the clicked message (the board, the card, or the private question).
    async fn update(&self, message: serenity::CreateInteractionResponseMessage) -> Result<(), BotError> {
        self.respond(serenity::CreateInteractionResponse::UpdateMessage(message)).await
    }

    async fn respond(&self, response: serenity::CreateInteractionResponse) -> Result<(), BotError> {
        with_retries(|| self.component.create_response(self.http, response.clone())).await?;
        Ok(())
    }

    /// A private message after the click's answer. Best effort: the click was answered.
    ///
    /// Tried again only when it never reached Discord ([`with_retries_if_unsent`]): a follow-up
    /// retried after a server error that Discord had made anyway (its reply lost) is the same
    /// sentence twice. An edit of the click's original response would be safe to retry, but after
    /// a deferred update that response is the board itself, and the follow-up is the one private
    /// answer left; so a refusal Discord fails to make is not shown, rather than shown twice.
    async fn follow_up(&self, message: String) {
        let followup = serenity::CreateInteractionResponseFollowup::new().content(message).ephemeral(true);
        if let Err(error) = with_retries_if_unsent(|| self.component.create_followup(self.http, followup.clone())).await
        {
            tracing::warn!(error = %causes(&error), "could not answer a control");
        }
    }

    /// A private one-sentence answer (a follow-up when the click was acknowledged already).
    async fn refuse(&self, message: String) {
        if self.deferred.load(Ordering::Relaxed) {
            self.follow_up(message).await;
            return;
        }
        let answer = serenity::CreateInteractionResponseMessage::new().content(message).ephemeral(true);
        let response = serenity::CreateInteractionResponse::Message(answer);
        if let Err(error) = with_retries(|| self.component.create_response(self.http, response.clone())).await {
            tracing::warn!(error = %causes(&error), "could not answer a control");
        }
    }
}

/// What was picked in a menu.
enum Choice {
    Page(usize),
    Value(String),
}

impl From<HostError> for BotError {
    fn from(error: HostError) -> BotError {
        BotError::Host(error)
    }
}
