//! What ends a proof search (its budget) and what it counts (its statistics).

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// When a search must give up: the stop flag, a deadline, a node budget.
#[derive(Clone, Copy)]
pub struct Budget<'a> {
    /// Set by another thread to stop the search (the user's `stop`).
    pub stop: &'a AtomicBool,
    /// Set when a search running beside this one has made this one pointless.
    pub halts: [Option<&'a AtomicBool>; 2],
    /// Wall-clock limit.
    pub deadline: Option<Instant>,
    /// Node limit.
    pub nodes: u64,
}

impl<'a> Budget<'a> {
    /// A budget ended by `stop`, the deadline or the node count.
    pub fn new(stop: &'a AtomicBool, deadline: Option<Instant>, nodes: u64) -> Self {
        Budget {
            stop,
            halts: [None; 2],
            deadline,
            nodes,
        }
    }

    /// The same budget, also ended when `halt` is set (two such flags at most;
    /// a third replaces the second).
    pub fn with_halt(mut self, halt: &'a AtomicBool) -> Self {
        let slot = usize::from(self.halts[0].is_some());
        self.halts[slot] = Some(halt);
        self
    }

    /// Whether the search must stop now, having searched `nodes` nodes.
    #[inline]
    pub fn exhausted(&self, nodes: u64) -> bool {
        nodes >= self.nodes
            || self.stop.load(Ordering::Relaxed)
            || self
                .halts
                .iter()
                .flatten()
                .any(|h| h.load(Ordering::Relaxed))
            || self.deadline.is_some_and(|d| Instant::now() >= d)
    }
}

/// Counters of a proof search, for tuning and for `solve` reports.
#[derive(Clone, Copy, Default, Debug, PartialEq, Eq)]
pub struct ProverStats {
    /// Nodes visited.
    pub nodes: u64,
    /// Nodes answered by the transposition table.
    pub table_hits: u64,
    /// Nodes decided by a matching test.
    pub matching_verdicts: u64,
    /// Nodes decided by a child found in the table before searching (ETC).
    pub etc_cutoffs: u64,
    /// Nodes won by a move that leaves the opponent no safe reply.
    pub immediate_wins: u64,
    /// Nodes won by a move after which every reply allows such a move.
    pub wins_in_three: u64,
    /// Steps skipped because a reply to them leaves no safe move.
    pub losing_steps: u64,
    /// Flood fills to split regions into their pieces.
    pub floods: u64,
    /// Children skipped as mirror images at symmetric nodes.
    pub mirror_skips: u64,
    /// Nodes won by searching a child.
    pub searched_wins: u64,
    /// Nodes lost after searching every child.
    pub searched_losses: u64,
    /// Nodes won by a child searched after one that failed.
    pub late_wins: u64,
    /// Nodes searched below children that failed before a sibling won, each
    /// counted once however many such children lie above it: the nodes a perfect
    /// move order at the winning side's nodes would have saved, to first order.
    pub wasted_nodes: u64,
    /// Nodes whose pockets were folded.
    pub folds: u64,
}
