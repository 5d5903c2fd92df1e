//! `go` under its limits: the engine always plays the move of a completed scored
//! search, however short the time, and a depth limit leaves the proof search on.

use crate::common;

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use common::Engine as Driver;
use slimetrail::board::{Position, Size};
use slimetrail::search::{Engine, EngineOptions, Limits, Score};

/// Player 1 to move; g1 is safe but loses in two plies, e2 holds.
const TRAP: &str = "9/9/9/9/4x4/4xx1xx/6xxx/5xxxx/4xs2x 1";

/// The lines of one `go` on `fen` by an engine with `threads` threads, up to and
/// including `bestmove`.
fn go_on_threads(fen: &str, limits: &str, threads: usize) -> Vec<String> {
    let mut engine = Driver::start();
    engine.send(&format!("setoption name Threads value {threads}"));
    engine.send(&format!("position fen {fen}"));
    engine.send(&format!("go {limits}"));
    engine.until(|line| line.starts_with("bestmove"))
}

fn assert_searched_and_not_trapped(limits: &str) {
    assert_searched_and_not_trapped_on_threads(limits, 1);
}

fn assert_searched_and_not_trapped_on_threads(limits: &str, threads: usize) {
    let lines = go_on_threads(TRAP, limits, threads);
    assert!(
        lines.iter().any(|l| l.starts_with("info depth")),
        "go {limits}: no completed search reported before the move:\n{}",
        lines.join("\n")
    );
    let best = lines.last().map(String::as_str);
    assert_ne!(
        best,
        Some("bestmove g1"),
        "go {limits}: g1 loses in two plies:\n{}",
        lines.join("\n")
    );
}

#[test]
fn a_short_movetime_still_plays_a_searched_move() {
    assert_searched_and_not_trapped("movetime 30");
}

#[test]
fn a_one_millisecond_movetime_still_plays_a_searched_move() {
    assert_searched_and_not_trapped("movetime 1");
}

#[test]
fn a_one_millisecond_movetime_on_two_threads_still_plays_a_searched_move() {
    assert_searched_and_not_trapped_on_threads("movetime 1", 2);
}

#[test]
fn a_tiny_clock_still_plays_a_searched_move() {
    assert_searched_and_not_trapped("p1time 5 p2time 5");
}

#[test]
fn a_depth_limit_leaves_the_proof_search_on() {
    let size: Size = "7x7".parse().expect("7x7 is a board size");
    let position = Position::start_named(size, "e5").expect("e5 is on a 7x7 board");
    let mut engine = Engine::new(EngineOptions {
        hash_mb: 16,
        ..EngineOptions::default()
    });
    let stop = AtomicBool::new(false);
    let outcome = engine.search(&position, &Limits::depth(20), &stop, &mut |_| {});
    assert!(
        matches!(outcome.info.score, Some(Score::Mate(_))),
        "go depth 20 on 7x7 e5 should prove the win: {:?}",
        outcome.info
    );
    assert!(outcome.info.time < Duration::from_secs(30));
}
