//! A test engine that speaks the protocol and misbehaves on request: crashes, hangs,
//! prints garbage, plays an illegal move, starts slowly, exits at once, never answers
//! `isready`, floods its output, answers twice or unasked, prints harmless extras
//! (blank lines, `ponder`, unknown `info` fields), leaves a child process behind or
//! ignores `quit`. Behind the hidden `slimetrail-arena mock-engine` subcommand; tests run
//! it as an engine process. Otherwise it plays random legal moves.

use std::io::{self, BufRead, Write};
use std::path::PathBuf;
use std::time::Duration;

use crate::board::{Position, Square};
use crate::protocol::{Bound, Score};
use crate::protocol::{Id, Info, Message, OptionDecl, OptionKind, PositionBase};
use crate::rng::Rng;

/// Exit code of a mock crash.
pub const CRASH_EXIT_CODE: i32 = 3;

/// How the mock engine misbehaves. Move counts are per game, from 1.
#[derive(Clone, Debug, Default)]
pub struct MockBehaviour {
    /// Exit with code 3 instead of answering this move's `go`.
    pub crash_at: Option<u32>,
    /// Stop answering anything from this move's `go` on.
    pub hang_at: Option<u32>,
    /// Print a line that is no protocol message instead of this move's `bestmove`.
    pub garbage_at: Option<u32>,
    /// Answer this move with the snail's own square, which is never legal.
    pub illegal_at: Option<u32>,
    /// Wait this long before answering `ugi`.
    pub slow_start: Option<Duration>,
    /// Exit at once, before reading anything.
    pub exit_at_once: bool,
    /// Never answer `isready`.
    pub no_readyok: bool,
    /// Append the process id to this file at start.
    pub pid_file: Option<PathBuf>,
    /// Think this long before every move.
    pub move_delay: Option<Duration>,
    /// Seed of the random moves.
    pub seed: u64,
    /// Flood `info` lines forever instead of answering: at `ugi`, at the first `isready`,
    /// or at this move's `go`.
    pub flood: Option<FloodAt>,
    /// Answer every `go` with two `bestmove` lines.
    pub double_bestmove: bool,
    /// Follow every `readyok` at once with an unrequested `bestmove`.
    pub early_bestmove: bool,
    /// Print a blank line, an `info` line with unknown fields, and `bestmove X ponder Y`.
    pub extras: bool,
    /// Print a line longer than the arena accepts instead of this move's `bestmove`.
    pub long_line_at: Option<u32>,
    /// At start, leave behind a child that ignores SIGTERM and has its stdio on
    /// /dev/null; its process id is appended to this file.
    pub grandchild: Option<PathBuf>,
    /// Be that child: ignore SIGTERM and sleep.
    pub linger: bool,
    /// The arguments that run this program as that child (the command line's words).
    pub linger_args: Vec<String>,
    /// At `quit`, flood `info` lines instead of exiting.
    pub flood_at_quit: bool,
}

/// When a flooding mock starts to flood.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum FloodAt {
    /// Instead of answering `ugi`.
    Handshake,
    /// Instead of answering the first `isready`.
    Ready,
    /// Instead of answering this move's `go`.
    Move(u32),
}

/// The line a flooding mock repeats.
const FLOOD_LINE: &[u8] = b"info depth 1 score cp 10 nodes 1 pv a1\n";

/// Writes [`FLOOD_LINE`] as fast as the pipe takes it, until the pipe breaks.
fn flood() -> i32 {
    let mut out = io::BufWriter::with_capacity(64 * 1024, io::stdout().lock());
    loop {
        if out.write_all(FLOOD_LINE).is_err() {
            return 0;
        }
    }
}

/// Starts the lingering child, detached from the mock's pipes.
fn leave_grandchild(pid_file: &PathBuf, args: &[String]) {
    let Ok(exe) = std::env::current_exe() else {
        return;
    };
    let started = std::process::Command::new(exe)
        .args(args)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn();
    // Written here, so that the id is on file before anything can kill the child.
    let written = started.and_then(|child| {
        std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(pid_file)
            .and_then(|mut f| f.write_all(format!("{}\n", child.id()).as_bytes()))
    });
    if let Err(e) = written {
        eprintln!("mock: cannot start the grandchild: {e}");
    }
    // Not waited for: it is meant to outlive this process.
}

/// Runs the mock engine on stdin/stdout; returns the exit code.
pub fn run_mock(behaviour: &MockBehaviour) -> i32 {
    if let Some(path) = &behaviour.pid_file {
        let written = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            // One write call per line: engines started together append to the same
            // file, and `writeln!` may split a line into several writes.
            .and_then(|mut f| f.write_all(format!("{}\n", std::process::id()).as_bytes()));
        if let Err(e) = written {
            eprintln!("mock: cannot write the pid file {}: {e}", path.display());
        }
    }
    if behaviour.linger {
        // SAFETY: ignoring a signal is a plain system call.
        unsafe {
            libc::signal(libc::SIGTERM, libc::SIG_IGN);
        }
        loop {
            std::thread::sleep(Duration::from_secs(60));
        }
    }
    if let Some(path) = &behaviour.grandchild {
        leave_grandchild(path, &behaviour.linger_args);
    }
    if behaviour.exit_at_once {
        eprintln!("mock: exiting at once");
        return 0;
    }
    let mut mock = Mock {
        behaviour,
        start: Position::start(Default::default()),
        position: Position::start(Default::default()),
        moves: 0,
        hung: false,
        rng: Rng::new(behaviour.seed),
    };
    let stdin = io::stdin();
    let mut out = io::stdout().lock();
    for line in stdin.lock().lines() {
        let Ok(line) = line else {
            continue;
        };
        let Ok(message) = line.parse::<Message>() else {
            let _ = say(
                &mut out,
                &[Message::info_string(format!(
                    "error unknown command: {line}"
                ))],
            );
            continue;
        };
        match mock.answer(message) {
            Step::Reply(lines) => {
                if say(&mut out, &lines).is_err() {
                    return 0;
                }
            }
            Step::Raw(text) => {
                // One write call, so that lines written together arrive together.
                let text = format!("{text}\n");
                if out
                    .write_all(text.as_bytes())
                    .and_then(|()| out.flush())
                    .is_err()
                {
                    return 0;
                }
            }
            Step::Exit(code) => return code,
            Step::Flood => return flood(),
        }
    }
    0
}

/// What the mock does with one command.
enum Step {
    Reply(Vec<Message>),
    Raw(String),
    Exit(i32),
    Flood,
}

struct Mock<'a> {
    behaviour: &'a MockBehaviour,
    start: Position,
    position: Position,
    moves: u32,
    hung: bool,
    rng: Rng,
}

impl Mock<'_> {
    fn answer(&mut self, message: Message) -> Step {
        let b = self.behaviour;
        if self.hung && message != Message::Quit {
            return Step::Reply(Vec::new());
        }
        match message {
            Message::Ugi => {
                if b.flood == Some(FloodAt::Handshake) {
                    return Step::Flood;
                }
                if let Some(wait) = b.slow_start {
                    std::thread::sleep(wait);
                }
                Step::Reply(vec![
                    Message::Id(Id::Name("mock".to_string())),
                    Message::Id(Id::Author("the Slimetrail tests".to_string())),
                    Message::DeclareOption(OptionDecl {
                        name: "Level".to_string(),
                        kind: OptionKind::Spin {
                            default: 10,
                            min: Some(1),
                            max: Some(10),
                        },
                    }),
                    Message::UgiOk,
                ])
            }
            Message::IsReady if b.flood == Some(FloodAt::Ready) => Step::Flood,
            Message::IsReady if b.no_readyok => Step::Reply(Vec::new()),
            Message::IsReady if b.early_bestmove => {
                // Both lines in one write, so that they arrive together.
                let own = self.position.size().name(self.position.snail());
                Step::Raw(format!(
                    "{}\n{}",
                    Message::ReadyOk,
                    Message::BestMove(Some(own))
                ))
            }
            Message::IsReady => Step::Reply(vec![Message::ReadyOk]),
            Message::NewGame(setup) | Message::UgiNewGame(setup) => {
                self.start = setup.position().unwrap_or(self.start);
                self.position = self.start;
                self.moves = 0;
                Step::Reply(Vec::new())
            }
            Message::Position(setup) => {
                let mut pos = match setup.base {
                    PositionBase::Fen(pos) => pos,
                    PositionBase::StartPos => self.start,
                };
                for name in setup.moves {
                    let played = pos
                        .size()
                        .resolve(name)
                        .ok()
                        .and_then(|sq| pos.try_play(sq).ok());
                    if played.is_none() {
                        return Step::Reply(vec![Message::info_string(format!(
                            "error illegal move {name}"
                        ))]);
                    }
                }
                self.position = pos;
                Step::Reply(Vec::new())
            }
            Message::Go(_) => self.go(),
            Message::Quit if b.flood_at_quit => Step::Flood,
            Message::Quit => Step::Exit(0),
            _ => Step::Reply(Vec::new()),
        }
    }

    fn go(&mut self) -> Step {
        let b = self.behaviour;
        self.moves += 1;
        let n = Some(self.moves);
        if b.crash_at == n {
            eprintln!("mock: crashing at move {}", self.moves);
            return Step::Exit(CRASH_EXIT_CODE);
        }
        if b.hang_at == n {
            self.hung = true;
            return Step::Reply(Vec::new());
        }
        if b.flood == Some(FloodAt::Move(self.moves)) {
            return Step::Flood;
        }
        if b.long_line_at == n {
            return Step::Raw(format!("info string {}", "x".repeat(100 * 1024)));
        }
        if b.garbage_at == n {
            // With a carriage return and an escape sequence, which records must not show raw.
            return Step::Raw(format!(
                "#!? garbage instead of move {}\r\x1b[2Kxx",
                self.moves
            ));
        }
        if let Some(wait) = b.move_delay {
            std::thread::sleep(wait);
        }
        let size = self.position.size();
        if b.illegal_at == n {
            let own = size.name(self.position.snail());
            return Step::Reply(vec![Message::BestMove(Some(own))]);
        }
        let moves: Vec<Square> = self.position.moves().iter().collect();
        let Some(&sq) = self.rng.choose(&moves) else {
            return Step::Reply(vec![Message::BestMove(None)]);
        };
        let info = Message::Info(Info {
            depth: Some(1),
            score: Some((Score::Cp(0), Bound::Exact)),
            nodes: Some(moves.len() as u64),
            pv: vec![size.name(sq)],
            ..Info::default()
        });
        let best = Message::BestMove(Some(size.name(sq)));
        if b.extras {
            let ponder = size.name(self.position.snail());
            return Step::Raw(format!(
                "\n{info}\ninfo depth 1 currmove {} hashfull 0 tbhits 0 sbhits 0 cpuload 5 refutation a1\n\n{best} ponder {ponder}",
                size.name(sq)
            ));
        }
        if b.double_bestmove {
            return Step::Raw(format!("{info}\n{best}\n{best}"));
        }
        Step::Reply(vec![info, best])
    }
}

/// Writes messages, one per line, and flushes.
fn say(out: &mut impl Write, messages: &[Message]) -> io::Result<()> {
    for m in messages {
        writeln!(out, "{m}")?;
    }
    out.flush()
}
