//! The tournament arena: engines against each other, every move checked and every game
//! decided by the rules of [`crate::board`], never by the engines; and match statistics.

mod as_text;
pub(crate) mod error;
pub(crate) mod files;
pub(crate) mod game;
pub(crate) mod json_game;
pub(crate) mod merge;
pub(crate) mod openings;
pub(crate) mod pgn;
pub(crate) mod player;
pub(crate) mod progress;
pub(crate) mod records;
pub(crate) mod schedule;
pub(crate) mod settings;
pub(crate) mod state;
pub(crate) mod summary;
pub(crate) mod tournament;
