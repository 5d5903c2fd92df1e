//! The verification of a certificate ([`super::certificate`]), independent of the
//! merge: the tree is read back and checked with the rules of [`crate::board`]
//! alone (every legal reply at each `and` node, a legal move at each `or` node,
//! finished games by the rules), and every leaf is proved again by the solver, a
//! share of them per shard.

use std::collections::{HashMap, HashSet};
use std::fmt;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use super::certificate::CERTIFICATE_HEADER;
use super::settings::ProofSettings;
use crate::board::{Position, PositionError};
use crate::search::Verdict;
use crate::shard::Shard;

/// What is wrong with a certificate.
#[derive(Debug, Clone, PartialEq)]
pub enum VerifyError {
    /// The first line is not the certificate header.
    NotACertificate,
    /// A header line (`root`, `verdict`) is missing or wrong.
    Header(&'static str),
    /// The root is not a position string.
    Root(PositionError),
    /// A line cannot be read.
    Line {
        /// The line, from 1.
        line: usize,
        /// What was expected.
        expected: &'static str,
    },
    /// Two lines for one node.
    Duplicate(String),
    /// A node the proof needs has no line.
    Missing(String),
    /// A node's line does not hold under the rules.
    Wrong {
        /// The node's path.
        path: String,
        /// What is wrong.
        problem: String,
    },
    /// Lines for nodes that are not in the tree.
    Unused(String),
    /// A leaf proved again has the other verdict, or none within the limits.
    Refuted {
        /// The leaf's position.
        position: String,
        /// The certificate's verdict.
        claimed: Verdict,
        /// The solver's, if it finished.
        found: Option<Verdict>,
    },
}

/// The word of a verdict.
fn name(v: Verdict) -> &'static str {
    match v {
        Verdict::Win => "win",
        Verdict::Loss => "loss",
    }
}

impl fmt::Display for VerifyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            VerifyError::NotACertificate => {
                write!(
                    f,
                    "not a certificate: expected the first line {CERTIFICATE_HEADER:?}"
                )
            }
            VerifyError::Header(h) => write!(f, "expected a {h:?} line after the header"),
            VerifyError::Root(e) => write!(f, "the root is not a position string ({e})"),
            VerifyError::Line { line, expected } => write!(f, "line {line}: expected {expected}"),
            VerifyError::Duplicate(path) => write!(f, "node {path} has two lines"),
            VerifyError::Missing(path) => {
                write!(f, "node {path} has no line: the tree is not complete")
            }
            VerifyError::Wrong { path, problem } => write!(f, "node {path}: {problem}"),
            VerifyError::Unused(path) => write!(f, "node {path} is not in the proof tree"),
            VerifyError::Refuted {
                position,
                claimed,
                found: Some(found),
            } => write!(
                f,
                "leaf {position}: the certificate says {}, the solver proves {}",
                name(*claimed),
                name(*found)
            ),
            VerifyError::Refuted {
                position, claimed, ..
            } => write!(
                f,
                "leaf {position}: the certificate says {}, the solver did not finish within \
                 the limits",
                name(*claimed)
            ),
        }
    }
}

impl std::error::Error for VerifyError {}

/// One node's line.
#[derive(Debug, Clone, PartialEq)]
enum Line {
    Or(String),
    And,
    End(Verdict),
    Leaf(Verdict, String),
}

/// A certificate whose tree holds under the rules: the leaves left to prove.
#[derive(Debug, Clone, PartialEq)]
pub struct CheckedTree {
    /// The root.
    pub root: Position,
    /// The verdict for the root's side to move.
    pub verdict: Verdict,
    /// Node lines.
    pub nodes: usize,
    /// The distinct leaf positions (a position and its mirror image once), with
    /// their verdicts for the side to move, in the order met.
    pub leaves: Vec<(Position, Verdict)>,
}

/// Reads a certificate and checks its tree under the rules.
pub fn check_tree(text: &str) -> Result<CheckedTree, VerifyError> {
    let mut lines = text.lines().enumerate();
    if lines.next().map(|(_, l)| l.trim()) != Some(CERTIFICATE_HEADER) {
        return Err(VerifyError::NotACertificate);
    }
    let mut header = |key: &'static str| {
        lines
            .next()
            .and_then(|(_, l)| l.strip_prefix(key))
            .and_then(|rest| rest.strip_prefix(' '))
            .map(|rest| rest.trim().to_string())
            .ok_or(VerifyError::Header(key))
    };
    let root: Position = header("root")?.parse().map_err(VerifyError::Root)?;
    let verdict = verdict_of(&header("verdict")?).ok_or(VerifyError::Header("verdict"))?;
    let mut nodes: HashMap<String, Line> = HashMap::new();
    for (i, raw) in lines {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let bad = |expected| VerifyError::Line {
            line: i + 1,
            expected,
        };
        let (path, rest) = line
            .split_once(' ')
            .ok_or(bad("a node path and its kind"))?;
        let mut words = rest.splitn(2, ' ');
        let node = match (words.next(), words.next()) {
            (Some("and"), None) => Line::And,
            (Some("or"), Some(to)) => Line::Or(to.trim().to_string()),
            (Some("end"), Some(v)) => Line::End(verdict_of(v.trim()).ok_or(bad("end win|loss"))?),
            (Some("leaf"), Some(rest)) => {
                let v = rest.split(' ').next().and_then(verdict_of);
                let position = rest.split_once("position=").map(|(_, p)| p.trim());
                match (v, position) {
                    (Some(v), Some(p)) => Line::Leaf(v, p.to_string()),
                    _ => return Err(bad("leaf win|loss ... position=P")),
                }
            }
            _ => {
                return Err(bad(
                    "and, or SQUARE, end VERDICT or leaf VERDICT ... position=P",
                ));
            }
        };
        if nodes.insert(path.to_string(), node).is_some() {
            return Err(VerifyError::Duplicate(path.to_string()));
        }
    }
    let mut walk = TreeWalk {
        nodes: &nodes,
        used: HashSet::new(),
        leaves: Vec::new(),
        seen: HashSet::new(),
    };
    walk.node(&root, ".", verdict)?;
    if let Some(extra) = nodes.keys().find(|p| !walk.used.contains(p.as_str())) {
        return Err(VerifyError::Unused(extra.clone()));
    }
    Ok(CheckedTree {
        root,
        verdict,
        nodes: walk.used.len(),
        leaves: walk.leaves,
    })
}

/// The verdict of a word.
fn verdict_of(word: &str) -> Option<Verdict> {
    match word {
        "win" => Some(Verdict::Win),
        "loss" => Some(Verdict::Loss),
        _ => None,
    }
}

/// The check of the tree, node by node from the root.
struct TreeWalk<'a> {
    nodes: &'a HashMap<String, Line>,
    used: HashSet<&'a str>,
    leaves: Vec<(Position, Verdict)>,
    seen: HashSet<String>,
}

impl<'a> TreeWalk<'a> {
    /// Checks that `position`, at `path`, has the value `expected` for its side to
    /// move by the lines of the certificate and the rules.
    fn node(
        &mut self,
        position: &Position,
        path: &str,
        expected: Verdict,
    ) -> Result<(), VerifyError> {
        let (key, line) = self
            .nodes
            .get_key_value(path)
            .ok_or_else(|| VerifyError::Missing(path.to_string()))?;
        self.used.insert(key.as_str());
        let wrong = |problem: String| VerifyError::Wrong {
            path: path.to_string(),
            problem,
        };
        let child_path = |to: &str| {
            if path == "." {
                to.to_string()
            } else {
                format!("{path}-{to}")
            }
        };
        let over = position.outcome().winner().map(|w| {
            if w == position.side_to_move() {
                Verdict::Win
            } else {
                Verdict::Loss
            }
        });
        match (line, over) {
            (Line::End(v), Some(by_rules)) if *v == by_rules && by_rules == expected => Ok(()),
            (Line::End(v), Some(by_rules)) => Err(wrong(format!(
                "the game is over, a {} by the rules; the line says {} and its parent needs a {}",
                name(by_rules),
                name(*v),
                name(expected)
            ))),
            (_, Some(_)) => Err(wrong("the game is over here; expected an end line".into())),
            (Line::End(_), None) => Err(wrong("an end line, but the game goes on".into())),
            (Line::Leaf(v, recorded), None) => {
                if *v != expected {
                    return Err(wrong(format!(
                        "a leaf of a {}, where its parent needs a {}",
                        name(*v),
                        name(expected)
                    )));
                }
                let own = position.to_string();
                let mirror = position.mirrored().to_string();
                if *recorded != own && *recorded != mirror {
                    return Err(wrong(format!(
                        "the leaf names {recorded:?}, but the position there is {own:?}"
                    )));
                }
                if self.seen.insert(own.clone().min(mirror)) {
                    self.leaves.push((*position, *v));
                }
                Ok(())
            }
            (Line::Or(to), None) => {
                if expected != Verdict::Win {
                    return Err(wrong("an or node where its parent needs a loss".into()));
                }
                let square = position
                    .parse_move(to)
                    .map_err(|e| wrong(format!("the move {to:?} is not legal ({e})")))?;
                self.node(&position.after(square), &child_path(to), Verdict::Loss)
            }
            (Line::And, None) => {
                if expected != Verdict::Loss {
                    return Err(wrong("an and node where its parent needs a win".into()));
                }
                for to in position.moves() {
                    self.node(
                        &position.after(to),
                        &child_path(&position.name(to)),
                        Verdict::Win,
                    )?;
                }
                Ok(())
            }
        }
    }
}

/// A leaf proved again.
#[derive(Debug, Clone, PartialEq)]
pub struct LeafProof {
    /// The leaf's position.
    pub position: Position,
    /// The verdict the certificate claims.
    pub claimed: Verdict,
    /// The solver's verdict, if it finished.
    pub found: Option<Verdict>,
    /// Proof nodes.
    pub nodes: u64,
    /// Proof time.
    pub time: Duration,
}

/// Proves again the leaves of `tree` that `shard` owns (every `N`-th, from the
/// `K`-th, of the distinct leaves), each within the limits of `settings`;
/// `each` hears of each one as it is done. Fails at the first leaf the solver
/// does not confirm.
pub fn prove_leaves(
    tree: &CheckedTree,
    shard: Shard,
    settings: &ProofSettings,
    stop: &AtomicBool,
    each: &mut dyn FnMut(&LeafProof),
) -> Result<Vec<LeafProof>, VerifyError> {
    let mut engine = settings.engine(settings.hash_mb);
    let limits = settings.limits();
    let mut done = Vec::new();
    for (i, (position, claimed)) in tree.leaves.iter().enumerate() {
        if !shard.owns(i) {
            continue;
        }
        let outcome = engine.prove(position, &limits, stop, &mut |_| {});
        let proof = LeafProof {
            position: *position,
            claimed: *claimed,
            found: outcome.verdict,
            nodes: outcome.proof_nodes,
            time: outcome.proof_time,
        };
        each(&proof);
        if proof.found != Some(*claimed) {
            return Err(VerifyError::Refuted {
                position: position.to_string(),
                claimed: *claimed,
                found: proof.found,
            });
        }
        done.push(proof);
    }
    Ok(done)
}

#[cfg(test)]
#[path = "verify_tests.rs"]
mod tests;
