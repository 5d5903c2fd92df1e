//! Why a tournament could not be set up, run or summed up. Every error carries the facts
//! (which file, which engine, what was wrong) and names no command-line flag; the
//! command line adds the flags where it reports.

use std::fmt;
use std::path::PathBuf;
use std::time::Duration;

use super::files::FileError;
use super::merge::MergeError;
use super::opening_error::OpeningError;
use super::settings::SprtSettingsError;
use super::state_error::StateError;
use super::summary::Finished;
use crate::client::{Fault, FaultKind, LogError};
use crate::stats::SprtError;

/// The files a tournament writes.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum OutputFile {
    /// The game records.
    Pgn,
    /// The JSON summary.
    Json,
    /// The log of engine stderr and process events.
    Log,
    /// The log of the protocol traffic.
    ProtocolLog,
    /// The state file.
    State,
}

impl fmt::Display for OutputFile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            OutputFile::Pgn => "the PGN file",
            OutputFile::Json => "the JSON summary",
            OutputFile::Log => "the engine log",
            OutputFile::ProtocolLog => "the protocol log",
            OutputFile::State => "the state file",
        })
    }
}

/// An engine that failed its check before the first game.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct EngineCheckError {
    /// The engine's name.
    pub name: String,
    /// Its program.
    pub cmd: PathBuf,
    /// The wait for each answer of its start-up.
    pub timeout: Duration,
    /// What went wrong.
    pub fault: Fault,
}

impl EngineCheckError {
    /// What went wrong, written to follow the engine's name and a colon.
    pub fn problem(&self) -> String {
        // The engine started and declared its options; only the values were wrong.
        if self.fault.kind == FaultKind::Options {
            return self.fault.detail.clone();
        }
        let cmd = &self.cmd;
        let relative = cmd.components().count() == 1 && !cmd.is_absolute();
        let hint = if relative {
            format!(
                " ({} is looked up on PATH; a program in the current directory is written ./{})",
                cmd.display(),
                cmd.display()
            )
        } else {
            String::new()
        };
        format!(
            "the engine {}{hint}; expected an engine that starts and finishes its handshake (ugi … ugiok, isready … readyok) within timeout={} ms, before the first game",
            self.fault.detail,
            self.timeout.as_millis()
        )
    }
}

impl fmt::Display for EngineCheckError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "engine {}: {}", self.name, self.problem())
    }
}

/// An error of the arena, saying what was wrong and what was expected.
#[derive(Debug)]
pub enum ArenaError {
    /// Words that do not describe an SPRT.
    SprtArguments(SprtSettingsError),
    /// SPRT settings (from a saved file) that do not make a valid test.
    Sprt(SprtError),
    /// An SPRT with a number of engines other than two.
    SprtEngines(usize),
    /// Fewer than two engines.
    TooFewEngines(usize),
    /// The openings cannot be had.
    Openings(OpeningError),
    /// An engine failed its check before the first game.
    Engine(EngineCheckError),
    /// An output file cannot be written.
    File {
        /// Which file.
        file: OutputFile,
        /// What went wrong.
        error: FileError,
    },
    /// A log file cannot be opened.
    Log {
        /// Which log.
        file: OutputFile,
        /// What went wrong.
        error: LogError,
    },
    /// The state file cannot be used.
    State(StateError),
    /// Result files cannot be merged.
    Merge(MergeError),
    /// A worker thread cannot be started.
    Worker(std::io::Error),
    /// Stopped by Ctrl-C or SIGTERM after saving the finished games.
    Interrupted {
        /// The standings of the games finished, when games were played.
        finished: Option<Box<Finished>>,
        /// Games saved so far.
        saved: usize,
        /// Games in the schedule.
        scheduled: usize,
    },
}

impl fmt::Display for ArenaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ArenaError::SprtArguments(e) => write!(f, "SPRT {e}"),
            ArenaError::Sprt(e) => write!(f, "SPRT: {e}"),
            ArenaError::SprtEngines(given) => write!(
                f,
                "an SPRT needs exactly two engines, the candidate first; got {given}"
            ),
            ArenaError::TooFewEngines(given) => write!(
                f,
                "only {given} engine given: expected at least two engines"
            ),
            ArenaError::Openings(e @ OpeningError::Start { .. }) => write!(f, "{e}"),
            ArenaError::Openings(e) => write!(f, "openings {e}"),
            ArenaError::Engine(e) => write!(f, "{e}"),
            ArenaError::File { file, error } => write!(f, "{file} {error}"),
            ArenaError::Log { file, error } => write!(f, "{file} {error}"),
            ArenaError::State(e) => write!(f, "{e}"),
            ArenaError::Merge(e) => write!(f, "{e}"),
            ArenaError::Worker(e) => write!(f, "cannot start a worker thread: {e}"),
            ArenaError::Interrupted {
                saved, scheduled, ..
            } => write!(
                f,
                "interrupted: {saved} of {scheduled} games finished and saved (games in play were not); continue with the same arguments, resuming"
            ),
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

impl From<OpeningError> for ArenaError {
    fn from(e: OpeningError) -> Self {
        ArenaError::Openings(e)
    }
}

impl From<StateError> for ArenaError {
    fn from(e: StateError) -> Self {
        match e {
            // A record written while the PGN file is rebuilt from the state.
            StateError::Record(error) => ArenaError::File {
                file: OutputFile::Pgn,
                error,
            },
            other => ArenaError::State(other),
        }
    }
}

impl From<MergeError> for ArenaError {
    fn from(e: MergeError) -> Self {
        ArenaError::Merge(e)
    }
}
