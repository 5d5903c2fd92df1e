//! The transposition table, shared by the proof search and the scored search.
//!
//! Positions are keyed on the **reachable region**: the open squares the snail can
//! still reach (goal corners excluded), plus the snail's square and the side to move.
//! Squares the snail can never reach do not matter, so positions reached by different
//! paths that cut off different parts of the board share one entry. The full key is
//! stored, so a probe never returns another position's entry.
//!
//! ## Layout
//! The table is an array of 64-byte lines (one cache line each). An entry is one or
//! two key words (the region bits: one word for boards of up to 64 squares, two
//! above) followed by one data word:
//!
//! | data bits | field |
//! |---|---|
//! | 0–6 | snail square (part of the key) |
//! | 7 | side to move (part of the key) |
//! | 8–15 | best move: square index + 1, 0 for none |
//! | 16–31 | score, `i16`, relative to this position |
//! | 32–33 | bound: 0 empty, 1 lower, 2 upper, 3 exact |
//! | 34–41 | draft: search depth in plies; 255 for proven results |
//! | 42–47 | generation of the search that wrote it |
//! | 48–53 | work: log2 of the nodes searched below it |
//! | 54–63 | epoch: the game that wrote it; entries of other games count as empty |
//!
//! A line holds four entries of 16 bytes for 64-bit boards, or two of 24 bytes for
//! larger ones. Each key word is stored XOR-ed with a hash of the data word, so an
//! entry torn by two threads writing at once fails verification instead of
//! returning a wrong result. Replacement keeps the entry with the most work behind
//! it, preferring to evict entries of earlier searches.
//!
//! A new game does not write the table: it starts a new epoch, and entries of
//! earlier epochs read as empty and are replaced first, exactly as if the table
//! had been cleared. So the memory stays mapped from game to game, and no search
//! after the first pays the system for zeroed pages again. Every 1024th game, when
//! the epoch wraps, the table is really cleared.

use std::sync::atomic::Ordering::Relaxed;

use crate::board::{Bitboard, Side, Square, Word};

use super::lines::{Line, Lines, MemoryError};

/// Draft of an entry whose score is a proven bound, valid at any depth.
pub const PROVEN: u8 = u8::MAX;

/// How a stored score relates to the true value.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum TtBound {
    /// True value ≥ score.
    Lower = 1,
    /// True value ≤ score.
    Upper = 2,
    /// True value = score.
    Exact = 3,
}

/// The lookup key of a position: reachable region, snail square, side to move.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Key<W: Word> {
    /// Open squares reachable from the snail, goal corners excluded.
    pub region: Bitboard<W>,
    /// The snail's square.
    pub snail: Square,
    /// The side to move.
    pub side: Side,
}

impl<W: Word> Key<W> {
    #[inline(always)]
    fn extra(self) -> u64 {
        u64::from(self.snail.index()) | ((self.side.index() as u64) << 7)
    }

    /// Multiplicative hashing: the high bits, which pick the line, mix every bit of
    /// the key.
    #[inline(always)]
    pub(super) fn hash(self) -> u64 {
        let wide = self.region.0.to_u128();
        let mut h = (wide as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)
            ^ self.extra().wrapping_mul(0xD6E8_FEB8_6659_FD93);
        if W::BITS > 64 {
            h ^= ((wide >> 64) as u64).wrapping_mul(0xA076_1D64_78BD_642F);
        }
        h
    }
}

/// A decoded table entry.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Entry {
    /// Best move found, if any.
    pub best: Option<Square>,
    /// Score relative to the position (mate scores as distance from it).
    pub score: i16,
    /// How the score bounds the true value.
    pub bound: TtBound,
    /// Depth searched, or [`PROVEN`].
    pub draft: u8,
    /// log2 of the nodes searched below the entry.
    pub work: u8,
}

/// The transposition table.
pub struct Table {
    lines: Lines,
    generation: u8,
    /// The epoch entries of this game carry (10 bits).
    epoch: u64,
    /// Whether the system has supplied every page of the lines ([`Table::fault_in`]).
    resident: bool,
}

/// The largest epoch; the next wraps to 0 with a real clear.
const EPOCHS: u64 = 1023;

#[inline(always)]
fn mix(data: u64) -> u64 {
    data.wrapping_mul(0x9FB2_1C65_1E98_DF25) ^ (data >> 29)
}

#[inline(always)]
fn key_words<W: Word>() -> usize {
    if W::BITS <= 64 { 1 } else { 2 }
}

impl Table {
    /// A table of about `megabytes` MiB (at least one line); when the system cannot
    /// give that much, the largest power-of-two size below it that it can give.
    pub fn new(megabytes: usize) -> Table {
        Table::new_with(megabytes, false)
    }

    /// [`Table::new`], on huge pages where the system has them if `huge_pages`.
    pub fn new_with(megabytes: usize, huge_pages: bool) -> Table {
        let mut wanted = megabytes.max(1);
        loop {
            match Table::try_new_with(wanted, huge_pages) {
                Ok(table) => return table,
                Err(e) if wanted > 1 => {
                    let smaller = (wanted / 2).next_power_of_two().min(wanted - 1).max(1);
                    log::warn!("a table of {wanted} MiB: {e}; trying {smaller} MiB");
                    wanted = smaller;
                }
                Err(e) => {
                    // Nothing is left to try: one line on the heap, 64 bytes.
                    log::error!("a table of 1 MiB: {e}; using a single line");
                    let lines = Lines::try_zeroed(1)
                        .unwrap_or_else(|e| panic!("not even 64 bytes of memory can be had: {e}"));
                    return Table {
                        lines,
                        generation: 0,
                        epoch: 0,
                        resident: false,
                    };
                }
            }
        }
    }

    /// A table of about `megabytes` MiB (at least one line), on huge pages where
    /// the system has them if `huge_pages`, or why the memory for it cannot be had.
    pub fn try_new_with(megabytes: usize, huge_pages: bool) -> Result<Table, MemoryError> {
        let bytes = megabytes
            .max(1)
            .checked_mul(1 << 20)
            .ok_or_else(|| MemoryError::TooLarge {
                asked: format!("{megabytes} MiB"),
            })?;
        Ok(Table {
            lines: Lines::try_zeroed_with(bytes / std::mem::size_of::<Line>(), huge_pages)?,
            generation: 0,
            epoch: 0,
            resident: false,
        })
    }

    /// The table's size in MiB.
    pub fn megabytes(&self) -> usize {
        (self.lines.len() * std::mem::size_of::<Line>()) >> 20
    }

    /// Empties the table. Large tables are handed back to the system, so this
    /// costs no time and leaves only the lines used again afterwards in memory.
    pub fn clear(&mut self) {
        self.lines.reset();
        self.generation = 0;
        self.epoch = 0;
        self.resident = false;
    }

    /// Has the system supply the table's memory now rather than page by page
    /// during the next search, which would otherwise pay a page fault at its first
    /// touch of each page (see [`Lines::fault_in`]). Does nothing the second time,
    /// until [`Table::clear`] hands the memory back.
    pub fn fault_in(&mut self) {
        if !self.resident {
            self.lines.fault_in();
            self.resident = true;
        }
    }

    /// Whether [`Table::fault_in`] has had the system supply all of the memory.
    pub fn is_resident(&self) -> bool {
        self.resident
    }

    /// Empties the table for a new game without writing it: entries of earlier
    /// games read as empty from now on (see the module documentation).
    pub fn new_game(&mut self) {
        self.epoch = (self.epoch + 1) & EPOCHS;
        self.generation = 0;
        if self.epoch == 0 {
            self.clear();
        }
    }

    /// Whether `data` is an entry of this game.
    #[inline(always)]
    fn live(&self, data: u64) -> bool {
        (data >> 32) & 3 != 0 && data >> 54 == self.epoch
    }

    /// Writes every line once, so that the system supplies all the table's memory
    /// now rather than during a search (for timing).
    pub fn touch(&self) {
        for line in self.lines.iter() {
            line.0[0].store(0, Relaxed);
        }
    }

    /// Starts a new search: older entries become the first to be replaced.
    pub fn new_search(&mut self) {
        self.generation = (self.generation + 1) & 63;
    }

    #[inline(always)]
    fn line<W: Word>(&self, key: Key<W>) -> &Line {
        let index = (u128::from(key.hash()) * self.lines.len() as u128) >> 64;
        &self.lines[index as usize]
    }

    /// Hints the processor to load the line of `key`.
    #[inline(always)]
    pub fn prefetch<W: Word>(&self, key: Key<W>) {
        #[cfg(target_arch = "x86_64")]
        {
            let line: *const Line = self.line(key);
            // SAFETY: prefetching is a hint without side effects on any address;
            // here the address is a valid line of the table anyway.
            unsafe {
                core::arch::x86_64::_mm_prefetch::<{ core::arch::x86_64::_MM_HINT_T0 }>(
                    line.cast::<i8>(),
                );
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// The entry stored for `key`, if any.
    #[inline]
    pub fn probe<W: Word>(&self, key: Key<W>) -> Option<Entry> {
        let line = &self.line(key).0;
        let stride = key_words::<W>() + 1;
        let wide = key.region.0.to_u128();
        let (lo, hi) = (wide as u64, (wide >> 64) as u64);
        for slot in (0..8 / stride).map(|i| i * stride) {
            let data = line[slot + stride - 1].load(Relaxed);
            if data & 0xFF != key.extra() || !self.live(data) {
                continue;
            }
            let m = mix(data);
            if line[slot].load(Relaxed) ^ m != lo {
                continue;
            }
            if stride == 3 && line[slot + 1].load(Relaxed) ^ m != hi {
                continue;
            }
            return Some(decode(data));
        }
        None
    }

    /// Stores an entry for `key`, replacing the least valuable entry of its line.
    #[inline]
    pub fn store<W: Word>(&self, key: Key<W>, entry: Entry) {
        let line = &self.line(key).0;
        let stride = key_words::<W>() + 1;
        let wide = key.region.0.to_u128();
        let (lo, hi) = (wide as u64, (wide >> 64) as u64);
        let mut victim = 0;
        let mut victim_value = i32::MAX;
        for slot in (0..8 / stride).map(|i| i * stride) {
            let data = line[slot + stride - 1].load(Relaxed);
            if !self.live(data) {
                victim = slot;
                break;
            }
            if data & 0xFF == key.extra() {
                let m = mix(data);
                if line[slot].load(Relaxed) ^ m == lo
                    && (stride == 2 || line[slot + 1].load(Relaxed) ^ m == hi)
                {
                    victim = slot;
                    break;
                }
            }
            let age_bonus = if (data >> 42) as u8 & 63 == self.generation {
                64
            } else {
                0
            };
            let value = ((data >> 48) & 63) as i32 + age_bonus;
            if value < victim_value {
                victim_value = value;
                victim = slot;
            }
        }
        let data = encode(key.extra(), entry, self.generation) | self.epoch << 54;
        let m = mix(data);
        line[victim + stride - 1].store(data, Relaxed);
        line[victim].store(lo ^ m, Relaxed);
        if stride == 3 {
            line[victim + 1].store(hi ^ m, Relaxed);
        }
    }

    /// Entries written by the current search, in parts per thousand, sampled from
    /// the first lines of a table holding positions stored in words `W`.
    pub fn hashfull<W: Word>(&self) -> u32 {
        let stride = key_words::<W>() + 1;
        let sample = self.lines.len().min(1000);
        let mut used = 0;
        for line in &self.lines[..sample] {
            for slot in (0..8 / stride).map(|i| i * stride) {
                let data = line.0[slot + stride - 1].load(Relaxed);
                if self.live(data) && (data >> 42) as u8 & 63 == self.generation {
                    used += 1;
                }
            }
        }
        (used * 1000 / (sample * (8 / stride)).max(1)) as u32
    }
}

#[inline(always)]
fn encode(extra: u64, entry: Entry, generation: u8) -> u64 {
    let best = entry.best.map_or(0, |s| u64::from(s.index()) + 1);
    extra
        | (best << 8)
        | (u64::from(entry.score as u16) << 16)
        | ((entry.bound as u64) << 32)
        | (u64::from(entry.draft) << 34)
        | (u64::from(generation & 63) << 42)
        | (u64::from(entry.work.min(63)) << 48)
}

#[inline(always)]
fn decode(data: u64) -> Entry {
    let best = ((data >> 8) & 0xFF) as u8;
    Entry {
        best: (best != 0).then(|| Square::from_index(best - 1)),
        score: (data >> 16) as u16 as i16,
        bound: match (data >> 32) & 3 {
            1 => TtBound::Lower,
            2 => TtBound::Upper,
            _ => TtBound::Exact,
        },
        draft: ((data >> 34) & 0xFF) as u8,
        work: ((data >> 48) & 63) as u8,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key<W: Word>(bits: u128, snail: u8, side: Side) -> Key<W> {
        Key {
            region: Bitboard(W::from_u128(bits)),
            snail: Square::from_index(snail),
            side,
        }
    }

    fn entry(score: i16, work: u8) -> Entry {
        Entry {
            best: Some(Square::from_index(17)),
            score,
            bound: TtBound::Lower,
            draft: PROVEN,
            work,
        }
    }

    fn round_trip<W: Word>(bits: u128) {
        let table = Table::new(1);
        let k = key::<W>(bits, 24, Side::Two);
        assert_eq!(table.probe(k), None);
        table.store(k, entry(-29_000, 9));
        assert_eq!(table.probe(k), Some(entry(-29_000, 9)));
        // Same region, different snail or side: a different position.
        assert_eq!(table.probe(key::<W>(bits, 25, Side::Two)), None);
        assert_eq!(table.probe(key::<W>(bits, 24, Side::One)), None);
        assert_eq!(table.probe(key::<W>(bits ^ 1, 24, Side::Two)), None);
    }

    #[test]
    fn entries_round_trip_for_both_words() {
        round_trip::<u64>(0x1_2345_6789_ABCD);
        round_trip::<u128>(0x1_0000_0000_0000_0000_0000_0000_0042);
    }

    #[test]
    fn a_full_line_evicts_the_least_work() {
        let table = Table::new(1);
        // One line only holds four narrow entries; store many, most valuable survive.
        let mut kept = 0;
        for i in 0..20_000u128 {
            table.store(key::<u64>(i, 3, Side::One), entry(i as i16, (i % 50) as u8));
        }
        for i in 0..20_000u128 {
            if let Some(e) = table.probe(key::<u64>(i, 3, Side::One)) {
                assert_eq!(e.score, i as i16);
                kept += 1;
            }
        }
        assert!(kept > 10_000, "most entries fit in 1 MiB, kept {kept}");
        let full = table.hashfull::<u64>();
        assert!((200..450).contains(&full), "20000 of 65536 slots: {full}");
    }

    #[test]
    fn the_size_reads_back_in_mebibytes() {
        assert_eq!(Table::new(3).megabytes(), 3);
        assert_eq!(Table::new(0).megabytes(), 1);
    }

    #[test]
    fn a_size_that_cannot_be_had_is_an_error_or_a_smaller_table() {
        assert!(Table::try_new_with(usize::MAX >> 8, false).is_err());
        assert!(Table::new(usize::MAX >> 8).megabytes() >= 1);
    }

    #[test]
    fn a_new_game_hides_the_entries_of_earlier_games() {
        let mut table = Table::new(1);
        let k = key::<u64>(99, 5, Side::One);
        table.store(k, entry(7, 1));
        table.new_game();
        assert_eq!(table.probe(k), None);
        assert_eq!(table.hashfull::<u64>(), 0);
        // A stale entry is replaced first, like an empty one.
        table.store(k, entry(8, 0));
        assert_eq!(table.probe(k).map(|e| e.score), Some(8));
        // Wrapping the epoch clears the table for real.
        for _ in 0..EPOCHS {
            table.new_game();
        }
        assert_eq!(table.epoch, 0);
        assert_eq!(table.probe(k), None);
    }

    #[test]
    fn clear_empties_the_table() {
        let mut table = Table::new(1);
        let k = key::<u64>(99, 5, Side::One);
        table.store(k, entry(7, 1));
        table.clear();
        assert_eq!(table.probe(k), None);
    }
}
