//! Miss-rate benchmark: from random positions of every phase, does a search of
//! `movetime` milliseconds return a winning move whenever one exists?
//!
//! A `cargo bench` target without the test harness, built with the release profile:
//! run it through `scripts/bench-missrate.sh`, or directly with
//! `cargo bench --bench missrate`. It exits non-zero on a miss.
//! Parameters (environment variables):
//! - `MISSRATE_POSITIONS` number of positions (default 1000);
//! - `MISSRATE_MS` movetime in milliseconds (default 100);
//! - `MISSRATE_SEED` seed of the position generator (default 1);
//! - `MISSRATE_SIZE` board size (default 7x7);
//! - `MISSRATE_VIA` `engine` (the library, default) or `protocol` (the real binary:
//!   `uginewgame`, `position fen ...`, `go movetime N`, one process for the run);
//! - `MISSRATE_THREADS` the engine's `Threads` option (default 1);
//! - `MISSRATE_STARTS` start squares, comma-separated (default: the default start
//!   and the square one up and right of it);
//! - `MISSRATE_PLIES` a range `A-B`: playouts of a uniformly random length from A to
//!   B plies (default: any length up to three quarters of the squares);
//! - `MISSRATE_TRUTH_NODES` node limit of each `solve` of the truth (default none);
//!   a position whose truth is not proven within it is skipped and counted, and a
//!   move whose value is not proven within it counts as undecided, not as a miss;
//! - `MISSRATE_CACHE` a file of known truths (`position<TAB>win|loss` lines), read
//!   first and appended to, so that runs of two builds on the same positions solve
//!   each position once (default none); a position left unproven is kept as
//!   `position<TAB>unproven N` and not tried again within N nodes or fewer.
//!
//! Positions are random playouts of random length from the default start and from
//! the square one up and right of it (e5 on 7×7), finished games and repeats skipped. The truth
//! comes from the engine's own exact `solve` without limits, on a separate engine;
//! a move wins if `solve` proves the position after it lost for the opponent.
//! Where the reachable region is small enough, the independent oracle of
//! tests/oracle cross-checks the truth (verdicts up to 34 squares).
//! Every search gets a fresh game (`new_game` / `uginewgame`).

// The benchmark uses only part of the helpers shared with the integration tests.
#[path = "../common/mod.rs"]
#[allow(dead_code)]
mod common;
#[path = "../oracle/mod.rs"]
#[allow(dead_code)]
mod oracle;

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use slimetrail::board::{Position, Size, Square};
use slimetrail::rng::Rng;
use slimetrail::search::{Engine, EngineOptions, Limits, Verdict};

use oracle::positions::region_size;
use oracle::{Grid, Oracle};

/// Largest region for which the independent oracle cross-checks verdicts.
const ORACLE_REGION: u32 = 34;

fn env_or<T: std::str::FromStr>(name: &str, default: T) -> T {
    match std::env::var(name) {
        Ok(text) => text.trim().parse().unwrap_or_else(|_| {
            panic!("{name}={text:?} cannot be read: expected a value like the default")
        }),
        Err(_) => default,
    }
}

/// How the searches are run.
enum Searcher {
    /// The library's engine, in this process.
    Library(Engine),
    /// The engine binary over the protocol.
    Protocol(common::Engine),
}

impl Searcher {
    fn new(via: &str, threads: usize) -> Searcher {
        match via {
            "engine" => Searcher::Library(Engine::new(EngineOptions {
                threads,
                ..EngineOptions::default()
            })),
            "protocol" => {
                let mut process = common::Engine::start();
                process.send("ugi");
                process.until(|l| l == "ugiok");
                process.send(&format!("setoption name Threads value {threads}"));
                Searcher::Protocol(process)
            }
            other => panic!("MISSRATE_VIA={other:?}: expected 'engine' or 'protocol'"),
        }
    }

    /// A fresh game, then a search of `ms` milliseconds: the move and the wall time.
    fn best_move(&mut self, position: &Position, ms: u64) -> (Option<Square>, Duration) {
        match self {
            Searcher::Library(engine) => {
                engine.new_game();
                let limits = Limits::movetime(Duration::from_millis(ms));
                let started = Instant::now();
                let out = engine.search(position, &limits, &AtomicBool::new(false), &mut |_| {});
                (out.best_move, started.elapsed())
            }
            Searcher::Protocol(process) => {
                process.send("uginewgame");
                process.send(&format!("position fen {position}"));
                process.sync();
                let started = Instant::now();
                process.send(&format!("go movetime {ms}"));
                let lines = process.until(|l| l.starts_with("bestmove"));
                let elapsed = started.elapsed();
                let last = lines.last().map_or("", String::as_str);
                let name = last.trim_start_matches("bestmove").trim();
                let square = position.size().parse_square(name).ok();
                (square, elapsed)
            }
        }
    }
}

/// A random playout from `start`, of a random length within `plies` (or up to three
/// quarters of the squares); `None` if the game ended.
fn playout(
    size: Size,
    start: Square,
    plies: Option<(u64, u64)>,
    rng: &mut Rng,
) -> Option<Position> {
    let mut position = Position::start_at(size, start).ok()?;
    let plies = match plies {
        Some((low, high)) => (low + rng.below(high - low + 1)) as usize,
        None => rng.below(size.squares() as u64 * 3 / 4) as usize,
    };
    let careful = rng.below(4) != 0;
    for _ in 0..plies {
        let moves: Vec<Square> = position.moves().iter().collect();
        let quiet: Vec<Square> = moves
            .iter()
            .copied()
            .filter(|&m| !position.after(m).outcome().is_over())
            .collect();
        let choices = if careful { &quiet } else { &moves };
        let Some(&mv) = rng.choose(choices) else {
            break;
        };
        position.play(mv);
        if position.outcome().is_over() {
            return None;
        }
    }
    (!position.outcome().is_over()).then_some(position)
}

/// Reads `MISSRATE_PLIES` as `A-B`.
fn plies_range() -> Option<(u64, u64)> {
    let text = std::env::var("MISSRATE_PLIES").ok()?;
    let (low, high) = text
        .split_once('-')
        .and_then(|(a, b)| Some((a.trim().parse().ok()?, b.trim().parse().ok()?)))
        .filter(|&(a, b): &(u64, u64)| a <= b)
        .unwrap_or_else(|| panic!("MISSRATE_PLIES={text:?}: expected A-B with A <= B, e.g. 2-20"));
    Some((low, high))
}

/// Known truths, by position string, the positions whose proof failed within a node
/// limit (with that limit), and the file both are appended to.
struct TruthCache {
    known: std::collections::HashMap<String, Verdict>,
    unproven: std::collections::HashMap<String, u64>,
    file: Option<std::fs::File>,
}

impl TruthCache {
    fn open(path: Option<String>) -> TruthCache {
        let mut known = std::collections::HashMap::new();
        let mut unproven = std::collections::HashMap::new();
        let Some(path) = path else {
            return TruthCache {
                known,
                unproven,
                file: None,
            };
        };
        if let Ok(text) = std::fs::read_to_string(&path) {
            for line in text.lines() {
                let verdict = match line.rsplit_once('\t') {
                    Some((p, "win")) => Some((p, Verdict::Win)),
                    Some((p, "loss")) => Some((p, Verdict::Loss)),
                    _ => None,
                };
                if let Some((p, v)) = verdict {
                    known.insert(p.to_string(), v);
                } else if let Some((p, limit)) = line.rsplit_once("\tunproven ") {
                    if let Ok(limit) = limit.parse::<u64>() {
                        let kept = unproven.entry(p.to_string()).or_insert(limit);
                        *kept = (*kept).max(limit);
                    }
                }
            }
        }
        let file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&path)
            .unwrap_or_else(|e| panic!("MISSRATE_CACHE={path}: cannot open it for appending: {e}"));
        TruthCache {
            known,
            unproven,
            file: Some(file),
        }
    }

    /// Whether `position` was left unproven within `limit` nodes or more before.
    fn unproven_within(&self, position: &Position, limit: u64) -> bool {
        self.unproven
            .get(&position.to_string())
            .is_some_and(|&tried| tried >= limit)
    }

    /// Notes that `position` was not proven within `limit` nodes, so that the next run
    /// with the same limit skips it at once.
    fn record_unproven(&mut self, position: &Position, limit: u64) {
        use std::io::Write;
        self.unproven.insert(position.to_string(), limit);
        if let Some(file) = &mut self.file {
            let _ = writeln!(file, "{position}\tunproven {limit}");
        }
    }

    fn record(&mut self, position: &Position, verdict: Verdict) {
        use std::io::Write;
        self.known.insert(position.to_string(), verdict);
        if let Some(file) = &mut self.file {
            let name = if verdict == Verdict::Win {
                "win"
            } else {
                "loss"
            };
            let _ = writeln!(file, "{position}\t{name}");
        }
    }
}

fn percentile(sorted: &[Duration], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let index = ((sorted.len() - 1) as f64 * p).round() as usize;
    sorted[index].as_secs_f64() * 1000.0
}

fn main() -> std::process::ExitCode {
    let count: usize = env_or("MISSRATE_POSITIONS", 1000);
    let ms: u64 = env_or("MISSRATE_MS", 100);
    let seed: u64 = env_or("MISSRATE_SEED", 1);
    let size: Size = env_or("MISSRATE_SIZE", Size::DEFAULT);
    let via: String = env_or("MISSRATE_VIA", "engine".to_string());
    let mut rng = Rng::new(seed);
    let mut truth = Engine::new(EngineOptions {
        hash_mb: 128,
        ..EngineOptions::default()
    });
    let threads: usize = env_or("MISSRATE_THREADS", 1);
    let mut searcher = Searcher::new(&via, threads);
    let stop = AtomicBool::new(false);
    let grid = (size.squares() <= 56).then(|| Grid::new(size.width(), size.height()));
    let starts: Vec<Square> = match std::env::var("MISSRATE_STARTS") {
        Ok(names) => names
            .split(',')
            .map(|name| {
                size.parse_square(name.trim())
                    .unwrap_or_else(|e| panic!("MISSRATE_STARTS: {name:?}: {e}"))
            })
            .collect(),
        Err(_) => size.usual_starts().to_vec(),
    };
    let starts: Vec<Square> = starts
        .into_iter()
        .filter(|&s| size.goal_owner(s).is_none())
        .collect();
    let plies = plies_range();
    let truth_nodes: Option<u64> = std::env::var("MISSRATE_TRUTH_NODES").ok().map(|n| {
        n.trim()
            .parse()
            .expect("MISSRATE_TRUTH_NODES: expected a node count")
    });
    let mut cache = TruthCache::open(std::env::var("MISSRATE_CACHE").ok());
    let (mut unknown, mut undecided) = (0, 0);
    let (mut positions, mut winning, mut misses, mut cross_checked) = (0, 0, Vec::new(), 0);
    let mut disagreements = Vec::new();
    let mut seen = std::collections::HashSet::new();
    let mut times = Vec::new();
    let mut overruns = Vec::new();
    let mut truth_time = Duration::ZERO;
    let truth_limits = match truth_nodes {
        Some(n) => Limits::nodes(n),
        None => Limits::default(),
    };
    let mut solve = |p: &Position| -> Option<Verdict> {
        if let Some(&v) = cache.known.get(&p.to_string()) {
            return Some(v);
        }
        if truth_nodes.is_some_and(|limit| cache.unproven_within(p, limit)) {
            return None;
        }
        truth.new_game();
        let started = Instant::now();
        let out = truth.prove(p, &truth_limits, &stop, &mut |_| {});
        truth_time += started.elapsed();
        if truth_nodes.is_none() && out.verdict.is_none() {
            panic!("solve without limits gave no verdict for {p}");
        }
        match (out.verdict, truth_nodes) {
            (Some(v), _) => cache.record(p, v),
            (None, Some(limit)) => cache.record_unproven(p, limit),
            (None, None) => {}
        }
        out.verdict
    };
    while positions < count {
        let start = starts[rng.below(starts.len() as u64) as usize];
        let Some(position) = playout(size, start, plies, &mut rng) else {
            continue;
        };
        if !seen.insert(position) {
            continue;
        }
        positions += 1;
        let Some(verdict) = solve(&position) else {
            unknown += 1;
            continue;
        };
        if let Some(grid) = &grid {
            let state = oracle::state_from_fen(grid, &position.to_string());
            if region_size(grid, &state) <= ORACLE_REGION {
                cross_checked += 1;
                let wins = Oracle::new(grid.clone()).wins(&state);
                if wins != (verdict == Verdict::Win) {
                    disagreements
                        .push(format!("{position}: solve {verdict:?}, oracle wins={wins}"));
                }
            }
        }
        let (best, elapsed) = searcher.best_move(&position, ms);
        times.push(elapsed);
        if elapsed.as_millis() > u128::from(ms) + 5 {
            overruns.push((elapsed, position));
        }
        if verdict != Verdict::Win {
            continue;
        }
        winning += 1;
        let wins = best.filter(|&m| position.moves().contains(m)).map(|m| {
            let child = position.after(m);
            if child.outcome().is_over() {
                Some(child.outcome().winner() == Some(position.side_to_move()))
            } else {
                solve(&child).map(|v| v == Verdict::Loss)
            }
        });
        if wins == Some(None) {
            winning -= 1;
            undecided += 1;
            continue;
        }
        if wins != Some(Some(true)) {
            let name = best.map_or("none".to_string(), |m| position.name(m));
            misses.push(format!("{position} (played {name})"));
        }
    }
    times.sort();
    let over = overruns.len();
    let early = times
        .iter()
        .filter(|t| t.as_millis() < u128::from(ms) / 2)
        .count();
    println!("== miss rate: {size}, go movetime {ms} via {via}, seed {seed}, threads {threads}");
    println!("positions (distinct) {positions}");
    if truth_nodes.is_some() {
        println!("truth not proven     {unknown} (within MISSRATE_TRUTH_NODES, skipped)");
        println!("move not proven      {undecided} (played move's value unknown, not counted)");
    }
    println!("with a winning move  {winning}");
    println!("misses               {}", misses.len());
    println!(
        "miss rate            {:.3}% of winning positions",
        100.0 * misses.len() as f64 / winning.max(1) as f64
    );
    for miss in &misses {
        println!("miss                 {miss}");
    }
    println!(
        "search time ms       min {:.1}  median {:.1}  p90 {:.1}  p99 {:.1}  max {:.1}",
        percentile(&times, 0.0),
        percentile(&times, 0.5),
        percentile(&times, 0.9),
        percentile(&times, 0.99),
        percentile(&times, 1.0)
    );
    println!(
        "searches over {ms}+5 ms {over}; under {} ms (proven early) {early}",
        ms / 2
    );
    overruns.sort_by_key(|&(elapsed, _)| std::cmp::Reverse(elapsed));
    for (elapsed, position) in overruns.iter().take(10) {
        let ms = elapsed.as_secs_f64() * 1000.0;
        println!("overrun              {ms:.1} ms  {position}");
    }
    println!(
        "truth: solve total {:.1} s; oracle cross-checked {cross_checked} verdicts, {} disagreements",
        truth_time.as_secs_f64(),
        disagreements.len()
    );
    for d in &disagreements {
        println!("disagreement         {d}");
    }
    if !disagreements.is_empty() {
        eprintln!("error: solve disagrees with the oracle");
        return std::process::ExitCode::FAILURE;
    }
    if !misses.is_empty() {
        eprintln!("error: {} misses out of {winning}", misses.len());
        return std::process::ExitCode::FAILURE;
    }
    std::process::ExitCode::SUCCESS
}
