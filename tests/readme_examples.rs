//! Runs every `console` example of the README and compares what it prints.
//!
//! An example is a fenced block marked `console`: a line `$ slimetrail ARGS` runs the
//! engine binary with ARGS (words split at spaces; `"..."` keeps spaces), and the
//! lines after it, up to the next `$` line, are its standard output in order. A line
//! `...` stands for any number of lines. Words must be equal, except numbers with a
//! decimal point (times and speeds), which match any such number.

use crate::common;
use crate::markdown;

use std::process::Command;

/// One command of an example and the output it shows.
struct Example {
    args: Vec<String>,
    expected: Vec<String>,
}

/// The `console` examples of the README.
fn examples() -> Vec<Example> {
    let mut examples: Vec<Example> = Vec::new();
    for line in markdown::fenced_blocks("README.md", "console").concat() {
        if let Some(command) = line.strip_prefix("$ ") {
            let mut words = shell_words(command);
            assert_eq!(
                words.first().map(String::as_str),
                Some("slimetrail"),
                "a README console example runs something else: {line}"
            );
            words.remove(0);
            examples.push(Example {
                args: words,
                expected: Vec::new(),
            });
        } else {
            let example = examples
                .last_mut()
                .unwrap_or_else(|| panic!("output before any command: {line}"));
            example.expected.push(line);
        }
    }
    examples
}

/// Words of a command line: split at spaces, `"..."` kept whole.
fn shell_words(line: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut quoted = false;
    for c in line.chars() {
        match c {
            '"' => quoted = !quoted,
            ' ' if !quoted => {
                if !word.is_empty() {
                    words.push(std::mem::take(&mut word));
                }
            }
            _ => word.push(c),
        }
    }
    if !word.is_empty() {
        words.push(word);
    }
    words
}

/// Whether an output word matches an example word.
fn word_matches(expected: &str, actual: &str) -> bool {
    let trim = |w: &str| -> String { w.trim_matches(|c: char| "()[],;:".contains(c)).to_string() };
    let decimal = |w: &str| w.contains('.') && w.parse::<f64>().is_ok();
    let (e, a) = (trim(expected), trim(actual));
    if decimal(&e) {
        decimal(&a) && expected.replace(&e, "") == actual.replace(&a, "")
    } else {
        expected == actual
    }
}

/// Whether an output line matches an example line.
fn line_matches(expected: &str, actual: &str) -> bool {
    let e: Vec<&str> = expected.split(' ').collect();
    let a: Vec<&str> = actual.split(' ').collect();
    e.len() == a.len() && e.iter().zip(&a).all(|(e, a)| word_matches(e, a))
}

/// Whether `output` matches `expected`, lines in order, `...` skipping any number.
fn output_matches(expected: &[String], output: &[&str]) -> bool {
    match expected.split_first() {
        None => output.is_empty(),
        Some((first, rest)) if first == "..." => {
            (0..=output.len()).any(|skip| output_matches(rest, &output[skip..]))
        }
        Some((first, rest)) => output
            .split_first()
            .is_some_and(|(line, more)| line_matches(first, line) && output_matches(rest, more)),
    }
}

#[test]
fn every_console_example_of_the_readme_prints_what_it_shows() {
    let examples = examples();
    assert!(!examples.is_empty(), "the README has no console example");
    for example in examples {
        let output = Command::new(common::engine_binary())
            .args(&example.args)
            .output()
            .expect("the engine binary runs");
        let stdout = String::from_utf8_lossy(&output.stdout);
        let lines: Vec<&str> = stdout.lines().collect();
        assert!(
            output.status.success() && output_matches(&example.expected, &lines),
            "slimetrail {} printed (status {}):\n{stdout}\nthe README shows:\n{}",
            example.args.join(" "),
            output.status,
            example.expected.join("\n")
        );
    }
}

#[test]
fn only_decimal_numbers_are_wildcards() {
    assert!(line_matches(
        "total 795152 leaves at depth 8 in 0.004 s (208.1 M leaves/s)",
        "total 795152 leaves at depth 8 in 0.123 s (7.5 M leaves/s)"
    ));
    assert!(!line_matches("c3: 100404", "c3: 98390"));
    assert!(!line_matches("in 0.004 s", "in fast s"));
    assert!(!line_matches("(208.1 M", "208.1 M"));
    assert!(output_matches(
        &["a".to_string(), "...".to_string(), "c".to_string()],
        &["a", "b", "b", "c"]
    ));
    assert!(!output_matches(&["a".to_string()], &["a", "b"]));
}
