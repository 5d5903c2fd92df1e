//! What an engine's output and failures are to the client: each line read as an
//! [`EngineEvent`] (a message, garbage, a line too long, or the end), and every way an
//! engine can fail as a [`Fault`] of a [`FaultKind`].

use std::fmt;
use std::time::Instant;

use super::process::Received;
use crate::protocol::{MAX_LINE_BYTES, Message, ParseError};

/// Characters of a line shown in a fault.
const SHOWN: usize = 80;

/// What went wrong with an engine.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum FaultKind {
    /// It could not be started, or did not finish its start-up handshake in time.
    Startup,
    /// It refused an option it was given: not declared, or a value it does not take.
    Options,
    /// Its process exited or crashed.
    Crash,
    /// It printed a line that is not a protocol message.
    Garbage,
    /// It did not answer a ping (`isready`) in time.
    Hang,
    /// It did not answer `go` with `bestmove` in time.
    NoMove,
    /// It broke the protocol: a `bestmove` before it was sent `go`, or a line too long.
    Protocol,
}

/// A fault: its kind and a sentence explaining it, written to follow the engine's name,
/// such as `crashed: exited with code 3`.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Fault {
    /// The kind of fault.
    pub kind: FaultKind,
    /// What happened.
    pub detail: String,
}

impl Fault {
    /// A fault of `kind` explained by `detail`.
    pub fn new(kind: FaultKind, detail: impl Into<String>) -> Fault {
        Fault {
            kind,
            detail: detail.into(),
        }
    }
}

impl fmt::Display for Fault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.detail)
    }
}

impl std::error::Error for Fault {}

/// One piece of engine output, read. Blank lines and `info` lines with fields this
/// client does not know are skipped, as GUIs do; `bestmove X ponder Y` is `bestmove X`.
#[derive(Clone, PartialEq, Debug)]
pub enum EngineEvent {
    /// A protocol message, and when its line arrived.
    Message(Message, Instant),
    /// A line that is not a protocol message, and why not.
    Garbage {
        /// The line.
        line: String,
        /// The parser's complaint.
        error: ParseError,
    },
    /// A line longer than [`MAX_LINE_BYTES`]: its first characters.
    TooLong {
        /// The start of the line.
        start: String,
    },
    /// The engine's output closed: it exited or crashed ([`super::EngineClient::exit_report`]
    /// says how).
    Closed,
}

impl EngineEvent {
    /// The fault this event is when it is not a message: garbage, a line too long, or
    /// the end of the output (then `crashed` says how the engine ended).
    pub(super) fn fault(self, crashed: impl FnOnce() -> Fault) -> Option<Fault> {
        match self {
            EngineEvent::Message(..) => None,
            EngineEvent::Garbage { line, error } => Some(Fault::new(
                FaultKind::Garbage,
                format!("sent garbage `{}`: {error}", shown(&line)),
            )),
            EngineEvent::TooLong { start } => Some(too_long(&start)),
            EngineEvent::Closed => Some(crashed()),
        }
    }
}

/// What a received line is: an event, or `None` for a line to skip.
pub(super) fn read_event(received: Received) -> Option<EngineEvent> {
    match received {
        Received::Line { text, at } => match parse_output(&text) {
            Ok(Some(message)) => Some(EngineEvent::Message(message, at)),
            Ok(None) => None,
            Err(error) => Some(EngineEvent::Garbage { line: text, error }),
        },
        Received::TooLong { start, .. } => Some(EngineEvent::TooLong { start }),
        Received::Closed => Some(EngineEvent::Closed),
        Received::Timeout => None,
    }
}

/// An engine's output line as a message: `None` for what UCI and UGI engines print
/// and this client does not need (blank lines, `info` lines with fields it does not
/// know); `bestmove X ponder Y` is read as `bestmove X`.
fn parse_output(line: &str) -> Result<Option<Message>, ParseError> {
    let trimmed = line.trim();
    let mut words = trimmed.split_whitespace();
    match words.next() {
        None => Ok(None),
        Some("info") => Ok(trimmed.parse::<Message>().ok()),
        Some("bestmove") => {
            let text = match trimmed.find(" ponder") {
                Some(at) => &trimmed[..at],
                None => trimmed,
            };
            text.parse::<Message>().map(Some)
        }
        Some(_) => trimmed.parse::<Message>().map(Some),
    }
}

/// The start of a line, for a report.
pub(super) fn shown(line: &str) -> String {
    line.chars().take(SHOWN).collect()
}

/// The fault for a line longer than the protocol allows.
fn too_long(start: &str) -> Fault {
    Fault::new(
        FaultKind::Protocol,
        format!("sent a line too long: over {MAX_LINE_BYTES} bytes, starting `{start}`"),
    )
}
