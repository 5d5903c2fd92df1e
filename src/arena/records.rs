//! The files of a run's records brought into agreement with the state file: a new run
//! starts them empty; `--resume` rebuilds the PGN file from the records saved in the
//! state (cutting a torn record, adding missing ones, never doubling one) before the
//! games continue. Each game is then saved to the state first and appended to the PGN.

use std::collections::HashMap;
use std::fs::{File, OpenOptions};
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use super::error::{ArenaError, OutputFile};
use super::files::{FileAction, FileError, FileProblem, append_whole};
use super::settings::Settings;
use super::state::StateFile;
use crate::record::GameReport;

/// The PGN file, appended to as games finish.
pub struct PgnFile {
    file: File,
    path: PathBuf,
}

impl PgnFile {
    /// Appends one record, whole or not at all.
    pub fn append(&mut self, record: &str) -> Result<(), ArenaError> {
        append_whole(&mut self.file, record.as_bytes())
            .map_err(|e| pgn_error(FileError::new(&self.path, FileProblem::RecordNotWritten(e))))
    }
}

/// The state file, the games it holds, and the PGN file, all in agreement.
pub fn open_records(
    settings: &Settings,
    state_path: &Path,
    pgn_path: Option<&Path>,
    resume: bool,
    force: bool,
) -> Result<(StateFile, Vec<GameReport>, Option<PgnFile>), ArenaError> {
    if !resume {
        let state = StateFile::create(state_path, settings, force)?;
        let pgn = pgn_path.map(|p| open_pgn(p, true)).transpose()?;
        return Ok((state, Vec::new(), pgn));
    }
    let Some(pgn_path) = pgn_path else {
        let (state, games) = StateFile::resume(state_path, settings, &mut |_, _| Ok(()))?;
        return Ok((state, games, None));
    };
    // The new PGN is written beside the old one and renamed over it when complete.
    let temporary = pgn_path.with_file_name(format!(
        ".{}.rebuild-{}",
        pgn_path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default(),
        std::process::id()
    ));
    let cannot = |e: std::io::Error| FileError::io(pgn_path, FileAction::Rebuild, e);
    let mut out = BufWriter::new(
        File::create(&temporary)
            .map_err(cannot)
            .map_err(pgn_error)?,
    );
    let mut without_record = Vec::new();
    let resumed = StateFile::resume(state_path, settings, &mut |report, record| match record {
        Some(text) => out.write_all(text.as_bytes()).map_err(cannot),
        None => {
            without_record.push(report.number);
            Ok(())
        }
    });
    let (state, games) = match resumed {
        Ok(resumed) => resumed,
        Err(e) => {
            drop(out);
            let _ = std::fs::remove_file(&temporary);
            return Err(e.into());
        }
    };
    // A state written by an earlier version holds no records: those are kept from the old PGN.
    if !without_record.is_empty() {
        let old = std::fs::read_to_string(pgn_path).unwrap_or_default();
        let whole = whole_records(&old);
        for number in without_record {
            match whole.get(&number) {
                Some(text) => out
                    .write_all(text.as_bytes())
                    .map_err(|e| pgn_error(cannot(e)))?,
                None => log::warn!(
                    "game {} has no PGN record in the state file or in {}; it is left out",
                    number + 1,
                    pgn_path.display()
                ),
            }
        }
    }
    out.into_inner()
        .map_err(|e| cannot(e.into_error()))
        .and_then(|file| file.sync_all().map_err(cannot))
        .and_then(|()| std::fs::rename(&temporary, pgn_path).map_err(cannot))
        .map_err(pgn_error)?;
    let pgn = open_pgn(pgn_path, false)?;
    Ok((state, games, Some(pgn)))
}

/// The PGN file, emptied for a new run or opened to append.
fn open_pgn(path: &Path, new: bool) -> Result<PgnFile, ArenaError> {
    let file = OpenOptions::new()
        .create(true)
        .write(true)
        .append(!new)
        .truncate(new)
        .open(path)
        .map_err(|e| pgn_error(FileError::io(path, FileAction::Open, e)))?;
    Ok(PgnFile {
        file,
        path: path.to_path_buf(),
    })
}

/// An error of the PGN file.
fn pgn_error(error: FileError) -> ArenaError {
    ArenaError::File {
        file: OutputFile::Pgn,
        error,
    }
}

/// The whole records of a PGN text by game number (first of each), read from their
/// `Round` tag `r.n` (n from 1); a torn record is left out.
fn whole_records(text: &str) -> HashMap<usize, &str> {
    let mut records = HashMap::new();
    let starts: Vec<usize> = text
        .match_indices("[Event ")
        .map(|(i, _)| i)
        .filter(|&i| i == 0 || text[..i].ends_with('\n'))
        .collect();
    for (k, &start) in starts.iter().enumerate() {
        let end = starts.get(k + 1).copied().unwrap_or(text.len());
        let record = &text[start..end];
        let whole = record.ends_with("1-0\n\n") || record.ends_with("0-1\n\n");
        let number = record
            .split("[Round \"")
            .nth(1)
            .and_then(|r| r.split('"').next())
            .and_then(|r| r.split('.').nth(1))
            .and_then(|n| n.parse::<usize>().ok())
            .and_then(|n| n.checked_sub(1));
        if let (true, Some(number)) = (whole, number) {
            records.entry(number).or_insert(record);
        }
    }
    records
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_whole_records_are_kept_from_an_old_pgn() {
        let text = "[Event \"x\"]\n[Round \"1.1\"]\n\n1. c3 1-0\n\n[Event \"x\"]\n[Round \"1.2\"]\n\n1. c3 0-1\n\n[Event \"x\"]\n[Round \"2.3\"]\n\n1. c";
        let records = whole_records(text);
        assert_eq!(records.len(), 2);
        assert!(records[&1].contains("0-1"));
        assert!(!records.contains_key(&2));
    }
}
