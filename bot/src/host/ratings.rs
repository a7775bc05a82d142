//! Ratings: which games count, the one hook that rates a finished game, leaderboards and
//! profiles. The arithmetic is in [`super::glicko2`].
//!
//! Families are the rules crate's [`Variant::family`]: `sea-battle`, `seed-001` (Tablut,
//! Brandubh, Hnefatafl), `historical`, `copenhagen`, `fetlar`. Presets of one family share their
//! throne, how the king is captured and whether he is armed, and their shieldwall, exit fort,
//! encirclement and repetition rules; they differ in board size and start position, and the
//! historical family also in the escape (to the edge on 9×9, to a corner on 7×7 and 11×11), as
//! the `escape` option may change it within any preset that has it. That is close enough for a
//! player's skill to carry over between them; different families play like different games. A
//! rating exists per family in two scopes: global, and the server the game was played on.

use tafl_rules::{Side, Variant};

use super::glicko2::{self, Rating};
use super::types::{
    FamilyRating, Leaderboard, LeaderboardEntry, PlayerResult, Profile, Scope, SideRecord, Streak, User, UserId,
};
use super::{Conn, Ending, Host, HostError};
use crate::store::{self, GameRow};

/// The largest leaderboard one call returns.
pub const MAX_LEADERBOARD: usize = 100;

/// The rating family of a preset id (`copenhagen`) or of a family name itself (`seed-001`);
/// `None` for custom rules and unknown names.
#[must_use]
pub fn rating_family(name: &str) -> Option<&'static str> {
    let wanted = name.trim().to_ascii_lowercase().replace('_', "-");
    Variant::ALL.into_iter().find(|v| v.id() == wanted || v.family() == wanted).map(Variant::family)
}

/// Every rating family, in the order of the presets.
#[must_use]
pub fn rating_families() -> Vec<&'static str> {
    let mut families: Vec<&'static str> = Vec::new();
    for variant in Variant::ALL {
        if !families.contains(&variant.family()) {
            families.push(variant.family());
        }
    }
    families
}

/// Whether a game that has just ended is rated: between two different people, at least two
/// plies played (so a game abandoned or aborted before each side has moved is not), not
/// imported, and played under a preset's rules (custom rules have no family).
///
/// Games against the bot are rated in their own pool: the family prefixed with [`BOT_POOL`],
/// where each level has its rating like a person, so a person's rating among people is only
/// ever moved by games against people. A game its players chose not to rate is not.
fn is_rated(row: &GameRow, plies: usize) -> Option<String> {
    rating_pool(row).filter(|_| plies >= super::types::PLIES_TO_COUNT)
}

/// The pool a game is rated in once it has gone far enough: everything of [`is_rated`] but the
/// plies played.
fn rating_pool(row: &GameRow) -> Option<String> {
    let counts = row.attacker_id != row.defender_id && !row.imported && row.rated;
    let family = counts.then(|| rating_family(&row.variant)).flatten()?;
    Some(if super::bot::bot_in(row).is_some() { in_bot_pool(family) } else { family.to_owned() })
}

/// Whether a game with a result went unrated only because it ended before each side had
/// moved (a resignation or an agreed draw at ply 0 or 1): its summary says so, as it would
/// otherwise show a result with no rating line and no word why.
pub(super) fn ended_too_soon_to_rate(row: &GameRow, plies: usize, ending: Option<Ending>) -> bool {
    ending.is_some_and(Ending::has_result) && rating_pool(row).is_some() && is_rated(row, plies).is_none()
}

/// The prefix of the rating families of games against the bot (`bot:copenhagen`).
pub const BOT_POOL: &str = "bot:";

/// A family (or a variant, for a leaderboard) in the pool of games against the bot.
#[must_use]
pub fn in_bot_pool(family: &str) -> String {
    format!("{BOT_POOL}{family}")
}

/// The family of a rating and whether it is of the pool of games against the bot.
#[must_use]
pub fn split_pool(family: &str) -> (&str, bool) {
    family.strip_prefix(BOT_POOL).map_or((family, false), |f| (f, true))
}

/// Rates a game in the transaction that ends it: both players, globally and on the game's
/// server, each against the other's rating from before the game, its deviation grown over the
/// time since their last game (one game is one Glicko-2 rating period). Every ending path
/// reaches it through `end_game`, so a game is rated exactly when its end is committed, and
/// never when the ending is refused.
pub(super) async fn rate_game(
    conn: &mut Conn,
    row: &GameRow,
    plies: usize,
    ending: Ending,
    now: i64,
) -> Result<(), HostError> {
    // A game without a result moves nobody's rating, however far it went.
    let Some(family) = is_rated(row, plies).filter(|_| ending.has_result()) else { return Ok(()) };
    let family = family.as_str();
    // Each rating is read, then written whole: two games of one player ending at once (on
    // PostgreSQL, where other games' transactions run side by side) would both start from the
    // same rating and the second write would undo the first. The players' rows are locked
    // first, in id order so that two such transactions cannot wait on each other.
    for user in [row.attacker_id.min(row.defender_id), row.attacker_id.max(row.defender_id)] {
        store::users::lock(conn, user).await?;
    }
    let score = match ending.winner {
        Some(Side::Attackers) => 1.0,
        Some(Side::Defenders) => 0.0,
        None => 0.5,
    };
    let mut scopes = vec![Scope::Global];
    if row.guild_id != 0 {
        scopes.push(Scope::Server(row.guild_id));
    }
    for scope in scopes {
        let (attacker, attacker_games) = current(conn, row.attacker_id, family, scope, now).await?;
        let (defender, defender_games) = current(conn, row.defender_id, family, scope, now).await?;
        let (attacker_after, defender_after) = glicko2::rate_game(attacker, defender, score);
        for (user_id, before, after, games) in [
            (row.attacker_id, attacker, attacker_after, attacker_games),
            (row.defender_id, defender, defender_after, defender_games),
        ] {
            let new = store::ratings::NewRating {
                user_id,
                family,
                scope: scope.id(),
                rating: after.rating,
                deviation: after.deviation,
                volatility: after.volatility,
                games: games + 1,
            };
            store::ratings::save(conn, &new, now).await?;
            let change = store::rating_changes::NewChange {
                game_id: row.id,
                user_id,
                family,
                scope: scope.id(),
                rating_before: before.rating,
                deviation_before: before.deviation,
                rating_after: after.rating,
                deviation_after: after.deviation,
            };
            store::rating_changes::insert(conn, &change, now).await?;
        }
    }
    tracing::info!(game = row.id, family, "game rated");
    Ok(())
}

/// A person's rating at `now` and their rated games so far, a newcomer's rating before their
/// first game.
async fn current(
    conn: &mut Conn,
    user: UserId,
    family: &str,
    scope: Scope,
    now: i64,
) -> Result<(Rating, i64), HostError> {
    Ok(match store::ratings::find(conn, user, family, scope.id()).await? {
        Some(row) => (rating_at(&row, now), row.games),
        None => (glicko2::START, 0),
    })
}

/// A stored rating as it stands at `now`: its deviation grown over the time since its last game.
fn rating_at(row: &store::ratings::RatingRow, now: i64) -> Rating {
    Rating { rating: row.rating, deviation: row.deviation, volatility: row.volatility }
        .after_absence(now.saturating_sub(row.updated_at))
}

fn family_rating(row: &store::ratings::RatingRow, now: i64) -> FamilyRating {
    let rating = rating_at(row, now);
    FamilyRating {
        family: row.family.clone(),
        rating: rating.rating,
        deviation: rating.deviation,
        games: row.games,
        provisional: rating.is_provisional(),
    }
}

/// Ranks a leaderboard's entries, listed established ratings first and provisional ones after
/// them, by standard competition ranking ("1, 1, 3"): equal ratings as shown (rounded, and both
/// provisional or both not) share a rank, and the next rank counts everyone above.
fn rank(entries: &mut [LeaderboardEntry]) {
    let shown = |e: &LeaderboardEntry| (e.rating.provisional, e.rating.rating.round() as i64);
    for n in 0..entries.len() {
        entries[n].rank = match n.checked_sub(1) {
            Some(previous) if shown(&entries[previous]) == shown(&entries[n]) => entries[previous].rank,
            _ => n + 1,
        };
    }
}

impl Host {
    /// The best players of a variant family (a family name or any preset id of it), globally or
    /// on one server, at `now`: at most `limit` (1 to 100) of them, established ratings first,
    /// highest first, then provisional ones (marked, ranked after them), so that one lucky win
    /// between two newcomers never tops a board of players known over many games. Provisional
    /// ratings are listed at all so that a new server's board is not empty.
    pub async fn leaderboard(
        &self,
        family: &str,
        guild: Option<i64>,
        limit: usize,
        now: i64,
    ) -> Result<Leaderboard, HostError> {
        // `bot:copenhagen` is the pool of games against the bot: people and the bot's levels.
        let (name, bot_pool) = split_pool(family.trim());
        // The input as the player typed it: without the pool's `bot:` prefix.
        let family = rating_family(name).ok_or_else(|| HostError::UnknownFamily {
            input: name.chars().filter(|c| !c.is_control()).take(32).collect(),
        })?;
        let family = if bot_pool { in_bot_pool(family) } else { family.to_owned() };
        let family = family.as_str();
        let scope = Scope::of(guild);
        let limit = limit.clamp(1, MAX_LEADERBOARD);
        let mut tx = self.db.begin_read().await?;
        // The store sorts by the same growth of the deviation; sorting again by the ratings as
        // computed here keeps the order and the marks in agreement even at the boundary.
        let provisional = store::ratings::Provisional {
            now,
            variance_per_second: glicko2::VARIANCE_PER_SECOND,
            deviation: glicko2::PROVISIONAL_DEVIATION,
        };
        let rows = store::ratings::leaderboard(&mut tx, family, scope.id(), &provisional, limit as i64).await?;
        let mut entries: Vec<LeaderboardEntry> = rows
            .iter()
            .map(|row| LeaderboardEntry {
                rank: 0,
                user: User { id: row.user_id, name: row.name.clone() },
                rating: family_rating(row, now),
            })
            .collect();
        entries.sort_by_key(|e| e.rating.provisional);
        rank(&mut entries);
        Ok(Leaderboard { family: family.to_owned(), scope, entries })
    }

    /// A player's ratings at `now`, wins, losses and draws by side and current streak, from their
    /// rated games globally or on one server. Someone who never played gets an empty profile.
    ///
    /// The record by side and the streak count games against people; a person's games against
    /// the bot are counted on their own, as they are rated in their own pool. The bot's levels
    /// play people only, so their records are by side.
    pub async fn profile(&self, user: UserId, guild: Option<i64>, now: i64) -> Result<Profile, HostError> {
        let scope = Scope::of(guild);
        let mut tx = self.db.begin_read().await?;
        let name = store::users::name(&mut tx, user, scope.id()).await?;
        let ratings = store::ratings::of_user(&mut tx, user, scope.id())
            .await?
            .iter()
            .map(|row| family_rating(row, now))
            .collect();
        let games = store::rating_changes::rated_games(&mut tx, user, scope.id()).await?;
        let mut as_attacker = SideRecord::default();
        let mut as_defender = SideRecord::default();
        let mut against_bot = SideRecord::default();
        let mut streak: Option<Streak> = None;
        let mut streak_over = false;
        for game in &games {
            let side = if game.attacker_id == user { Side::Attackers } else { Side::Defenders };
            let result = match game.status.as_str() {
                "attackers_win" if side == Side::Attackers => PlayerResult::Win,
                "defenders_win" if side == Side::Defenders => PlayerResult::Win,
                "attackers_win" | "defenders_win" => PlayerResult::Loss,
                _ => PlayerResult::Draw,
            };
            let opponent = if side == Side::Attackers { game.defender_id } else { game.attacker_id };
            let against_the_bot = super::bot::is_bot(opponent);
            let record = if against_the_bot {
                &mut against_bot
            } else if side == Side::Attackers {
                &mut as_attacker
            } else {
                &mut as_defender
            };
            record.count(result);
            if against_the_bot {
                continue;
            }
            // Newest first: the streak runs until the first different result.
            match &mut streak {
                None => streak = Some(Streak { result, length: 1 }),
                Some(s) if !streak_over && s.result == result => s.length += 1,
                Some(_) => streak_over = true,
            }
        }
        Ok(Profile { user: User { id: user, name }, scope, ratings, as_attacker, as_defender, against_bot, streak })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(attacker_id: i64, defender_id: i64, variant: &str, imported: bool) -> GameRow {
        GameRow {
            id: 1,
            guild_id: 1,
            channel_id: 2,
            thread_id: None,
            variant: variant.to_owned(),
            options: String::new(),
            rules: String::new(),
            start_position: None,
            start_to_move: None,
            attacker_id,
            defender_id,
            status: "attackers_win".to_owned(),
            reason: Some("resignation".to_owned()),
            loser_id: None,
            ply: 0,
            clock_seconds: None,
            imported,
            created_at: 0,
            updated_at: 0,
            finished_at: None,
            movetext: String::new(),
            attacker_name: "a".to_owned(),
            defender_name: "b".to_owned(),
            open_offers: 0,
            reserve_cap: None,
            attacker_reserve: 0,
            defender_reserve: 0,
            turn_started_at: None,
            deadline_at: None,
            reminders_sent: 0,
            next_due_at: None,
            rated: true,
            bot_turn_at: None,
            server_left_at: None,
            channel_gone_at: None,
        }
    }

    #[test]
    fn only_games_between_two_people_from_ply_two_under_a_presets_rules_are_rated() {
        assert_eq!(is_rated(&row(1, 2, "copenhagen", false), 2).as_deref(), Some("copenhagen"));
        assert_eq!(is_rated(&row(1, 2, "brandubh", false), 40).as_deref(), Some("seed-001"));
        assert_eq!(is_rated(&row(1, 2, "copenhagen", false), 1), None, "aborted before each side moved");
        assert_eq!(is_rated(&row(1, 2, "copenhagen", false), 0), None);
        assert_eq!(is_rated(&row(1, 1, "copenhagen", false), 20), None, "a game against oneself");
        assert_eq!(is_rated(&row(1, 2, "copenhagen", true), 20), None, "an imported game");
        assert_eq!(is_rated(&row(1, 2, "custom", false), 20), None, "rules of no family");
    }

    #[test]
    fn a_result_before_ply_two_is_the_only_reason_ended_too_soon_to_rate_names() {
        let resigned = Some(Ending { winner: Some(Side::Attackers), reason: crate::host::EndReason::Resignation });
        let aborted = Some(Ending { winner: None, reason: crate::host::EndReason::Aborted });
        let people = row(1, 2, "copenhagen", false);
        assert!(ended_too_soon_to_rate(&people, 0, resigned));
        assert!(ended_too_soon_to_rate(&people, 1, resigned));
        assert!(!ended_too_soon_to_rate(&people, 2, resigned), "rated");
        assert!(!ended_too_soon_to_rate(&people, 1, aborted), "no result: the summary says so already");
        assert!(!ended_too_soon_to_rate(&people, 1, None), "still going");
        assert!(!ended_too_soon_to_rate(&row(1, 2, "copenhagen", true), 1, resigned), "imported");
        assert!(!ended_too_soon_to_rate(&row(1, 2, "custom", false), 1, resigned), "never rated");
        let mut casual = people.clone();
        casual.rated = false;
        assert!(!ended_too_soon_to_rate(&casual, 1, resigned), "a casual game");
        assert!(ended_too_soon_to_rate(&row(1, -3, "copenhagen", false), 1, resigned), "against the bot too");
    }

    #[test]
    fn equal_ratings_as_shown_share_a_rank_and_provisional_ones_rank_after() {
        let ranks = |listed: &[(f64, bool)]| {
            let mut entries: Vec<LeaderboardEntry> = listed
                .iter()
                .enumerate()
                .map(|(n, &(rating, provisional))| LeaderboardEntry {
                    rank: 0,
                    user: User { id: n as i64, name: format!("p{n}") },
                    rating: FamilyRating {
                        family: "copenhagen".to_owned(),
                        rating,
                        deviation: if provisional { 200.0 } else { 80.0 },
                        games: 9,
                        provisional,
                    },
                })
                .collect();
            rank(&mut entries);
            entries.iter().map(|e| e.rank).collect::<Vec<_>>()
        };
        assert_eq!(ranks(&[]), Vec::<usize>::new());
        let board = [(1600.2, false), (1599.8, false), (1550.0, false), (1550.4, false)];
        assert_eq!(ranks(&board), [1, 1, 3, 3], "1600 and 1600 as shown");
        let board = [(1500.0, false), (1662.0, true), (1662.0, true), (1500.0, true)];
        assert_eq!(ranks(&board), [1, 2, 2, 4]);
        assert_eq!(ranks(&[(1500.0, false), (1500.0, true)]), [1, 2], "1500 and 1500? differ");
    }

    #[test]
    fn games_against_the_bot_are_rated_in_their_own_pool_unless_unrated() {
        assert_eq!(is_rated(&row(1, -3, "copenhagen", false), 2).as_deref(), Some("bot:copenhagen"));
        assert_eq!(is_rated(&row(-5, 1, "brandubh", false), 2).as_deref(), Some("bot:seed-001"));
        let mut casual = row(1, -3, "copenhagen", false);
        casual.rated = false;
        assert_eq!(is_rated(&casual, 20), None, "a casual game against the bot");
        assert_eq!(split_pool("bot:copenhagen"), ("copenhagen", true));
        assert_eq!(split_pool("copenhagen"), ("copenhagen", false));
    }

    #[test]
    fn families_are_named_by_any_preset_or_by_themselves() {
        for variant in Variant::ALL {
            assert_eq!(rating_family(variant.id()), Some(variant.family()));
            assert_eq!(rating_family(variant.family()), Some(variant.family()));
        }
        assert_eq!(rating_family(" Sea_Battle-13 "), Some("sea-battle"));
        assert_eq!(rating_family("Hnefatafl"), Some("seed-001"));
        assert_eq!(rating_family("custom"), None);
        assert_eq!(rating_family(""), None);
        assert_eq!(rating_families(), vec!["sea-battle", "seed-001", "historical", "copenhagen", "fetlar"]);
    }
}
