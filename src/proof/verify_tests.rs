//! Tests of the verification of certificates, on 5x5.

use super::*;
use crate::proof::certificate::certificate;
use crate::proof::check::check;
use crate::proof::results::Results;
use crate::proof::testing::{five_split, record_line, results, small_settings};

fn settings() -> ProofSettings {
    small_settings()
}

/// The certificate of the 5x5 start split at depth 1 with every sub-problem
/// recorded as `verdict` (true or not).
fn all(verdict: &str) -> String {
    let split = five_split();
    let lines: Vec<String> = split
        .positions
        .iter()
        .map(|p| record_line(p, Some(verdict), None))
        .collect();
    let results: Results = results(&lines);
    let checked = check(&split, &results);
    certificate(&split, &results, &checked).unwrap().text
}

/// A certificate of the true verdict of the 5x5 start: its sub-problems proven
/// by the solver, as a shard would.
fn true_certificate() -> String {
    let split = five_split();
    let mut engine = settings().engine(1);
    let stop = AtomicBool::new(false);
    let lines: Vec<String> = split
        .positions
        .iter()
        .map(|p| {
            let v = engine
                .prove(p, &settings().limits(), &stop, &mut |_| {})
                .verdict
                .map(name);
            record_line(p, v, None)
        })
        .collect();
    let results: Results = results(&lines);
    let checked = check(&split, &results);
    certificate(&split, &results, &checked).unwrap().text
}

#[test]
fn a_true_certificate_holds_and_its_leaves_are_proved_again_shard_by_shard() {
    let text = true_certificate();
    let tree = check_tree(&text).unwrap();
    assert_eq!(tree.verdict, Verdict::Win, "{text}");
    assert_eq!(tree.leaves.len(), 1, "{text}");
    let stop = AtomicBool::new(false);
    let mut heard = 0;
    let proved =
        prove_leaves(&tree, Shard::WHOLE, &settings(), &stop, &mut |_| heard += 1).unwrap();
    assert_eq!((proved.len(), heard), (1, 1));
    let second = Shard::new(2, 2).unwrap();
    assert!(
        prove_leaves(&tree, second, &settings(), &stop, &mut |_| {})
            .unwrap()
            .is_empty()
    );
}

#[test]
fn a_forged_leaf_fails_the_verification() {
    // Every sub-problem forged a win for player 2: a complete tree for "player 1
    // loses", which the rules accept, but a leaf is a loss.
    let text = all("win");
    let tree = check_tree(&text).unwrap();
    assert_eq!(tree.verdict, Verdict::Loss);
    assert_eq!(tree.leaves.len(), 5, "{text}");
    let stop = AtomicBool::new(false);
    let error = prove_leaves(&tree, Shard::WHOLE, &settings(), &stop, &mut |_| {}).unwrap_err();
    assert!(
        matches!(
            error,
            VerifyError::Refuted {
                claimed: Verdict::Win,
                found: Some(Verdict::Loss),
                ..
            }
        ),
        "{error}"
    );
    assert!(
        error
            .to_string()
            .contains("the certificate says win, the solver proves loss"),
        "{error}"
    );
}

#[test]
fn an_incomplete_or_illegal_tree_is_refused_with_the_node() {
    let text = all("win");
    // One reply of the and node left out.
    let cut: String = text
        .lines()
        .filter(|l| !l.starts_with("b2 "))
        .map(|l| format!("{l}\n"))
        .collect();
    assert_eq!(check_tree(&cut), Err(VerifyError::Missing("b2".into())));
    // A line for a node outside the tree.
    let extra = format!("{text}a1 end win\n");
    assert_eq!(check_tree(&extra), Err(VerifyError::Unused("a1".into())));
    // The root made an or node with an illegal move.
    let illegal = text
        .replace("verdict loss", "verdict win")
        .replace(". and", ". or a1");
    assert!(
        matches!(check_tree(&illegal), Err(VerifyError::Wrong { ref path, ref problem }) if path == "." && problem.contains("a1")),
        "{:?}",
        check_tree(&illegal)
    );
    // A leaf naming another position.
    let leaf = text.lines().find(|l| l.contains(" leaf ")).unwrap();
    let (head, _) = leaf.split_once("position=").unwrap();
    let other = text.replace(leaf, &format!("{head}position=5/5/5/5/s4 1"));
    assert!(matches!(check_tree(&other), Err(VerifyError::Wrong { .. })));
    // The verdict flipped: the root's and node does not fit a win.
    let flipped = text.replace("verdict loss", "verdict win");
    assert!(
        matches!(check_tree(&flipped), Err(VerifyError::Wrong { .. })),
        "{:?}",
        check_tree(&flipped)
    );
    assert_eq!(check_tree("root x\n"), Err(VerifyError::NotACertificate));
}

/// A certificate's text without the lines `drop` picks, each kept line ended by a
/// newline.
fn without_lines(text: &str, drop: impl Fn(&str) -> bool) -> String {
    text.lines()
        .filter(|l| !drop(l))
        .map(|l| format!("{l}\n"))
        .collect()
}

#[test]
fn the_committed_8x8_certificate_holds_under_the_rules() {
    let checked = check_tree(EIGHT_BY_EIGHT.text).expect("the committed 8x8 certificate");
    assert_eq!(checked.root.to_string(), "8/8/8/4s3/8/8/8/8 1");
    assert_eq!(checked.verdict, Verdict::Loss);
    assert_eq!(checked.leaves.len(), 5, "{:?}", checked.leaves);
    assert!(checked.leaves.iter().all(|(_, v)| *v == Verdict::Loss));
    // Each of player 1's eight first moves must be answered: drop one, and the tree fails.
    let without_d4 = without_lines(EIGHT_BY_EIGHT.text, |l| l.starts_with("d4"));
    assert!(matches!(
        check_tree(&without_d4),
        Err(VerifyError::Missing(_))
    ));
}

/// A certificate committed in `tests/certificates/`.
struct Committed {
    /// Its file name there.
    file: &'static str,
    /// Its text.
    text: &'static str,
}

/// The certificate committed as `tests/certificates/$file`.
macro_rules! committed {
    ($file:literal) => {
        Committed {
            file: $file,
            text: include_str!(concat!("../../tests/certificates/", $file)),
        }
    };
}

/// The 8x8 e5 certificate of the README's proven table, as committed.
const EIGHT_BY_EIGHT: Committed = committed!("8x8-e5.txt");

/// One committed 9x9 certificate and what it must prove.
struct NineByNine {
    /// The certificate.
    certificate: Committed,
    /// The root: two plies below e5.
    root: &'static str,
    /// The number of distinct leaves.
    distinct_leaves: usize,
    /// Player 1's winning move at the root.
    winning_move: &'static str,
}

/// The 9x9 certificates of the README's proven table, as committed.
const NINE_BY_NINE: [NineByNine; 4] = [
    NineByNine {
        certificate: committed!("9x9-e5-f5-e6.txt"),
        root: "9/9/9/4s4/4xx3/9/9/9/9 1",
        distinct_leaves: 3,
        winning_move: "f6",
    },
    NineByNine {
        certificate: committed!("9x9-e5-e6-f7.txt"),
        root: "9/9/5s3/4x4/4x4/9/9/9/9 1",
        distinct_leaves: 5,
        winning_move: "f6",
    },
    NineByNine {
        certificate: committed!("9x9-e5-f6-g7.txt"),
        root: "9/9/6s2/5x3/4x4/9/9/9/9 1",
        distinct_leaves: 6,
        winning_move: "g6",
    },
    NineByNine {
        certificate: committed!("9x9-e5-f6-g6.txt"),
        root: "9/9/9/5xs2/4x4/9/9/9/9 1",
        distinct_leaves: 5,
        winning_move: "f5",
    },
];

#[test]
fn every_committed_certificate_is_checked_here() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/certificates");
    let checked: Vec<&str> = std::iter::once(EIGHT_BY_EIGHT.file)
        .chain(NINE_BY_NINE.iter().map(|c| c.certificate.file))
        .collect();
    let entries = std::fs::read_dir(&dir).expect("tests/certificates is readable");
    let mut committed = 0;
    for entry in entries {
        let name = entry.expect("a directory entry").file_name();
        let name = name.to_string_lossy();
        assert!(
            checked.contains(&name.as_ref()),
            "tests/certificates/{name} is committed but not checked: add it to NINE_BY_NINE \
             (or EIGHT_BY_EIGHT) with its root, leaves and winning move"
        );
        committed += 1;
    }
    // Every entry's file exists (`include_str!` reads it), so a count that differs
    // means an entry given twice.
    assert_eq!(
        committed,
        checked.len(),
        "a certificate has two entries: {checked:?}"
    );
}

#[test]
fn the_committed_9x9_certificates_hold_under_the_rules() {
    for NineByNine {
        certificate: Committed { text, .. },
        root,
        distinct_leaves,
        winning_move,
    } in NINE_BY_NINE
    {
        let checked = check_tree(text).unwrap_or_else(|e| panic!("{root}: {e}"));
        assert_eq!(checked.root.to_string(), root);
        assert_eq!(checked.verdict, Verdict::Win, "{root}");
        assert_eq!(checked.leaves.len(), distinct_leaves, "{root}");
        assert!(checked.leaves.iter().all(|(_, v)| *v == Verdict::Win));
        // Every reply of player 2 to the winning move must be answered: drop the
        // first, and the tree fails.
        let reply = format!("{winning_move}-");
        let first_reply = text
            .lines()
            .find(|l| l.starts_with(&reply))
            .unwrap_or_else(|| panic!("{root}: no reply to {winning_move}"));
        let without = without_lines(text, |l| l == first_reply);
        assert!(
            matches!(check_tree(&without), Err(VerifyError::Missing(_))),
            "{root}: {:?}",
            check_tree(&without).map(|c| c.nodes)
        );
    }
}
