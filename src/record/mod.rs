//! Game records, shared by the arena and the GUI: why a game ended and its result
//! ([`Termination`], [`GameReport`]), its moves with the engines' comments
//! ([`GameRecord`]), and PGN: written with [`write_game`] and read back with
//! [`read_pgn`].
//!
//! - `game_record`: the record types.
//! - `pgn_write`: tag pairs and move text, with scores and times as comments.
//! - `pgn_read`: a record read back from its tags and moves, every move checked by the rules.
//! - `pgn_error`: why a record cannot be read or replayed.

mod game_record;
mod pgn_error;
mod pgn_read;
mod pgn_write;

#[cfg(test)]
mod pgn_round_trip;

pub use game_record::{GameRecord, GameReport, MoveRecord, Termination};
pub use pgn_error::PgnError;
pub use pgn_read::{MAX_PGN_BYTES, PgnGame, read_pgn};
pub use pgn_write::{Comments, VARIANT, Venue, tags, write_game};
