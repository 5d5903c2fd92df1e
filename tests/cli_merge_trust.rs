//! `solve --merge` checks before it trusts (issue 27): each forged or damaged
//! results file of a finished `solve --start e5 --split 2 --split-nodes 0` on 7×7
//! is named, with its file and line, and the merge exits non-zero unless
//! `--ignore-conflicts`; what it cannot trust counts as open.

use std::fs;
use std::process::{Command, Output};

use serde_json::Value as Json;
use slimetrail::board::Position;

use crate::arena_support::{ENGINE, TempDir};

/// The 7×7 root from e5.
const ROOT: &str = "7/7/4s2/7/7/7/7 1";

/// Runs `slimetrail solve ARGS`.
fn solve(args: &[&str]) -> Output {
    Command::new(ENGINE)
        .arg("solve")
        .args(args)
        .output()
        .expect("the engine binary starts")
}

/// Runs `slimetrail solve ARGS`, which must succeed; returns stdout.
fn solve_ok(args: &[&str]) -> String {
    let out = solve(args);
    assert!(
        out.status.success(),
        "solve {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The split of 7×7 from e5 at depth 2 (no shard run yet), in `dir/split`.
fn split_e5(dir: &TempDir) -> String {
    let split = dir.file("split");
    solve_ok(&[
        "--start",
        "e5",
        "--split",
        "2",
        "--split-nodes",
        "0",
        "--out",
        &split,
    ]);
    split
}

/// A finished split of 7×7 from e5 at depth 2, both shards run, in `dir/split`.
fn finished(dir: &TempDir) -> String {
    let split = split_e5(dir);
    let positions = dir.file("split/positions.txt");
    for shard in ["1/2", "2/2"] {
        solve_ok(&["--positions", &positions, "--shard", shard]);
    }
    split
}

/// Whether a merge report lists `position` among the open sub-problems.
fn is_open(report: &Json, position: &str) -> bool {
    report["open"]
        .as_array()
        .unwrap()
        .iter()
        .any(|p| p == position)
}

/// The JSON merge of `split` (which may fail), and whether it succeeded.
fn merge_json(split: &str, extra: &[&str]) -> (Json, bool) {
    let mut args = vec!["--merge", split, "--json"];
    args.extend(extra);
    let out = solve(&args);
    let text = String::from_utf8_lossy(&out.stdout);
    let json = serde_json::from_str(&text).unwrap_or_else(|e| panic!("not JSON ({e}): {text}"));
    (json, out.status.success())
}

/// The problems a merge report lists.
fn problems(report: &Json) -> Vec<String> {
    report["problems"]
        .as_array()
        .expect("a list of problems")
        .iter()
        .map(|p| p.as_str().expect("a sentence").to_string())
        .collect()
}

/// The value of root move `square` in a merge report.
fn value(report: &Json, square: &str) -> String {
    report["moves"]
        .as_array()
        .expect("moves")
        .iter()
        .find(|m| m["move"] == square)
        .and_then(|m| m["value"].as_str())
        .expect("the move is listed")
        .to_string()
}

/// Appends `line` to `file`.
fn append(file: &str, line: &str) {
    let mut text = fs::read_to_string(file).unwrap_or_default();
    text.push_str(line);
    text.push('\n');
    fs::write(file, text).expect("the results file is written");
}

/// A forged record.
fn forged(position: &str, verdict: &str, best_move: Option<&str>, by: &str) -> String {
    serde_json::json!({
        "position": position, "verdict": verdict, "best_move": best_move,
        "nodes": 1, "time_ms": 1.0, "limit_nodes": null, "limit_ms": null, "by": by,
    })
    .to_string()
}

#[test]
fn a_forged_root_line_is_ignored_outside_the_shards_files_and_contradicted_inside() {
    let dir = TempDir::new("trust-root");
    let split = finished(&dir);
    let (clean, ok) = merge_json(&split, &[]);
    assert!(ok && problems(&clean).is_empty(), "{clean}");
    assert_eq!(
        (clean["winner"].as_u64(), clean["best_move"].as_str()),
        (Some(1), Some("d4"))
    );
    // (a), (g): a file no shard writes is not read, and the merge says so.
    let zz = dir.file("split/results-zz.jsonl");
    append(&zz, &forged(ROOT, "loss", None, "1/2"));
    let (report, ok) = merge_json(&split, &[]);
    assert!(ok, "{report}");
    assert_eq!(report["winner"], 1, "{report}");
    assert_eq!(report["best_move"], "d4");
    assert_eq!(report["ignored_files"][0], zz.as_str());
    let text = solve_ok(&["--merge", &split]);
    assert!(
        text.contains("root: player 1 to move wins: player 1 wins\nwinning move: d4\n"),
        "{text}"
    );
    assert!(
        text.contains(&format!(
            "ignored {zz}: not a results file a shard or the split writes\n"
        )),
        "{text}"
    );
    fs::remove_file(&zz).unwrap();
    // (a) in a shard's own file: the root's record contradicts the records below it.
    let own = dir.file("split/results-1-of-2.jsonl");
    let line = fs::read_to_string(&own).unwrap().lines().count() + 1;
    append(&own, &forged(ROOT, "loss", None, "1/2"));
    let (report, ok) = merge_json(&split, &[]);
    assert!(!ok, "a merge that set a record aside fails: {report}");
    assert_eq!(report["winner"], 1, "{report}");
    assert_eq!(
        problems(&report),
        [format!(
            "{own} line {line}: \"{ROOT}\" is recorded as a loss, but the records below it \
             make it a win (the record is set aside)"
        )]
    );
    let out = solve(&["--merge", &split]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("--ignore-conflicts"), "{stderr}");
    let (_, ok) = merge_json(&split, &["--ignore-conflicts"]);
    assert!(ok);
    // (e): a root record whose winning move is not a legal move.
    let own_split = dir.file("split/results-split.jsonl");
    append(&own_split, &forged(ROOT, "win", Some("a1"), "split"));
    let (report, ok) = merge_json(&split, &[]);
    assert!(!ok);
    assert_eq!(report["best_move"], "d4", "{report}");
    let all = problems(&report);
    assert!(
        all.iter().any(|p| p.starts_with(&format!("{own_split} line 1: record of \"{ROOT}\" set aside: winning move \"a1\" is not a legal move there"))),
        "{all:?}"
    );
    let text = String::from_utf8_lossy(&solve(&["--merge", &split]).stdout).into_owned();
    assert!(!text.contains("winning move: a1"), "{text}");
}

/// The first proven win of the shards' files among the sub-problems after the
/// root move `first` (one of which settles that move): the file, its line (from 1)
/// and the line's text. Which sub-problem comes first in the files depends on the
/// split's order, so the position is checked, not assumed.
fn first_win_after(split: &str, first: &str) -> (String, usize, String) {
    let root: Position = ROOT.parse().expect("the root parses");
    let step = root.size().parse_square(first).expect("a square of 7x7");
    let after_first = root.after(step);
    let under: Vec<String> = after_first
        .moves()
        .iter()
        .map(|reply| after_first.after(reply).to_string())
        .collect();
    for shard in ["1-of-2", "2-of-2"] {
        let file = format!("{split}/results-{shard}.jsonl");
        let text = fs::read_to_string(&file).unwrap_or_default();
        for (i, line) in text.lines().enumerate() {
            let record: Json = serde_json::from_str(line).unwrap_or_default();
            let position = record["position"].as_str().unwrap_or_default();
            if record["verdict"] == "win" && under.iter().any(|p| p == position) {
                return (file, i + 1, line.to_string());
            }
        }
    }
    panic!("no proven win after {first} in {split}");
}

#[test]
fn flipped_and_conflicting_verdicts_are_named_with_their_files_and_lines() {
    let dir = TempDir::new("trust-flips");
    let split = finished(&dir);
    let (file, line, text) = first_win_after(&split, "d4");
    let record: Json = serde_json::from_str(&text).unwrap();
    let position = record["position"].as_str().unwrap().to_string();
    // (d): a conflicting duplicate in the file that sorts last.
    let last = dir.file("split/results-2-of-2.jsonl");
    let last_line = fs::read_to_string(&last).unwrap().lines().count() + 1;
    append(&last, &forged(&position, "loss", None, "2/2"));
    let (report, ok) = merge_json(&split, &[]);
    assert!(!ok);
    assert_eq!(
        problems(&report),
        [format!(
            "conflict for \"{position}\": {file} line {line} says win, {last} line {last_line} \
             says loss (both set aside)"
        )]
    );
    // Both set aside: the position counts as open again (here it was the one that
    // settled d4, and with it the root).
    assert!(is_open(&report, &position), "{report}");
    let (_, ok) = merge_json(&split, &["--ignore-conflicts"]);
    assert!(ok);
    // (b): the win flipped to a loss in place, its winning move left standing.
    let original = fs::read_to_string(&last).unwrap();
    fs::write(
        &last,
        original
            .lines()
            .take(last_line - 1)
            .map(|l| format!("{l}\n"))
            .collect::<String>(),
    )
    .unwrap();
    let flipped = fs::read_to_string(&file).unwrap().replace(
        &text,
        &text.replace("\"verdict\":\"win\"", "\"verdict\":\"loss\""),
    );
    fs::write(&file, flipped).unwrap();
    let (report, ok) = merge_json(&split, &[]);
    assert!(!ok);
    let all = problems(&report);
    assert_eq!(all.len(), 1, "{all:?}");
    assert!(
        all[0].starts_with(&format!(
            "{file} line {line}: record of \"{position}\" set aside: a loss that names a winning move ("
        )),
        "{all:?}"
    );
    assert!(is_open(&report, &position), "{report}");
}

#[test]
fn a_line_that_is_not_utf8_is_skipped_and_counted_by_the_merge_and_the_shards() {
    let dir = TempDir::new("trust-utf8");
    let split = finished(&dir);
    let own = dir.path("split/results-1-of-2.jsonl");
    let mut bytes = fs::read(&own).unwrap();
    bytes.extend_from_slice(b"{\"position\":\"\xff\"}\n");
    fs::write(&own, bytes).unwrap();
    let (report, ok) = merge_json(&split, &[]);
    assert!(ok, "{report}");
    assert_eq!(
        (report["torn_lines"].as_u64(), report["winner"].as_u64()),
        (Some(1), Some(1))
    );
    let positions = dir.file("split/positions.txt");
    for shard in ["1/2", "2/2"] {
        solve_ok(&["--positions", &positions, "--shard", shard]);
    }
}

#[test]
fn a_forged_loss_in_a_file_no_shard_writes_is_not_taken_for_proven() {
    let dir = TempDir::new("trust-forged-leaf");
    let split = split_e5(&dir);
    // (c): after d4, c5 forged lost for player 1 before the shards run.
    let forged_leaf = "7/7/2s1x2/3x3/7/7/7 1";
    append(
        &dir.file("split/results-old.jsonl"),
        &forged(forged_leaf, "loss", None, "1/2"),
    );
    let positions = dir.file("split/positions.txt");
    let mut log = String::new();
    for shard in ["1/2", "2/2"] {
        log.push_str(&solve_ok(&["--positions", &positions, "--shard", shard]));
    }
    assert!(
        !log.contains(&format!("skip {forged_leaf}: proven already")),
        "{log}"
    );
    let (report, ok) = merge_json(&split, &[]);
    assert!(ok, "{report}");
    assert_eq!(value(&report, "d4"), "win", "{report}");
}

#[test]
fn a_certificate_of_a_merge_verifies_in_two_shards_and_a_forged_one_does_not() {
    let dir = TempDir::new("trust-certificate");
    let split = finished(&dir);
    let cert = dir.file("cert.txt");
    solve_ok(&["--merge", &split, "--certificate", &cert]);
    let text = fs::read_to_string(&cert).expect("the certificate is written");
    assert!(
        text.starts_with(&format!(
            "# slimetrail proof certificate 1\nroot {ROOT}\nverdict win\n. or d4\nd4 and\n"
        )),
        "{text}"
    );
    let mut leaves = 0;
    for shard in ["1/2", "2/2"] {
        let out = solve_ok(&["--verify-certificate", &cert, "--shard", shard]);
        assert!(out.contains("the tree holds under the rules"), "{out}");
        assert!(
            out.contains(&format!("shard {shard}: ")) && out.contains("all confirmed"),
            "{out}"
        );
        leaves += out.lines().filter(|l| l.starts_with("leaf ")).count();
    }
    assert_eq!(
        leaves, 4,
        "the seven replies to d4 are four positions up to mirror images"
    );
    // A reply left out: the tree is not complete.
    let cut: String = text
        .lines()
        .filter(|l| !l.starts_with("d4-c3 "))
        .map(|l| format!("{l}\n"))
        .collect();
    fs::write(&cert, cut).unwrap();
    let out = solve(&["--verify-certificate", &cert]);
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("node d4-c3 has no line: the tree is not complete"),
        "{stderr}"
    );
    // Every sub-problem forged a loss for player 1, in the shards' own files: the
    // records agree with each other, so the merge believes "player 2 wins"; the
    // certificate of that verdict fails where a leaf is proved again.
    let forged_dir = TempDir::new("trust-certificate-forged");
    let forged_split = split_e5(&forged_dir);
    let lines: String = fs::read_to_string(forged_dir.path("split/positions.txt"))
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(|p| forged(p, "loss", None, "1/1") + "\n")
        .collect();
    fs::write(forged_dir.path("split/results-1-of-1.jsonl"), lines).unwrap();
    let cert = forged_dir.file("cert.txt");
    let (report, ok) = merge_json(&forged_split, &["--certificate", &cert]);
    assert!(ok && report["winner"] == 2, "{report}");
    let mut refuted = 0;
    for shard in ["1/2", "2/2"] {
        let out = solve(&["--verify-certificate", &cert, "--shard", shard]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        if !out.status.success() {
            assert!(
                stderr.contains("the certificate says loss, the solver proves win"),
                "{stderr}"
            );
            refuted += 1;
        }
    }
    assert!(refuted >= 1, "a forged leaf must fail the verification");
}
