//! The game a GUI session shows: its start, the moves played, the moves taken back
//! (for redo), and its records: the PGN of the arena's format and the position string.

use std::time::Duration;

use crate::board::{IllegalMove, MoveError, Outcome, Position, Side, Square, WinReason};
use crate::client::SearchLimits;
use crate::record::{
    Comments, GameRecord, GameReport, MoveRecord, PgnError, PgnGame, Termination, Venue, write_game,
};

/// The `Event` tag of a game played in the browser.
const EVENT: &str = "Slimetrail browser game";

/// Who plays a side.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Controller {
    /// A person clicking squares.
    Human,
    /// The session's engine.
    Engine,
}

impl Controller {
    /// The word the page and the `setoption` values use: `human` or `engine`.
    pub fn word(self) -> &'static str {
        match self {
            Controller::Human => "human",
            Controller::Engine => "engine",
        }
    }
}

/// A game from a start position: the moves played, and those taken back that redo replays.
#[derive(Clone, Debug)]
pub struct Game {
    start: Position,
    moves: Vec<Square>,
    /// Moves taken back, the next one to redo last.
    undone: Vec<Square>,
}

impl Game {
    /// A game from `start` with no moves.
    pub fn new(start: Position) -> Game {
        Game {
            start,
            moves: Vec::new(),
            undone: Vec::new(),
        }
    }

    /// The game of a PGN record (whose moves the reader checked already).
    pub fn from_pgn(pgn: PgnGame) -> Result<Game, PgnError> {
        Game::with_moves(pgn.start, &pgn.moves).map_err(|(i, error)| PgnError::Move {
            number: i + 1,
            word: pgn.start.name(pgn.moves[i]),
            error: MoveError::Illegal(error),
        })
    }

    /// A game from `start` with `moves` played, each checked by the rules; the error names
    /// the first move that cannot be played and why.
    pub fn with_moves(start: Position, moves: &[Square]) -> Result<Game, (usize, IllegalMove)> {
        let mut position = start;
        for (i, &square) in moves.iter().enumerate() {
            position.try_play(square).map_err(|e| (i, e))?;
        }
        Ok(Game {
            start,
            moves: moves.to_vec(),
            undone: Vec::new(),
        })
    }

    /// The start position.
    pub fn start(&self) -> Position {
        self.start
    }

    /// The moves played from the start.
    pub fn moves(&self) -> &[Square] {
        &self.moves
    }

    /// The moves that redo would replay, the next one first.
    pub fn redoable(&self) -> impl Iterator<Item = Square> + '_ {
        self.undone.iter().rev().copied()
    }

    /// The position after every move.
    pub fn position(&self) -> Position {
        let mut position = self.start;
        for &square in &self.moves {
            position.play(square);
        }
        position
    }

    /// Plays a move after checking it; a new move forgets the moves taken back, unless it
    /// is the move redo would replay.
    pub fn play(&mut self, square: Square) -> Result<(), IllegalMove> {
        self.position().check_move(square)?;
        if self.undone.last() == Some(&square) {
            self.undone.pop();
        } else {
            self.undone.clear();
        }
        self.moves.push(square);
        Ok(())
    }

    /// Takes back one move; false when there is none.
    pub fn undo(&mut self) -> bool {
        match self.moves.pop() {
            Some(square) => {
                self.undone.push(square);
                true
            }
            None => false,
        }
    }

    /// Replays one move taken back; false when there is none.
    pub fn redo(&mut self) -> bool {
        match self.undone.pop() {
            Some(square) => {
                self.moves.push(square);
                true
            }
            None => false,
        }
    }

    /// The record in the arena's PGN format; `*` as the result while the game goes on.
    pub fn pgn(&self, players: [String; 2], limits: [SearchLimits; 2]) -> String {
        let outcome = self.position().outcome();
        let (winner, termination) = match outcome {
            Outcome::Decided { winner, reason } => (
                winner,
                match reason {
                    WinReason::GoalReached => Termination::GoalReached,
                    WinReason::NoLegalMove => Termination::NoLegalMove,
                },
            ),
            Outcome::Ongoing => (Side::One, Termination::GoalReached),
        };
        let record = GameRecord {
            report: GameReport {
                number: 0,
                round: 1,
                pair: 0,
                players,
                winner: winner.number(),
                termination,
                detail: String::new(),
                plies: self.moves.len(),
                opening: "-".to_string(),
                start: self.start.to_string(),
                moves: self
                    .moves
                    .iter()
                    .map(|&m| self.start.name(m).to_string())
                    .collect(),
            },
            start: self.start,
            moves: self
                .moves
                .iter()
                .map(|&square| MoveRecord {
                    square,
                    elapsed: None::<Duration>,
                    comment: None,
                })
                .collect(),
            opening_plies: 0,
            limits,
        };
        let text = write_game(&record, &Venue::here_and_now(EVENT), Comments::Full);
        if outcome.is_over() {
            return text;
        }
        // The arena only records finished games; an unfinished one says `*`.
        let text = text
            .replacen("[Result \"1-0\"]", "[Result \"*\"]", 1)
            .replacen(
                "[Termination \"goal-reached\"]",
                "[Termination \"unterminated\"]",
                1,
            );
        match text.strip_suffix("1-0\n\n") {
            Some(body) => format!("{body}*\n\n"),
            None => text,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Size;

    fn square(position: &Position, name: &str) -> Square {
        position.size().parse_square(name).unwrap()
    }

    #[test]
    fn undo_and_redo_walk_the_same_line_until_a_new_move() {
        let start = Position::start(Size::DEFAULT);
        let mut game = Game::new(start);
        game.play(square(&start, "c3")).unwrap();
        game.play(square(&start, "b2")).unwrap();
        assert!(game.undo());
        assert_eq!(game.redoable().count(), 1);
        assert!(game.redo());
        assert_eq!(game.moves().len(), 2);
        assert!(game.undo() && game.undo() && !game.undo());
        // Replaying the same first move keeps the rest of the line for redo.
        game.play(square(&start, "c3")).unwrap();
        assert_eq!(game.redoable().count(), 1);
        // Another move forgets it.
        assert!(game.undo());
        game.play(square(&start, "e5")).unwrap();
        assert_eq!(game.redoable().count(), 0);
        let err = game.play(square(&start, "d4")).unwrap_err();
        assert_eq!(err, IllegalMove::Slimed("d4".parse().unwrap()));
    }

    #[test]
    fn records_say_star_until_the_end() {
        let start = Position::start(Size::DEFAULT);
        let mut game = Game::new(start);
        game.play(square(&start, "c3")).unwrap();
        let names = || ["you".to_string(), "engine".to_string()];
        let limits = || [SearchLimits::default(), SearchLimits::default()];
        let text = game.pgn(names(), limits());
        assert!(text.contains("[Result \"*\"]"), "{text}");
        assert!(text.ends_with("1. c3 *\n\n"), "{text}");
        game.play(square(&start, "b2")).unwrap();
        game.play(square(&start, "a1")).unwrap();
        let text = game.pgn(names(), limits());
        assert!(text.contains("[Result \"1-0\"]"), "{text}");
        assert!(text.ends_with("1. c3 b2 2. a1 1-0\n\n"), "{text}");
    }

    #[test]
    fn a_game_from_a_position_string_comes_back_from_its_record() {
        // Issue 26: `position fen 7/7/2x4/2xs3/7/7/7 1 moves d3 c3`, exported and imported.
        let start: Position = "7/7/2x4/2xs3/7/7/7 1".parse().unwrap();
        let game = Game::with_moves(start, &[square(&start, "d3"), square(&start, "c3")]).unwrap();
        assert_eq!(game.position().to_string(), "7/7/2x4/2xx3/2sx3/7/7 1");
        let names = ["you".to_string(), "engine".to_string()];
        let limits = [SearchLimits::default(), SearchLimits::default()];
        let text = game.pgn(names, limits);
        let back = Game::from_pgn(crate::record::read_pgn(&text).unwrap()).unwrap();
        assert_eq!(back.start(), start, "{text}");
        assert_eq!(back.moves(), game.moves());
        assert_eq!(back.position().to_string(), "7/7/2x4/2xx3/2sx3/7/7 1");
    }

    #[test]
    fn exported_games_import_to_the_same_game_on_every_board() {
        let mut rng = crate::rng::Rng::new(26);
        let names = || ["you".to_string(), "engine".to_string()];
        let limits = || [SearchLimits::default(), SearchLimits::default()];
        for width in 3..=11 {
            for height in 3..=11 {
                let size = Size::new(width, height).unwrap();
                let mut set_up = Position::start(size);
                if let Some(&sq) = rng.choose(&set_up.moves().iter().collect::<Vec<_>>()) {
                    if size.goal_owner(sq).is_none() {
                        set_up.play(sq);
                    }
                }
                // Another start square: the last one that is no goal (b3 on 3×3, j11 on 11×11).
                let other = (0..size.squares() as u8)
                    .rev()
                    .map(Square::from_index)
                    .find(|&sq| size.goal_owner(sq).is_none())
                    .map(|sq| Position::start_at(size, sq).unwrap())
                    .unwrap();
                for start in [Position::start(size), other, set_up] {
                    let mut game = Game::new(start);
                    // Every prefix: unfinished games say `*`, finished ones their result.
                    loop {
                        let text = game.pgn(names(), limits());
                        let back = crate::record::read_pgn(&text)
                            .and_then(Game::from_pgn)
                            .unwrap_or_else(|e| panic!("{e}\n{text}"));
                        assert_eq!(back.start(), start, "{text}");
                        assert_eq!(back.moves(), game.moves(), "{text}");
                        let legal: Vec<Square> = game.position().moves().iter().collect();
                        let Some(&sq) = rng.choose(&legal) else { break };
                        game.play(sq).unwrap();
                    }
                }
            }
        }
    }
}
