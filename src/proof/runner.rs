//! The split of a proof into sub-problems, and the shards that prove them.

use std::fs;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use super::results::{self, Appender, POSITIONS_FILE, Record, Results, Split, verdict_name};
use super::tree::{canonical, merge, sub_problems};
use crate::board::Position;
use crate::search::{Engine, EngineOptions, Limits, Score, TimeControl, Verdict};
use crate::shard::Shard;

/// Nodes of the short proof that `--split` tries on every node before expanding
/// it (or listing it as a sub-problem): easy nodes are settled at once.
pub const SPLIT_PROOF_NODES: u64 = 20_000;
/// Nodes of the scored search that ranks each move of a node of `--split`.
const RANK_NODES: u64 = 100_000;
/// Rank of a proven win for the side to move (less the plies): above any score.
const MATE_RANK: i64 = 1 << 40;
/// Table of the scored searches that rank the moves, in MiB.
const JUDGE_HASH_MB: usize = 64;
/// Most table the short proofs of `--split` use, in MiB.
const SPLIT_HASH_MB: u64 = 256;

/// What the shards and the split prove with: table, threads, per-position limits.
pub struct ProofSettings {
    /// Table size in MiB.
    pub hash_mb: u64,
    /// Proof threads.
    pub threads: u64,
    /// Node limit of each sub-problem.
    pub nodes: Option<u64>,
    /// Time limit of each sub-problem.
    pub time: Option<Duration>,
    /// Node limit of the first of passes with eight times the nodes each.
    pub first_nodes: Option<u64>,
}

impl ProofSettings {
    fn engine(&self, hash_mb: u64) -> Engine {
        Engine::new(EngineOptions {
            hash_mb: hash_mb as usize,
            threads: self.threads as usize,
            huge_pages: true,
            ..EngineOptions::default()
        })
    }

    /// The node limits of the passes over the sub-problems: one pass within
    /// `nodes`, or with `first_nodes`, passes of eight times the nodes each until
    /// that limit.
    fn passes(&self) -> Vec<Option<u64>> {
        let mut passes = Vec::new();
        if let Some(mut n) = self.first_nodes {
            while self.nodes.is_none_or(|last| n < last) {
                passes.push(Some(n));
                n = n.saturating_mul(8);
                if n == u64::MAX {
                    break;
                }
            }
        }
        passes.push(self.nodes);
        passes
    }

    fn limits(&self) -> Limits {
        let mut limits = Limits::default();
        if let Some(time) = self.time {
            limits.time = TimeControl::MoveTime(time);
        }
        limits.nodes = self.nodes;
        limits
    }
}

/// Proves `position` within `limits` and makes a record of it by `by`.
fn prove(
    engine: &mut Engine,
    position: &Position,
    limits: &Limits,
    settings: &ProofSettings,
    stop: &AtomicBool,
    by: &str,
) -> Record {
    // The record names the canonical position: its move must be of that position.
    let name = canonical(position);
    let position: Position = name.parse().unwrap_or(*position);
    let position = &position;
    let outcome = engine.prove(position, limits, stop, &mut |_| {});
    let winning = outcome
        .best_move
        .filter(|_| outcome.verdict == Some(Verdict::Win));
    Record {
        position: name,
        verdict: outcome.verdict.map(|v| verdict_name(v).to_string()),
        best_move: winning.map(|square| position.name(square)),
        nodes: outcome.proof_nodes,
        time_ms: outcome.proof_time.as_secs_f64() * 1000.0,
        limit_nodes: limits.nodes,
        limit_ms: settings.time.map(|t| t.as_millis() as u64),
        by: by.to_string(),
    }
}

/// `solve --split DEPTH --out DIR`: writes the sub-problems at `depth` plies below
/// `root` to `DIR/positions.txt`, after short proofs of `short_proof_nodes` nodes
/// (none if 0) that settle the easy nodes (their results go to
/// `DIR/results-split.jsonl`).
pub fn split(
    root: &Position,
    depth: u32,
    short_proof_nodes: u64,
    dir: &Path,
    settings: &ProofSettings,
) -> Result<(), String> {
    fs::create_dir_all(dir)
        .map_err(|e| format!("cannot create the split directory {}: {e}", dir.display()))?;
    let list = dir.join(POSITIONS_FILE);
    if list.exists() {
        return Err(format!(
            "{} exists already; expected a new or empty directory for the split \
             (merge or resume that split with --merge or --positions instead)",
            list.display()
        ));
    }
    let started = Instant::now();
    let mut engine = settings.engine(settings.hash_mb.min(SPLIT_HASH_MB));
    let mut judge = Engine::new(EngineOptions {
        hash_mb: JUDGE_HASH_MB,
        ..EngineOptions::default()
    });
    let mut appender = Appender::open(&results::split_file(dir))?;
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
        return Err(e);
    }
    let split = Split {
        root: *root,
        depth,
        positions,
    };
    fs::write(&list, split.text())
        .map_err(|e| format!("cannot write the positions file {}: {e}", list.display()))?;
    println!(
        "split {root} at depth {depth}: {} sub-problems in {}; settled {settled_count} positions \
         with short proofs of {} nodes each, in {}; {:.1} s",
        split.positions.len(),
        list.display(),
        short_proof_nodes,
        results::split_file(dir).display(),
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

/// `solve --positions FILE --shard K/N`: proves the `K`-th of `N` shares of the
/// sub-problems of `FILE` (every `N`-th, from the `K`-th), appending each result to
/// `results-K-of-N.jsonl` beside it. Skips sub-problems that any results file there
/// already proves, that an unfinished attempt with at least the same limits already
/// tried, or that no longer matter because the merge of the results so far has
/// settled every line through them; abandons the sub-problem it proves, recording
/// nothing, as soon as that becomes true of it. Stops at `stop`, recording nothing
/// of the sub-problem it was proving.
pub fn shard(
    file: &Path,
    shard: Shard,
    settings: &ProofSettings,
    stop: &AtomicBool,
) -> Result<(), String> {
    let split = Split::read(file)?;
    let dir = file.parent().unwrap_or(Path::new("."));
    let dir = if dir.as_os_str().is_empty() {
        Path::new(".")
    } else {
        dir
    };
    let out = results::shard_file(dir, shard.index, shard.count);
    let mut appender = Appender::open(&out)?;
    let mut engine = settings.engine(settings.hash_mb);
    let limit_ms = settings.time.map(|t| t.as_millis() as u64);
    let by = format!("{}/{}", shard.index, shard.count);
    let mine: Vec<&String> = split
        .positions
        .iter()
        .enumerate()
        .filter(|&(i, _)| shard.owns(i))
        .map(|(_, p)| p)
        .collect();
    let (mut proven, mut skipped, mut unfinished) = (0, 0, 0);
    let (mut nodes, mut time) = (0u64, 0f64);
    let passes = settings.passes();
    let last_pass = passes.len() - 1;
    for (pass, pass_nodes) in passes.into_iter().enumerate() {
        if stop.load(Ordering::SeqCst) {
            break;
        }
        let mut limits = settings.limits();
        limits.nodes = pass_nodes;
        if last_pass > 0 {
            match pass_nodes {
                Some(n) => println!("pass {}: at most {n} nodes a sub-problem", pass + 1),
                None => println!("pass {}: no node limit", pass + 1),
            }
        }
        // Whether a sub-problem is still open at this pass's limit: only then is
        // a pass with more nodes worth making.
        let mut limited = false;
        for &name in &mine {
            if stop.load(Ordering::SeqCst) {
                break;
            }
            let results = Results::read(dir)?;
            let known = results.known();
            let why = if known.contains_key(name) {
                Some("proven already")
            } else if results
                .records
                .iter()
                .any(|r| &r.position == name && r.covers(limits.nodes, limit_ms))
            {
                Some(TRIED)
            } else if !merge(&split.root, split.depth, &known).open.contains(name) {
                Some("no longer needed: the results so far settle every line through it")
            } else {
                None
            };
            if let Some(why) = why {
                limited |= why == TRIED;
                if pass == last_pass {
                    println!("skip {name}: {why}");
                    skipped += 1;
                }
                continue;
            }
            let position: Position = name
                .parse()
                .map_err(|e| format!("{}: not a position string ({e})", file.display()))?;
            let abandon = AtomicBool::new(false);
            let done = AtomicBool::new(false);
            let record = std::thread::scope(|scope| {
                scope.spawn(|| watch(dir, &split, name, stop, &abandon, &done));
                let record = prove(&mut engine, &position, &limits, settings, &abandon, &by);
                done.store(true, Ordering::SeqCst);
                record
            });
            if record.verdict().is_none() && stop.load(Ordering::SeqCst) {
                println!("interrupted while proving {name}; nothing recorded for it");
                break;
            }
            if record.verdict().is_none() && abandon.load(Ordering::SeqCst) {
                println!(
                    "abandoned {name} after {} nodes: the results of others settled it \
                     or every line through it; nothing recorded for it",
                    record.nodes
                );
                skipped += 1;
                continue;
            }
            appender.append(&record)?;
            nodes += record.nodes;
            time += record.time_ms;
            match (&record.verdict, &record.best_move) {
                (Some(v), Some(m)) => println!(
                    "{name}: {v} ({m}), {} nodes in {:.3} s",
                    record.nodes,
                    record.time_ms / 1000.0
                ),
                (Some(v), None) => println!(
                    "{name}: {v}, {} nodes in {:.3} s",
                    record.nodes,
                    record.time_ms / 1000.0
                ),
                (None, _) => println!(
                    "{name}: open after {} nodes in {:.3} s (limit reached)",
                    record.nodes,
                    record.time_ms / 1000.0
                ),
            }
            if record.verdict.is_some() {
                proven += 1;
            } else if pass == last_pass {
                unfinished += 1;
            } else {
                limited = true;
            }
        }
        if !limited {
            break;
        }
    }
    println!(
        "shard {by}: {proven} proven, {unfinished} unfinished, {skipped} skipped; \
         {nodes} nodes in {:.3} s; results in {}",
        time / 1000.0,
        out.display()
    );
    Ok(())
}

/// How often a shard looks at the results of others while it proves a sub-problem.
const WATCH_INTERVAL: Duration = Duration::from_secs(2);

/// While a shard proves `name`, sets `abandon` when `stop` is set, or when the
/// results files of `dir` prove `name` or settle every line through it; returns
/// when `done` is set.
fn watch(
    dir: &Path,
    split: &Split,
    name: &str,
    stop: &AtomicBool,
    abandon: &AtomicBool,
    done: &AtomicBool,
) {
    let step = Duration::from_millis(50);
    let mut waited = Duration::ZERO;
    while !done.load(Ordering::SeqCst) {
        if stop.load(Ordering::SeqCst) {
            abandon.store(true, Ordering::SeqCst);
            return;
        }
        std::thread::sleep(step);
        waited += step;
        if waited < WATCH_INTERVAL {
            continue;
        }
        waited = Duration::ZERO;
        // A results file being written may be read half-way: try again later.
        let Ok(results) = Results::read(dir) else {
            continue;
        };
        let known = results.known();
        if known.contains_key(name)
            || !merge(&split.root, split.depth, &known)
                .open
                .iter()
                .any(|p| p == name)
        {
            abandon.store(true, Ordering::SeqCst);
            return;
        }
    }
}

/// Why a shard skips a sub-problem it tried within the same limits.
const TRIED: &str = "tried already within the same limits";
