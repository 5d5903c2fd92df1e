//! Logistic Elo difference with its 95% margin and the likelihood of superiority (LOS).

use std::fmt;

use super::counts::ScoreCounts;
use super::math::{Z95, normal_cdf, score_to_elo};

/// An Elo difference estimated from results, from the first player's point of view.
///
/// `elo` is `+inf` when every point was scored and `-inf` when none was; `margin95` is `+inf`
/// when the 95% interval reaches a perfect or a zero score. Neither is ever NaN.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EloEstimate {
    /// Estimated logistic Elo difference.
    pub elo: f64,
    /// Half-width of the 95% confidence interval, in Elo.
    pub margin95: f64,
    /// Likelihood of superiority: the probability that the true difference is positive, 0..=1.
    pub los: f64,
}

impl EloEstimate {
    /// Estimates the Elo difference from counts of game (N = 3) or pair (N = 5) scores;
    /// `None` without samples.
    pub fn from_counts<const N: usize>(counts: &ScoreCounts<N>) -> Option<EloEstimate> {
        let moments = counts.moments()?;
        let standard_error = (moments.variance / counts.samples() as f64).sqrt();
        let score = moments.mean;
        let elo = score_to_elo(score);
        let upper = score_to_elo(score + Z95 * standard_error);
        let lower = score_to_elo(score - Z95 * standard_error);
        let margin95 = if upper.is_finite() && lower.is_finite() {
            (upper - lower) / 2.0
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
        Some(EloEstimate { elo, margin95, los })
    }

    /// The LOS in percent.
    pub fn los_percent(&self) -> f64 {
        self.los * 100.0
    }
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
        format!("{elo:.2}")
    }
}

/// Formats a margin with two decimals, writing an unbounded one as `inf`.
pub fn format_margin(margin: f64) -> String {
    if margin.is_finite() {
        format!("{margin:.2}")
    } else if margin == f64::INFINITY {
        "inf".to_string()
    } else {
        "n/a".to_string()
    }
}

impl fmt::Display for EloEstimate {
    /// `40.70 +/- 30.43`; infinities are written out.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} +/- {}",
            format_elo(self.elo),
            format_margin(self.margin95)
        )
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
        assert!((e.margin95 - 30.43).abs() < 0.01, "{e:?}");
        assert!((e.los_percent() - 99.60).abs() < 0.01, "{e:?}");
        assert_eq!(e.to_string(), "40.70 +/- 30.43");
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
        assert!((e.margin95 - 50.876).abs() < 0.001, "{e:?}");
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
        assert_eq!(e.to_string(), "+inf +/- inf");
        let e = trinomial(0, 0, 7).unwrap();
        assert_eq!(e.elo, f64::NEG_INFINITY);
        assert_eq!(e.los, 0.0);
        assert_eq!(e.to_string(), "-inf +/- inf");
        // One loss among many wins: finite estimate, unbounded upper end.
        let e = trinomial(30, 0, 1).unwrap();
        assert!(e.elo.is_finite() && e.elo > 400.0);
        assert_eq!(e.margin95, f64::INFINITY);
    }

    #[test]
    fn all_draws_are_even_with_no_spread() {
        let e = trinomial(0, 9, 0).unwrap();
        assert_eq!(e.elo, 0.0);
        assert_eq!(e.margin95, 0.0);
        assert_eq!(e.los, 0.5);
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
        assert_eq!(format_margin(f64::INFINITY), "inf");
    }
}
