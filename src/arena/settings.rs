//! What defines a tournament's schedule and games: engines, format, rounds, openings, seed,
//! board, shard and SPRT. Saved with the state and the JSON summary, so that `--resume`
//! and `merge` can check that results belong together.

use std::fmt;

use serde::{Deserialize, Serialize};

use super::opening_error::OpeningError;
use super::openings::{OpeningBook, OpeningSpec};
use super::schedule::{Format, ScheduledGame, Shard, schedule};
use crate::board::{Position, Size, SquareName, StartError};
use crate::client::EngineSpec;
use crate::stats::{Sprt, SprtError, SprtModel};

/// The error rate taken for `alpha` and `beta` when not given.
pub const DEFAULT_SPRT_ERROR_RATE: f64 = 0.05;

/// The parameters of an SPRT, checked when built: from `--sprt` words or `stats` flags.
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
    /// How the Elo bounds are read, saved as `normalized` or `logistic`.
    #[serde(with = "super::as_text")]
    pub model: SprtModel,
}

/// Why `--sprt` words do not describe an SPRT.
#[derive(Clone, PartialEq, Debug)]
pub enum SprtSettingsError {
    /// A word is not `KEY=VALUE`.
    NotKeyValue(String),
    /// A key is not one of `elo0`, `elo1`, `alpha`, `beta`, `model`.
    UnknownKey(String),
    /// A number is unreadable or not finite.
    NotANumber {
        /// The key.
        key: String,
        /// The text after `=`.
        value: String,
    },
    /// `elo0=` or `elo1=` is missing.
    Missing(&'static str),
    /// The values do not make a valid SPRT.
    Invalid(SprtError),
}

impl fmt::Display for SprtSettingsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        const KEYS: &str = "elo0, elo1, alpha, beta, model";
        match self {
            SprtSettingsError::NotKeyValue(word) => {
                write!(f, "{word}: expected KEY=VALUE with a key among {KEYS}")
            }
            SprtSettingsError::UnknownKey(key) => {
                write!(f, "{key}=: unknown key `{key}`; expected one of {KEYS}")
            }
            SprtSettingsError::NotANumber { key, value } => {
                write!(f, "{key}={value}: expected a number after {key}=")
            }
            SprtSettingsError::Missing(key) => {
                write!(f, "missing {key}=; expected elo0=E0 elo1=E1 alpha=A beta=B")
            }
            SprtSettingsError::Invalid(SprtError::UnknownModel(model)) => write!(
                f,
                "model={model}: {}",
                SprtError::UnknownModel(model.clone())
            ),
            SprtSettingsError::Invalid(e) => write!(f, "{e}"),
        }
    }
}

impl SprtSettingsError {
    /// Whether the message names the word at fault (`elo0=x: …`), rather than the SPRT
    /// as a whole (`missing elo1=…`), so that a flag before it is followed by a space
    /// rather than a colon.
    pub fn names_a_word(&self) -> bool {
        match self {
            SprtSettingsError::Missing(_) => false,
            SprtSettingsError::Invalid(SprtError::UnknownModel(_)) => true,
            SprtSettingsError::Invalid(_) => false,
            _ => true,
        }
    }
}

impl std::error::Error for SprtSettingsError {}

impl SprtSettings {
    /// Checked settings; a missing rate is [`DEFAULT_SPRT_ERROR_RATE`], a missing model
    /// normalized Elo.
    pub fn new(
        elo0: f64,
        elo1: f64,
        alpha: Option<f64>,
        beta: Option<f64>,
        model: Option<SprtModel>,
    ) -> Result<SprtSettings, SprtError> {
        let settings = SprtSettings {
            elo0,
            elo1,
            alpha: alpha.unwrap_or(DEFAULT_SPRT_ERROR_RATE),
            beta: beta.unwrap_or(DEFAULT_SPRT_ERROR_RATE),
            model: model.unwrap_or(SprtModel::Normalized),
        };
        settings.build()?;
        Ok(settings)
    }

    /// Reads the words after `--sprt`: `elo0=E0 elo1=E1 alpha=A beta=B [model=normalized|logistic]`.
    pub fn parse(words: &[String]) -> Result<SprtSettings, SprtSettingsError> {
        let (mut elo0, mut elo1, mut alpha, mut beta, mut model) = (None, None, None, None, None);
        for word in words {
            let (key, value) = word
                .split_once('=')
                .ok_or_else(|| SprtSettingsError::NotKeyValue(word.clone()))?;
            let number = || {
                value
                    .parse::<f64>()
                    .ok()
                    .filter(|x| x.is_finite())
                    .ok_or_else(|| SprtSettingsError::NotANumber {
                        key: key.to_string(),
                        value: value.to_string(),
                    })
            };
            match key {
                "elo0" => elo0 = Some(number()?),
                "elo1" => elo1 = Some(number()?),
                "alpha" => alpha = Some(number()?),
                "beta" => beta = Some(number()?),
                "model" => model = Some(value.parse().map_err(SprtSettingsError::Invalid)?),
                _ => return Err(SprtSettingsError::UnknownKey(key.to_string())),
            }
        }
        let elo0 = elo0.ok_or(SprtSettingsError::Missing("elo0"))?;
        let elo1 = elo1.ok_or(SprtSettingsError::Missing("elo1"))?;
        SprtSettings::new(elo0, elo1, alpha, beta, model).map_err(SprtSettingsError::Invalid)
    }

    /// The test itself; fails only for settings read from a damaged file.
    pub fn build(&self) -> Result<Sprt, SprtError> {
        Sprt::new(self.elo0, self.elo1, self.alpha, self.beta, self.model)
    }
}

/// Everything that fixes the schedule and the games of a tournament.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize)]
pub struct Settings {
    /// The engines, in the order given.
    pub engines: Vec<EngineSpec>,
    /// Round robin or gauntlet, saved as `round-robin` or `gauntlet`.
    #[serde(with = "super::as_text")]
    pub format: Format,
    /// Rounds: one game pair per pairing each.
    pub rounds: usize,
    /// Where openings come from.
    pub openings: OpeningSpec,
    /// Seed of random openings and random players.
    pub seed: u64,
    /// Board size, saved as `WxH`.
    #[serde(with = "super::as_text::size")]
    pub size: Size,
    /// Start square, when not the default; saved as its name.
    #[serde(with = "super::as_text::option")]
    pub start: Option<SquareName>,
    /// The share of the schedule played here, saved as `K/N`.
    #[serde(with = "super::as_text")]
    pub shard: Shard,
    /// The SPRT, if the match stops at its bounds.
    pub sprt: Option<SprtSettings>,
}

impl Settings {
    /// The start position for move-list openings.
    pub fn start_position(&self) -> Result<Position, StartError> {
        match self.start {
            Some(name) => {
                let square = self.size.resolve(name).map_err(StartError::Square)?;
                Position::start_at(self.size, square)
            }
            None => Ok(Position::start(self.size)),
        }
    }

    /// The games of this shard, in order.
    pub fn schedule(&self) -> Vec<ScheduledGame> {
        schedule(self.engines.len(), self.format, self.rounds, self.shard)
    }

    /// The opening book.
    pub fn book(&self) -> Result<OpeningBook, OpeningError> {
        let start = self.start_position().map_err(|error| OpeningError::Start {
            size: self.size,
            start: self.start,
            error,
        })?;
        OpeningBook::new(&self.openings, start, self.seed)
    }

    /// The SPRT, if any.
    pub fn sprt(&self) -> Result<Option<Sprt>, SprtError> {
        self.sprt.as_ref().map(SprtSettings::build).transpose()
    }

    /// How results made under `other` differ from the schedule of these, if they do.
    /// Engine commands and limits may differ (machines differ); names and the schedule may not.
    pub fn schedule_mismatch(&self, other: &Settings) -> Option<Mismatch> {
        let names = |s: &Settings| s.engines.iter().map(|e| e.name.clone()).collect::<Vec<_>>();
        let fields: [(&'static str, String, String); 7] = [
            ("engines", names(self).join(","), names(other).join(",")),
            ("format", self.format.to_string(), other.format.to_string()),
            ("rounds", self.rounds.to_string(), other.rounds.to_string()),
            (
                "openings",
                format!("{:?}", self.openings),
                format!("{:?}", other.openings),
            ),
            ("seed", self.seed.to_string(), other.seed.to_string()),
            ("size", self.size.to_string(), other.size.to_string()),
            (
                "start",
                format!("{:?}", self.start),
                format!("{:?}", other.start),
            ),
        ];
        fields
            .into_iter()
            .find(|(_, a, b)| a != b)
            .map(|(field, ours, theirs)| Mismatch::Field {
                field,
                ours,
                theirs,
            })
    }

    /// How a saved state differs from these settings so that it cannot be resumed, if it does.
    pub fn resume_mismatch(&self, saved: &Settings) -> Option<Mismatch> {
        if let Some(mismatch) = self.schedule_mismatch(saved) {
            return Some(mismatch);
        }
        if self.shard != saved.shard {
            return Some(Mismatch::Shard {
                ours: self.shard,
                theirs: saved.shard,
            });
        }
        if self.engines != saved.engines {
            return Some(Mismatch::Engines);
        }
        if self.sprt != saved.sprt {
            return Some(Mismatch::Sprt);
        }
        None
    }
}

/// How the settings of two runs differ.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Mismatch {
    /// A field of the schedule, such as the rounds.
    Field {
        /// Which field, plural: `rounds`, `seed`, ….
        field: &'static str,
        /// Its value here.
        ours: String,
        /// Its value there.
        theirs: String,
    },
    /// The shard.
    Shard {
        /// This run's shard.
        ours: Shard,
        /// The other run's shard.
        theirs: Shard,
    },
    /// The engines' commands, options or limits.
    Engines,
    /// The engines' options or limits (their commands may differ).
    EngineSettings,
    /// The SPRT settings.
    Sprt,
}

impl fmt::Display for Mismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Mismatch::Field {
                field,
                ours,
                theirs,
            } => write!(f, "{field} differ: {ours} against {theirs}"),
            Mismatch::Shard { ours, theirs } => {
                write!(f, "shard differs: {ours} against {theirs}")
            }
            Mismatch::Engines => f.write_str("engine commands, options or limits differ"),
            Mismatch::EngineSettings => f.write_str("engine options or limits differ"),
            Mismatch::Sprt => f.write_str("the SPRT settings differ"),
        }
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
        assert_eq!((s.elo1, s.beta, s.model), (5.0, 0.1, SprtModel::Logistic));
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
            let e = SprtSettings::parse(&words(bad)).unwrap_err().to_string();
            assert!(e.contains(needle), "{bad}: {e}");
        }
    }
}
