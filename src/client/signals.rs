//! No engine outlives the program that drives it (the arena or the GUI): a registry of
//! live engine processes, killed on Ctrl-C and SIGTERM; children also get
//! `PR_SET_PDEATHSIG` (see [`super::EngineClient`]) so that they die even when the
//! program is killed with SIGKILL. On Linux the arena is a child subreaper, so that what
//! an engine leaves behind when it exits comes back to it, and it kills and reaps that
//! with the engine's process group.

use std::collections::HashSet;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// Set by the first Ctrl-C or SIGTERM: finish no more games, save and report.
static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// How long a run may take to save its results after an interruption before it exits anyway.
const SAVE_GRACE: Duration = Duration::from_secs(10);

/// Process ids (each also its own process group) of the engines alive right now.
static LIVE: Mutex<Option<HashSet<i32>>> = Mutex::new(None);

/// Exit status after Ctrl-C or SIGTERM (128 + SIGINT, as shells report it).
pub const INTERRUPTED_EXIT_CODE: u8 = 130;

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

/// What the Ctrl-C / SIGTERM handler of a run that saves its results says on stderr
/// when it exits without saving them: the words of the program that installed it.
#[derive(Clone, Debug)]
pub struct InterruptNotices {
    /// At a second signal.
    pub again: String,
    /// When saving takes longer than the grace.
    pub too_slow: String,
}

/// Installs the Ctrl-C / SIGTERM handler of a run that saves its results. The first
/// signal kills all engines, so that games in flight end at once (they are not
/// recorded), and sets [`interrupted`], so that the run saves what it has and reports;
/// if that takes longer than a few seconds, or at a second signal, the process prints
/// the notice and exits at once.
pub fn install(notices: InterruptNotices) {
    become_subreaper();
    let result = ctrlc::set_handler(move || {
        if INTERRUPTED.swap(true, Ordering::SeqCst) {
            kill_all();
            eprintln!("\n{}", notices.again);
            std::process::exit(i32::from(INTERRUPTED_EXIT_CODE));
        }
        kill_all();
        let too_slow = notices.too_slow.clone();
        let _ = std::thread::Builder::new()
            .name("save-grace".to_string())
            .spawn(move || {
                std::thread::sleep(SAVE_GRACE);
                kill_all();
                eprintln!("\n{too_slow}");
                std::process::exit(i32::from(INTERRUPTED_EXIT_CODE));
            });
    });
    if let Err(e) = result {
        log::warn!(
            "cannot install the Ctrl-C handler: {e}; engines may outlive an interrupted run"
        );
    }
}

/// Installs a Ctrl-C / SIGTERM handler that kills every engine, prints `notice` on
/// stderr and exits at once: for a server, which has nothing to save.
pub fn install_exit(notice: String) {
    let result = ctrlc::set_handler(move || {
        kill_all();
        eprintln!("\n{notice}");
        std::process::exit(i32::from(INTERRUPTED_EXIT_CODE));
    });
    if let Err(e) = result {
        log::warn!("cannot install the Ctrl-C handler: {e}; engines may outlive this process");
    }
}
