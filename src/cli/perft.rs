//! `slimetrail perft`: move-generation counts with timing.

use std::fmt;
use std::time::Instant;

use clap::Args;
use serde::Serialize;

use super::{JsonError, PositionArgError, PositionArgs, milliseconds, per_second, print_json};
use crate::board::{divide, perft, perft_in};

/// Arguments of `slimetrail perft`.
#[derive(Args, Debug)]
pub struct PerftArgs {
    /// Number of plies.
    pub depth: u32,
    /// Where to count from.
    #[command(flatten)]
    pub from: PositionArgs,
    /// Count with 128-bit boards even where 64 bits suffice (to measure what the
    /// wide representation would cost small boards).
    #[arg(long, hide = true)]
    pub wide: bool,
    /// Print one JSON object instead of the text report. Its fields:
    ///   position          the position counted from, as a position string
    ///   depth             plies counted
    ///   moves             per first move: {"move": square, "leaves": count},
    ///                     sorted by square name (empty at depth 0)
    ///   leaves            move sequences of exactly `depth` plies in total
    ///   time_ms           time of the count in milliseconds
    ///   leaves_per_second leaves / time
    ///   wide              whether 128-bit boards were forced
    #[arg(long, verbatim_doc_comment)]
    pub json: bool,
}

/// The count of one first move.
#[derive(Serialize, Debug)]
struct MoveCount {
    /// The first move.
    #[serde(rename = "move")]
    square: String,
    /// Sequences starting with it.
    leaves: u64,
}

/// Everything `perft` reports, in the form `--json` prints.
#[derive(Serialize, Debug)]
struct PerftReport {
    position: String,
    depth: u32,
    moves: Vec<MoveCount>,
    leaves: u64,
    time_ms: f64,
    leaves_per_second: u64,
    wide: bool,
}

/// Why `slimetrail perft` cannot count.
#[derive(Debug)]
pub enum PerftError {
    /// The position arguments are wrong.
    Position(PositionArgError),
    /// The report cannot be written as JSON.
    Json(JsonError),
}

impl fmt::Display for PerftError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PerftError::Position(e) => e.fmt(f),
            PerftError::Json(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for PerftError {}

/// Prints per-move counts, the total, the time and the speed.
pub fn run(args: &PerftArgs) -> Result<(), PerftError> {
    let position = args.from.position().map_err(PerftError::Position)?;
    log::info!("perft {} from {position}", args.depth);
    let started = Instant::now();
    let per_move = if args.wide {
        position
            .moves()
            .iter()
            .map(|to| {
                (
                    to,
                    perft_in(&position.after(to), args.depth.saturating_sub(1)),
                )
            })
            .collect()
    } else {
        divide(&position, args.depth)
    };
    let leaves: u64 = if args.depth == 0 {
        perft(&position, 0)
    } else {
        per_move.iter().map(|&(_, n)| n).sum()
    };
    let elapsed = started.elapsed();
    let mut moves: Vec<MoveCount> = per_move
        .into_iter()
        .map(|(square, leaves)| MoveCount {
            square: position.name(square),
            leaves,
        })
        .collect();
    moves.sort_by(|a, b| a.square.cmp(&b.square));
    let report = PerftReport {
        position: position.to_string(),
        depth: args.depth,
        moves,
        leaves,
        time_ms: milliseconds(elapsed),
        leaves_per_second: per_second(leaves, elapsed),
        wide: args.wide,
    };
    if args.json {
        return print_json(&report).map_err(PerftError::Json);
    }
    for count in &report.moves {
        println!("{}: {}", count.square, count.leaves);
    }
    println!(
        "total {} leaves at depth {} in {:.3} s ({:.1} M leaves/s)",
        report.leaves,
        report.depth,
        elapsed.as_secs_f64(),
        report.leaves_per_second as f64 / 1e6
    );
    Ok(())
}
