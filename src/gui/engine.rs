//! The session's engine: a process of the arena's process handling, spoken to through
//! the protocol's [`Message`] type. Start-up runs the handshake (`ugi` … `ugiok`, the
//! options, `isready` … `readyok`) and notes whether the engine has a `Level` option.

use std::io;
use std::sync::mpsc::{self, Sender};
use std::sync::{Mutex, OnceLock};
use std::thread;
use std::time::{Duration, Instant};

use crate::client::{EngineLog, EngineProcess, Launch, Read};
use crate::protocol::{Id, Message, OptionKind};

/// Time an engine gets to exit after `quit` before it is killed.
const QUIT_GRACE: Duration = Duration::from_millis(200);

/// How the session starts its engine: the program and the options of `--engine`.
#[derive(Clone, Debug)]
pub struct EngineSetup {
    /// The program, its arguments and working directory.
    pub launch: Launch,
    /// `setoption` values sent after `ugiok`.
    pub options: Vec<(String, String)>,
    /// Wait for `ugiok` and `readyok`.
    pub timeout: Duration,
}

/// What one read from the engine gave.
#[derive(Debug)]
pub enum Output {
    /// A protocol message.
    Message(Message),
    /// A line that is not one, with the parser's complaint.
    Garbage(String, String),
    /// No line yet.
    Nothing,
    /// The engine's output closed: it exited or crashed; why.
    Closed(String),
}

/// A running engine that finished its handshake.
pub struct Engine {
    process: EngineProcess,
    /// The name it gave in `id name`, or the program's.
    pub name: String,
    /// The range of its `Level` option, if it has one.
    pub level: Option<(i64, i64)>,
    /// The `Level` value last sent.
    level_sent: Option<i64>,
}

impl Engine {
    /// Starts the program and runs the handshake; the error says what went wrong.
    pub fn start(command: &EngineSetup) -> Result<Engine, String> {
        let launch = &command.launch;
        let mut process = spawn(launch).map_err(|e| {
            format!(
                "the engine {} could not be started: {e}",
                launch.cmd.display()
            )
        })?;
        let deadline = Instant::now() + command.timeout;
        let mut name = launch.name.clone();
        let mut level = None;
        let exited = |process: &mut EngineProcess| {
            format!(
                "the engine exited during its start-up handshake: {}",
                process.exit_report()
            )
        };
        if process.send(&["ugi"]).is_err() {
            return Err(exited(&mut process));
        }
        loop {
            match process.read_line(deadline) {
                Read::Line(line, _) => match line.parse::<Message>() {
                    Ok(Message::UgiOk) => break,
                    Ok(Message::Id(Id::Name(text))) => name = text,
                    Ok(Message::DeclareOption(decl)) if decl.name.eq_ignore_ascii_case("level") => {
                        if let OptionKind::Spin { min, max, .. } = decl.kind {
                            level = Some((min.unwrap_or(1), max.unwrap_or(10)));
                        }
                    }
                    _ => {}
                },
                Read::Timeout => {
                    return Err(format!(
                        "the engine did not finish its start-up handshake: no ugiok within {} ms",
                        command.timeout.as_millis()
                    ));
                }
                Read::TooLong(start, _) => {
                    return Err(format!(
                        "the engine sent a line too long during its start-up handshake: {start}…"
                    ));
                }
                Read::Closed => return Err(exited(&mut process)),
            }
        }
        let mut engine = Engine {
            process,
            name,
            level,
            level_sent: None,
        };
        for (option, value) in &command.options {
            engine.send(&[Message::SetOption {
                name: option.clone(),
                value: Some(value.clone()),
            }])?;
        }
        engine.send(&[Message::IsReady])?;
        loop {
            match engine.process.read_line(deadline) {
                Read::Line(line, _) => {
                    if let Ok(Message::ReadyOk) = line.parse::<Message>() {
                        return Ok(engine);
                    }
                }
                Read::Timeout => {
                    return Err(format!(
                        "the engine did not answer isready with readyok within {} ms",
                        command.timeout.as_millis()
                    ));
                }
                Read::TooLong(start, _) => {
                    return Err(format!(
                        "the engine sent a line too long instead of readyok: {start}…"
                    ));
                }
                Read::Closed => return Err(exited(&mut engine.process)),
            }
        }
    }

    /// Sends messages; the error is the crash report of an engine that is gone.
    pub fn send(&mut self, messages: &[Message]) -> Result<(), String> {
        let lines: Vec<String> = messages.iter().map(Message::to_string).collect();
        let refs: Vec<&str> = lines.iter().map(String::as_str).collect();
        self.process
            .send(&refs)
            .map_err(|_| format!("the engine crashed: {}", self.process.exit_report()))
    }

    /// Sets the `Level` option to `level` (clamped to its range) if the engine has one
    /// and it is not set already.
    pub fn set_level(&mut self, level: u32) -> Result<(), String> {
        let Some((min, max)) = self.level else {
            return Ok(());
        };
        let level = i64::from(level).clamp(min, max);
        if self.level_sent == Some(level) {
            return Ok(());
        }
        self.level_sent = Some(level);
        self.send(&[Message::SetOption {
            name: "Level".to_string(),
            value: Some(level.to_string()),
        }])
    }

    /// The highest level the engine offers.
    pub fn max_level(&self) -> u32 {
        self.level.map_or(10, |(_, max)| max.clamp(1, 1000) as u32)
    }

    /// The next line if one is there, without waiting.
    pub fn poll(&mut self) -> Output {
        match self.process.read_line(Instant::now()) {
            Read::Line(line, _) => match line.parse::<Message>() {
                Ok(message) => Output::Message(message),
                Err(e) => Output::Garbage(line, e.to_string()),
            },
            Read::TooLong(start, _) => Output::Garbage(
                format!("{start}…"),
                "the line is too long: expected a protocol message of at most 64 KiB".to_string(),
            ),
            Read::Timeout => Output::Nothing,
            Read::Closed => Output::Closed(format!(
                "the engine crashed: {}",
                self.process.exit_report()
            )),
        }
    }

    /// Asks the engine to quit, then kills what is left of its process group.
    pub fn quit(self) {
        self.process.quit(QUIT_GRACE);
    }
}

/// A request to the launcher thread: what to start, and where to send the process.
type SpawnRequest = (Launch, Sender<io::Result<EngineProcess>>);

/// Starts engine processes from one thread that lives as long as the server. On Linux
/// an engine gets `PR_SET_PDEATHSIG`, which fires when the *thread* that started it
/// ends; started from a short-lived thread, the engine would be killed at once.
fn spawn(launch: &Launch) -> io::Result<EngineProcess> {
    static LAUNCHER: OnceLock<Mutex<Sender<SpawnRequest>>> = OnceLock::new();
    let launcher = LAUNCHER.get_or_init(|| {
        let (tx, rx) = mpsc::channel::<SpawnRequest>();
        let started = thread::Builder::new()
            .name("engine-launcher".to_string())
            .spawn(move || {
                for (launch, reply) in rx {
                    let _ = reply.send(EngineProcess::spawn(&launch, &EngineLog::default()));
                }
            });
        if let Err(e) = started {
            log::error!("cannot start the engine launcher thread: {e}");
        }
        Mutex::new(tx)
    });
    let (reply, answer) = mpsc::channel();
    let sent = launcher
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .send((launch.clone(), reply));
    if sent.is_err() {
        return Err(io::Error::other("the engine launcher thread is gone"));
    }
    answer
        .recv()
        .unwrap_or_else(|_| Err(io::Error::other("the engine launcher thread is gone")))
}
