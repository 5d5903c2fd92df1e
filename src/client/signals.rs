//! No engine outlives the arena: a registry of live engine processes, killed on Ctrl-C
//! and SIGTERM; children also get `PR_SET_PDEATHSIG` (see [`super::EngineClient`]) so that
//! they die even when the arena is killed with SIGKILL. On Linux the arena is a child
//! subreaper, so that what an engine leaves behind when it exits comes back to the
//! arena, which kills and reaps it with the engine's process group.

use std::collections::HashSet;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// Set by the first Ctrl-C or SIGTERM: finish no more games, save and report.
static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// How long the arena may take to save its results after an interruption before it exits anyway.
const SAVE_GRACE: Duration = Duration::from_secs(10);

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

/// Kills and reaps the members of process group `pid` that are children of the arena:
/// grandchildren of an engine, handed to the arena (a subreaper) when the engine exited.
pub fn reap_group(pid: i32) {
    if pid <= 0 {
        return;
    }
    let deadline = Instant::now() + Duration::from_millis(500);
    loop {
        // SAFETY: plain system calls on a process group we started.
        let r = unsafe {
            libc::kill(-pid, libc::SIGKILL);
            libc::waitpid(-pid, std::ptr::null_mut(), libc::WNOHANG)
        };
        match r {
            // No more children in the group.
            r if r < 0 => return,
            // Children in the group that have not died yet.
            0 if Instant::now() < deadline => std::thread::sleep(Duration::from_millis(1)),
            0 => return,
            // One reaped; look for more.
            _ => {}
        }
    }
}

/// Makes the arena the reaper of orphans among its descendants (Linux only; elsewhere
/// grandchildren that escape their engine go to init).
pub fn become_subreaper() {
    #[cfg(target_os = "linux")]
    // SAFETY: a plain prctl on the calling process.
    unsafe {
        libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 1);
    }
}

/// Whether Ctrl-C or SIGTERM has been received.
pub fn interrupted() -> bool {
    INTERRUPTED.load(Ordering::SeqCst)
}

/// Installs the Ctrl-C / SIGTERM handler. The first signal kills all engines, so that
/// games in flight end at once (they are not recorded), and lets the tournament save
/// its results and print the standings; if that takes longer than a few seconds, or at
/// a second signal, the arena exits at once. Finished games are in the state file anyway.
pub fn install() {
    become_subreaper();
    let result = ctrlc::set_handler(|| {
        if INTERRUPTED.swap(true, Ordering::SeqCst) {
            kill_all();
            eprintln!(
                "\nslimetrail-arena: interrupted again; exiting now (continue with --resume)"
            );
            std::process::exit(INTERRUPTED_EXIT_CODE);
        }
        kill_all();
        let _ = std::thread::Builder::new()
            .name("arena-save-grace".to_string())
            .spawn(|| {
                std::thread::sleep(SAVE_GRACE);
                kill_all();
                eprintln!(
                    "\nslimetrail-arena: interrupted; saving took too long, exiting now (finished games are in the state file; continue with --resume)"
                );
                std::process::exit(INTERRUPTED_EXIT_CODE);
            });
    });
    if let Err(e) = result {
        log::warn!(
            "cannot install the Ctrl-C handler: {e}; engines may outlive an interrupted arena"
        );
    }
}
