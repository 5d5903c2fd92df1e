//! The state file that makes `--resume` possible: a header line with the settings, then
//! one JSON line per finished game, flushed as each game ends. An interrupted write
//! leaves at most a partial last line, which is dropped on resume.

use std::collections::HashSet;
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::game::GameReport;
use super::settings::Settings;

/// Version of the state format.
const STATE_VERSION: u32 = 2;

/// The first line of a state file.
#[derive(Serialize, Deserialize)]
struct Header {
    /// Format version; marks the file as an arena state.
    slimetrail_arena_state: u32,
    /// The tournament's settings.
    settings: Settings,
}

/// An open state file, appended to as games finish.
pub struct StateFile {
    file: File,
    path: PathBuf,
}

impl StateFile {
    /// Starts a new state file, replacing any old one.
    pub fn create(path: &Path, settings: &Settings) -> Result<StateFile, String> {
        let mut file = File::create(path).map_err(|e| cannot(path, "create", &e))?;
        let header = Header {
            slimetrail_arena_state: STATE_VERSION,
            settings: settings.clone(),
        };
        let line = serde_json::to_string(&header)
            .map_err(|e| format!("cannot encode the state header: {e}"))?;
        writeln!(file, "{line}").map_err(|e| cannot(path, "write", &e))?;
        Ok(StateFile {
            file,
            path: path.to_path_buf(),
        })
    }

    /// Opens a saved state for `settings` and returns the games it holds; starts a new one
    /// when there is no file yet.
    pub fn resume(
        path: &Path,
        settings: &Settings,
    ) -> Result<(StateFile, Vec<GameReport>), String> {
        if !path.exists() {
            log::info!(
                "--resume: no state file {} yet; starting from the first game",
                path.display()
            );
            return Ok((StateFile::create(path, settings)?, Vec::new()));
        }
        let (saved, games, complete_len) = read_state(path)?;
        if let Some(why) = settings.resume_mismatch(&saved) {
            return Err(format!(
                "--resume: the state file {} belongs to another tournament ({why}); expected the same arguments as the interrupted run, or another --state file",
                path.display()
            ));
        }
        let file = OpenOptions::new()
            .append(true)
            .open(path)
            .map_err(|e| cannot(path, "open", &e))?;
        // Drop a partial last line left by an interruption.
        file.set_len(complete_len)
            .map_err(|e| cannot(path, "truncate", &e))?;
        Ok((
            StateFile {
                file,
                path: path.to_path_buf(),
            },
            games,
        ))
    }

    /// Saves one finished game.
    pub fn append(&mut self, report: &GameReport) -> Result<(), String> {
        let mut line =
            serde_json::to_string(report).map_err(|e| format!("cannot encode a game: {e}"))?;
        line.push('\n');
        // One write per line, so an interruption can only cut the last line.
        self.file
            .write_all(line.as_bytes())
            .map_err(|e| cannot(&self.path, "write", &e))
    }
}

/// The settings, the games (first of each number) and the length of the complete lines of a state file.
pub fn read_state(path: &Path) -> Result<(Settings, Vec<GameReport>, u64), String> {
    let text = std::fs::read_to_string(path).map_err(|e| cannot(path, "read", &e))?;
    let complete = text.rfind('\n').map_or(0, |i| i + 1);
    let mut lines = text[..complete].lines();
    let header: Header = lines
        .next()
        .and_then(|l| serde_json::from_str(l).ok())
        .ok_or_else(|| {
            format!(
                "{}: not an arena state file; expected a first line with the saved settings",
                path.display()
            )
        })?;
    let mut seen = HashSet::new();
    let mut games = Vec::new();
    for (i, line) in lines.enumerate() {
        let report: GameReport = serde_json::from_str(line).map_err(|e| {
            format!(
                "{} line {}: {e}; expected one saved game per line",
                path.display(),
                i + 2
            )
        })?;
        if seen.insert(report.number) {
            games.push(report);
        }
    }
    Ok((header.settings, games, complete as u64))
}

/// An I/O error message naming the file.
fn cannot(path: &Path, what: &str, error: &std::io::Error) -> String {
    format!(
        "--state {}: cannot {what} it ({error}); expected a writable file path",
        path.display()
    )
}
