//! What a search reports: scores, progress and final results.

use std::time::Duration;

use crate::board::Square;

pub use crate::score::{Bound, Score};

/// A progress report of a running search, and the final statistics of a finished one.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct SearchInfo {
    /// Completed iterative-deepening depth.
    pub depth: u32,
    /// Deepest ply reached.
    pub seldepth: u32,
    /// Score of the principal variation, if one is known.
    pub score: Option<Score>,
    /// How the score relates to the true value.
    pub bound: Bound,
    /// Nodes searched so far.
    pub nodes: u64,
    /// Time since the search started.
    pub time: Duration,
    /// Transposition-table fill, in parts per thousand.
    pub hashfull: u32,
    /// The principal variation.
    pub pv: Vec<Square>,
}

impl SearchInfo {
    /// Nodes per second so far.
    pub fn nps(&self) -> u64 {
        let micros = self.time.as_micros().max(1);
        (u128::from(self.nodes) * 1_000_000 / micros) as u64
    }
}

/// The result of a finished search.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct SearchOutcome {
    /// The move to play; `None` only when the position has no legal move.
    pub best_move: Option<Square>,
    /// Final statistics, score and principal variation.
    pub info: SearchInfo,
}

/// The proven value of a position for the side to move.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Verdict {
    /// The side to move wins with best play.
    Win,
    /// The side to move loses whatever it does.
    Loss,
}

/// The result of `solve`.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct SolveOutcome {
    /// The proven value, or `None` when a limit or `stop` ended the proof first.
    pub verdict: Option<Verdict>,
    /// A winning move when the verdict is a win; the longest-resisting move found for a loss.
    pub best_move: Option<Square>,
    /// Plies to the end of the game under best play (the winner hurries, the loser
    /// delays), when it was computed.
    pub length: Option<u32>,
    /// Final statistics, including the line and the search for the length.
    pub info: SearchInfo,
    /// Nodes of the proof alone.
    pub proof_nodes: u64,
    /// Time of the proof alone.
    pub proof_time: std::time::Duration,
}
