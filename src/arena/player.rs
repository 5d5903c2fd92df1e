//! Players behind one trait: an engine program spoken to through the engine client
//! ([`EngineClient`]), and the built-in random player, which needs no process. The
//! player keeps what the game needs of the conversation: the deadline of each move under
//! the clocks, and the last score as the move's comment.

use std::time::Duration;

use super::error::EngineCheckError;
use crate::board::{Position, Square, SquareName};
use crate::client::{
    EngineClient, EngineLog, EngineSetup, EngineSpec, Fault, FaultKind, SearchLimits, signals,
};
use crate::protocol::{GameSetup, GoArgs, Message, PositionBase, PositionSetup, Score};
use crate::rng::Rng;

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
    Some(ProcessPlayer {
        setup: spec.setup()?,
        log: log.clone(),
        client: None,
    })
}

/// Starts an engine once, before the first game: it must start, finish its handshake
/// and accept its options (checked against the ones it declares); then it is stopped.
pub fn check_engine(spec: &EngineSpec, log: &EngineLog) -> Result<(), EngineCheckError> {
    let Some(player) = process_player(spec, log) else {
        return Ok(());
    };
    match player.start() {
        Ok(client) => {
            client.quit();
            Ok(())
        }
        Err(fault) => Err(EngineCheckError {
            name: spec.name.clone(),
            cmd: player.setup.launch.cmd.clone(),
            timeout: spec.limits.timeout,
            fault,
        }),
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
    setup: EngineSetup,
    log: EngineLog,
    client: Option<EngineClient>,
}

impl ProcessPlayer {
    /// The running engine, started with its handshake if there is none.
    fn running(&mut self) -> Result<&mut EngineClient, Fault> {
        if self.client.is_none() {
            self.client = Some(self.start()?);
        }
        self.client
            .as_mut()
            .ok_or_else(|| Fault::new(FaultKind::Startup, "could not be started"))
    }

    /// Starts the program: `ugi` … `ugiok`, the options, then `isready` … `readyok`.
    fn start(&self) -> Result<EngineClient, Fault> {
        self.setup.start(&self.log)
    }
}

impl Player for ProcessPlayer {
    fn name(&self) -> &str {
        &self.setup.launch.name
    }

    fn prepare(&mut self, _game: usize, _start: &Position) -> Result<(), Fault> {
        not_interrupted()?;
        let timeout = self.setup.timeout;
        let client = self.running()?;
        client.send(&[Message::UgiNewGame(GameSetup::default())])?;
        client.ping(timeout)
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
        let timeout = self.setup.timeout;
        let client = self.running()?;
        // Synchronised before `go` (the client pings first): whatever the engine printed
        // since its last search (such as a second `bestmove`) is read and discarded up to
        // `readyok`, never taken as a reply.
        let mut comment = None;
        let best = client
            .search(setup, go, timeout, deadline_after, &mut |info| {
                if let (Some((score, _)), Some(depth)) = (info.score, info.depth) {
                    comment = Some(format!("{}/{depth}", score_text(score)));
                }
            })
            .map_err(|fault| match fault.kind {
                FaultKind::NoMove => Fault::new(FaultKind::NoMove, what),
                _ => fault,
            })?;
        Ok(Reply {
            text: best.square.map_or("(none)".to_string(), |s| s.to_string()),
            square: best.square,
            elapsed: best.elapsed,
            comment,
        })
    }

    fn finish(&mut self, faulty: bool) {
        if faulty {
            // Killed now; a fresh process starts with the next game.
            self.client = None;
        }
    }
}

impl Drop for ProcessPlayer {
    fn drop(&mut self) {
        if let Some(client) = self.client.take() {
            client.quit();
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

/// A score as game records show it: `+0.35` in pawns, or `+M5` / `-M4` for a proven result in plies.
pub fn score_text(score: Score) -> String {
    match score {
        Score::Cp(cp) => format!("{:+.2}", f64::from(cp) / 100.0),
        Score::Mate(n) if n >= 0 => format!("+M{n}"),
        Score::Mate(n) => format!("-M{}", -n),
    }
}
