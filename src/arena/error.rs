//! Why a tournament could not be set up, run or summed up.

use std::fmt;

use super::settings::SprtSettingsError;
use crate::board::{Size, SquareName, StartError};
use crate::stats::SprtError;

/// An error of the arena, saying what was wrong and what was expected.
#[derive(Debug)]
pub enum ArenaError {
    /// `--sprt` words that do not describe an SPRT.
    SprtArguments(SprtSettingsError),
    /// SPRT settings (from a saved file) that do not make a valid test.
    Sprt(SprtError),
    /// `--sprt` with a number of engines other than two.
    SprtEngines(usize),
    /// Fewer than two engines.
    TooFewEngines(usize),
    /// The start square does not fit the board.
    Start {
        /// The board size.
        size: Size,
        /// The start square, when one was given.
        start: Option<SquareName>,
        /// Why it does not fit.
        error: StartError,
    },
    /// Stopped by Ctrl-C or SIGTERM after saving the finished games.
    Interrupted {
        /// The standings of the games finished.
        table: String,
        /// Games saved so far.
        saved: usize,
        /// Games in the schedule.
        scheduled: usize,
    },
    /// Any other problem, described in full: what was wrong and what was expected.
    Described(String),
}

impl fmt::Display for ArenaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ArenaError::SprtArguments(e) => write!(f, "{e}"),
            ArenaError::Sprt(e) => write!(f, "--sprt: {e}"),
            ArenaError::SprtEngines(given) => write!(
                f,
                "--sprt needs exactly two engines, the candidate first; got {given}"
            ),
            ArenaError::TooFewEngines(given) => write!(
                f,
                "only {given} engine given: expected at least two --engine arguments (or none for the default match)"
            ),
            ArenaError::Start {
                start: Some(name),
                error,
                ..
            } => write!(f, "--start {name}: {error}"),
            ArenaError::Start {
                size,
                start: None,
                error,
            } => write!(f, "--size {size}: {error}"),
            ArenaError::Interrupted {
                saved, scheduled, ..
            } => write!(
                f,
                "interrupted: {saved} of {scheduled} games finished and saved (games in play were not); continue with the same arguments and --resume"
            ),
            ArenaError::Described(text) => f.write_str(text),
        }
    }
}

impl std::error::Error for ArenaError {}

impl From<SprtSettingsError> for ArenaError {
    fn from(e: SprtSettingsError) -> Self {
        ArenaError::SprtArguments(e)
    }
}

impl From<SprtError> for ArenaError {
    fn from(e: SprtError) -> Self {
        ArenaError::Sprt(e)
    }
}

impl From<String> for ArenaError {
    fn from(text: String) -> Self {
        ArenaError::Described(text)
    }
}
