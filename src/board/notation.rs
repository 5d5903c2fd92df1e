//! The position string: `<rows> <side>`, parsed, then validated, and printed back.
//!
//! Rows run from the top rank down to rank 1, separated by `/`. Inside a row, files
//! run from `a` rightwards: a number `n` is `n` free squares, `x` a slimed square,
//! `s` the snail. The side to move, `1` or `2`, follows after white space.
//! The 7×7 start is `7/7/7/3s3/7/7/7 1`.

use std::fmt;
use std::str::FromStr;

use super::bitboard::{Bitboard, Word};
use super::coords::{MAX_SIDE, MIN_SIDE, Side, Size, Square};
use super::position::Position;

/// Why a position string was rejected.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum PositionError {
    /// Nothing but white space.
    Empty,
    /// The rows are not followed by the side to move.
    MissingSide,
    /// The side to move is neither `1` nor `2`.
    BadSide(String),
    /// Something follows the side to move.
    TrailingText(String),
    /// A character other than a digit, `x`, `s` or `/` among the rows.
    JunkCharacter {
        /// The offending character.
        character: char,
        /// The row it is in, counted from the top starting at 1.
        row: usize,
    },
    /// A row holds no square at all.
    EmptyRow {
        /// The row, counted from the top starting at 1.
        row: usize,
    },
    /// A run of free squares written as `0`, or with a leading zero.
    BadCount {
        /// The run as written.
        count: String,
        /// The row, counted from the top starting at 1.
        row: usize,
    },
    /// Two rows have different lengths.
    RowLengthsDiffer {
        /// The row, counted from the top starting at 1.
        row: usize,
        /// Its length.
        found: usize,
        /// The length of the first row.
        expected: usize,
    },
    /// The board implied by the rows is smaller than 3 or larger than 11 on a side.
    SizeOutOfRange {
        /// Files, the length of each row.
        width: usize,
        /// Ranks, the number of rows.
        height: usize,
    },
    /// No square holds the snail.
    NoSnail,
    /// More than one square holds a snail.
    TwoSnails {
        /// The first snail found.
        first: String,
        /// Another one.
        second: String,
    },
    /// The snail stands on a goal corner, so the game would already be over.
    SnailOnGoal(String),
    /// A goal corner is slimed, which no game can produce.
    GoalSlimed(String),
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use PositionError::*;
        const FORMAT: &str = "expected rows from the top separated by '/' then the side to move, such as '7/7/7/3s3/7/7/7 1'";
        match self {
            Empty => write!(f, "the position is empty: {FORMAT}"),
            MissingSide => write!(
                f,
                "the side to move is missing: expected '1' or '2' after the rows"
            ),
            BadSide(side) => write!(f, "bad side to move '{side}': expected '1' or '2'"),
            TrailingText(text) => write!(
                f,
                "unexpected text '{text}' after the side to move: {FORMAT}"
            ),
            JunkCharacter { character, row } => write!(
                f,
                "unexpected character {character:?} in row {row}: expected a count of free squares, 'x' for slime or 's' for the snail"
            ),
            EmptyRow { row } => write!(
                f,
                "row {row} is empty: expected at least one square in every row"
            ),
            BadCount { count, row } => write!(
                f,
                "bad count '{count}' in row {row}: expected a positive number without leading zeros"
            ),
            RowLengthsDiffer {
                row,
                found,
                expected,
            } => write!(
                f,
                "row lengths differ: row {row} has {found} squares, expected {expected} like row 1"
            ),
            SizeOutOfRange { width, height } => write!(
                f,
                "the rows describe a {width}x{height} board: width and height must each be from {MIN_SIDE} to {MAX_SIDE}"
            ),
            NoSnail => write!(f, "there is no snail: expected exactly one 's'"),
            TwoSnails { first, second } => write!(
                f,
                "there are two snails, on {first} and {second}: expected exactly one 's'"
            ),
            SnailOnGoal(square) => write!(
                f,
                "the snail is on the goal corner {square}: the game would already be over"
            ),
            GoalSlimed(square) => write!(
                f,
                "the goal corner {square} is slimed: the snail can never leave a goal, so a goal is never slimed"
            ),
        }
    }
}

impl std::error::Error for PositionError {}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Cell {
    Free,
    Slime,
    Snail,
}

/// Reads one row into cells. Counts are capped so hostile input cannot allocate much.
fn parse_row(text: &str, row: usize, cells: &mut Vec<Cell>) -> Result<(), PositionError> {
    const CAP: usize = MAX_SIDE as usize + 1;
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'x' => cells.push(Cell::Slime),
            b's' => cells.push(Cell::Snail),
            b'0'..=b'9' => {
                let start = i;
                while i + 1 < bytes.len() && bytes[i + 1].is_ascii_digit() {
                    i += 1;
                }
                let digits = &text[start..=i];
                if digits.starts_with('0') {
                    return Err(PositionError::BadCount {
                        count: digits.to_string(),
                        row,
                    });
                }
                let count = digits.parse::<usize>().unwrap_or(CAP).min(CAP);
                cells.extend(std::iter::repeat_n(Cell::Free, count));
            }
            _ => {
                let character = text[i..].chars().next().unwrap_or('?');
                return Err(PositionError::JunkCharacter { character, row });
            }
        }
        if cells.len() > CAP {
            // Longer than any legal row: stop reading, the length check reports it.
            return Ok(());
        }
        i += 1;
    }
    if cells.is_empty() {
        return Err(PositionError::EmptyRow { row });
    }
    Ok(())
}

fn parse_side(text: &str) -> Result<Side, PositionError> {
    match text {
        "1" => Ok(Side::One),
        "2" => Ok(Side::Two),
        other => Err(PositionError::BadSide(other.chars().take(20).collect())),
    }
}

impl<W: Word> Position<W> {
    /// Parses and validates a position string. The board must fit in the word `W`.
    pub fn parse(text: &str) -> Result<Self, PositionError> {
        let mut fields = text.split_whitespace();
        let rows_text = fields.next().ok_or(PositionError::Empty)?;
        let side = parse_side(fields.next().ok_or(PositionError::MissingSide)?)?;
        if let Some(extra) = fields.next() {
            return Err(PositionError::TrailingText(
                extra.chars().take(20).collect(),
            ));
        }
        let mut rows: Vec<Vec<Cell>> = Vec::new();
        for (i, row_text) in rows_text.split('/').enumerate() {
            if i > MAX_SIDE as usize {
                break; // Too many rows; the size check below reports it.
            }
            let mut cells = Vec::new();
            parse_row(row_text, i + 1, &mut cells)?;
            if let Some(first) = rows.first() {
                if cells.len() != first.len() {
                    return Err(PositionError::RowLengthsDiffer {
                        row: i + 1,
                        found: cells.len(),
                        expected: first.len(),
                    });
                }
            }
            rows.push(cells);
        }
        let height = rows_text.split('/').count();
        let width = rows[0].len();
        let size = Size::new(width, height)
            .map_err(|_| PositionError::SizeOutOfRange { width, height })?;
        assert!(
            size.fits::<W>(),
            "a {size} board does not fit in {} bits",
            W::BITS
        );
        let mut slimed = Bitboard::<W>::EMPTY;
        let mut snail: Option<Square> = None;
        for (i, cells) in rows.iter().enumerate() {
            let rank = height - 1 - i;
            for (file, &cell) in cells.iter().enumerate() {
                let square = size.square(file, rank).expect("cell is on the board");
                match cell {
                    Cell::Free => {}
                    Cell::Slime => slimed.insert(square),
                    Cell::Snail => {
                        if let Some(first) = snail {
                            // Report the two snails in reading order (top rank first).
                            return Err(PositionError::TwoSnails {
                                first: size.name(first).to_string(),
                                second: size.name(square).to_string(),
                            });
                        }
                        snail = Some(square);
                    }
                }
            }
        }
        let snail = snail.ok_or(PositionError::NoSnail)?;
        if size.goal_owner(snail).is_some() {
            return Err(PositionError::SnailOnGoal(size.name(snail).to_string()));
        }
        for player in Side::BOTH {
            let goal = size.goal(player);
            if slimed.contains(goal) {
                return Err(PositionError::GoalSlimed(size.name(goal).to_string()));
            }
        }
        Ok(Position::from_parts(size, slimed, snail, side))
    }
}

impl FromStr for Position {
    type Err = PositionError;
    fn from_str(text: &str) -> Result<Self, PositionError> {
        Position::parse(text)
    }
}

impl<W: Word> fmt::Display for Position<W> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let size = self.size();
        let slimed = self.slimed();
        for rank in (0..size.height()).rev() {
            let mut free_run = 0;
            for file in 0..size.width() {
                let square = size.square(file, rank).expect("square on board");
                let mark = if square == self.snail() {
                    's'
                } else if slimed.contains(square) {
                    'x'
                } else {
                    free_run += 1;
                    continue;
                };
                if free_run > 0 {
                    write!(f, "{free_run}")?;
                    free_run = 0;
                }
                write!(f, "{mark}")?;
            }
            if free_run > 0 {
                write!(f, "{free_run}")?;
            }
            if rank > 0 {
                f.write_str("/")?;
            }
        }
        write!(f, " {}", self.side_to_move().number())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<Position, PositionError> {
        text.parse()
    }

    #[test]
    fn start_position_round_trips() {
        let start: Position = Position::start(Size::DEFAULT);
        assert_eq!(start.to_string(), "7/7/7/3s3/7/7/7 1");
        assert_eq!(parse("7/7/7/3s3/7/7/7 1"), Ok(start));
    }

    #[test]
    fn canonical_strings_round_trip() {
        for text in [
            "7/7/7/3s3/7/7/7 1",
            "6/6/6/2sx2/6/6/6 2",
            "x10/11/11/11/11/5s5/11/11/11/11/10x 1",
            "3/1s1/3 1",
            "2xx2/x1x1xx/3s1x/6 2",
            "xxx1/xsx1/4 1",
        ] {
            let pos = parse(text).unwrap_or_else(|e| panic!("{text}: {e}"));
            assert_eq!(pos.to_string(), text);
        }
    }

    #[test]
    fn size_is_implied_by_the_rows() {
        let pos = parse("8/8/8/4s3/8/8/8 1").unwrap();
        assert_eq!((pos.size().width(), pos.size().height()), (8, 7));
        assert_eq!(pos.name(pos.snail()), "e4");
    }

    #[test]
    fn whitespace_around_fields_is_accepted() {
        assert_eq!(
            parse("  7/7/7/3s3/7/7/7 \t 1  "),
            parse("7/7/7/3s3/7/7/7 1")
        );
    }

    fn error(text: &str) -> PositionError {
        parse(text).expect_err(text)
    }

    #[test]
    fn empty_input_is_rejected() {
        assert_eq!(error(""), PositionError::Empty);
        assert_eq!(error("   \n "), PositionError::Empty);
    }

    #[test]
    fn missing_or_bad_side_is_rejected() {
        assert_eq!(error("7/7/7/3s3/7/7/7"), PositionError::MissingSide);
        assert_eq!(
            error("7/7/7/3s3/7/7/7 3"),
            PositionError::BadSide("3".into())
        );
        assert_eq!(
            error("7/7/7/3s3/7/7/7 w"),
            PositionError::BadSide("w".into())
        );
        assert_eq!(
            error("7/7/7/3s3/7/7/7 1 moves"),
            PositionError::TrailingText("moves".into())
        );
    }

    #[test]
    fn row_lengths_must_agree() {
        assert_eq!(
            error("7/7/7/3s2/7/7/7 1"),
            PositionError::RowLengthsDiffer {
                row: 4,
                found: 6,
                expected: 7
            }
        );
        assert!(
            error("7/7/7/3s3/7/7/8 1")
                .to_string()
                .contains("row lengths differ")
        );
    }

    #[test]
    fn empty_rows_are_rejected() {
        assert_eq!(
            error("7/7//3s3/7/7/7 1"),
            PositionError::EmptyRow { row: 3 }
        );
        assert_eq!(
            error("7/7/7/3s3/7/7/7/ 1"),
            PositionError::EmptyRow { row: 8 }
        );
    }

    #[test]
    fn junk_characters_are_rejected() {
        assert_eq!(
            error("7/7/7/3S3/7/7/7 1"),
            PositionError::JunkCharacter {
                character: 'S',
                row: 4
            }
        );
        assert_eq!(
            error("7/7/7/3s3/7/7/-7 1"),
            PositionError::JunkCharacter {
                character: '-',
                row: 7
            }
        );
        assert!(matches!(
            error("7/7/7/3s3/7/7/7é 1"),
            PositionError::JunkCharacter {
                character: 'é', ..
            }
        ));
    }

    #[test]
    fn zero_counts_are_rejected() {
        assert_eq!(
            error("7/7/7/03s3/7/7/7 1"),
            PositionError::BadCount {
                count: "03".into(),
                row: 4
            }
        );
        assert!(matches!(
            error("7/7/7/3s03/7/7/7 1"),
            PositionError::BadCount { .. }
        ));
    }

    #[test]
    fn sizes_out_of_range_are_rejected() {
        assert_eq!(
            error("2/s1 1"),
            PositionError::SizeOutOfRange {
                width: 2,
                height: 2
            }
        );
        assert_eq!(
            error("12/12/12/12/12/5s6/12/12/12/12/12/12 1"),
            PositionError::SizeOutOfRange {
                width: 12,
                height: 12
            }
        );
        let tall = format!("{}s2 1", "3/".repeat(20));
        assert!(matches!(
            error(&tall),
            PositionError::SizeOutOfRange { width: 3, .. }
        ));
        let huge_count = "99999999999999999999999/7/7/3s3/7/7/7 1";
        assert!(matches!(
            error(huge_count),
            PositionError::SizeOutOfRange { .. } | PositionError::RowLengthsDiffer { .. }
        ));
    }

    #[test]
    fn snail_count_must_be_one() {
        assert_eq!(error("7/7/7/7/7/7/7 1"), PositionError::NoSnail);
        assert_eq!(
            error("7/7/s6/3s3/7/7/7 1"),
            PositionError::TwoSnails {
                first: "a5".into(),
                second: "d4".into()
            }
        );
    }

    #[test]
    fn snail_on_a_goal_is_rejected() {
        assert_eq!(
            error("6s/7/7/7/7/7/7 1"),
            PositionError::SnailOnGoal("g7".into())
        );
        assert_eq!(
            error("7/7/7/7/7/7/s6 2"),
            PositionError::SnailOnGoal("a1".into())
        );
    }

    #[test]
    fn slimed_goals_are_rejected() {
        assert_eq!(
            error("6x/7/7/3s3/7/7/7 1"),
            PositionError::GoalSlimed("g7".into())
        );
        assert_eq!(
            error("7/7/7/3s3/7/7/x6 2"),
            PositionError::GoalSlimed("a1".into())
        );
    }

    #[test]
    fn every_error_message_says_what_was_expected() {
        let cases = [
            "",
            "7/7/7/3s3/7/7/7",
            "7/7/7/3s3/7/7/7 9",
            "7/7/7/3s3/7/7/7 1 x",
            "7/7/7/3q3/7/7/7 1",
            "7//7/3s3/7/7/7 1",
            "7/07/7/3s3/7/7/7 1",
            "7/6/7/3s3/7/7/7 1",
            "1/s 1",
            "7/7/7/7/7/7/7 1",
            "s6/s6/7/7/7/7/7 1",
            "6s/7/7/7/7/7/7 1",
            "6x/7/7/3s3/7/7/7 1",
        ];
        for text in cases {
            let message = error(text).to_string();
            assert!(
                message.contains("expected")
                    || message.contains("must")
                    || message.contains("never")
                    || message.contains("would"),
                "{text:?}: {message}"
            );
        }
    }
}
