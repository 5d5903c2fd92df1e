//! Why openings cannot be had: words that do not describe them, a file that cannot be
//! read or holds a bad line, or random openings that do not exist from the start.

use std::fmt;
use std::io;
use std::path::PathBuf;

use crate::board::{MoveError, Position, PositionError, Size, SquareName, StartError};
use crate::record::PgnError;

/// What is wrong with the openings asked for: their start, or their words. Its
/// `Display` begins with the words at fault (`random:x: …`, `file=o.txt line 3: …`).
#[derive(Debug)]
pub enum OpeningError {
    /// The start square does not fit the board.
    Start {
        /// The board size.
        size: Size,
        /// The start square, when one was given.
        start: Option<SquareName>,
        /// Why it does not fit.
        error: StartError,
    },
    /// Words that are neither `random:K` nor `file=PATH [order=…]`.
    Words(String),
    /// `random:K` or `plies=N` with no number of plies.
    Plies(String),
    /// `start=N` with N not a number from 1.
    StartNumber(String),
    /// `format=epd`: this game has no EPD.
    Epd(String),
    /// A format other than `pgn`.
    Format(String),
    /// `start=N` beyond the openings of the file.
    StartBeyond {
        /// The opening asked for first.
        start: usize,
        /// The openings the file holds.
        count: usize,
    },
    /// `file=` without a path.
    NoPath(String),
    /// An order other than `sequential` or `random`.
    Order(String),
    /// No random opening of this many plies exists from the start.
    NoRandomOpening {
        /// The plies asked for.
        plies: usize,
        /// The start position.
        start: Position,
    },
    /// The file cannot be read.
    Unreadable {
        /// The file.
        path: PathBuf,
        /// Why.
        error: io::Error,
    },
    /// A line of the file is not an opening.
    Line {
        /// The file.
        path: PathBuf,
        /// The line, from 1.
        line: usize,
        /// What is wrong with it.
        problem: LineProblem,
    },
    /// A PGN record of the file is not an opening.
    Record {
        /// The file.
        path: PathBuf,
        /// The record, from 1.
        game: usize,
        /// The line it begins on, from 1.
        line: usize,
        /// What is wrong with it.
        problem: Box<LineProblem>,
    },
    /// The file holds no opening.
    Empty {
        /// The file.
        path: PathBuf,
    },
}

/// What is wrong with a line of an opening file.
#[derive(Debug)]
pub enum LineProblem {
    /// Its position string is not one.
    Position(PositionError),
    /// A move that cannot be played.
    Move {
        /// The move as written.
        word: String,
        /// Why not.
        error: MoveError,
    },
    /// The opening ends the game.
    EndsTheGame(String),
    /// A PGN record that cannot be read.
    Pgn(PgnError),
    /// A PGN record whose moves (this many) end the game.
    RecordEndsTheGame {
        /// The moves read, after any cut.
        plies: usize,
    },
}

/// What `random:K` or `file=PATH` stand for, for the messages.
pub const OPENING_FORMS: &str =
    "`random:K` or `file=PATH [format=pgn] [order=sequential|random] [plies=N] [start=N]`";

impl fmt::Display for LineProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LineProblem::Position(e) => write!(f, "{e}"),
            LineProblem::Move { word, error } => write!(
                f,
                "move `{word}`: {error}; expected a legal move list such as `c3 b3`"
            ),
            LineProblem::Pgn(e) => write!(f, "{e}"),
            LineProblem::RecordEndsTheGame { plies } => write!(
                f,
                "its {plies} moves end the game; expected an opening that leaves a move to \
                 play: cut the records with plies=N"
            ),
            LineProblem::EndsTheGame(line) => write!(
                f,
                "the opening `{line}` ends the game; expected an opening that leaves a move to play"
            ),
        }
    }
}

impl fmt::Display for OpeningError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OpeningError::Start {
                start: Some(name),
                error,
                ..
            } => write!(f, "start {name}: {error}"),
            OpeningError::Start {
                size,
                start: None,
                error,
            } => write!(f, "size {size}: {error}"),
            OpeningError::Words(words) => write!(f, "{words}: expected {OPENING_FORMS}"),
            OpeningError::Plies(word) => write!(
                f,
                "{word}: expected a number of plies such as random:4 or plies=4"
            ),
            OpeningError::StartNumber(word) => write!(
                f,
                "{word}: expected the number of the first opening, from 1, such as start=1"
            ),
            OpeningError::Epd(word) => write!(
                f,
                "{word}: Slime Trail has no EPD (a chess position format); expected format=pgn \
                 (PGN records whose moves are squares, such as the arena's own --pgn files) or \
                 no format= (one position string or move list per line)"
            ),
            OpeningError::Format(word) => write!(
                f,
                "{word}: unknown format; expected format=pgn (PGN records whose moves are \
                 squares) or no format= (one position string or move list per line)"
            ),
            OpeningError::StartBeyond { start, count } => write!(
                f,
                "start={start}: the file holds {count} opening{}; expected start=1 to {count}",
                if *count == 1 { "" } else { "s" }
            ),
            OpeningError::Record {
                path,
                game,
                line,
                problem,
            } => write!(
                f,
                "file={} game {game} (line {line}): {problem}",
                path.display()
            ),
            OpeningError::NoPath(word) => write!(f, "{word}: expected a file path after file="),
            OpeningError::Order(word) => {
                write!(f, "{word}: expected order=sequential or order=random")
            }
            OpeningError::NoRandomOpening { plies, start } => write!(
                f,
                "random:{plies}: no opening of {plies} plies from {start} avoids ending the game and stepping next to a goal; expected fewer plies"
            ),
            OpeningError::Unreadable { path, error } => write!(
                f,
                "file={}: cannot read it ({error}); expected a readable text file",
                path.display()
            ),
            OpeningError::Line {
                path,
                line,
                problem,
            } => write!(f, "file={} line {line}: {problem}", path.display()),
            OpeningError::Empty { path } => write!(
                f,
                "file={}: no openings in it; expected one position string or move list per line",
                path.display()
            ),
        }
    }
}

impl std::error::Error for OpeningError {}
