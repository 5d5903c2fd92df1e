//! The built-in 7×7 and 8×8 books: timed searches play their proven wins at once,
//! and no other search uses them.

use crate::common;

use std::sync::atomic::AtomicBool;

use common::Engine as Driver;
use slimetrail::board::{Position, Square};
use slimetrail::search::{Engine, EngineOptions, Limits, Verdict};

/// Won positions in which `go movetime 100` played a losing move before the book:
/// the first from a match against Rastros_Engine, the others the misses of
/// `scripts/bench-missrate.sh 3000 100 1` on the build before it.
const MISSED: [&str; 14] = [
    "7/3sx2/4x2/7/7/7/7 1",
    "7/7/7/3x3/2x4/2s4/7 1",
    "7/7/4x2/3x3/2s4/7/7 1",
    "7/3s3/4x2/7/7/7/7 2",
    "7/7/7/3x3/3sx2/7/7 1",
    "7/7/7/3x3/3xs2/7/7 1",
    "7/7/7/3x3/4xs1/7/7 1",
    "7/7/7/3xs2/3xx2/7/7 2",
    "7/7/7/3x3/3x3/2s4/7 1",
    "7/7/4x2/5s1/7/7/7 2",
    "7/7/3xx2/2s1x2/7/7/7 2",
    "7/7/2x4/2sx3/7/7/7 1",
    "7/7/4x2/5x1/5x1/4s2/7 2",
    "7/7/7/3s3/7/7/7 1",
];

/// 8×8 positions within 5 plies of the e5 start in which `go movetime 100` or
/// `go movetime 1000` played a losing move before the 8×8 book: the misses of
/// `scripts/bench-missrate-8x8.sh 200 MS 1 40000000 protocol` on the build before it.
/// Each comes with every winning move it has: the proven truth, kept as data because
/// proving it takes one to eight million nodes a move (minutes in all), far beyond
/// `go movetime 100` without the book. The slow check
/// `the_winning_moves_of_the_once_missed_8x8_positions_are_exactly_those_listed`
/// proves this table again, move by move.
const MISSED_8X8: [(&str, &[&str]); 10] = [
    ("8/5s2/4x3/4xx2/8/8/8/8 2", &["f6"]),
    ("8/8/1s6/2x1x3/2xx4/3x4/8/8 2", &["c6"]),
    ("8/8/4sx2/4xxx1/8/8/8/8 1", &["d5"]),
    ("8/3s4/2xx4/4x3/8/8/8/8 2", &["e6"]),
    ("8/4xx2/2sxx3/4x3/8/8/8/8 2", &["b5", "b7"]),
    ("8/4x3/4xx2/3sx3/8/8/8/8 1", &["d4", "e4", "c5"]),
    ("8/8/8/3xx3/2x5/3s4/8/8 2", &["d2", "e2", "c3", "e3", "e4"]),
    ("8/8/8/4x3/4x1s1/5xx1/5x2/8 2", &["f5"]),
    ("8/8/2sx4/2x1x3/8/8/8/8 2", &["d5"]),
    ("8/4sx2/4xx2/4xx2/8/8/8/8 2", &["d6", "d8"]),
];

/// The lines of `go LIMITS` on `fen`, after the given `setoption` lines.
fn go(fen: &str, limits: &str, options: &[&str]) -> Vec<String> {
    let mut engine = Driver::start();
    for option in options {
        engine.send(&format!("setoption name {option}"));
    }
    engine.send("uginewgame");
    engine.send(&format!("position fen {fen}"));
    engine.send(&format!("go {limits}"));
    if limits == "infinite" {
        engine.send("stop");
    }
    engine.until(|line| line.starts_with("bestmove"))
}

fn played(lines: &[String]) -> String {
    let last = lines.last().map_or("", String::as_str);
    last.trim_start_matches("bestmove ").to_string()
}

/// Whether `square` wins in `fen`: the opponent is proven lost after it.
fn wins(fen: &str, square: &str) -> bool {
    let position: Position = fen.parse().expect("a valid position string");
    let Ok(mv) = position.parse_move(square) else {
        return false;
    };
    let mut engine = Engine::new(EngineOptions::default());
    move_wins(&mut engine, &position, mv)
}

/// Whether `mv` wins in `position`: the game ends in the mover's favour, or the
/// opponent is proven lost after it.
fn move_wins(engine: &mut Engine, position: &Position, mv: Square) -> bool {
    let after = position.after(mv);
    if after.outcome().is_over() {
        return after.outcome().winner() == Some(position.side_to_move());
    }
    let out = engine.prove(
        &after,
        &Limits::default(),
        &AtomicBool::new(false),
        &mut |_| {},
    );
    out.verdict == Some(Verdict::Loss)
}

/// The lines of `go movetime 100` in each of `fens`, with the move played.
fn played_at_movetime_100<'a>(
    fens: impl IntoIterator<Item = &'a str>,
) -> Vec<(&'a str, String, Vec<String>)> {
    fens.into_iter()
        .map(|fen| {
            let lines = go(fen, "movetime 100", &[]);
            (fen, played(&lines), lines)
        })
        .collect()
}

/// Asserts that `go movetime 100` plays a winning move in each of `fens`.
fn assert_won_at_movetime_100(fens: &[&str]) {
    for (fen, square, lines) in played_at_movetime_100(fens.iter().copied()) {
        assert!(
            wins(fen, &square),
            "{fen}: go movetime 100 played {square}, which does not win:\n{}",
            lines.join("\n")
        );
    }
}

#[test]
fn positions_once_missed_at_a_short_movetime_are_won() {
    assert_won_at_movetime_100(&MISSED);
}

/// The move played must be one of the proven winning moves of [`MISSED_8X8`].
#[test]
fn positions_once_missed_on_8x8_are_won_at_a_short_movetime() {
    let played = played_at_movetime_100(MISSED_8X8.iter().map(|&(fen, _)| fen));
    for ((fen, square, lines), (_, winning)) in played.iter().zip(MISSED_8X8) {
        assert!(
            winning.contains(&square.as_str()),
            "{fen}: go movetime 100 played {square}, which does not win (the winning moves \
             are {winning:?}):\n{}",
            lines.join("\n")
        );
    }
}

#[test]
fn a_book_move_is_reported_as_a_proven_win_without_nodes() {
    let lines = go("7/3sx2/4x2/7/7/7/7 1", "movetime 1000", &[]);
    let info = lines
        .iter()
        .find(|l| l.starts_with("info depth"))
        .expect("an info line");
    assert!(
        info.starts_with("info depth 1 seldepth 1 score mate "),
        "{info}"
    );
    assert!(info.contains(" lowerbound nodes 0 "), "{info}");
    assert!(info.ends_with(" pv d5"), "{info}");
    assert_eq!(played(&lines), "d5");
    // A clock is a timed search too.
    let lines = go("7/3sx2/4x2/7/7/7/7 1", "p1time 5000 p2time 5000", &[]);
    assert!(
        lines
            .iter()
            .any(|l| l.contains(" nodes 0 ") && l.ends_with(" pv d5"))
    );
}

#[test]
fn searches_limited_otherwise_and_searches_without_the_book_search() {
    let fen = "7/3sx2/4x2/7/7/7/7 1";
    let searched = |lines: &[String]| {
        lines
            .iter()
            .any(|l| l.starts_with("info depth") && !l.contains(" nodes 0 "))
    };
    for limits in ["depth 3", "nodes 5000", "infinite", "movetime 1000 depth 4"] {
        let lines = go(fen, limits, &[]);
        assert!(
            searched(&lines),
            "go {limits} used the book:\n{}",
            lines.join("\n")
        );
    }
    let lines = go(fen, "movetime 50", &["OwnBook value false"]);
    assert!(searched(&lines), "OwnBook false:\n{}", lines.join("\n"));
    let lines = go(fen, "movetime 50", &["Level value 5"]);
    assert!(
        !lines
            .iter()
            .any(|l| l.contains(" nodes 0 ") && l.contains("mate")),
        "a weaker level used the book:\n{}",
        lines.join("\n")
    );
}

/// The checks that take minutes: `cargo test -- --ignored slow_checks`, run by
/// `.ci/run`.
mod slow_checks {
    use super::*;

    /// The proven truth behind [`MISSED_8X8`]: in each position exactly the listed moves
    /// win. Minutes of proofs.
    #[test]
    #[ignore = "slow: proves every move of ten 8x8 positions; run with --ignored"]
    fn the_winning_moves_of_the_once_missed_8x8_positions_are_exactly_those_listed() {
        let mut engine = Engine::new(EngineOptions::default());
        let mut wrong = Vec::new();
        for (fen, listed) in MISSED_8X8 {
            let position: Position = fen.parse().expect("a valid position string");
            let winning: Vec<String> = position
                .moves()
                .iter()
                .filter(|&mv| move_wins(&mut engine, &position, mv))
                .map(|mv| position.name(mv))
                .collect();
            if winning != listed {
                wrong.push(format!("(\"{fen}\", &{winning:?}), listed {listed:?}"));
            }
        }
        assert!(
            wrong.is_empty(),
            "the proven winning moves differ:\n{}",
            wrong.join("\n")
        );
    }
}
