//! Consistency before trust: every record of the results files is checked against
//! the split and against the other records before a merge or a shard uses it.
//!
//! - A record must name a canonical position of the split tree (a node up to the
//!   split's depth, or one below a listed sub-problem) with a verdict
//!   of `win`, `loss` or none; the winning move of a win must be legal, and its
//!   child must not be a win for the opponent; a loss names no winning move.
//! - Two records of one position with different verdicts are a conflict: the
//!   position counts as open, and both lines are named.
//! - A node of the split tree whose record contradicts the minimax of the records
//!   below it is named, and its record is set aside (the deeper proofs count).

use std::collections::{HashMap, HashSet};
use std::fmt;

use super::positions::Split;
use super::results::{Record, Results, Source, verdict_name};
use super::tree::{Known, NodeValue, SplitTree, canonical, game_over};
use crate::board::{Bitboard, MoveError, Position, PositionError};
use crate::search::Verdict;

/// What is wrong with one record, on its own or beside its child.
#[derive(Clone, Debug, PartialEq)]
pub enum RecordProblem {
    /// The position is not a position string.
    NotAPosition(PositionError),
    /// The position is written as the mirror image of the name the shards use.
    NotCanonical {
        /// The name the shards would write.
        canonical: String,
    },
    /// The position is not in the split tree: not reachable from the root within
    /// the split's depth, nor below one of its listed sub-problems.
    OutsideSplit,
    /// The verdict is neither `win` nor `loss`.
    UnknownVerdict(String),
    /// The winning move of a win is not a legal move of the position.
    IllegalBestMove {
        /// The move recorded.
        best_move: String,
        /// Why it is not legal.
        error: MoveError,
    },
    /// A loss names a winning move.
    LossWithMove(String),
    /// The winning move of a win leads to a position the opponent wins: a finished
    /// game, or one recorded as a win.
    WinningMoveLoses {
        /// The move recorded.
        best_move: String,
        /// The position after it, as a canonical string.
        child: String,
    },
}

impl fmt::Display for RecordProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RecordProblem::NotAPosition(e) => write!(f, "not a position string ({e})"),
            RecordProblem::NotCanonical { canonical } => write!(
                f,
                "written as a mirror image; expected the shards' name for it, {canonical:?}"
            ),
            RecordProblem::OutsideSplit => f.write_str(
                "not a position of the split: expected a position up to the split's depth \
                 below its root, or one below a listed sub-problem",
            ),
            RecordProblem::UnknownVerdict(v) => {
                write!(f, "verdict {v:?}; expected \"win\", \"loss\" or null")
            }
            RecordProblem::IllegalBestMove { best_move, error } => write!(
                f,
                "winning move {best_move:?} is not a legal move there ({error})"
            ),
            RecordProblem::LossWithMove(m) => write!(
                f,
                "a loss that names a winning move ({m}); expected a win, or no move"
            ),
            RecordProblem::WinningMoveLoses { best_move, child } => write!(
                f,
                "winning move {best_move} leads to {child}, which the opponent wins"
            ),
        }
    }
}

/// Something a merge or a shard should not trust.
#[derive(Clone, Debug, PartialEq)]
pub enum Issue {
    /// A record is set aside.
    Rejected {
        /// Where it was read.
        source: Source,
        /// Its position, as written.
        position: String,
        /// What is wrong with it.
        problem: RecordProblem,
    },
    /// Two records of one position disagree; it counts as open.
    Conflict {
        /// The position.
        position: String,
        /// The first record that says it is a win.
        win: Source,
        /// The first record that says it is a loss.
        loss: Source,
    },
    /// A node's record contradicts the minimax of the records below it; the
    /// record is set aside.
    Contradiction {
        /// The node.
        position: String,
        /// Where its record was read.
        source: Source,
        /// What the record says, for the side to move.
        recorded: Verdict,
    },
}

impl fmt::Display for Issue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Issue::Rejected {
                source,
                position,
                problem,
            } => write!(f, "{source}: record of {position:?} set aside: {problem}"),
            Issue::Conflict {
                position,
                win,
                loss,
            } => write!(
                f,
                "conflict for {position:?}: {win} says win, {loss} says loss (both set aside)"
            ),
            Issue::Contradiction {
                position,
                source,
                recorded,
            } => {
                let below = match recorded {
                    Verdict::Win => Verdict::Loss,
                    Verdict::Loss => Verdict::Win,
                };
                write!(
                    f,
                    "{source}: {position:?} is recorded as a {}, but the records below it \
                     make it a {} (the record is set aside)",
                    verdict_name(*recorded),
                    verdict_name(below)
                )
            }
        }
    }
}

/// The records of a split's results files that survived the checks.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Checked {
    /// The verdicts to trust, by canonical position string.
    pub known: Known,
    /// Positions with a proof on record (conflicting ones too): the shards need
    /// not prove them again.
    pub recorded: HashSet<String>,
    /// What was set aside, and why.
    pub issues: Vec<Issue>,
}

/// A record that passed the checks of its own line, with its position.
struct Valid<'a> {
    record: &'a Record,
    source: &'a Source,
    position: Position,
    verdict: Verdict,
}

/// Checks every record of `results` against `split` and against each other (see
/// the module's documentation), and gives the verdicts to trust.
pub fn check(split: &Split, results: &Results) -> Checked {
    let mut checked = Checked::default();
    let tree = Membership::new(split);
    let mut valid: Vec<Valid> = Vec::new();
    for entry in &results.entries {
        let record = &entry.record;
        match check_line(record, &tree) {
            Ok(Some((position, verdict))) => valid.push(Valid {
                record,
                source: &entry.source,
                position,
                verdict,
            }),
            Ok(None) => {}
            Err(problem) => checked.issues.push(Issue::Rejected {
                source: entry.source.clone(),
                position: record.position.clone(),
                problem,
            }),
        }
    }
    // Conflicts: a win and a loss for one position.
    let mut first: HashMap<&str, [Option<&Source>; 2]> = HashMap::new();
    for v in &valid {
        let slot = first.entry(v.record.position.as_str()).or_default();
        let i = usize::from(v.verdict == Verdict::Loss);
        slot[i].get_or_insert(v.source);
    }
    let mut conflicted = HashSet::new();
    for v in &valid {
        let name = v.record.position.as_str();
        checked.recorded.insert(name.to_string());
        if let [Some(win), Some(loss)] = first[name] {
            if conflicted.insert(name) {
                checked.issues.push(Issue::Conflict {
                    position: name.to_string(),
                    win: win.clone(),
                    loss: loss.clone(),
                });
            }
        } else {
            checked.known.insert(name.to_string(), v.verdict);
        }
    }
    // The winning move of a win against what is known of its child.
    for v in &valid {
        let (Verdict::Win, Some(best)) = (v.verdict, v.record.best_move.as_deref()) else {
            continue;
        };
        let Ok(to) = v.position.parse_move(best) else {
            continue;
        };
        let child = v.position.after(to);
        let child_name = canonical(&child);
        let lost = game_over(&child) == Some(Verdict::Win)
            || checked.known.get(&child_name) == Some(&Verdict::Win);
        if lost {
            checked.known.remove(&v.record.position);
            checked.issues.push(Issue::Rejected {
                source: v.source.clone(),
                position: v.record.position.clone(),
                problem: RecordProblem::WinningMoveLoses {
                    best_move: best.to_string(),
                    child: child_name,
                },
            });
        }
    }
    contradictions(split, &valid, &mut checked);
    checked
}

/// Sets aside the records of nodes above the sub-problems that contradict the
/// minimax of the records below them, deepest first.
fn contradictions(split: &Split, valid: &[Valid], checked: &mut Checked) {
    let root_slime = split.root.slimed().len();
    let mut nodes: Vec<(u32, &Valid)> = valid
        .iter()
        .filter(|v| checked.known.get(&v.record.position) == Some(&v.verdict))
        .map(|v| (v.position.slimed().len() - root_slime, v))
        .filter(|&(ply, _)| ply < split.depth)
        .collect();
    nodes.sort_by_key(|&(ply, v)| (std::cmp::Reverse(ply), v.record.position.clone()));
    let mut seen = HashSet::new();
    for (ply, v) in nodes {
        if !seen.insert(v.record.position.as_str()) {
            continue;
        }
        let below = {
            let mut tree = SplitTree::new(split.depth, &checked.known);
            minimax_of_children(&mut tree, &v.position, ply)
        };
        if below.is_some_and(|below| below != v.verdict) {
            checked.known.remove(&v.record.position);
            checked.issues.push(Issue::Contradiction {
                position: v.record.position.clone(),
                source: v.source.clone(),
                recorded: v.verdict,
            });
        }
    }
}

/// The value of `position` (`ply` plies below the root) by minimax over the
/// values of its children alone, if they settle it.
fn minimax_of_children(tree: &mut SplitTree, position: &Position, ply: u32) -> Option<Verdict> {
    let mut all_won = true;
    for to in position.moves() {
        match tree.value(&position.after(to), ply + 1) {
            NodeValue::Known(Verdict::Loss) => return Some(Verdict::Win),
            NodeValue::Known(Verdict::Win) => {}
            NodeValue::Open => all_won = false,
        }
    }
    all_won.then_some(Verdict::Loss)
}

/// The checks of one line on its own: the position and its verdict if it proves
/// one (`None` for an unfinished attempt), or what is wrong.
fn check_line(
    record: &Record,
    tree: &Membership,
) -> Result<Option<(Position, Verdict)>, RecordProblem> {
    let position: Position = record
        .position
        .parse()
        .map_err(RecordProblem::NotAPosition)?;
    let name = canonical(&position);
    if name != record.position {
        return Err(RecordProblem::NotCanonical { canonical: name });
    }
    if !tree.contains(&position) {
        return Err(RecordProblem::OutsideSplit);
    }
    let verdict = match record.verdict.as_deref() {
        None => return Ok(None),
        Some("win") => Verdict::Win,
        Some("loss") => Verdict::Loss,
        Some(other) => return Err(RecordProblem::UnknownVerdict(other.to_string())),
    };
    if let Some(best) = &record.best_move {
        if verdict == Verdict::Loss {
            return Err(RecordProblem::LossWithMove(best.clone()));
        }
        position
            .parse_move(best)
            .map_err(|error| RecordProblem::IllegalBestMove {
                best_move: best.clone(),
                error,
            })?;
    }
    Ok(Some((position, verdict)))
}

/// Which positions belong to a split: those reachable from the root within its
/// depth, and those below its listed sub-problems.
struct Membership<'a> {
    split: &'a Split,
    listed: HashSet<String>,
}

impl<'a> Membership<'a> {
    fn new(split: &'a Split) -> Membership<'a> {
        Membership {
            split,
            listed: split.positions.iter().map(canonical).collect(),
        }
    }

    /// Whether `target` or its mirror image is in the split tree.
    fn contains(&self, target: &Position) -> bool {
        let root = &self.split.root;
        if target.size() != root.size() {
            return false;
        }
        [*target, target.mirrored()]
            .iter()
            .any(|t| self.reaches(root, t, 0))
    }

    /// Whether a line from `from` (`ply` plies below the root) reaches `target`
    /// through the split tree: only squares `target` has slimed are stepped on,
    /// and a line goes below the split's depth only through a listed sub-problem
    /// (the positions at the depth itself are all in: the split's short proofs
    /// settle some of them instead of listing them).
    fn reaches(&self, from: &Position, target: &Position, ply: u32) -> bool {
        if from == target {
            return true;
        }
        if ply == self.split.depth && !self.listed.contains(&canonical(from)) {
            return false;
        }
        let trail = target.slimed() | Bitboard::from_square(target.snail());
        if !(from.slimed() | Bitboard::from_square(from.snail())).is_subset(trail) {
            return false;
        }
        (from.moves() & trail)
            .into_iter()
            .any(|to| self.reaches(&from.after(to), target, ply + 1))
    }
}

#[cfg(test)]
#[path = "check_tests.rs"]
mod tests;
