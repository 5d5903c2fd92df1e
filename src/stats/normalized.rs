//! Normalized Elo: the score's distance from 50% in units of the per-game standard deviation,
//! scaled so that small differences read like logistic Elo (see fishtest's "nElo").

use std::fmt;

use super::counts::ScoreCounts;
use super::elo::{format_elo, format_margin};
use super::math::{NELO_PER_T, Z95};

/// A normalized Elo difference with its 95% margin.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct NormalizedElo {
    /// Estimated normalized Elo difference (finite).
    pub nelo: f64,
    /// Half-width of the 95% confidence interval, in normalized Elo.
    pub margin95: f64,
}

impl NormalizedElo {
    /// Estimates normalized Elo from game (N = 3) or pair (N = 5) counts; `None` without samples
    /// or when every sample scored the same (the spread is then zero and the figure undefined).
    pub fn from_counts<const N: usize>(counts: &ScoreCounts<N>) -> Option<NormalizedElo> {
        let moments = counts.moments()?;
        if moments.variance <= 0.0 {
            return None;
        }
        // A pair's variance is half a game's when the two games are independent, so the
        // per-game deviation of pentanomial data is sqrt(2 * pair variance).
        let games_per_sample = ScoreCounts::<N>::GAMES_PER_SAMPLE as f64;
        let deviation_per_game = (games_per_sample * moments.variance).sqrt();
        let standard_error = (moments.variance / counts.samples() as f64).sqrt();
        Some(NormalizedElo {
            nelo: (moments.mean - 0.5) / deviation_per_game * NELO_PER_T,
            margin95: Z95 * standard_error / deviation_per_game * NELO_PER_T,
        })
    }
}

impl fmt::Display for NormalizedElo {
    /// `-20.76 +/- 40.13`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} +/- {}",
            format_elo(self.nelo),
            format_margin(self.margin95)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn trinomial(wins: u64, draws: u64, losses: u64) -> Option<NormalizedElo> {
        NormalizedElo::from_counts(&ScoreCounts {
            counts: [losses, draws, wins],
        })
    }

    #[test]
    fn reference_normalized_elo() {
        // fastchess reference: W=76 L=89 D=123 -> -20.76 +/- 40.13.
        let n = trinomial(76, 123, 89).unwrap();
        assert!((n.nelo + 20.76).abs() < 0.01, "{n:?}");
        assert!((n.margin95 - 40.13).abs() < 0.01, "{n:?}");
        assert_eq!(n.to_string(), "-20.76 +/- 40.13");
    }

    #[test]
    fn trinomial_margin_depends_only_on_the_number_of_games() {
        // margin = 1.96 / sqrt(games) * 800 / ln 10, whatever the results.
        for (w, d, l) in [(10, 0, 90), (50, 0, 50), (30, 40, 30)] {
            let n = trinomial(w, d, l).unwrap();
            assert!((n.margin95 - Z95 / 10.0 * NELO_PER_T).abs() < 1e-9);
        }
    }

    #[test]
    fn pentanomial_normalized_elo_matches_independent_computation() {
        let n = NormalizedElo::from_counts(&ScoreCounts {
            counts: [365, 16618, 36229, 16974, 390],
        })
        .unwrap();
        assert!((n.nelo - 1.9623).abs() < 0.001, "{n:?}");
        assert!((n.margin95 - 1.8125).abs() < 0.001, "{n:?}");
        let n = NormalizedElo::from_counts(&ScoreCounts {
            counts: [30, 0, 45, 0, 25],
        })
        .unwrap();
        assert!((n.nelo + 16.601).abs() < 0.001, "{n:?}");
        assert!((n.margin95 - 48.151).abs() < 0.001, "{n:?}");
    }

    #[test]
    fn undefined_without_spread() {
        assert_eq!(trinomial(0, 0, 0), None);
        assert_eq!(trinomial(5, 0, 0), None);
        assert_eq!(trinomial(0, 5, 0), None);
        assert_eq!(
            NormalizedElo::from_counts(&ScoreCounts {
                counts: [0, 0, 8, 0, 0]
            }),
            None
        );
    }

    #[test]
    fn more_wins_mean_higher_normalized_elo() {
        let mut previous = f64::NEG_INFINITY;
        for wins in 0..50 {
            let n = trinomial(wins, 10, 25).unwrap();
            assert!(n.nelo.is_finite() && n.nelo > previous, "wins {wins}");
            previous = n.nelo;
        }
    }
}
