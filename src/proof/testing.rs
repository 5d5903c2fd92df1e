//! What the unit tests of the proof room share: a small split and records.

use std::path::Path;

use super::positions::Split;
use super::results::{Record, Results};
use super::settings::ProofSettings;
use super::tree::canonical;
use crate::board::Position;

/// The 5x5 start split at depth 1: its five sub-problems (mirror images once), in
/// move order.
pub fn five_split() -> Split {
    let root: Position = "5/5/2s2/5/5 1".parse().unwrap();
    let mut positions: Vec<Position> = Vec::new();
    for to in root.moves() {
        let name: Position = canonical(&root.after(to)).parse().unwrap();
        if !positions.contains(&name) {
            positions.push(name);
        }
    }
    Split {
        root,
        depth: 1,
        positions,
    }
}

/// A results line for `position`: `verdict` ("win", "loss", or none for an
/// attempt that reached `limit_nodes`), 10 nodes in 1 ms, by shard 1/1.
pub fn record_line(position: &Position, verdict: Option<&str>, limit_nodes: Option<u64>) -> String {
    serde_json::to_string(&Record {
        position: position.to_string(),
        verdict: verdict.map(str::to_string),
        best_move: None,
        nodes: 10,
        time_ms: 1.0,
        limit_nodes,
        limit_ms: None,
        by: "1/1".into(),
    })
    .unwrap()
}

/// The records of `lines`, as read from one results file.
pub fn results(lines: &[String]) -> Results {
    let mut results = Results::default();
    results.add_text(Path::new("results-1-of-1.jsonl"), &lines.join("\n"));
    results
}

/// The position of a position string.
pub fn position(text: &str) -> Position {
    text.parse().expect("a position string")
}

/// The 5x5 start, c3: eight moves, none of them ending the game, whose positions
/// fall into five mirror classes (b2, d4, b3|c2, b4|d2, c4|d3).
pub fn five() -> Position {
    position("5/5/2s2/5/5 1")
}

/// The position after the move to `square`.
pub fn play(from: &Position, square: &str) -> Position {
    from.after(from.parse_move(square).expect("a legal move"))
}

/// The canonical names of the positions after each move of `from`, each once, in
/// move order.
pub fn classes(from: &Position) -> Vec<String> {
    let mut out = Vec::new();
    for to in from.moves() {
        let name = canonical(&from.after(to));
        if !out.contains(&name) {
            out.push(name);
        }
    }
    out
}

/// Proof settings for tests: a 1 MiB table, one thread, no limits.
pub fn small_settings() -> ProofSettings {
    ProofSettings {
        hash_mb: 1,
        threads: 1,
        nodes: None,
        time: None,
        first_nodes: None,
    }
}
