//! `book --verify` checks every column of a book file (issue 27): the plies
//! against `solve`'s length, the size against `--size`, the side to move; and it
//! honours a node or time limit, with progress on stderr.

use std::fs;
use std::process::{Command, Output};

use serde_json::Value as Json;

use crate::arena_support::{ENGINE, TempDir};

fn run(args: &[&str]) -> Output {
    Command::new(ENGINE)
        .args(args)
        .output()
        .expect("the engine binary starts")
}

/// `book --verify` of a book of `lines`, with further arguments.
fn verify(dir: &TempDir, lines: &[String], extra: &[&str]) -> Output {
    let book = dir.file("book.txt");
    fs::write(&book, lines.join("\n") + "\n").unwrap();
    let mut args = vec!["book", "--verify", &book];
    args.extend(extra);
    run(&args)
}

/// The winning move and the exact length of `position`, by `solve`.
fn solved(position: &str) -> (String, u64) {
    let out = run(&["solve", "--position", position, "--json"]);
    let report: Json = serde_json::from_slice(&out.stdout).expect("solve --json");
    assert_eq!(report["verdict"], "win", "{report}");
    assert_eq!(report["length_exact"], true, "{report}");
    (
        report["best_move"].as_str().unwrap().to_string(),
        report["length"].as_u64().unwrap(),
    )
}

#[test]
fn the_plies_the_size_and_the_side_to_move_are_checked() {
    let dir = TempDir::new("book-columns");
    let position = "5/5/2s2/5/5 1";
    let (square, length) = solved(position);
    assert!(length > 1);
    let line = |p: &str, plies: u64| format!("{p}\t{square}\t{plies}");
    let good = verify(&dir, &[line(position, length)], &["--size", "5x5"]);
    assert!(
        good.status.success(),
        "{}",
        String::from_utf8_lossy(&good.stderr)
    );
    for plies in [0, 1, length - 1] {
        let out = verify(&dir, &[line(position, plies)], &["--size", "5x5"]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "plies {plies} passed");
        assert!(
            stderr.contains(&format!("not verified: {position}\t{square}\t{plies}: ")),
            "{stderr}"
        );
    }
    // Player 2 to move from the start: not a position of a game.
    let out = verify(&dir, &[line("5/5/2s2/5/5 2", length)], &["--size", "5x5"]);
    assert!(!out.status.success());
    assert!(
        String::from_utf8_lossy(&out.stderr)
            .contains("player 2 to move after 0 plies; expected player 1"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // A 7x7 line in a book said to be 9x9.
    let seven = "7/7/7/3s3/7/7/7 1";
    let out = verify(&dir, &[format!("{seven}\tc3\t35")], &["--size", "9x9"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(
        stderr.contains("a 7x7 position; expected one of 9x9"),
        "{stderr}"
    );
}

#[test]
fn a_limit_ends_a_long_proof_with_progress_and_a_failure() {
    let dir = TempDir::new("book-limit");
    // 9x9 from e5 after c3... any move: far beyond a node limit of 100,000.
    let line = "9/9/9/9/4s4/9/9/9/9 1\td4\t41".to_string();
    let out = verify(
        &dir,
        std::slice::from_ref(&line),
        &["--size", "9x9", "--nodes", "100000"],
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(
        stderr.contains(&format!(
            "not verified: {line}: not proven within the limits"
        )),
        "{stderr}"
    );
    let out = verify(&dir, &[line], &["--size", "9x9", "--time", "2.5"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(
        stderr.contains("entry 1 of 1: "),
        "progress about once a second: {stderr}"
    );
}
