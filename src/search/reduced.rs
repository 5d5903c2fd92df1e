//! The game in reduced form, shared by both searches.
//!
//! Stepping into the opponent's goal, or onto a square next to it, loses at once
//! (the opponent steps in), so each player plays with those squares forbidden; a
//! player left with no other move loses. Once a region reaches no goal zone the
//! game is plain vertex geography, which maximum matchings decide exactly.

use crate::board::{Bitboard, Geometry, Side, Square, Word};

use super::matching::Matcher;
use super::tt::{Entry, PROVEN, TtBound};

/// Score of a win at the root position itself; a win in `n` plies scores `MATE - n`.
pub const MATE: i16 = 30_000;
/// Scores beyond ±`MATE_BOUND` are proven results.
pub const MATE_BOUND: i16 = MATE - 512;

/// A proven result for the side to move, with an upper bound on the game's length.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Proof {
    /// The side to move wins within this many plies.
    Win(u16),
    /// The side to move loses, and the game lasts at most this many plies.
    Loss(u16),
}

impl Proof {
    /// Whether the side to move wins.
    pub fn is_win(self) -> bool {
        matches!(self, Proof::Win(_))
    }

    /// The same result with `plies` more allowed for the game's length.
    pub fn lengthened(self, plies: u16) -> Proof {
        match self {
            Proof::Win(n) => Proof::Win(n + plies),
            Proof::Loss(n) => Proof::Loss(n + plies),
        }
    }

    /// The table entry recording this proof.
    pub fn entry(self, best: Option<Square>, work: u8) -> Entry {
        let (score, bound) = match self {
            Proof::Win(n) => (MATE - n as i16, TtBound::Lower),
            Proof::Loss(n) => (-(MATE - n as i16), TtBound::Upper),
        };
        Entry {
            best,
            score,
            bound,
            draft: PROVEN,
            work,
        }
    }

    /// The proof a table entry holds, if it holds one.
    pub fn from_entry(entry: &Entry) -> Option<Proof> {
        if entry.draft != PROVEN && entry.score.abs() <= MATE_BOUND {
            return None;
        }
        match entry.bound {
            TtBound::Lower | TtBound::Exact if entry.score > MATE_BOUND => {
                Some(Proof::Win((MATE - entry.score) as u16))
            }
            TtBound::Upper | TtBound::Exact if entry.score < -MATE_BOUND => {
                Some(Proof::Loss((MATE + entry.score) as u16))
            }
            _ => None,
        }
    }
}

/// The reachable region of a position: open squares connected to the snail,
/// goal corners excluded (the snail never passes through a goal).
#[inline]
pub fn reachable_region<W: Word>(
    geometry: &Geometry<W>,
    open: Bitboard<W>,
    snail: Square,
) -> Bitboard<W> {
    geometry.flood(geometry.neighbours(snail), open - geometry.goals())
}

/// The king-connected pieces of a reachable region. The snail's square joins them,
/// so each touches the snail, and there are at most four.
#[derive(Clone, Copy)]
pub struct Pieces<W: Word> {
    pieces: [Bitboard<W>; 4],
    count: usize,
}

impl<W: Word> Pieces<W> {
    /// The pieces of `region`; `one_piece` says it is already known to be one.
    /// Costs a flood fill per piece beyond the first.
    #[inline]
    pub fn of(geometry: &Geometry<W>, region: Bitboard<W>, one_piece: bool) -> Self {
        let mut pieces = Pieces {
            pieces: [Bitboard::EMPTY; 4],
            count: 0,
        };
        let mut rest = region;
        while let Some(first) = rest.first() {
            let piece = if one_piece || pieces.count == 3 {
                rest
            } else {
                geometry.flood(Bitboard::from_square(first), rest)
            };
            pieces.pieces[pieces.count] = piece;
            pieces.count += 1;
            rest = rest - piece;
        }
        pieces
    }

    /// How many pieces there are.
    #[inline]
    pub fn len(&self) -> usize {
        self.count
    }

    /// The region after the snail steps onto `c`, and whether it is known to be one
    /// piece. Every piece of `c`'s piece without `c` touches `c`, so the new region
    /// is exactly that piece without `c`; if the squares around `c` are connected
    /// among themselves, it is also one piece.
    #[inline]
    pub fn after_step(&self, geometry: &Geometry<W>, c: Square) -> (Bitboard<W>, bool) {
        let piece = self.pieces[..self.count]
            .iter()
            .copied()
            .find(|p| p.contains(c))
            .unwrap_or(Bitboard::EMPTY);
        let child = piece - Bitboard::from_square(c);
        (child, geometry.ring_connected(child, c))
    }
}

/// Loss distance when the side to move, the opponent of `winner`, has no safe
/// move among `moves`: it steps next to the winner's goal (2 plies to the end),
/// into the goal (1), or it has no move at all (0); with the move that lasts longest.
#[inline]
pub fn forced_loss<W: Word>(
    geometry: &Geometry<W>,
    moves: Bitboard<W>,
    winner: Side,
) -> (u16, Option<Square>) {
    let goal = geometry.size().goal(winner);
    if let Some(s) = (moves - Bitboard::from_square(goal)).first() {
        (2, Some(s))
    } else if moves.contains(goal) {
        (1, Some(goal))
    } else {
        (0, None)
    }
}

/// Masks, computed once per node, that tell for every safe step at once whether
/// [`loses_in_two`] or [`wins_in_three`] holds for it, so that those square-by-square
/// functions run only for the steps they decide (and give the game's length).
#[derive(Clone, Copy)]
pub struct Threats<W: Word> {
    /// Squares next to exactly one of our safe squares. A reply onto one of them,
    /// next to our step, leaves us only the step's square, slimed by then.
    cornered: Bitboard<W>,
    /// Our safe squares next to exactly one of the opponent's safe squares: after a
    /// reply next to them, a step onto them leaves the opponent no safe move.
    one_exit: Bitboard<W>,
    /// Our safe squares next to exactly two of the opponent's safe squares: the same,
    /// when the other of the two is the square of our first step.
    two_exits: Bitboard<W>,
    /// The opponent's safe squares.
    theirs: Bitboard<W>,
}

impl<W: Word> Threats<W> {
    /// The masks for `side` to move with `open` squares (the snail's own excluded).
    #[inline(always)]
    pub fn of(geometry: &Geometry<W>, open: Bitboard<W>, side: Side) -> Self {
        let ours = open - geometry.deadly(side);
        let theirs = open - geometry.deadly(!side);
        let [near_ours, near_ours_twice, _] = geometry.neighbour_counts(ours);
        let [near_theirs, twice, thrice] = geometry.neighbour_counts(theirs);
        Threats {
            cornered: near_ours - near_ours_twice,
            one_exit: ours & (near_theirs - twice),
            two_exits: ours & (twice - thrice),
            theirs,
        }
    }

    /// Whether [`loses_in_two`] finds a loss for the safe step whose opponent's safe
    /// replies are `replies`.
    #[inline(always)]
    pub fn step_loses_in_two(&self, replies: Bitboard<W>) -> bool {
        replies.intersects(self.cornered)
    }

    /// Whether [`wins_in_three`] finds a win for the safe step onto `c` whose
    /// opponent's safe replies are `replies`: every reply is next to a square of ours
    /// that leaves the opponent no safe move.
    #[inline(always)]
    pub fn step_wins_in_three(
        &self,
        geometry: &Geometry<W>,
        c: Square,
        replies: Bitboard<W>,
    ) -> bool {
        let mut finishing = self.one_exit;
        if self.theirs.contains(c) {
            finishing |= self.two_exits & geometry.neighbours(c);
        }
        finishing.remove(c);
        replies.is_subset(geometry.adjacent(finishing))
    }
}

/// Whether stepping onto `c` loses at once: some safe reply of the opponent leaves
/// us no safe move. Returns the length of the quickest such loss, counted from
/// before the step, or `None`. `replies` are the opponent's safe replies.
#[inline]
pub fn loses_in_two<W: Word>(
    geometry: &Geometry<W>,
    open: Bitboard<W>,
    side: Side,
    c: Square,
    replies: Bitboard<W>,
) -> Option<u16> {
    let own_deadly = geometry.deadly(side);
    let after_step = open - Bitboard::from_square(c);
    let mut quickest: Option<u16> = None;
    for d in replies {
        let ours = geometry.neighbours(d) & (after_step - Bitboard::from_square(d));
        if (ours - own_deadly).is_empty() {
            let plies = 2 + forced_loss(geometry, ours, !side).0;
            quickest = Some(quickest.map_or(plies, |q| q.min(plies)));
        }
    }
    quickest
}

/// Whether stepping onto `c` wins within three plies: every safe reply of the
/// opponent allows a step after which the opponent has no safe move. Returns a
/// bound on the length of the game counted from before the step, or `None` if
/// some reply holds. `replies` are the opponent's safe replies after the step.
#[inline]
pub fn wins_in_three<W: Word>(
    geometry: &Geometry<W>,
    open: Bitboard<W>,
    side: Side,
    c: Square,
    replies: Bitboard<W>,
) -> Option<u16> {
    let own_deadly = geometry.deadly(side);
    let opponent_deadly = geometry.deadly(!side);
    let after_step = open - Bitboard::from_square(c);
    let mut longest = 0;
    for d in replies {
        let after_reply = after_step - Bitboard::from_square(d);
        let theirs_after = after_reply - opponent_deadly;
        let e = (geometry.neighbours(d) & (after_reply - own_deadly))
            .iter()
            .find(|&e| (geometry.neighbours(e) & theirs_after).is_empty())?;
        let plies = 3 + forced_loss(geometry, geometry.neighbours(e) & after_reply, side).0;
        longest = longest.max(plies);
    }
    Some(longest)
}

/// Exact verdicts from maximum matchings where they apply, with the region's size
/// (plus a final step into a goal) bounding the rest of the game:
/// - no goal zone reachable: plain geography, decided both ways;
/// - only the mover's own zone reachable: the opponent never enters it, so the
///   mover's matching replies are always safe, and a win by matching is a win;
/// - only the opponent's zone reachable: the mover never enters it, so without it
///   the opponent's matching replies are always safe, and a loss by matching is a loss.
#[inline]
pub fn matching_verdict<W: Word>(
    geometry: &Geometry<W>,
    matcher: &mut Matcher<W>,
    side: Side,
    snail: Square,
    region: Bitboard<W>,
) -> Option<Proof> {
    let size = geometry.size();
    let own_zone = geometry.neighbours(size.goal(side)) & region;
    let opponent_zone = geometry.neighbours(size.goal(!side)) & region;
    let plies = region.len() as u16 + 2;
    match (own_zone.is_empty(), opponent_zone.is_empty()) {
        (true, true) => Some(if matcher.covers_in_every_maximum(snail, region) {
            Proof::Win(plies)
        } else {
            Proof::Loss(plies)
        }),
        (false, true) => matcher
            .covers_in_every_maximum(snail, region)
            .then_some(Proof::Win(plies)),
        (true, false) => (!matcher.covers_in_every_maximum(snail, region - opponent_zone))
            .then_some(Proof::Loss(plies)),
        (false, false) => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Position, Size};
    use crate::rng::Rng;

    /// Wins in three plies, square by square.
    fn wins_in_three_slowly<W: Word>(
        geo: &Geometry<W>,
        open: Bitboard<W>,
        side: Side,
        c: Square,
    ) -> bool {
        let after_step = open - Bitboard::from_square(c);
        let replies = geo.neighbours(c) & (after_step - geo.deadly(!side));
        replies.any()
            && replies.iter().all(|d| {
                let after_reply = after_step - Bitboard::from_square(d);
                (geo.neighbours(d) & (after_reply - geo.deadly(side)))
                    .iter()
                    .any(|e| {
                        let after = after_reply - Bitboard::from_square(e);
                        (geo.neighbours(e) & (after - geo.deadly(!side))).is_empty()
                    })
            })
    }

    #[test]
    fn the_threat_masks_agree_with_the_square_by_square_functions() {
        let mut rng = Rng::new(77);
        let (mut losses, mut win_steps) = (0, 0);
        for name in ["5x5", "7x7", "8x8", "6x4", "11x11", "9x3"] {
            let size: Size = name.parse().unwrap();
            for _ in 0..300 {
                let mut pos: Position<u128> = Position::start(size);
                for _ in 0..rng.below(size.squares() as u64 * 2 / 3) {
                    let moves: Vec<Square> = pos.moves().iter().collect();
                    let Some(&m) = rng.choose(&moves) else { break };
                    if pos.after(m).outcome().is_over() {
                        break;
                    }
                    pos.play(m);
                }
                let (geo, side, open) = (pos.geometry(), pos.side_to_move(), pos.open());
                let threats = Threats::of(geo, open, side);
                for c in pos.moves() - geo.deadly(side) {
                    let replies = geo.neighbours(c) & (open - geo.deadly(!side));
                    let loses = loses_in_two(geo, open, side, c, replies).is_some();
                    let wins = wins_in_three(geo, open, side, c, replies).is_some();
                    let at = format!("{name} {pos} step {}", pos.name(c));
                    assert_eq!(threats.step_loses_in_two(replies), loses, "{at}");
                    assert_eq!(threats.step_wins_in_three(geo, c, replies), wins, "{at}");
                    losses += u32::from(loses);
                    win_steps += u32::from(wins && replies.any());
                }
            }
        }
        assert!(
            losses > 100 && win_steps > 100,
            "the positions should hold both kinds of step: {losses} losses, {win_steps} wins"
        );
    }

    #[test]
    fn wins_in_three_agree_with_a_square_by_square_check() {
        let mut rng = Rng::new(31);
        let mut wins = 0;
        for name in ["5x5", "7x7", "8x8", "6x4"] {
            let size: Size = name.parse().unwrap();
            for _ in 0..400 {
                let mut pos: Position<u64> = Position::start(size);
                let plies = rng.below(size.squares() as u64 / 2);
                for _ in 0..plies {
                    let moves: Vec<Square> = pos.moves().iter().collect();
                    let Some(&m) = rng.choose(&moves) else { break };
                    if pos.after(m).outcome().is_over() {
                        break;
                    }
                    pos.play(m);
                }
                let geo = pos.geometry();
                let side = pos.side_to_move();
                for c in pos.moves() - geo.deadly(side) {
                    let replies = geo.neighbours(c) & (pos.open() - geo.deadly(!side));
                    let fast =
                        replies.any() && wins_in_three(geo, pos.open(), side, c, replies).is_some();
                    let slow = wins_in_three_slowly(geo, pos.open(), side, c);
                    assert_eq!(fast, slow, "{name} {pos} step {}", pos.name(c));
                    wins += u32::from(slow);
                }
            }
        }
        assert!(
            wins > 50,
            "the positions should include wins in three, found {wins}"
        );
    }
}
