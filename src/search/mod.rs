//! Search: the engine core behind `go`, `solve` and `bench`.
//!
//! The core knows nothing about protocols; it reports through callbacks.

mod engine;
mod limits;
mod report;

pub use engine::{
    Engine, EngineOptions, Evaluation, HASH_MB, LEVEL, MOVE_OVERHEAD_MS, OptionRange, THREADS,
};
pub use limits::{Limits, TimeControl};
pub use report::{Bound, Score, SearchInfo, SearchOutcome, SolveOutcome, Verdict};
