//! The searches a session asks of its engine, one at a time: the engine's move, a hint,
//! live analysis (`go infinite`) and, once the analysis proves the position, one short
//! search per legal move for the verdict. A search that became stale (the game changed)
//! is stopped and its `bestmove` ignored. The engine is never trusted: its move is
//! checked by the rules, and a crash, a hang or an illegal move takes it down with a
//! message for the page, keeping the game.

use std::time::{Duration, Instant};

use crate::board::{Position, Square};
use crate::client::{EngineClient, EngineEvent};
use crate::protocol::{Bound, GoArgs, Message, PositionBase, PositionSetup, Score};

use super::game::Controller;
use super::session::{EngineSlot, Session};
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
pub enum Purpose {
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
pub struct Job {
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
    /// The verdict in words for the page.
    pub fn words(&self, session: &Session) -> String {
        let position = session.game.position();
        let moves: Vec<(String, MoveValue)> = self
            .checked
            .iter()
            .map(|&(sq, v)| (position.name(sq), v))
            .collect();
        verdict_words(
            self.mate,
            position.side_to_move(),
            session.mover(),
            &moves,
            !self.to_check.is_empty(),
        )
    }
}

impl Session {
    /// Starts the next search if the engine is free, and stops a stale one.
    pub(super) fn schedule(&mut self) {
        if let Some(job) = &self.job {
            if job.stop_sent.is_none() && self.is_stale(job) {
                self.send_stop();
            }
            return;
        }
        let EngineSlot::Ready(_) = self.engine else {
            return;
        };
        let position = self.game.position();
        if position.outcome().is_over() {
            return;
        }
        let max_level = match &self.engine {
            EngineSlot::Ready(engine) => max_level(engine),
            _ => 10,
        };
        let (purpose, level, go, target) = if self.mover() == Controller::Engine {
            let go = GoArgs {
                movetime: Some(self.movetime),
                ..GoArgs::default()
            };
            (Purpose::Move, self.level, go, position)
        } else if let Some(go) = self.hint_wanted.take() {
            (Purpose::Hint, max_level, go, position)
        } else if self.analysis {
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
                        (
                            Purpose::Verdict(square),
                            max_level,
                            go,
                            position.after(square),
                        )
                    }
                    None => return,
                },
            }
        } else {
            return;
        };
        let mut moves: Vec<_> = self
            .game
            .moves()
            .iter()
            .map(|&sq| position.size().name(sq))
            .collect();
        if let Purpose::Verdict(square) = purpose {
            moves.push(position.size().name(square));
        }
        let setup = PositionSetup {
            base: PositionBase::Fen(self.game.start()),
            moves,
        };
        let limit = go
            .movetime
            .map(Duration::from_millis)
            .or((!go.infinite).then_some(UNTIMED_LIMIT));
        let EngineSlot::Ready(engine) = &mut self.engine else {
            return;
        };
        let sent = engine
            .set_level(level)
            .and_then(|()| engine.send(&[Message::Position(setup), Message::Go(go)]));
        if let Err(e) = sent {
            self.engine_down(format!("the engine {e}"));
            return;
        }
        let now = Instant::now();
        self.job = Some(Job {
            purpose,
            generation: self.generation,
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
        self.dirty = true;
    }

    /// Whether a search's result is no longer wanted.
    fn is_stale(&self, job: &Job) -> bool {
        job.generation != self.generation
            || (job.purpose == Purpose::Analysis && (!self.analysis || self.hint_wanted.is_some()))
            || (matches!(job.purpose, Purpose::Verdict(_)) && !self.analysis)
    }

    /// `stop` to the engine, for the search running now.
    pub(super) fn stop_search(&mut self) {
        if self.job.as_ref().is_some_and(|j| j.stop_sent.is_none()) {
            self.send_stop();
        }
        if !self.analysis {
            self.thinking = None;
        }
    }

    fn send_stop(&mut self) {
        let EngineSlot::Ready(engine) = &mut self.engine else {
            return;
        };
        if let Err(e) = engine.stop() {
            self.engine_down(format!("the engine {e}"));
            return;
        }
        if let Some(job) = &mut self.job {
            job.stop_sent = Some(Instant::now());
        }
    }

    /// Reads what the engine said, and checks that it still answers.
    pub(super) fn pump(&mut self) {
        loop {
            let EngineSlot::Ready(engine) = &mut self.engine else {
                return;
            };
            match engine.try_recv() {
                None => break,
                Some(EngineEvent::Closed) => {
                    let report = engine.exit_report();
                    self.engine_down(format!(
                        "the engine crashed: {report}; restart the engine to go on"
                    ));
                    return;
                }
                Some(EngineEvent::Garbage { line, error }) => {
                    log::warn!(
                        "the engine sent a line that is no protocol message: {line}: {error}"
                    );
                }
                Some(EngineEvent::TooLong { start }) => {
                    log::warn!(
                        "the engine sent a line that is no protocol message: {start}…: the line \
                         is too long: expected a protocol message of at most 64 KiB"
                    );
                }
                Some(EngineEvent::Message(message, _)) => self.on_message(message),
            }
        }
        self.check_time();
    }

    fn on_message(&mut self, message: Message) {
        let Some(job) = &mut self.job else {
            return;
        };
        match message {
            Message::ReadyOk => job.ping_sent = None,
            Message::Info(info) => {
                if info.score.is_some() {
                    job.score = info.score;
                }
                let fresh = job.generation == self.generation;
                if !fresh || info.depth.is_none() {
                    return;
                }
                let proven = match (job.purpose, info.score) {
                    (Purpose::Analysis, Some(score)) => proven_mate(score),
                    _ => None,
                };
                if !matches!(job.purpose, Purpose::Verdict(_)) {
                    self.thinking = Some(Thinking {
                        depth: info.depth,
                        score: info.score,
                        pv: info.pv.iter().map(ToString::to_string).collect(),
                        nodes: info.nodes,
                        side: job.position.side_to_move(),
                        purpose: job.purpose.words(),
                    });
                    self.dirty_info = true;
                }
                if let Some(mate) = proven {
                    let to_check: Vec<Square> = if mate > 0 {
                        let mut moves: Vec<Square> = job.position.moves().iter().collect();
                        moves.reverse();
                        moves
                    } else {
                        Vec::new()
                    };
                    self.proof = Some(Proof {
                        generation: self.generation,
                        mate,
                        checked: Vec::new(),
                        to_check,
                    });
                    self.dirty = true;
                    self.send_stop();
                }
            }
            Message::BestMove(square) => {
                let Some(job) = self.job.take() else {
                    return;
                };
                self.dirty = true;
                if job.generation != self.generation {
                    return;
                }
                self.finished(job, square.map(|s| s.to_string()));
            }
            _ => {}
        }
    }

    /// A search ended with `bestmove`.
    fn finished(&mut self, job: Job, best: Option<String>) {
        match job.purpose {
            Purpose::Move => {
                let position = self.game.position();
                let Some(name) = best else {
                    self.engine_down(
                        "the engine answered bestmove (none) in a position with legal moves; \
                         restart the engine to go on"
                            .to_string(),
                    );
                    return;
                };
                let played = position
                    .parse_move(&name)
                    .map_err(|e| e.to_string())
                    .and_then(|sq| self.game.play(sq).map_err(|e| e.to_string()));
                match played {
                    Ok(()) => {
                        let side = position.side_to_move().number();
                        self.changed();
                        self.notice = Some(format!("The engine (player {side}) played {name}."));
                    }
                    Err(e) => self.engine_down(format!(
                        "the engine played the illegal move {name}: {e}; restart the engine to go on"
                    )),
                }
            }
            Purpose::Hint => {
                self.hint = best.clone();
                self.notice = Some(match best {
                    Some(name) => format!("Hint: {name}."),
                    None => "The engine has no hint.".to_string(),
                });
            }
            Purpose::Analysis => {}
            Purpose::Verdict(square) => {
                let value = match job.score.and_then(proven_mate) {
                    Some(n) if n <= 0 => MoveValue::Wins,
                    Some(_) => MoveValue::Loses,
                    _ if job.position.outcome().winner() == Some(!job.position.side_to_move()) => {
                        MoveValue::Wins
                    }
                    _ => MoveValue::Unknown,
                };
                if let Some(proof) = &mut self.proof {
                    if proof.generation == job.generation {
                        proof.checked.push((square, value));
                        proof.checked.sort_by_key(|&(sq, _)| {
                            let size = job.position.size();
                            (size.file(sq), size.rank(sq))
                        });
                    }
                }
            }
        }
    }

    /// A hang: no `bestmove` in time, or no `readyok` to a ping.
    fn check_time(&mut self) {
        let Some(job) = &mut self.job else {
            return;
        };
        let now = Instant::now();
        let hung = if job.stop_sent.is_some_and(|t| now > t + STOP_GRACE) {
            Some(format!(
                "the engine stopped answering: no bestmove within {} s of stop",
                STOP_GRACE.as_secs()
            ))
        } else if job.deadline.is_some_and(|d| now > d) {
            Some(format!(
                "the engine stopped answering: no bestmove within {} s past its time",
                HANG_GRACE.as_secs()
            ))
        } else if job.ping_sent.is_some_and(|t| now > t + PING_GRACE) {
            Some(format!(
                "the engine stopped answering: no readyok to isready within {} s",
                PING_GRACE.as_secs()
            ))
        } else {
            None
        };
        if let Some(why) = hung {
            self.engine_down(format!("{why}; restart the engine to go on"));
            return;
        }
        let ping_due = job.deadline.is_none()
            && job.ping_sent.is_none()
            && now.duration_since(job.last_ping) > PING_EVERY;
        if ping_due {
            job.ping_sent = Some(now);
            job.last_ping = now;
            if let EngineSlot::Ready(engine) = &mut self.engine {
                if let Err(e) = engine.send(&[Message::IsReady]) {
                    self.engine_down(format!("the engine {e}"));
                }
            }
        }
    }

    /// The engine is gone or useless: it is killed, the page told why; the game stays.
    pub(super) fn engine_down(&mut self, why: String) {
        log::warn!("engine down: {why}");
        // Dropping the engine kills its process group.
        self.engine = EngineSlot::Down(why);
        self.job = None;
        self.dirty = true;
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
