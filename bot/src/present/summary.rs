//! View values of the end-of-game summary, the leaderboard, the profile and the captions of
//! board pictures. The front ends put them into embeds (Discord) or print them (console).

use tafl_render::{BoardOptions, Caption, GifOptions, LastMove, Mark, MarkKind};
use tafl_rules::{Reason, Side, Square};

use super::markup::{plain_name, player_name, timestamp};
use super::text::{footer_move_number, side_name, side_plain_name, variant_name};
use super::{Lang, tr};
use crate::host::{
    CLAIM_AFTER, Conclusion, EndReason, Ending, GameView, Leaderboard, PlayerResult, Profile, RatingChange, Review,
    ReviewState, Scope, SideRecord, Summary,
};

/// The engine review's line of a summary: the turning point with the ply, the move played and
/// the better one; that no move lost ground; or that the review is still running.
#[must_use]
pub fn review_line(review: Option<&ReviewState>, lang: Lang) -> Option<String> {
    Some(match review? {
        ReviewState::Pending => tr!(lang, "summary-review-pending"),
        ReviewState::Done(Review { turning_point: None, .. }) => tr!(lang, "summary-no-turning-point"),
        ReviewState::Done(Review { turning_point: Some(t), .. }) => tr!(
            lang,
            "summary-turning-point",
            ply = t.ply,
            side = t.side.name(),
            played = t.played.as_str(),
            better = t.better.as_str()
        ),
    })
}

/// Discord's limit for an embed description is 4096 characters; stay clear of it.
pub const MAX_DESCRIPTION: usize = 4000;

/// A title and a body: an embed on Discord, two blocks of text in the console.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EmbedText {
    pub title: String,
    pub description: String,
}

/// The summary of a game: who won (or whose turn it is) in the title; how, the players, the
/// variant, moves, captures, duration and rating changes in the description.
#[must_use]
pub fn summary_text(summary: &Summary, lang: Lang) -> EmbedText {
    let game = &summary.game;
    let id = game.id;
    let title = match (game.ending, summary.winner()) {
        (None, _) => tr!(lang, "summary-title-running", id = id),
        // Aborted, or ended while the bot was away: no result, which is not a draw.
        (Some(ending), _) if !ending.has_result() => tr!(lang, "summary-title-aborted", id = id),
        (Some(_), None) => tr!(lang, "summary-title-draw", id = id),
        (Some(_), Some(side)) => {
            tr!(lang, "summary-title-won", id = id, player = player_name(lang, game.player(side)), side = side.name())
        }
    };
    let mut lines = vec![
        conclusion_text(summary, lang),
        tr!(
            lang,
            "summary-players",
            attackers = player_name(lang, &game.attacker),
            defenders = player_name(lang, &game.defender)
        ),
    ];
    let options = if game.options.is_empty() { String::new() } else { format!(" ({})", game.options) };
    lines.push(tr!(lang, "summary-variant", variant = variant_name(&game.variant, lang), options = options));
    lines.push(tr!(lang, "summary-moves", moves = summary.full_moves, plies = summary.plies));
    lines.push(tr!(
        lang,
        "summary-captured",
        attackers = summary.captured_by_attackers,
        defenders = summary.captured_by_defenders
    ));
    // An imported record has no dates (its moment is the import's): neither line says anything.
    if let Some(seconds) = summary.duration {
        lines.push(tr!(lang, "summary-duration", duration = duration(seconds, lang)));
    } else if !game.imported {
        lines.push(tr!(lang, "summary-started", when = timestamp(lang, summary.created_at)));
    }
    // The host lists the global changes first, then the server's. A game against the bot moves
    // the ratings of its own pool, which the line names, not the person's among people.
    let against_bot = summary.rating_changes.iter().any(|c| crate::host::split_pool(&c.family).1);
    let mut scopes: Vec<Scope> = Vec::new();
    for change in &summary.rating_changes {
        if !scopes.contains(&change.scope) {
            scopes.push(change.scope);
        }
    }
    for scope in scopes {
        let changes = summary
            .rating_changes
            .iter()
            .filter(|c| c.scope == scope)
            .map(|c| rating_change(c, lang))
            .collect::<Vec<_>>()
            .join(", ");
        let id = match (scope, against_bot) {
            (Scope::Global, false) => "summary-rating-global",
            (Scope::Server(_), false) => "summary-rating-server",
            (Scope::Global, true) => "summary-rating-bot-global",
            (Scope::Server(_), true) => "summary-rating-bot-server",
        };
        lines.push(tr!(lang, id, changes = changes));
    }
    if summary.ended_too_soon_to_rate {
        lines.push(tr!(lang, "summary-too-soon-to-rate"));
    }
    if game.imported {
        lines.push(tr!(lang, "summary-imported"));
    }
    if let Some(line) = review_line(summary.review.as_ref(), lang) {
        lines.push(line);
    }
    EmbedText { title, description: lines.join("\n") }
}

/// How the game ended or stands, as one sentence: "The king escaped at k11."
#[must_use]
pub fn conclusion_text(summary: &Summary, lang: Lang) -> String {
    let player = |side: Side| {
        let user = summary.game.player(side);
        // "Tafl bot (level 2) (attackers)" would stack two brackets.
        if let Some(level) = crate::host::bot_level(user.id) {
            tr!(lang, "bot-player-with-side", level = level.number(), side = side_name(side, lang))
        } else {
            tr!(lang, "player-with-side", player = player_name(lang, user), side = side_name(side, lang))
        }
    };
    let square = |sq: Square| sq.to_string();
    match summary.conclusion {
        Conclusion::InProgress { to_move } => tr!(lang, "conclusion-to-move", player = player(to_move)),
        Conclusion::KingEscaped { at } => tr!(lang, "conclusion-king-escaped", square = square(at)),
        Conclusion::KingCaptured { at } => tr!(lang, "conclusion-king-captured", square = square(at)),
        Conclusion::ExitFort { at } => tr!(lang, "conclusion-exit-fort", square = square(at)),
        Conclusion::Encirclement => tr!(lang, "conclusion-encirclement"),
        Conclusion::Repetition => match summary.winner() {
            None => tr!(lang, "conclusion-repetition-draw"),
            Some(side) => tr!(lang, "conclusion-repetition-loss", side = side_name(side.opponent(), lang)),
        },
        Conclusion::NoMoves { side } => tr!(lang, "conclusion-no-moves", side = side_name(side, lang)),
        Conclusion::Resignation { side: Some(side) } => tr!(lang, "conclusion-resignation", player = player(side)),
        Conclusion::Resignation { side: None } => tr!(lang, "conclusion-resignation-unknown"),
        Conclusion::Time { side: Some(side) } => tr!(lang, "conclusion-time", player = player(side)),
        Conclusion::Time { side: None } => tr!(lang, "conclusion-time-unknown"),
        Conclusion::Abandoned { side: Some(side) } => {
            tr!(lang, "conclusion-abandoned", player = player(side), days = CLAIM_AFTER / 86_400)
        }
        Conclusion::Abandoned { side: None } => tr!(lang, "conclusion-abandoned-unknown"),
        Conclusion::Agreement => tr!(lang, "conclusion-agreement"),
        Conclusion::Aborted => tr!(lang, "conclusion-aborted"),
        Conclusion::BotRemoved => tr!(lang, "conclusion-bot-removed"),
    }
}

/// The result of a finished game as a board caption says it: "Defenders win · resignation".
#[must_use]
pub fn result_caption(ending: Ending, lang: Lang) -> String {
    let result = tr!(
        lang,
        match ending.winner {
            Some(Side::Attackers) => "caption-attackers-win",
            Some(Side::Defenders) => "caption-defenders-win",
            None if !ending.has_result() => "caption-no-result",
            None => "caption-draw",
        }
    );
    let why = tr!(
        lang,
        match ending.reason {
            EndReason::Board(Reason::KingCaptured) => "caption-why-king-captured",
            EndReason::Board(Reason::KingEscaped) => "caption-why-king-escaped",
            EndReason::Board(Reason::ExitFort) => "caption-why-exit-fort",
            EndReason::Board(Reason::Encirclement) => "caption-why-encirclement",
            EndReason::Board(Reason::Repetition) => "caption-why-repetition",
            EndReason::Board(Reason::NoMoves) => "caption-why-no-moves",
            EndReason::Resignation => "caption-why-resignation",
            EndReason::Agreement => "caption-why-agreement",
            EndReason::Time => "caption-why-time",
            EndReason::Abandoned => "caption-why-abandoned",
            EndReason::Aborted => "caption-why-aborted",
            EndReason::BotRemoved => "caption-why-bot-removed",
        }
    );
    tr!(lang, "caption-result", result = result, why = why)
}

fn to_move_caption(side: Side, lang: Lang) -> String {
    tr!(
        lang,
        match side {
            Side::Attackers => "caption-to-move-attackers",
            Side::Defenders => "caption-to-move-defenders",
        }
    )
}

/// The caption of a board picture of `game`: the players' names and the footer (move number,
/// whose turn or the result), all in the reader's language.
#[must_use]
pub fn caption(game: &GameView, lang: Lang) -> Caption {
    let status = match game.ending {
        Some(ending) => result_caption(ending, lang),
        None => to_move_caption(game.to_move, lang),
    };
    Caption {
        attackers: board_name(lang, &game.attacker, Side::Attackers),
        defenders: board_name(lang, &game.defender, Side::Defenders),
        footer: tr!(
            lang,
            "caption-move",
            number = footer_move_number(game.ply, game.ending.is_some()),
            status = status
        ),
        to_move: game.ending.is_none().then_some(game.to_move),
    }
}

/// A player's name in a board's header (and a game's animation): their name, or their side's
/// ("Attackers") when a board would draw nothing of it, a name of only invisible characters as
/// people pick to look nameless on Discord; the cards fall back to "Player 1" the same way.
fn board_name(lang: Lang, user: &crate::host::User, side: Side) -> String {
    let name = plain_name(lang, user);
    if tafl_render::is_drawable_name(&name) { name } else { side_plain_name(side, lang) }
}

/// How a hint is drawn: the position of `game` (shown as `view`) with the engine's move `mv` as
/// the move on the board (tinted squares, the captures it would make marked) and a dot where it
/// lands. Both front ends draw hints with these.
#[must_use]
pub fn hint_board(view: &GameView, game: &tafl_rules::Game, mv: tafl_rules::Move, lang: Lang) -> BoardOptions {
    let mut after = game.clone();
    let captures = after.play(mv).map(|played| played.captures.clone()).unwrap_or_default();
    // The rules never list the king among a move's captures: a move that takes him frames him
    // in red, as the final board of such a game does.
    let mut marks = vec![Mark { square: mv.to, kind: MarkKind::Dot }];
    marks.extend(tafl_render::captured_king(&after));
    BoardOptions {
        last_move: Some(LastMove { mv, captures }),
        marks,
        caption: Some(caption(view, lang)),
        ..BoardOptions::default()
    }
}

/// The caption of a game known only to the rules (the `render` tool): names as given, the move
/// number and whose turn it is, or the result on the board.
#[must_use]
pub fn rules_caption(game: &tafl_rules::Game, attackers: &str, defenders: &str, lang: Lang) -> Caption {
    let status = match game.status() {
        tafl_rules::Status::Ongoing => to_move_caption(game.position().to_move(), lang),
        tafl_rules::Status::Finished(outcome) => {
            result_caption(Ending { winner: outcome.winner, reason: EndReason::Board(outcome.reason) }, lang)
        }
    };
    Caption {
        attackers: attackers.to_owned(),
        defenders: defenders.to_owned(),
        footer: tr!(
            lang,
            "caption-move",
            number = footer_move_number(game.ply(), !game.status().is_ongoing()),
            status = status
        ),
        to_move: game.status().is_ongoing().then(|| game.position().to_move()),
    }
}

/// The labels of a game's animation: the players' names in its header, and the footers of the
/// first and last frames (the start, and where the game stands at the end: its result, or whose
/// turn it is). Both front ends draw the GIF with these.
#[must_use]
pub fn gif_options(summary: &Summary, lang: Lang) -> GifOptions {
    let first_footer = tr!(
        lang,
        match summary.record.start().to_move() {
            Side::Attackers => "caption-start",
            Side::Defenders => "caption-start-defenders",
        }
    );
    let Caption { attackers, defenders, footer, .. } = caption(&summary.game, lang);
    GifOptions { attackers, defenders, first_footer, last_footer: footer, ..GifOptions::default() }
}

/// A leaderboard: rank, name, rating (with `?` while provisional) and games, and a note on the
/// provisional ratings, ranked after the established ones, when it lists any.
#[must_use]
pub fn leaderboard_text(board: &Leaderboard, lang: Lang) -> EmbedText {
    let title = tr!(
        lang,
        "leaderboard-title",
        family = family_name(&board.family, lang),
        scope = scope_name(board.scope, lang)
    );
    let mut d = String::new();
    if board.entries.is_empty() {
        d.push_str(&tr!(lang, "no-rated-games"));
    }
    // Ranks after the established ratings would puzzle a reader without a word why.
    let note = board.entries.iter().any(|e| e.rating.provisional).then(|| tr!(lang, "leaderboard-provisional"));
    let room = MAX_DESCRIPTION - note.as_ref().map_or(0, String::len);
    for entry in &board.entries {
        let line = tr!(
            lang,
            "leaderboard-line",
            rank = entry.rank,
            player = player_name(lang, &entry.user),
            rating = rating(entry.rating.rating, entry.rating.provisional),
            games = entry.rating.games
        );
        if d.len() + line.len() + 1 > room {
            break;
        }
        d.push_str(&line);
        d.push('\n');
    }
    if let Some(note) = note {
        d.push_str(&note);
    }
    EmbedText { title, description: d.trim_end().to_owned() }
}

/// A profile: ratings per family, record by side and current streak against people, record
/// against the bot.
#[must_use]
pub fn profile_text(profile: &Profile, lang: Lang) -> EmbedText {
    let title =
        tr!(lang, "profile-title", player = player_name(lang, &profile.user), scope = scope_name(profile.scope, lang));
    if profile.games() == 0 && profile.ratings.is_empty() {
        return EmbedText { title, description: tr!(lang, "no-rated-games") };
    }
    let mut lines = Vec::new();
    for r in &profile.ratings {
        lines.push(tr!(
            lang,
            "profile-rating",
            family = family_name(&r.family, lang),
            rating = rating(r.rating, r.provisional),
            games = r.games
        ));
    }
    // The record by side and the streak are of games against people; someone who only played
    // the bot has none, and is not shown rows of zeros.
    if profile.against_people() > 0 || profile.against_bot.games() == 0 {
        lines.push(side_record("profile-record-attackers", profile.as_attacker, lang));
        lines.push(side_record("profile-record-defenders", profile.as_defender, lang));
    }
    if let Some(streak) = profile.streak {
        let id = match streak.result {
            PlayerResult::Win => "profile-streak-win",
            PlayerResult::Loss => "profile-streak-loss",
            PlayerResult::Draw => "profile-streak-draw",
        };
        lines.push(tr!(lang, id, n = streak.length));
    }
    if profile.against_bot.games() > 0 {
        lines.push(side_record("profile-record-bot", profile.against_bot, lang));
    }
    EmbedText { title, description: lines.join("\n") }
}

/// A family's name for people.
#[must_use]
pub fn family_name(family: &str, lang: Lang) -> String {
    if let (inner, true) = crate::host::split_pool(family) {
        return tr!(lang, "family-against-bot", family = family_name(inner, lang));
    }
    let id = format!("family-{family}");
    if lang.has(&id) { tr!(lang, &id) } else { family.to_owned() }
}

/// A duration in the largest two units: "2 d 3 h", "14 min", "under a minute".
#[must_use]
pub fn duration(seconds: i64, lang: Lang) -> String {
    let seconds = seconds.max(0);
    let (days, hours, minutes) = (seconds / 86_400, seconds % 86_400 / 3600, seconds % 3600 / 60);
    // Two units at most: minutes only count when there are no days.
    let minutes = if days > 0 { 0 } else { minutes };
    tr!(lang, "duration-short", days = days, hours = hours, minutes = minutes)
}

fn side_record(id: &str, record: SideRecord, lang: Lang) -> String {
    tr!(lang, id, wins = record.wins, losses = record.losses, draws = record.draws)
}

fn rating_change(change: &RatingChange, lang: Lang) -> String {
    let before = rating(change.before, change.provisional_before());
    let after = rating(change.after, change.provisional_after());
    let delta = change.after.round() as i64 - change.before.round() as i64;
    format!("{} {before} → {after} ({delta:+})", player_name(lang, &change.user))
}

fn rating(value: f64, provisional: bool) -> String {
    format!("{}{}", value.round() as i64, if provisional { "?" } else { "" })
}

fn scope_name(scope: Scope, lang: Lang) -> String {
    tr!(
        lang,
        match scope {
            Scope::Global => "scope-global",
            Scope::Server(_) => "scope-server",
        }
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use tafl_rules::Variant;

    fn english() -> Lang {
        Lang::discord(None)
    }

    fn russian() -> Lang {
        Lang::discord(Some("ru"))
    }
    use crate::host::{FamilyRating, GameView, LeaderboardEntry, Streak, User};
    use tafl_rules::{Game, Reason};

    fn sq(name: &str) -> Square {
        name.parse().unwrap()
    }

    fn summary(ending: Option<Ending>, conclusion: Conclusion) -> Summary {
        let start = GameView::sample(7, Variant::Copenhagen, User::new(1, "alice"), User::new(2, "bob"));
        let record = Game::new(start.position.clone());
        let game = GameView { ply: 45, to_move: Side::Defenders, ending, ..start };
        Summary {
            game,
            record,
            conclusion,
            plies: 45,
            full_moves: 23,
            captured_by_attackers: 5,
            captured_by_defenders: 3,
            created_at: 1_000,
            finished_at: ending.map(|_| 1_000 + 2 * 86_400 + 3 * 3_600 + 59),
            duration: ending.map(|_| 2 * 86_400 + 3 * 3_600 + 59),
            rating_changes: Vec::new(),
            ended_too_soon_to_rate: false,
            review: None,
        }
    }

    fn ended(winner: Option<Side>, reason: EndReason) -> Ending {
        Ending { winner, reason }
    }

    #[test]
    fn every_conclusion_is_said_in_both_languages() {
        let d = Some(Side::Defenders);
        let a = Some(Side::Attackers);
        let cases = [
            (
                Some(ended(d, EndReason::Board(Reason::KingEscaped))),
                Conclusion::KingEscaped { at: sq("k11") },
                "The king escaped at k11.",
                "Король ушёл на k11.",
            ),
            (
                Some(ended(a, EndReason::Board(Reason::KingCaptured))),
                Conclusion::KingCaptured { at: sq("f5") },
                "The king was captured at f5.",
                "Король захвачен на f5.",
            ),
            (
                Some(ended(d, EndReason::Board(Reason::ExitFort))),
                Conclusion::ExitFort { at: sq("k6") },
                "The king built an exit fort at k6.",
                "Король на k6 укрылся в неприступной крепости на краю доски.",
            ),
            (
                Some(ended(a, EndReason::Board(Reason::Encirclement))),
                Conclusion::Encirclement,
                "The attackers encircled the defenders.",
                "Нападающие окружили защитников.",
            ),
            (
                Some(ended(None, EndReason::Board(Reason::Repetition))),
                Conclusion::Repetition,
                "Drawn by repetition: the same position occurred three times.",
                "Ничья: позиция повторилась трижды.",
            ),
            (
                Some(ended(a, EndReason::Board(Reason::Repetition))),
                Conclusion::Repetition,
                "The same position occurred three times; the defenders lose by repetition.",
                "Позиция повторилась трижды — защитники проигрывают.",
            ),
            (
                Some(ended(a, EndReason::Board(Reason::NoMoves))),
                Conclusion::NoMoves { side: Side::Defenders },
                "The defenders had no legal move.",
                "Партия окончена: защитники остались без ходов.",
            ),
            (
                Some(ended(a, EndReason::Resignation)),
                Conclusion::Resignation { side: Some(Side::Defenders) },
                "bob (defenders) resigned.",
                "bob (защитники) сдаётся.",
            ),
            (
                Some(ended(d, EndReason::Time)),
                Conclusion::Time { side: Some(Side::Attackers) },
                "alice (attackers) ran out of time.",
                "У игрока alice (нападающие) кончилось время.",
            ),
            (
                Some(ended(None, EndReason::Agreement)),
                Conclusion::Agreement,
                "Drawn by agreement.",
                "Ничья по соглашению.",
            ),
            (
                None,
                Conclusion::InProgress { to_move: Side::Defenders },
                "bob (defenders) to move.",
                "Ходит bob (защитники).",
            ),
        ];
        for (ending, conclusion, en, ru) in cases {
            let s = summary(ending, conclusion);
            assert_eq!(conclusion_text(&s, english()), en);
            assert_eq!(conclusion_text(&s, russian()), ru);
            let first_line = |lang| summary_text(&s, lang).description.lines().next().unwrap().to_owned();
            assert_eq!(first_line(english()), en);
            assert_eq!(first_line(russian()), ru);
        }
    }

    #[test]
    fn a_finished_summary_names_the_winner_players_moves_captures_and_duration() {
        let s = summary(
            Some(ended(Some(Side::Defenders), EndReason::Board(Reason::KingEscaped))),
            Conclusion::KingEscaped { at: sq("a1") },
        );
        let en = summary_text(&s, english());
        assert_eq!(en.title, "Game #7 — bob wins with the defenders");
        assert_eq!(
            en.description,
            "The king escaped at a1.\nAttackers: alice · Defenders: bob\nVariant: Copenhagen Hnefatafl\n\
             Moves: 23 (45 plies)\nPieces captured: 5 by the attackers, 3 by the defenders\nDuration: 2 d 3 h"
        );
        let ru = summary_text(&s, russian());
        assert_eq!(ru.title, "Партия №7 — победа защитников: bob");
        assert_eq!(
            ru.description,
            "Король ушёл на a1.\nНападающие: alice · Защитники: bob\nВариант: Копенгагенский хнефатафл\n\
             Ходов: 23 (45 полуходов)\nЗахвачено фигур: нападающими 5, защитниками 3\nДлительность: 2 дн. 3 ч"
        );
    }

    #[test]
    fn an_imported_games_summary_gives_it_no_duration_or_start() {
        let mut s = summary(Some(ended(Some(Side::Attackers), EndReason::Resignation)), Conclusion::Agreement);
        s.game.imported = true;
        s.duration = None;
        let en = summary_text(&s, english());
        assert!(en.description.ends_with("Imported game: not rated."), "{}", en.description);
        assert!(!en.description.contains("Duration") && !en.description.contains("Started"), "{}", en.description);
        let ru = summary_text(&s, russian());
        assert!(!ru.description.contains("Длительность") && !ru.description.contains("Начата"), "{}", ru.description);
    }

    #[test]
    fn draws_and_running_games_have_their_own_titles() {
        let draw = summary(Some(ended(None, EndReason::Agreement)), Conclusion::Agreement);
        assert_eq!(summary_text(&draw, english()).title, "Game #7 — draw");
        assert_eq!(summary_text(&draw, russian()).title, "Партия №7 — ничья");
        let running = summary(None, Conclusion::InProgress { to_move: Side::Defenders });
        let en = summary_text(&running, english());
        assert_eq!(en.title, "Game #7 — in progress");
        assert!(en.description.ends_with("Started <t:1000:R>"), "{}", en.description);
        let ru = summary_text(&running, russian());
        assert_eq!(ru.title, "Партия №7 — идёт");
        assert!(ru.description.ends_with("Начата <t:1000:R>"), "{}", ru.description);
    }

    #[test]
    fn rating_changes_are_listed_per_scope_with_signed_differences() {
        let mut s = summary(
            Some(ended(Some(Side::Attackers), EndReason::Resignation)),
            Conclusion::Resignation { side: Some(Side::Defenders) },
        );
        let change =
            |id, user: &str, scope, (before, deviation_before): (f64, f64), (after, deviation_after)| RatingChange {
                user: User::new(id, user),
                family: "copenhagen".to_owned(),
                scope,
                before,
                after,
                deviation_before,
                deviation_after,
            };
        s.rating_changes = vec![
            change(1, "alice", Scope::Global, (1500.0, 350.0), (1662.3, 290.3)),
            change(2, "bob", Scope::Global, (1500.0, 350.0), (1337.7, 290.3)),
            change(1, "alice", Scope::Server(1), (1600.4, 112.0), (1640.0, 108.0)),
            change(2, "bob", Scope::Server(1), (1450.0, 70.0), (1410.2, 69.0)),
        ];
        // A provisional rating is marked as profiles mark it: before the game, after it, or both.
        let en = summary_text(&s, english()).description;
        assert!(en.contains("\nRating (global): alice 1500? → 1662? (+162), bob 1500? → 1338? (-162)\n"), "{en}");
        assert!(en.ends_with("\nRating (this server): alice 1600? → 1640 (+40), bob 1450 → 1410 (-40)"), "{en}");
        let ru = summary_text(&s, russian()).description;
        assert!(ru.contains("\nРейтинг (общий): alice 1500? → 1662? (+162), bob 1500? → 1338? (-162)\n"), "{ru}");
        assert!(ru.ends_with("\nРейтинг (на этом сервере): alice 1600? → 1640 (+40), bob 1450 → 1410 (-40)"), "{ru}");
        assert!(!en.contains("Not rated") && !ru.contains("На рейтинг не влияет"), "{en}\n{ru}");
    }

    /// A game against the bot moves the ratings of the pool of games against the bot, which the
    /// line names: "Rating (global): ann 1500 → 1338" read as the person's rating among people.
    #[test]
    fn the_rating_line_of_a_game_against_the_bot_names_its_pool() {
        let mut s = summary(
            Some(ended(Some(Side::Defenders), EndReason::Resignation)),
            Conclusion::Resignation { side: Some(Side::Attackers) },
        );
        let level = crate::host::bot_user(tafl_rules::engine::Level::new(1).unwrap());
        s.game.defender = User::new(level, "Tafl bot (level 1)");
        let change = |user: &User, scope, after: f64| RatingChange {
            user: user.clone(),
            family: "bot:copenhagen".to_owned(),
            scope,
            before: 1500.0,
            after,
            deviation_before: 350.0,
            deviation_after: 290.3,
        };
        let (ann, bot) = (s.game.attacker.clone(), s.game.defender.clone());
        s.rating_changes = vec![
            change(&ann, Scope::Global, 1337.7),
            change(&bot, Scope::Global, 1662.3),
            change(&ann, Scope::Server(1), 1337.7),
            change(&bot, Scope::Server(1), 1662.3),
        ];
        let en = summary_text(&s, english()).description;
        assert!(
            en.contains(
                "\nRating against the bot (global): alice 1500? → 1338? (-162), Tafl bot (level 1) 1500? → 1662? (+162)\n"
            ),
            "{en}"
        );
        assert!(en.ends_with("\nRating against the bot (this server): alice 1500? → 1338? (-162), Tafl bot (level 1) 1500? → 1662? (+162)"), "{en}");
        let ru = summary_text(&s, russian()).description;
        assert!(
            ru.contains(
                "\nРейтинг против бота (общий): alice 1500? → 1338? (-162), Тафл-бот (уровень 1) 1500? → 1662? (+162)\n"
            ),
            "{ru}"
        );
        assert!(ru.contains("\nРейтинг против бота (на этом сервере): alice 1500? → 1338? (-162)"), "{ru}");
    }

    #[test]
    fn a_result_too_soon_to_rate_says_why_it_has_no_rating_line() {
        let mut s = summary(
            Some(ended(Some(Side::Attackers), EndReason::Resignation)),
            Conclusion::Resignation { side: Some(Side::Defenders) },
        );
        (s.plies, s.full_moves, s.game.ply) = (0, 0, 0);
        s.ended_too_soon_to_rate = true;
        let en = summary_text(&s, english()).description;
        assert!(en.ends_with("\nDuration: 2 d 3 h\nNot rated: the game ended before each side had moved."), "{en}");
        let ru = summary_text(&s, russian()).description;
        assert!(ru.ends_with("\nНа рейтинг не влияет: партия окончена до того, как обе стороны сделали ход."), "{ru}");
    }

    #[test]
    fn a_leaderboard_explains_its_provisional_ratings_and_ranks_ties_alike() {
        let ranked = |rank, id, name: &str, rating: f64, provisional| LeaderboardEntry {
            rank,
            user: User::new(id, name),
            rating: FamilyRating {
                family: "copenhagen".to_owned(),
                rating,
                deviation: if provisional { 290.0 } else { 80.0 },
                games: if provisional { 1 } else { 14 },
                provisional,
            },
        };
        let board = Leaderboard {
            family: "copenhagen".to_owned(),
            scope: Scope::Global,
            entries: vec![
                ranked(1, 1, "alice", 1500.0, false),
                ranked(1, 2, "bob", 1500.0, false),
                ranked(3, 3, "carol", 1662.3, true),
            ],
        };
        let en = leaderboard_text(&board, english()).description;
        assert_eq!(
            en,
            "1. alice — 1500 · games: 14\n1. bob — 1500 · games: 14\n3. carol — 1662? · games: 1\n\
             ? — a provisional rating (few rated games, or none for a long time), ranked after the established ones."
        );
        let ru = leaderboard_text(&board, russian()).description;
        assert!(
            ru.starts_with("1. alice — 1500 · партий: 14\n1. bob — 1500 · партий: 14\n3. carol — 1662? · партий: 1\n"),
            "{ru}"
        );
        // A hundred long names stay within Discord's limit, the note included.
        let many = Leaderboard {
            entries: (1..=100).map(|n| ranked(n as usize, n, &"ж".repeat(32), 1400.0, true)).collect(),
            ..board
        };
        let long = leaderboard_text(&many, russian()).description;
        assert!(long.len() <= MAX_DESCRIPTION && long.ends_with("идут после устоявшихся."), "{}", long.len());
    }

    #[test]
    fn names_cannot_format_or_mention() {
        let mut s = summary(None, Conclusion::InProgress { to_move: Side::Attackers });
        s.game.attacker.name = "**big** <@123> _x_".to_owned();
        let text = conclusion_text(&s, english());
        assert_eq!(text, "\\*\\*big\\*\\* \\<@123\\> \\_x\\_ (attackers) to move.");
    }

    #[test]
    fn the_bot_is_named_in_the_readers_language_in_the_summary_the_captions_and_the_animation() {
        // The bot's stored name is English; a Russian reader must never see it.
        let mut s = summary(
            Some(ended(Some(Side::Attackers), EndReason::Resignation)),
            Conclusion::Resignation { side: Some(Side::Defenders) },
        );
        s.game.attacker =
            User::new(crate::host::bot_user(tafl_rules::engine::Level::new(3).unwrap()), "Tafl bot (level 3)");
        s.rating_changes.push(RatingChange {
            user: s.game.attacker.clone(),
            family: "bot:copenhagen".to_owned(),
            scope: Scope::Global,
            before: 1500.0,
            after: 1662.0,
            deviation_before: 350.0,
            deviation_after: 290.0,
        });
        let text = summary_text(&s, russian());
        let all = format!("{}\n{}", text.title, text.description);
        assert!(all.contains("Тафл-бот (уровень 3)"), "{all}");
        assert!(!all.contains("Tafl bot"), "{all}");
        assert!(all.contains("Тафл-бот (уровень 3) 1500? → 1662? (+162)"), "{all}");
        let caption = caption(&s.game, russian());
        assert_eq!((caption.attackers.as_str(), caption.defenders.as_str()), ("Тафл-бот (уровень 3)", "bob"));
        let gif = gif_options(&s, russian());
        assert_eq!((gif.attackers.as_str(), gif.defenders.as_str()), ("Тафл-бот (уровень 3)", "bob"));
        // The card too, and its title names the variant as the text does.
        let card = crate::present::cards::summary_card(&s, russian(), tafl_render::Theme::default());
        assert_eq!(card.players[0].name, "Тафл-бот (уровень 3)");
        assert_eq!(card.title, "Копенгагенский хнефатафл · рейтинговая партия");
        assert!(summary_text(&s, english()).title.contains("Tafl bot (level 3)"));
        // With its side, the bot's name keeps one pair of brackets.
        s.conclusion = Conclusion::InProgress { to_move: Side::Attackers };
        assert_eq!(conclusion_text(&s, english()), "Tafl bot (level 3, attackers) to move.");
        assert_eq!(conclusion_text(&s, russian()), "Ходит Тафл-бот (уровень 3, нападающие).");
    }

    #[test]
    fn captions_say_the_result_and_whose_turn_in_the_readers_words() {
        let escaped = ended(Some(Side::Defenders), EndReason::Board(Reason::KingEscaped));
        assert_eq!(result_caption(escaped, english()), "Defenders win · king escaped");
        assert_eq!(result_caption(escaped, russian()), "Победа защитников · король ушёл");
        let resigned = ended(Some(Side::Attackers), EndReason::Resignation);
        assert_eq!(result_caption(resigned, english()), "Attackers win · resignation");
        assert_eq!(result_caption(resigned, russian()), "Победа нападающих · сдача");
        assert_eq!(result_caption(ended(None, EndReason::Agreement), english()), "Draw · agreement");
        let running = summary(None, Conclusion::InProgress { to_move: Side::Defenders });
        let caption = caption(&running.game, russian());
        assert_eq!(caption.footer, "Ход 23 · ходят защитники");
        assert_eq!(caption.to_move, Some(Side::Defenders));
        assert_eq!((caption.attackers.as_str(), caption.defenders.as_str()), ("alice", "bob"));
        let over = summary(Some(resigned), Conclusion::Resignation { side: Some(Side::Defenders) });
        let gif = gif_options(&over, english());
        assert_eq!(gif.first_footer, "Start · Attackers to move");
        assert_eq!(gif.last_footer, "Move 23 · Attackers win · resignation");
        assert_eq!((gif.attackers.as_str(), gif.defenders.as_str()), ("alice", "bob"));
        assert_eq!(super::caption(&over.game, english()).to_move, None, "nobody is to move in a finished game");
    }

    /// The king escapes on the defenders' ply 44: the card counts 22 moves, and the final
    /// board and the animation's last frame must not name a 23rd.
    #[test]
    fn a_game_won_on_the_defenders_ply_is_captioned_with_the_move_it_was_won_in() {
        let escaped = ended(Some(Side::Defenders), EndReason::Board(Reason::KingEscaped));
        let mut over = summary(Some(escaped), Conclusion::KingEscaped { at: sq("a1") });
        over.game.ply = 44;
        over.game.to_move = Side::Attackers;
        over.plies = 44;
        over.full_moves = 22;
        let card = crate::present::cards::summary_card(&over, english(), tafl_render::Theme::default());
        assert_eq!(card.moves_line, "22 moves (44 plies)");
        assert_eq!(gif_options(&over, english()).last_footer, "Move 22 · Defenders win · king escaped");
        // Won on the attackers' ply 45: move 23, as before; going on at ply 44, move 23 is next.
        over.game.ply = 45;
        assert_eq!(caption(&over.game, english()).footer, "Move 23 · Defenders win · king escaped");
        let going = summary(None, Conclusion::InProgress { to_move: Side::Attackers });
        let going = GameView { ply: 44, to_move: Side::Attackers, ..going.game };
        assert_eq!(caption(&going, english()).footer, "Move 23 · Attackers to move");
    }

    /// A player whose name a board draws nothing of (only Hangul fillers, a common Discord
    /// "blank name"; the Braille blank, zero-width spaces, variation selectors) is named by
    /// their side in the board's and the animation's header, in the reader's language, as the
    /// cards show "Player 1": the header names the player instead of showing a bare icon.
    /// A hint whose move captures the king frames him in red: the rules list no king among a
    /// move's captures, so the picture showed the move and nothing taken.
    #[test]
    fn a_hint_that_captures_the_king_frames_him() {
        let view = GameView::sample(7, Variant::Brandubh, User::new(1, "alice"), User::new(2, "bob"));
        // Random Brandubh games until the side to move can capture the king (xorshift, fixed).
        let mut state = 0x2545_F491_4F6C_DD1Du64;
        for _ in 0..2_000 {
            let mut game = Game::new(tafl_rules::Position::new(Variant::Brandubh.rules()).unwrap());
            while game.status().is_ongoing() && game.ply() < 150 {
                let moves = game.position().legal_moves();
                let takes_king = moves.iter().copied().find(|&mv| {
                    let mut trial = game.clone();
                    trial.play(mv).is_ok_and(|played| {
                        matches!(played.status, tafl_rules::Status::Finished(o) if o.reason == Reason::KingCaptured)
                    })
                });
                if let Some(mv) = takes_king {
                    let king = game.position().king();
                    let options = hint_board(&view, &game, mv, english());
                    assert!(options.marks.contains(&Mark { square: king, kind: MarkKind::Danger }), "{options:?}");
                    let quiet = moves.iter().copied().find(|&other| other != mv).unwrap();
                    let mut trial = game.clone();
                    if trial.play(quiet).is_ok_and(|played| played.status.is_ongoing()) {
                        let options = hint_board(&view, &game, quiet, english());
                        assert!(!options.marks.iter().any(|m| m.kind == MarkKind::Danger), "{options:?}");
                    }
                    return;
                }
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                game.play(moves[(state % moves.len() as u64) as usize]).unwrap();
            }
        }
        panic!("no position where the king can be captured was found");
    }

    #[test]
    fn a_board_names_a_player_whose_name_draws_nothing_by_their_side() {
        let mut s = summary(None, Conclusion::InProgress { to_move: Side::Attackers });
        s.game.attacker = User::new(1, "\u{3164}\u{3164}");
        s.game.defender = User::new(2, "\u{2800}\u{200B}\u{FE0F} ");
        let names = |c: &Caption| (c.attackers.clone(), c.defenders.clone());
        assert_eq!(names(&caption(&s.game, russian())), ("Нападающие".to_owned(), "Защитники".to_owned()));
        let gif = gif_options(&s, english());
        assert_eq!((gif.attackers.as_str(), gif.defenders.as_str()), ("Attackers", "Defenders"));
        let mv = s.game.position.legal_moves()[0];
        let hint = hint_board(&s.game, &Game::new(s.game.position.clone()), mv, english()).caption.unwrap();
        assert_eq!(names(&hint), ("Attackers".to_owned(), "Defenders".to_owned()));
        // The picture names the player where it showed a bare icon.
        let renderer = tafl_render::Renderer::new();
        let board = |caption: Caption| {
            let options = BoardOptions { caption: Some(caption), ..BoardOptions::default() };
            renderer.render_png(&s.game.position, &options).unwrap()
        };
        let with_side = caption(&s.game, english());
        let bare = Caption { attackers: String::new(), ..with_side.clone() };
        assert!(board(with_side) != board(bare), "the header names the player");
        // A name with anything to draw is kept as it is, emoji too (a board marks them `?`).
        s.game.attacker = User::new(1, "\u{3164}Ann");
        s.game.defender = User::new(2, "🦊");
        assert_eq!(names(&caption(&s.game, english())), ("\u{3164}Ann".to_owned(), "🦊".to_owned()));
    }

    #[test]
    fn durations_show_the_two_largest_units() {
        assert_eq!(duration(0, english()), "under a minute");
        assert_eq!(duration(59, russian()), "меньше минуты");
        assert_eq!(duration(14 * 60 + 5, english()), "14 min");
        assert_eq!(duration(3_600, english()), "1 h");
        assert_eq!(duration(5 * 3_600 + 12 * 60, russian()), "5 ч 12 мин");
        assert_eq!(duration(86_400 + 3_600 + 61, english()), "1 d 1 h");
        assert_eq!(duration(2 * 86_400 + 120, english()), "2 d");
    }

    #[test]
    fn russian_streaks_follow_the_last_digits() {
        let mut profile = Profile {
            user: User::new(1, "alice"),
            scope: Scope::Global,
            ratings: Vec::new(),
            as_attacker: SideRecord { wins: 1, losses: 0, draws: 0 },
            as_defender: SideRecord::default(),
            against_bot: SideRecord::default(),
            streak: None,
        };
        for (n, words) in [(1, "1 победа"), (3, "3 победы"), (5, "5 побед"), (11, "11 побед"), (21, "21 победа")]
        {
            profile.streak = Some(Streak { result: PlayerResult::Win, length: n });
            let text = profile_text(&profile, russian()).description;
            assert!(text.ends_with(&format!("Текущая серия: {words} подряд")), "{text}");
        }
    }

    fn entry(rank: usize, name: &str, rating: f64, games: i64) -> LeaderboardEntry {
        LeaderboardEntry {
            rank,
            user: User::new(rank as i64, name),
            rating: FamilyRating {
                family: "copenhagen".into(),
                rating,
                deviation: 80.0,
                games,
                provisional: games < 3,
            },
        }
    }

    #[test]
    fn a_leaderboard_lists_ranks_ratings_and_games() {
        let board = Leaderboard {
            family: "copenhagen".into(),
            scope: Scope::Server(5),
            entries: vec![entry(1, "alice", 1712.4, 12), entry(2, "bob", 1499.5, 1)],
        };
        let en = leaderboard_text(&board, english());
        assert_eq!(en.title, "Leaderboard: Copenhagen Hnefatafl (this server)");
        assert_eq!(
            en.description,
            "1. alice — 1712 · games: 12\n2. bob — 1500? · games: 1\n\
             ? — a provisional rating (few rated games, or none for a long time), ranked after the established ones."
        );
        let ru = leaderboard_text(&board, russian());
        assert_eq!(ru.title, "Таблица лидеров: Копенгагенский хнефатафл (этот сервер)");
        assert_eq!(
            ru.description,
            "1. alice — 1712 · партий: 12\n2. bob — 1500? · партий: 1\n? — предварительный рейтинг (мало рейтинговых \
             партий или давно не было ни одной); такие рейтинги идут после устоявшихся."
        );
        let empty = Leaderboard { family: "seed-001".into(), scope: Scope::Global, entries: Vec::new() };
        assert_eq!(leaderboard_text(&empty, english()).description, "No rated games yet.");
        assert_eq!(
            leaderboard_text(&empty, russian()).title,
            "Таблица лидеров: Таблут · Брандубх · Хнефатафл (все серверы)"
        );
    }

    #[test]
    fn a_long_leaderboard_fits_in_an_embed() {
        let entries = (1..=100).map(|n| entry(n, &"W".repeat(64), 2000.0 - n as f64, 10)).collect();
        let board = Leaderboard { family: "fetlar".into(), scope: Scope::Global, entries };
        let text = leaderboard_text(&board, english()).description;
        assert!(text.len() <= MAX_DESCRIPTION && text.chars().count() <= 4096);
        assert!(text.starts_with("1. WWW") && text.lines().count() < 100);
    }

    #[test]
    fn a_profile_shows_ratings_record_by_side_and_streak() {
        let profile = Profile {
            user: User::new(1, "alice"),
            scope: Scope::Global,
            ratings: vec![FamilyRating {
                family: "historical".into(),
                rating: 1620.6,
                deviation: 90.0,
                games: 7,
                provisional: false,
            }],
            as_attacker: SideRecord { wins: 3, losses: 1, draws: 0 },
            as_defender: SideRecord { wins: 1, losses: 1, draws: 1 },
            against_bot: SideRecord::default(),
            streak: Some(Streak { result: PlayerResult::Win, length: 2 }),
        };
        let en = profile_text(&profile, english());
        assert_eq!(en.title, "alice (global)");
        assert_eq!(
            en.description,
            "Historical tafl: 1621 · games: 7\nAs the attackers: 3 won, 1 lost, 0 drawn\n\
             As the defenders: 1 won, 1 lost, 1 drawn\nCurrent streak: 2 wins in a row"
        );
        let ru = profile_text(&profile, russian());
        assert_eq!(
            ru.description,
            "Исторический тафл: 1621 · партий: 7\nЗа нападающих: побед 3, поражений 1, ничьих 0\n\
             За защитников: побед 1, поражений 1, ничьих 1\nТекущая серия: 2 победы подряд"
        );
        let one_loss = Profile { streak: Some(Streak { result: PlayerResult::Loss, length: 1 }), ..profile.clone() };
        assert!(profile_text(&one_loss, english()).description.ends_with("1 loss in a row"));
        assert!(profile_text(&one_loss, russian()).description.ends_with("1 поражение подряд"));
        let and_the_bot = Profile { against_bot: SideRecord { wins: 4, losses: 2, draws: 1 }, ..profile.clone() };
        assert!(
            profile_text(&and_the_bot, english())
                .description
                .ends_with("in a row\nAgainst the bot: 4 won, 2 lost, 1 drawn")
        );
        assert!(
            profile_text(&and_the_bot, russian())
                .description
                .ends_with("подряд\nПротив бота: побед 4, поражений 2, ничьих 1")
        );
        let nobody = Profile {
            ratings: Vec::new(),
            as_attacker: SideRecord::default(),
            as_defender: SideRecord::default(),
            streak: None,
            ..profile
        };
        assert_eq!(profile_text(&nobody, english()).description, "No rated games yet.");
        assert_eq!(profile_text(&nobody, russian()).description, "Рейтинговых партий пока нет.");
        // Someone who has only played the bot is not shown rows of zeros against people.
        let only_the_bot = Profile {
            ratings: vec![FamilyRating {
                family: "bot:historical".into(),
                rating: 1480.0,
                deviation: 200.0,
                games: 3,
                provisional: true,
            }],
            against_bot: SideRecord { wins: 1, losses: 2, draws: 0 },
            ..nobody
        };
        assert_eq!(
            profile_text(&only_the_bot, english()).description,
            "Historical tafl · against the bot: 1480? · games: 3\nAgainst the bot: 1 won, 2 lost, 0 drawn"
        );
    }
}
