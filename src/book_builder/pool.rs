//! The leaves-first worker pool: threads, each with its own table, prove the
//! leaves in walk order (so that siblings share their proofs), a chunk at a time,
//! and append each result to the leaf-results file as soon as it is proven.

use std::fmt;
use std::fs::{File, OpenOptions};
use std::io::{self, Read, Write};
use std::path::Path;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use super::leaves::{GameValue, Leaf, Leaves, LeavesError};
use crate::board::Position;
use crate::search::{Engine, EngineOptions, Limits, Score, Verdict, book_key};

/// Leaves handed to a worker at a time: consecutive leaves are mostly siblings.
const CHUNK: usize = 8;

/// How the proofs of the leaves go.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum LeafProgress {
    /// The walk has this many positions at `ply`.
    Layer {
        /// The ply.
        ply: usize,
        /// Its positions.
        positions: usize,
    },
    /// The proofs begin.
    Start {
        /// Leaves in all.
        leaves: usize,
        /// Of those, proven by an earlier run.
        before: usize,
        /// Of those, to prove now.
        todo: usize,
        /// Threads proving them.
        jobs: usize,
    },
    /// Another fifty leaves (or the last) are proven.
    Proven {
        /// Proven so far in this run.
        count: usize,
        /// To prove in this run.
        todo: usize,
        /// Time since the proofs began.
        time: Duration,
    },
}

impl fmt::Display for LeafProgress {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            LeafProgress::Layer { ply, positions } => write!(f, "ply {ply}: {positions} positions"),
            LeafProgress::Start {
                leaves,
                before,
                todo,
                jobs,
            } => write!(
                f,
                "{leaves} leaves, {before} proven before, {todo} to prove on {jobs} threads"
            ),
            LeafProgress::Proven { count, todo, time } => write!(
                f,
                "{count} of {todo} leaves proven, {:.0} s",
                time.as_secs_f64()
            ),
        }
    }
}

/// Opens (or creates) the leaf results at `path` for appending, first dropping a
/// last line cut short by a kill (which readers ignore), so that the first line
/// appended is not glued to it.
fn open_for_appending(path: &Path) -> io::Result<File> {
    let mut file = OpenOptions::new()
        .read(true)
        .create(true)
        .append(true)
        .open(path)?;
    let mut text = Vec::new();
    file.read_to_end(&mut text)?;
    if text.last().is_some_and(|&byte| byte != b'\n') {
        let whole = text
            .iter()
            .rposition(|&byte| byte == b'\n')
            .map_or(0, |end| end + 1);
        log::warn!(
            "{}: dropping a last line cut short: {:?}",
            path.display(),
            String::from_utf8_lossy(&text[whole..])
        );
        file.set_len(whole as u64)?;
    }
    Ok(file)
}

/// Proves every leaf not in `known` on `jobs` threads with `hash_mb` MiB of table
/// each, appending each result to `path` at once; the leaves, those of `known`
/// included. `progress` hears of the start and of every fiftieth leaf.
pub fn prove_leaves(
    leaves: &[Position],
    known: &Leaves,
    path: &Path,
    jobs: usize,
    hash_mb: usize,
    progress: &(dyn Fn(LeafProgress) + Sync),
) -> Result<Leaves, LeavesError> {
    let todo: Vec<&Position> = leaves
        .iter()
        .filter(|p| !known.contains_key(&book_key(*p).0))
        .collect();
    let file = open_for_appending(path).map_err(|error| LeavesError::Open {
        path: path.to_path_buf(),
        error,
    })?;
    let file = Mutex::new(file);
    let found = Mutex::new(known.clone());
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    let failed = Mutex::new(None::<LeavesError>);
    let fail = |error: LeavesError| {
        *failed.lock().unwrap_or_else(|e| e.into_inner()) = Some(error);
    };
    let started = Instant::now();
    progress(LeafProgress::Start {
        leaves: leaves.len(),
        before: leaves.len() - todo.len(),
        todo: todo.len(),
        jobs,
    });
    std::thread::scope(|scope| {
        for _ in 0..jobs.max(1) {
            scope.spawn(|| {
                let options = EngineOptions {
                    hash_mb,
                    huge_pages: true,
                    ..EngineOptions::default()
                };
                let mut engine = Engine::new(options);
                let stop = AtomicBool::new(false);
                loop {
                    let first = next.fetch_add(CHUNK, Ordering::Relaxed);
                    if first >= todo.len() || failed.lock().is_ok_and(|f| f.is_some()) {
                        break;
                    }
                    for position in &todo[first..(first + CHUNK).min(todo.len())] {
                        let out = engine.prove(position, &Limits::default(), &stop, &mut |_| {});
                        let (Some(verdict), Some(Score::Mate(n))) = (out.verdict, out.info.score)
                        else {
                            fail(LeavesError::NoVerdict {
                                position: **position,
                            });
                            return;
                        };
                        let value = GameValue {
                            won: verdict == Verdict::Win,
                            plies: n.unsigned_abs(),
                        };
                        let leaf = Leaf {
                            position: **position,
                            value,
                            square: out.best_move.filter(|_| value.won),
                        };
                        let line = leaf.line(out.proof_nodes, out.proof_time.as_millis());
                        let mut file = file.lock().unwrap_or_else(|e| e.into_inner());
                        if let Err(error) =
                            file.write_all(line.as_bytes()).and_then(|_| file.flush())
                        {
                            fail(LeavesError::Append {
                                path: path.to_path_buf(),
                                error,
                            });
                            return;
                        }
                        drop(file);
                        let mut found = found.lock().unwrap_or_else(|e| e.into_inner());
                        found.insert(book_key(*position).0, leaf);
                        let count = done.fetch_add(1, Ordering::Relaxed) + 1;
                        if count % 50 == 0 || count == todo.len() {
                            progress(LeafProgress::Proven {
                                count,
                                todo: todo.len(),
                                time: started.elapsed(),
                            });
                        }
                    }
                }
            });
        }
    });
    if let Some(error) = failed.into_inner().unwrap_or_else(|e| e.into_inner()) {
        return Err(error);
    }
    Ok(found.into_inner().unwrap_or_else(|e| e.into_inner()))
}
