//! An engine process: lines in on stdin, lines out on stdout through a reader thread,
//! stderr into the log file. Every read has an explicit result: a line, a line too long,
//! a timeout, or the end of the output. Reads block on a channel with a deadline; nothing
//! polls. The channel is bounded: an engine that writes faster than the arena reads
//! blocks on its full pipe, and every deadline holds however fast it writes.

use std::collections::VecDeque;
use std::io::{self, BufRead, BufReader, BufWriter, Read as _, Write};
use std::os::unix::process::CommandExt;
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender, SyncSender, TryRecvError};
use std::sync::{Arc, Mutex, OnceLock};
use std::thread;
use std::time::{Duration, Instant};

use super::exit::{ExitReport, exit_status_without_reaping};
use super::log::EngineLog;
use super::signals;
use crate::protocol::{Direction, MAX_LINE_BYTES};

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

/// What waiting for a line from an engine gave. Lines longer than the protocol's
/// [`MAX_LINE_BYTES`] are reported as [`Received::TooLong`] and skipped to their end.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Received {
    /// A line, without its line ending.
    Line {
        /// The line.
        text: String,
        /// When the reader thread received it.
        at: Instant,
    },
    /// A line longer than [`MAX_LINE_BYTES`] bytes.
    TooLong {
        /// Its first characters.
        start: String,
        /// When it began.
        at: Instant,
    },
    /// The deadline passed without a line.
    Timeout,
    /// The engine closed its output: it exited or crashed.
    Closed,
}

/// How to start an engine program.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Launch {
    /// The engine's name, for the logs.
    pub name: String,
    /// The program.
    pub cmd: PathBuf,
    /// Its arguments.
    pub args: Vec<String>,
    /// Its working directory.
    pub dir: Option<PathBuf>,
}

/// A running engine program: a line transport, which knows nothing of the protocol (the
/// conversation is [`super::EngineClient`]'s).
pub struct EngineProcess {
    name: String,
    child: Child,
    pid: i32,
    stdin: Option<BufWriter<ChildStdin>>,
    lines: Receiver<Received>,
    stderr_tail: Arc<Mutex<VecDeque<String>>>,
    /// Disconnects when the stderr thread has read everything.
    stderr_done: Receiver<()>,
    log: EngineLog,
}

impl EngineProcess {
    /// Starts the program with piped stdin/stdout, stderr to the log, in its own process
    /// group, and set to die with this process. The program is started by a launcher
    /// thread that lives as long as the process: on Linux the engine's death signal
    /// fires when the *thread* that started it ends, so an engine started from a
    /// short-lived thread would be killed with it.
    pub fn spawn(launch: &Launch, log: &EngineLog) -> io::Result<EngineProcess> {
        type SpawnRequest = (Launch, EngineLog, Sender<io::Result<EngineProcess>>);
        static LAUNCHER: OnceLock<Mutex<Sender<SpawnRequest>>> = OnceLock::new();
        let launcher = LAUNCHER.get_or_init(|| {
            let (tx, rx) = mpsc::channel::<SpawnRequest>();
            let started = thread::Builder::new()
                .name("engine-launcher".to_string())
                .spawn(move || {
                    for (launch, log, reply) in rx {
                        let _ = reply.send(EngineProcess::spawn_here(&launch, &log));
                    }
                });
            if let Err(e) = started {
                log::error!("cannot start the engine launcher thread: {e}");
            }
            Mutex::new(tx)
        });
        let gone = || io::Error::other("the engine launcher thread is gone");
        let (reply, answer) = mpsc::channel();
        launcher
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .send((launch.clone(), log.clone(), reply))
            .map_err(|_| gone())?;
        answer.recv().unwrap_or_else(|_| Err(gone()))
    }

    /// [`EngineProcess::spawn`] from the calling thread.
    fn spawn_here(launch: &Launch, log: &EngineLog) -> io::Result<EngineProcess> {
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
            self.log.traffic.line(&self.name, Direction::ToEngine, line);
            stdin.write_all(line.as_bytes())?;
            stdin.write_all(b"\n")?;
        }
        stdin.flush()
    }

    /// Waits until `deadline` for the next output line. A line that arrived after the
    /// deadline counts as a timeout, so a flood of output cannot hold a deadline open.
    pub fn read_line(&mut self, deadline: Instant) -> Received {
        let next = match self.lines.try_recv() {
            Ok(received) => received,
            Err(TryRecvError::Disconnected) => return Received::Closed,
            Err(TryRecvError::Empty) => {
                let wait = deadline.saturating_duration_since(Instant::now());
                match self.lines.recv_timeout(wait) {
                    Ok(received) => received,
                    Err(RecvTimeoutError::Timeout) => return Received::Timeout,
                    Err(RecvTimeoutError::Disconnected) => return Received::Closed,
                }
            }
        };
        match next {
            Received::Line { at, .. } | Received::TooLong { at, .. } if at > deadline => {
                Received::Timeout
            }
            Received::Line { text, at } => {
                note_line(&self.name, &self.log, &text);
                Received::Line { text, at }
            }
            other => other,
        }
    }

    /// Hands every later output line to `sink`, from a thread of its own, until `sink`
    /// returns `false` or the output closes (then `sink` gets [`Received::Closed`] once).
    /// Nothing polls: the thread blocks on the reader's channel. Afterwards
    /// [`EngineProcess::read_line`] reports [`Received::Closed`] at once.
    pub fn forward(&mut self, mut sink: impl FnMut(Received) -> bool + Send + 'static) {
        let (_, closed) = mpsc::sync_channel(0);
        let lines = std::mem::replace(&mut self.lines, closed);
        let (name, log) = (self.name.clone(), self.log.clone());
        let forwarding = thread::Builder::new()
            .name(format!("{name}-forward"))
            .spawn(move || {
                for received in lines.iter() {
                    if let Received::Line { text, .. } = &received {
                        note_line(&name, &log, text);
                    }
                    if !sink(received) {
                        return;
                    }
                }
                sink(Received::Closed);
            });
        if let Err(e) = forwarding {
            log::error!("cannot start the thread forwarding the engine's output: {e}");
        }
    }

    /// Why the process went away: exit code or signal, and its last stderr line.
    ///
    /// The exited process is left a zombie until the drop, so that its process id (and
    /// process group id) cannot be taken by another process before its group is killed.
    pub fn exit_report(&mut self) -> ExitReport {
        // The output closes a moment before the process has exited; wait a little.
        let mut ended = None;
        for _ in 0..100 {
            match exit_status_without_reaping(self.pid) {
                Some(e) => {
                    ended = Some(e);
                    break;
                }
                None => thread::sleep(Duration::from_millis(2)),
            }
        }
        // Its last words on stderr explain most crashes; they arrive until stderr closes.
        let _ = self.stderr_done.recv_timeout(Duration::from_millis(100));
        let tail = self.stderr_tail.lock().unwrap_or_else(|p| p.into_inner());
        ExitReport {
            ended,
            last_stderr: tail.back().cloned(),
        }
    }

    /// Closes the engine's input, gives it `grace` to exit (reading and dropping what it
    /// still writes), then kills what is left of its process group.
    pub fn close(mut self, grace: Duration) {
        self.stdin = None;
        let deadline = Instant::now() + grace;
        while let Received::Line { .. } | Received::TooLong { .. } = self.read_line(deadline) {}
        // Drop kills whatever is left.
    }
}

/// A line received from engine `name`, into the debug log and the traffic log.
fn note_line(name: &str, log: &EngineLog, text: &str) {
    log::debug!("{name} > {text}");
    log.traffic.line(name, Direction::FromEngine, text);
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

/// The reader thread: stdout cut into lines, each stamped with the time its bytes were
/// read, into the bounded channel. Lines longer than [`MAX_LINE_BYTES`] are reported once and
/// skipped to their end; memory stays bounded however the engine writes.
fn read_lines(mut stdout: impl io::Read, tx: SyncSender<Received>) {
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
                    let too_long = Received::TooLong {
                        start: shown,
                        at: line_start,
                    };
                    if tx.send(too_long).is_err() {
                        return;
                    }
                    line.clear();
                    skipping = true;
                }
            }
            if ends {
                let text = finish_line(&mut line);
                if !skipping
                    && tx
                        .send(Received::Line {
                            text,
                            at: line_start,
                        })
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
        let text = finish_line(&mut line);
        let _ = tx.send(Received::Line {
            text,
            at: line_start,
        });
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
    use crate::client::Ended;

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
        assert!(matches!(p.read_line(soon()), Received::Line { text: l, .. } if l == "got hello"));
        assert_eq!(
            p.read_line(Instant::now() + Duration::from_millis(20)),
            Received::Timeout
        );
        p.send(&["go"]).unwrap();
        assert_eq!(p.read_line(soon()), Received::Closed);
        let report = p.exit_report();
        assert_eq!(report.ended, Some(Ended::Code(3)));
        assert_eq!(
            report.to_string(),
            "exited with code 3; last stderr line: bye"
        );
    }

    #[test]
    fn forwarded_lines_arrive_in_order_and_the_end_once() {
        let mut p = shell("echo one; echo two");
        let (tx, rx) = mpsc::channel();
        p.forward(move |received| tx.send(received).is_ok());
        let texts: Vec<String> = rx
            .iter()
            .map(|received| match received {
                Received::Line { text, .. } => text,
                other => format!("{other:?}"),
            })
            .collect();
        assert_eq!(texts, ["one", "two", "Closed"]);
        assert_eq!(p.read_line(soon()), Received::Closed);
    }

    #[test]
    fn dropping_kills_the_whole_process_group() {
        let mut p = shell("sleep 30 & echo $!; wait");
        let Received::Line { text: child, .. } = p.read_line(soon()) else {
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
                Received::Line { .. } => lines += 1,
                other => {
                    assert_eq!(other, Received::Timeout);
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
        assert!(
            matches!(p.read_line(soon()), Received::TooLong { start, .. } if start.starts_with("xxx"))
        );
        assert!(matches!(p.read_line(soon()), Received::Line { text: l, .. } if l == "next"));
        assert_eq!(p.read_line(soon()), Received::Closed);
    }

    #[test]
    fn invalid_utf8_and_carriage_returns_arrive_as_lines() {
        let mut p = shell("printf 'a\\r\\n\\377\\376\\n'");
        assert!(matches!(p.read_line(soon()), Received::Line { text: l, .. } if l == "a"));
        assert!(
            matches!(p.read_line(soon()), Received::Line { text: l, .. } if l.contains('\u{fffd}'))
        );
        assert_eq!(p.read_line(soon()), Received::Closed);
    }
}
