//! The tournament arena: engines against each other, every move checked and every game
//! decided by the rules of [`crate::board`], never by the engines. The engines are driven
//! through [`crate::client`], the games recorded with [`crate::record`], and the match
//! statistics come from [`crate::stats`].
//!
//! - `settings`: what fixes a tournament (engines, format, rounds, openings, seed, board,
//!   shard, SPRT); `schedule`: who meets whom in which game; `openings`: where each
//!   game pair starts.
//! - `tournament`: the run, with its workers; `game`: one game, its clocks and its
//!   rules checks; `player`: the players, an engine through the client or the random one.
//! - `state` and `records`: the state file (the source of truth, for `--resume`) and the
//!   PGN file kept in agreement with it; `files`: writes that cannot be half done.
//! - `summary`, `json_game` and `progress`: the standings, the JSON summary and the
//!   progress line; `merge`: shards of one tournament combined.
//! - `error`: why a tournament could not be set up, run or summed up.

mod as_text;
mod error;
mod files;
mod game;
mod json_game;
mod merge;
mod openings;
mod player;
mod progress;
mod records;
mod schedule;
mod settings;
mod state;
mod summary;
mod tournament;

pub use error::ArenaError;
pub use merge::merge;
pub use openings::{OpeningOrder, OpeningSpec};
pub use schedule::{Format, Shard};
pub use settings::{DEFAULT_SPRT_ERROR_RATE, Settings, SprtSettings, SprtSettingsError};
pub use summary::{SUMMARY_VERSION, Standings, Summary, table};
pub use tournament::{Finished, RunOptions, run};

/// The event name written in every record and summary unless the tournament names another.
pub const EVENT: &str = "Slimetrail arena";
