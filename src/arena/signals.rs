//! No engine outlives the arena: a registry of live engine processes, killed on Ctrl-C
//! and SIGTERM; children also get `PR_SET_PDEATHSIG` (see [`super::process`]) so that
//! they die even when the arena is killed with SIGKILL.

use std::collections::HashSet;
use std::sync::{Mutex, MutexGuard};

/// Process ids (each also its own process group) of the engines alive right now.
static LIVE: Mutex<Option<HashSet<i32>>> = Mutex::new(None);

/// Exit status after Ctrl-C or SIGTERM (128 + SIGINT, as shells report it).
pub const INTERRUPTED_EXIT_CODE: i32 = 130;

fn live() -> MutexGuard<'static, Option<HashSet<i32>>> {
    LIVE.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Records a newly started engine process.
pub fn register(pid: i32) {
    live().get_or_insert_with(HashSet::new).insert(pid);
}

/// Forgets an engine process that has been waited for.
pub fn unregister(pid: i32) {
    if let Some(set) = live().as_mut() {
        set.remove(&pid);
    }
}

/// Kills an engine process and its process group with SIGKILL.
pub fn kill_group(pid: i32) {
    if pid > 0 {
        // SAFETY: plain system calls on a process id we started; errors (already gone) are harmless.
        unsafe {
            libc::kill(-pid, libc::SIGKILL);
            libc::kill(pid, libc::SIGKILL);
        }
    }
}

/// Kills every registered engine process.
pub fn kill_all() {
    let pids: Vec<i32> = live()
        .as_ref()
        .map(|s| s.iter().copied().collect())
        .unwrap_or_default();
    for pid in pids {
        kill_group(pid);
    }
}

/// Installs the Ctrl-C / SIGTERM handler: kill all engines and exit at once.
///
/// Results are saved after every game, so exiting loses only the games in flight.
pub fn install() {
    let result = ctrlc::set_handler(|| {
        kill_all();
        eprintln!(
            "\nslimetrail-arena: interrupted; engines stopped, finished games are saved (continue with --resume)"
        );
        std::process::exit(INTERRUPTED_EXIT_CODE);
    });
    if let Err(e) = result {
        log::warn!(
            "cannot install the Ctrl-C handler: {e}; engines may outlive an interrupted arena"
        );
    }
}
