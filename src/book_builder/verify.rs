//! The verify driver: reads a book (a file, or the one built in for a size) and
//! proves every move of it again.

use std::fmt;
use std::io;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use std::sync::atomic::AtomicBool;

use crate::board::{Side, Size};
use crate::search::{
    BookError, BookLine, Engine, EngineOptions, Limits, SearchInfo, TimeControl, Verdict,
    builtin_text, parse_book,
};

/// The table of the verification's proofs, in MiB: one for all entries, which
/// share most of their proofs.
const VERIFY_HASH_MB: usize = 512;

/// Where a book to verify comes from.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum BookSource {
    /// The book built into this binary for a size.
    Builtin,
    /// A book file.
    File(PathBuf),
}

impl BookSource {
    /// The source a name gives: `builtin`, or the path of a file.
    pub fn named(name: &str) -> BookSource {
        if name == "builtin" {
            BookSource::Builtin
        } else {
            BookSource::File(PathBuf::from(name))
        }
    }
}

/// Why a book cannot be read.
#[derive(Debug)]
pub enum VerifyError {
    /// No book is built in for the size.
    NoBuiltin(Size),
    /// The file cannot be read.
    Read {
        /// The file.
        path: PathBuf,
        /// What the system said.
        error: io::Error,
    },
    /// A line of the book is not an entry.
    Parse(BookError),
}

impl fmt::Display for VerifyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            VerifyError::NoBuiltin(size) => write!(f, "no book is built in for {size}"),
            VerifyError::Read { path, error } => write!(
                f,
                "cannot read {} ({error}): expected a book file or 'builtin'",
                path.display()
            ),
            VerifyError::Parse(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for VerifyError {}

/// The entries of the book of `source` (the built-in one of `size`).
pub fn load(source: &BookSource, size: Size) -> Result<Vec<BookLine>, VerifyError> {
    let text = match source {
        BookSource::Builtin => builtin_text(size)
            .ok_or(VerifyError::NoBuiltin(size))?
            .to_string(),
        BookSource::File(path) => {
            std::fs::read_to_string(path).map_err(|error| VerifyError::Read {
                path: path.clone(),
                error,
            })?
        }
    };
    parse_book(&text).map_err(VerifyError::Parse)
}

/// What proving every move of a book again found.
#[derive(Clone, Debug, PartialEq)]
pub struct Verification {
    /// Entries of the book.
    pub entries: usize,
    /// The entries whose move is not proven to win, with why.
    pub failures: Vec<String>,
    /// The time it took.
    pub time: Duration,
}

impl fmt::Display for Verification {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} entries, {} not proven to win, {:.1} s",
            self.entries,
            self.failures.len(),
            self.time.as_secs_f64()
        )
    }
}

/// The limits of each entry's proof.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct VerifyLimits {
    /// Proof nodes of one entry.
    pub nodes: Option<u64>,
    /// Time of one entry.
    pub time: Option<Duration>,
}

/// Where a verification is: the entry being proved, and that proof's progress.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct VerifyProgress {
    /// The entry being proved, from 1.
    pub entry: usize,
    /// Entries in all.
    pub total: usize,
    /// Nodes of this entry's proof so far.
    pub nodes: u64,
    /// Time of the whole verification so far.
    pub elapsed: Duration,
}

/// Checks every column of each of `lines` for a book of `size`: the size, the
/// side to move (player 1 at an even number of plies from a start), the move (it
/// must win: the position after it is proven lost for the opponent, within
/// `limits`), and the plies (odd, as a win ends on the winner's move, and at
/// least the exact length `solve` gives with that move). `progress` hears of the
/// proofs about once a second.
pub fn verify(
    lines: &[BookLine],
    size: Size,
    limits: VerifyLimits,
    progress: &mut dyn FnMut(VerifyProgress),
) -> Verification {
    let started = Instant::now();
    let mut engine = Engine::new(EngineOptions {
        hash_mb: VERIFY_HASH_MB,
        ..EngineOptions::default()
    });
    let mut search_limits = Limits::default();
    if let Some(time) = limits.time {
        search_limits.time = TimeControl::MoveTime(time);
    }
    search_limits.nodes = limits.nodes;
    let stop = AtomicBool::new(false);
    let mut failures = Vec::new();
    let mut last_report = Instant::now();
    for (i, line) in lines.iter().enumerate() {
        let mut report = |nodes: u64, force: bool| {
            if force || last_report.elapsed() >= Duration::from_secs(1) {
                last_report = Instant::now();
                progress(VerifyProgress {
                    entry: i + 1,
                    total: lines.len(),
                    nodes,
                    elapsed: started.elapsed(),
                });
            }
        };
        if let Some(problem) = check_entry(
            line,
            size,
            &mut engine,
            &search_limits,
            &stop,
            &mut |info| report(info.nodes, false),
        ) {
            failures.push(format!("{line}: {problem}"));
        }
        report(0, false);
    }
    Verification {
        entries: lines.len(),
        failures,
        time: started.elapsed(),
    }
}

/// What is wrong with one entry, if anything.
fn check_entry(
    line: &BookLine,
    size: Size,
    engine: &mut Engine,
    limits: &Limits,
    stop: &AtomicBool,
    progress: &mut dyn FnMut(&SearchInfo),
) -> Option<String> {
    let position = &line.position;
    if position.size() != size {
        return Some(format!(
            "a {} position; expected one of {size}",
            position.size()
        ));
    }
    let played = position.slimed().len();
    let side = if played % 2 == 0 {
        Side::One
    } else {
        Side::Two
    };
    if position.side_to_move() != side {
        return Some(format!(
            "{} to move after {played} plies; expected {side}",
            position.side_to_move()
        ));
    }
    if position.check_move(line.square).is_err() {
        return Some("the move is not legal".to_string());
    }
    let plies = u32::from(line.plies);
    if plies % 2 == 0 {
        return Some(format!(
            "{plies} plies to the end: expected an odd number (a win ends on the winner's move)"
        ));
    }
    let after = position.after(line.square);
    let length = if let Some(winner) = after.outcome().winner() {
        if winner != position.side_to_move() {
            return Some("the opponent wins after the move".to_string());
        }
        1
    } else {
        let outcome = engine.solve(&after, limits, stop, progress);
        match outcome.verdict {
            Some(Verdict::Loss) => {}
            Some(Verdict::Win) => return Some("the opponent wins after the move".to_string()),
            None => return Some("not proven within the limits".to_string()),
        }
        match outcome.length {
            Some(n) => n + 1,
            None => return None,
        }
    };
    (plies < length).then(|| {
        format!("{plies} plies to the end, but the game lasts {length} under best play (solve)")
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Position;
    use crate::scratch::Scratch;

    #[test]
    fn a_book_is_read_from_a_file_or_built_in() {
        assert_eq!(BookSource::named("builtin"), BookSource::Builtin);
        assert_eq!(BookSource::named("b.txt"), BookSource::File("b.txt".into()));
        let seven: Size = "7x7".parse().unwrap();
        let builtin = load(&BookSource::Builtin, seven).unwrap();
        assert!(builtin.len() > 10, "{}", builtin.len());
        let three: Size = "3x3".parse().unwrap();
        let error = load(&BookSource::Builtin, three).unwrap_err();
        assert!(matches!(error, VerifyError::NoBuiltin(s) if s == three));
        assert_eq!(error.to_string(), "no book is built in for 3x3");
        let error = load(&BookSource::named("/nonexistent/book.txt"), seven).unwrap_err();
        assert!(
            error
                .to_string()
                .starts_with("cannot read /nonexistent/book.txt (")
                && error
                    .to_string()
                    .ends_with("): expected a book file or 'builtin'"),
            "{error}"
        );
    }

    #[test]
    fn a_bad_move_is_named_and_a_good_book_passes() {
        let dir = Scratch::new("book-verify");
        let path = dir.file("book.txt");
        // Player 1 on b2 of 5x5: a1 wins at once. From c3, d4 loses at once
        // (player 2 steps into e5); and from b2, d4 is not even a move.
        std::fs::write(&path, "# a comment\n5/5/5/1s3/5 1\ta1\t1\n").unwrap();
        let lines = load(&BookSource::File(path.clone()), "5x5".parse().unwrap()).unwrap();
        assert_eq!(lines.len(), 1);
        let five: Size = "5x5".parse().unwrap();
        let good = verify(&lines, five, VerifyLimits::default(), &mut |_| {});
        assert_eq!((good.entries, good.failures.len()), (1, 0));
        assert!(
            good.to_string()
                .starts_with("1 entries, 0 not proven to win, "),
            "{good}"
        );
        let position: Position = "5/5/2s2/5/5 1".parse().unwrap();
        let bad = BookLine {
            position,
            square: position.parse_move("d4").unwrap(),
            plies: 1,
        };
        let result = verify(
            &[lines[0].clone(), bad],
            five,
            VerifyLimits::default(),
            &mut |_| {},
        );
        assert_eq!(result.failures.len(), 1, "{:?}", result.failures);
        std::fs::write(&path, "5/5/5/1s3/5 1\td4\t1\n").unwrap();
        assert!(
            result.failures[0].starts_with("5/5/2s2/5/5 1\td4\t1"),
            "{:?}",
            result.failures
        );
        assert!(matches!(
            load(&BookSource::File(path), "5x5".parse().unwrap()),
            Err(VerifyError::Parse(BookError { line: 1, .. }))
        ));
    }
}
