//! How an engine process ended, for crash reports: its exit code or signal, read
//! without reaping it, and its last line on stderr.

use std::fmt;

/// Why an engine process went away, for a crash report: how it ended, and its last
/// line on stderr.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct ExitReport {
    /// Its exit code or signal; `None` when it closed its output and has not exited yet.
    pub ended: Option<Ended>,
    /// Its last line on stderr, if it wrote one.
    pub last_stderr: Option<String>,
}

impl fmt::Display for ExitReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.ended {
            Some(Ended::Code(code)) => write!(f, "exited with code {code}")?,
            Some(Ended::Signal(signal)) => write!(f, "killed by signal {signal}")?,
            None => f.write_str("closed its output")?,
        }
        if let Some(last) = &self.last_stderr {
            write!(f, "; last stderr line: {last}")?;
        }
        Ok(())
    }
}

/// How an exited process ended.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Ended {
    /// It exited with this code.
    Code(i32),
    /// It was killed by this signal.
    Signal(i32),
}

/// The exit of process `pid` if it has exited, leaving it to be reaped later.
#[cfg(target_os = "linux")]
pub(super) fn exit_status_without_reaping(pid: i32) -> Option<Ended> {
    // SAFETY: a zeroed siginfo_t is a valid out-parameter for waitid.
    let mut info: libc::siginfo_t = unsafe { std::mem::zeroed() };
    // SAFETY: waitid on our own child with WNOWAIT only reads its state; `info` is valid.
    let r = unsafe {
        libc::waitid(
            libc::P_PID,
            pid as libc::id_t,
            &mut info,
            libc::WEXITED | libc::WNOHANG | libc::WNOWAIT,
        )
    };
    // SAFETY: si_pid and si_status are filled in by a successful waitid.
    let (who, status) = unsafe { (info.si_pid(), info.si_status()) };
    if r != 0 || who == 0 {
        return None;
    }
    Some(if info.si_code == libc::CLD_EXITED {
        Ended::Code(status)
    } else {
        Ended::Signal(status)
    })
}

/// The exit of process `pid` if it has exited (other systems: a non-reaping check is not
/// portable, so this only tells that it is gone).
#[cfg(not(target_os = "linux"))]
pub(super) fn exit_status_without_reaping(pid: i32) -> Option<Ended> {
    // SAFETY: signal 0 only checks that the process exists.
    let gone = unsafe { libc::kill(pid, 0) } != 0;
    gone.then_some(Ended::Code(-1))
}
