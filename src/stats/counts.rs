//! Outcome counts over evenly spaced scores: the common shape of trinomial (per game)
//! and pentanomial (per game pair) results.

/// Regularization that replaces an empty category in likelihood computations (as fishtest does).
const EMPTY_CATEGORY_WEIGHT: f64 = 1e-3;

/// How often each score `i / (N - 1)` occurred, from the lowest score to the highest.
///
/// `N = 3` counts games (loss, draw, win); `N = 5` counts game pairs (LL, LD, DD+WL, WD, WW),
/// whose score is the mean of the two games.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ScoreCounts<const N: usize> {
    /// Occurrences of each score, lowest first.
    pub counts: [u64; N],
}

/// Mean and variance of one sample's score.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Moments {
    /// Mean score of a sample, in [0, 1].
    pub mean: f64,
    /// Variance of a sample's score.
    pub variance: f64,
}

impl<const N: usize> ScoreCounts<N> {
    /// Games in one sample: 1 for trinomial counts, 2 for pentanomial ones.
    pub const GAMES_PER_SAMPLE: usize = (N - 1) / 2;

    /// The score of category `i`.
    pub fn score(i: usize) -> f64 {
        i as f64 / (N - 1) as f64
    }

    /// The scores of all categories, lowest first.
    pub fn scores() -> [f64; N] {
        std::array::from_fn(Self::score)
    }

    /// Number of samples (games or game pairs).
    pub fn samples(&self) -> u64 {
        self.counts.iter().sum()
    }

    /// Empirical mean and variance of a sample's score; `None` without samples.
    pub fn moments(&self) -> Option<Moments> {
        let samples = self.samples();
        if samples == 0 {
            return None;
        }
        let n = samples as f64;
        let mean = (0..N)
            .map(|i| self.counts[i] as f64 * Self::score(i))
            .sum::<f64>()
            / n;
        let variance = (0..N)
            .map(|i| self.counts[i] as f64 * (Self::score(i) - mean).powi(2))
            .sum::<f64>()
            / n;
        Some(Moments { mean, variance })
    }

    /// The sample size and empirical probabilities with empty categories given a small weight,
    /// so that every category has a positive probability.
    pub fn regularized(&self) -> (f64, [f64; N]) {
        let weights: [f64; N] = std::array::from_fn(|i| {
            if self.counts[i] == 0 {
                EMPTY_CATEGORY_WEIGHT
            } else {
                self.counts[i] as f64
            }
        });
        let total: f64 = weights.iter().sum();
        (total, weights.map(|w| w / total))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trinomial_moments_match_hand_computation() {
        // 3 losses, 2 draws, 5 wins: mean 0.6, variance (3*0.36 + 2*0.01 + 5*0.16) / 10.
        let counts = ScoreCounts { counts: [3, 2, 5] };
        let moments = counts.moments().unwrap();
        assert!((moments.mean - 0.6).abs() < 1e-15);
        assert!((moments.variance - 0.19).abs() < 1e-15);
        assert_eq!(ScoreCounts::<3>::GAMES_PER_SAMPLE, 1);
        assert_eq!(ScoreCounts::<3>::scores(), [0.0, 0.5, 1.0]);
    }

    #[test]
    fn pentanomial_moments_use_quarter_steps() {
        let counts = ScoreCounts {
            counts: [0, 1, 0, 1, 0],
        };
        let moments = counts.moments().unwrap();
        assert!((moments.mean - 0.5).abs() < 1e-15);
        assert!((moments.variance - 0.0625).abs() < 1e-15);
        assert_eq!(ScoreCounts::<5>::GAMES_PER_SAMPLE, 2);
        assert_eq!(ScoreCounts::<5>::scores(), [0.0, 0.25, 0.5, 0.75, 1.0]);
    }

    #[test]
    fn no_samples_have_no_moments() {
        assert_eq!(ScoreCounts { counts: [0; 3] }.moments(), None);
    }

    #[test]
    fn regularization_fills_empty_categories_only() {
        let (total, p) = ScoreCounts { counts: [0, 0, 4] }.regularized();
        assert!((total - 4.002).abs() < 1e-12);
        assert!((p.iter().sum::<f64>() - 1.0).abs() < 1e-15);
        assert!(p[0] > 0.0 && p[0] < 1e-3 && p[0] == p[1]);
        assert!((p[2] - 4.0 / 4.002).abs() < 1e-15);
    }
}
