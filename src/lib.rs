//! Slimetrail: engine, protocol and tournament arena for the board game Slime Trail.
//!
//! - [`board`]: the rules, positions, notation and perft.
//! - [`search`]: the engine core behind `go`, `solve` and `bench`.
//! - [`protocol`]: the wire format shared by engines, GUIs and the arena.
//! - [`server`]: the engine's protocol adapter, the session loop of `slimetrail`.
//! - [`proof`]: sharded proofs (split, shards, merge) and the report of `solve`.
//! - [`arena`]: tournaments between engines and their statistics.
//! - [`book_builder`]: opening-book generation (walk, leaves-first proofs, minimax).
//! - [`cli`]: the command lines of the two binaries.
//! - [`score`]: the score and bound shared by the search and the wire format.
//! - [`shard`]: the `K/N` share of a list of work, for sharded tournaments and proofs.
//! - [`rng`]: a small reproducible random number generator.

#[cfg(not(unix))]
compile_error!(
    "Slimetrail builds on Unix systems (Linux, macOS, the BSDs): the arena drives engines \
     through Unix process groups and signals"
);

pub mod arena;
pub mod board;
pub mod book_builder;
pub mod cli;
pub mod gui;
pub mod proof;
pub mod protocol;
pub mod rng;
pub mod score;
#[cfg(test)]
mod scratch;
pub mod search;
pub mod server;
pub mod shard;
