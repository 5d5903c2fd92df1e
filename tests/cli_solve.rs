//! The `slimetrail solve` command line, run as a real process: the report of a
//! proof in text and JSON, of a proof stopped by a limit, and of one stopped by Ctrl-C.

use std::io::{BufRead, BufReader, Read};
use std::process::{Command, Stdio};

use serde_json::Value;

/// Runs `slimetrail solve ARGS`: success, stdout, stderr.
fn solve(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_slimetrail"))
        .arg("solve")
        .args(args)
        .output()
        .expect("the engine binary starts");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Runs `slimetrail solve ARGS --json` and parses its one line of output.
fn solve_json(args: &[&str]) -> Value {
    let mut all = args.to_vec();
    all.push("--json");
    let (ok, out, err) = solve(&all);
    assert!(ok, "solve {args:?} failed: {err}");
    assert_eq!(out.lines().count(), 1, "one JSON line expected: {out}");
    serde_json::from_str(&out).unwrap_or_else(|e| panic!("not JSON ({e}): {out}"))
}

fn strings(value: &Value) -> Vec<&str> {
    value
        .as_array()
        .unwrap_or_else(|| panic!("an array expected: {value}"))
        .iter()
        .map(|v| v.as_str().expect("a square name"))
        .collect()
}

#[test]
fn a_one_ply_win_is_reported_in_the_singular_without_repeating_itself() {
    let (ok, out, _) = solve(&["--size", "3x3"]);
    assert!(ok);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines[..5],
        [
            "solving 3/1s1/3 1, player 1 to move (Ctrl-C stops and reports what is known)",
            "player 1 to move wins",
            "winning move: a1",
            "game length under best play: 1 ply",
            "line: a1",
        ],
        "{out}"
    );
    assert!(lines[5].starts_with("proof: 1 node in "), "{out}");
    assert!(
        lines[6].starts_with("total, with the line and the game length: "),
        "{out}"
    );
    assert_eq!(lines.len(), 7, "{out}");
}

#[test]
fn a_proven_win_in_json_has_every_figure_of_the_text() {
    let report = solve_json(&["--size", "5x5"]);
    assert_eq!(report["position"], "5/5/2s2/5/5 1");
    assert_eq!(report["side_to_move"], 1);
    assert_eq!(report["status"], "proven");
    assert_eq!(report["verdict"], "win");
    assert_eq!(report["winner"], 1);
    assert_eq!(report["best_move_basis"], "winning");
    let line = strings(&report["line"]);
    assert_eq!(report["best_move"], line[0]);
    assert_eq!(report["length"], 17);
    assert_eq!(report["length_exact"], true);
    assert_eq!(line.len(), 17);
    assert_eq!(*line.last().unwrap(), "a1", "player 1 ends in its corner");
    assert!(report["unfinished"].is_null());
    assert_eq!(report["table_mb"], 4);
    for part in ["proof", "total"] {
        assert!(report[part]["nodes"].as_u64().unwrap() > 0, "{report}");
        assert!(report[part]["time_ms"].as_f64().unwrap() >= 0.0, "{report}");
        assert!(report[part]["nps"].as_u64().is_some(), "{report}");
    }
    assert!(report["total"]["nodes"].as_u64() >= report["proof"]["nodes"].as_u64());
    assert!(report["seldepth"].as_u64().is_some() && report["hashfull"].as_u64().is_some());
}

#[test]
fn a_proven_loss_names_the_winner_once_and_the_longest_resistance() {
    let position = ["--position", "4/2x1/1xxs/1xxx 1"];
    let (ok, out, _) = solve(&position);
    assert!(ok);
    assert!(
        out.contains("\nplayer 1 to move loses: player 2 wins\n"),
        "{out}"
    );
    assert!(out.contains("\nlongest resistance: d3\n"), "{out}");
    assert!(
        out.contains("\ngame length under best play: 2 plies\n"),
        "{out}"
    );
    assert_eq!(out.matches("wins").count(), 1, "{out}");
    let report = solve_json(&position);
    assert_eq!(report["verdict"], "loss");
    assert_eq!(report["winner"], 2);
    assert_eq!(report["best_move"], "d3");
    assert_eq!(report["best_move_basis"], "longest_resistance");
    assert_eq!(strings(&report["line"]), ["d3", "d4"]);
}

/// 11x11 from j10, next to player 2's corner: k11 steps into it, k10 and j11 let
/// player 2 step into it; the board is far too big to prove in 100,000 nodes.
const NEAR_THE_CORNER: [&str; 6] = ["--size", "11x11", "--start", "j10", "--hash", "16"];

#[test]
fn an_unfinished_proof_says_which_moves_lose_and_gives_a_best_guess() {
    let mut args = NEAR_THE_CORNER.to_vec();
    args.extend(["--nodes", "100000"]);
    let (ok, out, _) = solve(&args);
    assert!(ok, "a limit is no failure: {out}");
    assert!(
        out.contains("\nunsolved: the node limit ran out before the proof finished\n"),
        "{out}"
    );
    assert!(
        out.contains(
            "\nproven to lose (3 of 8 moves): k11 (within 1 ply), k10 (within 2 plies), j11 (within 2 plies)\n"
        ),
        "{out}"
    );
    assert!(
        out.contains("\nundecided (5 of 8 moves): i9 j9 k9 i10 i11\n"),
        "{out}"
    );
    assert!(out.contains("\nbest guess: "), "{out}");
    assert!(out.contains("\nproof search, unfinished: "), "{out}");
    assert!(
        out.contains("\ntotal, with the proofs of the moves and the best guess: "),
        "{out}"
    );
    assert!(!out.contains("line"), "no line without a proof: {out}");

    let report = solve_json(&args);
    assert_eq!(report["status"], "node_limit");
    assert!(report["verdict"].is_null() && report["winner"].is_null());
    assert!(report["length"].is_null());
    assert_eq!(report["line"].as_array().map(Vec::len), Some(0));
    let unfinished = &report["unfinished"];
    let losing: Vec<&str> = unfinished["losing"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["move"].as_str().unwrap())
        .collect();
    assert_eq!(losing, ["k11", "k10", "j11"]);
    assert_eq!(unfinished["losing"][0]["within_plies"], 1);
    assert_eq!(unfinished["winning"].as_array().map(Vec::len), Some(0));
    let undecided = strings(&unfinished["undecided"]);
    assert_eq!(undecided, ["i9", "j9", "k9", "i10", "i11"]);
    assert_eq!(report["best_move_basis"], "guess");
    let best = report["best_move"].as_str().expect("a best guess");
    assert!(undecided.contains(&best), "{best} is not proven to lose");
    assert!(
        unfinished["guess"]["depth"].as_u64().unwrap() >= 1,
        "{report}"
    );
    assert!(report["proof"]["nodes"].as_u64().unwrap() >= 100_000);
}

#[test]
fn a_proof_out_of_time_reports_the_time_limit() {
    let report = solve_json(&["--size", "11x11", "--hash", "16", "--time", "0.2"]);
    assert_eq!(report["status"], "time_limit");
    assert!(report["verdict"].is_null());
    assert!(report["best_move"].is_string(), "{report}");
    assert_eq!(
        strings(&report["unfinished"]["undecided"]).len()
            + report["unfinished"]["losing"].as_array().unwrap().len(),
        8
    );
}

#[test]
fn ctrl_c_stops_the_proof_reports_what_is_known_and_exits_with_130() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_slimetrail"))
        .args(["solve", "--size", "11x11", "--hash", "16"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the engine binary starts");
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    // The first line comes after the Ctrl-C handler is in place.
    let mut first = String::new();
    stdout.read_line(&mut first).unwrap();
    assert!(first.starts_with("solving "), "{first}");
    // SAFETY: a plain system call on the process id of our own child.
    unsafe {
        libc::kill(child.id() as i32, libc::SIGINT);
    }
    let mut rest = String::new();
    stdout.read_to_string(&mut rest).unwrap();
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(130), "{rest}");
    assert!(
        rest.contains("interrupted (Ctrl-C) before the proof finished\n"),
        "{rest}"
    );
    assert!(rest.contains("\nundecided ("), "{rest}");
    assert!(rest.contains("\nbest guess: "), "{rest}");
    assert!(rest.contains("\nproof search, unfinished: "), "{rest}");
}

#[test]
fn solve_rejects_a_bad_node_limit_with_a_reason() {
    let (ok, _, err) = solve(&["--nodes", "0"]);
    assert!(!ok);
    assert!(err.contains("--nodes"), "{err}");
    let (ok, _, err) = solve(&["--time", "0"]);
    assert!(!ok);
    assert!(err.contains("--time"), "{err}");
}

#[test]
fn hindsight_prints_both_proofs_with_the_same_verdict_and_fewer_nodes_second() {
    let (ok, out, err) = solve(&["--size", "6x6", "--hindsight", "0"]);
    assert!(ok, "solve --hindsight failed: {err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2, "{out}");
    let nodes = |line: &str, prefix: &str| -> u64 {
        let rest = line
            .strip_prefix(prefix)
            .unwrap_or_else(|| panic!("expected {prefix:?}: {line}"));
        let count = rest.split(" nodes").next().expect("a node count");
        count.parse().unwrap_or_else(|e| panic!("{e}: {line}"))
    };
    let default = nodes(lines[0], "default order: win (");
    let hinted = nodes(lines[1], "hindsight order at regions of 0+ squares: win (");
    assert!(hinted < default, "{out}");
}

#[test]
fn hindsight_does_not_mix_with_json_or_a_split() {
    let (ok, _, err) = solve(&["--size", "5x5", "--hindsight", "0", "--json"]);
    assert!(!ok && err.contains("--json"), "{err}");
}
