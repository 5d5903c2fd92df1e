//! Tests of the checks of records: one case of each problem, on the 5x5 start.

use std::path::Path;

use super::*;
use crate::proof::testing::{five, five_split, play};

/// A results line for `position` (a string), with `verdict` and `best_move`.
fn line(position: &str, verdict: Option<&str>, best_move: Option<&str>) -> String {
    serde_json::to_string(&Record {
        position: position.to_string(),
        verdict: verdict.map(str::to_string),
        best_move: best_move.map(str::to_string),
        nodes: 10,
        time_ms: 1.0,
        limit_nodes: None,
        limit_ms: None,
        by: "1/1".into(),
    })
    .unwrap()
}

/// The records of the files and lines given, read in that order.
fn read(files: &[(&str, &[String])]) -> Results {
    let mut results = Results::default();
    for (file, lines) in files {
        results.add_text(Path::new(file), &lines.join("\n"));
    }
    results
}

fn problems(checked: &Checked) -> Vec<String> {
    checked.issues.iter().map(|i| i.to_string()).collect()
}

#[test]
fn good_records_are_all_kept() {
    let split = five_split();
    let p: Vec<String> = split.positions.iter().map(|p| p.to_string()).collect();
    let results = read(&[(
        "results-1-of-1.jsonl",
        &[line(&p[0], Some("win"), None), line(&p[1], None, None)],
    )]);
    let checked = check(&split, &results);
    assert!(checked.issues.is_empty(), "{:?}", problems(&checked));
    assert_eq!(checked.known.len(), 1);
    assert!(checked.recorded.contains(&p[0]) && !checked.recorded.contains(&p[1]));
}

#[test]
fn records_outside_the_split_or_not_canonical_are_set_aside() {
    let split = five_split();
    let root = five();
    // Two plies below the root, but the split lists the positions at one ply: a
    // position below a listed sub-problem is in, one below nothing listed is too
    // (every position at one ply is listed here).
    let below = play(&play(&root, "b2"), "a1");
    let deeper = play(&play(&root, "b2"), "b1");
    let other_board = "7/7/3s3/7/7 1";
    let far = "5/5/5/5/s4 1"; // a1 snail, slime nowhere: not reachable
    let mirrored = play(&root, "c2"); // its canonical name is b3's
    let results = read(&[(
        "results-1-of-1.jsonl",
        &[
            line(&canonical(&deeper), Some("loss"), None),
            line(other_board, Some("win"), None),
            line(far, Some("win"), None),
            line(&mirrored.to_string(), Some("win"), None),
            line("nonsense", Some("win"), None),
        ],
    )]);
    assert!(below.outcome().is_over());
    let checked = check(&split, &results);
    let all = problems(&checked);
    assert_eq!(all.len(), 4, "{all:?}");
    assert!(all[0].starts_with("results-1-of-1.jsonl line 2: record of \"7/7/3s3/7/7 1\" set aside: not a position of the split"), "{all:?}");
    assert!(
        all[1].starts_with("results-1-of-1.jsonl line 3: "),
        "{all:?}"
    );
    assert!(all[2].contains("written as a mirror image"), "{all:?}");
    assert!(all[3].contains("not a position string"), "{all:?}");
    assert_eq!(checked.known.len(), 1);
}

#[test]
fn a_split_of_two_plies_takes_nodes_up_to_its_depth_and_below_listed_ones_only() {
    let root = five();
    let b2 = play(&root, "b2");
    let listed = play(&b2, "b3");
    let unlisted = play(&b2, "a2");
    let split = Split {
        root,
        depth: 2,
        positions: vec![canonical(&listed).parse().unwrap()],
    };
    let results = read(&[(
        "results-split.jsonl",
        &[
            line(&canonical(&b2), None, None),
            line(&canonical(&listed), None, None),
            line(&canonical(&unlisted), None, None),
            line(&canonical(&play(&listed, "a3")), None, None),
            line(&canonical(&play(&unlisted, "b1")), None, None),
        ],
    )]);
    let lines: Vec<usize> = check(&split, &results)
        .issues
        .iter()
        .map(|i| match i {
            Issue::Rejected { source, .. } => source.line,
            other => panic!("{other}"),
        })
        .collect();
    assert_eq!(lines, [5]);
}

#[test]
fn winning_moves_must_be_legal_and_must_not_lose() {
    let split = five_split();
    let root = five();
    let b2 = canonical(&play(&root, "b2"));
    let c3 = canonical(&root);
    let results = read(&[(
        "results-1-of-1.jsonl",
        &[
            // a1 is not next to c3.
            line(&c3, Some("win"), Some("a1")),
            // A loss with a winning move: a flipped win.
            line(&b2, Some("loss"), Some("a1")),
        ],
    )]);
    let all = problems(&check(&split, &results));
    assert_eq!(all.len(), 2, "{all:?}");
    assert!(
        all[0].contains("winning move \"a1\" is not a legal move there"),
        "{all:?}"
    );
    assert!(
        all[1].contains("a loss that names a winning move (a1)"),
        "{all:?}"
    );
    // A win whose move leads to a position recorded as a win for the opponent.
    let d4 = canonical(&play(&root, "d4"));
    let results = read(&[(
        "results-1-of-1.jsonl",
        &[
            line(&d4, Some("win"), None),
            line(&c3, Some("win"), Some("d4")),
        ],
    )]);
    let checked = check(&split, &results);
    let all = problems(&checked);
    assert_eq!(all.len(), 1, "{all:?}");
    assert!(
        all[0].starts_with("results-1-of-1.jsonl line 2: "),
        "{all:?}"
    );
    assert!(all[0].contains("winning move d4 leads to"), "{all:?}");
    assert!(!checked.known.contains_key(&c3));
}

#[test]
fn conflicting_records_name_both_files_and_lines_and_count_as_open() {
    let split = five_split();
    let p = split.positions[0].to_string();
    let results = read(&[
        ("results-1-of-2.jsonl", &[line(&p, Some("win"), None)]),
        (
            "results-2-of-2.jsonl",
            &[line(&p, None, None), line(&p, Some("loss"), None)],
        ),
    ]);
    let checked = check(&split, &results);
    assert_eq!(
        problems(&checked),
        [format!(
            "conflict for {p:?}: results-1-of-2.jsonl line 1 says win, \
             results-2-of-2.jsonl line 2 says loss (both set aside)"
        )]
    );
    assert!(checked.known.is_empty());
    assert!(checked.recorded.contains(&p));
}

#[test]
fn a_node_record_against_the_records_below_it_is_set_aside() {
    let split = five_split();
    let root = five();
    // Every sub-problem a win for player 2 to move: the root is lost for player 1,
    // but a record says it is a win.
    let mut lines: Vec<String> = split
        .positions
        .iter()
        .map(|p| line(&p.to_string(), Some("win"), None))
        .collect();
    lines.push(line(&canonical(&root), Some("win"), None));
    let checked = check(&split, &read(&[("results-1-of-1.jsonl", &lines)]));
    assert_eq!(
        problems(&checked),
        [format!(
            "results-1-of-1.jsonl line 6: {:?} is recorded as a win, but the records \
             below it make it a loss (the record is set aside)",
            canonical(&root)
        )]
    );
    assert!(!checked.known.contains_key(&canonical(&root)));
    // With one sub-problem open, nothing below settles the root: no contradiction.
    lines.remove(0);
    assert!(
        check(&split, &read(&[("results-1-of-1.jsonl", &lines)]))
            .issues
            .is_empty()
    );
}
