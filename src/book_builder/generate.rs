//! The book proven one position at a time: every position of the walk is tried from
//! an empty table within the hard-node limit, and a won one that needs more goes
//! into the book with the winning move and game length of an unlimited proof.

use std::fmt;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use super::walk::walk;
use crate::board::Position;
use crate::search::{BookLine, Engine, EngineOptions, Limits, Score, Verdict};

/// What one ply of [`generate`] found.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct PlyReport {
    /// The ply.
    pub ply: usize,
    /// Its positions.
    pub positions: usize,
    /// Positions proven within 1,000 nodes, 10,000, the hard-node limit, and not
    /// within it (hard).
    pub counts: [usize; 4],
    /// Hard positions that are won: the ply's book entries.
    pub hard_wins: usize,
    /// The time the ply took.
    pub time: Duration,
}

impl fmt::Display for PlyReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let [quick, short, within, hard] = self.counts;
        write!(
            f,
            "ply {}: {} positions (<1k {quick}, <10k {short}, <limit {within}, hard {hard}, \
             won and hard {} of {hard}), {:.1} s",
            self.ply,
            self.positions,
            self.hard_wins,
            self.time.as_secs_f64()
        )
    }
}

/// The book of `starts` within `plies` plies: won positions whose proof from an
/// empty table needs more than `hard_nodes` nodes with no pockets folded, as `go`
/// proves, in the order met. `progress` hears of each ply.
pub fn generate(
    starts: &[Position],
    plies: u32,
    hard_nodes: u64,
    progress: &mut dyn FnMut(PlyReport),
) -> Vec<BookLine> {
    let stop = AtomicBool::new(false);
    // Hard for `go`, whose proof slices fold no pockets.
    let mut trial = Engine::new(EngineOptions {
        fold_pockets: false,
        ..EngineOptions::default()
    });
    let mut truth = Engine::new(EngineOptions::default());
    let mut book = Vec::new();
    for (ply, frontier) in walk(starts, plies).iter().enumerate() {
        let ply_started = Instant::now();
        let mut hard_wins = 0;
        // Positions proven within 1,000 nodes, 10,000, the limit, and not within it.
        let mut counts = [0usize; 4];
        for position in frontier {
            trial.new_game();
            let out = trial.prove(position, &Limits::nodes(hard_nodes), &stop, &mut |_| {});
            let bucket = match (out.verdict, out.proof_nodes) {
                (None, _) => 3,
                (Some(_), n) if n < 1_000 => 0,
                (Some(_), n) if n < 10_000 => 1,
                (Some(_), _) => 2,
            };
            counts[bucket] += 1;
            if out.verdict.is_none() {
                // The full solve, for the winning move and the game's length: exact
                // where its search to the end fits, otherwise the proof's bound.
                // From an empty table, so that each entry is what `solve` says of
                // the position alone.
                truth.new_game();
                let full = truth.solve(position, &Limits::default(), &stop, &mut |_| {});
                let bound = match full.info.score {
                    Some(Score::Mate(n)) if n > 0 => Some(n as u32),
                    _ => None,
                };
                let won = full.verdict == Some(Verdict::Win);
                if let (true, Some(square), Some(plies)) =
                    (won, full.best_move, full.length.or(bound))
                {
                    hard_wins += 1;
                    book.push(BookLine {
                        position: *position,
                        square,
                        plies: plies as u16,
                    });
                }
            }
        }
        progress(PlyReport {
            ply,
            positions: frontier.len(),
            counts,
            hard_wins,
            time: ply_started.elapsed(),
        });
    }
    book
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Size;
    use crate::search::verify_book;

    #[test]
    fn a_ply_report_prints_its_counts() {
        let report = PlyReport {
            ply: 3,
            positions: 120,
            counts: [100, 12, 5, 3],
            hard_wins: 2,
            time: Duration::from_millis(1300),
        };
        assert_eq!(
            report.to_string(),
            "ply 3: 120 positions (<1k 100, <10k 12, <limit 5, hard 3, won and hard 2 of 3), 1.3 s"
        );
    }

    #[test]
    fn every_entry_of_a_generated_book_is_a_hard_proven_win() {
        let size: Size = "5x5".parse().unwrap();
        let starts = [Position::start_named(size, "c3").unwrap()];
        let mut reports = Vec::new();
        let book = generate(&starts, 2, 30, &mut |r| reports.push(r));
        assert_eq!(reports.iter().map(|r| r.ply).collect::<Vec<_>>(), [0, 1, 2]);
        assert_eq!(reports[0].positions, 1);
        assert_eq!(reports[1].positions, 5);
        for r in &reports {
            assert_eq!(r.counts.iter().sum::<usize>(), r.positions, "{r}");
            assert!(r.hard_wins <= r.counts[3], "{r}");
        }
        assert_eq!(
            book.len(),
            reports.iter().map(|r| r.hard_wins).sum::<usize>()
        );
        assert!(!book.is_empty());
        assert!(verify_book(&book, &mut |_, _| {}).is_empty());
    }
}
