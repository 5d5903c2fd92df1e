//! The skipping rules of a shard: a sub-problem is not proved when it is proven
//! already, was tried within the same limits, or no longer matters to the root.

use std::fmt;

use super::check::check;
use super::positions::Split;
use super::results::Results;
use super::tree::{Known, merge};

/// Why a shard does not prove a sub-problem of its share.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Skip {
    /// A results file proves it.
    Proven,
    /// An unfinished attempt with at least the limits of this one is on record.
    Tried,
    /// The results so far settle every line through it: its value cannot change
    /// the root's.
    NoLongerNeeded,
}

impl fmt::Display for Skip {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Skip::Proven => "proven already",
            Skip::Tried => "tried already within the same limits",
            Skip::NoLongerNeeded => {
                "no longer needed: the results so far settle every line through it"
            }
        })
    }
}

/// Whether the sub-problem `name` of `split` need not be proved now, with `results`
/// on record (as far as they pass the checks of [`check`]), by an attempt within
/// `limit_nodes` and `limit_ms` (`None`: no limit), and why.
pub fn skip_reason(
    split: &Split,
    results: &Results,
    name: &str,
    limit_nodes: Option<u64>,
    limit_ms: Option<u64>,
) -> Option<Skip> {
    let checked = check(split, results);
    let known = checked.known;
    if checked.recorded.contains(name) {
        Some(Skip::Proven)
    } else if results
        .records()
        .any(|r| r.position == name && r.covers(limit_nodes, limit_ms))
    {
        Some(Skip::Tried)
    } else if settled(split, &known, name) {
        Some(Skip::NoLongerNeeded)
    } else {
        None
    }
}

/// Whether `known` settles every line of `split` through the sub-problem `name`
/// (or `name` itself): it is not among the open sub-problems that still matter.
pub(super) fn settled(split: &Split, known: &Known, name: &str) -> bool {
    !merge(&split.root, split.depth, known)
        .open
        .iter()
        .any(|p| p == name)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::proof::testing::{five_split, record_line, results};
    use std::path::Path;

    #[test]
    fn the_skipping_rules_proven_tried_and_no_longer_needed() {
        assert_eq!(Skip::Proven.to_string(), "proven already");
        assert_eq!(
            Skip::Tried.to_string(),
            "tried already within the same limits"
        );
        assert_eq!(
            Skip::NoLongerNeeded.to_string(),
            "no longer needed: the results so far settle every line through it"
        );
        let split = five_split();
        let p = &split.positions;
        let name = |i: usize| p[i].to_string();
        // Nothing on record: prove it.
        assert_eq!(
            skip_reason(&split, &Results::default(), &name(0), None, None),
            None
        );
        // Proven already, whatever the limits.
        let proven = results(&[record_line(&p[0], Some("win"), None)]);
        assert_eq!(
            skip_reason(&split, &proven, &name(0), Some(5), None),
            Some(Skip::Proven)
        );
        assert_eq!(skip_reason(&split, &proven, &name(1), None, None), None);
        // Tried within the same limits (or more); not when this attempt has more.
        let tried = results(&[record_line(&p[1], None, Some(100))]);
        assert_eq!(
            skip_reason(&split, &tried, &name(1), Some(100), None),
            Some(Skip::Tried)
        );
        assert_eq!(
            skip_reason(&split, &tried, &name(1), Some(50), None),
            Some(Skip::Tried)
        );
        assert_eq!(skip_reason(&split, &tried, &name(1), Some(101), None), None);
        assert_eq!(skip_reason(&split, &tried, &name(1), None, None), None);
        assert_eq!(skip_reason(&split, &tried, &name(2), Some(1), None), None);
        // A proof after an unfinished attempt: proven, not tried.
        let both = results(&[
            record_line(&p[1], None, Some(100)),
            record_line(&p[1], Some("loss"), None),
        ]);
        assert_eq!(
            skip_reason(&split, &both, &name(1), Some(100), None),
            Some(Skip::Proven)
        );
        // One sub-problem lost for player 2 wins the root: the others no longer
        // matter, even those tried before.
        let settled = results(&[
            record_line(&p[3], Some("loss"), None),
            record_line(&p[1], None, Some(100)),
        ]);
        for i in [0, 2, 4] {
            assert_eq!(
                skip_reason(&split, &settled, &name(i), None, None),
                Some(Skip::NoLongerNeeded),
                "{i}"
            );
        }
        assert_eq!(
            skip_reason(&split, &settled, &name(1), Some(100), None),
            Some(Skip::Tried)
        );
        assert_eq!(
            skip_reason(&split, &settled, &name(1), None, None),
            Some(Skip::NoLongerNeeded)
        );
        // Wins for player 2 only settle their own lines.
        let wins = results(&[
            record_line(&p[3], Some("win"), None),
            record_line(&p[4], Some("win"), None),
        ]);
        assert_eq!(skip_reason(&split, &wins, &name(0), None, None), None);
        // A torn line proves nothing.
        let mut torn = Results::default();
        let whole = record_line(&p[0], Some("win"), None);
        torn.add_text(Path::new("results-1-of-1.jsonl"), &whole[..whole.len() - 3]);
        assert_eq!(torn.torn_lines(), 1);
        assert_eq!(skip_reason(&split, &torn, &name(0), None, None), None);
    }
}
