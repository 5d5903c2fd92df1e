//! Running counts of one player's results against another, and the figures derived from them.

use std::ops::AddAssign;

use super::counts::ScoreCounts;
use super::elo::EloEstimate;
use super::normalized::NormalizedElo;
use super::pentanomial::{GameResult, pair_index, penta_matches_wdl};

/// Results from one player's point of view: single games and, where games were played in
/// colour-swapped pairs, the pentanomial counts of those pairs (`[LL, LD, DD+WL, WD, WW]`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Tally {
    /// Games won.
    pub wins: u64,
    /// Games drawn.
    pub draws: u64,
    /// Games lost.
    pub losses: u64,
    /// Game pairs per category, indexed from LL (0) to WW (4), as [`super::PENTA_NAMES`] names them.
    pub penta: [u64; 5],
}

impl Tally {
    /// An empty tally.
    pub fn new() -> Tally {
        Tally::default()
    }

    /// A tally of single games without pair information.
    pub fn from_wdl(wins: u64, draws: u64, losses: u64) -> Tally {
        Tally {
            wins,
            draws,
            losses,
            penta: [0; 5],
        }
    }

    /// Counts one game that is not part of a recorded pair.
    pub fn add_game(&mut self, result: GameResult) {
        match result {
            GameResult::Win => self.wins += 1,
            GameResult::Draw => self.draws += 1,
            GameResult::Loss => self.losses += 1,
        }
    }

    /// Counts both games of a pair and the pair's pentanomial category.
    pub fn add_pair(&mut self, first: GameResult, second: GameResult) {
        self.add_game(first);
        self.add_game(second);
        self.penta[pair_index(first, second)] += 1;
    }

    /// The same results from the opponent's point of view.
    pub fn reversed(&self) -> Tally {
        let mut penta = self.penta;
        penta.reverse();
        Tally {
            wins: self.losses,
            draws: self.draws,
            losses: self.wins,
            penta,
        }
    }

    /// Games counted.
    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    /// Game pairs counted.
    pub fn pairs(&self) -> u64 {
        self.penta.iter().sum()
    }

    /// Points scored: a win is 1, a draw 1/2.
    pub fn points(&self) -> f64 {
        self.wins as f64 + self.draws as f64 / 2.0
    }

    /// The fraction of points scored, 0..=1; `None` without games.
    pub fn score(&self) -> Option<f64> {
        let games = self.games();
        (games > 0).then(|| self.points() / games as f64)
    }

    /// Whether the pair counts can describe the same games as the W/D/L counts.
    pub fn penta_matches_wdl(&self) -> bool {
        penta_matches_wdl(&self.penta, self.wins, self.draws, self.losses)
    }

    /// The W/D/L counts as scores 0, 1/2, 1.
    pub fn trinomial(&self) -> ScoreCounts<3> {
        ScoreCounts {
            counts: [self.losses, self.draws, self.wins],
        }
    }

    /// The pair counts as scores 0, 1/4, 1/2, 3/4, 1.
    pub fn pentanomial(&self) -> ScoreCounts<5> {
        ScoreCounts { counts: self.penta }
    }

    /// Elo ± 95% and LOS: over pairs when there are any, over games otherwise.
    pub fn elo(&self) -> Option<EloEstimate> {
        if self.pairs() > 0 {
            self.elo_pentanomial()
        } else {
            self.elo_trinomial()
        }
    }

    /// Elo ± 95% and LOS over single games; `None` without games.
    pub fn elo_trinomial(&self) -> Option<EloEstimate> {
        EloEstimate::from_counts(&self.trinomial())
    }

    /// Elo ± 95% and LOS over game pairs; `None` without pairs.
    pub fn elo_pentanomial(&self) -> Option<EloEstimate> {
        EloEstimate::from_counts(&self.pentanomial())
    }

    /// Normalized Elo ± 95% over single games; `None` without games or spread.
    pub fn normalized_elo_trinomial(&self) -> Option<NormalizedElo> {
        NormalizedElo::from_counts(&self.trinomial())
    }

    /// Normalized Elo ± 95% over game pairs; `None` without pairs or spread.
    pub fn normalized_elo_pentanomial(&self) -> Option<NormalizedElo> {
        NormalizedElo::from_counts(&self.pentanomial())
    }
}

impl AddAssign<&Tally> for Tally {
    /// Adds another tally's counts (merging shards or pairings).
    fn add_assign(&mut self, other: &Tally) {
        self.wins += other.wins;
        self.draws += other.draws;
        self.losses += other.losses;
        for (mine, theirs) in self.penta.iter_mut().zip(other.penta) {
            *mine += theirs;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::pentanomial::{DD_WL, LL, WW};
    use GameResult::{Draw, Loss, Win};

    #[test]
    fn pairs_count_their_games_and_category() {
        let mut tally = Tally::new();
        tally.add_pair(Win, Loss);
        tally.add_pair(Win, Win);
        tally.add_pair(Loss, Loss);
        tally.add_pair(Loss, Win);
        assert_eq!((tally.wins, tally.draws, tally.losses), (4, 0, 4));
        assert_eq!(tally.penta, [1, 0, 2, 0, 1]);
        assert_eq!(tally.penta[DD_WL], 2);
        assert_eq!(tally.games(), 8);
        assert_eq!(tally.pairs(), 4);
        assert_eq!(tally.score(), Some(0.5));
        assert!(tally.penta_matches_wdl());
        tally.add_game(Draw);
        assert_eq!(tally.points(), 4.5);
        assert!(!tally.penta_matches_wdl());
    }

    #[test]
    fn reversing_swaps_wins_losses_and_mirrors_pairs() {
        let mut tally = Tally::new();
        tally.add_pair(Win, Win);
        tally.add_pair(Win, Draw);
        tally.add_game(Loss);
        let reversed = tally.reversed();
        assert_eq!((reversed.wins, reversed.draws, reversed.losses), (1, 1, 3));
        assert_eq!(reversed.penta[LL], 1);
        assert_eq!(reversed.penta[WW], 0);
        assert_eq!(reversed.reversed(), tally);
        let (a, b) = (tally.elo().unwrap(), reversed.elo().unwrap());
        assert!((a.elo + b.elo).abs() < 1e-9);
    }

    #[test]
    fn merging_adds_counts() {
        let mut a = Tally::from_wdl(3, 1, 2);
        let mut b = Tally::new();
        b.add_pair(Loss, Win);
        a += &b;
        assert_eq!(
            a,
            Tally {
                wins: 4,
                draws: 1,
                losses: 3,
                penta: [0, 0, 1, 0, 0],
            }
        );
    }

    #[test]
    fn estimates_use_pairs_when_present() {
        let games = Tally::from_wdl(120, 0, 80);
        let mut paired = Tally::new();
        for _ in 0..80 {
            paired.add_pair(Win, Loss);
        }
        for _ in 0..20 {
            paired.add_pair(Win, Win);
        }
        assert_eq!(paired.elo_trinomial(), games.elo());
        assert_eq!(paired.elo(), paired.elo_pentanomial());
        assert_ne!(paired.elo(), paired.elo_trinomial());
    }

    #[test]
    fn empty_tally_has_no_figures() {
        let tally = Tally::new();
        assert_eq!(tally.score(), None);
        assert_eq!(tally.elo(), None);
        assert_eq!(tally.normalized_elo_trinomial(), None);
        assert_eq!(tally.normalized_elo_pentanomial(), None);
    }
}
