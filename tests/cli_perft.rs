//! The `slimetrail perft` command line, run as a real process.

use std::process::Command;

fn run(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_slimetrail"))
        .args(args)
        .output()
        .expect("the engine binary starts");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn perft_prints_per_move_counts_and_the_total() {
    let (ok, out, _) = run(&["perft", "8"]);
    assert!(ok);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 9, "{out}");
    assert_eq!(lines[0].split(':').next(), Some("c3"), "{out}");
    let sum: u64 = lines[..8]
        .iter()
        .map(|l| l.split(": ").nth(1).unwrap().parse::<u64>().unwrap())
        .sum();
    assert_eq!(sum, 795_152);
    assert!(
        lines[8].starts_with("total 795152 leaves at depth 8 in "),
        "{out}"
    );
    assert!(lines[8].contains("leaves/s"), "{out}");
}

#[test]
fn perft_accepts_size_start_and_position() {
    let (ok, out, _) = run(&["perft", "6", "--start", "e5"]);
    assert!(ok);
    assert!(out.contains("total 38712 "), "{out}");
    let (ok, out, _) = run(&["perft", "2", "--position", "7/7/7/3s3/7/7/7 1"]);
    assert!(ok);
    assert!(out.contains("total 56 "), "{out}");
    let (ok, out, _) = run(&["perft", "1", "--size", "11x3"]);
    assert!(ok);
    assert!(out.contains("total 8 "), "{out}");
}

#[test]
fn perft_rejects_bad_input_with_a_reason() {
    let (ok, _, err) = run(&["perft", "3", "--position", "7/7/7/3s3/7/7 1x"]);
    assert!(!ok);
    assert!(err.contains("--position"), "{err}");
    let (ok, _, err) = run(&["perft", "3", "--start", "g7"]);
    assert!(!ok);
    assert!(err.contains("goal corner"), "{err}");
    let (ok, _, err) = run(&["perft", "3", "--size", "12x12"]);
    assert!(!ok);
    assert!(err.contains("from 3 to 11"), "{err}");
    let (ok, _, err) = run(&["perft", "3", "--size", "7x7", "--position", "3/1s1/3 1"]);
    assert!(!ok);
    assert!(err.contains("cannot be used with"), "{err}");
}

#[test]
fn logging_stays_off_stdout() {
    let out = Command::new(env!("CARGO_BIN_EXE_slimetrail"))
        .args(["perft", "2"])
        .env("RUST_LOG", "trace")
        .output()
        .expect("the engine binary starts");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        !stdout.contains("INFO") && !stdout.contains("perft 2 from"),
        "{stdout}"
    );
    assert!(String::from_utf8_lossy(&out.stderr).contains("perft 2 from"));
}

#[test]
fn perft_json_has_the_counts_of_the_text() {
    let (ok, out, _) = run(&["perft", "8", "--json"]);
    assert!(ok);
    assert_eq!(out.lines().count(), 1, "one JSON line expected: {out}");
    let report: serde_json::Value = serde_json::from_str(&out).expect("perft --json prints JSON");
    assert_eq!(report["position"], "7/7/7/3s3/7/7/7 1");
    assert_eq!(report["depth"], 8);
    assert_eq!(report["leaves"], 795_152);
    assert_eq!(report["wide"], false);
    let moves = report["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 8);
    assert_eq!(moves[0]["move"], "c3");
    let sum: u64 = moves.iter().map(|m| m["leaves"].as_u64().unwrap()).sum();
    assert_eq!(sum, 795_152);
    assert!(report["time_ms"].as_f64().unwrap() >= 0.0);
    assert!(report["leaves_per_second"].as_u64().unwrap() > 0);

    let (ok, out, _) = run(&["perft", "0", "--json", "--size", "5x5"]);
    assert!(ok);
    let report: serde_json::Value = serde_json::from_str(&out).expect("perft --json prints JSON");
    assert_eq!(report["leaves"], 1);
    assert_eq!(report["moves"].as_array().map(Vec::len), Some(0));
}
