//! Game results and how a pair of games (same opening, colours swapped) maps to the
//! pentanomial categories LL, LD, DD+WL, WD, WW.
//!
//! Slime Trail has no draws, so its pairs only ever land in LL, WL or WW; draws are kept so
//! that the formulas can be checked against published chess figures.

use std::fmt;

/// Index of pairs where both games were lost.
pub const LL: usize = 0;
/// Index of pairs with one loss and one draw.
pub const LD: usize = 1;
/// Index of pairs with two draws or one win and one loss (both score 1 of 2).
pub const DD_WL: usize = 2;
/// Index of pairs with one win and one draw.
pub const WD: usize = 3;
/// Index of pairs where both games were won.
pub const WW: usize = 4;

/// The names of the five pentanomial categories, in index order.
pub const PENTA_NAMES: [&str; 5] = ["LL", "LD", "DD+WL", "WD", "WW"];

/// The result of one game from the point of view of the player whose statistics are kept.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameResult {
    /// The player won.
    Win,
    /// Neither won: never in Slime Trail; kept so that the statistics stay those of any
    /// two-player game, as their tests check.
    Draw,
    /// The player lost.
    Loss,
}

impl GameResult {
    /// Points scored in half-points: 2 for a win, 1 for a draw, 0 for a loss.
    pub fn half_points(self) -> usize {
        match self {
            GameResult::Win => 2,
            GameResult::Draw => 1,
            GameResult::Loss => 0,
        }
    }

    /// The same game seen from the opponent's side.
    #[cfg(test)]
    pub fn reversed(self) -> GameResult {
        match self {
            GameResult::Win => GameResult::Loss,
            GameResult::Draw => GameResult::Draw,
            GameResult::Loss => GameResult::Win,
        }
    }
}

impl fmt::Display for GameResult {
    /// `win`, `draw` or `loss`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            GameResult::Win => "win",
            GameResult::Draw => "draw",
            GameResult::Loss => "loss",
        })
    }
}

/// The pentanomial category (`LL`..=`WW`) of a game pair: the pair's points in half-points.
pub fn pair_index(first: GameResult, second: GameResult) -> usize {
    first.half_points() + second.half_points()
}

/// Whether pentanomial counts can describe the same games as the given W/D/L counts.
///
/// Pairs fix most of the games: each LL adds two losses, LD a loss and a draw, WD a win and
/// a draw, WW two wins; the middle category may be any mix of DD and WL pairs.
pub fn penta_matches_wdl(penta: &[u64; 5], wins: u64, draws: u64, losses: u64) -> bool {
    let middle = penta[DD_WL];
    let fixed_wins = 2 * penta[WW] + penta[WD];
    let fixed_losses = 2 * penta[LL] + penta[LD];
    let fixed_draws = penta[LD] + penta[WD];
    let (Some(extra_wins), Some(extra_losses)) = (
        wins.checked_sub(fixed_wins),
        losses.checked_sub(fixed_losses),
    ) else {
        return false;
    };
    // Each WL pair in the middle category adds one win and one loss; the rest are DD pairs.
    extra_wins == extra_losses
        && extra_wins <= middle
        && draws == fixed_draws + 2 * (middle - extra_wins)
}

#[cfg(test)]
mod tests {
    use super::*;
    use GameResult::{Draw, Loss, Win};

    #[test]
    fn pairs_map_to_their_categories_in_either_order() {
        assert_eq!(pair_index(Loss, Loss), LL);
        assert_eq!(pair_index(Loss, Draw), LD);
        assert_eq!(pair_index(Draw, Loss), LD);
        assert_eq!(pair_index(Draw, Draw), DD_WL);
        assert_eq!(pair_index(Win, Loss), DD_WL);
        assert_eq!(pair_index(Loss, Win), DD_WL);
        assert_eq!(pair_index(Win, Draw), WD);
        assert_eq!(pair_index(Draw, Win), WD);
        assert_eq!(pair_index(Win, Win), WW);
    }

    #[test]
    fn reversing_a_pair_mirrors_its_category() {
        for a in [Win, Draw, Loss] {
            for b in [Win, Draw, Loss] {
                assert_eq!(pair_index(a.reversed(), b.reversed()), 4 - pair_index(a, b));
            }
        }
    }

    #[test]
    fn consistency_of_pairs_with_game_counts() {
        // 2 LL, 1 LD, 3 middle (2 WL + 1 DD), 0 WD, 1 WW.
        let penta = [2, 1, 3, 0, 1];
        assert!(penta_matches_wdl(&penta, 4, 3, 7));
        // All three middle pairs as WL, or all as DD.
        assert!(penta_matches_wdl(&penta, 5, 1, 8));
        assert!(penta_matches_wdl(&penta, 2, 7, 5));
        assert!(!penta_matches_wdl(&penta, 4, 3, 6));
        assert!(!penta_matches_wdl(&penta, 1, 3, 7));
        assert!(!penta_matches_wdl(&penta, 6, 0, 8));
        assert!(penta_matches_wdl(&[0; 5], 0, 0, 0));
        assert!(!penta_matches_wdl(&[0; 5], 1, 0, 1));
    }
}
