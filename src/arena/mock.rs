//! A test engine that speaks the protocol and misbehaves on request: crashes, hangs,
//! prints garbage, plays an illegal move, starts slowly, exits at once or never answers
//! `isready`. Behind the hidden `slimetrail-arena mock-engine` subcommand; tests run it
//! as an engine process. Otherwise it plays random legal moves.

use std::io::{self, BufRead, Write};
use std::path::PathBuf;
use std::time::Duration;

use crate::board::{Position, Square};
use crate::protocol::{Bound, Score};
use crate::protocol::{Id, Info, Message, PositionBase};
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
                if writeln!(out, "{text}").and_then(|()| out.flush()).is_err() {
                    return 0;
                }
            }
            Step::Exit(code) => return code,
        }
    }
    0
}

/// What the mock does with one command.
enum Step {
    Reply(Vec<Message>),
    Raw(String),
    Exit(i32),
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
                if let Some(wait) = b.slow_start {
                    std::thread::sleep(wait);
                }
                Step::Reply(vec![
                    Message::Id(Id::Name("mock".to_string())),
                    Message::Id(Id::Author("the Slimetrail tests".to_string())),
                    Message::UgiOk,
                ])
            }
            Message::IsReady if b.no_readyok => Step::Reply(Vec::new()),
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
        if b.garbage_at == n {
            return Step::Raw(format!("#!? garbage instead of move {}", self.moves));
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
        match self.rng.choose(&moves) {
            Some(&sq) => Step::Reply(vec![
                Message::Info(Info {
                    depth: Some(1),
                    score: Some((Score::Cp(0), Bound::Exact)),
                    nodes: Some(moves.len() as u64),
                    pv: vec![size.name(sq)],
                    ..Info::default()
                }),
                Message::BestMove(Some(size.name(sq))),
            ]),
            None => Step::Reply(vec![Message::BestMove(None)]),
        }
    }
}

/// Writes messages, one per line, and flushes.
fn say(out: &mut impl Write, messages: &[Message]) -> io::Result<()> {
    for m in messages {
        writeln!(out, "{m}")?;
    }
    out.flush()
}
