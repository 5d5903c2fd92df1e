//! The rules of Slime Trail: board geometry, positions, moves, notation and perft.
//!
//! Nothing here knows about search, protocols or tournaments.

mod bitboard;
mod coords;
mod diagram;
mod geometry;
mod notation;
mod perft;
mod position;

pub use bitboard::{Bitboard, Squares, Word};
pub use coords::{
    MAX_SIDE, MAX_SQUARES, MIN_SIDE, Side, Size, SizeError, Square, SquareError, SquareName,
};
pub use diagram::Diagram;
pub use geometry::Geometry;
pub use notation::PositionError;
pub use perft::{divide, perft, perft_in};
pub use position::{IllegalMove, MoveError, Outcome, Position, StartError, WinReason};
