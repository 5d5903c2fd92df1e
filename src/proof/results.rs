//! The files of a split proof: the list of sub-problems, and the append-only
//! results files that the shards write, one JSON object a line.

use std::fs::{self, File, OpenOptions};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::tree::Known;
use crate::board::Position;
use crate::search::Verdict;

/// The file of sub-problems in a split directory.
pub const POSITIONS_FILE: &str = "positions.txt";

/// Results files of a split directory are named `results*.jsonl`.
const RESULTS_PREFIX: &str = "results";
/// The extension of results files.
const RESULTS_EXTENSION: &str = "jsonl";

/// The header line that names the root of the split.
const ROOT_HEADER: &str = "# root: ";
/// The header line that gives the depth of the split.
const DEPTH_HEADER: &str = "# depth: ";

/// The list of sub-problems of a split.
#[derive(Clone, Debug)]
pub struct Split {
    /// The position whose value the split proves.
    pub root: Position,
    /// Plies from the root to the sub-problems.
    pub depth: u32,
    /// The sub-problems, as canonical position strings, in the order to prove them.
    pub positions: Vec<String>,
}

impl Split {
    /// The text of the positions file: a commented header naming the root and the
    /// depth, then one position string a line.
    pub fn text(&self) -> String {
        let mut text = format!(
            "# slimetrail solve --split: the sub-problems of a proof, one position string a line\n\
             {ROOT_HEADER}{}\n{DEPTH_HEADER}{}\n",
            self.root, self.depth
        );
        for position in &self.positions {
            text.push_str(position);
            text.push('\n');
        }
        text
    }

    /// Reads a positions file written by [`Split::text`].
    pub fn read(path: &Path) -> Result<Split, String> {
        let text = fs::read_to_string(path)
            .map_err(|e| format!("cannot read the positions file {}: {e}", path.display()))?;
        let mut root = None;
        let mut depth = None;
        let mut positions = Vec::new();
        for (number, line) in text.lines().enumerate() {
            let at = || format!("{} line {}", path.display(), number + 1);
            let line = line.trim();
            if let Some(rest) = line.strip_prefix(ROOT_HEADER.trim_end()) {
                let position: Position = rest
                    .trim()
                    .parse()
                    .map_err(|e| format!("{}: the root is not a position string ({e})", at()))?;
                root = Some(position);
            } else if let Some(rest) = line.strip_prefix(DEPTH_HEADER.trim_end()) {
                let value = rest
                    .trim()
                    .parse::<u32>()
                    .map_err(|_| format!("{}: expected a depth in plies, found {rest:?}", at()))?;
                depth = Some(value);
            } else if line.is_empty() || line.starts_with('#') {
                continue;
            } else {
                let position: Position = line
                    .parse()
                    .map_err(|e| format!("{}: not a position string ({e})", at()))?;
                positions.push(position.to_string());
            }
        }
        let missing = |what: &str| {
            format!(
                "{}: no {what:?} header; expected a positions file written by `solve --split`",
                path.display()
            )
        };
        Ok(Split {
            root: root.ok_or_else(|| missing(ROOT_HEADER.trim()))?,
            depth: depth.ok_or_else(|| missing(DEPTH_HEADER.trim()))?,
            positions,
        })
    }
}

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

/// Every record of the results files of a split directory.
#[derive(Clone, Debug, Default)]
pub struct Results {
    /// The records, file by file in name order, each file in its order.
    pub records: Vec<Record>,
    /// Lines that are not records: a last line cut short by a kill, which is
    /// ignored (its position is proved again).
    pub torn: usize,
}

impl Results {
    /// Reads every `results*.jsonl` file of `dir`.
    pub fn read(dir: &Path) -> Result<Results, String> {
        let entries = fs::read_dir(dir)
            .map_err(|e| format!("cannot list the split directory {}: {e}", dir.display()))?;
        let mut files: Vec<PathBuf> = entries
            .filter_map(|entry| entry.ok().map(|e| e.path()))
            .filter(|path| is_results_file(path))
            .collect();
        files.sort();
        let mut results = Results::default();
        for path in files {
            let text = fs::read_to_string(&path)
                .map_err(|e| format!("cannot read the results file {}: {e}", path.display()))?;
            for line in text.lines().filter(|l| !l.trim().is_empty()) {
                match serde_json::from_str::<Record>(line) {
                    Ok(record) => results.records.push(record),
                    Err(e) => {
                        log::warn!(
                            "{}: ignoring a line that is not a result ({e}): {line:?}",
                            path.display()
                        );
                        results.torn += 1;
                    }
                }
            }
        }
        Ok(results)
    }

    /// The proven verdicts, by canonical position string.
    pub fn known(&self) -> Known {
        self.records
            .iter()
            .filter_map(|r| r.verdict().map(|v| (r.position.clone(), v)))
            .collect()
    }
}

/// Whether `path` is named like a results file.
fn is_results_file(path: &Path) -> bool {
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
    name.starts_with(RESULTS_PREFIX)
        && path.extension().and_then(|e| e.to_str()) == Some(RESULTS_EXTENSION)
}

/// The results file of shard `k` of `n` in `dir`.
pub fn shard_file(dir: &Path, k: usize, n: usize) -> PathBuf {
    dir.join(format!("{RESULTS_PREFIX}-{k}-of-{n}.{RESULTS_EXTENSION}"))
}

/// The results file of the short proofs made while splitting.
pub fn split_file(dir: &Path) -> PathBuf {
    dir.join(format!("{RESULTS_PREFIX}-split.{RESULTS_EXTENSION}"))
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
    pub fn open(path: &Path) -> Result<Appender, String> {
        let fail = |e: std::io::Error| {
            format!(
                "cannot open the results file {} for appending: {e}",
                path.display()
            )
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
    pub fn append(&mut self, record: &Record) -> Result<(), String> {
        let mut line = serde_json::to_string(record)
            .map_err(|e| format!("cannot write a result as JSON: {e}"))?;
        line.push('\n');
        self.file
            .write_all(line.as_bytes())
            .and_then(|()| self.file.sync_data())
            .map_err(|e| format!("cannot append to {}: {e}", self.path.display()))
    }
}
