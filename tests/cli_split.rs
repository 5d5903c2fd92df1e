//! A proof shared out: `solve --split`, shards of `solve --positions` run as separate
//! processes, and `solve --merge`, checked against a direct `solve` and the oracle,
//! with partial merges, resumes after a kill that cut a results file short, and
//! shards that never prove a proven position twice.

use std::collections::HashMap;
use std::fs;
use std::process::Command;

use serde_json::Value as Json;

use crate::arena_support::{ENGINE, TempDir};
use crate::oracle::{Grid, Oracle, state_from_fen};

/// Runs `slimetrail solve ARGS`, which must succeed; returns stdout.
fn solve(args: &[&str]) -> String {
    let out = Command::new(ENGINE)
        .arg("solve")
        .args(args)
        .output()
        .expect("the engine binary starts");
    assert!(
        out.status.success(),
        "solve {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Runs `slimetrail solve ARGS`, which must fail; returns stderr.
fn solve_fails(args: &[&str]) -> String {
    let out = Command::new(ENGINE)
        .arg("solve")
        .args(args)
        .output()
        .expect("the engine binary starts");
    assert!(!out.status.success(), "solve {args:?} should fail");
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// The JSON report of `solve --merge DIR`.
fn merge(dir: &str) -> Json {
    let out = solve(&["--merge", dir, "--json"]);
    serde_json::from_str(&out).unwrap_or_else(|e| panic!("not JSON ({e}): {out}"))
}

/// The verdict of a direct `solve` of the position ARGS describe.
fn direct_verdict(args: &[&str]) -> String {
    let mut all = args.to_vec();
    all.push("--json");
    let out = solve(&all);
    let report: Json = serde_json::from_str(&out).expect("solve --json prints JSON");
    report["verdict"].as_str().expect("a verdict").to_string()
}

/// The sub-problems of a split directory.
fn sub_problems(dir: &TempDir) -> Vec<String> {
    fs::read_to_string(dir.path("positions.txt"))
        .expect("the split writes positions.txt")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(str::to_string)
        .collect()
}

/// Every record of every results file of a split directory.
fn records(dir: &TempDir) -> Vec<Json> {
    let mut out = Vec::new();
    for entry in fs::read_dir(&dir.0).expect("the split directory") {
        let path = entry.expect("an entry").path();
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if name.starts_with("results") && name.ends_with(".jsonl") {
            let text = fs::read_to_string(&path).expect("a results file");
            out.extend(text.lines().filter_map(|l| serde_json::from_str(l).ok()));
        }
    }
    out
}

/// How many records of `dir` prove each position (unfinished attempts left out).
fn proofs_per_position(dir: &TempDir) -> HashMap<String, usize> {
    let mut count = HashMap::new();
    for record in records(dir) {
        if record["verdict"].is_string() {
            let position = record["position"].as_str().expect("a position").to_string();
            *count.entry(position).or_insert(0) += 1;
        }
    }
    count
}

/// The oracle's verdict ("win" or "loss") for the side to move of `fen`.
fn oracle_verdict(oracle: &mut Oracle, fen: &str) -> &'static str {
    let state = state_from_fen(&oracle.grid, fen);
    if oracle.value(&state).is_win() {
        "win"
    } else {
        "loss"
    }
}

/// Splits the position of `from` (further `solve` arguments may follow it) at `depth`
/// into `dir/split`, with short proofs of `nodes` nodes (none if 0): the split
/// directory's path, and the directory.
fn split(dir: &TempDir, from: &[&str], depth: &str, nodes: &str) -> (String, TempDir) {
    let out = dir.file("split");
    let mut args = from.to_vec();
    args.extend(["--split", depth, "--out", &out, "--split-nodes", nodes]);
    solve(&args);
    (out, TempDir(dir.path("split")))
}

/// Splits the position of `from` at `depth` into `dir`, with short proofs of
/// `nodes` nodes (none if 0), runs `shards` shards one after the other as processes,
/// and gives the split directory.
fn split_and_prove(
    dir: &TempDir,
    from: &[&str],
    depth: &str,
    nodes: &str,
    shards: usize,
) -> TempDir {
    let (_, split) = split(dir, from, depth, nodes);
    let list = split.file("positions.txt");
    for k in 1..=shards {
        let shard = format!("{k}/{shards}");
        solve(&["--positions", &list, "--shard", &shard]);
    }
    split
}

#[test]
fn a_merged_5x5_split_agrees_with_solve_and_the_oracle() {
    let dir = TempDir::new("split-5x5");
    let from = ["--size", "5x5"];
    let split = split_and_prove(&dir, &from, "2", "0", 2);
    let report = merge(&split.file(""));
    let mut oracle = Oracle::new(Grid::new(5, 5));
    let root = report["root"].as_str().expect("the root");
    assert_eq!(root, "5/5/2s2/5/5 1");
    assert!(
        report["sub_problems"].as_u64().unwrap_or(0) > 10,
        "{report}"
    );
    assert_eq!(report["verdict"], direct_verdict(&from), "{report}");
    assert_eq!(report["verdict"], oracle_verdict(&mut oracle, root));
    assert_eq!(report["open"].as_array().map(Vec::len), Some(0), "{report}");
    // Every recorded verdict is the oracle's.
    let recorded = records(&split);
    assert!(!recorded.is_empty());
    for record in &recorded {
        let position = record["position"].as_str().expect("a position");
        assert_eq!(
            record["verdict"],
            oracle_verdict(&mut oracle, position),
            "{record}"
        );
    }
    // Every move the merge settles has the oracle's value.
    let root_state = state_from_fen(&oracle.grid, root);
    let values: HashMap<String, bool> = oracle
        .move_values(&root_state)
        .into_iter()
        .map(|(cell, value)| (oracle.grid.name(cell), value.is_win()))
        .collect();
    for m in report["moves"].as_array().expect("moves") {
        let square = m["move"].as_str().expect("a square");
        match m["value"].as_str() {
            Some("win") => assert!(values[square], "{square} does not win: {report}"),
            Some("loss") => assert!(!values[square], "{square} does not lose: {report}"),
            _ => {}
        }
    }
    if report["verdict"] == "win" {
        let best = report["best_move"].as_str().expect("a winning move");
        assert!(values[best], "{best} does not win");
    }
    // The shards split the work: nothing was proved twice.
    assert!(proofs_per_position(&split).values().all(|&n| n == 1));
}

#[test]
fn a_merged_6x6_split_at_depth_3_agrees_with_solve() {
    let dir = TempDir::new("split-6x6");
    let from = ["--size", "6x6", "--start", "c4"];
    let split = split_and_prove(&dir, &from, "3", "200", 3);
    let report = merge(&split.file(""));
    assert_eq!(report["verdict"], direct_verdict(&from), "{report}");
    assert_eq!(report["depth"], 3);
    assert!(
        report["sub_problems"].as_u64().unwrap_or(0) > 20,
        "{report}"
    );
    assert!(proofs_per_position(&split).values().all(|&n| n == 1));
}

#[test]
fn a_split_of_a_diagonal_start_lists_a_position_or_its_mirror_image_not_both() {
    let dir = TempDir::new("split-mirror");
    let (_, split) = split(&dir, &["--size", "6x6"], "2", "0");
    let positions = sub_problems(&split);
    assert!(positions.len() > 10, "{positions:?}");
    let unique: std::collections::HashSet<_> = positions.iter().collect();
    assert_eq!(unique.len(), positions.len(), "a sub-problem listed twice");
    // d4 (the default 6x6 start) is on the a1 diagonal: c4 and d3 are mirror
    // images, so of the 2-ply positions after d4-c4-x and d4-d3-y only one of each
    // mirror pair is listed; fewer than without the mirror.
    let plain = 8 * 7;
    assert!(positions.len() < plain * 2 / 3, "{}", positions.len());
}

#[test]
fn a_partial_merge_lists_the_open_sub_problems_and_a_resume_proves_only_those() {
    let dir = TempDir::new("split-partial");
    let (out, split) = split(&dir, &["--size", "5x5"], "2", "0");
    let list = split.file("positions.txt");
    let all = sub_problems(&split);
    // Shard 1 of 3 alone: the root stays open, and the open sub-problems are
    // listed sub-problems that no record proves.
    solve(&["--positions", &list, "--shard", "1/3"]);
    let partial = merge(&out);
    let proven = proofs_per_position(&split);
    let open: Vec<&str> = partial["open"]
        .as_array()
        .expect("open")
        .iter()
        .map(|p| p.as_str().expect("a position"))
        .collect();
    if partial["verdict"].is_null() {
        assert!(
            !open.is_empty(),
            "an open root needs open sub-problems: {partial}"
        );
    }
    for position in &open {
        assert!(all.iter().any(|p| p == position), "{position} not listed");
        assert!(!proven.contains_key(*position), "{position} is proven");
    }
    assert_eq!(
        partial["proven"].as_u64(),
        Some(all.iter().filter(|p| proven.contains_key(*p)).count() as u64)
    );
    // One process over all of them then completes the proof without proving
    // anything a second time.
    solve(&["--positions", &list]);
    let full = merge(&out);
    assert_eq!(
        full["verdict"],
        direct_verdict(&["--size", "5x5"]),
        "{full}"
    );
    assert!(proofs_per_position(&split).values().all(|&n| n == 1));
    // Running it again proves nothing.
    let before = records(&split).len();
    let again = solve(&["--positions", &list]);
    assert!(again.contains(" 0 proven, 0 unfinished"), "{again}");
    assert_eq!(records(&split).len(), before);
}

#[test]
fn a_results_file_cut_short_by_a_kill_is_resumed() {
    let dir = TempDir::new("split-torn");
    let (out, split) = split(&dir, &["--size", "5x5"], "2", "0");
    let list = split.file("positions.txt");
    solve(&["--positions", &list, "--shard", "1/1"]);
    let results = split.path("results-1-of-1.jsonl");
    let text = fs::read_to_string(&results).expect("the shard's results");
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines.len() >= 2, "{text}");
    let last: Json = serde_json::from_str(lines[lines.len() - 1]).expect("a record");
    let cut_position = last["position"].as_str().expect("a position").to_string();
    // A kill in the middle of the last write leaves half a line.
    let keep = text.len() - lines[lines.len() - 1].len() / 2 - 1;
    fs::write(&results, &text[..keep]).expect("truncate");
    let torn = merge(&out);
    assert_eq!(torn["torn_lines"], 1, "{torn}");
    // The resumed shard proves the torn position again, and nothing else.
    let resumed = solve(&["--positions", &list, "--shard", "1/1"]);
    assert!(resumed.contains(" 1 proven, 0 unfinished"), "{resumed}");
    assert!(resumed.contains(&format!("{cut_position}: ")), "{resumed}");
    let after = fs::read_to_string(&results).expect("the shard's results");
    assert_eq!(after.lines().count(), lines.len() + 1, "{after}");
    let full = merge(&out);
    assert_eq!(
        full["verdict"],
        direct_verdict(&["--size", "5x5"]),
        "{full}"
    );
    assert_eq!(full["torn_lines"], 1);
    assert!(proofs_per_position(&split).values().all(|&n| n == 1));
}

#[test]
fn unfinished_attempts_are_recorded_and_not_repeated_within_the_same_limits() {
    let dir = TempDir::new("split-limits");
    let (out, split) = split(&dir, &["--size", "6x6"], "1", "0");
    let list = split.file("positions.txt");
    let first = solve(&["--positions", &list, "--nodes", "5"]);
    assert!(first.contains("open after"), "{first}");
    let unfinished = records(&split)
        .iter()
        .filter(|r| r["verdict"].is_null())
        .count();
    assert!(unfinished > 0);
    // The same limits again: nothing to do.
    let again = solve(&["--positions", &list, "--nodes", "5"]);
    assert!(
        again.contains("tried already within the same limits"),
        "{again}"
    );
    assert!(!again.contains("open after"), "{again}");
    // Without limits, the proof completes.
    solve(&["--positions", &list]);
    let report = merge(&out);
    assert_eq!(
        report["verdict"],
        direct_verdict(&["--size", "6x6"]),
        "{report}"
    );
}

#[test]
fn split_arguments_are_checked() {
    let dir = TempDir::new("split-args");
    let out = dir.file("split");
    solve(&["--size", "4x4", "--split", "1", "--out", &out]);
    let again = solve_fails(&["--size", "4x4", "--split", "1", "--out", &out]);
    assert!(again.contains("exists already"), "{again}");
    let list = format!("{out}/positions.txt");
    for bad in ["0/2", "3/2", "1", "a/b"] {
        let err = solve_fails(&["--positions", &list, "--shard", bad]);
        assert!(err.contains("expected K/N"), "{bad}: {err}");
    }
    let missing = solve_fails(&["--merge", &dir.file("nowhere")]);
    assert!(missing.contains("positions file"), "{missing}");
    let needs_out = solve_fails(&["--size", "4x4", "--split", "1"]);
    assert!(needs_out.contains("--out"), "{needs_out}");
}

#[test]
fn passes_of_growing_node_limits_reach_the_verdict() {
    let dir = TempDir::new("split-passes");
    let from = ["--size", "6x6", "--start", "c4"];
    let (out, split) = split(&dir, &from, "2", "0");
    let list = split.file("positions.txt");
    let log = solve(&["--positions", &list, "--first-nodes", "50"]);
    assert!(
        log.contains("pass 1: at most 50 nodes a sub-problem"),
        "{log}"
    );
    assert!(
        log.contains("pass 2: at most 400 nodes a sub-problem"),
        "{log}"
    );
    // The passes end when no sub-problem is left open at a pass's limit.
    assert!(!log.contains("no node limit"), "{log}");
    assert!(log.contains(" 0 unfinished"), "{log}");
    let report = merge(&out);
    assert_eq!(report["verdict"], direct_verdict(&from), "{report}");
    assert!(proofs_per_position(&split).values().all(|&n| n == 1));
}

#[test]
fn a_shard_abandons_a_sub_problem_that_the_results_of_others_settle() {
    let dir = TempDir::new("split-abandon");
    // Each sub-problem of 8x8 at depth 1 takes minutes to prove.
    let (out, split) = split(&dir, &["--size", "8x8", "--hash", "16"], "1", "0");
    let mut shard = Command::new(ENGINE)
        .args([
            "solve",
            "--positions",
            &split.file("positions.txt"),
            "--hash",
            "16",
        ])
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("the engine binary starts");
    let started = std::time::Instant::now();
    while !split.path("results-1-of-1.jsonl").exists() {
        assert!(started.elapsed().as_secs() < 60, "the shard never started");
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    // Another machine proves the root meanwhile (the merge reads only the files
    // named as shards write them).
    let record = r#"{"position":"8/8/8/4s3/8/8/8/8 1","verdict":"loss","best_move":null,"nodes":1,"time_ms":1.0,"limit_nodes":null,"limit_ms":null,"by":"2/2"}"#;
    fs::write(split.path("results-2-of-2.jsonl"), format!("{record}\n")).expect("write");
    loop {
        if let Some(status) = shard.try_wait().expect("the shard's status") {
            assert!(status.success());
            break;
        }
        if started.elapsed().as_secs() > 120 {
            let _ = shard.kill();
            panic!("the shard went on proving a settled sub-problem");
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    let mut log = String::new();
    std::io::Read::read_to_string(&mut shard.stdout.take().expect("stdout"), &mut log)
        .expect("the shard's output");
    assert!(log.contains("abandoned "), "{log}");
    assert!(log.contains(" 0 proven, 0 unfinished"), "{log}");
    let report = merge(&out);
    assert_eq!(report["verdict"], "loss", "{report}");
    assert_eq!(report["open"].as_array().map(Vec::len), Some(0), "{report}");
}
