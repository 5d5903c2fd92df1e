//! The direct proof of one position: the proof search within the limits, and
//! when it does not finish, the summary of what is known and a best guess; all of
//! it as one [`SolveReport`].

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use super::settings::ProofSettings;
use super::solve_report::{SolveReport, Status};
use crate::board::Position;
use crate::search::{Limits, SearchInfo, TimeControl};

/// Most time the best guess of an unfinished proof may take.
const GUESS_TIME_MAX: Duration = Duration::from_millis(500);
/// Least time the best guess of an unfinished proof is given.
const GUESS_TIME_MIN: Duration = Duration::from_millis(20);
/// Time of the best guess after a stop request: whoever made it is waiting.
const GUESS_TIME_INTERRUPTED: Duration = Duration::from_millis(200);

/// Proves `position` with `settings` (the table, the threads, and the node and
/// time limits of the whole proof), stopping early when `stop` is set. `progress`
/// gets the proof's progress reports. When the proof does not finish, the report
/// says what is known: the moves proven to win or lose, and a best guess from a
/// short scored search (on a flag of its own after a stop, so that a second stop
/// request may end the process at once).
pub fn solve(
    position: &Position,
    settings: &ProofSettings,
    stop: &AtomicBool,
    progress: &mut dyn FnMut(&SearchInfo),
) -> SolveReport {
    let mut limits = Limits::default();
    if let Some(time) = settings.time {
        limits.time = TimeControl::MoveTime(time);
    }
    limits.nodes = settings.nodes;
    let mut engine = settings.engine(settings.hash_mb);
    let started = Instant::now();
    let outcome = engine.solve(position, &limits, stop, progress);
    let interrupted = stop.load(Ordering::SeqCst);
    let status = status(
        outcome.verdict.is_some(),
        interrupted,
        settings,
        outcome.proof_nodes,
    );
    let partial = outcome.verdict.is_none().then(|| {
        let guess = guess_limits(status, settings);
        let fresh = AtomicBool::new(false);
        let stop = if interrupted { &fresh } else { stop };
        engine.partial_proof(position, &guess, stop)
    });
    SolveReport::new(
        position,
        status,
        &outcome,
        partial.as_ref(),
        engine.table_megabytes(),
        started.elapsed(),
    )
}

/// How a proof of `proof_nodes` nodes with `settings` ended: `proven` or not,
/// `interrupted` or not.
fn status(proven: bool, interrupted: bool, settings: &ProofSettings, proof_nodes: u64) -> Status {
    if interrupted {
        Status::Interrupted
    } else if proven {
        Status::Proven
    } else if settings.nodes.is_some_and(|n| {
        // Each thread stops at its share of the nodes.
        settings.time.is_none() || proof_nodes + settings.threads >= n
    }) {
        Status::NodeLimit
    } else {
        Status::TimeLimit
    }
}

/// The limits of the scored search that picks a best guess when the proof did not
/// finish: a tenth of the proof's budget, within bounds.
fn guess_limits(status: Status, settings: &ProofSettings) -> Limits {
    match (status, settings.nodes) {
        (Status::NodeLimit, Some(nodes)) => Limits::nodes((nodes / 10).max(1_000)),
        (Status::Interrupted, _) => Limits::movetime(GUESS_TIME_INTERRUPTED),
        _ => {
            let seconds = settings.time.map_or(1.0, |t| t.as_secs_f64());
            let tenth = Duration::from_secs_f64(seconds / 10.0);
            Limits::movetime(tenth.clamp(GUESS_TIME_MIN, GUESS_TIME_MAX))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings(nodes: Option<u64>, time_ms: Option<u64>, threads: u64) -> ProofSettings {
        ProofSettings {
            threads,
            nodes,
            time: time_ms.map(Duration::from_millis),
            ..crate::proof::testing::small_settings()
        }
    }

    #[test]
    fn the_status_says_why_the_proof_ended() {
        let node_limit = settings(Some(1000), None, 1);
        assert_eq!(status(true, false, &node_limit, 10), Status::Proven);
        assert_eq!(status(true, true, &node_limit, 10), Status::Interrupted);
        assert_eq!(status(false, true, &node_limit, 10), Status::Interrupted);
        // A node limit alone: it ran out.
        assert_eq!(status(false, false, &node_limit, 10), Status::NodeLimit);
        // Both limits: the node limit ran out if the nodes reached it (each of the
        // threads may stop one short of its share), else the time limit did.
        let both = settings(Some(1000), Some(500), 2);
        assert_eq!(status(false, false, &both, 998), Status::NodeLimit);
        assert_eq!(status(false, false, &both, 997), Status::TimeLimit);
        assert_eq!(
            status(false, false, &settings(None, Some(500), 1), 10),
            Status::TimeLimit
        );
    }

    #[test]
    fn the_best_guess_gets_a_tenth_of_the_budget_within_bounds() {
        let nodes = |limits: Limits| limits.nodes;
        let movetime = |limits: Limits| match limits.time {
            TimeControl::MoveTime(t) => Some(t),
            _ => None,
        };
        let by_nodes = settings(Some(50_000), None, 1);
        assert_eq!(
            nodes(guess_limits(Status::NodeLimit, &by_nodes)),
            Some(5_000)
        );
        let few = settings(Some(500), None, 1);
        assert_eq!(nodes(guess_limits(Status::NodeLimit, &few)), Some(1_000));
        let interrupted = guess_limits(Status::Interrupted, &by_nodes);
        assert_eq!(movetime(interrupted), Some(Duration::from_millis(200)));
        let time = |ms| {
            movetime(guess_limits(
                Status::TimeLimit,
                &settings(None, Some(ms), 1),
            ))
        };
        assert_eq!(time(2_000), Some(Duration::from_millis(200)));
        assert_eq!(time(100), Some(Duration::from_millis(20)));
        assert_eq!(time(60_000), Some(Duration::from_millis(500)));
        // No time limit (the time ran out of a node-and-time budget, say): a tenth
        // of a second.
        let none = guess_limits(Status::TimeLimit, &settings(Some(10), None, 1));
        assert_eq!(movetime(none), Some(Duration::from_millis(100)));
    }

    #[test]
    fn a_small_board_is_proven_with_its_line_and_length() {
        let position: Position = "4/4/2s1/4 1".parse().unwrap();
        let settings = settings(None, None, 1);
        let report = solve(&position, &settings, &AtomicBool::new(false), &mut |_| {});
        let json = serde_json::to_value(&report).unwrap();
        assert_eq!(json["status"], "proven");
        assert_eq!(json["position"], "4/4/2s1/4 1");
        assert!(
            json["verdict"] == "win" || json["verdict"] == "loss",
            "{json}"
        );
        assert!(json["unfinished"].is_null(), "{json}");
        assert_eq!(json["length_exact"], true, "{json}");
        let text = report.to_string();
        assert!(text.contains("\ngame length under best play: "), "{text}");
        assert!(
            text.contains("total, with the line and the game length: "),
            "{text}"
        );
    }

    #[test]
    fn a_stopped_proof_reports_what_is_known() {
        let position: Position = "7/7/7/3s3/7/7/7 1".parse().unwrap();
        let settings = settings(None, None, 1);
        let report = solve(&position, &settings, &AtomicBool::new(true), &mut |_| {});
        let json = serde_json::to_value(&report).unwrap();
        assert_eq!(json["status"], "interrupted", "{json}");
        assert!(
            report.to_string().starts_with("interrupted (Ctrl-C) "),
            "{report}"
        );
    }
}
