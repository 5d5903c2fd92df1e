//! The heuristic evaluation, for positions where goals are still reachable.
//!
//! It depends only on the reachable region, the snail's square and the side to move,
//! like the transposition-table key. Scores are in centipoints from the side to
//! move's point of view and stay far below the band of proven results.

use crate::board::{Bitboard, Geometry, Side, Square, Word};

use super::matching::Matcher;

/// Weights of the evaluation terms, in centipoints.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EvalWeights {
    /// Per safe move of the side to move.
    pub mobility: i32,
    /// Per safe reply the opponent has after our most restricting move.
    pub restriction: i32,
    /// When the side to move would win the region as plain geography (goals ignored).
    pub parity: i32,
    /// Per step the opponent's goal zone is farther than our own.
    pub race: i32,
    /// Per square of our own goal zone still reachable, minus the opponent's.
    pub zones: i32,
    /// Per reachable square within two steps of our own goal through the region,
    /// minus the opponent's.
    pub goal_area: i32,
}

/// The weights in use, fitted by `scripts/tune-eval.py` to the results of 6,566
/// 9x9 arena games, then refitted to 1,200 games of those weights against themselves
/// (the README's Speed section has the fits and their SPRTs). Signs follow the
/// games, not intuition: a shorter race to our own zone went with losing.
pub const WEIGHTS: EvalWeights = EvalWeights {
    mobility: 4,
    restriction: 8,
    parity: -38,
    race: -16,
    zones: 1,
    goal_area: 130,
};

/// Largest region whose geography parity is computed by matching.
const PARITY_MATCHING_MAX: u32 = 32;

/// Distance bound used when a zone cannot be reached.
const FAR: i32 = 16;

/// The evaluation and its terms.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Terms {
    /// The sum, from the side to move's point of view.
    pub total: i32,
    /// Each weighted term by name.
    pub parts: Vec<(&'static str, i32)>,
}

/// Steps from `from` to the nearest square of `targets`, moving inside `within`.
fn distance<W: Word>(
    geometry: &Geometry<W>,
    from: Bitboard<W>,
    targets: Bitboard<W>,
    within: Bitboard<W>,
) -> i32 {
    if targets.is_empty() {
        return FAR;
    }
    let mut reached = from;
    for steps in 0..FAR {
        if reached.intersects(targets) {
            return steps;
        }
        let grown = geometry.dilate(reached) & (within | targets);
        if grown == reached {
            return FAR;
        }
        reached = grown;
    }
    FAR
}

/// Evaluates the position with the snail on `snail`, `side` to move, and `region`
/// reachable. Returns the weighted terms; `total` is their sum.
pub fn evaluate<W: Word>(
    geometry: &Geometry<W>,
    matcher: &mut Matcher<W>,
    open: Bitboard<W>,
    snail: Square,
    side: Side,
    region: Bitboard<W>,
) -> Terms {
    let size = geometry.size();
    let w = WEIGHTS;
    let safe = geometry.neighbours(snail) & (open - geometry.deadly(side));
    let mobility = safe.len() as i32;
    let restriction = safe
        .iter()
        .map(|c| (geometry.neighbours(c) & (open - geometry.deadly(!side))).len() as i32)
        .min()
        .unwrap_or(0);
    // Matching a large region costs more than the rest of a node; there the
    // parity of the region's size stands in for it.
    let parity = if region.len() <= PARITY_MATCHING_MAX {
        if matcher.covers_in_every_maximum(snail, region) {
            1
        } else {
            -1
        }
    } else if region.len() % 2 == 1 {
        1
    } else {
        -1
    };
    let own_zone = geometry.neighbours(size.goal(side)) & region;
    let opponent_zone = geometry.neighbours(size.goal(!side)) & region;
    let start = Bitboard::from_square(snail);
    let to_own = distance(geometry, start, own_zone, region);
    let to_opponent = distance(geometry, start, opponent_zone, region);
    // The zones lie in the region, and a dilation keeps the set it grows.
    let own_area = geometry.dilate(own_zone) & region;
    let opponent_area = geometry.dilate(opponent_zone) & region;
    let parts = vec![
        ("mobility", w.mobility * mobility),
        ("restriction", -w.restriction * restriction),
        ("parity", w.parity * parity),
        ("race", w.race * (to_opponent - to_own)),
        (
            "zones",
            w.zones * (own_zone.len() as i32 - opponent_zone.len() as i32),
        ),
        (
            "goal_area",
            w.goal_area * (own_area.len() as i32 - opponent_area.len() as i32),
        ),
    ];
    Terms {
        total: parts.iter().map(|&(_, v)| v).sum(),
        parts,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Position;
    use crate::search::reduced::reachable_region;

    fn eval(text: &str) -> Terms {
        let pos: Position<u64> = Position::parse(text).unwrap();
        let geo = pos.geometry();
        let mut matcher = Matcher::new(geo);
        let region = reachable_region(geo, pos.open(), pos.snail());
        evaluate(
            geo,
            &mut matcher,
            pos.open(),
            pos.snail(),
            pos.side_to_move(),
            region,
        )
    }

    #[test]
    fn terms_add_up_and_are_named() {
        let terms = eval("7/7/7/3s3/7/7/7 1");
        assert_eq!(terms.total, terms.parts.iter().map(|p| p.1).sum::<i32>());
        let names: Vec<_> = terms.parts.iter().map(|p| p.0).collect();
        assert_eq!(
            names,
            [
                "mobility",
                "restriction",
                "parity",
                "race",
                "zones",
                "goal_area"
            ]
        );
    }

    #[test]
    fn the_start_is_symmetric_for_the_zones() {
        let terms = eval("7/7/7/3s3/7/7/7 1");
        let race = terms.parts.iter().find(|p| p.0 == "race").unwrap().1;
        let zones = terms.parts.iter().find(|p| p.0 == "zones").unwrap().1;
        assert_eq!((race, zones), (0, 0));
    }

    #[test]
    fn being_closer_to_the_own_goal_scores_the_race() {
        // Snail on b3, player 1 to move: one step from its own zone, four from the other.
        let near_own = eval("7/7/7/7/1s5/7/7 1");
        let race = near_own.parts.iter().find(|p| p.0 == "race").unwrap().1;
        assert_eq!(race, WEIGHTS.race * (4 - 1), "{near_own:?}");
    }

    #[test]
    fn the_goal_area_counts_the_squares_two_steps_from_each_goal() {
        // g7's zone (f7, f6, g6) is slimed: player 2's area is empty, player 1's is
        // b1, a2, b2 and the five squares one step beyond them.
        for (side, sign) in [("1", 1), ("2", -1)] {
            let terms = eval(&format!("5x1/5xx/7/3s3/7/7/7 {side}"));
            let area = terms.parts.iter().find(|p| p.0 == "goal_area").unwrap().1;
            assert_eq!(area, sign * WEIGHTS.goal_area * 8, "{terms:?}");
        }
    }
}
