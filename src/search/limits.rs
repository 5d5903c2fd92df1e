//! How long a search may run: the time control and the other limits of `go`.

use std::time::Duration;

use crate::board::Side;

/// The clock situation of a search.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum TimeControl {
    /// No time limit: the search ends on `stop`, or when another limit is reached.
    #[default]
    Unlimited,
    /// Search for exactly this long.
    MoveTime(Duration),
    /// Both players' remaining time and increments; the engine plans its own time.
    Clock {
        /// Remaining time of player 1 and player 2.
        remaining: [Duration; 2],
        /// Increment per move of player 1 and player 2.
        increment: [Duration; 2],
        /// Moves until the next time control, if the clock has such a period.
        moves_to_go: Option<u32>,
    },
}

impl TimeControl {
    /// Remaining time and increment of `player`, if clocks are running.
    pub fn clock_of(&self, player: Side) -> Option<(Duration, Duration)> {
        match self {
            TimeControl::Clock {
                remaining,
                increment,
                ..
            } => Some((remaining[player.index()], increment[player.index()])),
            _ => None,
        }
    }
}

/// Every limit of one search. The search ends at the first limit reached.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct Limits {
    /// The time control.
    pub time: TimeControl,
    /// Maximum iterative-deepening depth in plies.
    pub depth: Option<u32>,
    /// Maximum number of nodes.
    pub nodes: Option<u64>,
    /// Keep the result until `stop`, even when the search finishes early (`go infinite`).
    pub infinite: bool,
}

impl Limits {
    /// Limits with only a depth.
    pub fn depth(depth: u32) -> Limits {
        Limits {
            depth: Some(depth),
            ..Limits::default()
        }
    }

    /// Limits with only a fixed time per move.
    pub fn movetime(time: Duration) -> Limits {
        Limits {
            time: TimeControl::MoveTime(time),
            ..Limits::default()
        }
    }

    /// Limits with only a node budget.
    pub fn nodes(nodes: u64) -> Limits {
        Limits {
            nodes: Some(nodes),
            ..Limits::default()
        }
    }

    /// Whether nothing but `stop` ends the search.
    pub fn is_unbounded(&self) -> bool {
        self.time == TimeControl::Unlimited && self.depth.is_none() && self.nodes.is_none()
    }
}
