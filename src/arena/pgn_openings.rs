//! Openings from a file of PGN records, as cutechess-cli's `format=pgn` reads them: each
//! record, read by [`crate::record::read_pgn`] (its start from the tags, every move
//! checked by the rules), is one opening, cut to at most `plies=` moves.

use std::path::Path;

use super::opening_error::{LineProblem, OpeningError};
use super::openings::Opening;
use crate::record::read_pgn;

/// The records of a PGN file: the line each begins on (from 1) and its text. A record
/// ends where a tag line follows its move text.
fn records(text: &str) -> Vec<(usize, String)> {
    let mut list = Vec::new();
    let mut current = String::new();
    let mut begins = 1;
    let mut in_moves = false;
    for (i, line) in text.lines().enumerate() {
        let trimmed = line.trim();
        if trimmed.starts_with('[') && in_moves {
            list.push((begins, std::mem::take(&mut current)));
            in_moves = false;
        }
        if current.trim().is_empty() && !trimmed.is_empty() {
            begins = i + 1;
        }
        if !trimmed.is_empty() && !trimmed.starts_with('[') {
            in_moves = true;
        }
        current.push_str(line);
        current.push('\n');
    }
    if !current.trim().is_empty() {
        list.push((begins, current));
    }
    list
}

/// Every record of `text` as an opening of at most `plies` moves; a record that cannot be
/// read, or whose moves end the game, is an error naming it.
pub fn pgn_openings(
    text: &str,
    path: &Path,
    plies: Option<usize>,
) -> Result<Vec<Opening>, OpeningError> {
    let mut list = Vec::new();
    for (game, (line, record)) in records(text).into_iter().enumerate() {
        let at = |problem| OpeningError::Record {
            path: path.to_path_buf(),
            game: game + 1,
            line,
            problem: Box::new(problem),
        };
        let read = read_pgn(&record).map_err(|e| at(LineProblem::Pgn(e)))?;
        let mut moves = read.moves;
        moves.truncate(plies.unwrap_or(usize::MAX));
        let opening = Opening {
            start: read.start,
            moves,
        };
        if opening.position().outcome().is_over() {
            return Err(at(LineProblem::RecordEndsTheGame {
                plies: opening.moves.len(),
            }));
        }
        list.push(opening);
    }
    if list.is_empty() {
        return Err(OpeningError::Empty {
            path: path.to_path_buf(),
        });
    }
    Ok(list)
}

#[cfg(test)]
mod tests {
    use super::*;

    const TWO: &str = "[Event \"x\"]\n[Board \"7x7\"]\n\n1. c3 b2 2. a1 1-0\n\n\
                       [Event \"y\"]\n[Board \"7x7\"]\n[Start \"e5\"]\n\n1. f4 {+0.35/4 12ms} e4 *\n";

    #[test]
    fn records_are_split_where_tags_follow_moves() {
        let list = records(TWO);
        assert_eq!(list.len(), 2);
        assert_eq!((list[0].0, list[1].0), (1, 6));
        assert!(list[1].1.starts_with("[Event \"y\"]"));
    }

    #[test]
    fn records_become_openings_cut_to_plies() {
        let list = pgn_openings(TWO, Path::new("o.pgn"), Some(2)).unwrap();
        assert_eq!(list[0].describe(), "c3 b2");
        assert_eq!(list[1].describe(), "f4 e4");
        assert_eq!(list[1].start.name(list[1].start.snail()), "e5");
        let e = pgn_openings(TWO, Path::new("o.pgn"), None).unwrap_err();
        assert!(
            matches!(
                e,
                OpeningError::Record {
                    game: 1,
                    line: 1,
                    ..
                }
            ),
            "{e}"
        );
        let e = pgn_openings("[Board \"7x7\"]\n\n1. c3 c3\n", Path::new("o.pgn"), None)
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("o.pgn game 1") && e.contains("PGN move 2"),
            "{e}"
        );
    }
}
