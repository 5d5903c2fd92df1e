//! Opening-book generation: the positions near the start whose proofs are too long
//! for a move's time, with their winning moves.
//!
//! - [`walk`]: every position within some plies of the starts, by ply.
//! - [`generate`]: each position of the walk proven from an empty table within the
//!   hard-node limit; the won ones that need more are the book.
//! - [`leaves_first`]: for boards where that costs too much, only the last ply is
//!   proven ([`prove_leaves`], a worker pool appending to `leaves.tsv`, safe to
//!   kill and resume) and the shallower positions are valued by [`minimax`]
//!   ([`book_lines`]).
//! - [`verify`]: every move of a book ([`BookSource`]) proven again.
//!
//! The book's file format and the engine's lookup stay in [`crate::search`]; nothing
//! here names a command-line flag.

mod generate;
mod leaves;
mod leaves_first;
mod minimax;
mod pool;
mod verify;
mod walk;

pub use generate::{PlyReport, generate};
pub use leaves::{
    GameValue, Leaf, LeafLineProblem, Leaves, LeavesError, RESULT_FORMAT, parse_results,
    read_results,
};
pub use leaves_first::{LEAVES_FILE, LeavesFirst, LeavesFirstError, leaves_first};
pub use minimax::{book_lines, minimax, won_lines};
pub use pool::{LeafProgress, prove_leaves};
pub use verify::{
    BookSource, Verification, VerifyError, VerifyLimits, VerifyProgress, load, verify,
};
pub use walk::walk;
