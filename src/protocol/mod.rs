//! The engine protocol: the message type shared by engines, GUIs and the arena.
//!
//! [`Message`] is one line in either direction, read with `FromStr` and written with
//! `Display`. The parser (nom) is private to this module. `protocol.md` at the
//! repository root is the contract.

mod message;
mod parse;

pub use crate::score::{Bound, Score};

/// The longest protocol line, in bytes, that engines, the arena and GUIs accept:
/// one limit for every reader of the protocol.
pub const MAX_LINE_BYTES: usize = 64 * 1024;
pub use message::{
    Direction, GameSetup, GoArgs, Id, Info, KEYWORDS, Message, OptionDecl, OptionKind,
    PositionBase, PositionSetup, Query, Response, keywords,
};
pub use parse::ParseError;
