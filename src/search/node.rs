//! A node of either search, and the opening both searches give it.
//!
//! Before a node is looked up or searched, the rules may decide it within three
//! plies: the goal is next to the snail (a win in one), no move is safe (a loss),
//! or some safe move leaves the opponent no safe reply (an immediate win). After
//! the table, a region that reaches at most one goal zone may be decided by the
//! matching tests. [`Node::open`] and [`Node::verdict`] are those two steps; the
//! searches differ only in what they do between them and with the table.

use crate::board::{Bitboard, Geometry, Position, Side, Square, Word};

use super::matching::Matcher;
use super::reduced::{Pieces, Proof, forced_loss, matching_verdict, reachable_region};
use super::tt::{Key, Table};

/// The state a search passes down: the position in reduced form.
#[derive(Clone, Copy)]
pub(super) struct Node<W: Word> {
    /// Open squares.
    pub open: Bitboard<W>,
    /// The snail's square.
    pub snail: Square,
    /// The side to move.
    pub side: Side,
    /// The open squares the snail can still reach, goal corners excluded.
    pub region: Bitboard<W>,
    /// Whether `region` is known to be one king-connected piece.
    pub connected: bool,
    /// The square the last move slimed, near which any pocket the move made lies
    /// (see [`super::pockets`]); `None` at a root, whose whole region is looked at.
    pub slimed: Option<Square>,
}

/// How a node opens: decided by the rules, or open to search.
pub(super) enum Opening<W: Word> {
    /// The game ends within three plies whatever is played.
    Ends(Ending),
    /// Play goes on: these are the safe moves, none of them an immediate win.
    Open(Bitboard<W>),
}

/// A result the rules decide within three plies, with the line to the end.
#[derive(Clone, Copy)]
pub(super) struct Ending {
    /// The result for the side to move.
    pub proof: Proof,
    /// Whether a safe move wins at once (found by trying the moves, where the
    /// other endings are read off the node itself).
    pub immediate_win: bool,
    line: [Square; 3],
    len: u8,
}

impl Ending {
    /// The moves to the end of the game, best play for both (empty if none is left).
    #[inline(always)]
    pub fn line(&self) -> &[Square] {
        &self.line[..usize::from(self.len)]
    }

    /// The first move of the line.
    #[inline(always)]
    pub fn best(&self) -> Option<Square> {
        self.line().first().copied()
    }
}

impl<W: Word> Node<W> {
    /// The root node of `position`.
    pub fn root(geometry: &Geometry<W>, position: &Position<W>) -> Self {
        let (open, snail) = (position.open(), position.snail());
        let region = reachable_region(geometry, open, snail);
        Node {
            open,
            snail,
            side: position.side_to_move(),
            region,
            connected: geometry.ring_connected(region, snail),
            slimed: None,
        }
    }

    /// The node after the snail steps onto `c`; `pieces` are this node's pieces.
    #[inline(always)]
    pub fn child(&self, geometry: &Geometry<W>, pieces: &Pieces<W>, c: Square) -> Self {
        let (region, connected) = pieces.after_step(geometry, c);
        Node {
            open: self.open - Bitboard::from_square(c),
            snail: c,
            side: !self.side,
            region,
            connected,
            slimed: Some(self.snail),
        }
    }

    /// The node's table key.
    #[inline(always)]
    pub fn key(&self) -> Key<W> {
        Key {
            region: self.region,
            snail: self.snail,
            side: self.side,
        }
    }

    /// The rules' verdict over the next three plies, considering only the moves in
    /// `allowed`: a step into the goal wins at once; with no safe move the side to
    /// move loses; the fastest safe move that leaves the opponent no safe reply is
    /// the fastest win there is. Otherwise the safe moves.
    #[inline(always)]
    pub fn open(&self, geometry: &Geometry<W>, allowed: Bitboard<W>) -> Opening<W> {
        let Node {
            open, snail, side, ..
        } = *self;
        let own_goal = geometry.size().goal(side);
        let moves = geometry.neighbours(snail) & open & allowed;
        if moves.contains(own_goal) {
            return Opening::Ends(Ending {
                proof: Proof::Win(1),
                immediate_win: false,
                line: [own_goal; 3],
                len: 1,
            });
        }
        let safe = moves - geometry.deadly(side);
        if safe.is_empty() {
            // The forced step, and the winner's step into its goal after it.
            let (plies, best) = forced_loss(geometry, moves, !side);
            let mut ending = Ending {
                proof: Proof::Loss(plies),
                immediate_win: false,
                line: [snail; 3],
                len: 0,
            };
            if let Some(step) = best {
                ending.line = [step, geometry.size().goal(!side), snail];
                ending.len = if plies == 2 { 2 } else { 1 };
            }
            return Opening::Ends(ending);
        }
        let opponent_moves = open - geometry.deadly(!side);
        let mut fastest: Option<(u16, Square)> = None;
        for c in safe {
            if (geometry.neighbours(c) & opponent_moves).is_empty() {
                let (plies, _) = forced_loss(geometry, geometry.neighbours(c) & open, side);
                if fastest.is_none_or(|(n, _)| 1 + plies < n) {
                    fastest = Some((1 + plies, c));
                }
            }
        }
        let Some((plies, c)) = fastest else {
            return Opening::Open(safe);
        };
        // Our move, the opponent's forced step (next to our goal, or into it), and
        // our step into the goal.
        let mut ending = Ending {
            proof: Proof::Win(plies),
            immediate_win: true,
            line: [c; 3],
            len: 1,
        };
        let (_, forced) = forced_loss(geometry, geometry.neighbours(c) & open, side);
        if let Some(f) = forced {
            ending.line[1] = f;
            ending.len = 2;
            if f != own_goal {
                ending.line[2] = own_goal;
                ending.len = 3;
            }
        }
        Opening::Ends(ending)
    }

    /// The matching tests' verdict on the node, if they decide it; a verdict is
    /// stored in `table` with `work` (log2 of the nodes it cost).
    #[inline(always)]
    pub fn verdict(
        &self,
        geometry: &Geometry<W>,
        matcher: &mut Matcher<W>,
        table: &Table,
        work: u8,
    ) -> Option<Proof> {
        let proof = matching_verdict(geometry, matcher, self.side, self.snail, self.region)?;
        table.store(self.key(), proof.entry(None, work));
        Some(proof)
    }
}
