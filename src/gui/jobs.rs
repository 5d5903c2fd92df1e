//! The engine's seat at a session: its process and the searches asked of it, one at a
//! time: the engine's move, a hint, live analysis (`go infinite`) and, once the analysis
//! proves the position, one short search per legal move for the verdict. A search that
//! became stale (the game changed) is stopped and its `bestmove` ignored. The engine is
//! never trusted: its move is checked by the session against the rules, and a crash, a
//! hang or an illegal move takes it down with a message for the page, keeping the game.
//!
//! Nothing here polls: the engine's output arrives as events ([`EngineSeat::on_event`]),
//! and the only clock is the deadline of the search running ([`EngineSeat::next_deadline`]).

use std::time::{Duration, Instant};

use crate::board::{Position, Square};
use crate::client::{EngineClient, EngineEvent};
use crate::protocol::{Bound, GoArgs, Message, PositionBase, PositionSetup, Score};

use super::game::{Controller, Game};
use super::view::{MoveValue, Thinking, verdict_words};

/// Time past a search's own limit before the engine counts as hung.
const HANG_GRACE: Duration = Duration::from_secs(5);
/// Time from `stop` to `bestmove` before the engine counts as hung.
const STOP_GRACE: Duration = Duration::from_secs(3);
/// How often an endless search is pinged with `isready`.
const PING_EVERY: Duration = Duration::from_secs(2);
/// Time for `readyok` before the engine counts as hung.
const PING_GRACE: Duration = Duration::from_secs(5);
/// Time for each move's check of the verdict.
const VERDICT_MOVETIME: u64 = 300;
/// Time limit of a hint or verdict search limited only by depth or nodes.
const UNTIMED_LIMIT: Duration = Duration::from_secs(30);

/// What a search is for.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Purpose {
    /// The engine's move in the game.
    Move,
    /// A hint for the human to move.
    Hint,
    /// Live analysis until stopped or proven.
    Analysis,
    /// One move's value for the verdict.
    Verdict(Square),
}

impl Purpose {
    fn words(self) -> &'static str {
        match self {
            Purpose::Move => "engine move",
            Purpose::Hint => "hint",
            Purpose::Analysis => "analysis",
            Purpose::Verdict(_) => "verdict",
        }
    }
}

/// The search running on the engine.
#[derive(Debug)]
struct EngineTask {
    purpose: Purpose,
    generation: u64,
    /// The searched position.
    position: Position,
    /// Past this, no `bestmove` means a hang.
    deadline: Option<Instant>,
    stop_sent: Option<Instant>,
    ping_sent: Option<Instant>,
    last_ping: Instant,
    /// The last score reported.
    score: Option<(Score, Bound)>,
}

impl EngineTask {
    /// When the engine counts as hung unless it answers, or a ping is due.
    fn next_deadline(&self) -> Option<Instant> {
        let mut times = vec![];
        times.extend(self.stop_sent.map(|t| t + STOP_GRACE));
        times.extend(self.deadline);
        times.extend(self.ping_sent.map(|t| t + PING_GRACE));
        if self.deadline.is_none() && self.ping_sent.is_none() {
            times.push(self.last_ping + PING_EVERY);
        }
        times.into_iter().min()
    }
}

/// A proven value of the current position, and the checks of its moves.
#[derive(Clone, Debug)]
pub struct Proof {
    generation: u64,
    /// Mate in plies from the side to move: positive wins, negative loses.
    mate: i32,
    checked: Vec<(Square, MoveValue)>,
    to_check: Vec<Square>,
}

impl Proof {
    /// The verdict in words for the page, about `position` with `mover` to play it.
    pub fn words(&self, position: &Position, mover: Controller) -> String {
        let moves: Vec<(String, MoveValue)> = self
            .checked
            .iter()
            .map(|&(sq, v)| (position.name(sq), v))
            .collect();
        verdict_words(
            self.mate,
            position.side_to_move(),
            mover,
            &moves,
            !self.to_check.is_empty(),
        )
    }
}

/// The engine process of a session.
pub enum EngineSlot {
    /// Its start-up runs on another thread.
    Starting,
    /// It runs; its output comes as events tagged with its serial number.
    Ready(Box<EngineClient>),
    /// It crashed, hung or could not start: why, for the page.
    Down(String),
}

/// What the session asks of the engine now: the game and its settings.
pub struct Wanted<'a> {
    /// The game.
    pub game: &'a Game,
    /// Who plays the side to move.
    pub mover: Controller,
    /// The engine's strength for its own moves.
    pub level: u32,
    /// Its time per move, in milliseconds.
    pub movetime: u64,
    /// Whether live analysis is on.
    pub analysis: bool,
    /// The game's generation: a search of an older one is stale.
    pub generation: u64,
}

/// What an engine event meant for the session.
#[derive(Debug, PartialEq, Eq)]
pub enum Happened {
    /// Nothing the page sees.
    Nothing,
    /// The state changed.
    Changed,
    /// Only the thinking changed (published at most ten times a second).
    Thinking,
    /// The engine chose its move in the game: the name it gave, unchecked.
    Move(String),
    /// A hint came: the move, or none.
    Hint(Option<String>),
}

/// The engine and its searches.
pub struct EngineSeat {
    /// The process.
    pub slot: EngineSlot,
    /// The engine's name, as it gave it.
    pub name: String,
    /// The serial number of the process now in the slot; events of older ones are dropped.
    pub serial: u64,
    /// The range of the engine's `Level` option (`None` inside: it has none), once it
    /// started.
    pub levels: Option<Option<(i64, i64)>>,
    task: Option<EngineTask>,
    hint_wanted: Option<GoArgs>,
    /// The engine's latest thinking about the game.
    pub thinking: Option<Thinking>,
    /// What live analysis proved about the current position.
    pub proof: Option<Proof>,
}

impl EngineSeat {
    /// A seat whose engine is starting.
    pub fn new(name: String) -> EngineSeat {
        EngineSeat {
            slot: EngineSlot::Starting,
            name,
            serial: 0,
            levels: None,
            task: None,
            hint_wanted: None,
            thinking: None,
            proof: None,
        }
    }

    /// Whether a search runs.
    pub fn busy(&self) -> bool {
        self.task.is_some()
    }

    /// A new process is starting: any search of the old one is forgotten.
    pub fn starting(&mut self) {
        self.slot = EngineSlot::Starting;
        self.serial += 1;
        self.task = None;
    }

    /// The game changed: what was thought about the old one goes.
    pub fn forget(&mut self) {
        self.hint_wanted = None;
        self.thinking = None;
        self.proof = None;
    }

    /// A hint is wanted under these limits.
    pub fn want_hint(&mut self, go: GoArgs) {
        self.hint_wanted = Some(go);
    }

    /// Live analysis was turned off.
    pub fn analysis_off(&mut self) {
        self.thinking = None;
    }

    /// The engine is gone or useless: it is killed (dropping it kills its process
    /// group), the page told why; the game stays.
    pub fn down(&mut self, why: String) {
        log::warn!("engine down: {why}");
        self.slot = EngineSlot::Down(why);
        self.task = None;
    }

    /// Starts the next search if the engine is free, and stops a stale one; whether
    /// the state changed.
    pub fn schedule(&mut self, wanted: &Wanted) -> bool {
        if let Some(task) = &self.task {
            if task.stop_sent.is_none() && self.is_stale(task, wanted) {
                return self.send_stop();
            }
            return false;
        }
        let EngineSlot::Ready(engine) = &self.slot else {
            return false;
        };
        let max_level = max_level(engine);
        let position = wanted.game.position();
        if position.outcome().is_over() {
            return false;
        }
        let (purpose, level, go, target) = if wanted.mover == Controller::Engine {
            let go = GoArgs {
                movetime: Some(wanted.movetime),
                ..GoArgs::default()
            };
            (Purpose::Move, wanted.level, go, position)
        } else if let Some(go) = self.hint_wanted.take() {
            (Purpose::Hint, max_level, go, position)
        } else if wanted.analysis {
            match &mut self.proof {
                None => {
                    let go = GoArgs {
                        infinite: true,
                        ..GoArgs::default()
                    };
                    (Purpose::Analysis, max_level, go, position)
                }
                Some(proof) => match proof.to_check.pop() {
                    Some(square) => {
                        let go = GoArgs {
                            movetime: Some(VERDICT_MOVETIME),
                            ..GoArgs::default()
                        };
                        let after = position.after(square);
                        (Purpose::Verdict(square), max_level, go, after)
                    }
                    None => return false,
                },
            }
        } else {
            return false;
        };
        let size = position.size();
        let mut moves: Vec<_> = wanted
            .game
            .moves()
            .iter()
            .map(|&sq| size.name(sq))
            .collect();
        if let Purpose::Verdict(square) = purpose {
            moves.push(size.name(square));
        }
        let setup = PositionSetup {
            base: PositionBase::Fen(wanted.game.start()),
            moves,
        };
        let limit = go
            .movetime
            .map(Duration::from_millis)
            .or((!go.infinite).then_some(UNTIMED_LIMIT));
        let EngineSlot::Ready(engine) = &mut self.slot else {
            return false;
        };
        let sent = engine
            .set_level(level)
            .and_then(|()| engine.send(&[Message::Position(setup), Message::Go(go)]));
        if let Err(e) = sent {
            self.down(format!("the engine {e}"));
            return true;
        }
        let now = Instant::now();
        self.task = Some(EngineTask {
            purpose,
            generation: wanted.generation,
            position: target,
            deadline: limit.map(|l| now + l + HANG_GRACE),
            stop_sent: None,
            ping_sent: None,
            last_ping: now,
            score: None,
        });
        if !matches!(purpose, Purpose::Verdict(_)) {
            self.thinking = None;
        }
        true
    }

    /// Whether a search's result is no longer wanted.
    fn is_stale(&self, task: &EngineTask, wanted: &Wanted) -> bool {
        task.generation != wanted.generation
            || (task.purpose == Purpose::Analysis
                && (!wanted.analysis || self.hint_wanted.is_some()))
            || (matches!(task.purpose, Purpose::Verdict(_)) && !wanted.analysis)
    }

    /// `stop` to the engine, for the search running now; `keep_thinking` keeps the
    /// analysis shown.
    pub fn stop_search(&mut self, keep_thinking: bool) -> bool {
        let changed = if self.task.as_ref().is_some_and(|t| t.stop_sent.is_none()) {
            self.send_stop()
        } else {
            false
        };
        if !keep_thinking {
            self.thinking = None;
        }
        changed
    }

    /// Sends `stop`; whether the engine went down.
    fn send_stop(&mut self) -> bool {
        let EngineSlot::Ready(engine) = &mut self.slot else {
            return false;
        };
        if let Err(e) = engine.stop() {
            self.down(format!("the engine {e}"));
            return true;
        }
        if let Some(task) = &mut self.task {
            task.stop_sent = Some(Instant::now());
        }
        false
    }

    /// When [`EngineSeat::check_time`] has something to do: a hang or a ping due.
    pub fn next_deadline(&self) -> Option<Instant> {
        self.task.as_ref().and_then(EngineTask::next_deadline)
    }

    /// One piece of the engine's output, of the game in its `generation`.
    pub fn on_event(&mut self, event: EngineEvent, generation: u64) -> Happened {
        let EngineSlot::Ready(engine) = &mut self.slot else {
            return Happened::Nothing;
        };
        match event {
            EngineEvent::Closed => {
                let report = engine.exit_report();
                self.down(format!(
                    "the engine crashed: {report}; restart the engine to go on"
                ));
                Happened::Changed
            }
            EngineEvent::Garbage { line, error } => {
                log::warn!("the engine sent a line that is no protocol message: {line}: {error}");
                Happened::Nothing
            }
            EngineEvent::TooLong { start } => {
                log::warn!(
                    "the engine sent a line that is no protocol message: {start}…: the line \
                     is too long: expected a protocol message of at most 64 KiB"
                );
                Happened::Nothing
            }
            EngineEvent::Message(message, _) => self.on_message(message, generation),
        }
    }

    fn on_message(&mut self, message: Message, generation: u64) -> Happened {
        let Some(task) = &mut self.task else {
            return Happened::Nothing;
        };
        match message {
            Message::ReadyOk => {
                task.ping_sent = None;
                Happened::Nothing
            }
            Message::Info(info) => {
                if info.score.is_some() {
                    task.score = info.score;
                }
                if task.generation != generation || info.depth.is_none() {
                    return Happened::Nothing;
                }
                let proven = match (task.purpose, info.score) {
                    (Purpose::Analysis, Some(score)) => proven_mate(score),
                    _ => None,
                };
                let mut happened = Happened::Nothing;
                if !matches!(task.purpose, Purpose::Verdict(_)) {
                    self.thinking = Some(Thinking {
                        depth: info.depth,
                        score: info.score,
                        pv: info.pv.iter().map(ToString::to_string).collect(),
                        nodes: info.nodes,
                        side: task.position.side_to_move(),
                        purpose: task.purpose.words(),
                    });
                    happened = Happened::Thinking;
                }
                if let Some(mate) = proven {
                    let to_check: Vec<Square> = if mate > 0 {
                        let mut moves: Vec<Square> = task.position.moves().iter().collect();
                        moves.reverse();
                        moves
                    } else {
                        Vec::new()
                    };
                    self.proof = Some(Proof {
                        generation,
                        mate,
                        checked: Vec::new(),
                        to_check,
                    });
                    self.send_stop();
                    happened = Happened::Changed;
                }
                happened
            }
            Message::BestMove(square) => {
                let Some(task) = self.task.take() else {
                    return Happened::Nothing;
                };
                if task.generation != generation {
                    return Happened::Changed;
                }
                self.finished(task, square.map(|s| s.to_string()))
            }
            _ => Happened::Nothing,
        }
    }

    /// A search ended with `bestmove`.
    fn finished(&mut self, task: EngineTask, best: Option<String>) -> Happened {
        match task.purpose {
            Purpose::Move => match best {
                Some(name) => Happened::Move(name),
                None => {
                    self.down(
                        "the engine answered bestmove (none) in a position with legal moves; \
                         restart the engine to go on"
                            .to_string(),
                    );
                    Happened::Changed
                }
            },
            Purpose::Hint => Happened::Hint(best),
            Purpose::Analysis => Happened::Changed,
            Purpose::Verdict(square) => {
                let value = match task.score.and_then(proven_mate) {
                    Some(n) if n <= 0 => MoveValue::Wins,
                    Some(_) => MoveValue::Loses,
                    _ if task.position.outcome().winner()
                        == Some(!task.position.side_to_move()) =>
                    {
                        MoveValue::Wins
                    }
                    _ => MoveValue::Unknown,
                };
                if let Some(proof) = &mut self.proof {
                    if proof.generation == task.generation {
                        proof.checked.push((square, value));
                        let size = task.position.size();
                        proof
                            .checked
                            .sort_by_key(|&(sq, _)| (size.file(sq), size.rank(sq)));
                    }
                }
                Happened::Changed
            }
        }
    }

    /// A hang (no `bestmove` in time, no `readyok` to a ping) takes the engine down; a
    /// ping due is sent. Whether the state changed.
    pub fn check_time(&mut self, now: Instant) -> bool {
        let Some(task) = &mut self.task else {
            return false;
        };
        let hung = if task.stop_sent.is_some_and(|t| now >= t + STOP_GRACE) {
            Some(format!(
                "the engine stopped answering: no bestmove within {} s of stop",
                STOP_GRACE.as_secs()
            ))
        } else if task.deadline.is_some_and(|d| now >= d) {
            Some(format!(
                "the engine stopped answering: no bestmove within {} s past its time",
                HANG_GRACE.as_secs()
            ))
        } else if task.ping_sent.is_some_and(|t| now >= t + PING_GRACE) {
            Some(format!(
                "the engine stopped answering: no readyok to isready within {} s",
                PING_GRACE.as_secs()
            ))
        } else {
            None
        };
        if let Some(why) = hung {
            self.down(format!("{why}; restart the engine to go on"));
            return true;
        }
        let ping_due = task.deadline.is_none()
            && task.ping_sent.is_none()
            && now >= task.last_ping + PING_EVERY;
        if ping_due {
            task.ping_sent = Some(now);
            task.last_ping = now;
            if let EngineSlot::Ready(engine) = &mut self.slot {
                if let Err(e) = engine.send(&[Message::IsReady]) {
                    self.down(format!("the engine {e}"));
                    return true;
                }
            }
        }
        false
    }
}

/// The highest level the engine offers: the top of its `Level` range, 10 without one.
fn max_level(engine: &EngineClient) -> u32 {
    engine
        .level_range()
        .map_or(10, |(_, max)| max.clamp(1, 1000) as u32)
}

/// The mate distance of a score that proves the result: an exact mate, a win that may be
/// faster (`lowerbound`) or a loss that may be slower (`upperbound`).
fn proven_mate((score, bound): (Score, Bound)) -> Option<i32> {
    match (score, bound) {
        (Score::Mate(n), Bound::Exact) => Some(n),
        (Score::Mate(n), Bound::Lower) if n > 0 => Some(n),
        (Score::Mate(n), Bound::Upper) if n < 0 => Some(n),
        _ => None,
    }
}
