//! Pockets: parts of the snail's region that it can enter only through one square.
//!
//! A square `a` of the region (not the snail) whose removal cuts the squares `B`
//! off from the snail is a door: the snail enters `B` only through `a`, and once
//! in `B` it never leaves (`a` is slimed behind it). What `B` is worth depends only
//! on who stands on `a` to move: whether that player has a winning step into `B`.
//! So `B` may be replaced by the smallest pocket of the same worth: one square next
//! to `a` (a dead end, where the opponent is stuck), or nothing.
//! - If `B` holds no square of either goal zone, the game inside it is plain vertex
//!   geography, which one maximum-matching test decides, the same for both players
//!   ([`geography_fold`]).
//! - Otherwise (up to [`ZONE_POCKET_SQUARES`] squares) the prover proves `B` alone
//!   for each player who may stand on `a` to move, and the dead end kept is a square
//!   that exactly the winners may enter: a square of a loser's forbidden zone keeps
//!   that loser out ([`zone_fold`]). If none fits, `B` stays.
//!
//! The folded position is a position of the game itself (more squares slimed), with
//! the same value as the real one, and the same for each child outside the pocket:
//! so what the search stores for it is true, and a winning move it finds wins in the
//! real position too. Positions whose pockets differ in shape but not in worth meet
//! in the table. The real game may last longer: the snail enters one pocket at most,
//! so length bounds grow by the most that one pocket's own game may add.

use crate::board::{Bitboard, Geometry, Side, Square, Word};

use super::matching::Matcher;
use super::node::Node;

/// Regions of fewer squares are left as they are: their proofs are short, and
/// looking for doors would cost more than the pockets save (README, ablation table).
pub(super) const POCKET_REGION: u32 = 24;

/// Pockets holding a goal-zone square are folded only up to this many squares: each
/// costs a proof for each side that may stand on its door.
pub(super) const ZONE_POCKET_SQUARES: u32 = 12;

/// Folds every pocket of `node` behind a door, as the module says, given that the
/// node's parent had none left (or that `node.slimed` is `None`: then the whole
/// region is looked at). `fold` says, for a door and the pocket behind it, which
/// squares to slime, or `None` to leave it. Returns the squares slimed.
#[inline]
pub(super) fn fold_pockets<W: Word>(
    geometry: &Geometry<W>,
    node: &mut Node<W>,
    mut fold: impl FnMut(Square, Bitboard<W>) -> Option<Bitboard<W>>,
) -> Bitboard<W> {
    let snail = Bitboard::from_square(node.snail);
    let seed = geometry.neighbours(node.snail);
    let mut removed = Bitboard::EMPTY;
    // A pocket the last move made holds a square next to the one it slimed (any
    // other was a pocket before, and folded then). If the squares around the
    // slimed one are still connected among themselves (the snail's among them),
    // the pocket's door is one of them; otherwise it may lie anywhere.
    let graph = node.region | snail;
    let near = match node.slimed {
        Some(slimed) if geometry.ring_connected(graph, slimed) => geometry.neighbours(slimed),
        _ => node.region,
    };
    // Only a square whose neighbours in the region fall apart can be a door.
    let candidates = near & node.region & geometry.ring_split(graph);
    for door in candidates {
        if removed.any()
            && (removed.contains(door) || geometry.ring_connected(graph - removed, door))
        {
            continue;
        }
        let pocket = behind(geometry, graph - removed, door, node.snail, seed);
        if pocket.any() {
            removed |= fold(door, pocket).unwrap_or(Bitboard::EMPTY);
        }
    }
    if removed.any() {
        node.region = node.region - removed;
        node.open = node.open - removed;
    }
    removed
}

/// Whether `pocket` holds no goal-zone square, so that its game is plain geography
/// (a pocket never holds a goal corner, the rest of the forbidden squares).
#[inline]
pub(super) fn is_plain_geography<W: Word>(geometry: &Geometry<W>, pocket: Bitboard<W>) -> bool {
    !pocket.intersects(geometry.deadly(Side::One) | geometry.deadly(Side::Two))
}

/// The fold of a pocket holding no goal-zone square: whoever stands on the door wins
/// in it or not, whoever it is; a step into it is then worth one dead end or nothing.
#[inline]
pub(super) fn geography_fold<W: Word>(
    geometry: &Geometry<W>,
    matcher: &mut Matcher<W>,
    door: Square,
    pocket: Bitboard<W>,
) -> Bitboard<W> {
    if matcher.covers_in_every_maximum(door, pocket) {
        let step = (geometry.neighbours(door) & pocket).first();
        pocket - step.map_or(Bitboard::EMPTY, Bitboard::from_square)
    } else {
        pocket
    }
}

/// The fold of a pocket holding goal-zone squares, given whether each player who may
/// stand on the door (`wins[side.index()]` is `Some`) has a winning step into it:
/// nothing if neither has, else one dead end next to the door that exactly the
/// winners may enter (a square of a loser's forbidden zone keeps that loser out;
/// whoever is stepped onto it has no safe move). `None` if no square fits.
#[inline]
pub(super) fn zone_fold<W: Word>(
    geometry: &Geometry<W>,
    door: Square,
    pocket: Bitboard<W>,
    wins: [Option<bool>; 2],
) -> Option<Bitboard<W>> {
    let sides = [Side::One, Side::Two];
    if wins.iter().all(|w| *w != Some(true)) {
        return Some(pocket);
    }
    (geometry.neighbours(door) & pocket)
        .iter()
        .find(|&step| {
            sides.iter().all(|&side| {
                wins[side.index()].is_none_or(|w| w != geometry.deadly(side).contains(step))
            })
        })
        .map(|step| pocket - Bitboard::from_square(step))
}

/// The squares of `graph` (the snail's square and its region) that `door` cuts off
/// from the snail, empty if none. Where the door's neighbours form two groups, the
/// two sides are grown in turn, so that the smaller one (usually a pocket, or a short
/// way round the door) decides; with more groups the snail's side is grown whole.
#[inline]
fn behind<W: Word>(
    geometry: &Geometry<W>,
    graph: Bitboard<W>,
    door: Square,
    snail: Square,
    seed: Bitboard<W>,
) -> Bitboard<W> {
    let within = graph - Bitboard::from_square(door);
    let ring = geometry.neighbours(door) & within;
    let Some(first) = ring.first() else {
        return Bitboard::EMPTY;
    };
    let mut one = geometry.flood(Bitboard::from_square(first), ring);
    let mut two = ring - one;
    let two_groups = two
        .first()
        .is_some_and(|second| geometry.flood(Bitboard::from_square(second), two) == two);
    if !two_groups {
        let rest = within - Bitboard::from_square(snail);
        return rest - geometry.flood(seed, rest);
    }
    loop {
        let grown = geometry.dilate(one) & within;
        if grown.intersects(two) {
            return Bitboard::EMPTY;
        }
        if grown == one {
            // One side is whole: the pocket is the side without the snail.
            return if one.contains(snail) {
                within - one
            } else {
                one
            };
        }
        one = grown;
        std::mem::swap(&mut one, &mut two);
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::AtomicBool;

    use super::*;
    use crate::board::{Position, Size, Square};
    use crate::rng::Rng;
    use crate::search::prover::{Budget, Prover};
    use crate::search::reduced::{Pieces, Proof};
    use crate::search::tt::Table;

    fn squares(pos: &Position<u64>, names: &[&str]) -> Bitboard<u64> {
        names
            .iter()
            .map(|n| pos.size().parse_square(n).unwrap())
            .collect()
    }

    /// The root node of `text`, its pockets folded.
    fn folded(text: &str) -> (Position<u64>, Bitboard<u64>) {
        let pos: Position<u64> = Position::parse(text).unwrap();
        let geo = pos.geometry();
        let mut node = Node::root(geo, &pos);
        (pos, fold_plain(geo, &mut Matcher::new(geo), &mut node))
    }

    /// Folds the pockets that hold no goal-zone square.
    fn fold_plain(
        geo: &Geometry<u64>,
        matcher: &mut Matcher<u64>,
        node: &mut Node<u64>,
    ) -> Bitboard<u64> {
        fold_pockets(geo, node, |door, pocket| {
            is_plain_geography(geo, pocket).then(|| geography_fold(geo, matcher, door, pocket))
        })
    }

    #[test]
    fn a_pocket_whose_door_loses_is_slimed_whole() {
        // Behind the door e1: f1, g1, f2, g2, all next to each other. From e1 every
        // step in leaves the opponent a square to answer, so the pocket is worth
        // nothing to whoever stands on e1.
        let (pos, removed) = folded("7/7/7/3s3/4xxx/4x2/7 1");
        assert_eq!(removed, squares(&pos, &["f1", "g1", "f2", "g2"]));
    }

    #[test]
    fn a_pocket_whose_door_wins_keeps_one_step_alone() {
        // Behind e1: f1, then g1 and g2. From e1 the step to f1 wins (g1 and g2 pair
        // up against the opponent), so f1 stays as a dead end.
        let (pos, removed) = folded("7/7/7/3s3/4xxx/4xx1/7 1");
        assert_eq!(removed, squares(&pos, &["g1", "g2"]));
    }

    #[test]
    fn a_pocket_that_holds_a_goal_zone_square_stays() {
        // Behind the door c1 (and d2 before it) lies a1's zone: a2, b1 and b2, which
        // player 2 may not enter. The game there is not plain geography, so nothing
        // is folded.
        let (_, removed) = folded("7/7/7/3s3/xxx4/2x4/3x3 1");
        assert_eq!(removed, Bitboard::EMPTY);
    }

    #[test]
    fn a_zone_pocket_keeps_a_dead_end_that_exactly_its_winners_may_enter() {
        // Behind c2: b1 and b2, next to player 1's goal a1, where player 2 may not step.
        let pos: Position<u64> = Position::start(Size::DEFAULT);
        let geo = pos.geometry();
        let door = pos.size().parse_square("c2").unwrap();
        let pocket = squares(&pos, &["b1", "b2"]);
        let fold = |wins| zone_fold(geo, door, pocket, wins);
        assert_eq!(fold([Some(false), Some(false)]), Some(pocket));
        // Player 1 wins from the door, player 2 does not: b1 keeps player 2 out.
        assert_eq!(
            fold([Some(true), Some(false)]),
            Some(squares(&pos, &["b2"]))
        );
        assert_eq!(fold([Some(true), None]), Some(squares(&pos, &["b2"])));
        // A dead end player 2 may enter and player 1 may not, or that both may
        // enter, is not there.
        assert_eq!(fold([Some(false), Some(true)]), None);
        assert_eq!(fold([Some(true), Some(true)]), None);
    }

    fn random_position(rng: &mut Rng, size: Size, plies: u64) -> Option<Position<u64>> {
        let mut pos: Position<u64> = Position::start(size);
        for _ in 0..plies {
            let moves: Vec<Square> = pos.moves().iter().collect();
            let &m = rng.choose(&moves)?;
            if pos.after(m).outcome().is_over() {
                return None;
            }
            pos.play(m);
        }
        Some(pos)
    }

    #[test]
    fn a_move_leaves_no_pocket_unfolded_for_its_child_to_find() {
        // Folding looks for the doors of new pockets only near the square the last
        // move slimed; a look at the whole region must find nothing more.
        let mut rng = Rng::new(7);
        let mut folds = 0;
        for name in ["5x5", "6x6", "7x7", "8x8", "7x5"] {
            let size: Size = name.parse().unwrap();
            for _ in 0..200 {
                let mut pos: Position<u64> = Position::start(size);
                let geo = pos.geometry();
                let mut matcher = Matcher::new(geo);
                let mut node = Node::root(geo, &pos);
                folds += fold_plain(geo, &mut matcher, &mut node).len();
                loop {
                    let moves: Vec<Square> =
                        (geo.neighbours(node.snail) & node.region).iter().collect();
                    let Some(&c) = rng.choose(&moves) else { break };
                    pos.play(c);
                    let pieces = Pieces::of(geo, node.region, node.connected);
                    node = node.child(geo, &pieces, c);
                    folds += fold_plain(geo, &mut matcher, &mut node).len();
                    let mut again = Node {
                        slimed: None,
                        ..node
                    };
                    let more = fold_plain(geo, &mut matcher, &mut again);
                    assert!(more.is_empty(), "{name} {pos}: {more:?} left unfolded");
                }
            }
        }
        assert!(
            folds > 1000,
            "the games should make pockets: {folds} squares folded"
        );
    }

    #[test]
    fn proofs_with_pockets_folded_agree_with_proofs_without() {
        let mut rng = Rng::new(11);
        let stop = AtomicBool::new(false);
        let mut checked = 0;
        for name in ["4x4", "5x5", "6x6", "7x7", "6x5", "4x6"] {
            let size: Size = name.parse().unwrap();
            for _ in 0..600 {
                // Deep enough into the game that a proof takes milliseconds.
                let squares = size.squares() as u64;
                let plies = squares / 6 + rng.below(squares / 4);
                let Some(pos) = random_position(&mut rng, size, plies) else {
                    continue;
                };
                let geo = pos.geometry();
                let prove = |min_region: u32, pos: &Position<u64>| {
                    let table = Table::new(1);
                    let budget = Budget::new(&stop, None, u64::MAX);
                    Prover::new(geo, &table, budget)
                        .with_pocket_region(min_region)
                        .prove(pos)
                };
                let (Some((plain, _)), Some((folded, best))) =
                    (prove(u32::MAX, &pos), prove(0, &pos))
                else {
                    continue;
                };
                assert_eq!(plain.is_win(), folded.is_win(), "{name} {pos}");
                // The winning move of a folded proof wins the real game too.
                if let (Proof::Win(_), Some(best)) = (folded, best) {
                    let after = pos.after(best);
                    if !after.outcome().is_over() {
                        let (reply, _) = prove(u32::MAX, &after).unwrap();
                        assert!(
                            !reply.is_win(),
                            "{name} {pos}: {} does not win",
                            pos.name(best)
                        );
                    }
                }
                checked += 1;
            }
        }
        assert!(checked > 500, "only {checked} positions proved");
    }
}
