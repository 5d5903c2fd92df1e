//! `slimetrail solve` and `slimetrail bench`.

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use clap::Args;

use super::PositionArgs;
use crate::search::{
    BENCH_DEPTH, Engine, EngineOptions, HASH_MB, Limits, Score, SearchInfo, THREADS, TimeControl,
    Verdict,
};

/// Arguments of `slimetrail solve`.
#[derive(Args, Debug)]
pub struct SolveArgs {
    /// The position to prove.
    #[command(flatten)]
    pub from: PositionArgs,
    /// Transposition-table size in MiB; an upper bound: boards of up to 49 squares
    /// use at most 4, which holds every proof there.
    #[arg(long, value_name = "MB", default_value_t = 256,
          value_parser = clap::value_parser!(u64).range(HASH_MB.min as u64..=HASH_MB.max as u64))]
    pub hash: u64,
    /// Give up after this many seconds.
    #[arg(long, value_name = "SECONDS")]
    pub time: Option<f64>,
    /// Proof-search threads sharing the table.
    #[arg(long, default_value_t = 1,
          value_parser = clap::value_parser!(u64).range(THREADS.min as u64..=THREADS.max as u64))]
    pub threads: u64,
}

/// Arguments of `slimetrail bench`.
#[derive(Args, Debug)]
pub struct BenchArgs {
    /// Depth of the search on every position.
    #[arg(long, default_value_t = BENCH_DEPTH)]
    pub depth: u32,
    /// Transposition-table size in MiB.
    #[arg(long, value_name = "MB", default_value_t = 16)]
    pub hash: usize,
}

fn mnps(nodes: u64, time: Duration) -> f64 {
    nodes as f64 / time.as_secs_f64().max(1e-9) / 1e6
}

/// Proves a position and prints the verdict, a winning move, the game's length and the speed.
pub fn solve(args: &SolveArgs) -> Result<(), String> {
    let position = args.from.position()?;
    if let Some(winner) = position.outcome().winner() {
        return Err(format!(
            "the game is already over: {winner} has won; expected a position with a move to play"
        ));
    }
    let mut limits = Limits::default();
    if let Some(seconds) = args.time {
        if !(seconds > 0.0 && seconds.is_finite()) {
            return Err(format!(
                "--time: expected a positive number of seconds, found {seconds}"
            ));
        }
        limits.time = TimeControl::MoveTime(Duration::from_secs_f64(seconds));
    }
    let mut engine = Engine::new(EngineOptions {
        hash_mb: args.hash as usize,
        threads: args.threads as usize,
        ..EngineOptions::default()
    });
    let stop = AtomicBool::new(false);
    let started = Instant::now();
    let mut progress = |info: &SearchInfo| {
        if info.score.is_none() {
            println!(
                "... {:.1} M nodes in {:.1} s ({:.2} M nodes/s), table {:.1}% full",
                info.nodes as f64 / 1e6,
                info.time.as_secs_f64(),
                mnps(info.nodes, info.time),
                f64::from(info.hashfull) / 10.0
            );
        }
    };
    let outcome = engine.solve(&position, &limits, &stop, &mut progress);
    let elapsed = started.elapsed();
    let side = position.side_to_move();
    let name = |s| position.name(s);
    match outcome.verdict {
        None => println!("unsolved: the time limit ran out before a proof"),
        Some(verdict) => {
            let (winner, word) = match verdict {
                Verdict::Win => (side, "wins"),
                Verdict::Loss => (!side, "loses"),
            };
            println!("{side} to move {word}: {winner} wins with best play");
            if let Some(mv) = outcome.best_move {
                let what = if verdict == Verdict::Win {
                    "winning move"
                } else {
                    "longest resistance"
                };
                println!("{what}: {}", name(mv));
            }
            match (outcome.length, outcome.info.score) {
                (Some(n), _) => println!("game length under best play: {n} plies"),
                (None, Some(Score::Mate(n))) => println!(
                    "game length under best play: at most {} plies",
                    n.unsigned_abs()
                ),
                _ => {}
            }
            let line: Vec<String> = outcome.info.pv.iter().map(|&s| name(s)).collect();
            println!("line: {}", line.join(" "));
        }
    }
    println!(
        "proof: {} nodes in {:.3} s ({:.2} M nodes/s)",
        outcome.proof_nodes,
        outcome.proof_time.as_secs_f64(),
        mnps(outcome.proof_nodes, outcome.proof_time)
    );
    println!(
        "total with the line and the length: {} nodes in {:.3} s",
        outcome.info.nodes,
        elapsed.as_secs_f64()
    );
    Ok(())
}

/// Searches the bench positions and prints nodes, time and speed.
pub fn bench(args: &BenchArgs) -> Result<(), String> {
    if args.depth == 0 || args.depth > 64 {
        return Err(format!("--depth: expected 1 to 64, found {}", args.depth));
    }
    let mut engine = Engine::new(EngineOptions {
        hash_mb: args.hash.max(1),
        ..EngineOptions::default()
    });
    let mut index = 0;
    let lines = engine.bench(args.depth, &mut |line| {
        index += 1;
        println!(
            "position {index:>2}: {:>10} nodes {:>8.3} s  {}",
            line.nodes,
            line.time.as_secs_f64(),
            line.position
        );
    });
    let nodes: u64 = lines.iter().map(|l| l.nodes).sum();
    let time: Duration = lines.iter().map(|l| l.time).sum();
    println!("===========================");
    println!("Total time (ms) : {}", time.as_millis());
    println!("Nodes searched  : {nodes}");
    println!(
        "Nodes/second    : {}",
        (nodes as f64 / time.as_secs_f64().max(1e-9)) as u64
    );
    Ok(())
}
