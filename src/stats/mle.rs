//! Generalized log-likelihood ratios for a multinomial score distribution.
//!
//! Under each hypothesis the distribution is replaced by its maximum-likelihood estimate
//! subject to the hypothesis: a given expected score (logistic Elo) or a given t-value
//! `(mean - 1/2) / sigma` (normalized Elo). Both estimates have the form
//! `p_i = phat_i / (1 + x * phi_i)` where `x` solves the secular equation
//! `sum phat_i * phi_i / (1 + x * phi_i) = 0` (M. Van den Bergh, "Comments on normalized
//! Elo" and "Support of the MLE for a multinomial distribution"; fishtest's LLRcalc).
//! Where no estimate exists (extreme hypotheses) the closed-form approximations are used.

use super::counts::ScoreCounts;

/// Bisection steps; the bracket shrinks below one ulp long before this.
const BISECTION_STEPS: usize = 1100;
/// Fixed-point iterations of the t-value estimate.
const T_VALUE_ITERATIONS: usize = 200;
/// Convergence threshold of the t-value estimate's probabilities.
const T_VALUE_TOLERANCE: f64 = 1e-13;

/// Solves `sum p_i * phi_i / (1 + x * phi_i) = 0` on the interval where every denominator is
/// positive. The left side falls from +inf to -inf there, so bisection always converges;
/// `None` when `phi` does not take both signs (there is no such interval).
fn secular_root(p: &[f64], phi: &[f64]) -> Option<f64> {
    let smallest = phi.iter().copied().fold(f64::INFINITY, f64::min);
    let largest = phi.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    if !(smallest < 0.0 && largest > 0.0) {
        return None;
    }
    let value = |x: f64| -> f64 {
        p.iter()
            .zip(phi)
            .map(|(&p_i, &phi_i)| p_i * phi_i / (1.0 + x * phi_i))
            .sum()
    };
    let (mut low, mut high) = (-1.0 / largest, -1.0 / smallest);
    for _ in 0..BISECTION_STEPS {
        let middle = 0.5 * (low + high);
        if middle <= low || middle >= high {
            break;
        }
        let v = value(middle);
        if v > 0.0 {
            low = middle;
        } else if v < 0.0 {
            high = middle;
        } else if v == 0.0 {
            return Some(middle);
        } else {
            return None;
        }
    }
    Some(0.5 * (low + high))
}

/// `phat_i / (1 + x * phi_i)`, or `None` unless every probability is positive and finite.
fn reweighted<const N: usize>(phat: &[f64; N], phi: &[f64; N], x: f64) -> Option<[f64; N]> {
    let p: [f64; N] = std::array::from_fn(|i| phat[i] / (1.0 + x * phi[i]));
    p.iter()
        .all(|&p_i| p_i.is_finite() && p_i > 0.0)
        .then_some(p)
}

/// Mean and standard deviation of the scores under probabilities `p`.
fn mean_and_sigma<const N: usize>(scores: &[f64; N], p: &[f64; N]) -> (f64, f64) {
    let mean: f64 = scores.iter().zip(p).map(|(a, p)| a * p).sum();
    let variance: f64 = scores
        .iter()
        .zip(p)
        .map(|(a, p)| p * (a - mean).powi(2))
        .sum();
    (mean, variance.sqrt())
}

/// The most likely distribution with expected score `s`.
fn mle_with_mean<const N: usize>(phat: &[f64; N], scores: &[f64; N], s: f64) -> Option<[f64; N]> {
    let phi: [f64; N] = std::array::from_fn(|i| scores[i] - s);
    let x = secular_root(phat, &phi)?;
    reweighted(phat, &phi, x)
}

/// The most likely distribution with t-value `(mean - reference) / sigma == t`, found by the
/// fixed-point iteration of Van den Bergh's section 4.1, starting from the uniform distribution.
fn mle_with_t_value<const N: usize>(
    phat: &[f64; N],
    scores: &[f64; N],
    reference: f64,
    t: f64,
) -> Option<[f64; N]> {
    let mut p = [1.0 / N as f64; N];
    for _ in 0..T_VALUE_ITERATIONS {
        let (mean, sigma) = mean_and_sigma(scores, &p);
        if sigma.is_nan() || sigma <= 0.0 {
            return None;
        }
        let phi: [f64; N] = std::array::from_fn(|i| {
            let z = (scores[i] - mean) / sigma;
            scores[i] - reference - t * sigma * (1.0 + z * z) / 2.0
        });
        let x = secular_root(phat, &phi)?;
        let next = reweighted(phat, &phi, x)?;
        let change = next
            .iter()
            .zip(&p)
            .map(|(a, b)| (a - b).abs())
            .fold(0.0, f64::max);
        p = next;
        if change < T_VALUE_TOLERANCE {
            break;
        }
    }
    Some(p)
}

/// `n * sum phat_i * ln(p1_i / p0_i)`.
fn log_likelihood_ratio<const N: usize>(
    n: f64,
    phat: &[f64; N],
    p0: &[f64; N],
    p1: &[f64; N],
) -> f64 {
    n * (0..N)
        .map(|i| phat[i] * (p1[i].ln() - p0[i].ln()))
        .sum::<f64>()
}

/// Generalized LLR of "expected score s1" against "expected score s0" (logistic model).
/// Zero without samples; always finite.
pub fn llr_expected_score<const N: usize>(counts: &ScoreCounts<N>, s0: f64, s1: f64) -> f64 {
    if counts.samples() == 0 {
        return 0.0;
    }
    let (n, phat) = counts.regularized();
    let scores = ScoreCounts::<N>::scores();
    match (
        mle_with_mean(&phat, &scores, s0),
        mle_with_mean(&phat, &scores, s1),
    ) {
        (Some(p0), Some(p1)) => log_likelihood_ratio(n, &phat, &p0, &p1),
        _ => {
            log::debug!("no exact LLR for scores {s0}, {s1}: using the approximation");
            llr_expected_score_approx(counts, s0, s1)
        }
    }
}

/// Generalized LLR of "t-value t1" against "t-value t0" for the per-sample score
/// (normalized model), with t measured against a score of 1/2. Zero without samples;
/// always finite.
pub fn llr_t_value<const N: usize>(counts: &ScoreCounts<N>, t0: f64, t1: f64) -> f64 {
    if counts.samples() == 0 {
        return 0.0;
    }
    let (n, phat) = counts.regularized();
    let scores = ScoreCounts::<N>::scores();
    match (
        mle_with_t_value(&phat, &scores, 0.5, t0),
        mle_with_t_value(&phat, &scores, 0.5, t1),
    ) {
        (Some(p0), Some(p1)) => log_likelihood_ratio(n, &phat, &p0, &p1),
        _ => {
            log::debug!("no exact LLR for t-values {t0}, {t1}: using the approximation");
            llr_t_value_approx(counts, t0, t1)
        }
    }
}

/// Approximate LLR for expected scores: `n/2 * ln(r0 / r1)` with `r_j` the empirical mean
/// squared distance of the scores from `s_j`.
pub fn llr_expected_score_approx<const N: usize>(counts: &ScoreCounts<N>, s0: f64, s1: f64) -> f64 {
    if counts.samples() == 0 {
        return 0.0;
    }
    let (n, phat) = counts.regularized();
    let scores = ScoreCounts::<N>::scores();
    let spread = |s: f64| -> f64 { (0..N).map(|i| phat[i] * (scores[i] - s).powi(2)).sum() };
    0.5 * n * (spread(s0) / spread(s1)).ln()
}

/// Approximate LLR for t-values: `n/2 * ln((1 + (t - t0)^2) / (1 + (t - t1)^2))` with `t` the
/// empirical t-value (Van den Bergh, section 4.2).
pub fn llr_t_value_approx<const N: usize>(counts: &ScoreCounts<N>, t0: f64, t1: f64) -> f64 {
    if counts.samples() == 0 {
        return 0.0;
    }
    let (n, phat) = counts.regularized();
    let (mean, sigma) = mean_and_sigma(&ScoreCounts::<N>::scores(), &phat);
    let t = (mean - 0.5) / sigma;
    0.5 * n * ((1.0 + (t - t0).powi(2)) / (1.0 + (t - t1).powi(2))).ln()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secular_root_solves_the_equation() {
        let p = [0.2, 0.3, 0.5];
        let phi = [-0.6, -0.1, 0.4];
        let x = secular_root(&p, &phi).unwrap();
        let residual: f64 = p.iter().zip(&phi).map(|(p, f)| p * f / (1.0 + x * f)).sum();
        assert!(residual.abs() < 1e-12, "{residual}");
        assert!(1.0 + x * 0.4 > 0.0 && 1.0 - x * 0.6 > 0.0);
        assert_eq!(secular_root(&p, &[0.1, 0.2, 0.3]), None);
    }

    #[test]
    fn mle_with_mean_has_that_mean() {
        let phat = [0.3, 0.2, 0.5];
        let scores = [0.0, 0.5, 1.0];
        let p = mle_with_mean(&phat, &scores, 0.45).unwrap();
        let (mean, _) = mean_and_sigma(&scores, &p);
        assert!((mean - 0.45).abs() < 1e-9);
        assert!((p.iter().sum::<f64>() - 1.0).abs() < 1e-9);
    }

    #[test]
    fn mle_with_t_value_has_that_t_value() {
        let phat = [0.1, 0.25, 0.3, 0.25, 0.1];
        let scores = ScoreCounts::<5>::scores();
        let p = mle_with_t_value(&phat, &scores, 0.5, 0.2).unwrap();
        let (mean, sigma) = mean_and_sigma(&scores, &p);
        assert!(((mean - 0.5) / sigma - 0.2).abs() < 1e-6);
        assert!((p.iter().sum::<f64>() - 1.0).abs() < 1e-9);
    }

    #[test]
    fn no_draw_logistic_llr_is_the_binomial_closed_form() {
        // Without draws the trinomial MLE is a Bernoulli with p(win) = s, so the LLR is
        // W ln(s1/s0) + L ln((1-s1)/(1-s0)); the regularized empty draw category moves it
        // only slightly.
        let (wins, losses) = (120.0, 80.0);
        let (s0, s1): (f64, f64) = (0.5, 0.52);
        let closed = wins * (s1 / s0).ln() + losses * ((1.0 - s1) / (1.0 - s0)).ln();
        let counts = ScoreCounts {
            counts: [80, 0, 120],
        };
        let llr = llr_expected_score(&counts, s0, s1);
        assert!((llr - closed).abs() < 0.001, "{llr} vs {closed}");
    }

    #[test]
    fn approximations_agree_with_the_exact_ratios_for_close_hypotheses() {
        let samples = [
            ScoreCounts {
                counts: [0, 0, 0, 0, 0],
            },
            ScoreCounts {
                counts: [365, 16618, 36229, 16974, 390],
            },
            ScoreCounts {
                counts: [310, 2, 610, 1, 330],
            },
        ];
        for counts in samples {
            let exact = llr_expected_score(&counts, 0.5, 0.505);
            let approx = llr_expected_score_approx(&counts, 0.5, 0.505);
            assert!((exact - approx).abs() < 0.02, "{exact} vs {approx}");
            let exact = llr_t_value(&counts, 0.0, 0.01);
            let approx = llr_t_value_approx(&counts, 0.0, 0.01);
            assert!((exact - approx).abs() < 0.02, "{exact} vs {approx}");
        }
    }

    #[test]
    fn extreme_hypotheses_fall_back_to_finite_values() {
        let counts = ScoreCounts { counts: [3, 0, 9] };
        // An expected score of exactly 1 has no interior estimate.
        let llr = llr_expected_score(&counts, 0.5, 1.0);
        assert!(llr.is_finite());
        let llr = llr_t_value(&counts, 0.0, 50.0);
        assert!(llr.is_finite());
    }
}
