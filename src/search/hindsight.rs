//! Hindsight move order: a bound on what a perfect move order would save.
//!
//! The position is proven twice, each time with a fresh table of the same size. The
//! second proof tries first, at each node whose region has at least a given number
//! of squares, the winning move the first proof stored for it. The second count is
//! not a search anyone could run without the first; it measures how far from
//! saturated the move order is, and at which region sizes the gain lies.

use std::sync::atomic::AtomicBool;

use crate::board::{Position, Word};

use super::lines::MemoryError;
use super::prover::{Budget, Prover};
use super::reduced::Proof;
use super::report::Verdict;
use super::tt::Table;

/// The two proofs of a hindsight measurement.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hindsight {
    /// The first proof's verdict for the side to move; `None` if it was stopped.
    pub verdict: Option<Verdict>,
    /// Nodes of the first proof, in the default order.
    pub default_nodes: u64,
    /// The second proof's verdict; it must be the first one's.
    pub hinted_verdict: Option<Verdict>,
    /// Nodes of the second proof, with the first one's winning moves first.
    pub hinted_nodes: u64,
}

/// Proves `position` twice on one thread, each time with a table of `megabytes`
/// MiB (the whole size, also on small boards): once in the default order, and once with the
/// first proof's winning moves tried first at nodes of regions of at least
/// `min_region` squares. `stop` ends both.
pub fn hindsight(
    position: &Position,
    megabytes: usize,
    min_region: u32,
    stop: &AtomicBool,
) -> Result<Hindsight, MemoryError> {
    match position.convert::<u64>() {
        Some(narrow) => hindsight_in(&narrow, megabytes, min_region, stop),
        None => hindsight_in(position, megabytes, min_region, stop),
    }
}

fn hindsight_in<W: Word>(
    position: &Position<W>,
    megabytes: usize,
    min_region: u32,
    stop: &AtomicBool,
) -> Result<Hindsight, MemoryError> {
    let geo = position.geometry();
    let budget = Budget::new(stop, None, u64::MAX);
    let first = Table::try_new_with(megabytes, true)?;
    let mut prover = Prover::new(geo, &first, budget).for_long_proof();
    let verdict = prover.prove(position).map(|(proof, _)| verdict_of(proof));
    let default_nodes = prover.stats.nodes;
    let second = Table::try_new_with(megabytes, true)?;
    let mut prover = Prover::new(geo, &second, budget)
        .for_long_proof()
        .with_hints(&first, min_region);
    let hinted_verdict = prover.prove(position).map(|(proof, _)| verdict_of(proof));
    Ok(Hindsight {
        verdict,
        default_nodes,
        hinted_verdict,
        hinted_nodes: prover.stats.nodes,
    })
}

fn verdict_of(proof: Proof) -> Verdict {
    if proof.is_win() {
        Verdict::Win
    } else {
        Verdict::Loss
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn measure(position: &str, min_region: u32) -> Hindsight {
        let position = Position::parse(position).expect("a valid position");
        hindsight(&position, 4, min_region, &AtomicBool::new(false)).expect("a 4 MiB table")
    }

    #[test]
    fn hints_keep_the_verdict_and_cut_the_nodes_of_a_win_with_failed_first_tries() {
        // 7x7 from e5: a win for player 1 whose proof tries losing moves first.
        let h = measure("7/7/4s2/7/7/7/7 1", 0);
        assert_eq!(h.verdict, Some(Verdict::Win));
        assert_eq!(h.hinted_verdict, h.verdict);
        assert!(h.hinted_nodes * 2 < h.default_nodes, "{h:?}");
    }

    #[test]
    fn hints_only_at_regions_larger_than_any_change_nothing() {
        let h = measure("7/7/4s2/7/7/7/7 1", 50);
        assert_eq!(h.hinted_verdict, h.verdict);
        assert_eq!(h.hinted_nodes, h.default_nodes, "{h:?}");
    }

    #[test]
    fn a_loss_keeps_its_verdict_under_hints() {
        // 7x7 from e5 after f4: player 2 to move wins, so player 1's f4 loses.
        let h = measure("7/7/4x2/5s1/7/7/7 2", 0);
        assert_eq!(h.verdict, Some(Verdict::Win));
        assert_eq!(h.hinted_verdict, h.verdict);
        assert!(h.hinted_nodes <= h.default_nodes, "{h:?}");
    }
}
