//! The flag names the command lines add to the library's errors: the library says whose
//! words or which file were wrong, and these functions say it in the flags the user typed.

use crate::client::{SpecError, SpecProblem, WordsOf};

/// An error in engine words, named by the flag that gave them: `--each`, or what
/// `engine` calls the engine with that number (such as `--engine #2`).
pub fn engine_words(error: &SpecError, engine: impl Fn(usize) -> String) -> String {
    match (&error.words, &error.problem) {
        (WordsOf::Shared, SpecProblem::SharedName { value }) => format!(
            "--each name={value}: every engine needs its own name; expected name= inside --engine"
        ),
        (WordsOf::Shared, problem) => format!("--each{problem}"),
        (WordsOf::Engine(n), problem) => format!("{}{problem}", engine(*n)),
    }
}

/// The flag of the `n`-th `--engine` of a tournament: `--engine #n`.
pub fn nth_engine(n: usize) -> String {
    format!("--engine #{n}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::client::parse_engines;

    fn words(text: &str) -> Vec<String> {
        text.split_whitespace().map(str::to_string).collect()
    }

    fn err(engines: &[&str], each: &str) -> String {
        let engines: Vec<Vec<String>> = engines.iter().map(|e| words(e)).collect();
        engine_words(
            &parse_engines(&engines, &words(each)).unwrap_err(),
            nth_engine,
        )
    }

    #[test]
    fn engine_word_errors_name_the_flag_that_gave_them() {
        let e = err(&["cmd=random"], "name=x");
        assert!(e.contains("--each name=x"), "{e}");
        assert_eq!(
            e,
            "--each name=x: every engine needs its own name; expected name= inside --engine"
        );
        assert_eq!(
            err(&["cmd=random", "name=a"], ""),
            "--engine #2: missing cmd=; expected cmd=PATH of an engine program, or cmd=random"
        );
        assert_eq!(
            err(&["cmd=random"], "depth=0"),
            "--each depth=0: expected a positive depth in plies, such as depth=4"
        );
        assert_eq!(
            err(&["cmd=random hash"], ""),
            "--engine #1 hash: expected KEY=VALUE with a key among name, cmd, arg, dir, \
             option.NAME, movetime, st, depth, nodes, tc, timemargin, timeout, proto"
        );
    }
}
