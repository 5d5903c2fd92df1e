//! [`ProofSettings`]: what the split and the shards prove with, and the one proof of
//! a position that makes a [`Record`].

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use super::results::{Record, verdict_name};
use super::tree::canonical;
use crate::board::Position;
use crate::search::{Engine, EngineOptions, Limits, TimeControl, Verdict};

/// What the shards and the split prove with: table, threads, per-position limits.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProofSettings {
    /// Table size in MiB.
    pub hash_mb: u64,
    /// Proof threads.
    pub threads: u64,
    /// Node limit of each sub-problem.
    pub nodes: Option<u64>,
    /// Time limit of each sub-problem.
    pub time: Option<Duration>,
    /// Node limit of the first of passes with eight times the nodes each.
    pub first_nodes: Option<u64>,
}

impl ProofSettings {
    /// A proof engine with these threads and a table of `hash_mb` MiB.
    pub(super) fn engine(&self, hash_mb: u64) -> Engine {
        Engine::new(EngineOptions {
            hash_mb: hash_mb as usize,
            threads: self.threads as usize,
            huge_pages: true,
            ..EngineOptions::default()
        })
    }

    /// The node limits of the passes over the sub-problems: one pass within
    /// `nodes`, or with `first_nodes`, passes of eight times the nodes each until
    /// that limit.
    pub fn passes(&self) -> Vec<Option<u64>> {
        let mut passes = Vec::new();
        if let Some(mut n) = self.first_nodes {
            while self.nodes.is_none_or(|last| n < last) {
                passes.push(Some(n));
                n = n.saturating_mul(8);
                if n == u64::MAX {
                    break;
                }
            }
        }
        passes.push(self.nodes);
        passes
    }

    /// The limits of one sub-problem: the time limit and the node limit.
    pub fn limits(&self) -> Limits {
        let mut limits = Limits::default();
        if let Some(time) = self.time {
            limits.time = TimeControl::MoveTime(time);
        }
        limits.nodes = self.nodes;
        limits
    }

    /// The time limit in whole milliseconds, as records give it.
    pub fn limit_ms(&self) -> Option<u64> {
        self.time.map(|t| t.as_millis() as u64)
    }
}

/// Proves `position` within `limits` and makes a record of it by `by`.
pub(super) fn prove(
    engine: &mut Engine,
    position: &Position,
    limits: &Limits,
    settings: &ProofSettings,
    stop: &AtomicBool,
    by: &str,
) -> Record {
    // The record names the canonical position: its move must be of that position.
    let name = canonical(position);
    let position: Position = name.parse().unwrap_or(*position);
    let position = &position;
    let outcome = engine.prove(position, limits, stop, &mut |_| {});
    let winning = outcome
        .best_move
        .filter(|_| outcome.verdict == Some(Verdict::Win));
    Record {
        position: name,
        verdict: outcome.verdict.map(|v| verdict_name(v).to_string()),
        best_move: winning.map(|square| position.name(square)),
        nodes: outcome.proof_nodes,
        time_ms: outcome.proof_time.as_secs_f64() * 1000.0,
        limit_nodes: limits.nodes,
        limit_ms: settings.limit_ms(),
        by: by.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings(nodes: Option<u64>, first_nodes: Option<u64>) -> ProofSettings {
        ProofSettings {
            nodes,
            first_nodes,
            ..crate::proof::testing::small_settings()
        }
    }

    #[test]
    fn passes_grow_eightfold_up_to_the_node_limit() {
        assert_eq!(settings(None, None).passes(), [None]);
        assert_eq!(settings(Some(500), None).passes(), [Some(500)]);
        assert_eq!(
            settings(Some(5000), Some(50)).passes(),
            [Some(50), Some(400), Some(3200), Some(5000)]
        );
        // A first pass at or above the limit is the limit alone.
        assert_eq!(
            settings(Some(3200), Some(400)).passes(),
            [Some(400), Some(3200)]
        );
        assert_eq!(settings(Some(100), Some(100)).passes(), [Some(100)]);
        assert_eq!(settings(Some(100), Some(200)).passes(), [Some(100)]);
        // Without a limit, passes until the node counts run out, then none.
        let passes = settings(None, Some(1 << 60)).passes();
        assert_eq!(passes, [Some(1 << 60), Some(1 << 63), None]);
    }

    #[test]
    fn the_limits_of_a_sub_problem_are_its_nodes_and_time() {
        let mut s = settings(Some(77), None);
        s.time = Some(Duration::from_millis(1500));
        let limits = s.limits();
        assert_eq!(limits.nodes, Some(77));
        assert!(
            matches!(limits.time, TimeControl::MoveTime(t) if t == Duration::from_millis(1500))
        );
        assert_eq!(s.limit_ms(), Some(1500));
        assert_eq!(settings(None, None).limit_ms(), None);
    }

    #[test]
    fn a_record_names_the_canonical_position_and_its_winning_move() {
        // 3x3, player 2 to move on b2 next to its goal c3, b1 slimed; of the
        // position and its mirror image (a2 slimed) it names the smaller string.
        let position: Position = "3/1s1/1x1 2".parse().unwrap();
        assert_eq!(position.mirrored().to_string(), "3/xs1/3 2");
        let name = canonical(&position);
        let settings = settings(None, None);
        let mut engine = settings.engine(1);
        let limits = settings.limits();
        let record = prove(
            &mut engine,
            &position,
            &limits,
            &settings,
            &AtomicBool::new(false),
            "2/5",
        );
        assert_eq!(record.position, name);
        assert_eq!(name, "3/1s1/1x1 2");
        assert_eq!(record.verdict.as_deref(), Some("win"));
        assert_eq!(record.best_move.as_deref(), Some("c3"));
        assert_eq!(record.by, "2/5");
        assert_eq!((record.limit_nodes, record.limit_ms), (None, None));
    }
}
