//! The report of `solve --merge`: what the results files of a split prove so far.

use std::fmt::Write as _;
use std::path::Path;

use serde::Serialize;

use super::results::{POSITIONS_FILE, Results, Split, verdict_name};
use super::tree::{Value, canonical, merge};
use crate::board::Position;
use crate::search::Verdict;

/// One move of the root in a merge report.
#[derive(Serialize, Clone, Debug)]
pub struct MoveReport {
    #[serde(rename = "move")]
    square: String,
    /// "win", "loss" (for the root's side to move), or "open".
    value: &'static str,
    /// Open sub-problems below it that still matter.
    open: usize,
}

/// The report of a merge; its fields are those of the JSON report.
#[derive(Serialize, Clone, Debug)]
pub struct MergeReport {
    root: String,
    depth: u32,
    side_to_move: u8,
    /// "win", "loss" for the side to move, or null while open.
    verdict: Option<&'static str>,
    /// 1 or 2, or null while open.
    winner: Option<u8>,
    /// A winning move of a proven win.
    best_move: Option<String>,
    moves: Vec<MoveReport>,
    /// Sub-problems listed by the split.
    sub_problems: usize,
    /// Of those, how many are proven.
    proven: usize,
    /// The open sub-problems that could still change the verdict.
    open: Vec<String>,
    /// Proven positions in all results files (sub-problems, and nodes the split settled).
    results: usize,
    /// Nodes and proof time summed over every record, unfinished attempts included.
    nodes: u64,
    time_ms: f64,
    /// Lines of the results files that are not records (cut short by a kill).
    torn_lines: usize,
}

/// The merge of the split directory `dir`: the root's verdict by minimax over the
/// results so far, the value of each root move, and the open sub-problems that
/// still matter.
pub fn merge_dir(dir: &Path) -> Result<MergeReport, String> {
    let split = Split::read(&dir.join(POSITIONS_FILE))?;
    let results = Results::read(dir)?;
    let known = results.known();
    let merged = merge(&split.root, split.depth, &known);
    let root = &split.root;
    let side = root.side_to_move();
    let verdict = match merged.root {
        Value::Known(v) => Some(v),
        Value::Open => None,
    };
    let value_name = |v: Value| match v {
        Value::Known(v) => verdict_name(v),
        Value::Open => "open",
    };
    let report = MergeReport {
        root: root.to_string(),
        depth: split.depth,
        side_to_move: side.number(),
        verdict: verdict.map(verdict_name),
        winner: verdict.map(|v| match v {
            Verdict::Win => side.number(),
            Verdict::Loss => (!side).number(),
        }),
        best_move: merged
            .winning_move
            .map(|s| root.name(s))
            .or_else(|| recorded_winning_move(root, &results)),
        moves: merged
            .moves
            .iter()
            .map(|&(square, value, open)| MoveReport {
                square: root.name(square),
                value: value_name(value),
                open,
            })
            .collect(),
        sub_problems: split.positions.len(),
        proven: split
            .positions
            .iter()
            .filter(|p| known.contains_key(*p))
            .count(),
        open: merged.open.clone(),
        results: known.len(),
        nodes: results.records.iter().map(|r| r.nodes).sum(),
        time_ms: results.records.iter().fold(0.0, |sum, r| sum + r.time_ms),
        torn_lines: results.torn,
    };
    Ok(report)
}

/// The winning move of `root` that a record of the root itself gives, if any (the
/// record's position may be the root's mirror image, and its move too).
fn recorded_winning_move(root: &Position, results: &Results) -> Option<String> {
    let name = canonical(root);
    let record = results
        .records
        .iter()
        .find(|r| r.position == name && r.verdict() == Some(Verdict::Win))?;
    let square = root
        .size()
        .parse_square(record.best_move.as_deref()?)
        .ok()?;
    let square = if name == root.to_string() {
        square
    } else {
        root.geometry().mirror_square(square)
    };
    Some(root.name(square))
}

/// The merge report as text.
pub fn text(report: &MergeReport) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "merge of {}, split at depth {}: {} of {} sub-problems proven",
        report.root, report.depth, report.proven, report.sub_problems
    );
    let player = report.side_to_move;
    let _ = match (report.verdict, report.winner) {
        (Some(verdict), Some(winner)) => writeln!(
            out,
            "root: player {player} to move {}: player {winner} wins",
            if verdict == "win" { "wins" } else { "loses" }
        ),
        _ => writeln!(out, "root: open"),
    };
    if let Some(best) = &report.best_move {
        let _ = writeln!(out, "winning move: {best}");
    }
    for m in &report.moves {
        let _ = match m.value {
            "open" => writeln!(
                out,
                "  {}: open, {} sub-problems below it still matter",
                m.square, m.open
            ),
            "win" => writeln!(out, "  {}: wins", m.square),
            _ => writeln!(out, "  {}: loses", m.square),
        };
    }
    let _ = writeln!(
        out,
        "work: {} proven positions, {} nodes, {:.3} s of proof time",
        report.results,
        report.nodes,
        report.time_ms / 1000.0
    );
    if report.torn_lines > 0 {
        let _ = writeln!(
            out,
            "ignored {} results lines cut short (their positions count as open)",
            report.torn_lines
        );
    }
    let _ = writeln!(
        out,
        "open sub-problems that still matter: {}",
        report.open.len()
    );
    for position in &report.open {
        let _ = writeln!(out, "  {position}");
    }
    out
}
