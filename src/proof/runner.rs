//! The shard runner: proves a share of the sub-problems of a split, appending each
//! result to its own results file, skipping what need not be proved, and watching
//! the results of the other shards while it proves.

use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};

use super::error::ProofError;
use super::positions::Split;
use super::results::{self, Appender, Record, Results};
use super::settings::{ProofSettings, prove};
use super::skip::{Skip, skip_reason};
use super::watch::{WATCH_INTERVAL, watch};
use crate::board::Position;
use crate::shard::Shard;

/// What a shard does, as it does it.
#[derive(Clone, Copy, Debug)]
pub enum ShardEvent<'a> {
    /// A pass over the share begins (only when there are several passes).
    Pass {
        /// The pass, from 1.
        number: usize,
        /// Its node limit a sub-problem, if any.
        nodes: Option<u64>,
    },
    /// A sub-problem is skipped (in the last pass).
    Skipped {
        /// The sub-problem.
        position: &'a str,
        /// Why.
        why: Skip,
    },
    /// A stop request ended the proof of a sub-problem, and the shard.
    Interrupted {
        /// The sub-problem.
        position: &'a str,
    },
    /// The results of others settled the sub-problem while it was proved.
    Abandoned {
        /// The sub-problem.
        position: &'a str,
        /// Nodes spent on it.
        nodes: u64,
    },
    /// An attempt was recorded: a proof, or an attempt that reached its limit.
    Recorded(&'a Record),
}

impl fmt::Display for ShardEvent<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            ShardEvent::Pass {
                number,
                nodes: Some(n),
            } => write!(f, "pass {number}: at most {n} nodes a sub-problem"),
            ShardEvent::Pass {
                number,
                nodes: None,
            } => write!(f, "pass {number}: no node limit"),
            ShardEvent::Skipped { position, why } => write!(f, "skip {position}: {why}"),
            ShardEvent::Interrupted { position } => write!(
                f,
                "interrupted while proving {position}; nothing recorded for it"
            ),
            ShardEvent::Abandoned { position, nodes } => write!(
                f,
                "abandoned {position} after {nodes} nodes: the results of others settled it \
                 or every line through it; nothing recorded for it"
            ),
            ShardEvent::Recorded(record) => {
                let seconds = record.time_ms / 1000.0;
                let (name, nodes) = (&record.position, record.nodes);
                match (&record.verdict, &record.best_move) {
                    (Some(v), Some(m)) => {
                        write!(f, "{name}: {v} ({m}), {nodes} nodes in {seconds:.3} s")
                    }
                    (Some(v), None) => write!(f, "{name}: {v}, {nodes} nodes in {seconds:.3} s"),
                    (None, _) => write!(
                        f,
                        "{name}: open after {nodes} nodes in {seconds:.3} s (limit reached)"
                    ),
                }
            }
        }
    }
}

/// What a shard did in all.
#[derive(Clone, Debug, PartialEq)]
pub struct ShardSummary {
    /// The share.
    pub shard: Shard,
    /// Sub-problems proven.
    pub proven: usize,
    /// Sub-problems left open at the last pass's limit.
    pub unfinished: usize,
    /// Sub-problems skipped or abandoned.
    pub skipped: usize,
    /// Nodes of the attempts recorded.
    pub nodes: u64,
    /// Proof time of the attempts recorded, in milliseconds.
    pub time_ms: f64,
    /// The shard's results file.
    pub results_file: PathBuf,
}

impl fmt::Display for ShardSummary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "shard {}: {} proven, {} unfinished, {} skipped; {} nodes in {:.3} s; results in {}",
            self.shard,
            self.proven,
            self.unfinished,
            self.skipped,
            self.nodes,
            self.time_ms / 1000.0,
            self.results_file.display()
        )
    }
}

/// The directory of a positions file (`.` for a bare file name).
fn directory_of(file: &Path) -> &Path {
    match file.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    }
}

/// Proves `shard`'s share of the sub-problems of the positions file `file` (every
/// `N`-th, from the `K`-th), appending each result to `results-K-of-N.jsonl` beside
/// it, in passes of growing node limits (see [`ProofSettings::passes`]). Skips the
/// sub-problems that [`skip_reason`] names; abandons the sub-problem it proves,
/// recording nothing, as soon as the results of others prove it or settle every
/// line through it. Stops at `stop`, recording nothing of the sub-problem it was
/// proving. `events` hears of each step.
pub fn run_shard(
    file: &Path,
    shard: Shard,
    settings: &ProofSettings,
    stop: &AtomicBool,
    events: &mut dyn FnMut(ShardEvent),
) -> Result<ShardSummary, ProofError> {
    let split = Split::read(file)?;
    let dir = directory_of(file);
    let out = results::shard_file(dir, shard);
    let mut appender = Appender::open(&out)?;
    let mut engine = settings.engine(settings.hash_mb);
    let limit_ms = settings.limit_ms();
    let by = shard.to_string();
    let mine: Vec<(String, &Position)> = split
        .positions
        .iter()
        .enumerate()
        .filter(|&(i, _)| shard.owns(i))
        .map(|(_, p)| (p.to_string(), p))
        .collect();
    let mut summary = ShardSummary {
        shard,
        proven: 0,
        unfinished: 0,
        skipped: 0,
        nodes: 0,
        time_ms: 0.0,
        results_file: out,
    };
    let passes = settings.passes();
    let last_pass = passes.len() - 1;
    for (pass, pass_nodes) in passes.into_iter().enumerate() {
        if stop.load(Ordering::SeqCst) {
            break;
        }
        let mut limits = settings.limits();
        limits.nodes = pass_nodes;
        if last_pass > 0 {
            events(ShardEvent::Pass {
                number: pass + 1,
                nodes: pass_nodes,
            });
        }
        // Whether a sub-problem is still open at this pass's limit: only then is
        // a pass with more nodes worth making.
        let mut limited = false;
        for (name, position) in &mine {
            if stop.load(Ordering::SeqCst) {
                break;
            }
            let results = Results::read(dir)?;
            if let Some(why) = skip_reason(&split, &results, name, limits.nodes, limit_ms) {
                limited |= why == Skip::Tried;
                if pass == last_pass {
                    events(ShardEvent::Skipped {
                        position: name,
                        why,
                    });
                    summary.skipped += 1;
                }
                continue;
            }
            let abandon = AtomicBool::new(false);
            let done = AtomicBool::new(false);
            let record = std::thread::scope(|scope| {
                scope.spawn(|| watch(dir, &split, name, stop, &abandon, &done, WATCH_INTERVAL));
                let record = prove(&mut engine, position, &limits, settings, &abandon, &by);
                done.store(true, Ordering::SeqCst);
                record
            });
            if record.verdict().is_none() && stop.load(Ordering::SeqCst) {
                events(ShardEvent::Interrupted { position: name });
                break;
            }
            if record.verdict().is_none() && abandon.load(Ordering::SeqCst) {
                events(ShardEvent::Abandoned {
                    position: name,
                    nodes: record.nodes,
                });
                summary.skipped += 1;
                continue;
            }
            appender.append(&record)?;
            summary.nodes += record.nodes;
            summary.time_ms += record.time_ms;
            events(ShardEvent::Recorded(&record));
            if record.verdict.is_some() {
                summary.proven += 1;
            } else if pass == last_pass {
                summary.unfinished += 1;
            } else {
                limited = true;
            }
        }
        if !limited {
            break;
        }
    }
    Ok(summary)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::proof::split::split;
    use crate::scratch::Scratch;

    #[test]
    fn skips_and_events_print_as_the_shard_reports_them() {
        let pass = ShardEvent::Pass {
            number: 2,
            nodes: Some(400),
        };
        assert_eq!(pass.to_string(), "pass 2: at most 400 nodes a sub-problem");
        let last = ShardEvent::Pass {
            number: 3,
            nodes: None,
        };
        assert_eq!(last.to_string(), "pass 3: no node limit");
        let skipped = ShardEvent::Skipped {
            position: "4/4/1s2/4 2",
            why: Skip::Tried,
        };
        assert_eq!(
            skipped.to_string(),
            "skip 4/4/1s2/4 2: tried already within the same limits"
        );
        let stop = ShardEvent::Interrupted { position: "P" };
        assert_eq!(
            stop.to_string(),
            "interrupted while proving P; nothing recorded for it"
        );
        let abandoned = ShardEvent::Abandoned {
            position: "P",
            nodes: 12,
        };
        assert_eq!(
            abandoned.to_string(),
            "abandoned P after 12 nodes: the results of others settled it or every line \
             through it; nothing recorded for it"
        );
        let mut record = Record {
            position: "P".into(),
            verdict: Some("win".into()),
            best_move: Some("c3".into()),
            nodes: 1500,
            time_ms: 12.3456,
            limit_nodes: None,
            limit_ms: None,
            by: "1/1".into(),
        };
        assert_eq!(
            ShardEvent::Recorded(&record).to_string(),
            "P: win (c3), 1500 nodes in 0.012 s"
        );
        record.best_move = None;
        record.verdict = Some("loss".into());
        assert_eq!(
            ShardEvent::Recorded(&record).to_string(),
            "P: loss, 1500 nodes in 0.012 s"
        );
        record.verdict = None;
        assert_eq!(
            ShardEvent::Recorded(&record).to_string(),
            "P: open after 1500 nodes in 0.012 s (limit reached)"
        );
        let summary = ShardSummary {
            shard: Shard::new(2, 3).unwrap(),
            proven: 4,
            unfinished: 1,
            skipped: 2,
            nodes: 999,
            time_ms: 1234.5,
            results_file: "d/results-2-of-3.jsonl".into(),
        };
        assert_eq!(
            summary.to_string(),
            "shard 2/3: 4 proven, 1 unfinished, 2 skipped; 999 nodes in 1.234 s; results in \
             d/results-2-of-3.jsonl"
        );
    }

    fn settings(nodes: Option<u64>) -> ProofSettings {
        ProofSettings {
            nodes,
            ..crate::proof::testing::small_settings()
        }
    }

    /// Runs a shard and gives its summary and its events as text.
    fn run(file: &Path, shard: Shard, settings: &ProofSettings) -> (ShardSummary, Vec<String>) {
        let mut events = Vec::new();
        let summary = run_shard(file, shard, settings, &AtomicBool::new(false), &mut |e| {
            events.push(e.to_string());
        })
        .unwrap();
        (summary, events)
    }

    #[test]
    fn two_shards_prove_a_split_once_and_a_rerun_proves_nothing() {
        let dir = Scratch::new("runner-5x5");
        let root: Position = "5/5/2s2/5/5 1".parse().unwrap();
        split(&root, 1, 0, dir.path(), &settings(None)).unwrap();
        let file = dir.file("positions.txt");
        let listed = Split::read(&file).unwrap().positions.len();
        assert_eq!(listed, 5);
        let mut done = 0;
        for k in 1..=2 {
            let (summary, events) = run(&file, Shard::new(k, 2).unwrap(), &settings(None));
            assert_eq!(summary.unfinished, 0);
            assert_eq!(summary.proven + summary.skipped, if k == 1 { 3 } else { 2 });
            assert_eq!(events.len(), summary.proven + summary.skipped, "{events:?}");
            assert_eq!(
                summary.results_file,
                dir.file(&format!("results-{k}-of-2.jsonl"))
            );
            done += summary.proven;
        }
        let results = Results::read(dir.path()).unwrap();
        assert_eq!(results.entries.len(), done);
        let report = crate::proof::MergeReport::read(dir.path()).unwrap();
        assert_eq!(report.verdict, Some("win"));
        // Again: everything is skipped, as proven or no longer needed.
        let (summary, events) = run(&file, Shard::WHOLE, &settings(None));
        assert_eq!(
            (summary.proven, summary.unfinished, summary.skipped),
            (0, 0, 5)
        );
        assert_eq!(summary.nodes, 0);
        assert!(
            events.iter().all(|e| e.starts_with("skip ")
                && (e.ends_with(": proven already") || e.contains(": no longer needed: "))),
            "{events:?}"
        );
        assert_eq!(Results::read(dir.path()).unwrap().entries.len(), done);
    }

    #[test]
    fn an_attempt_that_reached_its_limit_is_recorded_and_not_repeated() {
        let dir = Scratch::new("runner-limits");
        let root: Position = "6/6/6/3s2/6/6 1".parse().unwrap();
        split(&root, 1, 0, dir.path(), &settings(None)).unwrap();
        let file = dir.file("positions.txt");
        let (first, events) = run(&file, Shard::WHOLE, &settings(Some(5)));
        assert!(first.unfinished > 0, "{events:?}");
        assert!(
            events.iter().any(|e| e.ends_with(" (limit reached)")),
            "{events:?}"
        );
        let (again, events) = run(&file, Shard::WHOLE, &settings(Some(5)));
        assert_eq!((again.proven, again.unfinished), (0, 0), "{events:?}");
        assert_eq!(
            again.skipped,
            first.unfinished + first.proven + first.skipped
        );
        assert!(
            events
                .iter()
                .filter(|e| e.ends_with(": tried already within the same limits"))
                .count()
                == first.unfinished,
            "{events:?}"
        );
    }

    #[test]
    fn passes_are_announced_and_end_when_nothing_is_left_open() {
        let dir = Scratch::new("runner-passes");
        let root: Position = "5/5/2s2/5/5 1".parse().unwrap();
        split(&root, 1, 0, dir.path(), &settings(None)).unwrap();
        let mut settings = settings(Some(1 << 40));
        settings.first_nodes = Some(1);
        let (summary, events) = run(&dir.file("positions.txt"), Shard::WHOLE, &settings);
        assert_eq!(
            events[0], "pass 1: at most 1 nodes a sub-problem",
            "{events:?}"
        );
        assert_eq!(summary.unfinished, 0);
        assert!(
            !events
                .iter()
                .any(|e| e.contains("at most 1099511627776 nodes")),
            "{events:?}"
        );
    }

    #[test]
    fn a_shard_stopped_before_it_starts_records_nothing() {
        let dir = Scratch::new("runner-stopped");
        let root: Position = "5/5/2s2/5/5 1".parse().unwrap();
        split(&root, 1, 0, dir.path(), &settings(None)).unwrap();
        let mut events = Vec::new();
        let stop = AtomicBool::new(true);
        let file = dir.file("positions.txt");
        let summary = run_shard(&file, Shard::WHOLE, &settings(None), &stop, &mut |e| {
            events.push(e.to_string());
        })
        .unwrap();
        assert!(events.is_empty(), "{events:?}");
        assert_eq!(
            (
                summary.proven,
                summary.unfinished,
                summary.skipped,
                summary.nodes
            ),
            (0, 0, 0, 0)
        );
        assert_eq!(
            std::fs::read_to_string(dir.file("results-1-of-1.jsonl")).unwrap(),
            ""
        );
    }

    #[test]
    fn a_shard_of_a_missing_split_says_which_file_it_wanted() {
        let dir = Scratch::new("runner-missing");
        let file = dir.file("positions.txt");
        let error = run_shard(
            &file,
            Shard::WHOLE,
            &settings(None),
            &AtomicBool::new(false),
            &mut |_| {},
        )
        .unwrap_err();
        assert!(matches!(error, ProofError::Positions(_)));
        assert!(
            error.to_string().contains("cannot read the positions file"),
            "{error}"
        );
    }
}
