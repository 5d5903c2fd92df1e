//! The report of a merge: what the results files of a split prove so far.

use std::fmt;
use std::path::Path;

use serde::Serialize;

use super::check::{Checked, check};
use super::error::ProofError;
use super::positions::{POSITIONS_FILE, Split};
use super::results::{Results, verdict_name};
use super::tree::{NodeValue, canonical, merge};
use crate::board::Position;
use crate::search::Verdict;

/// One move of the root in a merge report.
#[derive(Serialize, Clone, Debug, PartialEq)]
pub struct MoveReport {
    /// The move, a square.
    #[serde(rename = "move")]
    pub square: String,
    /// "win", "loss" (for the root's side to move), or "open".
    pub value: &'static str,
    /// Open sub-problems below it that still matter.
    pub open: usize,
}

/// The report of a merge; its fields are those of the JSON report.
#[derive(Serialize, Clone, Debug, PartialEq)]
pub struct MergeReport {
    /// The root, as a position string.
    pub root: String,
    /// Plies from the root to the sub-problems.
    pub depth: u32,
    /// 1 or 2.
    pub side_to_move: u8,
    /// "win", "loss" for the side to move, or null while open.
    pub verdict: Option<&'static str>,
    /// 1 or 2, or null while open.
    pub winner: Option<u8>,
    /// A winning move of a proven win.
    pub best_move: Option<String>,
    /// Every move of the root.
    pub moves: Vec<MoveReport>,
    /// Sub-problems listed by the split.
    pub sub_problems: usize,
    /// Of those, how many are proven.
    pub proven: usize,
    /// The open sub-problems that could still change the verdict.
    pub open: Vec<String>,
    /// Proven positions in all results files (sub-problems, and nodes the split settled).
    pub results: usize,
    /// Nodes summed over every record, unfinished attempts included.
    pub nodes: u64,
    /// Proof time in milliseconds summed over every record.
    pub time_ms: f64,
    /// Lines of the results files that are not records (cut short by a kill, or
    /// damaged).
    pub torn_lines: usize,
    /// Files named `results*.jsonl` that no shard writes, left unread.
    pub ignored_files: Vec<String>,
    /// Records set aside, conflicts and contradictions, a sentence each naming
    /// the files and lines: a merge to trust has none.
    pub problems: Vec<String>,
}

impl MergeReport {
    /// The merge of the split directory `dir`: its positions file and every results
    /// file in it.
    pub fn read(dir: &Path) -> Result<MergeReport, ProofError> {
        let split = Split::read(&dir.join(POSITIONS_FILE))?;
        let results = Results::read(dir)?;
        Ok(MergeReport::new(&split, &results))
    }

    /// The root's verdict by minimax over `results` in the tree of `split`, the
    /// value of each root move, and the open sub-problems that still matter.
    pub fn new(split: &Split, results: &Results) -> MergeReport {
        let checked = check(split, results);
        let known = &checked.known;
        let merged = merge(&split.root, split.depth, known);
        let root = &split.root;
        let side = root.side_to_move();
        let verdict = match merged.root {
            NodeValue::Known(v) => Some(v),
            NodeValue::Open => None,
        };
        let value_name = |v: NodeValue| match v {
            NodeValue::Known(v) => verdict_name(v),
            NodeValue::Open => "open",
        };
        MergeReport {
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
                .or_else(|| recorded_winning_move(root, results, &checked)),
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
                .filter(|p| known.contains_key(&p.to_string()))
                .count(),
            open: merged.open.clone(),
            results: known.len(),
            nodes: results.records().map(|r| r.nodes).sum(),
            time_ms: results.records().fold(0.0, |sum, r| sum + r.time_ms),
            torn_lines: results.torn_lines(),
            ignored_files: results
                .ignored
                .iter()
                .map(|p| p.display().to_string())
                .collect(),
            problems: checked.issues.iter().map(|i| i.to_string()).collect(),
        }
    }
}

/// The winning move of `root` that a record of the root itself gives, if any (the
/// record's position may be the root's mirror image, and its move too), if the
/// checks trust that record.
fn recorded_winning_move(root: &Position, results: &Results, checked: &Checked) -> Option<String> {
    let name = canonical(root);
    if checked.known.get(&name) != Some(&Verdict::Win) {
        return None;
    }
    let named: Position = name.parse().ok()?;
    let square = results
        .records()
        .filter(|r| r.position == name && r.verdict() == Some(Verdict::Win))
        .find_map(|r| named.parse_move(r.best_move.as_deref()?).ok())?;
    let square = if name == root.to_string() {
        square
    } else {
        root.geometry().mirror_square(square)
    };
    Some(root.name(square))
}

/// The merge report as text, a fact a line.
impl fmt::Display for MergeReport {
    fn fmt(&self, out: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            out,
            "merge of {}, split at depth {}: {} of {} sub-problems proven",
            self.root, self.depth, self.proven, self.sub_problems
        )?;
        let player = self.side_to_move;
        match (self.verdict, self.winner) {
            (Some(verdict), Some(winner)) => writeln!(
                out,
                "root: player {player} to move {}: player {winner} wins",
                if verdict == "win" { "wins" } else { "loses" }
            )?,
            _ => writeln!(out, "root: open")?,
        }
        if let Some(best) = &self.best_move {
            writeln!(out, "winning move: {best}")?;
        }
        for m in &self.moves {
            match m.value {
                "open" => writeln!(
                    out,
                    "  {}: open, {} sub-problems below it still matter",
                    m.square, m.open
                )?,
                "win" => writeln!(out, "  {}: wins", m.square)?,
                _ => writeln!(out, "  {}: loses", m.square)?,
            }
        }
        writeln!(
            out,
            "work: {} proven positions, {} nodes, {:.3} s of proof time",
            self.results,
            self.nodes,
            self.time_ms / 1000.0
        )?;
        if self.torn_lines > 0 {
            writeln!(
                out,
                "ignored {} results lines cut short or damaged (their positions count as open)",
                self.torn_lines
            )?;
        }
        for file in &self.ignored_files {
            writeln!(
                out,
                "ignored {file}: not a results file a shard or the split writes"
            )?;
        }
        if !self.problems.is_empty() {
            writeln!(
                out,
                "{} problems in the results files (what they name counts as open):",
                self.problems.len()
            )?;
            for problem in &self.problems {
                writeln!(out, "  {problem}")?;
            }
        }
        writeln!(
            out,
            "open sub-problems that still matter: {}",
            self.open.len()
        )?;
        for position in &self.open {
            writeln!(out, "  {position}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::proof::results::Record;
    use crate::proof::testing::five_split;

    fn record(
        position: &str,
        verdict: Option<&str>,
        best_move: Option<&str>,
        nodes: u64,
    ) -> String {
        serde_json::to_string(&Record {
            position: position.to_string(),
            verdict: verdict.map(str::to_string),
            best_move: best_move.map(str::to_string),
            nodes,
            time_ms: nodes as f64 / 4.0,
            limit_nodes: None,
            limit_ms: None,
            by: "1/1".to_string(),
        })
        .unwrap()
    }

    /// The 3x3 board from a2 (player 1 to move), split at depth 1: a1 wins at once;
    /// the other four moves lead to four sub-problems (no two mirror images).
    fn small_split() -> Split {
        let root: Position = "3/s2/3 1".parse().unwrap();
        let mut positions = Vec::new();
        for to in root.moves() {
            let child = root.after(to);
            if child.outcome().is_over() {
                continue;
            }
            let name: Position = canonical(&child).parse().unwrap();
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

    #[test]
    fn a_root_won_by_a_finished_game_needs_no_record() {
        let split = small_split();
        assert_eq!(split.positions.len(), 4, "{:?}", split.positions);
        let report = MergeReport::new(&split, &Results::default());
        assert_eq!(report.root, "3/s2/3 1");
        assert_eq!((report.verdict, report.winner), (Some("win"), Some(1)));
        assert_eq!(report.best_move.as_deref(), Some("a1"));
        assert_eq!(
            (report.sub_problems, report.proven, report.results),
            (4, 0, 0)
        );
        assert!(report.open.is_empty());
        assert_eq!(
            report.moves.iter().find(|m| m.square == "a1"),
            Some(&MoveReport {
                square: "a1".into(),
                value: "win",
                open: 0
            })
        );
        assert_eq!(
            report.to_string(),
            "merge of 3/s2/3 1, split at depth 1: 0 of 4 sub-problems proven\n\
             root: player 1 to move wins: player 1 wins\n\
             winning move: a1\n  \
               a1: wins\n  b1: open, 0 sub-problems below it still matter\n  \
               b2: open, 0 sub-problems below it still matter\n  \
               a3: open, 0 sub-problems below it still matter\n  \
               b3: open, 0 sub-problems below it still matter\n\
             work: 0 proven positions, 0 nodes, 0.000 s of proof time\n\
             open sub-problems that still matter: 0\n"
        );
    }

    #[test]
    fn a_partial_merge_counts_the_work_and_the_torn_lines_and_lists_what_is_open() {
        let split = five_split();
        let names: Vec<String> = split.positions.iter().map(|p| p.to_string()).collect();
        let text = [
            record(&names[0], Some("win"), None, 100),
            record(&names[1], None, None, 40),
            record(&names[2], Some("win"), None, 60),
        ]
        .join("\n");
        let mut results = Results::default();
        results.add_text(
            Path::new("results-1-of-1.jsonl"),
            &format!("{text}\n{{\"posi"),
        );
        let report = MergeReport::new(&split, &results);
        assert_eq!(
            (report.verdict, report.winner, report.best_move.as_ref()),
            (None, None, None)
        );
        assert_eq!(
            (report.sub_problems, report.proven, report.results),
            (5, 2, 2)
        );
        assert_eq!(
            (report.nodes, report.time_ms, report.torn_lines),
            (200, 50.0, 1)
        );
        assert_eq!(
            report.open,
            names[1..2]
                .iter()
                .chain(&names[3..])
                .cloned()
                .collect::<Vec<_>>()
        );
        let open_moves = report.moves.iter().filter(|m| m.value == "open").count();
        let lost_moves = report.moves.iter().filter(|m| m.value == "loss").count();
        assert_eq!(open_moves + lost_moves, 8);
        assert!(
            report
                .moves
                .iter()
                .all(|m| m.value != "open" || m.open == 1)
        );
        let text = report.to_string();
        assert!(
            text.starts_with(
                "merge of 5/5/2s2/5/5 1, split at depth 1: 2 of 5 sub-problems proven\nroot: open\n"
            ),
            "{text}"
        );
        assert!(
            text.contains("\nwork: 2 proven positions, 200 nodes, 0.050 s of proof time\n"),
            "{text}"
        );
        assert!(
            text.contains(
                "\nignored 1 results lines cut short or damaged (their positions count as open)\n"
            ),
            "{text}"
        );
        assert!(
            text.ends_with(&format!(
                "\nopen sub-problems that still matter: 3\n  {}\n  {}\n  {}\n",
                names[1], names[3], names[4]
            )),
            "{text}"
        );
    }

    #[test]
    fn a_lost_sub_problem_wins_the_root_and_names_the_move() {
        let split = five_split();
        let c4: Position = split.root.after(split.root.parse_move("c4").unwrap());
        let mut results = Results::default();
        results.add_text(
            Path::new("results-1-of-1.jsonl"),
            &record(&canonical(&c4), Some("loss"), None, 5),
        );
        let report = MergeReport::new(&split, &results);
        assert_eq!((report.verdict, report.winner), (Some("win"), Some(1)));
        // c4 and its mirror image d3 win; d3 comes first in square order.
        assert_eq!(report.best_move.as_deref(), Some("d3"));
        let winning: Vec<&str> = report
            .moves
            .iter()
            .filter(|m| m.value == "win")
            .map(|m| m.square.as_str())
            .collect();
        assert_eq!(winning, ["d3", "c4"]);
        assert!(report.open.is_empty());
        assert!(
            report
                .to_string()
                .contains("\nroot: player 1 to move wins: player 1 wins\nwinning move: d3\n")
        );
        let json = serde_json::to_value(&report).unwrap();
        assert_eq!(json["verdict"], "win");
        assert_eq!(json["moves"][0]["move"], report.moves[0].square.as_str());
        assert_eq!(json["torn_lines"], 0);
    }

    #[test]
    fn a_root_proven_whole_gives_the_recorded_move_of_it_or_of_its_mirror_image() {
        // The root, 5x5 with the snail on c2, is not its own canonical name: its
        // mirror image with the snail on b3 is.
        let root: Position = "5/5/5/2s2/5 1".parse().unwrap();
        assert_eq!(canonical(&root), "5/5/1s3/5/5 1");
        let split = Split {
            root,
            depth: 1,
            positions: Vec::new(),
        };
        let name = canonical(&root);
        // A winning move recorded for the canonical position: a2 there is b1 here.
        let mut results = Results::default();
        results.add_text(
            Path::new("results-x.jsonl"),
            &record(&name, Some("win"), Some("a2"), 9),
        );
        let report = MergeReport::new(&split, &results);
        assert_eq!(report.verdict, Some("win"));
        assert_eq!(report.best_move.as_deref(), Some("b1"));
        // A loss for the root gives no move.
        let mut results = Results::default();
        results.add_text(
            Path::new("results-x.jsonl"),
            &record(&name, Some("loss"), None, 9),
        );
        let report = MergeReport::new(&split, &results);
        assert_eq!(
            (report.verdict, report.winner, report.best_move.clone()),
            (Some("loss"), Some(2), None)
        );
        assert!(
            report
                .to_string()
                .contains("\nroot: player 1 to move loses: player 2 wins\n")
        );
    }
}
