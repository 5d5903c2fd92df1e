//! The engine's protocol adapter: the session loop behind `slimetrail` without a
//! subcommand, between the wire format in [`crate::protocol`] and the [`crate::search`] core.
//!
//! Three kinds of thread cooperate (the Carp design):
//! - the reader thread reads the input as bytes, cuts it into lines, parses them and
//!   sends `Event`s over a channel;
//! - the main thread owns the session (position, options, the idle engine) and handles
//!   events one at a time;
//! - a job thread runs each search, solve or perft. The engine is handed to it and
//!   comes back in `Event::Done`. `stop` sets an atomic flag the job polls.
//!
//! Commands are carried out in the order they arrive. While a job runs (and while
//! `go infinite` keeps its result), a command that needs the engine idle waits in a
//! queue until the job has ended, as in Stockfish; `stop` (meant for the running job,
//! or for the waiting search that only it ends) and `quit` act at once, and so does `isready` when nothing
//! waits before it. The reader stays at most 1024 (`READ_AHEAD`) lines ahead.
//! `quit` stops the job, reports its result (so every `go` gets its `bestmove`) and
//! exits; the end of input lets the running job and the waiting commands finish
//! (a search only `stop` could end is stopped), then exits.

mod error;
mod jobs;
mod options;
mod reader;
mod session;
mod wire;

use std::io::{Read, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, mpsc};

pub use crate::protocol::MAX_LINE_BYTES;

use crate::protocol::Message;
use error::LineError;
use jobs::JobDone;
use session::{Flow, Session};

/// What the main thread reacts to.
enum Event {
    /// A parsed line from the GUI, or why it could not be parsed.
    Line(Result<Message, LineError>),
    /// The input ended (or could not be read any more).
    Eof,
    /// A job finished, giving the engine back.
    Done(JobDone),
}

/// The shared, line-atomic writer of replies.
#[derive(Clone)]
struct Output {
    writer: Arc<Mutex<Box<dyn Write + Send>>>,
    broken: Arc<AtomicBool>,
}

impl Output {
    fn new(writer: impl Write + Send + 'static) -> Output {
        Output {
            writer: Arc::new(Mutex::new(Box::new(writer))),
            broken: Arc::new(AtomicBool::new(false)),
        }
    }

    /// Writes one message as one line and flushes it.
    pub(super) fn send(&self, message: &Message) {
        log::debug!(">> {message}");
        let mut writer = self.writer.lock().unwrap_or_else(|e| e.into_inner());
        let written = writeln!(writer, "{message}").and_then(|()| writer.flush());
        if let Err(e) = written {
            if !self.broken.swap(true, Ordering::Relaxed) {
                log::warn!("writing a reply failed, stopping: {e}");
            }
        }
    }

    /// Writes `info string <text>`.
    pub(super) fn text(&self, text: impl Into<String>) {
        self.send(&Message::info_string(text));
    }

    /// Reports bad input: one `info string error ...` line (on stderr only at the
    /// `debug` log level, with every other line sent).
    pub(super) fn error(&self, text: &str) {
        self.text(format!("error {text}"));
    }

    /// Whether the GUI can no longer be written to.
    fn is_broken(&self) -> bool {
        self.broken.load(Ordering::Relaxed)
    }
}

/// Speaks the protocol: commands from `input`, replies to `output`, until `quit` or
/// the end of input. Returns once any running job has been stopped and reported.
pub fn serve(input: impl Read + Send + 'static, output: impl Write + Send + 'static) {
    let output = Output::new(output);
    let (events, inbox) = mpsc::channel();
    let reader_events = events.clone();
    let credit = reader::Credit::default();
    let reader_credit = credit.clone();
    let spawned = std::thread::Builder::new()
        .name("protocol-reader".into())
        .spawn(move || reader::read_lines_within(input, reader_events, &reader_credit));
    if let Err(e) = spawned {
        log::error!("cannot start the reader thread: {e}");
        return;
    }
    let mut session = Session::new(output.clone(), events, credit);
    while let Ok(event) = inbox.recv() {
        if session.handle(event) == Flow::Quit || output.is_broken() {
            break;
        }
    }
    session.finish(&inbox);
}
