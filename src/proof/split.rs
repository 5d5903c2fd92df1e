//! The split: the sub-problems some plies below a root, after short proofs that
//! settle the easy nodes, written to a split directory for the shards.

use std::fmt;
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use super::error::ProofError;
use super::positions::{POSITIONS_FILE, Split};
use super::results::{self, Appender};
use super::settings::{ProofSettings, prove};
use super::sub_problems::sub_problems;
use crate::board::Position;
use crate::search::{Engine, EngineOptions, Limits, Score};

/// Nodes of the short proof that the split tries on every node before expanding
/// it (or listing it as a sub-problem): easy nodes are settled at once.
pub const SPLIT_PROOF_NODES: u64 = 20_000;
/// Nodes of the scored search that ranks each move of a node of the split.
const RANK_NODES: u64 = 100_000;
/// Rank of a proven win for the side to move (less the plies): above any score.
const MATE_RANK: i64 = 1 << 40;
/// Table of the scored searches that rank the moves, in MiB.
const JUDGE_HASH_MB: usize = 64;
/// Most table the short proofs of the split use, in MiB.
const SPLIT_HASH_MB: u64 = 256;

/// What a split did.
#[derive(Clone, Debug, PartialEq)]
pub struct SplitSummary {
    /// The root.
    pub root: Position,
    /// Plies from the root to the sub-problems.
    pub depth: u32,
    /// How many sub-problems it listed.
    pub sub_problems: usize,
    /// The positions file it wrote.
    pub positions_file: PathBuf,
    /// Positions the short proofs settled.
    pub settled: usize,
    /// Nodes of each short proof (0: none).
    pub short_proof_nodes: u64,
    /// The results file of the short proofs.
    pub results_file: PathBuf,
    /// The time it took.
    pub time: Duration,
}

impl fmt::Display for SplitSummary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "split {} at depth {}: {} sub-problems in {}; settled {} positions with short \
             proofs of {} nodes each, in {}; {:.1} s",
            self.root,
            self.depth,
            self.sub_problems,
            self.positions_file.display(),
            self.settled,
            self.short_proof_nodes,
            self.results_file.display(),
            self.time.as_secs_f64()
        )
    }
}

/// Writes the sub-problems at `depth` plies below `root` to `DIR/positions.txt`,
/// after short proofs of `short_proof_nodes` nodes (none if 0) that settle the easy
/// nodes (their results go to `DIR/results-split.jsonl`). The directory must not
/// hold a split already.
pub fn split(
    root: &Position,
    depth: u32,
    short_proof_nodes: u64,
    dir: &Path,
    settings: &ProofSettings,
) -> Result<SplitSummary, ProofError> {
    fs::create_dir_all(dir).map_err(|error| ProofError::CreateDir {
        dir: dir.to_path_buf(),
        error,
    })?;
    let list = dir.join(POSITIONS_FILE);
    if list.exists() {
        return Err(ProofError::SplitExists { positions: list });
    }
    let started = Instant::now();
    let mut engine = settings.engine(settings.hash_mb.min(SPLIT_HASH_MB));
    let mut judge = Engine::new(EngineOptions {
        hash_mb: JUDGE_HASH_MB,
        ..EngineOptions::default()
    });
    let results_file = results::split_file(dir);
    let mut appender = Appender::open(&results_file)?;
    let limits = Limits::nodes(short_proof_nodes.max(1));
    let stop = AtomicBool::new(false);
    let mut settled_count = 0;
    let mut failure = None;
    let mut settled = |position: &Position| {
        if short_proof_nodes == 0 {
            return false;
        }
        let record = prove(&mut engine, position, &limits, settings, &stop, "split");
        if record.verdict().is_none() {
            return false;
        }
        if let Err(e) = appender.append(&record) {
            failure.get_or_insert(e);
            return false;
        }
        settled_count += 1;
        true
    };
    // Lower ranks first: the position after the move is worst for the opponent,
    // by a short scored search.
    let mut rank = |position: &Position| {
        if position.outcome().is_over() {
            return 0;
        }
        let limits = Limits::nodes(RANK_NODES);
        match judge
            .search(position, &limits, &stop, &mut |_| {})
            .info
            .score
        {
            Some(Score::Mate(n)) if n > 0 => MATE_RANK - i64::from(n),
            Some(Score::Mate(n)) => -MATE_RANK - i64::from(n),
            Some(Score::Cp(cp)) => i64::from(cp),
            None => 0,
        }
    };
    let positions = sub_problems(root, depth, &mut settled, &mut rank);
    if let Some(e) = failure {
        return Err(e.into());
    }
    let split = Split {
        root: *root,
        depth,
        positions,
    };
    fs::write(&list, split.text()).map_err(|error| ProofError::WritePositions {
        path: list.clone(),
        error,
    })?;
    Ok(SplitSummary {
        root: *root,
        depth,
        sub_problems: split.positions.len(),
        positions_file: list,
        settled: settled_count,
        short_proof_nodes,
        results_file,
        time: started.elapsed(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::proof::results::Results;
    use crate::scratch::Scratch;
    use crate::search::Verdict;

    fn settings() -> ProofSettings {
        crate::proof::testing::small_settings()
    }

    #[test]
    fn a_split_writes_its_sub_problems_and_the_results_of_its_short_proofs() {
        let dir = Scratch::new("split-4x4");
        let root: Position = "4/4/1s2/4 1".parse().unwrap();
        let summary = split(&root, 2, 0, dir.path(), &settings()).unwrap();
        let written = Split::read(&dir.file("positions.txt")).unwrap();
        assert_eq!(written.root, root);
        assert_eq!(written.depth, 2);
        assert_eq!(summary.sub_problems, written.positions.len());
        assert!(summary.sub_problems > 5, "{summary}");
        assert_eq!(summary.settled, 0);
        assert!(Results::read(dir.path()).unwrap().entries.is_empty());
        let text = summary.to_string();
        let expected = format!(
            "split 4/4/1s2/4 1 at depth 2: {} sub-problems in {}; settled 0 positions with \
             short proofs of 0 nodes each, in {}; ",
            summary.sub_problems,
            dir.file("positions.txt").display(),
            dir.file("results-split.jsonl").display()
        );
        assert!(text.starts_with(&expected), "{text}");
        assert!(text.ends_with(" s"), "{text}");

        // With short proofs, every node of a 4x4 board settles at once: nothing is
        // left to list, and each settled node has its record.
        let dir = Scratch::new("split-4x4-settled");
        let summary = split(&root, 2, 1_000_000, dir.path(), &settings()).unwrap();
        assert_eq!(summary.sub_problems, 0);
        let results = Results::read(dir.path()).unwrap();
        assert_eq!(results.entries.len(), summary.settled);
        assert!(summary.settled > 0);
        assert!(
            results
                .records()
                .all(|r| r.by == "split" && r.verdict().is_some())
        );
        assert!(
            results
                .records()
                .all(|r| r.verdict() != Some(Verdict::Win) || r.best_move.is_some())
        );
    }

    #[test]
    fn a_second_split_into_the_same_directory_is_refused() {
        let dir = Scratch::new("split-twice");
        let root: Position = "4/4/1s2/4 1".parse().unwrap();
        split(&root, 1, 0, dir.path(), &settings()).unwrap();
        let before = std::fs::read_to_string(dir.file("positions.txt")).unwrap();
        let error = split(&root, 2, 0, dir.path(), &settings()).unwrap_err();
        assert!(
            matches!(&error, ProofError::SplitExists { positions } if *positions == dir.file("positions.txt"))
        );
        assert_eq!(
            error.to_string(),
            format!(
                "{} exists already; expected a new or empty directory for the split",
                dir.file("positions.txt").display()
            )
        );
        assert_eq!(
            std::fs::read_to_string(dir.file("positions.txt")).unwrap(),
            before
        );
    }
}
