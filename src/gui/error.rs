//! What the page is told when a request cannot be carried out: a command line that is
//! not one the page may send ([`CommandError`]), a command the game refuses
//! ([`SessionError`]), a request body that cannot be read ([`BodyError`]), and why the
//! server could not start ([`GuiError`]).

use std::fmt;
use std::net::IpAddr;

use crate::board::{IllegalMove, SquareError, SquareName, StartError};
use crate::protocol::ParseError;

use super::commands::{LEVELS, MAX_LINES, MOVE_TIMES, OPTION_NAMES};

/// A command line the page may not send.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum CommandError {
    /// No command at all.
    Empty,
    /// More lines than one request may carry.
    TooManyLines(usize),
    /// A line longer than the protocol allows.
    LineTooLong(usize),
    /// A line that is no protocol message.
    Parse(ParseError),
    /// `newgame` with a start that does not fit the board.
    NewGame(StartError),
    /// A message the page may not ask: its keyword.
    NotAskable(&'static str),
    /// A hint without a limit.
    UnlimitedHint,
    /// A hint's move time out of range.
    HintMoveTime,
    /// `setoption` without a value.
    NoValue(String),
    /// Who plays a side: neither `human` nor `engine`.
    Player {
        /// The option as given.
        name: String,
        /// The value.
        value: String,
    },
    /// A level out of range.
    Level(String),
    /// A move time out of range.
    MoveTime(String),
    /// Analysis neither `true` nor `false`.
    Analysis(String),
    /// An option the session does not have.
    UnknownOption(String),
}

impl fmt::Display for CommandError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CommandError::Empty => {
                f.write_str("empty request: expected a command such as `move c3`")
            }
            CommandError::TooManyLines(n) => write!(
                f,
                "{n} command lines: expected at most {MAX_LINES} in one request"
            ),
            CommandError::LineTooLong(n) => write!(
                f,
                "a line of {n} bytes: expected at most {}",
                crate::protocol::MAX_LINE_BYTES
            ),
            CommandError::Parse(e) => write!(f, "{e}"),
            CommandError::NewGame(e) => write!(f, "newgame: {e}"),
            CommandError::NotAskable(keyword) => write!(
                f,
                "'{keyword}' is not something the page can ask: expected one of newgame, \
                 position, move, go, stop, setoption, undo, redo or restart"
            ),
            CommandError::UnlimitedHint => f.write_str(
                "go: a hint needs a limit: expected movetime MS, depth N or nodes N (live \
                 analysis is `setoption name Analysis value true`)",
            ),
            CommandError::HintMoveTime => write!(
                f,
                "go: movetime out of range: expected {} to {} ms",
                MOVE_TIMES.start(),
                MOVE_TIMES.end()
            ),
            CommandError::NoValue(name) => write!(
                f,
                "setoption {name}: the value is missing: expected `setoption name {name} value ...`"
            ),
            CommandError::Player { name, value } => {
                write!(f, "setoption {name}: '{value}': expected human or engine")
            }
            CommandError::Level(value) => write!(
                f,
                "setoption Level: '{value}': expected a whole number from {} to {}",
                LEVELS.start(),
                LEVELS.end()
            ),
            CommandError::MoveTime(value) => write!(
                f,
                "setoption MoveTime: '{value}': expected milliseconds from {} to {}",
                MOVE_TIMES.start(),
                MOVE_TIMES.end()
            ),
            CommandError::Analysis(value) => {
                write!(f, "setoption Analysis: '{value}': expected true or false")
            }
            CommandError::UnknownOption(name) => write!(
                f,
                "setoption: unknown option '{name}': expected one of {OPTION_NAMES}"
            ),
        }
    }
}

impl std::error::Error for CommandError {}

/// A command the session refuses, or a request it cannot take.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum SessionError {
    /// `newgame` with a start that does not fit the board.
    NewGame(StartError),
    /// A move of `position` that is not on the board.
    PositionSquare {
        /// Its number, from 1.
        number: usize,
        /// The move.
        name: SquareName,
        /// Why not.
        error: SquareError,
    },
    /// A move of `position` that cannot be played.
    PositionMove {
        /// Its number, from 1.
        number: usize,
        /// The move.
        name: SquareName,
        /// Why not.
        error: IllegalMove,
    },
    /// A move after the end of the game.
    GameOver(SquareName),
    /// A move on the engine's turn.
    EnginesTurn {
        /// The move.
        name: SquareName,
        /// The engine's player, 1 or 2.
        player: u8,
    },
    /// A move that is not on the board.
    OffBoard {
        /// The move.
        name: SquareName,
        /// Why not.
        error: SquareError,
    },
    /// A move that is not legal.
    Illegal {
        /// The move.
        name: SquareName,
        /// Why not.
        error: IllegalMove,
        /// The legal moves.
        legal: Vec<String>,
    },
    /// A hint after the end of the game.
    HintGameOver,
    /// A hint on the engine's turn.
    HintEnginesTurn,
    /// `undo` without a move.
    NothingToUndo,
    /// `redo` without a move taken back.
    NothingToRedo,
    /// More event streams than a game has.
    TooManyStreams(usize),
}

impl fmt::Display for SessionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SessionError::NewGame(e) => write!(f, "newgame: {e}"),
            SessionError::PositionSquare {
                number,
                name,
                error,
            } => write!(
                f,
                "position: move {number} ({name}) is not on the board: {error}"
            ),
            SessionError::PositionMove {
                number,
                name,
                error,
            } => write!(
                f,
                "position: move {number} ({name}) cannot be played: {error}; the game is unchanged"
            ),
            SessionError::GameOver(name) => {
                write!(
                    f,
                    "move {name}: the game is over: expected a new game or undo"
                )
            }
            SessionError::EnginesTurn { name, player } => write!(
                f,
                "move {name}: it is the engine's turn (player {player}): expected to wait for its move"
            ),
            SessionError::OffBoard { name, error } => write!(f, "move {name}: {error}"),
            SessionError::Illegal { name, error, legal } => write!(
                f,
                "move {name}: {error}: expected one of {}",
                legal.join(" ")
            ),
            SessionError::HintGameOver => {
                f.write_str("go: the game is over: expected a position with a legal move")
            }
            SessionError::HintEnginesTurn => {
                f.write_str("go: it is the engine's turn: expected a hint on a human's turn")
            }
            SessionError::NothingToUndo => {
                f.write_str("undo: no move to take back: expected a game with moves")
            }
            SessionError::NothingToRedo => {
                f.write_str("redo: no move to replay: expected undo first")
            }
            SessionError::TooManyStreams(max) => write!(
                f,
                "this game already has {max} open event streams: expected one per tab"
            ),
        }
    }
}

impl std::error::Error for SessionError {}

/// A request body that cannot be read.
#[derive(Debug)]
pub enum BodyError {
    /// Longer than the request may be.
    TooBig {
        /// Its bytes, or the bytes read before it was cut off.
        bytes: usize,
        /// The most it may have.
        limit: usize,
    },
    /// Reading it failed.
    Unreadable(std::io::Error),
    /// Not UTF-8.
    NotText,
}

impl BodyError {
    /// The HTTP status of the answer.
    pub fn status(&self) -> u16 {
        match self {
            BodyError::TooBig { .. } => 413,
            BodyError::Unreadable(_) | BodyError::NotText => 400,
        }
    }
}

impl fmt::Display for BodyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BodyError::TooBig { bytes, limit } => write!(
                f,
                "the request body has {bytes} bytes or more: expected at most {limit}"
            ),
            BodyError::Unreadable(e) => write!(f, "cannot read the request body: {e}"),
            BodyError::NotText => f.write_str("the request body is not valid UTF-8: expected text"),
        }
    }
}

impl std::error::Error for BodyError {}

/// Why the server could not start.
#[derive(Debug)]
pub enum GuiError {
    /// The address cannot be listened on.
    Listen {
        /// The host.
        host: IpAddr,
        /// The port.
        port: u16,
        /// Why.
        error: Box<dyn std::error::Error + Send + Sync>,
    },
    /// The server got no IP address.
    NoAddress,
}

impl fmt::Display for GuiError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GuiError::Listen { host, port, error } => write!(
                f,
                "cannot listen on {host}:{port}: {error}; expected a free port (port 0 picks one)"
            ),
            GuiError::NoAddress => f.write_str("the server has no IP address"),
        }
    }
}

impl std::error::Error for GuiError {}
