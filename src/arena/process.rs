//! An engine process: lines in on stdin, lines out on stdout through a reader thread,
//! stderr into the log file. Every read has an explicit result: a line, a timeout, or
//! the end of the output. Reads block on a channel with a deadline; nothing polls.

use std::collections::VecDeque;
use std::fs::File;
use std::io::{self, BufRead, BufReader, BufWriter, LineWriter, Read as _, Write};
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use super::signals;
use super::traffic::{Direction, TrafficLog};

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

/// Longest output line kept whole; longer lines are cut into pieces (and are garbage anyway).
const MAX_LINE: u64 = 64 * 1024;

/// Lines of stderr kept to explain a crash.
const STDERR_TAIL: usize = 4;

/// The result of waiting for a line from an engine.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Read {
    /// A line, without its line ending, and when the reader thread received it.
    Line(String, Instant),
    /// The deadline passed without a line.
    Timeout,
    /// The engine closed its output: it exited or crashed.
    Closed,
}

/// The shared log file for engine stderr and process events; cheap to clone.
#[derive(Clone, Default)]
pub struct EngineLog(Option<Arc<Mutex<LineWriter<File>>>>, TrafficLog);

impl EngineLog {
    /// A log writing to `path` (appending when `append`), or a log that discards everything.
    pub fn open(path: Option<&Path>, append: bool) -> Result<EngineLog, String> {
        let Some(path) = path else {
            return Ok(EngineLog(None, TrafficLog::default()));
        };
        let file = std::fs::OpenOptions::new()
            .create(true)
            .append(append)
            .write(true)
            .truncate(!append)
            .open(path)
            .map_err(|e| {
                format!(
                    "--log {}: cannot open it for writing ({e}); expected a writable file path",
                    path.display()
                )
            })?;
        Ok(EngineLog(
            Some(Arc::new(Mutex::new(LineWriter::new(file)))),
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
    lines: Receiver<(String, Instant)>,
    stderr_tail: Arc<Mutex<VecDeque<String>>>,
    /// Disconnects when the stderr thread has read everything.
    stderr_done: Receiver<()>,
    log: EngineLog,
    reaped: bool,
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
        let (tx, lines) = mpsc::channel();
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
            reaped: false,
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

    /// Waits until `deadline` for the next output line.
    pub fn read_line(&mut self, deadline: Instant) -> Read {
        let wait = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(wait) {
            Ok((line, at)) => {
                log::debug!("{} > {line}", self.name);
                self.log.1.line(&self.name, Direction::FromEngine, &line);
                Read::Line(line, at)
            }
            Err(RecvTimeoutError::Timeout) => Read::Timeout,
            Err(RecvTimeoutError::Disconnected) => Read::Closed,
        }
    }

    /// Why the process went away, for a crash report: exit code or signal, and its last stderr lines.
    pub fn exit_report(&mut self) -> String {
        // The output closes a moment before the process can be reaped; wait a little.
        let mut status = None;
        for _ in 0..100 {
            match self.child.try_wait() {
                Ok(Some(s)) => {
                    status = Some(s);
                    break;
                }
                Ok(None) => thread::sleep(Duration::from_millis(2)),
                Err(_) => break,
            }
        }
        let mut report = match status {
            Some(s) => {
                self.reaped = true;
                signals::unregister(self.pid);
                match (s.code(), s.signal()) {
                    (Some(code), _) => format!("exited with code {code}"),
                    (None, Some(sig)) => format!("killed by signal {sig}"),
                    _ => "exited".to_string(),
                }
            }
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
            while let Read::Line(..) = self.read_line(deadline) {}
        }
        // Drop kills whatever is left.
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        self.stdin = None;
        if !self.reaped {
            signals::kill_group(self.pid);
            let status = self.child.wait();
            signals::unregister(self.pid);
            log::debug!("{} [{}] ended: {status:?}", self.name, self.pid);
        }
        self.log
            .line(&format!("{} [{}] stopped", self.name, self.pid));
    }
}

/// The reader thread: every stdout line into the channel, stamped with its arrival time.
fn read_lines(stdout: impl io::Read, tx: mpsc::Sender<(String, Instant)>) {
    let mut reader = BufReader::new(stdout);
    let mut buf = Vec::with_capacity(256);
    loop {
        buf.clear();
        match reader.by_ref().take(MAX_LINE).read_until(b'\n', &mut buf) {
            Ok(0) | Err(_) => return,
            Ok(_) => {
                while matches!(buf.last(), Some(b'\n' | b'\r')) {
                    buf.pop();
                }
                let line = String::from_utf8_lossy(&buf).into_owned();
                if tx.send((line, Instant::now())).is_err() {
                    return;
                }
            }
        }
    }
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
        match reader.by_ref().take(MAX_LINE).read_until(b'\n', &mut buf) {
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
    fn invalid_utf8_and_carriage_returns_arrive_as_lines() {
        let mut p = shell("printf 'a\\r\\n\\377\\376\\n'");
        assert!(matches!(p.read_line(soon()), Read::Line(l, _) if l == "a"));
        assert!(matches!(p.read_line(soon()), Read::Line(l, _) if l.contains('\u{fffd}')));
        assert_eq!(p.read_line(soon()), Read::Closed);
    }
}
