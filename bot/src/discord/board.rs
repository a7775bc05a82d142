//! The board message: the picture of a game with its players, whose turn, the last move,
//! captures and offers, and the controls to play it (a piece menu, then a destination menu, and
//! the resign / draw / takeback buttons). One function builds it for every way it is sent:
//! as an interaction answer, as an edit of the stored board message, or as a new message.

use poise::serenity_prelude as serenity;
use tafl_render::{BoardOptions, LastMove, Mark, MarkKind, Orientation, Theme};
use tafl_rules::{Game, Position, Square};

use super::ids::{Control, PageValue};
use super::{BotError, Data};
use crate::host::{
    BoardState, BoardStyle, GameId, GameView, MoveChoice, OfferAction, OfferKind, OpenOffer, SeenBoard, movable_pieces,
};
use crate::present::Lang;
use crate::present::text::{self, Label};

/// Discord's limit of options in one select menu.
const MENU_LIMIT: usize = 25;

/// Which move menu the board shows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Menu {
    /// The pieces that can move, at page `0`, `1`, ….
    Pieces(usize),
    /// The moves of the piece on `from`, at a page; the piece and its destinations are marked
    /// on the picture.
    Destinations { from: Square, moves: Vec<MoveChoice>, page: usize },
}

/// A board message ready to send.
#[derive(Clone, Debug)]
pub struct Board {
    pub game: GameView,
    pub embed: serenity::CreateEmbed,
    pub components: Vec<serenity::CreateActionRow>,
    pub png: Vec<u8>,
    pub file_name: String,
    /// What the message shows, as it can be read back from Discord ([`shown`]): the ply, and the
    /// moves tag its menus carry (none once the game is over and the menus are gone).
    pub shows: SeenBoard,
    /// How the picture is drawn: kept with the board message, so that its edits are drawn alike.
    pub style: BoardStyle,
}

/// What a board message on Discord shows: the ply of its picture (`game-3-12.png`) and the moves
/// tag of its piece menu, if it has one. `None` when it is no board of `game`.
#[must_use]
pub fn shown(message: &serenity::Message, game: GameId) -> Option<SeenBoard> {
    let prefix = format!("game-{game}-");
    let ply = message
        .attachments
        .iter()
        .find_map(|a| a.filename.strip_prefix(&prefix)?.strip_suffix(".png")?.parse().ok())?;
    let tag = message
        .components
        .iter()
        .flat_map(|row| &row.components)
        .find_map(|component| match component {
            serenity::ActionRowComponent::SelectMenu(menu) => menu.custom_id.as_deref()?.parse::<Control>().ok(),
            _ => None,
        })
        .and_then(|control| match control {
            Control::Piece { game: id, board } | Control::Destination { game: id, board, .. } if id == game => {
                board.tag
            }
            _ => None,
        });
    Some(SeenBoard { ply, tag })
}

impl Board {
    fn attachment(&self) -> serenity::CreateAttachment {
        serenity::CreateAttachment::bytes(self.png.clone(), self.file_name.clone())
    }

    /// As the answer to an interaction (a new message, or an update of the clicked one).
    pub fn response(&self) -> serenity::CreateInteractionResponseMessage {
        serenity::CreateInteractionResponseMessage::new()
            .content("")
            .embed(self.embed.clone())
            .components(self.components.clone())
            .files([self.attachment()])
            .allowed_mentions(serenity::CreateAllowedMentions::new())
    }

    /// As an edit of the stored board message: the new picture replaces the old one.
    pub fn edit(&self) -> serenity::EditMessage {
        serenity::EditMessage::new()
            .content("")
            .embed(self.embed.clone())
            .components(self.components.clone())
            .new_attachment(self.attachment())
            .allowed_mentions(serenity::CreateAllowedMentions::new())
    }

    /// As the edit of a click's acknowledged answer (the clicked board message).
    pub fn edit_response(&self) -> serenity::EditInteractionResponse {
        serenity::EditInteractionResponse::new()
            .content("")
            .embed(self.embed.clone())
            .components(self.components.clone())
            .new_attachment(self.attachment())
            .allowed_mentions(serenity::CreateAllowedMentions::new())
    }

    /// As a new message in a channel.
    pub fn message(&self) -> serenity::CreateMessage {
        serenity::CreateMessage::new()
            .embed(self.embed.clone())
            .components(self.components.clone())
            .add_file(self.attachment())
            .allowed_mentions(serenity::CreateAllowedMentions::new())
    }
}

/// Builds the board of a game as `state` has it, with `menu` open, drawn in the style of the
/// game's board message ([`BoardState::style`]).
pub async fn build(data: &Data, state: &BoardState, menu: Menu, lang: Lang) -> Result<Board, BotError> {
    build_styled(data, state, menu, lang, state.style()).await
}

/// [`build`] with the picture drawn in `style` (a player's own settings, for a board they post
/// or are shown).
pub async fn build_styled(
    data: &Data,
    state: &BoardState,
    menu: Menu,
    lang: Lang,
    style: BoardStyle,
) -> Result<Board, BotError> {
    build_from(data, state, menu, lang, style, None).await
}

/// [`build`], taking the picture from `foreseen` when it was started for exactly this board
/// (see [`Drawing`]), else drawing it now.
pub async fn build_foreseen(
    data: &Data,
    state: &BoardState,
    menu: Menu,
    lang: Lang,
    foreseen: Option<Drawing>,
) -> Result<Board, BotError> {
    build_from(data, state, menu, lang, state.style(), foreseen).await
}

async fn build_from(
    data: &Data,
    state: &BoardState,
    menu: Menu,
    lang: Lang,
    style: BoardStyle,
    foreseen: Option<Drawing>,
) -> Result<Board, BotError> {
    let (game, history, offers) = (&state.game, &state.history, &state.offers);
    let (position, options) = picture(game, history, &menu, lang, style);
    let drawing = match foreseen {
        Some(drawing) if drawing.position == position && drawing.options == options => drawing,
        _ => Drawing::start(data, position, options),
    };
    let png = drawing.finish().await?;
    // The ply in the name makes every picture a new URL, so Discord never shows a cached one.
    let file_name = format!("game-{}-{}.png", game.id, game.ply);
    let embed = serenity::CreateEmbed::new()
        .title(text::board_title(game, lang))
        .description(text::board_description(game, history, offers, lang))
        .image(format!("attachment://{file_name}"));
    let (components, shows) = if game.is_over() {
        (Vec::new(), SeenBoard::at_ply(game.ply))
    } else {
        (controls(game, history, offers, &menu, lang), SeenBoard::of(history))
    };
    Ok(Board { game: game.clone(), embed, components, png, file_name, shows, style })
}

/// What the picture of `game` with `menu` open shows.
fn picture(game: &GameView, history: &Game, menu: &Menu, lang: Lang, style: BoardStyle) -> (Position, BoardOptions) {
    let options = BoardOptions {
        last_move: history.moves().last().map(LastMove::from),
        marks: marks(history, menu),
        caption: Some(crate::present::summary::caption(game, lang)),
        orientation: style.orientation,
        theme: style.theme,
        ..BoardOptions::default()
    };
    (game.position.clone(), options)
}

/// A picture being drawn off the async workers (it is CPU work), with what it shows, so that
/// one started from a forecast of the game ([`crate::host::Host::play_on_board`]) is used only
/// for the board it turns out to be.
#[derive(Debug)]
pub struct Drawing {
    position: Position,
    options: BoardOptions,
    png: super::Picture<Vec<u8>>,
}

impl Drawing {
    fn start(data: &Data, position: Position, options: BoardOptions) -> Drawing {
        let (drawn, shown) = (position.clone(), options.clone());
        let png = data.draw(move |renderer| renderer.render_png(&drawn, &shown));
        Drawing { position, options, png }
    }

    /// Starts drawing the board of `game` (at `history`) with no menu open, in `style` (its
    /// board message's), as the answer to a move by menu shows it.
    #[must_use]
    pub fn foresee(data: &Data, game: &GameView, history: &Game, lang: Lang, style: BoardStyle) -> Drawing {
        let (position, options) = picture(game, history, &Menu::Pieces(0), lang, style);
        Drawing::start(data, position, options)
    }

    async fn finish(self) -> Result<Vec<u8>, BotError> {
        self.png.finish().await
    }
}

/// What the picture marks besides the last move: the captured king of a game that ended so (he
/// stays on the board in the rules, so without the mark the final board would not show why the
/// game ended), and the piece picked in the menu with its destinations.
fn marks(history: &Game, menu: &Menu) -> Vec<Mark> {
    let mut marks: Vec<Mark> = tafl_render::captured_king(history).into_iter().collect();
    if let Menu::Destinations { from, moves, .. } = menu {
        marks.push(Mark { square: *from, kind: MarkKind::Info });
        marks.extend(moves.iter().filter_map(destination).map(|square| Mark { square, kind: MarkKind::Dot }));
    }
    marks
}

/// The position of `game` with the engine's move `mv` drawn as a move (tinted squares, the
/// captures it would make marked), for a hint, in `orientation` and `theme` (the asker's).
pub async fn hint_picture(
    data: &Data,
    view: &GameView,
    game: &Game,
    mv: tafl_rules::Move,
    lang: Lang,
    orientation: Orientation,
    theme: Theme,
) -> Result<Vec<u8>, BotError> {
    // A private picture for the one who asked: in their style, as their private board is.
    let options = BoardOptions { orientation, theme, ..crate::present::summary::hint_board(view, game, mv, lang) };
    Drawing::start(data, view.position.clone(), options).finish().await
}

/// The destination square of a move choice (`e1-e3` → e3).
fn destination(choice: &MoveChoice) -> Option<Square> {
    choice.notation.split_once('-').and_then(|(_, to)| to.parse().ok())
}

/// The menus and buttons of a game that goes on.
fn controls(
    game: &GameView,
    history: &Game,
    offers: &[OpenOffer],
    menu: &Menu,
    lang: Lang,
) -> Vec<serenity::CreateActionRow> {
    let (id, ply, board) = (game.id, game.ply, SeenBoard::of(history));
    let mut rows = Vec::with_capacity(3);
    let mut buttons = Vec::with_capacity(4);
    match menu {
        Menu::Pieces(page) => {
            let pieces: Vec<(String, String)> = movable_pieces(&game.position)
                .into_iter()
                .map(|p| (text::piece_option(p.square, p.moves, lang), p.square.to_string()))
                .collect();
            let options = paged(&pieces, *page, &text::label(Label::MorePieces, lang));
            let select = serenity::CreateSelectMenu::new(
                Control::Piece { game: id, board }.to_string(),
                serenity::CreateSelectMenuKind::String { options },
            )
            .placeholder(text::label(Label::PickPiece, lang));
            rows.push(serenity::CreateActionRow::SelectMenu(select));
        }
        Menu::Destinations { from, moves, page } => {
            let choices: Vec<(String, String)> = moves
                .iter()
                .map(|m| (text::move_label(m, lang).chars().take(100).collect(), m.notation.clone()))
                .collect();
            let options = paged(&choices, *page, &text::label(Label::MoreMoves, lang));
            let select = serenity::CreateSelectMenu::new(
                Control::Destination { game: id, board, from: *from }.to_string(),
                serenity::CreateSelectMenuKind::String { options },
            )
            .placeholder(text::pick_destination(*from, lang));
            rows.push(serenity::CreateActionRow::SelectMenu(select));
            buttons.push(
                serenity::CreateButton::new(Control::Back { game: id, board }.to_string())
                    .label(text::label(Label::Back, lang))
                    .style(serenity::ButtonStyle::Secondary),
            );
        }
    }
    let offer = |kind, action| Control::Offer { kind, action, game: id, ply }.to_string();
    buttons.push(
        serenity::CreateButton::new(Control::Resign { game: id, ply }.to_string())
            .label(text::label(Label::Resign, lang))
            .style(serenity::ButtonStyle::Danger),
    );
    if !offers.iter().any(|o| o.kind == OfferKind::Draw) {
        buttons.push(
            serenity::CreateButton::new(offer(OfferKind::Draw, OfferAction::Offer))
                .label(text::label(Label::OfferDraw, lang))
                .style(serenity::ButtonStyle::Secondary),
        );
    }
    if game.takeback_possible() && !offers.iter().any(|o| o.kind == OfferKind::Takeback) {
        buttons.push(
            serenity::CreateButton::new(offer(OfferKind::Takeback, OfferAction::Offer))
                .label(text::label(Label::Takeback, lang))
                .style(serenity::ButtonStyle::Secondary),
        );
    }
    rows.push(serenity::CreateActionRow::Buttons(buttons));
    let mut answers = Vec::new();
    for open in offers {
        let (yes, no) = match open.kind {
            OfferKind::Draw => (Label::AcceptDraw, Label::DeclineDraw),
            OfferKind::Takeback => (Label::AcceptTakeback, Label::DeclineTakeback),
        };
        answers.push(
            serenity::CreateButton::new(offer(open.kind, OfferAction::Accept))
                .label(text::label(yes, lang))
                .style(serenity::ButtonStyle::Success),
        );
        answers.push(
            serenity::CreateButton::new(offer(open.kind, OfferAction::Decline))
                .label(text::label(no, lang))
                .style(serenity::ButtonStyle::Secondary),
        );
    }
    if !answers.is_empty() {
        rows.push(serenity::CreateActionRow::Buttons(answers));
    }
    rows
}

/// One page of a menu: up to 25 options, the last of them "more…" when there are more pages
/// (it leads to the next page, and from the last page back to the first).
fn paged(items: &[(String, String)], page: usize, more: &str) -> Vec<serenity::CreateSelectMenuOption> {
    let (start, end, next) = page_bounds(items.len(), page);
    let mut options: Vec<serenity::CreateSelectMenuOption> = items[start..end]
        .iter()
        .map(|(label, value)| serenity::CreateSelectMenuOption::new(label.clone(), value.clone()))
        .collect();
    if let Some(next) = next {
        options.push(serenity::CreateSelectMenuOption::new(more, PageValue(next).to_string()));
    }
    options
}

/// The items `start..end` shown on `page` of a menu of `len` items, and the page its "more…"
/// option leads to (none when everything fits). Pages past the end show the last page.
fn page_bounds(len: usize, page: usize) -> (usize, usize, Option<usize>) {
    if len <= MENU_LIMIT {
        return (0, len, None);
    }
    let per_page = MENU_LIMIT - 1;
    let pages = len.div_ceil(per_page);
    let page = page.min(pages - 1);
    let start = page * per_page;
    let end = (start + per_page).min(len);
    (start, end, Some((page + 1) % pages))
}

#[cfg(test)]
mod tests {
    use tafl_render::{Mark, MarkKind};
    use tafl_rules::{Game, Position, Setup, Side, Variant};

    use poise::serenity_prelude as serenity;

    use super::{Menu, controls, marks, page_bounds, shown};
    use crate::discord::ids::Control;
    use crate::host::{GameView, OfferAction, OfferKind, SeenBoard, User, bot_user};
    use crate::present::Lang;

    /// Brandubh (historical rules): the attacker from d7 closes on the king at c3, taken
    /// between it and the attacker on b3.
    fn king_captured() -> Game {
        let setup: Setup = "/7/7/7/7/1tK4/5T1/3t3/".parse().unwrap();
        let start = Position::from_setup(Variant::Historical7.rules(), &setup, Side::Defenders).unwrap();
        let mut game = Game::new(start);
        for mv in ["f6-f5", "d7-d5"] {
            game.play_text(&mv.parse().unwrap()).unwrap();
        }
        game
    }

    #[test]
    fn the_final_board_of_a_game_lost_by_king_capture_marks_the_king() {
        let game = king_captured();
        assert!(!game.status().is_ongoing());
        let danger = Mark { square: game.position().king(), kind: MarkKind::Danger };
        assert_eq!(marks(&game, &Menu::Pieces(0)), vec![danger]);
        // One move earlier the king still stands: nothing is marked.
        let mut earlier = game.clone();
        earlier.take_back();
        assert_eq!(marks(&earlier, &Menu::Pieces(0)), Vec::new());
        // The menu's own marks come with the king's.
        let from = "d5".parse().unwrap();
        let moves = vec![crate::host::MoveChoice { notation: "d5-d4".into(), captures: Vec::new(), effect: None }];
        let all = marks(&game, &Menu::Destinations { from, moves, page: 0 });
        assert_eq!(all[0], danger);
        assert!(all.contains(&Mark { square: from, kind: MarkKind::Info }));
        assert!(all.contains(&Mark { square: "d4".parse().unwrap(), kind: MarkKind::Dot }));
    }

    #[test]
    fn menus_of_up_to_25_options_have_one_page() {
        assert_eq!(page_bounds(0, 0), (0, 0, None));
        assert_eq!(page_bounds(25, 0), (0, 25, None));
        assert_eq!(page_bounds(25, 3), (0, 25, None));
    }

    #[test]
    fn longer_menus_show_24_options_and_a_way_on() {
        assert_eq!(page_bounds(26, 0), (0, 24, Some(1)));
        assert_eq!(page_bounds(26, 1), (24, 26, Some(0)));
        assert_eq!(page_bounds(60, 1), (24, 48, Some(2)));
        assert_eq!(page_bounds(60, 2), (48, 60, Some(0)));
        // A page from an older, longer menu shows the last page.
        assert_eq!(page_bounds(60, 9), (48, 60, Some(0)));
    }

    /// A message as Discord answers a post of the board of `game`: its picture named for `ply`,
    /// with `components`.
    fn posted(game: &GameView, ply: usize, components: &[serenity::CreateActionRow]) -> serenity::Message {
        let message = serde_json::json!({
            "id": "11", "channel_id": "12", "type": 0, "content": "", "tts": false, "pinned": false,
            "mention_everyone": false, "mentions": [], "mention_roles": [], "embeds": [],
            "timestamp": "2026-12-05T00:00:00+00:00",
            "author": { "id": "13", "username": "tafl", "discriminator": "0", "avatar": null },
            "attachments": [{
                "id": "14", "filename": format!("game-{}-{ply}.png", game.id), "size": 1,
                "url": "https://cdn.example/x.png", "proxy_url": "https://cdn.example/x.png"
            }],
            "components": serde_json::to_value(components).unwrap(),
        });
        serde_json::from_value(message).expect("a message as Discord sends it")
    }

    #[test]
    fn a_posted_board_is_read_back_as_its_ply_and_moves_tag() {
        let people =
            GameView::sample(1, Variant::Brandubh, User { id: 1, name: "A".into() }, User { id: 2, name: "B".into() });
        let mut history = Game::new(people.position.clone());
        for mv in ["b4-b3", "c4-b4"] {
            history.play_text(&mv.parse().unwrap()).unwrap();
        }
        let game = GameView { ply: 2, position: history.position().clone(), ..people };
        let shows = SeenBoard::of(&history);
        let components = controls(&game, &history, &[], &Menu::Pieces(0), Lang::discord(None));
        assert_eq!(shown(&posted(&game, 2, &components), game.id), Some(shows));
        // The same ply after a takeback and another move: another tag.
        let mut other = history.clone();
        other.take_back();
        other.take_back();
        for mv in ["b4-b3", "d5-c5"] {
            other.play_text(&mv.parse().unwrap()).unwrap();
        }
        assert_ne!(shown(&posted(&game, 2, &components), game.id), Some(SeenBoard::of(&other)));
        // A finished game's board has no menu: its ply alone; another game's board is none.
        assert_eq!(shown(&posted(&game, 2, &[]), game.id), Some(SeenBoard::at_ply(2)));
        assert_eq!(shown(&posted(&game, 2, &components), game.id + 1), None);
    }

    /// Whether the board of `game` at `ply` offers the Take back button.
    fn offers_takeback(game: &GameView, ply: usize) -> bool {
        let game = GameView {
            ply,
            to_move: if ply.is_multiple_of(2) { Side::Attackers } else { Side::Defenders },
            ..game.clone()
        };
        let takeback = Control::Offer { kind: OfferKind::Takeback, action: OfferAction::Offer, game: game.id, ply };
        let history = Game::new(game.position.clone());
        controls(&game, &history, &[], &Menu::Pieces(0), Lang::discord(None))
            .iter()
            .flat_map(|row| serde_json::to_value(row).unwrap()["components"].as_array().cloned().unwrap_or_default())
            .any(|button| button["custom_id"] == takeback.to_string())
    }

    #[test]
    fn the_take_back_button_shows_only_when_someone_could_take_back() {
        let (alice, bob) = (User { id: 1, name: "Alice".into() }, User { id: 2, name: "Bob".into() });
        let bot = User { id: bot_user(tafl_rules::engine::Level::new(2).unwrap()), name: "bot".into() };
        let people = GameView::sample(1, Variant::Brandubh, alice.clone(), bob);
        // Between people the first mover may take back from ply 1 on.
        assert!(!offers_takeback(&people, 0));
        assert!(offers_takeback(&people, 1));
        // The bot moved first: at ply 1 the person has no move to take back.
        let casual = GameView { rated: false, ..GameView::sample(2, Variant::Brandubh, bot.clone(), alice.clone()) };
        assert!(!offers_takeback(&casual, 1));
        assert!(offers_takeback(&casual, 2));
        assert!(offers_takeback(&casual, 3));
        // The person moved first: from ply 1.
        let first = GameView { rated: false, ..GameView::sample(3, Variant::Brandubh, alice.clone(), bot.clone()) };
        assert!(offers_takeback(&first, 1));
        // The bot refuses takebacks in rated games: no button to be refused by.
        let rated = GameView::sample(4, Variant::Brandubh, bot, alice);
        assert!(!offers_takeback(&rated, 3));
    }
}
