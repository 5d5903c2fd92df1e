//! The report of a direct proof (`slimetrail solve`): one value, printed as text
//! (its `Display`) or as JSON (its `Serialize`).

use std::fmt::{self, Write as _};
use std::time::Duration;

use serde::Serialize;

use crate::board::{Position, Side, Square};
use crate::search::{PartialProof, Score, SolveOutcome, Verdict};

/// How the proof ended.
#[derive(Serialize, Clone, Copy, PartialEq, Eq, Debug)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// The proof finished.
    Proven,
    /// The time limit ran out first.
    TimeLimit,
    /// The node limit ran out first.
    NodeLimit,
    /// A stop request (Ctrl-C) stopped it.
    Interrupted,
}

/// Why the reported best move is the one to play.
#[derive(Serialize, Clone, Copy, PartialEq, Eq, Debug)]
#[serde(rename_all = "snake_case")]
pub enum Basis {
    /// It wins, as the proof shows.
    Winning,
    /// The proof says the position is lost; this move makes the game last longest.
    LongestResistance,
    /// The proof did not finish, but this move was proven to win afterwards.
    ProvenWinning,
    /// The proof did not finish, but every move is proven to lose; this one latest.
    SlowestLoss,
    /// No proof: a scored search's choice among the moves not proven to lose.
    Guess,
}

/// Nodes, time and speed of a part of the work.
#[derive(Serialize, Clone, Copy, Debug)]
pub struct Figures {
    nodes: u64,
    time_ms: f64,
    nps: u64,
}

impl Figures {
    fn new(nodes: u64, time: Duration) -> Figures {
        Figures {
            nodes,
            time_ms: time.as_micros() as f64 / 1000.0,
            nps: (nodes as f64 / time.as_secs_f64().max(1e-9)) as u64,
        }
    }

    /// "N nodes in T s" ("1 node" for one).
    fn text(&self) -> String {
        let noun = if self.nodes == 1 { "node" } else { "nodes" };
        format!("{} {noun} in {:.3} s", self.nodes, self.time_ms / 1000.0)
    }

    /// "N nodes in T s (R M nodes/s)".
    fn text_with_speed(&self) -> String {
        format!("{} ({:.2} M nodes/s)", self.text(), self.nps as f64 / 1e6)
    }
}

/// A move whose value is proven, with the plies within which the game then ends.
#[derive(Serialize, Clone, Debug)]
pub struct MoveProof {
    #[serde(rename = "move")]
    square: String,
    within_plies: u32,
}

/// The scored search behind a best guess.
#[derive(Serialize, Clone, Debug)]
pub struct Guess {
    /// The search's move (the best guess, unless that move is proven to lose).
    #[serde(rename = "move")]
    square: Option<String>,
    depth: u32,
    score: Option<String>,
}

/// What is known when the proof did not finish.
#[derive(Serialize, Clone, Debug)]
pub struct Unfinished {
    losing: Vec<MoveProof>,
    winning: Vec<MoveProof>,
    undecided: Vec<String>,
    guess: Option<Guess>,
}

/// Everything `solve` reports; the fields are those of the JSON report.
#[derive(Serialize, Clone, Debug)]
pub struct SolveReport {
    position: String,
    side_to_move: u8,
    status: Status,
    verdict: Option<&'static str>,
    winner: Option<u8>,
    best_move: Option<String>,
    best_move_basis: Option<Basis>,
    length: Option<u32>,
    length_exact: Option<bool>,
    line: Vec<String>,
    seldepth: u32,
    hashfull: u32,
    table_mb: usize,
    proof: Figures,
    total: Figures,
    unfinished: Option<Unfinished>,
    /// The side to move, for the text.
    #[serde(skip)]
    side: Side,
}

impl SolveReport {
    /// The report of a solve of `position` that ended with `status`, `partial`
    /// being the summary of an unfinished proof, `table_mb` the table's size and
    /// `elapsed` the whole time taken.
    pub fn new(
        position: &Position,
        status: Status,
        outcome: &SolveOutcome,
        partial: Option<&PartialProof>,
        table_mb: usize,
        elapsed: Duration,
    ) -> SolveReport {
        let side = position.side_to_move();
        let name = |square: Square| position.name(square);
        let proven = |moves: &[(Square, u32)]| -> Vec<MoveProof> {
            moves
                .iter()
                .map(|&(square, plies)| MoveProof {
                    square: name(square),
                    within_plies: plies,
                })
                .collect()
        };
        let (mut verdict, mut best_move_basis) = match outcome.verdict {
            Some(Verdict::Win) => (Some(Verdict::Win), Some(Basis::Winning)),
            Some(Verdict::Loss) => (Some(Verdict::Loss), Some(Basis::LongestResistance)),
            None => (None, None),
        };
        let mut best_move = outcome.best_move;
        let mut total_nodes = outcome.info.nodes;
        let unfinished = partial.map(|partial| {
            total_nodes += partial.nodes;
            best_move = partial.best_move;
            (verdict, best_move_basis) = if !partial.winning.is_empty() {
                (Some(Verdict::Win), Some(Basis::ProvenWinning))
            } else if partial.undecided.is_empty() && !partial.losing.is_empty() {
                (Some(Verdict::Loss), Some(Basis::SlowestLoss))
            } else {
                (None, partial.best_move.map(|_| Basis::Guess))
            };
            Unfinished {
                losing: proven(&partial.losing),
                winning: proven(&partial.winning),
                undecided: partial.undecided.iter().map(|&s| name(s)).collect(),
                guess: partial.guess.as_ref().map(|search| Guess {
                    square: search.best_move.map(name),
                    depth: search.info.depth,
                    score: search.info.score.map(|score| score.to_string()),
                }),
            }
        });
        let (length, length_exact) = match (outcome.length, outcome.info.score) {
            (Some(n), _) => (Some(n), Some(true)),
            (None, Some(Score::Mate(n))) => (Some(n.unsigned_abs()), Some(false)),
            _ => (None, None),
        };
        SolveReport {
            position: position.to_string(),
            side_to_move: side.number(),
            status,
            verdict: verdict.map(|v| match v {
                Verdict::Win => "win",
                Verdict::Loss => "loss",
            }),
            winner: verdict.map(|v| match v {
                Verdict::Win => side.number(),
                Verdict::Loss => (!side).number(),
            }),
            best_move: best_move.map(name),
            best_move_basis: best_move.and(best_move_basis),
            length,
            length_exact,
            line: outcome.info.pv.iter().map(|&s| name(s)).collect(),
            seldepth: outcome.info.seldepth,
            hashfull: outcome.info.hashfull,
            table_mb,
            proof: Figures::new(outcome.proof_nodes, outcome.proof_time),
            total: Figures::new(total_nodes, elapsed),
            unfinished,
            side,
        }
    }

    /// How the proof ended.
    pub fn status(&self) -> Status {
        self.status
    }

    /// The report as text, one fact a line.
    fn text(&self) -> String {
        let mut out = String::new();
        if self.status == Status::Interrupted {
            out.push_str("interrupted (Ctrl-C)");
            out.push_str(match self.unfinished {
                Some(_) => " before the proof finished\n",
                None => " after the proof: the line and the game length may be cut short\n",
            });
        }
        match &self.unfinished {
            None => self.proven_text(&mut out),
            Some(unfinished) => self.unfinished_text(unfinished, &mut out),
        }
        let _ = writeln!(out, "{}", self.totals_text());
        out
    }

    /// The verdict line: who wins, from the side to move's point of view.
    fn verdict_text(&self) -> Option<String> {
        let side = self.side;
        match self.verdict? {
            "win" => Some(format!("{side} to move wins")),
            _ => Some(format!("{side} to move loses: {} wins", !side)),
        }
    }

    fn proven_text(&self, out: &mut String) {
        if let Some(verdict) = self.verdict_text() {
            let _ = writeln!(out, "{verdict}");
        }
        if let (Some(square), Some(basis)) = (&self.best_move, self.best_move_basis) {
            let what = match basis {
                Basis::LongestResistance => "longest resistance",
                _ => "winning move",
            };
            let _ = writeln!(out, "{what}: {square}");
        }
        if let (Some(length), Some(exact)) = (self.length, self.length_exact) {
            let bound = if exact { "" } else { "at most " };
            let _ = writeln!(
                out,
                "game length under best play: {bound}{}",
                count(length, "ply", "plies")
            );
        }
        if !self.line.is_empty() {
            let _ = writeln!(out, "line: {}", self.line.join(" "));
        }
        let _ = writeln!(out, "proof: {}", self.proof.text_with_speed());
    }

    fn unfinished_text(&self, unfinished: &Unfinished, out: &mut String) {
        let moves = unfinished.losing.len() + unfinished.winning.len() + unfinished.undecided.len();
        if self.status != Status::Interrupted {
            let limit = if self.status == Status::NodeLimit {
                "node"
            } else {
                "time"
            };
            let _ = writeln!(
                out,
                "unsolved: the {limit} limit ran out before the proof finished"
            );
        }
        let list = |proofs: &[MoveProof]| {
            proofs
                .iter()
                .map(|p| {
                    format!(
                        "{} (within {})",
                        p.square,
                        count(p.within_plies, "ply", "plies")
                    )
                })
                .collect::<Vec<_>>()
                .join(", ")
        };
        let of_all = |n: usize| format!("{n} of {}", count(moves as u32, "move", "moves"));
        if unfinished.losing.is_empty() {
            let _ = writeln!(
                out,
                "proven to lose: none of the {}",
                count(moves as u32, "move", "moves")
            );
        } else {
            let _ = writeln!(
                out,
                "proven to lose ({}): {}",
                of_all(unfinished.losing.len()),
                list(&unfinished.losing)
            );
        }
        if !unfinished.winning.is_empty() {
            let _ = writeln!(
                out,
                "proven to win ({}): {}",
                of_all(unfinished.winning.len()),
                list(&unfinished.winning)
            );
        }
        if !unfinished.undecided.is_empty() {
            let _ = writeln!(
                out,
                "undecided ({}): {}",
                of_all(unfinished.undecided.len()),
                unfinished.undecided.join(" ")
            );
        }
        match (self.best_move_basis, &self.best_move) {
            (Some(Basis::ProvenWinning | Basis::SlowestLoss), Some(square)) => {
                let verdict = self.verdict_text().unwrap_or_default();
                let what = if self.best_move_basis == Some(Basis::ProvenWinning) {
                    "winning move"
                } else {
                    "slowest loss"
                };
                let _ = writeln!(out, "{verdict}, as the proofs of the moves show");
                let _ = writeln!(
                    out,
                    "{what}: {square} (no line or game length: the proof stopped first)"
                );
            }
            (Some(Basis::Guess), Some(square)) => {
                let why = match &unfinished.guess {
                    Some(guess) if guess.square.as_ref() == Some(square) => {
                        let score = guess
                            .score
                            .as_ref()
                            .map_or(String::new(), |s| format!(", score {s}"));
                        format!(
                            "a scored search to depth {} prefers it{score}",
                            guess.depth
                        )
                    }
                    _ => "the first undecided move; the scored search preferred a move proven to lose"
                        .to_string(),
                };
                let _ = writeln!(out, "best guess: {square} (not proven: {why})");
            }
            _ => {}
        }
        let _ = writeln!(
            out,
            "proof search, unfinished: {}",
            self.proof.text_with_speed()
        );
    }

    /// The line about all the work done, the proof and what followed it.
    fn totals_text(&self) -> String {
        let with = match &self.unfinished {
            Some(Unfinished { guess: Some(_), .. }) => {
                "with the proofs of the moves and the best guess"
            }
            Some(_) => "with the proofs of the moves",
            None => "with the line and the game length",
        };
        format!("total, {with}: {}", self.total.text())
    }
}

/// The report as text, one fact a line.
impl fmt::Display for SolveReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text())
    }
}

/// "1 ply", "2 plies": a count with its noun in the right number.
fn count(n: u32, one: &str, many: &str) -> String {
    if n == 1 {
        format!("{n} {one}")
    } else {
        format!("{n} {many}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::SearchInfo;

    /// An unfinished proof from the 7x7 centre start whose moves `partial` sums up.
    fn unfinished(partial: PartialProof) -> SolveReport {
        let position: Position = Position::start(crate::board::Size::new(7, 7).unwrap());
        let outcome = SolveOutcome {
            verdict: None,
            best_move: None,
            length: None,
            info: SearchInfo::default(),
            proof_nodes: 1000,
            proof_time: Duration::from_millis(5),
        };
        SolveReport::new(
            &position,
            Status::TimeLimit,
            &outcome,
            Some(&partial),
            4,
            Duration::from_millis(6),
        )
    }

    fn square(name: &str) -> Square {
        let position: Position = Position::start(crate::board::Size::new(7, 7).unwrap());
        position
            .moves()
            .iter()
            .find(|&s| position.name(s) == name)
            .unwrap()
    }

    #[test]
    fn a_move_proven_to_win_after_the_limit_gives_the_verdict() {
        let report = unfinished(PartialProof {
            losing: vec![(square("c3"), 4)],
            winning: vec![(square("e5"), 21)],
            undecided: vec![square("d3")],
            best_move: Some(square("e5")),
            guess: None,
            nodes: 10,
        });
        assert_eq!(report.verdict, Some("win"));
        assert_eq!(report.winner, Some(1));
        assert_eq!(report.best_move_basis, Some(Basis::ProvenWinning));
        let text = report.to_string();
        assert!(
            text.contains("\nproven to win (1 of 3 moves): e5 (within 21 plies)\n"),
            "{text}"
        );
        assert!(
            text.contains("\nplayer 1 to move wins, as the proofs of the moves show\n"),
            "{text}"
        );
        assert!(
            text.contains("\nwinning move: e5 (no line or game length"),
            "{text}"
        );
        assert!(!text.contains("best guess"), "{text}");
    }

    #[test]
    fn every_move_proven_to_lose_gives_the_verdict_and_the_slowest_loss() {
        let report = unfinished(PartialProof {
            losing: vec![(square("c3"), 1), (square("e5"), 9)],
            winning: vec![],
            undecided: vec![],
            best_move: Some(square("e5")),
            guess: None,
            nodes: 10,
        });
        assert_eq!(report.verdict, Some("loss"));
        assert_eq!(report.winner, Some(2));
        assert_eq!(report.best_move_basis, Some(Basis::SlowestLoss));
        let text = report.to_string();
        assert!(
            text.contains(
                "\nproven to lose (2 of 2 moves): c3 (within 1 ply), e5 (within 9 plies)\n"
            ),
            "{text}"
        );
        assert!(
            text.contains(
                "\nplayer 1 to move loses: player 2 wins, as the proofs of the moves show\n"
            ),
            "{text}"
        );
        assert!(text.contains("\nslowest loss: e5 "), "{text}");
        assert!(!text.contains("undecided"), "{text}");
    }
}
