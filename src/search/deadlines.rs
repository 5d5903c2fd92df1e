//! The deadlines and node budget of one search, worked out from its limits and the
//! size of the region the snail can still reach.

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use crate::board::{Position, Word};

use super::engine::Engine;
use super::limits::Limits;
use super::prover::Budget;
use super::reduced::reachable_region;
use super::timeman;

/// The deadlines and budgets of one search.
pub(super) struct Deadlines {
    pub started: Instant,
    pub soft: Option<Instant>,
    pub hard: Option<Instant>,
    pub nodes: u64,
}

impl Deadlines {
    pub fn new<W: Word>(engine: &Engine, position: &Position<W>, limits: &Limits) -> Deadlines {
        let started = Instant::now();
        let region = reachable_region(position.geometry(), position.open(), position.snail());
        let plan = timeman::plan(
            &limits.time,
            position.side_to_move(),
            region.len() / 2 + 1,
            Duration::from_millis(engine.options.move_overhead_ms),
        );
        Deadlines {
            started,
            soft: plan.soft.map(|d| started + d),
            hard: plan.hard.map(|d| started + d),
            nodes: limits.nodes.unwrap_or(u64::MAX),
        }
    }

    /// A budget for `nodes` more nodes, bounded by the hard deadline.
    pub fn budget<'a>(&self, stop: &'a AtomicBool, nodes: u64) -> Budget<'a> {
        Budget::new(stop, self.hard, nodes)
    }

    pub fn past_soft(&self) -> bool {
        self.soft.is_some_and(|t| Instant::now() >= t)
    }

    pub fn past_hard(&self) -> bool {
        self.hard.is_some_and(|t| Instant::now() >= t)
    }
}
