//! Openings: where each game pair starts.
//!
//! Either random openings of K plies from a seed, which never end the game and never
//! step next to a goal, or a file with one opening per line: a position string, a move
//! list from the start position, or a position string followed by moves.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::opening_error::{LineProblem, OpeningError};
use super::pgn_openings::pgn_openings;
use crate::board::{Bitboard, Position, Square};
use crate::rng::Rng;

/// Nodes the random-opening search may visit before giving up.
const RANDOM_OPENING_BUDGET: u64 = 200_000;

/// One opening: a starting position and the moves played from it before the engines take over.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Opening {
    /// The position the game record starts from.
    pub start: Position,
    /// Moves already played, by their destination squares.
    pub moves: Vec<Square>,
}

impl Opening {
    /// The position after the opening moves.
    pub fn position(&self) -> Position {
        let mut pos = self.start;
        for &sq in &self.moves {
            pos.play(sq);
        }
        pos
    }

    /// The opening moves as text, such as `c3 b3`, or `-` when there are none.
    pub fn describe(&self) -> String {
        if self.moves.is_empty() {
            "-".to_string()
        } else {
            let names: Vec<String> = self.moves.iter().map(|&m| self.start.name(m)).collect();
            names.join(" ")
        }
    }
}

/// In which order the lines of an opening file are used.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum OpeningOrder {
    /// Line by line, starting over at the end.
    Sequential,
    /// Shuffled once from the seed, then in that order.
    Random,
}

/// How an opening file is read.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum OpeningFormat {
    /// One opening per line: a position string, a move list, or both.
    Lines,
    /// PGN records whose moves are squares, such as the arena's own.
    Pgn,
}

/// Where openings come from, as given on the command line; saved with `"kind": "random"`
/// or `"kind": "file"`.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum OpeningSpec {
    /// `random:K`: K random plies from the start position.
    Random {
        /// Plies per opening.
        plies: usize,
    },
    /// `file=PATH [format=pgn] [order=sequential|random] [plies=N] [start=N]`, in
    /// cutechess-cli's terms.
    File {
        /// The opening file.
        path: PathBuf,
        /// The order of its openings.
        order: OpeningOrder,
        /// How it is read; by its content when not given (PGN if it begins with a tag).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        format: Option<OpeningFormat>,
        /// At most this many plies of each opening.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        plies: Option<usize>,
        /// The opening the first pair plays, from 1, in the order used.
        #[serde(default = "first_opening", skip_serializing_if = "is_first_opening")]
        start: usize,
    },
}

/// The default `start=`: the first opening.
fn first_opening() -> usize {
    1
}

/// Whether `start` is the default, which is not saved.
fn is_first_opening(start: &usize) -> bool {
    *start == 1
}

/// A number after `key=`, at least `min`, or the error `bad` of the word.
fn number_after(
    word: &str,
    value: &str,
    min: usize,
    bad: fn(String) -> OpeningError,
) -> Result<usize, OpeningError> {
    match value.parse::<usize>() {
        Ok(n) if n >= min => Ok(n),
        _ => Err(bad(word.to_string())),
    }
}

impl OpeningSpec {
    /// Reads the words after `--openings`.
    pub fn parse(words: &[String]) -> Result<OpeningSpec, OpeningError> {
        let mut path = None;
        let mut order = OpeningOrder::Sequential;
        let (mut format, mut plies, mut start) = (None, None, 1);
        for word in words {
            if let Some(k) = word.strip_prefix("random:") {
                if words.len() != 1 {
                    return Err(OpeningError::Words(words.join(" ")));
                }
                let plies = k
                    .parse::<usize>()
                    .map_err(|_| OpeningError::Plies(word.clone()))?;
                return Ok(OpeningSpec::Random { plies });
            } else if let Some(p) = word.strip_prefix("file=") {
                if p.is_empty() {
                    return Err(OpeningError::NoPath(word.clone()));
                }
                path = Some(PathBuf::from(p));
            } else if let Some(o) = word.strip_prefix("order=") {
                order = match o {
                    "sequential" => OpeningOrder::Sequential,
                    "random" => OpeningOrder::Random,
                    _ => return Err(OpeningError::Order(word.clone())),
                };
            } else if let Some(f) = word.strip_prefix("format=") {
                format = Some(match f {
                    "pgn" => OpeningFormat::Pgn,
                    "epd" => return Err(OpeningError::Epd(word.clone())),
                    _ => return Err(OpeningError::Format(word.clone())),
                });
            } else if let Some(n) = word.strip_prefix("plies=") {
                plies = Some(number_after(word, n, 0, OpeningError::Plies)?);
            } else if let Some(n) = word.strip_prefix("start=") {
                start = number_after(word, n, 1, OpeningError::StartNumber)?;
            } else {
                return Err(OpeningError::Words(word.clone()));
            }
        }
        match path {
            Some(path) => Ok(OpeningSpec::File {
                path,
                order,
                format,
                plies,
                start,
            }),
            None => Err(OpeningError::Words(words.join(" "))),
        }
    }
}

/// The openings of a tournament, ready to hand out by pair number.
#[derive(Clone, Debug)]
pub enum OpeningBook {
    /// Random openings generated on demand from the seed and the pair number.
    Random {
        /// The start position.
        start: Position,
        /// Plies per opening.
        plies: usize,
        /// The tournament seed.
        seed: u64,
    },
    /// Openings read from a file, in the order they are handed out.
    List(Vec<Opening>),
}

impl OpeningBook {
    /// Prepares the openings; checks that random openings exist and that every file line is valid.
    pub fn new(
        spec: &OpeningSpec,
        start: Position,
        seed: u64,
    ) -> Result<OpeningBook, OpeningError> {
        match spec {
            OpeningSpec::Random { plies } => {
                random_opening(start, *plies, &mut Rng::new(seed)).ok_or(
                    OpeningError::NoRandomOpening {
                        plies: *plies,
                        start,
                    },
                )?;
                Ok(OpeningBook::Random {
                    start,
                    plies: *plies,
                    seed,
                })
            }
            OpeningSpec::File {
                path,
                order,
                format,
                plies,
                start: first,
            } => {
                let text =
                    std::fs::read_to_string(path).map_err(|error| OpeningError::Unreadable {
                        path: path.clone(),
                        error,
                    })?;
                let format = format.unwrap_or_else(|| detect_format(&text));
                let mut list = match format {
                    OpeningFormat::Lines => parse_opening_lines(&text, start, path, *plies)?,
                    OpeningFormat::Pgn => pgn_openings(&text, path, *plies)?,
                };
                if *order == OpeningOrder::Random {
                    shuffle(&mut list, &mut Rng::new(seed ^ 0x0BE7_1265));
                }
                if *first > list.len() {
                    return Err(OpeningError::StartBeyond {
                        start: *first,
                        count: list.len(),
                    });
                }
                list.rotate_left(first - 1);
                Ok(OpeningBook::List(list))
            }
        }
    }

    /// The opening of game pair number `pair` (counted from zero over the whole schedule).
    pub fn for_pair(&self, pair: usize) -> Opening {
        match self {
            OpeningBook::Random { start, plies, seed } => {
                let mut rng =
                    Rng::new(seed ^ (pair as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15));
                // Checked in `new` that such openings exist from this start.
                random_opening(*start, *plies, &mut rng).unwrap_or(Opening {
                    start: *start,
                    moves: Vec::new(),
                })
            }
            OpeningBook::List(list) => list[pair % list.len()].clone(),
        }
    }
}

/// How a file given without `format=` is read: as PGN when its first line that is not
/// blank is a tag, which no position string or move list is.
fn detect_format(text: &str) -> OpeningFormat {
    match text.lines().map(str::trim).find(|l| !l.is_empty()) {
        Some(line) if line.starts_with('[') => OpeningFormat::Pgn,
        _ => OpeningFormat::Lines,
    }
}

/// Reads an opening file: one opening per line, cut to at most `plies` moves; blank lines
/// and `#` comments are skipped.
pub fn parse_opening_lines(
    text: &str,
    start: Position,
    path: &Path,
    plies: Option<usize>,
) -> Result<Vec<Opening>, OpeningError> {
    let mut list = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let at = |problem| OpeningError::Line {
            path: path.to_path_buf(),
            line: i + 1,
            problem,
        };
        let words: Vec<&str> = line
            .split([' ', '\t', ','])
            .filter(|w| !w.is_empty())
            .collect();
        let Some(first_word) = words.first() else {
            continue;
        };
        let (first, moves) = if first_word.contains('/') {
            let text = words[..2.min(words.len())].join(" ");
            let pos: Position = text.parse().map_err(|e| at(LineProblem::Position(e)))?;
            (pos, &words[2.min(words.len())..])
        } else {
            (start, &words[..])
        };
        let moves = &moves[..plies.map_or(moves.len(), |p| p.min(moves.len()))];
        let mut pos = first;
        let mut squares = Vec::new();
        for word in moves {
            let sq = pos.parse_move(word).map_err(|error| {
                at(LineProblem::Move {
                    word: word.to_string(),
                    error,
                })
            })?;
            pos.play(sq);
            squares.push(sq);
        }
        if pos.outcome().is_over() {
            return Err(at(LineProblem::EndsTheGame(line.to_string())));
        }
        list.push(Opening {
            start: first,
            moves: squares,
        });
    }
    if list.is_empty() {
        return Err(OpeningError::Empty {
            path: path.to_path_buf(),
        });
    }
    Ok(list)
}

/// Fisher–Yates shuffle driven by `rng`.
fn shuffle<T>(items: &mut [T], rng: &mut Rng) {
    for i in (1..items.len()).rev() {
        let j = rng.below(i as u64 + 1) as usize;
        items.swap(i, j);
    }
}

/// K random plies that never end the game and never step onto or next to a goal.
///
/// Depth-first with random move order, so it backtracks out of dead ends; `None` when
/// no such opening exists (or the search budget runs out).
pub fn random_opening(start: Position, plies: usize, rng: &mut Rng) -> Option<Opening> {
    let geometry = start.geometry();
    let near_goals = geometry.dilate(geometry.goals());
    let mut moves = Vec::with_capacity(plies);
    let mut budget = RANDOM_OPENING_BUDGET;
    if start.outcome().is_over() {
        return None;
    }
    fn search(
        pos: Position,
        left: usize,
        near_goals: Bitboard,
        rng: &mut Rng,
        moves: &mut Vec<Square>,
        budget: &mut u64,
    ) -> bool {
        if left == 0 {
            return true;
        }
        if *budget == 0 {
            return false;
        }
        *budget -= 1;
        let mut candidates: Vec<Square> = (pos.moves() - near_goals)
            .iter()
            .filter(|&sq| !pos.after(sq).outcome().is_over())
            .collect();
        shuffle(&mut candidates, rng);
        for sq in candidates {
            moves.push(sq);
            if search(pos.after(sq), left - 1, near_goals, rng, moves, budget) {
                return true;
            }
            moves.pop();
        }
        false
    }
    search(start, plies, near_goals, rng, &mut moves, &mut budget)
        .then_some(Opening { start, moves })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Side, Size};

    fn words(text: &str) -> Vec<String> {
        text.split_whitespace().map(str::to_string).collect()
    }

    #[test]
    fn random_openings_are_reproducible_and_keep_away_from_goals() {
        let start = Position::start(Size::DEFAULT);
        let book = OpeningBook::new(&OpeningSpec::Random { plies: 6 }, start, 42).unwrap();
        let again = OpeningBook::new(&OpeningSpec::Random { plies: 6 }, start, 42).unwrap();
        let other = OpeningBook::new(&OpeningSpec::Random { plies: 6 }, start, 43).unwrap();
        let mut distinct = std::collections::HashSet::new();
        let mut differs = false;
        for pair in 0..50 {
            let opening = book.for_pair(pair);
            assert_eq!(opening, again.for_pair(pair));
            differs |= opening != other.for_pair(pair);
            assert_eq!(opening.moves.len(), 6);
            let mut pos = opening.start;
            for &sq in &opening.moves {
                pos.play(sq);
                assert!(
                    !pos.outcome().is_over(),
                    "opening {} ends the game",
                    opening.describe()
                );
                let size = pos.size();
                for goal in [size.goal(Side::One), size.goal(Side::Two)] {
                    assert!(
                        sq != goal && !size.adjacent(sq, goal),
                        "{} steps next to a goal",
                        opening.describe()
                    );
                }
            }
            distinct.insert(opening.describe());
        }
        assert!(differs, "another seed should give other openings");
        assert!(
            distinct.len() > 30,
            "only {} distinct openings",
            distinct.len()
        );
    }

    #[test]
    fn impossible_random_openings_are_an_error() {
        let start = Position::start(Size::new(3, 3).unwrap());
        let e = OpeningBook::new(&OpeningSpec::Random { plies: 3 }, start, 1)
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("random:3") && e.contains("expected fewer plies"),
            "{e}"
        );
        // Zero plies is always possible.
        assert!(OpeningBook::new(&OpeningSpec::Random { plies: 0 }, start, 1).is_ok());
    }

    #[test]
    fn opening_lines_accept_position_strings_and_move_lists() {
        let start = Position::start(Size::DEFAULT);
        let text =
            "# comment\n\n , \nc3 b3\n7/7/7/3s3/7/7/7 1\n7/7/7/3s3/7/7/7 1 e5 f5\n5/5/2s2/5/5 2\n";
        let list = parse_opening_lines(text, start, Path::new("o.txt"), None).unwrap();
        assert_eq!(list.len(), 4);
        assert_eq!(list[0].describe(), "c3 b3");
        assert_eq!(list[0].position().to_string(), "7/7/7/3x3/1sx4/7/7 1");
        assert_eq!(list[1].describe(), "-");
        assert_eq!(list[2].describe(), "e5 f5");
        assert_eq!(list[3].start.size(), Size::new(5, 5).unwrap());
    }

    #[test]
    fn bad_opening_lines_name_the_line_and_the_problem() {
        let start = Position::start(Size::DEFAULT);
        let err = |text: &str| {
            parse_opening_lines(text, start, Path::new("o.txt"), None)
                .unwrap_err()
                .to_string()
        };
        let e = err("c3\nc3 d4\n");
        assert!(e.contains("line 2") && e.contains("d4 is slimed"), "{e}");
        let e = err("7/7/7/3s3/7/7/7 3\n");
        assert!(e.contains("line 1"), "{e}");
        let e = err("c3 b2 a1\n");
        assert!(e.contains("ends the game"), "{e}");
        let e = err("# nothing\n");
        assert!(e.contains("no openings"), "{e}");
    }

    #[test]
    fn file_openings_cycle_in_order_or_shuffled() {
        let dir = std::env::temp_dir().join(format!("slimetrail-openings-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("book.txt");
        std::fs::write(&path, "c3\nc4\nc5\nd5\ne5\ne4\ne3\nd3\n").unwrap();
        let start = Position::start(Size::DEFAULT);
        let spec = OpeningSpec::parse(&words(&format!("file={}", path.display()))).unwrap();
        let book = OpeningBook::new(&spec, start, 1).unwrap();
        let order: Vec<String> = (0..9).map(|p| book.for_pair(p).describe()).collect();
        assert_eq!(order[..3], ["c3", "c4", "c5"]);
        assert_eq!(order[8], "c3");
        let spec =
            OpeningSpec::parse(&words(&format!("file={} order=random", path.display()))).unwrap();
        let shuffled = OpeningBook::new(&spec, start, 1).unwrap();
        let mixed: Vec<String> = (0..8).map(|p| shuffled.for_pair(p).describe()).collect();
        assert_ne!(mixed, order[..8]);
        let mut sorted = mixed.clone();
        sorted.sort();
        let mut expected = order[..8].to_vec();
        expected.sort();
        assert_eq!(sorted, expected);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn opening_arguments_are_checked() {
        assert_eq!(
            OpeningSpec::parse(&words("random:4")).unwrap(),
            OpeningSpec::Random { plies: 4 }
        );
        for bad in [
            "random:x",
            "file=",
            "order=random",
            "file=a order=up",
            "book.txt",
        ] {
            let e = OpeningSpec::parse(&words(bad)).unwrap_err().to_string();
            assert!(e.contains("expected"), "{bad}: {e}");
        }
    }
}
