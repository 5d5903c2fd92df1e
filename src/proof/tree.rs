//! The split tree of a proof shared out as sub-problems: the positions up to a depth
//! below a root, and the minimax of the verdicts known so far over them.

use std::collections::{HashMap, HashSet};

use crate::board::{Position, Square};
use crate::search::Verdict;

/// The name a position shares with its mirror image in the a1 diagonal (which has
/// the same value): the smaller of the two position strings.
pub fn canonical(position: &Position) -> String {
    let own = position.to_string();
    let mirror = position.mirrored().to_string();
    own.min(mirror)
}

/// Verdicts known so far, for the side to move, by [`canonical`] position string.
pub type Known = HashMap<String, Verdict>;

/// What is known of a node of the split tree, for its side to move.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Value {
    /// Proven.
    Known(Verdict),
    /// Not proven yet.
    Open,
}

/// The verdict of a finished game for the side to move, or `None` if it goes on.
fn game_over(position: &Position) -> Option<Verdict> {
    position.outcome().winner().map(|winner| {
        if winner == position.side_to_move() {
            Verdict::Win
        } else {
            Verdict::Loss
        }
    })
}

/// The sub-problems at `depth` plies below `root`: the positions there whose game
/// goes on, below nodes whose value is neither over nor settled by `settled`
/// (called on each node below the root before it is expanded or listed; it
/// returns whether the node's value is known, e.g. from a short proof). Each
/// position comes once (mirror images count as one), as its [`canonical`] string.
///
/// The order is the one to prove them in: `rank` orders the moves of every node
/// (lower first: the more promising for the mover), and the sub-problems come by
/// their move's rank among their siblings first, then by their parent's rank, and
/// so on up. Every node's most promising line thus comes before any second choice,
/// so that shards working through the list in turns each take a different node's
/// best line.
pub fn sub_problems(
    root: &Position,
    depth: u32,
    settled: &mut dyn FnMut(&Position) -> bool,
    rank: &mut dyn FnMut(&Position) -> i64,
) -> Vec<String> {
    let mut leaves: Vec<(Vec<usize>, String)> = Vec::new();
    let mut seen = HashSet::new();
    let mut path = Vec::new();
    collect(
        root,
        depth,
        settled,
        rank,
        &mut path,
        &mut seen,
        &mut leaves,
    );
    // The path is reversed: the leaf's own rank first.
    leaves.sort_by(|a, b| a.0.cmp(&b.0));
    let mut out = Vec::new();
    let mut listed = HashSet::new();
    for (_, leaf) in leaves {
        if listed.insert(leaf.clone()) {
            out.push(leaf);
        }
    }
    out
}

/// The moves of `position`, most promising first by `rank` of the position after
/// each, ties in square order.
fn ordered_moves(position: &Position, rank: &mut dyn FnMut(&Position) -> i64) -> Vec<Square> {
    let mut moves: Vec<(i64, Square)> = position
        .moves()
        .iter()
        .map(|to| (rank(&position.after(to)), to))
        .collect();
    moves.sort_by_key(|&(r, to)| (r, to.index()));
    moves.into_iter().map(|(_, to)| to).collect()
}

fn collect(
    position: &Position,
    depth: u32,
    settled: &mut dyn FnMut(&Position) -> bool,
    rank: &mut dyn FnMut(&Position) -> i64,
    path: &mut Vec<usize>,
    seen: &mut HashSet<String>,
    leaves: &mut Vec<(Vec<usize>, String)>,
) {
    if game_over(position).is_some() {
        return;
    }
    let name = canonical(position);
    // A transposition (or mirror image) below a node met before is the same work.
    if !seen.insert(name.clone()) || (!path.is_empty() && settled(position)) {
        return;
    }
    if path.len() as u32 == depth {
        leaves.push((path.iter().rev().copied().collect(), name));
        return;
    }
    for (i, to) in ordered_moves(position, rank).into_iter().enumerate() {
        path.push(i);
        collect(
            &position.after(to),
            depth,
            settled,
            rank,
            path,
            seen,
            leaves,
        );
        path.pop();
    }
}

/// What a merge of known verdicts tells about the root of a split.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Merged {
    /// The root's value for its side to move.
    pub root: Value,
    /// A winning move, when the root is a proven win.
    pub winning_move: Option<Square>,
    /// Every move of the root with its value for the root's side to move (a move
    /// wins if the position after it is a proven loss) and the number of open
    /// sub-problems below it that still matter.
    pub moves: Vec<(Square, Value, usize)>,
    /// The open sub-problems whose verdicts could still change the root's value,
    /// as canonical strings, each once, in the order they are met.
    pub open: Vec<String>,
}

/// Merges `known` verdicts over the tree of `depth` plies below `root`, by minimax:
/// a node is won if one of its moves leads to a lost position, and lost if all its
/// moves lead to won ones. A known verdict of any node, not only of the
/// sub-problems, counts.
pub fn merge(root: &Position, depth: u32, known: &Known) -> Merged {
    let mut tree = Tree {
        depth,
        known,
        memo: HashMap::new(),
    };
    let root_value = tree.value(root, 0);
    let mut moves = Vec::new();
    let mut winning_move = None;
    for to in root.moves() {
        let child = root.after(to);
        let value = match tree.value(&child, 1) {
            Value::Known(Verdict::Loss) => Value::Known(Verdict::Win),
            Value::Known(Verdict::Win) => Value::Known(Verdict::Loss),
            Value::Open => Value::Open,
        };
        if value == Value::Known(Verdict::Win) && winning_move.is_none() {
            winning_move = Some(to);
        }
        let mut open = Vec::new();
        if value == Value::Open && root_value == Value::Open {
            tree.needed(&child, 1, &mut HashSet::new(), &mut open);
        }
        moves.push((to, value, open.len()));
    }
    let mut open = Vec::new();
    tree.needed(root, 0, &mut HashSet::new(), &mut open);
    Merged {
        root: root_value,
        winning_move: winning_move.filter(|_| root_value == Value::Known(Verdict::Win)),
        moves,
        open,
    }
}

/// The split tree with the known verdicts, and the values worked out so far.
struct Tree<'a> {
    depth: u32,
    known: &'a Known,
    /// Values by canonical string (which also fixes the ply: one square is
    /// slimed per ply).
    memo: HashMap<String, Value>,
}

impl Tree<'_> {
    fn value(&mut self, position: &Position, ply: u32) -> Value {
        if let Some(verdict) = game_over(position) {
            return Value::Known(verdict);
        }
        let name = canonical(position);
        if let Some(&verdict) = self.known.get(&name) {
            return Value::Known(verdict);
        }
        if ply >= self.depth {
            return Value::Open;
        }
        if let Some(&value) = self.memo.get(&name) {
            return value;
        }
        let mut all_won = true;
        let mut value = Value::Open;
        for to in position.moves() {
            match self.value(&position.after(to), ply + 1) {
                Value::Known(Verdict::Loss) => {
                    value = Value::Known(Verdict::Win);
                    break;
                }
                Value::Known(Verdict::Win) => {}
                Value::Open => all_won = false,
            }
        }
        if value == Value::Open && all_won {
            value = Value::Known(Verdict::Loss);
        }
        self.memo.insert(name, value);
        value
    }

    /// Appends to `open` the open sub-problems below `position` that still matter:
    /// those reached through open nodes only.
    fn needed(
        &mut self,
        position: &Position,
        ply: u32,
        seen: &mut HashSet<String>,
        open: &mut Vec<String>,
    ) {
        if self.value(position, ply) != Value::Open {
            return;
        }
        let name = canonical(position);
        if !seen.insert(name.clone()) {
            return;
        }
        if ply >= self.depth {
            open.push(name);
            return;
        }
        for to in position.moves() {
            self.needed(&position.after(to), ply + 1, seen, open);
        }
    }
}
