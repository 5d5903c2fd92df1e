//! The tournament arena: engines against each other, every move checked and every game
//! decided by the rules of [`crate::board`], never by the engines.

mod as_text;
pub(crate) mod error;
pub(crate) mod files;
pub(crate) mod game;
pub(crate) mod json_game;
pub(crate) mod merge;
pub(crate) mod openings;
pub(crate) mod player;
pub(crate) mod progress;
pub(crate) mod records;
pub(crate) mod schedule;
pub(crate) mod settings;
pub(crate) mod state;
pub(crate) mod summary;
pub(crate) mod tournament;

/// The event name written in every record and summary unless the tournament names another.
pub const EVENT: &str = "Slimetrail arena";
