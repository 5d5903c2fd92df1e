//! The engine core: options, search state, and the entry points `search` and `solve`.
//!
//! It knows nothing about text protocols: progress is reported through a callback.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::board::{Position, Square};

use super::limits::{Limits, TimeControl};
use super::report::{Bound, Score, SearchInfo, SearchOutcome, SolveOutcome, Verdict};

/// The allowed range and default of a numeric engine option.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct OptionRange {
    /// Smallest value.
    pub min: i64,
    /// Largest value.
    pub max: i64,
    /// Value of a new engine.
    pub default: i64,
}

/// Transposition-table size in MiB.
pub const HASH_MB: OptionRange = OptionRange {
    min: 1,
    max: 65536,
    default: 64,
};
/// Search threads.
pub const THREADS: OptionRange = OptionRange {
    min: 1,
    max: 64,
    default: 1,
};
/// Playing strength: 1 is a beginner, the maximum is full strength.
pub const LEVEL: OptionRange = OptionRange {
    min: 1,
    max: 10,
    default: 10,
};
/// Time kept in reserve per move for communication delays, in milliseconds.
pub const MOVE_OVERHEAD_MS: OptionRange = OptionRange {
    min: 0,
    max: 5000,
    default: 10,
};

/// The settings of an engine.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct EngineOptions {
    /// Transposition-table size in MiB.
    pub hash_mb: usize,
    /// Search threads.
    pub threads: usize,
    /// Playing strength, from [`LEVEL`]`.min` to [`LEVEL`]`.max` (full strength).
    pub level: u32,
    /// Time kept in reserve per move, in milliseconds.
    pub move_overhead_ms: u64,
}

impl Default for EngineOptions {
    fn default() -> Self {
        EngineOptions {
            hash_mb: HASH_MB.default as usize,
            threads: THREADS.default as usize,
            level: LEVEL.default as u32,
            move_overhead_ms: MOVE_OVERHEAD_MS.default as u64,
        }
    }
}

/// A static evaluation with the terms it is made of.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Evaluation {
    /// The total, in centipoints, from the side to move's point of view.
    pub score: i32,
    /// Named contributions to the total.
    pub terms: Vec<(&'static str, i32)>,
}

/// The engine core.
pub struct Engine {
    options: EngineOptions,
}

const MATE: i32 = 1_000_000;

impl Engine {
    /// A new engine with the given options.
    pub fn new(options: EngineOptions) -> Engine {
        Engine { options }
    }

    /// The current options.
    pub fn options(&self) -> EngineOptions {
        self.options
    }

    /// Changes the options; takes effect from the next search.
    pub fn set_options(&mut self, options: EngineOptions) {
        self.options = options;
    }

    /// Forgets everything learned in the previous game.
    pub fn new_game(&mut self) {}

    /// The static evaluation of a position, with its terms.
    pub fn evaluate(&self, position: &Position) -> Evaluation {
        let mobility = position.moves().len() as i32;
        Evaluation {
            score: mobility * 10,
            terms: vec![("mobility", mobility * 10)],
        }
    }

    /// Searches `position` within `limits` until done or `stop` is set, reporting progress.
    pub fn search(
        &mut self,
        position: &Position,
        limits: &Limits,
        stop: &AtomicBool,
        report: &mut dyn FnMut(&SearchInfo),
    ) -> SearchOutcome {
        let started = Instant::now();
        let deadline = match limits.time {
            TimeControl::MoveTime(t) => Some(started + t),
            TimeControl::Clock { .. } => {
                let (left, inc) = limits
                    .time
                    .clock_of(position.side_to_move())
                    .unwrap_or((Duration::ZERO, Duration::ZERO));
                Some(started + left / 20 + inc / 2)
            }
            TimeControl::Unlimited => None,
        };
        let mut ctx = Plain {
            nodes: 0,
            node_limit: limits.nodes.unwrap_or(u64::MAX),
            deadline,
            stop,
            aborted: false,
        };
        let moves: Vec<Square> = position.moves().iter().collect();
        let mut best = SearchOutcome {
            best_move: moves.first().copied(),
            info: SearchInfo::default(),
        };
        let max_depth = limits
            .depth
            .unwrap_or(u32::MAX)
            .min(position.size().squares() as u32);
        for depth in 1..=max_depth.max(1) {
            let mut alpha = -MATE - 1;
            let mut best_move = None;
            let mut pv = Vec::new();
            for &m in &moves {
                let mut child_pv = Vec::new();
                let score = -ctx.negamax(
                    &position.after(m),
                    depth - 1,
                    -MATE - 1,
                    -alpha,
                    1,
                    &mut child_pv,
                );
                if ctx.aborted {
                    break;
                }
                if score > alpha {
                    alpha = score;
                    best_move = Some(m);
                    pv = std::iter::once(m).chain(child_pv).collect();
                }
            }
            if ctx.aborted {
                break;
            }
            let score = if alpha.abs() > MATE - 1000 {
                Score::Mate(if alpha > 0 {
                    MATE - alpha
                } else {
                    -(MATE + alpha)
                })
            } else {
                Score::Cp(alpha)
            };
            best = SearchOutcome {
                best_move,
                info: SearchInfo {
                    depth,
                    seldepth: depth,
                    score: Some(score),
                    bound: Bound::Exact,
                    nodes: ctx.nodes,
                    time: started.elapsed(),
                    hashfull: 0,
                    pv,
                },
            };
            report(&best.info);
            if score.is_mate() {
                break;
            }
        }
        best.info.nodes = ctx.nodes;
        best.info.time = started.elapsed();
        best
    }

    /// Tries to prove the value of `position`, within `limits`.
    pub fn solve(
        &mut self,
        position: &Position,
        limits: &Limits,
        stop: &AtomicBool,
        report: &mut dyn FnMut(&SearchInfo),
    ) -> SolveOutcome {
        let outcome = self.search(position, limits, stop, report);
        let verdict = match outcome.info.score {
            Some(Score::Mate(n)) if n > 0 => Some(Verdict::Win),
            Some(Score::Mate(_)) => Some(Verdict::Loss),
            _ => None,
        };
        SolveOutcome {
            verdict,
            best_move: outcome.best_move,
            length: match outcome.info.score {
                Some(Score::Mate(n)) => Some(n.unsigned_abs()),
                _ => None,
            },
            info: outcome.info,
        }
    }
}

/// Placeholder plain alpha-beta, to be replaced by the real search.
struct Plain<'a> {
    nodes: u64,
    node_limit: u64,
    deadline: Option<Instant>,
    stop: &'a AtomicBool,
    aborted: bool,
}

impl Plain<'_> {
    fn negamax(
        &mut self,
        pos: &Position,
        depth: u32,
        mut alpha: i32,
        beta: i32,
        ply: i32,
        pv: &mut Vec<Square>,
    ) -> i32 {
        self.nodes += 1;
        if self.nodes >= self.node_limit
            || (self.nodes % 1024 == 0
                && (self.stop.load(Ordering::Relaxed)
                    || self.deadline.is_some_and(|d| Instant::now() >= d)))
        {
            self.aborted = true;
            return 0;
        }
        if let Some(owner) = pos.goal_reached() {
            return if owner == pos.side_to_move() {
                MATE - ply
            } else {
                -(MATE - ply)
            };
        }
        let moves = pos.moves();
        if moves.is_empty() {
            return -(MATE - ply);
        }
        if depth == 0 {
            return moves.len() as i32 * 10;
        }
        for m in moves {
            let mut child_pv = Vec::new();
            let score = -self.negamax(
                &pos.after(m),
                depth - 1,
                -beta,
                -alpha,
                ply + 1,
                &mut child_pv,
            );
            if self.aborted {
                return 0;
            }
            if score > alpha {
                alpha = score;
                pv.clear();
                pv.push(m);
                pv.extend(child_pv);
                if alpha >= beta {
                    break;
                }
            }
        }
        alpha
    }
}
