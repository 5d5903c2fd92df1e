//! The errors of `slimetrail-arena` as the user reads them: the library's typed errors
//! with the flags that gave the input at fault (`--state`, `--sprt`, `--engine name=…`).

use std::fmt;
use std::path::PathBuf;

use crate::arena::{
    ArenaError, FileError, FileProblem, MergeError, Mismatch, OddGames, OpeningError, OutputFile,
    StateError,
};
use crate::client::SpecError;

use super::flags;

/// Why `slimetrail-arena` failed.
#[derive(Debug)]
pub enum ArenaCliError {
    /// The tournament, `merge` or a check of the arena.
    Arena(ArenaError),
    /// The words of `--engine` or `--each`.
    Engines(SpecError),
    /// Fewer than two `--engine`.
    TooFewEngines(usize),
    /// `--pgn` words other than a file and `min`.
    PgnWords(Vec<String>),
    /// `--games` making an odd number of games per pairing.
    Games(OddGames),
    /// This program cannot be found, for the engine beside it.
    NoProgram(std::io::Error),
    /// The default match's engine is missing.
    NoEngine(PathBuf),
    /// `stats` arguments.
    Stats(super::arena_stats::StatsError),
}

impl fmt::Display for ArenaCliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ArenaCliError::Arena(e) => f.write_str(&arena_error(e)),
            ArenaCliError::Engines(e) => f.write_str(&flags::engine_words(e, flags::nth_engine)),
            ArenaCliError::TooFewEngines(n) => write!(
                f,
                "--engine: only {n} engine given; expected at least two --engine arguments (or none for the default match)"
            ),
            ArenaCliError::PgnWords(words) => write!(
                f,
                "--pgn {}: expected a file name, optionally followed by `min` for records without comments",
                words.join(" ")
            ),
            ArenaCliError::Games(e) => write!(f, "--games {}: {e} (such as -games 2)", e.games),
            ArenaCliError::NoProgram(e) => write!(f, "cannot locate this program ({e})"),
            ArenaCliError::NoEngine(engine) => write!(
                f,
                "the default match needs the engine {}: build it with `cargo build --release`, or give --engine arguments",
                engine.display()
            ),
            ArenaCliError::Stats(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for ArenaCliError {}

impl From<ArenaError> for ArenaCliError {
    fn from(e: ArenaError) -> Self {
        ArenaCliError::Arena(e)
    }
}

/// The flag that names an output file.
fn flag(file: OutputFile) -> &'static str {
    match file {
        OutputFile::Pgn => "--pgn",
        OutputFile::Json => "--json",
        OutputFile::Log => "--log",
        OutputFile::ProtocolLog => "--protocol-log",
        OutputFile::State => "--state",
    }
}

/// An arena error with the flags of the inputs at fault.
pub fn arena_error(e: &ArenaError) -> String {
    match e {
        ArenaError::SprtArguments(e) if e.names_a_word() => format!("--sprt {e}"),
        ArenaError::SprtArguments(e) => format!("--sprt: {e}"),
        ArenaError::Sprt(e) => format!("--sprt: {e}"),
        ArenaError::SprtEngines(given) => {
            format!("--sprt needs exactly two engines, the candidate first; got {given}")
        }
        ArenaError::TooFewEngines(given) => format!(
            "only {given} engine given: expected at least two --engine arguments (or none for the default match)"
        ),
        ArenaError::Openings(OpeningError::Start {
            start: Some(name),
            error,
            ..
        }) => format!("--start {name}: {error}"),
        ArenaError::Openings(OpeningError::Start {
            size,
            start: None,
            error,
        }) => format!("--size {size}: {error}"),
        ArenaError::Openings(OpeningError::Words(words)) => format!(
            "--openings {words}: expected `--openings random:K` or `--openings file=PATH [format=pgn] [order=sequential|random] [plies=N] [start=N]`"
        ),
        ArenaError::Openings(e) => format!("--openings {e}"),
        ArenaError::Engine(e) => format!("--engine name={}: {}", e.name, e.problem()),
        ArenaError::File { file, error } => file_error(*file, error),
        ArenaError::Log { file, error } => format!("{} {error}", flag(*file)),
        ArenaError::State(e) => state_error(e),
        ArenaError::Merge(MergeError::BadSummary { path, error }) => format!(
            "{}: not a valid JSON summary ({error}); expected one written by --json",
            path.display()
        ),
        ArenaError::Merge(MergeError::Neither { path }) => format!(
            "{}: neither a JSON summary (--json) nor a state file (--state) of slimetrail-arena",
            path.display()
        ),
        ArenaError::Merge(e) => e.to_string(),
        ArenaError::Worker(_) => e.to_string(),
        ArenaError::Interrupted {
            saved, scheduled, ..
        } => format!(
            "interrupted: {saved} of {scheduled} games finished and saved (games in play were not); continue with the same arguments and --resume"
        ),
    }
}

/// A file error, named by the file's flag.
fn file_error(file: OutputFile, error: &FileError) -> String {
    let flag = flag(file);
    let path = error.path.display();
    match &error.problem {
        FileProblem::Locked => format!(
            "{flag} {path}: in use by another arena (the file is locked); expected one arena per state file: wait for the other run to end, or give this one another {flag}"
        ),
        FileProblem::RecordNotWritten(e) => format!(
            "{flag} {path}: cannot write it ({e}); expected a writable file (the game is saved in the state file, and --resume writes it)"
        ),
        _ => format!("{flag} {error}"),
    }
}

/// A state-file error, with `--state`, `--resume` and `--force`.
fn state_error(e: &StateError) -> String {
    match e {
        StateError::File(error) => file_error(OutputFile::State, error),
        StateError::Record(error) => file_error(OutputFile::Pgn, error),
        StateError::HoldsGames { path, saved } => format!(
            "--state {}: holds {saved} finished games of an earlier run; expected --resume to continue it, or --force (or another --state file) to start over",
            path.display()
        ),
        StateError::Missing { path } => format!(
            "--resume: the state file {} does not exist; expected the --state file of the interrupted run, or no --resume to start a new tournament",
            path.display()
        ),
        StateError::OtherTournament { path, mismatch } => format!(
            "--resume: the state file {} belongs to another tournament ({}); expected the same arguments as the interrupted run, or another --state file",
            path.display(),
            match mismatch {
                Mismatch::Sprt => "--sprt differs".to_string(),
                other => other.to_string(),
            }
        ),
        StateError::Damaged {
            path,
            line,
            problem,
        } => format!(
            "--state {} line {line}: {problem}; the state file is damaged: repair or remove that line, or start over with --force",
            path.display()
        ),
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::{OpeningSpec, SprtSettings};

    fn words(text: &str) -> Vec<String> {
        text.split_whitespace().map(str::to_string).collect()
    }

    #[test]
    fn sprt_errors_name_the_flag() {
        for (bad, needle) in [
            ("elo0=0", "--sprt: missing elo1"),
            ("elo0=0 elo1=x", "--sprt elo1=x: expected a number"),
            ("elo0=5 elo1=0", "--sprt: "),
            ("elo0=0 elo1=5 alpha=2", "alpha"),
            ("elo0=0 elo1=5 model=bayes", "--sprt model=bayes"),
            (
                "elo0=0 elo1=5 gamma=1",
                "--sprt gamma=: unknown key `gamma`",
            ),
        ] {
            let e = arena_error(&SprtSettings::parse(&words(bad)).unwrap_err().into());
            assert!(e.starts_with("--sprt") && e.contains(needle), "{bad}: {e}");
        }
    }

    #[test]
    fn opening_errors_name_the_flag() {
        for bad in [
            "random:x",
            "file=",
            "order=random",
            "file=a order=up",
            "book.txt",
        ] {
            let e = arena_error(&OpeningSpec::parse(&words(bad)).unwrap_err().into());
            assert!(
                e.contains("--openings") && e.contains("expected"),
                "{bad}: {e}"
            );
        }
        let e = arena_error(&OpeningSpec::parse(&words("book.txt")).unwrap_err().into());
        assert_eq!(
            e,
            "--openings book.txt: expected `--openings random:K` or `--openings file=PATH [format=pgn] [order=sequential|random] [plies=N] [start=N]`"
        );
    }

    #[test]
    fn state_file_errors_name_the_flags_that_fix_them() {
        let holds = StateError::HoldsGames {
            path: PathBuf::from("st.jsonl"),
            saved: 12,
        };
        assert_eq!(
            arena_error(&holds.into()),
            "--state st.jsonl: holds 12 finished games of an earlier run; expected --resume to \
             continue it, or --force (or another --state file) to start over"
        );
        let locked = ArenaError::File {
            file: OutputFile::State,
            error: FileError::new(std::path::Path::new("st.jsonl"), FileProblem::Locked),
        };
        assert!(
            arena_error(&locked).ends_with("or give this one another --state"),
            "{}",
            arena_error(&locked)
        );
        let other = StateError::OtherTournament {
            path: PathBuf::from("st.jsonl"),
            mismatch: Mismatch::Sprt,
        };
        assert!(arena_error(&other.into()).contains("(--sprt differs)"));
    }
}
