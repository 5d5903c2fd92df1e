//! The log files of engine processes: a file shared between threads, flushed at every
//! line, for the engines' stderr and process events ([`EngineLog`]) and for the protocol
//! traffic ([`super::TrafficLog`]).

use std::fmt;
use std::fs::{File, OpenOptions};
use std::io::{self, LineWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use super::traffic::TrafficLog;

/// A log file shared between threads, flushed at every line.
pub type SharedLog = Arc<Mutex<LineWriter<File>>>;

/// A log file that cannot be opened for writing.
#[derive(Debug)]
pub struct LogError {
    /// The file.
    pub path: PathBuf,
    /// Why it cannot be opened.
    pub error: io::Error,
}

impl fmt::Display for LogError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}: cannot open it for writing ({}); expected a writable file path",
            self.path.display(),
            self.error
        )
    }
}

impl std::error::Error for LogError {}

/// Opens the log file `path`, appended to when `append` and truncated otherwise, or
/// nothing without a path.
pub fn open_log(path: Option<&Path>, append: bool) -> Result<Option<SharedLog>, LogError> {
    let Some(path) = path else {
        return Ok(None);
    };
    let file = OpenOptions::new()
        .create(true)
        .append(append)
        .write(true)
        .truncate(!append)
        .open(path)
        .map_err(|error| LogError {
            path: path.to_path_buf(),
            error,
        })?;
    Ok(Some(Arc::new(Mutex::new(LineWriter::new(file)))))
}

/// The logs of engine processes: their stderr and process events, and the protocol
/// traffic; cheap to clone, and each a no-op when not asked for.
#[derive(Clone, Default)]
pub struct EngineLog {
    /// Engine stderr lines and process starts and stops.
    pub events: Option<SharedLog>,
    /// Every protocol line to and from every engine.
    pub traffic: TrafficLog,
}

impl EngineLog {
    /// A log writing events to `path` (appending when `append`), or a log that discards them.
    pub fn open(path: Option<&Path>, append: bool) -> Result<EngineLog, LogError> {
        Ok(EngineLog {
            events: open_log(path, append)?,
            traffic: TrafficLog::default(),
        })
    }

    /// The same log, with the protocol traffic going to `traffic`.
    pub fn with_traffic(self, traffic: TrafficLog) -> EngineLog {
        EngineLog { traffic, ..self }
    }

    /// Appends one line to the event log.
    pub fn line(&self, text: &str) {
        if let Some(file) = &self.events {
            let mut file = file.lock().unwrap_or_else(|p| p.into_inner());
            // A failing log must not stop the tournament.
            let _ = writeln!(file, "{text}");
        }
    }
}
