//! `slimetrail book --leaves-first DIR`: an opening book for boards where proving
//! every position near the start one by one costs too much (8×8 and up).
//!
//! The walk ([`walk`]) is [`generate`](super::generate)'s too, but here only the
//! positions at the last ply (the leaves) are proven, on several threads, each with
//! its own table and the leaves in walk order, so that siblings share their proofs
//! ([`prove_leaves`]). Every shallower position then takes its value from its
//! children by minimax, with no search at all ([`book_lines`]). Each leaf's result
//! is appended to `DIR/leaves.tsv` as soon as it is proven, so a killed run loses
//! at most the proofs in progress and a second run proves only the rest. Last,
//! every won position is tried from an empty table within the hard-node limit;
//! those that need more go into the book.

use std::fmt;
use std::io;
use std::path::{Path, PathBuf};

use super::leaves::{LeavesError, read_results};
use super::minimax::book_lines;
use super::pool::{LeafProgress, prove_leaves};
use super::walk::walk;
use crate::board::Position;
use crate::search::BookLine;

/// The leaf-results file of a leaves-first directory.
pub const LEAVES_FILE: &str = "leaves.tsv";

/// How a leaves-first book is made.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct LeavesFirst {
    /// Plies to walk from each start: the leaves are at the last.
    pub plies: u32,
    /// Proof nodes, from an empty table, above which a won position is an entry.
    pub hard_nodes: u64,
    /// Threads proving leaves.
    pub jobs: usize,
    /// The table of each thread, in MiB.
    pub hash_mb: usize,
}

/// Why a leaves-first book cannot be made (yet).
#[derive(Debug)]
pub enum LeavesFirstError {
    /// The directory cannot be created.
    CreateDir {
        /// The directory.
        dir: PathBuf,
        /// What the system said.
        error: io::Error,
    },
    /// The leaf results cannot be read or written, or a proof failed.
    Leaves(LeavesError),
    /// Some positions have no value yet: a run was cut short.
    Unvalued {
        /// How many.
        count: usize,
    },
}

impl fmt::Display for LeavesFirstError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LeavesFirstError::CreateDir { dir, error } => {
                write!(f, "{}: cannot create the directory: {error}", dir.display())
            }
            LeavesFirstError::Leaves(e) => e.fmt(f),
            LeavesFirstError::Unvalued { count } => {
                write!(f, "{count} positions have no value yet: run again")
            }
        }
    }
}

impl std::error::Error for LeavesFirstError {}

impl From<LeavesError> for LeavesFirstError {
    fn from(e: LeavesError) -> LeavesFirstError {
        LeavesFirstError::Leaves(e)
    }
}

/// The book of `starts` made leaves first in `dir` (created if need be; its
/// `leaves.tsv` keeps the proven leaves across runs). `progress` hears of the walk's
/// plies and of the proofs.
pub fn leaves_first(
    starts: &[Position],
    how: &LeavesFirst,
    dir: &Path,
    progress: &(dyn Fn(LeafProgress) + Sync),
) -> Result<Vec<BookLine>, LeavesFirstError> {
    std::fs::create_dir_all(dir).map_err(|error| LeavesFirstError::CreateDir {
        dir: dir.to_path_buf(),
        error,
    })?;
    let path = dir.join(LEAVES_FILE);
    let layers = walk(starts, how.plies);
    for (ply, layer) in layers.iter().enumerate() {
        progress(LeafProgress::Layer {
            ply,
            positions: layer.len(),
        });
    }
    let leaves = layers.last().map_or(&[][..], |layer| &layer[..]);
    let known = read_results(&path)?;
    let proven = prove_leaves(leaves, &known, &path, how.jobs, how.hash_mb, progress)?;
    let (lines, unknown) = book_lines(&layers, &proven, how.hard_nodes, how.jobs);
    if unknown > 0 {
        return Err(LeavesFirstError::Unvalued { count: unknown });
    }
    Ok(lines)
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use super::*;
    use crate::board::Size;
    use crate::book_builder::{Leaves, generate};
    use crate::scratch::Scratch;
    use crate::search::{BookKey, book_key, verify_book};

    fn start(size: &str, square: &str) -> Position {
        let size: Size = size.parse().expect("a size");
        Position::start_named(size, square).expect("a start")
    }

    /// The same positions as proving each one, with winning moves and lengths no
    /// shorter than `solve`'s.
    #[test]
    fn the_leaves_first_book_holds_the_positions_of_the_one_by_one_book() {
        let starts = [start("5x5", "c3"), start("5x5", "d4")];
        let (plies, hard) = (4, 30);
        let one_by_one = generate(&starts, plies, hard, &mut |_| {});
        let dir = Scratch::new("leaves-first");
        let layers = walk(&starts, plies);
        let leaves = &layers[plies as usize];
        let path = dir.file("leaves.tsv");
        let proven = prove_leaves(leaves, &Leaves::new(), &path, 2, 1, &|_| {}).unwrap();
        assert_eq!(proven.len(), leaves.len());
        let (lines, unknown) = book_lines(&layers, &proven, hard, 2);
        assert_eq!(unknown, 0);
        assert!(
            lines.len() > 20,
            "a book of {} lines tests little",
            lines.len()
        );
        let keys = |lines: &[BookLine]| -> Vec<BookKey> {
            let mut keys: Vec<_> = lines.iter().map(|l| book_key(&l.position).0).collect();
            keys.sort();
            keys
        };
        assert_eq!(keys(&lines), keys(&one_by_one));
        let failures = verify_book(&lines, &mut |_, _| {});
        assert!(failures.is_empty(), "{failures:#?}");
        let exact: HashMap<BookKey, u16> = one_by_one
            .iter()
            .map(|l| (book_key(&l.position).0, l.plies))
            .collect();
        for line in &lines {
            let solved = exact[&book_key(&line.position).0];
            assert!(line.plies >= solved, "{line}: solve proves {solved} plies");
        }
    }

    /// A run killed in the middle of a line: the line is dropped, the leaves proven
    /// before are not proven again, and each leaf ends up in the file once.
    #[test]
    fn a_killed_run_resumes_with_the_leaves_it_had_not_proven() {
        let dir = Scratch::new("leaves-resume");
        let path = dir.file("leaves.tsv");
        let layers = walk(&[start("5x5", "c3")], 2);
        let leaves = &layers[2];
        assert!(leaves.len() > 3);
        let first = prove_leaves(&leaves[..2], &Leaves::new(), &path, 1, 1, &|_| {}).unwrap();
        let mut text = std::fs::read_to_string(&path).unwrap();
        text.push_str(&format!("{}\twi", leaves[2]));
        std::fs::write(&path, &text).unwrap();
        let known = read_results(&path).unwrap();
        assert_eq!(known, first);
        // The cut line is completed by nothing: start the next one on a new line.
        std::fs::write(&path, text.trim_end_matches(|c| c != '\n')).unwrap();
        let all = prove_leaves(leaves, &known, &path, 2, 1, &|_| {}).unwrap();
        assert_eq!(all.len(), leaves.len());
        let text = std::fs::read_to_string(&path).unwrap();
        assert_eq!(text.lines().count(), leaves.len(), "{text}");
        assert_eq!(read_results(&path).unwrap(), all);
    }

    /// A run killed in the middle of a line, then resumed as it is: the torn
    /// line goes, and the file stays readable after the resumed run (it once
    /// glued the first new line to the torn one, which the next run refused).
    #[test]
    fn a_resumed_run_drops_the_torn_line_it_finds() {
        let dir = Scratch::new("leaves-torn-resume");
        let path = dir.file(LEAVES_FILE);
        let layers = walk(&[start("5x5", "c3")], 2);
        let leaves = &layers[2];
        prove_leaves(&leaves[..2], &Leaves::new(), &path, 1, 1, &|_| {}).unwrap();
        let mut text = std::fs::read_to_string(&path).unwrap();
        let whole = text.clone();
        text.push_str(&format!("{}\twi", leaves[2]));
        std::fs::write(&path, &text).unwrap();
        let known = read_results(&path).unwrap();
        assert_eq!(known.len(), 2);
        let all = prove_leaves(leaves, &known, &path, 1, 1, &|_| {}).unwrap();
        assert_eq!(all.len(), leaves.len());
        let after = std::fs::read_to_string(&path).unwrap();
        assert!(after.starts_with(&whole), "{after}");
        assert_eq!(after.lines().count(), leaves.len(), "{after}");
        assert_eq!(read_results(&path).unwrap(), all);
    }

    #[test]
    fn the_driver_makes_the_directory_and_resumes_from_its_file() {
        let dir = Scratch::new("leaves-driver");
        let out = dir.file("new/deeper");
        let how = LeavesFirst {
            plies: 2,
            hard_nodes: 30,
            jobs: 2,
            hash_mb: 1,
        };
        let starts = [start("5x5", "c3")];
        let lines = std::sync::Mutex::new(Vec::new());
        let progress = |p: LeafProgress| lines.lock().unwrap().push(p);
        let first = leaves_first(&starts, &how, &out, &progress).unwrap();
        let events = lines.lock().unwrap().clone();
        assert_eq!(
            events[0],
            LeafProgress::Layer {
                ply: 0,
                positions: 1
            }
        );
        assert_eq!(
            events[1],
            LeafProgress::Layer {
                ply: 1,
                positions: 5
            }
        );
        let LeafProgress::Layer {
            positions: leaves, ..
        } = events[2]
        else {
            panic!("{events:?}");
        };
        assert_eq!(
            events[3],
            LeafProgress::Start {
                leaves,
                before: 0,
                todo: leaves,
                jobs: 2
            }
        );
        let text = std::fs::read_to_string(out.join(LEAVES_FILE)).unwrap();
        assert_eq!(text.lines().count(), leaves);
        // Again: every leaf is known, none proven, the same book.
        lines.lock().unwrap().clear();
        let second = leaves_first(&starts, &how, &out, &progress).unwrap();
        assert_eq!(second, first);
        assert!(lines.lock().unwrap().contains(&LeafProgress::Start {
            leaves,
            before: leaves,
            todo: 0,
            jobs: 2
        }));
        assert_eq!(
            std::fs::read_to_string(out.join(LEAVES_FILE)).unwrap(),
            text
        );
    }

    #[test]
    fn a_bad_leaf_line_or_an_unmakeable_directory_stops_the_book() {
        let dir = Scratch::new("leaves-driver-bad");
        let how = LeavesFirst {
            plies: 1,
            hard_nodes: 30,
            jobs: 1,
            hash_mb: 1,
        };
        let starts = [start("5x5", "c3")];
        std::fs::write(dir.file(LEAVES_FILE), "junk\nmore\n").unwrap();
        let error = leaves_first(&starts, &how, dir.path(), &|_| {}).unwrap_err();
        assert!(matches!(
            error,
            LeavesFirstError::Leaves(LeavesError::Line { line: 1, .. })
        ));
        std::fs::write(dir.file("file"), "").unwrap();
        let error = leaves_first(&starts, &how, &dir.file("file"), &|_| {}).unwrap_err();
        assert!(matches!(error, LeavesFirstError::CreateDir { .. }));
        assert!(
            error
                .to_string()
                .contains(": cannot create the directory: "),
            "{error}"
        );
        assert_eq!(
            LeavesFirstError::Unvalued { count: 3 }.to_string(),
            "3 positions have no value yet: run again"
        );
    }
}
