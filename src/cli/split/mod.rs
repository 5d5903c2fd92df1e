//! `slimetrail solve --split`, `--positions` and `--merge`: a proof shared out as
//! independent sub-problems, proven by shards run as separate processes (by a batch
//! scheduler, GNU parallel, or by hand), and merged back into the root's verdict.

mod results;
mod tree;

use std::fmt::Write as _;
use std::fs;
use std::path::Path;
use std::str::FromStr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use serde::Serialize;

use self::results::{Appender, POSITIONS_FILE, Record, Results, Split, verdict_name};
use self::tree::{Value, canonical, merge, sub_problems};
use super::print_json;
use crate::board::Position;
use crate::search::{Engine, EngineOptions, Limits, Score, TimeControl, Verdict};

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

/// Which share of a list a process takes: the `K`-th of `N`, counted from 1.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Shard {
    /// Which share, from 1 to `count`.
    pub index: usize,
    /// How many shares.
    pub count: usize,
}

impl FromStr for Shard {
    type Err = String;

    fn from_str(text: &str) -> Result<Shard, String> {
        let expected = || format!("expected K/N with 1 <= K <= N, such as 2/8; found {text:?}");
        let (k, n) = text.split_once('/').ok_or_else(expected)?;
        let k: usize = k.trim().parse().map_err(|_| expected())?;
        let n: usize = n.trim().parse().map_err(|_| expected())?;
        if k == 0 || k > n {
            return Err(expected());
        }
        Ok(Shard { index: k, count: n })
    }
}

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
/// settled every line through them. Stops at `stop`, recording nothing of the
/// sub-problem it was proving.
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
        .filter(|(i, _)| i % shard.count == shard.index - 1)
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
            let record = prove(&mut engine, &position, &limits, settings, stop, &by);
            if record.verdict().is_none() && stop.load(Ordering::SeqCst) {
                println!("interrupted while proving {name}; nothing recorded for it");
                break;
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

/// Why a shard skips a sub-problem it tried within the same limits.
const TRIED: &str = "tried already within the same limits";

/// One move of the root in a merge report.
#[derive(Serialize, Clone, Debug)]
struct MoveReport {
    #[serde(rename = "move")]
    square: String,
    /// "win", "loss" (for the root's side to move), or "open".
    value: &'static str,
    /// Open sub-problems below it that still matter.
    open: usize,
}

/// The report of `solve --merge`; its fields are those `--json` prints.
#[derive(Serialize, Clone, Debug)]
struct MergeReport {
    root: String,
    depth: u32,
    side_to_move: u8,
    /// "win", "loss" for the side to move, or null while open.
    verdict: Option<&'static str>,
    /// 1 or 2, or null while open.
    winner: Option<u8>,
    /// A winning move of a proven win.
    best_move: Option<String>,
    moves: Vec<MoveReport>,
    /// Sub-problems listed by the split.
    sub_problems: usize,
    /// Of those, how many are proven.
    proven: usize,
    /// The open sub-problems that could still change the verdict.
    open: Vec<String>,
    /// Proven positions in all results files (sub-problems, and nodes the split settled).
    results: usize,
    /// Nodes and proof time summed over every record, unfinished attempts included.
    nodes: u64,
    time_ms: f64,
    /// Lines of the results files that are not records (cut short by a kill).
    torn_lines: usize,
}

/// `solve --merge DIR`: the root's verdict by minimax over the results so far, the
/// value of each root move, and the open sub-problems that still matter.
pub fn merge_dir(dir: &Path, json: bool) -> Result<(), String> {
    let split = Split::read(&dir.join(POSITIONS_FILE))?;
    let results = Results::read(dir)?;
    let known = results.known();
    let merged = merge(&split.root, split.depth, &known);
    let root = &split.root;
    let side = root.side_to_move();
    let verdict = match merged.root {
        Value::Known(v) => Some(v),
        Value::Open => None,
    };
    let value_name = |v: Value| match v {
        Value::Known(v) => verdict_name(v),
        Value::Open => "open",
    };
    let report = MergeReport {
        root: root.to_string(),
        depth: split.depth,
        side_to_move: side.number(),
        verdict: verdict.map(verdict_name),
        winner: verdict.map(|v| match v {
            Verdict::Win => side.number(),
            Verdict::Loss => (!side).number(),
        }),
        best_move: merged
            .winning_move
            .map(|s| root.name(s))
            .or_else(|| recorded_winning_move(root, &results)),
        moves: merged
            .moves
            .iter()
            .map(|&(square, value, open)| MoveReport {
                square: root.name(square),
                value: value_name(value),
                open,
            })
            .collect(),
        sub_problems: split.positions.len(),
        proven: split
            .positions
            .iter()
            .filter(|p| known.contains_key(*p))
            .count(),
        open: merged.open.clone(),
        results: known.len(),
        nodes: results.records.iter().map(|r| r.nodes).sum(),
        time_ms: results.records.iter().fold(0.0, |sum, r| sum + r.time_ms),
        torn_lines: results.torn,
    };
    if json {
        print_json(&report)
    } else {
        print!("{}", text(&report));
        Ok(())
    }
}

/// The winning move of `root` that a record of the root itself gives, if any (the
/// record's position may be the root's mirror image, and its move too).
fn recorded_winning_move(root: &Position, results: &Results) -> Option<String> {
    let name = canonical(root);
    let record = results
        .records
        .iter()
        .find(|r| r.position == name && r.verdict() == Some(Verdict::Win))?;
    let square = root
        .size()
        .parse_square(record.best_move.as_deref()?)
        .ok()?;
    let square = if name == root.to_string() {
        square
    } else {
        root.geometry().mirror_square(square)
    };
    Some(root.name(square))
}

/// The merge report as text.
fn text(report: &MergeReport) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "merge of {}, split at depth {}: {} of {} sub-problems proven",
        report.root, report.depth, report.proven, report.sub_problems
    );
    let player = report.side_to_move;
    let _ = match (report.verdict, report.winner) {
        (Some(verdict), Some(winner)) => writeln!(
            out,
            "root: player {player} to move {}: player {winner} wins",
            if verdict == "win" { "wins" } else { "loses" }
        ),
        _ => writeln!(out, "root: open"),
    };
    if let Some(best) = &report.best_move {
        let _ = writeln!(out, "winning move: {best}");
    }
    for m in &report.moves {
        let _ = match m.value {
            "open" => writeln!(
                out,
                "  {}: open, {} sub-problems below it still matter",
                m.square, m.open
            ),
            "win" => writeln!(out, "  {}: wins", m.square),
            _ => writeln!(out, "  {}: loses", m.square),
        };
    }
    let _ = writeln!(
        out,
        "work: {} proven positions, {} nodes, {:.3} s of proof time",
        report.results,
        report.nodes,
        report.time_ms / 1000.0
    );
    if report.torn_lines > 0 {
        let _ = writeln!(
            out,
            "ignored {} results lines cut short (their positions count as open)",
            report.torn_lines
        );
    }
    let _ = writeln!(
        out,
        "open sub-problems that still matter: {}",
        report.open.len()
    );
    for position in &report.open {
        let _ = writeln!(out, "  {position}");
    }
    out
}
