//! Opening-book generation: the positions near the start whose proofs are too long
//! for a move's time, found by proving them one by one ([`generate`]) or by proving
//! only the last ply and valuing the rest by minimax ([`leaves_first`]). The book's
//! file format and the engine's lookup stay in [`crate::search`].

mod generate;
pub mod leaves_first;

pub use generate::generate;
pub use leaves_first::{book_lines, prove_leaves, read_results, walk};
