//! `merge`: combines the results of shards (JSON summaries or state files) of one schedule.

use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};

use super::replay::{ResultProblem, check_result};
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
    /// Two files of different tournaments (schedules, engines or SPRT).
    Schedules {
        /// The first file.
        first: PathBuf,
        /// The file that differs.
        other: PathBuf,
        /// How.
        mismatch: Mismatch,
    },
    /// The same file given twice.
    GivenTwice {
        /// The file.
        path: PathBuf,
    },
    /// Two files of the same shard (copies, or a shard's summary and its state file).
    SameShard {
        /// The file read first.
        first: PathBuf,
        /// The other file.
        other: PathBuf,
        /// The shard both hold.
        shard: Shard,
    },
    /// Two files of different splits of the schedule, whose games may overlap.
    Splits {
        /// The file read first.
        first: PathBuf,
        /// Its shard.
        ours: Shard,
        /// The other file.
        other: PathBuf,
        /// Its shard.
        theirs: Shard,
    },
    /// A game in two files.
    Overlap {
        /// The game number, from 0.
        number: usize,
        /// The file it was first read from.
        first: PathBuf,
        /// The other file.
        other: PathBuf,
    },
    /// A game whose stored result its moves contradict.
    Result {
        /// The file.
        path: PathBuf,
        /// The game number, from 0.
        number: usize,
        /// How they disagree.
        problem: ResultProblem,
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
                "merge: {} and {} come from different tournaments ({mismatch}); expected shards of one tournament",
                first.display(),
                other.display()
            ),
            MergeError::GivenTwice { path } => write!(
                f,
                "merge: {} is given twice; expected each shard once",
                path.display()
            ),
            MergeError::SameShard {
                first,
                other,
                shard,
            } => write!(
                f,
                "merge: {} and {} both hold shard {shard}; expected each shard once (a copy, \
                 or a shard's JSON summary with its state file, counts its games twice)",
                first.display(),
                other.display()
            ),
            MergeError::Splits {
                first,
                ours,
                other,
                theirs,
            } => write!(
                f,
                "merge: {} holds shard {ours} and {} shard {theirs}, whose games overlap; \
                 expected the shards of one split, K/N for one N",
                first.display(),
                other.display()
            ),
            MergeError::Overlap {
                number,
                first,
                other,
            } => write!(
                f,
                "merge: game {} is in both {} and {}; expected each game in one shard",
                number + 1,
                first.display(),
                other.display()
            ),
            MergeError::Result {
                path,
                number,
                problem,
            } => write!(f, "{}: game {}: {problem}", path.display(), number + 1),
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
            for game in &games {
                check_result(game).map_err(|problem| MergeError::Result {
                    path: path.to_path_buf(),
                    number: game.number,
                    problem,
                })?;
            }
            return Ok((summary.settings, games));
        }
    }
    read_state(path)
        .map(|(settings, games, _)| (settings, games))
        .map_err(|_| MergeError::Neither {
            path: path.to_path_buf(),
        })
}

/// Combines the shards of one tournament: the settings of the whole schedule and every
/// game once. Refuses a file given twice, two files of one shard, shards of different
/// splits or tournaments (schedule, engine options and limits, SPRT), a game in two files, and a game its moves contradict.
pub fn merge(paths: &[PathBuf]) -> Result<(Settings, Vec<GameReport>), MergeError> {
    let Some(first) = paths.first() else {
        return Err(MergeError::NoFiles);
    };
    let (mut settings, _) = read_results(first)?;
    let mut games: BTreeMap<usize, &Path> = BTreeMap::new();
    let mut reports = Vec::new();
    let mut shards: BTreeMap<usize, &Path> = BTreeMap::new();
    let mut seen: Vec<PathBuf> = Vec::new();
    for path in paths {
        let same_file = std::fs::canonicalize(path).unwrap_or_else(|_| path.clone());
        if seen.contains(&same_file) {
            return Err(MergeError::GivenTwice { path: path.clone() });
        }
        seen.push(same_file);
        let (other, file_games) = read_results(path)?;
        let mismatch = settings.schedule_mismatch(&other).or_else(|| {
            // Commands may differ between machines; what the engines are told may not.
            let told = |s: &Settings| {
                s.engines
                    .iter()
                    .map(|e| (e.options.clone(), e.limits.clone()))
                    .collect::<Vec<_>>()
            };
            if told(&other) != told(&settings) {
                Some(Mismatch::EngineSettings)
            } else if other.sprt != settings.sprt {
                Some(Mismatch::Sprt)
            } else {
                None
            }
        });
        if let Some(mismatch) = mismatch {
            return Err(MergeError::Schedules {
                first: first.clone(),
                other: path.clone(),
                mismatch,
            });
        }
        if other.shard.count != settings.shard.count {
            return Err(MergeError::Splits {
                first: first.clone(),
                ours: settings.shard,
                other: path.clone(),
                theirs: other.shard,
            });
        }
        if let Some(before) = shards.insert(other.shard.index, path) {
            return Err(MergeError::SameShard {
                first: before.to_path_buf(),
                other: path.clone(),
                shard: other.shard,
            });
        }
        for report in file_games {
            if let Some(before) = games.insert(report.number, path) {
                return Err(MergeError::Overlap {
                    number: report.number,
                    first: before.to_path_buf(),
                    other: path.clone(),
                });
            }
            reports.push(report);
        }
    }
    settings.shard = Shard::WHOLE;
    reports.sort_by_key(|g| g.number);
    Ok((settings, reports))
}
