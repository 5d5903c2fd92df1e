//! A human-readable picture of a position, for the `d` command and terminal play.

use std::fmt;

use super::bitboard::Word;
use super::coords::{Side, Square};
use super::position::{Outcome, Position};

/// A text diagram of a position: coordinates, goals, slime, the snail and whose turn it is.
///
/// Symbols: `@` the snail, `x` slime, `*` the square the last move left, `1` and `2`
/// the goal corners of players 1 and 2, `.` a free square.
pub struct Diagram<'a, W: Word> {
    position: &'a Position<W>,
    last_move: Option<(Square, Square)>,
    /// Whether a finished game's result is written under the board.
    result: bool,
}

impl<'a, W: Word> Diagram<'a, W> {
    /// A diagram of `position`.
    pub fn new(position: &'a Position<W>) -> Self {
        Diagram {
            position,
            last_move: None,
            result: true,
        }
    }

    /// Leaves out the `Game over: ...` line of a finished game, for a caller that
    /// announces the result itself.
    pub fn without_result(mut self) -> Self {
        self.result = false;
        self
    }

    /// Marks the last move, from one square to another.
    pub fn with_last_move(mut self, from: Square, to: Square) -> Self {
        self.last_move = Some((from, to));
        self
    }

    fn symbol(&self, square: Square) -> char {
        let pos = self.position;
        let size = pos.size();
        if square == pos.snail() {
            '@'
        } else if pos.slimed().contains(square) {
            match self.last_move {
                Some((from, _)) if from == square => '*',
                _ => 'x',
            }
        } else {
            match size.goal_owner(square) {
                Some(Side::One) => '1',
                Some(Side::Two) => '2',
                None => '.',
            }
        }
    }
}

impl<W: Word> fmt::Display for Diagram<'_, W> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let pos = self.position;
        let size = pos.size();
        let margin = if size.height() >= 10 { 2 } else { 1 };
        let files: String = (0..size.width())
            .map(|file| format!(" {}", (b'a' + file as u8) as char))
            .collect();
        let rule = format!("{:margin$}  +{}-+", "", "-".repeat(2 * size.width()));
        writeln!(f, "{:margin$}   {files}", "")?;
        writeln!(f, "{rule}")?;
        for rank in (0..size.height()).rev() {
            write!(f, "{:>margin$}  |", rank + 1)?;
            for file in 0..size.width() {
                let square = size.square(file, rank).expect("square on board");
                write!(f, " {}", self.symbol(square))?;
            }
            writeln!(f, " |  {}", rank + 1)?;
        }
        writeln!(f, "{rule}")?;
        writeln!(f, "{:margin$}   {files}", "")?;
        if let Some((from, to)) = self.last_move {
            writeln!(f, "Last move: {} -> {}", size.name(from), size.name(to))?;
        }
        match pos.outcome() {
            Outcome::Ongoing => {
                let side = pos.side_to_move();
                writeln!(
                    f,
                    "{side} to move (goal {}); {} aims for {}.",
                    size.name(size.goal(side)),
                    !side,
                    size.name(size.goal(!side))
                )?;
            }
            Outcome::Decided { winner, reason } => {
                if self.result {
                    writeln!(f, "Game over: {winner} wins ({reason}).")?;
                }
            }
        }
        write!(f, "Position: {pos}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Size;

    #[test]
    fn start_diagram_shows_goals_snail_and_coordinates() {
        let pos: Position = Position::start(Size::DEFAULT);
        let text = Diagram::new(&pos).to_string();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "     a b c d e f g", "{text}");
        assert_eq!(lines[1], "   +---------------+", "{text}");
        assert_eq!(lines[2], "7  | . . . . . . 2 |  7", "{text}");
        assert_eq!(lines[5], "4  | . . . @ . . . |  4", "{text}");
        assert_eq!(lines[8], "1  | 1 . . . . . . |  1", "{text}");
        assert_eq!(lines[10], "     a b c d e f g", "{text}");
        assert!(text.contains("player 1 to move (goal a1)"), "{text}");
        assert!(text.ends_with("Position: 7/7/7/3s3/7/7/7 1"), "{text}");
    }

    #[test]
    fn last_move_and_result_are_shown() {
        let size = Size::DEFAULT;
        let mut pos: Position = Position::start_named(size, "b2").unwrap();
        let from = pos.play(size.parse_square("a1").unwrap());
        let text = Diagram::new(&pos)
            .with_last_move(from, pos.snail())
            .to_string();
        assert!(text.contains("\n2  | . * . . . . . |  2"), "{text}");
        assert!(text.contains("Last move: b2 -> a1"), "{text}");
        assert!(
            text.contains("Game over: player 1 wins (goal reached)."),
            "{text}"
        );
    }

    #[test]
    fn wide_boards_align_two_digit_ranks() {
        let pos: Position = Position::start(Size::new(11, 11).unwrap());
        let text = Diagram::new(&pos).to_string();
        assert!(
            text.contains("\n11  | . . . . . . . . . . 2 |  11"),
            "{text}"
        );
        assert!(
            text.contains("\n 1  | 1 . . . . . . . . . . |  1"),
            "{text}"
        );
    }
}
