//! The log files of engine processes: a file shared between threads, flushed at every
//! line, for the engines' stderr and process events and for the protocol traffic.

use std::fs::{File, OpenOptions};
use std::io::LineWriter;
use std::path::Path;

/// A log file shared between threads, flushed at every line.
pub type SharedLog = std::sync::Arc<std::sync::Mutex<LineWriter<File>>>;

/// Opens the log file `path` (given as `flag`), appended to when `append` and truncated
/// otherwise, or nothing without a path. The error names the flag, the path and the cause.
pub fn open_log(
    flag: &str,
    path: Option<&Path>,
    append: bool,
) -> Result<Option<SharedLog>, String> {
    let Some(path) = path else {
        return Ok(None);
    };
    let file = OpenOptions::new()
        .create(true)
        .append(append)
        .write(true)
        .truncate(!append)
        .open(path)
        .map_err(|e| {
            format!(
                "{flag} {}: cannot open it for writing ({e}); expected a writable file path",
                path.display()
            )
        })?;
    Ok(Some(std::sync::Arc::new(std::sync::Mutex::new(
        LineWriter::new(file),
    ))))
}
