//! The split tree of a proof shared out as sub-problems: the positions up to a depth
//! below a root, and the minimax of the verdicts known so far over them (a partial
//! tree: any node may be known, from a record, or open).

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

/// Of a position and its mirror image, the one [`canonical`] names.
pub fn canonical_position(position: &Position) -> Position {
    let mirror = position.mirrored();
    if mirror.to_string() < position.to_string() {
        mirror
    } else {
        *position
    }
}

/// Verdicts known so far, for the side to move, by [`canonical`] position string.
pub type Known = HashMap<String, Verdict>;

/// What is known of a node of the split tree, for its side to move.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum NodeValue {
    /// Proven.
    Known(Verdict),
    /// Not proven yet.
    Open,
}

/// The verdict of a finished game for the side to move, or `None` if it goes on.
pub fn game_over(position: &Position) -> Option<Verdict> {
    position.outcome().winner().map(|winner| {
        if winner == position.side_to_move() {
            Verdict::Win
        } else {
            Verdict::Loss
        }
    })
}

/// What a merge of known verdicts tells about the root of a split.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Merged {
    /// The root's value for its side to move.
    pub root: NodeValue,
    /// A winning move, when the root is a proven win.
    pub winning_move: Option<Square>,
    /// Every move of the root with its value for the root's side to move (a move
    /// wins if the position after it is a proven loss) and the number of open
    /// sub-problems below it that still matter.
    pub moves: Vec<(Square, NodeValue, usize)>,
    /// The open sub-problems whose verdicts could still change the root's value,
    /// as canonical strings, each once, in the order they are met.
    pub open: Vec<String>,
}

/// Merges `known` verdicts over the tree of `depth` plies below `root`, by minimax:
/// a node is won if one of its moves leads to a lost position, and lost if all its
/// moves lead to won ones. A known verdict of any node, not only of the
/// sub-problems, counts.
pub fn merge(root: &Position, depth: u32, known: &Known) -> Merged {
    let mut tree = SplitTree::new(depth, known);
    let root_value = tree.value(root, 0);
    let mut moves = Vec::new();
    let mut winning_move = None;
    for to in root.moves() {
        let child = root.after(to);
        let value = match tree.value(&child, 1) {
            NodeValue::Known(Verdict::Loss) => NodeValue::Known(Verdict::Win),
            NodeValue::Known(Verdict::Win) => NodeValue::Known(Verdict::Loss),
            NodeValue::Open => NodeValue::Open,
        };
        if value == NodeValue::Known(Verdict::Win) && winning_move.is_none() {
            winning_move = Some(to);
        }
        let open = if value == NodeValue::Open && root_value == NodeValue::Open {
            tree.open_below(&child, 1).len()
        } else {
            0
        };
        moves.push((to, value, open));
    }
    let open = tree.open_below(root, 0);
    Merged {
        root: root_value,
        winning_move: winning_move.filter(|_| root_value == NodeValue::Known(Verdict::Win)),
        moves,
        open,
    }
}

/// The split tree of `depth` plies with the known verdicts, and the values worked
/// out so far: a tree to walk, node by node, from any root.
pub struct SplitTree<'a> {
    depth: u32,
    known: &'a Known,
    /// Values by canonical string (which also fixes the ply: one square is
    /// slimed per ply).
    memo: HashMap<String, NodeValue>,
}

impl<'a> SplitTree<'a> {
    /// The tree of `depth` plies below a root, with the verdicts of `known`.
    pub fn new(depth: u32, known: &'a Known) -> SplitTree<'a> {
        SplitTree {
            depth,
            known,
            memo: HashMap::new(),
        }
    }

    /// The value of `position`, `ply` plies below the root, by minimax over the
    /// known verdicts: a finished game's verdict, else the position's own known
    /// verdict, else (above the sub-problems) won if a move leads to a lost
    /// position and lost if every move leads to a won one; otherwise open.
    pub fn value(&mut self, position: &Position, ply: u32) -> NodeValue {
        if let Some(verdict) = game_over(position) {
            return NodeValue::Known(verdict);
        }
        let name = canonical(position);
        if let Some(&verdict) = self.known.get(&name) {
            return NodeValue::Known(verdict);
        }
        if ply >= self.depth {
            return NodeValue::Open;
        }
        if let Some(&value) = self.memo.get(&name) {
            return value;
        }
        let mut all_won = true;
        let mut value = NodeValue::Open;
        for to in position.moves() {
            match self.value(&position.after(to), ply + 1) {
                NodeValue::Known(Verdict::Loss) => {
                    value = NodeValue::Known(Verdict::Win);
                    break;
                }
                NodeValue::Known(Verdict::Win) => {}
                NodeValue::Open => all_won = false,
            }
        }
        if value == NodeValue::Open && all_won {
            value = NodeValue::Known(Verdict::Loss);
        }
        self.memo.insert(name, value);
        value
    }

    /// The open sub-problems at or below `position` (`ply` plies below the root)
    /// that still matter, those reached through open nodes only: each once, as
    /// canonical strings, in the order met.
    pub fn open_below(&mut self, position: &Position, ply: u32) -> Vec<String> {
        let mut open = Vec::new();
        self.needed(position, ply, &mut HashSet::new(), &mut open);
        open
    }

    /// Appends to `open` the open sub-problems below `position` that still matter:
    /// those reached through open nodes only, and not in `seen`.
    fn needed(
        &mut self,
        position: &Position,
        ply: u32,
        seen: &mut HashSet<String>,
        open: &mut Vec<String>,
    ) {
        if self.value(position, ply) != NodeValue::Open {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::proof::testing::{classes, five, play, position};

    fn values(merged: &Merged, root: &Position) -> Vec<(String, NodeValue, usize)> {
        merged
            .moves
            .iter()
            .map(|&(square, value, open)| (root.name(square), value, open))
            .collect()
    }

    const WIN: NodeValue = NodeValue::Known(Verdict::Win);
    const LOSS: NodeValue = NodeValue::Known(Verdict::Loss);
    const OPEN: NodeValue = NodeValue::Open;

    #[test]
    fn a_position_and_its_mirror_image_share_one_name() {
        let root = five();
        assert_eq!(canonical(&root), "5/5/2s2/5/5 1");
        let b3 = play(&root, "b3");
        let c2 = play(&root, "c2");
        assert_ne!(b3.to_string(), c2.to_string());
        assert_eq!(canonical(&b3), canonical(&c2));
        assert_eq!(canonical(&b3), b3.to_string().min(c2.to_string()));
        assert_eq!(classes(&root).len(), 5);
    }

    #[test]
    fn with_nothing_known_every_sub_problem_is_open_and_needed_once() {
        let root = five();
        let merged = merge(&root, 1, &Known::new());
        assert_eq!(merged.root, OPEN);
        assert_eq!(merged.winning_move, None);
        assert_eq!(merged.open, classes(&root));
        let moves = values(&merged, &root);
        assert_eq!(moves.len(), 8);
        assert!(moves.iter().all(|m| m.1 == OPEN && m.2 == 1), "{moves:?}");
    }

    #[test]
    fn one_lost_reply_wins_the_root_and_so_does_its_mirror_image() {
        let root = five();
        let known = Known::from([(canonical(&play(&root, "b3")), Verdict::Loss)]);
        let merged = merge(&root, 1, &known);
        assert_eq!(merged.root, WIN);
        // c2 comes before b3 in square order, and wins just as well.
        assert_eq!(
            merged.winning_move.map(|s| root.name(s)).as_deref(),
            Some("c2")
        );
        assert!(merged.open.is_empty(), "{:?}", merged.open);
        for (square, value, open) in values(&merged, &root) {
            let expected = if square == "b3" || square == "c2" {
                WIN
            } else {
                OPEN
            };
            assert_eq!((value, open), (expected, 0), "{square}");
        }
    }

    #[test]
    fn every_reply_won_by_the_opponent_loses_the_root() {
        let root = five();
        let known: Known = classes(&root)
            .into_iter()
            .map(|name| (name, Verdict::Win))
            .collect();
        let merged = merge(&root, 1, &known);
        assert_eq!(merged.root, LOSS);
        assert_eq!(merged.winning_move, None);
        assert!(merged.open.is_empty());
        assert!(
            values(&merged, &root)
                .iter()
                .all(|m| m.1 == LOSS && m.2 == 0)
        );
    }

    #[test]
    fn replies_won_by_the_opponent_leave_only_the_others_open() {
        let root = five();
        let all = classes(&root);
        let known: Known = all[..3].iter().map(|n| (n.clone(), Verdict::Win)).collect();
        let merged = merge(&root, 1, &known);
        assert_eq!(merged.root, OPEN);
        assert_eq!(merged.open, all[3..]);
        for (square, value, open) in values(&merged, &root) {
            let name = canonical(&play(&root, &square));
            if all[..3].contains(&name) {
                assert_eq!((value, open), (LOSS, 0), "{square}");
            } else {
                assert_eq!((value, open), (OPEN, 1), "{square}");
            }
        }
    }

    #[test]
    fn a_known_root_needs_nothing_below_it() {
        let root = five();
        let merged = merge(&root, 1, &Known::from([(canonical(&root), Verdict::Loss)]));
        assert_eq!(merged.root, LOSS);
        assert_eq!(merged.winning_move, None);
        assert!(merged.open.is_empty());
        assert!(
            values(&merged, &root)
                .iter()
                .all(|m| m.1 == OPEN && m.2 == 0)
        );
        // A known win with no winning move among the children: the merge gives none.
        let merged = merge(&root, 1, &Known::from([(canonical(&root), Verdict::Win)]));
        assert_eq!((merged.root, merged.winning_move), (WIN, None));
    }

    #[test]
    fn finished_games_count_without_any_record() {
        // 3x3 from b2: a1 is player 1's own goal, c3 the opponent's.
        let root = position("3/1s1/3 1");
        let merged = merge(&root, 1, &Known::new());
        assert_eq!(merged.root, WIN);
        assert_eq!(
            merged.winning_move.map(|s| root.name(s)).as_deref(),
            Some("a1")
        );
        let moves = values(&merged, &root);
        assert!(moves.contains(&("a1".into(), WIN, 0)), "{moves:?}");
        assert!(moves.contains(&("c3".into(), LOSS, 0)), "{moves:?}");
        assert!(merged.open.is_empty());
        // Player 1 on d4 next to the opponent's goal, with nothing known: that move
        // loses, and the seven others (on the diagonal: c3 alone, and three mirror
        // pairs) leave four sub-problems open.
        let root = position("5/3s1/5/5/5 1");
        let merged = merge(&root, 1, &Known::new());
        assert_eq!(merged.root, OPEN);
        let moves = values(&merged, &root);
        assert!(moves.contains(&("e5".into(), LOSS, 0)), "{moves:?}");
        assert_eq!(moves.iter().filter(|m| m.1 == OPEN).count(), 7);
        assert_eq!(merged.open.len(), 4);
    }

    #[test]
    fn minimax_two_plies_deep_over_a_partial_tree() {
        let root = five();
        // After b2, player 2 to move; every reply of player 2 known won by player 1
        // makes b2 a win for player 1.
        let b2 = play(&root, "b2");
        let replies: Vec<Position> = b2.moves().into_iter().map(|to| b2.after(to)).collect();
        let over = replies.iter().filter(|p| p.outcome().is_over()).count();
        assert_eq!(over, 1, "a1 ends the game");
        let mut known: Known = replies
            .iter()
            .filter(|p| !p.outcome().is_over())
            .map(|p| (canonical(p), Verdict::Win))
            .collect();
        let merged = merge(&root, 2, &known);
        assert_eq!(merged.root, WIN);
        assert_eq!(
            merged.winning_move.map(|s| root.name(s)).as_deref(),
            Some("b2")
        );
        assert!(merged.open.is_empty());
        // One reply unknown: b2 is open, and that reply is the one sub-problem below
        // it that matters.
        let missing = canonical(&play(&b2, "b3"));
        known.remove(&missing);
        let merged = merge(&root, 2, &known);
        assert_eq!(merged.root, OPEN);
        let b2_move = values(&merged, &root)
            .into_iter()
            .find(|m| m.0 == "b2")
            .unwrap();
        assert_eq!(b2_move, ("b2".into(), OPEN, 1));
        assert!(merged.open.contains(&missing));
        for name in known.keys() {
            assert!(!merged.open.contains(name), "{name} is known");
        }
        // The reply proven a win for player 2 instead: b2 loses for player 1, and no
        // sub-problem below it matters any more.
        known.insert(missing.clone(), Verdict::Loss);
        let merged = merge(&root, 2, &known);
        let b2_move = values(&merged, &root)
            .into_iter()
            .find(|m| m.0 == "b2")
            .unwrap();
        assert_eq!(b2_move, ("b2".into(), LOSS, 0));
        assert!(!merged.open.contains(&missing));
    }

    #[test]
    fn a_record_above_the_sub_problems_settles_every_line_through_it() {
        let root = five();
        let c4 = play(&root, "c4");
        let below: Vec<String> = classes(&c4);
        let nothing = merge(&root, 2, &Known::new());
        assert!(below.iter().all(|name| nothing.open.contains(name)));
        let known = Known::from([(canonical(&c4), Verdict::Win)]);
        let merged = merge(&root, 2, &known);
        assert_eq!(merged.root, OPEN);
        for name in &below {
            assert!(
                !merged.open.contains(name),
                "{name} lies below a known node"
            );
        }
        let moves = values(&merged, &root);
        assert!(moves.contains(&("c4".into(), LOSS, 0)), "{moves:?}");
        assert!(
            moves.contains(&("d3".into(), LOSS, 0)),
            "the mirror image: {moves:?}"
        );
        // The walk from any node agrees with the merge.
        let mut tree = SplitTree::new(2, &known);
        assert_eq!(tree.value(&c4, 1), WIN);
        assert_eq!(tree.value(&root, 0), OPEN);
        assert!(tree.open_below(&c4, 1).is_empty());
        assert_eq!(tree.open_below(&root, 0), merged.open);
    }
}
