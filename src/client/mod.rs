//! The engine client: everything that drives an engine process over the protocol, for
//! the arena and the GUI alike.
//!
//! - `conversation`: [`EngineClient`], the one conversation with an engine: handshake,
//!   options, ping, search, stop and quit.
//! - `events`: each output line read as an [`EngineEvent`], and every failure a [`Fault`].
//! - `process`: the engine process in its own process group, set to die with this one,
//!   with a bounded line reader, its stderr in the log and a report of how it exited.
//! - [`signals`]: the registry of live engine processes, killed at Ctrl-C or SIGTERM.
//! - `log`: the stderr and process-event log, and the protocol-traffic log.
//! - `spec`: the engine spec (launch, options, limits), read from its `KEY=VALUE`
//!   words; `limits`: the clock and the search limits.
//! - `options`: `option.NAME=VALUE` checked against the options an engine declares.
//! - [`mock`]: a misbehaving test engine.

mod conversation;
mod events;
mod exit;
mod limits;
mod log;
mod millis;
pub mod mock;
mod options;
mod process;
pub mod signals;
mod spec;

pub use conversation::{BestMove, EngineClient, EngineSetup, QUIT_GRACE};
pub use events::{EngineEvent, Fault, FaultKind};
pub use exit::{Ended, ExitReport};
pub use limits::{Clock, DEFAULT_TIME_MARGIN_MS, DEFAULT_TIMEOUT_MS, SearchLimits, parse_clock};
pub use log::{EngineLog, LogError, SharedLog, TrafficLog, open_log};
pub use options::{Accepts, OptionError, check_options};
pub use process::{Launch, Received};
pub use spec::{
    ENGINE_KEYS, EngineSpec, Launcher, RANDOM_COMMAND, SpecError, SpecProblem, WordsOf,
    parse_engines,
};
