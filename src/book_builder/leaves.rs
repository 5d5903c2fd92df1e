//! The leaf-results file of a leaves-first book (`leaves.tsv`): one proven leaf a
//! line, appended as each proof ends, so that a killed run loses at most the proofs
//! in progress.
//!
//! A line is `POSITION<TAB>win|loss<TAB>MOVE|-<TAB>PLIES<TAB>NODES<TAB>MS`: the
//! position as proven, its verdict for the side to move, the winning move of a win,
//! the proof's bound on the plies to the end, and the proof's nodes and time.

use std::collections::HashMap;
use std::fmt;
use std::io;
use std::path::{Path, PathBuf};

use crate::board::{MoveError, Position, PositionError, Square};
use crate::search::{BookKey, book_key};

/// The format of a leaf-results line, for error messages.
pub const RESULT_FORMAT: &str = "POSITION<TAB>win|loss<TAB>MOVE|-<TAB>PLIES<TAB>NODES<TAB>MS";

/// What is known of a position: who wins it and within how many plies.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct GameValue {
    /// Whether the side to move wins.
    pub won: bool,
    /// Plies to the end of the game under the winner's play, at most.
    pub plies: u32,
}

/// A proven leaf: the position as proven, its value, and its winning move if won.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Leaf {
    /// The position as proven (the book key may be its mirror image's).
    pub position: Position,
    /// Who wins and how fast.
    pub value: GameValue,
    /// The proof's winning move, for a won leaf.
    pub square: Option<Square>,
}

impl Leaf {
    /// The leaf as a line of the results file (with its newline), with the
    /// proof's `nodes` and time in milliseconds.
    pub fn line(&self, nodes: u64, ms: u128) -> String {
        format!(
            "{}\t{}\t{}\t{}\t{nodes}\t{ms}\n",
            self.position,
            if self.value.won { "win" } else { "loss" },
            self.square
                .map_or("-".to_string(), |s| self.position.name(s)),
            self.value.plies,
        )
    }
}

/// The leaves proven so far, by book key.
pub type Leaves = HashMap<BookKey, Leaf>;

/// What is wrong with a line of a leaf-results file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LeafLineProblem {
    /// Not six tab-separated fields.
    NotSixFields,
    /// The first field is not a position string.
    Position(PositionError),
    /// The verdict is neither `win` nor `loss`.
    Verdict,
    /// The move is not a legal move of the position.
    Move(MoveError),
    /// A win with `-` for its move.
    WinWithoutMove,
    /// The plies are not a whole number.
    Plies,
}

impl fmt::Display for LeafLineProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LeafLineProblem::NotSixFields => f.write_str("not six fields"),
            LeafLineProblem::Position(e) => e.fmt(f),
            LeafLineProblem::Verdict => f.write_str("a verdict other than win or loss"),
            LeafLineProblem::Move(e) => e.fmt(f),
            LeafLineProblem::WinWithoutMove => f.write_str("a win without a move"),
            LeafLineProblem::Plies => f.write_str("plies that are not a number"),
        }
    }
}

/// Why the leaf results cannot be read, written or made.
#[derive(Debug)]
pub enum LeavesError {
    /// The file cannot be read.
    Read {
        /// The file.
        path: PathBuf,
        /// What the system said.
        error: io::Error,
    },
    /// A line before the last is not a leaf.
    Line {
        /// The file.
        path: PathBuf,
        /// The line, from 1.
        line: usize,
        /// Its text.
        text: String,
        /// What is wrong with it.
        problem: LeafLineProblem,
    },
    /// The file cannot be opened for appending.
    Open {
        /// The file.
        path: PathBuf,
        /// What the system said.
        error: io::Error,
    },
    /// A proof without limits ended without a verdict.
    NoVerdict {
        /// The leaf.
        position: Position,
    },
    /// A result cannot be appended.
    Append {
        /// The file.
        path: PathBuf,
        /// What the system said.
        error: io::Error,
    },
}

impl fmt::Display for LeavesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LeavesError::Read { path, error } => {
                write!(
                    f,
                    "{}: cannot read the leaf results: {error}",
                    path.display()
                )
            }
            LeavesError::Line {
                path,
                line,
                text,
                problem,
            } => write!(
                f,
                "{} line {line}: {problem} in {text:?}; expected {RESULT_FORMAT}",
                path.display()
            ),
            LeavesError::Open { path, error } => {
                write!(
                    f,
                    "{}: cannot open the leaf results: {error}",
                    path.display()
                )
            }
            LeavesError::NoVerdict { position } => {
                write!(f, "{position}: the unlimited proof gave no verdict")
            }
            LeavesError::Append { path, error } => {
                write!(f, "{}: cannot append a result: {error}", path.display())
            }
        }
    }
}

impl std::error::Error for LeavesError {}

/// Reads the leaf results of `path`, lines of [`RESULT_FORMAT`]; no file is no
/// leaves. A last line cut short by a kill (no newline after it) is ignored; any
/// other bad line is an error.
pub fn read_results(path: &Path) -> Result<Leaves, LeavesError> {
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(HashMap::new()),
        Err(error) => {
            return Err(LeavesError::Read {
                path: path.to_path_buf(),
                error,
            });
        }
    };
    parse_results(path, &text)
}

/// The leaves of `text`, the contents of the results file `path` (see
/// [`read_results`]).
pub fn parse_results(path: &Path, text: &str) -> Result<Leaves, LeavesError> {
    let complete = match text.rfind('\n') {
        Some(end) => &text[..end],
        None => "",
    };
    let mut results = HashMap::new();
    for (number, line) in complete.lines().enumerate() {
        let leaf = parse_line(line).map_err(|problem| LeavesError::Line {
            path: path.to_path_buf(),
            line: number + 1,
            text: line.to_string(),
            problem,
        })?;
        results.insert(book_key(&leaf.position).0, leaf);
    }
    Ok(results)
}

/// The leaf of one line of [`RESULT_FORMAT`].
fn parse_line(line: &str) -> Result<Leaf, LeafLineProblem> {
    let fields: Vec<&str> = line.split('\t').collect();
    let [position, verdict, square, plies, _, _] = fields[..] else {
        return Err(LeafLineProblem::NotSixFields);
    };
    let position: Position = position.parse().map_err(LeafLineProblem::Position)?;
    let won = match verdict {
        "win" => true,
        "loss" => false,
        _ => return Err(LeafLineProblem::Verdict),
    };
    let square = match square {
        "-" => None,
        name => Some(position.parse_move(name).map_err(LeafLineProblem::Move)?),
    };
    if won && square.is_none() {
        return Err(LeafLineProblem::WinWithoutMove);
    }
    let plies = plies.parse().map_err(|_| LeafLineProblem::Plies)?;
    Ok(Leaf {
        position,
        value: GameValue { won, plies },
        square,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<Leaves, LeavesError> {
        parse_results(Path::new("dir/leaves.tsv"), text)
    }

    fn leaf(position: &str, won: bool, square: Option<&str>, plies: u32) -> Leaf {
        let position: Position = position.parse().unwrap();
        Leaf {
            position,
            value: GameValue { won, plies },
            square: square.map(|s| position.parse_move(s).unwrap()),
        }
    }

    #[test]
    fn leaves_round_trip_through_their_lines() {
        let leaves = [
            leaf("5/5/2s2/5/5 1", true, Some("b2"), 9),
            leaf("5/5/1xx2/1s3/5 2", false, None, 12),
            leaf("7/7/7/3s3/7/7/7 1", true, Some("e5"), 25),
        ];
        let text: String = leaves.iter().map(|l| l.line(1234, 56)).collect();
        assert_eq!(
            text.lines().next(),
            Some("5/5/2s2/5/5 1\twin\tb2\t9\t1234\t56")
        );
        assert_eq!(
            text.lines().nth(1),
            Some("5/5/1xx2/1s3/5 2\tloss\t-\t12\t1234\t56")
        );
        let read = parse(&text).unwrap();
        assert_eq!(read.len(), 3);
        for l in leaves {
            assert_eq!(read[&book_key(&l.position).0], l);
        }
    }

    #[test]
    fn a_torn_last_line_is_ignored_and_an_empty_file_holds_nothing() {
        let whole = leaf("5/5/2s2/5/5 1", true, Some("b2"), 9).line(1, 0);
        for torn in [
            "5/5/1xx2/1s3/5 2\tlo",
            "5/5/1xx2/1s3/5 2\tloss\t-\t12\t1\t0",
            "x",
        ] {
            let read = parse(&format!("{whole}{torn}")).unwrap();
            assert_eq!(read.len(), 1, "{torn:?}");
        }
        assert!(parse("").unwrap().is_empty());
        assert!(parse("5/5/2s2/5/5 1\twin\tb2\t9\t1\t0").unwrap().is_empty());
        assert!(
            read_results(Path::new("/nonexistent/slimetrail/leaves.tsv"))
                .unwrap()
                .is_empty()
        );
    }

    #[test]
    fn a_leaf_proven_twice_or_as_its_mirror_image_counts_once() {
        let a = leaf("5/5/2s2/5/1x3 2", false, None, 10);
        let mirror: Position = a.position.mirrored();
        let b = Leaf {
            position: mirror,
            ..a
        };
        let text = format!("{}{}{}", a.line(1, 0), a.line(2, 0), b.line(3, 0));
        let read = parse(&text).unwrap();
        assert_eq!(read.len(), 1);
        assert_eq!(read[&book_key(&a.position).0].position, mirror);
    }

    #[test]
    fn bad_result_lines_say_what_is_wrong_and_what_was_expected() {
        let cases = [
            (
                "5/5/2s2/5/5 1\twin\tc4\t7\n",
                LeafLineProblem::NotSixFields,
                "not six fields",
            ),
            (
                "5/5/2s2/5/5 1\twin\tc4\t7\t1\t0\textra\n",
                LeafLineProblem::NotSixFields,
                "not six fields",
            ),
            (
                "5/5/2s2/5/5 1\tdraw\tc4\t7\t1\t0\n",
                LeafLineProblem::Verdict,
                "a verdict other than win or loss",
            ),
            (
                "5/5/2s2/5/5 1\twin\t-\t7\t1\t0\n",
                LeafLineProblem::WinWithoutMove,
                "a win without a move",
            ),
            (
                "5/5/2s2/5/5 1\twin\tc4\tmany\t1\t0\n",
                LeafLineProblem::Plies,
                "plies that are not a number",
            ),
            (
                "5/5/2s2/5/5 1\twin\tc4\t-3\t1\t0\n",
                LeafLineProblem::Plies,
                "plies that are not a number",
            ),
        ];
        for (text, expected, words) in cases {
            let error = parse(text).unwrap_err();
            let LeavesError::Line { line, problem, .. } = &error else {
                panic!("{error}");
            };
            assert_eq!((*line, problem), (1, &expected), "{text:?}");
            assert_eq!(
                error.to_string(),
                format!(
                    "dir/leaves.tsv line 1: {words} in {:?}; expected {RESULT_FORMAT}",
                    text.trim_end_matches('\n')
                )
            );
        }
        // A move that is not legal, and a position that is not one.
        let error = parse("5/5/2s2/5/5 1\twin\ta1\t7\t1\t0\n").unwrap_err();
        assert!(matches!(
            &error,
            LeavesError::Line {
                problem: LeafLineProblem::Move(_),
                ..
            }
        ));
        assert!(error.to_string().contains("a1"), "{error}");
        let error = parse("5/5/2s2/5/5 9\tloss\t-\t7\t1\t0\n").unwrap_err();
        assert!(matches!(
            &error,
            LeavesError::Line {
                problem: LeafLineProblem::Position(_),
                ..
            }
        ));
        // A bad line after good ones names its own number.
        let good = leaf("5/5/2s2/5/5 1", true, Some("b2"), 9).line(1, 0);
        let error = parse(&format!("{good}{good}junk\n{good}")).unwrap_err();
        assert!(matches!(
            error,
            LeavesError::Line {
                line: 3,
                problem: LeafLineProblem::NotSixFields,
                ..
            }
        ));
        // A loss without a move is a leaf.
        assert_eq!(parse("5/5/2s2/5/5 1\tloss\t-\t7\t1\t0\n").unwrap().len(), 1);
    }
}
