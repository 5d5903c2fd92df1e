//! Numeric helpers: the error function, the normal distribution and Elo/score conversions.

/// The two-sided 95% quantile of the standard normal distribution.
pub const Z95: f64 = 1.959_963_984_540_054;

/// Normalized Elo per unit of t-value: 800 / ln 10.
pub const NELO_PER_T: f64 = 800.0 / std::f64::consts::LN_10;

/// Where the power series of `erf` hands over to the continued fraction of `erfc`.
const SERIES_LIMIT: f64 = 2.5;

/// The error function, accurate to about 1e-13 everywhere.
pub fn erf(x: f64) -> f64 {
    if x.is_nan() {
        return f64::NAN;
    }
    if x < 0.0 {
        return -erf(-x);
    }
    if x < SERIES_LIMIT {
        erf_series(x)
    } else {
        1.0 - erfc_continued_fraction(x)
    }
}

/// The complementary error function `1 - erf(x)`, keeping precision in the right tail.
pub fn erfc(x: f64) -> f64 {
    if x >= SERIES_LIMIT {
        erfc_continued_fraction(x)
    } else {
        1.0 - erf(x)
    }
}

/// The standard normal cumulative distribution function.
pub fn normal_cdf(z: f64) -> f64 {
    0.5 * erfc(-z / std::f64::consts::SQRT_2)
}

/// erf(x) = 2/sqrt(pi) * sum over n of (-1)^n x^(2n+1) / (n! (2n+1)), for 0 <= x < 2.5.
fn erf_series(x: f64) -> f64 {
    let x2 = x * x;
    let mut power_term = x; // (-1)^n x^(2n+1) / n!
    let mut sum = 0.0;
    for n in 0..200u32 {
        let contribution = power_term / f64::from(2 * n + 1);
        sum += contribution;
        if contribution.abs() <= 1e-17 * sum.abs() {
            break;
        }
        power_term *= -x2 / f64::from(n + 1);
    }
    sum * std::f64::consts::FRAC_2_SQRT_PI
}

/// erfc(x) = exp(-x^2)/sqrt(pi) / (x + (1/2)/(x + 1/(x + (3/2)/(x + ...)))), for x >= 2.5,
/// evaluated from the tail backwards.
fn erfc_continued_fraction(x: f64) -> f64 {
    let mut denominator = x;
    for k in (1..=80u32).rev() {
        denominator = x + f64::from(k) / 2.0 / denominator;
    }
    (-x * x).exp() / (std::f64::consts::PI.sqrt() * denominator)
}

/// The expected score of a player rated `elo` above the opponent (logistic model).
pub fn elo_to_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The logistic Elo difference for an expected score; 0 maps to -inf, 1 to +inf.
pub fn score_to_elo(score: f64) -> f64 {
    if score <= 0.0 {
        f64::NEG_INFINITY
    } else if score >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / score - 1.0).log10()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn erf_matches_tabulated_values() {
        let table = [
            (0.0, 0.0),
            (0.1, 0.112_462_916_018_284_9),
            (0.5, 0.520_499_877_813_046_5),
            (1.0, 0.842_700_792_949_714_9),
            (2.0, 0.995_322_265_018_952_7),
            (2.4, 0.999_311_486_103_354_9),
            (3.0, 0.999_977_909_503_001_4),
        ];
        for (x, expected) in table {
            assert!((erf(x) - expected).abs() < 1e-12, "erf({x}) = {}", erf(x));
            assert!((erf(-x) + expected).abs() < 1e-12, "erf(-{x})");
        }
    }

    #[test]
    fn erfc_keeps_precision_in_the_tail() {
        let table = [
            (2.5, 4.069_520_174_449_59e-4),
            (3.0, 2.209_049_699_858_544e-5),
            (5.0, 1.537_459_794_428_035e-12),
        ];
        for (x, expected) in table {
            let relative = (erfc(x) - expected).abs() / expected;
            assert!(relative < 1e-10, "erfc({x}) = {}", erfc(x));
        }
        // Both methods agree where they meet.
        let below = erf_series(SERIES_LIMIT);
        let above = 1.0 - erfc_continued_fraction(SERIES_LIMIT);
        assert!((below - above).abs() < 1e-12);
    }

    #[test]
    fn normal_cdf_is_symmetric_and_has_known_quantiles() {
        assert!((normal_cdf(0.0) - 0.5).abs() < 1e-15);
        assert!((normal_cdf(Z95) - 0.975).abs() < 1e-12);
        assert!((normal_cdf(-Z95) - 0.025).abs() < 1e-12);
        assert!((normal_cdf(1.0) + normal_cdf(-1.0) - 1.0).abs() < 1e-14);
        assert_eq!(normal_cdf(f64::INFINITY), 1.0);
        assert_eq!(normal_cdf(f64::NEG_INFINITY), 0.0);
    }

    #[test]
    fn elo_and_score_convert_both_ways() {
        assert!((score_to_elo(0.75) - 190.848_501_887_865).abs() < 1e-9);
        for elo in [-600.0, -35.5, 0.0, 2.0, 400.0] {
            assert!((score_to_elo(elo_to_score(elo)) - elo).abs() < 1e-9);
        }
        assert!((elo_to_score(400.0) - 10.0 / 11.0).abs() < 1e-15);
        assert_eq!(score_to_elo(1.0), f64::INFINITY);
        assert_eq!(score_to_elo(0.0), f64::NEG_INFINITY);
    }
}
