//! The errors of `slimetrail book`: the library's, told with the flags that gave
//! the input.

use std::fmt;

use crate::board::StartError;
use crate::book_builder::{LeavesFirstError, VerifyError};

/// Why `slimetrail book` cannot write or verify a book.
#[derive(Debug)]
pub enum BookCommandError {
    /// A square of `--starts` is not a start square.
    Start {
        /// The square as given.
        name: String,
        /// What is wrong with it.
        error: StartError,
    },
    /// The leaves-first book in this directory cannot be made (yet).
    LeavesFirst {
        /// The directory of `--leaves-first`.
        dir: String,
        /// Why (boxed: a bad line carries its text).
        error: Box<LeavesFirstError>,
    },
    /// The book cannot be written to `--out`.
    Out {
        /// The file.
        path: String,
        /// What the system said.
        error: std::io::Error,
    },
    /// The book cannot be written to standard output.
    Stdout(std::io::Error),
    /// `--time` is not a positive, finite number of seconds.
    Time(f64),
    /// The book of `--verify` cannot be read.
    Verify {
        /// The file, or `builtin`.
        path: String,
        /// Why.
        error: VerifyError,
    },
    /// Some moves of the book of `--verify` are not proven to win.
    NotProven {
        /// The file, or `builtin`.
        path: String,
        /// How many are not.
        failures: usize,
        /// Entries of the book.
        entries: usize,
    },
}

impl fmt::Display for BookCommandError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BookCommandError::Start { name, error } => write!(f, "--starts {name}: {error}"),
            BookCommandError::LeavesFirst { dir, error } => match error.as_ref() {
                LeavesFirstError::CreateDir { error, .. } => {
                    write!(
                        f,
                        "--leaves-first {dir}: cannot create the directory: {error}"
                    )
                }
                LeavesFirstError::Leaves(e) => e.fmt(f),
                LeavesFirstError::Unvalued { .. } => write!(f, "--leaves-first {dir}: {error}"),
            },
            BookCommandError::Out { path, error } => {
                write!(f, "--out {path}: cannot write the book: {error}")
            }
            BookCommandError::Stdout(e) => {
                write!(f, "cannot write the book to standard output: {e}")
            }
            BookCommandError::Time(s) => write!(
                f,
                "--time: expected a positive number of seconds, found {s}"
            ),
            BookCommandError::Verify { path, error } => match error {
                VerifyError::Read { error, .. } => write!(
                    f,
                    "--verify {path}: cannot read it ({error}): expected a book file or 'builtin'"
                ),
                _ => write!(f, "--verify {path}: {error}"),
            },
            BookCommandError::NotProven {
                path,
                failures,
                entries,
            } => write!(
                f,
                "--verify {path}: {failures} of {entries} moves are not proven to win"
            ),
        }
    }
}

impl std::error::Error for BookCommandError {}
