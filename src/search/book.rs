//! The opening book: positions whose proofs take longer than a move's time, each
//! with a winning move found by the engine's own proof search.
//!
//! A book is text, one position per line: `POSITION<TAB>MOVE<TAB>PLIES`, where
//! `POSITION` is a position string, `MOVE` a move that wins it and `PLIES` the
//! plies from the position to the end of the game under best play, at most (the
//! distance reported as `score mate PLIES`); blank lines
//! and lines starting with `#` are comments. `slimetrail book` writes one
//! (`scripts/make-book.sh`), and a test proves every move in the built-in book.
//!
//! Entries are looked up like the transposition table: by the reachable region,
//! the snail and the side to move, so that a position counts as in the book
//! whatever the squares it can no longer reach; on square boards a position's
//! mirror image in the a1 diagonal finds it too.

use std::collections::HashMap;
use std::fmt;
use std::sync::OnceLock;
use std::sync::atomic::AtomicBool;

use crate::board::{Bitboard, Position, Size, Square, Word};

use super::prover::{Budget, Prover};
use super::reduced::{Proof, reachable_region};
use super::tt::Table;

/// The built-in 7×7 book, from `scripts/make-book.sh`.
const BOOK_7X7: &str = include_str!("book/7x7.txt");
/// The built-in 8×8 book, from `scripts/make-book-8x8.sh`.
const BOOK_8X8: &str = include_str!("book/8x8.txt");
/// The built-in books: width, height and text.
const BUILTIN: [(usize, usize, &str); 2] = [(7, 7, BOOK_7X7), (8, 8, BOOK_8X8)];

/// A position's book key: reachable region, snail square and side to move, of the
/// position or of its mirror image, whichever is smaller.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct BookKey {
    region: u128,
    snail: u8,
    side: u8,
}

/// The key of `position`, and whether it is the key of its mirror image.
pub fn book_key<W: Word>(position: &Position<W>) -> (BookKey, bool) {
    let geo = position.geometry();
    let region = reachable_region(geo, position.open(), position.snail());
    let side = position.side_to_move().index() as u8;
    let own = key_of(region, position.snail(), side);
    if !geo.is_square() {
        return (own, false);
    }
    let mirrored = key_of(
        geo.mirror(region),
        geo.mirror_square(position.snail()),
        side,
    );
    if mirrored < own {
        (mirrored, true)
    } else {
        (own, false)
    }
}

fn key_of<W: Word>(region: Bitboard<W>, snail: Square, side: u8) -> BookKey {
    BookKey {
        region: region.0.to_u128(),
        snail: snail.index(),
        side,
    }
}

/// A winning move from the book.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct BookMove {
    /// The move, on the position looked up.
    pub square: Square,
    /// Plies from the position to the end of the game under best play, at most.
    pub plies: u16,
}

/// A book line that cannot be read, with its number and what was expected.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct BookError {
    /// 1-based line number.
    pub line: usize,
    /// What is wrong with it.
    pub problem: String,
}

impl fmt::Display for BookError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "book line {}: {}; expected POSITION<TAB>MOVE<TAB>PLIES",
            self.line, self.problem
        )
    }
}

impl std::error::Error for BookError {}

/// A book line whose position is of another board size than the book's.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct BookSizeError {
    /// The line's position.
    pub position: Position,
    /// The book's board size.
    pub expected: Size,
}

impl fmt::Display for BookSizeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "book position {} is {}: expected {}",
            self.position,
            self.position.size(),
            self.expected
        )
    }
}

impl std::error::Error for BookSizeError {}

/// One entry as written: the position, the move and the plies.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct BookLine {
    /// The position, as found by the generator.
    pub position: Position,
    /// The winning move.
    pub square: Square,
    /// Plies from the position to the end under best play, at most.
    pub plies: u16,
}

impl fmt::Display for BookLine {
    /// The book's line format, without the newline.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = self.position.name(self.square);
        write!(f, "{}\t{name}\t{}", self.position, self.plies)
    }
}

/// Reads one book line (not a comment).
pub fn parse_line(text: &str, number: usize) -> Result<BookLine, BookError> {
    let error = |problem: String| BookError {
        line: number,
        problem,
    };
    let fields: Vec<&str> = text.split('\t').collect();
    let [position, square, plies] = fields[..] else {
        return Err(error(format!(
            "{} tab-separated fields in {text:?}",
            fields.len()
        )));
    };
    let position: Position = position
        .parse()
        .map_err(|e| error(format!("position {position:?}: {e}")))?;
    if position.outcome().is_over() {
        return Err(error(format!("position {position} is a finished game")));
    }
    let square = position
        .parse_move(square)
        .map_err(|e| error(format!("move {square:?}: {e}")))?;
    let plies = plies
        .parse()
        .map_err(|_| error(format!("plies {plies:?} is not a number from 1 to 65535")))?;
    Ok(BookLine {
        position,
        square,
        plies,
    })
}

/// Reads a whole book: its entries in order, comments skipped.
pub fn parse_book(text: &str) -> Result<Vec<BookLine>, BookError> {
    text.lines()
        .enumerate()
        .filter(|(_, line)| !line.trim().is_empty() && !line.starts_with('#'))
        .map(|(i, line)| parse_line(line, i + 1))
        .collect()
}

/// A book ready for lookups, for one board size.
pub struct Book {
    size: Size,
    entries: HashMap<BookKey, BookMove>,
}

impl Book {
    /// A book of `lines` for positions of `size` (lines of other sizes are errors).
    pub fn new(size: Size, lines: &[BookLine]) -> Result<Book, BookSizeError> {
        let mut entries = HashMap::with_capacity(lines.len());
        for line in lines {
            if line.position.size() != size {
                return Err(BookSizeError {
                    position: line.position,
                    expected: size,
                });
            }
            let (key, mirrored) = book_key(&line.position);
            let square = if mirrored {
                line.position.geometry().mirror_square(line.square)
            } else {
                line.square
            };
            let plies = line.plies;
            entries.insert(key, BookMove { square, plies });
        }
        Ok(Book { size, entries })
    }

    /// The built-in book for `size`, if there is one.
    pub fn builtin(size: Size) -> Option<&'static Book> {
        static BOOKS: [OnceLock<Book>; BUILTIN.len()] = [const { OnceLock::new() }; BUILTIN.len()];
        let index = builtin_index(size)?;
        let text = BUILTIN[index].2;
        Some(BOOKS[index].get_or_init(|| {
            let lines = parse_book(text).unwrap_or_else(|e| panic!("built-in {size} book: {e}"));
            Book::new(size, &lines).unwrap_or_else(|e| panic!("built-in {size} book: {e}"))
        }))
    }

    /// Number of entries.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the book is empty.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The book's winning move in `position`, if the position is in the book.
    pub fn probe<W: Word>(&self, position: &Position<W>) -> Option<BookMove> {
        if position.size() != self.size || position.outcome().is_over() {
            return None;
        }
        let (key, mirrored) = book_key(position);
        let mut hit = *self.entries.get(&key)?;
        if mirrored {
            hit.square = position.geometry().mirror_square(hit.square);
        }
        position.moves().contains(hit.square).then_some(hit)
    }
}

/// The built-in book's text, for tools and tests.
pub fn builtin_text(size: Size) -> Option<&'static str> {
    builtin_index(size).map(|index| BUILTIN[index].2)
}

/// Where `size`'s book is in [`BUILTIN`], if it has one.
fn builtin_index(size: Size) -> Option<usize> {
    BUILTIN
        .iter()
        .position(|&(w, h, _)| (w, h) == (size.width(), size.height()))
}

/// Proves every line's move with the proof search: the game must end with the
/// move in the mover's favour, or the position after it be lost for the side then
/// to move. `progress` gets the lines done and the total. Returns the lines that
/// fail, with why.
pub fn verify_book(lines: &[BookLine], progress: &mut dyn FnMut(usize, usize)) -> Vec<String> {
    // One table for all: the positions of a book share most of their proofs.
    let table = Table::new(512);
    let stop = AtomicBool::new(false);
    let mut failures = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        progress(i + 1, lines.len());
        let mover = line.position.side_to_move();
        if line.position.check_move(line.square).is_err() {
            failures.push(format!("{line}: the move is not legal"));
            continue;
        }
        let after = line.position.after(line.square);
        let wins = if after.outcome().is_over() {
            after.outcome().winner() == Some(mover)
        } else {
            match after.convert::<u64>() {
                Some(narrow) => is_lost(&narrow, &table, &stop),
                None => is_lost(&after, &table, &stop),
            }
        };
        if !wins {
            failures.push(format!("{line}: the opponent wins after the move"));
        }
    }
    failures
}

/// Whether the side to move in `position` is proven to lose.
fn is_lost<W: Word>(position: &Position<W>, table: &Table, stop: &AtomicBool) -> bool {
    let mut prover = Prover::new(
        position.geometry(),
        table,
        Budget::new(stop, None, u64::MAX),
    );
    matches!(prover.prove(position), Some((Proof::Loss(_), _)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_round_trips_and_bad_lines_say_what_is_wrong() {
        let line = parse_line("7/3sx2/4x2/7/7/7/7 1\td5\t13", 1).unwrap();
        assert_eq!(line.to_string(), "7/3sx2/4x2/7/7/7/7 1\td5\t13");
        let bad = parse_line("7/3sx2/4x2/7/7/7/7 1\tz9\t13", 4).unwrap_err();
        assert_eq!(bad.line, 4);
        assert!(bad.to_string().contains("move \"z9\""), "{bad}");
        let bad = parse_line("7/3sx2/4x2/7/7/7/7 1 d5 13", 2).unwrap_err();
        assert!(bad.to_string().contains("1 tab-separated fields"), "{bad}");
        let bad = parse_line("7/3sx2/4x2/7/7/7/7 1\td5\tmany", 3).unwrap_err();
        assert!(bad.to_string().contains("plies \"many\""), "{bad}");
        assert!(parse_book("# comment\n\n7/3sx2/4x2/7/7/7/7 1\td5\t13\n").is_ok());
    }

    #[test]
    fn verification_accepts_winning_moves_and_names_losing_ones() {
        let good = parse_line("7/3sx2/4x2/7/7/7/7 1\td5\t13", 1).unwrap();
        let bad = parse_line("7/3sx2/4x2/7/7/7/7 1\tc7\t13", 2).unwrap();
        let failures = verify_book(&[good, bad], &mut |_, _| {});
        assert_eq!(failures.len(), 1, "{failures:?}");
        assert!(failures[0].contains("\tc7\t"), "{failures:?}");
    }

    /// The built-in book: every line reads, each position once, and a sample of its
    /// moves spread over the book (every 25th line) is proven to win; the proof of
    /// every move is the slow check below.
    #[test]
    fn the_built_in_book_reads_and_a_sample_of_its_moves_wins() {
        let lines = parse_book(BOOK_7X7).unwrap();
        let book = Book::builtin(Size::DEFAULT).unwrap();
        assert_eq!(book.len(), lines.len(), "each position once");
        for line in &lines {
            let hit = book.probe(&line.position).map(|hit| hit.square);
            assert_eq!(hit, Some(line.square), "{line}");
        }
        let sample: Vec<BookLine> = lines.iter().step_by(25).cloned().collect();
        let failures = verify_book(&sample, &mut |_, _| {});
        assert!(failures.is_empty(), "{failures:#?}");
    }

    /// The built-in 8×8 book: every line reads, each position once, all within 5
    /// plies of e5 with player 2 owning h8, and the lookup finds each line's move.
    #[test]
    fn the_8x8_book_reads_and_each_position_is_found() {
        let size = Size::new(8, 8).unwrap();
        let lines = parse_book(BOOK_8X8).unwrap();
        let book = Book::builtin(size).unwrap();
        assert!(lines.len() > 1000, "{} lines", lines.len());
        assert_eq!(book.len(), lines.len(), "each position once");
        for line in &lines {
            assert!(
                plies_from_start(size, line) <= 5,
                "{line}: {} plies from the start",
                plies_from_start(size, line)
            );
            let hit = book.probe(&line.position).map(|hit| hit.square);
            assert_eq!(hit, Some(line.square), "{line}");
        }
    }

    /// The checks that take minutes: `cargo test -- --ignored slow_checks`, run by
    /// `.ci/run`.
    mod slow_checks {
        use super::*;

        /// Every move of the built-in 7×7 book is proven to win.
        #[test]
        #[ignore = "slow: proves all 942 moves of the 7x7 book; run with --ignored"]
        fn every_move_of_the_built_in_book_wins() {
            let lines = parse_book(BOOK_7X7).unwrap();
            let failures = verify_book(&lines, &mut |_, _| {});
            assert!(failures.is_empty(), "{failures:#?}");
        }

        /// A sample of the 8×8 book's moves, spread over the book, is proven to win
        /// (all of them take hours: `book --verify builtin --size 8x8`).
        #[test]
        #[ignore = "slow: proves a sample of the 8x8 book; run with --ignored"]
        fn a_sample_of_the_8x8_book_wins() {
            let size = Size::new(8, 8).unwrap();
            let lines = parse_book(BOOK_8X8).unwrap();
            // The shallower positions take minutes each to prove again.
            let deep: Vec<&BookLine> = lines
                .iter()
                .filter(|line| plies_from_start(size, line) >= 4)
                .collect();
            let sample: Vec<BookLine> = deep
                .iter()
                .step_by(deep.len() / 6)
                .map(|&l| l.clone())
                .collect();
            let failures = verify_book(&sample, &mut |_, _| {});
            assert!(failures.is_empty(), "{failures:#?}");
        }
    }

    /// Plies played to reach the line's position: its slimed squares.
    fn plies_from_start(size: Size, line: &BookLine) -> usize {
        size.squares() - line.position.open().len() as usize - 1
    }

    /// The book's lengths are those of a full solve, not a bound from the squares
    /// left (the first book said 50 for the 7x7 start, where `solve` proves 48).
    #[test]
    fn the_book_gives_the_start_the_length_solve_proves() {
        let start = Position::start(Size::DEFAULT);
        let hit = Book::builtin(Size::DEFAULT)
            .and_then(|book| book.probe(&start))
            .expect("the 7x7 start is in the book");
        let mut engine = super::super::Engine::new(super::super::EngineOptions::default());
        let stop = AtomicBool::new(false);
        let solved = engine.solve(&start, &super::super::Limits::default(), &stop, &mut |_| {});
        let bound = match solved.info.score {
            Some(super::super::Score::Mate(n)) if n > 0 => Some(n as u32),
            _ => None,
        };
        let length = solved.length.or(bound).expect("solve proves the start won");
        assert_eq!(u32::from(hit.plies), length);
    }

    #[test]
    fn lookups_find_transpositions_and_mirror_images() {
        let line = parse_line("7/3sx2/4x2/7/7/7/7 1\td5\t13", 1).unwrap();
        let book = Book::new(Size::DEFAULT, std::slice::from_ref(&line)).unwrap();
        let hit = book.probe(&line.position).unwrap();
        assert_eq!(line.position.name(hit.square), "d5");
        let mirrored = line.position.mirrored();
        let hit = book.probe(&mirrored).unwrap();
        assert_eq!(mirrored.name(hit.square), "e4");
        // Squares the snail can no longer reach do not matter: the snail on a7 behind
        // a wall of slime, with a square far away open or slimed.
        let a: Position = "s1x4/xxx4/7/7/7/7/7 1".parse().unwrap();
        let b: Position = "s1x4/xxx4/7/7/7/7/2x4 1".parse().unwrap();
        assert_eq!(book_key(&a), book_key(&b));
        let other: Position = "7/3sx2/4x2/7/7/7/7 2".parse().unwrap();
        assert_eq!(book.probe(&other), None);
    }
}
