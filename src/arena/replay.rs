//! A saved game checked against the rules: its moves replayed from its start position by
//! [`crate::board`], and its winner and termination derived from them. `--resume` and
//! `merge` refuse a game whose stored result its moves contradict, so that the state,
//! the PGN and the JSON cannot disagree.

use std::fmt;

use crate::board::{MoveError, Outcome, Position, PositionError, WinReason};
use crate::record::{GameReport, Termination};

/// How a saved game's result disagrees with its moves.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum ResultProblem {
    /// No start position is saved.
    NoStart,
    /// The start position cannot be read.
    Start {
        /// The position string as saved.
        start: String,
        /// Why it cannot be read.
        error: PositionError,
    },
    /// A move is not legal where it is played.
    Move {
        /// The ply, from 1.
        ply: usize,
        /// The move as saved.
        text: String,
        /// Why it is not legal.
        error: MoveError,
    },
    /// The saved ply count is not the number of moves.
    Plies {
        /// Plies as saved.
        saved: usize,
        /// Moves saved.
        moves: usize,
    },
    /// The moves end the game, but not with the saved winner or termination.
    Decided {
        /// Winner as saved.
        saved: u8,
        /// Termination as saved.
        saved_termination: Termination,
        /// The winner by the rules.
        winner: u8,
        /// The termination by the rules.
        termination: Termination,
    },
    /// The game is not over after its moves, yet it is saved as ended by the rules.
    NotOver {
        /// Termination as saved.
        termination: Termination,
    },
    /// A fault after the opening is the player to move's, who loses; another winner is saved.
    FaultWinner {
        /// Winner as saved.
        saved: u8,
        /// The player to move, at fault.
        to_move: u8,
        /// Termination as saved.
        termination: Termination,
    },
}

impl fmt::Display for ResultProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ResultProblem::NoStart => f.write_str(
                "no start position saved; expected the position string the game started from",
            ),
            ResultProblem::Start { start, error } => write!(
                f,
                "start position '{start}' cannot be read ({error}); expected a position string"
            ),
            ResultProblem::Move { ply, text, error } => write!(
                f,
                "move {ply} ({text}) is not legal there ({error}); expected the moves of a game \
                 played by the rules"
            ),
            ResultProblem::Plies { saved, moves } => write!(
                f,
                "{saved} plies saved with {moves} moves; expected one ply per move"
            ),
            ResultProblem::Decided {
                saved,
                saved_termination,
                winner,
                termination,
            } => write!(
                f,
                "winner {saved} by {saved_termination} saved, but the moves end the game with \
                 winner {winner} by {termination}; expected the result the rules give"
            ),
            ResultProblem::NotOver { termination } => write!(
                f,
                "{termination} saved, but the game is not over after its moves; expected a \
                 fault, or the moves that end it"
            ),
            ResultProblem::FaultWinner {
                saved,
                to_move,
                termination,
            } => write!(
                f,
                "winner {saved} saved for a {termination} of player {to_move}, who was to \
                 move; expected winner {}",
                3 - to_move
            ),
        }
    }
}

impl std::error::Error for ResultProblem {}

/// Replays `report`'s moves from its start by the rules and checks its result: a game
/// the moves end has the winner and termination they give; a game they do not end was
/// ended by a fault, which after the opening is the player to move's.
pub fn check_result(report: &GameReport) -> Result<(), ResultProblem> {
    if report.start.trim().is_empty() {
        return Err(ResultProblem::NoStart);
    }
    let mut position: Position =
        Position::parse(&report.start).map_err(|error| ResultProblem::Start {
            start: report.start.clone(),
            error,
        })?;
    for (i, text) in report.moves.iter().enumerate() {
        let square = position
            .parse_move(text)
            .map_err(|error| ResultProblem::Move {
                ply: i + 1,
                text: text.clone(),
                error,
            })?;
        position.play(square);
    }
    if report.plies != report.moves.len() {
        return Err(ResultProblem::Plies {
            saved: report.plies,
            moves: report.moves.len(),
        });
    }
    match position.outcome() {
        Outcome::Decided { winner, reason } => {
            let termination = match reason {
                WinReason::GoalReached => Termination::GoalReached,
                WinReason::NoLegalMove => Termination::NoLegalMove,
            };
            if winner.number() != report.winner || termination != report.termination {
                return Err(ResultProblem::Decided {
                    saved: report.winner,
                    saved_termination: report.termination,
                    winner: winner.number(),
                    termination,
                });
            }
        }
        Outcome::Ongoing if report.termination.is_normal() => {
            return Err(ResultProblem::NotOver {
                termination: report.termination,
            });
        }
        Outcome::Ongoing => {
            // Before the engines' first move either player may fail (at start-up, or
            // when a new game is set up); after it, only the player to move.
            let opening = report.opening.split_whitespace().filter(|m| *m != "-");
            let to_move = position.side_to_move().number();
            if report.moves.len() > opening.count() && report.winner == to_move {
                return Err(ResultProblem::FaultWinner {
                    saved: report.winner,
                    to_move,
                    termination: report.termination,
                });
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A 7×7 game from d4 with these moves, as the arena saves it.
    fn game(moves: &[&str], winner: u8, termination: Termination) -> GameReport {
        GameReport {
            number: 0,
            round: 1,
            pair: 0,
            players: ["a".into(), "b".into()],
            winner,
            termination,
            detail: String::new(),
            plies: moves.len(),
            opening: "c3".into(),
            start: "7/7/7/3s3/7/7/7 1".into(),
            moves: moves.iter().map(|m| m.to_string()).collect(),
        }
    }

    #[test]
    fn a_game_ending_in_a_goal_has_the_goal_owner_as_winner() {
        // Player 1 steps c3, player 2 b2, player 1 enters a1.
        let won = game(&["c3", "b2", "a1"], 1, Termination::GoalReached);
        assert_eq!(check_result(&won), Ok(()));
        let forged = GameReport { winner: 2, ..won };
        let problem = check_result(&forged).unwrap_err();
        assert_eq!(
            problem,
            ResultProblem::Decided {
                saved: 2,
                saved_termination: Termination::GoalReached,
                winner: 1,
                termination: Termination::GoalReached,
            }
        );
        assert!(problem.to_string().contains("winner 1 by goal-reached"));
    }

    #[test]
    fn faults_are_the_player_to_moves_after_the_opening() {
        // After c3 b2 player 1 is to move: a time loss is its, and player 2 wins.
        assert_eq!(
            check_result(&game(&["c3", "b2"], 2, Termination::TimeForfeit)),
            Ok(())
        );
        assert!(matches!(
            check_result(&game(&["c3", "b2"], 1, Termination::TimeForfeit)),
            Err(ResultProblem::FaultWinner { to_move: 1, .. })
        ));
        // Within the opening, either player may have failed to start.
        assert_eq!(
            check_result(&game(&["c3"], 1, Termination::Startup)),
            Ok(())
        );
        assert_eq!(check_result(&game(&["c3"], 2, Termination::Crash)), Ok(()));
        // A game the moves do not end was not ended by the rules.
        assert!(matches!(
            check_result(&game(&["c3", "b2"], 2, Termination::GoalReached)),
            Err(ResultProblem::NotOver { .. })
        ));
    }

    #[test]
    fn illegal_moves_and_counts_are_refused() {
        assert!(matches!(
            check_result(&game(&["c3", "c3"], 1, Termination::TimeForfeit)),
            Err(ResultProblem::Move { ply: 2, .. })
        ));
        let mut miscounted = game(&["c3", "b2"], 2, Termination::Hang);
        miscounted.plies = 5;
        assert!(matches!(
            check_result(&miscounted),
            Err(ResultProblem::Plies { saved: 5, moves: 2 })
        ));
        let mut no_start = game(&["c3"], 2, Termination::Hang);
        no_start.start.clear();
        assert_eq!(check_result(&no_start), Err(ResultProblem::NoStart));
    }
}
