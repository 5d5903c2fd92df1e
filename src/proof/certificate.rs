//! The certificate of a merged proof: the proof tree the verdict rests on, as plain
//! text, one node a line, so that anyone can check it ([`super::verify`]).
//!
//! ```text
//! # slimetrail proof certificate 1
//! root 7/7/4s2/7/7/7/7 1
//! verdict win
//! . or d4
//! d4 and
//! d4-c3 leaf win nodes=396463 time_ms=183.6 by=1/2 position=7/7/4x2/3x3/2s4/7/7 1
//! d4-a7 end win
//! ```
//!
//! A node is named by its path, the moves from the root joined by `-` (`.` for the
//! root). `or SQ`: the side to move wins by the move to `SQ`. `and`: the side to move
//! loses; every legal reply follows. `end V`: the game is over, `V` for the side to
//! move. `leaf V ... position=P`: the record of a proven sub-problem used, with
//! its nodes, time and prover, and its position as recorded (the node's position or
//! its mirror image in the a1 diagonal).

use std::collections::HashMap;
use std::fmt::{self, Write as _};

use super::check::Checked;
use super::positions::Split;
use super::results::{Results, verdict_name};
use super::tree::{NodeValue, SplitTree, canonical, game_over};
use crate::board::Position;
use crate::search::Verdict;

/// The first line of a certificate.
pub const CERTIFICATE_HEADER: &str = "# slimetrail proof certificate 1";

/// Why no certificate can be written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CertificateError {
    /// The merge has not settled the root.
    Open,
}

impl fmt::Display for CertificateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CertificateError::Open => f.write_str(
                "the root is still open: a certificate needs a proven verdict; expected a \
                 merge whose root is settled",
            ),
        }
    }
}

impl std::error::Error for CertificateError {}

/// A certificate as text, and what it holds.
#[derive(Debug, Clone, PartialEq)]
pub struct Certificate {
    /// The text of the file.
    pub text: String,
    /// Leaves: sub-problem records the proof uses.
    pub leaves: usize,
    /// Lines of nodes.
    pub nodes: usize,
}

/// Writes the certificate of the verdict that the `checked` records of `results`
/// prove for the root of `split`, by the merge's minimax.
pub fn certificate(
    split: &Split,
    results: &Results,
    checked: &Checked,
) -> Result<Certificate, CertificateError> {
    let mut tree = SplitTree::new(split.depth, &checked.known);
    let NodeValue::Known(verdict) = tree.value(&split.root, 0) else {
        return Err(CertificateError::Open);
    };
    // The first record of each trusted verdict, for its figures.
    let mut records = HashMap::new();
    for entry in &results.entries {
        let r = &entry.record;
        if r.verdict().is_some() && checked.known.get(&r.position) == r.verdict().as_ref() {
            records.entry(r.position.as_str()).or_insert(r);
        }
    }
    let mut out = Certificate {
        text: format!(
            "{CERTIFICATE_HEADER}\nroot {}\nverdict {}\n",
            split.root,
            verdict_name(verdict)
        ),
        leaves: 0,
        nodes: 0,
    };
    let mut walk = Walk {
        tree,
        records,
        out: &mut out,
    };
    walk.node(&split.root, &mut Vec::new(), 0);
    Ok(out)
}

/// The walk that writes a certificate.
struct Walk<'a, 'b> {
    tree: SplitTree<'a>,
    records: HashMap<&'a str, &'a super::results::Record>,
    out: &'b mut Certificate,
}

impl Walk<'_, '_> {
    /// Writes the node at `path` (`ply` plies below the root) and what is below it.
    fn node(&mut self, position: &Position, path: &mut Vec<String>, ply: u32) {
        let name = if path.is_empty() {
            ".".to_string()
        } else {
            path.join("-")
        };
        self.out.nodes += 1;
        let text = &mut self.out.text;
        if let Some(v) = game_over(position) {
            let _ = writeln!(text, "{name} end {}", verdict_name(v));
            return;
        }
        let key = canonical(position);
        if let Some(record) = self.records.get(key.as_str()) {
            self.out.leaves += 1;
            let _ = writeln!(
                text,
                "{name} leaf {} nodes={} time_ms={:.1} by={} position={}",
                record.verdict.as_deref().unwrap_or(""),
                record.nodes,
                record.time_ms,
                record.by,
                record.position
            );
            return;
        }
        let value = self.tree.value(position, ply);
        let children: Vec<_> = position.moves().into_iter().collect();
        match value {
            NodeValue::Known(Verdict::Win) => {
                let to = children
                    .into_iter()
                    .find(|&to| {
                        self.tree.value(&position.after(to), ply + 1)
                            == NodeValue::Known(Verdict::Loss)
                    })
                    .expect("a won node has a lost child");
                let _ = writeln!(text, "{name} or {}", position.name(to));
                path.push(position.name(to));
                self.node(&position.after(to), path, ply + 1);
                path.pop();
            }
            _ => {
                let _ = writeln!(text, "{name} and");
                for to in children {
                    path.push(position.name(to));
                    self.node(&position.after(to), path, ply + 1);
                    path.pop();
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::proof::check::check;
    use crate::proof::testing::{five_split, play, record_line, results};

    #[test]
    fn an_open_root_has_no_certificate() {
        let split = five_split();
        let results = Results::default();
        let checked = check(&split, &results);
        assert_eq!(
            certificate(&split, &results, &checked),
            Err(CertificateError::Open)
        );
    }

    #[test]
    fn a_won_root_gives_its_move_and_the_lost_sub_problem_as_a_leaf() {
        let split = five_split();
        let c4 = play(&split.root, "c4");
        let results = results(&[record_line(
            &canonical(&c4).parse().unwrap(),
            Some("loss"),
            None,
        )]);
        let checked = check(&split, &results);
        let cert = certificate(&split, &results, &checked).unwrap();
        assert_eq!(
            cert.text,
            format!(
                "{CERTIFICATE_HEADER}\nroot 5/5/2s2/5/5 1\nverdict win\n. or d3\n\
                 d3 leaf loss nodes=10 time_ms=1.0 by=1/1 position={}\n",
                canonical(&c4)
            )
        );
        assert_eq!((cert.leaves, cert.nodes), (1, 2));
    }
}
