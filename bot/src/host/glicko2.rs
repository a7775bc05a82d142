//! The Glicko-2 rating system, as in Mark Glickman's "Example of the Glicko-2 system"
//! (<http://www.glicko.net/glicko/glicko2.pdf>): pure arithmetic, no I/O.
//!
//! Glicko-2 updates ratings once per *rating period*, from every game of the period at once.
//! The bot rates each game as a period of its own: both players' ratings change as soon as a
//! game ends, which is what players of lichess and the tafl sites expect to see in a summary, and
//! it needs no scheduler. The time between a player's games counts too, as the periods without
//! games it spans ([`PERIODS_PER_DAY`]): the deviation grows over them
//! ([`Rating::after_absence`]), so someone back after a long break is uncertain again and their
//! rating moves quickly, as the paper's step 6 has it for players who do not compete.

use std::f64::consts::PI;

/// The Glicko-2 scale factor between Glicko ratings and the internal scale (step 2).
const SCALE: f64 = 173.7178;
/// The rating of someone new: the paper's recommended start (step 1).
pub const START: Rating = Rating { rating: 1500.0, deviation: 350.0, volatility: 0.06 };
/// The system constant: how much volatility may change. The paper suggests 0.3 to 1.2; 0.5 is
/// its example's value and a common choice.
pub const TAU: f64 = 0.5;
/// The convergence tolerance of the volatility iteration (step 5).
const EPSILON: f64 = 0.000_001;
/// A deviation above this marks a provisional rating ("1520?"), as lichess does.
pub const PROVISIONAL_DEVIATION: f64 = 110.0;
/// Rating periods in a day away from the game, lichess's value (a period of 4.67 days). Skill
/// drifts with the calendar, not with the pace of the moves, so an untimed one-move-a-day
/// community loses track of an absent player about as fast as a chess site does: with the usual
/// volatility of 0.06, a deviation of 60 passes the provisional 110 after about a year away,
/// and a newcomer's 350 after about fourteen.
pub const PERIODS_PER_DAY: f64 = 0.214_36;
/// How much a deviation's square grows per second away, per unit of volatility squared: σ² per
/// rating period on the Glicko-2 scale, brought to the Glicko scale. The store applies the same
/// growth in SQL to sort provisional ratings off the top of a leaderboard.
pub const VARIANCE_PER_SECOND: f64 = SCALE * SCALE * PERIODS_PER_DAY / 86_400.0;

/// A player's rating on the Glicko scale.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rating {
    pub rating: f64,
    /// The rating deviation (RD): how uncertain the rating is.
    pub deviation: f64,
    /// The volatility σ: how erratic the player's results are.
    pub volatility: f64,
}

/// Whether a rating of this deviation is still uncertain enough to be shown with a question mark.
#[must_use]
pub fn is_provisional(deviation: f64) -> bool {
    deviation > PROVISIONAL_DEVIATION
}

impl Rating {
    /// Whether the rating is still uncertain enough to be shown with a question mark.
    #[must_use]
    pub fn is_provisional(self) -> bool {
        is_provisional(self.deviation)
    }

    /// The rating `seconds` after its last game: the deviation widened over the rating periods
    /// without games between (step 6 for each: φ* = √(φ² + σ²t)), never beyond a newcomer's.
    /// Every rating shown or rated goes through it, so a leaderboard, a profile and the next
    /// game agree on how sure a rating is.
    #[must_use]
    pub fn after_absence(self, seconds: i64) -> Rating {
        // A clock set back is no absence.
        let away = seconds.max(0) as f64;
        let variance = self.deviation * self.deviation + self.volatility * self.volatility * VARIANCE_PER_SECOND * away;
        Rating { deviation: variance.sqrt().min(START.deviation), ..self }
    }
}

/// One game of a rating period: the opponent's rating before it, and the player's score (1 for a
/// win, 0.5 for a draw, 0 for a loss).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Game {
    pub opponent: Rating,
    pub score: f64,
}

/// The rating after a rating period with `games`, with system constant `tau`. Without games
/// only the deviation grows (step 6 of the paper's "players who do not compete").
#[must_use]
pub fn update(player: Rating, games: &[Game], tau: f64) -> Rating {
    // Step 2: to the Glicko-2 scale.
    let mu = (player.rating - 1500.0) / SCALE;
    let phi = player.deviation / SCALE;
    let sigma = player.volatility;
    if games.is_empty() {
        let phi_star = (phi * phi + sigma * sigma).sqrt();
        return Rating { rating: player.rating, deviation: phi_star * SCALE, volatility: sigma };
    }
    // Steps 3 and 4: the estimated variance v and the improvement Δ.
    let mut inverse_v = 0.0;
    let mut sum = 0.0;
    for game in games {
        let mu_j = (game.opponent.rating - 1500.0) / SCALE;
        let g_j = g(game.opponent.deviation / SCALE);
        let e_j = expected(mu, mu_j, g_j);
        inverse_v += g_j * g_j * e_j * (1.0 - e_j);
        sum += g_j * (game.score - e_j);
    }
    let v = 1.0 / inverse_v;
    let delta = v * sum;
    // Step 5: the new volatility.
    let sigma = new_volatility(phi, sigma, v, delta, tau);
    // Steps 6 and 7: the new deviation and rating.
    let phi_star = (phi * phi + sigma * sigma).sqrt();
    let phi = 1.0 / (1.0 / (phi_star * phi_star) + 1.0 / v).sqrt();
    let mu = mu + phi * phi * sum;
    // Step 8: back to the Glicko scale.
    Rating { rating: SCALE * mu + 1500.0, deviation: SCALE * phi, volatility: sigma }
}

/// Both players' ratings after one game between them (one rating period each), `score` being
/// the first player's (1, 0.5 or 0). Each is rated against the other's rating from before the
/// game, so the order of the two does not matter. A deviation never grows beyond a newcomer's.
#[must_use]
pub fn rate_game(first: Rating, second: Rating, score: f64) -> (Rating, Rating) {
    let cap = |r: Rating| Rating { deviation: r.deviation.min(START.deviation), ..r };
    (
        cap(update(first, &[Game { opponent: second, score }], TAU)),
        cap(update(second, &[Game { opponent: first, score: 1.0 - score }], TAU)),
    )
}

fn g(phi: f64) -> f64 {
    1.0 / (1.0 + 3.0 * phi * phi / (PI * PI)).sqrt()
}

fn expected(mu: f64, mu_j: f64, g_j: f64) -> f64 {
    1.0 / (1.0 + (-g_j * (mu - mu_j)).exp())
}

/// Step 5: σ' by the Illinois algorithm (a regula falsi that halves the stale end), exactly as
/// the paper gives it.
fn new_volatility(phi: f64, sigma: f64, v: f64, delta: f64, tau: f64) -> f64 {
    let a = (sigma * sigma).ln();
    let f = |x: f64| {
        let ex = x.exp();
        let d = phi * phi + v + ex;
        ex * (delta * delta - phi * phi - v - ex) / (2.0 * d * d) - (x - a) / (tau * tau)
    };
    let mut big_a = a;
    let mut big_b = if delta * delta > phi * phi + v {
        (delta * delta - phi * phi - v).ln()
    } else {
        let mut k = 1.0;
        while f(a - k * tau) < 0.0 {
            k += 1.0;
        }
        a - k * tau
    };
    let mut f_a = f(big_a);
    let mut f_b = f(big_b);
    // The bracket shrinks every round; the cap only guards against a NaN from absurd input.
    for _ in 0..1000 {
        if (big_b - big_a).abs() <= EPSILON {
            break;
        }
        let big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a);
        let f_c = f(big_c);
        if f_c * f_b <= 0.0 {
            big_a = big_b;
            f_a = f_b;
        } else {
            f_a /= 2.0;
        }
        big_b = big_c;
        f_b = f_c;
    }
    (big_a / 2.0).exp()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `x` written with `places` decimals, as the paper publishes its numbers.
    fn written(x: f64, places: usize) -> String {
        format!("{x:.places$}")
    }

    #[test]
    fn the_papers_worked_example_gives_its_published_numbers() {
        let player = Rating { rating: 1500.0, deviation: 200.0, volatility: 0.06 };
        let opponent = |rating, deviation| Rating { rating, deviation, volatility: 0.06 };
        let games = [
            Game { opponent: opponent(1400.0, 30.0), score: 1.0 },
            Game { opponent: opponent(1550.0, 100.0), score: 0.0 },
            Game { opponent: opponent(1700.0, 300.0), score: 0.0 },
        ];
        let after = update(player, &games, 0.5);
        // The paper publishes μ' = −0.2069, φ' = 0.8722 and σ' = 0.05999 on the Glicko-2 scale.
        assert_eq!(written((after.rating - 1500.0) / SCALE, 4), "-0.2069", "{after:?}");
        assert_eq!(written(after.deviation / SCALE, 4), "0.8722", "{after:?}");
        // σ' is 0.0599960, which the paper writes cut to five places.
        assert!(written(after.volatility, 7).starts_with("0.05999"), "{after:?}");
        // It then converts its rounded μ' (173.7178 × −0.2069 + 1500 = 1464.0578 ≈ 1464.06), which
        // the same conversion of our rounded μ' must reproduce exactly ...
        let mu: f64 = written((after.rating - 1500.0) / SCALE, 4).parse().unwrap();
        assert_eq!(written(SCALE * mu + 1500.0, 2), "1464.06", "{after:?}");
        // ... while the unrounded r' (1464.0507) may differ from it by those two roundings only:
        // 173.7178 × 0.00005 for μ' plus 0.005 for r'.
        assert!((after.rating - 1464.06).abs() < SCALE * 0.000_05 + 0.005, "{after:?}");
        assert_eq!(written(after.deviation, 2), "151.52", "{after:?}");
    }

    #[test]
    fn a_period_without_games_only_widens_the_deviation() {
        let player = Rating { rating: 1600.0, deviation: 100.0, volatility: 0.06 };
        let after = update(player, &[], TAU);
        assert!((after.rating - 1600.0).abs() < f64::EPSILON);
        assert!((after.volatility - 0.06).abs() < f64::EPSILON);
        // φ* = sqrt(φ² + σ²) on the internal scale.
        let expected = ((100.0 / SCALE).powi(2) + 0.06f64.powi(2)).sqrt() * SCALE;
        assert!((after.deviation - expected).abs() < 1e-9);
    }

    #[test]
    fn a_win_moves_two_equal_newcomers_apart_by_equal_amounts() {
        let (winner, loser) = rate_game(START, START, 1.0);
        assert!(winner.rating > 1500.0 && loser.rating < 1500.0);
        assert!((winner.rating - 1500.0 - (1500.0 - loser.rating)).abs() < 1e-9);
        assert!(winner.deviation < START.deviation && loser.deviation < START.deviation);
        // Glicko-2 moves a newcomer a lot: about 160 points for the first win against a newcomer.
        assert!((150.0..180.0).contains(&(winner.rating - 1500.0)), "{winner:?}");
    }

    #[test]
    fn a_draw_between_equals_changes_no_rating_and_a_draw_pulls_ratings_together() {
        let (a, b) = rate_game(START, START, 0.5);
        assert!((a.rating - 1500.0).abs() < 1e-9 && (b.rating - 1500.0).abs() < 1e-9);
        let strong = Rating { rating: 1800.0, deviation: 80.0, volatility: 0.06 };
        let weak = Rating { rating: 1400.0, deviation: 80.0, volatility: 0.06 };
        let (s, w) = rate_game(strong, weak, 0.5);
        assert!(s.rating < 1800.0 && w.rating > 1400.0);
    }

    #[test]
    fn beating_a_stronger_player_gains_more_than_beating_a_weaker_one() {
        let me = Rating { rating: 1500.0, deviation: 80.0, volatility: 0.06 };
        let stronger = Rating { rating: 1700.0, deviation: 80.0, volatility: 0.06 };
        let weaker = Rating { rating: 1300.0, deviation: 80.0, volatility: 0.06 };
        let (up, _) = rate_game(me, stronger, 1.0);
        let (small, _) = rate_game(me, weaker, 1.0);
        assert!(up.rating - 1500.0 > small.rating - 1500.0);
        assert!(small.rating > 1500.0);
    }

    /// Computed by hand from the paper's steps (g = 0.66906, E = 0.5, v = 8.9358, φ' = 1.67122,
    /// μ' = 0.93433): two newcomers, one win.
    #[test]
    fn two_newcomers_one_win_matches_a_hand_computation() {
        let (w, l) = rate_game(START, START, 1.0);
        assert_eq!(format!("{:.1} {:.1}", w.rating, w.deviation), "1662.3 290.3", "{w:?}");
        assert_eq!(format!("{:.1} {:.1}", l.rating, l.deviation), "1337.7 290.3", "{l:?}");
        // A 1700 ± 80 player beating a 1400 ± 80 one gains little, the loser loses as little.
        let strong = Rating { rating: 1700.0, deviation: 80.0, volatility: 0.06 };
        let weak = Rating { rating: 1400.0, deviation: 80.0, volatility: 0.06 };
        let (s, t) = rate_game(strong, weak, 1.0);
        assert!((s.rating - 1700.0) > 0.0 && (s.rating - 1700.0) < 10.0, "{s:?}");
        assert!((1400.0 - t.rating) > 0.0 && (1400.0 - t.rating) < 10.0, "{t:?}");
    }

    #[test]
    fn a_deviation_grows_by_the_volatility_for_each_rating_period_away() {
        let player = Rating { rating: 1600.0, deviation: 60.0, volatility: 0.06 };
        // Ten periods away: φ*² = φ² + 10σ² on the Glicko-2 scale.
        let ten_periods = (10.0 / PERIODS_PER_DAY * 86_400.0).round() as i64;
        let after = player.after_absence(ten_periods);
        let expected = ((60.0 / SCALE).powi(2) + 10.0 * 0.06f64.powi(2)).sqrt() * SCALE;
        assert!((after.deviation - expected).abs() < 1e-3, "{after:?}, expected {expected}");
        assert_eq!((after.rating, after.volatility), (1600.0, 0.06), "only the deviation grows");
        assert_eq!(player.after_absence(0), player);
        assert_eq!(player.after_absence(-86_400), player, "a clock set back is no absence");
        // An established rating is provisional again after about a year away, and a deviation
        // never grows past a newcomer's.
        let day = 86_400;
        assert!(!player.after_absence(300 * day).is_provisional());
        assert!(player.after_absence(400 * day).is_provisional());
        for seconds in [100 * 365 * day, i64::MAX] {
            let capped = player.after_absence(seconds).deviation;
            assert!((capped - START.deviation).abs() < 1e-9, "{capped}");
        }
    }

    #[test]
    fn deviations_never_exceed_a_newcomers() {
        let (a, b) = rate_game(START, START, 1.0);
        assert!(a.deviation <= START.deviation && b.deviation <= START.deviation);
        let wide = update(START, &[], TAU);
        assert!(wide.deviation > START.deviation, "update itself follows the paper");
        let (capped, _) = rate_game(START, Rating { deviation: 350.0, ..START }, 0.5);
        assert!(capped.deviation <= START.deviation);
    }
}
