//! Ctrl-C for `solve` and its shards: the first one stops the proof and lets the
//! report of what is known be printed; a second one exits at once.

use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};

pub use crate::client::signals::INTERRUPTED_EXIT_CODE;

/// Set by the Ctrl-C handler; the proof polls it like any stop request.
pub static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// Ctrl-C (and SIGTERM) stop the proof through [`INTERRUPTED`], so that the report
/// of what is known is still printed; a second one exits at once. The handler runs
/// on its own thread (the `ctrlc` crate), so it may do more than a signal handler.
pub fn install() {
    let result = ctrlc::set_handler(|| {
        if INTERRUPTED.swap(true, Ordering::SeqCst) {
            std::process::exit(i32::from(INTERRUPTED_EXIT_CODE));
        }
        eprintln!(
            "slimetrail: interrupted; reporting what is known (Ctrl-C again to quit at once)"
        );
    });
    if let Err(e) = result {
        log::warn!(
            "cannot install the Ctrl-C handler: {e}; Ctrl-C will end solve without a report"
        );
    }
}

/// Success, or after Ctrl-C the interrupted status.
pub fn exit_code() -> ExitCode {
    if INTERRUPTED.load(Ordering::SeqCst) {
        ExitCode::from(INTERRUPTED_EXIT_CODE)
    } else {
        ExitCode::SUCCESS
    }
}
