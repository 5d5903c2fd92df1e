//! Slimetrail: engine, protocol and tournament arena for the board game Slime Trail.
//!
//! - [`board`]: the rules, positions, notation and perft.

pub mod board;
pub mod cli;
pub mod rng;
