//! Positions being searched right now by threads sharing one table.

use std::sync::atomic::{AtomicU8, Ordering};

use crate::board::Word;

use super::tt::Key;

/// Smallest region whose node marks its children busy for other threads: below
/// it, subtrees are too small to be worth the shared writes.
pub(super) const BUSY_REGION: u32 = 16;

/// Which positions some thread is searching right now, for threads that share a
/// table: a thread that meets a busy child leaves it for last, by when the other
/// thread has usually proven it (the idea of ABDADA). Slots are counters indexed
/// by a hash of the key; a collision only reorders moves.
pub struct Busy {
    slots: Box<[AtomicU8]>,
}

impl Busy {
    /// An empty set of busy positions.
    pub fn new() -> Busy {
        Busy {
            slots: (0..1 << 16).map(|_| AtomicU8::new(0)).collect(),
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

impl Default for Busy {
    fn default() -> Self {
        Busy::new()
    }
}
