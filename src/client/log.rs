//! The log files of engine processes: a file shared between threads, flushed at every
//! line, for the engines' stderr and process events ([`EngineLog`]) and for the protocol
//! traffic ([`TrafficLog`]): every line sent to and read from every engine, with a UTC
//! timestamp and the engine's name, like cutechess-cli's `-debug`:
//! `2026-03-01T12:00:00.125Z >alpha go p1time 1000 …` for a line sent to `alpha`,
//! `2026-03-01T12:00:00.141Z <alpha bestmove c3` for a line it wrote.

use std::fmt;
use std::fs::{File, OpenOptions};
use std::io::{self, LineWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{SystemTime, UNIX_EPOCH};

use crate::calendar::civil_from_days;
use crate::protocol::Direction;

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

/// The shared traffic log; cheap to clone, and a no-op when not asked for.
#[derive(Clone, Default)]
pub struct TrafficLog(Option<SharedLog>);

impl TrafficLog {
    /// A log writing to `path` (appending when `append`), or one that discards everything.
    pub fn open(path: Option<&Path>, append: bool) -> Result<TrafficLog, LogError> {
        Ok(TrafficLog(open_log(path, append)?))
    }

    /// Records one protocol line of engine `name`: `>` for a line sent to it, `<` for
    /// one it wrote.
    pub fn line(&self, name: &str, direction: Direction, text: &str) {
        if let Some(file) = &self.0 {
            let arrow = match direction {
                Direction::ToEngine => '>',
                Direction::FromEngine => '<',
            };
            let stamp = timestamp(SystemTime::now());
            let mut file = file.lock().unwrap_or_else(|p| p.into_inner());
            // A failing log must not stop the tournament.
            let _ = writeln!(file, "{stamp} {arrow}{name} {text}");
        }
    }
}

/// `2026-03-01T12:00:00.125Z`.
fn timestamp(at: SystemTime) -> String {
    let since = at.duration_since(UNIX_EPOCH).unwrap_or_default();
    let secs = since.as_secs();
    let (y, m, d) = civil_from_days((secs / 86_400) as i64);
    let day = secs % 86_400;
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}.{:03}Z",
        day / 3600,
        day % 3600 / 60,
        day % 60,
        since.subsec_millis()
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn timestamps_are_utc_with_milliseconds() {
        let at = UNIX_EPOCH + Duration::from_millis(1_772_366_400_125);
        assert_eq!(timestamp(at), "2026-03-01T12:00:00.125Z");
    }
}
