//! The engine core: options, the transposition table, and the entry points
//! `search`, `solve`, `evaluate` and `bench`.
//!
//! It knows nothing about text protocols: progress is reported through callbacks.
//! Positions arrive in the wide 128-bit form and are narrowed to 64-bit words
//! whenever the board fits, so 7×7 and 8×8 run on the fast path.

use std::sync::atomic::AtomicBool;

use crate::board::{Position, Size, Word};
use crate::rng::Rng;

use super::eval::evaluate;
use super::killers::Killers;
use super::limits::Limits;
use super::lines::MemoryError;
use super::matching::Matcher;
use super::reduced::reachable_region;
use super::report::{SearchInfo, SearchOutcome, SolveOutcome};
use super::tt::Table;

/// The allowed range and default of a numeric engine option.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct OptionRange {
    /// Smallest value.
    pub min: i64,
    /// Largest value.
    pub max: i64,
    /// Value of a new engine.
    pub default: i64,
}

/// Transposition-table size in MiB. The maximum is the most any machine may ask
/// for; [`hash_range`] gives the honest maximum of this machine.
pub const HASH_MB: OptionRange = OptionRange {
    min: 1,
    max: 65536,
    default: 64,
};

/// The `Hash` range on this machine: at most half its physical memory (and at
/// most [`HASH_MB`]`.max`), so that a table of the maximum size can be had and
/// filled without the system running out of memory.
pub fn hash_range() -> OptionRange {
    let max = physical_memory_mb().map_or(HASH_MB.max, |mb| (mb / 2).clamp(16, HASH_MB.max));
    OptionRange {
        max,
        default: HASH_MB.default.min(max),
        ..HASH_MB
    }
}

/// The machine's physical memory in MiB, if the system tells.
fn physical_memory_mb() -> Option<i64> {
    #[cfg(unix)]
    {
        // SAFETY: sysconf only reads system constants.
        let (pages, page_size) = unsafe {
            (
                libc::sysconf(libc::_SC_PHYS_PAGES),
                libc::sysconf(libc::_SC_PAGESIZE),
            )
        };
        if pages > 0 && page_size > 0 {
            return Some(
                ((i128::from(pages) * i128::from(page_size)) >> 20).min(i64::MAX as i128) as i64,
            );
        }
    }
    None
}
/// Search threads. A search runs at most as many threads as the machine has
/// processors ([`Engine::search_threads`]): more would only take turns, and the
/// waiting ones would answer `stop` and deadlines late.
pub const THREADS: OptionRange = OptionRange {
    min: 1,
    max: 64,
    default: 1,
};
/// Playing strength: 1 is a beginner, the maximum is full strength.
pub const LEVEL: OptionRange = OptionRange {
    min: 1,
    max: 10,
    default: 10,
};
/// Time kept in reserve per move for communication delays, in milliseconds.
pub const MOVE_OVERHEAD_MS: OptionRange = OptionRange {
    min: 0,
    max: 5000,
    default: 10,
};
/// Seed of the random choices that weaker levels make.
pub const SEED: OptionRange = OptionRange {
    min: 0,
    max: i64::MAX,
    default: 0,
};

/// The settings of an engine.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct EngineOptions {
    /// Transposition-table size in MiB.
    pub hash_mb: usize,
    /// Search threads.
    pub threads: usize,
    /// Playing strength, from [`LEVEL`]`.min` to [`LEVEL`]`.max` (full strength).
    pub level: u32,
    /// Time kept in reserve per move, in milliseconds.
    pub move_overhead_ms: u64,
    /// Seed of the random choices of weaker levels.
    pub seed: u64,
    /// Whether timed searches at full strength play the built-in book's moves.
    pub own_book: bool,
    /// Whether the table asks for huge pages: faster for long proofs, but their
    /// first touches can stall a search under a clock (see `lines.rs`).
    pub huge_pages: bool,
    /// Whether `solve`'s proofs fold pockets (see `pockets.rs`): fewer nodes. The
    /// proof slices of `go` never do (their proofs stored under folded positions would
    /// be lost to the scored search), so the opening book's trials turn it off to
    /// measure what `go` needs.
    pub fold_pockets: bool,
}

impl Default for EngineOptions {
    fn default() -> Self {
        EngineOptions {
            hash_mb: HASH_MB.default as usize,
            threads: THREADS.default as usize,
            level: LEVEL.default as u32,
            move_overhead_ms: MOVE_OVERHEAD_MS.default as u64,
            seed: SEED.default as u64,
            own_book: true,
            huge_pages: false,
            fold_pockets: true,
        }
    }
}

/// A static evaluation with the terms it is made of.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Evaluation {
    /// The total, in centipoints, from the side to move's point of view.
    pub score: i32,
    /// Named contributions to the total.
    pub terms: Vec<(&'static str, i32)>,
}

/// Boards of up to this many squares use at most [`SMALL_BOARD_TABLE_MB`] of the table.
const SMALL_BOARD_SQUARES: usize = 49;

/// Table size used on small boards. Every 7×7 proof fits in it (the hardest,
/// the start at e5, stores about 1.3 M results and needs 3 % more nodes than with
/// 64 MiB), and a table that stays in the processor's cache proves twice as fast
/// as one of 256 MiB (measured with `scripts/bench-solve.sh`).
pub const SMALL_BOARD_TABLE_MB: usize = 4;

/// The table size used for boards of `size` under a `Hash` setting of `hash_mb`:
/// the setting is an upper bound, and small boards need far less of it.
pub fn table_megabytes(hash_mb: usize, size: Size) -> usize {
    if size.squares() <= SMALL_BOARD_SQUARES {
        hash_mb.min(SMALL_BOARD_TABLE_MB)
    } else {
        hash_mb
    }
}

/// The largest table [`Engine::prepare`] faults in, in MiB: 1 GiB took 0.5 s on the
/// project's machine, 4 GiB 5–7 s, longer than a GUI may wait for `readyok`. A
/// larger table is for long analyses, which amortise its page faults anyway.
pub const FAULT_IN_MAX_MB: usize = 1024;

/// The engine core.
pub struct Engine {
    pub(super) options: EngineOptions,
    pub(super) table: Table,
    /// The board size whose positions the table holds: keys do not include it.
    table_size: Option<Size>,
    /// Whether the table holds entries of an earlier game, to be cleared.
    table_stale: bool,
    pub(super) rng: Rng,
    games: u64,
    /// The killers `go`'s proof slices learn, kept from slice to slice and from move
    /// to move of a game; emptied with the table for a new game or board.
    pub(super) go_killers: Option<Killers>,
}

impl Engine {
    /// A new engine with the given options.
    pub fn new(options: EngineOptions) -> Engine {
        Engine {
            options,
            table: Table::new_with(options.hash_mb, options.huge_pages),
            table_size: None,
            table_stale: false,
            rng: Rng::new(options.seed),
            games: 0,
            go_killers: None,
        }
    }

    /// Changes the options; a new hash size reallocates (and empties) the table.
    /// When the memory for it cannot be had, nothing changes and the reason is
    /// returned.
    pub fn set_options(&mut self, options: EngineOptions) -> Result<(), MemoryError> {
        if options.hash_mb != self.options.hash_mb {
            self.table = Table::try_new_with(options.hash_mb, options.huge_pages)?;
            self.table_size = None;
        }
        if options.seed != self.options.seed {
            self.rng = Rng::new(options.seed);
        }
        self.options = options;
        Ok(())
    }

    /// The threads a search runs: the `Threads` setting, but no more than the
    /// machine's processors.
    pub fn search_threads(&self) -> usize {
        let processors = std::thread::available_parallelism().map_or(1, usize::from);
        self.options.threads.clamp(1, processors)
    }

    /// Forgets everything learned in the previous game. The table is emptied when
    /// the next search knows its board size, so that only the part of it that
    /// board uses is touched.
    pub fn new_game(&mut self) {
        self.table_stale = true;
        self.games += 1;
        self.rng = Rng::new(self.options.seed ^ self.games.wrapping_mul(0x9E37_79B9_7F4A_7C15));
    }

    /// Makes the table ready for a game on `size` and, up to
    /// `FAULT_IN_MAX_MB`, has the system supply its memory now, so that the
    /// first search does not pay a page fault for each page it touches. For a
    /// moment when no clock runs, such as `newgame`.
    pub fn prepare(&mut self, size: Size) {
        self.prepare_table(size);
        if self.faults_in_table() {
            self.table.fault_in();
        }
    }

    /// Whether [`Engine::prepare`] has the system supply the table's memory: up to
    /// `FAULT_IN_MAX_MB`.
    fn faults_in_table(&self) -> bool {
        self.table.megabytes() <= FAULT_IN_MAX_MB
    }

    /// Whether the table is ready for a game on `size` as [`Engine::prepare`] leaves
    /// it: made for that board, with no entries of an earlier game, and, up to
    /// `FAULT_IN_MAX_MB`, its memory supplied by the system.
    pub fn is_prepared_for(&self, size: Size) -> bool {
        self.table_size == Some(size)
            && !self.table_stale
            && (self.table.is_resident() || !self.faults_in_table())
    }

    /// Makes the table ready for positions of `size`: keys leave the board size
    /// out, so entries of another size are put out of use; after `new_game`, all
    /// are. A table of the right size is not written for that: a new epoch hides
    /// its entries, and its memory stays mapped for the next game.
    pub(super) fn prepare_table(&mut self, size: Size) {
        if self.table_size != Some(size) || self.table_stale {
            let megabytes = table_megabytes(self.options.hash_mb, size);
            let fresh = if self.table.megabytes() != megabytes {
                Table::try_new_with(megabytes, self.options.huge_pages)
                    .map_err(|e| log::warn!("keeping the table as it is: {e}"))
                    .ok()
            } else {
                None
            };
            match fresh {
                Some(table) => self.table = table,
                None => self.table.new_game(),
            }
            self.table_size = Some(size);
            self.table_stale = false;
            if let Some(killers) = self.go_killers.as_mut() {
                killers.clear();
            }
        }
    }

    /// The static evaluation of a position, with its terms.
    pub fn evaluate(&self, position: &Position) -> Evaluation {
        match position.convert::<u64>() {
            Some(narrow) => evaluate_in(&narrow),
            None => evaluate_in(position),
        }
    }

    /// Searches `position` within `limits` until done or `stop` is set, reporting
    /// progress; proven results are reported as mate scores.
    pub fn search(
        &mut self,
        position: &Position,
        limits: &Limits,
        stop: &AtomicBool,
        report: &mut dyn FnMut(&SearchInfo),
    ) -> SearchOutcome {
        match position.convert::<u64>() {
            Some(narrow) => self.search_in(&narrow, limits, stop, report),
            None => self.search_in(position, limits, stop, report),
        }
    }

    /// Proves the value of `position` within `limits`: win or loss, a winning (or
    /// longest-resisting) move, and a bound on the game's length.
    pub fn solve(
        &mut self,
        position: &Position,
        limits: &Limits,
        stop: &AtomicBool,
        report: &mut dyn FnMut(&SearchInfo),
    ) -> SolveOutcome {
        self.solve_in_words(position, limits, stop, report, true)
    }

    /// Proves the value of `position` within `limits`, as [`Engine::solve`] does,
    /// but stops at the verdict: no line, no game length. The best move is a
    /// winning move of a win (the proof's own); of a loss, whatever the proof gives.
    pub fn prove(
        &mut self,
        position: &Position,
        limits: &Limits,
        stop: &AtomicBool,
        report: &mut dyn FnMut(&SearchInfo),
    ) -> SolveOutcome {
        self.solve_in_words(position, limits, stop, report, false)
    }
}

impl Engine {
    /// [`Engine::solve`] (`follow`) or [`Engine::prove`] on the narrowest word
    /// the position fits in.
    fn solve_in_words(
        &mut self,
        position: &Position,
        limits: &Limits,
        stop: &AtomicBool,
        report: &mut dyn FnMut(&SearchInfo),
        follow: bool,
    ) -> SolveOutcome {
        match position.convert::<u64>() {
            Some(narrow) => self.solve_in(&narrow, limits, stop, report, follow),
            None => self.solve_in(position, limits, stop, report, follow),
        }
    }
}

fn evaluate_in<W: Word>(position: &Position<W>) -> Evaluation {
    let geometry = position.geometry();
    let mut matcher = Matcher::new(geometry);
    let region = reachable_region(geometry, position.open(), position.snail());
    let terms = evaluate(
        geometry,
        &mut matcher,
        position.open(),
        position.snail(),
        position.side_to_move(),
        region,
    );
    Evaluation {
        score: terms.total,
        terms: terms.parts,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_boards_use_a_small_table_and_large_ones_the_whole_setting() {
        let size = |w, h| Size::new(w, h).expect("a valid size");
        assert_eq!(table_megabytes(256, size(7, 7)), SMALL_BOARD_TABLE_MB);
        assert_eq!(table_megabytes(1, size(7, 7)), 1);
        assert_eq!(table_megabytes(256, size(5, 9)), SMALL_BOARD_TABLE_MB);
        assert_eq!(table_megabytes(256, size(8, 8)), 256);
        assert_eq!(table_megabytes(256, size(7, 8)), 256);
    }

    fn go_killers_recorded(engine: &Engine) -> usize {
        engine.go_killers.as_ref().map_or(0, Killers::recorded)
    }

    #[test]
    fn go_keeps_its_killers_for_the_game_and_forgets_them_for_a_new_one() {
        let mut engine = Engine::new(EngineOptions::default());
        let stop = AtomicBool::new(false);
        let start: Position = "9/9/9/9/4s4/9/9/9/9 1".parse().expect("a valid position");
        engine.search(&start, &Limits::nodes(200_000), &stop, &mut |_| {});
        let learned = go_killers_recorded(&engine);
        assert!(
            learned > 100,
            "{learned} killers learned by go's proof slices"
        );
        // A search whose one proof slice is a few nodes long starts from them (one
        // that started afresh would know a few dozen).
        let next: Position = "9/9/9/9/4x4/3s5/9/9/9 2".parse().expect("a valid position");
        engine.search(&next, &Limits::nodes(1_000), &stop, &mut |_| {});
        assert!(go_killers_recorded(&engine) >= learned);
        engine.new_game();
        engine.prepare(start.size());
        assert_eq!(go_killers_recorded(&engine), 0);
    }
}
