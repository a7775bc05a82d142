//! The views `tafl-render` draws the summary, profile and leaderboard cards from. The renderer
//! holds no words; every word a card says comes from `bot/locales/*/cards.ftl`.

use tafl_render::{
    CardPlayer, LeaderboardCard, LeaderboardLabels, LeaderboardRow, ProfileCard, ProfileLabels, RatingPoint,
    SummaryCard, SummaryLabels, Theme, VariantCount,
};
use tafl_rules::{Reason, Side};

use crate::host::{EndReason, Ending, Leaderboard, PlayerResult, Profile, RatingHistory, Scope, Summary};
use crate::present::markup::plain_name;
use crate::present::summary::{duration, family_name};
use crate::present::text::variant_name;
use crate::present::{Lang, tr};

/// The summary card of a game in `lang`.
#[must_use]
pub fn summary_card(summary: &Summary, lang: Lang, theme: Theme) -> SummaryCard {
    let game = &summary.game;
    // The first scope listed is the global one; its changes are the ones shown.
    let scope = summary.rating_changes.first().map(|c| c.scope);
    let player = |side: Side, fallback: &str| {
        let user = game.player(side);
        CardPlayer {
            name: plain_name(lang, user),
            fallback: fallback.to_owned(),
            side,
            rating: summary.rating_changes.iter().find(|c| Some(c.scope) == scope && c.user.id == user.id).map(|c| {
                tafl_render::RatingChange { after: c.after, change: c.delta(), provisional: c.provisional_after() }
            }),
        }
    };
    let (p1, p2) = (tr!(lang, "card-player", n = 1), tr!(lang, "card-player", n = 2));
    let variant = variant_name(&game.variant, lang);
    let title = match scope {
        Some(_) => tr!(lang, "card-rated", variant = variant.as_str()),
        None => variant,
    };
    let moves_line = tr!(lang, "card-moves", moves = summary.full_moves, plies = summary.plies);
    let duration_line = summary.duration.map(|s| duration(s, lang)).unwrap_or_default();
    let record = &summary.record;
    SummaryCard {
        theme,
        final_position: record.position().clone(),
        last_move: record.moves().last().map(tafl_render::LastMove::from),
        marks: tafl_render::captured_king(record).into_iter().collect(),
        king: tafl_render::KingStyle::Auto,
        title,
        players: [player(Side::Attackers, &p1), player(Side::Defenders, &p2)],
        result_line: result_line(game.ending, lang),
        moves_line,
        duration_line,
        series: summary.series(),
        labels: summary_labels(lang),
    }
}

fn summary_labels(lang: Lang) -> SummaryLabels {
    SummaryLabels {
        pieces: tr!(lang, "card-pieces"),
        king_distance: tr!(lang, "card-king-distance"),
        evaluation: tr!(lang, "card-evaluation"),
        ply: tr!(lang, "card-ply"),
        attackers: tr!(lang, "card-attackers"),
        defenders: tr!(lang, "card-defenders"),
    }
}

/// "Defenders win · the king escaped", "Draw · agreement", "In progress".
#[must_use]
pub fn result_line(ending: Option<Ending>, lang: Lang) -> String {
    let Some(ending) = ending else { return tr!(lang, "card-in-progress") };
    let result = match (ending.winner, ending.reason) {
        (Some(Side::Attackers), _) => "card-win-attackers",
        (Some(Side::Defenders), _) => "card-win-defenders",
        // Aborted, or ended while the bot was away: no result, as the summary and the board say.
        (None, reason) if !reason.has_result() => "card-no-result",
        (None, _) => "card-draw",
    };
    let why = match ending.reason {
        EndReason::Board(Reason::KingCaptured) => "card-why-king-captured",
        EndReason::Board(Reason::KingEscaped) => "card-why-king-escaped",
        EndReason::Board(Reason::ExitFort) => "card-why-exit-fort",
        EndReason::Board(Reason::Encirclement) => "card-why-encirclement",
        EndReason::Board(Reason::Repetition) => "card-why-repetition",
        EndReason::Board(Reason::NoMoves) => "card-why-no-moves",
        EndReason::Resignation => "card-why-resignation",
        EndReason::Agreement => "card-why-agreement",
        EndReason::Time => "card-why-time",
        EndReason::Abandoned => "card-why-abandoned",
        EndReason::Aborted => "card-why-aborted",
        EndReason::BotRemoved => "card-why-bot-removed",
    };
    let (result, why) = (tr!(lang, result), tr!(lang, why));
    tr!(lang, "card-result", result = result.as_str(), why = why.as_str())
}

/// The profile card of a player in `lang`.
#[must_use]
pub fn profile_card(profile: &Profile, history: &RatingHistory, lang: Lang, theme: Theme) -> ProfileCard {
    let games = profile.games();
    let subtitle = match profile.scope {
        Scope::Global => tr!(lang, "card-profile-global", games = games),
        Scope::Server(_) => tr!(lang, "card-profile-server", games = games),
    };
    let labels = ProfileLabels {
        rating: tr!(lang, "card-rating"),
        games: tr!(lang, "card-games"),
        // Someone who has only played the bot has no results by side: the panel holds the bot's
        // row alone.
        by_side: if profile.against_people() == 0 && profile.against_bot.games() > 0 {
            tr!(lang, "card-results")
        } else {
            tr!(lang, "card-by-side")
        },
        attackers: tr!(lang, "card-as-attackers"),
        defenders: tr!(lang, "card-as-defenders"),
        against_bot: tr!(lang, "card-against-bot"),
        wins: tr!(lang, "card-wins"),
        losses: tr!(lang, "card-losses"),
        draws: tr!(lang, "card-draws"),
        most_played: tr!(lang, "card-most-played"),
        nothing_yet: tr!(lang, "no-rated-games"),
    };
    let record =
        |r: crate::host::SideRecord| tafl_render::SideRecord { wins: r.wins, losses: r.losses, draws: r.draws };
    ProfileCard {
        theme,
        name: plain_name(lang, &profile.user),
        fallback: tr!(lang, "card-player", n = 1),
        subtitle,
        history: history
            .families
            .iter()
            .map(|f| tafl_render::RatingHistory {
                family: family_name(&f.family, lang),
                points: f
                    .points
                    .iter()
                    .map(|p| RatingPoint { game: p.number, rating: p.rating, deviation: p.deviation })
                    .collect(),
            })
            .collect(),
        attackers: record(profile.as_attacker),
        defenders: record(profile.as_defender),
        against_bot: record(profile.against_bot),
        streak_line: profile.streak.map(|s| streak_line(s.result, s.length, lang)).unwrap_or_default(),
        most_played: history
            .variants
            .iter()
            .map(|(variant, games)| VariantCount { name: variant_name(variant, lang), games: *games })
            .collect(),
        labels,
    }
}

/// "Current streak: 3 wins" / "Текущая серия: 3 победы".
fn streak_line(result: PlayerResult, n: u32, lang: Lang) -> String {
    let id = match result {
        PlayerResult::Win => "card-streak-win",
        PlayerResult::Loss => "card-streak-loss",
        PlayerResult::Draw => "card-streak-draw",
    };
    tr!(lang, id, n = n)
}

/// The leaderboard card (the first ten entries) in `lang`, with each entry's recent ratings.
#[must_use]
pub fn leaderboard_card(board: &Leaderboard, trends: &[Vec<f64>], lang: Lang, theme: Theme) -> LeaderboardCard {
    let scope = match board.scope {
        Scope::Global => tr!(lang, "card-scope-global"),
        Scope::Server(_) => tr!(lang, "card-scope-server"),
    };
    LeaderboardCard {
        theme,
        title: tr!(lang, "card-leaderboard"),
        subtitle: format!("{} · {scope}", family_name(&board.family, lang)),
        rows: board
            .entries
            .iter()
            .take(10)
            .enumerate()
            .map(|(i, e)| LeaderboardRow {
                rank: e.rank as u32,
                name: plain_name(lang, &e.user),
                fallback: tr!(lang, "card-player", n = i + 1),
                rating: e.rating.rating,
                provisional: e.rating.provisional,
                games: u32::try_from(e.rating.games).unwrap_or(0),
                trend: trends.get(i).cloned().unwrap_or_default(),
            })
            .collect(),
        labels: LeaderboardLabels {
            rating: tr!(lang, "card-column-rating"),
            games: tr!(lang, "card-column-games"),
            trend: tr!(lang, "card-column-trend"),
            nothing_yet: tr!(lang, "no-rated-games"),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn result_lines_say_who_won_and_why_in_both_languages() {
        let ending = Ending { winner: Some(Side::Defenders), reason: EndReason::Board(Reason::KingEscaped) };
        assert_eq!(result_line(Some(ending), Lang::discord(None)), "Defenders win · the king escaped");
        assert_eq!(result_line(Some(ending), Lang::discord(Some("ru"))), "Победа защитников · король ушёл");
        let draw = Ending { winner: None, reason: EndReason::Agreement };
        assert_eq!(result_line(Some(draw), Lang::discord(None)), "Draw · agreement");
        assert_eq!(result_line(None, Lang::discord(Some("ru"))), "Партия идёт");
        let aborted = Ending { winner: None, reason: EndReason::Aborted };
        assert_eq!(result_line(Some(aborted), Lang::discord(None)), "No result · aborted");
        assert_eq!(result_line(Some(aborted), Lang::discord(Some("ru"))), "Без результата · прервана");
        let removed = Ending { winner: None, reason: EndReason::BotRemoved };
        assert_eq!(result_line(Some(removed), Lang::discord(None)), "No result · the bot was removed");
        assert_eq!(result_line(Some(removed), Lang::discord(Some("ru"))), "Без результата · бота удалили с сервера");
    }

    #[test]
    fn the_results_panel_is_by_side_unless_only_the_bot_was_played() {
        let record = crate::host::SideRecord { wins: 2, losses: 1, draws: 0 };
        let profile = Profile {
            user: crate::host::User::new(1, "alice"),
            scope: crate::host::Scope::Global,
            ratings: Vec::new(),
            as_attacker: crate::host::SideRecord::default(),
            as_defender: crate::host::SideRecord::default(),
            against_bot: record,
            streak: None,
        };
        let card = |profile: &Profile, lang| profile_card(profile, &RatingHistory::default(), lang, Theme::Classic);
        let only_bot = card(&profile, Lang::discord(Some("ru")));
        assert_eq!((only_bot.labels.by_side.as_str(), only_bot.against_bot.wins), ("Результаты", 2));
        let both = Profile { as_defender: record, ..profile };
        assert_eq!(card(&both, Lang::discord(None)).labels.by_side, "Results by side");
    }

    #[test]
    fn the_bots_levels_are_named_in_the_readers_language_and_people_as_they_are() {
        let bot = crate::host::User { id: -3, name: "Tafl bot (level 3)".to_owned() };
        assert_eq!(plain_name(Lang::discord(Some("ru")), &bot), "Тафл-бот (уровень 3)");
        assert!(plain_name(Lang::discord(None), &bot).contains('3'));
        let person = crate::host::User { id: 42, name: "*Ása*".to_owned() };
        assert_eq!(plain_name(Lang::discord(Some("ru")), &person), "*Ása*");
    }

    #[test]
    fn streaks_use_the_right_russian_plural() {
        assert_eq!(streak_line(PlayerResult::Win, 1, Lang::discord(Some("ru"))), "Текущая серия: 1 победа подряд");
        assert_eq!(streak_line(PlayerResult::Win, 3, Lang::discord(Some("ru"))), "Текущая серия: 3 победы подряд");
        assert_eq!(
            streak_line(PlayerResult::Loss, 11, Lang::discord(Some("ru"))),
            "Текущая серия: 11 поражений подряд"
        );
        assert_eq!(streak_line(PlayerResult::Draw, 2, Lang::discord(None)), "Current streak: 2 draws in a row");
    }
}
