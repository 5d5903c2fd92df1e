//! Slimetrail: engine, protocol and tournament arena for the board game Slime Trail.
//!
//! - [`board`]: the rules, positions, notation and perft.
//! - [`search`]: the engine core behind `go`, `solve` and `bench`.
//! - [`protocol`]: the wire format shared by engines, GUIs and the arena.
//! - [`server`]: the engine's protocol adapter, the session loop of `slimetrail`.
//! - [`proof`]: sharded proofs (split, shards, merge) and the report of `solve`.
//! - [`book_builder`]: opening-book generation (walk, leaves-first proofs, minimax).
//! - [`client`]: the engine client: engine processes and the conversation with them.
//! - [`record`]: game records and PGN, shared by the arena and the GUI.
//! - [`arena`]: tournaments between engines.
//! - [`stats`]: match statistics: Elo, LOS, pentanomial counts, SPRT (pure math).
//! - [`cli`]: the command lines of the two binaries.
//! - [`score`]: the score and bound shared by the search and the wire format.
//! - [`shard`]: the `K/N` share of a list of work, for sharded tournaments and proofs.
//! - [`rng`]: a small reproducible random number generator.
//! - [`calendar`]: calendar dates of Unix days, for records and logs.

#[cfg(not(unix))]
compile_error!(
    "Slimetrail builds on Unix systems (Linux, macOS, the BSDs): the arena drives engines \
     through Unix process groups and signals"
);

pub mod arena;
pub mod board;
pub mod book_builder;
pub mod calendar;
pub mod cli;
pub mod client;
pub mod gui;
pub mod proof;
pub mod protocol;
pub mod record;
pub mod rng;
pub mod score;
#[cfg(test)]
mod scratch;
pub mod search;
pub mod server;
pub mod shard;
pub mod stats;
