//! Positions and games shared by the renderer's tests and benchmark.
#![allow(dead_code)] // each test file uses a different part

use tafl_rules::{Game, Position, Rules, Setup, Side, Variant};

pub fn start(variant: Variant) -> Position {
    Position::new(variant.rules()).expect("presets are valid")
}

pub fn from_otn(rules: Rules, otn: &str, to_move: Side) -> Position {
    let setup: Setup = otn.parse().expect("test positions are valid OTN");
    Position::from_setup(rules, &setup, to_move).expect("test positions are legal")
}

/// A legal game of up to `plies` plies, the same on every run: a small LCG picks among the
/// legal moves, and a game that ends early is thrown away and started again with the next seed.
pub fn scripted_game(variant: Variant, plies: usize) -> Game {
    let mut seed: u64 = 0x2545_f491_4f6c_dd1d;
    loop {
        let mut game = Game::new(start(variant));
        while game.ply() < plies && game.status().is_ongoing() {
            seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
            let moves = game.position().legal_moves();
            let mv = moves[(seed >> 33) as usize % moves.len()];
            game.play(mv).expect("legal moves are legal");
        }
        if game.ply() == plies {
            return game;
        }
    }
}

/// The words of a card in one language, as a caller (the bot's Fluent files) would pass them.
#[derive(Clone, Copy, Debug)]
pub enum Lang {
    English,
    Russian,
}

pub fn summary_labels(lang: Lang) -> tafl_render::SummaryLabels {
    let (pieces, king, eval, ply, a, d) = match lang {
        Lang::English => ("Pieces left", "King's distance to escape", "Evaluation", "ply", "Attackers", "Defenders"),
        Lang::Russian => ("Осталось фигур", "Королю до выхода", "Оценка", "полуход", "Нападающие", "Защитники"),
    };
    tafl_render::SummaryLabels {
        pieces: pieces.into(),
        king_distance: king.into(),
        evaluation: eval.into(),
        ply: ply.into(),
        attackers: a.into(),
        defenders: d.into(),
    }
}

/// The Russian form for `n` (one, few, many), as Fluent's plural rules choose it.
fn russian_plural(n: usize, [one, few, many]: [&'static str; 3]) -> &'static str {
    match (n % 10, n % 100) {
        (1, 11) | (2..=4, 12..=14) => many,
        (1, _) => one,
        (2..=4, _) => few,
        _ => many,
    }
}

/// A summary card of `game` with the given names, words and theme.
pub fn summary_card(
    game: &Game,
    names: [&str; 2],
    lang: Lang,
    theme: tafl_render::Theme,
    evaluation: bool,
) -> tafl_render::SummaryCard {
    use tafl_render::{CardPlayer, GameSeries, RatingChange};
    let mut series = GameSeries::from_game(game);
    if evaluation {
        // A made-up evaluation (no engine here): a slow swing from one side to the other.
        series.evaluation = Some((0..=game.ply()).map(|i| ((i as f32) / 7.0).sin() * 1.5 + i as f32 / 60.0).collect());
    }
    // The words the bot's Fluent files give (`card-moves`, `card-rated`), so that the
    // pictures show what players read.
    let (moves, plies) = (game.ply().div_ceil(2), game.ply());
    let brandubh = game.position().size() == 7;
    // A game still in progress stands for one the attackers resigned.
    let king_captured = matches!(
        game.status(),
        tafl_rules::Status::Finished(tafl_rules::Outcome { reason: tafl_rules::Reason::KingCaptured, .. })
    );
    let (p1, p2, result, moves, duration, title) = match lang {
        Lang::English => (
            "Player 1",
            "Player 2",
            if king_captured { "Attackers win · the king was captured" } else { "Defenders win · resignation" },
            format!(
                "{moves} {} ({plies} {})",
                if moves == 1 { "move" } else { "moves" },
                if plies == 1 { "ply" } else { "plies" }
            ),
            "12 min 40 s",
            if brandubh { "Brandubh · rated" } else { "Copenhagen hnefatafl · rated" },
        ),
        Lang::Russian => (
            "Игрок 1",
            "Игрок 2",
            if king_captured {
                "Победа нападающих · король захвачен"
            } else {
                "Победа защитников · сдача"
            },
            format!("Ходов: {moves} ({plies} {})", russian_plural(plies, ["полуход", "полухода", "полуходов"])),
            "12 мин 40 с",
            if brandubh {
                "Брандубх · рейтинговая партия"
            } else {
                "Копенгагенский хнефатафл · рейтинговая партия"
            },
        ),
    };
    tafl_render::SummaryCard {
        theme,
        final_position: game.position().clone(),
        last_move: game.moves().last().map(tafl_render::LastMove::from),
        marks: tafl_render::captured_king(game).into_iter().collect(),
        king: tafl_render::KingStyle::Auto,
        title: title.into(),
        players: [
            CardPlayer {
                name: names[0].into(),
                fallback: p1.into(),
                side: Side::Attackers,
                rating: Some(if king_captured {
                    RatingChange { after: 1512.6, change: 12.6, provisional: false }
                } else {
                    RatingChange { after: 1487.4, change: -12.6, provisional: false }
                }),
            },
            CardPlayer {
                name: names[1].into(),
                fallback: p2.into(),
                side: Side::Defenders,
                rating: Some(if king_captured {
                    RatingChange { after: 1597.8, change: -12.6, provisional: false }
                } else {
                    RatingChange { after: 1623.0, change: 12.6, provisional: false }
                }),
            },
        ],
        result_line: result.into(),
        moves_line: moves,
        duration_line: duration.into(),
        series,
        labels: summary_labels(lang),
    }
}

/// A profile with `games` rated games spread over two families, the same on every run.
pub fn profile_card(games: u32, name: &str, lang: Lang, theme: tafl_render::Theme) -> tafl_render::ProfileCard {
    use tafl_render::{ProfileCard, ProfileLabels, RatingHistory, RatingPoint, SideRecord, VariantCount};
    let mut seed: u64 = 7;
    let mut families = [(1500.0f64, 350.0f64, Vec::new()), (1500.0, 350.0, Vec::new())];
    for game in 1..=games {
        seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        let family = &mut families[usize::from(game % 3 == 0)];
        let swing = ((seed >> 40) % 61) as f64 - 28.0;
        family.0 += swing * family.1 / 350.0;
        family.1 = (family.1 * 0.93).max(45.0);
        family.2.push(RatingPoint { game, rating: family.0, deviation: family.1 });
    }
    let [(_, _, corner), (_, _, edge)] = families;
    let (labels, families, subtitle, streak, variants) = match lang {
        Lang::English => (
            ProfileLabels {
                rating: "Rating".into(),
                games: "games".into(),
                by_side: "Results by side".into(),
                attackers: "Attackers".into(),
                defenders: "Defenders".into(),
                against_bot: "Against the bot".into(),
                wins: "wins".into(),
                losses: "losses".into(),
                draws: "draws".into(),
                most_played: "Most played".into(),
                nothing_yet: "No rated games yet".into(),
            },
            ["Corner escape", "Edge escape"],
            format!("{games} rated games"),
            "3 wins in a row",
            ["Copenhagen", "Tablut", "Brandubh", "Sea Battle 9x9"],
        ),
        Lang::Russian => (
            ProfileLabels {
                rating: "Рейтинг".into(),
                games: "партии".into(),
                by_side: "Результаты по сторонам".into(),
                attackers: "Нападающие".into(),
                defenders: "Защитники".into(),
                against_bot: "Против бота".into(),
                wins: "победы".into(),
                losses: "поражения".into(),
                draws: "ничьи".into(),
                most_played: "Больше всего партий".into(),
                nothing_yet: "Рейтинговых партий пока нет".into(),
            },
            ["Выход в угол", "Выход на край"],
            format!("{games} рейтинговых партий"),
            "3 победы подряд",
            ["Копенгаген", "Таблут", "Брандубх", "Морской бой 9x9"],
        ),
    };
    ProfileCard {
        theme,
        name: name.into(),
        fallback: "Player".into(),
        subtitle,
        history: vec![
            RatingHistory { family: families[0].into(), points: corner },
            RatingHistory { family: families[1].into(), points: edge },
        ],
        attackers: SideRecord { wins: games / 4, losses: games / 5, draws: games / 20 },
        defenders: SideRecord { wins: games / 3, losses: games / 6, draws: games / 25 },
        against_bot: SideRecord::default(),
        streak_line: if games > 0 { streak.into() } else { String::new() },
        // Someone with no rated game has played no variant either (the bot lists none).
        most_played: variants
            .iter()
            .filter(|_| games > 0)
            .zip([games / 2, games / 4, games / 6, games / 12])
            .map(|(n, g)| VariantCount { name: (*n).into(), games: g })
            .collect(),
        labels,
    }
}

/// A leaderboard of ten players with names in several scripts.
pub fn leaderboard_card(lang: Lang, theme: tafl_render::Theme) -> tafl_render::LeaderboardCard {
    leaderboard_of(
        &[
            "Ragnhild",
            "Ярослав",
            "Ἀλέξανδρος",
            "",
            "Þorvaldr the Far-Travelled Merchant of Birka",
            "Nguyễn Văn Anh",
            "Zoë 🛡️",
            "Björn",
            "Σοφία",
            "Анна-Мария",
        ],
        lang,
        theme,
    )
}

/// A leaderboard nobody is on yet.
pub fn empty_leaderboard_card(lang: Lang, theme: tafl_render::Theme) -> tafl_render::LeaderboardCard {
    leaderboard_of(&[], lang, theme)
}

/// Names in each script the cards' fallback faces add, as people write them (right to left,
/// joined, with conjuncts and stacked marks), and one mixing Latin with Arabic.
pub const SCRIPT_NAMES: [&str; 10] = [
    "محمد عبد الله",
    "דוד כהן",
    "अर्जुन शर्मा",
    "สมชาย ใจดี",
    "王小明",
    "さくら 田中",
    "김민준",
    "Bob محمد",
    "ناصر‌الدین",
    "Ragnhild",
];

/// A leaderboard of ten players with names in eight scripts (the fonts' unit tests draw a name in
/// every bundled one).
pub fn scripts_leaderboard_card(lang: Lang, theme: tafl_render::Theme) -> tafl_render::LeaderboardCard {
    leaderboard_of(&SCRIPT_NAMES, lang, theme)
}

fn leaderboard_of(names: &[&str], lang: Lang, theme: tafl_render::Theme) -> tafl_render::LeaderboardCard {
    use tafl_render::{LeaderboardCard, LeaderboardLabels, LeaderboardRow};
    let rows = names
        .iter()
        .enumerate()
        .map(|(i, name)| {
            let base = 1900.0 - 45.0 * i as f64;
            let trend = (0..12)
                .map(|k| {
                    base - 60.0
                        + ((k * (i + 3)) % 11) as f64 * 9.0
                        + if i % 3 == 0 { k as f64 * 6.0 } else { -(k as f64) * 3.0 }
                })
                .collect();
            LeaderboardRow {
                rank: i as u32 + 1,
                name: (*name).into(),
                fallback: format!("#{}", i + 1),
                rating: base,
                provisional: false,
                games: 120 - 9 * i as u32,
                trend,
            }
        })
        .collect();
    let (title, subtitle, labels) = match lang {
        Lang::English => {
            ("Leaderboard", "Corner escape · rated games", ["Rating", "Games", "Trend", "No rated games yet"])
        }
        Lang::Russian => (
            "Таблица лидеров",
            "Выход в угол · рейтинговые партии",
            ["Рейтинг", "Партии", "Динамика", "Рейтинговых партий пока нет"],
        ),
    };
    LeaderboardCard {
        theme,
        title: title.into(),
        subtitle: subtitle.into(),
        rows,
        labels: LeaderboardLabels {
            rating: labels[0].into(),
            games: labels[1].into(),
            trend: labels[2].into(),
            nothing_yet: labels[3].into(),
        },
    }
}
