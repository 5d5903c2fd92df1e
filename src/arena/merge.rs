//! `merge`: combines the results of shards (JSON summaries or state files) of one schedule.

use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};

use super::schedule::Shard;
use super::settings::{Mismatch, Settings};
use super::state::read_state;
use super::summary::{SUMMARY_VERSION, Summary};
use crate::record::GameReport;

/// Why result files cannot be merged.
#[derive(Debug)]
pub enum MergeError {
    /// A file cannot be read.
    Unreadable {
        /// The file.
        path: PathBuf,
        /// Why.
        error: std::io::Error,
    },
    /// A JSON summary of another schema version.
    Version {
        /// The file.
        path: PathBuf,
        /// Its version, if it has one.
        version: Option<u64>,
    },
    /// A JSON file that is no valid summary.
    BadSummary {
        /// The file.
        path: PathBuf,
        /// Why.
        error: serde_json::Error,
    },
    /// A summary with a game numbered 0.
    GameNumberZero {
        /// The file.
        path: PathBuf,
    },
    /// A file that is neither a JSON summary nor a state file.
    Neither {
        /// The file.
        path: PathBuf,
    },
    /// No files.
    NoFiles,
    /// Two files of different schedules.
    Schedules {
        /// The first file.
        first: PathBuf,
        /// The file that differs.
        other: PathBuf,
        /// How.
        mismatch: Mismatch,
    },
    /// A game with different results in two files.
    GameDiffers {
        /// The game number, from 0.
        number: usize,
        /// The file it was first read from.
        first: PathBuf,
        /// The file with the other result.
        other: PathBuf,
    },
}

impl fmt::Display for MergeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MergeError::Unreadable { path, error } => write!(
                f,
                "{}: cannot read it ({error}); expected a JSON summary or a state file",
                path.display()
            ),
            MergeError::Version { path, version } => write!(
                f,
                "{}: a JSON summary of schema version {}; expected version {SUMMARY_VERSION} (from this slimetrail-arena)",
                path.display(),
                version.map_or("1 or none".to_string(), |v| v.to_string())
            ),
            MergeError::BadSummary { path, error } => write!(
                f,
                "{}: not a valid JSON summary ({error}); expected one written by the arena",
                path.display()
            ),
            MergeError::GameNumberZero { path } => write!(
                f,
                "{}: a game numbered 0; expected numbers from 1",
                path.display()
            ),
            MergeError::Neither { path } => write!(
                f,
                "{}: neither a JSON summary nor a state file of slimetrail-arena",
                path.display()
            ),
            MergeError::NoFiles => {
                f.write_str("merge: no files given; expected one or more result files")
            }
            MergeError::Schedules {
                first,
                other,
                mismatch,
            } => write!(
                f,
                "merge: {} and {} come from different schedules ({mismatch}); expected shards of one tournament",
                first.display(),
                other.display()
            ),
            MergeError::GameDiffers {
                number,
                first,
                other,
            } => write!(
                f,
                "merge: game {} differs between {} and {}; expected each game to be played once",
                number + 1,
                first.display(),
                other.display()
            ),
        }
    }
}

impl std::error::Error for MergeError {}

/// The settings and games of one result file: a JSON summary or a state file.
pub fn read_results(path: &Path) -> Result<(Settings, Vec<GameReport>), MergeError> {
    let text = std::fs::read_to_string(path).map_err(|error| MergeError::Unreadable {
        path: path.to_path_buf(),
        error,
    })?;
    if let Ok(value) = serde_json::from_str::<serde_json::Value>(&text) {
        if value.get("games_played").is_some() {
            let version = value.get("version").and_then(serde_json::Value::as_u64);
            if version != Some(u64::from(SUMMARY_VERSION)) {
                return Err(MergeError::Version {
                    path: path.to_path_buf(),
                    version,
                });
            }
            let summary: Summary =
                serde_json::from_value(value).map_err(|error| MergeError::BadSummary {
                    path: path.to_path_buf(),
                    error,
                })?;
            let games = summary
                .reports()
                .ok_or_else(|| MergeError::GameNumberZero {
                    path: path.to_path_buf(),
                })?;
            return Ok((summary.settings, games));
        }
    }
    read_state(path)
        .map(|(settings, games, _)| (settings, games))
        .map_err(|_| MergeError::Neither {
            path: path.to_path_buf(),
        })
}

/// Combines result files of the same schedule: the settings of the whole schedule and every game once.
pub fn merge(paths: &[PathBuf]) -> Result<(Settings, Vec<GameReport>), MergeError> {
    let Some(first) = paths.first() else {
        return Err(MergeError::NoFiles);
    };
    let (mut settings, _) = read_results(first)?;
    let mut games: BTreeMap<usize, (GameReport, &Path)> = BTreeMap::new();
    for path in paths {
        let (other, reports) = read_results(path)?;
        if let Some(mismatch) = settings.schedule_mismatch(&other) {
            return Err(MergeError::Schedules {
                first: first.clone(),
                other: path.clone(),
                mismatch,
            });
        }
        for report in reports {
            match games.get(&report.number) {
                Some((seen, from)) if *seen != report => {
                    return Err(MergeError::GameDiffers {
                        number: report.number,
                        first: from.to_path_buf(),
                        other: path.clone(),
                    });
                }
                Some(_) => {}
                None => {
                    games.insert(report.number, (report, path));
                }
            }
        }
    }
    settings.shard = Shard::WHOLE;
    Ok((settings, games.into_values().map(|(g, _)| g).collect()))
}
