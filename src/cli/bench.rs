//! `slimetrail bench`: the node count that identifies the search, and its speed.

use std::fmt;
use std::time::Duration;

use clap::Args;
use serde::Serialize;

use super::{JsonError, milliseconds, per_second, print_json};
use crate::search::{BENCH_DEPTH, BenchLine, Engine, EngineOptions};

/// Rounds of the bench set that `--speed` searches: a few seconds, enough for
/// every position to have a round undisturbed by other programs.
pub const SPEED_ROUNDS: u32 = 100;

/// Arguments of `slimetrail bench`.
#[derive(Args, Debug)]
pub struct BenchArgs {
    /// Depth of the search on every position.
    #[arg(long, default_value_t = BENCH_DEPTH)]
    pub depth: u32,
    /// Transposition-table size in MiB.
    #[arg(long, value_name = "MB", default_value_t = 16)]
    pub hash: usize,
    /// Search the whole set N times, each position from an empty table every time,
    /// and also report the best speed: the nodes over the sum, per position, of its
    /// fastest round's processor time. Every round searches the same nodes, so the
    /// node count stays that of one round.
    #[arg(long, value_name = "N", default_value_t = 1,
          value_parser = clap::value_parser!(u32).range(1..=10_000))]
    pub repeat: u32,
    /// Speed measurement: the same as `--repeat 100`. One round takes only tens of
    /// milliseconds, too short for a speed figure that repeats; the best speed of
    /// 100 rounds repeats within a few per cent.
    #[arg(long, conflicts_with = "repeat")]
    pub speed: bool,
    /// Print one JSON object instead of the text report. Its fields:
    ///   depth        search depth on every position
    ///   hash_mb      table size in MiB
    ///   positions    per position, from the first round:
    ///                {"position": string, "nodes": count, "time_ms": ms}
    ///   nodes        nodes of one round: the bench signature
    ///   time_ms      wall-clock time of the searches, all rounds together
    ///   nps          nodes per second of wall-clock time, all rounds together
    ///   cpu_time_ms  processor time of the searches, all rounds together
    ///   cpu_nps      nodes per second of processor time, all rounds together
    ///   best_nps     nodes of one round over the sum, per position, of its
    ///                fastest round's processor time: the least disturbed by other
    ///                programs, so the figure to compare (with one round: cpu_nps)
    ///   rounds       per round: {"nodes", "time_ms", "nps", "cpu_time_ms", "cpu_nps"}
    #[arg(long, verbatim_doc_comment)]
    pub json: bool,
}

/// One search of the whole bench set.
#[derive(Serialize, Debug, Clone, Copy)]
struct Round {
    nodes: u64,
    time_ms: f64,
    nps: u64,
    cpu_time_ms: f64,
    cpu_nps: u64,
}

/// One position of the first round.
#[derive(Serialize, Debug)]
struct PositionFigures {
    position: String,
    nodes: u64,
    time_ms: f64,
}

/// Everything `bench` reports, in the form `--json` prints.
#[derive(Serialize, Debug)]
struct BenchReport {
    depth: u32,
    hash_mb: usize,
    positions: Vec<PositionFigures>,
    nodes: u64,
    time_ms: f64,
    nps: u64,
    cpu_time_ms: f64,
    cpu_nps: u64,
    best_nps: u64,
    rounds: Vec<Round>,
}

/// Why `slimetrail bench` cannot measure.
#[derive(Debug)]
pub enum BenchError {
    /// `--depth` is not from 1 to 64.
    Depth(u32),
    /// Two rounds of the same searches searched different nodes.
    Unrepeatable {
        /// The round that differed, from 2.
        round: u32,
        /// Its nodes.
        nodes: u64,
        /// The nodes of round 1.
        first: u64,
    },
    /// The report cannot be written as JSON.
    Json(JsonError),
}

impl fmt::Display for BenchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BenchError::Depth(depth) => write!(f, "--depth: expected 1 to 64, found {depth}"),
            BenchError::Unrepeatable {
                round,
                nodes,
                first,
            } => write!(
                f,
                "round {round} searched {nodes} nodes but round 1 searched {first}: \
                 expected every round to search the same nodes"
            ),
            BenchError::Json(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for BenchError {}

/// Searches the bench positions and prints nodes, time and speed.
pub fn run(args: &BenchArgs) -> Result<(), BenchError> {
    if args.depth == 0 || args.depth > 64 {
        return Err(BenchError::Depth(args.depth));
    }
    let repeat = if args.speed {
        SPEED_ROUNDS
    } else {
        args.repeat
    };
    let hash_mb = args.hash.max(1);
    let mut engine = Engine::new(EngineOptions {
        hash_mb,
        ..EngineOptions::default()
    });
    let text = !args.json;
    let mut first: Vec<BenchLine> = Vec::new();
    let mut rounds: Vec<Round> = Vec::new();
    let (mut time, mut cpu_time) = (Duration::ZERO, Duration::ZERO);
    // Per position, the processor time of its fastest round.
    let mut fastest: Vec<Duration> = Vec::new();
    for round in 1..=repeat {
        let mut index = 0;
        let lines = engine.bench(args.depth, &mut |line| {
            index += 1;
            if text && round == 1 {
                println!(
                    "position {index:>2}: {:>10} nodes {:>8.3} s  {}",
                    line.nodes,
                    line.time.as_secs_f64(),
                    line.position
                );
            }
        });
        let nodes: u64 = lines.iter().map(|l| l.nodes).sum();
        let round_time: Duration = lines.iter().map(|l| l.time).sum();
        let round_cpu_time: Duration = lines.iter().map(|l| l.cpu_time).sum();
        time += round_time;
        cpu_time += round_cpu_time;
        fastest.resize(lines.len(), Duration::MAX);
        for (best, line) in fastest.iter_mut().zip(&lines) {
            *best = (*best).min(line.cpu_time);
        }
        let figures = Round {
            nodes,
            time_ms: milliseconds(round_time),
            nps: per_second(nodes, round_time),
            cpu_time_ms: milliseconds(round_cpu_time),
            cpu_nps: per_second(nodes, round_cpu_time),
        };
        match rounds.first() {
            Some(previous) if previous.nodes != nodes => {
                return Err(BenchError::Unrepeatable {
                    round,
                    nodes,
                    first: previous.nodes,
                });
            }
            Some(_) => {}
            None => first = lines,
        }
        if text && repeat > 1 {
            println!(
                "round {round:>3}: {nodes:>10} nodes {:>8.3} s  {:>6.3} M nodes/s",
                round_time.as_secs_f64(),
                figures.nps as f64 / 1e6,
            );
        }
        rounds.push(figures);
    }
    let nodes = rounds[0].nodes;
    let all_nodes = nodes * u64::from(repeat);
    let report = BenchReport {
        depth: args.depth,
        hash_mb,
        positions: first
            .iter()
            .map(|l| PositionFigures {
                position: l.position.clone(),
                nodes: l.nodes,
                time_ms: milliseconds(l.time),
            })
            .collect(),
        nodes,
        time_ms: milliseconds(time),
        nps: per_second(all_nodes, time),
        cpu_time_ms: milliseconds(cpu_time),
        cpu_nps: per_second(all_nodes, cpu_time),
        best_nps: per_second(nodes, fastest.iter().sum()),
        rounds,
    };
    if args.json {
        return print_json(&report).map_err(BenchError::Json);
    }
    println!("===========================");
    println!("Total time (ms) : {}", time.as_millis());
    println!("Nodes searched  : {nodes}");
    println!("Nodes/second    : {}", report.nps);
    if repeat > 1 {
        println!(
            "Best nodes/sec  : {} (per position its fastest of {repeat} rounds, \
             in processor time: the figure to compare)",
            report.best_nps
        );
    }
    Ok(())
}
