//! Reading a game back from a PGN record in the arena's format: the `Board`, `Start`
//! and `Position` tags give the start, the move text the moves; comments, move numbers
//! and the result are skipped. Every move is checked by the rules.

use std::fmt;

use crate::board::{MoveError, Position, PositionError, Size, SizeError, Square, StartError};

/// A PGN record that cannot be read: what was wrong, and what was expected.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum PgnError {
    /// The record is longer than [`MAX_PGN_BYTES`].
    TooLong(usize),
    /// A tag line that is not `[Name "value"]`: its start.
    BadTag(String),
    /// A `Board` tag that is no board size.
    Board(SizeError),
    /// A `Position` tag that is no position string.
    Position(PositionError),
    /// A `Start` tag that is no start square of the board.
    Start(StartError),
    /// A `}` without its `{`.
    UnopenedComment,
    /// A `{` never closed.
    UnclosedComment,
    /// A move that cannot be played.
    Move {
        /// Its number, from 1.
        number: usize,
        /// The move as written (its start).
        word: String,
        /// Why not.
        error: MoveError,
    },
}

impl fmt::Display for PgnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PgnError::TooLong(bytes) => write!(
                f,
                "PGN: the record has {bytes} bytes: expected at most {MAX_PGN_BYTES}"
            ),
            PgnError::BadTag(line) => {
                write!(f, "PGN: bad tag line `{line}`: expected [Name \"value\"]")
            }
            PgnError::Board(e) => write!(f, "PGN Board tag: {e}"),
            PgnError::Position(e) => write!(f, "PGN Position tag: {e}"),
            PgnError::Start(e) => write!(f, "PGN Start tag: {e}"),
            PgnError::UnopenedComment => {
                f.write_str("PGN: a `}` without its `{`: expected balanced comments")
            }
            PgnError::UnclosedComment => {
                f.write_str("PGN: a comment `{` is never closed: expected a `}`")
            }
            PgnError::Move {
                number,
                word,
                error,
            } => write!(
                f,
                "PGN move {number} ({word}): {error}; expected a legal move"
            ),
        }
    }
}

impl std::error::Error for PgnError {}

/// A game read from a PGN record: where it starts and its moves, each legal.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct PgnGame {
    /// The position the record starts from.
    pub start: Position,
    /// The moves from `start`, each checked by the rules.
    pub moves: Vec<Square>,
}

/// The longest record accepted, in bytes.
pub const MAX_PGN_BYTES: usize = 64 * 1024;

/// Reads one game; the error says what was wrong and what was expected.
pub fn read_pgn(text: &str) -> Result<PgnGame, PgnError> {
    if text.len() > MAX_PGN_BYTES {
        return Err(PgnError::TooLong(text.len()));
    }
    let mut board: Option<Size> = None;
    let mut start: Option<String> = None;
    let mut fen: Option<Position> = None;
    let mut movetext = String::new();
    for line in text.lines() {
        let line = line.trim();
        if let Some(tag) = line.strip_prefix('[') {
            let Some((key, value)) = tag_pair(tag) else {
                return Err(PgnError::BadTag(shorten(line)));
            };
            match key {
                "Board" => {
                    board = Some(value.parse().map_err(PgnError::Board)?);
                }
                "Start" => start = Some(value),
                "Position" => {
                    fen = Some(value.parse().map_err(PgnError::Position)?);
                }
                _ => {}
            }
        } else {
            movetext.push_str(line);
            movetext.push(' ');
        }
    }
    let start = match fen {
        Some(position) => position,
        None => {
            let size = board.unwrap_or_default();
            match start {
                Some(name) => Position::start_named(size, &name).map_err(PgnError::Start)?,
                None => Position::start(size),
            }
        }
    };
    let moves = read_moves(&start, &movetext)?;
    Ok(PgnGame { start, moves })
}

/// `Name "value"]` without the opening bracket: the name and the unescaped value.
fn tag_pair(tag: &str) -> Option<(&str, String)> {
    let tag = tag.strip_suffix(']')?;
    let (key, rest) = tag.split_once(char::is_whitespace)?;
    let quoted = rest.trim().strip_prefix('"')?.strip_suffix('"')?;
    let mut value = String::new();
    let mut chars = quoted.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            value.extend(chars.next());
        } else {
            value.push(c);
        }
    }
    Some((key, value))
}

/// The moves of the move text, each checked against the position it is played in.
fn read_moves(start: &Position, movetext: &str) -> Result<Vec<Square>, PgnError> {
    let mut text = String::new();
    let mut depth = 0usize;
    for c in movetext.chars() {
        match c {
            '{' => depth += 1,
            '}' if depth > 0 => depth -= 1,
            '}' => return Err(PgnError::UnopenedComment),
            _ if depth == 0 => text.push(c),
            _ => {}
        }
    }
    if depth > 0 {
        return Err(PgnError::UnclosedComment);
    }
    let mut position = *start;
    let mut moves = Vec::new();
    for word in text.split_whitespace() {
        // Move numbers: `1.`, `12...`, or glued to the move as in `1.c3`.
        let word = word.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.');
        if word.is_empty() || matches!(word, "*" | "-0" | "-1") {
            continue;
        }
        if matches!(word, "1-0" | "0-1") {
            continue;
        }
        let square = position.parse_move(word).map_err(|error| PgnError::Move {
            number: moves.len() + 1,
            word: shorten(word),
            error,
        })?;
        position.play(square);
        moves.push(square);
    }
    Ok(moves)
}

/// At most 40 characters of `text`, for error messages.
fn shorten(text: &str) -> String {
    text.chars().take(40).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_written_by_the_arena_read_back() {
        let text = "[Event \"Slimetrail arena\"]\n[Board \"7x7\"]\n[Start \"e5\"]\n\
                    [Result \"*\"]\n\n1. f4 {+0.35/4 12ms} e4 2. d3 *\n";
        let game = read_pgn(text).unwrap();
        let names: Vec<String> = game.moves.iter().map(|&sq| game.start.name(sq)).collect();
        assert_eq!(names, ["f4", "e4", "d3"]);
        assert_eq!(game.start.name(game.start.snail()), "e5");
        let from_position = read_pgn("[Position \"7/7/7/3x3/1sx4/7/7 2\"]\n\n1... a4 0-1").unwrap();
        assert_eq!(from_position.moves.len(), 1);
    }

    #[test]
    fn bad_records_say_what_was_wrong() {
        let e = read_pgn("1. c3 d4").unwrap_err().to_string();
        assert!(e.contains("PGN move 2 (d4)") && e.contains("slimed"), "{e}");
        let e = read_pgn("[Board \"13x2\"]\n1. c3").unwrap_err().to_string();
        assert!(e.contains("Board"), "{e}");
        let e = read_pgn("[Board 7x7]").unwrap_err().to_string();
        assert!(e.contains("expected [Name"), "{e}");
        let e = read_pgn("1. c3 {oops").unwrap_err().to_string();
        assert!(e.contains("never closed"), "{e}");
        let e = read_pgn(&"x".repeat(MAX_PGN_BYTES + 1))
            .unwrap_err()
            .to_string();
        assert!(e.contains("at most"), "{e}");
    }
}
