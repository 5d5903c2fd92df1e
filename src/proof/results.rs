//! The results files of a split proof: append-only, one JSON object a line, one
//! file per writer (`results-K-of-N.jsonl` for shard `K` of `N`,
//! `results-split.jsonl` for the short proofs of the split itself).
//!
//! A kill can cut the last line of a file short. Readers skip such torn lines and
//! count them (their positions are proved again), and an [`Appender`] that reopens
//! the file first ends the torn line, so that the records after it are whole.

use std::fmt;
use std::fs::{self, File, OpenOptions};
use std::io::{self, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::tree::Known;
use crate::search::Verdict;
use crate::shard::Shard;

/// Results files of a split directory are named `results-K-of-N.jsonl` and
/// `results-split.jsonl`.
const RESULTS_PREFIX: &str = "results";
/// The middle of the name of the split's own results file.
const SPLIT_NAME: &str = "split";
/// The extension of results files.
const RESULTS_EXTENSION: &str = "jsonl";

/// One line of a results file: the outcome of one attempt to prove a position.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct Record {
    /// The position, as a canonical position string.
    pub position: String,
    /// "win" or "loss" for the side to move; absent if the attempt hit its limit.
    pub verdict: Option<String>,
    /// The winning move of a win (a square), if the proof gave one.
    pub best_move: Option<String>,
    /// Proof nodes.
    pub nodes: u64,
    /// Time of the proof in milliseconds.
    pub time_ms: f64,
    /// The node limit of the attempt, if any.
    pub limit_nodes: Option<u64>,
    /// The time limit of the attempt in milliseconds, if any.
    pub limit_ms: Option<u64>,
    /// Who proved it: "split", or the shard as "K/N".
    pub by: String,
}

impl Record {
    /// The verdict the record proves, if any.
    pub fn verdict(&self) -> Option<Verdict> {
        match self.verdict.as_deref() {
            Some("win") => Some(Verdict::Win),
            Some("loss") => Some(Verdict::Loss),
            _ => None,
        }
    }

    /// Whether this unfinished attempt had at least the budget of `nodes` and
    /// `ms` (`None`: no limit), so that a new attempt with those would be in vain.
    pub fn covers(&self, nodes: Option<u64>, ms: Option<u64>) -> bool {
        let at_least = |had: Option<u64>, wanted: Option<u64>| match (had, wanted) {
            (None, _) => true,
            (Some(_), None) => false,
            (Some(had), Some(wanted)) => had >= wanted,
        };
        self.verdict().is_none() && at_least(self.limit_nodes, nodes) && at_least(self.limit_ms, ms)
    }
}

/// The name of verdict `v` in a record.
pub fn verdict_name(v: Verdict) -> &'static str {
    match v {
        Verdict::Win => "win",
        Verdict::Loss => "loss",
    }
}

/// Where a line of a results file is: the file and the line number, from 1.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Source {
    /// The results file.
    pub file: PathBuf,
    /// The line, counted from 1 (blank lines count).
    pub line: usize,
}

impl fmt::Display for Source {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} line {}", self.file.display(), self.line)
    }
}

/// A record and the line it was read from.
#[derive(Clone, Debug, PartialEq)]
pub struct Entry {
    /// The record.
    pub record: Record,
    /// Where it was read.
    pub source: Source,
}

/// Every record of the results files of a split directory.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Results {
    /// The records, file by file in name order, each file in its order.
    pub entries: Vec<Entry>,
    /// Lines that are not records: a last line cut short by a kill, or a line
    /// damaged otherwise (bytes that are not UTF-8 too), which is ignored (its
    /// position is proved again).
    pub torn: Vec<Source>,
    /// Files named `results*.jsonl` that no shard or split writes, left unread.
    pub ignored: Vec<PathBuf>,
}

/// Why the results files cannot be read or written.
#[derive(Debug)]
pub enum ResultsError {
    /// The split directory cannot be listed.
    List {
        /// The directory.
        dir: PathBuf,
        /// What the system said.
        error: io::Error,
    },
    /// A results file cannot be read.
    Read {
        /// The file.
        path: PathBuf,
        /// What the system said.
        error: io::Error,
    },
    /// A results file cannot be opened for appending.
    Open {
        /// The file.
        path: PathBuf,
        /// What the system said.
        error: io::Error,
    },
    /// A record cannot be written as JSON.
    Json(serde_json::Error),
    /// A record cannot be appended.
    Append {
        /// The file.
        path: PathBuf,
        /// What the system said.
        error: io::Error,
    },
}

impl fmt::Display for ResultsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ResultsError::List { dir, error } => write!(
                f,
                "cannot list the split directory {}: {error}",
                dir.display()
            ),
            ResultsError::Read { path, error } => write!(
                f,
                "cannot read the results file {}: {error}",
                path.display()
            ),
            ResultsError::Open { path, error } => write!(
                f,
                "cannot open the results file {} for appending: {error}",
                path.display()
            ),
            ResultsError::Json(error) => write!(f, "cannot write a result as JSON: {error}"),
            ResultsError::Append { path, error } => {
                write!(f, "cannot append to {}: {error}", path.display())
            }
        }
    }
}

impl std::error::Error for ResultsError {}

impl Results {
    /// Reads every results file of `dir` (`results-K-of-N.jsonl`,
    /// `results-split.jsonl`), in name order; other `results*.jsonl` files are
    /// listed in [`Results::ignored`], unread.
    pub fn read(dir: &Path) -> Result<Results, ResultsError> {
        let entries = fs::read_dir(dir).map_err(|error| ResultsError::List {
            dir: dir.to_path_buf(),
            error,
        })?;
        let (mut files, mut ignored): (Vec<PathBuf>, Vec<PathBuf>) = entries
            .filter_map(|entry| entry.ok().map(|e| e.path()))
            .filter(|path| looks_like_results(path))
            .partition(|path| is_results_file(path));
        files.sort();
        ignored.sort();
        let mut results = Results {
            ignored,
            ..Results::default()
        };
        for path in files {
            let bytes = fs::read(&path).map_err(|error| ResultsError::Read {
                path: path.clone(),
                error,
            })?;
            results.add_bytes(&path, &bytes);
        }
        Ok(results)
    }

    /// Adds the records of `text`, the contents of the results file `file`. Blank
    /// lines are skipped; a line that is not a record is counted as torn.
    pub fn add_text(&mut self, file: &Path, text: &str) {
        self.add_bytes(file, text.as_bytes());
    }

    /// Adds the records of `bytes`, the contents of the results file `file`. Blank
    /// lines are skipped; a line that is not a record (not UTF-8, not JSON, or not
    /// a record) is counted as torn.
    pub fn add_bytes(&mut self, file: &Path, bytes: &[u8]) {
        let bytes = bytes.strip_suffix(b"\n").unwrap_or(bytes);
        for (number, raw) in bytes.split(|&b| b == b'\n').enumerate() {
            let source = Source {
                file: file.to_path_buf(),
                line: number + 1,
            };
            let Ok(line) = std::str::from_utf8(raw) else {
                log::warn!("{source}: ignoring a line that is not UTF-8: {raw:?}");
                self.torn.push(source);
                continue;
            };
            let line = line.strip_suffix('\r').unwrap_or(line);
            if line.trim().is_empty() {
                continue;
            }
            match serde_json::from_str::<Record>(line) {
                Ok(record) => self.entries.push(Entry { record, source }),
                Err(e) => {
                    log::warn!("{source}: ignoring a line that is not a result ({e}): {line:?}");
                    self.torn.push(source);
                }
            }
        }
    }

    /// Every record, in the order read.
    pub fn records(&self) -> impl Iterator<Item = &Record> {
        self.entries.iter().map(|entry| &entry.record)
    }

    /// How many lines were not records.
    pub fn torn_lines(&self) -> usize {
        self.torn.len()
    }

    /// The proven verdicts, by canonical position string (of two records of one
    /// position, the later one read).
    pub fn known(&self) -> Known {
        self.records()
            .filter_map(|r| r.verdict().map(|v| (r.position.clone(), v)))
            .collect()
    }
}

/// Whether `path` is named `results*.jsonl`, as results files are.
fn looks_like_results(path: &Path) -> bool {
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
    name.starts_with(RESULTS_PREFIX)
        && path.extension().and_then(|e| e.to_str()) == Some(RESULTS_EXTENSION)
}

/// Whether `path` is named as a shard or the split writes results:
/// `results-K-of-N.jsonl` for a valid shard `K/N`, or `results-split.jsonl`.
fn is_results_file(path: &Path) -> bool {
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
    let Some(middle) = name
        .strip_prefix(RESULTS_PREFIX)
        .and_then(|rest| rest.strip_prefix('-'))
        .and_then(|rest| rest.strip_suffix(RESULTS_EXTENSION))
        .and_then(|rest| rest.strip_suffix('.'))
    else {
        return false;
    };
    if middle == SPLIT_NAME {
        return true;
    }
    let Some((k, n)) = middle.split_once("-of-") else {
        return false;
    };
    let (Ok(k), Ok(n)) = (k.parse::<usize>(), n.parse::<usize>()) else {
        return false;
    };
    // Written back, the name must be the same: no signs, no leading zeros.
    Shard::new(k, n).is_some_and(|shard| shard_file(Path::new(""), shard) == Path::new(name))
}

/// The results file of `shard` in `dir`.
pub fn shard_file(dir: &Path, shard: Shard) -> PathBuf {
    dir.join(format!(
        "{RESULTS_PREFIX}-{}-of-{}.{RESULTS_EXTENSION}",
        shard.index, shard.count
    ))
}

/// The results file of the short proofs made while splitting.
pub fn split_file(dir: &Path) -> PathBuf {
    dir.join(format!("{RESULTS_PREFIX}-{SPLIT_NAME}.{RESULTS_EXTENSION}"))
}

/// An append-only results file.
pub struct Appender {
    file: File,
    path: PathBuf,
}

impl Appender {
    /// Opens (or creates) the results file at `path` for appending. A last line
    /// cut short by a kill is closed with a newline, so that it stays one line that
    /// readers skip, and the records after it are whole.
    pub fn open(path: &Path) -> Result<Appender, ResultsError> {
        let fail = |error: io::Error| ResultsError::Open {
            path: path.to_path_buf(),
            error,
        };
        let mut file = OpenOptions::new()
            .read(true)
            .append(true)
            .create(true)
            .open(path)
            .map_err(fail)?;
        let length = file.metadata().map_err(fail)?.len();
        if length > 0 {
            let mut last = [0u8];
            file.seek(SeekFrom::End(-1)).map_err(fail)?;
            file.read_exact(&mut last).map_err(fail)?;
            if last[0] != b'\n' {
                file.write_all(b"\n").map_err(fail)?;
            }
        }
        Ok(Appender {
            file,
            path: path.to_path_buf(),
        })
    }

    /// Appends one record as one line, written at once and synced to the disk.
    pub fn append(&mut self, record: &Record) -> Result<(), ResultsError> {
        let mut line = serde_json::to_string(record).map_err(ResultsError::Json)?;
        line.push('\n');
        self.file
            .write_all(line.as_bytes())
            .and_then(|()| self.file.sync_data())
            .map_err(|error| ResultsError::Append {
                path: self.path.clone(),
                error,
            })
    }
}

#[cfg(test)]
#[path = "results_tests.rs"]
mod tests;
