//! What defines a tournament's schedule and games: engines, format, rounds, openings, seed,
//! board, shard and SPRT. Saved with the state and the JSON summary, so that `--resume`
//! and `merge` can check that results belong together.

use serde::{Deserialize, Serialize};

use super::config::EngineSpec;
use super::openings::{OpeningBook, OpeningSpec};
use super::schedule::{Format, ScheduledGame, Shard, schedule};
use super::stats::{Sprt, SprtModel};
use crate::board::{Position, Size};

/// The parameters of `--sprt`.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize)]
pub struct SprtSettings {
    /// Elo difference under H0.
    pub elo0: f64,
    /// Elo difference under H1.
    pub elo1: f64,
    /// Type I error rate.
    pub alpha: f64,
    /// Type II error rate.
    pub beta: f64,
    /// `normalized` or `logistic`.
    pub model: String,
}

impl SprtSettings {
    /// Reads the words after `--sprt`: `elo0=E0 elo1=E1 alpha=A beta=B [model=normalized|logistic]`.
    pub fn parse(words: &[String]) -> Result<SprtSettings, String> {
        let mut out = SprtSettings {
            elo0: f64::NAN,
            elo1: f64::NAN,
            alpha: 0.05,
            beta: 0.05,
            model: "normalized".to_string(),
        };
        for word in words {
            let (key, value) = word.split_once('=').ok_or_else(|| {
                format!("--sprt {word}: expected KEY=VALUE with a key among elo0, elo1, alpha, beta, model")
            })?;
            let number = || {
                value
                    .parse::<f64>()
                    .ok()
                    .filter(|x| x.is_finite())
                    .ok_or_else(|| format!("--sprt {word}: expected a number after {key}="))
            };
            match key {
                "elo0" => out.elo0 = number()?,
                "elo1" => out.elo1 = number()?,
                "alpha" => out.alpha = number()?,
                "beta" => out.beta = number()?,
                "model" => out.model = value.to_string(),
                _ => {
                    return Err(format!(
                        "--sprt {word}: unknown key `{key}`; expected one of elo0, elo1, alpha, beta, model"
                    ));
                }
            }
        }
        for (key, value) in [("elo0", out.elo0), ("elo1", out.elo1)] {
            if value.is_nan() {
                return Err(format!(
                    "--sprt: missing {key}=; expected elo0=E0 elo1=E1 alpha=A beta=B"
                ));
            }
        }
        out.build()?;
        Ok(out)
    }

    /// The test itself.
    pub fn build(&self) -> Result<Sprt, String> {
        let model: SprtModel = self
            .model
            .parse()
            .map_err(|e| format!("--sprt model={}: {e}", self.model))?;
        Sprt::new(self.elo0, self.elo1, self.alpha, self.beta, model)
            .map_err(|e| format!("--sprt: {e}"))
    }
}

/// Everything that fixes the schedule and the games of a tournament.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize)]
pub struct Settings {
    /// The engines, in the order given.
    pub engines: Vec<EngineSpec>,
    /// Round robin or gauntlet.
    pub format: Format,
    /// Rounds: one game pair per pairing each.
    pub rounds: usize,
    /// Where openings come from.
    pub openings: OpeningSpec,
    /// Seed of random openings and random players.
    pub seed: u64,
    /// Board size, `WxH`.
    pub size: String,
    /// Start square, when not the default.
    pub start: Option<String>,
    /// The share of the schedule played here.
    pub shard: Shard,
    /// The SPRT, if the match stops at its bounds.
    pub sprt: Option<SprtSettings>,
}

impl Settings {
    /// The start position for move-list openings.
    pub fn start_position(&self) -> Result<Position, String> {
        let size: Size = self
            .size
            .parse()
            .map_err(|e| format!("--size {}: {e}", self.size))?;
        match &self.start {
            Some(start) => {
                Position::start_named(size, start).map_err(|e| format!("--start {start}: {e}"))
            }
            None => Ok(Position::start(size)),
        }
    }

    /// The games of this shard, in order.
    pub fn schedule(&self) -> Vec<ScheduledGame> {
        schedule(self.engines.len(), self.format, self.rounds, self.shard)
    }

    /// The opening book.
    pub fn book(&self) -> Result<OpeningBook, String> {
        OpeningBook::new(&self.openings, self.start_position()?, self.seed)
    }

    /// The SPRT, if any.
    pub fn sprt(&self) -> Result<Option<Sprt>, String> {
        self.sprt.as_ref().map(SprtSettings::build).transpose()
    }

    /// Why results made under `other` do not belong to the same schedule as these, if they don't.
    /// Engine commands and limits may differ (machines differ); names and the schedule may not.
    pub fn schedule_mismatch(&self, other: &Settings) -> Option<String> {
        let names = |s: &Settings| s.engines.iter().map(|e| e.name.clone()).collect::<Vec<_>>();
        let fields: [(&str, String, String); 7] = [
            ("engines", names(self).join(","), names(other).join(",")),
            ("format", self.format.to_string(), other.format.to_string()),
            ("rounds", self.rounds.to_string(), other.rounds.to_string()),
            (
                "openings",
                format!("{:?}", self.openings),
                format!("{:?}", other.openings),
            ),
            ("seed", self.seed.to_string(), other.seed.to_string()),
            ("size", self.size.clone(), other.size.clone()),
            (
                "start",
                format!("{:?}", self.start),
                format!("{:?}", other.start),
            ),
        ];
        fields
            .into_iter()
            .find(|(_, a, b)| a != b)
            .map(|(field, a, b)| format!("{field} differ: {a} against {b}"))
    }

    /// Why a saved state cannot be resumed with these settings, if it can't.
    pub fn resume_mismatch(&self, saved: &Settings) -> Option<String> {
        if let Some(why) = self.schedule_mismatch(saved) {
            return Some(why);
        }
        if self.shard != saved.shard {
            return Some(format!(
                "shard differs: {} against {}",
                self.shard, saved.shard
            ));
        }
        if self.engines != saved.engines {
            return Some("engine commands, options or limits differ".to_string());
        }
        if self.sprt != saved.sprt {
            return Some("--sprt differs".to_string());
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(text: &str) -> Vec<String> {
        text.split_whitespace().map(str::to_string).collect()
    }

    #[test]
    fn sprt_arguments_are_checked() {
        let s = SprtSettings::parse(&words("elo0=0 elo1=5 alpha=0.05 beta=0.1 model=logistic"))
            .unwrap();
        assert_eq!((s.elo1, s.beta, s.model.as_str()), (5.0, 0.1, "logistic"));
        let sprt = s.build().unwrap();
        let (lower, upper) = sprt.bounds();
        assert!((lower - (0.1f64 / 0.95).ln()).abs() < 1e-12);
        assert!((upper - (0.9f64 / 0.05).ln()).abs() < 1e-12);
        for (bad, needle) in [
            ("elo0=0", "missing elo1"),
            ("elo0=0 elo1=x", "expected a number"),
            ("elo0=5 elo1=0", "elo"),
            ("elo0=0 elo1=5 alpha=2", "alpha"),
            ("elo0=0 elo1=5 model=bayes", "model=bayes"),
            ("elo0=0 elo1=5 gamma=1", "unknown key `gamma`"),
        ] {
            let e = SprtSettings::parse(&words(bad)).unwrap_err();
            assert!(e.starts_with("--sprt") && e.contains(needle), "{bad}: {e}");
        }
    }
}
