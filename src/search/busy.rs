//! Positions being searched right now by threads sharing one table, and where
//! the threads split their work.
//!
//! A proof tree has two kinds of node: where the winner moves, one child must be
//! proven (the first usually does it), and where the loser moves, every child must
//! be. Only the second kind is worth splitting. Which side wins is a guess: the
//! root's side to move, until [`ROOT_REFUTATIONS`] of the root's moves are refuted.
//! On the 8×8 first-move proofs, two threads that split everywhere searched 7–42 %
//! more nodes than one thread; split only where the expected loser moves, 2–19 %
//! more (README).

use std::sync::atomic::{AtomicBool, AtomicU8, AtomicU64, Ordering};

use crate::board::{Side, Square, Word};

use super::tt::Key;

/// Smallest region whose node marks its children busy for other threads: below
/// it, subtrees are too small to be worth the shared writes.
pub(super) const BUSY_REGION: u32 = 16;

/// How many different root moves must be refuted before the root is expected to
/// be lost. One is not enough: where the root's side wins, its first move often
/// fails and a later one wins (8×8 after d5 and after e4, README), and a root taken
/// for lost there makes the threads split where the winner moves for the rest of
/// the proof.
pub(super) const ROOT_REFUTATIONS: u32 = 2;

/// Which positions some thread is searching right now, for threads that share a
/// table: a thread that meets a busy child leaves it for last, by when the other
/// thread has usually proven it (the idea of ABDADA). Slots are counters indexed
/// by a hash of the key; a collision only reorders moves.
pub struct Busy {
    slots: Box<[AtomicU8]>,
    /// The side to move at the root.
    root_side: Side,
    /// The root moves refuted so far, by square index (each thread refutes the
    /// moves it searches, so a move may be refuted more than once).
    refuted_moves: [AtomicU64; 2],
    /// Whether [`ROOT_REFUTATIONS`] root moves have been refuted: the root is then
    /// expected to be lost.
    root_refuted: AtomicBool,
}

impl Busy {
    /// An empty set of busy positions, for threads proving a root where `root_side`
    /// is to move.
    pub fn new(root_side: Side) -> Busy {
        Busy {
            slots: (0..1 << 16).map(|_| AtomicU8::new(0)).collect(),
            root_side,
            refuted_moves: [AtomicU64::new(0), AtomicU64::new(0)],
            root_refuted: AtomicBool::new(false),
        }
    }

    /// Whether threads should split the children of a node where `side` is to move:
    /// whether `side` is the side expected to lose.
    #[inline(always)]
    pub(super) fn splits_at(&self, side: Side) -> bool {
        let root_lost = self.root_refuted.load(Ordering::Relaxed);
        (side == self.root_side) == root_lost
    }

    /// Notes that the root's move to `step` has been refuted: once
    /// [`ROOT_REFUTATIONS`] different moves are, the root is expected to be lost,
    /// and threads split where its side to move moves.
    pub(super) fn root_move_refuted(&self, step: Square) {
        let index = u32::from(step.index());
        let word = &self.refuted_moves[(index / 64) as usize];
        word.fetch_or(1 << (index % 64), Ordering::Relaxed);
        let refuted: u32 = self
            .refuted_moves
            .iter()
            .map(|w| w.load(Ordering::Relaxed).count_ones())
            .sum();
        if refuted >= ROOT_REFUTATIONS {
            self.root_refuted.store(true, Ordering::Relaxed);
        }
    }

    #[inline(always)]
    fn slot<W: Word>(&self, key: Key<W>) -> &AtomicU8 {
        let index = key.hash() >> 48;
        &self.slots[index as usize]
    }

    /// Whether some thread is searching the position `key`.
    #[inline(always)]
    pub(super) fn is_busy<W: Word>(&self, key: Key<W>) -> bool {
        self.slot(key).load(Ordering::Relaxed) != 0
    }

    /// Marks the position `key` as searched by one more thread.
    #[inline(always)]
    pub(super) fn enter<W: Word>(&self, key: Key<W>) {
        self.slot(key).fetch_add(1, Ordering::Relaxed);
    }

    /// Marks the position `key` as searched by one thread fewer.
    #[inline(always)]
    pub(super) fn leave<W: Word>(&self, key: Key<W>) {
        self.slot(key).fetch_sub(1, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn threads_split_where_the_expected_loser_moves_until_two_root_moves_fail() {
        let busy = Busy::new(Side::One);
        // The root is expected to be won: its side's nodes are followed, the
        // opponent's split.
        assert!(!busy.splits_at(Side::One));
        assert!(busy.splits_at(Side::Two));
        // One refuted move, however many threads refute it, leaves that guess:
        // a later move may win.
        busy.root_move_refuted(Square::from_index(27));
        busy.root_move_refuted(Square::from_index(27));
        assert!(!busy.splits_at(Side::One));
        assert!(busy.splits_at(Side::Two));
        // A second move refuted (on a board of more than 64 squares): now the root
        // is expected to be lost.
        busy.root_move_refuted(Square::from_index(100));
        assert!(busy.splits_at(Side::One));
        assert!(!busy.splits_at(Side::Two));
    }
}
