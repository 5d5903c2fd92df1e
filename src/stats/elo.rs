//! Logistic Elo difference with its 95% interval and the likelihood of superiority (LOS).
//!
//! The interval is cutechess's (and fastchess's) normal interval wherever that one is
//! finite: the observed score `s` ± 1.96 standard errors, `sqrt(v / n)` over `n` samples
//! (games, or game pairs) of variance `v`, converted to Elo; the margin is half the
//! distance of the bounds. For 136 wins, 111 draws, 96 losses that is 40.70 ± 30.43, as
//! cutechess prints it. Two cases differ, and the output says so ([`Interval`]):
//!
//! - the normal interval reaches past a score of 0 or 1, where cutechess prints `inf` or
//!   `nan` (2 wins and 8 losses): the Wilson score interval instead, the scores `μ` within
//!   1.96 standard errors of `s` with the error taken at `μ` itself,
//!   `(s - μ)² = z² k μ(1 - μ) / n`, `k = v / (s(1 - s))` the observed variance relative to
//!   all-or-nothing results;
//! - the sample has no variance (every game or pair scored the same, which includes a
//!   score of 0 % or 100 %), where the normal interval has no width (`± 0.00`): the same
//!   Wilson interval with a variance floor: `k` is that of independent games (`1` per
//!   game, `1/2` per pair) at a score of 0 or 1, and one virtual sample of them among the
//!   `n` at a score in between, `k / (n + 1)`.
//!
//! A perfect or a zero score has an infinite Elo and a one-sided interval: only its
//! finite bound is given, and only when it excludes an even match (after one won game
//! the bound is below zero and says nothing).

use std::fmt;

use super::counts::ScoreCounts;
use super::math::{Z95, normal_cdf, score_to_elo};

/// How a 95 % interval was obtained.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Interval {
    /// cutechess's normal interval.
    Normal,
    /// The Wilson score interval, where the normal one reaches past a score of 0 or 1.
    Wilson,
    /// The Wilson interval with a variance floor, for a sample without variance.
    Floor,
}

impl Interval {
    /// The mark after a figure that is not cutechess's: `""`, `*` (Wilson), `†` (floor).
    pub fn mark(self) -> &'static str {
        match self {
            Interval::Normal => "",
            Interval::Wilson => "*",
            Interval::Floor => "†",
        }
    }

    /// What a mark means, for a legend; `None` for the normal interval.
    pub fn legend(self) -> Option<&'static str> {
        match self {
            Interval::Normal => None,
            Interval::Wilson => Some(
                "* Wilson score interval: the normal one (cutechess's) reaches past a score of \
                 0 or 1",
            ),
            Interval::Floor => Some(
                "† Wilson interval with a variance floor: every result was the same (or the \
                 score is 0 % or 100 %), where the normal interval has no width",
            ),
        }
    }
}

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
    /// How the interval was obtained.
    pub interval: Interval,
}

/// The 95% interval of a mean score `mean` with sample variance `variance` over `samples`
/// samples of `games_per_sample` games each, and how it was obtained (see the module notes).
fn score_interval(
    mean: f64,
    variance: f64,
    samples: u64,
    games_per_sample: usize,
) -> (f64, f64, Interval) {
    let n = samples as f64;
    let spread = mean * (1.0 - mean);
    if variance > 0.0 && spread > 0.0 {
        let half = Z95 * (variance / n).sqrt();
        let (lower, upper) = (mean - half, mean + half);
        if lower > 0.0 && upper < 1.0 {
            return (lower, upper, Interval::Normal);
        }
        let (lower, upper) = wilson(mean, (variance / spread).min(1.0), n);
        return (lower, upper, Interval::Wilson);
    }
    // The floor: independent games at a score of 0 or 1; one virtual sample of them
    // among `n` results without variance at a score in between.
    let independent = 1.0 / games_per_sample as f64;
    let k = if spread > 0.0 {
        independent / (n + 1.0)
    } else {
        independent
    };
    let (lower, upper) = wilson(mean, k, n);
    (lower, upper, Interval::Floor)
}

/// The Wilson-type interval of `mean` over `n` samples of relative variance `k`.
fn wilson(mean: f64, k: f64, n: f64) -> (f64, f64) {
    let spread = mean * (1.0 - mean);
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
        let (low, high, interval) = score_interval(
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
            interval,
        })
    }

    /// The LOS in percent.
    pub fn los_percent(&self) -> f64 {
        self.los * 100.0
    }

    /// Whether the figure says something: always for a finite estimate; for an infinite
    /// one only when its finite bound excludes an even match.
    pub fn is_telling(&self) -> bool {
        if self.elo == f64::INFINITY {
            self.lower95 > 0.0
        } else if self.elo == f64::NEG_INFINITY {
            self.upper95 < 0.0
        } else {
            true
        }
    }

    /// `+40.70 ± 30.43` (with `±` or `+/-` between, signed when `signed`); for an infinite
    /// estimate its finite bound instead: `> +251.30` or `< -251.30`; `None` when the
    /// figure says nothing (see [`EloEstimate::is_telling`]). No [`Interval::mark`].
    pub fn describe(&self, plus_minus: &str, signed: bool) -> Option<String> {
        if !self.is_telling() {
            return None;
        }
        let number = |x: f64| {
            if signed {
                signed_figure(x)
            } else {
                plain_figure(x)
            }
        };
        Some(if self.elo == f64::INFINITY {
            format!("> {}", signed_figure(self.lower95))
        } else if self.elo == f64::NEG_INFINITY {
            format!("< {}", signed_figure(self.upper95))
        } else {
            format!(
                "{} {plus_minus} {}",
                number(self.elo),
                format_margin(self.margin95)
            )
        })
    }

    /// [`EloEstimate::describe`] followed by the interval's mark: `+0.00 ± 301.28†`.
    pub fn describe_marked(&self, plus_minus: &str, signed: bool) -> Option<String> {
        self.describe(plus_minus, signed)
            .map(|text| format!("{text}{}", self.interval.mark()))
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
    /// `40.70 +/- 30.43`; `> +251.30` for a perfect score; `n/a, 95 % interval from -233.80
    /// up` when that bound says nothing.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.describe("+/-", false) {
            Some(text) => f.write_str(&text),
            None if self.elo > 0.0 => write!(
                f,
                "n/a, 95 % interval from {} up",
                signed_figure(self.lower95)
            ),
            None => write!(
                f,
                "n/a, 95 % interval up to {}",
                signed_figure(self.upper95)
            ),
        }
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
        // Exactly cutechess's normal interval, not the Wilson-type one (30.33).
        assert!((e.margin95 - 30.43).abs() < 0.005, "{e:?}");
        assert!((e.los_percent() - 99.60).abs() < 0.01, "{e:?}");
        assert_eq!(e.to_string(), "40.70 +/- 30.43");
        assert_eq!(e.interval, Interval::Normal);
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
        // The normal interval over pairs, as fastchess gives it (50.314 with the Wilson one).
        assert!((e.margin95 - 50.876).abs() < 0.001, "{e:?}");
        assert_eq!(e.interval, Interval::Normal);
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
        assert_eq!(e.interval, Interval::Wilson);
    }

    #[test]
    fn one_won_game_gives_no_bound_that_reads_as_a_claim() {
        // Once `> -233.80`: a lower bound below zero after a single win.
        let e = trinomial(1, 0, 0).unwrap();
        assert!(!e.is_telling());
        assert_eq!(e.describe("±", true), None);
        assert_eq!(e.to_string(), "n/a, 95 % interval from -233.80 up");
        let e = trinomial(0, 0, 1).unwrap();
        assert_eq!(e.describe("±", true), None);
        assert_eq!(e.to_string(), "n/a, 95 % interval up to +233.80");
        // Enough wins exclude an even match: the bound is given.
        assert!(!trinomial(3, 0, 0).unwrap().is_telling());
        let e = trinomial(4, 0, 0).unwrap();
        assert!(e.is_telling(), "{e:?}");
        assert_eq!(e.interval, Interval::Floor);
    }

    #[test]
    fn all_draws_are_even_with_a_floored_spread() {
        let e = trinomial(0, 9, 0).unwrap();
        assert_eq!(e.elo, 0.0);
        assert!(e.margin95 > 10.0 && e.margin95.is_finite(), "{e:?}");
        assert_eq!(e.los, 0.5);
        assert_eq!(e.interval, Interval::Floor);
    }

    #[test]
    fn small_and_lopsided_samples_get_finite_honest_intervals() {
        // Before: 1-1 gave `-0.00 +/- inf` over games and `+0.00 ± 0.00` as one split pair;
        // 2-8 gave `-240.82 +/- inf`; three split pairs `± 0.00`.
        let e = trinomial(1, 0, 1).unwrap();
        assert_eq!(e.to_string(), "0.00 +/- 392.52", "{e:?}");
        let pair = |counts: [u64; 5]| EloEstimate::from_counts(&ScoreCounts { counts }).unwrap();
        let one_split = pair([0, 0, 1, 0, 0]);
        assert_eq!(one_split.describe("±", true).unwrap(), "+0.00 ± 301.28");
        assert_eq!(one_split.interval, Interval::Floor);
        assert_eq!(
            one_split.describe_marked("±", true).unwrap(),
            "+0.00 ± 301.28†"
        );
        let three_split = pair([0, 0, 3, 0, 0]);
        assert!(three_split.margin95 > 50.0 && three_split.margin95 < one_split.margin95);
        let e = trinomial(2, 0, 8).unwrap();
        assert_eq!(e.to_string(), "-240.82 +/- 247.66");
        // cutechess: the normal interval reaches below a score of 0 and prints `nan`.
        assert_eq!(e.interval, Interval::Wilson);
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
