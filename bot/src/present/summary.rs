//! View values of the end-of-game summary, the leaderboard, the profile and the captions of
//! board pictures. The front ends put them into embeds (Discord) or print them (console).

use tafl_render::Caption;
use tafl_rules::{Reason, Side, Square};

use super::markup::{name, timestamp};
use super::text::{move_number, side_name, variant_name};
use super::{Lang, tr};
use crate::host::{
    Conclusion, EndReason, Ending, GameView, Leaderboard, PlayerResult, Profile, RatingChange, Scope, SideRecord,
    Summary,
};

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
        (Some(_), None) => tr!(lang, "summary-title-draw", id = id),
        (Some(_), Some(side)) => tr!(
            lang,
            "summary-title-won",
            id = id,
            player = name(lang, &game.player(side).name),
            side = side_name(side, lang)
        ),
    };
    let mut lines = vec![
        conclusion_text(summary, lang),
        tr!(
            lang,
            "summary-players",
            attackers = name(lang, &game.attacker.name),
            defenders = name(lang, &game.defender.name)
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
    lines.push(if let Some(seconds) = summary.duration {
        tr!(lang, "summary-duration", duration = duration(seconds, lang))
    } else {
        tr!(lang, "summary-started", when = timestamp(lang, summary.created_at))
    });
    // The host lists the global changes first, then the server's.
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
        lines.push(match scope {
            Scope::Global => tr!(lang, "summary-rating-global", changes = changes),
            Scope::Server(_) => tr!(lang, "summary-rating-server", changes = changes),
        });
    }
    if game.imported {
        lines.push(tr!(lang, "summary-imported"));
    }
    EmbedText { title, description: lines.join("\n") }
}

/// How the game ended or stands, as one sentence: "The king escaped at k11."
#[must_use]
pub fn conclusion_text(summary: &Summary, lang: Lang) -> String {
    let player = |side: Side| {
        tr!(
            lang,
            "player-with-side",
            player = name(lang, &summary.game.player(side).name),
            side = side_name(side, lang)
        )
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
        Conclusion::Agreement => tr!(lang, "conclusion-agreement"),
        Conclusion::Aborted => tr!(lang, "conclusion-aborted"),
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
            EndReason::Aborted => "caption-why-aborted",
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
        attackers: game.attacker.name.clone(),
        defenders: game.defender.name.clone(),
        footer: tr!(lang, "caption-move", number = move_number(game.ply), status = status),
        to_move: game.ending.is_none().then_some(game.to_move),
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
        footer: tr!(lang, "caption-move", number = move_number(game.ply()), status = status),
        to_move: game.status().is_ongoing().then(|| game.position().to_move()),
    }
}

/// The footers of the first and last frames of a game's animation: the start, and where the
/// game stands at the end (its result, or whose turn it is).
#[must_use]
pub fn gif_footers(game: &GameView, first_to_move: Side, lang: Lang) -> (String, String) {
    let first = tr!(
        lang,
        match first_to_move {
            Side::Attackers => "caption-start",
            Side::Defenders => "caption-start-defenders",
        }
    );
    (first, caption(game, lang).footer)
}

/// A leaderboard: rank, name, rating (with `?` while provisional) and games.
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
    for entry in &board.entries {
        let line = tr!(
            lang,
            "leaderboard-line",
            rank = entry.rank,
            player = name(lang, &entry.user.name),
            rating = rating(entry.rating.rating, entry.rating.provisional),
            games = entry.rating.games
        );
        if d.len() + line.len() + 1 > MAX_DESCRIPTION {
            break;
        }
        d.push_str(&line);
        d.push('\n');
    }
    EmbedText { title, description: d.trim_end().to_owned() }
}

/// A profile: ratings per family, record by side, current streak.
#[must_use]
pub fn profile_text(profile: &Profile, lang: Lang) -> EmbedText {
    let title =
        tr!(lang, "profile-title", player = name(lang, &profile.user.name), scope = scope_name(profile.scope, lang));
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
    lines.push(side_record("profile-record-attackers", profile.as_attacker, lang));
    lines.push(side_record("profile-record-defenders", profile.as_defender, lang));
    if let Some(streak) = profile.streak {
        let id = match streak.result {
            PlayerResult::Win => "profile-streak-win",
            PlayerResult::Loss => "profile-streak-loss",
            PlayerResult::Draw => "profile-streak-draw",
        };
        lines.push(tr!(lang, id, n = streak.length));
    }
    EmbedText { title, description: lines.join("\n") }
}

/// A family's name for people.
#[must_use]
pub fn family_name(family: &str, lang: Lang) -> String {
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
    let before = change.before.round() as i64;
    let after = change.after.round() as i64;
    format!("{} {before} → {after} ({:+})", name(lang, &change.user.name), after - before)
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
