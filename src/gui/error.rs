//! What the page is told when a request cannot be carried out: a command the game
//! refuses ([`SessionError`]), a request body that cannot be read ([`BodyError`]); and
//! why the server could not start ([`GuiError`]). (A command line that is not one the
//! page may send is a [`super::commands::CommandError`].)

use std::fmt;
use std::net::IpAddr;

use crate::board::{IllegalMove, SquareError, SquareName, StartError};

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
    /// It did not arrive in time.
    TimedOut,
    /// Reading it failed.
    Unreadable(Box<dyn std::error::Error + Send + Sync>),
    /// Not UTF-8.
    NotText,
}

impl BodyError {
    /// The HTTP status of the answer.
    pub fn status(&self) -> u16 {
        match self {
            BodyError::TooBig { .. } => 413,
            BodyError::TimedOut => 408,
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
            BodyError::TimedOut => f.write_str(
                "the request body did not arrive in time: expected it within the server's body timeout",
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
    /// The server's runtime cannot be started.
    Runtime(std::io::Error),
    /// The listening socket failed in a way no retry can mend.
    Accept(std::io::Error),
}

impl fmt::Display for GuiError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GuiError::Listen { host, port, error } => write!(
                f,
                "cannot listen on {host}:{port}: {error}; expected a free port (port 0 picks one)"
            ),
            GuiError::NoAddress => f.write_str("the server has no IP address"),
            GuiError::Runtime(e) => write!(f, "cannot start the server's runtime: {e}"),
            GuiError::Accept(e) => write!(
                f,
                "the listening socket failed: {e}; the server stops (expected it to accept \
                 connections for as long as it runs)"
            ),
        }
    }
}

impl std::error::Error for GuiError {}
