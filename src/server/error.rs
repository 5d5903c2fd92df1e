//! The session's typed errors: what was wrong with a line, a `setoption` or a move,
//! and what was expected. Each becomes one `info string error ...` reply.

use std::fmt;

use crate::board::{IllegalMove, Side, SquareError, WinReason};
use crate::protocol::{MAX_LINE_BYTES, ParseError};

/// Why an input line is not a command.
#[derive(Clone, PartialEq, Eq, Debug)]
pub(super) enum LineError {
    /// Longer than [`MAX_LINE_BYTES`]; its length in bytes.
    TooLong(usize),
    /// Not UTF-8: the offset of the first bad byte.
    NotUtf8(usize),
    /// UTF-8 text that is no protocol message.
    Unparsed(ParseError),
}

impl fmt::Display for LineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LineError::TooLong(length) => write!(
                f,
                "the line is too long ({length} bytes): expected at most {MAX_LINE_BYTES} bytes per line"
            ),
            LineError::NotUtf8(offset) => write!(
                f,
                "the line is not valid UTF-8 (bad byte at offset {offset}): expected UTF-8 text"
            ),
            LineError::Unparsed(e) => write!(f, "{e}"),
        }
    }
}

/// Why a `setoption` cannot be carried out.
#[derive(Clone, PartialEq, Eq, Debug)]
pub(super) enum OptionError {
    /// No option of that name; the names there are.
    Unknown {
        /// The name given.
        name: String,
        /// Every option's name.
        known: Vec<&'static str>,
    },
    /// A check option without `value true` or `value false`.
    CheckWithoutValue(&'static str),
    /// A check option given another word.
    NotTrueOrFalse {
        /// The option.
        option: &'static str,
        /// The word given.
        value: String,
    },
    /// A spin option without `value N`.
    SpinWithoutValue {
        /// The option.
        option: &'static str,
        /// Its range.
        range: (i64, i64),
    },
    /// A spin option given something that is not a whole number.
    NotANumber {
        /// The option.
        option: &'static str,
        /// The text given.
        value: String,
        /// Its range.
        range: (i64, i64),
    },
    /// A spin option given a number outside its range.
    OutOfRange {
        /// The option.
        option: &'static str,
        /// The number given.
        number: i64,
        /// Its range.
        range: (i64, i64),
    },
}

impl fmt::Display for OptionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let whole = |(min, max): (i64, i64)| format!("expected a whole number from {min} to {max}");
        match self {
            OptionError::Unknown { name, known } => write!(
                f,
                "setoption: unknown option '{name}': expected one of {}",
                known.join(", ")
            ),
            OptionError::CheckWithoutValue(option) => {
                write!(f, "setoption: {option} needs 'value true' or 'value false'")
            }
            OptionError::NotTrueOrFalse { option, value } => write!(
                f,
                "setoption: bad {option} value '{value}': expected true or false"
            ),
            OptionError::SpinWithoutValue { option, range } => {
                write!(f, "setoption: {option} needs 'value N': {}", whole(*range))
            }
            OptionError::NotANumber {
                option,
                value,
                range,
            } => write!(
                f,
                "setoption: bad {option} value '{value}': {}",
                whole(*range)
            ),
            OptionError::OutOfRange {
                option,
                number,
                range,
            } => write!(
                f,
                "setoption: {option} {number} is out of range: {}",
                whole(*range)
            ),
        }
    }
}

/// Why a move cannot be played in the session's position.
#[derive(Clone, PartialEq, Eq, Debug)]
pub(super) enum MoveRefused {
    /// The game is over.
    GameOver {
        /// Who won.
        winner: Side,
        /// How.
        reason: WinReason,
    },
    /// The square is not on this board.
    OffBoard {
        /// Why.
        error: SquareError,
        /// The legal moves, by file then rank.
        legal: Vec<String>,
    },
    /// The square is on the board, but the snail cannot step there.
    Illegal {
        /// Why.
        error: IllegalMove,
        /// The legal moves, by file then rank.
        legal: Vec<String>,
    },
}

impl fmt::Display for MoveRefused {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveRefused::GameOver { winner, reason } => write!(
                f,
                "the game is over ({winner} won, {reason}): expected newgame or position first"
            ),
            MoveRefused::OffBoard { error, legal } => {
                write!(f, "{error}: expected one of {}", legal.join(" "))
            }
            MoveRefused::Illegal { error, legal } => {
                write!(f, "{error}: expected one of {}", legal.join(" "))
            }
        }
    }
}
