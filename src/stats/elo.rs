//! Logistic Elo difference with its 95% interval and the likelihood of superiority (LOS).
//!
//! The interval is a Wilson-type score interval, chosen because it stays finite and honest
//! for small and lopsided samples where the usual normal interval (cutechess, fastchess)
//! reaches past a score of 0 or 1 and prints `± inf`, or has zero width (`± 0.00`) when
//! every sample scored the same. It is the set of scores `μ` within 1.96 standard errors
//! of the observed score `s`, the standard error being taken at `μ` itself:
//! `(s - μ)² = z² k μ(1 - μ) / n` over `n` samples (games, or game pairs). For games
//! without draws `k = 1`, the binomial Wilson interval. Otherwise `k` is the observed
//! variance relative to all-or-nothing results, `v / (s(1 - s))`, shrunk by one virtual
//! sample towards independent games (`k = 1` per game, `1/2` per pair): this is the
//! variance floor that keeps five split pairs from claiming certainty. The bounds are
//! converted to Elo; the margin is half their distance, as cutechess reports it. On large
//! samples it agrees with the normal interval (30.33 against cutechess's 30.43 for
//! 136 wins, 111 draws, 96 losses). A perfect or a zero score has an infinite Elo and a
//! one-sided interval: only its finite bound is given.

use std::fmt;

use super::counts::ScoreCounts;
use super::math::{Z95, normal_cdf, score_to_elo};

/// An Elo difference estimated from results, from the first player's point of view.
///
/// `elo` is `+inf` when every point was scored and `-inf` when none was. The 95% bounds
/// are finite except the one beyond an infinite estimate; `margin95` is half their
/// distance, `+inf` only when a bound is infinite. Nothing is ever NaN.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EloEstimate {
    /// Estimated logistic Elo difference.
    pub elo: f64,
    /// Half-width of the 95% interval, in Elo; `+inf` when one end is unbounded.
    pub margin95: f64,
    /// Lower end of the 95% interval, in Elo.
    pub lower95: f64,
    /// Upper end of the 95% interval, in Elo.
    pub upper95: f64,
    /// Likelihood of superiority: the probability that the true difference is positive, 0..=1.
    pub los: f64,
}

/// The Wilson-type 95% interval of a mean score `mean` with sample variance `variance`
/// over `samples` samples of `games_per_sample` games each (see the module notes).
pub fn score_interval(
    mean: f64,
    variance: f64,
    samples: u64,
    games_per_sample: usize,
) -> (f64, f64) {
    let n = samples as f64;
    let independent = 1.0 / games_per_sample as f64;
    let spread = mean * (1.0 - mean);
    let observed = if spread > 0.0 {
        (variance / spread).min(1.0)
    } else {
        independent
    };
    let k = (n * observed + independent) / (n + 1.0);
    let c = Z95 * Z95 * k / n;
    let root = (c * c + 4.0 * c * spread).sqrt();
    let lower = (2.0 * mean + c - root) / (2.0 * (1.0 + c));
    let upper = (2.0 * mean + c + root) / (2.0 * (1.0 + c));
    // The bounds of a perfect or zero score are exact: 1 or 0.
    let lower = if mean <= 0.0 { 0.0 } else { lower.max(0.0) };
    let upper = if mean >= 1.0 { 1.0 } else { upper.min(1.0) };
    (lower, upper)
}

impl EloEstimate {
    /// Estimates the Elo difference from counts of game (N = 3) or pair (N = 5) scores;
    /// `None` without samples.
    pub fn from_counts<const N: usize>(counts: &ScoreCounts<N>) -> Option<EloEstimate> {
        let moments = counts.moments()?;
        let samples = counts.samples();
        let standard_error = (moments.variance / samples as f64).sqrt();
        let score = moments.mean;
        let elo = score_to_elo(score);
        let (low, high) = score_interval(
            score,
            moments.variance,
            samples,
            ScoreCounts::<N>::GAMES_PER_SAMPLE,
        );
        let (lower95, upper95) = (score_to_elo(low), score_to_elo(high));
        let margin95 = if upper95.is_finite() && lower95.is_finite() {
            (upper95 - lower95) / 2.0
        } else {
            f64::INFINITY
        };
        let los = if standard_error > 0.0 {
            normal_cdf((score - 0.5) / standard_error)
        } else if score > 0.5 {
            1.0
        } else if score < 0.5 {
            0.0
        } else {
            0.5
        };
        Some(EloEstimate {
            elo,
            margin95,
            lower95,
            upper95,
            los,
        })
    }

    /// The LOS in percent.
    pub fn los_percent(&self) -> f64 {
        self.los * 100.0
    }

    /// `+40.70 ± 30.33` (with `±` or `+/-` between, signed when `signed`); for an infinite
    /// estimate its finite bound instead: `> +251.30` or `< -251.30`.
    pub fn describe(&self, plus_minus: &str, signed: bool) -> String {
        let number = |x: f64| {
            if signed {
                signed_figure(x)
            } else {
                plain_figure(x)
            }
        };
        if self.elo == f64::INFINITY {
            format!("> {}", signed_figure(self.lower95))
        } else if self.elo == f64::NEG_INFINITY {
            format!("< {}", signed_figure(self.upper95))
        } else {
            format!(
                "{} {plus_minus} {}",
                number(self.elo),
                format_margin(self.margin95)
            )
        }
    }
}

/// A figure with two decimals and its sign: `+40.70`, `-3.10`, `+0.00` (never `-0.00`),
/// `+inf`, `-inf`, `n/a` for NaN.
pub fn signed_figure(x: f64) -> String {
    if x.is_nan() {
        "n/a".to_string()
    } else if x.is_infinite() {
        if x > 0.0 { "+inf" } else { "-inf" }.to_string()
    } else {
        format!("{:+.2}", zero_if_rounds_to_zero(x))
    }
}

/// A figure with two decimals: `40.70`, `-3.10`, `0.00` (never `-0.00`).
fn plain_figure(x: f64) -> String {
    format_elo(x)
}

/// `x`, or `+0.0` when it prints as zero with two decimals (so that `-0.001` is not `-0.00`).
fn zero_if_rounds_to_zero(x: f64) -> f64 {
    if x.abs() < 0.005 { 0.0 } else { x }
}

/// Any figure with two decimals, never `-0.00`: `-2.94`, `0.00`, `+inf`.
pub fn two_decimals(x: f64) -> String {
    format_elo(x)
}

/// Formats an Elo figure with two decimals, writing infinities as `+inf` and `-inf`.
pub fn format_elo(elo: f64) -> String {
    if elo == f64::INFINITY {
        "+inf".to_string()
    } else if elo == f64::NEG_INFINITY {
        "-inf".to_string()
    } else if elo.is_nan() {
        "n/a".to_string()
    } else {
        format!("{:.2}", zero_if_rounds_to_zero(elo))
    }
}

/// Formats a margin with two decimals, writing an unbounded or undefined one as `n/a`.
pub fn format_margin(margin: f64) -> String {
    if margin.is_finite() {
        format!("{:.2}", zero_if_rounds_to_zero(margin))
    } else {
        "n/a".to_string()
    }
}

impl fmt::Display for EloEstimate {
    /// `40.70 +/- 30.33`; `> +251.30` for a perfect score.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.describe("+/-", false))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn trinomial(wins: u64, draws: u64, losses: u64) -> Option<EloEstimate> {
        EloEstimate::from_counts(&ScoreCounts {
            counts: [losses, draws, wins],
        })
    }

    #[test]
    fn reference_elo_margin_and_los() {
        // cutechess/fastchess reference: W=136 L=96 D=111 -> 40.70 +/- 30.43, LOS 99.60 %.
        let e = trinomial(136, 111, 96).unwrap();
        assert!((e.elo - 40.70).abs() < 0.01, "{e:?}");
        // The Wilson-type margin is 30.33 where cutechess's normal interval gives 30.43.
        assert!((e.margin95 - 30.33).abs() < 0.01, "{e:?}");
        assert!((e.los_percent() - 99.60).abs() < 0.01, "{e:?}");
        assert_eq!(e.to_string(), "40.70 +/- 30.33");
    }

    #[test]
    fn pentanomial_elo_and_margin_match_independent_computation() {
        // Values computed separately (Python, fastchess conventions): score 0.501438.
        let e = EloEstimate::from_counts(&ScoreCounts {
            counts: [365, 16618, 36229, 16974, 390],
        })
        .unwrap();
        assert!((e.elo - 0.9993).abs() < 0.001, "{e:?}");
        assert!((e.margin95 - 0.9231).abs() < 0.001, "{e:?}");
        assert!((e.los - 0.98308).abs() < 0.0001, "{e:?}");
        // A small no-draw pentanomial sample: 30 LL, 45 WL, 25 WW.
        let e = EloEstimate::from_counts(&ScoreCounts {
            counts: [30, 0, 45, 0, 25],
        })
        .unwrap();
        assert!((e.elo + 17.386).abs() < 0.001, "{e:?}");
        // 50.876 with the normal interval.
        assert!((e.margin95 - 50.314).abs() < 0.001, "{e:?}");
        assert!((e.los - 0.24960).abs() < 0.0001, "{e:?}");
    }

    #[test]
    fn pairs_that_split_evenly_narrow_the_margin() {
        // The same 200 games (120 wins, 80 losses), once as independent games, once as 80 split
        // pairs and 20 won pairs: pairing removes the opening's share of the variance.
        let games = trinomial(120, 0, 80).unwrap();
        let pairs = EloEstimate::from_counts(&ScoreCounts {
            counts: [0, 0, 80, 0, 20],
        })
        .unwrap();
        assert!((games.elo - pairs.elo).abs() < 1e-9);
        assert!(pairs.margin95 < games.margin95);
    }

    #[test]
    fn no_games_give_no_estimate() {
        assert_eq!(trinomial(0, 0, 0), None);
    }

    #[test]
    fn all_wins_and_all_losses_are_infinite_but_never_nan() {
        let e = trinomial(12, 0, 0).unwrap();
        assert_eq!(e.elo, f64::INFINITY);
        assert_eq!(e.margin95, f64::INFINITY);
        assert_eq!(e.los, 1.0);
        // The Wilson bound of 12 wins in 12 games: score above 12 / (12 + 1.96²).
        assert!(e.lower95.is_finite() && e.lower95 > 100.0, "{e:?}");
        assert!(e.to_string().starts_with("> +"), "{e}");
        let e = trinomial(0, 0, 7).unwrap();
        assert_eq!(e.elo, f64::NEG_INFINITY);
        assert_eq!(e.los, 0.0);
        assert!(e.to_string().starts_with("< -"), "{e}");
        // One loss among many wins: finite estimate and, unlike the normal interval, finite bounds.
        let e = trinomial(30, 0, 1).unwrap();
        assert!(e.elo.is_finite() && e.elo > 400.0);
        assert!(e.margin95.is_finite(), "{e:?}");
    }

    #[test]
    fn all_draws_are_even_with_a_floored_spread() {
        let e = trinomial(0, 9, 0).unwrap();
        assert_eq!(e.elo, 0.0);
        assert!(e.margin95 > 10.0 && e.margin95.is_finite(), "{e:?}");
        assert_eq!(e.los, 0.5);
    }

    #[test]
    fn small_and_lopsided_samples_get_finite_honest_intervals() {
        // Before: 1-1 gave `-0.00 +/- inf` over games and `+0.00 ± 0.00` as one split pair;
        // 2-8 gave `-240.82 +/- inf`; three split pairs `± 0.00`.
        let e = trinomial(1, 0, 1).unwrap();
        assert_eq!(e.to_string(), "0.00 +/- 392.52", "{e:?}");
        let pair = |counts: [u64; 5]| EloEstimate::from_counts(&ScoreCounts { counts }).unwrap();
        let one_split = pair([0, 0, 1, 0, 0]);
        assert_eq!(one_split.describe("±", true), "+0.00 ± 301.28");
        let three_split = pair([0, 0, 3, 0, 0]);
        assert!(three_split.margin95 > 50.0 && three_split.margin95 < one_split.margin95);
        let e = trinomial(2, 0, 8).unwrap();
        assert_eq!(e.to_string(), "-240.82 +/- 247.66");
        assert!(e.upper95 > e.elo && e.lower95 < e.elo);
        // Every lopsided sample short of a perfect score keeps both bounds finite.
        for wins in 0..=40 {
            let e = trinomial(wins, 0, 40 - wins).unwrap();
            assert!(e.lower95 < e.upper95, "{wins}: {e:?}");
            if wins > 0 && wins < 40 {
                assert!(e.margin95.is_finite(), "{wins}: {e:?}");
            }
            assert!(!e.to_string().contains("inf") && !e.to_string().contains("-0.00"));
        }
    }

    #[test]
    fn more_wins_mean_higher_elo_and_los() {
        let mut previous = trinomial(0, 20, 20).unwrap();
        for wins in 1..60 {
            let e = trinomial(wins, 20, 20).unwrap();
            assert!(e.elo > previous.elo, "wins {wins}");
            assert!(e.los >= previous.los, "wins {wins}");
            assert!(e.margin95.is_finite() && e.margin95 > 0.0);
            previous = e;
        }
    }

    #[test]
    fn swapping_sides_negates_elo() {
        let a = trinomial(50, 30, 20).unwrap();
        let b = trinomial(20, 30, 50).unwrap();
        assert!((a.elo + b.elo).abs() < 1e-9);
        assert!((a.margin95 - b.margin95).abs() < 1e-9);
        assert!((a.los + b.los - 1.0).abs() < 1e-12);
    }

    #[test]
    fn formatting_names_infinities() {
        assert_eq!(format_elo(-20.756), "-20.76");
        assert_eq!(format_elo(f64::NAN), "n/a");
        assert_eq!(format_margin(f64::INFINITY), "n/a");
        assert_eq!(format_elo(-0.001), "0.00");
        assert_eq!(signed_figure(-0.004), "+0.00");
        assert_eq!(signed_figure(-0.0), "+0.00");
        assert_eq!(signed_figure(3.1), "+3.10");
    }
}
