//! Tests of the results files.

use super::*;
use crate::scratch::Scratch;

fn record(position: &str, verdict: Option<&str>, by: &str) -> Record {
    Record {
        position: position.to_string(),
        verdict: verdict.map(str::to_string),
        best_move: (verdict == Some("win")).then(|| "b2".to_string()),
        nodes: 1234,
        time_ms: 0.1 + 0.2,
        limit_nodes: None,
        limit_ms: Some(5000),
        by: by.to_string(),
    }
}

const A: &str = "5/5/2s2/5/5 1";
const B: &str = "5/5/1xx2/1s3/5 1";

#[test]
fn appended_records_read_back_equal_with_their_files_and_lines() {
    let dir = Scratch::new("results-round-trip");
    let shard = Shard::new(2, 3).unwrap();
    let path = shard_file(dir.path(), shard);
    assert!(path.ends_with("results-2-of-3.jsonl"), "{}", path.display());
    let written = [
        record(A, Some("win"), "2/3"),
        record(B, None, "2/3"),
        record(B, Some("loss"), "2/3"),
    ];
    let mut appender = Appender::open(&path).unwrap();
    for r in &written {
        appender.append(r).unwrap();
    }
    drop(appender);
    let text = fs::read_to_string(&path).unwrap();
    assert_eq!(text.lines().count(), 3);
    assert!(text.ends_with("}\n"), "{text}");
    let results = Results::read(dir.path()).unwrap();
    assert_eq!(results.records().cloned().collect::<Vec<_>>(), written);
    assert_eq!(
        results
            .entries
            .iter()
            .map(|e| e.source.to_string())
            .collect::<Vec<_>>(),
        (1..=3)
            .map(|n| format!("{} line {n}", path.display()))
            .collect::<Vec<_>>()
    );
    assert_eq!(results.torn_lines(), 0);
    let known = results.known();
    assert_eq!(known.len(), 2);
    assert_eq!(known[A], Verdict::Win);
    assert_eq!(known[B], Verdict::Loss);
}

#[test]
fn a_record_prints_as_one_line_of_json_with_every_field() {
    let line = serde_json::to_string(&record(A, Some("win"), "split")).unwrap();
    assert_eq!(
        line,
        r#"{"position":"5/5/2s2/5/5 1","verdict":"win","best_move":"b2","nodes":1234,"time_ms":0.30000000000000004,"limit_nodes":null,"limit_ms":5000,"by":"split"}"#
    );
}

#[test]
fn a_half_written_last_line_is_counted_as_torn_and_the_others_are_kept() {
    let mut results = Results::default();
    let whole = serde_json::to_string(&record(A, Some("loss"), "1/1")).unwrap();
    let torn = &whole[..whole.len() / 2];
    let text = format!("{whole}\n{torn}");
    results.add_text(Path::new("results-1-of-1.jsonl"), &text);
    assert_eq!(results.entries.len(), 1);
    assert_eq!(results.entries[0].source.line, 1);
    assert_eq!(
        results.torn,
        [Source {
            file: "results-1-of-1.jsonl".into(),
            line: 2
        }]
    );
    assert_eq!(results.known()[A], Verdict::Loss);
}

#[test]
fn empty_files_and_blank_lines_hold_nothing() {
    let mut results = Results::default();
    results.add_text(Path::new("results-a.jsonl"), "");
    results.add_text(Path::new("results-b.jsonl"), "\n\n   \n\t\n");
    assert_eq!(results, Results::default());
    // Blank lines still count for the line numbers of the records after them.
    let whole = serde_json::to_string(&record(A, None, "1/1")).unwrap();
    results.add_text(Path::new("results-c.jsonl"), &format!("\n\n{whole}\n\n"));
    assert_eq!(results.entries.len(), 1);
    assert_eq!(results.entries[0].source.line, 3);
    assert_eq!(results.torn_lines(), 0);
}

#[test]
fn unknown_fields_are_ignored_and_missing_ones_make_a_torn_line() {
    let mut results = Results::default();
    let lines = [
        // An extra field, as a later version might write: still a record.
        r#"{"position":"5/5/2s2/5/5 1","verdict":"loss","best_move":null,"nodes":7,"time_ms":1.5,"limit_nodes":10,"limit_ms":null,"by":"1/2","host":"node17"}"#,
        // Optional fields left out: a record with none of them.
        r#"{"position":"5/5/1xx2/1s3/5 1","nodes":3,"time_ms":0.0,"by":"x"}"#,
        // No node count: not a record.
        r#"{"position":"5/5/2s2/5/5 1","verdict":"win","time_ms":1.0,"by":"1/2"}"#,
        // A node count that is not a number.
        r#"{"position":"5/5/2s2/5/5 1","verdict":"win","nodes":"many","time_ms":1.0,"by":"1/2"}"#,
        // Not JSON at all, and a JSON value that is not an object.
        "garbage",
        "[1,2,3]",
    ];
    results.add_text(Path::new("results-x.jsonl"), &lines.join("\n"));
    assert_eq!(results.entries.len(), 2);
    let first = &results.entries[0].record;
    assert_eq!(
        (
            first.verdict(),
            first.nodes,
            first.limit_nodes,
            first.by.as_str()
        ),
        (Some(Verdict::Loss), 7, Some(10), "1/2")
    );
    let second = &results.entries[1].record;
    assert_eq!(second.verdict, None);
    assert_eq!((second.best_move.as_ref(), second.limit_ms), (None, None));
    assert_eq!(
        results.torn.iter().map(|s| s.line).collect::<Vec<_>>(),
        [3, 4, 5, 6]
    );
}

#[test]
fn a_verdict_other_than_win_or_loss_proves_nothing() {
    let mut draw = record(A, Some("draw"), "1/1");
    draw.best_move = None;
    assert_eq!(draw.verdict(), None);
    let mut results = Results::default();
    results.add_text(
        Path::new("results-1-of-1.jsonl"),
        &serde_json::to_string(&draw).unwrap(),
    );
    assert_eq!(results.entries.len(), 1);
    assert!(results.known().is_empty());
}

#[test]
fn duplicated_lines_are_all_kept_and_the_last_verdict_read_is_known() {
    let dir = Scratch::new("results-duplicates");
    let win = serde_json::to_string(&record(A, Some("win"), "1/2")).unwrap();
    let loss = serde_json::to_string(&record(A, Some("loss"), "2/2")).unwrap();
    fs::write(dir.file("results-1-of-2.jsonl"), format!("{win}\n{win}\n")).unwrap();
    fs::write(dir.file("results-2-of-2.jsonl"), format!("{loss}\n")).unwrap();
    let results = Results::read(dir.path()).unwrap();
    assert_eq!(results.entries.len(), 3);
    assert_eq!(
        results
            .entries
            .iter()
            .map(|e| (e.source.file.file_name().unwrap().to_owned(), e.source.line))
            .collect::<Vec<_>>(),
        [
            ("results-1-of-2.jsonl".into(), 1),
            ("results-1-of-2.jsonl".into(), 2),
            ("results-2-of-2.jsonl".into(), 1)
        ]
    );
    assert_eq!(results.known().len(), 1);
    assert_eq!(results.known()[A], Verdict::Loss);
}

#[test]
fn only_files_named_like_results_are_read() {
    let dir = Scratch::new("results-names");
    let line = serde_json::to_string(&record(A, Some("win"), "1/1")).unwrap();
    for name in [
        "results-1-of-1.jsonl",
        "results.jsonl",
        "results-split.jsonl",
        "results-zz.jsonl",
        "results-2-of-1.jsonl",
        "results-01-of-2.jsonl",
        "results-1-of-2.jsonl~",
        "results-+1-of-2.jsonl",
        "other.jsonl",
        "results-1-of-1.json",
        "results-1-of-1.jsonl.bak",
        "positions.txt",
    ] {
        fs::write(dir.file(name), format!("{line}\n")).unwrap();
    }
    let results = Results::read(dir.path()).unwrap();
    let mut files: Vec<_> = results
        .entries
        .iter()
        .map(|e| {
            e.source
                .file
                .file_name()
                .unwrap()
                .to_str()
                .unwrap()
                .to_string()
        })
        .collect();
    files.sort();
    assert_eq!(files, ["results-1-of-1.jsonl", "results-split.jsonl"]);
    let ignored: Vec<_> = results
        .ignored
        .iter()
        .map(|p| p.file_name().unwrap().to_str().unwrap().to_string())
        .collect();
    assert_eq!(
        ignored,
        [
            "results-+1-of-2.jsonl",
            "results-01-of-2.jsonl",
            "results-2-of-1.jsonl",
            "results-zz.jsonl",
            "results.jsonl"
        ]
    );
}

#[test]
fn a_line_that_is_not_utf8_is_counted_as_torn_and_the_others_are_kept() {
    let whole = serde_json::to_string(&record(A, Some("loss"), "1/1")).unwrap();
    let mut bytes = whole.clone().into_bytes();
    bytes.extend_from_slice(b"\n{\"position\":\"\xff\"}\n\xfe\xff\r\n");
    bytes.extend_from_slice(whole.as_bytes());
    bytes.extend_from_slice(b"\r\n");
    let mut results = Results::default();
    results.add_bytes(Path::new("results-1-of-1.jsonl"), &bytes);
    assert_eq!(
        results
            .entries
            .iter()
            .map(|e| e.source.line)
            .collect::<Vec<_>>(),
        [1, 4]
    );
    assert_eq!(
        results.torn.iter().map(|s| s.line).collect::<Vec<_>>(),
        [2, 3]
    );
}

#[test]
fn an_appender_ends_a_torn_last_line_before_its_first_record() {
    let dir = Scratch::new("results-reopen");
    let path = split_file(dir.path());
    assert!(path.ends_with("results-split.jsonl"));
    let whole = serde_json::to_string(&record(A, Some("win"), "split")).unwrap();
    fs::write(&path, format!("{whole}\n{}", &whole[..10])).unwrap();
    let mut appender = Appender::open(&path).unwrap();
    appender.append(&record(B, Some("loss"), "split")).unwrap();
    drop(appender);
    let text = fs::read_to_string(&path).unwrap();
    assert_eq!(text.lines().count(), 3, "{text}");
    assert_eq!(text.lines().nth(1), Some(&whole[..10]));
    let results = Results::read(dir.path()).unwrap();
    assert_eq!(results.entries.len(), 2);
    assert_eq!(results.torn.iter().map(|s| s.line).collect::<Vec<_>>(), [2]);
    assert_eq!(results.entries[1].source.line, 3);
    assert_eq!(results.known()[B], Verdict::Loss);
    // A file that ends with its newline gets no blank line.
    let mut appender = Appender::open(&path).unwrap();
    appender.append(&record(B, None, "split")).unwrap();
    drop(appender);
    assert_eq!(fs::read_to_string(&path).unwrap().lines().count(), 4);
}

#[test]
fn an_empty_file_opens_for_appending_without_a_blank_line() {
    let dir = Scratch::new("results-empty");
    let path = dir.file("results-1-of-1.jsonl");
    fs::write(&path, "").unwrap();
    let mut appender = Appender::open(&path).unwrap();
    appender.append(&record(A, None, "1/1")).unwrap();
    drop(appender);
    let text = fs::read_to_string(&path).unwrap();
    assert_eq!(text.lines().count(), 1);
    assert!(!text.starts_with('\n'));
}

#[test]
fn unfinished_attempts_cover_attempts_with_no_more_budget() {
    let attempt = |nodes: Option<u64>, ms: Option<u64>| Record {
        limit_nodes: nodes,
        limit_ms: ms,
        ..record(A, None, "1/1")
    };
    // Nodes: had at least as many, or no limit.
    assert!(attempt(Some(100), None).covers(Some(100), None));
    assert!(attempt(Some(100), None).covers(Some(99), None));
    assert!(!attempt(Some(100), None).covers(Some(101), None));
    assert!(!attempt(Some(100), None).covers(None, None));
    assert!(attempt(None, None).covers(Some(u64::MAX), None));
    assert!(attempt(None, None).covers(None, None));
    // Time the same way, and both must hold.
    assert!(attempt(None, Some(500)).covers(None, Some(500)));
    assert!(!attempt(None, Some(500)).covers(None, Some(501)));
    assert!(!attempt(None, Some(500)).covers(None, None));
    assert!(attempt(Some(10), Some(500)).covers(Some(10), Some(400)));
    assert!(!attempt(Some(10), Some(500)).covers(Some(11), Some(400)));
    // A proven record is no attempt to skip on.
    let proven = Record {
        limit_nodes: None,
        limit_ms: None,
        ..record(A, Some("win"), "1/1")
    };
    assert!(!proven.covers(Some(1), Some(1)));
}

#[test]
fn a_missing_directory_says_it_cannot_be_listed() {
    let error = Results::read(Path::new("/nonexistent/slimetrail-split")).unwrap_err();
    assert!(matches!(error, ResultsError::List { .. }));
    assert!(
        error
            .to_string()
            .starts_with("cannot list the split directory /nonexistent/slimetrail-split: "),
        "{error}"
    );
}
