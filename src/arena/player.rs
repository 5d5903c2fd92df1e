//! Players behind one trait: an engine process spoken to through [`crate::protocol::Message`],
//! and the built-in random player, which needs no process.

use std::time::{Duration, Instant};

use crate::board::{Position, Square, SquareName};
use crate::client::{
    EngineLog, EngineProcess, EngineSpec, Launch, Launcher, Read, SearchLimits, check_options,
    signals,
};
use crate::protocol::{GameSetup, GoArgs, Message, OptionDecl, PositionBase, PositionSetup};
use crate::protocol::{MAX_LINE_BYTES, Score};
use crate::rng::Rng;

/// Time an engine gets to exit after `quit` before it is killed.
const QUIT_GRACE: Duration = Duration::from_millis(200);

/// What went wrong with a player; the game turns it into a loss with a reason.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum FaultKind {
    /// It could not be started, or did not finish its start-up handshake in time.
    Startup,
    /// It refused an option it was given: not declared, or a value it does not take.
    Options,
    /// Its process exited or crashed.
    Crash,
    /// It printed a line that is not a protocol message.
    Garbage,
    /// It did not answer a ping (`isready`) in time.
    Hang,
    /// It did not answer `go` with `bestmove` in time (a time loss under a clock).
    NoMove,
    /// It broke the protocol: a `bestmove` before it was sent `go`, or a line too long.
    Protocol,
}

/// A fault with a sentence explaining it, written to follow the player's name.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Fault {
    /// The kind of fault.
    pub kind: FaultKind,
    /// What happened, such as `crashed: exited with code 3`.
    pub detail: String,
}

impl Fault {
    fn new(kind: FaultKind, detail: impl Into<String>) -> Fault {
        Fault {
            kind,
            detail: detail.into(),
        }
    }
}

/// Everything a player needs to choose a move.
pub struct Turn<'a> {
    /// The position the game started from.
    pub start: &'a Position,
    /// Every move since `start`.
    pub moves: &'a [Square],
    /// The current position.
    pub position: &'a Position,
    /// Each player's remaining time, for players with a clock.
    pub clocks: [Option<Duration>; 2],
    /// Each player's increment per move.
    pub increments: [Duration; 2],
    /// Moves until the mover's clock gets its base time again, under moves-per-period clocks.
    pub moves_to_go: Option<u32>,
    /// The limits of the player to move.
    pub limits: &'a SearchLimits,
}

/// A player's answer: the move it named (not yet checked), and how long it took.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Reply {
    /// The square named by `bestmove`, or `None` for `bestmove (none)`.
    pub square: Option<SquareName>,
    /// The move as the player wrote it.
    pub text: String,
    /// Time from sending `go` to receiving `bestmove`.
    pub elapsed: Duration,
    /// The last reported score and depth, such as `+0.35/6`.
    pub comment: Option<String>,
}

/// A participant of games.
pub trait Player {
    /// The player's name.
    fn name(&self) -> &str;
    /// Gets ready for game number `game` starting from `start` (starting the engine if needed).
    fn prepare(&mut self, game: usize, start: &Position) -> Result<(), Fault>;
    /// Chooses a move.
    fn think(&mut self, turn: &Turn) -> Result<Reply, Fault>;
    /// Ends the game; a `faulty` player's process is stopped and restarted for its next game.
    fn finish(&mut self, faulty: bool);
}

/// Makes the player an engine specification describes.
pub fn make_player(spec: &EngineSpec, seed: u64, log: &EngineLog) -> Box<dyn Player + Send> {
    match process_player(spec, log) {
        Some(player) => Box::new(player),
        None => Box::new(RandomPlayer::new(&spec.name, seed)),
    }
}

/// The process player of an engine specification, `None` for the random player.
fn process_player(spec: &EngineSpec, log: &EngineLog) -> Option<ProcessPlayer> {
    let Launcher::Process { cmd, args, dir } = &spec.command else {
        return None;
    };
    Some(ProcessPlayer {
        launch: Launch {
            name: spec.name.clone(),
            cmd: cmd.clone(),
            args: args.clone(),
            dir: dir.clone(),
        },
        options: spec.options.clone(),
        timeout: spec.limits.timeout,
        log: log.clone(),
        process: None,
    })
}

/// Starts an engine once, before the first game: it must start, finish its handshake
/// and accept its options (checked against the ones it declares); then it is stopped.
pub fn check_engine(spec: &EngineSpec, log: &EngineLog) -> Result<(), String> {
    let Some(player) = process_player(spec, log) else {
        return Ok(());
    };
    let cmd = &player.launch.cmd;
    match player.start() {
        Ok(process) => {
            process.quit(QUIT_GRACE);
            Ok(())
        }
        // The engine started and declared its options; only the values were wrong.
        Err(fault) if fault.kind == FaultKind::Options => {
            Err(format!("--engine name={}: {}", spec.name, fault.detail))
        }
        Err(fault) => {
            let relative = cmd.components().count() == 1 && !cmd.is_absolute();
            let hint = if relative {
                format!(
                    " ({} is looked up on PATH; a program in the current directory is written ./{})",
                    cmd.display(),
                    cmd.display()
                )
            } else {
                String::new()
            };
            Err(format!(
                "--engine name={}: the engine {}{hint}; expected an engine that starts and finishes its handshake (ugi … ugiok, isready … readyok) within timeout={} ms, before the first game",
                spec.name,
                fault.detail,
                spec.limits.timeout.as_millis()
            ))
        }
    }
}

/// The built-in player: a uniformly random legal move, reproducible from the seed and game number.
pub struct RandomPlayer {
    name: String,
    seed: u64,
    rng: Rng,
}

impl RandomPlayer {
    /// A random player whose choices follow from `seed`.
    pub fn new(name: &str, seed: u64) -> RandomPlayer {
        RandomPlayer {
            name: name.to_string(),
            seed,
            rng: Rng::new(seed),
        }
    }
}

impl Player for RandomPlayer {
    fn name(&self) -> &str {
        &self.name
    }

    fn prepare(&mut self, game: usize, _start: &Position) -> Result<(), Fault> {
        self.rng = Rng::new(self.seed ^ (game as u64).wrapping_mul(0xD6E8_FEB8_6659_FD93));
        Ok(())
    }

    fn think(&mut self, turn: &Turn) -> Result<Reply, Fault> {
        let moves: Vec<Square> = turn.position.moves().iter().collect();
        let square = self
            .rng
            .choose(&moves)
            .map(|&sq| turn.position.size().name(sq));
        Ok(Reply {
            text: square.map_or("(none)".to_string(), |s| s.to_string()),
            square,
            elapsed: Duration::ZERO,
            comment: None,
        })
    }

    fn finish(&mut self, _faulty: bool) {}
}

/// An engine program spoken to over the protocol; started on first use, reused across games.
pub struct ProcessPlayer {
    launch: Launch,
    options: Vec<(String, String)>,
    timeout: Duration,
    log: EngineLog,
    process: Option<EngineProcess>,
}

impl ProcessPlayer {
    /// The running process, started with its handshake if there is none.
    fn running(&mut self) -> Result<&mut EngineProcess, Fault> {
        if self.process.is_none() {
            let process = self.start()?;
            self.process = Some(process);
        }
        self.process
            .as_mut()
            .ok_or_else(|| Fault::new(FaultKind::Startup, "could not be started"))
    }

    /// Starts the program: `ugi` … `ugiok`, the options, then `isready` … `readyok`.
    fn start(&self) -> Result<EngineProcess, Fault> {
        let mut process = EngineProcess::spawn(&self.launch, &self.log).map_err(|e| {
            Fault::new(
                FaultKind::Startup,
                format!("could not be started: {}: {e}", self.launch.cmd.display()),
            )
        })?;
        let deadline = Instant::now() + self.timeout;
        let exited = |process: &mut EngineProcess| {
            let report = process.exit_report();
            Fault::new(
                FaultKind::Crash,
                format!("exited during its start-up handshake: {report}"),
            )
        };
        if process.send(&[&Message::Ugi.to_string()]).is_err() {
            return Err(exited(&mut process));
        }
        let mut declared: Vec<OptionDecl> = Vec::new();
        loop {
            match process.read_line(deadline) {
                Read::Line(line, _) => match line.parse::<Message>() {
                    Ok(Message::UgiOk) => break,
                    Ok(Message::DeclareOption(decl)) => declared.push(decl),
                    // Banners and other chatter before `ugiok` are tolerated, as GUIs do.
                    Ok(_) | Err(_) => log::debug!("{}: before ugiok: {line}", self.launch.name),
                },
                Read::TooLong(..) => {}
                Read::Timeout => {
                    return Err(Fault::new(
                        FaultKind::Startup,
                        format!(
                            "did not finish its start-up handshake: no ugiok within {} ms",
                            self.timeout.as_millis()
                        ),
                    ));
                }
                Read::Closed => return Err(exited(&mut process)),
            }
        }
        check_options(&declared, &self.options)
            .map_err(|why| Fault::new(FaultKind::Options, why))?;
        let options: Vec<Message> = self
            .options
            .iter()
            .map(|(name, value)| Message::SetOption {
                name: name.clone(),
                value: Some(value.clone()),
            })
            .collect();
        send(&mut process, &options)?;
        ping(&mut process, self.timeout)?;
        Ok(process)
    }
}

impl Player for ProcessPlayer {
    fn name(&self) -> &str {
        &self.launch.name
    }

    fn prepare(&mut self, _game: usize, _start: &Position) -> Result<(), Fault> {
        not_interrupted()?;
        let timeout = self.timeout;
        let process = self.running()?;
        send(process, &[Message::UgiNewGame(GameSetup::default())])?;
        ping(process, timeout)
    }

    fn think(&mut self, turn: &Turn) -> Result<Reply, Fault> {
        not_interrupted()?;
        let size = turn.start.size();
        let setup = PositionSetup {
            base: PositionBase::Fen(*turn.start),
            moves: turn.moves.iter().map(|&sq| size.name(sq)).collect(),
        };
        let limits = turn.limits;
        let mut go = GoArgs {
            depth: limits.depth,
            nodes: limits.nodes,
            movetime: limits.movetime.map(|d| d.as_millis() as u64),
            ..GoArgs::default()
        };
        let side = turn.position.side_to_move().index();
        let (deadline_after, what) = if let Some(left) = turn.clocks[side] {
            // A player without a clock is shown the mover's time, so that `go` stays well-formed.
            let ms = |d: Duration| d.as_millis() as i64;
            let time = |i: usize| ms(turn.clocks[i].unwrap_or(left));
            go.p1time = Some(time(0));
            go.p2time = Some(time(1));
            go.p1inc = Some(ms(turn.increments[0]));
            go.p2inc = Some(ms(turn.increments[1]));
            go.movestogo = turn.moves_to_go;
            (
                left + limits.time_margin,
                format!(
                    "lost on time: no bestmove with {} ms left on its clock (+{} ms margin)",
                    left.as_millis(),
                    limits.time_margin.as_millis()
                ),
            )
        } else if let Some(movetime) = limits.movetime {
            (
                movetime + limits.time_margin,
                format!(
                    "lost on time: no bestmove within movetime {} ms (+{} ms margin)",
                    movetime.as_millis(),
                    limits.time_margin.as_millis()
                ),
            )
        } else {
            (
                limits.timeout,
                format!("hung: no bestmove within {} ms", limits.timeout.as_millis()),
            )
        };
        let timeout = self.timeout;
        let process = self.running()?;
        // Synchronise before `go`: whatever the engine printed since its last search (such as
        // a second `bestmove`) is read and discarded up to `readyok`, never taken as a reply.
        send(process, &[Message::Position(setup)])?;
        ping(process, timeout)?;
        let sent = Instant::now();
        send(process, &[Message::Go(go)])?;
        let deadline = sent + deadline_after;
        let mut comment = None;
        loop {
            match process.read_line(deadline) {
                Read::Line(line, at) => match parse_output(&line)? {
                    Some(Message::BestMove(_)) if at < sent => {
                        return Err(Fault::new(
                            FaultKind::Protocol,
                            format!(
                                "sent an unrequested bestmove: `{}` came before it was sent go",
                                shown(&line)
                            ),
                        ));
                    }
                    Some(Message::BestMove(square)) => {
                        return Ok(Reply {
                            text: square.map_or("(none)".to_string(), |s| s.to_string()),
                            square,
                            elapsed: at.saturating_duration_since(sent),
                            comment,
                        });
                    }
                    Some(Message::Info(info)) => {
                        if let (Some((score, _)), Some(depth)) = (info.score, info.depth) {
                            comment = Some(format!("{}/{depth}", score_text(score)));
                        }
                    }
                    Some(_) | None => {}
                },
                Read::TooLong(start, _) => return Err(too_long(&start)),
                Read::Timeout => return Err(Fault::new(FaultKind::NoMove, what)),
                Read::Closed => return Err(crashed(process)),
            }
        }
    }

    fn finish(&mut self, faulty: bool) {
        if faulty {
            // Killed now; a fresh process starts with the next game.
            self.process = None;
        }
    }
}

impl Drop for ProcessPlayer {
    fn drop(&mut self) {
        if let Some(process) = self.process.take() {
            process.quit(QUIT_GRACE);
        }
    }
}

/// After Ctrl-C no engine is started or asked for a move: the game in play ends (and
/// is not recorded).
fn not_interrupted() -> Result<(), Fault> {
    if signals::interrupted() {
        return Err(Fault::new(
            FaultKind::Crash,
            "stopped: the arena was interrupted",
        ));
    }
    Ok(())
}

/// Sends messages; a closed pipe means the engine is gone.
fn send(process: &mut EngineProcess, messages: &[Message]) -> Result<(), Fault> {
    let lines: Vec<String> = messages.iter().map(Message::to_string).collect();
    let refs: Vec<&str> = lines.iter().map(String::as_str).collect();
    process.send(&refs).map_err(|_| crashed(process))
}

/// `isready`, then waits for `readyok`, skipping (and discarding) other messages.
fn ping(process: &mut EngineProcess, timeout: Duration) -> Result<(), Fault> {
    send(process, &[Message::IsReady])?;
    let deadline = Instant::now() + timeout;
    loop {
        match process.read_line(deadline) {
            Read::Line(line, _) => match parse_output(&line)? {
                Some(Message::ReadyOk) => return Ok(()),
                Some(Message::BestMove(_)) => {
                    log::debug!("discarded a bestmove outside a search: {line}");
                }
                Some(_) | None => {}
            },
            Read::TooLong(start, _) => return Err(too_long(&start)),
            Read::Timeout => {
                return Err(Fault::new(
                    FaultKind::Hang,
                    format!(
                        "hung: no readyok to isready within {} ms",
                        timeout.as_millis()
                    ),
                ));
            }
            Read::Closed => return Err(crashed(process)),
        }
    }
}

/// The fault for an engine whose output closed.
fn crashed(process: &mut EngineProcess) -> Fault {
    Fault::new(
        FaultKind::Crash,
        format!("crashed: {}", process.exit_report()),
    )
}

/// An engine's output line as a message: `None` for what UCI and UGI engines print
/// and the arena does not need (blank lines, `info` lines with fields it does not know);
/// `bestmove X ponder Y` is read as `bestmove X`. Anything else unreadable is garbage.
fn parse_output(line: &str) -> Result<Option<Message>, Fault> {
    let trimmed = line.trim();
    let mut words = trimmed.split_whitespace();
    match words.next() {
        None => Ok(None),
        Some("info") => Ok(trimmed.parse::<Message>().ok()),
        Some("bestmove") => {
            let text = match trimmed.find(" ponder") {
                Some(at) => &trimmed[..at],
                None => trimmed,
            };
            text.parse::<Message>()
                .map(Some)
                .map_err(|e| garbage(line, &e))
        }
        Some(_) => trimmed
            .parse::<Message>()
            .map(Some)
            .map_err(|e| garbage(line, &e)),
    }
}

/// The start of a line, for a report.
fn shown(line: &str) -> String {
    line.chars().take(80).collect()
}

/// The fault for a line that is not a protocol message.
fn garbage(line: &str, error: &dyn std::fmt::Display) -> Fault {
    Fault::new(
        FaultKind::Garbage,
        format!("sent garbage `{}`: {error}", shown(line)),
    )
}

/// The fault for a line longer than the arena reads.
fn too_long(start: &str) -> Fault {
    Fault::new(
        FaultKind::Protocol,
        format!("sent a line too long: over {MAX_LINE_BYTES} bytes, starting `{start}`"),
    )
}

/// A score as game records show it: `+0.35` in pawns, or `+M5` / `-M4` for a proven result in plies.
pub fn score_text(score: Score) -> String {
    match score {
        Score::Cp(cp) => format!("{:+.2}", f64::from(cp) / 100.0),
        Score::Mate(n) if n >= 0 => format!("+M{n}"),
        Score::Mate(n) => format!("-M{}", -n),
    }
}
