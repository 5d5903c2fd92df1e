//! `slimetrail perft`: move-generation counts with timing.

use std::time::Instant;

use clap::Args;

use super::PositionArgs;
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
}

/// Prints per-move counts, the total, the time and the speed.
pub fn run(args: &PerftArgs) -> Result<(), String> {
    let position = args.from.position()?;
    log::info!("perft {} from {position}", args.depth);
    let started = Instant::now();
    let mut per_move = if args.wide {
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
    let total: u64 = if args.depth == 0 {
        perft(&position, 0)
    } else {
        per_move.iter().map(|&(_, n)| n).sum()
    };
    let seconds = started.elapsed().as_secs_f64();
    per_move.sort_by_key(|&(square, _)| position.name(square));
    for (square, count) in per_move {
        println!("{}: {count}", position.name(square));
    }
    let rate = total as f64 / seconds.max(1e-9);
    println!(
        "total {total} leaves at depth {} in {seconds:.3} s ({:.1} M leaves/s)",
        args.depth,
        rate / 1e6
    );
    Ok(())
}
