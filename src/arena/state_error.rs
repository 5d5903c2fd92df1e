//! Why a state file cannot be created, resumed or read: the file and what was wrong,
//! down to the line of a damaged one.

use std::fmt;
use std::io;
use std::path::PathBuf;

use super::files::FileError;
use super::replay::ResultProblem;
use super::settings::Mismatch;

/// A state file that cannot be used.
#[derive(Debug)]
pub enum StateError {
    /// It cannot be opened, read, written or locked.
    File(FileError),
    /// It holds finished games of an earlier run, and starting over was not asked for.
    HoldsGames {
        /// The file.
        path: PathBuf,
        /// Its finished games.
        saved: usize,
    },
    /// There is no state file to resume.
    Missing {
        /// The file.
        path: PathBuf,
    },
    /// It belongs to another tournament.
    OtherTournament {
        /// The file.
        path: PathBuf,
        /// How the tournaments differ.
        mismatch: Mismatch,
    },
    /// Its first line is not the header of a state file.
    NotAState {
        /// The file.
        path: PathBuf,
    },
    /// It is empty, or its first line is not complete.
    Empty {
        /// The file.
        path: PathBuf,
    },
    /// One of its lines is damaged.
    Damaged {
        /// The file.
        path: PathBuf,
        /// The line, from 1.
        line: usize,
        /// What is wrong with it.
        problem: LineProblem,
    },
    /// A line of a game, before the file and the line are known (inside the reader).
    Line(LineProblem),
    /// Something could not be encoded as JSON.
    Encode {
        /// What, such as `a game`.
        what: &'static str,
        /// Why.
        error: serde_json::Error,
    },
    /// A saved game's PGN record could not be written to the rebuilt PGN file.
    Record(FileError),
}

/// What is wrong with one line of a state file.
#[derive(Debug)]
pub enum LineProblem {
    /// It cannot be read.
    Unreadable(io::Error),
    /// The header is of another format version.
    Version {
        /// The version of the file.
        found: u32,
        /// The version this arena reads.
        expected: u32,
    },
    /// It is not a saved game.
    NotAGame(serde_json::Error),
    /// The winner is neither 1 nor 2.
    Winner(u8),
    /// A round 0 or an empty player name.
    Unnamed,
    /// A game saved a second time.
    Twice {
        /// The game number, from 0.
        number: usize,
        /// The line it was first saved on.
        first: usize,
    },
    /// A game number the schedule does not have.
    NotScheduled {
        /// The game number, from 0.
        number: usize,
    },
    /// A game saved with another round, pair or players than the schedule's.
    OtherGame(Box<OtherGame>),
    /// A game whose saved result its moves, replayed by the rules, contradict.
    Result {
        /// The game number, from 0.
        number: usize,
        /// How they disagree.
        problem: Box<ResultProblem>,
    },
}

/// A game saved with another round, pair or players than the schedule's.
#[derive(Debug)]
pub struct OtherGame {
    /// The game number, from 0.
    pub number: usize,
    /// Round, pair and players as saved.
    pub saved: (usize, usize, [String; 2]),
    /// Round, pair and players of the schedule.
    pub scheduled: (usize, usize, [String; 2]),
}

impl fmt::Display for LineProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LineProblem::Unreadable(e) => write!(f, "cannot read it ({e})"),
            LineProblem::Version { found, expected } => write!(
                f,
                "state format version {found}; expected version {expected}"
            ),
            LineProblem::NotAGame(e) => write!(f, "{e}; expected one saved game per line"),
            LineProblem::Winner(w) => write!(f, "winner {w}; expected 1 or 2"),
            LineProblem::Unnamed => f.write_str(
                "a round 0 or an empty player name; expected rounds from 1 and named players",
            ),
            LineProblem::Twice { number, first } => write!(
                f,
                "game number {number} saved a second time (first on line {first}); expected each game once"
            ),
            LineProblem::NotScheduled { number } => {
                write!(
                    f,
                    "game number {number} is not in this tournament's schedule"
                )
            }
            LineProblem::Result { number, problem } => write!(f, "game number {number}: {problem}"),
            LineProblem::OtherGame(game) => {
                let OtherGame {
                    number,
                    saved: (round, pair, [p1, p2]),
                    scheduled: (s_round, s_pair, [s1, s2]),
                } = game.as_ref();
                write!(
                    f,
                    "game {number} is saved as round {round}, pair {pair}, {p1} against {p2}; expected round {s_round}, pair {s_pair}, {s1} against {s2}"
                )
            }
        }
    }
}

impl fmt::Display for StateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StateError::File(e) => write!(f, "the state file {e}"),
            StateError::HoldsGames { path, saved } => write!(
                f,
                "the state file {}: holds {saved} finished games of an earlier run; expected to resume it, or to start over (or another state file)",
                path.display()
            ),
            StateError::Missing { path } => write!(
                f,
                "the state file {} does not exist; expected the state file of the interrupted run, or a new tournament",
                path.display()
            ),
            StateError::OtherTournament { path, mismatch } => write!(
                f,
                "the state file {} belongs to another tournament ({mismatch}); expected the same arguments as the interrupted run, or another state file",
                path.display()
            ),
            StateError::NotAState { path } => write!(
                f,
                "{}: not an arena state file; expected a first line with the saved settings",
                path.display()
            ),
            StateError::Empty { path } => write!(
                f,
                "{}: not an arena state file (empty, or no complete first line); expected a first line with the saved settings",
                path.display()
            ),
            StateError::Damaged {
                path,
                line,
                problem,
            } => write!(
                f,
                "the state file {} line {line}: {problem}; the state file is damaged: repair or remove that line, or start over",
                path.display()
            ),
            StateError::Line(problem) => write!(f, "{problem}"),
            StateError::Encode { what, error } => write!(f, "cannot encode {what}: {error}"),
            StateError::Record(e) => write!(f, "the PGN file {e}"),
        }
    }
}

impl std::error::Error for StateError {}

impl From<FileError> for StateError {
    fn from(e: FileError) -> Self {
        StateError::File(e)
    }
}

impl From<LineProblem> for StateError {
    fn from(problem: LineProblem) -> Self {
        StateError::Line(problem)
    }
}
