//! A new run where an earlier one left its state file: a finished tournament (every
//! scheduled game played, or its SPRT decided and its pairs complete) is kept under a
//! new name with its records, so that a command line can be run again as it is; an
//! unfinished one stays where it is, for `--resume` (the state file refuses to be
//! overwritten without `--force`).

use std::collections::HashSet;
use std::fs::File;
use std::path::{Path, PathBuf};

use super::files::{FileAction, FileError, lock_exclusive};
use super::settings::Settings;
use super::state::read_state;
use super::summary::Standings;
use crate::record::GameReport;

/// A file of a finished tournament moved out of the way: from, to.
pub type Kept = (PathBuf, PathBuf);

/// If `state` holds a finished tournament, renames it, and those of `records` (the new
/// run's PGN and JSON paths) that exist, to the first free `NAME.finished-N.EXT`, and
/// returns what was moved; nothing when there is no state, an unfinished one, or one that
/// cannot be read (the state file's own checks then speak). A state in use by another
/// arena is an error.
pub fn keep_finished(state: &Path, records: &[&Path]) -> Result<Vec<Kept>, FileError> {
    let Ok(file) = File::open(state) else {
        return Ok(Vec::new());
    };
    lock_exclusive(&file, state)?;
    let Ok((settings, games, _)) = read_state(state) else {
        return Ok(Vec::new());
    };
    if games.is_empty() || !is_finished(&settings, &games) {
        return Ok(Vec::new());
    }
    let mut files = vec![state];
    files.extend(
        records
            .iter()
            .copied()
            .filter(|p| p.exists() && *p != state),
    );
    let n = (1..)
        .find(|&n| files.iter().all(|p| !kept_name(p, n).exists()))
        .unwrap_or(1);
    let mut kept = Vec::new();
    for path in files {
        let to = kept_name(path, n);
        std::fs::rename(path, &to).map_err(|e| FileError::io(path, FileAction::Rename, e))?;
        kept.push((path.to_path_buf(), to));
    }
    Ok(kept)
}

/// Whether `games` finish the tournament of `settings`: every scheduled game played, or
/// the SPRT decided and every pair begun complete.
pub fn is_finished(settings: &Settings, games: &[GameReport]) -> bool {
    let played: HashSet<usize> = games.iter().map(|g| g.number).collect();
    let schedule = settings.schedule();
    if schedule.iter().all(|g| played.contains(&g.number)) {
        return true;
    }
    let Ok(Some(sprt)) = settings.sprt() else {
        return false;
    };
    let names = settings.engines.iter().map(|e| e.name.clone()).collect();
    let mut standings = Standings::new(names).with_sprt(Some(sprt));
    for g in games {
        standings.add(g);
    }
    let begun: HashSet<usize> = games.iter().map(|g| g.pair).collect();
    standings.sprt_decided()
        && schedule
            .iter()
            .filter(|g| begun.contains(&g.pair))
            .all(|g| played.contains(&g.number))
}

/// `st.jsonl` → `st.finished-2.jsonl`, `games` → `games.finished-2`.
fn kept_name(path: &Path, n: usize) -> PathBuf {
    let stem = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let name = match path.extension() {
        Some(ext) => format!("{stem}.finished-{n}.{}", ext.to_string_lossy()),
        None => format!("{stem}.finished-{n}"),
    };
    path.with_file_name(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kept_names_number_before_the_extension() {
        assert_eq!(
            kept_name(Path::new("dir/st.jsonl"), 2),
            PathBuf::from("dir/st.finished-2.jsonl")
        );
        assert_eq!(
            kept_name(Path::new("games"), 1),
            PathBuf::from("games.finished-1")
        );
    }
}
