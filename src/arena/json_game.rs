//! One game as the JSON summary writes it: numbered from 1, with its result, start
//! position, opening and every move (documented in `scripts/arena-json.md`).

use serde::{Deserialize, Serialize};

use crate::record::{GameReport, Termination};

/// A game entry of the JSON summary.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct GameEntry {
    /// Game number, from 1.
    pub number: usize,
    /// Round, from 1.
    pub round: usize,
    /// Game pair number, from 1: both games of a pair start from the same opening.
    pub pair: usize,
    /// Names of player 1 and player 2.
    pub players: [String; 2],
    /// The winner: 1 or 2.
    pub winner: u8,
    /// `1-0` or `0-1`, as in the PGN record.
    pub result: String,
    /// Why the game ended.
    pub termination: Termination,
    /// The details, such as the illegal move and why it is illegal.
    pub detail: String,
    /// Plies played, opening included.
    pub plies: usize,
    /// The position string the game started from.
    pub start: String,
    /// The opening moves played from `start` before the engines took over.
    pub opening: Vec<String>,
    /// Every move from `start`, the opening's first.
    pub moves: Vec<String>,
}

impl GameEntry {
    /// The entry of a finished game.
    pub fn new(report: &GameReport) -> GameEntry {
        let opening = if report.opening == "-" {
            Vec::new()
        } else {
            report
                .opening
                .split_whitespace()
                .map(str::to_string)
                .collect()
        };
        GameEntry {
            number: report.number + 1,
            round: report.round,
            pair: report.pair + 1,
            players: report.players.clone(),
            winner: report.winner,
            result: report.result_text().to_string(),
            termination: report.termination,
            detail: report.detail.clone(),
            plies: report.plies,
            start: report.start.clone(),
            opening,
            moves: report.moves.clone(),
        }
    }

    /// The game as the arena keeps it (numbers from 0), for `merge`; `None` for an entry
    /// numbered 0, which no summary writes.
    pub fn report(&self) -> Option<GameReport> {
        Some(GameReport {
            number: self.number.checked_sub(1)?,
            round: self.round,
            pair: self.pair.checked_sub(1)?,
            players: self.players.clone(),
            winner: self.winner,
            termination: self.termination,
            detail: self.detail.clone(),
            plies: self.plies,
            opening: if self.opening.is_empty() {
                "-".to_string()
            } else {
                self.opening.join(" ")
            },
            start: self.start.clone(),
            moves: self.moves.clone(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_count_from_one_and_convert_back() {
        let report = GameReport {
            number: 0,
            round: 1,
            pair: 0,
            players: ["a".to_string(), "b".to_string()],
            winner: 2,
            termination: Termination::NoLegalMove,
            detail: "a had no legal move".to_string(),
            plies: 3,
            opening: "c3 b2".to_string(),
            start: "7/7/7/3s3/7/7/7 1".to_string(),
            moves: vec!["c3".into(), "b2".into(), "c1".into()],
        };
        let entry = GameEntry::new(&report);
        assert_eq!((entry.number, entry.pair, entry.round), (1, 1, 1));
        assert_eq!(entry.opening, ["c3", "b2"]);
        assert_eq!(entry.result, "0-1");
        assert_eq!(entry.report(), Some(report));
        let json = serde_json::to_value(&entry).unwrap();
        assert_eq!(json["termination"], "no-legal-move");
    }
}
