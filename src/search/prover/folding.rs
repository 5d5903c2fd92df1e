//! The prover's pocket folding at a node (see [`crate::search::pockets`]).

use super::Prover;
use crate::board::{Bitboard, Side, Square, Word};
use crate::search::node::Node;
use crate::search::pockets::{
    ZONE_POCKET_SQUARES, fold_pockets, geography_fold, is_plain_geography, zone_fold,
};
use crate::search::reduced::Proof;

impl<W: Word> Prover<'_, W> {
    /// A node with its pockets folded first (see [`crate::search::pockets`]): the search
    /// goes on in the folded position, which has the same value and a winning move
    /// that wins here too; its length bounds grow by the most one pocket may add.
    #[inline(always)]
    pub(super) fn node_body(
        &mut self,
        mut node: Node<W>,
        probed: bool,
        ply: u32,
    ) -> Option<(Proof, Option<Square>)> {
        if node.region.len() >= self.pocket_region {
            let (geo, real) = (self.geometry, node.key());
            let nodes_before = self.stats.nodes;
            let goals = node.open & geo.goals();
            // The snail enters one pocket at most, so the game is longer than the
            // folded one by at most the most any single pocket adds.
            let mut longer = 0;
            let folded = fold_pockets(geo, &mut node, |door, pocket| {
                let (fold, plies) = if is_plain_geography(geo, pocket) {
                    // A step into the dead end, or nothing, for at most the squares.
                    let fold = geography_fold(geo, &mut self.matcher, door, pocket);
                    (fold, fold.len() as u16)
                } else if pocket.len() <= ZONE_POCKET_SQUARES {
                    self.zone_pocket_fold(door, pocket, goals, ply)?
                } else {
                    return None;
                };
                longer = longer.max(plies);
                Some(fold)
            });
            if self.aborted {
                return None;
            }
            if folded.any() {
                self.stats.folds += 1;
                // The caller looked up the position before the fold, not this one.
                let (proof, best) = self.node_search(node, false, ply)?;
                let proof = proof.lengthened(longer);
                // The real position too, for the searches that look it up by its own
                // key: a parent's cutoff check, and the scored search of `go`.
                self.store(real, proof, best, nodes_before);
                return Some((proof, best));
            }
        }
        self.node_search(node, probed, ply)
    }

    /// The fold of a pocket behind `door` that holds goal-zone squares (see
    /// [`zone_fold`]), and how many plies longer the real game may be: each player
    /// who may stand on the door is given the pocket alone, with the goal corners
    /// `goals` beside it, and proves whether a step into it wins, and within how
    /// many plies. `None` if no fold fits, or if the budget ran out.
    fn zone_pocket_fold(
        &mut self,
        door: Square,
        pocket: Bitboard<W>,
        goals: Bitboard<W>,
        ply: u32,
    ) -> Option<(Bitboard<W>, u16)> {
        let geo = self.geometry;
        let mut proofs = [None; 2];
        for side in [Side::One, Side::Two] {
            // Only a player the opponent may step next to can stand on the door to move.
            if geo.deadly(!side).contains(door) {
                continue;
            }
            let inside = Node {
                open: pocket | goals,
                snail: door,
                side,
                region: pocket,
                connected: false,
                slimed: None,
            };
            // Pockets are met again and again: most are in the table already.
            let stored = self.table.probe(inside.key());
            proofs[side.index()] = Some(match stored.as_ref().and_then(Proof::from_entry) {
                Some(proof) => proof,
                None => self.node(inside, true, ply + 1)?.0,
            });
        }
        let fold = zone_fold(geo, door, pocket, proofs.map(|p| p.map(Proof::is_win)))?;
        // A winner's step into the dead end, and the loser's forced step from it
        // into the winner's goal if it lies next to it, are plies of the folded game
        // too; a loser kept out of the pocket may have lasted as long in it.
        let dead_end = pocket - fold;
        let mut longer = 0;
        for side in [Side::One, Side::Two] {
            let plies = match proofs[side.index()] {
                Some(Proof::Win(n)) => {
                    let into_goal = geo.adjacent(dead_end) & goals;
                    let folded = 1 + u16::from(into_goal.contains(geo.size().goal(side)));
                    n.saturating_sub(folded)
                }
                Some(Proof::Loss(n)) => n,
                None => 0,
            };
            longer = longer.max(plies);
        }
        Some((fold, longer))
    }
}
