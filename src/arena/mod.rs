//! The tournament arena: engines against each other, every move checked and every game
//! decided by the rules of [`crate::board`], never by the engines. The engines are driven
//! through [`crate::client`], the games recorded with [`crate::record`], and the match
//! statistics come from [`crate::stats`].
//!
//! - `settings`: what fixes a tournament (engines, format, rounds, openings, seed, board,
//!   shard, SPRT); `schedule`: who meets whom in which game; `openings`: where each
//!   game pair starts (`pgn_openings`: from PGN records).
//! - `tournament`: the run, with its workers; `game`: one game, its clocks and its
//!   rules checks; `player`: the players, an engine through the client or the random one.
//! - `state` and `records`: the state file (the source of truth, for `--resume`) and the
//!   PGN file kept in agreement with it; `files`: writes that cannot be half done;
//!   `rerun`: a finished tournament's files kept under new names for the next run.
//! - `summary`, `json_game` and `progress`: the standings, the JSON summary and the
//!   progress line; `merge`: shards of one tournament combined; `replay`: a saved game's
//!   result checked against its moves.
//! - `defaults`: what a tournament is when its arguments leave something out.
//! - `error`: why a tournament could not be set up, run or summed up.

mod as_text;
mod defaults;
mod error;
mod files;
mod game;
mod json_game;
mod merge;
mod opening_error;
mod openings;
mod pgn_openings;
mod player;
mod progress;
mod records;
mod replay;
mod rerun;
mod schedule;
mod settings;
mod state;
mod state_error;
mod summary;
mod tournament;

pub use defaults::{
    DEFAULT_MATCH_CONCURRENCY, DEFAULT_MATCH_ROUNDS, DEFAULT_OPENING_PLIES, OddGames,
    SPRT_MAX_ROUNDS, default_match, default_state_path, rounds, rounds_of_games,
};
pub use error::{ArenaError, EngineCheckError, OutputFile};
pub use files::{FileAction, FileError, FileProblem, Unwritable};
pub use merge::{MergeError, merge};
pub use opening_error::{LineProblem as OpeningLineProblem, OPENING_FORMS, OpeningError};
pub use openings::{OpeningFormat, OpeningOrder, OpeningSpec};
pub use schedule::{Format, FormatError, Shard};
pub use settings::{DEFAULT_SPRT_ERROR_RATE, Mismatch, Settings, SprtSettings, SprtSettingsError};
pub use state_error::{LineProblem as StateLineProblem, StateError};
pub use summary::{Finished, SUMMARY_VERSION, Standings, Summary, table};
pub use tournament::{RunOptions, run};

/// The event name written in every record and summary unless the tournament names another.
pub const EVENT: &str = "Slimetrail arena";
