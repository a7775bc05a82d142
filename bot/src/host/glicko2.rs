//! The Glicko-2 rating system, as in Mark Glickman's "Example of the Glicko-2 system"
//! (<http://www.glicko.net/glicko/glicko2.pdf>): pure arithmetic, no I/O.
//!
//! Glicko-2 updates ratings once per *rating period*, from every game of the period at once.
//! The bot uses one game as the period: both players' ratings change as soon as a game ends,
//! which is what players of lichess and the tafl sites expect to see in a summary, and it needs
//! no scheduler. The cost is that a rating deviation does not grow while someone is away (there
//! is no period without games); each game still widens it a little by the volatility (step 6)
//! before the result narrows it.

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

/// A player's rating on the Glicko scale.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rating {
    pub rating: f64,
    /// The rating deviation (RD): how uncertain the rating is.
    pub deviation: f64,
    /// The volatility σ: how erratic the player's results are.
    pub volatility: f64,
}

impl Rating {
    /// Whether the rating is still uncertain enough to be shown with a question mark.
    #[must_use]
    pub fn is_provisional(self) -> bool {
        self.deviation > PROVISIONAL_DEVIATION
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
