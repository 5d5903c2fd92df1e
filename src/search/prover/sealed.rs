//! The move that goes with a result the search found without one: a win or a
//! loss decided by the matching tests or read from the table.

use crate::board::{Bitboard, Position, Square, Word};

use super::Prover;
use crate::search::node::Node;
use crate::search::reduced::{Proof, matching_verdict};

impl<W: Word> Prover<'_, W> {
    /// A move for a result found without one (decided by the matching tests, or read
    /// from the table): for a win, a move proven to win, or `None` if the budget ends
    /// before one is; for a loss, with no search, the first move whose proof the
    /// table holds, or the first safe move, or the first move.
    pub(super) fn sealed_best(
        &mut self,
        pos: &Position<W>,
        region: Bitboard<W>,
        proof: Proof,
    ) -> Option<Square> {
        let geo = self.geometry;
        let side = pos.side_to_move();
        let safe = pos.moves() - geo.deadly(side);
        let child = |c: Square| Node {
            open: pos.open() - Bitboard::from_square(c),
            snail: c,
            side: !side,
            region: geo.flood(geo.neighbours(c), region - Bitboard::from_square(c)),
            connected: false,
            slimed: None,
        };
        if !proof.is_win() {
            // Every move loses, and none needs proving again: the children the
            // search left out as mirror images of others are not in the table, and
            // proving them would double the search (8x8 from e5: 211 M of 426 M
            // nodes). The first move whose proof the table holds, or the first one.
            let in_table = safe
                .into_iter()
                .find(|&c| self.table.probe(child(c).key()).is_some());
            return in_table
                .or_else(|| safe.first())
                .or_else(|| pos.moves().first());
        }
        // The matching's step wins where the matching decides this very region (the
        // result may be one of a folded region, where its step proves nothing).
        if matching_verdict(geo, &mut self.matcher, side, pos.snail(), region)
            .is_some_and(Proof::is_win)
        {
            if let Some(step) = self.matcher.winning_step(pos.snail(), region) {
                if safe.contains(step) {
                    return Some(step);
                }
            }
        }
        // Otherwise prove each child: the first one lost by the opponent wins.
        for c in safe {
            if let Some((reply, _)) = self.node(child(c), false, 1) {
                if !reply.is_win() {
                    return Some(c);
                }
            }
        }
        None
    }
}
