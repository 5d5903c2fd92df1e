//! Search: the engine core behind `go`, `solve` and `bench`.
//!
//! The core knows nothing about protocols; it reports through callbacks.

mod alphabeta;
mod bench;
mod book;
mod busy;
mod deadlines;
mod engine;
mod eval;
mod go;
mod hindsight;
mod killers;
mod level;
mod limits;
mod lines;
mod matching;
mod node;
mod parallel;
mod pockets;
mod prover;
mod reduced;
mod report;
mod solve;
mod threads;
mod timeman;
mod tt;

pub use bench::{BENCH_DEPTH, BENCH_POSITIONS, BenchLine};
pub use book::{
    Book, BookError, BookKey, BookLine, BookMove, BookSizeError, book_key, builtin_text,
    parse_book, parse_line, verify_book,
};
pub use engine::{
    Engine, EngineOptions, Evaluation, HASH_MB, LEVEL, MOVE_OVERHEAD_MS, OptionRange, SEED,
    THREADS, hash_range,
};
pub use hindsight::{Hindsight, hindsight};
pub use limits::{Limits, TimeControl};
pub use lines::MemoryError;
pub use report::{Bound, Score, SearchInfo, SearchOutcome, SolveOutcome, Verdict};
pub use solve::PartialProof;
