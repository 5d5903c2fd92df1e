//! The tournament arena: engines against each other, every move checked and every game
//! decided by the rules of [`crate::board`], never by the engines; and match statistics.

mod as_text;
pub mod config;
pub mod error;
pub mod game;
pub mod merge;
pub mod mock;
pub mod openings;
pub mod pgn;
pub mod player;
pub mod process;
pub mod schedule;
pub mod settings;
pub mod signals;
pub mod state;
pub mod stats;
pub mod summary;
pub mod tournament;
