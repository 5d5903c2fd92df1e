//! The positions file of a split: a commented header naming the root and the depth,
//! then the sub-problems, one position string a line, in the order to prove them.

use std::fmt;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use crate::board::{Position, PositionError};

/// The file of sub-problems in a split directory.
pub const POSITIONS_FILE: &str = "positions.txt";

/// The header line that names the root of the split.
const ROOT_HEADER: &str = "# root: ";
/// The header line that gives the depth of the split.
const DEPTH_HEADER: &str = "# depth: ";

/// The list of sub-problems of a split.
#[derive(Clone, Debug, PartialEq)]
pub struct Split {
    /// The position whose value the split proves.
    pub root: Position,
    /// Plies from the root to the sub-problems.
    pub depth: u32,
    /// The sub-problems (each the smaller of itself and its mirror image, as
    /// [`canonical`](super::tree::canonical) names it, when the split wrote them),
    /// in the order to prove them.
    pub positions: Vec<Position>,
}

/// Why a positions file cannot be read.
#[derive(Debug)]
pub enum PositionsError {
    /// The file cannot be read.
    Read {
        /// The file.
        path: PathBuf,
        /// What the system said.
        error: io::Error,
    },
    /// A line of the file is not what it should be.
    Line {
        /// The file.
        path: PathBuf,
        /// The line, from 1.
        line: usize,
        /// What is wrong with it.
        problem: LineProblem,
    },
    /// A header is missing.
    MissingHeader {
        /// The file.
        path: PathBuf,
        /// The header, such as `# root:`.
        header: &'static str,
    },
}

/// What is wrong with a line of a positions file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LineProblem {
    /// The root header does not hold a position string.
    BadRoot(PositionError),
    /// The depth header does not hold a number of plies.
    BadDepth(String),
    /// A sub-problem line is not a position string.
    BadPosition(PositionError),
}

impl fmt::Display for PositionsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PositionsError::Read { path, error } => write!(
                f,
                "cannot read the positions file {}: {error}",
                path.display()
            ),
            PositionsError::Line {
                path,
                line,
                problem,
            } => {
                write!(f, "{} line {line}: ", path.display())?;
                match problem {
                    LineProblem::BadRoot(e) => write!(f, "the root is not a position string ({e})"),
                    LineProblem::BadDepth(found) => {
                        write!(f, "expected a depth in plies, found {found:?}")
                    }
                    LineProblem::BadPosition(e) => write!(f, "not a position string ({e})"),
                }
            }
            PositionsError::MissingHeader { path, header } => write!(
                f,
                "{}: no {header:?} header; expected a positions file written by a split",
                path.display()
            ),
        }
    }
}

impl std::error::Error for PositionsError {}

impl Split {
    /// The text of the positions file: a commented header naming the root and the
    /// depth, then one position string a line.
    pub fn text(&self) -> String {
        let mut text = format!(
            "# slimetrail solve --split: the sub-problems of a proof, one position string a line\n\
             {ROOT_HEADER}{}\n{DEPTH_HEADER}{}\n",
            self.root, self.depth
        );
        for position in &self.positions {
            text.push_str(&format!("{position}\n"));
        }
        text
    }

    /// Reads a positions file written by [`Split::text`].
    pub fn read(path: &Path) -> Result<Split, PositionsError> {
        let text = fs::read_to_string(path).map_err(|error| PositionsError::Read {
            path: path.to_path_buf(),
            error,
        })?;
        Split::parse(path, &text)
    }

    /// Reads the text of a positions file written by [`Split::text`]; `path` names
    /// it in errors.
    pub fn parse(path: &Path, text: &str) -> Result<Split, PositionsError> {
        let mut root = None;
        let mut depth = None;
        let mut positions = Vec::new();
        for (number, line) in text.lines().enumerate() {
            let at = |problem| PositionsError::Line {
                path: path.to_path_buf(),
                line: number + 1,
                problem,
            };
            let line = line.trim();
            if let Some(rest) = line.strip_prefix(ROOT_HEADER.trim_end()) {
                let position: Position = rest
                    .trim()
                    .parse()
                    .map_err(|e| at(LineProblem::BadRoot(e)))?;
                root = Some(position);
            } else if let Some(rest) = line.strip_prefix(DEPTH_HEADER.trim_end()) {
                let value = rest
                    .trim()
                    .parse::<u32>()
                    .map_err(|_| at(LineProblem::BadDepth(rest.to_string())))?;
                depth = Some(value);
            } else if line.is_empty() || line.starts_with('#') {
                continue;
            } else {
                let position: Position =
                    line.parse().map_err(|e| at(LineProblem::BadPosition(e)))?;
                positions.push(position);
            }
        }
        let missing = |header: &'static str| PositionsError::MissingHeader {
            path: path.to_path_buf(),
            header,
        };
        Ok(Split {
            root: root.ok_or_else(|| missing(ROOT_HEADER.trim()))?,
            depth: depth.ok_or_else(|| missing(DEPTH_HEADER.trim()))?,
            positions,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<Split, PositionsError> {
        Split::parse(Path::new("dir/positions.txt"), text)
    }

    #[test]
    fn a_positions_file_round_trips() {
        let split = Split {
            root: "5/5/2s2/5/5 1".parse().unwrap(),
            depth: 2,
            positions: vec![
                "5/5/1xx2/1s3/5 1".parse().unwrap(),
                "5/5/2xs1/2x2/5 1".parse().unwrap(),
            ],
        };
        let text = split.text();
        assert_eq!(
            text,
            "# slimetrail solve --split: the sub-problems of a proof, one position string a line\n\
             # root: 5/5/2s2/5/5 1\n# depth: 2\n5/5/1xx2/1s3/5 1\n5/5/2xs1/2x2/5 1\n"
        );
        assert_eq!(parse(&text).unwrap(), split);
    }

    #[test]
    fn blank_lines_comments_and_white_space_are_skipped() {
        let text =
            "\n  # root:   5/5/2s2/5/5 1  \n# a comment\n\n# depth:3\n   5/5/1xx2/1s3/5 1\r\n\n";
        let split = parse(text).unwrap();
        assert_eq!(split.root.to_string(), "5/5/2s2/5/5 1");
        assert_eq!(split.depth, 3);
        assert_eq!(split.positions, ["5/5/1xx2/1s3/5 1".parse().unwrap()]);
    }

    #[test]
    fn an_empty_list_of_sub_problems_is_a_split_of_nothing() {
        let split = parse("# root: 4/4/1s2/4 1\n# depth: 1\n").unwrap();
        assert!(split.positions.is_empty());
    }

    #[test]
    fn a_bad_positions_file_names_the_file_the_line_and_what_was_expected() {
        let cases = [
            (
                "# root: 5/5/2s2/5/5 3\n",
                "dir/positions.txt line 1: the root is not a position string (",
            ),
            (
                "# root: 5/5/2s2/5/5 1\n# depth: two\n",
                "dir/positions.txt line 2: expected a depth in plies, found \" two\"",
            ),
            (
                "# root: 5/5/2s2/5/5 1\n# depth: 2\n5/5/2s2/5/5 1\nnonsense\n",
                "dir/positions.txt line 4: not a position string (",
            ),
            (
                "# depth: 2\n5/5/2s2/5/5 1\n",
                "dir/positions.txt: no \"# root:\" header; expected a positions file \
                 written by a split",
            ),
            (
                "# root: 5/5/2s2/5/5 1\n",
                "dir/positions.txt: no \"# depth:\" header; expected a positions file \
                 written by a split",
            ),
            (
                "",
                "dir/positions.txt: no \"# root:\" header; expected a positions file \
                 written by a split",
            ),
        ];
        for (text, message) in cases {
            let error = parse(text).unwrap_err().to_string();
            assert!(error.starts_with(message), "{text:?}: {error}");
        }
        assert!(matches!(
            parse("# root: 5/5/2s2/5/5 1\n# depth: -1\n"),
            Err(PositionsError::Line { line: 2, problem: LineProblem::BadDepth(found), .. })
                if found == " -1"
        ));
    }

    #[test]
    fn a_missing_file_says_it_cannot_be_read() {
        let path = Path::new("/nonexistent/slimetrail/positions.txt");
        let error = Split::read(path).unwrap_err();
        assert!(matches!(&error, PositionsError::Read { path: p, .. } if p == path));
        assert!(
            error.to_string().starts_with(
                "cannot read the positions file /nonexistent/slimetrail/positions.txt: "
            ),
            "{error}"
        );
    }
}
