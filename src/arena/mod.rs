//! The tournament arena: engines against each other, every move checked and every game
//! decided by the rules of [`crate::board`], never by the engines; and match statistics.

pub mod config;
pub mod openings;
pub mod process;
pub mod schedule;
pub mod signals;
pub mod stats;
