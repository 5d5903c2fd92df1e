//! The tournament arena: match statistics (and, later, the tournament runner).

pub mod stats;
