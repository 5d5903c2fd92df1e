//! A driver for the real engine binary over pipes, shared by the protocol tests.
//!
//! Every wait is bounded by [`TIMEOUT`], so a hanging engine fails a test instead of
//! hanging it; the timeout is generous because CI machines are shared and slow.

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use slimetrail::protocol::Message;

/// The longest any single wait may take before the test fails.
pub const TIMEOUT: Duration = Duration::from_secs(20);

/// A running engine process.
pub struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    stderr: Arc<Mutex<String>>,
}

/// The engine binary under test: the one cargo built for the tests, unless
/// `SLIMETRAIL_TEST_ENGINE` names another (the measurement scripts point it at the
/// release build).
pub fn engine_binary() -> std::path::PathBuf {
    std::env::var_os("SLIMETRAIL_TEST_ENGINE")
        .map(Into::into)
        .unwrap_or_else(|| env!("CARGO_BIN_EXE_slimetrail").into())
}

impl Engine {
    /// Starts `slimetrail` with `args`, with warnings on stderr.
    pub fn start_with(args: &[&str]) -> Engine {
        let mut child = Command::new(engine_binary())
            .args(args)
            .env("RUST_LOG", "warn")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the engine binary starts");
        let stdout = child.stdout.take().expect("stdout is piped");
        let (sender, lines) = mpsc::channel();
        thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            let mut buffer = Vec::new();
            loop {
                buffer.clear();
                match reader.read_until(b'\n', &mut buffer) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        let line = String::from_utf8(buffer.clone())
                            .unwrap_or_else(|e| panic!("stdout is not UTF-8: {e}"));
                        let line = line.strip_suffix('\n').unwrap_or(&line).to_string();
                        if sender.send(line).is_err() {
                            break;
                        }
                    }
                }
            }
        });
        let stderr = Arc::new(Mutex::new(String::new()));
        let mut err_pipe = child.stderr.take().expect("stderr is piped");
        let sink = Arc::clone(&stderr);
        thread::spawn(move || {
            let mut chunk = [0u8; 4096];
            while let Ok(n) = err_pipe.read(&mut chunk) {
                if n == 0 {
                    break;
                }
                let text = String::from_utf8_lossy(&chunk[..n]).into_owned();
                sink.lock().unwrap().push_str(&text);
            }
        });
        let stdin = child.stdin.take();
        Engine {
            child,
            stdin,
            lines,
            stderr,
        }
    }

    /// Starts the engine in protocol mode.
    pub fn start() -> Engine {
        Engine::start_with(&[])
    }

    /// Sends raw bytes.
    pub fn send_bytes(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin is still open");
        // A write can fail if the engine has exited; the reads then report it.
        let _ = stdin.write_all(bytes).and_then(|()| stdin.flush());
    }

    /// Sends one line.
    pub fn send(&mut self, line: &str) {
        self.send_bytes(format!("{line}\n").as_bytes());
    }

    /// The next line of output, failing the test after [`TIMEOUT`].
    pub fn line(&self) -> String {
        match self.lines.recv_timeout(TIMEOUT) {
            Ok(line) => line,
            Err(RecvTimeoutError::Timeout) => panic!("no output within {TIMEOUT:?}"),
            Err(RecvTimeoutError::Disconnected) => panic!("the engine closed its output"),
        }
    }

    /// Lines up to and including the first that satisfies `last`.
    pub fn until(&self, last: impl Fn(&str) -> bool) -> Vec<String> {
        let mut lines = Vec::new();
        loop {
            let line = self.line();
            let done = last(&line);
            lines.push(line);
            if done {
                return lines;
            }
        }
    }

    /// Sends `line` then `isready`, and returns the replies before `readyok`.
    /// The engine handles lines in order, so these are all the replies to `line`.
    pub fn ask(&mut self, line: &str) -> Vec<String> {
        self.send(line);
        self.sync()
    }

    /// Sends `isready` and returns whatever arrives before `readyok`.
    pub fn sync(&mut self) -> Vec<String> {
        self.send("isready");
        let mut lines = self.until(|l| l == "readyok");
        lines.pop();
        lines
    }

    /// The `info string` lines of the diagram printed by `d`.
    pub fn diagram(&mut self) -> Vec<String> {
        let lines = self.ask("d");
        assert!(
            lines
                .last()
                .is_some_and(|l| l.starts_with("info string Position: ")),
            "{lines:?}"
        );
        lines
    }

    /// The position string, from `d`.
    pub fn position(&mut self) -> String {
        let lines = self.diagram();
        let last = lines.last().expect("d prints lines");
        last.trim_start_matches("info string Position: ")
            .to_string()
    }

    /// Closes stdin (end of input).
    pub fn close_input(&mut self) {
        self.stdin = None;
    }

    /// Waits for the process to exit, failing after [`TIMEOUT`]; returns the status
    /// and whatever output was still unread.
    pub fn wait_exit(&mut self) -> (ExitStatus, Vec<String>) {
        let started = Instant::now();
        loop {
            if let Some(status) = self.child.try_wait().expect("the engine can be waited for") {
                let rest = self.rest();
                return (status, rest);
            }
            assert!(started.elapsed() < TIMEOUT, "the engine did not exit");
            thread::sleep(Duration::from_millis(5));
        }
    }

    /// All output still to come, once the process has closed stdout.
    fn rest(&self) -> Vec<String> {
        let mut rest = Vec::new();
        while let Ok(line) = self.lines.recv_timeout(TIMEOUT) {
            rest.push(line);
        }
        rest
    }

    /// The engine's process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// The engine's resident memory in KiB, from `/proc` (Linux), or `None`.
    pub fn rss_kib(&self) -> Option<u64> {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.pid())).ok()?;
        status
            .lines()
            .find_map(|l| l.strip_prefix("VmRSS:"))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
    }

    /// Everything written to stderr so far.
    pub fn stderr(&self) -> String {
        self.stderr.lock().unwrap().clone()
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Parses a line of engine output, failing the test if it is not a valid message.
pub fn message(line: &str) -> Message {
    line.parse()
        .unwrap_or_else(|e| panic!("engine output {line:?} is not a message: {e}"))
}

/// Whether a line is an error line.
pub fn is_error(line: &str) -> bool {
    line.starts_with("info string error ")
}
