//! What a session is told, and how it is set up: the inputs of its thread, from the
//! HTTP handlers, its event streams and its engine.

use std::time::Duration;

use tokio::sync::{mpsc, oneshot};

use super::commands::Command;
use super::error::SessionError;
use super::game::Game;
use crate::client::{EngineClient, EngineEvent, EngineSetup, Fault};

/// Session-wide limits and defaults.
#[derive(Clone, Debug)]
pub struct SessionConfig {
    /// How to start the engine.
    pub engine: EngineSetup,
    /// How long a session lives without an event stream.
    pub grace: Duration,
    /// The least time from one move to an engine's move shown after it; zero for none.
    pub pace: Duration,
    /// How the command line names the cap on sessions, for the message when it is reached.
    pub cap_named: &'static str,
}

/// What a session thread is told.
pub enum Input {
    /// Commands of the page, answered with the first error or success.
    Commands(Vec<Command>, Reply),
    /// A game read from a PGN record, to replace the current one.
    Import(Game, Reply),
    /// An event stream: the whole state now and after every change.
    Subscribe {
        /// The stream's number.
        id: u64,
        /// Where its states go.
        events: mpsc::Sender<String>,
        /// Whether it was taken.
        reply: Reply,
    },
    /// Event stream `id` ended.
    Unsubscribe(u64),
    /// The engine of start number `serial` started, or why it could not.
    Started(u64, Result<EngineClient, Fault>),
    /// Output of the engine of start number `serial`.
    Engine(u64, EngineEvent),
    /// The page is gone.
    Close,
}

/// Where a session answers a request: success, or why it refused.
pub type Reply = oneshot::Sender<Result<(), SessionError>>;
