//! An engine process: lines in on stdin, lines out on stdout through a reader thread,
//! stderr into the log file. Every read has an explicit result: a line, a line too long,
//! a timeout, or the end of the output. Reads block on a channel with a deadline; nothing
//! polls. The channel is bounded: an engine that writes faster than the arena reads
//! blocks on its full pipe, and every deadline holds however fast it writes.

use std::collections::VecDeque;
use std::io::{self, BufRead, BufReader, BufWriter, Read as _, Write};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, SyncSender, TryRecvError};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use super::log::{SharedLog, open_log};
use super::signals;
use super::traffic::{Direction, TrafficLog};
use crate::protocol::MAX_LINE_BYTES;

/// Makes the child the leader of its own process group, so that killing the group kills
/// what the engine started too. On Linux the child also gets `PR_SET_PDEATHSIG`, so that
/// it dies with the arena even when the arena is killed with SIGKILL; other Unix systems
/// have no such signal, and there an engine outlives a SIGKILLed arena until it reads
/// the end of its input.
fn own_process_group_dying_with_the_arena(command: &mut Command) {
    #[cfg(target_os = "linux")]
    {
        // SAFETY: getpid is async-signal-safe and called before the fork.
        let parent = unsafe { libc::getpid() };
        // SAFETY: only async-signal-safe system calls run between fork and exec.
        unsafe {
            command.pre_exec(move || {
                libc::setpgid(0, 0);
                libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL);
                if libc::getppid() != parent {
                    // The arena died before the death signal was armed.
                    libc::_exit(1);
                }
                Ok(())
            });
        }
    }
    #[cfg(not(target_os = "linux"))]
    command.process_group(0);
}

/// Output lines queued between the reader thread and the arena; when the queue is full
/// the reader stops reading and the engine blocks on its pipe.
const LINE_QUEUE: usize = 256;

/// Characters of a too-long line kept to show in the report.
const TOO_LONG_SHOWN: usize = 80;

/// Lines of stderr kept to explain a crash.
const STDERR_TAIL: usize = 4;

/// The result of waiting for a line from an engine. Lines longer than the protocol's
/// [`MAX_LINE_BYTES`] are reported as [`Read::TooLong`] and skipped to their end.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Read {
    /// A line, without its line ending, and when the reader thread received it.
    Line(String, Instant),
    /// A line longer than [`MAX_LINE_BYTES`] bytes: its first characters, and when it began.
    TooLong(String, Instant),
    /// The deadline passed without a line.
    Timeout,
    /// The engine closed its output: it exited or crashed.
    Closed,
}

/// The shared log file for engine stderr and process events; cheap to clone.
#[derive(Clone, Default)]
pub struct EngineLog(Option<SharedLog>, TrafficLog);

impl EngineLog {
    /// A log writing to `path` (appending when `append`), or a log that discards everything.
    pub fn open(path: Option<&Path>, append: bool) -> Result<EngineLog, String> {
        Ok(EngineLog(
            open_log("--log", path, append)?,
            TrafficLog::default(),
        ))
    }

    /// The same log, with the protocol traffic going to `traffic`.
    pub fn with_traffic(self, traffic: TrafficLog) -> EngineLog {
        EngineLog(self.0, traffic)
    }

    /// Appends one line.
    pub fn line(&self, text: &str) {
        if let Some(file) = &self.0 {
            let mut file = file.lock().unwrap_or_else(|p| p.into_inner());
            // A failing log must not stop the tournament.
            let _ = writeln!(file, "{text}");
        }
    }
}

/// How to start an engine program.
#[derive(Clone, Debug)]
pub struct Launch {
    /// The engine's name, for the log.
    pub name: String,
    /// The program.
    pub cmd: PathBuf,
    /// Its arguments.
    pub args: Vec<String>,
    /// Its working directory.
    pub dir: Option<PathBuf>,
}

/// A running engine program.
pub struct EngineProcess {
    name: String,
    child: Child,
    pid: i32,
    stdin: Option<BufWriter<ChildStdin>>,
    lines: Receiver<Read>,
    stderr_tail: Arc<Mutex<VecDeque<String>>>,
    /// Disconnects when the stderr thread has read everything.
    stderr_done: Receiver<()>,
    log: EngineLog,
}

impl EngineProcess {
    /// Starts the program with piped stdin/stdout, stderr to the log, in its own process
    /// group, and set to die with the arena.
    pub fn spawn(launch: &Launch, log: &EngineLog) -> io::Result<EngineProcess> {
        let mut command = Command::new(&launch.cmd);
        command
            .args(&launch.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        if let Some(dir) = &launch.dir {
            command.current_dir(dir);
        }
        own_process_group_dying_with_the_arena(&mut command);
        let mut child = command.spawn()?;
        let pid = child.id() as i32;
        signals::register(pid);
        let (Some(stdin), Some(stdout), Some(stderr)) =
            (child.stdin.take(), child.stdout.take(), child.stderr.take())
        else {
            signals::kill_group(pid);
            let _ = child.wait();
            signals::unregister(pid);
            return Err(io::Error::other("the engine's pipes could not be opened"));
        };
        let (tx, lines) = mpsc::sync_channel(LINE_QUEUE);
        let name = launch.name.clone();
        thread::Builder::new()
            .name(format!("{name}-out"))
            .spawn(move || read_lines(stdout, tx))?;
        let stderr_tail = Arc::new(Mutex::new(VecDeque::new()));
        let tail = Arc::clone(&stderr_tail);
        let err_log = log.clone();
        let prefix = format!("{name} [{pid}] stderr: ");
        let (done, stderr_done) = mpsc::channel::<()>();
        thread::Builder::new()
            .name(format!("{name}-err"))
            .spawn(move || {
                copy_stderr(stderr, &prefix, &err_log, &tail);
                drop(done);
            })?;
        log.line(&format!(
            "{name} [{pid}] started: {} {}",
            launch.cmd.display(),
            launch.args.join(" ")
        ));
        Ok(EngineProcess {
            name,
            child,
            pid,
            stdin: Some(BufWriter::new(stdin)),
            lines,
            stderr_tail,
            stderr_done,
            log: log.clone(),
        })
    }

    /// The operating system's process id.
    #[cfg(test)]
    fn pid(&self) -> i32 {
        self.pid
    }

    /// Sends lines, each followed by a newline, and flushes once.
    pub fn send(&mut self, lines: &[&str]) -> io::Result<()> {
        let stdin = self
            .stdin
            .as_mut()
            .ok_or_else(|| io::Error::new(io::ErrorKind::BrokenPipe, "stdin already closed"))?;
        for line in lines {
            log::debug!("{} < {line}", self.name);
            self.log.1.line(&self.name, Direction::ToEngine, line);
            stdin.write_all(line.as_bytes())?;
            stdin.write_all(b"\n")?;
        }
        stdin.flush()
    }

    /// Waits until `deadline` for the next output line. A line that arrived after the
    /// deadline counts as a timeout, so a flood of output cannot hold a deadline open.
    pub fn read_line(&mut self, deadline: Instant) -> Read {
        let next = match self.lines.try_recv() {
            Ok(read) => read,
            Err(TryRecvError::Disconnected) => return Read::Closed,
            Err(TryRecvError::Empty) => {
                let wait = deadline.saturating_duration_since(Instant::now());
                match self.lines.recv_timeout(wait) {
                    Ok(read) => read,
                    Err(RecvTimeoutError::Timeout) => return Read::Timeout,
                    Err(RecvTimeoutError::Disconnected) => return Read::Closed,
                }
            }
        };
        match next {
            Read::Line(_, at) | Read::TooLong(_, at) if at > deadline => Read::Timeout,
            Read::Line(line, at) => {
                log::debug!("{} > {line}", self.name);
                self.log.1.line(&self.name, Direction::FromEngine, &line);
                Read::Line(line, at)
            }
            other => other,
        }
    }

    /// Why the process went away, for a crash report: exit code or signal, and its last stderr lines.
    ///
    /// The exited process is left a zombie until the drop, so that its process id (and
    /// process group id) cannot be taken by another process before its group is killed.
    pub fn exit_report(&mut self) -> String {
        // The output closes a moment before the process has exited; wait a little.
        let mut status = None;
        for _ in 0..100 {
            match exit_status_without_reaping(self.pid) {
                Some(s) => {
                    status = Some(s);
                    break;
                }
                None => thread::sleep(Duration::from_millis(2)),
            }
        }
        let mut report = match status {
            Some(Ended::Code(code)) => format!("exited with code {code}"),
            Some(Ended::Signal(sig)) => format!("killed by signal {sig}"),
            None => "closed its output".to_string(),
        };
        // Its last words on stderr explain most crashes; they arrive until stderr closes.
        let _ = self.stderr_done.recv_timeout(Duration::from_millis(100));
        let tail = self.stderr_tail.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(last) = tail.back() {
            report.push_str(&format!("; last stderr line: {last}"));
        }
        report
    }

    /// Asks the engine to quit, gives it `grace` to exit, then kills it.
    pub fn quit(mut self, grace: Duration) {
        if self.send(&["quit"]).is_ok() {
            self.stdin = None;
            let deadline = Instant::now() + grace;
            while let Read::Line(..) | Read::TooLong(..) = self.read_line(deadline) {}
        }
        // Drop kills whatever is left.
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        self.stdin = None;
        // Always the whole group: an engine that exited may have left children behind.
        // The engine itself is not reaped yet, so its id still names this group only.
        signals::kill_group(self.pid);
        let status = self.child.wait();
        signals::reap_group(self.pid);
        signals::unregister(self.pid);
        log::debug!("{} [{}] ended: {status:?}", self.name, self.pid);
        self.log
            .line(&format!("{} [{}] stopped", self.name, self.pid));
    }
}

/// How an exited process ended.
enum Ended {
    Code(i32),
    Signal(i32),
}

/// The exit of process `pid` if it has exited, leaving it to be reaped later.
#[cfg(target_os = "linux")]
fn exit_status_without_reaping(pid: i32) -> Option<Ended> {
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
fn exit_status_without_reaping(pid: i32) -> Option<Ended> {
    // SAFETY: signal 0 only checks that the process exists.
    let gone = unsafe { libc::kill(pid, 0) } != 0;
    gone.then_some(Ended::Code(-1))
}

/// The reader thread: stdout cut into lines, each stamped with the time its bytes were
/// read, into the bounded channel. Lines longer than [`MAX_LINE_BYTES`] are reported once and
/// skipped to their end; memory stays bounded however the engine writes.
fn read_lines(mut stdout: impl io::Read, tx: SyncSender<Read>) {
    let mut chunk = vec![0u8; 16 * 1024];
    let mut line: Vec<u8> = Vec::with_capacity(256);
    let mut line_start = Instant::now();
    let mut skipping = false;
    loop {
        let n = match stdout.read(&mut chunk) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(_) => break,
        };
        let at = Instant::now();
        for piece in chunk[..n].split_inclusive(|&b| b == b'\n') {
            let ends = piece.last() == Some(&b'\n');
            let body = if ends {
                &piece[..piece.len() - 1]
            } else {
                piece
            };
            if !skipping {
                if line.is_empty() {
                    line_start = at;
                }
                let room = (MAX_LINE_BYTES + 1).saturating_sub(line.len());
                line.extend_from_slice(&body[..body.len().min(room)]);
                if line.len() > MAX_LINE_BYTES {
                    let shown: String = String::from_utf8_lossy(&line)
                        .chars()
                        .take(TOO_LONG_SHOWN)
                        .collect();
                    if tx.send(Read::TooLong(shown, line_start)).is_err() {
                        return;
                    }
                    line.clear();
                    skipping = true;
                }
            }
            if ends {
                if !skipping
                    && tx
                        .send(Read::Line(finish_line(&mut line), line_start))
                        .is_err()
                {
                    return;
                }
                line.clear();
                skipping = false;
            }
        }
    }
    if !line.is_empty() && !skipping {
        let _ = tx.send(Read::Line(finish_line(&mut line), line_start));
    }
}

/// A line's text without its trailing carriage returns.
fn finish_line(line: &mut Vec<u8>) -> String {
    while line.last() == Some(&b'\r') {
        line.pop();
    }
    String::from_utf8_lossy(line).into_owned()
}

/// The stderr thread: every line into the log with the engine's name, the last few kept.
fn copy_stderr(
    stderr: impl io::Read,
    prefix: &str,
    log: &EngineLog,
    tail: &Mutex<VecDeque<String>>,
) {
    let mut reader = BufReader::new(stderr);
    let mut buf = Vec::with_capacity(256);
    loop {
        buf.clear();
        match reader
            .by_ref()
            .take(MAX_LINE_BYTES as u64)
            .read_until(b'\n', &mut buf)
        {
            Ok(0) | Err(_) => return,
            Ok(_) => {
                let line = String::from_utf8_lossy(&buf).trim_end().to_string();
                log.line(&format!("{prefix}{line}"));
                let mut tail = tail.lock().unwrap_or_else(|p| p.into_inner());
                if tail.len() == STDERR_TAIL {
                    tail.pop_front();
                }
                tail.push_back(line);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shell(script: &str) -> EngineProcess {
        let launch = Launch {
            name: "sh".to_string(),
            cmd: PathBuf::from("/bin/sh"),
            args: vec!["-c".to_string(), script.to_string()],
            dir: None,
        };
        EngineProcess::spawn(&launch, &EngineLog::default()).unwrap()
    }

    fn soon() -> Instant {
        Instant::now() + Duration::from_secs(5)
    }

    #[test]
    fn lines_timeouts_and_closing_are_told_apart() {
        let mut p = shell("read x; echo \"got $x\"; read y; echo 'bye' >&2; exit 3");
        p.send(&["hello"]).unwrap();
        assert!(matches!(p.read_line(soon()), Read::Line(l, _) if l == "got hello"));
        assert_eq!(
            p.read_line(Instant::now() + Duration::from_millis(20)),
            Read::Timeout
        );
        p.send(&["go"]).unwrap();
        assert_eq!(p.read_line(soon()), Read::Closed);
        let report = p.exit_report();
        assert!(report.contains("exited with code 3"), "{report}");
    }

    #[test]
    fn dropping_kills_the_whole_process_group() {
        let mut p = shell("sleep 30 & echo $!; wait");
        let Read::Line(child, _) = p.read_line(soon()) else {
            panic!("no pid from the shell");
        };
        let grandchild: i32 = child.trim().parse().unwrap();
        let pid = p.pid();
        drop(p);
        // SAFETY: signal 0 only checks for existence.
        let alive = |pid: i32| unsafe { libc::kill(pid, 0) } == 0;
        assert!(!alive(pid), "the engine survived");
        // The grandchild was killed with the group; SIGKILL takes effect asynchronously,
        // and the dead grandchild may linger as a zombie of init.
        let gone = |pid: i32| {
            let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
            stat.is_empty() || stat.contains(") Z")
        };
        let deadline = Instant::now() + Duration::from_secs(5);
        while !gone(grandchild) && Instant::now() < deadline {
            thread::sleep(Duration::from_millis(5));
        }
        assert!(gone(grandchild), "the grandchild {grandchild} survived");
    }

    #[test]
    fn a_flood_of_output_cannot_hold_a_deadline_open() {
        let mut p = shell("yes 'info depth 1 score cp 10 nodes 1 pv a1'");
        let deadline = Instant::now() + Duration::from_millis(100);
        let mut lines = 0u64;
        loop {
            match p.read_line(deadline) {
                Read::Line(..) => lines += 1,
                other => {
                    assert_eq!(other, Read::Timeout);
                    break;
                }
            }
            // Far more lines than the queue holds pass before the deadline would be missed.
            assert!(lines < 100_000_000, "the flood held the deadline open");
        }
        assert!(Instant::now() >= deadline);
    }

    #[test]
    fn a_line_too_long_is_reported_once_and_skipped_to_its_end() {
        let mut p = shell("head -c 70000 /dev/zero | tr '\\0' x; echo; echo next");
        assert!(matches!(p.read_line(soon()), Read::TooLong(start, _) if start.starts_with("xxx")));
        assert!(matches!(p.read_line(soon()), Read::Line(l, _) if l == "next"));
        assert_eq!(p.read_line(soon()), Read::Closed);
    }

    #[test]
    fn invalid_utf8_and_carriage_returns_arrive_as_lines() {
        let mut p = shell("printf 'a\\r\\n\\377\\376\\n'");
        assert!(matches!(p.read_line(soon()), Read::Line(l, _) if l == "a"));
        assert!(matches!(p.read_line(soon()), Read::Line(l, _) if l.contains('\u{fffd}')));
        assert_eq!(p.read_line(soon()), Read::Closed);
    }
}
