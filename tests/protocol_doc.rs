//! Replays every example session of `protocol.md` and of the README against the real
//! binary.
//!
//! A session is a fenced block marked `session`: `> ` lines are sent, other lines are
//! the expected replies in order. In a reply, `<n>` matches any integer, `<sq>` any
//! square name and `<*>` any one word; a line `...` matches any number of lines. The
//! input is closed right after the last line sent, and the engine must then exit
//! without writing anything that is not listed.

use crate::common;
use crate::markdown;

use common::{Engine, message};
use slimetrail::board::SquareName;

/// Whether an engine line matches a pattern line of a session.
fn matches(pattern: &str, line: &str) -> bool {
    let expected: Vec<&str> = pattern.split(' ').collect();
    let actual: Vec<&str> = line.split(' ').collect();
    expected.len() == actual.len()
        && expected.iter().zip(&actual).all(|(&e, &a)| match e {
            "<n>" => a.parse::<i64>().is_ok(),
            "<sq>" => a.parse::<SquareName>().is_ok(),
            "<*>" => !a.is_empty(),
            _ => e == a,
        })
}

fn replay(number: usize, session: &[String]) {
    let context = |what: String| format!("session {number}: {what}\n{}", session.join("\n"));
    let last_send = session
        .iter()
        .rposition(|l| l.starts_with("> "))
        .unwrap_or_else(|| panic!("{}", context("no line to send".into())));
    let mut engine = Engine::start();
    let mut skipping = false;
    let mut seen: Vec<String> = Vec::new();
    for (index, line) in session.iter().enumerate() {
        if let Some(command) = line.strip_prefix("> ") {
            engine.send(command);
            if index == last_send {
                engine.close_input();
            }
        } else if line == "..." {
            skipping = true;
        } else {
            loop {
                let got = engine.line();
                message(&got);
                seen.push(got.clone());
                if matches(line, &got) {
                    break;
                }
                assert!(
                    skipping,
                    "{}",
                    context(format!(
                        "expected {line:?}, got {got:?}; replies so far: {seen:#?}"
                    ))
                );
            }
            skipping = false;
        }
    }
    let (status, rest) = engine.wait_exit();
    assert!(
        status.success(),
        "{}",
        context(format!("exit status {status}"))
    );
    for line in &rest {
        message(line);
    }
    assert!(
        skipping || rest.is_empty(),
        "{}",
        context(format!("unexpected replies at the end: {rest:#?}"))
    );
}

#[test]
fn every_example_session_of_protocol_md_replays() {
    let sessions = markdown::fenced_blocks("protocol.md", "session");
    assert!(
        sessions.len() >= 7,
        "found only {} sessions",
        sessions.len()
    );
    for (number, session) in sessions.iter().enumerate() {
        replay(number + 1, session);
    }
}

#[test]
fn every_example_session_of_the_readme_replays() {
    let sessions = markdown::fenced_blocks("README.md", "session");
    assert!(!sessions.is_empty(), "the README has no session");
    for (number, session) in sessions.iter().enumerate() {
        replay(number + 1, session);
    }
}

#[test]
fn wildcards_match_only_what_they_stand_for() {
    assert!(matches("info nodes <n> time <n>", "info nodes 5 time -3"));
    assert!(!matches("info nodes <n> time <n>", "info nodes 5 time x"));
    assert!(!matches("info nodes <n>", "info nodes 5 time 3"));
    assert!(matches("bestmove <sq>", "bestmove k11"));
    assert!(!matches("bestmove <sq>", "bestmove (none)"));
    assert!(matches(
        "id name Slimetrail <*>",
        "id name Slimetrail 0.1.0"
    ));
    assert!(!matches("info string 2  | . * .", "info string 2 | . * ."));
    assert!(matches("info string 2  | . * .", "info string 2  | . * ."));
}
