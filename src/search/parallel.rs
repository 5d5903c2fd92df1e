//! Several proof searches at once, sharing one transposition table.
//!
//! Every thread proves the same root, in the same move order. At nodes where the
//! side expected to lose moves ([`Busy`]), a thread leaves a child another thread
//! is searching for last (the first child excepted), so threads work on different
//! subtrees; at the other nodes it follows the others into the same child. Whatever
//! any thread proves goes into the shared table, where the others find it. The
//! first thread to finish halts the rest. (Helpers once broke ties in move order
//! their own way; that sent them into moves that lose where the first move wins:
//! on 7×7 from e5, two threads searched 2.5 M nodes where one searches 1.36 M.)

use std::sync::atomic::{AtomicBool, Ordering};

use crate::board::{Position, Square, Word};

use super::busy::Busy;
use super::prover::{Budget, Prover, ProverStats};
use super::reduced::Proof;
use super::tt::Table;

/// The outcome of a proof search on one or more threads.
pub struct ParallelProof {
    /// The proof and its move, or `None` if no thread finished within the budget.
    pub result: Option<(Proof, Option<Square>)>,
    /// Nodes of all threads together.
    pub nodes: u64,
    /// Deepest ply any thread reached.
    pub seldepth: u32,
    /// The main thread's counters.
    pub main: ProverStats,
}

/// Proves `position` on `threads` threads (at least one) within `budget`, whose
/// nodes are shared out among the threads, folding pockets if `fold_pockets`. Only
/// the main thread calls `progress`.
pub fn prove_within<W: Word>(
    table: &Table,
    position: &Position<W>,
    threads: usize,
    budget: Budget,
    fold_pockets: bool,
    progress: Option<&mut dyn FnMut(&ProverStats)>,
) -> ParallelProof {
    let geo = position.geometry();
    let threads = threads.max(1);
    let done = AtomicBool::new(false);
    let busy = Busy::new(position.side_to_move());
    let busy = &busy;
    let share = (budget.nodes / threads as u64).max(1);
    let budget = || {
        Budget {
            nodes: share,
            ..budget
        }
        .with_halt(&done)
    };
    std::thread::scope(|scope| {
        let helpers: Vec<_> = (1..threads)
            .map(|_| {
                let (done, position, budget) = (&done, *position, budget());
                scope.spawn(move || {
                    let mut prover = Prover::new(geo, table, budget)
                        .for_long_proof()
                        .folding_pockets(fold_pockets)
                        .with_busy(busy);
                    let result = prover.prove(&position);
                    if result.is_some() {
                        done.store(true, Ordering::Relaxed);
                    }
                    (result, prover.stats.nodes, prover.seldepth)
                })
            })
            .collect();
        let mut prover = Prover::new(geo, table, budget())
            .for_long_proof()
            .folding_pockets(fold_pockets);
        if threads > 1 {
            prover = prover.with_busy(busy);
        }
        if let Some(progress) = progress {
            prover = prover.with_progress(progress);
        }
        let mut result = prover.prove(position);
        done.store(true, Ordering::Relaxed);
        let mut total = prover.stats.nodes;
        let mut seldepth = prover.seldepth;
        let main = prover.stats;
        for helper in helpers {
            match helper.join() {
                Ok((helper_result, helper_nodes, helper_seldepth)) => {
                    total += helper_nodes;
                    seldepth = seldepth.max(helper_seldepth);
                    if result.is_none() {
                        result = helper_result;
                    }
                }
                Err(_) => log::error!("a proof-search helper thread panicked"),
            }
        }
        ParallelProof {
            result,
            nodes: total,
            seldepth,
            main,
        }
    })
}
