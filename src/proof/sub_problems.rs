//! The sub-problems of a split: the positions some plies below a root, each once up
//! to transposition and mirror image, in the order to prove them.

use std::collections::HashSet;

use super::tree::{canonical, canonical_position, game_over};
use crate::board::{Position, Square};

/// The sub-problems at `depth` plies below `root`: the positions there whose game
/// goes on, below nodes whose value is neither over nor settled by `settled`
/// (called on each node below the root before it is expanded or listed; it
/// returns whether the node's value is known, e.g. from a short proof). Each
/// position comes once (mirror images count as one), as its [`canonical_position`].
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
) -> Vec<Position> {
    let mut leaves: Vec<(Vec<usize>, Position)> = Vec::new();
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
        if listed.insert(leaf.to_string()) {
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
    leaves: &mut Vec<(Vec<usize>, Position)>,
) {
    if game_over(position).is_some() {
        return;
    }
    let name = canonical(position);
    // A transposition (or mirror image) below a node met before is the same work.
    if !seen.insert(name) || (!path.is_empty() && settled(position)) {
        return;
    }
    if path.len() as u32 == depth {
        leaves.push((
            path.iter().rev().copied().collect(),
            canonical_position(position),
        ));
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::proof::testing::{classes, five, play, position};

    /// The names of the sub-problems of a list.
    fn listed(list: Vec<Position>) -> Vec<String> {
        list.iter().map(|p| p.to_string()).collect()
    }

    #[test]
    fn sub_problems_are_listed_once_each_with_mirror_images_as_one() {
        let root = five();
        let mut asked = Vec::new();
        let list = listed(sub_problems(
            &root,
            1,
            &mut |p| {
                asked.push(canonical(p));
                false
            },
            &mut |_| 0,
        ));
        assert_eq!(list, classes(&root));
        // Each node below the root is offered to `settled` once; the root never.
        assert_eq!(asked, classes(&root));
    }

    #[test]
    fn settled_nodes_and_finished_games_are_not_sub_problems() {
        let root = five();
        let all = classes(&root);
        let list = listed(sub_problems(
            &root,
            1,
            &mut |p| canonical(p) == all[1],
            &mut |_| 0,
        ));
        assert_eq!(
            list,
            [&all[0], &all[2], &all[3], &all[4]].map(String::clone)
        );
        // 3x3: a1 and c3 end the game; the other six moves make three mirror pairs.
        let small = position("3/1s1/3 1");
        let list = listed(sub_problems(&small, 1, &mut |_| false, &mut |_| 0));
        assert_eq!(list.len(), 3, "{list:?}");
        // Settled below the root at depth 2: nothing below it is listed.
        let c4 = play(&root, "c4");
        let list = listed(sub_problems(
            &root,
            2,
            &mut |p| canonical(p) == canonical(&c4),
            &mut |_| 0,
        ));
        for name in classes(&c4) {
            assert!(!list.contains(&name), "{name}");
        }
    }

    #[test]
    fn sub_problems_come_in_the_order_of_their_ranks() {
        let root = five();
        // Rank the positions by their name, largest first.
        let mut rank = |p: &Position| -> i64 {
            let name = canonical(p);
            -(name
                .bytes()
                .fold(0i64, |h, b| h.wrapping_mul(31).wrapping_add(i64::from(b)))
                % 1_000_000)
        };
        let list = listed(sub_problems(&root, 1, &mut |_| false, &mut rank));
        let mut expected = classes(&root);
        expected.sort_by_key(|name| {
            -(name
                .bytes()
                .fold(0i64, |h, b| h.wrapping_mul(31).wrapping_add(i64::from(b)))
                % 1_000_000)
        });
        assert_eq!(list, expected);
    }

    #[test]
    fn at_depth_two_every_node_s_first_choice_comes_before_any_second_choice() {
        let root = five();
        let list = listed(sub_problems(&root, 2, &mut |_| false, &mut |_| 0));
        let unique: HashSet<&String> = list.iter().collect();
        assert_eq!(unique.len(), list.len(), "a sub-problem listed twice");
        let mut everything = HashSet::new();
        for to in root.moves() {
            let child = root.after(to);
            for reply in child.moves() {
                let grandchild = child.after(reply);
                if !grandchild.outcome().is_over() {
                    everything.insert(canonical(&grandchild));
                }
            }
        }
        assert_eq!(unique.len(), everything.len());
        assert!(unique.iter().all(|name| everything.contains(*name)));
        // With every rank equal, moves go in square order, and the list by each
        // sub-problem's place among its siblings first, then by its parent's place.
        // (At depth 2 from c3 no position is reached twice but through mirror
        // images, whose second comer is skipped whole.)
        let mut entries = Vec::new();
        let mut children = HashSet::new();
        for (i, to) in root.moves().into_iter().enumerate() {
            let child = root.after(to);
            if !children.insert(canonical(&child)) {
                continue;
            }
            for (j, reply) in child.moves().into_iter().enumerate() {
                let grandchild = child.after(reply);
                if !grandchild.outcome().is_over() {
                    entries.push(((j, i), canonical(&grandchild)));
                }
            }
        }
        entries.sort();
        let mut expected: Vec<String> = Vec::new();
        for (_, name) in entries {
            if !expected.contains(&name) {
                expected.push(name);
            }
        }
        assert_eq!(list, expected);
    }
}
