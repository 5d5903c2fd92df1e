//! Output files the arena can trust: writability checked before the first game, files
//! rewritten whole through a temporary file and a rename (never half-written in place),
//! appends that are taken back when they fail half-way, and an exclusive lock on the
//! state file. (The engine logs are the client's: [`crate::client`].)

use std::fs::{File, OpenOptions};
use std::io::Write;
use std::os::unix::io::AsRawFd;
use std::path::{Path, PathBuf};

/// Checks that `path` (given as `flag`) can be written and replaced through a temporary
/// file beside it, without changing it. The error names the flag, the path and the cause.
pub fn check_writable(flag: &str, path: &Path) -> Result<(), String> {
    let unwritable = |why: String| {
        format!(
            "{flag} {}: cannot write it ({why}); expected a writable file path, checked before the first game",
            path.display()
        )
    };
    if path.is_dir() {
        return Err(unwritable("it is a directory".to_string()));
    }
    if path.exists() {
        OpenOptions::new()
            .append(true)
            .open(path)
            .map_err(|e| unwritable(e.to_string()))?;
    }
    let probe = temporary_beside(path, "check");
    File::create(&probe).map_err(|e| unwritable(format!("its directory: {e}")))?;
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
pub fn write_atomically(flag: &str, path: &Path, contents: &[u8]) -> Result<(), String> {
    let temporary = temporary_beside(path, "tmp");
    let written = File::create(&temporary)
        .and_then(|mut f| f.write_all(contents).and_then(|()| f.sync_all()))
        .and_then(|()| std::fs::rename(&temporary, path));
    written.map_err(|e| {
        let _ = std::fs::remove_file(&temporary);
        format!(
            "{flag} {}: cannot write it ({e}); expected a writable file path",
            path.display()
        )
    })
}

/// Appends `bytes` to `file` (opened for appending) in one write; when the write fails
/// half-way (a full disk), the file is cut back to its length before, so that it only
/// ever holds whole records.
pub fn append_whole(file: &mut File, bytes: &[u8]) -> std::io::Result<()> {
    let before = file.metadata()?.len();
    let written = file.write_all(bytes);
    if written.is_err() {
        let _ = file.set_len(before);
    }
    written
}

/// Takes an exclusive lock on an open file, held until it is closed; fails at once if
/// another process holds it.
pub fn lock_exclusive(file: &File, flag: &str, path: &Path) -> Result<(), String> {
    // SAFETY: flock on a file descriptor we own, valid for the duration of the call.
    let locked = unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) } == 0;
    if locked {
        return Ok(());
    }
    let error = std::io::Error::last_os_error();
    if error.raw_os_error() == Some(libc::EWOULDBLOCK) {
        Err(format!(
            "{flag} {}: in use by another arena (the file is locked); expected one arena per state file: wait for the other run to end, or give this one another {flag}",
            path.display()
        ))
    } else {
        Err(format!(
            "{flag} {}: cannot lock it ({error}); expected a file on a file system with locks",
            path.display()
        ))
    }
}
