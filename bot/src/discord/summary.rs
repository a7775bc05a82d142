//! The words of the end-of-game summary, the leaderboard and the profile, in English and
//! Russian. Plain strings, so tests check them without Discord; the commands put them into
//! embeds and attach the GIF and the OTN record.

use std::fmt::Write as _;

use tafl_render::CaptionStatus;
use tafl_rules::{Side, Square, Variant};

use super::text::Lang;
use crate::host::{
    Conclusion, EndReason, Ending, Leaderboard, PlayerResult, Profile, RatingChange, Scope, SideRecord, Summary,
};

/// Discord's limit for an embed description is 4096 characters; stay clear of it.
const MAX_DESCRIPTION: usize = 4000;

/// An embed's title and description.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EmbedText {
    pub title: String,
    pub description: String,
}

/// The summary of a game: who won (or whose turn it is) in the title; how, the players, the
/// variant, moves, captures, duration and rating changes in the description.
#[must_use]
pub fn summary_text(summary: &Summary, lang: Lang) -> EmbedText {
    let ru = lang == Lang::Ru;
    let game = &summary.game;
    let id = game.id;
    let title = match (game.ending, summary.winner()) {
        (None, _) => {
            if ru {
                format!("Партия №{id} — идёт")
            } else {
                format!("Game #{id} — in progress")
            }
        }
        (Some(_), None) => {
            if ru {
                format!("Партия №{id} — ничья")
            } else {
                format!("Game #{id} — draw")
            }
        }
        (Some(_), Some(side)) => {
            let winner = name(&game.player(side).name);
            if ru {
                format!("Партия №{id} — победа: {winner} ({})", side_name(side, lang))
            } else {
                format!("Game #{id} — {winner} wins with the {}", side_name(side, lang))
            }
        }
    };
    let mut d = String::new();
    let _ = writeln!(d, "{}", conclusion_text(summary, lang));
    let _ = writeln!(
        d,
        "{}: {} · {}: {}",
        capitalised(side_name(Side::Attackers, lang)),
        name(&game.attacker.name),
        capitalised(side_name(Side::Defenders, lang)),
        name(&game.defender.name)
    );
    let variant = game.variant.parse::<Variant>().map_or_else(
        |_| if ru { "свои правила".to_owned() } else { "custom rules".to_owned() },
        |v| v.name().to_owned(),
    );
    let options = if game.options.is_empty() { String::new() } else { format!(" ({})", game.options) };
    let _ = writeln!(d, "{}: {variant}{options}", if ru { "Вариант" } else { "Variant" });
    if ru {
        let _ = writeln!(d, "Ходов: {} (полуходов: {})", summary.full_moves, summary.plies);
        let _ = writeln!(
            d,
            "Взято фигур: нападающими {}, защитниками {}",
            summary.captured_by_attackers, summary.captured_by_defenders
        );
    } else {
        let _ = writeln!(d, "Moves: {} ({} plies)", summary.full_moves, summary.plies);
        let _ = writeln!(
            d,
            "Pieces captured: {} by the attackers, {} by the defenders",
            summary.captured_by_attackers, summary.captured_by_defenders
        );
    }
    match summary.duration {
        Some(seconds) => {
            let _ = writeln!(d, "{}: {}", if ru { "Длительность" } else { "Duration" }, duration(seconds, lang));
        }
        None => {
            let _ = writeln!(d, "{} <t:{}:R>", if ru { "Начата" } else { "Started" }, summary.created_at);
        }
    }
    // The host lists the global changes first, then the server's.
    let mut scopes: Vec<Scope> = Vec::new();
    for change in &summary.rating_changes {
        if !scopes.contains(&change.scope) {
            scopes.push(change.scope);
        }
    }
    for scope in scopes {
        let changes: Vec<&RatingChange> = summary.rating_changes.iter().filter(|c| c.scope == scope).collect();
        let list = changes.iter().map(|c| rating_change(c)).collect::<Vec<_>>().join(", ");
        let _ = writeln!(d, "{}: {list}", scope_heading(scope, lang));
    }
    if game.imported {
        let _ = writeln!(
            d,
            "{}",
            if ru {
                "Импортированная партия: на рейтинг не влияет."
            } else {
                "Imported game: not rated."
            }
        );
    }
    EmbedText { title, description: d.trim_end().to_owned() }
}

/// How the game ended or stands, as one sentence: "The king escaped at k11."
#[must_use]
pub fn conclusion_text(summary: &Summary, lang: Lang) -> String {
    let ru = lang == Lang::Ru;
    let player = |side: Side| format!("{} ({})", name(&summary.game.player(side).name), side_name(side, lang));
    let winner = summary.winner();
    match summary.conclusion {
        Conclusion::InProgress { to_move } => {
            if ru {
                format!("Ход: {}.", player(to_move))
            } else {
                format!("{} to move.", player(to_move))
            }
        }
        Conclusion::KingEscaped { at } => {
            if ru {
                format!("Король ушёл на {}.", square(at))
            } else {
                format!("The king escaped at {}.", square(at))
            }
        }
        Conclusion::KingCaptured { at } => {
            if ru {
                format!("Король взят на {}.", square(at))
            } else {
                format!("The king was captured at {}.", square(at))
            }
        }
        Conclusion::ExitFort { at } => {
            if ru {
                format!("Король на {} укрылся в неприступной крепости у края доски.", square(at))
            } else {
                format!("The king built an exit fort at {}.", square(at))
            }
        }
        Conclusion::Encirclement => {
            if ru {
                "Нападающие окружили защитников.".to_owned()
            } else {
                "The attackers encircled the defenders.".to_owned()
            }
        }
        Conclusion::Repetition => match (winner, ru) {
            (None, false) => "Drawn by repetition: the same position occurred three times.".to_owned(),
            (None, true) => "Ничья: позиция повторилась трижды.".to_owned(),
            (Some(side), false) => {
                format!("The same position occurred three times, which the {} lose.", side_name(side.opponent(), lang))
            }
            (Some(side), true) => {
                format!("Позиция повторилась трижды — поражение: {}.", side_name(side.opponent(), lang))
            }
        },
        Conclusion::NoMoves { side } => {
            if ru {
                format!("У стороны «{}» не осталось ходов.", side_name(side, lang))
            } else {
                format!("The {} had no legal move.", side_name(side, lang))
            }
        }
        Conclusion::Resignation { side: Some(side) } => {
            if ru {
                format!("{} сдаётся.", player(side))
            } else {
                format!("{} resigned.", player(side))
            }
        }
        Conclusion::Resignation { side: None } => {
            if ru {
                "Партия окончена сдачей.".to_owned()
            } else {
                "The game ended by resignation.".to_owned()
            }
        }
        Conclusion::Time { side: Some(side) } => {
            if ru {
                format!("У игрока {} вышло время.", player(side))
            } else {
                format!("{} ran out of time.", player(side))
            }
        }
        Conclusion::Time { side: None } => {
            if ru {
                "Партия окончена по времени.".to_owned()
            } else {
                "The game ended on time.".to_owned()
            }
        }
        Conclusion::Agreement => {
            if ru {
                "Ничья по соглашению.".to_owned()
            } else {
                "Drawn by agreement.".to_owned()
            }
        }
        Conclusion::Aborted => {
            if ru {
                "Партия прервана: время вышло до второго хода. Без результата и рейтинга.".to_owned()
            } else {
                "Aborted: the clock ran out before the second move. No result, no rating.".to_owned()
            }
        }
    }
}

/// The footer of the board image for a game: the renderer's own words for a result on the
/// board in English; the result in words for resignation, agreement and time, and for every
/// result in Russian (the renderer speaks English only).
#[must_use]
pub fn caption_status(ending: Option<Ending>, lang: Lang) -> CaptionStatus {
    let Some(ending) = ending else { return tafl_rules::Status::Ongoing.into() };
    if lang == Lang::En
        && let EndReason::Board(_) = ending.reason
    {
        return ending.status().into();
    }
    let ru = lang == Lang::Ru;
    let result = match (ending.winner, ru) {
        (Some(Side::Attackers), false) => "Attackers win",
        (Some(Side::Defenders), false) => "Defenders win",
        (None, false) => "Draw",
        (Some(Side::Attackers), true) => "Победа нападающих",
        (Some(Side::Defenders), true) => "Победа защитников",
        (None, true) => "Ничья",
    };
    let why = match (ending.reason, ru) {
        (EndReason::Resignation, false) => "resignation",
        (EndReason::Agreement, false) => "agreement",
        (EndReason::Time, false) => "time",
        (EndReason::Resignation, true) => "сдача",
        (EndReason::Agreement, true) => "соглашение",
        (EndReason::Time, true) => "время",
        (EndReason::Aborted, false) => "aborted",
        (EndReason::Aborted, true) => "прервана",
        (EndReason::Board(reason), _) => match reason {
            tafl_rules::Reason::KingCaptured => "король взят",
            tafl_rules::Reason::KingEscaped => "король ушёл",
            tafl_rules::Reason::ExitFort => "крепость",
            tafl_rules::Reason::Encirclement => "окружение",
            tafl_rules::Reason::Repetition => "повторение",
            tafl_rules::Reason::NoMoves => "нет ходов",
        },
    };
    CaptionStatus::Result(format!("{result} · {why}"))
}

/// The words for the last frame of a game's GIF (`GifOptions::result`), when the renderer's
/// own cannot say it.
#[must_use]
pub fn gif_result(ending: Option<Ending>, lang: Lang) -> Option<String> {
    match caption_status(ending, lang) {
        CaptionStatus::Result(text) => Some(text),
        CaptionStatus::Board(_) => None,
    }
}

/// A leaderboard: rank, name, rating (with `?` while provisional) and games.
#[must_use]
pub fn leaderboard_text(board: &Leaderboard, lang: Lang) -> EmbedText {
    let ru = lang == Lang::Ru;
    let title = format!(
        "{}: {} ({})",
        if ru { "Рейтинг" } else { "Leaderboard" },
        family_name(&board.family, lang),
        scope_name(board.scope, lang)
    );
    let mut d = String::new();
    if board.entries.is_empty() {
        d.push_str(if ru { "Рейтинговых партий пока нет." } else { "No rated games yet." });
    }
    for entry in &board.entries {
        let line = format!(
            "{}. {} — {} · {}: {}\n",
            entry.rank,
            name(&entry.user.name),
            rating(entry.rating.rating, entry.rating.provisional),
            if ru { "партий" } else { "games" },
            entry.rating.games
        );
        if d.len() + line.len() > MAX_DESCRIPTION {
            break;
        }
        d.push_str(&line);
    }
    EmbedText { title, description: d.trim_end().to_owned() }
}

/// A profile: ratings per family, record by side, current streak.
#[must_use]
pub fn profile_text(profile: &Profile, lang: Lang) -> EmbedText {
    let ru = lang == Lang::Ru;
    let title = format!("{} ({})", name(&profile.user.name), scope_name(profile.scope, lang));
    let mut d = String::new();
    if profile.games() == 0 && profile.ratings.is_empty() {
        d.push_str(if ru { "Рейтинговых партий пока нет." } else { "No rated games yet." });
        return EmbedText { title, description: d };
    }
    for r in &profile.ratings {
        let _ = writeln!(
            d,
            "{}: {} · {}: {}",
            family_name(&r.family, lang),
            rating(r.rating, r.provisional),
            if ru { "партий" } else { "games" },
            r.games
        );
    }
    for (side, record) in [(Side::Attackers, profile.as_attacker), (Side::Defenders, profile.as_defender)] {
        let _ = writeln!(d, "{}", side_record(side, record, lang));
    }
    if let Some(streak) = profile.streak {
        let n = streak.length;
        let words = match (streak.result, ru) {
            (PlayerResult::Win, false) => format!("{n} {} in a row", if n == 1 { "win" } else { "wins" }),
            (PlayerResult::Loss, false) => format!("{n} {} in a row", if n == 1 { "loss" } else { "losses" }),
            (PlayerResult::Draw, false) => format!("{n} {} in a row", if n == 1 { "draw" } else { "draws" }),
            (PlayerResult::Win, true) => format!("{n} {} подряд", ru_plural(n, "победа", "победы", "побед")),
            (PlayerResult::Loss, true) => {
                format!("{n} {} подряд", ru_plural(n, "поражение", "поражения", "поражений"))
            }
            (PlayerResult::Draw, true) => format!("{n} {} подряд", ru_plural(n, "ничья", "ничьи", "ничьих")),
        };
        let _ = writeln!(d, "{}: {words}", if ru { "Текущая серия" } else { "Current streak" });
    }
    EmbedText { title, description: d.trim_end().to_owned() }
}

/// A family's name for people.
#[must_use]
pub fn family_name(family: &str, lang: Lang) -> String {
    let ru = lang == Lang::Ru;
    match family {
        "sea-battle" => if ru { "Морской бой" } else { "Sea Battle" }.to_owned(),
        "seed-001" => "Tablut · Brandubh · Hnefatafl".to_owned(),
        "historical" => if ru { "Исторический тафл" } else { "Historical tafl" }.to_owned(),
        "copenhagen" => if ru { "Копенгагенский хнефатафл" } else { "Copenhagen Hnefatafl" }.to_owned(),
        "fetlar" => if ru { "Фетларский хнефатафл" } else { "Fetlar Hnefatafl" }.to_owned(),
        other => other.to_owned(),
    }
}

/// A duration in the largest two units: "2 d 3 h", "14 min", "under a minute".
#[must_use]
pub fn duration(seconds: i64, lang: Lang) -> String {
    let ru = lang == Lang::Ru;
    if seconds < 60 {
        return if ru { "меньше минуты" } else { "under a minute" }.to_owned();
    }
    let units: [(i64, &str, &str); 3] = [(86_400, "d", "д"), (3_600, "h", "ч"), (60, "min", "мин")];
    let mut parts = Vec::new();
    let mut rest = seconds;
    for (size, en, ru_unit) in units {
        let n = rest / size;
        rest %= size;
        if n > 0 || !parts.is_empty() {
            parts.push(format!("{n} {}", if ru { ru_unit } else { en }));
        }
        if parts.len() == 2 {
            break;
        }
    }
    parts.retain(|p| !p.starts_with("0 "));
    parts.join(" ")
}

fn side_record(side: Side, record: SideRecord, lang: Lang) -> String {
    match lang {
        Lang::En => format!(
            "As the {}: {} won, {} lost, {} drawn",
            side_name(side, lang),
            record.wins,
            record.losses,
            record.draws
        ),
        Lang::Ru => format!(
            "За {}: побед {}, поражений {}, ничьих {}",
            if side == Side::Attackers { "нападающих" } else { "защитников" },
            record.wins,
            record.losses,
            record.draws
        ),
    }
}

fn rating_change(change: &RatingChange) -> String {
    let before = change.before.round() as i64;
    let after = change.after.round() as i64;
    format!("{} {before} → {after} ({:+})", name(&change.user.name), after - before)
}

fn rating(value: f64, provisional: bool) -> String {
    format!("{}{}", value.round() as i64, if provisional { "?" } else { "" })
}

fn scope_heading(scope: Scope, lang: Lang) -> String {
    match (scope, lang) {
        (Scope::Global, Lang::En) => "Rating (global)".to_owned(),
        (Scope::Server(_), Lang::En) => "Rating (this server)".to_owned(),
        (Scope::Global, Lang::Ru) => "Рейтинг (общий)".to_owned(),
        (Scope::Server(_), Lang::Ru) => "Рейтинг (этот сервер)".to_owned(),
    }
}

fn scope_name(scope: Scope, lang: Lang) -> &'static str {
    match (scope, lang) {
        (Scope::Global, Lang::En) => "global",
        (Scope::Server(_), Lang::En) => "this server",
        (Scope::Global, Lang::Ru) => "общий",
        (Scope::Server(_), Lang::Ru) => "этот сервер",
    }
}

fn side_name(side: Side, lang: Lang) -> &'static str {
    match (side, lang) {
        (Side::Attackers, Lang::En) => "attackers",
        (Side::Defenders, Lang::En) => "defenders",
        (Side::Attackers, Lang::Ru) => "нападающие",
        (Side::Defenders, Lang::Ru) => "защитники",
    }
}

fn square(sq: Square) -> String {
    sq.to_string()
}

fn capitalised(word: &str) -> String {
    let mut chars = word.chars();
    chars.next().map(|c| c.to_uppercase().collect::<String>() + chars.as_str()).unwrap_or_default()
}

/// A display name safe inside Discord markdown: the characters that format text (and `<`, which
/// starts mentions and timestamps) are escaped, so a name like `**x**` shows as typed.
fn name(raw: &str) -> String {
    let mut out = String::with_capacity(raw.len());
    for c in raw.chars() {
        if matches!(c, '\\' | '*' | '_' | '~' | '`' | '|' | '>' | '#' | '[' | ']' | '<') {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// The Russian noun form for `n`: 1 победа, 2 победы, 5 побед (and 11 побед, 21 победа).
fn ru_plural(n: u32, one: &'static str, few: &'static str, many: &'static str) -> &'static str {
    match (n % 10, n % 100) {
        (1, r) if r != 11 => one,
        (2..=4, r) if !(12..=14).contains(&r) => few,
        _ => many,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::host::{FamilyRating, GameView, LeaderboardEntry, Place, Streak, User};
    use tafl_rules::{Game, Position, Reason};

    fn sq(name: &str) -> Square {
        name.parse().unwrap()
    }

    fn summary(ending: Option<Ending>, conclusion: Conclusion) -> Summary {
        let position = Position::new(Variant::Copenhagen.rules()).unwrap();
        let game = GameView {
            id: 7,
            place: Place { guild: 1, channel: 2, thread: None },
            variant: "copenhagen".to_owned(),
            options: String::new(),
            attacker: User::new(1, "alice"),
            defender: User::new(2, "bob"),
            ply: 45,
            to_move: Side::Defenders,
            ending,
            last_move: None,
            position: position.clone(),
            clock: crate::host::Clock::UNTIMED,
            deadline_at: None,
            attacker_reserve: 0,
            defender_reserve: 0,
            imported: false,
        };
        Summary {
            game,
            record: Game::new(position),
            conclusion,
            plies: 45,
            full_moves: 23,
            captured_by_attackers: 5,
            captured_by_defenders: 3,
            created_at: 1_000,
            finished_at: ending.map(|_| 1_000 + 2 * 86_400 + 3 * 3_600 + 59),
            duration: ending.map(|_| 2 * 86_400 + 3 * 3_600 + 59),
            rating_changes: Vec::new(),
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
                "Король взят на f5.",
            ),
            (
                Some(ended(d, EndReason::Board(Reason::ExitFort))),
                Conclusion::ExitFort { at: sq("k6") },
                "The king built an exit fort at k6.",
                "Король на k6 укрылся в неприступной крепости у края доски.",
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
                "The same position occurred three times, which the defenders lose.",
                "Позиция повторилась трижды — поражение: защитники.",
            ),
            (
                Some(ended(a, EndReason::Board(Reason::NoMoves))),
                Conclusion::NoMoves { side: Side::Defenders },
                "The defenders had no legal move.",
                "У стороны «защитники» не осталось ходов.",
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
                "У игрока alice (нападающие) вышло время.",
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
                "Ход: bob (защитники).",
            ),
        ];
        for (ending, conclusion, en, ru) in cases {
            let s = summary(ending, conclusion);
            assert_eq!(conclusion_text(&s, Lang::En), en);
            assert_eq!(conclusion_text(&s, Lang::Ru), ru);
            let first_line = |lang| summary_text(&s, lang).description.lines().next().unwrap().to_owned();
            assert_eq!(first_line(Lang::En), en);
            assert_eq!(first_line(Lang::Ru), ru);
        }
    }

    #[test]
    fn a_finished_summary_names_the_winner_players_moves_captures_and_duration() {
        let s = summary(
            Some(ended(Some(Side::Defenders), EndReason::Board(Reason::KingEscaped))),
            Conclusion::KingEscaped { at: sq("a1") },
        );
        let en = summary_text(&s, Lang::En);
        assert_eq!(en.title, "Game #7 — bob wins with the defenders");
        assert_eq!(
            en.description,
            "The king escaped at a1.\nAttackers: alice · Defenders: bob\nVariant: Copenhagen Hnefatafl\n\
             Moves: 23 (45 plies)\nPieces captured: 5 by the attackers, 3 by the defenders\nDuration: 2 d 3 h"
        );
        let ru = summary_text(&s, Lang::Ru);
        assert_eq!(ru.title, "Партия №7 — победа: bob (защитники)");
        assert_eq!(
            ru.description,
            "Король ушёл на a1.\nНападающие: alice · Защитники: bob\nВариант: Copenhagen Hnefatafl\n\
             Ходов: 23 (полуходов: 45)\nВзято фигур: нападающими 5, защитниками 3\nДлительность: 2 д 3 ч"
        );
    }

    #[test]
    fn draws_and_running_games_have_their_own_titles() {
        let draw = summary(Some(ended(None, EndReason::Agreement)), Conclusion::Agreement);
        assert_eq!(summary_text(&draw, Lang::En).title, "Game #7 — draw");
        assert_eq!(summary_text(&draw, Lang::Ru).title, "Партия №7 — ничья");
        let running = summary(None, Conclusion::InProgress { to_move: Side::Defenders });
        let en = summary_text(&running, Lang::En);
        assert_eq!(en.title, "Game #7 — in progress");
        assert!(en.description.ends_with("Started <t:1000:R>"), "{}", en.description);
        let ru = summary_text(&running, Lang::Ru);
        assert_eq!(ru.title, "Партия №7 — идёт");
        assert!(ru.description.ends_with("Начата <t:1000:R>"), "{}", ru.description);
    }

    #[test]
    fn rating_changes_are_listed_per_scope_with_signed_differences() {
        let mut s = summary(
            Some(ended(Some(Side::Attackers), EndReason::Resignation)),
            Conclusion::Resignation { side: Some(Side::Defenders) },
        );
        let change = |id, user: &str, scope, before: f64, after: f64| RatingChange {
            user: User::new(id, user),
            family: "copenhagen".to_owned(),
            scope,
            before,
            after,
            deviation_before: 350.0,
            deviation_after: 290.0,
        };
        s.rating_changes = vec![
            change(1, "alice", Scope::Global, 1500.0, 1662.3),
            change(2, "bob", Scope::Global, 1500.0, 1337.7),
            change(1, "alice", Scope::Server(1), 1600.4, 1640.0),
            change(2, "bob", Scope::Server(1), 1450.0, 1410.2),
        ];
        let en = summary_text(&s, Lang::En).description;
        assert!(en.contains("\nRating (global): alice 1500 → 1662 (+162), bob 1500 → 1338 (-162)\n"), "{en}");
        assert!(en.ends_with("\nRating (this server): alice 1600 → 1640 (+40), bob 1450 → 1410 (-40)"), "{en}");
        let ru = summary_text(&s, Lang::Ru).description;
        assert!(ru.contains("\nРейтинг (общий): alice 1500 → 1662 (+162), bob 1500 → 1338 (-162)\n"), "{ru}");
        assert!(ru.contains("\nРейтинг (этот сервер): alice 1600 → 1640 (+40)"), "{ru}");
    }

    #[test]
    fn names_cannot_format_or_mention() {
        let mut s = summary(None, Conclusion::InProgress { to_move: Side::Attackers });
        s.game.attacker.name = "**big** <@123> _x_".to_owned();
        let text = conclusion_text(&s, Lang::En);
        assert_eq!(text, "\\*\\*big\\*\\* \\<@123\\> \\_x\\_ (attackers) to move.");
    }

    #[test]
    fn results_off_the_board_and_russian_results_are_captioned_in_words() {
        let escaped_ending = ended(Some(Side::Defenders), EndReason::Board(Reason::KingEscaped));
        let escaped = Some(escaped_ending);
        assert_eq!(caption_status(escaped, Lang::En), escaped_ending.status().into());
        assert_eq!(gif_result(escaped, Lang::En), None);
        assert_eq!(caption_status(escaped, Lang::Ru), CaptionStatus::Result("Победа защитников · король ушёл".into()));
        let resigned = Some(ended(Some(Side::Attackers), EndReason::Resignation));
        assert_eq!(caption_status(resigned, Lang::En), CaptionStatus::Result("Attackers win · resignation".into()));
        assert_eq!(gif_result(resigned, Lang::Ru).as_deref(), Some("Победа нападающих · сдача"));
        let timed_out = Some(ended(Some(Side::Defenders), EndReason::Time));
        assert_eq!(caption_status(timed_out, Lang::En), CaptionStatus::Result("Defenders win · time".into()));
        let agreed = Some(ended(None, EndReason::Agreement));
        assert_eq!(gif_result(agreed, Lang::En).as_deref(), Some("Draw · agreement"));
        assert_eq!(caption_status(None, Lang::Ru), tafl_rules::Status::Ongoing.into());
    }

    #[test]
    fn durations_show_the_two_largest_units() {
        assert_eq!(duration(0, Lang::En), "under a minute");
        assert_eq!(duration(59, Lang::Ru), "меньше минуты");
        assert_eq!(duration(14 * 60 + 5, Lang::En), "14 min");
        assert_eq!(duration(3_600, Lang::En), "1 h");
        assert_eq!(duration(5 * 3_600 + 12 * 60, Lang::Ru), "5 ч 12 мин");
        assert_eq!(duration(86_400 + 3_600 + 61, Lang::En), "1 d 1 h");
        assert_eq!(duration(2 * 86_400 + 120, Lang::En), "2 d");
    }

    #[test]
    fn russian_plurals_follow_the_last_digits() {
        let form = |n| ru_plural(n, "победа", "победы", "побед");
        let cases = [(1, "победа"), (2, "победы"), (4, "победы"), (5, "побед"), (11, "побед"), (12, "побед")];
        for (n, word) in cases {
            assert_eq!(form(n), word, "{n}");
        }
        let cases = [(21, "победа"), (22, "победы"), (25, "побед"), (111, "побед"), (101, "победа")];
        for (n, word) in cases {
            assert_eq!(form(n), word, "{n}");
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
        let en = leaderboard_text(&board, Lang::En);
        assert_eq!(en.title, "Leaderboard: Copenhagen Hnefatafl (this server)");
        assert_eq!(en.description, "1. alice — 1712 · games: 12\n2. bob — 1500? · games: 1");
        let ru = leaderboard_text(&board, Lang::Ru);
        assert_eq!(ru.title, "Рейтинг: Копенгагенский хнефатафл (этот сервер)");
        assert_eq!(ru.description, "1. alice — 1712 · партий: 12\n2. bob — 1500? · партий: 1");
        let empty = Leaderboard { family: "seed-001".into(), scope: Scope::Global, entries: Vec::new() };
        assert_eq!(leaderboard_text(&empty, Lang::En).description, "No rated games yet.");
        assert_eq!(leaderboard_text(&empty, Lang::Ru).title, "Рейтинг: Tablut · Brandubh · Hnefatafl (общий)");
    }

    #[test]
    fn a_long_leaderboard_fits_in_an_embed() {
        let entries = (1..=100).map(|n| entry(n, &"W".repeat(64), 2000.0 - n as f64, 10)).collect();
        let board = Leaderboard { family: "fetlar".into(), scope: Scope::Global, entries };
        let text = leaderboard_text(&board, Lang::En).description;
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
            streak: Some(Streak { result: PlayerResult::Win, length: 2 }),
        };
        let en = profile_text(&profile, Lang::En);
        assert_eq!(en.title, "alice (global)");
        assert_eq!(
            en.description,
            "Historical tafl: 1621 · games: 7\nAs the attackers: 3 won, 1 lost, 0 drawn\n\
             As the defenders: 1 won, 1 lost, 1 drawn\nCurrent streak: 2 wins in a row"
        );
        let ru = profile_text(&profile, Lang::Ru);
        assert_eq!(
            ru.description,
            "Исторический тафл: 1621 · партий: 7\nЗа нападающих: побед 3, поражений 1, ничьих 0\n\
             За защитников: побед 1, поражений 1, ничьих 1\nТекущая серия: 2 победы подряд"
        );
        let one_loss = Profile { streak: Some(Streak { result: PlayerResult::Loss, length: 1 }), ..profile.clone() };
        assert!(profile_text(&one_loss, Lang::En).description.ends_with("1 loss in a row"));
        assert!(profile_text(&one_loss, Lang::Ru).description.ends_with("1 поражение подряд"));
        let nobody = Profile {
            ratings: Vec::new(),
            as_attacker: SideRecord::default(),
            as_defender: SideRecord::default(),
            streak: None,
            ..profile
        };
        assert_eq!(profile_text(&nobody, Lang::En).description, "No rated games yet.");
        assert_eq!(profile_text(&nobody, Lang::Ru).description, "Рейтинговых партий пока нет.");
    }
}
