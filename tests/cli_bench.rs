//! The `slimetrail bench` command line, run as a real process: the node count in
//! text and JSON, and the repeated rounds of the speed measurement.

use std::process::Command;

use serde_json::Value;

fn bench(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_slimetrail"))
        .arg("bench")
        .args(args)
        .output()
        .expect("the engine binary starts");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn bench_json(args: &[&str]) -> Value {
    let mut all = args.to_vec();
    all.push("--json");
    let (ok, out, err) = bench(&all);
    assert!(ok, "bench {args:?} failed: {err}");
    assert_eq!(out.lines().count(), 1, "one JSON line expected: {out}");
    serde_json::from_str(&out).unwrap_or_else(|e| panic!("not JSON ({e}): {out}"))
}

/// The number after `label` in the text report.
fn figure(out: &str, label: &str) -> u64 {
    let line = out
        .lines()
        .find(|l| l.starts_with(label))
        .unwrap_or_else(|| panic!("no `{label}` in {out}"));
    line.split(':').nth(1).unwrap().trim().parse().unwrap()
}

#[test]
fn bench_json_has_the_figures_of_the_text() {
    let (ok, out, _) = bench(&["--depth", "4"]);
    assert!(ok);
    let report = bench_json(&["--depth", "4"]);
    assert_eq!(
        report["nodes"].as_u64().unwrap(),
        figure(&out, "Nodes searched")
    );
    assert_eq!(report["depth"], 4);
    assert_eq!(report["hash_mb"], 16);
    let positions = report["positions"].as_array().unwrap();
    assert_eq!(
        positions.len(),
        out.lines().filter(|l| l.starts_with("position")).count()
    );
    let sum: u64 = positions.iter().map(|p| p["nodes"].as_u64().unwrap()).sum();
    assert_eq!(report["nodes"].as_u64().unwrap(), sum);
    assert!(
        positions
            .iter()
            .all(|p| p["position"].is_string() && p["time_ms"].is_f64())
    );
    for field in ["nps", "cpu_nps", "best_nps"] {
        assert!(report[field].as_u64().unwrap() > 0, "{field}: {report}");
    }
    assert!(report["time_ms"].as_f64().unwrap() > 0.0);
    assert_eq!(report["rounds"].as_array().map(Vec::len), Some(1));
}

#[test]
fn repeated_rounds_search_the_same_nodes_and_report_the_best_speed() {
    let once = bench_json(&["--depth", "3"]);
    let report = bench_json(&["--depth", "3", "--repeat", "3"]);
    assert_eq!(
        report["nodes"], once["nodes"],
        "the signature is one round's"
    );
    let rounds = report["rounds"].as_array().unwrap();
    assert_eq!(rounds.len(), 3);
    assert!(
        rounds.iter().all(|r| r["nodes"] == once["nodes"]),
        "{report}"
    );
    assert!(report["best_nps"].as_u64().unwrap() > 0);
    let (ok, out, _) = bench(&["--depth", "3", "--repeat", "2"]);
    assert!(ok);
    assert_eq!(
        out.lines().filter(|l| l.starts_with("round ")).count(),
        2,
        "{out}"
    );
    assert!(out.contains("\nBest nodes/sec  : "), "{out}");
}

#[test]
fn bench_rejects_speed_with_repeat_and_a_zero_depth() {
    let (ok, _, err) = bench(&["--speed", "--repeat", "3"]);
    assert!(!ok);
    assert!(err.contains("cannot be used with"), "{err}");
    let (ok, _, err) = bench(&["--depth", "0"]);
    assert!(!ok);
    assert!(err.contains("--depth: expected 1 to 64"), "{err}");
}
