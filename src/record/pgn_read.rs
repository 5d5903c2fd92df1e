//! Reading a game back from a PGN record: the tags give the start, the move text the
//! moves; comments, move numbers, annotations and the result are skipped, and every move
//! is checked by the rules.
//!
//! The start comes from, in this order: `FEN` (with `SetUp "1"`, as the arena and the
//! GUI write for a game from a position string) or the older `Position` tag; else
//! `Board` and `Start`; else the 7×7 start. Tags that contradict each other, a `SetUp
//! "1"` without its position, another `Variant`, variations and a second game are
//! refused with a [`PgnError`] that says why.

use crate::board::{Position, Size, Square};

use super::pgn_error::PgnError;

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
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut tags = StartTags::default();
    let mut movetext = String::new();
    let mut in_comment = false;
    for line in text.lines() {
        let trimmed = line.trim();
        if !in_comment && trimmed.starts_with('%') {
            continue; // an escaped line
        }
        if !in_comment && trimmed.starts_with('[') {
            if !movetext.trim().is_empty() {
                // A tag after the moves begins a second game.
                return Err(PgnError::AfterResult(shorten(trimmed)));
            }
            let Some((key, value)) = tag_pair(&trimmed[1..]) else {
                return Err(PgnError::BadTag(shorten(trimmed)));
            };
            tags.take(key, value)?;
            continue;
        }
        for c in line.chars() {
            match c {
                '{' => in_comment = true,
                '}' if in_comment => {
                    in_comment = false;
                    movetext.push(' ');
                }
                '}' => return Err(PgnError::UnopenedComment),
                _ if !in_comment => movetext.push(c),
                _ => {}
            }
        }
        movetext.push(' ');
    }
    if in_comment {
        return Err(PgnError::UnclosedComment);
    }
    let start = tags.start()?;
    let moves = read_moves(&start, &movetext)?;
    Ok(PgnGame { start, moves })
}

/// The tags that say how a game starts, as read.
#[derive(Default)]
struct StartTags {
    variant: Option<String>,
    board: Option<String>,
    start: Option<String>,
    position: Option<String>,
    fen: Option<String>,
    setup: Option<String>,
}

impl StartTags {
    /// Keeps one tag; a tag of the start given twice must say the same both times.
    fn take(&mut self, key: &str, value: String) -> Result<(), PgnError> {
        let (name, slot) = match key {
            "Variant" => ("Variant", &mut self.variant),
            "Board" => ("Board", &mut self.board),
            "Start" => ("Start", &mut self.start),
            "Position" => ("Position", &mut self.position),
            "FEN" => ("FEN", &mut self.fen),
            "SetUp" => ("SetUp", &mut self.setup),
            _ => return Ok(()),
        };
        let value = value.trim().to_string();
        match slot {
            Some(old) if *old != value => Err(PgnError::RepeatedTag(name)),
            _ => {
                *slot = Some(value);
                Ok(())
            }
        }
    }

    /// The position the game starts from, or why the tags give none.
    fn start(&self) -> Result<Position, PgnError> {
        if let Some(variant) = &self.variant {
            if !variant.eq_ignore_ascii_case(super::VARIANT) {
                return Err(PgnError::Variant(variant.clone()));
            }
        }
        let board: Option<Size> = match &self.board {
            Some(text) => Some(text.parse().map_err(PgnError::Board)?),
            None => None,
        };
        let fen: Option<Position> = match &self.fen {
            Some(text) => Some(text.parse().map_err(PgnError::Fen)?),
            None => None,
        };
        let position: Option<Position> = match &self.position {
            Some(text) => Some(text.parse().map_err(PgnError::Position)?),
            None => None,
        };
        let set_up = match (fen, position) {
            (Some(f), Some(p)) if f != p => {
                return Err(PgnError::Conflict {
                    first: format!("FEN gives {f}"),
                    second: format!("Position gives {p}"),
                });
            }
            (f, p) => f
                .or(p)
                .map(|p| (p, if fen.is_some() { "FEN" } else { "Position" })),
        };
        match (self.setup.as_deref(), set_up) {
            (None | Some("1"), Some((position, tag))) => self.check_set_up(position, tag, board),
            (Some("1"), None) => Err(PgnError::SetUpWithoutFen),
            (Some("0"), Some((position, tag))) => Err(PgnError::Conflict {
                first: "SetUp \"0\" says the game starts from the usual start".to_string(),
                second: format!("{tag} gives {position}"),
            }),
            (None | Some("0"), None) => {
                let size = board.unwrap_or_default();
                match &self.start {
                    Some(name) => Position::start_named(size, name).map_err(PgnError::Start),
                    None => Ok(Position::start(size)),
                }
            }
            (Some(other), _) => Err(PgnError::SetUp(other.to_string())),
        }
    }

    /// A set-up position, checked against the `Board` and `Start` tags.
    fn check_set_up(
        &self,
        position: Position,
        tag: &str,
        board: Option<Size>,
    ) -> Result<Position, PgnError> {
        let size = position.size();
        if let Some(board) = board.filter(|&b| b != size) {
            return Err(PgnError::Conflict {
                first: format!("Board says {}x{}", board.width(), board.height()),
                second: format!(
                    "{tag} gives a {}x{} board ({position})",
                    size.width(),
                    size.height()
                ),
            });
        }
        if let Some(name) = &self.start {
            let square = size
                .parse_square(name)
                .map_err(|e| PgnError::Start(crate::board::StartError::Square(e)))?;
            // The square the snail started on is slimed once it leaves, or under it.
            if square != position.snail() && !position.slimed().contains(square) {
                return Err(PgnError::Conflict {
                    first: format!("Start says the snail started on {name}"),
                    second: format!(
                        "{tag} gives {position}, where {name} is neither slimed nor the snail's"
                    ),
                });
            }
        }
        Ok(position)
    }
}

/// `Name "value"]` without the opening bracket: the name and the unescaped value.
fn tag_pair(tag: &str) -> Option<(&str, String)> {
    let tag = tag.trim_end().strip_suffix(']')?;
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

/// The moves of the move text (comments already gone), each checked against the position
/// it is played in.
fn read_moves(start: &Position, movetext: &str) -> Result<Vec<Square>, PgnError> {
    let mut position = *start;
    let mut moves = Vec::new();
    let mut ended = false;
    for word in movetext.split_whitespace() {
        if ended {
            return Err(PgnError::AfterResult(shorten(word)));
        }
        if matches!(word, "1-0" | "0-1" | "*" | "1/2-1/2") {
            ended = true;
            continue;
        }
        if word.starts_with('(') || word.starts_with(')') {
            return Err(PgnError::Variation);
        }
        if word.starts_with('$') {
            continue; // a numeric annotation glyph
        }
        // Move numbers: `1.`, `12...`, or glued to the move as in `1.c3`.
        let unnumbered = word.trim_start_matches(|c: char| c.is_ascii_digit());
        let word = match unnumbered.strip_prefix('.') {
            Some(rest) => rest.trim_start_matches('.'),
            None => word,
        };
        // Annotations such as `c3!` or `e5?!`.
        let word = word.trim_end_matches(['!', '?']);
        if word.is_empty() {
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
    fn set_up_positions_are_the_start() {
        // Issue 26: the FEN tag was ignored and the moves replayed from d4.
        let text = "[Variant \"slimetrail\"]\n[Board \"7x7\"]\n[SetUp \"1\"]\n\
                    [FEN \"7/7/2x4/2xs3/7/7/7 1\"]\n\n1. d3 c3 *\n";
        let game = read_pgn(text).unwrap();
        let mut end = game.start;
        for &m in &game.moves {
            end.play(m);
        }
        assert_eq!(end.to_string(), "7/7/2x4/2xx3/2sx3/7/7 1");
        // Without SetUp, a FEN is still the start; the older Position tag may repeat it.
        let text =
            "[FEN \"7/7/7/3x3/1sx4/7/7 2\"]\n[Position \"7/7/7/3x3/1sx4/7/7 2\"]\n1... a4 0-1";
        assert_eq!(
            read_pgn(text).unwrap().start.to_string(),
            "7/7/7/3x3/1sx4/7/7 2"
        );
        // A Start tag naming a square the snail left (slimed) agrees with the FEN.
        let text = "[Start \"d4\"]\n[SetUp \"1\"]\n[FEN \"7/7/7/3x3/1sx4/7/7 2\"]\n*";
        assert!(read_pgn(text).is_ok());
    }

    #[test]
    fn what_cannot_be_replayed_is_refused_with_a_reason() {
        let refuse = |text: &str, words: &[&str]| {
            let e = read_pgn(text).unwrap_err().to_string();
            for w in words {
                assert!(e.contains(w), "`{w}` not in: {e}");
            }
        };
        refuse("[SetUp \"1\"]\n1. c3 *", &["SetUp \"1\"", "no FEN"]);
        refuse("[SetUp \"yes\"]\n*", &["SetUp tag `yes`"]);
        refuse(
            "[SetUp \"0\"]\n[FEN \"7/7/7/3x3/1sx4/7/7 2\"]\n*",
            &["SetUp \"0\"", "FEN gives"],
        );
        refuse("[FEN \"7/7/7/3x3/1sx4/7/7\"]\n*", &["FEN tag"]);
        refuse(
            "[Board \"9x9\"]\n[FEN \"7/7/7/3x3/1sx4/7/7 2\"]\n*",
            &["Board says 9x9", "7x7 board"],
        );
        refuse(
            "[Start \"e5\"]\n[FEN \"7/7/7/3x3/1sx4/7/7 2\"]\n*",
            &["Start says", "e5 is neither slimed"],
        );
        refuse(
            "[FEN \"7/7/7/3x3/1sx4/7/7 2\"]\n[Position \"7/7/7/7/3s3/7/7 1\"]\n*",
            &["FEN gives", "Position gives"],
        );
        refuse(
            "[Board \"7x7\"]\n[Board \"9x9\"]\n*",
            &["Board tag appears twice"],
        );
        refuse("[Variant \"chess\"]\n1. e4 *", &["`chess`", "slimetrail"]);
        refuse("1. c3 (1. e5) b2 *", &["variation"]);
        refuse(
            "1. c3 * \n\n[Event \"2\"]\n1. c3 *",
            &["follows the result"],
        );
        refuse("1. c3 b2 1-0 2. a1", &["`2.` follows the result"]);
    }

    #[test]
    fn move_text_may_carry_annotations_and_escapes() {
        let text = "% an escaped line\n[Board \"7x7\"]\n1.c3! $1 b2?! {a {comment}\n2.a1 1-0";
        let game = read_pgn(text).unwrap();
        assert_eq!(game.moves.len(), 3);
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
        let e = read_pgn("1. c3 oops}").unwrap_err().to_string();
        assert!(e.contains("without its"), "{e}");
        let e = read_pgn(&"x".repeat(MAX_PGN_BYTES + 1))
            .unwrap_err()
            .to_string();
        assert!(e.contains("at most"), "{e}");
    }
}
