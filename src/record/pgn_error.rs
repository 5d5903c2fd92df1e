//! Why a PGN record cannot be read or replayed: [`PgnError`], each saying what was wrong
//! and what was expected.

use std::fmt;

use crate::board::{MoveError, PositionError, SizeError, StartError};

use super::pgn_read::MAX_PGN_BYTES;

/// A PGN record that cannot be read: what was wrong, and what was expected.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum PgnError {
    /// The record is longer than [`MAX_PGN_BYTES`].
    TooLong(usize),
    /// A tag line that is not `[Name "value"]`: its start.
    BadTag(String),
    /// A tag that says how the game starts appears twice with different values: its name.
    RepeatedTag(&'static str),
    /// A `Variant` tag naming another game: its value.
    Variant(String),
    /// A `Board` tag that is no board size.
    Board(SizeError),
    /// A `Position` tag that is no position string.
    Position(PositionError),
    /// A `FEN` tag that is no position string.
    Fen(PositionError),
    /// A `SetUp` tag other than `0` or `1`: its value.
    SetUp(String),
    /// `SetUp "1"` without the `FEN` (or `Position`) tag that gives the position.
    SetUpWithoutFen,
    /// Two tags that say different things about the start.
    Conflict {
        /// The first tag and what it says.
        first: String,
        /// The second tag and what it says.
        second: String,
    },
    /// A `Start` tag that is no start square of the board.
    Start(StartError),
    /// A `}` without its `{`.
    UnopenedComment,
    /// A `{` never closed.
    UnclosedComment,
    /// A variation in parentheses, which this reader does not replay.
    Variation,
    /// Text after the result, such as a second game: its start.
    AfterResult(String),
    /// A move that cannot be played.
    Move {
        /// Its number, from 1.
        number: usize,
        /// The move as written (its start).
        word: String,
        /// Why not.
        error: MoveError,
    },
}

impl fmt::Display for PgnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PgnError::TooLong(bytes) => write!(
                f,
                "PGN: the record has {bytes} bytes: expected at most {MAX_PGN_BYTES}"
            ),
            PgnError::BadTag(line) => {
                write!(f, "PGN: bad tag line `{line}`: expected [Name \"value\"]")
            }
            PgnError::RepeatedTag(name) => write!(
                f,
                "PGN: the {name} tag appears twice with different values: expected it once"
            ),
            PgnError::Variant(name) => write!(
                f,
                "PGN Variant tag: the record is of `{name}`: expected a game of slimetrail"
            ),
            PgnError::Board(e) => write!(f, "PGN Board tag: {e}"),
            PgnError::Position(e) => write!(f, "PGN Position tag: {e}"),
            PgnError::Fen(e) => write!(f, "PGN FEN tag: {e}"),
            PgnError::SetUp(value) => {
                write!(f, "PGN SetUp tag `{value}`: expected \"0\" or \"1\"")
            }
            PgnError::SetUpWithoutFen => f.write_str(
                "PGN: SetUp \"1\" says the game starts from a set-up position, but no FEN tag \
                 gives it: expected a FEN tag with a position string",
            ),
            PgnError::Conflict { first, second } => write!(
                f,
                "PGN: the tags disagree: {first}, but {second}: expected tags that describe one start"
            ),
            PgnError::Start(e) => write!(f, "PGN Start tag: {e}"),
            PgnError::UnopenedComment => {
                f.write_str("PGN: a `}` without its `{`: expected balanced comments")
            }
            PgnError::UnclosedComment => {
                f.write_str("PGN: a comment `{` is never closed: expected a `}`")
            }
            PgnError::Variation => f.write_str(
                "PGN: the record has a variation `(…)`, which cannot be replayed: \
                 expected one line of moves",
            ),
            PgnError::AfterResult(text) => write!(
                f,
                "PGN: `{text}` follows the result: expected one game that ends with its result"
            ),
            PgnError::Move {
                number,
                word,
                error,
            } => write!(
                f,
                "PGN move {number} ({word}): {error}; expected a legal move"
            ),
        }
    }
}

impl std::error::Error for PgnError {}
