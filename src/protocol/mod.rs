//! The engine protocol: the message type shared by engines, GUIs and the arena.
//!
//! [`Message`] is one line in either direction, read with `FromStr` and written with
//! `Display`. The parser (nom) is private to this module. `protocol.md` at the
//! repository root is the contract.

/// The longest protocol line, in bytes (64 KiB): the engine answers a longer line with an
/// error, and GUIs and the arena reject a longer line from an engine. One limit for every
/// reader of the protocol.
pub const MAX_LINE_BYTES: usize = 64 * 1024;

mod message;
mod parse;

pub use crate::score::{Bound, Score};
pub use message::{
    Direction, GameSetup, GoArgs, Id, Info, KEYWORDS, Message, OptionDecl, OptionKind,
    PositionBase, PositionSetup, Query, Response, keywords,
};
pub use parse::ParseError;
