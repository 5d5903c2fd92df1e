//! Output files the arena can trust: writability checked before the first game, files
//! rewritten whole through a temporary file and a rename (never half-written in place),
//! appends that are taken back when they fail half-way, and an exclusive lock on the
//! state file. (The engine logs are the client's: [`crate::client`].) Errors are
//! [`FileError`]s: the file and what went wrong with it.

use std::fmt;
use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::os::unix::io::AsRawFd;
use std::path::{Path, PathBuf};

/// A file the arena could not use: which, and what went wrong.
#[derive(Debug)]
pub struct FileError {
    /// The file.
    pub path: PathBuf,
    /// What went wrong.
    pub problem: FileProblem,
}

impl FileError {
    /// The error of `problem` with the file `path`.
    pub fn new(path: &Path, problem: FileProblem) -> FileError {
        FileError {
            path: path.to_path_buf(),
            problem,
        }
    }

    /// The error of a failed `action` on the file `path`.
    pub fn io(path: &Path, action: FileAction, error: io::Error) -> FileError {
        FileError::new(path, FileProblem::Io { action, error })
    }
}

/// What went wrong with a file.
#[derive(Debug)]
pub enum FileProblem {
    /// Found before the first game: it cannot be written.
    Unwritable(Unwritable),
    /// Reading, writing or another action on it failed.
    Io {
        /// What was done.
        action: FileAction,
        /// Why it failed.
        error: io::Error,
    },
    /// A game's record could not be appended (the game is saved in the state file).
    RecordNotWritten(io::Error),
    /// Another process holds its lock.
    Locked,
    /// It cannot be locked.
    CannotLock(io::Error),
}

/// Why a file cannot be written, found before the first game.
#[derive(Debug)]
pub enum Unwritable {
    /// The path is a directory.
    IsDirectory,
    /// The file cannot be opened for appending.
    File(io::Error),
    /// No file can be created beside it.
    Directory(io::Error),
}

impl fmt::Display for Unwritable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Unwritable::IsDirectory => f.write_str("it is a directory"),
            Unwritable::File(e) => write!(f, "{e}"),
            Unwritable::Directory(e) => write!(f, "its directory: {e}"),
        }
    }
}

/// What was done to a file when it failed.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum FileAction {
    /// Creating it.
    Create,
    /// Opening it.
    Open,
    /// Reading it.
    Read,
    /// Writing it.
    Write,
    /// Cutting it to a length.
    Truncate,
    /// Writing it anew from the state file.
    Rebuild,
    /// Renaming it.
    Rename,
}

impl fmt::Display for FileAction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            FileAction::Create => "create",
            FileAction::Open => "open",
            FileAction::Read => "read",
            FileAction::Write => "write",
            FileAction::Truncate => "truncate",
            FileAction::Rename => "rename",
            FileAction::Rebuild => "rebuild",
        })
    }
}

impl fmt::Display for FileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let path = self.path.display();
        match &self.problem {
            FileProblem::Unwritable(why) => write!(
                f,
                "{path}: cannot write it ({why}); expected a writable file path, checked before the first game"
            ),
            FileProblem::Io { action, error } => write!(
                f,
                "{path}: cannot {action} it ({error}); expected a writable file path"
            ),
            FileProblem::RecordNotWritten(error) => write!(
                f,
                "{path}: cannot write it ({error}); expected a writable file (the game is saved in the state file, and resuming writes it)"
            ),
            FileProblem::Locked => write!(
                f,
                "{path}: in use by another arena (the file is locked); expected one arena per state file: wait for the other run to end, or give this one another file"
            ),
            FileProblem::CannotLock(error) => write!(
                f,
                "{path}: cannot lock it ({error}); expected a file on a file system with locks"
            ),
        }
    }
}

impl std::error::Error for FileError {}

/// Checks that `path` can be written and replaced through a temporary file beside it,
/// without changing it.
pub fn check_writable(path: &Path) -> Result<(), FileError> {
    let unwritable = |why| FileError::new(path, FileProblem::Unwritable(why));
    if path.is_dir() {
        return Err(unwritable(Unwritable::IsDirectory));
    }
    if path.exists() {
        OpenOptions::new()
            .append(true)
            .open(path)
            .map_err(|e| unwritable(Unwritable::File(e)))?;
    }
    let probe = temporary_beside(path, "check");
    File::create(&probe).map_err(|e| unwritable(Unwritable::Directory(e)))?;
    let _ = std::fs::remove_file(&probe);
    Ok(())
}

/// A temporary file name next to `path`, unique to this process.
fn temporary_beside(path: &Path, purpose: &str) -> PathBuf {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "output".to_string());
    path.with_file_name(format!(".{name}.{purpose}-{}", std::process::id()))
}

/// Replaces `path` with `contents` atomically: written to a temporary file beside it,
/// synced, then renamed over it, so that a kill leaves the old file or the new one.
pub fn write_atomically(path: &Path, contents: &[u8]) -> Result<(), FileError> {
    let temporary = temporary_beside(path, "tmp");
    let written = File::create(&temporary)
        .and_then(|mut f| f.write_all(contents).and_then(|()| f.sync_all()))
        .and_then(|()| std::fs::rename(&temporary, path));
    written.map_err(|e| {
        let _ = std::fs::remove_file(&temporary);
        FileError::io(path, FileAction::Write, e)
    })
}

/// Appends `bytes` to `file` (opened for appending) in one write; when the write fails
/// half-way (a full disk), the file is cut back to its length before, so that it only
/// ever holds whole records.
pub fn append_whole(file: &mut File, bytes: &[u8]) -> io::Result<()> {
    let before = file.metadata()?.len();
    let written = file.write_all(bytes);
    if written.is_err() {
        let _ = file.set_len(before);
    }
    written
}

/// Takes an exclusive lock on the open file `path`, held until it is closed; fails at
/// once if another process holds it.
pub fn lock_exclusive(file: &File, path: &Path) -> Result<(), FileError> {
    // SAFETY: flock on a file descriptor we own, valid for the duration of the call.
    let locked = unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) } == 0;
    if locked {
        return Ok(());
    }
    let error = io::Error::last_os_error();
    let problem = if error.raw_os_error() == Some(libc::EWOULDBLOCK) {
        FileProblem::Locked
    } else {
        FileProblem::CannotLock(error)
    };
    Err(FileError::new(path, problem))
}
