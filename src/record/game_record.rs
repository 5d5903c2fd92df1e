//! The record of one game: why it ended ([`Termination`]), its result ([`GameReport`],
//! what the state file, the summaries and the statistics keep) and its moves with what
//! the engines said about them ([`GameRecord`], what the PGN writer needs).

use std::fmt;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::board::{Position, Square};
use crate::client::SearchLimits;

/// Why a game ended.
/// Written everywhere (tables, PGN, JSON) in one spelling: `goal-reached`, `no-legal-move`, ….
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize, PartialOrd, Ord)]
#[serde(rename_all = "kebab-case")]
pub enum Termination {
    /// The snail entered a goal corner.
    GoalReached,
    /// The player to move had no legal move.
    NoLegalMove,
    /// A player overran its clock or move time (plus the margin).
    TimeForfeit,
    /// A player sent a move that is not legal, or no move with moves left.
    IllegalMove,
    /// A player's process exited or crashed.
    Crash,
    /// A player stopped answering: no `bestmove`, or no `readyok` to a ping.
    Hang,
    /// A player printed a line that is not a protocol message.
    Garbage,
    /// A player did not finish its start-up handshake in time, or could not be started.
    Startup,
    /// A player broke the protocol: an unrequested `bestmove`, or a line too long.
    ProtocolViolation,
}

impl Termination {
    /// Whether the game ended by the rules rather than by a player's fault.
    pub fn is_normal(self) -> bool {
        matches!(self, Termination::GoalReached | Termination::NoLegalMove)
    }
}

impl fmt::Display for Termination {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Termination::GoalReached => "goal-reached",
            Termination::NoLegalMove => "no-legal-move",
            Termination::TimeForfeit => "time-forfeit",
            Termination::IllegalMove => "illegal-move",
            Termination::Crash => "crash",
            Termination::Hang => "hang",
            Termination::Garbage => "garbage",
            Termination::Startup => "startup",
            Termination::ProtocolViolation => "protocol-violation",
        })
    }
}

/// The result of one game: what the state file, `merge` and the statistics need.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct GameReport {
    /// Global game number, from 0.
    pub number: usize,
    /// Round, from 1.
    pub round: usize,
    /// Global pair number, from 0.
    pub pair: usize,
    /// Names of player 1 and player 2.
    pub players: [String; 2],
    /// The winner: 1 or 2.
    pub winner: u8,
    /// Why the game ended.
    pub termination: Termination,
    /// The details, such as the illegal move and why it is illegal.
    pub detail: String,
    /// Plies played, opening included.
    pub plies: usize,
    /// The opening moves, `-` when none.
    pub opening: String,
    /// The position the game started from, as a position string.
    #[serde(default)]
    pub start: String,
    /// Every move from `start`, opening moves first.
    #[serde(default)]
    pub moves: Vec<String>,
}

impl GameReport {
    /// `1-0` when player 1 won, `0-1` when player 2 won.
    pub fn result_text(&self) -> &'static str {
        if self.winner == 1 { "1-0" } else { "0-1" }
    }

    /// The winner's name.
    pub fn winner_name(&self) -> &str {
        &self.players[usize::from(self.winner == 2)]
    }
}

/// One move of a game record, with what the engine said about it.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct MoveRecord {
    /// The destination square.
    pub square: Square,
    /// Thinking time, for moves chosen by a player (not opening moves).
    pub elapsed: Option<Duration>,
    /// The engine's last reported score and depth, such as `+0.35/6`.
    pub comment: Option<String>,
}

/// A finished game with its moves, for the PGN file.
#[derive(Clone, Debug)]
pub struct GameRecord {
    /// The result.
    pub report: GameReport,
    /// The position the record starts from.
    pub start: Position,
    /// All moves from `start`, opening moves first.
    pub moves: Vec<MoveRecord>,
    /// How many of the moves came from the opening.
    pub opening_plies: usize,
    /// The limits of player 1 and player 2, for the `TimeControl` and `SearchLimits` tags.
    pub limits: [SearchLimits; 2],
}

#[cfg(test)]
impl GameReport {
    /// A game for tests: number `number` of pair `number / 2` in round 1, from the
    /// start without an opening, won by player `winner` reaching the goal in 11 plies.
    pub fn sample(number: usize, players: [&str; 2], winner: u8) -> GameReport {
        GameReport {
            number,
            round: 1,
            pair: number / 2,
            players: players.map(str::to_string),
            winner,
            termination: Termination::GoalReached,
            detail: String::new(),
            plies: 11,
            opening: "-".to_string(),
            start: String::new(),
            moves: Vec::new(),
        }
    }
}
