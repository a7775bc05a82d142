//! The words on the summary, profile and leaderboard cards, in English and Russian, and the
//! views `tafl-render` draws them from. The renderer holds no words; everything a card says
//! is chosen here, beside the embeds' words in [`super::summary`].

use tafl_render::{
    CardPlayer, LeaderboardCard, LeaderboardLabels, LeaderboardRow, ProfileCard, ProfileLabels, RatingPoint,
    SummaryCard, SummaryLabels, Theme, VariantCount,
};
use tafl_rules::{Reason, Side, Variant};

use crate::host::{EndReason, Ending, Leaderboard, PlayerResult, Profile, RatingHistory, Scope, Summary};
use crate::present::Lang;
use crate::present::summary::{duration, family_name};

/// Whether the card's words are the Russian ones (cards keep their own words, English otherwise).
fn is_ru(lang: Lang) -> bool {
    lang.code().starts_with("ru")
}

/// The summary card of a game in `lang`.
#[must_use]
pub fn summary_card(summary: &Summary, lang: Lang, theme: Theme) -> SummaryCard {
    let ru = is_ru(lang);
    let game = &summary.game;
    // The first scope listed is the global one; its changes are the ones shown.
    let scope = summary.rating_changes.first().map(|c| c.scope);
    let player = |side: Side, fallback: &str| {
        let user = game.player(side);
        CardPlayer {
            name: user.name.clone(),
            fallback: fallback.to_owned(),
            side,
            rating: summary
                .rating_changes
                .iter()
                .find(|c| Some(c.scope) == scope && c.user.id == user.id)
                .map(|c| tafl_render::RatingChange { after: c.after, change: c.delta() }),
        }
    };
    let (p1, p2) = if ru { ("Игрок 1", "Игрок 2") } else { ("Player 1", "Player 2") };
    let variant = variant_name(&game.variant, lang);
    let title = match (scope, ru) {
        (Some(_), false) => format!("{variant} · rated"),
        (Some(_), true) => format!("{variant} · рейтинговая"),
        (None, _) => variant,
    };
    let moves_line = if ru {
        format!("Ходов: {} (полуходов: {})", summary.full_moves, summary.plies)
    } else {
        format!("{} moves ({} plies)", summary.full_moves, summary.plies)
    };
    let duration_line = summary.duration.map(|s| duration(s, lang)).unwrap_or_default();
    let record = &summary.record;
    SummaryCard {
        theme,
        final_position: record.position().clone(),
        last_move: record.moves().last().map(tafl_render::LastMove::from),
        marks: tafl_render::captured_king(record).into_iter().collect(),
        king: tafl_render::KingStyle::Auto,
        title,
        players: [player(Side::Attackers, p1), player(Side::Defenders, p2)],
        result_line: result_line(game.ending, lang),
        moves_line,
        duration_line,
        series: summary.series(),
        labels: summary_labels(lang),
    }
}

fn summary_labels(lang: Lang) -> SummaryLabels {
    let words = if is_ru(lang) {
        ["Осталось фигур", "Королю до выхода", "Оценка", "полуход", "Нападающие", "Защитники"]
    } else {
        ["Pieces left", "King's distance to escape", "Evaluation", "ply", "Attackers", "Defenders"]
    };
    let [pieces, king_distance, evaluation, ply, attackers, defenders] = words.map(str::to_owned);
    SummaryLabels { pieces, king_distance, evaluation, ply, attackers, defenders }
}

/// "Defenders win · the king escaped", "Draw · agreement", "In progress".
#[must_use]
pub fn result_line(ending: Option<Ending>, lang: Lang) -> String {
    let ru = is_ru(lang);
    let Some(ending) = ending else { return if ru { "Партия идёт" } else { "In progress" }.to_owned() };
    let result = match (ending.winner, ru) {
        (Some(Side::Attackers), false) => "Attackers win",
        (Some(Side::Defenders), false) => "Defenders win",
        (None, false) => "Draw",
        (Some(Side::Attackers), true) => "Победа нападающих",
        (Some(Side::Defenders), true) => "Победа защитников",
        (None, true) => "Ничья",
    };
    let why = match (ending.reason, ru) {
        (EndReason::Board(Reason::KingCaptured), false) => "the king was captured",
        (EndReason::Board(Reason::KingEscaped), false) => "the king escaped",
        (EndReason::Board(Reason::ExitFort), false) => "exit fort",
        (EndReason::Board(Reason::Encirclement), false) => "encirclement",
        (EndReason::Board(Reason::Repetition), false) => "repetition",
        (EndReason::Board(Reason::NoMoves), false) => "no legal move",
        (EndReason::Resignation, false) => "resignation",
        (EndReason::Agreement, false) => "agreement",
        (EndReason::Time, false) => "time",
        (EndReason::Aborted, false) => "aborted",
        (EndReason::Board(Reason::KingCaptured), true) => "король взят",
        (EndReason::Board(Reason::KingEscaped), true) => "король ушёл",
        (EndReason::Board(Reason::ExitFort), true) => "крепость у края",
        (EndReason::Board(Reason::Encirclement), true) => "окружение",
        (EndReason::Board(Reason::Repetition), true) => "повторение позиции",
        (EndReason::Board(Reason::NoMoves), true) => "нет ходов",
        (EndReason::Resignation, true) => "сдача",
        (EndReason::Agreement, true) => "соглашение",
        (EndReason::Time, true) => "время",
        (EndReason::Aborted, true) => "прервана",
    };
    format!("{result} · {why}")
}

/// The profile card of a player in `lang`.
#[must_use]
pub fn profile_card(profile: &Profile, history: &RatingHistory, lang: Lang, theme: Theme) -> ProfileCard {
    let ru = is_ru(lang);
    let games = profile.games();
    let noun = if games == 1 { "rated game" } else { "rated games" };
    let subtitle = match (ru, profile.scope) {
        (false, Scope::Global) => format!("{games} {noun} · all servers"),
        (false, Scope::Server(_)) => format!("{games} {noun} · this server"),
        (true, Scope::Global) => format!("Рейтинговых партий: {games} · все серверы"),
        (true, Scope::Server(_)) => format!("Рейтинговых партий: {games} · этот сервер"),
    };
    let labels = if ru {
        ProfileLabels {
            rating: "Рейтинг".into(),
            games: "партии".into(),
            by_side: "Результаты за каждую сторону".into(),
            attackers: "За нападающих".into(),
            defenders: "За защитников".into(),
            wins: "победы".into(),
            losses: "поражения".into(),
            draws: "ничьи".into(),
            most_played: "Чаще всего".into(),
        }
    } else {
        ProfileLabels {
            rating: "Rating".into(),
            games: "games".into(),
            by_side: "Results by side".into(),
            attackers: "As the attackers".into(),
            defenders: "As the defenders".into(),
            wins: "won".into(),
            losses: "lost".into(),
            draws: "drawn".into(),
            most_played: "Most played".into(),
        }
    };
    let record =
        |r: crate::host::SideRecord| tafl_render::SideRecord { wins: r.wins, losses: r.losses, draws: r.draws };
    ProfileCard {
        theme,
        name: profile.user.name.clone(),
        fallback: if ru { "Игрок" } else { "Player" }.to_owned(),
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
    if is_ru(lang) {
        let forms = match result {
            PlayerResult::Win => ["победа", "победы", "побед"],
            PlayerResult::Loss => ["поражение", "поражения", "поражений"],
            PlayerResult::Draw => ["ничья", "ничьи", "ничьих"],
        };
        let form = match (n % 10, n % 100) {
            (1, r) if r != 11 => forms[0],
            (2..=4, r) if !(12..=14).contains(&r) => forms[1],
            _ => forms[2],
        };
        format!("Текущая серия: {n} {form} подряд")
    } else {
        let word = match (result, n == 1) {
            (PlayerResult::Win, true) => "win",
            (PlayerResult::Win, false) => "wins",
            (PlayerResult::Loss, true) => "loss",
            (PlayerResult::Loss, false) => "losses",
            (PlayerResult::Draw, true) => "draw",
            (PlayerResult::Draw, false) => "draws",
        };
        format!("Current streak: {n} {word} in a row")
    }
}

/// The leaderboard card (the first ten entries) in `lang`, with each entry's recent ratings.
#[must_use]
pub fn leaderboard_card(board: &Leaderboard, trends: &[Vec<f64>], lang: Lang, theme: Theme) -> LeaderboardCard {
    let ru = is_ru(lang);
    let scope = match (board.scope, ru) {
        (Scope::Global, false) => "all servers",
        (Scope::Server(_), false) => "this server",
        (Scope::Global, true) => "все серверы",
        (Scope::Server(_), true) => "этот сервер",
    };
    let labels = if ru { ["Рейтинг", "Партии", "Динамика"] } else { ["Rating", "Games", "Trend"] }.map(str::to_owned);
    let [rating, games, trend] = labels;
    LeaderboardCard {
        theme,
        title: if ru { "Таблица лидеров" } else { "Leaderboard" }.to_owned(),
        subtitle: format!("{} · {scope}", family_name(&board.family, lang)),
        rows: board
            .entries
            .iter()
            .take(10)
            .enumerate()
            .map(|(i, e)| LeaderboardRow {
                rank: e.rank as u32,
                name: e.user.name.clone(),
                fallback: if ru { format!("Игрок {}", e.rank) } else { format!("Player {}", e.rank) },
                rating: e.rating.rating,
                games: u32::try_from(e.rating.games).unwrap_or(0),
                trend: trends.get(i).cloned().unwrap_or_default(),
            })
            .collect(),
        labels: LeaderboardLabels { rating, games, trend },
    }
}

fn variant_name(id: &str, lang: Lang) -> String {
    id.parse::<Variant>()
        .map_or_else(|_| if is_ru(lang) { "свои правила" } else { "custom rules" }.to_owned(), |v| v.name().to_owned())
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
