//! The generalized sequential probability ratio test (GSPRT) of fishtest and fastchess.
//!
//! H0: the Elo difference is `elo0`; H1: it is `elo1`. After each game (or game pair) the
//! log-likelihood ratio is compared with the bounds `ln(beta / (1 - alpha))` and
//! `ln((1 - beta) / alpha)`: below the lower one H0 is accepted, above the upper one H1.

use std::fmt;
use std::str::FromStr;

use super::counts::ScoreCounts;
use super::math::{NELO_PER_T, elo_to_score};
use super::mle::{llr_expected_score, llr_t_value};
use super::tally::Tally;

/// How Elo bounds are turned into a statement about the score distribution.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SprtModel {
    /// Logistic Elo: the hypotheses fix the expected score.
    Logistic,
    /// Normalized Elo: the hypotheses fix the score's t-value (fishtest's default).
    Normalized,
}

impl FromStr for SprtModel {
    type Err = SprtError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        match text {
            "logistic" => Ok(SprtModel::Logistic),
            "normalized" => Ok(SprtModel::Normalized),
            _ => Err(SprtError::UnknownModel(text.to_string())),
        }
    }
}

impl fmt::Display for SprtModel {
    /// `logistic` or `normalized`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            SprtModel::Logistic => "logistic",
            SprtModel::Normalized => "normalized",
        })
    }
}

/// What the test says so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SprtDecision {
    /// Neither bound is crossed: play on.
    Continue,
    /// The LLR fell to the lower bound: the difference is `elo0` (the change fails).
    AcceptH0,
    /// The LLR rose to the upper bound: the difference is `elo1` (the change passes).
    AcceptH1,
}

impl SprtDecision {
    /// Whether the match should stop.
    pub fn is_final(self) -> bool {
        self != SprtDecision::Continue
    }
}

impl fmt::Display for SprtDecision {
    /// `continue`, `H0 accepted` or `H1 accepted`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            SprtDecision::Continue => "continue",
            SprtDecision::AcceptH0 => "H0 accepted",
            SprtDecision::AcceptH1 => "H1 accepted",
        })
    }
}

/// Why SPRT parameters were rejected.
#[derive(Clone, Debug, PartialEq)]
pub enum SprtError {
    /// An Elo bound is not a finite number.
    EloNotFinite {
        /// Which bound: `elo0` or `elo1`.
        name: &'static str,
        /// The value given.
        value: f64,
    },
    /// `elo0` is not below `elo1`.
    EloOrder {
        /// The lower bound given.
        elo0: f64,
        /// The upper bound given.
        elo1: f64,
    },
    /// An error rate lies outside (0, 1).
    RateOutOfRange {
        /// Which rate: `alpha` or `beta`.
        name: &'static str,
        /// The value given.
        value: f64,
    },
    /// `alpha + beta` is 1 or more, so the bounds would not enclose zero.
    RatesTooLarge {
        /// The type I error rate given.
        alpha: f64,
        /// The type II error rate given.
        beta: f64,
    },
    /// The model name is neither `logistic` nor `normalized`.
    UnknownModel(String),
}

impl fmt::Display for SprtError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SprtError::EloNotFinite { name, value } => {
                write!(f, "{name} is {value}: expected a finite Elo difference")
            }
            SprtError::EloOrder { elo0, elo1 } => write!(
                f,
                "elo0 {elo0} is not below elo1 {elo1}: expected elo0 < elo1"
            ),
            SprtError::RateOutOfRange { name, value } => write!(
                f,
                "{name} is {value}: expected an error rate strictly between 0 and 1"
            ),
            SprtError::RatesTooLarge { alpha, beta } => write!(
                f,
                "alpha {alpha} + beta {beta} is at least 1: expected a sum below 1"
            ),
            SprtError::UnknownModel(text) => write!(
                f,
                "SPRT model '{text}' is unknown: expected normalized or logistic"
            ),
        }
    }
}

impl std::error::Error for SprtError {}

impl SprtError {
    /// The parameters at fault, by their key names (`elo0`, `alpha`, `model`, ...).
    pub fn parameters(&self) -> &'static [&'static str] {
        match self {
            SprtError::EloNotFinite { name: "elo0", .. } => &["elo0"],
            SprtError::EloNotFinite { .. } => &["elo1"],
            SprtError::EloOrder { .. } => &["elo0", "elo1"],
            SprtError::RateOutOfRange { name: "alpha", .. } => &["alpha"],
            SprtError::RateOutOfRange { .. } => &["beta"],
            SprtError::RatesTooLarge { .. } => &["alpha", "beta"],
            SprtError::UnknownModel(_) => &["model"],
        }
    }
}

/// Validated SPRT parameters.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    elo0: f64,
    elo1: f64,
    alpha: f64,
    beta: f64,
    model: SprtModel,
}

impl Sprt {
    /// Checks and stores the parameters: finite `elo0 < elo1` (in the model's Elo),
    /// `alpha` and `beta` in (0, 1) with `alpha + beta < 1`.
    pub fn new(
        elo0: f64,
        elo1: f64,
        alpha: f64,
        beta: f64,
        model: SprtModel,
    ) -> Result<Sprt, SprtError> {
        for (name, value) in [("elo0", elo0), ("elo1", elo1)] {
            if !value.is_finite() {
                return Err(SprtError::EloNotFinite { name, value });
            }
        }
        if elo0 >= elo1 {
            return Err(SprtError::EloOrder { elo0, elo1 });
        }
        for (name, value) in [("alpha", alpha), ("beta", beta)] {
            if !(value > 0.0 && value < 1.0) {
                return Err(SprtError::RateOutOfRange { name, value });
            }
        }
        if alpha + beta >= 1.0 {
            return Err(SprtError::RatesTooLarge { alpha, beta });
        }
        Ok(Sprt {
            elo0,
            elo1,
            alpha,
            beta,
            model,
        })
    }

    /// The (lower, upper) LLR bounds: `ln(beta / (1 - alpha))` and `ln((1 - beta) / alpha)`.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The LLR of a tally: pentanomial when it holds game pairs, trinomial otherwise.
    pub fn llr(&self, tally: &Tally) -> f64 {
        if tally.pairs() > 0 {
            self.llr_pentanomial(tally)
        } else {
            self.llr_trinomial(tally)
        }
    }

    /// The LLR over single games (W/D/L counts).
    pub fn llr_trinomial(&self, tally: &Tally) -> f64 {
        self.llr_of(&tally.trinomial())
    }

    /// The LLR over game pairs (pentanomial counts).
    pub fn llr_pentanomial(&self, tally: &Tally) -> f64 {
        self.llr_of(&tally.pentanomial())
    }

    /// The LLR for game (N = 3) or pair (N = 5) counts. Zero without samples; always finite.
    pub fn llr_of<const N: usize>(&self, counts: &ScoreCounts<N>) -> f64 {
        match self.model {
            SprtModel::Logistic => {
                llr_expected_score(counts, elo_to_score(self.elo0), elo_to_score(self.elo1))
            }
            SprtModel::Normalized => {
                // Normalized Elo is per game; a pair's t-value is sqrt(2) times a game's.
                let scale = (ScoreCounts::<N>::GAMES_PER_SAMPLE as f64).sqrt() / NELO_PER_T;
                llr_t_value(counts, self.elo0 * scale, self.elo1 * scale)
            }
        }
    }

    /// The decision for an LLR value.
    pub fn decide(&self, llr: f64) -> SprtDecision {
        let (lower, upper) = self.bounds();
        if llr >= upper {
            SprtDecision::AcceptH1
        } else if llr <= lower {
            SprtDecision::AcceptH0
        } else {
            SprtDecision::Continue
        }
    }

    /// The decision for a tally (see [`Sprt::llr`]).
    pub fn decision(&self, tally: &Tally) -> SprtDecision {
        self.decide(self.llr(tally))
    }
}

impl fmt::Display for Sprt {
    /// `elo0=0 elo1=2 alpha=0.05 beta=0.05 model=normalized`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "elo0={} elo1={} alpha={} beta={} model={}",
            self.elo0, self.elo1, self.alpha, self.beta, self.model
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::GameResult::{Loss, Win};

    fn sprt(elo0: f64, elo1: f64, model: SprtModel) -> Sprt {
        Sprt::new(elo0, elo1, 0.05, 0.05, model).unwrap()
    }

    fn penta(counts: [u64; 5]) -> Tally {
        Tally {
            penta: counts,
            ..Tally::default()
        }
    }

    #[test]
    fn reference_normalized_trinomial_llr() {
        let tally = Tally::from_wdl(36433, 68692, 36027);
        let llr = sprt(0.0, 2.0, SprtModel::Normalized).llr(&tally);
        assert!((llr - 0.92).abs() < 0.01, "{llr}");
    }

    #[test]
    fn reference_normalized_pentanomial_llr() {
        let tally = penta([365, 16618, 36229, 16974, 390]);
        let llr = sprt(0.0, 2.0, SprtModel::Normalized).llr(&tally);
        assert!((llr - 2.25).abs() < 0.01, "{llr}");
    }

    #[test]
    fn logistic_llrs_match_independent_computations() {
        // Reference values from a separate Python implementation of fishtest's LLRcalc.
        let cases: [(Tally, f64, f64, f64); 5] = [
            (Tally::from_wdl(65388, 56553, 65804), -3.0, 1.0, 2.0490),
            (
                penta([10789, 19328, 33806, 19402, 10543]),
                -3.0,
                1.0,
                2.1311,
            ),
            (penta([39, 2226, 31451, 2412, 40]), 0.2, 0.9, 2.1625),
            (Tally::from_wdl(136, 111, 96), 0.0, 10.0, 1.4937),
            (Tally::from_wdl(36433, 68692, 36027), 0.0, 2.0, -0.0030),
        ];
        for (tally, elo0, elo1, expected) in cases {
            let llr = sprt(elo0, elo1, SprtModel::Logistic).llr(&tally);
            assert!(
                (llr - expected).abs() < 0.001,
                "{tally:?}: {llr} vs {expected}"
            );
        }
    }

    #[test]
    fn normalized_llrs_match_independent_computations() {
        let cases: [(Tally, f64, f64, f64); 2] = [
            (penta([39, 2226, 31451, 2412, 40]), 0.764, 3.439, 2.1629),
            (Tally::from_wdl(136, 111, 96), 0.0, 10.0, 1.2580),
        ];
        for (tally, elo0, elo1, expected) in cases {
            let llr = sprt(elo0, elo1, SprtModel::Normalized).llr(&tally);
            assert!(
                (llr - expected).abs() < 0.001,
                "{tally:?}: {llr} vs {expected}"
            );
        }
    }

    #[test]
    fn bounds_follow_alpha_and_beta() {
        let (lower, upper) = sprt(0.0, 5.0, SprtModel::Normalized).bounds();
        assert!((lower + 2.944_438_979).abs() < 1e-8);
        assert!((upper - 2.944_438_979).abs() < 1e-8);
        let (lower, upper) = Sprt::new(0.0, 5.0, 0.1, 0.01, SprtModel::Logistic)
            .unwrap()
            .bounds();
        assert!((lower - (0.01f64 / 0.9).ln()).abs() < 1e-12);
        assert!((upper - (0.99f64 / 0.1).ln()).abs() < 1e-12);
    }

    #[test]
    fn decisions_at_and_between_the_bounds() {
        let test = sprt(0.0, 5.0, SprtModel::Normalized);
        let (lower, upper) = test.bounds();
        assert_eq!(test.decide(0.0), SprtDecision::Continue);
        assert_eq!(test.decide(upper), SprtDecision::AcceptH1);
        assert_eq!(test.decide(upper + 1.0), SprtDecision::AcceptH1);
        assert_eq!(test.decide(lower), SprtDecision::AcceptH0);
        assert_eq!(test.decide(lower - 1.0), SprtDecision::AcceptH0);
        assert!(!SprtDecision::Continue.is_final());
        assert!(SprtDecision::AcceptH0.is_final());
    }

    #[test]
    fn a_clearly_stronger_player_passes_and_a_weaker_one_fails() {
        for model in [SprtModel::Logistic, SprtModel::Normalized] {
            let test = sprt(0.0, 10.0, model);
            let mut strong = Tally::new();
            let mut weak = Tally::new();
            for i in 0..2000 {
                // A 60 % pair score for one, 40 % for the other.
                let (a, b) = if i % 5 < 3 { (Win, Win) } else { (Loss, Loss) };
                strong.add_pair(a, b);
                weak.add_pair(a.reversed(), b.reversed());
            }
            assert_eq!(test.decision(&strong), SprtDecision::AcceptH1, "{model}");
            assert_eq!(test.decision(&weak), SprtDecision::AcceptH0, "{model}");
        }
    }

    #[test]
    fn more_wins_raise_the_llr() {
        for model in [SprtModel::Logistic, SprtModel::Normalized] {
            let test = sprt(0.0, 10.0, model);
            let mut previous = f64::NEG_INFINITY;
            for wins in (0..=400).step_by(20) {
                let llr = test.llr(&Tally::from_wdl(wins, 50, 200));
                assert!(llr.is_finite() && llr > previous, "{model} wins {wins}");
                previous = llr;
            }
            let mut previous = f64::NEG_INFINITY;
            for ww in (0..=200).step_by(10) {
                let llr = test.llr(&penta([100, 0, 300, 0, ww]));
                assert!(llr.is_finite() && llr > previous, "{model} WW {ww}");
                previous = llr;
            }
        }
    }

    #[test]
    fn edge_cases_stay_finite() {
        for model in [SprtModel::Logistic, SprtModel::Normalized] {
            let test = sprt(0.0, 10.0, model);
            assert_eq!(test.llr(&Tally::new()), 0.0);
            assert_eq!(test.decision(&Tally::new()), SprtDecision::Continue);
            let all_wins = test.llr(&Tally::from_wdl(20, 0, 0));
            let all_losses = test.llr(&Tally::from_wdl(0, 0, 20));
            let all_draws = test.llr(&Tally::from_wdl(0, 20, 0));
            let pairs_won = test.llr(&penta([0, 0, 0, 0, 10]));
            for llr in [all_wins, all_losses, all_draws, pairs_won] {
                assert!(llr.is_finite(), "{model}: {llr}");
            }
            assert!(all_wins > 0.5 && all_losses < -0.5, "{model}");
            assert!(pairs_won > 0.0, "{model}");
            // Independent values (fishtest's regularized computation) for all wins/losses.
            let (wins_ref, losses_ref) = match model {
                SprtModel::Logistic => (0.5674, -0.5839),
                SprtModel::Normalized => (0.5673, -0.5838),
            };
            assert!((all_wins - wins_ref).abs() < 0.001, "{model}: {all_wins}");
            assert!(
                (all_losses - losses_ref).abs() < 0.001,
                "{model}: {all_losses}"
            );
        }
    }

    #[test]
    fn extreme_elo_bounds_still_give_finite_llrs() {
        let tally = Tally::from_wdl(30, 5, 10);
        for model in [SprtModel::Logistic, SprtModel::Normalized] {
            let llr = sprt(-5000.0, 5000.0, model).llr(&tally);
            assert!(llr.is_finite(), "{model}: {llr}");
        }
    }

    #[test]
    fn invalid_parameters_are_rejected_with_reasons() {
        let model = SprtModel::Normalized;
        let error = Sprt::new(2.0, 0.0, 0.05, 0.05, model).unwrap_err();
        assert!(
            error.to_string().contains("expected elo0 < elo1"),
            "{error}"
        );
        let error = Sprt::new(0.0, f64::NAN, 0.05, 0.05, model).unwrap_err();
        assert!(error.to_string().contains("elo1 is NaN"), "{error}");
        let error = Sprt::new(0.0, 2.0, 0.0, 0.05, model).unwrap_err();
        assert!(error.to_string().starts_with("alpha is 0"), "{error}");
        let error = Sprt::new(0.0, 2.0, 0.05, 1.0, model).unwrap_err();
        assert!(error.to_string().starts_with("beta is 1"), "{error}");
        let error = Sprt::new(0.0, 2.0, 0.6, 0.5, model).unwrap_err();
        assert!(
            error.to_string().contains("expected a sum below 1"),
            "{error}"
        );
        let error = "bayes".parse::<SprtModel>().unwrap_err();
        assert_eq!(
            error.to_string(),
            "SPRT model 'bayes' is unknown: expected normalized or logistic"
        );
        assert_eq!("logistic".parse::<SprtModel>(), Ok(SprtModel::Logistic));
        assert_eq!(
            sprt(0.0, 2.0, model).to_string(),
            "elo0=0 elo1=2 alpha=0.05 beta=0.05 model=normalized"
        );
    }
}
